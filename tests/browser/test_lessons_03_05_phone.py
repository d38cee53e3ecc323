"""Lessons 03 and 05 on a phone (390x844, touch): the ranking chart draws its bars and fits, the wide tables say
they scroll sideways, the footprints' captions are readable, the board's region names are not overdrawn, and lesson
03's two boards show their phone drawing (every text at least 11 CSS px).

Screenshots: ``artifacts/screenshots/phone-l05-ranking-<lang>.png``, ``phone-l03-tables-<lang>.png``,
``phone-l03-boards-<lang>.png``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu.server.serve import VoilaProcess

from .harness import REPO_ROOT, save_screenshot
from .touch_helpers import touch_page

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# Every text of ``within`` that reaches past the right edge of the screen (its line's box, from a Range), and the
# width of each region's bar of the ranking.
_PAST_RIGHT_JS = """within => {
  const out = [];
  const root = document.querySelector(within);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || n.parentElement.closest('style')) continue;
    const range = document.createRange(); range.selectNodeContents(n);
    for (const r of range.getClientRects())
      if (r.width > 0 && r.right > window.innerWidth + 1) { out.push(`"${n.textContent.trim().slice(0, 40)}" ends at ${Math.round(r.right)} px`); break; }
  }
  return out; }"""
_BARS_JS = """() => [...document.querySelectorAll('.risk-ranking [data-region]')].map(row =>
  [row.dataset.region, row.querySelector(':scope > span:nth-child(3) > span:first-child').getBoundingClientRect().width])"""


def _phone(voila: Callable[..., VoilaProcess], browser: Browser, notebook: str, lang: str, ready: str) -> Page:
    server = voila(REPO_ROOT / "notebooks" / lang / notebook, lang=lang, timeout=120)
    page = touch_page(browser, PHONE, locale=lang)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(ready).first).to_be_visible(timeout=120_000)
    page.wait_for_timeout(1500)
    return page


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_lesson05_ranking_fits_a_phone_and_draws_its_bars(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                                         lang: str) -> None:
    """The ranking's heading, caption and every row stay on the screen, and each region's bar is drawn (the top one
    long enough to see: its length is what the chart is for)."""
    page = _phone(voila, chromium_browser, "05_which_coast_is_most_at_risk.ipynb", lang, ".risk-ranking")
    ranking = page.locator(".risk-ranking").first
    ranking.scroll_into_view_if_needed()
    save_screenshot(page, f"phone-l05-ranking-{lang}", full_page=False)
    past = page.evaluate(_PAST_RIGHT_JS, ".risk-ranking")
    bars = dict(page.evaluate(_BARS_JS))
    assert len(bars) == 6
    assert not past, f"lesson 05 ({lang}) on a 390 px phone: the ranking runs off the screen:\n" + "\n".join(past)
    assert max(bars.values()) >= 150 and min(bars.values()) > 4, f"the ranking's bars on a phone: {bars}"
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_lesson03_tables_say_they_scroll_and_footprint_captions_are_readable(voila: Callable[..., VoilaProcess],
                                                                            chromium_browser: Browser, lang: str) -> None:
    """The levels table (wider than a phone) says above it that it swipes sideways, and its game columns (damage per
    hit, cells covered) are on the screen without scrolling; each footprint's caption is drawn at least 11 px high."""
    page = _phone(voila, chromium_browser, "03_typhoon_intensity.ipynb", lang, ".footprint-tiles")
    table = page.locator(".typhoon-table-scroll").first
    table.scroll_into_view_if_needed()
    hint = page.locator(".typhoon-table-hint").first
    expect(hint).to_be_visible()
    save_screenshot(page, f"phone-l03-tables-{lang}", full_page=False)
    from typhoon_edu.ui.lessons.common import keep_units, lt

    seen = page.evaluate("""names => names.map(n => { const th = [...document.querySelectorAll('.typhoon-table-scroll th')]
      .find(e => e.textContent === n); return th ? th.getBoundingClientRect().right : -1; })""",
                         [keep_units(lt(f"intensity.col_{k}", lang)) for k in ("damage", "cells")])
    assert all(0 < right <= PHONE["width"] for right in seen), f"the game's columns end at {seen} px on a 390 px phone"
    tiles = page.locator(".footprint-tiles")
    tiles.scroll_into_view_if_needed()
    save_screenshot(page, f"phone-l03-footprints-{lang}", full_page=False)
    heights = page.evaluate("""() => [...document.querySelectorAll('.footprint-tiles text')]
      .filter(t => !t.dataset.role).map(t => t.getBoundingClientRect().height)""")
    assert len(heights) == 5 and min(heights) >= 11, f"the footprints' captions are {heights} px high on a phone"
    _boards_are_legible(page, lang)
    page.context.close()


def _boards_are_legible(page: Page, lang: str) -> None:
    """Lesson 03's boards (the demonstrations', the sandbox's) on the phone: each canvas shows the phone drawing, its
    smallest text (board.phone_text(MAP_CELL) px of canvas) at least 11 CSS px at the width the canvas is shown."""
    from typhoon_edu.ui.board import PHONE_BOARD_PX as PHONE_MAP_PX
    from typhoon_edu.ui.board import phone_text
    from typhoon_edu.ui.lessons.intensity import MAP_CELL
    from typhoon_edu.ui.map_text import LEGIBLE_PX

    sizes = {}
    for board in ("lesson-map", "sandbox-map"):
        canvas = page.locator(f"canvas.{board}").first
        canvas.scroll_into_view_if_needed()
        expect(canvas).to_have_attribute("data-te-drawing", "phone", timeout=15_000)
        shown, drawn = canvas.evaluate("c => [c.getBoundingClientRect().width, c.width]")
        sizes[board] = (round(shown), round(phone_text(MAP_CELL) * shown / drawn, 1))
        save_screenshot(page, f"phone-l03-{board}-{lang}", full_page=False)
    # the boards are as wide as board.PHONE_BOARD_PX says (the kernel test's measure), and their texts legible
    assert all(shown >= PHONE_MAP_PX - 1 and text >= LEGIBLE_PX for shown, text in sizes.values()), (
        f"lesson 03's boards on a 390 px phone ({lang}): (width, smallest text) in CSS px: {sizes}")
