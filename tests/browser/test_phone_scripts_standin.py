"""The phone page's own scripts on a stand-in page: the turn brought into view, and the tap its scroll holds back.

A class-play phone page has two small front ends of its own (anywidgets): :mod:`typhoon_edu.ui.classplay.pagelink`
brings "Your turn!" to the top of the window when this device's new decision is out of view (after a tap on the map,
whose buttons are above it), and :mod:`typhoon_edu.ui.classplay.access` holds back a finger's second tap for a moment
after a tap on a decision, also when the page then scrolled by itself (what was under the finger moved). Through a
whole Voilà room the timing of these is hard to pin (CI's second-tap test met the page's own scroll by chance); here
each script runs as it is shipped, on a page shaped like a phone's seat (banner, decisions, map, hand), driven by a
stand-in of the widget's model, in a 390×844 touch context with real touch taps. No server: a few seconds in all.
The lessons' maps have one such script too (:mod:`typhoon_edu.ui.board`'s MapWidth, which says when a map is shown
narrow): its last test runs it the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from typhoon_edu import i18n
from typhoon_edu.ui import board
from typhoon_edu.ui.classplay import access, pagelink

from .harness import save_screenshot

pytestmark = pytest.mark.browser

#: A phone seat's shape: the banner and its decision's buttons at the top, a map a screen tall, the hand under it.
SEAT = """<!DOCTYPE html>
<html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin: 0">
<div class="typhoon-app typhoon-seat" style="font: 16px sans-serif; margin: 0">
  <div class="typhoon-banner" style="height: 60px; background: #fde68a">Your turn!</div>
  <div class="typhoon-decisions" style="height: 120px">
    <button class="typhoon-act" id="first" style="width: 300px; height: 48px">Play a card</button>
    <button class="typhoon-act" id="second" style="width: 300px; height: 48px">Pass</button>
  </div>
  <div class="typhoon-board"><canvas width="390" height="1000" style="display: block; width: 390px; height: 1000px"></canvas></div>
  <div class="typhoon-hand" style="height: 900px">Card 1 · Card 2 · Card 3</div>
  <div id="widget"></div>
</div>
</body></html>
"""

#: The part of an anywidget model the scripts use; ``fire(name, value)`` changes a value as the kernel would.
MODEL = """
class StandInModel {
  constructor(values) { this.values = values; this.handlers = {}; }
  get(name) { return this.values[name]; }
  set(name, value) { this.values[name] = value; }
  save_changes() {}
  send() {}
  on(event, handler) { (this.handlers[event] = this.handlers[event] || []).push(handler); }
  fire(name, value) { this.values[name] = value; for (const h of this.handlers["change:" + name] || []) h(); }
}
"""


def _mount(page: Page, esm: str, values: dict[str, object], html: str = SEAT) -> None:
    """Run a widget's shipped ESM on a stand-in page (a phone's seat), its model as ``window.standIn``."""
    page.set_content(html)
    module = esm.replace("export default", "const shipped =") + MODEL + (
        f"\nwindow.standIn = new StandInModel({json.dumps(values)});"
        "\nshipped.render({ model: window.standIn, el: document.getElementById('widget') });"
        "\nwindow.mounted = true;"
    )
    page.add_script_tag(content=module, type="module")
    page.wait_for_function("window.mounted === true")


@pytest.fixture
def phone(chromium_browser: Browser) -> Iterator[Page]:
    """A 390×844 touch phone (no mouse), one page."""
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                           device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _pagelink(page: Page) -> None:
    link = pagelink.PageLink(mode="seat", lang="en")
    values = {name: getattr(link, name) for name in ("mode", "beat", "interval", "slow_after", "lost_after",
                                                    "reload_after", "lost_text", "slow_text", "reload_text",
                                                    "chosen_lang", "browser_lang", "muted", "alert", "turn",
                                                    "still_ms", "ack_every")}
    link.close()
    _mount(page, pagelink.ESM, values)


def _new_turn(page: Page, turn: int) -> str:
    """The kernel's new decision for this device; what the page then did (``data-typhoon-turn-view``)."""
    page.evaluate("(n) => { delete document.body.dataset.typhoonTurnView; window.standIn.fire('turn', n); }", turn)
    page.wait_for_function("document.body.dataset.typhoonTurnView !== undefined")
    return page.evaluate("document.body.dataset.typhoonTurnView")


def test_a_new_turn_after_a_tap_on_the_map_brings_the_banner_to_the_top(phone: Page) -> None:
    _pagelink(phone)
    phone.evaluate("window.scrollTo(0, 700)")  # as after a tap on the map: the buttons are above the window
    assert phone.evaluate("document.querySelector('#first').getBoundingClientRect().bottom") < 0
    assert _new_turn(phone, 1) == "brought"
    phone.wait_for_function("Math.abs(document.querySelector('.typhoon-banner').getBoundingClientRect().top) < 2")
    assert phone.evaluate("window.scrollY") < 5  # the banner (at the page's top) is at the window's top

    # the decision already in view: the page stays where it is
    assert _new_turn(phone, 2) == "in view"
    assert phone.evaluate("window.scrollY") < 5


def test_a_new_turn_leaves_a_page_a_finger_just_scrolled_or_the_hand_being_read(phone: Page) -> None:
    _pagelink(phone)
    phone.evaluate("window.scrollTo(0, 700)")
    phone.evaluate("document.dispatchEvent(new TouchEvent('touchmove', {bubbles: true}))")  # a finger moved the page
    assert _new_turn(phone, 1) == "moving"
    assert phone.evaluate("window.scrollY") == 700

    phone.wait_for_timeout(pagelink.STILL_MS + 100)  # a moment later, the team reads its hand, the map scrolled away
    phone.evaluate("window.scrollTo(0, 1200)")
    assert _new_turn(phone, 2) == "hand"
    assert phone.evaluate("window.scrollY") == 1200


