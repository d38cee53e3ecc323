"""Storm-track Monte Carlo: where do typhoons go, and which region do they hurt most?

One *track* is one tropical storm on an empty board, played by this edition's rules
(§2 levels and footprints, §3 ring roll, §4 step cycles, §7 edge and landfall, §8 damage) and
nothing else: no cards, no merges, no other storms, no growth at sea. Each track

1. spawns on a uniformly random cell of a uniformly random generation zone (``zones``);
2. gets its direction by a ring roll: the indicator starts on the ring's start stop and moves
   clockwise by one die (1-6). **[sim choice]** By default every track rolls from the start stop
   on its own (``ring_roll="fresh"``), so tracks are independent and the result does not depend
   on how many storms came before. On the 7-stop ring a die can never bring the indicator back
   to ``N``, so fresh tracks never head north. ``ring_roll="chained"`` instead lets the
   indicator stay where it stopped, as in a real game (§3): the tracks then form one long game
   sequence, and in the long run every stop is equally likely;
3. for each of ``turns`` turns rolls a die and moves its eye that many steps along the
   direction's step cycle, restarting the cycle on every move (§4).

Rules applied at every step and after every move, in the order of §7:

- the eye stepping off the grid removes the storm at once; its remaining steps do nothing, and
  the hits of the earlier steps of that move still count. **[sim choice]** The footprint of the
  step that leaves the map covers nothing.
- each step, every region cell under the footprint at the eye's new cell is one hit at the
  current level's damage (§8 A-C); the start cell does not count.
- after a move in which the eye entered land (any owner), a level-1 storm is removed and any
  other loses one level (§7 landfall).
- +1 per region that the move hit, if the storm still exists after landfall and its footprint
  at the end of the move still covers a cell of that region (§8 D). As in the engine
  (``Game._finish_move``), that footprint is the storm's *after* landfall weakening: a super
  typhoon that makes landfall ends its move with the plus footprint of a strong typhoon.
- **[sim choice]** A region's loss from one track is capped at its maximum HP (§8 F: HP never
  go below 0), as if every track met the region at full HP.

``hit_probability`` counts a cell as covered when the footprint was on it at any moment,
*including the spawn cell* (the storm is there, even though §8 A gives no damage for it), so a
zone cell used as the only spawn cell has probability 1. ``region_hit_probability`` counts
damaging hits only.

>>> stats = simulate_tracks(10_000, seed=7)
>>> stats.n, stats.hit_probability.shape
(10000, (12, 16))
>>> bool(0.0 <= stats.hit_probability.min() and stats.hit_probability.max() <= 1.0)
True
>>> sorted(stats.expected_damage) == sorted(stats.region_hit_probability)
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

import numpy as np

from ..engine.rules import FOOTPRINT_SHAPES, ORTHOGONAL, Rules, load_rules

FATES: tuple[str, ...] = ("survived", "edge", "landfall")
"""How a track ended, indexed by the codes in ``TrackBatch.fate``."""
_SURVIVED, _EDGE, _LANDFALL = 0, 1, 2
DIE_FACES = 6
DEFAULT_CHUNK = 100_000
RingRoll = Literal["fresh", "chained"]


# --------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class TrackResult:
    """What one storm did: the reference's answer, and one row of a :class:`TrackBatch`.

    ``damage`` maps every region to the HP it lost (capped at its maximum HP); ``covered`` holds
    every on-map cell the footprint ever covered (spawn included); ``lifetime`` is the number of
    moves the storm began; ``fate`` is one of :data:`FATES`; ``final_level`` is the level when
    the track ended (0 when landfall removed it). ``path`` (eye cells, spawn first) is only
    filled by :func:`track_reference` and is ignored when results are compared.
    """

    damage: Mapping[str, int]
    hit_regions: frozenset[str]
    covered: frozenset[tuple[int, int]]
    lifetime: int
    fate: str
    final_level: int
    path: tuple[tuple[int, int], ...] | None = field(default=None, compare=False)


@dataclass(frozen=True, eq=False)
class TrackInputs:
    """Everything random about a set of tracks: spawn cells, directions and dice.

    ``direction[i]`` indexes ``stops`` (compass keys); ``dice`` has one row per track and one
    column per turn. Draw them with :func:`draw_tracks`, or give them explicitly with
    :meth:`from_lists` to replay chosen storms.

    >>> inputs = TrackInputs.from_lists([(8, 8)], ["NNW"], [(3, 5)])
    >>> inputs.track(0)
    ((8, 8), 'NNW', (3, 5))
    """

    x: np.ndarray
    y: np.ndarray
    direction: np.ndarray
    stops: tuple[str, ...]
    dice: np.ndarray

    def __len__(self) -> int:
        return int(self.x.shape[0])

    @property
    def turns(self) -> int:
        return int(self.dice.shape[1])

    def track(self, i: int) -> tuple[tuple[int, int], str, tuple[int, ...]]:
        """Track ``i`` as ``(spawn cell, direction, dice)``: the arguments of :func:`track_reference`."""
        cell = (int(self.x[i]), int(self.y[i]))
        return cell, self.stops[int(self.direction[i])], tuple(int(v) for v in self.dice[i])

    @classmethod
    def from_lists(
        cls,
        cells: Sequence[tuple[int, int]],
        directions: Sequence[str],
        dice: Sequence[Sequence[int]],
    ) -> TrackInputs:
        """Build inputs from explicit spawn cells, compass directions and dice (one row per track).

        Checked by :func:`run_tracks` against the map and the compass.

        >>> TrackInputs.from_lists([(8, 8)], ["E", "W"], [(1,), (1,)])
        Traceback (most recent call last):
        ...
        ValueError: got 1 spawn cells, 2 directions and 2 rows of dice; give one of each per track
        """
        if not (len(cells) == len(directions) == len(dice)):
            raise ValueError(
                f"got {len(cells)} spawn cells, {len(directions)} directions and {len(dice)} rows of dice; "
                "give one of each per track"
            )
        if not cells:
            raise ValueError("give at least one track")
        if isinstance(directions, str):
            raise ValueError("directions is a list of compass points such as ['NNW'], not a string")
        stops = tuple(dict.fromkeys(directions))
        rows = [tuple(r) for r in dice]
        if len({len(r) for r in rows}) != 1:
            raise ValueError("every track needs the same number of dice (one per turn)")
        xy = np.array(cells, dtype=np.int64).reshape(len(cells), 2)
        return cls(
            x=xy[:, 0],
            y=xy[:, 1],
            direction=np.array([stops.index(d) for d in directions], dtype=np.int64),
            stops=stops,
            dice=np.array(rows, dtype=np.int64).reshape(len(rows), len(rows[0])),
        )


@dataclass(frozen=True, eq=False)
class TrackBatch:
    """Per-track results of :func:`run_tracks` (row ``i`` = track ``i``), in ``regions`` order.

    >>> batch = run_tracks(TrackInputs.from_lists([(8, 8)], ["NNW"], [(3, 5)]))
    >>> batch.result(0).damage["Korea"], batch.result(0).fate
    (2, 'landfall')
    """

    regions: tuple[str, ...]
    damage: np.ndarray  # (n, regions) int: HP lost, capped at the region's maximum HP
    hit: np.ndarray  # (n, regions) bool: the track made at least one hit on the region
    covered: np.ndarray  # (n, height, width) bool
    lifetime: np.ndarray  # (n,) moves begun
    fate: np.ndarray  # (n,) index into FATES
    final_level: np.ndarray  # (n,) 0 when landfall removed the storm

    def __len__(self) -> int:
        return int(self.lifetime.shape[0])

    def result(self, i: int) -> TrackResult:
        """Row ``i`` as a :class:`TrackResult`, comparable with :func:`track_reference`."""
        ys, xs = np.nonzero(self.covered[i])
        return TrackResult(
            damage={r: int(v) for r, v in zip(self.regions, self.damage[i], strict=True)},
            hit_regions=frozenset(r for r, h in zip(self.regions, self.hit[i], strict=True) if h),
            covered=frozenset((int(x), int(y)) for x, y in zip(xs, ys, strict=True)),
            lifetime=int(self.lifetime[i]),
            fate=FATES[int(self.fate[i])],
            final_level=int(self.final_level[i]),
        )


@dataclass(frozen=True, eq=False)
class TrackStats:
    """Summary of :func:`simulate_tracks`; arrays are read-only, mappings immutable.

    - ``hit_probability``: rows x cols, share of tracks whose footprint ever covered the cell
      (spawn cell included).
    - ``expected_damage`` / ``expected_damage_se``: region -> mean HP loss per track and its
      standard error (sample std / sqrt(n)); the estimate's spread shrinks like 1 / sqrt(n).
    - ``region_hit_probability``: region -> share of tracks that hit it at least once.
    - ``alive_fraction``: length ``turns + 1``; share of tracks still on the map after each turn
      (index 0 = spawn, always 1).
    - ``mean_lifetime``: mean number of moves a storm began; ``fate_share``: share of tracks
      that left the map (``edge``), died at landfall (``landfall``) or ``survived`` all turns.
    """

    n: int
    turns: int
    level: int
    ring: tuple[str, ...]
    ring_roll: str
    zones: tuple[int, ...]
    seed: int | None
    hit_probability: np.ndarray
    expected_damage: Mapping[str, float]
    expected_damage_se: Mapping[str, float]
    region_hit_probability: Mapping[str, float]
    alive_fraction: np.ndarray
    mean_lifetime: float
    fate_share: Mapping[str, float]

    def ranking(self) -> list[tuple[str, float]]:
        """Regions from most to least expected damage per track.

        >>> ranking = simulate_tracks(5_000, seed=3).ranking()
        >>> len(ranking), ranking[0][1] >= ranking[-1][1]
        (6, True)
        """
        return sorted(self.expected_damage.items(), key=lambda item: (-item[1], item[0]))

    def hit_probability_se(self) -> np.ndarray:
        """Standard error of each cell's hit probability: sqrt(p (1 - p) / n).

        >>> simulate_tracks(100, seed=0).hit_probability_se().shape
        (12, 16)
        """
        p = self.hit_probability
        return np.sqrt(p * (1.0 - p) / self.n)


# --------------------------------------------------------------------------------------------
# validation


def _whole(value: object, name: str, low: int, high: int | None = None, rule: str = "") -> int:
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if not ok or value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise ValueError(f"{name} must be a whole number {span}{rule}; got {value!r}")
    return int(value)


def _check_ring(ring: Sequence[str] | None, rules: Rules) -> tuple[tuple[str, ...], int]:
    """The ring's stops and the index the indicator starts on (the rules' start, else stop 0)."""
    if ring is None:
        stops = tuple(rules.ring)
    else:
        if isinstance(ring, str):
            raise ValueError(f"ring is a list of compass points such as ['WSW', 'W', 'WNW'], not the string {ring!r}")
        stops = tuple(ring)
        if not stops:
            raise ValueError("the ring needs at least one stop (a compass point such as 'W')")
        for stop in stops:
            if stop not in rules.points:
                raise ValueError(
                    f"unknown ring stop {stop!r}; a ring stop is one of the 16 compass points: {', '.join(rules.points)}"
                )
    start = stops.index(rules.ring_start) if rules.ring_start in stops else 0
    return stops, start


def _check_zones(zones: Sequence[int] | None, rules: Rules) -> tuple[int, ...]:
    count = len(rules.map.zones)
    if zones is None:
        return tuple(range(count))
    if isinstance(zones, (int, str)):
        raise ValueError(f"zones is a list of zone indices such as [0, 2], not {zones!r}")
    picked = tuple(zones)
    if not picked:
        raise ValueError("zones needs at least one generation zone to spawn storms in")
    for z in picked:
        if isinstance(z, bool) or not isinstance(z, (int, np.integer)) or not 0 <= z < count:
            raise ValueError(
                f"unknown zone index {z!r}; zones are 0-based indices into rules.map.zones: 0 to {count - 1} "
                f"(map zone 1 is index 0)"
            )
    return tuple(int(z) for z in picked)


# --------------------------------------------------------------------------------------------
# lookup tables: everything the kernel needs as flat numpy arrays, indexed by
# f = level0 * (width * height) + y * width + x


@dataclass(frozen=True)
class _Tables:
    width: int
    height: int
    regions: tuple[str, ...]
    land: np.ndarray  # (H*W,) bool
    region_hits: np.ndarray  # (L*H*W, R) int8: region cells under the footprint
    cover: np.ndarray  # (L*H*W, words) uint64: footprint cells as a bit set
    per_hit: np.ndarray  # (L,) damage per hit
    hp: np.ndarray  # (R,) maximum HP
    dx: np.ndarray  # (S, DIE_FACES) step k of a move in direction s
    dy: np.ndarray


def _footprint(rules: Rules, level: int, x: int, y: int) -> list[tuple[int, int]]:
    offsets = FOOTPRINT_SHAPES[rules.level(level).footprint]
    return [(x + dx, y + dy) for dx, dy in offsets if rules.map.on_map(x + dx, y + dy)]


def _tables(rules: Rules, stops: Sequence[str]) -> _Tables:
    gmap = rules.map
    w, h, hw = gmap.width, gmap.height, gmap.width * gmap.height
    regions = tuple(rules.regions)
    owner = {cell: i for i, key in enumerate(regions) for cell in rules.regions[key].cells}
    levels = len(rules.levels)
    words = (hw + 63) // 64
    region_hits = np.zeros((levels * hw, len(regions)), dtype=np.int8)
    cover = np.zeros((levels * hw, words), dtype=np.uint64)
    for lv in range(levels):
        for y in range(h):
            for x in range(w):
                f = lv * hw + y * w + x
                for cx, cy in _footprint(rules, lv + 1, x, y):
                    c = cy * w + cx
                    cover[f, c // 64] |= np.uint64(1) << np.uint64(c % 64)
                    if (cx, cy) in owner:
                        region_hits[f, owner[(cx, cy)]] += 1
    land = np.array([gmap.is_land(x, y) for y in range(h) for x in range(w)], dtype=bool)
    dx = np.zeros((len(stops), DIE_FACES), dtype=np.int64)
    dy = np.zeros_like(dx)
    for s, stop in enumerate(stops):
        cycle = rules.points[stop].cycle
        for k in range(DIE_FACES):
            dx[s, k], dy[s, k] = ORTHOGONAL[cycle[k % len(cycle)]]
    return _Tables(
        width=w,
        height=h,
        regions=regions,
        land=land,
        region_hits=region_hits,
        cover=cover,
        per_hit=np.array([lv.damage for lv in rules.levels], dtype=np.int32),
        hp=np.array([rules.regions[k].hp for k in regions], dtype=np.int32),
        dx=dx,
        dy=dy,
    )


def _unpack(bits: np.ndarray, cells: int) -> np.ndarray:
    """(n, words) uint64 bit sets -> (n, cells) uint8 0/1, independent of the machine's byte order."""
    as_bytes = np.ascontiguousarray(bits, dtype="<u8").view(np.uint8)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")[:, :cells]


