"""Guarded widget callbacks: a failure reaches the person (in their language) and the log."""

from __future__ import annotations

import logging

import ipywidgets as widgets

from typhoon_edu.engine.rules import IllegalActionError
from typhoon_edu.ui.guard import Problems


def test_button_failure_is_shown_and_logged(caplog):
    lang = ["zh-TW"]
    problems = Problems(lambda: lang[0])
    button = widgets.Button()
    problems.on_click(button, lambda _b: {}["missing"])
    with caplog.at_level(logging.ERROR, logger="typhoon_edu.ui"):
        button.click()
    assert problems.message.startswith("發生錯誤")
    assert "missing" in problems.message
    assert problems.widget.layout.display is None and "role=\"alert\"" in problems.widget.value
    assert any(r.exc_info and r.exc_info[0] is KeyError for r in caplog.records)
    lang[0] = "en"
    button.click()
    assert problems.message.startswith("Something went wrong")


def test_observe_and_canvas_failures_are_reported():
    problems = Problems(lambda: "en")
    slider = widgets.IntSlider()
    problems.observe(slider, lambda change: int("x" * change["new"]))
    slider.value = 3
    assert "invalid literal" in problems.message

    class FakeCanvas:
        def on_mouse_down(self, fn):
            self.fn = fn

    canvas = FakeCanvas()
    problems.clear()
    problems.on_mouse_down(canvas, lambda x, y: x / y)
    canvas.fn(1.0, 0.0)
    assert "division" in problems.message


def test_expected_errors_are_told_plainly_and_view_is_redrawn():
    redrawn = []
    problems = Problems(lambda: "en", on_error=redrawn.append)
    button = widgets.Button()
    problems.on_click(button, lambda _b: (_ for _ in ()).throw(IllegalActionError("that cell is land")))
    button.click()
    assert problems.message == "that cell is land"
    assert len(redrawn) == 1 and isinstance(redrawn[0], IllegalActionError)


def test_success_returns_value_and_shows_nothing():
    problems = Problems(lambda: "en")
    assert problems.guard(lambda: 42)() == 42
    assert problems.message == "" and problems.widget.layout.display == "none"


def test_board_and_die_widgets_report_failing_callbacks():
    from typhoon_edu.ui.board import BoardView
    from typhoon_edu.ui.die import DieWidget

    board = BoardView(lang="zh-TW", cell=16)
    board.on_cell_click(lambda cell: cell[5])  # a callback with a bug
    top = board.canvas._canvases[-1]  # what ipycanvas calls when the browser reports a press
    top._handle_frontend_event(top, {"event": "mouse_down", "x": 16 + 8 * 16 + 2, "y": 16 + 8 * 16 + 2}, [])
    assert board.problems.message.startswith("發生錯誤") and board.problems.widget in board.children

    die = DieWidget(lang="en", seed=1)
    broken = lambda face: {}[face]  # noqa: E731
    die.on_face(broken)
    die.roll_button.click()
    assert "Something went wrong" in die.problems.message
    die.on_face(broken, remove=True)
    faces = []
    die.on_face(faces.append)
    die.entry.value = "3"  # pressing Enter in the box
    assert faces == [3] and die.entry.value == ""


def test_room_and_input_errors_are_told_in_the_persons_language():
    from typhoon_edu.classroom.errors import StoreError
    from typhoon_edu.engine.rules import GameInputError
    from typhoon_edu.ui.guard import describe

    assert describe(StoreError("the database file is read-only", kind="read_only"), "zh-TW") != \
        describe(StoreError("the database file is read-only", kind="read_only"), "en")
    assert not describe(StoreError("x", kind="read_only"), "zh-TW").startswith("發生錯誤")
    err = GameInputError("a game needs 3 to 5 players", kind="player_count", count=2)
    assert describe(err, "zh-TW") == __import__("typhoon_edu").i18n.t("error.input.player_count", "zh-TW", count=2)


def test_the_log_fold_button_reports_a_failure(monkeypatch):
    from typhoon_edu.ui.classplay.screens import LogBox

    problems = Problems(lambda: "en")
    box = LogBox(problems)
    monkeypatch.setattr(box, "_fold", lambda shown: 1 / 0)
    box.toggle.value = False
    assert "division" in problems.message


def test_a_failed_animation_is_told_to_the_person_and_the_game_goes_on(caplog):
    import asyncio

    from typhoon_edu.engine import events as ev
    from typhoon_edu.ui.classplay.pacer import Pacer, Stage

    problems = Problems(lambda: "zh-TW")
    idle = []
    pacer = Pacer(Stage(lang="zh-TW"), speed=lambda: 1.0, on_idle=lambda: idle.append(1), problems=problems)

    def broken(event, animate, hurry=1.0):
        raise RuntimeError("the canvas went away")

    pacer._show = broken  # type: ignore[method-assign]

    async def run() -> None:
        pacer.push([ev.TyphoonPlaced(typhoon=1, cell=(8, 8), level=1, by="Taiwan")])
        for _ in range(100):
            await asyncio.sleep(0.01)
            if pacer.idle:
                break

    with caplog.at_level(logging.ERROR, logger="typhoon_edu.ui"):
        asyncio.run(run())
    assert pacer.idle and idle  # the queue is dropped and the view is told to show the game as it is
    assert problems.message.startswith("發生錯誤") and "canvas went away" in problems.message
    assert any(r.exc_info and r.exc_info[0] is RuntimeError for r in caplog.records)


def test_the_compass_lessons_replay_task_reports_a_failure():
    import asyncio

    from typhoon_edu.ui.lessons.compass import CompassLesson

    lesson = CompassLesson(lang="en")
    lesson.ring.roll = lambda face: (_ for _ in ()).throw(ValueError("no ring"))  # type: ignore[method-assign]

    async def run() -> None:
        lesson.replay()
        await asyncio.sleep(0.05)

    asyncio.run(run())
    assert "no ring" in lesson.problems.message
