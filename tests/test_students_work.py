"""Students' work in every lesson (issue 22, items 11–14): options shuffled per student, an "explain
your reasoning" answer per lesson, predictions locked in before the reveal, and an answer sheet with a
name that is kept in a file beside the notebook across a kernel restart."""

from __future__ import annotations

import base64
import csv
import io
import json

import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import answers, bank, compass, intensity, real, risk
from typhoon_edu.ui.quiz import (
    AnswerSheet,
    AnswerStore,
    Prediction,
    Question,
    check,
    forget_sheets,
    lesson_sheet,
    option_order,
    quiz,
)

NAMES = [f"student {k}" for k in range(40)] + ["陳小美", "Mei", "Ahmad 7B", "林 志明"]
CHOICE = [q for questions in bank.BANKS.values() for q in questions if q.kind == "choice"]


def csv_rows(sheet: AnswerSheet) -> list[list[str]]:
    payload = sheet.widget.value.split("base64,")[1].split("'")[0]
    return list(csv.reader(io.StringIO(base64.b64decode(payload).decode("utf-8").lstrip("\ufeff"))))


# --- 11: shuffled per student, stable for that student -----------------------------------------------------


@pytest.mark.parametrize("q", CHOICE, ids=lambda q: f"{q.lesson}.{q.id}")
def test_the_right_answers_position_varies_between_students_and_stays_for_one(q):
    positions = {option_order(q, name).index(q.answer) for name in NAMES}
    assert len(positions) >= 2, f"{q.key}: the right answer is always in position {positions}"
    for name in NAMES:
        order = option_order(q, name)
        assert sorted(order) == sorted(q.options)
        assert order == option_order(q, f"  {name.upper()} ")  # the same student, typed another way


def test_the_first_option_is_no_longer_right_for_most_students_in_lessons_02_and_03():
    """The issue's finding: option a was right in all of lesson 02's choice questions, 4 of 5 in 03."""
    for lesson in ("pathing", "intensity"):
        qs = [q for q in bank.bank(lesson) if q.kind == "choice" and len(q.options) > 2]
        first = sum(option_order(q, name)[0] == q.answer for q in qs for name in NAMES)
        assert first < 0.6 * len(qs) * len(NAMES), (lesson, first)


def test_the_quiz_shows_the_buttons_in_the_students_order(tmp_path):
    sheet = AnswerSheet("en", "compass", lesson="compass", store=AnswerStore(tmp_path))
    from typhoon_edu.ui.quiz import Quiz

    qz = Quiz(bank.COMPASS, "en", sheet=sheet)
    sheet.name.value = "Mei"  # typing the name re-orders the options
    for item in qz.items:
        if item.question.kind == "choice":
            assert item.order == option_order(item.question, "Mei")
            assert [b.description for b in item.options_box.children] == [
                item.question.option_text(o, "en") for o in option_order(item.question, "Mei")]


def test_the_risk_quiz_shuffles_its_radio_buttons_per_student(tmp_path):
    view = risk.QuizView(risk.risk_questions("en"), "en", sheet=AnswerSheet("en", "risk", lesson="risk", store=AnswerStore(tmp_path)))
    orders = set()
    for name in NAMES[:12]:
        view.sheet.set_student(name)
        orders.add(tuple(v for _, v in view.choices[0].options))
    assert len(orders) >= 2
    q = view.questions[0]
    assert view.answer(0, q.answer) and view.right_count == 1  # the values stay the option indices


# --- 12: an "explain your reasoning" answer in every lesson -------------------------------------------------


@pytest.mark.parametrize("lesson", sorted(bank.BANKS))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_lesson_asks_for_reasoning_and_keeps_it_for_the_teacher(lesson, lang, tmp_path):
    from typhoon_edu.ui.quiz import Quiz

    sheet = AnswerSheet(lang, lesson, lesson=lesson, store=AnswerStore(tmp_path))
    qz = Quiz(bank.bank(lesson), lang, sheet=sheet)
    item = next(i for i in qz.items if i.question.kind == "text")
    assert item.answer("   ").problem == i18n.t("lesson.common.write_something", lang)
    fb = item.answer("Because every stop is reached from six others.")
    assert not fb.graded and not fb.problem and fb.why == item.question.why(lang) and fb.why
    assert "✔" not in fb.html(lang) and "✘" not in fb.html(lang)
    assert qz.answered == 0 and "(" not in qz.score.value.split(":")[0]  # not marked, not in the score
    rows = csv_rows(sheet)
    assert rows[-1][2] == "Because every stop is reached from six others."
    assert rows[-1][3] == i18n.t("lesson.common.csv_free", lang)
    key = {r[1]: r for r in answers.rows(lesson, lang)}[item.question.prompt(lang)]
    assert key[2] == i18n.t("lesson.common.free_answer", lang) and key[3] == item.question.why(lang)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_05_asks_for_reasoning_too(lang, tmp_path):
    view = risk.QuizView(risk.risk_questions(lang), lang, sheet=AnswerSheet(lang, "risk", lesson="risk", store=AnswerStore(tmp_path)))
    view.explain.answer("The map is stylised.")
    assert view.sheet.entries[-1].result == "free" and view.sheet.entries[-1].answer == "The map is stylised."
    assert answers.rows("risk", lang)[-1][1] == view.explain.question.prompt(lang)


