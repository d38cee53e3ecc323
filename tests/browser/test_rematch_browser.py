"""The teacher's rematch reaches the phones: a phone still on the finished room takes its seat in the new one.

A projector (1920×1080) sets up a room with a device per team; Taiwan's phone (a touch context,
390×844) opens its join link and waits in the lobby (no button while the teacher has not started).
The teacher ends the game and presses *Rematch*: the phone, still on the old room, says that a new
game has begun (in its language, and again in the other after a tap on the language switch), and
one tap on "Join the new game as …" puts it in Taiwan's seat of the new room: its banner is the new
room's lobby, its address is the new seat's link, and the store has the seat joined.
Screenshots: ``artifacts/screenshots/rematch-phone-<moment>-<lang>.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from typhoon_edu import i18n
from typhoon_edu.classroom.rooms import Room
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.server.serve import VoilaProcess

from .harness import save_screenshot
from .langs import flow_langs
from .teacher_page import teacher_url
from .test_classroom_browser import PHONE, PROJECTOR, join_links, new_page, setup_room, wait_state
from .touch_helpers import touch_page, touch_tap

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("server", flow_langs("en"), indirect=True)
def test_a_phone_on_the_old_room_reaches_its_seat_in_the_rematch(server: tuple[VoilaProcess, RoomStore],
                                                                chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    other = "zh-TW" if lang == "en" else "en"
    projector = new_page(chromium_browser, PROJECTOR)
    projector.goto(teacher_url(proc), timeout=180_000)
    setup_room(projector, lang, ("Mei", "Ken"), devices=True)
    href = join_links(projector)["Taiwan"]
    phone = touch_page(chromium_browser, PHONE)
    phone.goto(href, timeout=180_000)
    expect(phone.locator(".typhoon-seat-game")).to_be_visible(timeout=120_000)
    # the lobby: Taiwan decides first, but the teacher has not started the game, so nothing is offered
    wait_state(phone, lambda s: s.get("who") == "Taiwan" and s.get("mine") == "0", what="the phone in the lobby")
    expect(phone.locator(".typhoon-banner")).to_contain_text(i18n.t("classplay.seat.lobby_wait", lang))
    expect(phone.locator(".typhoon-decisions button")).to_have_count(0)
    save_screenshot(phone, f"rematch-phone-lobby-{lang}", full_page=False)

    old = Room.open(store, projector.locator(".typhoon-lobby .typhoon-room-chip").first.inner_text().strip(),
                    teacher=local_teacher(store))
    old.end()  # the teacher ends the game (the drawer's End: tests/browser/test_classroom_results_end.py)
    rematch = projector.locator(".typhoon-rematch")
    expect(rematch).to_be_visible(timeout=30_000)
    rematch.click()
    expect(projector.locator(".typhoon-lobby")).to_be_visible(timeout=30_000)
    new_code = projector.locator(".typhoon-lobby .typhoon-room-chip").first
    expect(new_code).not_to_have_text(old.code)

    offer = phone.locator(".typhoon-rematch-offer")
    expect(offer).to_contain_text(i18n.t("classplay.seat.rematch_title", lang), timeout=30_000)
    go = phone.locator(".typhoon-rematch-go")
    expect(go).to_contain_text("Mei")
    offer.scroll_into_view_if_needed()
    save_screenshot(phone, f"rematch-phone-offer-{lang}", full_page=False)
    touch_tap(phone, phone.locator(".typhoon-lang button", has_text="English" if other == "en" else "中文"))
    expect(offer).to_contain_text(i18n.t("classplay.seat.rematch_title", other))
    save_screenshot(phone, f"rematch-phone-offer-{other}", full_page=False)
    touch_tap(phone, phone.locator(".typhoon-lang button", has_text="English" if lang == "en" else "中文"))
    expect(offer).to_contain_text(i18n.t("classplay.seat.rematch_title", lang))

    touch_tap(phone, go)
    expect(phone.locator(".typhoon-banner")).to_contain_text(i18n.t("classplay.seat.lobby_wait", lang),
                                                             timeout=30_000)
    expect(offer).to_be_hidden()
    new = Room.open(store, new_code.inner_text().strip(), teacher=local_teacher(store))
    assert new.id != old.id and new.seat("Taiwan").joined and new.seat("Taiwan").bound
    assert not new.seat("Japan").joined
    expect(phone).to_have_url(re.compile(r"[?&]seat="), timeout=10_000)  # a reload opens the new seat ...
    phone.wait_for_function("old => !location.href.includes(old)", arg=href.split("seat=")[1].split("&")[0],
                            timeout=10_000)  # ... not the old one
    save_screenshot(phone, f"rematch-phone-new-seat-{lang}", full_page=False)
    for page in (projector, phone):
        page.context.close()
