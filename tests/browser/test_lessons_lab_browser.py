"""``typhoon-edu lessons`` in a real browser: JupyterLab opens on the copy's index page, the index links
open the lessons, and a lesson's first cell says how to run it (screenshots in artifacts/screenshots/)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from package_helpers import CommandRun, free_port
from playwright.sync_api import expect

from .harness import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_printed_url_opens_the_index_and_a_link_opens_lesson_01(page, tmp_path: Path):
    run = CommandRun([sys.executable, "-m", "typhoon_edu.lessons_cmd", "--no-browser", "--lang", "zh-TW",
                      "--dir", str(tmp_path), "--port", str(free_port())]).start()
    try:
        url = run.wait_for(r"JupyterLab 裡的課程：(http://localhost:\d+/lab/tree/zh-TW/00_index\.ipynb\?token=\S+)",
                           180).group(1)
        page.goto(url)
        index = page.locator(".jp-RenderedMarkdown").filter(has_text="第 01 課")
        expect(index.first).to_be_visible(timeout=120_000)
        expect(page.locator(".jp-RenderedMarkdown h1").first).to_contain_text("颱風不要來")
        save_screenshot(page, "lessons-lab-index", full_page=False)
        page.locator(".jp-RenderedMarkdown a", has_text="第 01 課").click()
        hint = page.locator(".jp-RenderedMarkdown blockquote", has_text="Run ▸ Run All Cells")
        expect(hint.first).to_be_visible(timeout=60_000)
        expect(page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current")).to_contain_text("01_compass_rolls.ipynb")
        save_screenshot(page, "lessons-lab-lesson-01", full_page=False)
        assert run.terminate(60) == 0
    finally:
        run.stop()
