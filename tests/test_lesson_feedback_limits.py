"""A typed quiz answer that cannot possibly be right gets a hint of what is allowed (never "Not quite", never the
answer), and Enter in an empty answer box (quiz, lesson 01's die box) says what to type: ipywidgets sends the kernel
only the box's ``submit`` event then, which these tests send as the browser does."""

from __future__ import annotations

import pytest

from typhoon_edu.i18n import t
from typhoon_edu.ui.lessons import compass_lesson, quiz
from typhoon_edu.ui.lessons.bank import bank
from typhoon_edu.ui.lessons.forecast import forecast_quiz

LANGS = ("en", "zh-TW")

#: (lesson, question id, impossible answer, words of the hint in en, in zh-TW)
IMPOSSIBLE = [
    ("pathing", "wnw_four", "99, 99", "columns 0 to 15 (west to east), rows 0 to 11", "欄是 0 到 15（由西到東），列是 0 到 11"),
    ("pathing", "sw_three", "16, 3", "columns 0 to 15", "欄是 0 到 15"),
    ("pathing", "nne_four", "-1, 4", "Cells are numbered from 0, column first", "格子從 0 開始數，先寫欄再寫列"),
    ("compass", "reachable", "-5", "the compass ring has 7 stops", "方位羅盤上有 7 個停點"),
    ("compass", "reachable", "40", "a whole number from 0 to 7", "0 到 7 之間的整數"),
    ("compass", "reachable", "2.5", "a whole number from 0 to 7", "0 到 7 之間的整數"),
    ("compass", "long_run", "7", "a share is between 0 and 1", "比例介於 0 和 1 之間"),
    ("pathing", "km", "-600", "greater than 0", "大於 0 的公里數"),
    ("pathing", "hours", "0", "a number of hours greater than 0", "大於 0 的小時數"),
    ("intensity", "moderate_five", "-20", "HP are whole numbers", "生命值都是整數"),
    ("intensity", "strong_two", "10.5", "HP are whole numbers", "生命值都是整數"),
    ("game", "refill", "2.5", "a number of storms", "颱風的數目"),
    ("game", "start_hp", "-3", "HP are whole numbers", "生命值都是整數"),
    ("real", "west_share", "140%", "a percentage from 0 to 100", "0 到 100 之間的百分比"),
    ("real", "cell", "20, 20", "columns 0 to 15", "欄是 0 到 15"),
    ("real", "hsu", "85", "the study had 84 typhoons", "一共有 84 個颱風"),
]


def _item(q, qid):
    return next(i for i in q.items if i.question.id == qid)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("lesson", "qid", "typed", "en", "zh"), IMPOSSIBLE)
def test_an_impossible_answer_gets_a_hint_not_a_mark(lesson, qid, typed, en, zh, lang):
    q = quiz(lesson, lang)
    item = _item(q, qid)
    result = item.answer(typed)
    shown = item.feedback.value
    assert (en if lang == "en" else zh) in shown
    assert t("lesson.common.wrong", lang) not in shown and t("lesson.common.right", lang) not in shown
    assert not result.correct and result.problem
    # not marked, not kept, the right answer not shown: the first try is still to come
    assert item.first is None and q.answered == 0 and q.sheet.entries == []
    assert item.question.expected(lang) not in result.problem.replace(typed, "")
    assert q.live.announce == result.problem  # a screen reader hears the hint too
    # a possible answer after it is marked as before
    assert item.answer(item.question.expected(lang)).correct


@pytest.mark.parametrize("lang", LANGS)
def test_possible_but_wrong_answers_are_still_not_quite(lang):
    q = quiz("pathing", lang)
    assert _item(q, "wnw_four").answer("15, 11").verdict == t("lesson.common.wrong", lang)  # the map's last cell
    q = quiz("compass", lang)
    # all 7 stops: the misconception the question is about, marked and explained (the hint would name the answer)
    assert _item(q, "reachable").answer("7").verdict == t("lesson.common.wrong", lang)
    assert _item(q, "long_run").answer("14%").correct


