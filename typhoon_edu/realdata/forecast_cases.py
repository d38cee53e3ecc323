"""Forecast cases for lesson 07: moments of real JMA best tracks from which students forecast 24, 48 and 72 hours.

Every case is *chosen from the data by a rule*, never typed in: the easy case is the steadiest westward
mover, the Taiwan case the median "keep going straight" miss among storms whose centre came within
:data:`TAIWAN_KM` of Taiwan, the recurving case among typhoons that turned right every day from
west/north to north-east the one that turned most sharply, and the pair the two storms that came closest to each other (a Fujiwhara pair).
The answers are the best-track positions 24, 48 and 72 hours later; the errors are great-circle
distances, as forecast agencies measure them.

>>> cases = forecast_cases()
>>> [c.key for c in cases]
['steady', 'taiwan', 'recurve', 'pair']
>>> c = cases[0]
>>> sorted(c.truth), all(ERRORS_FROM <= h for h in c.truth)
([24, 48, 72], True)
>>> round(great_circle_km(0.0, 0.0, 0.0, 1.0), 1)
111.2
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

import numpy as np

from .jma import Fix, Storm, all_storms
from .stats import distance_km, places

EARTH_RADIUS_KM = 6371.0
#: Lead times of the challenge (hours).
LEADS: tuple[int, ...] = (24, 48, 72)
ERRORS_FROM = 24

#: Typical official track-forecast errors (km) of the western North Pacific at each lead time: the Hong Kong
#: Observatory's mean errors of 2015 (258, 196 and 140 forecasts), "Tropical Cyclones in 2015", Table 4.12.
#: On the same sample, the 24-hour errors of the region's forecast centres were 60 to 70-odd km (HKO, 2016).
TYPICAL_ERROR_KM: dict[int, int] = {24: 69, 48: 121, 72: 175}
ERROR_SOURCE = ("Hong Kong Observatory, Tropical Cyclones in 2015, Table 4.12 (verification of the 2015 track "
                "forecasts: mean errors 69 km at 24 h, 121 km at 48 h, 175 km at 72 h)")

#: The map of the lesson (degrees): a case keeps all of its positions inside, so every guess can be placed.
BOUNDS = (101.0, 159.0, 4.0, 45.0)  # west, east, south, north
TAIWAN_KM = 100.0
PAIR_KM = 650.0  # within about 650 km two storms interact strongly (Fujiwhara); it can begin near 1,400 km


def great_circle_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """The great-circle distance (km) between two points on a sphere of radius 6,371 km (haversine).

    >>> round(great_circle_km(25.0, 121.5, 22.3, 114.2))
    802
    >>> great_circle_km(23.5, 121.0, 23.5, 121.0)
    0.0
    """
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def bearing_deg(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """The initial compass bearing (degrees clockwise from north) from the first point to the second.

    >>> round(bearing_deg(20, 130, 20, 129)), round(bearing_deg(20, 130, 21, 130))
    (270, 0)
    """
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    x = math.sin(dl) * math.cos(p2)
    y = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(x, y)) % 360


def turn_deg(before: float, after: float) -> float:
    """The change of heading from ``before`` to ``after`` in −180…180 (positive = clockwise, a right turn).

    >>> turn_deg(300, 30), turn_deg(10, 350)
    (90.0, -20.0)
    """
    return (after - before + 180.0) % 360.0 - 180.0


@dataclass(frozen=True)
class Case:
    """One forecast moment: the storm, the analysis to forecast from, and what happened next."""

    key: str  # "steady", "taiwan", "recurve", "pair"
    level: int  # 1 easy … 3 hard
    storm: Storm
    index: int  # into storm.six_hourly(): the last analysis the student sees
    truth: dict[int, Fix]  # lead (h) → the best-track analysis then
    persistence: dict[int, tuple[float, float]]  # lead → (lat, lon) if it kept its last 24 hours' motion
    partner: Storm | None = None  # the other storm of a pair
    partner_index: int | None = None

    @property
    def now(self) -> Fix:
        return self.storm.six_hourly()[self.index]

    @property
    def time(self) -> datetime:
        return self.now.time

    def seen(self) -> tuple[Fix, ...]:
        """The analyses the student may see (up to and including now)."""
        return self.storm.six_hourly()[: self.index + 1]

    def partner_seen(self) -> tuple[Fix, ...]:
        if self.partner is None:
            return ()
        return tuple(f for f in self.partner.six_hourly() if f.time <= self.time)

    def partner_truth(self) -> dict[int, Fix]:
        if self.partner is None:
            return {}
        by_time = {f.time: f for f in self.partner.six_hourly()}
        return {h: by_time[self.time + timedelta(hours=h)] for h in LEADS if self.time + timedelta(hours=h) in by_time}

    def persistence_error_km(self, lead: int) -> float:
        """How far "keep going as in the last 24 hours" ends from the truth after ``lead`` hours."""
        lat, lon = self.persistence[lead]
        t = self.truth[lead]
        return great_circle_km(lat, lon, t.lat, t.lon)

    def turn(self) -> float:
        """The change of heading from the last 24 hours to the last 24 hours of the forecast (degrees, + = right)."""
        six = self.storm.six_hourly()
        a, b = six[self.index - 4], self.now
        c, d = self.truth[48], self.truth[72]
        return turn_deg(bearing_deg(a.lat, a.lon, b.lat, b.lon), bearing_deg(c.lat, c.lon, d.lat, d.lon))


def guess_error_km(case: Case, lead: int, lat: float, lon: float) -> float:
    """The great-circle error (km) of a guess ``(lat, lon)`` for ``lead`` hours after the case's moment.

    >>> c = forecast_cases()[0]; t = c.truth[24]
    >>> guess_error_km(c, 24, t.lat, t.lon)
    0.0
    """
    if lead not in case.truth:
        raise ValueError(f"a forecast is for {', '.join(map(str, LEADS))} hours ahead, not {lead}")
    t = case.truth[lead]
    return great_circle_km(lat, lon, t.lat, t.lon)


def _inside(fixes: Sequence[Fix]) -> bool:
    west, east, south, north = BOUNDS
    return all(west <= f.lon <= east and south <= f.lat <= north for f in fixes)


def _persistence(a: Fix, b: Fix) -> dict[int, tuple[float, float]]:
    # the last 24 hours' displacement in degrees, repeated: what "keep going straight" means on this map
    dlat, dlon = b.lat - a.lat, b.lon - a.lon
    return {h: (round(b.lat + dlat * h / 24, 2), round(b.lon + dlon * h / 24, 2)) for h in LEADS}


@dataclass(frozen=True)
class _Candidate:
    storm: Storm
    index: int
    truth: dict[int, Fix]
    persistence: dict[int, tuple[float, float]]
    headings: tuple[float, float, float, float]  # the last 24 h, then each 24 h of the forecast
    taiwan_km: float

    def miss(self, lead: int = 72) -> float:
        lat, lon = self.persistence[lead]
        t = self.truth[lead]
        return great_circle_km(lat, lon, t.lat, t.lon)


def _candidates(storms: Sequence[Storm]) -> list[_Candidate]:
    taiwan = places()["Taiwan"]
    out: list[_Candidate] = []
    for s in storms:
        six = s.six_hourly()
        by_time = {f.time: k for k, f in enumerate(six)}
        if len(six) < 17:
            continue
        dist = distance_km(np.array([f.lon for f in six]), np.array([f.lat for f in six]), taiwan)
        for i in range(4, len(six)):
            now = six[i]
            if now.grade not in (3, 4, 5) or six[i - 4].time != now.time - timedelta(hours=24):
                continue  # a tropical storm or stronger, with a whole day of track behind it
            ks = [by_time.get(now.time + timedelta(hours=h)) for h in LEADS]
            if None in ks:
                continue
            truth = {h: six[k] for h, k in zip(LEADS, ks, strict=True) if k is not None}
            if not _inside([*six[: i + 1], *truth.values()]):
                continue
            pts = [six[i - 4], now, truth[24], truth[48], truth[72]]
            headings = tuple(bearing_deg(p.lat, p.lon, q.lat, q.lon) for p, q in zip(pts, pts[1:], strict=False))
            ahead = [k for k in range(i + 1, len(six)) if six[k].time <= now.time + timedelta(hours=72)]
            out.append(_Candidate(s, i, truth, _persistence(six[i - 4], now), headings,  # type: ignore[arg-type]
                                  float(dist[ahead].min()) if ahead else math.inf))
    return out


def _case(key: str, level: int, c: _Candidate, partner: Storm | None = None) -> Case:
    pidx = None
    if partner is not None:
        pidx = max(k for k, f in enumerate(partner.six_hourly()) if f.time <= c.storm.six_hourly()[c.index].time)
    return Case(key, level, c.storm, c.index, c.truth, c.persistence, partner, pidx)


def _westward(h: float) -> bool:
    return 250.0 <= h <= 290.0


def pick_steady(cands: Sequence[_Candidate]) -> _Candidate:
    """The easy case: moving west (250–290°) in the last 24 hours and in each of the next three days,
    never turning more than 15°; of those, the one that "keep going straight" misses least at 72 h."""
    pool = [c for c in cands if all(_westward(h) for h in c.headings)
            and all(abs(turn_deg(c.headings[0], h)) <= 15 for h in c.headings[1:])]
    return min(pool, key=lambda c: (c.miss(), c.storm.number, c.index))


def pick_taiwan(cands: Sequence[_Candidate], exclude: set[str]) -> _Candidate:
    """The Taiwan case: the centre comes within :data:`TAIWAN_KM` of Taiwan in the next 72 hours but is at least
    500 km away now; of those (one moment per storm: the first), the median "keep going straight" miss at 72 h."""
    taiwan = places()["Taiwan"]
    first: dict[str, _Candidate] = {}
    for c in cands:
        f = c.storm.six_hourly()[c.index]
        far = float(distance_km(np.array([f.lon]), np.array([f.lat]), taiwan)[0]) >= 500.0
        if c.taiwan_km <= TAIWAN_KM and far and c.storm.number not in exclude and c.storm.number not in first:
            first[c.storm.number] = c
    pool = sorted(first.values(), key=lambda c: (c.miss(), c.storm.number))
    return pool[(len(pool) - 1) // 2]


def pick_recurve(cands: Sequence[_Candidate], exclude: set[str]) -> _Candidate:
    """The recurving case: a typhoon (JMA grade 5) heading between west and north (270–360°) that turns right
    every day of the next three, still tropical, and moves between north-north-east and east (20–90°) on the
    third day; of those, the sharpest total turn."""
    def total(c: _Candidate) -> float:
        return turn_deg(c.headings[0], c.headings[3]) % 360.0

    pool = [c for c in cands if c.storm.six_hourly()[c.index].grade == 5 and 270.0 <= c.headings[0] < 360.0
            and 20.0 <= c.headings[3] <= 90.0 and c.storm.number not in exclude
            and all(f.grade != 6 for f in c.truth.values())
            and all(turn_deg(a, b) > 0 for a, b in zip(c.headings, c.headings[1:], strict=False))]
    return max(pool, key=lambda c: (total(c), c.storm.number, -c.index))


def pick_pair(cands: Sequence[_Candidate], storms: Sequence[Storm], exclude: set[str]
              ) -> tuple[_Candidate, Storm, float]:
    """The pair case: of two storms at the same time, the two whose centres came closest (under :data:`PAIR_KM`);
    the student forecasts the deeper one (lower pressure) from 24 hours before that closest moment (or the
    latest moment before it that has a case). Returns the case, the other storm and the closest distance."""
    by_number = {c.storm.number: [] for c in cands}  # type: dict[str, list[_Candidate]]
    for c in cands:
        by_number[c.storm.number].append(c)
    best: tuple[float, Storm, Storm, datetime] | None = None
    for a_i, a in enumerate(storms):
        a_fix = {f.time: f for f in a.six_hourly()}
        for b in storms[a_i + 1:]:
            for f in b.six_hourly():
                g = a_fix.get(f.time)
                if g is None or g.grade == 6 or f.grade == 6:
                    continue
                d = great_circle_km(g.lat, g.lon, f.lat, f.lon)
                if d < PAIR_KM and (best is None or d < best[0]):
                    main, other = (a, b) if g.pressure <= f.pressure else (b, a)
                    best = (d, main, other, f.time)
    if best is None:
        raise ValueError(f"no two storms in the data came within {PAIR_KM:g} km of each other")
    ranked = []
    for d, main, other, when in [best]:
        if main.number in exclude:
            continue
        pool = [c for c in by_number.get(main.number, []) if c.storm.six_hourly()[c.index].time <= when - timedelta(hours=24)]
        if pool:
            ranked.append((max(pool, key=lambda c: c.index), other, d))
    if not ranked:
        raise ValueError("the closest pair of storms has no moment with 72 hours of track ahead inside the map")
    return ranked[0]


@lru_cache(maxsize=1)
def _cases() -> tuple[Case, ...]:
    storms = all_storms()
    cands = _candidates(storms)
    steady = pick_steady(cands)
    used = {steady.storm.number}
    pair, other, _ = pick_pair(cands, storms, used)
    used |= {pair.storm.number, other.number}
    taiwan = pick_taiwan(cands, used)
    used.add(taiwan.storm.number)
    recurve = pick_recurve(cands, used)
    return (_case("steady", 1, steady), _case("taiwan", 2, taiwan), _case("recurve", 3, recurve),
            _case("pair", 3, pair, other))


def forecast_cases() -> tuple[Case, ...]:
    """The lesson's four cases, easiest first (computed once per process from the 169 storms)."""
    return _cases()


def find_case(key: str) -> Case:
    """A case by its key.

    >>> find_case("pair").partner is not None
    True
    >>> find_case("hardest")
    Traceback (most recent call last):
    ...
    ValueError: no forecast case 'hardest'; the cases are steady, taiwan, recurve, pair
    """
    for c in forecast_cases():
        if c.key == key:
            return c
    raise ValueError(f"no forecast case {key!r}; the cases are {', '.join(c.key for c in forecast_cases())}")


__all__ = [
    "BOUNDS", "ERROR_SOURCE", "LEADS", "PAIR_KM", "TAIWAN_KM", "TYPICAL_ERROR_KM", "Case", "bearing_deg", "find_case",
    "forecast_cases", "great_circle_km", "guess_error_km", "pick_pair", "pick_recurve", "pick_steady", "pick_taiwan",
    "turn_deg",
]
