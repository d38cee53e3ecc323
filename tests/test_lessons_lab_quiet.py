"""``typhoon-edu lessons`` in JupyterLab, as a teacher meets it: no prompt about Jupyter news, lessons that open
unmodified, and a terminal whose own lines lead with and end with the URL to open (the server's routine INFO
lines left out, ``--verbose`` brings them back)."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

import pytest
from package_helpers import CommandRun, free_port
from serve_helpers import http_request

from typhoon_edu.lessonbook import shipped_lessons
from typhoon_edu.lessons_cmd import build_lab_command
from typhoon_edu.server.lab_app import ANNOUNCEMENTS, page_config_hook

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from refresh_outputs import kernelspec_metadata  # noqa: E402


def test_the_lab_server_is_quiet_and_leaves_out_the_news_prompt():
    cmd = build_lab_command(Path("/l"), port=8871, token="abc", python="python", as_root=False)
    assert "--ServerApp.jpserver_extensions=typhoon_edu.server.lab_app=True" in cmd  # the page without the prompt
    assert "--ServerApp.jpserver_extensions=notebook_shim=False" in cmd  # its false ServerApp.token warning
    assert {"--ServerApp.log_level=WARN", "--LabApp.log_level=WARN"} <= set(cmd)
    loud = build_lab_command(Path("/l"), port=8871, token="abc", python="python", as_root=False, verbose=True)
    assert not [a for a in loud if "log_level" in a]


def test_the_page_config_hook_disables_the_announcements_plugin_and_keeps_the_others():
    previous = page_config_hook(lambda handler, config: {**config, "seen": True})
    config = previous(None, {"disabledExtensions": ["some:plugin"]})
    assert config["seen"] and config["disabledExtensions"] == ["some:plugin", ANNOUNCEMENTS]


@pytest.mark.parametrize("path", shipped_lessons("en") + shipped_lessons("zh-TW"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_lesson_stores_the_kernelspec_jupyterlab_writes(path: Path):
    """JupyterLab sets ``kernelspec`` to the running kernel's on opening: a lesson that stores another one
    (lesson 04 said 'Python 3') opens already marked as modified."""
    metadata = json.loads(path.read_text(encoding="utf-8"))["metadata"]
    assert metadata["kernelspec"] == kernelspec_metadata()


@pytest.mark.slow
def test_the_command_leads_and_ends_with_the_url_and_the_page_has_no_news_prompt(tmp_path: Path):
    run = CommandRun([sys.executable, "-m", "typhoon_edu.lessons_cmd", "--no-browser", "--dir", str(tmp_path),
                      "--port", str(free_port()), "--lang", "zh-TW"]).start()
    try:
        url = run.wait_for(r"JupyterLab 裡的課程：(http://localhost:(\d+)/lab/tree/zh-TW/00_index\.ipynb\?token=(\S+))",
                           180)
        port, token = int(url.group(2)), url.group(3)
        lines = [line for line in run.lines if line.strip()]
        assert lines[0].startswith("已把課程複製到")
        assert lines[1] == f"正在啟動課程，網址：{url.group(1)} …"  # before anything the server says
        assert lines[-1] == f"JupyterLab 裡的課程：{url.group(1)}"  # and last
        assert not [line for line in lines if line.startswith("[I ") or "DeprecationWarning" in line], lines
        status, _, page = http_request(port, "/lab/tree/zh-TW/00_index.ipynb", headers={"Authorization": f"token {token}"},
                                       timeout=60)
        config = json.loads(html.unescape(re.search(r'id="jupyter-config-data"[^>]*>\s*(.*?)\s*</script>', page, re.S).group(1)))
        assert status == 200 and ANNOUNCEMENTS in config["disabledExtensions"]
        assert run.terminate(60) == 0
    finally:
        run.stop()