_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.int64)


def _cover_counts(bits: np.ndarray, cells: int) -> np.ndarray:
    """How many of the bit sets contain each cell: one bincount of (byte column, byte value)."""
    as_bytes = np.ascontiguousarray(bits, dtype="<u8").view(np.uint8)
    columns = as_bytes.shape[1]
    keyed = as_bytes.astype(np.int64) + 256 * np.arange(columns, dtype=np.int64)
    per_value = np.bincount(keyed.ravel(), minlength=256 * columns).reshape(columns, 256)
    return (per_value @ _BYTE_BITS).ravel()[:cells]


# --------------------------------------------------------------------------------------------
# the vectorised kernel. A move depends only on (level, eye cell, direction, die), and the map
# has few of those (5 x 192 x 7 x 6 = 40 320 on the default map), so every possible move is
# played once, step by step and all at once, into a table; the storms then look their move up.
# Loops run over steps (building the table) and turns (playing the storms), never over storms.


@dataclass(frozen=True)
class _Moves:
    """Every possible move; row ((level0 * cells + eye) * directions + direction) * 6 + die - 1."""

    end: np.ndarray  # (K,) eye cell y * width + x after the move (the last on-map cell if it left)
    off: np.ndarray  # (K,) bool: the eye stepped off the map (the storm is removed)
    land: np.ndarray  # (K,) bool: the eye entered land during the move
    hits: np.ndarray  # (K, R) int16 hits per region, at the move's level (§8 A)
    stays: np.ndarray  # (K, R) bool: region hit by the move and under the end footprint after landfall (§8 D)
    cover: np.ndarray  # (K, words) uint64: cells the footprint covered during the move


