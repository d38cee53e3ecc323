"""Lesson 05 in Voilà and headless Chromium: the risk map is painted, a prediction round works, screenshots saved.

Screenshots: ``artifacts/screenshots/risk-<lang>-<viewport>.png`` (whole page) and
``risk-<lang>-<viewport>-first-screen.png`` (what a class sees before scrolling), plus
``risk-<lang>-<viewport>-after-run.png`` (the explorer after one prediction).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from typhoon_edu import i18n
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui import palette

from .harness import REPO_ROOT, assert_canvas_not_blank, canvas_pixel, unreadable

pytestmark = pytest.mark.browser

NOTEBOOKS = {lang: REPO_ROOT / "notebooks" / lang / "05_which_coast_is_most_at_risk.ipynb" for lang in i18n.LANGS}
RULES = load_rules()
CELL, MARGIN = 48, 24  # the heat map's canvas geometry (cell side and margin, canvas pixels)


def _cell_pixel(x: int, y: int) -> tuple[int, int]:
    """A canvas pixel inside cell (x, y), near its top-left corner (away from numbers and labels)."""
    return MARGIN + x * CELL + 6, MARGIN + y * CELL + 6


@pytest.mark.parametrize("viewport", ["laptop", "projector", "phone"])
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_risk_lesson_in_voila(
    voila: Callable[..., VoilaProcess],
    page: Page,
    page_errors: list[str],
    screenshot: Callable[..., Path],
    lang: str,
    viewport: str,
) -> None:
    server = voila(NOTEBOOKS[lang], lang=lang)
    page.goto(server.url)

    # a phone shows the map's phone drawing (every text at least 11 px there), a wider screen the usual one; both are
    # the board's 16 x 12 cells of 48 px and its margins (the legend is HTML under the map)
    shown = ".risk-map-phone" if viewport == "phone" else ".risk-map"
    risk_map = page.locator(shown)
    expect(risk_map).to_be_visible(timeout=90_000)
    expect(page.locator(".risk-map-phone" if viewport != "phone" else ".risk-map").first).to_be_hidden()
    stats = assert_canvas_not_blank(page, shown, timeout=30)
    assert (stats.width, stats.height) == (816, 624)
    assert stats.colours >= 10  # board colours plus several heat colours
    expect(page.locator(".heat-legend-box").first).to_be_visible()
    # Zone 2 is among the most visited places: its cells carry a red heat colour.
    r, g, b, _ = canvas_pixel(page, shown, *_cell_pixel(11, 7))
    assert r > 180 and r > g + 60 and r > b + 60, (r, g, b)

    # the rest of the lesson rendered, in the lesson's language
    expect(page.locator(".risk-ranking")).to_contain_text(i18n.t("risk.rank.title", lang))
    expect(page.locator(".risk-real")).to_contain_text("PAGASA")
    expect(page.locator(".risk-spread svg")).to_be_visible()
    quiz = page.locator(".risk-quiz")
    expect(quiz).to_contain_text(i18n.t("risk.quiz.meaning.prompt", lang))
    screenshot(page, f"risk-{lang}-{viewport}-first-screen", full_page=False)
    screenshot(page, f"risk-{lang}-{viewport}")
    problems = unreadable(page)
    assert not problems, f"lesson 05 on a {viewport}: cut off or squeezed: {problems}"

    # One prediction round: only westward stops, predict the Philippines, run.
    explorer = page.locator(".risk-explorer")
    run = explorer.locator(".risk-run")
    expect(run).to_be_disabled()
    explorer.get_by_role("button", name=i18n.t("risk.preset.west", lang), exact=True).click()
    philippines = i18n.region_name(RULES, "Philippines", lang)
    explorer.locator(".widget-toggle-buttons button", has_text=philippines).click()
    expect(run).to_be_enabled()
    run.click()
    feedback = explorer.locator(".risk-feedback")
    expect(feedback).to_contain_text("✔", timeout=30_000)
    expect(feedback).to_contain_text(i18n.t("risk.explore.best", lang, region=philippines))
    # Westward storms never reach Japan: its cells turn plain land grey (no heat colour, no region colour).
    grey = tuple(int(palette.LAND[i : i + 2], 16) for i in (1, 3, 5))
    page.wait_for_timeout(500)
    r, g, b, _ = canvas_pixel(page, shown, *_cell_pixel(9, 2))
    assert max(abs(r - grey[0]), abs(g - grey[1]), abs(b - grey[2])) <= 6, (r, g, b)
    explorer.scroll_into_view_if_needed()
    screenshot(page, f"risk-{lang}-{viewport}-after-run", full_page=False)

    # The quiz answers at once: the right option of question 1 shows a tick and the reason.
    quiz.get_by_role("radio", name=i18n.t("risk.quiz.meaning.o2", lang)).check()
    expect(quiz).to_contain_text("✔ " + i18n.t("risk.quiz.right", lang))
    expect(quiz).to_contain_text(i18n.t("risk.quiz.meaning.why", lang))

    assert not [e for e in page_errors if "pageerror" in e], page_errors
