"""Predict, observe, explain in Voilà and headless Chromium: after the observation the prediction box says what was
predicted, what was observed and whether they match, and the live region says it too.

Lesson 01: lock in "about half", simulate 100,000 rolls (the observation the prediction asks about); lesson 03: lock
in "they bounce apart", play "Two storms meet" (the verdict comes once the animation has shown the storms meet);
lesson 06: lock in Taiwan, and the table it shows is the observation. Screenshots: ``artifacts/screenshots/verdict-<lesson>-<lang>.png``.
Lesson 01 then has the next student at the same computer type their name and lock in (``verdict-01-next-student-<lang>.png``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from typhoon_edu import i18n
from typhoon_edu.server.serve import VoilaProcess

from .harness import save_screenshot
from .langs import lesson_cases
from .test_a11y_keyboard import open_lesson

pytestmark = pytest.mark.browser

#: The option each lesson's prediction is locked in with (its position among the choices): one the observation
#: does not bear out, so the box asks what made the difference.
LOCKED = {"01": 2, "03": 1, "06": 0}

#: Lesson 01's two students at one computer, who type their names after the first one's verdict.
STUDENTS = {"en": ("Mei Verdict", "Ken Next"), "zh-TW": ("陳小美", "王大明")}

#: Lesson 03, read at one moment: whether the merge animation plays (the board's Skip enabled) and the verdict shows.
_PLAYING_JS = """skip => {
  const verdict = !!document.querySelector('.prediction-verdict');
  const playing = [...document.querySelectorAll('button')].some(b => b.textContent.trim() === skip && !b.disabled);
  if (playing && verdict) return 'verdict while playing';
  return playing ? 'playing' : verdict ? 'verdict' : false;
}"""


@pytest.mark.parametrize(("lesson", "lang"), lesson_cases(sorted(LOCKED)))
def test_the_verdict_appears_after_the_observation(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                                   lesson: str, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, lesson, lang)
    box = page.locator(".prediction").first
    box.locator(".prediction-choice button").nth(LOCKED[lesson]).click()
    box.locator(".prediction-lock").click()
    expect(box.locator(".prediction-lock")).to_be_disabled(timeout=15_000)
    verdict = box.locator(".prediction-verdict")
    if lesson == "01":
        expect(verdict).to_have_count(0)  # locked in, nothing observed yet
        page.locator(".widget-dropdown select").first.select_option(label="100,000")
        page.get_by_role("button", name=i18n.t("lesson.compass.simulate", lang)).click()
    if lesson == "03":
        expect(verdict).to_have_count(0)
        page.get_by_role("button", name=i18n.t("lesson.intensity.button_merge", lang)).click()
        # while the storms are still moving (the board's Skip is enabled), the box does not tell the end yet
        state = page.wait_for_function(_PLAYING_JS, arg=i18n.t("anim.skip", lang), timeout=30_000).json_value()
        assert state != "verdict while playing", state
    differed = i18n.t("lesson.common.predict_differed", lang)
    expect(verdict).to_contain_text(differed, timeout=30_000)
    text = verdict.inner_text()
    print(f"\n[{lang}] lesson {lesson}: {text}")
    assert "✔" not in text and "✘" not in text
    expect(page.locator("[role=status]").filter(has_text=differed).first).to_be_attached(timeout=10_000)
    box.scroll_into_view_if_needed()
    save_screenshot(page, f"verdict-{lesson}-{lang}", full_page=False)
    if lesson == "01":
        _next_student(page, box, lang)
    page.context.close()


def _next_student(page: Page, box: Locator, lang: str) -> None:
    """Lesson 01 at the same computer: a name typed after predicting keeps the chart and the verdict (they are that
    student's); the next student's name brings part 2 back to 100 rolls, so their lock-in shows no earlier student's
    100,000 rolls with no verdict (it did), and they make the observation themselves."""
    chart = page.locator(".widget-html").filter(has_text=i18n.t("lesson.compass.hist_title", lang, n="100,000"))
    expect(chart.first).to_be_visible()
    name = box.locator(".quiz-name input").first
    first, second = STUDENTS[lang]  # names of their own in each language: the server's answers folder is shared
    for student in (first, second):
        name.fill(student)
        name.press("Enter")
        expect(box.locator(".quiz-name-status")).to_contain_text(student, timeout=15_000)
        if student == first:
            expect(box.locator(".prediction-verdict")).to_have_count(1)
    expect(box.locator(".prediction-verdict")).to_have_count(0, timeout=15_000)
    expect(box.locator(".prediction-lock")).to_be_enabled(timeout=15_000)  # the second student has not predicted yet
    box.locator(".prediction-choice button").nth(LOCKED["01"]).click()
    box.locator(".prediction-lock").click()
    expect(box.locator(".prediction-lock")).to_be_disabled(timeout=15_000)
    expect(page.locator(".widget-html").filter(has_text=i18n.t("lesson.compass.hist_title", lang, n="100")).first
           ).to_be_visible(timeout=15_000)
    expect(chart).to_have_count(0)
    expect(box.locator(".prediction-verdict")).to_have_count(0)
    box.scroll_into_view_if_needed()
    save_screenshot(page, f"verdict-01-next-student-{lang}", full_page=False)