def test_the_teachers_keys_say_what_a_good_free_answer_contains():
    for lang, name in answers.GUIDES.items():
        text = (answers.DOCS / name).read_text(encoding="utf-8")
        for _number, lesson in answers.LESSON_BANKS:
            free = [r for r in answers.rows(lesson, lang) if r[2] == i18n.t("lesson.common.free_answer", lang)]
            assert len(free) >= 1, (lang, lesson)
            assert free[0][3].replace("|", "\\|") in text


# --- 13: predictions before the reveal, into the CSV ----------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_01_hides_the_simulation_until_the_prediction_is_locked_in(lang):
    lesson = compass.compass_lesson(lang)
    p = lesson.prediction
    assert all(w.layout.display == "none" for w in p.reveal) and lesson.chart in p.reveal
    with pytest.raises(ValueError):
        p.lock_in(None)
    p.choice.value = "a"
    assert not p.lock.disabled
    p.lock.click()
    assert p.locked and all(w.layout.display is None for w in p.reveal) and p.choice.disabled
    p.lock_in("b")  # locked: a second prediction changes nothing
    entry = lesson_sheet("compass", lang).latest("predict.compass.long_run")
    assert entry is not None and entry.value == "a" and entry.result == "prediction"
    rows = csv_rows(quiz("compass", lang).sheet)  # the quiz's download holds the prediction
    assert rows[1][2] == p.option_text("a") and rows[1][3] == i18n.t("lesson.common.csv_prediction", lang)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_03_enables_the_merge_only_after_a_prediction(lang):
    lesson = intensity.intensity_lesson(lang)
    merge = lesson.prediction.enable[0]
    assert merge.description == i18n.t("lesson.intensity.button_merge", lang) and merge.disabled
    lesson.prediction.lock_in("a")
    assert not merge.disabled
    assert lesson_sheet("intensity", lang).latest("predict.intensity.merge").answer == lesson.prediction.option_text("a")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_06_shows_the_regions_only_after_a_prediction(lang):
    w = real.region_reach(lang)
    assert w.view.layout.display == "none" and w.km.layout.display == "none"
    w.prediction.lock_in("b")
    assert w.view.layout.display is None
    assert [e.result for e in lesson_sheet("real", lang).entries] == ["prediction"]


def test_a_prediction_needs_its_texts_in_both_languages():
    for lesson, key, options in (("compass", "long_run", "abcd"), ("intensity", "merge", "abcd"), ("real", "reach", "abcdef")):
        for lang in i18n.LANGS:
            for part in ("prompt", "then", *options):
                assert i18n.has(f"lesson.predict.{lesson}.{key}.{part}", lang), (lesson, key, part, lang)


# --- 14: a name, a file named after student and lesson, kept across a kernel restart -------------------------


def test_answers_come_back_after_a_kernel_restart(tmp_path, monkeypatch):
    monkeypatch.setenv("TYPHOON_EDU_ANSWERS", str(tmp_path))
    forget_sheets()
    qz = quiz("pathing", "zh-TW")
    qz.items[0].answer(qz.questions[0].answer)  # answered before any name: kept, and saved once the name comes
    qz.sheet.name.value = "陳小美"
    assert qz.sheet.filename == "陳小美-pathing-answers.csv" and "陳小美-pathing-answers.csv" in qz.sheet.widget.value
    cell = next(i for i in qz.items if i.question.kind == "cell")
    cell.answer("7, 4")
    free = next(i for i in qz.items if i.question.kind == "text")
    free.answer("一格大約 360 公里。")
    saved = json.loads((tmp_path / "陳小美-pathing.json").read_text(encoding="utf-8"))
    assert saved["student"] == "陳小美" and len(saved["entries"]) == 3
    assert i18n.t("lesson.common.csv_name", "zh-TW") == csv_rows(qz.sheet)[0][0] and csv_rows(qz.sheet)[1][0] == "陳小美"

    forget_sheets()  # a new kernel: nothing in memory
    again = quiz("pathing", "zh-TW")
    assert again.answered == 0
    again.sheet.name.value = " 陳小美 "
    assert again.answered == 2 and again.right == 1 + (cell.question.answer == (7, 4))
    assert again.items[0].result is not None and again.items[0].buttons[again.questions[0].answer].button_style == "success"
    restored = next(i for i in again.items if i.question.kind == "text")
    assert restored.entry.value == "一格大約 360 公里。"
    assert len(again.sheet.entries) == 3  # restoring records nothing new
    assert [r[1:] for r in csv_rows(again.sheet)] == [r[1:] for r in csv_rows(qz.sheet)]


