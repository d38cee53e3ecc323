"""The class's own die in a real browser: the face typed in the box is taken on Enter, and a wrong one is explained.

One computer, three computer players, "our real die": as soon as the first direction roll is
due, the projector shows the die box; the test types a face that is not a die's (told, nothing
happens), then ``4`` and presses Enter (no click): the store holds that roll and the box is
empty again. Both languages. Screenshots: ``artifacts/screenshots/die-entry-<lang>.png``.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, expect

from .harness import save_screenshot
from .langs import flow_langs
from .teacher_page import teacher_url
from .test_classroom_browser import PROJECTOR, new_page, room_of

pytestmark = pytest.mark.browser


def _die_faces(store) -> list[int]:
    room = room_of(store)
    return [a.face for a in room.game.history if a.kind == "die"]


@pytest.mark.parametrize("server", flow_langs("zh-TW"), indirect=True)
def test_a_typed_die_face_is_taken_on_enter(server, chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    page = new_page(chromium_browser, PROJECTOR)
    page.goto(teacher_url(proc))
    expect(page.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    page.locator(".typhoon-seat-count button", has_text="3").click()
    for i in range(3):
        page.locator(f".typhoon-seat-kind-{i} select").select_option(index=2)  # medium computer players
    page.locator(".typhoon-dice-mode button").nth(1).click()  # our real die
    page.locator(".typhoon-hands-mode button").nth(1).click()  # one computer
    page.wait_for_timeout(400)
    page.locator(".typhoon-setup-start").click()

    box = page.locator(".typhoon-die-entry input")
    expect(box).to_be_visible(timeout=60_000)  # the first direction roll waits for the class's die
    assert _die_faces(store) == []
    box.fill("9")
    box.press("Enter")
    expect(page.locator(".typhoon-die-input .typhoon-message-error")).to_be_visible(timeout=10_000)
    assert _die_faces(store) == []  # a wrong face changes nothing
    save_screenshot(page, f"die-entry-{lang}", full_page=False)

    box.fill("4")
    box.press("Enter")
    deadline = time.monotonic() + 15
    while not _die_faces(store) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert _die_faces(store)[:1] == [4], "Enter did not submit the typed face"
    expect(page.locator(".typhoon-die-input .typhoon-message-error")).to_have_count(0)
    assert box.input_value() == ""  # emptied for the next roll
