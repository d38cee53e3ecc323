"""A button that disables itself keeps the keyboard where it was (WCAG 2.4.3 focus order), in Voilà, keyboard only.

An accessibility review found that two of the lessons' buttons dropped the keyboard's focus on the page's body when
pressed with Enter: "Lock in my prediction" (lessons 01, 03 and 06), which disables itself as it locks the
prediction in, and the board's "Skip animation" (lessons 02 and 03), which disables itself when the animation ends,
pressed or not. A keyboard user then had to Tab again from the top of the page. Checked here:

* Lock in (Tab to it, Enter): the focus goes to the control the prediction enabled (lesson 03: "Two storms meet"),
  else to the next control the lesson now shows after it (lesson 01: the number of rolls; lesson 06: the distance
  slider), and the next Tab goes on from there; the locked-in prediction is said in a live region;
* Skip (Tab to it, Enter), and an animation that ends while Skip has the focus: the focus goes to the board's map,
  whose name says where the storms are; the next Tab goes on from the map.

Screenshots: ``artifacts/screenshots/focus-<what>-<lang>.png``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.server.serve import VoilaProcess

from .harness import save_screenshot
from .keyboard_helpers import focused
from .langs import flow_langs, lesson_cases
from .test_a11y_keyboard import open_lesson

pytestmark = pytest.mark.browser

#: Each lesson with a prediction, and the control its locking in shows or enables (what the focus goes to next): a CSS
#: selector, and the key of its label when it must be one button among others.
NEXT_AFTER_LOCK: dict[str, tuple[str, str | None]] = {
    "01": (".widget-dropdown select", None),  # the number of rolls, first of the simulation's controls
    "03": (".jupyter-button", "lesson.intensity.button_merge"),  # "Two storms meet", which waited for the prediction
    "06": (".noUi-handle[role=slider]", None),  # the distance slider of the region reach table
}

_AFTER_JS = """([a, b]) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING)"""


def is_focused(locator: Any) -> bool:
    return bool(locator.evaluate("e => e === document.activeElement"))


def tab_to(page: Page, target: Any, limit: int = 40) -> None:
    """Press Tab until ``target`` has the focus (a keyboard user's way there)."""
    for _ in range(limit):
        if is_focused(target):
            return
        page.keyboard.press("Tab")
    assert is_focused(target), f"Tab did not reach the control in {limit} presses; the focus is on {focused(page)}"


def focus_after_a_while(page: Page) -> str:
    """Where the focus is once the page has settled (the widgets' messages arrived, the page's helpers ran)."""
    page.wait_for_timeout(1200)
    return focused(page)


@pytest.mark.parametrize(("lesson", "lang"), lesson_cases(sorted(NEXT_AFTER_LOCK), first="zh-TW"))
def test_lock_in_keeps_the_focus(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lesson: str,
                                 lang: str) -> None:
    page = open_lesson(voila, chromium_browser, lesson, lang)
    box = page.locator(".prediction").first
    choice, lock = box.locator(".prediction-choice button").first, box.locator(".prediction-lock")
    box.locator(".quiz-name input").first.focus()  # the prediction's first control: from here, the keyboard only
    tab_to(page, choice)
    page.keyboard.press("Space")
    expect(lock).to_be_enabled(timeout=15_000)
    tab_to(page, lock)
    page.keyboard.press("Enter")
    expect(lock).to_be_disabled(timeout=15_000)
    where = focus_after_a_while(page)
    print(f"\n[{lang}] lesson {lesson}, after 'Lock in my prediction': the focus is on {where}")
    assert where != "body", "'Lock in my prediction' dropped the focus on the page's body"
    active = page.evaluate_handle("() => document.activeElement")
    assert page.evaluate(_AFTER_JS, [lock.element_handle(), active]), f"the focus went back up the page: {where}"
    selector, label = NEXT_AFTER_LOCK[lesson]
    assert active.evaluate("(e, sel) => e.matches(sel)", selector), where
    if label is not None:
        assert active.evaluate("e => e.textContent.trim()") == i18n.t(label, lang), where
    # the locked-in prediction is said, in the page's language
    said = i18n.t("lesson.common.predict_locked", lang, answer="@").split("@")[0]
    expect(page.locator("[role=status]").filter(has_text=said).first).to_be_attached(timeout=10_000)
    save_screenshot(page, f"focus-lock-in-{lesson}-{lang}", full_page=False)
    page.keyboard.press("Tab")  # and the keyboard goes on from there, not from the top of the page
    assert page.evaluate(_AFTER_JS, [lock.element_handle(), page.evaluate_handle("() => document.activeElement")])
    page.context.close()


def _lock_in(page: Page) -> None:
    box = page.locator(".prediction").first
    box.locator(".prediction-choice button").first.click()
    box.locator(".prediction-lock").click()
    expect(box.locator(".prediction-lock")).to_be_disabled(timeout=15_000)


def _start_a_demo_and_tab_to_skip(page: Page, lang: str) -> Any:
    """Start lesson 03's first demonstration with the keyboard, and Tab to its board's Skip while it plays."""
    demo = page.get_by_role("button", name=i18n.t("lesson.intensity.button_moderate_five", lang))
    board = page.locator(".widget-vbox:has(> canvas.lesson-map)")  # the board: its map, its bar (speed, Skip)
    skip = board.get_by_role("button", name=i18n.t("anim.skip", lang))
    speed = board.locator(".noUi-handle[role=slider]").first
    for _ in range(3):  # a busy machine may end the animation before the focus gets there: start it again
        demo.focus()
        page.keyboard.press("Enter")
        expect(skip).to_be_enabled(timeout=15_000)
        speed.focus()  # the board's bar: the speed slider, its readout, Skip
        for _ in range(3):
            page.keyboard.press("Tab")
            if is_focused(skip):
                break
        if is_focused(skip) and skip.is_enabled():
            return skip
    raise AssertionError(f"Skip could not be reached while the animation played; the focus is on {focused(page)}")


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_skip_keeps_the_focus_on_the_board(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                           lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "03", lang)
    _lock_in(page)  # "Two storms meet" waits for the prediction; the others do not, but the page is as a student's
    page.wait_for_timeout(800)
    canvas = page.locator("canvas.lesson-map").first
    # pressed: Enter on Skip
    skip = _start_a_demo_and_tab_to_skip(page, lang)
    page.keyboard.press("Enter")
    expect(skip).to_be_disabled(timeout=15_000)
    where = focus_after_a_while(page)
    print(f"\n[{lang}] after 'Skip': the focus is on {where}")
    assert where != "body", "'Skip' dropped the focus on the page's body"
    assert is_focused(canvas), f"the focus left the board: {where}"
    expect(canvas).to_have_attribute("aria-label", re.compile(r"\S"))  # the map says where the storms are
    save_screenshot(page, f"focus-skip-{lang}", full_page=False)
    page.keyboard.press("Tab")  # on from the map: the board's speed slider
    assert is_focused(page.locator(".widget-vbox:has(> canvas.lesson-map) .noUi-handle[role=slider]").first), focused(page)
    # not pressed: the animation ends while Skip has the focus, and Skip disables itself
    skip = _start_a_demo_and_tab_to_skip(page, lang)
    expect(skip).to_be_disabled(timeout=30_000)
    where = focus_after_a_while(page)
    print(f"[{lang}] after the animation ended on 'Skip': the focus is on {where}")
    assert is_focused(canvas), f"the end of the animation dropped the focus: {where}"
    page.context.close()