def test_two_students_keep_separate_files(tmp_path):
    store = AnswerStore(tmp_path)
    a = AnswerSheet("en", "real", lesson="real", store=store)
    a.set_student("Mei")
    a.add("q?", "yes", True, key="quiz.real.x", value="a")
    b = AnswerSheet("en", "real", lesson="real", store=store)
    b.set_student("Ahmad")
    assert b.entries == [] and sorted(p.name for p in tmp_path.iterdir()) == ["Mei-real.json"]
    b.add("q?", "no", False, key="quiz.real.x", value="b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Ahmad-real.json", "Mei-real.json"]
    assert [e.answer for e in store.load("real", "MEI")] == ["yes"]


def test_a_name_without_letters_is_refused_and_nothing_changes(tmp_path):
    sheet = AnswerSheet("en", "compass", lesson="compass", store=AnswerStore(tmp_path))
    sheet.add("q?", "x", False)
    sheet.set_student("../..")
    assert sheet.student == "" and i18n.t("lesson.common.name_bad", "en") in sheet.status.value
    assert list(tmp_path.iterdir()) == [] and len(sheet.entries) == 1


def test_a_damaged_file_is_set_aside_not_lost(tmp_path):
    (tmp_path / "Mei-compass.json").write_text("{not json", encoding="utf-8")
    store = AnswerStore(tmp_path)
    assert store.load("compass", "Mei") == []
    assert (tmp_path / "Mei-compass.damaged.json").read_text(encoding="utf-8") == "{not json"


def test_a_folder_that_cannot_be_written_is_reported_and_the_answers_stay(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    sheet = AnswerSheet("en", "compass", lesson="compass", store=AnswerStore(blocker / "answers"))
    sheet.set_student("Mei")
    sheet.add("q?", "x", True)
    assert len(sheet.entries) == 1 and sheet.saved_to is None
    assert i18n.t("lesson.common.name_unsaved", "en", name="Mei") in sheet.status.value
    assert sheet.problems.widget.value  # the reason reaches the person


def test_a_prediction_comes_back_with_the_name(tmp_path):
    store = AnswerStore(tmp_path)
    sheet = AnswerSheet("en", "compass", lesson="compass", store=store)
    sheet.set_student("Mei")
    Prediction("compass", "long_run", "en", sheet=sheet).lock_in("c")
    fresh = AnswerSheet("en", "compass", lesson="compass", store=store)
    p = Prediction("compass", "long_run", "en", sheet=fresh)
    assert not p.locked
    fresh.name.value = "mei"
    assert p.locked and p.choice.value == "c" and p.choice.disabled


def test_percent_questions_read_percentages():
    q = Question("real", "west_share", "number", answer=0.648, tolerance=0.02, percent=True,
                 fmt={"w": "40%", "nw": "25%", "both": "65%", "game": "2/7"})  # the values its why needs
    assert all(check(q, t, "en").correct for t in ("64.8", "64.8%", "65 %", "６５％"))
    assert not check(q, "0.648", "en").correct and check(q, "many", "en").problem


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_name_typed_before_any_answer_is_not_told_its_file_failed(tmp_path, lang):
    """A name alone writes no file (no empty file is left behind); the line under the name box then says where the
    answers will be kept, not that no file could be written (which every student saw after typing a name)."""
    sheet = AnswerSheet(lang, "compass", lesson="compass", store=AnswerStore(tmp_path))
    sheet.set_student("Mei")
    assert list(tmp_path.iterdir()) == []
    unsaved = i18n.t("lesson.common.name_unsaved", lang, name="Mei")
    assert unsaved not in sheet.status.value
    assert i18n.t("lesson.common.name_ready", lang, name="Mei", file="Mei-compass.json") in sheet.status.value
    sheet.add("q?", "E", True)
    assert i18n.t("lesson.common.name_saved", lang, name="Mei", file="Mei-compass.json") in sheet.status.value


def test_a_sheet_without_a_folder_says_page_only_without_a_failed_write(tmp_path):
    sheet = AnswerSheet("en", "compass", lesson="compass", store=None)
    sheet.set_student("Mei")
    sheet.add("q?", "E", True)
    assert i18n.t("lesson.common.name_page", "en", name="Mei") in sheet.status.value
    assert "no file could be written" not in sheet.status.value
