"""The quiz's score counts each question's first answer: after a wrong pick the right option turns green, and
clicking it then is "right on a later try", not a point; the same answer given twice in a row is one row of the
answer sheet (a second click, Enter then Check, an answer given before the name and again after it); and a locked-in
prediction is stamped neutrally ("locked in"), never with the ✔ of a right answer."""

from __future__ import annotations

import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons.bank import COMPASS
from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore, Prediction, Quiz


def _quiz(lang: str, tmp_path, name: str = "Bo 6A") -> Quiz:
    sheet = AnswerSheet(lang, "compass", store=AnswerStore(tmp_path))
    qz = Quiz(list(COMPASS), lang, sheet=sheet)
    if name:
        sheet.set_student(name)
    return qz


def _item(qz: Quiz, qid: str):
    return next(i for i in qz.items if i.question.id == qid)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_right_answer_after_a_wrong_one_scores_nothing(lang, tmp_path):
    qz = _quiz(lang, tmp_path)
    first = _item(qz, "first_roll")
    first.buttons["a"].click()  # wrong: the right option turns green
    assert first.buttons["c"].button_style == "success"
    first.buttons["c"].click()  # and clicking it now is no first try
    assert qz.right == 0 and qz.answered == 1 and qz.right_later == 1
    assert i18n.t("lesson.common.right_later", lang) in first.feedback.value
    assert i18n.t("lesson.common.score_later", lang, n=1) in qz.score.value
    _item(qz, "same_stop").buttons["c"].click()  # right at the first try
    assert qz.right == 1 and qz.answered == 2
    csv = qz.sheet.csv()
    assert i18n.t("lesson.common.csv_right_later", lang) in csv
    # a restart: the first answer still decides
    again = Quiz(list(COMPASS), lang, sheet=AnswerSheet(lang, "compass", store=AnswerStore(tmp_path)))
    again.sheet.set_student("Bo 6A")
    assert again.right == 1 and again.right_later == 1 and again.answered == 2


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_same_answer_twice_in_a_row_is_one_row(lang, tmp_path):
    qz = _quiz(lang, tmp_path, name="")
    first = _item(qz, "first_roll")
    first.buttons["a"].click()  # before the name
    qz.sheet.set_student("Bo 6A")
    first.buttons["a"].click()  # the same option again, after it
    long_run = _item(qz, "long_run")
    long_run.entry.value = "50%"  # leaving the box sends the value …
    long_run.answer(long_run.entry.value)  # … and the Check button the same again
    rows = qz.sheet.csv().splitlines()[1:]
    assert len(rows) == 2, rows
    first.buttons["c"].click()
    assert len(qz.sheet.csv().splitlines()) == 4  # a different answer is a row of its own


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_locked_prediction_is_stamped_neutrally(lang, tmp_path):
    sheet = AnswerSheet(lang, "compass", store=AnswerStore(tmp_path))
    p = Prediction("compass", "long_run", lang, sheet=sheet)
    p.lock_in("b")
    assert "✔" not in p.status.value and "fa-lock" in p.status.value
    assert "✔" not in p.live.announce and p.live.announce.startswith(i18n.t("lesson.common.predict_locked", lang, answer=""))
    said = i18n.t("lesson.common.predict_locked", lang, answer="@")
    assert not said.startswith(("Your prediction", "你的預測"))  # "locked in", not a claim that sounds like a verdict
