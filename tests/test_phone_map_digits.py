"""A team's phone reads the digits on its map: the grid's coordinates and a storm's level, in CSS px on a 390 px phone.

The seat's canvas (:class:`typhoon_edu.ui.classplay.seatmap.SeatBoard`: 16 × 12 cells of 40 px and a 20 px margin,
680 px wide) is scaled by CSS to :data:`~typhoon_edu.ui.classplay.seatmap.PHONE_MAP_PX` px on a 390×844 phone
(tests/browser/test_classplay_phone_map.py measures it). A walk of a class on a phone measured the coordinates at
about 8.9 px on screen and a storm's level digit (its badge) at about 4 px. Here: coordinates at least 11 px, level
digits at least 10 px, each inside its place (a coordinate in its margin, a digit in its badge, the badge off the
storm's name and inside the grid); the projector's and the lessons' maps keep their sizes.
"""

from __future__ import annotations

import pytest

from typhoon_edu import i18n
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.classplay.seatmap import PHONE_MAP_PX, SEAT_CELL, SeatBoard
from typhoon_edu.ui.scene import Circle, Text, _label_width, _text_box, board_scene
from typhoon_edu.ui.state import BoardState, TyphoonView

RULES = load_rules()
#: The smallest coordinate and level digit a phone must show, CSS px (the brief: ≥ 11 and ≥ 10).
COORD_PX, LEVEL_PX = 11.0, 10.0
#: A coordinate squeezed into its margin (the canvas's ``maxWidth``) keeps at least this much of its width.
SQUEEZE = 0.75
#: A digit's height in em in the map's fonts (scene._DIGIT_HEIGHT_EM).
DIGIT_HEIGHT_EM = 0.74


def storms_everywhere() -> list[BoardState]:
    """Storms of every level in the map's corners, along its edges, in the zones (their top rows, under the zones'
    names) and side by side, heading every which way."""
    w, h = RULES.map.width, RULES.map.height
    heads = ("N", "NE", "E", "SE", "S", "SW", "W", "NW", "NNW", "ENE")
    cells = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (7, 0), (0, 5), (w - 1, 6), (8, h - 1)]
    cells += [c for zone in RULES.map.zones for c in zone.cells]
    # the corners, heading into the map: the one corner of the eye on the grid is the arrow's
    states = [BoardState(typhoons=(TyphoonView(1, cell, 4, head),))
              for cell, head in (((0, 0), "SE"), ((w - 1, 0), "SW"), ((0, h - 1), "NE"), ((w - 1, h - 1), "NW"))]
    for i, cell in enumerate(cells):
        level = i % 5 + 1
        states.append(BoardState(typhoons=(TyphoonView(1, cell, level, heads[i % len(heads)]),)))
    states.append(BoardState(typhoons=(TyphoonView(1, (8, 8), 1, "NNW"), TyphoonView(2, (12, 7), 3, "W"),
                                       TyphoonView(3, (14, 10), 5, "N"), TyphoonView(4, (9, 8), 2, "E"))))
    return states


