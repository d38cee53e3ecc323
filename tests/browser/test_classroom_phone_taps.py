"""A team's phone, by touch: a second tap after a decision plays nothing, the decision is confirmed, and the join page
speaks the browser's language.

* Taiwan's phone places its first storm with the (8, 8) button; the buttons are redrawn and the finger taps again
  where it was, on whatever button slid under it (the walk's zh07: the (11, 7) button): the room holds one action.
  A moment later a tap counts again (the hold is short). The phone says what it played.
* An en-US browser opening ``/join`` on a server whose language is Chinese: the join page is in English.

Screenshots: ``artifacts/screenshots/phone-taps-<moment>-<lang>.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess

from .harness import save_screenshot
from .langs import flow_langs
from .test_classroom_browser import PHONE, open_class, room_of, wait_state
from .touch_helpers import seen_box, touch_page

pytestmark = pytest.mark.browser

#: The next placement's cell buttons.
NEXT = ".typhoon-decisions button.typhoon-cell-pick"
#: The middle of the first of them, scrolled into the window (the finger's spot).
UNDER_FINGER_JS = """(sel) => { const b = document.querySelector(sel); b.scrollIntoView({block: 'center'});
  const r = b.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2, text: b.textContent}; }"""


@pytest.mark.parametrize("server", flow_langs("zh-TW"), indirect=True)
def test_a_second_tap_under_the_finger_plays_nothing(server: tuple[VoilaProcess, RoomStore],
                                                     chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    projector, phones = open_class(chromium_browser, proc, lang, page_for=touch_page)
    mei = phones["Taiwan"]
    wait_state(mei, lambda s: s.get("mine") == "1" and s.get("busy") == "0", what="Taiwan's phone to decide")
    first = mei.locator(".typhoon-cell-8-8").first
    box = seen_box(mei, first)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    mei.evaluate("delete document.body.dataset.typhoonTurnView")
    mei.touchscreen.tap(x, y)
    expect(mei.locator(".typhoon-cell-8-8")).to_have_count(0, timeout=30_000)  # redrawn: the next placement
    # the next placement's buttons appear once the storm is drawn, and the page has decided whether to bring its turn
    # into view (a scroll that moved what is under the finger holds the next tap back too); the finger, still there,
    # taps again at once (the button under it depends on the lines above: here the first of the new buttons, brought
    # where the finger is)
    mei.wait_for_function(f"!!document.querySelector('{NEXT}') && document.body.dataset.typhoonTurnView !== undefined",
                          timeout=60_000, polling=20)
    if mei.evaluate("document.body.dataset.typhoonTurnView") == "brought":
        mei.wait_for_timeout(400)  # the page's own smooth scroll to the banner ends (its scroll holds taps back too)
    spot = mei.evaluate(UNDER_FINGER_JS, NEXT)
    mei.touchscreen.tap(spot["x"], spot["y"])
    mei.wait_for_timeout(1500)
    assert room_of(store).seq == 1, f"a second tap on {spot['text']!r} played a second decision"
    assert int(mei.evaluate("document.body.dataset.typhoonTapsIgnored || 0")) >= 1
    placed = i18n.t("action.place", lang, cell=i18n.cell_label((8, 8), lang))
    expect(mei.locator(".typhoon-message")).to_contain_text(i18n.t("classplay.seat.chose", lang, action=placed))
    save_screenshot(mei, f"phone-taps-confirmed-{lang}", full_page=False)
    # a moment later, a tap is a decision again
    wait_state(mei, lambda s: s.get("mine") == "1" and s.get("busy") == "0", what="Taiwan's second placement")
    second = mei.locator(".typhoon-decisions button.typhoon-cell-pick").first
    box = seen_box(mei, second)
    mei.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_state(mei, lambda s: int(s["seq"]) >= 2, what="the second placement")
    assert room_of(store).seq == 2
    for page in (projector, *phones.values()):
        page.context.close()


@pytest.mark.parametrize("server", ["zh-TW"], indirect=True)
def test_the_join_page_speaks_the_browsers_language(server: tuple[VoilaProcess, RoomStore],
                                                    chromium_browser: Browser) -> None:
    proc, _store = server
    phone = touch_page(chromium_browser, PHONE, locale="en-US")
    phone.goto(proc.url.rstrip("/") + "/join", timeout=180_000)
    expect(phone.locator(".typhoon-join")).to_contain_text(i18n.t("classplay.seat.join_title", "en"), timeout=60_000)
    save_screenshot(phone, "phone-taps-join-en-US", full_page=False)
    phone.context.close()
