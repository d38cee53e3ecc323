"""The board as a list of plain shapes with pixel geometry: what to draw, not how.

The painter (ipycanvas) and the SVG renderer both draw these records, and tests inspect them
without a browser. Each shape has a ``role`` (``"region"``, ``"eye"``, ``"arrow"``, …) and a
``key`` saying what it belongs to (a region key, ``"T2"``, ``"zone1"``).

>>> from typhoon_edu.engine.rules import load_rules
>>> rules = load_rules()
>>> shapes = static_scene(rules, "en", cell=40)
>>> sorted({s.key for s in shapes if s.role == "region"}) == sorted(rules.regions)
True
>>> [s.text for s in shapes if s.role == "region-label" and s.key == "Taiwan"]
['Taiwan']
>>> state = BoardState(typhoons=(TyphoonView(1, (8, 8), 5, "NNW"),))
>>> len([s for s in dynamic_scene(rules, state, cell=40) if s.role == "footprint"])
9
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import TYPE_CHECKING

from .. import i18n
from . import palette
from .geometry import BoardGeometry, Cell
from .map_text import text_box
from .state import BoardState, PathPreview, TyphoonView

if TYPE_CHECKING:
    from ..engine.rules import Rules

Point = tuple[float, float]

# The 16 compass points clockwise from north; a point's arrow angle is its index × 22.5°.
COMPASS16 = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


@dataclass(frozen=True, kw_only=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    line_width: float = 1.0
    alpha: float = 1.0
    dash: tuple[float, ...] = ()
    role: str = ""
    key: str = ""


@dataclass(frozen=True, kw_only=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    line_width: float = 1.0
    alpha: float = 1.0
    role: str = ""
    key: str = ""


@dataclass(frozen=True, kw_only=True)
class Line:
    """A polyline through ``points``."""

    points: tuple[Point, ...]
    stroke: str = palette.INK
    line_width: float = 1.0
    alpha: float = 1.0
    dash: tuple[float, ...] = ()
    role: str = ""
    key: str = ""


@dataclass(frozen=True, kw_only=True)
class Polygon:
    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    line_width: float = 1.0
    alpha: float = 1.0
    role: str = ""
    key: str = ""


@dataclass(frozen=True, kw_only=True)
class Text:
    x: float
    y: float
    text: str
    size: float
    fill: str = palette.INK
    bold: bool = False
    align: str = "center"  # "left", "center", "right"
    baseline: str = "middle"  # "top", "middle", "bottom"
    halo: str | None = None  # outline colour that keeps text readable on any background
    max_width: float | None = None  # squeezed to this width where it is wider (the canvas's maxWidth), canvas px
    role: str = ""
    key: str = ""


Shape = Rect | Circle | Line | Polygon | Text


# --- pure helpers ------------------------------------------------------------------------------


def footprint_cells(rules: Rules, eye: Cell, level: int) -> list[Cell]:
    """The cells a typhoon of ``level`` covers around ``eye`` (its 暴風半徑), clipped to the map.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> footprint_cells(load_rules(), (0, 0), 3)
    [(0, 0), (1, 0), (0, 1)]
    """
    from ..engine.rules import FOOTPRINT_SHAPES

    lv = rules.level(min(max(int(level), 1), len(rules.levels)))
    cells = [(eye[0] + dx, eye[1] + dy) for dx, dy in FOOTPRINT_SHAPES[lv.footprint]]
    return [c for c in cells if rules.map.on_map(*c)]


def path_cells(rules: Rules, start: Cell, direction: str, pips: int) -> list[Cell]:
    """The cells the eye visits for a roll of ``pips`` (start excluded), following the step cycle.

    The list stops at the first cell off the map (that cell is included), as the typhoon is
    removed there.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> path_cells(load_rules(), (8, 8), "NNW", 5)
    [(8, 7), (8, 6), (7, 6), (7, 5), (7, 4)]
    >>> path_cells(load_rules(), (1, 3), "W", 4)
    [(0, 3), (-1, 3)]
    """
    point = rules.points.get(direction)
    if point is None:
        raise ValueError(f"unknown direction {direction!r}; the 16 compass points are {', '.join(rules.points)}")
    cells: list[Cell] = []
    x, y = start
    for i in range(max(int(pips), 0)):
        dx, dy = _STEP[point.cycle[i % len(point.cycle)]]
        x, y = x + dx, y + dy
        cells.append((x, y))
        if not rules.map.on_map(x, y):
            break
    return cells


def direction_vector(direction: str) -> Point:
    """Unit vector (screen coordinates, y down) of a compass point.

    >>> [tuple(round(v, 3) for v in direction_vector(d)) for d in ("N", "E", "SW")]
    [(0.0, -1.0), (1.0, 0.0), (-0.707, 0.707)]
    """
    if direction not in COMPASS16:
        raise ValueError(f"unknown direction {direction!r}; the 16 compass points are {', '.join(COMPASS16)}")
    angle = math.radians(COMPASS16.index(direction) * 22.5)
    # round away float noise (and -0.0) so that e.g. E is exactly (1, 0)
    return round(math.sin(angle), 12) + 0.0, round(-math.cos(angle), 12) + 0.0


def arrow_shapes(tail: Point, head: Point, *, width: float, colour: str, role: str, key: str) -> list[Shape]:
    """A straight arrow from ``tail`` to ``head``: a line and a triangular head."""
    dx, dy = head[0] - tail[0], head[1] - tail[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    size = width * 3.2
    base = (head[0] - ux * size, head[1] - uy * size)
    left = (base[0] - uy * size * 0.6, base[1] + ux * size * 0.6)
    right = (base[0] + uy * size * 0.6, base[1] - ux * size * 0.6)
    return [
        Line(points=(tail, base), stroke=colour, line_width=width, role=role, key=key),
        Polygon(points=(head, left, right), fill=colour, role=role, key=key),
    ]


def _edges(cells: Iterable[Cell], geo: BoardGeometry) -> list[tuple[Point, Point]]:
    """Outline segments of a set of cells: the cell sides not shared with another cell of the set."""
    cellset = set(cells)
    segs = []
    for x, y in sorted(cellset):
        ox, oy = geo.cell_origin(x, y)
        c = geo.cell
        if (x, y - 1) not in cellset:
            segs.append(((ox, oy), (ox + c, oy)))
        if (x, y + 1) not in cellset:
            segs.append(((ox, oy + c), (ox + c, oy + c)))
        if (x - 1, y) not in cellset:
            segs.append(((ox, oy), (ox, oy + c)))
        if (x + 1, y) not in cellset:
            segs.append(((ox + c, oy), (ox + c, oy + c)))
    return segs


def _centroid(cells: Sequence[Cell], geo: BoardGeometry) -> Point:
    """Where a label goes: the cells' mean if it lies on one of the cells, else the nearest cell's centre."""
    mx = sum(c[0] for c in cells) / len(cells)
    my = sum(c[1] for c in cells) / len(cells)
    if (round(mx), round(my)) in set(cells):
        return geo.cell_centre(mx, my)
    nearest = min(cells, key=lambda c: (c[0] - mx) ** 2 + (c[1] - my) ** 2)
    return geo.cell_centre(*nearest)


def _pattern(kind: str, ox: float, oy: float, c: float, key: str, ink: str = palette.PATTERN) -> list[Shape]:
    """Per-cell hatching that tells regions apart without colour (dots, stripes, …), in ``ink``
    (white on a dark region, so the hatching shows on violet and dark green too)."""
    lw = max(1.0, c / 28)
    style = {"stroke": ink, "line_width": lw, "alpha": 0.45, "role": "pattern", "key": key}

    def seg(x0: float, y0: float, x1: float, y1: float) -> Line:
        return Line(points=((ox + x0 * c, oy + y0 * c), (ox + x1 * c, oy + y1 * c)), **style)  # type: ignore[arg-type]

    if kind == "dots":
        return [
            Circle(cx=ox + fx * c, cy=oy + fy * c, r=c * 0.06, fill=ink, alpha=0.5, role="pattern", key=key)
            for fx in (0.25, 0.75) for fy in (0.25, 0.75)
        ]
    if kind == "stripes":
        return [seg(0.1, f, 0.9, f) for f in (0.2, 0.5, 0.8)]
    if kind == "diagonal":
        return [seg(0.1, 0.5, 0.5, 0.1), seg(0.1, 0.9, 0.9, 0.1), seg(0.5, 0.9, 0.9, 0.5)]
    if kind == "crosshatch":
        return [seg(0.1, 0.9, 0.9, 0.1), seg(0.1, 0.1, 0.9, 0.9), seg(0.1, 0.5, 0.5, 0.1), seg(0.5, 0.9, 0.9, 0.5),
                seg(0.5, 0.1, 0.9, 0.5), seg(0.1, 0.5, 0.5, 0.9)]
    if kind == "waves":
        out: list[Shape] = []
        for fy in (0.3, 0.7):
            pts = tuple((ox + fx * c, oy + (fy + (0.08 if i % 2 else -0.08)) * c) for i, fx in enumerate((0.1, 0.3, 0.5, 0.7, 0.9)))
            out.append(Line(points=pts, **style))  # type: ignore[arg-type]
        return out
    if kind == "grid":
        return [seg(f, 0.1, f, 0.9) for f in (0.33, 0.67)] + [seg(0.1, f, 0.9, f) for f in (0.33, 0.67)]
    return []


# --- the two layers ----------------------------------------------------------------------------


def static_scene(rules: Rules, lang: str = "en", cell: int = 48, *, min_text: float = 0.0) -> list[Shape]:
    """The static layer: margin, sea, land, regions (colour + pattern + name), zones, grid, coordinates.

    ``min_text``: the smallest name, in canvas px, on a map the page shows much smaller than it is drawn (a team's
    phone, :class:`typhoon_edu.ui.classplay.seatmap.SeatBoard`). The region and zone names are drawn at least that
    large: a region's name moves along its region where it would meet another name, a zone's name stands on the
    zone's top border (it covers none of the zone's cells, where storms start). The coordinates grow as far as the
    margins are tall (:func:`coord_fit`: they cannot grow into the map), and a row's number wider than the left
    margin ("10", "11") is squeezed to its width (``Text.max_width``). 0: every text at its usual size.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> [s.text for s in static_scene(load_rules(), "zh-TW") if s.role == "zone-label"]
    ['生成區 1', '生成區 2', '生成區 3']
    """
    geo = BoardGeometry.for_rules(rules, cell)
    gm = rules.map
    pw, ph = geo.pixel_size
    ox, oy = geo.cell_origin(0, 0)
    shapes: list[Shape] = [
        Rect(x=0, y=0, w=pw, h=ph, fill=palette.MARGIN, role="background"),
        Rect(x=ox, y=oy, w=gm.width * cell, h=gm.height * cell, fill=palette.SEA, role="sea"),
    ]
    region_of = {c: r for r in rules.regions.values() for c in r.cells}
    for y in range(gm.height):
        for x in range(gm.width):
            if gm.is_land(x, y) and (x, y) not in region_of:
                shapes.append(Rect(x=geo.cell_origin(x, y)[0], y=geo.cell_origin(x, y)[1], w=cell, h=cell, fill=palette.LAND, role="land"))
    for zone in gm.zones:
        key = f"zone{zone.index + 1}"
        for x, y in zone.cells:
            cx, cy = geo.cell_origin(x, y)
            shapes.append(Rect(x=cx, y=cy, w=cell, h=cell, fill=palette.ZONE, alpha=0.3, role="zone", key=key))
    for region in rules.regions.values():
        for x, y in region.cells:
            cx, cy = geo.cell_origin(x, y)
            shapes.append(Rect(x=cx, y=cy, w=cell, h=cell, fill=palette.region_fill(region), role="region", key=region.key))
    for region in rules.regions.values():
        for x, y in region.cells:
            shapes.extend(_pattern(region.pattern, *geo.cell_origin(x, y), cell, region.key,
                                  ink=palette.text_colour_on(palette.region_fill(region))))
    # grid lines, faint, then outlines of regions and zones on top
    gx0, gy0 = geo.cell_origin(0, 0)
    gx1, gy1 = geo.cell_origin(gm.width, gm.height)
    for x in range(gm.width + 1):
        px = geo.cell_origin(x, 0)[0]
        shapes.append(Line(points=((px, gy0), (px, gy1)), stroke=palette.GRID, line_width=1, alpha=0.25, role="grid"))
    for y in range(gm.height + 1):
        py = geo.cell_origin(0, y)[1]
        shapes.append(Line(points=((gx0, py), (gx1, py)), stroke=palette.GRID, line_width=1, alpha=0.25, role="grid"))
    for zone in gm.zones:
        for a, b in _edges(zone.cells, geo):
            shapes.append(Line(points=(a, b), stroke=palette.ZONE, line_width=max(2.0, cell / 16), dash=(cell / 8, cell / 12),
                               role="zone-border", key=f"zone{zone.index + 1}"))
    for region in rules.regions.values():
        for a, b in _edges(region.cells, geo):
            shapes.append(Line(points=(a, b), stroke=palette.INK, line_width=max(1.5, cell / 24), role="region-border", key=region.key))
    # coordinates in the margins; with min_text as large as the margins are tall (they cannot grow into the map), and
    # a left margin's number wider than the margin ("10", "11") squeezed to its width (the canvas's maxWidth)
    size = max(9.0, cell * 0.26)
    if min_text:
        size = max(size, min(min_text, coord_fit(geo, gm.height, squeeze=True)))
    for x in range(gm.width):
        shapes.append(Text(x=geo.cell_centre(x, 0)[0], y=geo.m / 2, text=str(x), size=size, fill=palette.GRID,
                           role="coord", key=f"x{x}"))
    for y in range(gm.height):
        fits = not min_text or len(str(y)) * _DIGIT_EM * size <= geo.m
        shapes.append(Text(x=geo.m / 2, y=geo.cell_centre(0, y)[1], text=str(y), size=size, fill=palette.GRID,
                           max_width=None if fits else float(geo.m), role="coord", key=f"y{y}"))
    # labels last, with a halo so they read over patterns and neighbouring cells
    zones = _zone_labels(rules, geo, lang, min_text=min_text)
    shapes.extend(zones)
    shapes.extend(_region_labels(rules, geo, lang, zones, min_text=min_text))
    return shapes


def _region_labels(rules: Rules, geo: BoardGeometry, lang: str, zones: Sequence[Shape],
                   min_text: float = 0.0) -> list[Text]:
    """The regions' names, clear of the zones' names (``zones``) and, with ``min_text``, of each other."""
    cell = geo.cell
    placed = [_text_box(t) for t in zones if isinstance(t, Text)]
    out: list[Text] = []
    for region in rules.regions.values():
        px, py = _centroid(region.cells, geo)
        name, size = i18n.region_name(rules, region.key, lang), max(10.0, cell * 0.3, min_text)
        if min_text:  # names this large may meet: move one along its region's height until it is clear of the
            # others by half an em (two names a space apart read as one: "South China Taiwan")
            rows = [geo.cell_centre(*c)[1] for c in region.cells]
            tries = [py + k * cell / 2 for k in (0, 1, -1, 2, -2)]
            py = next((y for y in tries if min(rows) <= y <= max(rows) and not any(
                _overlaps(_grown(_label_box(px, y - size * 0.575, name, size, True), size / 2), b) for b in placed)), py)
        label = Text(x=px, y=py, text=name, size=size, fill=palette.INK, bold=True, halo=palette.HALO,
                     role="region-label", key=region.key)
        placed.append(_text_box(label))
        out.append(label)
    return out


# --- region names clear of the storms --------------------------------------------------------------------------

#: The role of what the dynamic layer paints over a region name's usual place (in the static layer) when a storm
#: moved the name (:func:`_name_cover`).
NAME_COVER = "name-cover"
#: The static layer's shapes a name's cover leaves alone: drawn under every cell (the sea, painted again cell by cell),
#: in the margins (never under a name), or drawn again over everything by the dynamic layer (the zones' names).
_NOT_COVERED = frozenset({"background", "sea", "coord", "zone-label"})


def _name_box(t: Text) -> Box:
    """The box a name takes, the larger of this module's estimate (:func:`_text_box`) and
    :func:`~typhoon_edu.ui.map_text.text_box`'s (wider Latin letters, a lower box): a name placed by it is clear by
    either's measure."""
    a, b = _text_box(t), text_box(t)
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _mark_hits(mark: Shape, box: Box) -> bool:
    """Whether a storm's mark covers part of ``box``: an arrow's shaft (points every pixel along it, each a disc as
    wide as the line), else the mark's box (an eye, an arrowhead or a wedge, a badge; a text's as :func:`_name_box`
    measures it)."""
    if isinstance(mark, Text):
        return _overlaps(_name_box(mark), box)
    if not isinstance(mark, Line):
        return _overlaps(_shape_box(mark), box)
    reach = mark.line_width / 2 + 0.5
    for (x0, y0), (x1, y1) in pairwise(mark.points):
        steps = max(int(math.hypot(x1 - x0, y1 - y0)), 1)
        for i in range(steps + 1):
            px, py = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
            nx, ny = min(max(px, box[0]), box[2]), min(max(py, box[1]), box[3])
            if (px - nx) ** 2 + (py - ny) ** 2 < reach ** 2:
                return True
    return False


