"""Lesson 02's map on a phone: where the page says the map is narrow, every text is drawn at least 11 CSS px, the
path's step numbers too.

On a 390x844 phone lesson 02's map is about :data:`PHONE_MAP_PX` CSS px wide (as lesson 03's boards, the same
748 px canvas; tests/browser/test_touch_lessons.py measures it), and the usual drawing's coordinates, names, the
storm's label and badge and the path's step numbers (8.8-13.2 px of canvas) came out at 4.2-6.4 CSS px there. The
board's page-side helper tells the kernel when the map is narrow (as a page does, by a widget message) and the board
then paints its phone drawing: what the canvas is sent is measured here. A wide map (a laptop, a projector) keeps
the usual drawing, the saved SVG too.
"""

from __future__ import annotations

import math

import pytest
from phone_drawing import LEGIBLE_PX, page_says, painted, smallest_css_px

from typhoon_edu import i18n
from typhoon_edu.ui.board import PHONE_BOARD_PX as PHONE_MAP_PX
from typhoon_edu.ui.lessons.pathing import PathingLesson, landing_puzzles, path_steps_letters
from typhoon_edu.ui.scene import Circle, Text, dynamic_scene, path_scene, static_scene
from typhoon_edu.ui.state import BoardState, PathPreview, TyphoonView


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_narrow_map_is_painted_legible(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lesson as it opens (the first rulebook path played): the map, the storm's name and its level badge."""
    lesson = PathingLesson(lang)
    board = lesson.board
    shapes = painted(monkeypatch, lambda: page_says(board.map_width, True, "lesson 02's map"))
    smallest, which = smallest_css_px(shapes, board.geometry.pixel_size[0], PHONE_MAP_PX)
    assert smallest >= LEGIBLE_PX, f"lesson 02 ({lang}) on a phone: {which} is {smallest:.1f} CSS px"
    roles = {s.role for s in shapes if isinstance(s, Text)}
    assert {"coord", "region-label", "zone-label", "typhoon-label", "level-badge"} <= roles, roles
    assert board.map_width is not None and board.map_width.drawing == "phone"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_puzzle_answered_on_a_phone_numbers_its_steps_legibly(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A puzzle answered by a tap (a wrong cell: the storm's own) and the next one revealed: the path's step
    numbers are drawn at the phone's sizes, one per step, and the verdict lines under the map are said as before."""
    lesson = PathingLesson(lang)
    board = lesson.board
    page_says(board.map_width, True, "lesson 02's map")
    width = board.geometry.pixel_size[0]
    puzzle = lesson.new_puzzle()
    shapes = painted(monkeypatch, lambda: board.canvas.tap(*board.geometry.cell_centre(*puzzle.start), source="touch"))
    assert lesson.score == [0, 1], "the tap did not answer the puzzle"
    assert "✘" in board.status.value and puzzle.start in board.state.highlights
    steps = [s.text for s in shapes if isinstance(s, Text) and s.role == "path-step"]
    assert steps == [str(i) for i in range(1, puzzle.pips + 1)], steps
    smallest, which = smallest_css_px(shapes, width, PHONE_MAP_PX)
    assert smallest >= LEGIBLE_PX, f"a puzzle answered on a phone ({lang}): {which} is {smallest:.1f} CSS px"
    nxt = lesson.new_puzzle()
    shapes = painted(monkeypatch, lesson.reveal)
    assert [s.text for s in shapes if isinstance(s, Text) and s.role == "path-step"][-1] == str(nxt.pips)
    smallest, which = smallest_css_px(shapes, width, PHONE_MAP_PX)
    assert smallest >= LEGIBLE_PX, f"a puzzle revealed on a phone ({lang}): {which} is {smallest:.1f} CSS px"
    assert i18n.cell_label(nxt.answer, lang) in board.status.value  # the revealed answer, said under the map


def test_the_cell_pad_answers_on_the_phone_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cell pad's square and "Choose this cell" answer the puzzle as before on the phone drawing: the cells
    did not move, and the path is drawn to the cell the letters lead to."""
    lesson = PathingLesson("en")
    board = lesson.board
    page_says(board.map_width, True, "lesson 02's map")
    puzzle = lesson.new_puzzle()
    lesson.pad.move(0, 0)  # the first press shows the square on the storm's eye
    dx, dy = puzzle.answer[0] - puzzle.start[0], puzzle.answer[1] - puzzle.start[1]
    for _ in range(abs(dx)):
        lesson.pad.move(1 if dx > 0 else -1, 0)
    for _ in range(abs(dy)):
        lesson.pad.move(0, 1 if dy > 0 else -1)
    assert lesson.pad.choose() == puzzle.answer
    assert lesson.score == [1, 1] and "✔" in board.status.value
    assert " ".join(path_steps_letters(puzzle.direction, puzzle.pips, lesson.rules)) in board.status.value
    assert board.narrow and board.map_width is not None and board.map_width.drawing == "phone"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_level_badge_keeps_off_the_step_numbers(lang: str) -> None:
    """Every puzzle of the lesson, answered wrong on the phone drawing: the storm's level badge (a large circle out
    on a corner of the eye) covers none of the path's numbered steps."""
    lesson = PathingLesson(lang)
    board = lesson.board
    page_says(board.map_width, True, "lesson 02's map")
    hits = []
    for puzzle in landing_puzzles(40, 0, lesson.rules):
        lesson.puzzle = puzzle
        board.show(BoardState(typhoons=(TyphoonView(1, puzzle.start, 1, puzzle.direction),)))
        lesson.guess(puzzle.start)
        shapes = board.dynamic_shapes()
        badges = [s for s in shapes if isinstance(s, Circle) and s.role == "level-badge"]
        steps = [s for s in shapes if isinstance(s, Circle) and s.role == "path-step"]
        if any(math.hypot(b.cx - s.cx, b.cy - s.cy) < b.r + s.r for b in badges for s in steps):
            hits.append((puzzle.start, puzzle.direction, puzzle.pips))
    assert not hits, f"the level badge covers a step number on a phone ({lang}): {hits}"


def test_a_wide_map_keeps_the_usual_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Back to a wide map (a phone turned, a laptop): the usual drawing again, exactly as a plain board paints it,
    with the path's step numbers at their usual size; the saved SVG is the usual drawing throughout."""
    lesson = PathingLesson("en")
    board = lesson.board
    puzzle = lesson.new_puzzle()
    lesson.guess(puzzle.start)
    svg = board.to_svg()
    page_says(board.map_width, True, "lesson 02's map")
    assert board.to_svg() == svg
    shapes = painted(monkeypatch, lambda: page_says(board.map_width, False, "lesson 02's map"))
    usual = static_scene(board.rules, "en", board.cell) + dynamic_scene(board.rules, board.state, "en", board.cell)
    assert shapes == usual
    assert not board.narrow and board.map_width is not None and board.map_width.drawing == "wide"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_path_off_the_map_is_said_at_the_phone_size(lang: str) -> None:
    """The phone's step size holds for a path that leaves the map too (the mark and its words; lesson 02's own
    paths all end on the map, a board's preview may not), and the usual sizes are kept without it."""
    lesson = PathingLesson(lang)
    off = PathPreview((1, 3), "W", 4)
    phone = [s for s in path_scene(lesson.rules, off, lang, 44, step_text=23.0) if isinstance(s, Text)]
    assert {s.role for s in phone} == {"path-step", "path-off"} and min(s.size for s in phone) >= 23.0
    usual = [s for s in path_scene(lesson.rules, off, lang, 44) if isinstance(s, Text)]
    assert sorted(s.size for s in usual) == [8.8, 9.68, 17.6]
