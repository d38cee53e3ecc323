"""One input for every map: mouse, pen, touch and keyboard make one tap each; maps say what they show.

The front-end messages are fed in as ipycanvas 0.14's front end sends them (``mouse_down`` with
``x``/``y``; ``touch_start`` with the touches still down), through the canvas's own message handler.
"""

from __future__ import annotations

from typing import Any

import pytest

from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.board import BoardView
from typhoon_edu.ui.canvas_input import MAP_KEYS, MapAccess, TapCanvas, make_accessible
from typhoon_edu.ui.guard import Problems
from typhoon_edu.ui.state import BoardState, TyphoonView

RULES = load_rules()


def send(canvas: TapCanvas, content: dict[str, Any]) -> None:
    """What the browser's message does: MultiCanvas hands it to its top layer's handler."""
    canvas._canvases[-1]._handle_frontend_event(canvas, content, [])


def touch(x: float, y: float) -> dict[str, Any]:
    return {"event": "touch_start", "touches": [{"x": x, "y": y}]}


def mouse(x: float, y: float) -> dict[str, Any]:
    return {"event": "mouse_down", "x": x, "y": y}


def test_touch_alone_is_a_tap() -> None:
    canvas, taps = TapCanvas(2, width=200, height=100), []
    canvas.on_mouse_down(lambda x, y: taps.append((x, y)))
    send(canvas, touch(50, 40))
    assert taps == [(50, 40)]


def test_a_touch_echoed_as_a_mouse_press_acts_once() -> None:
    canvas, taps = TapCanvas(2, width=200, height=100), []
    canvas.on_mouse_down(lambda x, y: taps.append((x, y)))
    send(canvas, touch(50, 40))
    send(canvas, mouse(51, 41))  # the same finger, reported again as a mouse by some browsers
    assert taps == [(50, 40)]


def test_mouse_and_pen_still_work_and_two_taps_are_two() -> None:
    canvas, taps = TapCanvas(2, width=200, height=100), []
    canvas.on_mouse_down(lambda x, y: taps.append((x, y)))
    send(canvas, mouse(10, 10))
    send(canvas, mouse(10, 10))
    assert taps == [(10, 10), (10, 10)]


def test_a_second_finger_is_not_a_tap_and_touch_end_does_nothing() -> None:
    canvas, taps = TapCanvas(2, width=200, height=100), []
    canvas.on_mouse_down(lambda x, y: taps.append((x, y)))
    send(canvas, {"event": "touch_start", "touches": [{"x": 5, "y": 5}, {"x": 90, "y": 60}]})
    send(canvas, {"event": "touch_end", "touches": []})
    assert taps == []


def test_a_later_mouse_press_at_the_same_place_is_a_new_tap() -> None:
    canvas, taps = TapCanvas(2, width=200, height=100), []
    canvas.on_mouse_down(lambda x, y: taps.append((x, y)))
    assert canvas.tap(50, 40, "touch", now=100.0)
    assert canvas.tap(50, 40, "mouse", now=102.0)
    assert len(taps) == 2


def test_unknown_source_is_refused() -> None:
    with pytest.raises(ValueError, match="'mouse', 'touch' or 'keyboard'"):
        TapCanvas(2).tap(1, 1, source="stylus")


def test_seat_and_projector_style_handlers_hear_touch() -> None:
    """classplay/seat.py and projector.py register with Problems.on_mouse_down: they get touch too."""
    board, got = BoardView(RULES, cell=40, controls=False), []
    Problems(lambda: "en").on_mouse_down(board.canvas, lambda x, y: got.append(board.geometry.pixel_to_cell(x, y)))
    x, y = board.geometry.cell_centre(8, 8)
    send(board.canvas, touch(x, y))
    assert got == [(8, 8)]
    assert board.interactive and board.access.interactive


def test_lesson_board_cell_click_by_touch_once() -> None:
    board, cells = BoardView(RULES, cell=40), []
    board.on_cell_click(cells.append)
    x, y = board.geometry.cell_centre(3, 4)
    send(board.canvas, touch(x, y))
    send(board.canvas, mouse(x, y))
    assert cells == [(3, 4)]
    assert "(3, 4)" in board.access.announce


def test_keyboard_cursor_moves_stops_at_the_edge_and_chooses() -> None:
    board, cells = BoardView(RULES, cell=20), []
    board.on_cell_click(cells.append)
    board.key("ArrowUp")  # the first key shows the cursor in the middle of the map
    assert board.cursor == (RULES.map.width // 2, RULES.map.height // 2)
    for _ in range(30):
        board.key("ArrowLeft")
    assert board.cursor == (0, RULES.map.height // 2)
    board.key("Enter")
    assert cells == [(0, RULES.map.height // 2)]
    assert "(0, 6)" in board.access.announce


def test_first_enter_shows_the_cursor_and_does_not_choose() -> None:
    board, cells = BoardView(RULES, cell=20), []
    board.on_cell_click(cells.append)
    board.highlight([(5, 5)])
    board.key("Enter")
    assert cells == [] and board.cursor == (5, 5)
    board.key(" ")
    assert cells == [(5, 5)]


def test_map_access_receives_only_map_keys() -> None:
    access, keys = MapAccess(target="te-map-x"), []
    access.on_key(keys.append)
    for key in (*MAP_KEYS, "Tab", "Escape", "a", None):
        access.receive({"key": key})
    access.receive("not a dict")
    assert keys == list(MAP_KEYS)


def test_board_text_follows_the_state_in_both_languages() -> None:
    board = BoardView(RULES, lang="zh-TW", cell=20)
    assert "沒有颱風" in board.access.label
    board.show(BoardState(typhoons=(TyphoonView(2, (9, 9), 4, "E"),)))
    assert "T2" in board.access.label and "(9, 9)" in board.access.label and "東" in board.access.label
    board.set_lang("en")
    assert "Typhoon Alert map" in board.access.label and "east" in board.access.label
    assert board.access.roledescription == "map"


def test_board_is_only_a_tab_stop_when_a_tap_does_something() -> None:
    shown_only = BoardView(RULES, cell=20, controls=False)
    assert not shown_only.interactive and not shown_only.access.interactive
    assert "Arrow keys" not in shown_only.access.label
    shown_only.on_cell_click(lambda cell: None)
    assert shown_only.access.interactive and "Arrow keys" in shown_only.access.label


def test_announce_repeats_a_repeated_sentence() -> None:
    access, seen = MapAccess(target="t"), []
    access.observe(lambda change: seen.append(change["new"]), names="announce")
    access.say("T1 lands.")
    access.say("T1 lands.")
    assert seen.count("T1 lands.") == 2


def test_make_accessible_names_the_canvas_by_class() -> None:
    from ipycanvas import Canvas

    canvas = Canvas(width=10, height=10)
    access = make_accessible(canvas, "A ring", "compass ring")
    assert access.target in canvas._dom_classes and access.label == "A ring"
