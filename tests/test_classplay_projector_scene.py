"""The board's storms as the projector (and every board view) draws them: inside the board, never under a name.

The scene is a list of shapes (:mod:`typhoon_edu.ui.scene`): these tests check their geometry. A storm on the map
keeps its arrow and level name inside the board's grid (they spilled past the right edge into the HP column); a
zone's name drawn over the storms does not cover a storm (T4 vanished under "生成區 2" on a tablet, T2's arrow
looked cut from its eye); a region's name under a storm's footprint is drawn again over the footprint ("Taiwan"
tinted by a strong typhoon); a new turn shows a blank die, not the last turn's roll.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from typhoon_edu import i18n
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.geometry import BoardGeometry
from typhoon_edu.ui.scene import COMPASS16, _shape_box, dynamic_scene
from typhoon_edu.ui.state import BoardState, TyphoonView

RULES = load_rules()
W, H = RULES.map.width, RULES.map.height
STORM_ROLES = ("arrow", "eye", "typhoon-label", "level-badge", "level-label")

Box = tuple[float, float, float, float]
box_of = _shape_box  # the box a shape covers, as the scene itself reckons it


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def edge_cells() -> Iterator[tuple[int, int]]:
    for x in range(W):
        yield (x, 0)
        yield (x, H - 1)
    for y in range(1, H - 1):
        yield (0, y)
        yield (W - 1, y)


@pytest.mark.parametrize("cell", [40, 56])
def test_a_storm_on_the_map_keeps_its_arrow_and_names_inside_the_board(cell: int) -> None:
    geo = BoardGeometry.for_rules(RULES, cell)
    gx0, gy0 = geo.cell_origin(0, 0)
    gx1, gy1 = geo.cell_origin(W, H)
    outside = []
    for eye in edge_cells():
        for direction in COMPASS16[::2]:
            for level in (1, 3, 5):
                state = BoardState(typhoons=(TyphoonView(2, eye, level, direction),))
                for s in dynamic_scene(RULES, state, "en", cell):
                    if s.role not in STORM_ROLES:
                        continue
                    x0, y0, x1, y1 = box_of(s)
                    if x0 < gx0 - 0.5 or y0 < gy0 - 0.5 or x1 > gx1 + 0.5 or y1 > gy1 + 0.5:
                        outside.append((eye, direction, level, s.role, getattr(s, "text", "")))
    assert not outside, f"{len(outside)} storm shapes reach past the board's edge, e.g. {outside[:6]}"


def test_the_storm_at_the_right_edge_still_shows_its_direction_and_level_name() -> None:
    state = BoardState(typhoons=(TyphoonView(3, (W - 1, 5), 3, "NE"),))
    shapes = dynamic_scene(RULES, state, "en", 48)
    arrow = [s for s in shapes if s.role == "arrow"]
    assert len(arrow) == 2  # the shaft and the head, shortened to the edge
    assert [s.text for s in shapes if s.role == "level-label"] == [i18n.level_name(RULES, 3, "en")]


def storms_near_zones() -> Iterator[tuple[tuple[int, int], str]]:
    for zone in RULES.map.zones:
        cells = set(zone.cells)
        cells |= {(x, y - 1) for x, y in zone.cells} | {(x, y - 2) for x, y in zone.cells}
        for c in sorted(cells):
            if 0 <= c[0] < W and 0 <= c[1] < H:
                for d in ("N", "NE", "E", "W", "S"):
                    yield c, d


@pytest.mark.parametrize("min_text", [0.0, 26.0])
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_zone_name_drawn_over_the_storms_never_covers_one(lang: str, min_text: float) -> None:
    covered = []
    for eye, direction in storms_near_zones():
        state = BoardState(typhoons=(TyphoonView(4, eye, 1, direction),))
        shapes = dynamic_scene(RULES, state, lang, 56, min_text=min_text)
        storm = [(i, box_of(s)) for i, s in enumerate(shapes) if s.role in ("arrow", "eye", "typhoon-label")]
        for at, label in ((i, s) for i, s in enumerate(shapes) if s.role == "zone-label-top"):
            if any(overlap(box_of(label), b) for i, b in storm if i < at):  # the name drawn after (over) the storm
                covered.append((eye, direction, label.text))  # type: ignore[union-attr]
    assert not covered, f"{len(covered)} storms under a zone's name, e.g. {covered[:5]}"


def test_a_storm_in_a_zones_top_row_leaves_the_zones_name_over_everything() -> None:
    """A storm placed in a zone's top row (where setup puts them), heading west: its eye stays clear of the zone's
    name, which is still drawn last, over the storms and the highlighted cells."""
    zone = RULES.map.zones[1]
    top = min(y for _x, y in zone.cells)
    eye = min(c for c in zone.cells if c[1] == top)
    state = BoardState(typhoons=(TyphoonView(2, eye, 1, "W"),), highlights=((eye[0] + 1, top),))
    shapes = dynamic_scene(RULES, state, "en", 56)
    last = max(i for i, s in enumerate(shapes) if s.role in ("eye", "arrow", "highlight"))
    assert "zone2" in [s.key for s in shapes[last:] if s.role == "zone-label-top"]


def test_t2_heading_north_from_zone_2_keeps_its_arrow_in_view() -> None:
    """zh15: T2 at (11, 7) heading north; "生成區 2" was drawn over the start of its arrow."""
    state = BoardState(typhoons=(TyphoonView(2, (11, 7), 1, "N"),))
    shapes = dynamic_scene(RULES, state, "zh-TW", 56)
    arrow = [s for s in shapes if s.role == "arrow"]
    last_arrow = max(shapes.index(s) for s in arrow)
    for i, s in enumerate(shapes):
        if s.role == "zone-label-top" and i > last_arrow:
            assert not any(overlap(box_of(s), box_of(a)) for a in arrow), "a zone's name hides T2's arrow"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_region_name_under_a_footprint_is_drawn_over_it_and_under_the_storm(lang: str) -> None:
    """en32: a strong typhoon at (6, 7) tints "Taiwan" with its footprint."""
    state = BoardState(typhoons=(TyphoonView(2, (6, 7), 4, "WNW"),))
    shapes = dynamic_scene(RULES, state, lang, 56)
    names = [i for i, s in enumerate(shapes) if s.role == "region-label" and s.key == "Taiwan"]
    footprints = [i for i, s in enumerate(shapes) if s.role in ("footprint", "footprint-border")]
    eye = [i for i, s in enumerate(shapes) if s.role == "eye"]
    assert names, "Taiwan's name is left under the footprint"
    assert max(footprints) < names[0] < min(eye)
    assert shapes[names[0]].text == i18n.region_name(RULES, "Taiwan", lang)  # type: ignore[union-attr]
    # a region no footprint touches is not drawn again
    assert not [s for s in shapes if s.role == "region-label" and s.key == "Korea"]


def test_without_storms_the_dynamic_layer_draws_no_region_name() -> None:
    assert not [s for s in dynamic_scene(RULES, BoardState(), "en", 48) if s.role == "region-label"]


def test_a_new_turn_shows_a_blank_die() -> None:
    """en22/en24: "T5 moves: the die shows 1." stayed up into the next player's turn."""
    from typhoon_edu.engine import events as ev
    from typhoon_edu.ui.classplay.bigdie import BigDie
    from typhoon_edu.ui.classplay.pacer import Pacer, Stage

    die = BigDie(lang="en")
    stage = Stage(lang="en", rules=RULES, die=die)
    pacer = Pacer(stage, lambda: 0.0)
    pacer.push([ev.DieRolled(face=1, purpose="move", typhoon=5)])
    assert die.face == 1
    turn = ev.TurnStarted(player="Japan", round=1)
    pacer.push([turn])
    assert die.face is None and die.caption == i18n.t("classplay.die.waiting", "en")
