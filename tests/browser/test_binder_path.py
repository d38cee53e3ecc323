"""Binder's serving path, reproduced locally (issue 4 §3).

A fresh virtual environment is built from ``binder/`` exactly as repo2docker does (requirements
first, then ``postBuild``), Jupyter Server runs from it with the Voilà server extension, and the
page a ``urlpath=voila/render/notebooks/dashboard.ipynb`` badge opens is loaded in headless
Chromium until the dashboard's setup screen is usable. The environment takes a minute or two to build (pip
install); it is built in the background while the other browser tests run (binder_build.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .binder_build import BINDER
from .harness import REPO_ROOT, assert_canvas_not_blank, save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def binder_python() -> str:
    """The Python of Binder's environment, built in the background since the session started (binder_build.py)."""
    return BINDER.python(timeout=900)


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
