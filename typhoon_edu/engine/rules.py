"""Edition data (map, compass, levels, regions, abilities, cards) loaded into an immutable ``Rules``.

All game content lives in TOML files in ``typhoon_edu/data/``; a teacher who owns the physical
game can copy that folder, change it, and pass the copy to :func:`load_rules`. Every file is
checked, and a broken file raises :class:`RulesDataError` naming the file, the entry and the
rule that was broken.

>>> rules = load_rules()
>>> rules.ring
('N', 'NNE', 'NE', 'E', 'WSW', 'WNW', 'NNW')
>>> rules.regions["Taiwan"].hp, len(rules.regions["Taiwan"].cells)
(42, 3)
>>> sum(card.count for card in rules.cards.values())
54
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
DATA_FILES = ("map.toml", "compass.toml", "levels.toml", "regions.toml", "cards.toml")
DECK_SIZE = 54
MAX_TYPHOONS = 8
HP_MIN, HP_MAX = 25, 60  # a region's starting (= maximum) HP, set by balance (docs/rules.md §1, §12)
MIN_TYPHOONS = 3
ORTHOGONAL = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
FOOTPRINT_SHAPES: Mapping[str, tuple[tuple[int, int], ...]] = MappingProxyType(
    {
        "eye": ((0, 0),),
        "plus": ((0, 0), (0, -1), (1, 0), (0, 1), (-1, 0)),
        "square": tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)),
    }
)

MAX_LEVEL = 5  # the top intensity level (levels.toml lists levels 1 to 5)
COMPASS_POINTS = 16  # compass.toml has 16 points
SHIPPED_RING_STOPS = 7  # the shipped edition's ring (compass.toml [ring] stops), as the loader's messages count it


class Param(NamedTuple):
    """One parameter of an effect: what kind of value it takes and which values are allowed.

    ``kind`` is ``"int"`` (a whole number from ``low`` to ``high``, 0 left out if ``nonzero``),
    ``"direction"`` (a point of compass.toml) or ``"choices"`` (``"ring"`` or ``"all"``).

    >>> Param("int", -5, 5, nonzero=True).allowed()
    'a whole number from -5 to 5 other than 0'
    >>> Param("int", 1).allowed(), Param("choices").allowed()
    ('a whole number, at least 1', "'ring' (the 7 ring stops) or 'all' (16 points)")
    >>> Param("int", -5, 5, nonzero=True).allowed("zh-TW"), Param("int", 1).allowed("zh-TW")
    ('-5 到 5 的整數（0 除外）', '至少 1 的整數')
    """

    kind: str = "int"
    low: int | None = None
    high: int | None = None
    nonzero: bool = False

    def allowed(self, lang: str = "en", rules: Rules | None = None) -> str:
        """What this parameter may be, in words, in ``lang`` (the texts ``error.rules.param.*`` of the catalogs).

        Without ``rules`` these are the loader's words (a choice counts the shipped edition's ring stops); with
        ``rules``, a compass point lists that edition's points and a choice counts its ring and its points, as
        the card reference (docs/cards.md) shows them.

        >>> rules = load_rules()
        >>> Param("choices").allowed("zh-TW", rules)
        "'ring'（方位羅盤的 7 個方位格）或 'all'（全部 16 個方位）"
        >>> Param("direction").allowed(), Param("direction").allowed("zh-TW", rules)[:26]
        ('a compass point of compass.toml', 'compass.toml 裡的方位：N、NNE、NE')
        """
        from ..i18n import t  # read only when words are wanted: loading an edition that is right needs none

        key = "error.rules.param."
        if self.kind == "direction":
            if rules is None:
                return t(key + "direction", lang)
            return t(key + "direction_points", lang, points=t("lang.list_sep", lang).join(rules.points))
        if self.kind == "choices":
            ring, points = (len(rules.ring), len(rules.points)) if rules is not None else (SHIPPED_RING_STOPS,
                                                                                           COMPASS_POINTS)
            return t(key + "choices", lang, ring=ring, points=points)
        if self.kind != "int":
            raise ValueError(f"there are no words for a parameter of kind {self.kind!r}; add them to Param.allowed "
                             "(typhoon_edu/engine/rules.py) and to [error.rules.param] of both errors catalogs, "
                             "next to 'int', 'direction' and 'choices'")
        if self.low is not None and self.high is not None:
            name = "int_range"
        elif self.low is not None:
            name = "int_min"
        else:  # pragma: no cover - every whole-number parameter has a lower end
            name = "int"
        return t(key + name + ("_nonzero" if self.nonzero else ""), lang, low=self.low, high=self.high)


class EffectKind(NamedTuple):
    """An effect kind: its parameters (name -> :class:`Param`), the target it acts on, when it is
    played (``"attack"`` or ``"counter"``) and whether a function card may have it (``False``: region
    abilities only)."""

    params: Mapping[str, Param]
    target: str
    timing: str = "attack"
    cards: bool = True


def _kind(target: str, timing: str = "attack", cards: bool = True, **params: Param) -> EffectKind:
    return EffectKind(MappingProxyType(params), target, timing, cards)


_LEVEL_CHANGE = Param("int", -MAX_LEVEL, MAX_LEVEL, nonzero=True)  # -5 removes even a level 5 storm
_LEVELS_LOST = Param("int", 1, MAX_LEVEL)

# Effect kinds the engine knows: each one's parameters (all required, each with its allowed values),
# the target it acts on, its timing and whether cards may use it. An effect with another parameter,
# a missing one or a value outside its range is refused when the edition is loaded.
EFFECT_KINDS: Mapping[str, EffectKind] = MappingProxyType(
    {
        "level": _kind("typhoon", delta=_LEVEL_CHANGE),
        "add_depression": _kind("zone_cell"),
        "remove": _kind("typhoon", max_level=Param("int", 1, MAX_LEVEL)),
        "steer": _kind("typhoon", choices=Param("choices")),
        "hold": _kind("typhoon"),
        "roll": _kind("typhoon", delta=Param("int", -5, 5, nonzero=True), min=Param("int", 1, 6)),
        "heal": _kind("none", amount=Param("int", 1, HP_MAX)),
        "push": _kind("typhoon", cards=False, direction=Param("direction"), cells=Param("int", 1)),
        "level_all": _kind("none", cards=False, delta=_LEVEL_CHANGE),
        "cancel_damage": _kind("none", "counter"),
        "halve_damage": _kind("none", "counter"),
        "turn_away": _kind("none", "counter", choices=Param("choices")),
        "weaken": _kind("none", "counter", delta=_LEVELS_LOST),
        "shield_weaken": _kind("none", cards=False, delta=_LEVELS_LOST),
        "shield_halve": _kind("none", cards=False),
        "shield_cancel_first": _kind("none", cards=False),
    }
)
COUNTER_KINDS = frozenset(k for k, v in EFFECT_KINDS.items() if v.timing == "counter")
TIMINGS = ("attack", "counter")


class IllegalActionError(ValueError):
    """An action that the rules do not allow now; the game state is left unchanged.

    ``kind`` names the case for translated messages (``typhoon_edu.i18n.error_text``); the
    English text is the exception's message.
    """

    def __init__(self, message: str, *, kind: str = "") -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), str(self), self.kind))


class SaveFileError(ValueError):
    """A save file that cannot be loaded: not JSON, a foreign format, tampered or inconsistent.

    ``kind`` is one of ``unreadable``, ``not_json``, ``too_large``, ``too_deep``, ``foreign``,
    ``version``, ``rules``, ``damaged``, ``session``, ``replay``, ``forged_dice``, ``tampered``
    (for translated messages, ``error.save.<kind>`` in the catalogs).
    """

    def __init__(self, message: str, *, kind: str = "damaged") -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), str(self), self.kind))


def _rebuild(cls: type, message: str, kind: str) -> ValueError:
    return cls(message, kind=kind)


class GameInputError(ValueError):
    """A value the engine does not accept: an unknown region, a wrong number of players, an unknown
    variant or dice mode, a seed out of range, a region that is not playing.

    ``kind`` names the case and ``fields`` fill its placeholders, so an interface can tell it in
    any language (``error.input.<kind>`` in the catalogs); the English text is the message.

    >>> exc = GameInputError("unknown region 'Atlantis'", kind="unknown_region", name="Atlantis")
    >>> exc.kind, exc.fields, isinstance(exc, ValueError)
    ('unknown_region', {'name': 'Atlantis'}, True)
    """

    catalog_group = "input"

    def __init__(self, message: str, *, kind: str = "", **fields: object) -> None:
        super().__init__(message)
        self.kind = kind
        self.fields = fields

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_input, (type(self), str(self), self.kind, self.fields))


def _rebuild_input(cls: type, message: str, kind: str, fields: dict[str, object]) -> ValueError:
    return cls(message, kind=kind, **fields)


class RulesDataError(ValueError):
    """A data file of the edition breaks one of the rules the engine needs."""

    def __init__(self, file: str, entry: str, rule: str) -> None:
        super().__init__(f"{file}: {entry}: {rule}")
        self.file, self.entry, self.rule = file, entry, rule

    def __reduce__(self) -> tuple[type, tuple[str, str, str]]:  # picklable across processes
        return (type(self), (self.file, self.entry, self.rule))


@dataclass(frozen=True)
class Effect:
    """What a card or ability does: a ``kind`` and its parameters (see ``EFFECT_KINDS``)."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        return self.params.get(name, default)


