"""Board scene, geometry and board-state tests: no browser, no widgets."""

from __future__ import annotations

import math

import pytest

from typhoon_edu.engine import events as ev
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui import palette
from typhoon_edu.ui.geometry import BoardGeometry, pixel_to_cell
from typhoon_edu.ui.scene import (
    COMPASS16,
    Circle,
    Line,
    Polygon,
    Rect,
    Text,
    board_scene,
    direction_vector,
    dynamic_scene,
    footprint_cells,
    path_cells,
    static_scene,
)
from typhoon_edu.ui.state import BoardState, PathPreview, TyphoonView, animation_frames, apply_event, typhoon_views

RULES = load_rules()
CELL = 40
GEO = BoardGeometry.for_rules(RULES, CELL)


def of(shapes, role, key=None, kind=None):
    return [s for s in shapes if s.role == role and (key is None or s.key == key) and (kind is None or isinstance(s, kind))]


def cell_of_rect(r: Rect) -> tuple[int, int]:
    return GEO.pixel_to_cell(r.x + r.w / 2, r.y + r.h / 2)


# --- static layer ---------------------------------------------------------------------------------


def test_every_region_is_drawn_in_its_colour_on_its_cells():
    shapes = static_scene(RULES, "en", CELL)
    for key, region in RULES.regions.items():
        rects = of(shapes, "region", key)
        assert {cell_of_rect(r) for r in rects} == set(region.cells)
        assert {r.fill for r in rects} == {palette.region_fill(region)}


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_region_labels_in_each_language(lang):
    labels = {s.key: s.text for s in of(static_scene(RULES, lang, CELL), "region-label")}
    expected = {k: (r.name_zh if lang == "zh-TW" else r.name) for k, r in RULES.regions.items()}
    assert labels == expected


def test_each_label_sits_on_its_region():
    for s in of(static_scene(RULES, "en", CELL), "region-label"):
        x, y = GEO.pixel_to_cell(s.x, s.y)
        # the label's anchor is on a cell of the region or on a border between two of its cells
        near = {GEO.pixel_to_cell(s.x + dx, s.y + dy) for dx in (-1, 1) for dy in (-1, 1)}
        assert near & set(RULES.regions[s.key].cells), (s.key, (x, y))


def _pattern_signature(shapes, key, cell):
    """The pattern drawn in one cell of a region, in coordinates relative to that cell."""
    ox, oy = GEO.cell_origin(*cell)
    sig = []
    for sh in of(shapes, "pattern", key):
        pts = [(sh.cx, sh.cy)] if isinstance(sh, Circle) else list(sh.points)
        if all(GEO.pixel_to_cell(x, y) == cell for x, y in pts):
            sig.append((type(sh).__name__, tuple((round(x - ox), round(y - oy)) for x, y in pts)))
    return tuple(sorted(sig))


def test_every_region_has_its_own_pattern():
    shapes = static_scene(RULES, "en", CELL)
    signatures = {}
    for key, region in RULES.regions.items():
        sig = _pattern_signature(shapes, key, region.cells[0])
        assert sig, f"{key} has no pattern: colour would be its only cue"
        signatures[key] = sig
    assert len(set(signatures.values())) == len(RULES.regions)


def test_zones_land_sea_grid_and_coordinates():
    shapes = static_scene(RULES, "zh-TW", CELL)
    for zone in RULES.map.zones:
        assert {cell_of_rect(r) for r in of(shapes, "zone", f"zone{zone.index + 1}")} == set(zone.cells)
    assert [s.text for s in of(shapes, "zone-label")] == ["生成區 1", "生成區 2", "生成區 3"]
    land = {cell_of_rect(r) for r in of(shapes, "land")}
    region_cells = {c for r in RULES.regions.values() for c in r.cells}
    expected_land = {(x, y) for y in range(12) for x in range(16) if RULES.map.is_land(x, y)} - region_cells
    assert land == expected_land and (0, 0) in land and (15, 11) not in land
    assert len(of(shapes, "sea")) == 1
    assert len(of(shapes, "grid")) == 16 + 1 + 12 + 1
    coords = of(shapes, "coord")
    assert [s.text for s in coords] == [str(i) for i in range(16)] + [str(i) for i in range(12)]
    assert all(s.y < GEO.m for s in coords if s.key.startswith("x"))  # in the top margin


