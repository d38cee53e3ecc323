"""Widgets constructed without a browser: simulated clicks, rolls, typed faces and client connects."""

from __future__ import annotations

import asyncio

import pytest

from typhoon_edu.engine import events as ev
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui import painter
from typhoon_edu.ui.animation import FramePlayer
from typhoon_edu.ui.board import BoardView
from typhoon_edu.ui.compass_ring import CompassRing, ring_scene, roll_path, stop_position
from typhoon_edu.ui.die import DieWidget, parse_face
from typhoon_edu.ui.hp_track import HPTrack, hp_rows
from typhoon_edu.ui.scene import Rect, Text, static_scene
from typhoon_edu.ui.state import BoardState, TyphoonView

RULES = load_rules()


def frontend(canvas, event, **content):
    """Pretend the browser sent ``event`` to a MultiCanvas or Canvas."""
    target = canvas._canvases[-1] if hasattr(canvas, "_canvases") else canvas
    target._handle_frontend_event(None, {"event": event, **content}, [])


class Recorder:
    """A stand-in canvas that records the drawing calls."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        return lambda *args, **kw: self.calls.append((name, args))


# --- painter ----------------------------------------------------------------------------------------


def test_painter_batches_alike_rects():
    rec = Recorder()
    shapes = static_scene(RULES, "en", 40)
    painter.paint(rec, shapes)
    names = [c[0] for c in rec.calls]
    land = [s for s in shapes if s.role == "land"]
    batched = [args for name, args in rec.calls if name == "fill_rects" and len(args[0]) == len(land)]
    assert batched, "the land cells should go out as one fill_rects call"
    assert names.count("fill_text") == sum(isinstance(s, Text) for s in shapes)
    assert names.count("fill_rects") < sum(isinstance(s, Rect) for s in shapes) / 3


# --- board ----------------------------------------------------------------------------------------------


def test_board_constructs_and_scales_to_the_page():
    board = BoardView(RULES, lang="zh-TW", cell=48)
    assert (board.canvas.width, board.canvas.height) == (816, 624)
    assert board.canvas.layout.width == "100%" and board.canvas.layout.height == "auto"
    assert board.geometry.cell == 48


def test_board_redraws_when_a_browser_connects(monkeypatch):
    board = BoardView(RULES, cell=32)
    painted = []
    monkeypatch.setattr("typhoon_edu.ui.board.paint", lambda layer, shapes: painted.append((layer, len(shapes))))
    frontend(board.canvas, "client_ready")
    assert [layer for layer, _ in painted] == [board.static_layer, board.dynamic_layer]
    assert painted[0][1] > 100


def test_board_click_reports_cells():
    board = BoardView(RULES, cell=40)
    clicked = []
    board.on_cell_click(clicked.append)
    frontend(board.canvas, "mouse_down", x=20 + 6 * 40 + 1, y=20 + 5 * 40 + 39)
    frontend(board.canvas, "mouse_down", x=5, y=5)  # margin: ignored
    assert clicked == [(6, 5)]
    assert "(6, 5)" in board.status.value
    board.on_cell_click(clicked.append, remove=True)
    board.click(100, 100)
    assert clicked == [(6, 5)]


def test_board_show_update_preview_highlight():
    board = BoardView(RULES, cell=32)

    class Typhoon:
        id, eye, level, direction = 2, (8, 8), 3, "NNW"

    class Game:
        typhoons = [Typhoon()]

    board.update(Game())
    assert board.state.typhoon(2).level == 3
    assert board.preview_path(2, pips=5) == [(8, 7), (8, 6), (7, 6), (7, 5), (7, 4)]
    assert board.state.path.direction == "NNW"
    assert board.preview_path((14, 9), "E", 3) == [(15, 9), (16, 9)]
    assert board.preview_path(Typhoon(), "SW", 2) == [(7, 8), (7, 9)]
    assert any(s.role == "path" for s in board.dynamic_shapes())
    board.preview_path(2, pips=0)
    assert board.state.path is None
    board.highlight([(11, 7)])
    assert board.state.highlights == ((11, 7),)
    with pytest.raises(ValueError, match="T9"):
        board.preview_path(9, pips=2)
    board.show([TyphoonView(5, (1, 1), 1, None)])
    with pytest.raises(ValueError, match="direction"):
        board.preview_path(5, pips=2)


MOVE = [
    ev.MoveStarted(1, 3, 3),
    ev.TyphoonStepped(1, 1, "N", (8, 8), (8, 7), 1),
    ev.TyphoonStepped(1, 2, "N", (8, 7), (8, 6), 1),
    ev.TyphoonStepped(1, 3, "W", (8, 6), (7, 6), 1),
]


def test_board_animate_without_event_loop_jumps_to_the_end():
    board = BoardView(RULES, cell=32, state=BoardState(typhoons=(TyphoonView(1, (8, 8), 1, "NNW"),)))
    player = board.animate(MOVE)
    assert player.done and board.state.typhoon(1).eye == (7, 6)
    assert board.skip_button.disabled
    assert "(7, 6)" in board.status.value  # narrated, in the board's language


def test_board_animate_plays_cell_by_cell_and_can_be_skipped():
    async def scenario():
        board = BoardView(RULES, lang="zh-TW", cell=32, state=BoardState(typhoons=(TyphoonView(1, (8, 8), 1, "NNW"),)))
        seen = []
        original = board._draw_dynamic
        board._draw_dynamic = lambda: (seen.append(board.state.typhoon(1).eye), original())
        player = board.animate(MOVE, speed=4)  # 0.45 s / 4 per frame
        assert not player.done and not board.skip_button.disabled
        await asyncio.sleep(0.2)
        assert 1 <= len(seen) < 4  # still playing
        board.skip_button.click()
        await asyncio.sleep(0)
        assert player.done and board.skip_button.disabled
        assert board.state.typhoon(1).eye == (7, 6) and seen[-1] == (7, 6)
        assert "颱風眼" in board.status.value

        seen.clear()
        player = board.animate(MOVE[:2], speed=4)
        await asyncio.wait_for(player.task, 2)
        assert seen == [(7, 6), (8, 7)] and player.done  # every frame, in order

    asyncio.run(scenario())


def test_frame_player_speed_is_read_every_frame():
    async def scenario():
        drawn, delays = [], iter([0.01, 0.0, 0.0])
        player = FramePlayer([1, 2, 3], drawn.append, lambda: next(delays, 0.0)).start()
        await asyncio.wait_for(player.task, 1)
        return drawn, player.done

    assert asyncio.run(scenario()) == ([1, 2, 3], True)


def test_board_set_lang_relabels():
    board = BoardView(RULES, cell=32)
    assert "Taiwan" in [s.text for s in board.static_shapes() if isinstance(s, Text)]
    board.set_lang("zh-TW")
    assert "臺灣" in [s.text for s in board.static_shapes() if isinstance(s, Text)]
    assert board.skip_button.description == "跳過"
    assert "image/svg+xml" in board._repr_mimebundle_()


# --- compass ring ----------------------------------------------------------------------------------------


def test_roll_path_and_seed_example():
    assert roll_path(RULES, "N", 3) == ["NNE", "NE", "E"]
    assert roll_path(RULES, "NNW", 2) == ["N", "NNE"]
    with pytest.raises(ValueError):
        roll_path(RULES, "S", 1)
    ring = CompassRing(RULES)
    assert [ring.roll(3), ring.roll(3), ring.roll(5)] == ["E", "NNW", "WSW"]
    assert ring.stop == "WSW" and ring.shown_stop == "WSW"


def test_ring_scene_has_seven_stops_clockwise_and_both_languages():
    en = ring_scene(RULES, "N", "en", 300)
    stops = [s for s in en if s.role == "stop"]
    assert [s.key for s in stops] == list(RULES.ring)
    # clockwise from the top: x grows for the first stops
    assert stops[0].cy < stops[1].cy and stops[1].cx > stops[0].cx
    assert stop_position(0, 7, 300) == (stops[0].cx, stops[0].cy)
    assert [s.text for s in en if s.role == "stop-name"][6] == "north-northwest"
    zh = ring_scene(RULES, "WSW", "zh-TW", 300)
    assert [s.text for s in zh if s.role == "stop-name"][4] == "西南西"
    assert [s.key for s in zh if s.role == "stop" and s.line_width > 2] == ["WSW"]


def test_ring_roll_animates_stop_by_stop():
    async def scenario():
        ring = CompassRing(RULES, lang="zh-TW")
        shown = []
        original = ring.redraw
        ring.redraw = lambda: (shown.append(ring.shown_stop), original())
        stops = []
        ring.on_stop(stops.append)
        assert ring.roll(4, speed=20) == "WSW"
        assert ring.stop == "WSW"  # known at once
        await asyncio.wait_for(ring.player.task, 2)
        return shown, stops, ring.label.value

    shown, stops, label = asyncio.run(scenario())
    assert shown == ["NNE", "NE", "E", "WSW"] and stops == ["WSW"]
    assert "西南西" in label and "擲出 4" in label


def test_ring_rejects_bad_input():
    ring = CompassRing(RULES)
    with pytest.raises(ValueError):
        ring.roll(-1)
    with pytest.raises(ValueError):
        ring.set_stop("S")
    ring.set_stop("E")
    assert ring.stop == "E" and "east" in ring.label.value
    assert ring.to_svg().startswith("<svg")


# --- die ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["0", "7", "-1", "3.5", "six", "1e1", "", "  ", "4 5", True])
def test_parse_face_rejects(text):
    with pytest.raises(ValueError):
        parse_face(text)


@pytest.mark.parametrize("text, face", [("1", 1), (" 6 ", 6), ("３", 3), (4, 4)])
def test_parse_face_accepts(text, face):
    assert parse_face(text) == face


def test_die_typed_faces_and_rejections_in_both_languages():
    die = DieWidget(lang="en")
    faces = []
    die.on_face(faces.append)
    die.entry.value = "4"
    die.enter_button.click()
    assert die.face == 4 and faces == [4] and die.entry.value == ""
    for bad in ("0", "7"):
        assert die.enter(bad) is None
        assert die.face == 4 and faces == [4]  # nothing changed
        assert f"“{bad}” is not a die face" in die.message.value
    die.set_lang("zh-TW")
    assert die.enter("7") is None and "「7」不是骰子的點數" in die.message.value
    assert die.enter("2") == 2 and die.message.value == "" and faces == [4, 2]
    assert die.roll_button.description == "擲骰子"


def test_die_roll_is_seeded_and_fair_looking():
    a, b = DieWidget(seed=7), DieWidget(seed=7)
    rolls_a = [a.roll() for _ in range(600)]
    assert rolls_a == [b.roll() for _ in range(600)]
    assert set(rolls_a) == {1, 2, 3, 4, 5, 6}
    assert all(60 < rolls_a.count(f) < 140 for f in range(1, 7))
    die = DieWidget(seed=1)
    faces = []
    die.on_face(faces.append)
    die.roll_button.click()
    assert faces == [die.face] and str(die.face) in die.face_view.value


# --- HP track ----------------------------------------------------------------------------------------------


def test_hp_rows_and_widget():
    full = {k: r.hp for k, r in RULES.regions.items()}  # the edition's maximum HP
    rows = hp_rows(RULES, {"Taiwan": 19, "Japan": 0, "Korea": full["Korea"]})
    assert [(r.key, r.hp, r.max, r.fraction, r.out) for r in rows] == [
        ("Taiwan", 19, full["Taiwan"], pytest.approx(19 / full["Taiwan"]), False),
        ("Korea", full["Korea"], full["Korea"], 1.0, False),
        ("Japan", 0, full["Japan"], 0.0, True),
    ]
    track = HPTrack(RULES, {"Taiwan": full["Taiwan"], "Japan": full["Japan"]}, lang="zh-TW")
    assert "臺灣" in track.body.value and f"{full['Taiwan']} / {full['Taiwan']}" in track.body.value
    assert "#3b82f6" in track.body.value

    class Game:
        hp = {"Taiwan": 12, "Japan": 0}

    track.update(Game())
    assert f"12 / {full['Taiwan']}" in track.body.value and "出局" in track.body.value
    assert f"width:{round(100 * 12 / full['Taiwan'], 1)}%" in track.body.value
    track.set_lang("en")
    assert "Taiwan" in track.body.value and "out" in track.body.value
    assert "text/html" in track._repr_mimebundle_()


def test_hp_track_defaults_to_every_region():
    track = HPTrack(RULES)
    assert [r.key for r in track.rows] == list(RULES.regions)
    assert all(r.hp == r.max for r in track.rows)
