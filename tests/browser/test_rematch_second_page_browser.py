"""Two teacher pages on the same results both press *Rematch*: one new game, shown on both.

A projector (1920×1080) sets up a room with devices; the teacher ends it, and a second teacher page (a laptop,
1366×768: a second tab, or a reload of the results) opens the same room's results by its address. The projector's
Rematch makes the new game; the laptop's Rematch then opens that same game (same room code, same join links)
instead of making another one, so no team's phone is sent to a room the others are not in
(tests/test_classroom_rematch_safety.py checks the kernel and the race).
Screenshots: ``artifacts/screenshots/rematch-second-page-<moment>-<lang>.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from typhoon_edu.classroom.rooms import Room
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.server.serve import VoilaProcess

from .harness import save_screenshot
from .langs import flow_langs
from .teacher_page import teacher_url
from .test_classroom_browser import LAPTOP, PROJECTOR, join_links, new_page, setup_room

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("server", flow_langs("zh-TW"), indirect=True)
def test_a_second_teacher_page_s_rematch_opens_the_same_new_game(server: tuple[VoilaProcess, RoomStore],
                                                                chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    first = new_page(chromium_browser, PROJECTOR)
    first.goto(teacher_url(proc), timeout=180_000)
    setup_room(first, lang, ("Mei", "Ken"), devices=True)
    join_links(first)
    code = first.locator(".typhoon-lobby .typhoon-room-chip").first.inner_text().strip()
    Room.open(store, code, teacher=local_teacher(store)).end()  # the drawer's End (test_classroom_results_end.py)
    expect(first.locator(".typhoon-rematch")).to_be_visible(timeout=30_000)
    second = new_page(chromium_browser, LAPTOP)
    second.goto(teacher_url(proc, room=code), timeout=180_000)
    expect(second.locator(".typhoon-rematch")).to_be_visible(timeout=120_000)
    save_screenshot(second, f"rematch-second-page-results-{lang}", full_page=False)

    first.locator(".typhoon-rematch").click()
    chip = first.locator(".typhoon-lobby .typhoon-room-chip").first
    expect(chip).to_be_visible(timeout=30_000)
    expect(chip).not_to_have_text(code)
    made = chip.inner_text().strip()
    second.locator(".typhoon-rematch").click()
    expect(second.locator(".typhoon-lobby .typhoon-room-chip").first).to_have_text(made, timeout=30_000)
    assert join_links(second) == join_links(first), "the two pages show different QR codes"
    assert len(store.rooms()) == 2, "the second page's Rematch made another room"
    assert store.room_by_code(code).successor == store.room_by_code(made).id
    save_screenshot(second, f"rematch-second-page-lobby-{lang}", full_page=False)
    for page in (first, second):
        page.context.close()
