"""The lessons for a screen reader and the keyboard, in Python (the browser's view: tests/browser/test_a11y_lessons.py).

* every answer box of every quiz has a name (its description, not shown), built from its question's number and text;
* what a lesson answers is said in a live region: lesson 01's roll, a quiz's verdict (lesson 05's radio choices too),
  lesson 02's puzzle and verdict;
* "Show the path" (lesson 02) sends the focus to the map as it disables itself; a board's Skip leads the focus to its
  map, and a prediction shows what it guards before its lock disables itself, and says it is locked in;
* the map's description counts in the singular ("1 typhoon", "1 cell") in English;
* the lessons' style sheet draws a 3 px focus ring, never on a map's canvas.
"""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest

from typhoon_edu import i18n
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui import map_text
from typhoon_edu.ui.lessons import bank, compass_lesson, pathing_lesson
from typhoon_edu.ui.lessons.risk import risk_quiz
from typhoon_edu.ui.quiz import AnswerSheet, Quiz, quiz
from typhoon_edu.ui.state import BoardState, TyphoonView
from typhoon_edu.ui.touch import TOUCH_CSS

LANGS = i18n.LANGS


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson", sorted(bank.BANKS))
def test_every_answer_box_has_a_name(lesson, lang):
    q = Quiz(bank.bank(lesson), lang, sheet=AnswerSheet(lang, lesson))
    boxes = [(n, item) for n, item in enumerate(q.items, 1) if item.entry is not None]
    assert boxes, lesson
    for n, item in boxes:
        expected = i18n.t("lesson.common.answer_label", lang, n=n, prompt=item.question.prompt(lang))
        assert item.entry.description == expected
        assert item.entry.style.description_width == "0px"  # named, not shown: the question is written above it


