"""Lookup tables derived once from a ``Rules``: cell indices, neighbours, footprints, hits.

Cells are numbered ``i = y * width + x``. Everything here is plain tuples so the engine's
hot path does only indexing.

>>> from typhoon_edu.engine.rules import load_rules
>>> b = board_for(load_rules())
>>> b.cell(b.index((8, 8)))
(8, 8)
>>> [b.cell(i) for i in b.footprint[3][b.index((8, 8))]]
[(8, 8), (8, 7), (9, 8), (8, 9), (7, 8)]
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import FOOTPRINT_SHAPES, ORTHOGONAL, Rules


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    land: tuple[bool, ...]
    region_keys: tuple[str, ...]  # region index -> key
    region_of: tuple[int, ...]  # cell -> region index or -1
    step: dict[str, tuple[int, ...]]  # letter -> cell -> neighbour cell or -1 (off the map)
    footprint: tuple[tuple[tuple[int, ...], ...], ...]  # [level][cell] -> cells covered
    hits: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]  # [level][cell] -> ((region, count), ...)
    zones: tuple[tuple[int, ...], ...]  # zone -> cells in reading order
    zone_of: tuple[int, ...]  # cell -> zone index or -1
    cells: tuple[tuple[int, int], ...]  # cell index -> (x, y)
    zone_cells: tuple[int, ...]  # every zone cell, zone by zone

    def index(self, cell: tuple[int, int]) -> int:
        return cell[1] * self.width + cell[0]

    def cell(self, index: int) -> tuple[int, int]:
        return (index % self.width, index // self.width)


_BOARDS: dict[int, tuple[Rules, Board]] = {}


def board_for(rules: Rules) -> Board:
    """The (cached) lookup tables of ``rules``."""
    hit = _BOARDS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    board = _build(rules)
    _BOARDS[id(rules)] = (rules, board)
    return board


def _build(rules: Rules) -> Board:
    m = rules.map
    w, h = m.width, m.height
    keys = tuple(rules.regions)
    region_of = [-1] * (w * h)
    for r, key in enumerate(keys):
        for x, y in rules.regions[key].cells:
            region_of[y * w + x] = r
    land = tuple(m.is_land(i % w, i // w) for i in range(w * h))
    step = {}
    for letter, (dx, dy) in ORTHOGONAL.items():
        step[letter] = tuple(
            (y + dy) * w + (x + dx) if 0 <= x + dx < w and 0 <= y + dy < h else -1
            for y in range(h)
            for x in range(w)
        )
    footprint = [()]
    hits = [()]
    for lv in rules.levels:
        shape = FOOTPRINT_SHAPES[lv.footprint]
        fp_level = []
        hit_level = []
        for i in range(w * h):
            x, y = i % w, i // w
            cells = tuple((y + dy) * w + x + dx for dx, dy in shape if 0 <= x + dx < w and 0 <= y + dy < h)
            fp_level.append(cells)
            counts: dict[int, int] = {}
            for c in cells:
                if region_of[c] >= 0:
                    counts[region_of[c]] = counts.get(region_of[c], 0) + 1
            hit_level.append(tuple(sorted(counts.items())))
        footprint.append(tuple(fp_level))
        hits.append(tuple(hit_level))
    zones = tuple(tuple(sorted(y * w + x for x, y in z.cells)) for z in m.zones)
    zone_of = [-1] * (w * h)
    for z, cells in enumerate(zones):
        for c in cells:
            zone_of[c] = z
    cells = tuple((i % w, i // w) for i in range(w * h))
    return Board(w, h, land, keys, tuple(region_of), step, tuple(footprint), tuple(hits), zones, tuple(zone_of), cells,
                 tuple(c for z in zones for c in z))
