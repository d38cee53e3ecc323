"""Lesson boards on a tablet: a finger's tap (touch events only, no mouse) acts once.

Lesson 02's landing puzzle is answered with one tap, lesson 03's sandbox places a storm with one
tap (a second action from the same tap would remove it again: the map's text would still say
three storms). The page counts mouse events and must see none.
Screenshots: ``artifacts/screenshots/touch-lesson-<nn>-<lang>.png``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, expect

from typhoon_edu import i18n
from typhoon_edu.server.serve import VoilaProcess

from .harness import REPO_ROOT, assert_canvas_not_blank, save_screenshot
from .langs import flow_langs
from .touch_helpers import mouse_events, touch_cell, touch_page

pytestmark = pytest.mark.browser

TABLET = {"width": 1024, "height": 1366}
PUZZLE = {"en": "New puzzle", "zh-TW": "新題目"}


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_landing_puzzle_by_touch(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    server = voila(REPO_ROOT / "notebooks" / lang / "02_grid_pathing.ipynb", lang=lang, timeout=120)
    page = touch_page(chromium_browser, TABLET)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(".quiz-option").first).to_be_visible(timeout=120_000)
    assert_canvas_not_blank(page, ".lesson-map", timeout=30)
    page.get_by_role("button", name=PUZZLE[lang]).tap()
    scores = [i18n.t("lesson.pathing.puzzle_score", lang, right=r, total=1) for r in (0, 1)]
    answered = page.get_by_text(scores[0]).or_(page.get_by_text(scores[1]))
    expect(answered).to_have_count(0)
    touch_cell(page, ".lesson-map", (9, 6), 44)
    expect(answered.first).to_be_visible(timeout=15_000)  # one puzzle answered, once
    # the map's own text follows: the live region says which cell was chosen
    expect(page.locator(".te-map-live").first).to_contain_text(i18n.cell_label((9, 6), lang), timeout=5_000)
    assert mouse_events(page) == 0, "a mouse event reached the page: the test did not test touch"
    save_screenshot(page, f"touch-lesson-02-{lang}", full_page=False)
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_sandbox_by_touch(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    server = voila(REPO_ROOT / "notebooks" / lang / "03_typhoon_intensity.ipynb", lang=lang, timeout=120)
    page = touch_page(chromium_browser, TABLET)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(".quiz-option").first).to_be_visible(timeout=120_000)
    assert_canvas_not_blank(page, ".sandbox-map", timeout=30)
    sandbox = page.locator("canvas.sandbox-map").first
    expect(sandbox).to_have_attribute("aria-label", _storms(3, lang), timeout=15_000)
    touch_cell(page, ".sandbox-map", (14, 2), 44)
    expect(page.get_by_text(i18n.t("lesson.intensity.sandbox_placed", lang, cell=i18n.cell_label((14, 2), lang),
                                   level=_level3(lang)))).to_be_visible(timeout=15_000)
    page.wait_for_timeout(1500)  # a second action from the same tap would remove the storm again
    expect(sandbox).to_have_attribute("aria-label", _storms(4, lang))
    assert mouse_events(page) == 0
    save_screenshot(page, f"touch-lesson-03-{lang}", full_page=False)
    page.context.close()


def _storms(n: int, lang: str) -> object:
    import re

    return re.compile(re.escape(i18n.t("maptext.storms", lang, count=n, list="@@")).split("@@")[0])


def _level3(lang: str) -> str:
    from typhoon_edu.engine.rules import load_rules

    return i18n.level_name(load_rules(), 3, lang)
