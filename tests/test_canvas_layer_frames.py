"""A crafted canvas event is left out whichever comm of a map it is sent to: the map's own or one of its layers'.

An ipycanvas ``MultiCanvas`` is a widget holding its layers, and each layer ``Canvas`` is a widget of its own with its
own comm: the page knows every layer's model id (the MultiCanvas's state ``_canvases: ["IPY_MODEL_…"]``), and each
layer reads the events sent to it (``Canvas.__init__`` registers ``_handle_frontend_event``). The taps a map listens to
live on its top layer (``MultiCanvas.on_mouse_down`` registers there), so a frame sent straight to that layer reached
the class-play map's callback unchecked: a red-team pass got "Something went wrong: must be real number, not str" on a
class-play map, "unsupported operand type(s) for /: 'str' and 'float'" on lesson 07's, and a ``touch_start`` without
touches left a ``KeyError`` traceback in the log. :func:`typhoon_edu.ui.canvas_input.check_canvas_events` now checks
every comm of a map; every map made accessible (:func:`~typhoon_edu.ui.canvas_input.make_accessible`) is checked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from ipycanvas import Canvas, MultiCanvas

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.ui.board import BoardView
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice
from typhoon_edu.ui.compass_ring import CompassRing
from typhoon_edu.ui.heatmap import HeatMapView
from typhoon_edu.ui.lessons.compass import CompassLesson
from typhoon_edu.ui.lessons.forecast import ForecastChallenge
from typhoon_edu.ui.realmap import RealStormMap

#: What the red team sent, and more of the same kind: each is a shape no browser sends.
CRAFTED: list[Any] = [
    {"event": "mouse_down", "x": "nan", "y": 1},
    {"event": "mouse_down"},
    {"event": "mouse_down", "x": float("nan"), "y": 1},
    {"event": "mouse_move", "x": [], "y": 1},
    {"event": "touch_start"},
    {"event": "touch_start", "touches": [{"x": "here", "y": 1}]},
    {"event": "touch_end", "touches": None},
    {"event": "key_down", "key": "Enter"},
    ["not", "an", "object"],
]
IGNORED = "a canvas event was ignored"


def deliver(widget: Any, content: Any) -> None:
    """A custom message from the page to ``widget``, as the kernel's comm hands it to ipywidgets."""
    widget._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def comms(canvas: Canvas | MultiCanvas) -> list[tuple[str, Any]]:
    """Every widget of a map the page can send an event to: the map itself and each of its layers (top first)."""
    if isinstance(canvas, MultiCanvas):
        layers = [(f"layer {i}", layer) for i, layer in reversed(list(enumerate(canvas._canvases)))]
        return [*layers, ("the MultiCanvas", canvas)]
    return [("the canvas", canvas)]


def quiet_problems(caplog: pytest.LogCaptureFixture, frames: int) -> None:
    """One "ignored" line per frame, and no other warning or traceback in any logger."""
    ignored = [r for r in caplog.records if IGNORED in r.getMessage()]
    others = [r for r in caplog.records if IGNORED not in r.getMessage()]
    assert len(ignored) == frames, [r.getMessage() for r in caplog.records]
    assert others == [], [(r.name, r.getMessage()) for r in others]
    assert not any(r.exc_info for r in caplog.records)


def send_all(canvas: Canvas | MultiCanvas, caplog: pytest.LogCaptureFixture) -> int:
    """Every crafted frame to every comm of ``canvas``; how many were sent."""
    n = 0
    with caplog.at_level(logging.WARNING):
        for _name, widget in comms(canvas):
            for frame in CRAFTED:
                deliver(widget, frame)
                n += 1
    return n


@pytest.fixture
def class_pages(store: RoomStore) -> tuple[ProjectorApp, SeatApp]:
    """A started class game played on devices: the projector and Taiwan's phone, whose turn it is (it places)."""
    projector = ProjectorApp(lang="en", store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = projector.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                                         SeatChoice("medium", "", "Korea")], regions="chosen", seed=11, speed=0,
                                        devices=True))
    projector.show_board()
    phone = SeatApp(lang="en", store=store, token=room.issued_tokens["Taiwan"])
    phone.sync()
    return projector, phone


