"""One computer: a hand lifted on the projector is hidden by the page itself when its connection is lost.

The kernel lowers the hand after a decision; a kernel that is gone (a crash, a server restart, the network) cannot,
so before, the team's cards stayed on the projector under the red "Connection lost" bar while the page waited or was
reloaded. The page now hides the decide box (the cards, the hint, the card buttons) while it says the connection is
lost. Screenshots: ``classroom-lost-hand-*``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess

from .langs import flow_langs
from .test_classroom_backrow import kill_kernel_of
from .test_classroom_browser import cards_in, one_computer_to_first_hand, room_of, shot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("server", flow_langs("en"), indirect=True)
def test_a_lifted_hand_is_hidden_when_the_connection_is_lost(server: tuple[VoilaProcess, RoomStore],
                                                            chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    page, s = one_computer_to_first_hand(chromium_browser, proc, lang)
    page.locator(".typhoon-curtain button").click()
    expect(page.locator(".typhoon-curtain")).to_be_hidden()
    cards = page.locator(".typhoon-decide-box [data-card]")
    expect(cards.first).to_be_visible()
    hand = room_of(store).game.hand(s["who"])
    assert hand and cards_in(page) == set(hand)
    hint = page.locator(".typhoon-hint-button")
    if hint.is_visible():  # the coach's hint is about this hand too
        hint.click()
        expect(page.locator(".typhoon-hint")).to_be_visible(timeout=60_000)
    shot(page, "lost-hand-before", lang)

    kill_kernel_of(page)
    page.wait_for_function("document.body.dataset.typhoonConnection === 'lost'", timeout=20_000)
    expect(page.locator(".typhoon-connection")).to_be_visible()
    shot(page, "lost-hand-hidden", lang)
    for i in range(cards.count()):
        expect(cards.nth(i)).to_be_hidden()
    expect(page.locator(".typhoon-decide-box")).to_be_hidden()
    expect(page.locator(".typhoon-hint")).to_be_hidden()  # (none, or hidden)
    seen = page.evaluate("() => document.elementFromPoint(innerWidth * 0.8, innerHeight * 0.5)?.closest('[data-card]')")
    assert seen is None, "a card is still where the hand was"
    expect(page.locator(".typhoon-board canvas")).to_be_visible()  # the map is everyone's: it stays
