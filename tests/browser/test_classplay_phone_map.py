"""A team's phone (390×844) reads the names on its map; the projector's map is drawn as before. Both languages.

The canvas is scaled by CSS, so a name's size on screen is its size in the canvas times the canvas's width on screen
over its width in pixels: measured here in Chromium, for every region's and zone's name the phone's board draws
(:class:`typhoon_edu.ui.classplay.seatmap.SeatBoard`), at least 11 CSS px (before: 6.2 px). The projector's board at
1920×1080 and 1366×768 still draws the board's usual names (:func:`typhoon_edu.ui.scene.static_scene` without
``min_text``), and its own page does not scroll.

Screenshots: ``artifacts/screenshots/phone-map-<size>-<lang>.png`` (the phone's map scrolled into view; the projector).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.classplay.seatmap import LABEL_PX, PHONE_MAP_PX, SEAT_CELL, SeatBoard
from typhoon_edu.ui.scene import Text, static_scene

from .harness import save_screenshot
from .test_classroom_browser import LAPTOP, PROJECTOR, check_fit, open_class

pytestmark = pytest.mark.browser

RULES = load_rules()
NAMES = ("region-label", "zone-label")


def shown_width(page: Page, selector: str) -> tuple[float, float]:
    """The board canvas's width on screen (CSS px) and in pixels."""
    canvas = page.locator(selector).first
    canvas.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    box = canvas.bounding_box()
    assert box is not None
    return box["width"], float(canvas.evaluate("c => c.width"))


def shot(page: Page, lang: str) -> None:
    size = page.viewport_size or {"width": 0, "height": 0}
    save_screenshot(page, f"phone-map-{size['width']}x{size['height']}-{lang}", full_page=False)


@pytest.mark.parametrize("server", ["en", "zh-TW"], indirect=True)
def test_a_team_phone_reads_its_map_and_the_projector_is_unchanged(server, chromium_browser: Browser) -> None:
    proc, _store = server
    lang = proc.lang
    projector, phones = open_class(chromium_browser, proc, lang)
    phone = phones["Taiwan"]
    on_screen, pixels = shown_width(phone, ".typhoon-seat-game .typhoon-board canvas")
    scale = on_screen / pixels
    names = [s for s in SeatBoard(lang=lang, cell=SEAT_CELL, controls=False).static_shapes()
             if isinstance(s, Text) and s.role in NAMES]
    sizes = {(t.role, t.text): round(t.size * scale, 2) for t in names}
    assert len(sizes) == len(RULES.regions) + len(RULES.map.zones), sizes
    small = {k: v for k, v in sizes.items() if v < LABEL_PX}
    assert not small, f"390x844: the map is {on_screen:.0f} of {pixels:.0f} px; names under {LABEL_PX} px: {small}"
    assert abs(on_screen - PHONE_MAP_PX) <= 6, f"the seat's map is {on_screen:.1f} px wide on a 390 px phone"
    phone.evaluate("window.scrollBy(0, -40)")
    shot(phone, lang)

    usual = [s for s in static_scene(RULES, lang, 56) if isinstance(s, Text) and s.role in NAMES]
    for size in (PROJECTOR, LAPTOP):
        projector.set_viewport_size(size)
        projector.wait_for_timeout(600)
        on_screen, pixels = shown_width(projector, ".typhoon-projector-game .typhoon-board canvas")
        assert pixels == 56 * 17  # the projector's board: 56 px cells, as before
        check_fit(projector)
        smallest = min(t.size for t in usual) * on_screen / pixels
        assert smallest >= 10, f"{size}: the projector's names are {smallest:.1f} px"
        shot(projector, lang)
