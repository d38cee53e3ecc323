"""Lessons 02-06 walked as a student on a phone (390x844, touch): what a walk found, checked in one page load each.

Lesson 02: the staircase's key keeps each line sample beside its words (on a phone "compass direction" wrapped to
the next line and left its dotted sample at the end of the line above), and the landing puzzle answered with the cell
pad says right or wrong on the screen, not only in the text above the map.

Lesson 05 on a laptop, keyboard only: "Run 20,000 storms" (Enter) disables itself until the next prediction; the focus
went on to the next control of the page, part 2's table, and the page scrolled the verdict off the screen. It goes to
the explorer's heat map instead, and the page stays where it was (the verdict is right under the button).

Screenshots: ``artifacts/screenshots/walk-l02-<lang>.png``, ``walk-l05-run-<lang>.png``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.lessons.common import lt

from .harness import REPO_ROOT, save_screenshot
from .keyboard_helpers import focused
from .langs import flow_langs
from .test_a11y_keyboard import open_lesson
from .touch_helpers import RULES, touch_page, touch_tap

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# For each entry of the staircase's key (found by its words): how many lines its text runs to (distinct tops of its
# line boxes).
_KEY_LINES_JS = """words => words.map(w => {
  const b = [...document.querySelectorAll('.jp-OutputArea-output b')].find(e => e.textContent.includes(w));
  if (!b) return [w, 0];
  const range = document.createRange(); range.selectNodeContents(b);
  return [w, new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size];
})"""


def _phone(voila: Callable[..., VoilaProcess], browser: Browser, notebook: str, lang: str) -> Page:
    server = voila(REPO_ROOT / "notebooks" / lang / notebook, lang=lang, timeout=120)
    page = touch_page(browser, PHONE, locale=lang)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(".quiz-option").first).to_be_visible(timeout=120_000)
    return page


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_lesson02_staircase_key_and_puzzle_verdict_on_a_phone(voila: Callable[..., VoilaProcess],
                                                             chromium_browser: Browser, lang: str) -> None:
    page = _phone(voila, chromium_browser, "02_grid_pathing.ipynb", lang)
    page.get_by_text(lt("pathing.legend_bearing", lang)).first.scroll_into_view_if_needed()
    lines = page.evaluate(_KEY_LINES_JS, [lt(f"pathing.legend_{k}", lang) for k in ("stairs", "straight", "bearing")])
    assert len(lines) == 3 and all(n == 1 for _, n in lines), f"the staircase's key on a phone ({lang}): {lines}"
    touch_tap(page, page.get_by_role("button", name=lt("pathing.puzzle_button", lang)))
    page.wait_for_timeout(500)
    choose = page.locator(".te-pad-choose").first
    touch_tap(page, choose)  # the first press shows the square on the storm's eye
    page.wait_for_timeout(500)
    touch_tap(page, choose)  # the second chooses that cell (the eye's own: a wrong answer)
    # the verdict is said under the map, on the screen with the pad the finger is on
    # (the map's live region, for screen readers only, says it too)
    under_map = page.locator(".te-map-area").filter(has=page.locator(".lesson-map"))
    expect(under_map.get_by_text("✘").and_(page.locator(":not(.te-sr-only)"))).to_be_in_viewport(timeout=15_000)
    save_screenshot(page, f"walk-l02-{lang}", full_page=False)
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_lesson05_run_by_keyboard_keeps_the_verdict_in_view(voila: Callable[..., VoilaProcess],
                                                           chromium_browser: Browser, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "05", lang)
    explorer = page.locator(".risk-explorer")
    explorer.get_by_role("button", name=i18n.t("risk.preset.west", lang), exact=True).focus()
    page.keyboard.press("Enter")  # only westward
    explorer.get_by_role("button", name=i18n.region_name(RULES, "Philippines", lang), exact=True).focus()
    page.keyboard.press("Enter")  # the prediction: the Run button is enabled
    run = page.locator(".risk-run")
    expect(run).to_be_enabled()
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('risk-run')"):
            break
    top = run.bounding_box()["y"]
    page.keyboard.press("Enter")
    feedback = page.locator(".risk-feedback")
    expect(feedback).to_contain_text("✔", timeout=60_000)
    page.wait_for_timeout(1500)  # the disabled button has handed the focus on
    save_screenshot(page, f"walk-l05-run-{lang}", full_page=False)
    where = focused(page)
    assert page.evaluate("() => !!document.activeElement.closest('.risk-explorer canvas.te-map-canvas')"), \
        f"the focus went to {where}"
    # the page stays where the student pressed Run: the verdict is right under the button
    assert abs(run.bounding_box()["y"] - top) < 2, "the page scrolled away from the Run button and its verdict"
    page.context.close()