@dataclass(frozen=True)
class CompassPoint:
    key: str
    name_en: str
    name_zh: str
    cycle: tuple[str, ...]


@dataclass(frozen=True)
class Level:
    level: int
    name_en: str
    name_zh: str
    damage: int
    footprint: str


@dataclass(frozen=True)
class Zone:
    index: int
    mark: str
    name_en: str
    name_zh: str
    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Ability:
    key: str
    region: str
    name_en: str
    name_zh: str
    effect: Effect
    target: str
    text_en: str
    text_zh: str
    basis_en: str
    basis_zh: str


@dataclass(frozen=True)
class Region:
    key: str
    mark: str
    name: str
    name_zh: str
    colour: str
    hex: str
    pattern: str
    size: int
    hp: int
    cells: tuple[tuple[int, int], ...]
    ability: Ability


@dataclass(frozen=True)
class Restricted:
    regions: tuple[str, ...]
    effect: Effect
    text_en: str
    text_zh: str


@dataclass(frozen=True)
class Card:
    key: str
    name_en: str
    name_zh: str
    count: int
    timing: str
    target: str
    effect: Effect
    text_en: str
    text_zh: str
    restricted: Restricted | None = None

    def effect_for(self, region: str) -> Effect:
        """The effect this card has when played by ``region`` (限定效能 if it applies)."""
        if self.restricted is not None and region in self.restricted.regions:
            return self.restricted.effect
        return self.effect


