"""A storm no longer hides a region's name: the names move clear of the storms' eyes, names ("T1"), arrows, level
badges and level names.

Measured before (region names placed without regard to the storms): over lesson 06's 13 real storms replayed on the
game board beside the real map (cell 30), 107 of the 486 steps with a storm on the board had an eye or its "T1" on a
region's name in the phone drawing in English, 59 in zh-TW; 26 and 20 in the usual drawing (115 and 68 counting the
usual drawing's level badges and level names). The names are drawn in the static layer; one a storm would cover is
drawn again in the dynamic layer where it is clear, over a repaint of the cells its usual place covered (role
``name-cover``), so the picture shows it once.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import pairwise

import pytest

from typhoon_edu import i18n
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.realdata.jma import selected_storms
from typhoon_edu.ui.board import phone_text
from typhoon_edu.ui.geometry import BoardGeometry
from typhoon_edu.ui.map_text import Box, overlaps, text_box
from typhoon_edu.ui.realmap import board_state
from typhoon_edu.ui.scene import Circle, Line, Polygon, Rect, Shape, Text, dynamic_scene, static_scene
from typhoon_edu.ui.state import BoardState, TyphoonView

RULES = load_rules()
#: Lesson 06's board beside the real map: its cell and its phone drawing's smallest text (canvas px).
CELL06 = 30
PHONE06 = phone_text(CELL06, RULES)
#: Class play: a team's phone map (classplay/seatmap.py: cell 40, names at least 22 px) and the projector's (cell 56,
#: the usual drawing).
SEAT_CELL, SEAT_TEXT, PROJECTOR_CELL = 40, 22.0, 56
#: Storms on and next to the regions, with their arrows: a class's game where the storms reach the coasts.
CLASS_STATES = (
    BoardState(typhoons=(TyphoonView(1, (6, 6), 3, "NNW"), TyphoonView(2, (4, 4), 2, "W"),
                         TyphoonView(3, (9, 2), 4, "N"), TyphoonView(4, (7, 10), 5, "E"))),
    BoardState(typhoons=(TyphoonView(1, (7, 6), 2, "W"), TyphoonView(2, (5, 6), 1, "NW"),
                         TyphoonView(3, (8, 2), 3, "NE"), TyphoonView(5, (6, 10), 2, "SW"))),
    BoardState(typhoons=(TyphoonView(2, (3, 5), 4, "WNW"), TyphoonView(3, (10, 2), 2, "N"),
                         TyphoonView(6, (6, 7), 5, "S"))),
    BoardState(typhoons=(TyphoonView(1, (5, 3), 1, "N"), TyphoonView(4, (6, 9), 3, "SSW"))),
)


@lru_cache(maxsize=1)
def replay_states() -> tuple[BoardState, ...]:
    """Every step of lesson 06's storms' replays with the storm on the board (486 of them)."""
    states = [board_state(storm, index, RULES) for storm in selected_storms() for index in range(len(storm.six_hourly()))]
    return tuple(s for s in states if s.typhoons)


def _line_hits(line: Line, box: Box) -> bool:
    """Whether a polyline (half its width each side) crosses ``box``: points every pixel along it, each a disc."""
    reach = line.line_width / 2
    for (x0, y0), (x1, y1) in pairwise(line.points):
        steps = max(int(math.hypot(x1 - x0, y1 - y0)), 1)
        for i in range(steps + 1):
            px, py = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
            nx, ny = min(max(px, box[0]), box[2]), min(max(py, box[1]), box[3])
            if (px - nx) ** 2 + (py - ny) ** 2 < reach ** 2:
                return True
    return False


#: What a storm draws that must not cover a region's name: its eye, its name ("T1"), its arrow (or wedge), its level's
#: badge and (the usual drawing) its level's name.
MARKS = ("eye", "typhoon-label", "arrow", "level-badge", "level-label")


def _covers(mark: Shape, box: Box) -> bool:
    """Whether a storm's mark covers part of ``box``: an eye or badge (its box), a text, an arrow's shaft (every
    pixel along it), an arrowhead or wedge (its box)."""
    if isinstance(mark, Circle):
        return overlaps((mark.cx - mark.r, mark.cy - mark.r, mark.cx + mark.r, mark.cy + mark.r), box)
    if isinstance(mark, Text):
        return overlaps(text_box(mark), box)
    if isinstance(mark, Line):
        return _line_hits(mark, box)
    if isinstance(mark, Polygon):
        xs, ys = [p[0] for p in mark.points], [p[1] for p in mark.points]
        return overlaps((min(xs), min(ys), max(xs), max(ys)), box)
    return False


def shown_names(static: list[Shape], dynamic: list[Shape]) -> dict[str, Text]:
    """Each region's name as the picture shows it: the last one drawn (the dynamic layer is on top)."""
    return {s.key: s for s in static + dynamic if isinstance(s, Text) and s.role == "region-label"}