def _moves(t: _Tables) -> _Moves:
    w, hw, stops = t.width, t.width * t.height, t.dx.shape[0]
    levels = t.per_hit.shape[0]
    lvl, cell, d, die = (a.ravel() for a in np.indices((levels, hw, stops, DIE_FACES)))
    die = die + 1
    x, y = cell % w, cell // w
    base = lvl * hw
    on = np.ones(lvl.size, dtype=bool)
    land = np.zeros(lvl.size, dtype=bool)
    hits = np.zeros((lvl.size, len(t.regions)), dtype=np.int16)
    cover = np.zeros((lvl.size, t.cover.shape[1]), dtype=np.uint64)
    for k in range(DIE_FACES):
        moving = on & (die > k)
        nx, ny = x + t.dx[d, k], y + t.dy[d, k]
        inside = (nx >= 0) & (nx < w) & (ny >= 0) & (ny < t.height)
        on &= inside | ~moving  # the step off the grid removes the storm; no later step counts
        moving &= inside
        x, y = np.where(moving, nx, x), np.where(moving, ny, y)
        f = base + y * w + x
        hits += t.region_hits[f] * moving[:, None]
        land |= moving & t.land[y * w + x]
        cover |= t.cover[f] * moving[:, None].astype(np.uint64)
    end = y * w + x
    # §8 D looks at the footprint after landfall (b) has weakened the storm, as the engine does;
    # a level-1 storm that lands is removed, so its row never counts (index clipped to stay valid).
    after = np.maximum(lvl - land, 0) * hw
    stays = (hits > 0) & (t.region_hits[after + end] > 0)
    return _Moves(end=end, off=~on, land=land, hits=hits, stays=stays, cover=cover)


