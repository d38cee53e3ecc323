"""The setup screen's start-player menu in line with the fields of its column, at 1920×1080, 1366×768 and 390×844 (the
projector's page on a phone). Both languages.

The left column of the setup form stacks, flush left: its headings, the player count, the seat rows, the regions'
buttons, "Start player" and its menu. The menu is named for a screen reader by a description that is not shown
(``buttons.name_only``), and ipywidgets keeps a label's right margin beside it even at zero width: the menu's
``<select>`` stood 8 px right of everything above it. Measured here: the left edges of the ``<select>``, the heading
over it, the regions' and player count's first buttons and the first seat's title (within 1 px), and the menu under
its heading (its top edge at most 16 px below the heading's text).

The seat rows on the same page (regions chosen, so each row shows its region's menu): each row is a wrapping line of
the seat's title and three fields (who plays, the team's name, its region), named for a screen reader the same way, and
the same margin made a field that wrapped on a phone start 8 px right of its title. Measured: the left edge of every
field that starts a line against its row's title (within 1 px), and the gap between neighbours on a line (at least
4 px).

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


#: A seat row's parts in order, ``{i}`` its index: the title, then the fields' controls.
PARTS = (".typhoon-setup .widget-hbox:has(> .typhoon-seat-kind-{i}) > .widget-html",
         ".typhoon-seat-kind-{i} select", ".typhoon-seat-name-{i} input", ".typhoon-seat-region-{i} select")


def boxes(page: Page, row: int) -> list[dict[str, float]]:
    return [box(page, selector.format(i=row)) for selector in PARTS]


def misplaced(page: Page, rows: int) -> list[str]:
    """What is off in the first ``rows`` seat rows: a wrapped field not at its title's left edge, or two fields of a
    line closer than 4 px."""
    bad = []
    for row in range(rows):
        title, *fields = boxes(page, row)
        line = [title]
        for name, b in zip(("who", "name", "region"), fields, strict=True):
            last = line[-1]
            if b["y"] >= last["y"] + last["height"] - 1:  # on a new line
                if abs(b["x"] - title["x"]) > 1:
                    bad.append(f"seat {row + 1}: its {name} wraps {b['x'] - title['x']:+.1f} px off its title's edge")
                line = [b]
            else:
                gap = b["x"] - (last["x"] + last["width"])
                if gap < 4:
                    bad.append(f"seat {row + 1}: its {name} is {gap:.1f} px from the field before it")
                line.append(b)
    return bad


@pytest.mark.parametrize("server", ["en", "zh-TW"], indirect=True)
def test_the_start_player_menu_and_the_seat_fields_are_in_line(server, chromium_browser: Browser) -> None:
    proc, _store = server
    lang = proc.lang
    page = new_page(chromium_browser, PROJECTOR)
    page.goto(teacher_url(proc), timeout=180_000)
    expect(page.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    page.locator(".typhoon-regions button").nth(1).click()  # regions chosen: each row shows its region's menu
    expect(page.locator(".typhoon-seat-region-0 select")).to_be_visible()
    bad: list[str] = []
    for size in (PROJECTOR, LAPTOP, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(500)
        bad += [f"{size['width']}x{size['height']}: {b}" for b in misplaced(page, 4)]
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