@pytest.mark.parametrize("lang", LANGS)
def test_unreadable_answers_keep_their_message(lang):
    q = quiz("pathing", lang)
    assert _item(q, "wnw_four").answer("here").problem == t("lesson.common.bad_cell", lang)
    assert _item(q, "km").answer("far").problem == t("lesson.common.bad_number", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_forecast_quiz_distances_are_above_zero(lang):
    q = forecast_quiz(lang)
    item = _item(q, "straight")
    assert ("greater than 0" if lang == "en" else "大於 0 的公里數") in item.answer("-1059").problem
    assert q.answered == 0


def test_every_typed_question_has_a_limit_that_allows_its_answer():
    from typhoon_edu.ui.lessons.forecast import localised, questions
    from typhoon_edu.ui.lessons.limits import limits
    from typhoon_edu.ui.quiz import check

    known = limits()
    typed = [q for lesson in ("compass", "pathing", "intensity", "game", "real") for q in bank(lesson)
             if q.kind in ("number", "cell")] + [localised(q, "en") for q in questions() if q.kind == "number"]
    missing = [q.key for q in typed if q.kind == "number" and q.key not in known]
    assert not missing, f"number questions without a limit in limits.py: {missing}"
    for q in typed:
        assert q.limit is not None, f"{q.key} does not carry its limit: a quiz built from it would mark anything"
        feedback = check(q, q.expected("en"), "en")
        assert feedback.problem == "" and feedback.correct, f"{q.key}: its own answer is refused ({feedback.problem})"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("lesson", "qid", "message"), [("pathing", "wnw_four", "lesson.common.bad_cell"),
                                                        ("pathing", "km", "lesson.common.bad_number"),
                                                        ("real", "west_share", "lesson.common.bad_number")])
def test_enter_in_an_empty_quiz_box_says_what_to_type(lesson, qid, message, lang):
    q = quiz(lesson, lang)
    item = _item(q, qid)
    assert item.feedback.value == ""
    item.entry._handle_custom_msg({"event": "submit"}, [])  # Enter, the box unchanged and empty
    assert t(message, lang) in item.feedback.value
    assert q.answered == 0 and q.sheet.entries == []
    item.entry.value = "3, 4" if qid == "wnw_four" else "5"  # typed with Enter: marked as before
    assert item.result is not None and q.answered == 1
    item.entry._handle_custom_msg({"event": "submit"}, [])  # Enter again on the same answer: nothing new
    assert t(message, lang) not in item.feedback.value and len(q.sheet.entries) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_enter_in_lesson_01s_empty_die_box_says_to_type_the_face(lang):
    lesson = compass_lesson(lang)
    box = lesson.die.entry
    assert lesson.die.message.value == ""
    box._handle_custom_msg({"event": "submit"}, [])
    assert t("die.empty", lang) in lesson.die.message.value
    box.value = "4"
    assert lesson.die.face == 4 and lesson.die.message.value == ""


@pytest.mark.parametrize("lang", LANGS)
def test_the_plain_quiz_and_any_quiz_of_the_banks_keep_to_the_limits(lang):
    """The quiz itself knows what an answer can be (each question carries its limit): typhoon_edu.ui.quiz.quiz(), and
    a Quiz built from a bank's questions, refuse an impossible answer as the lessons' quizzes do, no method of theirs
    replaced; Enter in their empty boxes says what to type."""
    from typhoon_edu.ui import quiz as plain
    from typhoon_edu.ui.quiz import AnswerSheet, Quiz

    q = plain.quiz("pathing", lang)
    item = _item(q, "wnw_four")
    result = item.answer("99, 99")
    assert ("columns 0 to 15" if lang == "en" else "欄是 0 到 15") in item.feedback.value
    assert t("lesson.common.wrong", lang) not in item.feedback.value and q.live.announce == result.problem
    assert item.first is None and q.answered == 0 and q.sheet.entries == []
    assert all("answer" not in vars(i) for i in q.items)  # the class's own method answers
    km = _item(q, "km")
    km.entry._handle_custom_msg({"event": "submit"}, [])  # Enter in the empty box
    assert t("lesson.common.bad_number", lang) in km.feedback.value
    qz = Quiz(list(bank("intensity")), lang, sheet=AnswerSheet(lang, "intensity"))
    hp = _item(qz, "strong_two")
    assert ("HP are whole numbers" if lang == "en" else "生命值都是整數") in hp.answer("10.5").problem
    assert hp.first is None and qz.answered == 0 and hp.answer(hp.question.expected(lang)).correct


@pytest.mark.parametrize("lang", LANGS)
def test_an_impossible_answer_kept_before_the_limits_is_shown_as_it_was_kept(lang, tmp_path):
    """An answer file written before the limits may hold "99, 99", marked wrong: typing the name shows it so, as the
    CSV says, and the score counts it as the first try it was."""
    from datetime import datetime

    from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore, Entry, Quiz

    questions = list(bank("pathing"))
    item_q = next(q for q in questions if q.id == "wnw_four")
    store = AnswerStore(tmp_path)
    store.save("pathing", "Mei", [Entry(item_q.key, item_q.prompt(lang), "99, 99", "wrong", datetime(2026, 5, 1), "99, 99")])
    q = Quiz(questions, lang, sheet=AnswerSheet(lang, "pathing", store=store))
    q.sheet.set_student("Mei")
    item = _item(q, "wnw_four")
    assert item.first is not None and not item.first.correct and q.answered == 1
    assert t("lesson.common.wrong", lang) in item.feedback.value