@pytest.mark.parametrize("lang", LANGS)
def test_a_quiz_says_its_verdicts(lang):
    q = quiz("compass", lang)
    assert q.live in q.children, "the live region is in the page before any answer"
    choice = next(item for item in q.items if item.question.kind == "choice")
    choice.answer(choice.question.answer)
    assert q.live.announce.startswith("✔ " + i18n.t("lesson.common.right", lang)), q.live.announce
    number = next(item for item in q.items if item.question.kind == "number")
    number.answer("many")
    assert q.live.announce == i18n.t("lesson.common.bad_number", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_05s_quiz_says_each_choices_verdict(lang):
    """Lesson 05's quiz (radio choices, its own widget) showed "✔ Right!" or "✘ Not quite." and why, and said
    nothing: a screen reader hears the same words from a live region that is in the page before any answer."""
    q = risk_quiz(lang)
    assert q.live in q.children and q.children.index(q.live) < q.children.index(q.choices[0])
    assert q.live.announce == ""
    first, second = q.questions[0], q.questions[1]
    gap = "" if lang == "zh-TW" else " "  # "✔ 答對了！數字是…": no space after a full-width mark
    # no name typed yet: the verdict, then the reminder to type one (said as it is shown)
    remind = f"{gap}{q.sheet.reminder()}" if q.sheet.reminder() else ""
    q.answer(0, first.answer)
    assert q.live.announce == f"✔ {i18n.t('risk.quiz.right', lang)}{gap}{first.why}{remind}"
    wrong = (second.answer + 1) % len(second.options)
    q.answer(1, wrong)
    assert q.live.announce == f"✘ {i18n.t('risk.quiz.wrong', lang)}{gap}{second.why}{remind}"
    q.sheet.name.value = "Mei Lin"  # another student: the options are shuffled again, the answers shown again, unsaid
    q.live.announce = ""
    q._student_changed()
    assert q.live.announce == ""
    q.explain.answer("Most storms form east of the Philippines and move west.")
    assert q.live.announce.startswith("✎ ")  # the explanation's "saved", as in every quiz


@pytest.mark.parametrize("lang", LANGS)
def test_a_prediction_says_it_is_locked_in_and_shows_what_it_guards_before_the_lock_is_disabled(lang, tmp_path):
    """Locking a prediction in moves the keyboard's focus on (the page's helper in canvas_input.py does it once the
    lock is disabled): what the prediction guards is shown and enabled first, and the locked-in prediction is said,
    since the status under the lock is not where the focus goes. A prediction restored for a student is not said."""
    from typhoon_edu.ui.quiz import AnswerStore, Prediction

    run = widgets.Button(disabled=True)
    chart = widgets.HTML(layout=widgets.Layout(display="none"))
    sheet = AnswerSheet(lang, "intensity", store=AnswerStore(tmp_path))
    p = Prediction("intensity", "merge", lang, sheet=sheet, enable=[run], reveal=[chart])
    assert p.live in p.children and p.live.announce == ""
    order: list[str] = []
    run.observe(lambda _c: order.append("enabled"), "disabled")
    chart.layout.observe(lambda _c: order.append("shown"), "display")
    p.lock.observe(lambda _c: order.append("lock disabled"), "disabled")
    p.choice.value = "a"
    order.clear()
    entry = p.lock_in("a")
    assert order == ["shown", "enabled", "lock disabled"], order
    then = i18n.t("lesson.predict.intensity.merge.then", lang)
    assert p.live.announce.startswith(i18n.t("lesson.common.predict_locked", lang, answer=entry.answer))
    assert p.live.announce.endswith(then)
    again = Prediction("intensity", "merge", lang, sheet=sheet)  # the same sheet: restored, shown, not said
    assert again.locked and again.live.announce == ""


def test_a_boards_skip_sends_the_focus_to_its_map():
    """Skip disables itself when its animation ends: the page's helper sends the focus to the map of its area, not
    to the page's body (tests/browser/test_focus_kept_lessons.py checks it in the browser)."""
    from typhoon_edu.ui.board import BoardView
    from typhoon_edu.ui.canvas_input import FOCUS_TO_MAP, MAP_AREA

    board = BoardView(lang="en", cell=16)
    assert MAP_AREA in board._dom_classes and FOCUS_TO_MAP in board.skip_button._dom_classes
    assert board.canvas in board.children and board.access.target in board.canvas._dom_classes


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_01_says_each_roll(lang):
    w = compass_lesson(lang)
    start = w.ring.stop
    stop = w.roll(3)
    name = i18n.direction_name(w.rules, stop, lang)
    assert w.ring_access.announce == i18n.t("lesson.compass.rolled", lang, face=3, start=start, stop=stop, name=name)


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_02_says_its_puzzles_and_shows_the_path_on_the_focused_map(lang):
    w = pathing_lesson(lang)
    sent: list[object] = []
    w.board.access.send = sent.append  # what would go to the page
    p = w.new_puzzle()
    prompt = i18n.t("lesson.pathing.puzzle_prompt", lang, start=i18n.cell_label(p.start, lang), direction=p.direction,
                    name=i18n.direction_name(w.rules, p.direction, lang), pips=p.pips)
    assert w.board.access.announce.startswith(prompt)
    wrong = (p.answer[0] + 1, p.answer[1])
    w.guess(wrong)
    said = w.board.access.announce
    assert said.startswith("✘ ") and i18n.cell_label(p.answer, lang) in said
    assert i18n.t("lesson.pathing.puzzle_score", lang, right=0, total=1) in said
    assert sent == [], "answering on the map leaves the focus where it is"
    p = w.new_puzzle()
    w.reveal()
    assert w.reveal_button.disabled
    assert sent == [{"focus": True}], "the disabled button's focus goes to the map"
    assert w.board.access.announce == i18n.t("lesson.pathing.revealed", lang, answer=i18n.cell_label(p.answer, lang)).strip()


def test_the_map_counts_one_in_the_singular():
    rules = load_rules()
    one = BoardState(typhoons=(TyphoonView(1, (8, 8), 3, "NNW"),), highlights=((8, 8),))
    two = BoardState(typhoons=(TyphoonView(1, (8, 8), 3, "NNW"), TyphoonView(2, (3, 3), 1, "N")),
                     highlights=((8, 8), (9, 9)))
    en = map_text.board_text(rules, one, "en")
    assert "1 typhoon: T1" in en and "1 cell can be chosen now." in en
    assert not re.search(r"\b1 (typhoons|cells)\b", en)
    assert "2 typhoons: " in map_text.board_text(rules, two, "en")
    assert "2 cells can be chosen now." in map_text.board_text(rules, two, "en")
    zh = map_text.board_text(rules, one, "zh-TW")
    assert "1 個颱風：" in zh and "現在有 1 格可以選。" in zh


def test_the_lessons_draw_a_3px_focus_ring_but_not_on_a_map():
    rule = next(line for line in TOUCH_CSS.splitlines() if ":focus-visible" in line)
    assert all(tag in rule for tag in ("button", "input", "select", "textarea", "a[href]", ".noUi-handle"))
    assert "canvas" not in rule
    assert "outline: 3px solid #1d4ed8" in TOUCH_CSS
