"""The check-yourself widget: right and wrong answers get the right feedback, in both languages,
and every answer in the question banks agrees with the engine."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from html import escape

import pytest

from typhoon_edu import damage, i18n, load_rules
from typhoon_edu.engine.rules import MIN_TYPHOONS
from typhoon_edu.ui.lessons import bank
from typhoon_edu.ui.lessons.compass import long_run_shares, one_roll_stops, replay_rulebook
from typhoon_edu.ui.lessons.pathing import RULEBOOK_EXAMPLES, km_per_cell, landing_cell, path_cells
from typhoon_edu.ui.quiz import (
    AnswerSheet,
    Feedback,
    Question,
    QuestionWidget,
    Quiz,
    check,
    format_percent,
    parse_cell,
    parse_number,
    quiz,
    read_answer,
)

RULES = load_rules()
ALL = [q for questions in bank.BANKS.values() for q in questions]
GRADED = [q for q in ALL if q.kind != "text"]  # "explain your reasoning" answers are for the teacher, not marked


def wrong_answer(q: Question):
    if q.kind == "choice":
        return next(o for o in q.options if o != q.answer)
    if q.kind == "cell":
        return f"{q.answer[0] + 1}, {q.answer[1]}"
    a, t = float(q.answer), q.tolerance
    # well off the answer, and below it where above cannot possibly be right (more than 7 stops, a share above 1):
    # check() answers an impossible answer with a hint, not a mark (tests/test_lesson_feedback_limits.py)
    for wrong in (str(a + 10 * (t + 1)), str(a - (t + 1)), str(a / 2)):
        if q.limit is None or not q.limit.hint(read_answer(q, wrong), wrong, "en"):
            return wrong
    raise AssertionError(f"{q.key}: no wrong answer that can possibly be right was found")


def right_answer(q: Question):
    if q.kind == "choice":
        return q.answer
    if q.kind == "cell":
        return f"{q.answer[0]}, {q.answer[1]}"
    if q.percent:
        return format_percent(q.answer)
    return str(q.answer)


# --- feedback -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("q", GRADED, ids=lambda q: f"{q.lesson}.{q.id}")
def test_right_answer_is_marked_right_with_the_why(q, lang):
    fb = check(q, right_answer(q), lang)
    assert fb.correct and not fb.problem
    assert fb.verdict == i18n.t("lesson.common.right", lang)
    assert fb.why == q.why(lang) and fb.why
    html = fb.html(lang)
    assert "✔" in html and i18n.t("lesson.common.right", lang) in html


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("q", GRADED, ids=lambda q: f"{q.lesson}.{q.id}")
def test_wrong_answer_is_marked_wrong_with_answer_and_why(q, lang):
    fb = check(q, wrong_answer(q), lang)
    assert not fb.correct and not fb.problem
    assert fb.verdict == i18n.t("lesson.common.wrong", lang)
    html = fb.html(lang)
    assert "✘" in html
    assert escape(q.expected(lang)) in html  # the right answer is shown
    assert escape(q.why(lang)) in html  # and the explanation


def test_feedback_is_in_the_lessons_language():
    q = bank.COMPASS[0]
    zh = check(q, "a", "zh-TW")
    en = check(q, "a", "en")
    assert zh.verdict == "還差一點。" and en.verdict == "Not quite."
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh.why)
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in en.why)


def test_unreadable_answers_explain_and_do_not_count():
    n = Question("intensity", "moderate_five", "number", answer=20)
    fb = check(n, "twenty", "zh-TW")
    assert fb.problem == i18n.t("lesson.common.bad_number", "zh-TW") and not fb.correct
    c = Question("pathing", "wnw_four", "cell", answer=(6, 8))
    assert check(c, "7", "en").problem == i18n.t("lesson.common.bad_cell", "en")
    ch = bank.COMPASS[0]
    assert check(ch, "z", "en").problem == i18n.t("lesson.common.pick_one", "en")


def test_number_tolerance_and_formats():
    q = Question("compass", "long_run", "number", answer=1 / 7, tolerance=0.005)
    for typed in ("1/7", "0.143", "0.14", "14.3%", " ０.１４３ "):
        assert check(q, typed, "en").correct, typed
    assert not check(q, "0.2", "en").correct
    assert parse_number("1,800") == 1800 and parse_number(18) == 18.0
    assert parse_cell("（７，４）") == (7, 4) and parse_cell((3, 2)) == (3, 2)


def test_question_rejects_bad_data():
    with pytest.raises(ValueError, match="kind"):
        Question("x", "y", "essay", answer="a")
    with pytest.raises(ValueError, match="not one of its options"):
        Question("x", "y", "choice", answer="e", options=("a", "b"))


# --- the widgets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_choice_buttons_give_instant_feedback(lang):
    w = QuestionWidget(bank.COMPASS[0], lang)
    w.buttons["a"].click()
    assert w.result is not None and not w.result.correct
    assert w.buttons["a"].button_style == "danger" and w.buttons["c"].button_style == "success"
    assert i18n.t("lesson.common.wrong", lang) in w.feedback.value
    w.buttons["c"].click()
    assert w.result.correct and w.buttons["a"].button_style == ""
    assert i18n.t("lesson.common.right_later", lang) in w.feedback.value  # right, but not at the first try
    assert w.first is not None and not w.first.correct


def test_typed_answers_and_score():
    qz = quiz("pathing", "zh-TW")
    cell_item = next(i for i in qz.items if i.question.kind == "cell")
    assert cell_item.entry is not None
    x, y = cell_item.question.answer
    cell_item.entry.value = f"{x}, {y}"  # typing + Enter (continuous_update is off)
    assert cell_item.result is not None and cell_item.result.correct
    number_item = next(i for i in qz.items if i.question.kind == "number")
    number_item.answer("12345")
    assert qz.answered == 2 and qz.right == 1
    assert "答對 1 題" in qz.score.value


@pytest.mark.parametrize("lesson", sorted(bank.BANKS))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_quiz_builds_and_saves_html(lesson, lang):
    qz = quiz(lesson, lang)
    assert isinstance(qz, Quiz) and len(qz.items) >= 5
    data = qz._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    html = data["text/html"]
    assert all(escape(q.prompt(lang)) in html for q in qz.questions)
    assert html.count("<li>") >= len(qz.questions)


def test_unknown_quiz():
    with pytest.raises(ValueError, match="compass"):
        quiz("nothing")


def test_feedback_html_escapes():
    fb = Feedback(False, "<b>", "<script>", "x")
    assert "<script>" not in fb.html("en")


# --- the bank agrees with the engine ----------------------------------------------------------------


@pytest.mark.parametrize("q", [q for q in bank.PATHING if q.kind == "cell"], ids=lambda q: q.id)
def test_cell_answers_follow_the_rules(q):
    eye, _, direction = q.board
    pips = q.fmt["pips"]
    assert landing_cell(eye, direction, pips, RULES) == q.answer
    for lang in i18n.LANGS:  # the why walks the engine's own path, cell by cell
        assert " → ".join(f"({x}, {y})" for x, y in [eye, *path_cells(RULES, eye, direction, pips)]) in q.why(lang)
        assert f"({eye[0]}, {eye[1]})" in q.prompt(lang) and str(pips) in q.prompt(lang)


@pytest.mark.parametrize("q", [q for q in bank.PATHING if q.kind == "cell"], ids=lambda q: q.id)
def test_cell_questions_are_not_the_examples_the_page_already_shows(q):
    """The board opens on the rulebook's first path and its buttons replay all three: the quiz asks other ones."""
    eye, _, direction = q.board
    shown = {(ex.start, ex.direction, ex.pips) for ex in RULEBOOK_EXAMPLES}
    assert (tuple(eye), direction, q.fmt["pips"]) not in shown
    assert all(q.answer != landing_cell(ex.start, ex.direction, ex.pips, RULES) for ex in RULEBOOK_EXAMPLES)