def test_a_class_play_phones_map_leaves_out_crafted_frames_on_every_layer(
        class_pages: tuple[ProjectorApp, SeatApp], store: RoomStore, caplog: pytest.LogCaptureFixture) -> None:
    projector, phone = class_pages
    before = phone.message.value
    n = send_all(phone.board.canvas, caplog)
    assert phone.problems.widget.value == "" and phone.message.value == before
    assert store.actions(projector.room.id) == []
    quiet_problems(caplog, n)
    # a real tap sent to the top layer still places Taiwan's storm
    x, y = phone.board.geometry.cell_centre(8, 8)
    deliver(phone.board.canvas._canvases[-1], {"event": "touch_start", "touches": [{"x": x, "y": y}]})
    assert len(store.actions(projector.room.id)) == 1 and phone.problems.widget.value == ""


def test_the_class_play_projectors_map_leaves_out_crafted_frames_on_every_layer(
        class_pages: tuple[ProjectorApp, SeatApp], caplog: pytest.LogCaptureFixture) -> None:
    projector, _phone = class_pages
    before = projector.message.value
    n = send_all(projector.game.board.canvas, caplog)
    assert projector.problems.widget.value == "" and projector.message.value == before
    quiet_problems(caplog, n)


def test_lesson_07s_map_leaves_out_crafted_frames_on_every_layer(caplog: pytest.LogCaptureFixture) -> None:
    view = ForecastChallenge("en")
    n = send_all(view.canvas, caplog)
    assert view.problems.widget.value == "" and view.rnd.guesses == {}
    quiet_problems(caplog, n)
    x, y = view.rnd.proj.width / 2, view.rnd.proj.height / 2  # a real press on the top layer: a guess
    deliver(view.canvas._canvases[-1], {"event": "mouse_down", "x": x, "y": y})
    assert len(view.rnd.guesses) == 1 and view.problems.widget.value == ""


def test_a_lessons_board_leaves_out_crafted_frames_on_every_layer(caplog: pytest.LogCaptureFixture) -> None:
    board = BoardView(cell=30)
    cells: list[object] = []
    board.on_cell_click(cells.append)
    n = send_all(board.canvas, caplog)
    assert cells == [] and board.problems.widget.value == ""
    quiet_problems(caplog, n)
    deliver(board.canvas._canvases[-1], {"event": "mouse_down", "x": 45, "y": 45})  # a real press: a cell
    assert len(cells) == 1


MAPS: dict[str, Callable[[], Canvas | MultiCanvas]] = {
    "lesson 01's ring": lambda: CompassLesson(lang="en").ring.canvas,
    "the real storm map": lambda: RealStormMap("en").canvas,
    "the heat map": lambda: HeatMapView(lang="en", cell=20).canvas,
    "the real storm map's phone drawing": lambda: RealStormMap("en").phone_canvas,
    "the heat map's phone drawing": lambda: HeatMapView(lang="en", cell=20).phone_canvas,
}


@pytest.mark.parametrize("name", list(MAPS))
def test_a_map_made_accessible_leaves_out_crafted_frames_on_every_layer(name: str,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    """A map that takes no tap still read a crafted event (ipycanvas reads ``x`` before it looks for a callback):
    a traceback in the log per frame. Every map given a name for the keyboard and screen readers is checked."""
    n = send_all(MAPS[name](), caplog)
    quiet_problems(caplog, n)


def test_checking_a_map_twice_and_a_plain_ring_still_hear_real_events() -> None:
    ring = CompassRing(lang="en", size=200)
    from typhoon_edu.ui.canvas_input import check_canvas_events, make_accessible

    make_accessible(ring.canvas, "A ring")
    check_canvas_events(ring.canvas)  # twice: still one checked handler
    ready: list[int] = []
    ring.canvas.on_client_ready(lambda: ready.append(1))
    deliver(ring.canvas, {"event": "client_ready"})
    assert ready == [1]
