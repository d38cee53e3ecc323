"""The statistics lesson 06 runs on real storms, with numpy: directions of motion, classes, cells, reach.

* :func:`motion_shares`: the share of 6-hourly motions towards each of the 8 compass points
  (``tropical=True`` leaves out the extratropical stages, JMA grade 6: the fair comparison with the
  game's ring, whose storms are all tropical).
* :func:`cwa_class`: Taiwan CWA's class (lesson 03) from a 10-minute wind.
* :func:`nearest_cell`: the game-board cell whose real position (the map data's ``[geo]``) is nearest a point.
* :func:`region_reach`: how many storms came within a distance of each game region's real place.

>>> from typhoon_edu.realdata.jma import all_storms
>>> shares = motion_shares(all_storms())
>>> max(shares, key=shares.get), round(shares["W"] + shares["NW"], 2)
('W', 0.57)
>>> tropical = motion_shares(all_storms(), tropical=True)
>>> tropical["W"] + tropical["NW"] > shares["W"] + shares["NW"], tropical["E"] < shares["E"]
(True, True)
>>> cwa_class(30), cwa_class(35), cwa_class(65), cwa_class(100), cwa_class(None)
(1, 2, 3, 4, 1)
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from .jma import DATA_DIR, Fix, Storm
from .outlines import Country, countries

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

if TYPE_CHECKING:
    from ..engine.rules import Rules

EIGHT_POINTS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
KM_PER_DEGREE = 111.195  # one degree of latitude (a great circle on a sphere of radius 6371 km)
MS_PER_KT = 0.514444
PLACES_FILE = DATA_DIR / "places.toml"

#: Lower bounds of Taiwan CWA's classes in m/s (10-minute wind): 1 tropical depression,
#: 2 mild, 3 moderate, 4 strong typhoon (CWA typhoon encyclopedia, cwa.gov.tw; the classes of lesson 03).
#: JMA's grade of an extratropical stage (a cold-core low with fronts; no longer a tropical cyclone).
EXTRATROPICAL = 6
CWA_LOWER_MS = (0.0, 17.2, 32.7, 51.0)


def cwa_class(wind_kt: float | None, grade: int | None = None) -> int:
    """CWA's class 1–4 for a 10-minute wind in knots; 0 for an extratropical stage (JMA grade 6).

    A missing wind (JMA's ``000``) is a depression's: class 1.

    >>> cwa_class(95), cwa_class(100), cwa_class(40, grade=6)
    (3, 4, 0)
    """
    if grade == EXTRATROPICAL:
        return 0
    ms = (wind_kt or 0) * MS_PER_KT
    return 1 + sum(ms >= lo for lo in CWA_LOWER_MS[1:])


def _steps(storm: Storm, tropical: bool = False) -> np.ndarray:
    """(lon0, lat0, lon1, lat1) of each pair of 6-hourly analyses exactly 6 hours apart.

    ``tropical`` keeps only steps whose both ends are tropical stages (JMA grades 2–5): a step that
    starts or ends as an extratropical low (grade 6) belongs to another kind of storm.
    """
    fixes = storm.six_hourly()
    rows = [(a.lon, a.lat, b.lon, b.lat) for a, b in zip(fixes, fixes[1:], strict=False)
            if (b.time - a.time).total_seconds() == 6 * 3600
            and not (tropical and EXTRATROPICAL in (a.grade, b.grade))]
    return np.array(rows, dtype=float).reshape(-1, 4)


def motion_bearings(storms: Iterable[Storm], tropical: bool = False) -> np.ndarray:
    """Bearings (degrees clockwise from north) of every 6-hour step of every storm; steps with no motion left out
    (``tropical=True``: the extratropical stages left out too).

    East–west distances are shrunk by the cosine of the latitude, as on the globe.

    >>> from typhoon_edu.realdata.jma import selected_storms
    >>> b = motion_bearings(selected_storms()[:1])
    >>> b.shape[0] > 40, bool(((b >= 0) & (b < 360)).all())
    (True, True)
    """
    steps = np.concatenate([_steps(s, tropical) for s in storms] or [np.zeros((0, 4))])
    dlon = (steps[:, 2] - steps[:, 0]) * np.cos(np.radians((steps[:, 1] + steps[:, 3]) / 2))
    dlat = steps[:, 3] - steps[:, 1]
    moved = (dlon != 0) | (dlat != 0)
    return np.degrees(np.arctan2(dlon[moved], dlat[moved])) % 360


def bearing_point(bearings: np.ndarray | float) -> np.ndarray:
    """Index into :data:`EIGHT_POINTS` of each bearing (each point covers 45°, centred on it).

    >>> bearing_point(np.array([0.0, 22.4, 22.6, 270.0, 350.0])).tolist()
    [0, 0, 1, 6, 0]
    """
    return (np.floor((np.asarray(bearings) + 22.5) / 45) % 8).astype(int)


def motion_counts(storms: Iterable[Storm], tropical: bool = False) -> dict[str, int]:
    """How many 6-hour steps went towards each of the 8 points (``tropical``: tropical stages only).

    >>> from typhoon_edu.realdata.jma import all_storms
    >>> every, tropical = motion_counts(all_storms()), motion_counts(all_storms(), tropical=True)
    >>> len(every), sum(every.values()) - sum(tropical.values())  # steps with an extratropical end
    (8, 713)
    """
    counts = np.bincount(bearing_point(motion_bearings(storms, tropical)), minlength=8)
    return {p: int(c) for p, c in zip(EIGHT_POINTS, counts, strict=True)}


def motion_shares(storms: Iterable[Storm], tropical: bool = False) -> dict[str, float]:
    """The share of 6-hour steps towards each of the 8 compass points (they add up to 1); ``tropical=True``
    counts the tropical stages only (JMA grade 6, extratropical, left out).

    >>> from typhoon_edu.realdata.jma import all_storms
    >>> s = motion_shares(all_storms()); round(s["S"] + s["SE"] + s["SW"], 3) < 0.1
    True
    """
    counts = motion_counts(storms, tropical)
    total = sum(counts.values()) or 1
    return {p: c / total for p, c in counts.items()}


def ring_shares(ring: Sequence[str]) -> dict[str, float]:
    """The game's long-run share of motion towards each of the 8 points for a ring of compass stops.

    With chained rolls every stop of the ring comes up equally often in the long run (lesson 01);
    a 16-point stop between two of the 8 points (NNE, WSW, …) counts half to each.

    >>> {k: round(v * 7, 2) for k, v in ring_shares(("N", "NNE", "NE", "E", "WSW", "WNW", "NNW")).items() if v}
    {'N': 2.0, 'NE': 1.5, 'E': 1.0, 'SW': 0.5, 'W': 1.0, 'NW': 1.0}
    """
    from ..ui.scene import COMPASS16

    if not ring:
        raise ValueError("a ring needs at least one compass stop")
    out = dict.fromkeys(EIGHT_POINTS, 0.0)
    for stop in ring:
        if stop not in COMPASS16:
            raise ValueError(f"{stop!r} is not one of the 16 compass points")
        k = COMPASS16.index(stop)
        if k % 2 == 0:
            out[EIGHT_POINTS[k // 2]] += 1 / len(ring)
        else:
            out[EIGHT_POINTS[k // 2]] += 0.5 / len(ring)
            out[EIGHT_POINTS[(k // 2 + 1) % 8]] += 0.5 / len(ring)
    return out


def share_distance(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """How far apart two sets of shares are: half the sum of the differences (0 = the same, 1 = nothing shared).

    >>> share_distance({"N": 1.0}, {"N": 0.5, "E": 0.5})
    0.5
    """
    keys = set(a) | set(b)
    return round(0.5 * sum(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in keys), 12)


# --- the board ---------------------------------------------------------------------------------


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        from ..engine.rules import load_rules

        return load_rules()
    return rules


def nearest_cell(lon: float, lat: float, rules: Rules | None = None) -> tuple[int, int] | None:
    """The board cell whose real position (``map.toml``'s ``[geo]``: lon ≈ 103 + 3.5·x, lat ≈ 43 − 3.3·y) is nearest; None off the board.

    >>> nearest_cell(121.0, 23.5), nearest_cell(170.0, 20.0)
    ((5, 6), None)
    """
    r = _rules(rules)
    geo = r.map.geo
    x = int(round((lon - geo["lon0"]) / geo["lon_step"]))
    y = int(round((geo["lat0"] - lat) / geo["lat_step"]))
    return (x, y) if r.map.on_map(x, y) else None


def storm_cells(fixes: Iterable[Fix], rules: Rules | None = None) -> list[tuple[int, int]]:
    """The board cells a track passes, in order, a cell repeated only when the track leaves it and comes back.

    >>> from typhoon_edu.realdata.jma import find_storm
    >>> cells = storm_cells(find_storm("Soudelor").six_hourly())
    >>> (5, 6) in cells or (6, 6) in cells
    True
    """
    out: list[tuple[int, int]] = []
    for f in fixes:
        c = nearest_cell(f.lon, f.lat, rules)
        if c is not None and (not out or out[-1] != c):
            out.append(c)
    return out


# --- regions' real places ------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """The real place of a game region: outline edges (lon0, lat0, lon1, lat1) and rings to test 'inside'."""

    region: str
    countries: tuple[str, ...]
    edges: np.ndarray
    rings: tuple[np.ndarray, ...]
    lon: tuple[float, float] | None
    lat: tuple[float, float] | None


def _in_box(lon: np.ndarray, lat: np.ndarray, place: Place) -> np.ndarray:
    ok = np.ones(lon.shape, dtype=bool)
    if place.lon is not None:
        ok &= (lon >= place.lon[0]) & (lon <= place.lon[1])
    if place.lat is not None:
        ok &= (lat >= place.lat[0]) & (lat <= place.lat[1])
    return ok


@lru_cache(maxsize=2)
def places(path: str = str(PLACES_FILE)) -> dict[str, Place]:
    """Each game region's real place (``data/real/places.toml``), built from the country outlines.

    >>> p = places(); sorted(p)
    ['Central China', 'Japan', 'Korea', 'Philippines', 'South China', 'Taiwan']
    >>> p["South China"].edges.shape[1]
    4
    """
    with open(path, "rb") as fh:
        raw = tomllib.load(fh).get("places", {})
    shapes = countries()
    out: dict[str, Place] = {}
    for region, spec in raw.items():
        names = tuple(spec.get("countries", ()))
        missing = [n for n in names if n not in shapes]
        if not names or missing:
            raise ValueError(f"places.toml, {region}: countries {missing or names} are not in the outline file "
                             f"(it has {', '.join(sorted(shapes))})")
        lon = tuple(spec["lon"]) if "lon" in spec else None
        lat = tuple(spec["lat"]) if "lat" in spec else None
        rings = tuple(r for n in names for r in _country_rings(shapes[n]))
        edges = np.concatenate([np.hstack([r[:-1], r[1:]]) for r in rings])
        probe = Place(region, names, edges, rings, lon, lat)  # type: ignore[arg-type]
        mid_lon, mid_lat = (edges[:, 0] + edges[:, 2]) / 2, (edges[:, 1] + edges[:, 3]) / 2
        keep = _in_box(mid_lon, mid_lat, probe)
        if not keep.any():
            raise ValueError(f"places.toml, {region}: no part of {', '.join(names)} lies inside lon {lon}, lat {lat}")
        out[region] = Place(region, names, edges[keep], rings, lon, lat)  # type: ignore[arg-type]
    return out


def _country_rings(country: Country) -> tuple[np.ndarray, ...]:
    return tuple(np.vstack([r, r[:1]]) if not np.array_equal(r[0], r[-1]) else r for r in country.rings)


def _inside(lon: np.ndarray, lat: np.ndarray, rings: Sequence[np.ndarray]) -> np.ndarray:
    """Whether each point is inside any of ``rings`` (even–odd rule, vectorised over points and edges)."""
    inside = np.zeros(lon.shape, dtype=bool)
    for ring in rings:
        x0, y0, x1, y1 = ring[:-1, 0], ring[:-1, 1], ring[1:, 0], ring[1:, 1]
        cond = (y0[None, :] > lat[:, None]) != (y1[None, :] > lat[:, None])
        with np.errstate(divide="ignore", invalid="ignore"):
            xcross = x0[None, :] + (lat[:, None] - y0[None, :]) * (x1 - x0)[None, :] / (y1 - y0)[None, :]
        inside ^= (np.count_nonzero(cond & (lon[:, None] < xcross), axis=1) % 2).astype(bool)
    return inside


def distance_km(lon: np.ndarray, lat: np.ndarray, place: Place) -> np.ndarray:
    """Distance (km) from each point to the place's outline; 0 inside it.

    Local flat-Earth distances to each edge (east–west shrunk by the cosine of the latitude), which
    at these distances (a few hundred km) differ from great-circle ones by well under 1 %.

    >>> p = places()["Taiwan"]
    >>> d = distance_km(np.array([121.0, 123.5]), np.array([23.7, 23.7]), p)
    >>> float(d[0]), 150 < float(d[1]) < 300
    (0.0, True)
    """
    lon, lat = np.asarray(lon, dtype=float), np.asarray(lat, dtype=float)
    c = np.cos(np.radians(lat))[:, None]
    e = place.edges
    ax, ay = (e[None, :, 0] - lon[:, None]) * c, e[None, :, 1] - lat[:, None]
    bx, by = (e[None, :, 2] - lon[:, None]) * c, e[None, :, 3] - lat[:, None]
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(length2 > 0, -(ax * dx + ay * dy) / length2, 0.0)
    t = np.clip(t, 0.0, 1.0)
    px, py = ax + t * dx, ay + t * dy
    d = np.sqrt(px * px + py * py).min(axis=1) * KM_PER_DEGREE
    inside = _inside(lon, lat, place.rings) & _in_box(lon, lat, place)
    return np.where(inside, 0.0, d)


def _densified(storm: Storm, per_step: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The track's points with ``per_step - 1`` points added evenly between each pair (so no coast is skipped)."""
    pts = storm.lonlat()
    if len(pts) < 2:
        return pts[:, 0], pts[:, 1]
    t = np.linspace(0, 1, per_step, endpoint=False)
    a, b = pts[:-1], pts[1:]
    mid = a[:, None, :] + (b - a)[:, None, :] * t[None, :, None]
    allp = np.vstack([mid.reshape(-1, 2), pts[-1:]])
    return allp[:, 0], allp[:, 1]


@dataclass(frozen=True)
class Reach:
    """How many storms came within ``km`` of a region's real place, and which."""

    region: str
    km: float
    storms: tuple[str, ...]  # international numbers
    total: int

    @property
    def count(self) -> int:
        return len(self.storms)

    @property
    def share(self) -> float:
        return self.count / self.total if self.total else 0.0


def closest_approach(storms: Sequence[Storm], place: Place) -> np.ndarray:
    """Each storm's closest distance (km) to ``place`` (numpy, one number per storm)."""
    out = np.empty(len(storms))
    for i, s in enumerate(storms):
        lon, lat = _densified(s)
        out[i] = distance_km(lon, lat, place).min() if lon.size else np.inf
    return out


@lru_cache(maxsize=8)
def _approach_table(numbers: tuple[str, ...]) -> dict[str, np.ndarray]:
    from .jma import all_storms

    pool = {s.number: s for s in all_storms()}
    storms = [pool[n] for n in numbers]
    return {region: closest_approach(storms, place) for region, place in places().items()}


def region_reach(storms: Sequence[Storm], km: float = 200.0) -> dict[str, Reach]:
    """For each game region: the storms that came within ``km`` of its real place (any stage of the storm).

    >>> from typhoon_edu.realdata.jma import all_storms
    >>> reach = region_reach(all_storms(), 200)
    >>> reach["Philippines"].count > reach["Korea"].count, reach["Taiwan"].total
    (True, 169)
    """
    if not km >= 0:
        raise ValueError(f"the distance is 0 km or more, not {km!r}")
    numbers = tuple(s.number for s in storms)
    try:
        table = _approach_table(numbers)
    except KeyError:  # storms from another file: compute directly
        table = {region: closest_approach(storms, place) for region, place in places().items()}
    return {region: Reach(region, float(km), tuple(n for n, d in zip(numbers, dist, strict=True) if d <= km), len(numbers))
            for region, dist in table.items()}


def reach_ranking(reach: Mapping[str, Reach]) -> list[str]:
    """Regions from most storms to fewest (ties by name).

    >>> reach_ranking({"A": Reach("A", 1, ("x",), 2), "B": Reach("B", 1, ("x", "y"), 2)})
    ['B', 'A']
    """
    return sorted(reach, key=lambda k: (-reach[k].count, k))


@dataclass(frozen=True)
class Crossing:
    """A storm's central pressure some hours before and after its centre was closest to a place."""

    storm: str
    closest_km: float
    closest_time: Any
    before: Fix
    after: Fix

    @property
    def rise(self) -> int:
        """hPa the pressure rose (a positive number: the storm weakened)."""
        return self.after.pressure - self.before.pressure

    @property
    def crossed(self) -> bool:
        """Whether the centre passed over the place itself."""
        return self.closest_km == 0.0


def pressure_change(storm: Storm, place: Place, hours: int = 12) -> Crossing:
    """Central pressure ``hours`` before and after the centre was closest to a place (6-hourly analyses).

    A rise in central pressure means the storm weakened (lesson 06, Taiwan's mountains).

    >>> from typhoon_edu.realdata.jma import find_storm
    >>> ch = pressure_change(find_storm("Soudelor"), places()["Taiwan"])
    >>> ch.crossed, ch.before.pressure < ch.after.pressure
    (True, True)
    """
    from datetime import timedelta

    fixes = storm.six_hourly()
    lon = np.array([f.lon for f in fixes])
    lat = np.array([f.lat for f in fixes])
    d = distance_km(lon, lat, place)
    k = int(np.argmin(d))
    when = fixes[k].time
    by_time = {f.time: f for f in fixes}
    before = by_time.get(when - timedelta(hours=hours), fixes[0])
    after = by_time.get(when + timedelta(hours=hours), fixes[-1])
    return Crossing(storm.title, float(d[k]), when, before, after)


__all__ = [
    "CWA_LOWER_MS", "EIGHT_POINTS", "EXTRATROPICAL", "Crossing", "Place", "Reach", "bearing_point", "closest_approach", "cwa_class", "distance_km",
    "motion_bearings", "motion_counts", "motion_shares", "nearest_cell", "places", "pressure_change", "reach_ranking",
    "region_reach", "ring_shares", "share_distance", "storm_cells",
]