@dataclass(frozen=True)
class MapData:
    name: str
    width: int
    height: int
    rows: tuple[str, ...]
    zones: tuple[Zone, ...]
    geo: Mapping[str, float]

    def is_land(self, x: int, y: int) -> bool:
        return self.rows[y][x] not in "~0123456789"

    def on_map(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height


@dataclass(frozen=True)
class Rules:
    """The whole edition, immutable. Build it with :func:`load_rules`.

    **Region keys** are the regions' English names (``"Taiwan"``, ``"Central China"``,
    ``"South China"``): one spelling that the engine gives out everywhere (``players``, ``hp``,
    ``winners``, ``current_player``, events, save files, ``GameResult``). On input
    (:meth:`region_key`, so ``Game.new``, scenarios, save files and the command line) a region
    may also be named in Chinese (``"中國華中"``), in any case, with or without spaces, hyphens
    or underscores, so the old keys ``"CentralChina"`` and ``"SouthChina"`` are still read.

    >>> rules = load_rules()
    >>> list(rules.regions)
    ['Taiwan', 'Philippines', 'Korea', 'Central China', 'South China', 'Japan']
    >>> [rules.region_key(n) for n in ("CentralChina", "south_china", "中國華南", "japan")]
    ['Central China', 'South China', 'South China', 'Japan']
    """

    edition: str
    digest: str
    map: MapData
    ring: tuple[str, ...]
    ring_start: str
    edition_stops: tuple[str, ...]
    points: Mapping[str, CompassPoint]
    levels: tuple[Level, ...]
    regions: Mapping[str, Region]
    cards: Mapping[str, Card]

    def accepts(self, digest: str) -> bool:
        """Whether a save or a room that records the rules ``digest`` was played with these rules.

        The digest is of what the data files say about play, their prose left out (:func:`data_digest`).
        A digest of an earlier definition is accepted only for the rules it was computed from: for an
        edition loaded from files, the digest of its files' bytes (before 0.1.0) and of their whole text,
        prose included (0.1.0, until prose left the digest); and the digests in :data:`FORMER_DIGESTS`,
        which the package's own files had before their prose or layout changed.

        >>> rules = load_rules()
        >>> rules.accepts(rules.digest), rules.accepts("0000")
        (True, False)
        >>> rules.accepts("847cb17671e4ccc1")  # saves and rooms made before the Taiwan note was corrected
        True
        """
        return (digest == self.digest or digest in _LOADED_DIGESTS.get(self.digest, ())
                or FORMER_DIGESTS.get(digest) == self.digest)

    @property
    def abilities(self) -> Mapping[str, Ability]:
        return MappingProxyType({key: r.ability for key, r in self.regions.items()})

    def level(self, n: int) -> Level:
        return self.levels[n - 1]

    def region_key(self, name: str) -> str:
        """Resolve a region given by key, English or Chinese name (any case; spaces, ``-`` and ``_`` ignored).

        The result is the region's key, its English name; old keys such as ``"CentralChina"`` are
        accepted. An unknown name raises :class:`GameInputError` (kind ``unknown_region``).

        >>> load_rules().region_key("central china"), load_rules().region_key("CentralChina")
        ('Central China', 'Central China')
        >>> load_rules().region_key("台灣"), load_rules().region_key("臺灣")
        ('Taiwan', 'Taiwan')
        """
        if not isinstance(name, str):
            raise GameInputError(f"a region is named by text, not {type(name).__name__} {name!r:.40}",
                                 kind="unknown_region", name=f"{name!r:.40}")
        if name in self.regions:  # a key, as written (every new game's players): no folding needed
            return name
        wanted = _folded(name)
        for region in self.regions.values():
            if wanted in (_folded(region.key), _folded(region.name_zh)):
                return region.key
        allowed = ", ".join(self.regions)
        shown = name if len(name) <= 40 else name[:40] + "…"
        raise GameInputError(f"unknown region {shown!r}; the regions are: {allowed}", kind="unknown_region",
                             name=shown)


def _need(data: Mapping[str, Any], key: str, kind: type, file: str, entry: str) -> Any:
    if key not in data:
        raise RulesDataError(file, entry, f"the field '{key}' is missing")
    value = data[key]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise RulesDataError(file, entry, f"'{key}' must be {_TYPE_WORDS.get(kind, kind.__name__)}, not {_given(value)}")
    if kind is str and not value.strip():
        raise RulesDataError(file, entry, f"'{key}' must not be empty")
    return value


_TYPE_WORDS: Mapping[type, str] = MappingProxyType(
    {int: "a whole number", str: "text in quotes", list: "a list in [ ]", dict: "a table"})


def _given(value: Any) -> str:
    """``value`` as a data file wrote it, with a hint when its type is a likely slip.

    >>> _given("1"), _given(1.0), _given(True)
    ("'1' (text: write the number without quotes)", '1.0 (a decimal number)', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = repr(value) if len(value) <= 40 else repr(value[:40] + "…")
        try:
            float(value)
        except ValueError:
            return shown
        return f"{shown} (text: write the number without quotes)"
    if isinstance(value, float):
        return f"{value!r} (a decimal number)"
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:60] + "…"


def _unknown_keys(raw: Mapping[str, Any], known: tuple[str, ...], file: str, entry: str, owner: str, noun: str) -> None:
    """Refuse a key of ``raw`` that is not in ``known``: a misspelt or foreign field would be ignored silently."""
    for key in raw:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise RulesDataError(file, entry, f"{owner} has no {noun} {key!r}{hint}; its {noun}s are: {', '.join(known)}")


def _tables(data: Mapping[str, Any], key: str, file: str, noun: str) -> list[dict[str, Any]]:
    """The ``[[key]]`` tables of a file (none if it has no ``key``), each one checked to be a table.

    >>> _tables({"levels": [{"level": 1}]}, "levels", "levels.toml", "level")
    [{'level': 1}]
    >>> _tables({"levels": [1]}, "levels", "levels.toml", "level")
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.RulesDataError: levels.toml: level #1: each level is a [[levels]] table, not 1
    """
    value = data.get(key, [])
    if not isinstance(value, list):
        raise RulesDataError(file, key, f"'{key}' must be a list of [[{key}]] tables, not {_given(value)}")
    for i, raw in enumerate(value):
        if not isinstance(raw, dict):
            raise RulesDataError(file, f"{noun} #{i + 1}", f"each {noun} is a [[{key}]] table, not {_given(raw)}")
    return value


def _read(folder: Path, name: str) -> tuple[dict[str, Any], bytes]:
    path = folder / name
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RulesDataError(name, "file", f"cannot be read ({exc.strerror})") from exc
    try:
        return tomllib.loads(raw.decode("utf-8")), raw
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RulesDataError(name, "file", f"is not valid UTF-8 TOML ({exc})") from exc


def _load_compass(data: dict[str, Any]) -> tuple[dict[str, CompassPoint], tuple[str, ...], str, tuple[str, ...]]:
    file = "compass.toml"
    points: dict[str, CompassPoint] = {}
    for i, raw in enumerate(_tables(data, "points", file, "point")):
        entry = f"point #{i + 1}"
        key = _need(raw, "key", str, file, entry)
        entry = f"point {key}"
        cycle = tuple(_need(raw, "cycle", list, file, entry))
        if not cycle or any(not isinstance(step, str) or step not in ORTHOGONAL for step in cycle):
            raise RulesDataError(file, entry, f"a step cycle is made of N, E, S, W; got {_given(list(cycle))}")
        points[key] = CompassPoint(
            key, _need(raw, "name_en", str, file, entry), _need(raw, "name_zh", str, file, entry), cycle
        )
    if len(points) != COMPASS_POINTS:
        raise RulesDataError(file, "points", f"the compass has {COMPASS_POINTS} points; found {len(points)}")
    ring_data = _need(data, "ring", dict, file, "ring")
    ring = tuple(_need(ring_data, "stops", list, file, "ring"))
    for stop in ring:
        if not isinstance(stop, str) or stop not in points:
            raise RulesDataError(file, "ring", f"unknown direction {_given(stop)}; known: {', '.join(points)}")
    if len(ring) < 2 or len(set(ring)) != len(ring):
        raise RulesDataError(file, "ring", "the ring needs at least 2 different stops, each once")
    start = _need(ring_data, "start", str, file, "ring")
    if start not in ring:
        raise RulesDataError(file, "ring", f"the start {start!r} is not a stop of the ring")
    edition_stops = tuple(_need(ring_data, "edition_stops", list, file, "ring") if "edition_stops" in ring_data else ())
    for stop in edition_stops:
        if not isinstance(stop, str) or stop not in ring:
            raise RulesDataError(file, "ring", f"'edition_stops' lists stops of the ring ({', '.join(ring)}); "
                                               f"got {_given(stop)}")
    return points, ring, start, edition_stops


def _load_levels(data: dict[str, Any]) -> tuple[Level, ...]:
    file = "levels.toml"
    levels = []
    for i, raw in enumerate(_tables(data, "levels", file, "level")):
        entry = f"level #{i + 1}"
        n = _need(raw, "level", int, file, entry)
        if n != i + 1:
            raise RulesDataError(file, entry, f"levels must be listed 1 to 5 in order; found level {n}")
        shape = _need(raw, "footprint", str, file, entry)
        if shape not in FOOTPRINT_SHAPES:
            raise RulesDataError(file, entry, f"unknown footprint {shape!r}; allowed: {', '.join(FOOTPRINT_SHAPES)}")
        dmg = _need(raw, "damage", int, file, entry)
        if dmg < 0:
            raise RulesDataError(file, entry, "damage per cell cannot be negative")
        levels.append(Level(n, _need(raw, "name_en", str, file, entry), _need(raw, "name_zh", str, file, entry), dmg, shape))
    if len(levels) != 5:
        raise RulesDataError(file, "levels", f"there are 5 intensity levels; found {len(levels)}")
    return tuple(levels)


def _load_map(data: dict[str, Any], region_marks: set[str]) -> MapData:
    file = "map.toml"
    rows = tuple(_need(data, "rows", list, file, "rows"))
    if not rows or any(not isinstance(r, str) for r in rows):
        raise RulesDataError(file, "rows", "the map is a list of text rows")
    width = len(rows[0])
    for y, row in enumerate(rows):
        if len(row) != width:
            raise RulesDataError(file, f"row y={y}", f"every row must have {width} cells like row 0; it has {len(row)}")
        for x, ch in enumerate(row):
            if ch not in "~#0123456789" and ch not in region_marks:
                raise RulesDataError(file, f"cell ({x}, {y})", f"unknown mark {ch!r}; use ~ (sea), # (land), a digit "
                                                               "(zone) or a region letter of regions.toml "
                                                               f"({', '.join(sorted(region_marks))})")
    zones = []
    for i, raw in enumerate(_tables(data, "zones", file, "zone")):
        entry = f"zone {i + 1}"
        cells = []
        for cell in _need(raw, "cells", list, file, entry):
            if not (isinstance(cell, list) and len(cell) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in cell)):
                raise RulesDataError(file, entry, f"a cell is [x, y], two whole numbers; got {_given(cell)}")
            x, y = cell
            if not (0 <= x < width and 0 <= y < len(rows)):
                raise RulesDataError(file, entry, f"cell ({x}, {y}) is off the {width} x {len(rows)} map")
            if rows[y][x] not in "~0123456789":
                raise RulesDataError(file, entry, f"cell ({x}, {y}) is on land; a generation zone must be sea")
            cells.append((x, y))
        if not cells:
            raise RulesDataError(file, entry, "a generation zone needs at least one cell")
        mark = raw.get("mark", i + 1)
        if isinstance(mark, bool) or not isinstance(mark, (str, int)):
            raise RulesDataError(file, entry, f"'mark' is the zone's digit on the map, text in quotes such as "
                                              f"\"{i + 1}\"; not {_given(mark)}")
        zones.append(Zone(i, str(mark), _need(raw, "name_en", str, file, entry), _need(raw, "name_zh", str, file, entry), tuple(cells)))
    if len(zones) < 1:
        raise RulesDataError(file, "zones", "the map needs generation zones")
    seen: dict[tuple[int, int], int] = {}
    for zone in zones:
        for cell in zone.cells:
            if cell in seen:
                raise RulesDataError(file, f"zone {zone.index + 1}", f"cell {cell} is also in zone {seen[cell] + 1}")
            seen[cell] = zone.index
    geo = _load_geo(data, width, len(rows))
    return MapData(_need(data, "name", str, file, "name"), width, len(rows), rows, tuple(zones), geo)


#: The fields of map.toml's [geo] that the lessons read: a cell (x, y) lies at longitude lon0 + lon_step * x (degrees
#: east) and latitude lat0 - lat_step * y (degrees north), and measures km_per_cell km.
GEO_FIELDS = ("lon0", "lon_step", "lat0", "lat_step", "km_per_cell")
LAT_RANGE = (-90.0, 90.0)
LON_RANGE = (-180.0, 360.0)  # degrees east: -180 to 180, or 0 to 360 as the best-track files write the Pacific


def _load_geo(data: Mapping[str, Any], width: int, height: int) -> Mapping[str, float]:
    """Check map.toml's [geo]: finite numbers, the fields the lessons read, and every cell's centre on the globe.

    >>> dict(_load_geo({"geo": {"lon0": 103.0, "lon_step": 3.5, "lat0": 43.0, "lat_step": 3.3, "km_per_cell": 360}}, 16, 12))
    {'lon0': 103.0, 'lon_step': 3.5, 'lat0': 43.0, 'lat_step': 3.3, 'km_per_cell': 360}
    >>> _load_geo({"geo": {"lon0": 103.0, "lon_step": 3.5, "lat0": 43.0, "lat_stpe": 3.3}}, 16, 12)
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.RulesDataError: map.toml: geo: [geo] has no lat_step or km_per_cell (is 'lat_stpe' meant to be 'lat_step'?); the lessons need lon0, lon_step, lat0, lat_step and km_per_cell: a cell (x, y) lies at longitude lon0 + lon_step * x and latitude lat0 - lat_step * y, and measures km_per_cell km
    """
    file, entry = "map.toml", "geo"
    if "geo" not in data:
        raise RulesDataError(file, entry, f"the table [geo] is missing; the lessons need {_GEO_NEED}")
    geo = _need(data, "geo", dict, file, entry)
    for key, value in geo.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RulesDataError(file, entry, f"'{key}' must be a number, not {_given(value)}")
        if not math.isfinite(value):
            raise RulesDataError(file, entry, f"'{key}' must be a finite number, not {value!r} (a position or a "
                                              "distance is never nan or inf)")
    missing = [key for key in GEO_FIELDS if key not in geo]
    if missing:
        extra = [str(key) for key in geo if key not in GEO_FIELDS]
        hints = [f"is {key!r} meant to be {close[0]!r}?" for key in extra
                 if (close := difflib.get_close_matches(key, missing, n=1, cutoff=0.6))]
        hint = f" ({'; '.join(hints)})" if hints else ""
        named = " or ".join(missing) if len(missing) <= 2 else ", ".join(missing[:-1]) + " or " + missing[-1]
        raise RulesDataError(file, entry, f"[geo] has no {named}{hint}; the lessons need {_GEO_NEED}")
    for key in ("lon_step", "lat_step", "km_per_cell"):
        if geo[key] <= 0:
            raise RulesDataError(file, entry, f"'{key}' must be more than 0; got {geo[key]!r}")
    km = geo["km_per_cell"]
    if km < 1 or km != int(km):
        raise RulesDataError(file, entry, f"'km_per_cell' is a whole number of kilometres, at least 1 (the lessons "
                                          f"show the scale in whole km); got {km!r}")
    south = geo["lat0"] - geo["lat_step"] * (height - 1)
    east = geo["lon0"] + geo["lon_step"] * (width - 1)
    for what, value, (low, high) in (("lat0", geo["lat0"], LAT_RANGE), ("lon0", geo["lon0"], LON_RANGE)):
        if not low <= value <= high:
            raise RulesDataError(file, entry, f"'{what}' must be from {low:g} to {high:g} (degrees "
                                              f"{'north' if what == 'lat0' else 'east'}); got {value!r}")
    if south < LAT_RANGE[0]:
        raise RulesDataError(file, entry, f"the last row (y = {height - 1}) would lie at latitude lat0 - lat_step * "
                                          f"{height - 1} = {south:g}, south of -90: lower 'lat_step' or raise 'lat0'")
    if east > LON_RANGE[1]:
        raise RulesDataError(file, entry, f"the last column (x = {width - 1}) would lie at longitude lon0 + lon_step * "
                                          f"{width - 1} = {east:g}, east of 360: lower 'lon_step' or 'lon0'")
    return MappingProxyType(dict(geo))


_GEO_NEED = (f"{', '.join(GEO_FIELDS[:-1])} and {GEO_FIELDS[-1]}: a cell (x, y) lies at longitude lon0 + lon_step * x "
             "and latitude lat0 - lat_step * y, and measures km_per_cell km")


def _effect(raw: Any, file: str, entry: str, points: Mapping[str, CompassPoint], owner: str = "card") -> Effect:
    """Check an effect table of a card (``owner="card"``) or of a region ability (``"ability"``)."""
    if not isinstance(raw, dict) or "kind" not in raw:
        raise RulesDataError(file, entry, "has no effect (an effect needs a 'kind')")
    kind = raw["kind"]
    if not isinstance(kind, str) or kind not in EFFECT_KINDS:
        close = difflib.get_close_matches(str(kind), list(EFFECT_KINDS), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RulesDataError(file, entry, f"unknown effect kind {_given(kind)}{hint}; known: {_kinds_for(owner)}"
                                          + (" (counter effects are for cards only)" if owner == "ability" else ""))
    spec = EFFECT_KINDS[kind]
    _unknown_keys(raw, ("kind", *spec.params), file, entry, f"the effect {kind!r}", "parameter")
    for name, param in spec.params.items():
        if name not in raw:
            raise RulesDataError(file, entry, f"the effect {kind!r} needs the parameter '{name}' ({param.allowed()})")
        value = raw[name]
        if param.kind == "direction":
            ok = isinstance(value, str) and value in points
        elif param.kind == "choices":
            ok = isinstance(value, str) and value in ("ring", "all")
        else:
            ok = (isinstance(value, int) and not isinstance(value, bool)
                  and (param.low is None or value >= param.low) and (param.high is None or value <= param.high)
                  and not (param.nonzero and value == 0))
        if not ok:
            allowed = f"a compass point: {', '.join(points)}" if param.kind == "direction" else param.allowed()
            raise RulesDataError(file, entry, f"the effect {kind!r}: '{name}' must be {allowed}; got {_given(value)}")
    params = {k: v for k, v in raw.items() if k != "kind"}
    return Effect(kind, MappingProxyType(params))


def _kinds_for(owner: str, timing: str | None = None) -> str:
    """The effect kinds a region ability (``owner="ability"``) or a card (of ``timing``, or of any) may have.

    >>> _kinds_for("card", "counter")
    'cancel_damage, halve_damage, turn_away, weaken'
    """
    if owner == "ability":
        return ", ".join(k for k, v in EFFECT_KINDS.items() if v.timing == "attack")
    if timing is not None:
        return ", ".join(k for k, v in EFFECT_KINDS.items() if v.cards and v.timing == timing)
    return "; ".join([*(f"for {t} cards: {_kinds_for('card', t)}" for t in TIMINGS),
                      "for region abilities only: " + ", ".join(k for k, v in EFFECT_KINDS.items() if not v.cards)])


def _load_regions(data: dict[str, Any], rows: tuple[str, ...], points: Mapping[str, CompassPoint]) -> dict[str, Region]:
    file = "regions.toml"
    raw_regions: dict[str, dict[str, Any]] = {}
    for i, raw in enumerate(_tables(data, "regions", file, "region")):
        key = _need(raw, "key", str, file, f"region #{i + 1}")
        if key in raw_regions:
            raise RulesDataError(file, f"region {key}", "two regions have this key")
        raw_regions[key] = raw
    abilities: dict[str, Ability] = {}
    for i, raw in enumerate(_tables(data, "abilities", file, "ability")):
        entry = f"ability #{i + 1}"
        region = _need(raw, "region", str, file, entry)
        key = _need(raw, "key", str, file, entry)
        entry = f"ability {key}"
        if region not in raw_regions:
            raise RulesDataError(file, entry, f"is for the unknown region {region!r}; regions: {', '.join(raw_regions)}")
        if region in abilities:
            raise RulesDataError(file, entry, f"region {region} already has an ability; each region card has one")
        _unknown_keys(raw, ABILITY_FIELDS, file, entry, "a region ability", "field")
        effect = _effect(raw.get("effect"), file, entry, points, owner="ability")
        if effect.kind in COUNTER_KINDS:
            raise RulesDataError(file, entry, "a region ability is played in the attack phase; it cannot be a counter "
                                              f"effect; an ability's effect is one of: {_kinds_for('ability')}")
        target = raw.get("target", EFFECT_KINDS[effect.kind].target)
        if target != EFFECT_KINDS[effect.kind].target:
            raise RulesDataError(file, entry, f"the effect {effect.kind!r} needs target "
                                              f"{EFFECT_KINDS[effect.kind].target!r}, not {_given(target)}")
        abilities[region] = Ability(
            key, region, *(_need(raw, f, str, file, entry) for f in ("name_en", "name_zh")), effect, target,
            *(_need(raw, f, str, file, entry) for f in ("text_en", "text_zh", "basis_en", "basis_zh")),
        )
    regions: dict[str, Region] = {}
    for key, raw in raw_regions.items():
        entry = f"region {key}"
        mark = _need(raw, "mark", str, file, entry)
        size = _need(raw, "size", int, file, entry)
        hp = _need(raw, "hp", int, file, entry)
        cells = tuple((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == mark)
        if len(cells) != size:
            raise RulesDataError(file, entry, f"its size is {size} but the map has {len(cells)} cells marked {mark!r}")
        if not HP_MIN <= hp <= HP_MAX:
            raise RulesDataError(file, entry, f"HP (starting = maximum HP) must be a whole number from {HP_MIN} to "
                                              f"{HP_MAX} (docs/rules.md §12); found {hp}")
        if key not in abilities:
            raise RulesDataError(file, entry, "has no ability; every region card has one")
        pattern = _need(raw, "pattern", str, file, entry) if "pattern" in raw else "plain"
        regions[key] = Region(
            key, mark, _need(raw, "name_en", str, file, entry), _need(raw, "name_zh", str, file, entry),
            _need(raw, "colour", str, file, entry), _need(raw, "hex", str, file, entry),
            pattern, size, hp, cells, abilities[key],
        )
    if len(regions) < 3:
        raise RulesDataError(file, "regions", f"the game needs at least 3 regions; found {len(regions)}")
    _check_region_names(regions)
    return regions


def _region_marks(data: dict[str, Any]) -> set[str]:
    """The regions' letters on the map (read before the map, which is checked against them)."""
    file = "regions.toml"
    raw_regions = _tables(data, "regions", file, "region")
    if len(raw_regions) < 3:
        raise RulesDataError(file, "regions", f"the game needs at least 3 regions; found {len(raw_regions)}")
    marks: dict[str, str] = {}
    for i, raw in enumerate(raw_regions):
        entry = f"region {raw['key']}" if isinstance(raw.get("key"), str) else f"region #{i + 1}"
        mark = _need(raw, "mark", str, file, entry)
        if len(mark) != 1 or mark in "~#0123456789":
            raise RulesDataError(file, entry, f"'mark' is the region's letter on the map, one character other than "
                                              f"~, # and the digits; got {_given(mark)}")
        if mark in marks:
            raise RulesDataError(file, entry, f"the mark {mark!r} is also the mark of {marks[mark]}; each region has "
                                              "its own letter")
        marks[mark] = entry
    return set(marks)


def _folded(name: str) -> str:
    # 台 is the everyday form of 臺 (the edition writes 臺灣, as the school books do): both are accepted
    return name.replace(" ", "").replace("-", "").replace("_", "").replace("台", "臺").lower()


def _check_region_names(regions: Mapping[str, Region]) -> None:
    """One spelling in and out: a region's key is its English name, and no two regions' names look alike."""
    file = "regions.toml"
    seen: dict[str, str] = {}
    for key, region in regions.items():
        entry = f"region {key}"
        if key != region.name:
            raise RulesDataError(file, entry, f"the key must be the region's English name {region.name!r}, "
                                              "the one spelling the engine gives out")
        if "," in key or key != key.strip():
            raise RulesDataError(file, entry, "a region key has no commas and no spaces at its ends "
                                              "(the command line lists regions with commas)")
        for name in (key, region.name_zh):
            other = seen.setdefault(_folded(name), key)
            if other != key:
                raise RulesDataError(file, entry, f"its name {name!r} reads the same as a name of {other}")


#: The fields a card, its restricted effect and a region ability may have (any other is refused).
CARD_FIELDS = ("key", "name_en", "name_zh", "count", "timing", "target", "effect", "text_en", "text_zh", "restricted")
RESTRICTED_FIELDS = ("regions", "effect", "text_en", "text_zh")
ABILITY_FIELDS = ("region", "key", "name_en", "name_zh", "effect", "target", "text_en", "text_zh", "basis_en", "basis_zh")


def _check_card_key_case(key: str, cards: Mapping[str, Card], file: str, entry: str) -> None:
    """Refuse a card key with capital letters: keys are matched exactly, and capitalised names are region keys.

    A card key is written in lower case (``warm_ocean``): the engine, save files, scenarios and the bots look
    cards up by their exact key, and the names of causes look a key up among the cards first and then among
    the regions, whose keys are capitalised English names (``Taiwan``).

    >>> _check_card_key_case("sunny_spell", {}, "cards.toml", "card sunny_spell")
    >>> _check_card_key_case("Sunny", {}, "cards.toml", "card Sunny")
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.RulesDataError: cards.toml: card Sunny: a card key is written in lower case, like warm_ocean (cards are found by their exact key, and capitalised names are the regions' keys); write key = "sunny"
    """
    lower = key.lower()
    if key == lower:
        return
    taken = f"; but card {lower} already has that key, so choose another" if lower in cards else ""
    raise RulesDataError(file, entry, "a card key is written in lower case, like warm_ocean (cards are found by "
                                      f"their exact key, and capitalised names are the regions' keys); write "
                                      f"key = \"{lower}\"{taken}")


def _load_cards(data: dict[str, Any], regions: Mapping[str, Region], points: Mapping[str, CompassPoint]) -> dict[str, Card]:
    file = "cards.toml"
    cards: dict[str, Card] = {}
    _unknown_keys(data, ("cards",), file, "file", "cards.toml (its cards are [[cards]] tables)", "table")
    raw_cards = data.get("cards", [])
    if not isinstance(raw_cards, list) or not all(isinstance(raw, dict) for raw in raw_cards):
        raise RulesDataError(file, "cards", "each card is a [[cards]] table")
    names: dict[str, str] = {}
    for i, raw in enumerate(raw_cards):
        key = _need(raw, "key", str, file, f"card #{i + 1}")
        entry = f"card {key}"
        _unknown_keys(raw, CARD_FIELDS, file, entry, "a card", "field")
        if key in cards:
            raise RulesDataError(file, entry, "two cards have this key")
        if " " in key:
            raise RulesDataError(file, entry, "a card key has no spaces (it is used in action notation)")
        _check_card_key_case(key, cards, file, entry)
        count = _need(raw, "count", int, file, entry)
        if count < 1:
            raise RulesDataError(file, entry, "a card kind needs a count of at least 1")
        timing = _need(raw, "timing", str, file, entry)
        if timing not in TIMINGS:
            close = difflib.get_close_matches(timing, TIMINGS, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise RulesDataError(file, entry, f"timing must be one of {', '.join(TIMINGS)}; got {timing!r}{hint}")
        effect = _effect(raw.get("effect"), file, entry, points)
        if not EFFECT_KINDS[effect.kind].cards:
            raise RulesDataError(file, entry, f"the effect {effect.kind!r} is for region abilities only; "
                                              f"the effects for {timing} cards are: {_kinds_for('card', timing)}")
        if EFFECT_KINDS[effect.kind].timing != timing:
            raise RulesDataError(file, entry, f"the effect {effect.kind!r} does not fit the timing {timing!r}; "
                                              f"the effects for {timing} cards are: {_kinds_for('card', timing)}")
        target = _need(raw, "target", str, file, entry)
        if target != EFFECT_KINDS[effect.kind].target:
            raise RulesDataError(file, entry, f"the effect {effect.kind!r} needs target {EFFECT_KINDS[effect.kind].target!r}, not {target!r}")
        restricted = None
        if "restricted" in raw:
            rr = raw["restricted"]
            sub = f"{entry}, restricted effect"
            if not isinstance(rr, dict):
                raise RulesDataError(file, sub, f"'restricted' must be a table ([cards.restricted]), not {_given(rr)}")
            _unknown_keys(rr, RESTRICTED_FIELDS, file, sub, "a restricted effect", "field")
            restricted_to = tuple(_need(rr, "regions", list, file, sub))
            if not restricted_to:
                raise RulesDataError(file, sub, "'regions' is empty; a restricted effect names at least one region "
                                                f"of: {', '.join(regions)}")
            for n, name in enumerate(restricted_to):
                if not isinstance(name, str) or name not in regions:
                    raise RulesDataError(file, sub, f"unknown region {_given(name)}; regions: {', '.join(regions)}")
                if name in restricted_to[:n]:
                    raise RulesDataError(file, sub, f"'regions' lists {name!r} twice; name each region once")
            r_effect = _effect(rr.get("effect"), file, sub, points)
            if not EFFECT_KINDS[r_effect.kind].cards:
                raise RulesDataError(file, sub, f"the effect {r_effect.kind!r} is for region abilities only; "
                                                f"the effects for {timing} cards are: {_kinds_for('card', timing)}")
            if EFFECT_KINDS[r_effect.kind].target != target or EFFECT_KINDS[r_effect.kind].timing != timing:
                raise RulesDataError(file, sub, "a restricted effect must keep the card's timing and target")
            restricted = Restricted(restricted_to, r_effect, _need(rr, "text_en", str, file, sub), _need(rr, "text_zh", str, file, sub))
        name_en, name_zh = _need(raw, "name_en", str, file, entry), _need(raw, "name_zh", str, file, entry)
        for name in (name_en, name_zh):  # players tell the cards apart by name, in either language
            other = names.setdefault(" ".join(name.split()).casefold(), key)
            if other != key:
                raise RulesDataError(file, entry, f"its name {name!r} is also the name of card {other}; "
                                                  "every card needs its own name in English and in Chinese")
        cards[key] = Card(
            key, name_en, name_zh, count, timing,
            target, effect, _need(raw, "text_en", str, file, entry), _need(raw, "text_zh", str, file, entry), restricted,
        )
    total = sum(c.count for c in cards.values())
    if total != DECK_SIZE:
        change = (f"lower other cards' counts by {total - DECK_SIZE} in all (a new card or a higher count takes "
                  "its place from the others)" if total > DECK_SIZE else f"raise counts by {DECK_SIZE - total} in all")
        raise RulesDataError(file, "deck", f"the deck must hold {DECK_SIZE} function cards (the rule of docs/rules.md "
                                           f"§1, DECK_SIZE in the engine); the counts add up to {total}: {change}")
    return cards


def load_rules(path: str | Path | None = None) -> Rules:
    """Load and check an edition from a folder of TOML files (default: the package's data).

    The result is cached per folder; a ``Rules`` is immutable, so sharing it is safe.

    >>> load_rules().level(3).name_en
    'moderate typhoon'
    >>> load_rules("/nonexistent")
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.RulesDataError: map.toml: file: cannot be read (No such file or directory)
    """
    folder = Path(path).resolve() if path is not None else DATA_DIR
    return _load_cached(folder)


#: The fields of the data files that are prose: words shown to people (names, card and ability texts, the
#: notes on the facts behind the abilities, with their citations), which no rule reads. They are left out of
#: the rules digest (:func:`data_digest`), so correcting a sentence keeps every save and room readable.
#: A path is read from the top of a file; ``[]`` stands for every entry of a list of tables. Everything else
#: counts, whether the engine reads it today or not: numbers, keys, marks, effects, the map and its
#: geography, the ring, colours, and any field an edition adds (where a file allows one: a card, its
#: restricted effect and a region ability refuse fields they do not know). A region's names count too: its English
#: name is its key, and a save, a room or the command line may name it in Chinese (``Rules.region_key``).
PROSE_FIELDS: Mapping[str, frozenset[tuple[str, ...]]] = MappingProxyType({
    "map.toml": frozenset({("name",), ("zones", "[]", "name_en"), ("zones", "[]", "name_zh")}),
    "compass.toml": frozenset({("points", "[]", "name_en"), ("points", "[]", "name_zh")}),
    "levels.toml": frozenset({("levels", "[]", "name_en"), ("levels", "[]", "name_zh")}),
    "regions.toml": frozenset(("abilities", "[]", f) for f in ("name_en", "name_zh", "text_en", "text_zh",
                                                                  "basis_en", "basis_zh")),
    "cards.toml": frozenset({*(("cards", "[]", f) for f in ("name_en", "name_zh", "text_en", "text_zh")),
                             ("cards", "[]", "restricted", "text_en"), ("cards", "[]", "restricted", "text_zh")}),
})

#: Digests of an earlier definition -> the digest (today's definition) of the rules they were computed from,
#: for the package's own files as they were before a change of their prose or layout; each was worked out
#: from the files of the commit named. The rules are the same, so saves and rooms that carry one stay readable.
FORMER_DIGESTS: Mapping[str, str] = MappingProxyType({
    # the whole text, prose included (0.1.0): commits 3388a16 to 1853b6f (a copy is in tests/rules_digest/)
    "847cb17671e4ccc1": "9df22c66022b1588",
    # the whole text with the Taiwan note corrected (ad6f05f, reverted in 1853b6f the same day)
    "af51f98ea3bafa50": "9df22c66022b1588",
    # the files' bytes (before 0.1.0): commits bc1ce94 and eaaf5be, then 3cad248
    "46f8599877013336": "9df22c66022b1588",
    "cf39d45e1d314f3d": "9df22c66022b1588",
})

#: a rules digest -> the earlier definitions' digests of the files it was loaded from, for the editions
#: loaded: the digest of their bytes (before 0.1.0) and of their whole text, prose included (0.1.0)
_LOADED_DIGESTS: dict[str, set[str]] = {}


def _without_prose(value: Any, prose: frozenset[tuple[str, ...]], path: tuple[str, ...] = ()) -> Any:
    """``value`` (parsed TOML) without the fields whose path (from the top of the file) is in ``prose``."""
    if isinstance(value, dict):
        return {k: _without_prose(v, prose, (*path, k)) for k, v in value.items() if (*path, k) not in prose}
    if isinstance(value, list):
        return [_without_prose(v, prose, (*path, "[]") if isinstance(v, dict) else path) for v in value]
    return value


def _text_digest(files: Mapping[str, Any]) -> str:
    """The 0.1.0 rules digest: a hash of everything the parsed files say, prose included."""
    text = json.dumps(files, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def data_digest(files: Mapping[str, Any]) -> str:
    """A short hash of what an edition's parsed data files (``{file name: parsed TOML}``) say about play.

    What a file says counts, and how it is written (comments, spacing, quoting, the order of keys) does
    not; nor does its prose, the fields listed in :data:`PROSE_FIELDS`.

    >>> data_digest({"a.toml": {"x": 1, "y": [2, 3]}}) == data_digest({"a.toml": {"y": [2, 3], "x": 1}})
    True
    >>> data_digest({"a.toml": {"x": 1}}) == data_digest({"a.toml": {"x": 2}})
    False
    >>> card = {"key": "dry_air", "count": 1, "text_en": "Dry air chokes a weak storm."}
    >>> data_digest({"cards.toml": {"cards": [card]}}) == data_digest(
    ...     {"cards.toml": {"cards": [{**card, "text_en": "Dry air stifles a weak storm."}]}})
    True
    >>> data_digest({"cards.toml": {"cards": [card]}}) == data_digest({"cards.toml": {"cards": [{**card, "count": 2}]}})
    False
    """
    return _text_digest({name: _without_prose(data, PROSE_FIELDS.get(name, frozenset()))
                         for name, data in files.items()})


@lru_cache(maxsize=8)
def _load_cached(folder: Path) -> Rules:
    raw = {name: _read(folder, name) for name in DATA_FILES}
    parsed = {n: raw[n][0] for n in DATA_FILES}
    digest = data_digest(parsed)
    # what the digest of these files was before 0.1.0 (their bytes, comments included) and in 0.1.0 (their
    # whole text, prose included): saves and rooms that carry either stay readable
    _LOADED_DIGESTS.setdefault(digest, set()).update(
        {hashlib.sha256(b"".join(raw[n][1] for n in DATA_FILES)).hexdigest()[:16], _text_digest(parsed)})
    points, ring, ring_start, edition_stops = _load_compass(raw["compass.toml"][0])
    levels = _load_levels(raw["levels.toml"][0])
    region_marks = _region_marks(raw["regions.toml"][0])
    game_map = _load_map(raw["map.toml"][0], region_marks)
    regions = _load_regions(raw["regions.toml"][0], game_map.rows, points)
    cards = _load_cards(raw["cards.toml"][0], regions, points)
    return Rules(
        edition=str(raw["map.toml"][0].get("edition", "typhoon-edu 1")),
        digest=digest,
        map=game_map,
        ring=ring,
        ring_start=ring_start,
        edition_stops=edition_stops,
        points=MappingProxyType(points),
        levels=levels,
        regions=MappingProxyType(regions),
        cards=MappingProxyType(cards),
    )