def test_text_is_projector_sized():
    for s in board_scene(RULES, BoardState(typhoons=(TyphoonView(1, (8, 8), 1, "N"),)), "en", 48):
        if isinstance(s, Text):
            assert s.size >= 9.0, s


# --- dynamic layer: typhoons ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "level, expected",
    [
        (1, {(8, 8)}),
        (2, {(8, 8)}),
        (3, {(8, 8), (8, 7), (9, 8), (8, 9), (7, 8)}),
        (4, {(8, 8), (8, 7), (9, 8), (8, 9), (7, 8)}),
        (5, {(x, y) for x in (7, 8, 9) for y in (7, 8, 9)}),
    ],
)
def test_footprint_cells_for_each_level(level, expected):
    assert set(footprint_cells(RULES, (8, 8), level)) == expected
    shapes = dynamic_scene(RULES, BoardState(typhoons=(TyphoonView(3, (8, 8), level, "E"),)), "en", CELL)
    assert {cell_of_rect(r) for r in of(shapes, "footprint", "T3")} == expected
    assert [s.text for s in of(shapes, "level-label", "T3")] == [RULES.level(level).name_en]
    eyes = of(shapes, "eye", "T3")
    assert len(eyes) == 1 and GEO.pixel_to_cell(eyes[0].cx, eyes[0].cy) == (8, 8)
    assert [s.text for s in of(shapes, "typhoon-label", "T3")] == ["T3"]


def test_footprint_is_clipped_at_the_edge():
    assert sorted(footprint_cells(RULES, (0, 0), 5)) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_storm_colours_darken_with_level():
    fills = []
    for level in range(1, 6):
        (eye,) = of(dynamic_scene(RULES, BoardState(typhoons=(TyphoonView(1, (8, 8), level, "N"),)), "en", CELL), "eye")
        fills.append(eye.fill)
    assert len(set(fills)) == 5


@pytest.mark.parametrize("direction", ["N", "E", "S", "W", "NNW", "WSW", "NE", "SE"])
def test_arrow_points_the_typhoons_way(direction):
    shapes = dynamic_scene(RULES, BoardState(typhoons=(TyphoonView(1, (8, 6), 3, direction),)), "en", CELL)
    line = next(s for s in of(shapes, "arrow", "T1") if isinstance(s, Line))
    head = next(s for s in of(shapes, "arrow", "T1") if isinstance(s, Polygon))
    (x0, y0), (x1, y1) = line.points[0], head.points[0]
    angle = math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360  # clockwise from north, screen y down
    assert angle == pytest.approx(COMPASS16.index(direction) * 22.5, abs=0.5)
    cx, cy = GEO.cell_centre(8, 6)
    assert math.hypot(x0 - cx, y0 - cy) < CELL / 2  # starts at the eye


def test_a_typhoon_without_direction_has_no_arrow():
    shapes = dynamic_scene(RULES, BoardState(typhoons=(TyphoonView(1, (8, 8), 1, None),)), "en", CELL)
    assert of(shapes, "arrow") == [] and len(of(shapes, "eye")) == 1


def test_direction_vector_rejects_unknown():
    with pytest.raises(ValueError, match="16 compass points"):
        direction_vector("XYZ")


# --- path preview and highlights ----------------------------------------------------------------------