def phone_board(lang: str) -> tuple[SeatBoard, float]:
    board = SeatBoard(lang=lang, cell=SEAT_CELL, controls=False)
    return board, PHONE_MAP_PX / board.geometry.pixel_size[0]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_phones_coordinates_are_legible_and_stay_in_the_margins(lang: str) -> None:
    board, scale = phone_board(lang)
    geo = board.geometry
    coords = [t for t in board.static_shapes() if isinstance(t, Text) and t.role == "coord"]
    assert len(coords) == RULES.map.width + RULES.map.height
    small = sorted({(t.text, round(t.size * scale, 1)) for t in coords if t.size * scale < COORD_PX})
    assert not small, f"coordinates under {COORD_PX} px on a 390 px phone: {small}"
    for t in coords:
        natural = _label_width(t.text, t.size)
        limit = getattr(t, "max_width", None)
        drawn = min(natural, limit) if limit else natural
        assert drawn >= SQUEEZE * natural, (t.text, drawn, natural)
        x0, x1 = t.x - drawn / 2, t.x + drawn / 2
        y0, y1 = t.y - t.size * DIGIT_HEIGHT_EM / 2, t.y + t.size * DIGIT_HEIGHT_EM / 2
        if t.key.startswith("y"):  # the left margin: the number inside it, not over the grid's first column
            assert 0 <= x0 and x1 <= geo.m, (t.text, x0, x1)
        else:  # the top margin
            assert 0 <= y0 and y1 <= geo.m, (t.text, y0, y1)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_phones_level_digits_are_legible_in_their_badges(lang: str) -> None:
    board, scale = phone_board(lang)
    geo = board.geometry
    grid = (*geo.cell_origin(0, 0), *geo.cell_origin(geo.width, geo.height))
    for state in storms_everywhere():
        board.show(state)
        shapes = board.dynamic_shapes()
        for ty in state.typhoons:
            key = f"T{ty.id}"
            digit = next(s for s in shapes if isinstance(s, Text) and s.role == "level-badge" and s.key == key)
            badge = next(s for s in shapes if isinstance(s, Circle) and s.role == "level-badge" and s.key == key)
            name = next(s for s in shapes if isinstance(s, Text) and s.role == "typhoon-label" and s.key == key)
            where = (lang, ty.eye, ty.level, ty.direction)
            assert digit.text == str(ty.level)
            assert digit.size * scale >= LEVEL_PX, (*where, round(digit.size * scale, 1))
            # the digit inside its badge: half its diagonal within the circle
            half_w, half_h = _label_width(digit.text, digit.size) / 2, digit.size * DIGIT_HEIGHT_EM / 2
            assert (half_w ** 2 + half_h ** 2) ** 0.5 <= badge.r, (*where, "digit wider than its badge")
            box = (badge.cx - badge.r, badge.cy - badge.r, badge.cx + badge.r, badge.cy + badge.r)
            # on the grid, not over the coordinates in the margin
            assert grid[0] <= box[0] and grid[1] <= box[1] and box[2] <= grid[2] and box[3] <= grid[3], (*where, box)
            # and off the storm's own name ("T2"): the circle misses the name's box
            nx0, _y0, nx1, _y1 = _text_box(name)
            ny0, ny1 = name.y - name.size * DIGIT_HEIGHT_EM / 2, name.y + name.size * DIGIT_HEIGHT_EM / 2
            near_x = min(max(badge.cx, nx0), nx1)
            near_y = min(max(badge.cy, ny0), ny1)
            assert (badge.cx - near_x) ** 2 + (badge.cy - near_y) ** 2 >= badge.r ** 2, (*where, "badge on the name")
            # and off every other storm's eye and name
            for other in state.typhoons:
                if other.id == ty.id:
                    continue
                eye = next(s for s in shapes if isinstance(s, Circle) and s.role == "eye" and s.key == f"T{other.id}")
                gap = ((eye.cx - badge.cx) ** 2 + (eye.cy - badge.cy) ** 2) ** 0.5
                assert gap >= eye.r + badge.r, (*where, f"badge on T{other.id}")


def test_the_projectors_and_the_lessons_digits_keep_their_size() -> None:
    """Only a seat's map changes: the projector (56 px cells) and the lessons (40 and 48) draw them as before."""
    for cell in (40, 48, 56):
        shapes = board_scene(RULES, storms_everywhere()[-1], "en", cell)
        coords = [s for s in shapes if isinstance(s, Text) and s.role == "coord"]
        assert {s.size for s in coords} == {max(9.0, cell * 0.26)}
        assert all(getattr(s, "max_width", None) is None for s in coords)
        badges = [s for s in shapes if isinstance(s, Circle) and s.role == "level-badge"]
        assert {s.r for s in badges} == {max(6.0, cell * 0.14)}
        digits = [s for s in shapes if isinstance(s, Text) and s.role == "level-badge"]
        assert {s.size for s in digits} == {max(6.0, cell * 0.14) * 1.45}


def test_the_painter_squeezes_a_text_to_its_max_width() -> None:
    """The canvas draws a squeezed row number with ``maxWidth`` (and a text without one as before)."""
    from typhoon_edu.ui.painter import paint

    calls: list[tuple[str, tuple]] = []

    class Canvas:
        def __setattr__(self, name: str, value: object) -> None:
            pass

        def __getattr__(self, name: str):
            return lambda *args: calls.append((name, args))

    board, _scale = phone_board("en")
    rows = {t.text: t for t in board.static_shapes() if isinstance(t, Text) and t.role == "coord" and t.key[0] == "y"}
    paint(Canvas(), [rows["11"], rows["9"]])
    texts = [args for name, args in calls if name == "fill_text"]
    assert texts == [("11", rows["11"].x, rows["11"].y, float(board.geometry.m)), ("9", rows["9"].x, rows["9"].y)]
