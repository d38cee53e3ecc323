"""Tests of the Voilà launcher behind ``typhoon-edu serve`` (no browser needed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from typhoon_edu.ui import serve as serve_module
from typhoon_edu.ui.serve import (
    LANG_ENV_VAR,
    VoilaProcess,
    build_voila_command,
    build_voila_env,
    default_notebook,
    find_free_port,
    serve,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
SMOKE_NOTEBOOK = REPO_ROOT / "notebooks" / "smoke" / "one_button.ipynb"


def test_command_runs_voila_on_the_notebook_and_port() -> None:
    cmd = build_voila_command(Path("nb/dash.ipynb"), port=9123, python="/py")
    assert cmd[:4] == ["/py", "-m", "typhoon_edu.ui.voila_app", str(Path("nb/dash.ipynb"))]  # Voilà, subclassed
    assert "--port=9123" in cmd
    assert "--Voila.port_retries=0" in cmd  # the printed URL is the served one


def test_command_culls_idle_kernels_but_not_connected_ones() -> None:
    cmd = build_voila_command("d.ipynb", port=9000, cull_idle_timeout=300, cull_interval=30)
    assert "--MappingKernelManager.cull_idle_timeout=300" in cmd
    assert "--MappingKernelManager.cull_interval=30" in cmd
    assert "--MappingKernelManager.cull_connected=False" in cmd


def test_command_preheats_kernels_by_default_and_can_turn_it_off() -> None:
    on = build_voila_command("d.ipynb", port=9000, pool_size=2)
    assert "--preheat_kernel=True" in on and "--pool_size=2" in on
    off = build_voila_command("d.ipynb", port=9000, preheat=False)
    assert not any(arg.startswith(("--preheat_kernel", "--pool_size")) for arg in off)


def test_command_honours_no_browser() -> None:
    assert "--no-browser" in build_voila_command("d.ipynb", port=9000, open_browser=False)
    assert "--no-browser" not in build_voila_command("d.ipynb", port=9000, open_browser=True)


def test_command_appends_extra_args_last_so_they_win() -> None:
    cmd = build_voila_command("d.ipynb", port=9000, extra_args=["--theme=dark"])
    assert cmd[-1] == "--theme=dark"


@pytest.mark.parametrize("port", [0, -1, 65536])
def test_command_rejects_impossible_ports(port: int) -> None:
    with pytest.raises(ValueError, match="port"):
        build_voila_command("d.ipynb", port=port)


def test_command_rejects_an_empty_preheated_pool() -> None:
    with pytest.raises(ValueError, match="pool_size"):
        build_voila_command("d.ipynb", port=9000, pool_size=0)


def test_language_reaches_the_notebook_through_the_environment() -> None:
    env = build_voila_env("en", base={"PATH": "/bin"})
    assert env[LANG_ENV_VAR] == "en" and env["PATH"] == "/bin"
    assert build_voila_env(base={})[LANG_ENV_VAR] == "zh-TW"


def test_unknown_language_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="zh-TW, en"):
        build_voila_env("fr", base={})


def test_free_port_is_bindable() -> None:
    import socket

    port = find_free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


def test_default_notebook_prefers_the_packaged_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "typhoon_edu"
    (pkg / "notebooks").mkdir(parents=True)
    (tmp_path / "notebooks").mkdir()
    monkeypatch.setattr(serve_module, "_PACKAGE_DIR", pkg)
    (tmp_path / "notebooks" / "dashboard.ipynb").write_text("{}")
    assert default_notebook() == tmp_path / "notebooks" / "dashboard.ipynb"
    (pkg / "notebooks" / "dashboard.ipynb").write_text("{}")
    assert default_notebook() == pkg / "notebooks" / "dashboard.ipynb"


def test_serve_reports_a_missing_notebook(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert serve(notebook=tmp_path / "nope.ipynb", open_browser=False, lang="en") == 2
    assert "not found" in capsys.readouterr().err
    assert serve(notebook=tmp_path / "nope.ipynb", open_browser=False) == 2  # zh-TW is the default
    assert "找不到遊戲面板筆記本" in capsys.readouterr().err


def test_voila_process_serves_the_notebook_with_the_language(tmp_path: Path) -> None:
    with VoilaProcess(SMOKE_NOTEBOOK, lang="en", preheat=False, log_path=tmp_path / "voila.log") as server:
        server.wait_ready(timeout=60)
        with urllib.request.urlopen(server.url, timeout=60) as response:
            page = response.read().decode()
        assert response.status == 200 and "smoke" in page.lower()
    assert server.process is not None and server.process.poll() is not None  # stopped on exit


def test_serve_command_line_prints_the_url_and_stops_on_interrupt() -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "typhoon_edu.ui.serve",
            "--no-browser",
            "--lang",
            "en",
            "--notebook",
            str(SMOKE_NOTEBOOK),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 90
        url = None
        assert proc.stdout is not None
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("Typhoon Alert dashboard: "):
                url = line.split(": ", 1)[1].strip()
        assert url is not None and url.startswith("http://localhost:")
        with urllib.request.urlopen(url + "voila/static/extension.js", timeout=30) as response:
            assert response.status < 500
    except urllib.error.HTTPError as err:  # 403 for static files is still "served"
        assert err.code < 500
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("serve did not stop on Ctrl+C")


def test_installed_package_writes_the_same_dashboard_notebook(tmp_path, monkeypatch):
    import json

    from typhoon_edu.ui import serve as serve_mod

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = serve_mod.written_dashboard_notebook()
    assert path.is_file() and str(path).startswith(str(tmp_path))
    written = "".join(json.loads(path.read_text())["cells"][0]["source"])
    repo = Path(__file__).resolve().parent.parent / "notebooks" / "dashboard.ipynb"
    assert written == "".join(json.loads(repo.read_text())["cells"][0]["source"])


def test_serve_help_follows_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    from typhoon_edu.ui.serve import main as serve_main

    with pytest.raises(SystemExit) as stop:
        serve_main(["--help", "--lang", "zh-TW"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert "顯示這段說明後結束" in text and "要開啟的筆記本" in text and "show this help" not in text