def _option_naming(q: Question, text: str) -> str:
    """The one option of ``q`` whose English text is ``text`` or starts with ``text`` and a space."""
    found = [o for o in q.options if q.option_text(o, "en") == text or q.option_text(o, "en").startswith(text + " ")]
    assert len(found) == 1, f"{q.lesson}.{q.id}: {len(found)} options name {text!r}"
    return found[0]


def _real_facts() -> dict[str, object]:
    from typhoon_edu.realdata import jma, stats

    storms = jma.all_storms()
    shares = stats.motion_shares(storms, tropical=True)
    reach = stats.region_reach(storms, 200)
    return {"shares": shares, "top": max(shares, key=shares.__getitem__), "kt": jma.find_storm("Soudelor").max_wind_kt,
            "rise": stats.pressure_change(jma.find_storm("Nepartak"), stats.places()["Taiwan"]).rise,
            "first": stats.reach_ranking(reach)[0], "cell": stats.nearest_cell(145.0, 13.1)}


def _first_number_of_the_study(q: Question) -> int:
    """A number from a published study (Hsu et al. 2018) is not computed: it is the one the why cites, in both
    languages ("49 of 84" / "84 個裡有 49 個")."""
    en = re.match(r"(\d+) of (\d+) ", q.why("en"))
    zh = re.match(r"(\d+) 個裡有 (\d+) 個", q.why("zh-TW"))
    assert en and zh and (en[1], en[2]) == (zh[2], zh[1]), "the why no longer cites the study's numbers"
    return int(en[1])


