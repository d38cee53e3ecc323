"""The setup screen's start-player menu in line with the fields of its column, at 1920×1080, 1366×768 and 390×844 (the
projector's page on a phone). Both languages.

The left column of the setup form stacks, flush left: its headings, the player count, the seat rows, the regions'
buttons, "Start player" and its menu. The menu is named for a screen reader by a description that is not shown
(``buttons.name_only``), and ipywidgets keeps a label's right margin beside it even at zero width: the menu's
``<select>`` stood 8 px right of everything above it. Measured here: the left edges of the ``<select>``, the heading
over it, the regions' and player count's first buttons and the first seat's title (within 1 px), and the menu under
its heading (its top edge at most 16 px below the heading's text).

Screenshots: ``artifacts/screenshots/setup-align-<size>-<lang>.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu.ui.classplay.viewdata import d

from .harness import save_screenshot
from .teacher_page import teacher_url
from .test_classroom_browser import LAPTOP, PHONE, PROJECTOR, new_page

pytestmark = pytest.mark.browser

#: The parts of the left column, by what they are: selector, and which of its elements (``first``).
EDGES = {
    "players' first button": ".typhoon-seat-count button",
    "seat 1's title": ".typhoon-setup .widget-hbox:has(.typhoon-seat-kind-0) .widget-html",
    "regions' first button": ".typhoon-regions button",
    "start player's menu": ".typhoon-start-select select",
}


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, f"{selector} is not shown"
    return b


def heading(page: Page, text: str) -> dict[str, float]:
    """The box of the left column's bold heading ``text`` (the text itself, not its line)."""
    return page.locator(".typhoon-setup .widget-html b", has_text=text).first.bounding_box() or {}


@pytest.mark.parametrize("server", ["en", "zh-TW"], indirect=True)
def test_the_start_player_menu_is_in_line_with_its_column(server, chromium_browser: Browser) -> None:
    proc, _store = server
    lang = proc.lang
    page = new_page(chromium_browser, PROJECTOR)
    page.goto(teacher_url(proc), timeout=180_000)
    expect(page.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    bad: list[str] = []
    for size in (PROJECTOR, LAPTOP, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(500)
        lefts = {what: box(page, sel)["x"] for what, sel in EDGES.items()}
        start_head = heading(page, d("setup.start_player", lang))
        lefts["start player's heading"] = start_head["x"]
        column = lefts["regions' first button"]
        far = {what: round(x - column, 1) for what, x in lefts.items() if abs(x - column) > 1}
        if far:
            bad.append(f"{size['width']}x{size['height']}: left edges off the column's ({column:.1f} px): {far}")
        menu = box(page, EDGES["start player's menu"])
        gap = menu["y"] - (start_head["y"] + start_head["height"])
        if not 0 <= gap <= 16:  # right under its heading, as every field of the column
            bad.append(f"{size['width']}x{size['height']}: the menu is {gap:.1f} px under its heading")
        page.locator(EDGES["start player's menu"]).first.scroll_into_view_if_needed()
        save_screenshot(page, f"setup-align-{size['width']}x{size['height']}-{lang}", full_page=False)
    assert not bad, bad