def _clear_of_storms(rules: Rules, geo: BoardGeometry, labels: Sequence[Text], marks: Sequence[Shape],
                     zones: Sequence[Text]) -> list[Text]:
    """The regions' names (``labels``, where the static layer draws them) where the storms leave them readable.

    A name that a storm's mark (``marks``: its eye, name "T2" and arrow; in the usual drawing its badge and level
    name too) would cover moves to the nearest place, in steps of half a cell, that keeps it on or touching its
    region and inside the grid, clear of the storms' marks (with room for its halo) and of the other names (the
    zones' too, ``zones``; half an em apart, as :func:`_region_labels` keeps them), centred on one of its region's
    cells where it can (else beside them). It never moves onto another name (that would hide a name as the storm
    did); where no place is clear of all, the one with the fewest marks on it, then names closer than half an em (its
    usual place when it is as good). The same storms give the same places."""
    if not marks:
        return list(labels)
    cell = geo.cell
    grid = (*geo.cell_origin(0, 0), *geo.cell_origin(geo.width, geo.height))
    hits = [((b[0] - 1, b[1] - 1, b[2] + 1, b[3] + 1), m)
            for m in marks for b in [_name_box(m) if isinstance(m, Text) else _shape_box(m)]]

    def marks_on(box: Box) -> int:
        return sum(1 for b, m in hits if _overlaps(b, box) and _mark_hits(m, box))

    out = list(labels)
    for i, t in enumerate(labels):
        pad = max(1.0, t.size / 8)  # the halo's stroke reaches an eighth of an em past the letters
        x0, y0, x1, y1 = _name_box(t)
        if not marks_on((x0 - pad, y0 - pad, x1 + pad, y1 + pad)):
            continue
        others = [_name_box(o) for j, o in enumerate(out) if j != i] + [_name_box(z) for z in zones]
        region = rules.regions[t.key]
        cells = [(*geo.cell_origin(*c), *geo.cell_origin(c[0] + 1, c[1] + 1)) for c in region.cells]
        half_w, half_h = (x1 - x0) / 2, (y1 - y0) / 2
        xs = [geo.cell_centre(c, 0)[0] for c in range(min(c[0] for c in region.cells) - 1 - int(half_w // cell),
                                                       max(c[0] for c in region.cells) + 2 + int(half_w // cell))]
        ys = [geo.cell_centre(0, r)[1] for r in range(min(c[1] for c in region.cells) - 1,
                                                       max(c[1] for c in region.cells) + 2)]
        centres = {(x + dx, y + dy) for x in xs for y in ys for dx in (0.0, cell / 2) for dy in (0.0, cell / 2)}
        # the name's box keeps its offset from its anchor (a centred text: none across, its baseline's down)
        ox, oy = (x0 + x1) / 2 - t.x, (y0 + y1) / 2 - t.y
        best: tuple[int, float, float] | None = None
        for _d2, y, x in sorted(((x - t.x) ** 2 + (y - t.y) ** 2, y, x) for x, y in centres | {(t.x, t.y)}):
            box = (x + ox - half_w, y + oy - half_h, x + ox + half_w, y + oy + half_h)
            if not _inside(box, grid) or not any(box[0] <= b[2] and b[0] <= box[2] and box[1] <= b[3] and b[1] <= box[3]
                                                 for b in cells) or any(_overlaps(box, o) for o in others):
                continue  # off the map, off its region, or on another name (worse than a storm on it)
            faults = 100 * marks_on((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad))
            if best is not None and faults >= best[0]:
                continue
            spaced = _grown(box, t.size / 2)
            faults += 10 * sum(_overlaps(spaced, o) for o in others)
            faults += not any(b[0] <= x < b[2] and b[1] <= y < b[3] for b in cells)  # centred beside its region
            if best is None or faults < best[0]:
                best = (faults, x, y)
            if not faults:
                break
        if best is not None and (best[1], best[2]) != (t.x, t.y):
            out[i] = replace(t, x=best[1], y=best[2])
    return out


#: The static layer as a name's cover copies it: its shapes with the role :data:`NAME_COVER` (``None``: never copied),
#: which of them each cell holds (by their place in the layer), the grid's first line and its place.
_Copy = tuple[list[Shape | None], dict[Cell, list[int]], Line | None, int]
_STATIC_CACHE: dict[tuple[int, str, int, float], tuple[Rules, _Copy]] = {}


def _cells_under(geo: BoardGeometry, box: Box) -> list[Cell]:
    """The grid's cells a box shares some area with (touching edges do not count), off the map too."""
    gx, gy = geo.cell_origin(0, 0)
    c = geo.cell
    return [(x, y) for x in range(math.floor((box[0] - gx) / c), math.ceil((box[2] - gx) / c))
            for y in range(math.floor((box[1] - gy) / c), math.ceil((box[3] - gy) / c))]


def _static_copy(rules: Rules, lang: str, cell: int, min_text: float) -> _Copy:
    """:func:`static_scene` made ready for :func:`_name_cover`, once per edition, language, cell and drawing."""
    key = (id(rules), lang, cell, min_text)
    found = _STATIC_CACHE.get(key)
    if found is None or found[0] is not rules:
        if len(_STATIC_CACHE) > 32:
            _STATIC_CACHE.clear()
        geo = BoardGeometry.for_rules(rules, cell)
        copies: list[Shape | None] = []
        index: dict[Cell, list[int]] = {}
        grid: Line | None = None
        grid_at = -1
        for i, s in enumerate(static_scene(rules, lang, cell, min_text=min_text)):
            if s.role == "grid" and isinstance(s, Line) and grid is None:
                grid, grid_at = s, i
            if s.role in _NOT_COVERED or s.role == "grid":
                copies.append(None)
                continue
            copies.append(replace(s, role=NAME_COVER))
            box = _grown(_name_box(s), s.size / 8) if isinstance(s, Text) else _shape_box(s)  # a name with its halo
            for c in _cells_under(geo, box):
                index.setdefault(c, []).append(i)
        found = _STATIC_CACHE[key] = (rules, (copies, index, grid, grid_at))
    return found[1]


def _name_cover(rules: Rules, geo: BoardGeometry, lang: str, min_text: float, moved: Sequence[Text],
                names: Sequence[Text]) -> list[Shape]:
    """The static layer again over the usual places of the names that moved (``moved``, as the static layer draws
    them), so the picture shows each name once: the cells their boxes and halos touch, painted as the static layer
    paints them (sea, land, zones, regions, their patterns, the grid, the borders) and the names there that did not
    move (``names``: where each region's name is drawn now), all with the role :data:`NAME_COVER`.

    The grid's lines are drawn cell by cell (the static layer's cross the whole map and are pale: drawn again whole,
    they would darken); the zones' names are left out, as the dynamic layer draws them over everything."""
    cell = geo.cell
    cells: set[Cell] = set()
    for t in moved:
        pad = max(1.0, t.size / 8) + 1.0
        x0, y0, x1, y1 = _name_box(t)
        cells.update(c for c in _cells_under(geo, (x0 - pad, y0 - pad, x1 + pad, y1 + pad)) if rules.map.on_map(*c))
    cover = [(*geo.cell_origin(*c), *geo.cell_origin(c[0] + 1, c[1] + 1)) for c in sorted(cells, key=lambda c: (c[1], c[0]))]
    out: list[Shape] = [Rect(x=b[0], y=b[1], w=cell, h=cell, fill=palette.SEA, role=NAME_COVER) for b in cover]
    copies, index, grid, grid_at = _static_copy(rules, lang, cell, min_text)
    lines: list[Shape] = []
    if grid is not None:
        sides = {side for b in cover for side in (((b[0], b[1]), (b[2], b[1])), ((b[0], b[3]), (b[2], b[3])),
                                                  ((b[0], b[1]), (b[0], b[3])), ((b[2], b[1]), (b[2], b[3])))}
        lines = [replace(grid, points=side, role=NAME_COVER) for side in sorted(sides)]
    stayed = {(t.key, t.x, t.y) for t in names}
    chosen = {i for c in cells for i in index.get(c, ())}
    # a border or a grid line repainted here may run on into a name that stayed (a line ending at a covered cell's
    # corner reaches past it): that name is drawn again too, after it, as the static layer draws names last
    reach = [_shape_box(copies[i]) for i in chosen if copies[i] is not None and not isinstance(copies[i], Text)]
    chosen |= {j for j, s in enumerate(copies) if isinstance(s, Text) and j not in chosen
               and any(_overlaps(_grown(_name_box(s), s.size / 8), b) for b in reach)}
    for i in sorted(chosen):
        if lines and i > grid_at:  # the grid where the static layer draws it: over the cells, under the borders
            out += lines
            lines = []
        s = copies[i]
        if isinstance(s, Text) and s.key in rules.regions and (s.key, s.x, s.y) not in stayed:
            continue  # a name that moved: drawn where it went
        if s is not None:
            out.append(s)
    return out + lines


#: A digit's advance and height, in em, in the map's fonts (about 0.56 em wide in Arial and Noto Sans, 0.72 em tall).
_DIGIT_EM, _DIGIT_HEIGHT_EM = 0.58, 0.74


#: How far a coordinate may be squeezed to fit its margin (the canvas's ``maxWidth``): to 3/4 of its width, still
#: read as the number (the phone's "10" and "11" are drawn at about 0.78).
_SQUEEZE = 0.75


def coord_fit(geo: BoardGeometry, rows: int, squeeze: bool = False) -> float:
    """The largest size, in canvas px, at which the coordinates fit in the margins: the top margin's digits as tall
    as the margin less a pixel each side, the left margin's longest number (``rows - 1``) as wide as the margin
    (``squeeze``: as wide as the margin once squeezed to :data:`_SQUEEZE` of its width).

    >>> from typhoon_edu.engine.rules import load_rules
    >>> geo = BoardGeometry.for_rules(load_rules(), 40)
    >>> round(coord_fit(geo, 12), 1), round(coord_fit(geo, 12, squeeze=True), 1)
    (17.2, 23.0)
    """
    wide = geo.m / (len(str(rows - 1)) * _DIGIT_EM * (_SQUEEZE if squeeze else 1.0))
    return min((geo.m - 2) / _DIGIT_HEIGHT_EM, wide)


def dynamic_scene(rules: Rules, state: BoardState | None = None, lang: str = "en", cell: int = 48, *,
                  min_text: float = 0.0, level_text: float = 0.0, step_text: float = 0.0) -> list[Shape]:
    """The dynamic layer: trail, footprints, path preview, eyes, arrows, level names, highlights.

    ``min_text`` as for :func:`static_scene`: a storm's name ("T2") at least that large, its eye grown to hold it;
    the level's name is left out (at that size "tropical depression" would cover six cells; the eye's colour, its
    badge and the map's text description give the level). The badge's number is at least 0.9 × ``min_text``, its
    badge out on a corner of the eye (:func:`_badge_place`) clear of the regions' names where one is; ``level_text``
    (with ``min_text``; 0, the default: off) makes it at least that large and keeps the badge off the highlighted
    cells too (lesson 03's phone drawing: digits as large as the names). A path's step numbers keep their
    size, unless ``step_text`` (0, the default: off) asks for at least that (:func:`path_scene`; lesson 02's phone
    drawing): the numbered steps are then drawn over everything (a storm's arrowhead, a zone's name), and with
    ``min_text`` the storms' badges keep off them.

    A storm's level name keeps off every storm's arrow, its own too (it is drawn above the eye, or left out).

    A region's name that a storm would cover (its eye, name, arrow; in the usual drawing its badge and level name
    too) is shown where it is clear, on or beside its region (:func:`_clear_of_storms`): the static layer draws the
    names where they usually are, so this layer first paints that place over (:func:`_name_cover`, shapes of the role
    :data:`NAME_COVER`), then draws the name where it went, over the footprints and under the storms.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> s = BoardState(typhoons=(TyphoonView(2, (9, 9), 3, "E"),))
    >>> [x.text for x in dynamic_scene(load_rules(), s, "zh-TW") if x.role == "level-label"]
    ['中度颱風']
    """
    state = state or BoardState()
    geo = BoardGeometry.for_rules(rules, cell)
    # every storm's eye and arrow first: a level's name (a phone's level badge) keeps off all of them
    cores = {ty.id: _storm_core(ty, geo, lang, min_text) for ty in state.typhoons}
    taken: list[Box] = [_eye_box(ty, geo, cores[ty.id][3] if min_text else None) for ty in state.typhoons]
    arrows = [a for a in (cores[ty.id][2] for ty in state.typhoons) if a is not None]
    zone_labels = _zone_labels(rules, geo, lang, role="zone-label-top", min_text=min_text)
    # the zone names are drawn over everything (below): a storm's level badge and level name keep clear of them
    labels = [_text_box(t) for t in zone_labels]
    if min_text and level_text:  # and off the highlights' frames, drawn over the storms (a frame of the Philippines'
        # cells crossed a "1")
        labels += [(*geo.cell_origin(x, y), *geo.cell_origin(x + 1, y + 1)) for x, y in state.highlights]
    path = path_scene(rules, state.path, lang, cell, step_text=step_text) if state.path is not None else []
    if min_text and step_text:  # a badge keeps off the larger numbered steps where it can (its places beside the
        # storm's name, when no corner will do, reach into the next cell: a path's first step)
        labels += [_shape_box(s) for s in path if isinstance(s, Circle) and s.role == "path-step"]
    # the regions' names keep clear of the storms: one a storm would cover moves (:func:`_clear_of_storms`), and this
    # layer paints over its usual place first of all (:func:`_name_cover`)
    zone_names = [t for t in _zone_labels(rules, geo, lang, min_text=min_text) if isinstance(t, Text)]
    # the regions' names where the static layer draws them
    homes = _region_labels(rules, geo, lang, zone_names, min_text=min_text) if state.typhoons or state.highlights else []
    storms: list[Shape] = []

    def place_storms() -> None:
        for ty in state.typhoons:
            storms.extend(_typhoon_shapes(rules, ty, geo, lang, taken, labels, min_text=min_text, arrows=arrows,
                                          level_text=level_text, core=cores[ty.id]))

    if min_text:
        # a phone's names clear of the storms' arrows, eyes and names, and its large badges clear of the names where
        # they are now (lesson 03's badges covered part of "Taiwan", a team's phone's part of "中國華中")
        region_labels = _clear_of_storms(rules, geo, homes, [m for core in cores.values() for m in core[0]], zone_names)
        labels += [_name_box(t) for t in region_labels]
        place_storms()
    else:  # the usual drawing's small badges and level names do not look for the names: the names keep off them too
        place_storms()
        region_labels = _clear_of_storms(rules, geo, homes, storms, zone_names)
    shapes: list[Shape] = []
    moved = [home for home, now in zip(homes, region_labels, strict=True) if now is not home]
    if moved:
        shapes += _name_cover(rules, geo, lang, min_text, moved, region_labels)
    if len(state.trail) > 1:
        shapes.append(Line(points=tuple(geo.cell_centre(*c) for c in state.trail), stroke=palette.TRAIL,
                           line_width=max(2.0, cell / 12), alpha=0.55, role="trail", key=f"T{state.moving}"))
    covered: list[Box] = []  # the footprints' cells
    for ty in state.typhoons:
        colour = palette.level_fill(ty.level)
        for x, y in footprint_cells(rules, ty.eye, ty.level):
            ox, oy = geo.cell_origin(x, y)
            covered.append((ox, oy, ox + cell, oy + cell))
            shapes.append(Rect(x=ox + 2, y=oy + 2, w=cell - 4, h=cell - 4, fill=colour, alpha=0.35, role="footprint", key=f"T{ty.id}"))
            shapes.append(Rect(x=ox + 2, y=oy + 2, w=cell - 4, h=cell - 4, stroke=colour, line_width=max(2.0, cell / 16),
                               role="footprint-border", key=f"T{ty.id}"))
    # a region's name a footprint tints ("Taiwan" under a strong typhoon), or that moved clear of a storm: drawn
    # (again) over the footprints, under the storms
    shapes.extend(now for home, now in zip(homes, region_labels, strict=True)
                  if now is not home or any(_overlaps(_text_box(now), b) for b in covered))
    # but a name that would cover a storm (its arrow, its eye) goes under the storms, over the footprints:
    # T4 vanished under "生成區 2" on a tablet, and T2's arrow heading north looked cut from its eye
    boxes = [_shape_box(s) for s in storms]
    under = [t for t in zone_labels if any(_overlaps(_text_box(t), b) for b in boxes)]  # type: ignore[arg-type]
    shapes.extend(under)
    # step_text: the numbered steps (and the words where the path leaves the map) go on top, below: at a phone's
    # sizes a storm's arrowhead covered the "1" beside its eye, and a zone's name a step's number
    on_top = ("path-step", "path-off") if step_text else ()
    shapes.extend(s for s in path if s.role not in on_top)
    shapes.extend(storms)
    for x, y in state.highlights:
        ox, oy = geo.cell_origin(x, y)
        lw = max(3.0, cell / 10)
        shapes.append(Rect(x=ox + lw / 2, y=oy + lw / 2, w=cell - lw, h=cell - lw, stroke=palette.HIGHLIGHT, line_width=lw,
                           role="highlight", key=f"{x},{y}"))
        shapes.append(Rect(x=ox + lw, y=oy + lw, w=cell - 2 * lw, h=cell - 2 * lw, stroke=palette.INK, line_width=1,
                           dash=(4, 3), role="highlight", key=f"{x},{y}"))
    # a region's name a highlight's frame crosses (lesson 03 frames Taiwan's hit cells: "Taiwan" read "aiwar"):
    # drawn again over the frames, unless it would cover a storm (then the frame crossing it is the lesser harm)
    framed = [geo.cell_origin(x, y) for x, y in state.highlights]
    shapes.extend(t for t in region_labels
                  if any(_overlaps(_text_box(t), (fx, fy, fx + cell, fy + cell)) for fx, fy in framed)
                  and not any(_overlaps(_text_box(t), b) for b in boxes))  # type: ignore[arg-type]
    # zone names again, on top of all: neither a storm sitting in a zone nor the orange frames of the cells a
    # player may choose must hide which zone it is (the names that would cover a storm are drawn under it, above)
    shapes.extend(t for t in zone_labels if t not in under)
    shapes.extend(s for s in path if s.role in on_top)
    return shapes


def cursor_scene(rules: Rules, cursor: Cell | None, cell: int = 48) -> list[Shape]:
    """The keyboard cursor: a thick dark frame with a white inner frame, seen on sea, land and storms.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> [s.role for s in cursor_scene(load_rules(), (3, 4), 40)], cursor_scene(load_rules(), None)
    (['cursor', 'cursor'], [])
    """
    if cursor is None:
        return []
    geo = BoardGeometry.for_rules(rules, cell)
    ox, oy = geo.cell_origin(*cursor)
    lw = max(4.0, cell / 8)
    key = f"{cursor[0]},{cursor[1]}"
    return [Rect(x=ox - lw / 2, y=oy - lw / 2, w=cell + lw, h=cell + lw, stroke=palette.CURSOR, line_width=lw,
                 role="cursor", key=key),
            Rect(x=ox + lw / 2, y=oy + lw / 2, w=cell - lw, h=cell - lw, stroke=palette.HALO, line_width=max(2.0, lw / 2),
                 role="cursor", key=key)]


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in canvas pixels


def _eye_box(ty: TyphoonView, geo: BoardGeometry, radius: float | None = None) -> Box:
    """The box of a storm's eye: of ``radius``, or a little more than the eye's usual third of a cell."""
    cx, cy = geo.cell_centre(*ty.eye)
    r = geo.cell * 0.36 if radius is None else radius
    return (cx - r, cy - r, cx + r, cy + r)


def _shape_box(s: Shape) -> Box:
    """The box a shape covers (a text's as :func:`_text_box` estimates it; a line's with half its width)."""
    if isinstance(s, Text):
        return _text_box(s)
    if isinstance(s, Circle):
        return (s.cx - s.r, s.cy - s.r, s.cx + s.r, s.cy + s.r)
    if isinstance(s, (Line, Polygon)):
        xs, ys = [p[0] for p in s.points], [p[1] for p in s.points]
        pad = s.line_width / 2 if isinstance(s, Line) else 0.0
        return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
    return (s.x, s.y, s.x + s.w, s.y + s.h)


def _inside(box: Box, bounds: Box) -> bool:
    return box[0] >= bounds[0] and box[1] >= bounds[1] and box[2] <= bounds[2] and box[3] <= bounds[3]


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _grown(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by / 4, box[2] + by, box[3] + by / 4)


def _label_width(text: str, size: float) -> float:
    """A safe width of ``text`` at ``size``: CJK glyphs are about one em wide, Latin letters about 0.55 em."""
    return sum(size if ord(ch) > 0x2E80 else size * 0.58 for ch in text)


def _label_box(cx: float, y: float, text: str, size: float, below: bool) -> Box:
    width = _label_width(text, size)
    y0, y1 = (y, y + size * 1.15) if below else (y - size * 1.15, y)
    return (cx - width / 2, y0, cx + width / 2, y1)


def _text_box(t: Text) -> Box:
    """The box a (centred) text takes, by its baseline; widths estimated as :func:`_label_box` does."""
    if t.baseline == "middle":
        x0, y0, x1, y1 = _label_box(t.x, t.y, t.text, t.size, True)
        shift = (y1 - y0) / 2
        return (x0, y0 - shift, x1, y1 - shift)
    return _label_box(t.x, t.y, t.text, t.size, t.baseline == "top")


def _zone_labels(rules: Rules, geo: BoardGeometry, lang: str, role: str = "zone-label",
                 min_text: float = 0.0) -> list[Shape]:
    out: list[Shape] = []
    for zone in rules.map.zones:
        # on the zone's top border, so a storm sitting in the zone does not hide the label; a label enlarged for a
        # phone (min_text) stands on the border instead, so it covers no cell of the zone
        px = sum(geo.cell_centre(*c)[0] for c in zone.cells) / len(zone.cells)
        py = geo.cell_origin(0, min(c[1] for c in zone.cells))[1]
        # (a little above the border: a storm's eye in the zone's top row stays clear of it)
        out.append(Text(x=px, y=py - 1 if min_text else py - geo.cell * 0.04,
                        text=i18n.t("board.zone_short", lang, n=zone.index + 1),
                        size=max(9.0, geo.cell * 0.3, min_text), fill="#14532d", bold=True,
                        baseline="bottom" if min_text else "middle", halo=palette.HALO, role=role,
                        key=f"zone{zone.index + 1}"))
    return out


Arrow = tuple[Point, Point, float]  # a storm's arrow: its tail, its head and its shaft's width, canvas px


def _eye_radius(ty: TyphoonView, geo: BoardGeometry, lang: str, min_text: float = 0.0) -> float:
    """The radius of a storm's eye: a third of a cell, or (``min_text``) as wide as its name ("T2") needs."""
    if not min_text:
        return geo.cell * 0.34
    name_size = max(9.0, geo.cell * 0.28, min_text)
    return max(geo.cell * 0.34, _label_width(i18n.typhoon_label(ty.id, lang), name_size) / 2 + 2)


def _arrow(ty: TyphoonView, geo: BoardGeometry, r: float) -> tuple[Arrow | None, float]:
    """A storm's arrow from the rim of its eye of radius ``r``, and how far it could reach: ``None`` without a
    heading, or where the grid's edge leaves no room for a shaft (then :func:`_typhoon_shapes` draws a wedge)."""
    if ty.direction not in COMPASS16:
        return None, 0.0
    cell = geo.cell
    cx, cy = geo.cell_centre(*ty.eye)
    ux, uy = direction_vector(ty.direction)  # type: ignore[arg-type]
    board = (*geo.cell_origin(0, 0), *geo.cell_origin(geo.width, geo.height))
    width = max(2.0, cell / 14)
    # a storm at the map's edge heading off it: the arrow ends at the edge (it spilled into the HP column)
    room = min([(board[2] - cx) / ux if ux > 0 else (board[0] - cx) / ux if ux < 0 else math.inf,
                (board[3] - cy) / uy if uy > 0 else (board[1] - cy) / uy if uy < 0 else math.inf]) - width / 2
    reach = min(cell * 1.05, room)
    if reach < r + cell * 0.3:
        return None, reach
    return ((cx + ux * r, cy + uy * r), (cx + ux * reach, cy + uy * reach), width), reach


def _arrow_hits(arrow: Arrow, box: Box) -> bool:
    """Whether an arrow (its shaft, half its width each side; its head, as wide as :func:`arrow_shapes` draws it)
    crosses ``box``: points every 2 px along it, each a disc, against the box."""
    (x0, y0), (x1, y1), width = arrow
    length = math.hypot(x1 - x0, y1 - y0)
    head = width * 3.2
    steps = max(int(length / 2), 1)
    for i in range(steps + 1):
        f = i / steps
        px, py = x0 + (x1 - x0) * f, y0 + (y1 - y0) * f
        reach = width / 2 if (1 - f) * length > head else head * 0.6
        nx, ny = min(max(px, box[0]), box[2]), min(max(py, box[1]), box[3])
        if (px - nx) ** 2 + (py - ny) ** 2 < reach ** 2:
            return True
    return False


def _badge_place(ty: TyphoonView, geo: BoardGeometry, r: float, br: float, name: Text, labels: Sequence[Box],
                 others: Sequence[Box], arrows: Sequence[Arrow], min_text: float) -> Point:
    """Where a storm's level badge (radius ``br``) goes: on a corner of the eye (radius ``r``) away from its arrow,
    the upper right first, on the first corner clear of the zones' names (``labels``).

    A phone's badge (``min_text``) is large: it sits out on the corner's diagonal, clear of the storm's name, or
    beside the name when no corner will do; its place must also keep it on the grid (off the coordinates) and off
    the other storms' eyes (``others``) and arrows (``arrows``); when no place is clear of all, the one with the
    fewest of these."""
    cx, cy = geo.cell_centre(*ty.eye)
    ux, uy = direction_vector(ty.direction) if ty.direction in COMPASS16 else (0.0, 0.0)
    out = r * 0.85
    hw, hh = _label_width(name.text, name.size) / 2, name.size * _DIGIT_HEIGHT_EM / 2  # half the name's box
    if min_text:  # the badge's centre (a, a) off the name's corner (hw, hh) by its radius and a pixel
        s, rr = hw + hh, br + 1
        out = max(out, (s + math.sqrt(max(s * s - 2 * (hw * hw + hh * hh - rr * rr), 0.0))) / 2)
    corners = [(cx + sx * out, cy + sy * out) for sx, sy in ((1, -1), (-1, -1), (1, 1), (-1, 1))
               if (sx * ux + sy * uy) / math.sqrt(2) < 0.85]
    if min_text:  # then beside the name, right, left, under, over (a storm in a corner cell heading into the map)
        corners += [(cx + sx * (hw + br + 1), cy + sy * (hh + br + 1)) for sx, sy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if sx * ux + sy * uy < 0.85]
    grid = (*geo.cell_origin(0, 0), *geo.cell_origin(geo.width, geo.height))

    def faults(x: float, y: float) -> int:
        box = (x - br, y - br, x + br, y + br)
        n = int(any(_overlaps(box, b) for b in labels))
        if min_text:
            n += int(not _inside(box, grid)) + sum(_overlaps(box, b) for b in others)
            n += sum(_arrow_hits(a, box) for a in arrows)
        return n

    return min(corners, key=lambda c: faults(*c))


#: A storm's arrow (or wedge), eye and name, as :func:`_storm_core` draws them, its name, its arrow and its eye's radius.
Core = tuple[list[Shape], Text, Arrow | None, float]


def _storm_core(ty: TyphoonView, geo: BoardGeometry, lang: str, min_text: float = 0.0) -> Core:
    """What of a storm no other text may cover: its arrow (or, where the grid's edge leaves no room for a shaft, a
    wedge on the eye's rim), its eye and its name ("T2") in the eye, in drawing order; then the name alone, the arrow
    (:func:`_arrow`) and the eye's radius. The badge and the level's name are placed after the texts around them."""
    cell = geo.cell
    key = f"T{ty.id}"
    cx, cy = geo.cell_centre(*ty.eye)
    colour = palette.level_fill(ty.level)
    name_size = max(9.0, cell * 0.28, min_text)
    # the eye holds its name ("T2") with a little room
    r = _eye_radius(ty, geo, lang, min_text)
    out: list[Shape] = []
    wedge: list[Shape] = []
    arrow, reach = _arrow(ty, geo, r)
    if arrow is not None:
        tail, head, width = arrow
        out += arrow_shapes(tail, head, width=width, colour=palette.INK, role="arrow", key=key)
    elif ty.direction in COMPASS16:  # no room for a shaft: a wide wedge on the eye's rim, drawn over the eye
        ux, uy = direction_vector(ty.direction)  # type: ignore[arg-type]
        width = max(2.0, cell / 14)
        base, half = r * 0.8, cell * 0.19
        tip = (cx + ux * max(reach, r + width), cy + uy * max(reach, r + width))
        wedge.append(Polygon(points=(tip, (cx + ux * base - uy * half, cy + uy * base + ux * half),
                                     (cx + ux * base + uy * half, cy + uy * base - ux * half)),
                             fill=palette.INK, stroke=palette.HALO, line_width=max(1.0, cell / 40), role="arrow",
                             key=key))
    out.append(Circle(cx=cx, cy=cy, r=r, fill=colour, stroke=palette.INK, line_width=max(1.5, cell / 24), role="eye", key=key))
    out += wedge
    name = Text(x=cx, y=cy, text=i18n.typhoon_label(ty.id, lang), size=name_size, bold=True,
                fill=palette.text_colour_on(colour), role="typhoon-label", key=key)
    out.append(name)
    return out, name, arrow, r


def _typhoon_shapes(rules: Rules, ty: TyphoonView, geo: BoardGeometry, lang: str,
                    taken: list[Box] | None = None, labels: Sequence[Box] = (), min_text: float = 0.0,
                    arrows: Sequence[Arrow] = (), level_text: float = 0.0, core: Core | None = None) -> list[Shape]:
    """A storm's arrow, eye, id and level. The level is a number badge (never colour alone); its name
    goes under the eye, or above it, where no other storm, level name, zone name (``labels``) or storm's arrow
    (``arrows``: every storm's, its own too) is, and is left out when neither place is free (the badge still tells
    the level). The badge moves to another corner of the eye when a zone name covers its usual one.

    ``min_text`` (a phone): the storm's name at least that large, its eye grown to hold it, the badge's digit at
    least 0.9 × ``min_text`` (10 CSS px on a 390 px phone) in a badge out on its corner (:func:`_badge_place`),
    and no level name; ``level_text`` (with ``min_text``) the digit at least that large. ``core``: the storm's
    :func:`_storm_core`, when the caller has it already."""
    cell = geo.cell
    key = f"T{ty.id}"
    cx, cy = geo.cell_centre(*ty.eye)
    board = (*geo.cell_origin(0, 0), *geo.cell_origin(geo.width, geo.height))  # the grid: nothing of a storm past it
    shapes, name, arrow, r = core if core is not None else _storm_core(ty, geo, lang, min_text)
    out = list(shapes)
    digit = max(min_text * 0.9, level_text if min_text else 0.0, 6.0 * 1.45)
    br = digit * 0.55 if min_text else max(6.0, cell * 0.14)
    own = _eye_box(ty, geo, r if min_text else None)
    eyes = [b for b in (taken or []) if b != own]
    bx, by = _badge_place(ty, geo, r, br, name, labels, eyes, [a for a in arrows if a != arrow], min_text)
    out.append(Circle(cx=bx, cy=by, r=br, fill="#ffffff", stroke=palette.INK, line_width=max(1.0, cell / 40),
                      role="level-badge", key=key))
    out.append(Text(x=bx, y=by, text=str(ty.level), size=digit if min_text else br * 1.45, bold=True, fill=palette.INK,
                    role="level-badge", key=key))
    if min_text:
        return out  # no room for the level's name in letters this large: the badge's number says the level
    level = i18n.level_name(rules, ty.level, lang)
    size = max(8.0, cell * 0.2)
    others = [b for b in (taken or []) if b != own] + list(labels)
    for below in (True, False):
        y = cy + r + cell * 0.04 if below else cy - r - cell * 0.06
        box = _label_box(cx, y, level, size, below)
        # kept inside the grid: moved along its row off the edge ("moderate typhoon" ran into the HP column)
        dx = max(board[0] - box[0], 0.0) + min(board[2] - box[2], 0.0)
        box = (box[0] + dx, box[1], box[2] + dx, box[3])
        if (box[1] >= board[1] and box[3] <= board[3] and not any(_overlaps(box, b) for b in others)
                and not any(_arrow_hits(a, box) for a in arrows)):
            out.append(Text(x=cx + dx, y=y, text=level, size=size, bold=True, baseline="top" if below else "bottom",
                            halo=palette.HALO, role="level-label", key=key))
            if taken is not None:
                taken.append(box)
            break
    return out


def path_scene(rules: Rules, path: PathPreview, lang: str = "en", cell: int = 48, *,
               step_text: float = 0.0) -> list[Shape]:
    """A path preview: a dashed line through the cells, numbered steps, and where it ends.

    ``step_text`` (opt-in; 0, the default: the usual sizes): the step numbers and the words where a path leaves the
    map at least that large, canvas px, each step's disc grown to hold its number (a map the page shows much smaller
    than it is drawn: lesson 02's phone drawing, 23 px of a 44 px cell).

    >>> from typhoon_edu.engine.rules import load_rules
    >>> shapes = path_scene(load_rules(), PathPreview((8, 8), "NNW", 5))
    >>> [s.text for s in shapes if s.role == "path-step" and isinstance(s, Text)]
    ['1', '2', '3', '4', '5']
    """
    geo = BoardGeometry.for_rules(rules, cell)
    cells = path_cells(rules, path.start, path.direction, path.pips)
    key = f"{path.start[0]},{path.start[1]}"
    points = [geo.cell_centre(*path.start)] + [geo.cell_centre(*c) for c in cells]
    shapes: list[Shape] = []
    if not cells:
        return shapes
    off = not rules.map.on_map(*cells[-1])
    if off:
        # stop the line at the board's edge: the storm is gone the moment it steps off
        (ax, ay), (bx, by) = points[-2], points[-1]
        points[-1] = ((ax + bx) / 2, (ay + by) / 2)
    shapes.append(Line(points=tuple(points), stroke=palette.PATH, line_width=max(2.0, cell / 14), dash=(cell / 6, cell / 10),
                       role="path", key=key))
    for i, c in enumerate(cells, start=1):
        if not rules.map.on_map(*c):
            break
        px, py = geo.cell_centre(*c)
        size = max(8.0, cell * 0.22, step_text)
        # the disc holds its number's box (a digit 0.58 em wide and 0.74 em tall, "10" twice as wide) with a pixel
        r = (max(cell * 0.17, math.hypot(_label_width(str(i), size) / 2, size * _DIGIT_HEIGHT_EM / 2) + 1)
             if step_text else cell * 0.17)
        shapes.append(Circle(cx=px, cy=py, r=r, fill="#ffffff", stroke=palette.PATH, line_width=max(1.5, cell / 28),
                             role="path-step", key=key))
        shapes.append(Text(x=px, y=py, text=str(i), size=size, bold=True, role="path-step", key=key))
    if off:
        ex, ey = points[-1]
        mark, words = max(10.0, cell * 0.4, step_text), max(8.0, cell * 0.2, step_text)
        shapes.append(Text(x=ex, y=ey, text="✕", size=mark, fill="#b91c1c", bold=True, halo=palette.HALO,
                           role="path-off", key=key))
        below = max(cell * 0.3, (mark + words) * 0.6) if step_text else cell * 0.3  # the words under the mark
        shapes.append(Text(x=ex, y=ey + below, text=i18n.t("board.path_off", lang), size=words,
                           fill="#b91c1c", bold=True, halo=palette.HALO, role="path-off", key=key))
    else:
        end = cells[-1]
        for x, y in footprint_cells(rules, end, path.level):
            ox, oy = geo.cell_origin(x, y)
            shapes.append(Rect(x=ox + 3, y=oy + 3, w=cell - 6, h=cell - 6, stroke=palette.PATH, line_width=max(2.0, cell / 20),
                               dash=(cell / 10, cell / 14), role="path-end", key=key))
    return shapes


def board_scene(rules: Rules, state: BoardState | None = None, lang: str = "en", cell: int = 48, *,
                min_text: float = 0.0) -> list[Shape]:
    """Both layers, static first: everything a still picture of the board needs (``min_text``: see :func:`static_scene`)."""
    return static_scene(rules, lang, cell, min_text=min_text) + dynamic_scene(rules, state, lang, cell, min_text=min_text)