def _kernel(
    t: _Tables, moves: _Moves, x0: np.ndarray, y0: np.ndarray, d0: np.ndarray, dice: np.ndarray, level: int
) -> dict[str, np.ndarray]:
    n, turns = dice.shape
    by_turn = np.ascontiguousarray(np.asarray(dice).T)  # one contiguous row of dice per turn
    w, hw, nreg, stops = t.width, t.width * t.height, len(t.regions), t.dx.shape[0]
    out_damage = np.zeros((n, nreg), dtype=np.int32)
    out_hit = np.zeros((n, nreg), dtype=bool)
    out_cover = np.zeros((n, t.cover.shape[1]), dtype=np.uint64)
    out_life = np.full(n, turns, dtype=np.int16)
    out_fate = np.full(n, _SURVIVED, dtype=np.int8)
    out_level = np.zeros(n, dtype=np.int8)

    # The active storms only: the arrays shrink as storms are removed, so late turns are cheap.
    ids = np.arange(n)
    pos = np.asarray(y0, dtype=np.int64) * w + np.asarray(x0, dtype=np.int64)
    d = np.asarray(d0, dtype=np.int64)
    lvl = np.full(n, level - 1, dtype=np.int64)  # 0-based level
    cover = t.cover[lvl * hw + pos]
    dmg = np.zeros((n, nreg), dtype=np.int32)
    hit = np.zeros((n, nreg), dtype=bool)

    for turn in range(turns):
        if ids.size == 0:
            break
        row = ((lvl * hw + pos) * stops + d) * DIE_FACES + by_turn[turn][ids] - 1
        hits = moves.hits[row]
        off = moves.off[row]
        # §7 order: (a) damage of the move, (b) landfall, (c) +1 if still there and still alive.
        dmg += hits * t.per_hit[lvl][:, None]
        hit |= hits > 0
        cover |= moves.cover[row]
        pos = moves.end[row]
        fell = ~off & moves.land[row]
        gone = fell & (lvl == 0)
        alive = ~off & ~gone
        dmg += moves.stays[row] & alive[:, None]
        lvl = np.where(fell & ~gone, lvl - 1, lvl)
        if not alive.all():
            dead = ~alive
            rows = ids[dead]
            out_damage[rows], out_hit[rows], out_cover[rows] = dmg[dead], hit[dead], cover[dead]
            out_life[rows] = turn + 1
            out_fate[rows] = np.where(gone[dead], _LANDFALL, _EDGE)
            out_level[rows] = np.where(gone[dead], 0, lvl[dead] + 1)
            ids, pos, d, lvl = ids[alive], pos[alive], d[alive], lvl[alive]
            cover, dmg, hit = cover[alive], dmg[alive], hit[alive]
    out_damage[ids], out_hit[ids], out_cover[ids] = dmg, hit, cover
    out_level[ids] = lvl + 1
    np.minimum(out_damage, t.hp[None, :], out=out_damage)
    return {"damage": out_damage, "hit": out_hit, "cover": out_cover, "life": out_life, "fate": out_fate, "level": out_level}