def test_path_cells_follow_the_seed_examples():
    assert path_cells(RULES, (8, 8), "NNW", 5) == [(8, 7), (8, 6), (7, 6), (7, 5), (7, 4)]
    assert path_cells(RULES, (8, 8), "SW", 6) == [(7, 8), (7, 9), (6, 9), (6, 10), (5, 10), (5, 11)]
    assert path_cells(RULES, (8, 8), "E", 4) == [(9, 8), (10, 8), (11, 8), (12, 8)]
    assert path_cells(RULES, (14, 1), "N", 4) == [(14, 0), (14, -1)]  # stops where it leaves the map
    assert path_cells(RULES, (3, 3), "N", 0) == []
    with pytest.raises(ValueError):
        path_cells(RULES, (3, 3), "UP", 2)


def test_path_preview_shapes():
    shapes = dynamic_scene(RULES, BoardState(path=PathPreview((8, 8), "NNW", 5)), "en", CELL)
    steps = [s for s in of(shapes, "path-step") if isinstance(s, Text)]
    assert [s.text for s in steps] == ["1", "2", "3", "4", "5"]
    assert [GEO.pixel_to_cell(s.x, s.y) for s in steps] == [(8, 7), (8, 6), (7, 6), (7, 5), (7, 4)]
    (line,) = of(shapes, "path")
    assert len(line.points) == 6 and line.dash
    assert {cell_of_rect(r) for r in of(shapes, "path-end")} == {(7, 4)}
    assert of(shapes, "path-off") == []


def test_path_preview_off_the_map():
    shapes = dynamic_scene(RULES, BoardState(path=PathPreview((1, 4), "W", 5)), "zh-TW", CELL)
    assert [s.text for s in of(shapes, "path-step", kind=Text)] == ["1"]
    assert "離開地圖" in [s.text for s in of(shapes, "path-off")]
    (line,) = of(shapes, "path")
    assert line.points[-1][0] == pytest.approx(GEO.m)  # ends on the board's edge


def test_path_end_shows_the_footprint_of_the_level():
    shapes = dynamic_scene(RULES, BoardState(path=PathPreview((8, 8), "E", 2, level=5)), "en", CELL)
    assert len(of(shapes, "path-end")) == 9


def test_highlights():
    shapes = dynamic_scene(RULES, BoardState(highlights=((11, 7), (12, 8))), "en", CELL)
    assert {cell_of_rect(r) for r in of(shapes, "highlight")} == {(11, 7), (12, 8)}


# --- pixel -> cell ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "px, py, expected",
    [
        (20, 20, (0, 0)),  # first pixel of the grid (margin is 20 at cell 40)
        (19.99, 20, None),  # margin
        (20, 19.99, None),
        (59.99, 59.99, (0, 0)),  # last pixel of cell (0, 0)
        (60, 60, (1, 1)),  # shared edge belongs to the next cell
        (20 + 16 * 40 - 0.01, 20 + 12 * 40 - 0.01, (15, 11)),  # last pixel of the grid
        (20 + 16 * 40, 100, None),  # right edge: outside
        (100, 20 + 12 * 40, None),  # bottom edge: outside
        (-5, -5, None),
        (1e9, 3, None),
        (float("nan"), 30, None),
        (float("inf"), 30, None),
    ],
)
def test_pixel_to_cell(px, py, expected):
    assert pixel_to_cell(px, py, GEO) == expected


def test_pixel_to_cell_round_trips_every_cell_centre():
    for geo in (BoardGeometry(16, 12, 24), BoardGeometry(16, 12, 48), BoardGeometry(16, 12, 77)):
        for y in range(12):
            for x in range(16):
                assert geo.pixel_to_cell(*geo.cell_centre(x, y)) == (x, y)
        assert geo.pixel_size == (16 * geo.cell + 2 * geo.m, 12 * geo.cell + 2 * geo.m)


def test_geometry_rejects_tiny_cells():
    with pytest.raises(ValueError, match="at least 8"):
        BoardGeometry(16, 12, 4)