def _access(page: Page, lang: str = "en") -> None:
    helper = access.PageAccess(lang)
    values = {name: getattr(helper, name) for name in ("names", "tap_hold_ms", "tap_redraw_ms", "tap_held_text")}
    helper.close()
    _mount(page, access._ESM, values)
    page.evaluate("""() => { window.played = [];
        for (const b of document.querySelectorAll('.typhoon-decisions button'))
          b.addEventListener('click', () => window.played.push(b.id)); }""")


def _tap(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_scroll_the_page_made_itself_soon_after_a_tap_holds_the_next_tap_back(phone: Page) -> None:
    _access(phone)
    _tap(phone, "#first")
    phone.wait_for_timeout(access.TAP_HOLD_MS + 150)  # the first tap's own hold is over...
    phone.evaluate("window.scrollTo(0, 30)")  # ...when the page scrolls by itself (its turn brought into view)
    phone.wait_for_timeout(100)
    _tap(phone, "#second")  # what is under the finger moved: this tap is held back
    assert phone.evaluate("window.played") == ["first"]
    assert phone.evaluate("document.body.dataset.typhoonTapsIgnored") == "1"

    phone.wait_for_timeout(access.TAP_HOLD_MS + 150)  # once the hold is over, a tap plays
    _tap(phone, "#second")
    assert phone.evaluate("window.played") == ["first", "second"]


def test_a_scroll_a_finger_made_does_not_hold_the_next_tap_back(phone: Page) -> None:
    _access(phone)
    _tap(phone, "#first")
    phone.wait_for_timeout(access.TAP_HOLD_MS + 150)
    phone.evaluate("""() => { document.dispatchEvent(new TouchEvent('touchmove', {bubbles: true}));
                              window.scrollTo(0, 30); }""")  # the student's own scroll
    phone.wait_for_timeout(100)
    _tap(phone, "#second")
    assert phone.evaluate("window.played") == ["first", "second"]
    assert phone.evaluate("document.body.dataset.typhoonTapsIgnored") is None


def test_a_map_shown_in_two_windows_does_not_flip_its_drawing(phone: Page) -> None:
    """A lesson's map (BoardView's page-side MapWidth) shown narrow here while another window of the same notebook shows
    it wide: that view's word ("not narrow") reaches this one through the shared model; this view, whose own width did
    not change, does not set it back (each change repaints the board in every window: they flickered for ever)."""
    html = ('<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>'
            '<body><canvas class="te-map-1" style="width: 360px; height: 270px"></canvas><div id="widget"></div>'
            "</body></html>")
    _mount(phone, board._WIDTH_ESM, {"target": "te-map-1", "narrow_below": 720.0, "narrow": False, "drawing": "wide"},
           html)
    phone.evaluate("""() => { window.sets = 0; const set = window.standIn.set.bind(window.standIn);
                               window.standIn.set = (k, v) => { if (k === 'narrow') window.sets++; set(k, v); }; }""")
    phone.wait_for_function("window.standIn.get('narrow') === true || window.sets > 0", timeout=3_000)
    phone.evaluate("window.sets = 0; window.standIn.fire('narrow', false)")  # the wide window's word
    phone.wait_for_timeout(1_900)  # two of the view's rounds of checks
    assert phone.evaluate("window.sets") == 0
    assert phone.evaluate("window.standIn.get('narrow')") is False
    phone.evaluate("document.querySelector('canvas').style.width = '800px'")  # this window is widened: it says so
    phone.wait_for_timeout(1_000)
    phone.evaluate("document.querySelector('canvas').style.width = '300px'")  # and narrowed again
    phone.wait_for_function("window.standIn.get('narrow') === true", timeout=3_000)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_tap_held_back_says_so_beside_its_button_until_the_hold_is_over(phone: Page, lang: str) -> None:
    """A tap the hold ignores is not silent: a note beside the tapped button, in the page's language, readable on a
    phone, until the hold is over; the note is not a redraw of the decisions, so it does not lengthen the hold."""
    _access(phone, lang)
    _tap(phone, "#first")
    phone.wait_for_timeout(100)
    _tap(phone, "#second")  # a double tap: held back
    assert phone.evaluate("window.played") == ["first"]
    note = phone.locator(".typhoon-tap-note")
    assert note.text_content() == i18n.t("classplay.access.tap_held", lang)
    assert note.get_attribute("role") == "status"
    box, button = note.bounding_box(), phone.locator("#second").bounding_box()
    assert box is not None and button is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and 0 <= box["y"] and box["y"] + box["height"] <= 844
    assert box["y"] >= button["y"] + button["height"] or box["y"] + box["height"] <= button["y"]  # beside, not over it
    assert float(phone.evaluate("parseFloat(getComputedStyle(document.querySelector('.typhoon-tap-note')).fontSize)")) >= 16
    save_screenshot(phone, f"phone-tap-held-{lang}", full_page=False)

    phone.wait_for_timeout(900 + 150)  # the hold (600 ms) is over and the note gone...
    assert phone.locator(".typhoon-tap-note").count() == 0
    _tap(phone, "#second")  # ...and the next tap plays
    assert phone.evaluate("window.played") == ["first", "second"]
