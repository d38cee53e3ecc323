"""What a page (or a terminal) can send that no person would, answered in the person's words or left out.

A red-team pass sent a class-play phone's kernel a die "face" of 9 MB of digits (the page said Python's "Exceeds
the limit (4300 digits) for integer string conversion") and a map tap with ``"x": "nan"`` (the page said "Something
went wrong: must be real number, not str"). Typed text is now read and repeated back bounded
(:mod:`typhoon_edu.typed`), and a canvas event without the shape a browser gives it is left out before ipycanvas
reads it (:func:`typhoon_edu.ui.canvas_input.check_canvas_events`).
"""

from __future__ import annotations

import io
import logging
from html import escape

import pytest

from typhoon_edu import i18n
from typhoon_edu.cli import main
from typhoon_edu.ui.board import BoardView
from typhoon_edu.ui.canvas_input import TapCanvas
from typhoon_edu.ui.classplay.die_entry import DieEntry
from typhoon_edu.ui.die import parse_face
from typhoon_edu.ui.guard import Problems
from typhoon_edu.ui.lessons.forecast import ForecastChallenge
from typhoon_edu.ui.quiz import _lt, parse_cell, parse_number

HUGE = "6" * 5000  # over int()'s 4,300 digits


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_huge_die_face_is_refused_in_the_persons_words(lang: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_face(HUGE, lang)
    message = str(refused.value)
    assert message == i18n.t("die.invalid", lang, text=HUGE[:20] + "…")
    assert "limit" not in message and len(message) < 120


def test_a_typed_die_on_a_class_play_page_stays_calm_and_short() -> None:
    faces: list[int] = []
    problems = Problems(lambda: "zh-TW")
    entry = DieEntry(problems, lambda face: faces.append(face) is None, lambda: "zh-TW")
    entry.box.value = HUGE  # as the page's message
    assert faces == [] and problems.widget.value == ""
    assert escape(i18n.t("die.invalid", "zh-TW", text=HUGE[:20] + "…")) in entry.message.value


@pytest.mark.parametrize("text", [HUGE + ", 4", "1e400", "-1e400"])
def test_a_lessons_answer_box_refuses_numbers_no_answer_can_be(text: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_cell(text) if "," in text else parse_number(text)
    assert str(refused.value) in (_lt("common.bad_cell", "en"), _lt("common.bad_number", "en"))


def test_the_terminal_game_repeats_a_huge_answer_short_and_asks_again() -> None:
    out = io.StringIO()
    answers = iter([HUGE, HUGE, "q"])
    code = main(["play", "--bots", "human,greedy,greedy", "--players", "Taiwan,Japan,Korea", "--seed", "2"], out=out,
                ask=lambda prompt: (out.write(prompt), next(answers))[1])
    text = out.getvalue()
    assert code == 0 and text.count("“" + HUGE[:20] + "…” is not one of the choices") == 2
    assert "limit" not in text and len(text) < 20_000


def _send(canvas: TapCanvas, content: object) -> None:
    """A frame from the page to the canvas's kernel widget, as the comm delivers it."""
    canvas._handle_custom_msg(content, [])


@pytest.mark.parametrize("frame", [
    {"event": "mouse_down", "x": "nan", "y": 4},
    {"event": "mouse_down"},
    {"event": "mouse_down", "x": True, "y": 3},
    {"event": "mouse_down", "x": float("inf"), "y": 3},
    {"event": "touch_start", "touches": "all of them"},
    {"event": "touch_start"},
    {"event": "touch_start", "touches": [{"x": 1, "y": 1}] * 11},
    {"event": "key_down", "key": "Enter"},
    ["not", "an", "object"],
])
def test_a_crafted_map_tap_is_left_out_quietly(frame: object, caplog: pytest.LogCaptureFixture) -> None:
    """A seat's map: nothing happens, no error reaches the page (its problems area stays empty), one log line."""
    board = BoardView(cell=30)
    cells: list[object] = []
    board.on_cell_click(cells.append)
    with caplog.at_level(logging.WARNING, logger="typhoon_edu.ui.canvas_input"):
        _send(board.canvas, frame)
    assert cells == [] and board.problems.widget.value == ""
    assert [r.getMessage() for r in caplog.records if "canvas event was ignored" in r.getMessage()]


def test_real_taps_still_reach_the_map() -> None:
    board = BoardView(cell=30)
    cells: list[object] = []
    board.on_cell_click(cells.append)
    _send(board.canvas, {"event": "touch_start", "touches": [{"x": 45.0, "y": 45.0}]})
    _send(board.canvas, {"event": "mouse_down", "x": 200, "y": 100})
    assert len(cells) == 2 and board.problems.widget.value == ""


def test_lesson_07s_map_leaves_out_a_crafted_tap(caplog: pytest.LogCaptureFixture) -> None:
    view = ForecastChallenge("en")
    with caplog.at_level(logging.WARNING, logger="typhoon_edu.ui.canvas_input"):
        _send(view.canvas, {"event": "touch_start", "touches": [{"x": "here"}]})
    assert "canvas event was ignored" in caplog.text and view.problems.widget.value == ""
