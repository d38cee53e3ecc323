"""The setup screen's seat rows at 390×844 (the projector's page on a phone) and 1366×768: a field that wraps to a new
line starts at the row's left edge, as its title does; fields on one line keep a gap.

Each seat row is a wrapping line of the seat's title and three fields (who plays, the team's name, its region; the
region shown here: regions chosen). The fields are named for a screen reader by a description 0 px wide
(``buttons.name_only``), and ipywidgets kept that label's 8 px right margin beside each: on a phone the team's name
wrapped under the title 8 px right of it. Measured: the left edge of every field's ``<select>``/``<input>`` that
starts a line against its row's title (within 1 px), and the gap between neighbours on a line (at least 4 px).

Screenshots: ``artifacts/screenshots/setup-seats-<size>-<lang>.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .harness import save_screenshot
from .langs import flow_langs
from .teacher_page import teacher_url
from .test_classroom_browser import LAPTOP, PHONE, new_page

pytestmark = pytest.mark.browser

#: A seat row's parts in order, ``{i}`` its index: the title, then the fields' controls.
PARTS = (".typhoon-setup .widget-hbox:has(> .typhoon-seat-kind-{i}) > .widget-html",
         ".typhoon-seat-kind-{i} select", ".typhoon-seat-name-{i} input", ".typhoon-seat-region-{i} select")


def boxes(page: Page, row: int) -> list[dict[str, float]]:
    out = []
    for selector in PARTS:
        b = page.locator(selector.format(i=row)).first.bounding_box()
        assert b is not None, f"{selector.format(i=row)} is not shown"
        out.append(b)
    return out


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


@pytest.mark.parametrize("server", flow_langs("zh-TW"), indirect=True)
def test_a_seats_fields_line_up_when_they_wrap(server, chromium_browser: Browser) -> None:
    proc, _store = server
    lang = proc.lang
    page = new_page(chromium_browser, LAPTOP)
    page.goto(teacher_url(proc), timeout=180_000)
    expect(page.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    page.locator(".typhoon-regions button").nth(1).click()  # regions chosen: each row shows its region's menu
    expect(page.locator(".typhoon-seat-region-0 select")).to_be_visible()
    bad: list[str] = []
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(500)
        bad += [f"{size['width']}x{size['height']}: {b}" for b in misplaced(page, 4)]
        page.locator(PARTS[2].format(i=1)).first.scroll_into_view_if_needed()
        save_screenshot(page, f"setup-seats-{size['width']}x{size['height']}-{lang}", full_page=False)
    assert not bad, bad
