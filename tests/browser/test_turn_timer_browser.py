"""The teacher's turn timer in a real class: phones count down, a bot plays a slow team's turn, a reload keeps it.

A projector (1920×1080) and two phones (390×844). The test sets a 6-second timer through the room
store (the drawer offers 30 s and up; a short one keeps the test quick). Taiwan's phone shows its
countdown; nobody decides; when the time runs out the projector says the computer played Taiwan's
turn, the store's log holds that move (written by ``timer``) and the phone says so too. The
projector is then reloaded and the room reopened: the drawer still shows the room's timer and
the projector counts again, and its map and compass ring are painted again (they stayed blank for good
before: see :mod:`typhoon_edu.ui.canvas_ready`; a second tab at the projector's address is the same page load, and
its own test would cost a kernel's start, 10-45 s here). Both languages.
Screenshots: ``artifacts/screenshots/turn-timer-<moment>-<size>-<lang>.png``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.classplay.model import seat_label
from typhoon_edu.ui.classplay.tables import seat_infos

from .harness import assert_canvas_not_blank, save_screenshot
from .langs import flow_langs
from .test_classroom_browser import open_class, room_of

pytestmark = pytest.mark.browser

SECONDS = 6
#: Seconds a reloaded projector's map and ring may take to be painted once its game screen shows (under 1 s here).
PAINTED_WITHIN = 20


def assert_painted(page: Page) -> None:
    """The projector's map (both layers) and its compass ring show a drawing."""
    assert_canvas_not_blank(page, ".te-board", timeout=PAINTED_WITHIN)
    assert_canvas_not_blank(page, ".typhoon-ring-full", timeout=PAINTED_WITHIN)


def shot(page: Page, moment: str, lang: str) -> Path:
    size = page.viewport_size or {"width": 0, "height": 0}
    return save_screenshot(page, f"turn-timer-{moment}-{size['width']}x{size['height']}-{lang}", full_page=False)


def seconds_shown(page: Page, scope: str) -> int | None:
    """The seconds a page's countdown shows now (None: no count shown)."""
    box = page.locator(f"{scope} .typhoon-timer-text")
    if not box.count() or not box.first.is_visible():
        return None
    left = box.first.get_attribute("data-left")
    return int(left) if left else None


@pytest.mark.parametrize("server", flow_langs("zh-TW"), indirect=True)
def test_a_slow_team_is_counted_down_then_the_bot_plays_and_a_reload_keeps_the_timer(
        server: tuple[VoilaProcess, RoomStore], chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    projector, phones = open_class(chromium_browser, proc, lang)
    mei = phones["Taiwan"]

    room = room_of(store)
    assert room.waiting_for == "Taiwan" and room.seq == 0
    started = time.monotonic()
    store.set_turn_timer(room.id, SECONDS)  # the teacher's timer, short for the test (the drawer offers 30 s and up)

    # Taiwan's phone counts down, large; Japan's phone does not (not its turn); the projector counts too
    expect(mei.locator(".typhoon-seat-timer .typhoon-timer-text")).to_be_visible(timeout=5_000)
    first = seconds_shown(mei, ".typhoon-seat-timer")
    assert first is not None and 1 <= first <= SECONDS, first
    text = mei.locator(".typhoon-seat-timer .typhoon-timer-text").inner_text()
    assert i18n.t("classplay.attention.my_time_left", lang, n=first) in text
    size = float(mei.locator(".typhoon-seat-timer .typhoon-timer-text").evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 28, f"the phone's countdown is {size} px"
    assert seconds_shown(phones["Japan"], ".typhoon-seat-timer") is None
    expect(projector.locator(".typhoon-timer .typhoon-timer-text")).to_be_visible(timeout=5_000)
    shot(mei, "phone-counting", lang)
    shot(projector, "projector-counting", lang)
    mei.wait_for_timeout(1300)
    later = seconds_shown(mei, ".typhoon-seat-timer")
    assert later is not None and later < first, (first, later)  # the browser counts by itself

    # nobody decides: the time runs out and the easy bot plays Taiwan's turn, said on the projector
    label = seat_label(seat_infos(room), "Taiwan", lang)
    said = i18n.t("classplay.attention.timer_out", lang, player=label)
    expect(projector.locator(".typhoon-timer .typhoon-timer-out")).to_contain_text(said, timeout=SECONDS * 1000 + 8_000)
    ran_out = time.monotonic() - started
    assert ran_out >= SECONDS - 0.5, f"the bot played after {ran_out:.1f} s, before the {SECONDS} s were up"
    logged = store.actions(room.id)
    assert logged and logged[0].by == "timer", [(a.seq, a.by, a.notation) for a in logged]
    assert store.room(room.id).turn_seconds == SECONDS
    expect(mei.locator(".typhoon-seat-timer .typhoon-timer-out")).to_contain_text(
        i18n.t("classplay.attention.my_time_out", lang), timeout=5_000)
    projector.wait_for_timeout(1500)  # the bot's storm lands; Taiwan's next decision is counted again
    shot(projector, "projector-bot-played", lang)
    shot(mei, "phone-bot-played", lang)

    # the projector is reloaded (the teacher presses F5): the page comes back to this room, in its language, with
    # no click (its address holds the room and the language; the key is the teacher's cookie); the room keeps the
    # teacher's timer, and the count goes on
    assert f"room={room.code}" in projector.url
    projector.reload(timeout=180_000)
    expect(projector.locator(".typhoon-projector-game")).to_be_visible(timeout=120_000)
    menu = projector.locator(".typhoon-turn-timer select")
    expect(menu).to_have_count(1, timeout=10_000)
    chosen = menu.evaluate("s => s.options[s.selectedIndex].text").replace("\xa0", " ")  # the menu's spaces
    assert chosen == i18n.t("classplay.attention.timer_seconds", lang, n=SECONDS), chosen
    expect(projector.locator(".typhoon-timer .typhoon-timer-text")).to_be_visible(timeout=SECONDS * 1000 + 10_000)
    assert seconds_shown(projector, ".typhoon-timer") is not None
    # the map and the ring are painted again (they stayed blank for good: the page's first canvas batch did not name
    # its canvas, ipycanvas's page failed on it and then dropped every later batch, the redraws for it included)
    assert_painted(projector)
    shot(projector, "projector-reloaded", lang)
    for page in (projector, *phones.values()):
        page.context.close()