# --------------------------------------------------------------------------------------------
# drawing the random parts


def _draw(
    rng: np.random.Generator,
    m: int,
    rules: Rules,
    stops: tuple[str, ...],
    start: int,
    zones: tuple[int, ...],
    turns: int,
    chained: bool,
) -> tuple[TrackInputs, int]:
    """Draw ``m`` tracks; returns them and where the indicator stands afterwards."""
    sizes = np.array([len(rules.map.zones[z].cells) for z in zones], dtype=np.int64)
    cells = np.zeros((len(zones), int(sizes.max()), 2), dtype=np.int64)
    for i, z in enumerate(zones):
        cells[i, : sizes[i]] = rules.map.zones[z].cells
    zone = rng.integers(0, len(zones), size=m)
    cell = rng.integers(0, sizes[zone])
    rolls = rng.integers(1, DIE_FACES + 1, size=m)
    moved = np.cumsum(rolls) if chained else rolls
    direction = (start + moved) % len(stops)
    end = int(direction[-1]) if chained else start
    dice = rng.integers(1, DIE_FACES + 1, size=(m, turns), dtype=np.int8)
    xy = cells[zone, cell]
    return TrackInputs(x=xy[:, 0], y=xy[:, 1], direction=direction, stops=stops, dice=dice), end