def _cwa_class_name(kt: float) -> str:
    from typhoon_edu.realdata import stats

    return {4: "strong typhoon", 3: "moderate typhoon", 2: "mild typhoon", 1: "tropical depression"}[stats.cwa_class(kt)]


#: How each question's answer is worked out again, here, from the engine, the rules data or the real tracks:
#: ``lesson.id`` -> a function of the question that gives the answer it must have. Every number and cell question
#: needs one (bank.py promises it); a choice question has one when its answer is a fact of the data, else it is in
#: BY_READING below. A new question fails test_every_answer_is_worked_out_again until it is added to one of them.
RECOMPUTED: dict[str, Callable[[Question], object]] = {
    "compass.first_roll": lambda q: _option_naming(q, replay_rulebook()[0].stop),
    "compass.rulebook_last": lambda q: _option_naming(q, replay_rulebook()[-1].stop),
    "compass.reachable": lambda q: len(set(one_roll_stops("N").values())),
    "compass.long_run": lambda q: long_run_shares()["E"],
    "compass.after_e": lambda q: _option_naming(q, RULES.ring[RULES.ring.index("E") + 1]),
    "pathing.wnw_four": lambda q: landing_cell(q.board[0], q.board[2], q.fmt["pips"], RULES),
    "pathing.sw_three": lambda q: landing_cell(q.board[0], q.board[2], q.fmt["pips"], RULES),
    "pathing.nne_four": lambda q: landing_cell(q.board[0], q.board[2], q.fmt["pips"], RULES),
    "pathing.km": lambda q: 5 * km_per_cell(RULES),
    "pathing.hours": lambda q: km_per_cell(RULES) / 20,
    "intensity.footprint": lambda q: _option_naming(q, str(len(RULES.levels))),
    "intensity.moderate_five": lambda q: damage(3, 5, False),
    "intensity.strong_two": lambda q: damage(4, 2, True),
    "intensity.super_three": lambda q: damage(5, 3, False),
    "game.counter": lambda q: damage(3, 2 * 2, True),
    "game.start_hp": lambda q: RULES.regions["Taiwan"].hp,
    "game.refill": lambda q: MIN_TYPHOONS,
    "game.strongest": lambda q: damage(len(RULES.levels), 1, False),
    "real.top_direction": lambda q: _option_naming(q, {"W": "west", "N": "north", "E": "east", "S": "south"}
                                                    [REAL["top"]]),
    "real.west_share": lambda q: pytest.approx(REAL["shares"]["W"] + REAL["shares"]["NW"], abs=0.0005),
    "real.class": lambda q: _option_naming(q, _cwa_class_name(REAL["kt"])),
    "real.cell": lambda q: REAL["cell"],
    "real.pressure": lambda q: _option_naming(q, "it weakened" if REAL["rise"] > 0 else "it grew stronger"),
    "real.reach": lambda q: _option_naming(q, {"Philippines": "the Philippines"}.get(REAL["first"], REAL["first"])),
    "real.hsu": lambda q: _first_number_of_the_study(q),
}

