"""Lesson 01, predict → observe → explain with a second student at the same computer.

The 100,000-roll chart a student made stayed in the lesson when the next student typed their name: hidden until they
locked in a prediction, then shown with no verdict (the box only compares what is simulated after the lock-in). The
next student now starts part 2 as the lesson starts (100 rolls), and makes the observation after predicting; the work
of a student who types their name only after predicting stays theirs, as their answers do.
"""

from __future__ import annotations

import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import compass


def _verdict(lang: str) -> str:
    return i18n.t("lesson.common.predict_differed", lang)


def _observed_without_verdict(lesson: compass.CompassLesson) -> bool:
    """A 100,000-roll chart is shown beside a locked-in prediction that gives no verdict on it."""
    p = lesson.prediction
    shown = lesson.chart.layout.display != "none"
    return shown and p.locked and lesson.stats.n >= compass.LONG_RUN_ROLLS and "prediction-verdict" not in p.status.value


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_next_student_makes_the_observation_after_predicting(lang):
    lesson = compass.compass_lesson(lang)
    p, sheet = lesson.prediction, lesson.prediction.sheet
    sheet.set_student(f"Mei {lang}")  # names of their own: the answers' folder is shared by the session's tests
    p.lock_in("c")
    lesson.n_rolls.value = compass.LONG_RUN_ROLLS
    lesson.simulate()
    assert _verdict(lang) in p.status.value  # Mei's verdict
    sheet.name.value = f"Ken {lang}"  # the next student at the same computer types their name
    assert not p.locked and lesson.chart.layout.display == "none"
    # Mei's 100,000 rolls are not Ken's observation: part 2 is back as the lesson starts
    assert lesson.stats.n < compass.LONG_RUN_ROLLS and lesson.n_rolls.value == 100 and lesson.seed.value == 2024
    assert f"{compass.LONG_RUN_ROLLS:,}" not in lesson.chart.value
    p.lock_in("c")
    assert not _observed_without_verdict(lesson)
    assert "prediction-verdict" not in p.status.value and not p.entry.observed  # nothing observed yet
    lesson.n_rolls.value = compass.LONG_RUN_ROLLS
    lesson.simulate()  # Ken's own observation, after his prediction
    assert _verdict(lang) in p.status.value and p.live.announce.endswith(_verdict(lang))
    assert sheet.latest(p.key).observed  # on Ken's answer sheet


def test_a_returning_student_sees_their_own_verdict_not_the_last_students_chart():
    lesson = compass.compass_lesson("en")
    p, sheet = lesson.prediction, lesson.prediction.sheet
    sheet.set_student("Mei back")
    p.lock_in("c")
    lesson.simulate(compass.LONG_RUN_ROLLS, seed=3)
    mei = p.entry
    sheet.set_student("Ken next")
    p.lock_in("a")
    lesson.simulate(compass.LONG_RUN_ROLLS, seed=4)
    sheet.set_student("Mei back")  # Mei comes back: her verdict, from her rolls; Ken's chart is gone
    assert p.entry.value == "c" and p.entry.observed == mei.observed
    assert lesson.stats.n < compass.LONG_RUN_ROLLS


def test_a_name_typed_after_predicting_keeps_the_chart():
    """Answers given before a name are the named student's (the answer sheet keeps them): so is the chart."""
    lesson = compass.compass_lesson("zh-TW")
    p = lesson.prediction
    p.lock_in("a")
    stats = lesson.simulate(compass.LONG_RUN_ROLLS, seed=9)
    p.sheet.set_student("陳小美")
    assert p.locked and lesson.stats is stats and lesson.chart.layout.display != "none"
    assert i18n.t("lesson.common.predict_matched", "zh-TW") in p.status.value
