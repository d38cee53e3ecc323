"""Lesson 03's two boards on a phone: where the page says the map is narrow, every text is drawn at least 11 CSS px.

On a 390x844 phone the demonstrations' board and the sandbox's are about :data:`PHONE_MAP_PX` CSS px wide (the
browser test tests/browser/test_lessons_03_05_phone.py measures it), their canvas 748 px: the usual drawing's
names, coordinates and storm levels (8.8-13.2 px of canvas) came out at 4-6 px there. The board's page-side helper
tells the kernel when the map is narrow (as a page does, by a widget message), and the board then paints its phone
drawing: what the canvas is sent is measured here. A wide map (a laptop, a projector) keeps the usual drawing, and a
board that did not ask for a phone drawing (class play's, lesson 02's) has no such helper.
"""

from __future__ import annotations

from typing import Any

import pytest
from phone_drawing import LEGIBLE_PX, page_says, painted, smallest_css_px

from typhoon_edu.ui import board as board_module
from typhoon_edu.ui.board import PHONE_BOARD_PX as PHONE_MAP_PX
from typhoon_edu.ui.board import BoardView
from typhoon_edu.ui.lessons.intensity import IntensityLesson, IntensitySandbox
from typhoon_edu.ui.scene import Text, dynamic_scene, static_scene


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("make", [IntensityLesson, IntensitySandbox], ids=["demonstrations", "sandbox"])
def test_a_narrow_map_is_painted_legible(make: Any, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    part = make(lang)
    board = part.board
    width = board.geometry.pixel_size[0]
    shapes = painted(monkeypatch, lambda: page_says(board.map_width, True, "lesson 03's board"))
    smallest, which = smallest_css_px(shapes, width, PHONE_MAP_PX)
    assert smallest >= LEGIBLE_PX, f"{make.__name__} ({lang}) on a phone: {which} is {smallest:.1f} CSS px"
    # the storms are all there, each with its level in a badge
    names = {s.text for s in shapes if isinstance(s, Text) and s.role == "typhoon-label"}
    badges = [s for s in shapes if isinstance(s, Text) and s.role == "level-badge"]
    assert names and len(badges) == len(names), (names, badges)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_phone_drawing_stays_through_a_move_and_a_tap(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox on a phone: a storm placed by a tap and a move animated are painted at the phone's sizes too,
    and the tap lands on the cell it did before (the phone drawing has the same cells)."""
    sandbox = IntensitySandbox(lang)
    board = sandbox.board
    page_says(board.map_width, True, "lesson 03's board")
    x, y = board.geometry.cell_centre(14, 2)
    shapes = painted(monkeypatch, lambda: board.canvas.tap(x, y, source="touch"))
    assert len(sandbox.model.typhoons) == 4
    shapes += painted(monkeypatch, lambda: (sandbox.run(faces=[1, 1, 1, 1]), board.skip()))
    smallest, which = smallest_css_px(shapes, board.geometry.pixel_size[0], PHONE_MAP_PX)
    assert smallest >= LEGIBLE_PX, f"the sandbox ({lang}) on a phone, tapped and moved: {which} is {smallest:.1f} px"


def test_a_wide_map_keeps_the_usual_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Back to a wide map (a phone turned, a laptop): the usual drawing again, exactly as a plain board paints it."""
    sandbox = IntensitySandbox("en")
    board = sandbox.board
    page_says(board.map_width, True, "lesson 03's board")
    shapes = painted(monkeypatch, lambda: page_says(board.map_width, False, "lesson 03's board"))
    usual = static_scene(board.rules, "en", board.cell) + dynamic_scene(board.rules, board.state, "en", board.cell)
    assert shapes == usual
    assert not board.narrow


def test_a_plain_board_has_no_phone_drawing() -> None:
    """Class play's and the other lessons' boards are as before: no page-side helper, the usual drawing."""
    board = BoardView(lang="en", cell=40)
    assert board.map_width is None and board.min_text == 0.0
    assert all(not isinstance(c, board_module.MapWidth) for c in board.children)