#: Choice questions whose right option is a matter of the wording (a reason, a rule stated in the lesson), not a number
#: of the data: checked by reading the prompt, the options and the why, in both languages.
BY_READING = {
    "compass.same_stop", "compass.real_motion", "pathing.wnw_cycle", "pathing.sw_first", "pathing.diagonal",
    "intensity.landfall", "intensity.merge", "intensity.cwa_super", "intensity.grow",
    "game.held", "game.landfall", "game.merge", "real.board",
}

REAL = _real_facts()


@pytest.mark.parametrize("q", GRADED, ids=lambda q: f"{q.lesson}.{q.id}")
def test_every_answer_is_worked_out_again(q):
    """Every marked question of every bank (bank.BANKS, game_bank and real_bank as the lesson builds them)."""
    name = f"{q.lesson}.{q.id}"
    if name in BY_READING and q.kind == "choice":
        return
    assert name in RECOMPUTED, (
        f"quiz question {name} ({q.kind}) has no recomputed answer: add how its answer follows from the rules or the "
        f"data to RECOMPUTED in tests/test_quiz.py (or, a choice whose answer is a matter of wording, to BY_READING)")
    expected = RECOMPUTED[name](q)
    if q.kind == "number" and isinstance(expected, float):
        expected = pytest.approx(expected)
    assert q.answer == expected, f"{name}: the bank says {q.answer!r}, the engine/data give {expected!r}"


def test_the_lists_name_only_questions_there_are():
    names = {f"{q.lesson}.{q.id}" for q in GRADED}
    assert set(RECOMPUTED) | BY_READING <= names, sorted((set(RECOMPUTED) | BY_READING) - names)
    assert not set(RECOMPUTED) & BY_READING


def test_the_lesson_banks_are_the_ones_checked():
    """game_bank() and real_bank() are built again for each lesson: the ones checked here are the same questions."""
    assert [q.id for q in bank.bank("game")] == [q.id for q in bank.BANKS["game"]]
    assert [q.id for q in bank.bank("real")] == [q.id for q in bank.BANKS["real"]]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_question_has_all_its_texts(lang):
    for q in ALL:
        for key in q.text_keys():
            assert i18n.has(key, lang), f"{key} missing in {lang}"
        # every text the student and the teacher's guide see is filled in (i18n.t fails on a missing value)
        for text in (q.prompt(lang), q.why(lang), *(q.option_text(o, lang) for o in q.options)):
            assert "{" not in text and "}" not in text, f"{q.key} in {lang}: {text}"


# --- the answer sheet's file: whose it is, and how it is written -----------------------------------------------------

MEI_TABLET, CLASSMATE_PHONE = "meiTablet-0123456789AB", "classmatePhone-0123456"


def _served_sheet(monkeypatch, folder, device):
    """A lesson page's answer sheet in a fresh kernel of the class server, opened on ``device``."""
    from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR
    from typhoon_edu.ui.quiz import forget_sheets, lesson_sheet

    monkeypatch.setenv("TYPHOON_EDU_ANSWERS", str(folder))
    monkeypatch.setenv(CLASS_SERVER_ENV_VAR, "1")
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.setenv("QUERY_STRING", f"device={device}" if device else "")
    forget_sheets()
    return lesson_sheet("compass", "en")