# --- board state from games and events -----------------------------------------------------------------


class FakeTyphoon:
    def __init__(self, id, eye, level, direction):
        self.id, self.eye, self.level, self.direction = id, eye, level, direction


class FakeGame:
    def __init__(self, typhoons):
        self.typhoons = typhoons
        self.rules = RULES


def test_state_from_duck_typed_game():
    game = FakeGame([FakeTyphoon(2, (9, 9), 4, "E"), FakeTyphoon(1, (8, 8), 1, None)])
    state = BoardState.from_game(game)
    assert [t.id for t in state.typhoons] == [1, 2]
    assert state.typhoon(2) == TyphoonView(2, (9, 9), 4, "E")
    assert typhoon_views({"a": {"id": 5, "eye": (1, 2), "level": 2}})[0].eye == (1, 2)


def test_events_move_the_board():
    s = BoardState(typhoons=(TyphoonView(1, (8, 8), 3, None), TyphoonView(2, (9, 8), 2, "W")))
    s = apply_event(s, ev.DirectionRolled(typhoon=1, start="N", face=3, stop="E"))
    assert s.typhoon(1).direction == "E"
    s = apply_event(s, ev.LevelChanged(typhoon=1, old=3, new=4, cause="warm_ocean"))
    assert s.typhoon(1).level == 4
    s = apply_event(s, ev.Merged(survivor=1, absorbed=2, level=5, direction="NE"))
    assert s.typhoon(2) is None and s.typhoon(1) == TyphoonView(1, (8, 8), 5, "NE")
    s = apply_event(s, ev.TyphoonPushed(typhoon=1, frm=(8, 8), to=(11, 8)))
    assert s.typhoon(1).eye == (11, 8)
    s = apply_event(s, ev.Landfall(typhoon=1, old=5, new=4))
    assert s.typhoon(1).level == 4
    s2 = apply_event(s, ev.Landfall(typhoon=1, old=1, new=0))
    assert s2.typhoons == ()
    assert apply_event(s, ev.Healed("Taiwan", 3, 30)) is s


def test_animation_frames_step_cell_by_cell_and_leave_the_map():
    s = BoardState(typhoons=(TyphoonView(1, (1, 8), 1, "W"),))
    events = [
        ev.MoveStarted(1, 3, 3),
        ev.DieRolled(3, "move", 1),  # does not change the board: no frame
        ev.TyphoonStepped(1, 1, "W", (1, 8), (0, 8), 1),
        ev.TyphoonStepped(1, 2, "W", (0, 8), None, 1),
        ev.TyphoonRemoved(1, "edge", None),
    ]
    frames = animation_frames(s, events)
    assert [tuple(t.eye for t in f.typhoons) for f in frames] == [((1, 8),), ((1, 8),), ((0, 8),), ()]
    assert frames[2].trail == ((1, 8), (0, 8))
    trail = of(dynamic_scene(RULES, frames[2], "en", CELL), "trail")
    assert len(trail) == 1 and len(trail[0].points) == 2


def test_board_follows_a_real_game():
    game_mod = pytest.importorskip("typhoon_edu.engine.game")
    import random

    for seed in range(3):
        game = game_mod.Game.new(("Taiwan", "Japan", "Korea", "Philippines"), seed=seed)
        rng = random.Random(seed)
        state = BoardState.from_game(game)
        for _ in range(400):
            if game.is_over:
                break
            state = animation_frames(state, game.apply(rng.choice(game.legal_actions())))[-1]
            assert state.typhoons == BoardState.from_game(game).typhoons


def test_shapes_are_plain_records():
    shapes = board_scene(RULES, BoardState(typhoons=(TyphoonView(1, (8, 8), 5, "NNW"),)), "en", CELL)
    kinds = {type(s) for s in shapes}
    assert kinds <= {Rect, Circle, Line, Polygon, Text}
    assert all(s.role for s in shapes)