def draw_tracks(
    n: int,
    *,
    seed: int | np.random.Generator | None = None,
    ring: Sequence[str] | None = None,
    zones: Sequence[int] | None = None,
    turns: int = 12,
    ring_roll: RingRoll = "fresh",
    rules: Rules | None = None,
) -> TrackInputs:
    """Draw the random parts of ``n`` tracks (spawn cell, direction, one die per turn).

    Use it to run the same storms through :func:`run_tracks` and :func:`track_reference`.
    Arguments mean the same as in :func:`simulate_tracks`.

    >>> inputs = draw_tracks(1_000, seed=5)
    >>> len(inputs), inputs.turns, inputs.stops[0]
    (1000, 12, 'N')
    >>> "N" in {inputs.stops[d] for d in inputs.direction}  # a fresh roll never lands on N
    False
    """
    rules = rules if rules is not None else load_rules()
    n = _whole(n, "n (the number of tracks)", 1)
    turns = _whole(turns, "turns", 1)
    stops, start = _check_ring(ring, rules)
    picked = _check_zones(zones, rules)
    if ring_roll not in ("fresh", "chained"):
        raise ValueError(f"ring_roll must be 'fresh' or 'chained'; got {ring_roll!r}")
    inputs, _ = _draw(np.random.default_rng(seed), n, rules, stops, start, picked, turns, ring_roll == "chained")
    return inputs


def run_tracks(inputs: TrackInputs, *, level: int = 1, rules: Rules | None = None) -> TrackBatch:
    """Play given tracks, all at once, and return every track's result.

    >>> inputs = TrackInputs.from_lists([(8, 8), (14, 9)], ["NNW", "E"], [(3, 5), (2, 2)])
    >>> batch = run_tracks(inputs, level=2)
    >>> [FATES[f] for f in batch.fate], int(batch.damage[0, batch.regions.index("Korea")])
    (['survived', 'edge'], 4)
    >>> run_tracks(TrackInputs.from_lists([(8, 8)], ["N"], [(7,)]))
    Traceback (most recent call last):
    ...
    ValueError: dice must be whole numbers 1 to 6; track 0 has [7]
    """
    rules = rules if rules is not None else load_rules()
    level = _whole(level, "level", 1, len(rules.levels), " (the starting intensity, §2)")
    n = len(inputs)
    gmap = rules.map
    for stop in inputs.stops:
        if stop not in rules.points:
            raise ValueError(f"unknown direction {stop!r}; the 16 compass points are {', '.join(rules.points)}")
    if inputs.dice.ndim != 2 or inputs.dice.shape[0] != n or inputs.dice.shape[1] < 1:
        raise ValueError("dice must be an array with one row per track and at least one column (turn)")
    bad = np.flatnonzero(((inputs.dice < 1) | (inputs.dice > DIE_FACES)).any(axis=1))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"dice must be whole numbers 1 to {DIE_FACES}; track {i} has {inputs.dice[i].tolist()}")
    off = np.flatnonzero((inputs.x < 0) | (inputs.x >= gmap.width) | (inputs.y < 0) | (inputs.y >= gmap.height))
    if off.size:
        i = int(off[0])
        raise ValueError(
            f"track {i} spawns on ({int(inputs.x[i])}, {int(inputs.y[i])}), off the {gmap.width} x {gmap.height} map"
        )
    if inputs.direction.min() < 0 or inputs.direction.max() >= len(inputs.stops):
        raise ValueError("every direction index must point into inputs.stops")
    t = _tables(rules, inputs.stops)
    out = _kernel(t, _moves(t), inputs.x, inputs.y, inputs.direction, np.asarray(inputs.dice), level)
    covered = _unpack(out["cover"], t.width * t.height).astype(bool).reshape(n, t.height, t.width)
    return TrackBatch(t.regions, out["damage"], out["hit"], covered, out["life"], out["fate"], out["level"])