def test_on_the_class_server_a_classmates_name_opens_no_classmates_sheet(monkeypatch, tmp_path):
    mei = _served_sheet(monkeypatch, tmp_path, MEI_TABLET)
    mei.set_student("Mei")
    mei.add("Where does it stop?", "East", True, key="quiz.compass.first_roll", value="c")
    mine = mei.saved_to
    before = mine.read_bytes()
    # another device types her name: it sees none of her answers, and her file is left as it was
    other = _served_sheet(monkeypatch, tmp_path, CLASSMATE_PHONE)
    other.add("Which way?", "West", False, key="quiz.compass.other", value="a")
    other.set_student("mei")
    assert [e.answer for e in other.entries] == ["West"] and "East" not in other.csv()
    assert other.saved_to is not None and other.saved_to != mine
    assert mine.read_bytes() == before
    # Mei's own device, in a new kernel (a reload, a restart), gets her answers back under her name
    again = _served_sheet(monkeypatch, tmp_path, MEI_TABLET)
    again.set_student("MEI")
    assert [e.answer for e in again.entries] == ["East"]


def test_on_the_class_server_a_page_without_a_device_never_opens_a_sheet_kept_by_name(monkeypatch, tmp_path):
    from typhoon_edu.ui.quiz import AnswerStore, Entry

    AnswerStore(tmp_path).save("compass", "Mei", [Entry("k", "q?", "East", "right", datetime(2026, 5, 1, 9, 30), "c")])
    for device in ("", "forged"):  # no id, or none the server hands out
        sheet = _served_sheet(monkeypatch, tmp_path, device)
        sheet.set_student("Mei")
        assert sheet.entries == []


def test_in_jupyterlab_a_name_still_brings_the_answers_back_after_a_restart(monkeypatch, tmp_path):
    from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR
    from typhoon_edu.ui.quiz import forget_sheets, lesson_sheet

    monkeypatch.setenv("TYPHOON_EDU_ANSWERS", str(tmp_path))
    monkeypatch.delenv(CLASS_SERVER_ENV_VAR, raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    sheet = lesson_sheet("compass", "en")
    sheet.set_student("Mei")
    sheet.add("Where does it stop?", "East", True, key="quiz.compass.first_roll", value="c")
    assert sheet.saved_to == tmp_path / "Mei-compass.json"
    forget_sheets()  # a kernel restart
    again = lesson_sheet("compass", "en")
    again.set_student("mei")
    assert [e.answer for e in again.entries] == ["East"]


def test_saving_never_writes_through_a_file_planted_at_a_fixed_temporary_name(tmp_path):
    from typhoon_edu.ui.quiz import AnswerStore, Entry

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    (tmp_path / "Mei-compass.tmp").symlink_to(victim)
    store = AnswerStore(tmp_path)
    store.save("compass", "Mei", [Entry("k", "q?", "East", "right", datetime(2026, 5, 1, 9, 30), "c")])
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert [e.answer for e in store.load("compass", "Mei")] == ["East"]


def test_two_pages_saving_one_sheet_at_once_never_damage_it(tmp_path):
    import json
    import threading

    from typhoon_edu.ui.quiz import AnswerStore, Entry

    store = AnswerStore(tmp_path)
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def saver(i: int) -> None:
        entries = [Entry("k", "q?" * 200, f"answer {i}", "right", datetime(2026, 5, 1, 9, 30), "c")] * 40
        barrier.wait()
        try:
            for _ in range(30):
                store.save("compass", "Mei", entries)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=saver, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    data = json.loads((tmp_path / "Mei-compass.json").read_text(encoding="utf-8"))
    assert len({e["answer"] for e in data["entries"]}) == 1 and len(data["entries"]) == 40
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Mei-compass.json"]


@pytest.mark.parametrize(("lang", "one", "two"), [("en", "1 answer so far", "2 answers so far"),
                                                  ("zh-TW", "目前有 1 個回答", "目前有 2 個回答")])
def test_the_answer_count_under_the_link_reads_right_for_one_answer_and_more(lang, one, two):
    sheet = AnswerSheet(lang, filename="compass", store=None)
    sheet.add("Q1?", "E", True)
    assert one in sheet.widget.value and "1 answers" not in sheet.widget.value
    sheet.add("Q2?", "N", False)
    assert two in sheet.widget.value