def problems(static: list[Shape], dynamic: list[Shape], cell: int) -> list[str]:
    """What is wrong with the region names of one picture (empty: nothing)."""
    geo = BoardGeometry.for_rules(RULES, cell)
    grid = (*geo.cell_origin(0, 0), *geo.cell_origin(geo.width, geo.height))
    home = {s.key: s for s in static if isinstance(s, Text) and s.role == "region-label"}
    names = shown_names(static, dynamic)
    marks = [s for s in dynamic if s.role in MARKS]
    out = [f"{t.text!r} under {m.key}'s {m.role}" for t in names.values() for m in marks if _covers(m, text_box(t))]
    zones = [s for s in static if isinstance(s, Text) and s.role == "zone-label"]
    first_storm = min((i for i, s in enumerate(dynamic) if s.role != "name-cover"), default=len(dynamic))
    covered = {(round(s.x), round(s.y)) for s in dynamic[:first_storm] if isinstance(s, Rect) and s.role == "name-cover"}
    for key, t in names.items():
        if (t.x, t.y) == (home[key].x, home[key].y):
            # a name that stayed: whatever the repaint of a moved name's place draws over it is followed by it again
            for i, s in enumerate(dynamic):
                if s.role == "name-cover" and not isinstance(s, Text) and _covers(s, text_box(t)) and not any(
                        isinstance(u, Text) and u.key == key for u in dynamic[i + 1:]):
                    out.append(f"the repaint's {type(s).__name__.lower()} runs through {t.text!r}")
                    break
            continue
        box = text_box(t)
        # moved: on the map, on or touching its region, on no other name, and its usual place painted over
        if not (grid[0] <= box[0] and grid[1] <= box[1] and box[2] <= grid[2] and box[3] <= grid[3]):
            out.append(f"{t.text!r} off the map at {box}")
        cells = [(*geo.cell_origin(*c), *geo.cell_origin(c[0] + 1, c[1] + 1)) for c in RULES.regions[key].cells]
        if not any(b[0] <= box[2] and box[0] <= b[2] and b[1] <= box[3] and box[1] <= b[3] for b in cells):
            out.append(f"{t.text!r} left its region: {box}")
        out += [f"{t.text!r} on {o.text!r}" for o in [*names.values(), *zones] if o is not t and overlaps(box, text_box(o))]
        hx0, hy0, hx1, hy1 = text_box(home[key])
        under = {geo.cell_origin(x, y) for x in range(geo.width) for y in range(geo.height)
                 if overlaps((*geo.cell_origin(x, y), *geo.cell_origin(x + 1, y + 1)), (hx0, hy0, hx1, hy1))}
        if not {(round(x), round(y)) for x, y in under} <= covered:
            out.append(f"{t.text!r} moved but its usual place is not painted over")
    return out


DRAWINGS = {"phone": PHONE06, "usual": 0.0}


@pytest.mark.parametrize("drawing", list(DRAWINGS))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_06_replays_show_every_region_name_clear_of_the_storm(lang: str, drawing: str) -> None:
    """Lesson 06's board beside the real map, every on-board step of every storm: no eye, "T1" or arrow on a name."""
    text = DRAWINGS[drawing]
    static = static_scene(RULES, lang, CELL06, min_text=text)
    bad = {}
    for k, state in enumerate(replay_states()):
        # as BoardView paints its phone drawing (the level digits and step numbers as large as the names)
        dynamic = dynamic_scene(RULES, state, lang, CELL06, min_text=text, level_text=text, step_text=text)
        found = problems(static, dynamic, CELL06)
        if found:
            bad[k] = found
    assert not bad, f"{len(bad)} of {len(replay_states())} steps ({lang}, {drawing}): {list(bad.items())[:3]}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_class_play_maps_show_every_region_name_clear_of_the_storms(lang: str) -> None:
    """A team's phone map and the projector's, storms on and next to the regions heading every way."""
    for cell, text in ((SEAT_CELL, SEAT_TEXT), (PROJECTOR_CELL, 0.0)):
        static = static_scene(RULES, lang, cell, min_text=text)
        for state in CLASS_STATES:
            dynamic = dynamic_scene(RULES, state, lang, cell, min_text=text)
            assert not problems(static, dynamic, cell), (cell, state, problems(static, dynamic, cell))
            assert dynamic == dynamic_scene(RULES, state, lang, cell, min_text=text)  # the same state, the same picture


def test_a_name_no_storm_touches_stays_where_it_was() -> None:
    """A storm far from every region: no name is drawn again, nothing painted over."""
    state = BoardState(typhoons=(TyphoonView(1, (13, 9), 2, "NW"),))
    for text in (0.0, PHONE06):
        dynamic = dynamic_scene(RULES, state, "en", CELL06, min_text=text)
        assert not [s for s in dynamic if s.role in ("region-label", "name-cover")]
