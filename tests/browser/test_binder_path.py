"""Binder's serving path, reproduced locally (issue 4 §3).

A fresh virtual environment is built from ``binder/`` exactly as repo2docker does (requirements
first, then ``postBuild``), Jupyter Server runs from it with the Voilà server extension, and the
page a ``urlpath=voila/render/notebooks/dashboard.ipynb`` badge opens is loaded in headless
Chromium until the dashboard's setup screen is usable. Takes a minute or two (pip install).
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .harness import REPO_ROOT, assert_canvas_not_blank, save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def binder_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    env_dir = tmp_path_factory.mktemp("binder-venv")
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = str(env_dir / "bin" / "python")
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PATH": f"{env_dir / 'bin'}:{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    subprocess.run([python, "-m", "pip", "install", "-q", "-r", str(REPO_ROOT / "binder" / "requirements.txt")],
                   check=True, env=env, cwd=REPO_ROOT, timeout=900)
    subprocess.run(["bash", str(REPO_ROOT / "binder" / "postBuild")], check=True, env=env, cwd=REPO_ROOT,
                   timeout=900)
    return python


def test_the_binder_environment_serves_the_dashboard_badge_url(binder_python, jupyter_server, page, tmp_path):
    # the project came from postBuild's `pip install .`, not from this checkout's editable install
    where = subprocess.run([binder_python, "-c", "import typhoon_edu; print(typhoon_edu.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout.strip()
    assert where.startswith(str(Path(binder_python).parent.parent)), where
    assert sys.executable != binder_python
    server = jupyter_server(REPO_ROOT, python=binder_python)
    page.goto(server.voila_url("notebooks/dashboard.ipynb"))
    expect(page.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    page.locator(".typhoon-hands-mode button").nth(1).click()  # one computer: the board at once, no lobby
    page.wait_for_timeout(300)
    page.locator(".typhoon-setup-start").click()
    assert_canvas_not_blank(page, ".typhoon-board canvas", timeout=60)
    save_screenshot(page, "binder-path-dashboard")