def simulate_tracks(
    n: int,
    *,
    seed: int | np.random.Generator | None = None,
    ring: Sequence[str] | None = None,
    zones: Sequence[int] | None = None,
    turns: int = 12,
    level: int = 1,
    rules: Rules | None = None,
    ring_roll: RingRoll = "fresh",
    chunk_size: int = DEFAULT_CHUNK,
    jobs: int = 1,
) -> TrackStats:
    """Simulate ``n`` storm tracks and summarise where they went and whom they hurt.

    ``ring`` replaces the compass ring (any of the 16 compass points, clockwise; the indicator
    starts on the rules' start stop if the ring has it, else on the first stop). ``zones`` picks
    spawn zones by 0-based index into ``rules.map.zones`` (a zone listed twice is drawn twice as
    often). ``level`` is the spawn intensity (1 = tropical depression). Tracks are processed
    ``chunk_size`` at a time, so memory stays small (about 60 MB per chunk of 100 000); the
    same ``seed`` and ``chunk_size`` give the same result. ``jobs`` > 1 runs chunks on that many
    threads (numpy releases the GIL); it changes the speed, never the result.

    >>> default = simulate_tracks(20_000, seed=1)
    >>> west = simulate_tracks(20_000, seed=1, ring=["WSW", "W", "WNW"])
    >>> west.expected_damage["South China"] > default.expected_damage["South China"]
    True
    >>> bool((simulate_tracks(20_000, seed=1).hit_probability == default.hit_probability).all())
    True
    >>> simulate_tracks(0)
    Traceback (most recent call last):
    ...
    ValueError: n (the number of tracks) must be a whole number 1 or more; got 0
    """
    rules = rules if rules is not None else load_rules()
    n = _whole(n, "n (the number of tracks)", 1)
    turns = _whole(turns, "turns", 1)
    level = _whole(level, "level", 1, len(rules.levels), " (the starting intensity, §2)")
    chunk_size = _whole(chunk_size, "chunk_size", 1)
    jobs = _whole(jobs, "jobs (worker threads)", 1)
    stops, start = _check_ring(ring, rules)
    picked = _check_zones(zones, rules)
    if ring_roll not in ("fresh", "chained"):
        raise ValueError(f"ring_roll must be 'fresh' or 'chained'; got {ring_roll!r}")
    rng = np.random.default_rng(seed)
    t = _tables(rules, stops)
    moves = _moves(t)
    cells = t.width * t.height

    def chunks() -> Iterator[TrackInputs]:
        # Drawn here, in order, whatever ``jobs`` is: the same seed gives the same tracks.
        indicator, done = start, 0
        while done < n:
            m = min(chunk_size, n - done)
            inputs, indicator = _draw(rng, m, rules, stops, indicator, picked, turns, ring_roll == "chained")
            done += m
            yield inputs

    def work(inputs: TrackInputs) -> list[np.ndarray]:
        out = _kernel(t, moves, inputs.x, inputs.y, inputs.direction, inputs.dice, level)
        damage = out["damage"].astype(np.int64)
        gone = out["fate"] != _SURVIVED
        return [
            _cover_counts(out["cover"], cells),
            damage.sum(axis=0),
            (damage * damage).sum(axis=0),
            out["hit"].sum(axis=0, dtype=np.int64),
            out["life"].sum(dtype=np.int64, keepdims=True),
            np.bincount(out["fate"], minlength=len(FATES)),
            np.bincount(out["life"][gone], minlength=turns + 1),  # storms removed during turn k
        ]

    totals: list[np.ndarray] | None = None

    def add(sums: list[np.ndarray]) -> None:
        nonlocal totals
        totals = sums if totals is None else [a + b for a, b in zip(totals, sums, strict=True)]

    if jobs == 1:
        for inputs in chunks():
            add(work(inputs))
    else:
        # numpy releases the GIL in the kernel's gathers, so threads share the work; at most
        # 2 x jobs chunks are in flight, which bounds memory.
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            pending: deque[Future[list[np.ndarray]]] = deque()
            for inputs in chunks():
                pending.append(pool.submit(work, inputs))
                if len(pending) >= 2 * jobs:
                    add(pending.popleft().result())
            while pending:
                add(pending.popleft().result())
    assert totals is not None
    covered, dmg_sum, dmg_sq, hit_count, life_sum, fate_count, removed_at = totals

    mean = dmg_sum / n
    # exact integer sums, so the variance is computed without cancellation trouble
    var = (dmg_sq * n - dmg_sum * dmg_sum) / (n * (n - 1)) if n > 1 else np.zeros_like(mean)
    se = np.sqrt(var / n)
    hit_probability = (covered / n).reshape(t.height, t.width)
    alive_fraction = 1.0 - np.cumsum(removed_at) / n
    for array in (hit_probability, alive_fraction):
        array.flags.writeable = False

    def freeze(values: np.ndarray) -> Mapping[str, float]:
        return MappingProxyType({r: float(v) for r, v in zip(t.regions, values, strict=True)})

    return TrackStats(
        n=n,
        turns=turns,
        level=level,
        ring=stops,
        ring_roll=ring_roll,
        zones=picked,
        seed=seed if isinstance(seed, int) else None,
        hit_probability=hit_probability,
        expected_damage=freeze(mean),
        expected_damage_se=freeze(se),
        region_hit_probability=freeze(hit_count / n),
        alive_fraction=alive_fraction,
        mean_lifetime=float(life_sum[0]) / n,
        fate_share=MappingProxyType({f: float(c) / n for f, c in zip(FATES, fate_count, strict=True)}),
    )


