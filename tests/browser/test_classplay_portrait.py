"""One computer in portrait: a class passes a tablet (or a phone) around and plays on the projector page.

Below 900 px the projector page becomes one column that scrolls. Every part a player needs there
must be seen, not only be inside the window: the setup form (filled by taps, see ``setup_room``),
the map, the answer to a tap on the map, the decision buttons, the curtain, the hand and its pass
button. Each is checked with ``seen_box`` (the middle of its box hits the element itself) and tapped
with ``page.touchscreen.tap``; the page must see no mouse event on its canvases. A tablet (768×1024) in zh-TW and a phone (390×844) in English by
default; both languages with ``TYPHOON_EDU_ALL_LANGS=1``.
Screenshots: ``artifacts/screenshots/portrait-<moment>-<size>-<lang>.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess

from .harness import save_screenshot, unreadable
from .langs import LANGS, every_language
from .test_classroom_browser import PHONE, banner, cards_in, open_one_computer_game, room_of, wait_state
from .touch_helpers import mouse_events, seen_box, touch_cell, touch_page, touch_tap

pytestmark = pytest.mark.browser

TABLET = {"width": 768, "height": 1024}
CASES = [(lang, size) for size in (TABLET, PHONE) for lang in LANGS] if every_language() \
    else [("zh-TW", TABLET), ("en", PHONE)]


def shot(page: Page, moment: str, lang: str) -> None:
    """A screenshot of this moment, and nothing cut off or squeezed (:func:`~.harness.unreadable`)."""
    size = page.viewport_size or {"width": 0, "height": 0}
    save_screenshot(page, f"portrait-{moment}-{size['width']}x{size['height']}-{lang}", full_page=False)
    problems = unreadable(page, ".typhoon-app")
    assert not problems, f"{moment} at {size['width']}x{size['height']}: cut off or squeezed: {problems}"


@pytest.mark.parametrize(("server", "size"), CASES, indirect=["server"],
                         ids=[f"{lang}-{size['width']}x{size['height']}" for lang, size in CASES])
def test_one_computer_in_portrait_is_played_by_touch(server: tuple[VoilaProcess, RoomStore], size: dict[str, int],
                                                     chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    page = touch_page(chromium_browser, size)
    open_one_computer_game(page, proc, lang)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], "the page is wider than the window"
    # the storms are placed by tapping the map
    for n, cell in enumerate(((8, 8), (11, 7), (14, 9)), start=1):
        wait_state(page, lambda s: s.get("busy") == "0" and s.get("who") == "Taiwan", what="Taiwan's placement")
        seen_box(page, page.locator(".typhoon-board canvas").first)
        touch_cell(page, ".typhoon-board canvas", cell, 56)
        wait_state(page, lambda s, n=n: int(s["seq"]) >= n, what=f"placement {n}")
    shot(page, "placed", lang)
    # aims are chosen with buttons; a tap on the map meanwhile is answered where the player looks
    s = wait_state(page, lambda s: s.get("busy") == "0" and s.get("phase") != "setup_place", what="aiming")
    if s["phase"] == "setup_aim":
        touch_cell(page, ".typhoon-board canvas", (2, 2), 56)
        said = page.locator(".typhoon-message-ok")
        expect(said).to_contain_text(i18n.t("classplay.map_idle", lang, why="").strip())
        seen_box(page, said)
        shot(page, "map-idle", lang)
        assert banner(page)["seq"] == s["seq"], "a tap on the map played something"
    for _ in range(3):
        s = wait_state(page, lambda s: s.get("busy") == "0" and s.get("phase") != "setup_place", what="aiming")
        if s["phase"] != "setup_aim":
            break
        touch_tap(page, page.locator(".typhoon-decisions button.typhoon-act").first)
        wait_state(page, lambda s2, q=int(s["seq"]): int(s2["seq"]) > q, what="an aim")
    # a hand: the curtain first, then the cards and the pass button, all seen and tapped
    s = wait_state(page, lambda s: s.get("busy") == "0" and s.get("phase") in ("attack", "counter", "discard")
                   and s.get("person") == "1", timeout=90, what="a person's hand decision")
    curtain = page.locator(".typhoon-curtain")
    expect(curtain).to_be_visible()
    assert not cards_in(page)
    shot(page, "curtain", lang)
    touch_tap(page, curtain.locator("button"))
    expect(curtain).to_be_hidden()
    hand = room_of(store).game.hand(s["who"])
    if hand:
        expect(page.locator("[data-card]").first).to_be_visible()
        seen_box(page, page.locator("[data-card]").first)
    assert cards_in(page) == set(hand)
    shot(page, "hand", lang)
    pass_button = page.locator(".typhoon-decisions .typhoon-group-pass button").first
    touch_tap(page, pass_button)
    wait_state(page, lambda s2: int(s2["seq"]) > int(s["seq"]), what="the pass")
    page.wait_for_timeout(300)
    assert not cards_in(page), "the hand stayed on screen after the decision"
    assert mouse_events(page) == 0, "a mouse event reached the map: the test did not test touch"
    shot(page, "after-pass", lang)
    page.context.close()
