"""The class's own die in a real browser: the face typed in the box is taken on Enter, and a wrong one is explained.

One computer, three computer players, "our real die": as soon as the first direction roll is
due, the projector shows the die box; the test types a face that is not a die's (told, nothing
happens), then ``4`` and presses Enter (no click): the store holds that roll and the box is
empty again. Both languages. Screenshots: ``artifacts/screenshots/die-entry-<lang>.png``.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page, expect

from .harness import save_screenshot
from .langs import flow_langs
from .teacher_page import teacher_url
from .test_classroom_browser import LAPTOP, PHONE, PROJECTOR, new_page, room_of

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
    expect(box).to_have_value("", timeout=10_000)  # emptied for the next roll, once the roll is written


def _start_real_die_game(page: Page, proc) -> None:
    """One computer, three computer players, the class's own die: the projector waits for the first typed roll."""
    page.goto(teacher_url(proc))
    expect(page.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    page.locator(".typhoon-seat-count button", has_text="3").click()
    for i in range(3):
        page.locator(f".typhoon-seat-kind-{i} select").select_option(index=1)  # easy computer players
    page.locator(".typhoon-dice-mode button").nth(1).click()  # our real die
    page.locator(".typhoon-hands-mode button").nth(1).click()  # one computer
    page.wait_for_timeout(400)
    page.locator(".typhoon-setup-start").click()


@pytest.mark.parametrize("server", ["en", "zh-TW"], indirect=True)
def test_a_typed_face_the_store_refuses_stays_in_the_box(server, chromium_browser: Browser) -> None:
    """Another program holds the room database (a backup, a second server): the typed face cannot be written. The
    projector says the die roll was not saved and keeps the face in the box; once the database is free, the
    button sends it, and the box empties. A pause the store refuses says that the pause was not saved. Screenshots at
    1920×1080, 1366×768 and 390×844: ``die-entry-kept-<size>-<lang>.png``, ``pause-unsaved-<size>-<lang>.png``."""
    from typhoon_edu import i18n

    proc, store = server
    lang = proc.lang
    page = new_page(chromium_browser, PROJECTOR)
    _start_real_die_game(page, proc)
    box = page.locator(".typhoon-die-entry input")
    expect(box).to_be_visible(timeout=60_000)
    assert _die_faces(store) == []
    kept = page.locator(".typhoon-die-input .typhoon-die-kept")
    with store._engine.connect() as conn:  # the test holds the database's write lock (BEGIN IMMEDIATE)
        conn.execution_options(typhoon_write=True)
        conn.begin()
        try:
            box.fill("3")
            box.press("Enter")
            expect(kept).to_be_visible(timeout=30_000)  # after the store's busy timeout (5 s)
            assert box.input_value() == "3" and _die_faces(store) == []
            said = page.locator(".typhoon-app").first.inner_text()
            assert i18n.t("classroom.unsaved.die", lang) in said, said
            for size in (PROJECTOR, LAPTOP, PHONE):
                page.set_viewport_size(size)
                page.wait_for_timeout(500)
                box.scroll_into_view_if_needed()
                save_screenshot(page, f"die-entry-kept-{size['width']}x{size['height']}-{lang}", full_page=False)
            page.set_viewport_size(PROJECTOR)
            # the teacher pauses: what was not saved is the pause, not "this move"
            page.locator(".typhoon-teacher-button").click()
            expect(page.locator(".typhoon-teacher")).to_be_visible()
            page.locator(".typhoon-teacher-pause").click()
            problem = page.locator(".typhoon-problem-text[role=alert]")  # the drawer shows a copy, hidden from readers
            expect(problem).to_contain_text(i18n.t("classroom.unsaved.pause", lang), timeout=30_000)
            page.locator(".typhoon-teacher-button").click()  # the drawer closed: it lies over the side column
            expect(page.locator(".typhoon-teacher")).to_be_hidden()
            for size in (PROJECTOR, LAPTOP, PHONE):
                page.set_viewport_size(size)
                page.wait_for_timeout(500)
                problem.scroll_into_view_if_needed()
                save_screenshot(page, f"pause-unsaved-{size['width']}x{size['height']}-{lang}", full_page=False)
            page.set_viewport_size(PROJECTOR)
        finally:
            conn.rollback()
    page.locator(".typhoon-die-enter").click()  # the same face, not typed again
    deadline = time.monotonic() + 15
    while not _die_faces(store) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert _die_faces(store)[:1] == [3], "the kept face was not sent by the button"
    expect(kept).to_have_count(0)
    expect(box).to_have_value("", timeout=10_000)  # emptied once written
