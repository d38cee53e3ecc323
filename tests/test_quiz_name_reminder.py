"""A student who has not typed a name: each answer is marked and kept in the open page as before, and its feedback
(shown and said) reminds them to type one, since until then the answers are only in this page (a page closed loses
them; on a shared computer the next student who types a name takes them over). The reminder goes once a name is
typed, and the answers given before it are then saved under that name."""

from __future__ import annotations

import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import quiz
from typhoon_edu.ui.lessons.bank import bank
from typhoon_edu.ui.lessons.forecast import ForecastQuiz
from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore, Quiz, check

LANGS = ("en", "zh-TW")
#: words of the reminder, in each language
REMINDER = {"en": "Type your name above so your answers are kept", "zh-TW": "請在上方輸入你的名字，答案才會保存下來"}
ONLY_HERE = {"en": "only in this page", "zh-TW": "答案只留在這個頁面"}


def _item(q, qid):
    return next(i for i in q.items if i.question.id == qid)


def _quiz(lang, tmp_path, lesson="pathing"):
    return Quiz(bank(lesson), lang, sheet=AnswerSheet(lang, lesson, store=AnswerStore(tmp_path)))


@pytest.mark.parametrize("lang", LANGS)
def test_an_answer_before_a_name_is_typed_says_to_type_one(lang, tmp_path):
    q = _quiz(lang, tmp_path)
    choice = next(i for i in q.items if i.question.kind == "choice")
    wrong = next(o for o in choice.question.options if o != choice.question.answer)
    result = choice.answer(wrong)
    shown = choice.feedback.value
    assert REMINDER[lang] in shown and ONLY_HERE[lang] in shown
    assert REMINDER[lang] in q.live.announce  # a screen reader hears it, after the verdict it hears as before
    assert q.live.announce.startswith(check(choice.question, wrong, lang).text(lang))
    # the marking is unchanged: marked wrong, the answer shown, counted, kept in the page
    plain = check(choice.question, wrong, lang)
    assert (result.correct, result.verdict, result.expected, result.why) == (plain.correct, plain.verdict,
                                                                              plain.expected, plain.why)
    assert i18n.t("lesson.common.wrong", lang) in shown
    assert q.answered == 1 and [e.result for e in q.sheet.entries] == ["wrong"]
    assert not list(tmp_path.iterdir())  # no file: no name to keep it under


@pytest.mark.parametrize("lang", LANGS)
def test_typed_answers_and_free_text_get_it_too_but_not_a_hint(lang, tmp_path):
    q = _quiz(lang, tmp_path)
    km = _item(q, "km")
    km.entry.value = "600"  # typed, Enter
    assert km.result is not None and REMINDER[lang] in km.feedback.value
    km.answer("far")  # cannot be read: not kept, so nothing to remind of
    assert REMINDER[lang] not in km.feedback.value and REMINDER[lang] not in q.live.announce
    cell = _item(q, "wnw_four")
    hint = cell.answer("99, 99")  # cannot possibly be right: a hint, not kept
    assert hint.problem and REMINDER[lang] not in cell.feedback.value and q.live.announce == hint.problem
    explain = next(i for i in q.items if i.question.kind == "text")
    explain.answer("Storms move west, so the west coast is safer.")  # "Saved": but only in this page
    assert REMINDER[lang] in explain.feedback.value and REMINDER[lang] in q.live.announce


@pytest.mark.parametrize("lang", LANGS)
def test_typing_a_name_saves_the_answers_and_ends_the_reminder(lang, tmp_path):
    q = _quiz(lang, tmp_path)
    first = next(i for i in q.items if i.question.kind == "choice")
    first.answer(first.question.answer)
    assert REMINDER[lang] in first.feedback.value
    q.sheet.name.value = "Mei 7B"  # the student types a name
    assert REMINDER[lang] not in first.feedback.value  # shown again, without the reminder
    assert i18n.t("lesson.common.right", lang) in first.feedback.value and q.right == 1
    assert [p.name for p in tmp_path.iterdir()] == ["Mei_7B-pathing.json"]  # kept under the name
    km = _item(q, "km")
    km.answer("600")
    assert km.result is not None and REMINDER[lang] not in km.feedback.value
    assert REMINDER[lang] not in q.live.announce
    q.sheet.name.value = ""  # the name erased: the page is nobody's, and says so again
    km.answer("600")
    assert REMINDER[lang] in km.feedback.value


@pytest.mark.parametrize("lang", LANGS)
def test_the_lessons_quizzes_remind_too(lang):
    """The lessons' own quizzes (their sheets keep files beside the notebook), lesson 07's included; a quiz shown
    again before a name is typed shows the answers it holds with the reminder."""
    q = quiz("intensity", lang)
    item = _item(q, "moderate_five")
    item.answer("20")
    assert item.result.correct and REMINDER[lang] in item.feedback.value
    again = quiz("intensity", lang)  # the same sheet, shown again (a cell run twice)
    assert REMINDER[lang] in _item(again, "moderate_five").feedback.value
    f = ForecastQuiz(lang)
    degree = _item(f, "degree")
    degree.answer("111")
    assert degree.result.correct and REMINDER[lang] in degree.feedback.value


@pytest.mark.parametrize("lang", LANGS)
def test_a_sheet_that_keeps_no_file_does_not_remind(lang):
    """A sheet with no store (a quiz shown on its own, the doctests) keeps nothing whether a name is typed or not."""
    q = Quiz(bank("compass"), lang, sheet=AnswerSheet(lang, "compass", store=None))
    item = _item(q, "first_roll")
    item.answer("c")
    assert REMINDER[lang] not in item.feedback.value
    assert q.live.announce == check(item.question, "c", lang).text(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_05s_own_quiz_reminds_too_and_stops_once_a_name_is_typed(lang, tmp_path):
    from typhoon_edu.ui.lessons.risk import QuizView, risk_quiz

    sheet = AnswerSheet(lang, "risk", store=AnswerStore(tmp_path))
    view = QuizView(risk_quiz(lang).questions, lang, sheet=sheet)
    view.answer(0, 0)
    assert REMINDER[lang] in view.feedback[0].value
    assert REMINDER[lang] in view.live.announce  # said as it is shown (a screen reader hears the same words)
    view.explain.answer("Storms come from the east.")
    assert REMINDER[lang] in view.explain.feedback.value
    sheet.set_student("Mei")  # the answers shown again, now kept under the name
    assert REMINDER[lang] not in view.feedback[0].value
    assert [p.name for p in tmp_path.iterdir()] == ["Mei-risk.json"]