# --------------------------------------------------------------------------------------------
# the pure-Python reference: one storm, one step at a time, written from the rules


def track_reference(
    cell: tuple[int, int],
    direction: str,
    dice: Sequence[int],
    *,
    level: int = 1,
    rules: Rules | None = None,
) -> TrackResult:
    """Play ONE storm step by step in plain Python; the yardstick for the vectorised code.

    ``cell`` is the spawn cell ``(x, y)``, ``direction`` a compass point, ``dice`` one face per
    turn. Seed 000's NNW-with-5 path (N N W N N) shows in ``path``:

    >>> r = track_reference((8, 8), "NNW", (3, 5))
    >>> r.path
    ((8, 8), (8, 7), (8, 6), (7, 6), (7, 5), (7, 4), (6, 4), (6, 3), (6, 2))
    >>> r.damage["Korea"], r.fate, r.final_level, r.lifetime
    (2, 'landfall', 0, 2)
    >>> track_reference((8, 8), "NNW", (3, 5), level=2).damage["Korea"]  # 1 hit x 3, +1: still on Korea
    4
    """
    rules = rules if rules is not None else load_rules()
    level = _whole(level, "level", 1, len(rules.levels), " (the starting intensity, §2)")
    gmap = rules.map
    x, y = cell
    if not gmap.on_map(x, y):
        raise ValueError(f"the spawn cell ({x}, {y}) is off the {gmap.width} x {gmap.height} map")
    if direction not in rules.points:
        raise ValueError(f"unknown direction {direction!r}; the 16 compass points are {', '.join(rules.points)}")
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= DIE_FACES:
            raise ValueError(f"dice must be whole numbers 1 to {DIE_FACES}; got {list(dice)}")
    owner = {c: key for key, region in rules.regions.items() for c in region.cells}
    cycle = rules.points[direction].cycle
    damage = dict.fromkeys(rules.regions, 0)
    hit_regions: set[str] = set()
    covered = set(_footprint(rules, level, x, y))
    path = [(x, y)]
    fate, lifetime = "survived", 0
    for face in dice:
        lifetime += 1
        hits = dict.fromkeys(rules.regions, 0)
        entered_land = False
        left_map = False
        for i in range(face):  # the cycle restarts at its first letter on every move (§4)
            sx, sy = ORTHOGONAL[cycle[i % len(cycle)]]
            if not gmap.on_map(x + sx, y + sy):
                left_map = True  # removed at this step; the rest of the move does nothing (§7)
                break
            x, y = x + sx, y + sy
            path.append((x, y))
            for c in _footprint(rules, level, x, y):
                covered.add(c)
                if c in owner:
                    hits[owner[c]] += 1
            entered_land = entered_land or gmap.is_land(x, y)
        for key, count in hits.items():  # (a) each step's hits at the level of this move
            damage[key] += count * rules.level(level).damage
            if count:
                hit_regions.add(key)
        if left_map:
            fate = "edge"
            break
        if entered_land:  # (b) landfall
            if level == 1:
                fate, level = "landfall", 0
                break
            level -= 1
        end_regions = {owner[c] for c in _footprint(rules, level, x, y) if c in owner}  # after (b)
        for key, count in hits.items():  # (c) +1: still on a region it hit, and still alive
            if count and key in end_regions:
                damage[key] += 1
    capped = {key: min(v, rules.regions[key].hp) for key, v in damage.items()}
    return TrackResult(
        damage=capped,
        hit_regions=frozenset(hit_regions),
        covered=frozenset(covered),
        lifetime=lifetime,
        fate=fate,
        final_level=level,
        path=tuple(path),
    )
