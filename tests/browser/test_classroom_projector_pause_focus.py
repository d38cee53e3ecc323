"""The projector at 1920×1080 in a real browser: a pause the whole room sees, and the die box keeping the keyboard.

One computer, three computer players, the class's own die. The teacher types the first roll in the die box
and presses Enter: when the next roll is awaited, the keyboard's focus is in the die box again (it fell to the
page's body and took 15 Tabs to come back). Then the teacher pauses from the drawer: the banner's headline says
the game is paused, in large type on a dark red banner, with the drawer open and closed; on resume the banner asks
for the die again. Screenshots: ``artifacts/screenshots/projector-paused-<lang>.png``, ``…-die-focus-<lang>.png``.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n

from .harness import save_screenshot
from .langs import flow_langs
from .test_classroom_browser import PROJECTOR, new_page, room_of
from .test_die_entry_browser import _start_real_die_game

pytestmark = pytest.mark.browser


def _faces(store) -> list[int]:
    return [a.face for a in room_of(store).game.history if a.kind == "die"]


def _head(page: Page) -> dict:
    return page.locator(".typhoon-banner-head").first.evaluate(
        "e => ({text: e.innerText.trim(), size: parseFloat(getComputedStyle(e).fontSize),"
        " bg: getComputedStyle(e.closest('.typhoon-banner')).backgroundColor,"
        " paused: e.closest('.typhoon-banner').dataset.paused})")


@pytest.mark.parametrize("server", flow_langs("en"), indirect=True)
def test_a_pause_fills_the_banner_and_the_die_box_keeps_the_keyboard(server, chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    page = new_page(chromium_browser, PROJECTOR)
    _start_real_die_game(page, proc)
    box = page.locator(".typhoon-die-entry input")
    expect(box).to_be_visible(timeout=60_000)
    box.focus()
    page.keyboard.type("4")
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 20
    while not _faces(store) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert _faces(store)[:1] == [4]
    page.wait_for_timeout(500)  # the storms move: the box is hidden meanwhile
    expect(box).to_be_visible(timeout=60_000)  # the next roll is awaited
    page.wait_for_timeout(700)
    focused = page.evaluate("(() => { const a = document.activeElement; return a ? a.tagName + '.' + "
                            "(a.closest('.typhoon-die-entry') ? 'die' : a.className) : 'none'; })()")
    save_screenshot(page, f"projector-die-focus-{lang}", full_page=False)
    assert focused == "INPUT.die", f"after Enter and the next roll's box, the focus is on {focused}"

    resumed = _head(page)
    paused_text = i18n.t("classplay.paused", lang)
    assert resumed["text"] != paused_text
    page.locator(".typhoon-teacher-button").click()
    expect(page.locator(".typhoon-teacher")).to_be_visible()
    page.locator(".typhoon-teacher-pause").click()
    expect(page.locator(".typhoon-banner-head").first).to_have_text(paused_text, timeout=15_000)
    head = _head(page)
    assert head["paused"] == "1" and head["size"] >= 40, head  # larger than any other banner (30 px)
    assert head["bg"] == "rgb(153, 27, 27)", head
    assert resumed["text"] in page.locator(".typhoon-banner-detail").first.inner_text()  # what comes on resume
    save_screenshot(page, f"projector-paused-drawer-{lang}", full_page=False)
    page.locator(".typhoon-teacher-button").click()
    expect(page.locator(".typhoon-teacher")).to_be_hidden()
    assert _head(page)["text"] == paused_text
    save_screenshot(page, f"projector-paused-{lang}", full_page=False)
    page.locator(".typhoon-teacher-button").click()
    page.locator(".typhoon-teacher-pause").click()  # resume
    expect(page.locator(".typhoon-banner-head").first).to_have_text(resumed["text"], timeout=15_000)
    assert _head(page)["paused"] == "0"
