"""Lesson 07, the forecast challenge: a real storm up to a moment; the student places where its centre will be
in 24, 48 and 72 hours (click, tap, typed position or arrow buttons); then the best track is revealed with the
great-circle error of each guess, the typical official errors, and a cone of uncertainty drawn from them.
A class round keeps several teams' forecasts on one screen and scores them together.

The pure part (typed positions, one action per tap, the forecast's state, the cone, the scores, the scene)
is tested without a browser; :class:`ForecastChallenge` is the thin widget around it.

>>> r = ForecastRound(find_case("steady"))
>>> t = r.case.truth
>>> for h in LEADS:
...     _ = r.place(t[h].lat, t[h].lon)
>>> [round(row.error_km) for row in r.reveal()]
[0, 0, 0]
>>> parse_position("23.5N, 121E"), parse_position("北緯23.5 東經121", "zh-TW")
((23.5, 121.0), (23.5, 121.0))
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from typing import Any

import ipywidgets as widgets
from ipycanvas import MultiCanvas

from ... import i18n
from ...engine.rules import GameInputError
from ...realdata.forecast_cases import (
    LEADS,
    TYPICAL_ERROR_KM,
    Case,
    bearing_deg,
    find_case,
    forecast_cases,
    great_circle_km,
    guess_error_km,
)
from ...realdata.stats import distance_km, places
from .. import palette
from ..board import MapWidth
from ..canvas_input import check_canvas_events, make_accessible
from ..guard import Problems
from ..map_text import Box, overlaps, text_box
from ..painter import repaint
from ..quiz import AnswerSheet, Question, Quiz, lesson_sheet
from ..realmap import NARROW_MAP_PX, PHONE_MIN_TEXT, Projection, legend_item, static_scene, storm_title, track_scene
from ..scene import Circle, Line, Polygon, Shape, Text
from ..svg import shapes_to_svg
from .common import LessonBox, Rendered, heading, html_table, keep_units, lt, note
from .limits import with_limits

LatLon = tuple[float, float]
STEP_DEG = 0.5  # one press of an arrow button
GUESS_COLOUR = "#1d4ed8"
TRUTH_COLOUR = "#7c2d12"
CONE_COLOUR = "#f59e0b"
ERROR_COLOUR = "#b91c1c"
PARTNER_COLOUR = "#94a3b8"
TEAM_COLOURS = ("#0f766e", "#9333ea", "#c2410c", "#0369a1", "#be185d", "#4d7c0f", "#6d28d9", "#a16207")
EIGHT = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


class ForecastInputError(GameInputError):
    """Something the student typed or did that the challenge cannot use (its message is in their language),
    told plainly like any input the game refuses; the forecast is left as it was."""


# --- typed positions and taps ----------------------------------------------------------------------


_NUMBER = r"[-+]?\d+(?:\.\d+)?"


def parse_position(text: str, lang: str = "en") -> LatLon:
    """A position typed as latitude then longitude, in degrees: ``23.5, 121``, ``23.5N 121E``, ``23.5°N, 121°E``,
    ``北緯23.5 東經121``, full-width digits. ``ValueError`` in ``lang`` otherwise.

    >>> parse_position("１８．５，１３０")
    (18.5, 130.0)
    >>> parse_position("121E 23.5N")
    (23.5, 121.0)
    >>> parse_position("somewhere")
    Traceback (most recent call last):
    ...
    typhoon_edu.ui.lessons.forecast.ForecastInputError: Type a position as latitude, longitude in degrees, for example 23.5, 121 (or 23.5N 121E).
    """
    s = unicodedata.normalize("NFKC", str(text)).strip().upper()
    s = s.replace("北緯", "N").replace("東經", "E").replace("°", " ").replace("度", " ")
    tagged = re.findall(rf"({_NUMBER})\s*([NE])|([NE])\s*({_NUMBER})", s)
    if tagged:
        got = {(a or d): float(b or c) for b, a, d, c in ((m[0], m[1], m[2], m[3]) for m in tagged)}
        if len(tagged) != 2 or set(got) != {"N", "E"}:  # "23.5N 24N": two latitudes, no longitude
            raise ForecastInputError(lt("forecast.bad_position", lang))
        return got["N"], got["E"]
    numbers = re.findall(_NUMBER, s)
    if len(numbers) != 2 or re.search(r"[A-DF-MO-Z]", s):
        raise ForecastInputError(lt("forecast.bad_position", lang))
    return float(numbers[0]), float(numbers[1])


@dataclass
class TapFilter:
    """One action per tap. A browser follows a tap with an emulated click unless the page cancels the touch;
    ipycanvas 0.14 cancels it (the browser test checks that a tap places one guess), but a front end that does
    not would send ``touch_start`` and then ``mouse_down`` for the same tap. So a mouse-down within ``window``
    seconds of a touch is dropped.

    >>> f = TapFilter()
    >>> f.accept("touch", 0.0), f.accept("mouse", 0.3), f.accept("mouse", 2.0)
    (True, False, True)
    """

    window: float = 0.8
    _last_touch: float = field(default=-1e9, repr=False)

    def accept(self, kind: str, now: float) -> bool:
        if kind == "touch":
            self._last_touch = now
            return True
        if kind != "mouse":
            raise ValueError(f"a tap is 'touch' or 'mouse', not {kind!r}")
        return now - self._last_touch > self.window


# --- the map window of a case -----------------------------------------------------------------------


def case_projection(case: Case, width: int = 760) -> Projection:
    """The map around the moment of the case. It depends only on where the storm is *now*, so the frame
    never hints where it will go; every case's answers lie inside (a test checks this).

    >>> p = case_projection(find_case("steady")); round(p.east - p.west, 6), round(p.north - p.south, 6)
    (34.0, 25.0)
    """
    now = case.now
    west = min(max(now.lon - 17.0, 100.0), 160.0 - 34.0)
    south = min(max(now.lat - 10.0, 2.0), 46.0 - 25.0)
    return Projection(west=round(west, 1), east=round(west + 34.0, 1), south=round(south, 1), north=round(south + 25.0, 1),
                      width=width)


def inside(proj: Projection, lat: float, lon: float) -> bool:
    return proj.west <= lon <= proj.east and proj.south <= lat <= proj.north


# --- the state of one forecast ------------------------------------------------------------------------


@dataclass(frozen=True)
class ResultRow:
    """One lead time after the reveal."""

    lead: int
    guess: LatLon
    truth: LatLon
    error_km: float
    typical_km: int
    straight_km: float

    @property
    def inside(self) -> bool:
        """Whether the truth is inside the circle of the typical error around the guess."""
        return self.error_km <= self.typical_km


class ForecastRound:
    """A student's forecast of one case: three guesses, which one the next click places, and the reveal.

    >>> r = ForecastRound(find_case("taiwan"))
    >>> r.active, r.place(22.0, 128.0), r.active
    (24, 24, 48)
    >>> r.choose(24); r.nudge(0, -1); r.guesses[24]
    (22.0, 127.5)
    >>> r.reveal()
    Traceback (most recent call last):
    ...
    typhoon_edu.ui.lessons.forecast.ForecastInputError: Place all three guesses (24, 48 and 72 h) before you reveal; still missing: 48 h and 72 h.
    """

    def __init__(self, case: Case, lang: str = "en", proj: Projection | None = None) -> None:
        self.case = case
        self.lang = i18n.normalize_lang(lang)
        self.proj = proj or case_projection(case)
        self.guesses: dict[int, LatLon] = {}
        self.active = LEADS[0]
        self.revealed = False

    def _check_open(self) -> None:
        if self.revealed:
            raise ForecastInputError(lt("forecast.revealed_locked", self.lang))

    def _check_inside(self, lat: float, lon: float) -> None:
        p = self.proj
        if not inside(p, lat, lon):
            raise ForecastInputError(lt("forecast.outside", self.lang, lat=f"{lat:g}", lon=f"{lon:g}", south=f"{p.south:g}",
                                north=f"{p.north:g}", west=f"{p.west:g}", east=f"{p.east:g}"))

    def choose(self, lead: int) -> None:
        """Make ``lead`` the guess that the next click, typed position or arrow moves."""
        if lead not in LEADS:
            raise ValueError(f"a guess is for {', '.join(map(str, LEADS))} hours, not {lead}")
        self.active = lead

    def place(self, lat: float, lon: float, lead: int | None = None) -> int:
        """Put the guess for ``lead`` (default: the active one) at ``lat, lon``; the next unplaced lead becomes
        active. Returns the lead placed. Off the map: ``ValueError``, nothing changes."""
        self._check_open()
        lead = self.active if lead is None else lead
        if lead not in LEADS:
            raise ValueError(f"a guess is for {', '.join(map(str, LEADS))} hours, not {lead}")
        lat, lon = round(float(lat), 2), round(float(lon), 2)
        self._check_inside(lat, lon)
        self.guesses[lead] = (lat, lon)
        later = [h for h in LEADS if h not in self.guesses and h > lead] or [h for h in LEADS if h not in self.guesses]
        self.active = later[0] if later else lead
        return lead

    def place_pixel(self, x: float, y: float) -> int:
        """A click or tap at canvas pixel ``(x, y)``."""
        lon, lat = self.proj.lonlat(x, y)
        return self.place(round(lat, 1), round(lon, 1))

    def nudge(self, dlat: float, dlon: float) -> None:
        """Move the active guess by ``dlat, dlon`` arrow steps (half a degree each); an unplaced guess starts
        from the guess before it, or from the storm now."""
        self._check_open()
        start = self.guesses.get(self.active)
        if start is None:
            before = [self.guesses[h] for h in LEADS if h < self.active and h in self.guesses]
            start = before[-1] if before else (self.case.now.lat, self.case.now.lon)
        lat, lon = round(start[0] + dlat * STEP_DEG, 2), round(start[1] + dlon * STEP_DEG, 2)
        self._check_inside(lat, lon)
        self.guesses[self.active] = (lat, lon)

    def missing(self) -> list[int]:
        return [h for h in LEADS if h not in self.guesses]

    def reveal(self) -> list[ResultRow]:
        """Show the truth; ``ValueError`` (naming what is missing) unless all three guesses are placed."""
        if self.missing():
            raise ForecastInputError(lt("forecast.need_all", self.lang, missing=i18n.join_names(
                [lt("forecast.lead_cell", self.lang, h=h).lstrip("+") for h in self.missing()], self.lang)))
        self.revealed = True
        return self.results()

    def results(self) -> list[ResultRow]:
        return score(self.case, self.guesses)

    def show_truth(self) -> None:
        """Reveal the best track whatever is placed (the class round's reveal, where the teams' forecasts count)."""
        self.revealed = True

    def reset(self) -> None:
        self.guesses.clear()
        self.active = LEADS[0]
        self.revealed = False


def score(case: Case, guesses: Mapping[int, LatLon]) -> list[ResultRow]:
    """Each guess against the best track: its error, the typical error and that of "keep going straight".

    >>> c = find_case("recurve"); rows = score(c, {h: (c.now.lat, c.now.lon) for h in LEADS})
    >>> [r.lead for r in rows], rows[0].typical_km, rows[2].error_km > rows[0].error_km
    ([24, 48, 72], 69, True)
    """
    out = []
    for h in LEADS:
        if h not in guesses:
            continue
        lat, lon = guesses[h]
        t = case.truth[h]
        out.append(ResultRow(h, (lat, lon), (t.lat, t.lon), round(guess_error_km(case, h, lat, lon), 1),
                             TYPICAL_ERROR_KM[h], round(case.persistence_error_km(h), 1)))
    return out


def mean_error(rows: Sequence[ResultRow]) -> float:
    return round(sum(r.error_km for r in rows) / len(rows), 1) if rows else math.nan


def team_table(case: Case, teams: Mapping[str, Mapping[int, LatLon]]) -> list[tuple[int, str, list[ResultRow], float]]:
    """The class round's scores: ``(rank, team, rows, mean error)``, best first; equal means share a rank.

    >>> c = find_case("steady"); t = c.truth
    >>> exact = {h: (t[h].lat, t[h].lon) for h in LEADS}
    >>> off = {h: (t[h].lat + 1, t[h].lon) for h in LEADS}
    >>> [(rank, name, round(m)) for rank, name, _, m in team_table(c, {"Owls": off, "Bats": exact, "Cats": exact})]
    [(1, 'Bats', 0), (1, 'Cats', 0), (3, 'Owls', 111)]
    """
    scored = [(name, rows, mean_error(rows)) for name, g in teams.items() if len(rows := score(case, g)) == len(LEADS)]
    scored.sort(key=lambda item: (item[2], item[0]))
    out, rank = [], 0
    for k, (name, rows, m) in enumerate(scored):
        if k == 0 or m != scored[k - 1][2]:
            rank = k + 1
        out.append((rank, name, rows, m))
    return out


# --- the cone and the scene -------------------------------------------------------------------------------


def cone_points(centres: Sequence[tuple[float, float]], radii: Sequence[float], steps: int = 12) -> list[tuple[float, float]]:
    """An outline around circles along a track (pixels): each circle's left and right side, joined, with a round
    cap at the end — the way forecast cones are drawn. The first circle may have radius 0.

    >>> pts = cone_points([(0, 0), (100, 0)], [0, 10], steps=4)
    >>> min(y for _, y in pts), max(y for _, y in pts), max(x for x, _ in pts)
    (-10.0, 10.0, 110.0)
    """
    if len(centres) != len(radii) or len(centres) < 2:
        raise ValueError("a cone needs as many radii as centres, and at least two of each")
    n = len(centres)
    heads = []
    for k in range(n):
        a, b = centres[max(k - 1, 0)], centres[min(k + 1, n - 1)]
        heads.append(math.atan2(b[1] - a[1], b[0] - a[0]))
    left, right = [], []
    for (x, y), r, h in zip(centres, radii, heads, strict=True):
        left.append((round(x + r * math.sin(h), 3), round(y - r * math.cos(h), 3)))
        right.append((round(x - r * math.sin(h), 3), round(y + r * math.cos(h), 3)))
    (ex, ey), er, eh = centres[-1], radii[-1], heads[-1]
    cap = [(round(ex + er * math.cos(eh - math.pi / 2 + math.pi * j / steps), 3),
            round(ey + er * math.sin(eh - math.pi / 2 + math.pi * j / steps), 3)) for j in range(1, steps)]
    return [*left, *cap, *reversed(right)]


def _diamond(x: float, y: float, r: float) -> tuple[tuple[float, float], ...]:
    return ((x, y - r), (x + r, y), (x, y + r), (x - r, y))


def fan_out(points: Mapping[int, tuple[float, float]], r: float,
            bounds: tuple[float, float] | None = None) -> dict[int, tuple[float, float]]:
    """Where to draw markers of radius ``r`` for ``points`` (lead → canvas px) so that none hides another: a marker
    stays on its point unless another's point is closer than ``1.5 r``; such a group is spread on a small ring around
    its middle, in the order of the leads from the left (west) clockwise, touching-free. A marker that a spread group's
    ring comes near (one "that stalls, then moves a little") joins the group, until no two markers touch. Two guesses
    of the same place ("it stalls there") so show both numbers, not only the one drawn last. ``bounds`` (the canvas's
    width and height): a ring is moved inside it.

    >>> fan_out({24: (100.0, 100.0), 48: (300.0, 100.0)}, 13)
    {24: (100.0, 100.0), 48: (300.0, 100.0)}
    >>> fan_out({24: (100.0, 100.0), 48: (100.0, 100.0)}, 13)
    {24: (85.96, 100.0), 48: (114.04, 100.0)}
    >>> spots = fan_out({24: (100.0, 100.0), 48: (100.0, 100.0), 72: (120.0, 100.0)}, 13)  # 72 near the ring
    >>> min(math.dist(a, b) for i, a in enumerate(spots.values()) for b in list(spots.values())[i + 1:]) > 26
    True
    >>> fan_out({24: (2.0, 50.0), 48: (2.0, 50.0)}, 13, bounds=(400, 300))[24]  # kept on the canvas
    (13.0, 50.0)
    """
    leads = list(points)
    group = {h: h for h in leads}  # union-find on the leads: a group's points are chained by near neighbours

    def root(h: int) -> int:
        while group[h] != h:
            h = group[h]
        return h

    for i, a in enumerate(leads):
        for b in leads[i + 1:]:
            if math.dist(points[a], points[b]) < 1.5 * r:
                group[root(b)] = root(a)
    out: dict[int, tuple[float, float]] = {}
    for _ in range(len(leads)):  # each pass merges two groups or ends: at most one pass a lead
        out = {h: (float(points[h][0]), float(points[h][1])) for h in leads}
        for head in {root(h) for h in leads}:
            members = [h for h in leads if root(h) == head]
            k = len(members)
            if k < 2:
                continue
            cx, cy = (sum(points[h][0] for h in members) / k, sum(points[h][1] for h in members) / k)
            ring = 1.08 * r / math.sin(math.pi / k)  # neighbours on the ring 2.16 r apart: the circles do not touch
            if bounds is not None:
                cx = min(max(cx, ring + r), max(ring + r, bounds[0] - ring - r))
                cy = min(max(cy, ring + r), max(ring + r, bounds[1] - ring - r))
            for i, h in enumerate(members):
                a = math.pi + 2 * math.pi * i / k  # the first on the left (west), then clockwise on the screen
                out[h] = (round(cx + ring * math.cos(a), 3), round(cy + ring * math.sin(a), 3))
        touching = next(((a, b) for i, a in enumerate(leads) for b in leads[i + 1:]
                         if root(a) != root(b) and math.dist(out[a], out[b]) < 2.05 * r), None)
        if touching is None:
            break
        group[root(touching[1])] = root(touching[0])
    return out


# --- where the texts go: inside the map, clear of the markers and of each other ----------------------------------

#: The shapes a text beside something must keep off: the guesses, the truth's diamonds, the teams' guesses, the track's
#: dots, the storm now and the other storm's.
MARKER_ROLES = frozenset({"guess", "truth-mark", "team-guess", "fix", "now", "now-class", "partner-fix", "partner-now"})
#: The eight places around a point, as directions (x east, y down): east first, then counter-clockwise.
_AROUND = tuple((round(math.cos(math.radians(a)), 6), round(-math.sin(math.radians(a)), 6)) for a in range(0, 360, 45))


@dataclass(frozen=True)
class _Keepout:
    """Something a text placed beside a marker must keep off: a text's box, or a marker's outline (a circle or the
    truth's diamond, exactly: a box may come near a round marker's corner of its bounds), grown by ``pad``."""

    kind: str  # "box", "circle" (cx, cy, r) or "diamond" (cx, cy, half its diagonal)
    at: tuple[float, ...]

    @classmethod
    def of(cls, shape: Shape, pad: float) -> _Keepout:
        """A marker kept off by ``pad`` px: a circle, the truth's diamond, or any other shape's bounds."""
        if isinstance(shape, Circle):
            return cls("circle", (shape.cx, shape.cy, shape.r + pad))
        xs, ys = [p[0] for p in getattr(shape, "points", ())], [p[1] for p in getattr(shape, "points", ())]
        if shape.role == "truth-mark":
            return cls("diamond", ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, (max(xs) - min(xs)) / 2 + pad))
        return cls("box", (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad))

    def depth(self, box: Box) -> float:
        """How far ``box`` runs into it (0: clear; touching is clear).

        >>> _Keepout("circle", (0.0, 0.0, 10.0)).depth((7.5, 7.5, 20, 20)), _Keepout("box", (0, 0, 10, 10)).depth((8, 5, 20, 20))
        (0.0, 2.0)
        """
        if self.kind == "box":
            a = self.at
            return float(max(0.0, min(min(a[2], box[2]) - max(a[0], box[0]), min(a[3], box[3]) - max(a[1], box[1]))))
        cx, cy, r = self.at
        dx = max(box[0] - cx, 0.0, cx - box[2])  # from the centre to the nearest point of the box
        dy = max(box[1] - cy, 0.0, cy - box[3])
        return float(max(0.0, r - (math.hypot(dx, dy) if self.kind == "circle" else dx + dy)))


def _crosses(box: Box, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether the segment ``a``–``b`` passes through ``box`` (clipped against it, Liang–Barsky).

    >>> _crosses((0, 0, 10, 10), (-5, 5), (15, 5)), _crosses((0, 0, 10, 10), (-5, -5), (15, -1))
    (True, False)
    """
    (x0, y0), (dx, dy) = a, (b[0] - a[0], b[1] - a[1])
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        r = q / p
        if p < 0:
            lo = max(lo, r)
        else:
            hi = min(hi, r)
        if lo > hi:
            return False
    return True


def _beside(x: float, y: float, d: float, direction: tuple[float, float], w: float, h: float) -> tuple[float, float]:
    """The centre of a ``w`` × ``h`` box set off the point ``(x, y)`` by ``d`` in one of the eight directions of
    :data:`_AROUND`: east or west its near side ``d`` away, level with the point; north or south its near side ``d``
    away, centred; diagonally its near corner ``d`` away.

    >>> _beside(0, 0, 10, (1.0, 0.0), 40, 10), _beside(0, 0, 10, (0.0, 1.0), 40, 10)
    ((30.0, 0.0), (0.0, 15.0))
    """
    x, y = float(x), float(y)
    ux, uy = direction
    sx = 0.0 if abs(ux) < 0.3 else math.copysign(1.0, ux)
    sy = 0.0 if abs(uy) < 0.3 else math.copysign(1.0, uy)
    if sx and sy:
        return (x + sx * (d * math.sqrt(0.5) + w / 2), y + sy * (d * math.sqrt(0.5) + h / 2))
    if sx:
        return (x + sx * (d + w / 2), y)
    return (x, y + sy * (d + h / 2))


@dataclass
class _Room:
    """What a text placed beside a marker must keep to: the map's bounds, the markers and the texts placed so far
    (``taken``: never overlapped if there is any other way), the map's own texts, its coordinates and names (``soft``),
    and the lines a text had better not hide (``lines``): these two only where keeping off them means going further."""

    width: float
    height: float
    taken: list[_Keepout]
    soft: list[Box]
    pad: float
    lines: list[tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=list)

    def place(self, x: float, y: float, text: str, size: float, *, first: float, step: float, rings: int,
              prefer: tuple[float, float], others: Sequence[tuple[float, float]] = ()) -> tuple[float, float, float, float]:
        """Where ``text`` (``size`` px, centred) goes beside the marker at ``(x, y)``: ``(x, y, clash, cost)``, its centre,
        how deep it runs into something taken (0 where it could keep clear) and what the place costs.

        The eight places around the marker at ``first`` px, then each ``step`` further, up to ``rings`` steps; the
        places nearest the direction ``prefer`` first. The cheapest that is inside the map and clear of everything taken;
        where none is, the one that runs in least. A step out costs a quarter of the text's size in characters, a place
        turned 45° from ``prefer`` 0.1, one of the map's own texts under it 1, a line through it 0.25, a centre nearer
        one of the points ``others`` (the other guesses) than ``(x, y)`` 0.5, as it would seem to be theirs. The box
        is then taken."""
        x0, y0, x1, y1 = text_box(Text(x=0.0, y=0.0, text=text, size=size))
        w, h = x1 - x0 + 2 * self.pad, y1 - y0 + 2 * self.pad
        angle = math.atan2(prefer[1], prefer[0])
        order = sorted(range(len(_AROUND)), key=lambda k: (round(abs(math.remainder(
            math.atan2(_AROUND[k][1], _AROUND[k][0]) - angle, math.tau)), 6), k))
        # only what a place within reach can meet
        reach = first + rings * step + w + h
        near = (x - reach, y - reach, x + reach, y + reach)
        taken = [keep for keep in self.taken if keep.depth(near) > 0]
        soft = [b for b in self.soft if overlaps(near, b)]
        lines = [(a, b) for a, b in self.lines if _crosses(near, a, b)]
        best: tuple[float, ...] | None = None
        for ring in range(rings + 1):
            for rank, k in enumerate(order):
                cx, cy = _beside(x, y, first + ring * step, _AROUND[k], w, h)
                # inside the map: slid back in along the edge where it would stick out
                cx = min(max(cx, w / 2), self.width - w / 2)
                cy = min(max(cy, h / 2), self.height - h / 2)
                box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                clash = sum(keep.depth(box) for keep in taken)
                cost = (ring * step / size + 0.1 * rank + sum(1 for b in soft if overlaps(box, b))
                        + 0.25 * sum(1 for a, b in lines if _crosses(box, a, b))
                        + 0.5 * any(math.dist((cx, cy), o) < math.dist((cx, cy), (x, y)) for o in others))
                if best is None or (clash, cost) < (best[0], best[1]):
                    best = (clash, cost, cx, cy, ring)
            if best is not None and best[0] == 0 and best[1] < (ring + 1) * step / size:  # further out costs more
                break
        assert best is not None
        clash, cost, cx, cy, _ = best
        self.taken.append(_Keepout("box", (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)))
        return (cx, cy, clash, cost)


def forecast_scene(rnd: ForecastRound, teams: Mapping[str, Mapping[int, LatLon]] | None = None, *,
                   min_text: float = 0.0) -> list[Shape]:
    """The dynamic layer: the track so far (and a pair's other storm), the guesses, every team's guesses; after the
    reveal the cone around the guesses, the best track and each guess's error.

    ``min_text`` (a phone's drawing, :data:`~typhoon_edu.ui.realmap.PHONE_MIN_TEXT`): every text at least that large,
    in canvas px, each marker grown to hold its number (a guess's lead, a team's initial, the truth's lead). 0 (the
    default) is the usual drawing. In both, the storms' names and the errors go inside the map, clear of every marker
    and of each other (:func:`_texts_beside`), and are drawn last.

    >>> r = ForecastRound(find_case("pair"))
    >>> roles = [s.role for s in forecast_scene(r)]
    >>> "partner-fix" in roles, "truth" in roles
    (True, False)
    >>> t = r.case.truth
    >>> for h in LEADS:
    ...     _ = r.place(t[h].lat + 1, t[h].lon)
    >>> _ = r.reveal(); roles = [s.role for s in forecast_scene(r)]
    >>> roles.count("truth-mark"), roles.count("error"), "cone" in roles
    (3, 3, True)
    """
    case, proj = rnd.case, rnd.proj
    shapes: list[Shape] = []
    # the sizes of the usual drawing, or a phone's: a marker's number ("72" bold) needs a circle of about 0.8 of its
    # size, a diamond reaching 1.1 of it; a team's initial (one letter) a circle of 0.6
    label = max(11.0, min_text)
    guess_r, team_r, diamond = max(13.0, 0.8 * min_text), max(8.0, 0.6 * min_text), max(12.0, 1.1 * min_text)
    if case.partner is not None and case.partner_index is not None:
        # the other storm in grey, so the one to forecast stands out (its name is written beside it too)
        seen = [proj.xy(f.lon, f.lat) for f in case.partner_seen()]
        shapes.append(Line(points=tuple(seen), stroke=PARTNER_COLOUR, line_width=3, role="partner-leg"))
        shapes += [Circle(cx=x, cy=y, r=3.5, fill=PARTNER_COLOUR, stroke=palette.INK, line_width=0.8, role="partner-fix")
                   for x, y in seen]
        x, y = seen[-1]
        shapes.append(Circle(cx=x, cy=y, r=9, fill=PARTNER_COLOUR, stroke=palette.INK, line_width=2.5, role="partner-now"))
    shapes += track_scene(case.storm, case.index, proj, radii=False, whole=False)
    nx, ny = proj.xy(case.now.lon, case.now.lat)
    guesses = [(h, rnd.guesses[h]) for h in LEADS if h in rnd.guesses]
    if rnd.revealed and len(guesses) == len(LEADS):
        centres = [(nx, ny), *[proj.xy(lon, lat) for _, (lat, lon) in guesses]]
        radii = [0.0, *[proj.km(TYPICAL_ERROR_KM[h]) for h, _ in guesses]]
        shapes.append(Polygon(points=tuple(cone_points(centres, radii)), fill=CONE_COLOUR, stroke="#b45309",
                              line_width=1.5, alpha=0.28, role="cone"))
        for (h, _), c, r in zip(guesses, centres[1:], radii[1:], strict=True):
            shapes.append(Circle(cx=c[0], cy=c[1], r=r, stroke="#b45309", line_width=1.2, alpha=0.8, role="cone-circle",
                                 key=str(h)))
    # the teams' guesses are drawn only after the reveal: before it, a team that saves later could copy them
    for k, (name, g) in enumerate((teams or {}).items() if rnd.revealed else ()):
        colour = TEAM_COLOURS[k % len(TEAM_COLOURS)]
        pts = [proj.xy(g[h][1], g[h][0]) for h in LEADS if h in g]
        if pts:
            shapes.append(Line(points=((nx, ny), *pts), stroke=colour, line_width=2, dash=(3, 3), role="team-path", key=name))
        for x, y in pts:
            shapes.append(Circle(cx=x, cy=y, r=team_r, fill="#ffffff", stroke=colour, line_width=2.5, role="team-guess",
                                 key=name))
            shapes.append(Text(x=x, y=y, text=name[:1].upper(), size=label, bold=True, fill=colour, role="team-initial",
                               key=name))
    if guesses:
        pts = [proj.xy(lon, lat) for _, (lat, lon) in guesses]
        shapes.append(Line(points=((nx, ny), *pts), stroke=GUESS_COLOUR, line_width=2.5, dash=(6, 4), role="guess-path"))
    if rnd.revealed:
        six = case.storm.six_hourly()
        ahead = [f for f in six[case.index:] if f.time <= case.truth[LEADS[-1]].time]
        shapes.append(Line(points=tuple(proj.xy(f.lon, f.lat) for f in ahead), stroke=palette.INK, line_width=6.5,
                           role="truth-outline"))
        shapes.append(Line(points=tuple(proj.xy(f.lon, f.lat) for f in ahead), stroke=TRUTH_COLOUR, line_width=4,
                           role="truth"))
        for h, (lat, lon) in guesses:
            gx, gy = proj.xy(lon, lat)
            t = case.truth[h]
            tx, ty = proj.xy(t.lon, t.lat)
            shapes.append(Line(points=((gx, gy), (tx, ty)), stroke=ERROR_COLOUR, line_width=2.5, dash=(2, 3), role="error",
                               key=str(h)))
        truths = {h: proj.xy(case.truth[h].lon, case.truth[h].lat) for h in LEADS}
        for h, (tx, ty) in fan_out(truths, diamond, (proj.width, proj.height)).items():
            shapes += _tie(truths[h], (tx, ty), diamond, TRUTH_COLOUR, "truth", str(h))
            shapes.append(Polygon(points=_diamond(tx, ty, diamond), fill=TRUTH_COLOUR, stroke=palette.INK, line_width=1.5,
                                  role="truth-mark", key=str(h)))
            shapes.append(Text(x=tx, y=ty, text=str(h), size=label, bold=True, fill="#ffffff", role="truth-label",
                               key=str(h)))
        if case.partner is not None:
            pt = case.partner_truth()
            if pt:
                shapes.append(Line(points=tuple(proj.xy(f.lon, f.lat) for f in
                                                [case.partner.six_hourly()[case.partner_index or 0], *pt.values()]),
                                   stroke="#475569", line_width=3, dash=(8, 4), role="partner-truth"))
    spots = fan_out({h: proj.xy(lon, lat) for h, (lat, lon) in guesses}, guess_r, (proj.width, proj.height))
    for h, (lat, lon) in guesses:
        gx, gy = spots[h]
        shapes += _tie(proj.xy(lon, lat), (gx, gy), guess_r, GUESS_COLOUR, "guess", str(h))
        ring = h == rnd.active and not rnd.revealed
        shapes.append(Circle(cx=gx, cy=gy, r=guess_r, fill="#ffffff", stroke=GUESS_COLOUR, line_width=4 if ring else 2.5,
                             role="guess", key=str(h)))
        shapes.append(Text(x=gx, y=gy, text=str(h), size=label, bold=True, fill=GUESS_COLOUR, role="guess-label",
                           key=str(h)))
    return shapes + _texts_beside(rnd, shapes, min_text, guess_r, spots)


def _tie(point: tuple[float, float], spot: tuple[float, float], r: float, colour: str, role: str,
         key: str) -> list[Shape]:
    """For a marker moved off its point by :func:`fan_out`: a dot on the point and a line from it to the marker's
    edge (``role``-spot and ``role``-tie); nothing for a marker on its point."""
    gap = math.dist(point, spot)
    if gap < 0.5:
        return []
    edge = (round(spot[0] + r * (point[0] - spot[0]) / gap, 3), round(spot[1] + r * (point[1] - spot[1]) / gap, 3))
    return [Line(points=(point, edge), stroke=colour, line_width=2, role=f"{role}-tie", key=key),
            Circle(cx=point[0], cy=point[1], r=3.5, fill=colour, stroke=palette.INK, line_width=1, role=f"{role}-spot",
                   key=key)]


def _texts_beside(rnd: ForecastRound, shapes: Sequence[Shape], min_text: float, guess_r: float,
                  spots: Mapping[int, tuple[float, float]]) -> list[Shape]:
    """The texts :func:`forecast_scene` sets beside its markers, placed inside the map and clear of every marker and of
    each other (:class:`_Room`): the storm's name (below the storm now where it can), the other storm's (above it), and
    after the reveal each guess's error ("108 km") beside its guess, on the side away from the truth where it can,
    with a leader line from the guess where it had to move further out. Drawn last, over the rest. ``spots``: where
    each guess's marker is drawn (:func:`fan_out`)."""
    case, proj, lang = rnd.case, rnd.proj, rnd.lang
    name_size, partner_size, error_size = max(15.0, min_text), max(14.0, min_text), max(13.0, min_text)
    pad = 2.0 if not min_text else 3.0
    soft = [text_box(t) for t in static_scene(proj, lang, min_text=min_text) if isinstance(t, Text)]
    # the lines a text had better not hide: the track so far, the guesses' path, the truth, the errors
    lines = [(p, q) for s in shapes if isinstance(s, Line) and s.role in ("leg", "guess-path", "truth", "error")
             for p, q in zip(s.points, s.points[1:], strict=False)]
    room = _Room(float(proj.width), float(proj.height), [_Keepout.of(s, pad) for s in shapes if s.role in MARKER_ROLES],
                 soft, pad, lines)
    out: list[Shape] = []
    # the storm's name below it and the other storm's above it, as before, unless something is there
    nx, ny = proj.xy(case.now.lon, case.now.lat)
    x, y, _, _ = room.place(nx, ny, storm_title(case.storm, lang), name_size, first=13.0, step=0.25 * name_size, rings=8,
                           prefer=(0.0, 1.0))
    out.append(Text(x=x, y=y, text=storm_title(case.storm, lang), size=name_size, bold=True, halo=palette.HALO,
                    role="storm-name"))
    if case.partner is not None and case.partner_index is not None and case.partner_seen():
        f = case.partner_seen()[-1]
        px, py = proj.xy(f.lon, f.lat)
        x, y, _, _ = room.place(px, py, storm_title(case.partner, lang), partner_size, first=10.0,
                               step=0.25 * partner_size, rings=8, prefer=(0.0, -1.0))
        out.append(Text(x=x, y=y, text=storm_title(case.partner, lang), size=partner_size, bold=True, halo=palette.HALO,
                        role="partner-name"))
    if not rnd.revealed:
        return out
    wanted: list[tuple[int, float, float, str, tuple[float, float]]] = []  # lead, guess x and y, text, away from truth
    for h in LEADS:
        if h not in rnd.guesses:
            continue
        lat, lon = rnd.guesses[h]
        t = case.truth[h]
        gx, gy = spots[h]
        tx, ty = proj.xy(t.lon, t.lat)
        text = lt("forecast.error_label", lang, km=f"{great_circle_km(lat, lon, t.lat, t.lon):.0f}")
        d = math.hypot(tx - gx, ty - gy)
        away = ((gx - tx) / d, (gy - ty) / d) if d > 1 else (0.6, -0.8)  # the error's line is on the other side
        wanted.append((h, gx, gy, text, away))

    def put(into: _Room, want: tuple[int, float, float, str, tuple[float, float]]) -> tuple[float, float, float, float]:
        _, gx, gy, text, away = want
        return into.place(gx, gy, text, error_size, first=guess_r + 0.2 * error_size, step=0.25 * error_size, rings=20,
                          prefer=away, others=[(w[1], w[2]) for w in wanted if w[0] != want[0]])

    # placed one after the other, in the order that costs least in all (a label placed first can take the place of the
    # next one's, beside a guess close by); no order costs less than each label where it would go alone
    least = round(sum(put(replace(room, taken=list(room.taken)), w)[3] for w in wanted), 6)
    best: tuple[float, float, dict[int, tuple[float, float]]] = (math.inf, math.inf, {})
    for order in itertools.permutations(wanted):
        trial = replace(room, taken=list(room.taken))
        placed, clash, cost = {}, 0.0, 0.0
        for want in order:
            x, y, c, k = put(trial, want)
            placed[want[0]], clash, cost = (x, y), clash + c, cost + k
        if (round(clash, 6), round(cost, 6)) < best[:2]:
            best = (round(clash, 6), round(cost, 6), placed)
        if best[:2] == (0.0, least):
            break
    labels: list[Shape] = []
    for h, gx, gy, text, _ in wanted:
        x, y = best[2][h]
        label = Text(x=x, y=y, text=text, size=error_size, bold=True, fill=ERROR_COLOUR, halo=palette.HALO,
                     role="error-km", key=str(h))
        box = text_box(label)
        # the point of the label nearest the guess; further than about a character from its circle: a leader line
        bx, by = min(max(gx, box[0]), box[2]), min(max(gy, box[1]), box[3])
        gap = math.hypot(bx - gx, by - gy)
        if gap - guess_r > 0.75 * error_size:
            ex, ey = gx + guess_r * (bx - gx) / gap, gy + guess_r * (by - gy) / gap
            out.append(Line(points=((round(ex, 3), round(ey, 3)), (round(bx, 3), round(by, 3))), stroke=ERROR_COLOUR,
                            line_width=1.5, role="error-leader", key=str(h)))
        labels.append(label)
    return out + labels


# --- words -----------------------------------------------------------------------------------------------

def heading_name(bearing: float, lang: str = "en") -> str:
    """The nearest of 8 compass points, in words.

    >>> heading_name(290), heading_name(40, "zh-TW")
    ('west', '東北')
    """
    return lt(f"forecast.heading_{EIGHT[int(((bearing % 360) + 22.5) // 45) % 8]}", lang)


def briefing(case: Case, lang: str = "en") -> str:
    """What the forecaster knows now: time, centre, pressure, wind, the last 24 hours' motion, the other storm.

    >>> "km/h" in briefing(find_case("steady")), "公里" in briefing(find_case("pair"), "zh-TW")
    (True, True)
    """
    six = case.storm.six_hourly()
    now, before = case.now, six[case.index - 4]
    km = great_circle_km(before.lat, before.lon, now.lat, now.lon)
    wind = lt("forecast.now_wind", lang, kt=now.wind_kt) if now.wind_kt else lt("forecast.now_no_wind", lang)
    lines = [lt("forecast.now", lang, storm=storm_title(case.storm, lang), time=now.time.strftime("%Y-%m-%d %H:%M"),
                lat=f"{now.lat:.1f}", lon=f"{now.lon:.1f}", hpa=now.pressure, wind=wind),
             lt("forecast.motion", lang, km=f"{km:.0f}", kmh=f"{km / 24:.0f}",
                heading=heading_name(bearing_deg(before.lat, before.lon, now.lat, now.lon), lang))]
    if case.partner is not None and case.partner_index is not None:
        p = case.partner.six_hourly()[case.partner_index]
        lines.append(lt("forecast.partner", lang, storm=storm_title(case.partner, lang),
                        km=f"{great_circle_km(p.lat, p.lon, now.lat, now.lon):.0f}"))
    return "<br>".join(escape(keep_units(x)) for x in lines)


def case_label(case: Case, number: int, lang: str = "en") -> str:
    """``1 · easy: moving steadily west — Vamco 2020``."""
    return lt("forecast.case_label", lang, n=number, level=lt(f"forecast.level_{case.level}", lang),
              what=lt(f"forecast.what_{case.key}", lang), storm=storm_title(case.storm, lang))


def status_text(rnd: ForecastRound) -> str:
    """The live description of the map (read out by screen readers): each guess, and what the next click does.

    >>> r = ForecastRound(find_case("steady")); _ = r.place(15.0, 117.0)
    >>> status_text(r)
    'Your forecast: 24 h: 15 °N, 117 °E · 48 h: not placed yet · 72 h: not placed yet. The next click places the 48-hour guess.'
    """
    lang = rnd.lang
    if not rnd.guesses:  # the class round's reveal shows the track on a screen that placed nothing
        return lt("forecast.status_truth" if rnd.revealed else "forecast.status_start", lang, h=rnd.active)
    parts = [lt("forecast.status_guess", lang, h=h, lat=f"{rnd.guesses[h][0]:g}", lon=f"{rnd.guesses[h][1]:g}")
             if h in rnd.guesses else lt("forecast.status_missing", lang, h=h) for h in LEADS]
    head = lt("forecast.status_start", lang, h=rnd.active).split("：" if lang == "zh-TW" else ":")[0]
    sep = "：" if lang == "zh-TW" else ": "
    text = head + sep + " · ".join(parts) + ("。" if lang == "zh-TW" else ". ")
    if rnd.revealed:
        return text + lt("forecast.status_revealed", lang, summary=summary_text(rnd.results(), lang))
    return text + (lt("forecast.status_done", lang) if not rnd.missing() else lt("forecast.status_next", lang, h=rnd.active))


def summary_text(rows: Sequence[ResultRow], lang: str = "en") -> str:
    typical = round(sum(r.typical_km for r in rows) / len(rows)) if rows else 0
    return lt("forecast.summary", lang, mean=f"{mean_error(rows):.0f}", typical=typical)


def results_html(rows: Sequence[ResultRow], lang: str = "en") -> str:
    """The reveal's table: each lead's error, the typical official one, inside the circle, and "keep going straight".

    >>> rows = score(find_case("steady"), {24: (15.0, 116.0), 48: (15.0, 112.0), 72: (17.0, 109.0)})
    >>> html = results_html(rows); html.count("<tr") == 4, "175" in html
    (True, True)
    """
    header = [lt(f"forecast.col_{c}", lang) for c in ("lead", "yours", "typical", "inside", "straight")]
    body = [(lt("forecast.lead_cell", lang, h=r.lead), f"{r.error_km:.0f}", f"{r.typical_km}",
             lt("forecast.yes" if r.inside else "forecast.no", lang), f"{r.straight_km:.0f}") for r in rows]
    return (f"<div class='forecast-results'>{html_table(header, body)}"
            f"<p style='font-size:1.05em'><b>{escape(keep_units(summary_text(rows, lang)))}</b></p></div>")


def teams_html(case: Case, teams: Mapping[str, Mapping[int, LatLon]], revealed: bool, lang: str = "en") -> str:
    """The class round's table: before the reveal the teams and their guesses, after it their scores, best first."""
    if not teams:
        return f"<p>{escape(lt('forecast.teams_none', lang))}</p>"
    head = f"<b>{escape(lt('forecast.teams_title', lang))}</b>"
    if not revealed:  # who has saved, never where: a team saving later must not copy the positions
        rows = [(name, lt("forecast.team_hidden", lang)) for name in teams]
        return head + html_table([lt("forecast.col_team", lang), lt("forecast.col_forecast", lang)], rows)
    ranked = [(rank, name, *[f"{r.error_km:.0f}" for r in rows], f"{m:.0f}") for rank, name, rows, m in team_table(case, teams)]
    return head + html_table([lt("forecast.col_rank", lang), lt("forecast.col_team", lang),
                              *[lt("forecast.lead_cell", lang, h=h) for h in LEADS], lt("forecast.col_mean", lang)], ranked)


def legend_html(lang: str = "en") -> str:
    items = [(f"<svg width='26' height='26' style='vertical-align:middle'><circle cx='13' cy='13' r='10' fill='#fff' "
              f"stroke='{GUESS_COLOUR}' stroke-width='2.5'/></svg>", "forecast.legend_guess"),
             (f"<svg width='26' height='26' style='vertical-align:middle'><polygon points='13,2 24,13 13,24 2,13' "
              f"fill='{TRUTH_COLOUR}' stroke='{palette.INK}'/></svg>", "forecast.legend_truth"),
             (f"<svg width='26' height='26' style='vertical-align:middle'><rect x='2' y='6' width='22' height='14' "
              f"fill='{CONE_COLOUR}' fill-opacity='.35' stroke='#b45309'/></svg>", "forecast.legend_cone"),
             (f"<svg width='26' height='26' style='vertical-align:middle'><line x1='2' y1='13' x2='24' y2='13' "
              f"stroke='{ERROR_COLOUR}' stroke-width='2.5' stroke-dasharray='2 3'/></svg>", "forecast.legend_error")]
    return ("<div class='forecast-legend' style='font-size:1em;line-height:1.9'>"
            + "".join(legend_item(pic, lt(k, lang)) for pic, k in items)
            + "</div>")


# --- the answer sheet's rows ------------------------------------------------------------------------------


def forecast_key(case: Case, h: int) -> str:
    """The answer sheet's key of a forecast of ``case`` at lead ``h``, the same in every language.

    >>> forecast_key(find_case("taiwan"), 24)
    'forecast.taiwan.24'
    """
    return f"forecast.{case.key}.{h}"


def forecast_label(case: Case, h: int, lang: str = "en") -> str:
    """The answer sheet's label of a forecast of ``case`` at lead ``h`` in ``lang``: the one place it is written,
    for :meth:`ForecastChallenge.record` and the rows ``typhoon-edu answers`` knows
    (:func:`~typhoon_edu.ui.lessons.answers.forecast_rows`).

    >>> forecast_label(find_case("taiwan"), 24), forecast_label(find_case("taiwan"), 72, "zh-TW")
    ('Forecast Dujuan 2015, +24 h', '預報杜鵑（2015），+72 小時')
    """
    return lt("forecast.csv_forecast", lang, storm=storm_title(case.storm, lang), h=h)


# --- the widget -------------------------------------------------------------------------------------------


class ForecastChallenge(LessonBox):
    """The challenge: choose a storm, place three guesses (click, tap, type or arrows), reveal, compare; and the
    class round (several teams' forecasts on one screen).

    Each reveal writes one row per guess (where it was and how far off) to the lesson's answer sheet ``sheet``
    (:func:`~typhoon_edu.ui.quiz.lesson_sheet` by default), the one the quiz downloads and keeps in a file."""

    def __init__(self, lang: str = "en", cases: Sequence[Case] | None = None, width: int = 760, *,
                 sheet: AnswerSheet | None = None, class_round: Callable[[ForecastChallenge], widgets.Widget] | None = None
                 ) -> None:
        import time

        lang = i18n.normalize_lang(lang)
        self.lang = lang
        self.sheet = sheet if sheet is not None else lesson_sheet("forecast", lang)
        self.cases = list(cases if cases is not None else forecast_cases())
        self.width = width
        self._clock: Callable[[], float] = time.monotonic
        self.taps = TapFilter()
        self.problems = Problems(lambda: self.lang)
        self.teams: dict[str, dict[int, LatLon]] = {}
        #: True while a class round on the class server takes forecasts: only the teacher's reveal shows the truth
        self.class_lock = False
        self._on_reveal: list[Callable[[ForecastRound], Any]] = []
        self.choose = widgets.Dropdown(options=[(case_label(c, k + 1, lang), c.key) for k, c in enumerate(self.cases)],
                                       description=lt("forecast.case", lang), style={"description_width": "initial"},
                                       layout=widgets.Layout(width="auto", max_width="100%"))
        self.briefing = widgets.HTML(layout=widgets.Layout(min_height="4.5em"))
        self.lead = widgets.ToggleButtons(options=[(lt("forecast.lead_option", lang, h=h), h) for h in LEADS],
                                          description=lt("forecast.lead", lang), style={"description_width": "initial",
                                                                                        "button_width": "6em"})
        self.rnd = ForecastRound(self.cases[0], lang, case_projection(self.cases[0], width))
        proj = self.rnd.proj
        fit = f"min({2 * proj.width}px, calc((100vh - 120px) * {proj.width / proj.height:.3f}))"
        self.canvas = MultiCanvas(2, width=proj.width, height=proj.height,
                                  layout=widgets.Layout(width="100%", height="auto", max_width=fit))
        self.canvas.add_class("forecast-map")
        check_canvas_events(self.canvas)  # a malformed tap frame is left out, not answered with Python's words
        self.typed = widgets.Text(placeholder=lt("forecast.typed", lang), description=lt("forecast.typed_label", lang),
                                  style={"description_width": "initial"}, continuous_update=False,
                                  layout=widgets.Layout(width="20em"))
        self.typed.add_class("forecast-typed")
        self.place_button = widgets.Button(description=lt("forecast.place", lang), layout=widgets.Layout(width="auto"))
        self.arrows: dict[str, widgets.Button] = {}
        for key, icon, d in (("north", "arrow-up", (1, 0)), ("south", "arrow-down", (-1, 0)), ("west", "arrow-left", (0, -1)),
                             ("east", "arrow-right", (0, 1))):
            b = widgets.Button(icon=icon, tooltip=lt(f"forecast.{key}", lang), layout=widgets.Layout(width="3em"))
            b.add_class(f"forecast-{key}")
            self.problems.on_click(b, lambda _b, d=d: self.nudge(*d), where=f"forecast: {key}")
            self.arrows[key] = b
        self.reveal_button = widgets.Button(description=lt("forecast.reveal", lang), button_style="primary", icon="eye",
                                            layout=widgets.Layout(width="auto"))
        self.reveal_button.add_class("forecast-reveal")
        self.again_button = widgets.Button(description=lt("forecast.again", lang), icon="undo", layout=widgets.Layout(width="auto"))
        self.status = widgets.HTML()
        self.status.add_class("forecast-status")
        self.results = widgets.HTML()
        self.team_name = widgets.Text(description=lt("forecast.team", lang), style={"description_width": "initial"},
                                      layout=widgets.Layout(width="18em"))
        self.team_button = widgets.Button(description=lt("forecast.team_save", lang), icon="users", layout=widgets.Layout(width="auto"))
        self.team_button.add_class("forecast-team-save")
        self.clear_teams = widgets.Button(description=lt("forecast.teams_clear", lang), icon="trash", layout=widgets.Layout(width="auto"))
        self.team_view = widgets.HTML()
        self.team_feedback = widgets.HTML()
        self.team_view.add_class("forecast-teams")
        self.legend = widgets.HTML(legend_html(lang))
        source = widgets.HTML(f"<div style='font-size:.9em;color:#334155;max-width:60em'>{escape(lt('forecast.cone_note', lang))}"
                              f"<br>{escape(keep_units(lt('forecast.errors_source', lang)))}</div>")
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        keyboard = widgets.HBox([self.typed, self.place_button, *self.arrows.values()], layout=row)
        actions = widgets.HBox([self.reveal_button, self.again_button], layout=row)
        team_box = widgets.VBox([heading(lt("forecast.class_round", lang), 4), note(lt("forecast.class_round_note", lang)),
                                 widgets.HBox([self.team_name, self.team_button, self.clear_teams], layout=row), self.team_feedback,
                                 self.team_view])
        # on the class server the teams send from their own devices (forecast_class.py); else one screen for all
        self.class_panel = None
        if class_round is not None:
            from ...classroom.errors import ClassroomError

            try:
                self.class_panel = class_round(self)
            except ClassroomError as exc:  # a store that cannot be used: said (in the page's language), one screen instead
                self.problems.report(exc, "forecast: class round")
        if self.class_panel is not None:
            team_box = self.class_panel
        self.problems.observe(self.choose, lambda change: self.select(change["new"]), where="forecast: storm")
        self.problems.observe(self.lead, lambda change: self._choose_lead(change["new"]), where="forecast: lead")
        self.problems.on_click(self.place_button, lambda _b: self.type_position(self.typed.value), where="forecast: place")
        self.problems.observe(self.typed, lambda change: self.type_position(change["new"]) if change["new"] else None,
                              where="forecast: typed")
        self.problems.on_click(self.reveal_button, lambda _b: self.reveal(), where="forecast: reveal")
        self.problems.on_click(self.again_button, lambda _b: self.again(), where="forecast: again")
        self.problems.on_click(self.team_button, lambda _b: self._save_team_clicked(), where="forecast: team")
        self.problems.on_click(self.clear_teams, lambda _b: self.reset_teams(), where="forecast: clear teams")
        self.problems.on_mouse_down(self.canvas, lambda x, y: self.tap("mouse", x, y), where="forecast: click")
        self.canvas.on_touch_start(self.problems.guard(lambda touches: self.tap("touch", *touches[0]) if touches else None,
                                                       "forecast: tap"))
        self.problems.on_client_ready(self.canvas, lambda: self.redraw(), where="forecast: draw")
        # the map for the keyboard and a screen reader: a named tab stop whose arrow keys move the chosen guess,
        # with a live region that says the forecast after each key (Tab and Esc leave it, canvas_input.py)
        self.access = make_accessible(self.canvas, "", i18n.t("maptext.roledescription", lang), interactive=True)
        self.access.on_key(self.problems.guard(self.key, where="forecast: key"))
        # on a phone the 760 px map is shown about 360 px wide (its 11-15 px texts were 5-7 px): the page's helper says
        # when the map is narrower than the real map's NARROW_MAP_PX, and the same canvas is painted with the phone's
        # drawing (every text at least PHONE_MIN_TEXT px; taps, keys and the description are the same)
        self.map_width = MapWidth(target=self.access.target, narrow_below=NARROW_MAP_PX,
                                  layout=widgets.Layout(display="none"))
        self.problems.observe(self.map_width, lambda _change: self.redraw(), names="narrow", where="forecast: width")
        top = [self.problems.widget, self.sheet.name_box(), self.choose, self.briefing,
               note(lt("forecast.how_to", lang)), self.lead]
        under_map = [self.canvas, self.access, self.map_width, self.status, keyboard, actions, self.results, self.legend, source]
        if self.class_panel is not None and self.class_panel.teacher_side is not None:
            # the projector: the class round (the code, who sent, the ranked table) beside the map, where the room
            # sees it together with the tracks; on a narrow screen it wraps under the map
            column = widgets.VBox(under_map, layout=widgets.Layout(flex="1 1 36em", min_width="0"))
            team_box.layout.flex = "1 1 22em"
            team_box.layout.margin = "0 0 0 1em"
            side = widgets.HBox([column, team_box], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
            side.add_class("forecast-projector")
            body: list[widgets.Widget] = [*top, side]
        else:
            body = [*top, *under_map, team_box]
        super().__init__(body, snapshot=self.to_html)
        self.add_class("forecast-challenge")
        self._static: dict[bool, list[Shape]] = {}  # the usual drawing's static layer, and the phone's (True)
        # after a kernel restart the student types their name again: their revealed forecasts come back on the map
        self.sheet.on_student(lambda _sheet: self.restore())
        self.select(self.cases[0].key)

    # --- actions -----------------------------------------------------------------------------------

    def on_reveal(self, callback: Callable[[ForecastRound], Any]) -> None:
        """Call ``callback(round)`` after each reveal (and after the forecast is on the answer sheet)."""
        self._on_reveal.append(callback)

    def select(self, key: str) -> None:
        """Show case ``key`` with no guesses (the teams' forecasts are for one storm: they are cleared too)."""
        case = next((c for c in self.cases if c.key == key), None)
        if case is None:
            raise ValueError(f"no forecast case {key!r}; the cases are {', '.join(c.key for c in self.cases)}")
        if self.choose.value != key:
            self.choose.value = key
        self.rnd = ForecastRound(case, self.lang, case_projection(case, self.width))
        self.teams.clear()
        self._static = {}
        self.briefing.value = f"<div style='font-size:1.05em;line-height:1.5'>{briefing(case, self.lang)}</div>"
        self.results.value = ""
        self.restore(draw=False)
        self.redraw()
        self._update()

    def saved_forecast(self, case: Case) -> dict[int, LatLon] | None:
        """The forecast of ``case`` this student last revealed, from the answer sheet (which keeps it in a file
        beside the notebook, so it survives a kernel restart); None if no full forecast is on it."""
        out: dict[int, LatLon] = {}
        for h in LEADS:
            entry = self.sheet.latest(forecast_key(case, h))
            if entry is None or not entry.value:
                return None
            try:
                lat, lon = (float(v) for v in entry.value.split(","))
            except ValueError:  # a damaged line of the file: that forecast is not shown, nothing breaks
                return None
            out[h] = (lat, lon)
        return out

    def restore(self, draw: bool = True) -> bool:
        """Show the revealed forecast the answer sheet holds for the storm on the map (its guesses, the best track,
        the errors), when nothing has been placed yet; True if one was shown. It is not recorded again."""
        if self.rnd.guesses or self.rnd.revealed or self.class_lock:
            return False
        saved = self.saved_forecast(self.rnd.case)
        if saved is None:
            return False
        try:
            for h in LEADS:
                self.rnd.place(*saved[h], lead=h)
        except ForecastInputError:  # off this map (another width or an edited file): start afresh instead
            self.rnd.reset()
            return False
        rows = self.rnd.reveal()
        self.results.value = results_html(rows, self.lang)
        if draw:
            self._after_change()
        return True

    def _choose_lead(self, lead: int) -> None:
        if lead != self.rnd.active:
            self.rnd.choose(lead)
            self._draw_dynamic()
            self._update()

    def tap(self, kind: str, x: float, y: float) -> int | None:
        """A click (``"mouse"``) or a tap (``"touch"``) at canvas pixel ``(x, y)``: one guess per tap."""
        if not self.taps.accept(kind, self._clock()):
            return None
        lead = self.rnd.place_pixel(x, y)
        self._after_change()
        self._say_forecast()
        return lead

    def type_position(self, text: str) -> int:
        lat, lon = parse_position(text, self.lang)
        lead = self.rnd.place(lat, lon)
        self.typed.value = ""
        self._after_change()
        self._say_forecast()
        return lead

    def nudge(self, dlat: int, dlon: int) -> None:
        self.rnd.nudge(dlat, dlon)
        self._after_change()
        self._say_forecast()

    def _say_forecast(self) -> None:
        """Say the forecast in the map's live region, after a guess was placed or moved (a click, a tap, a typed
        position, an arrow button or key) and at the reveal: the one live announcement of it. The status line under
        the map shows the same text but is no live region (it is rendered anew at each change: one screen reader
        never read it, another said the forecast twice); the live region, in the page from the start, says it."""
        self.access.say(status_text(self.rnd))

    def key(self, key: str) -> None:
        """A key pressed on the focused map: an arrow moves the chosen guess half a degree (as the arrow buttons do),
        Enter or Space chooses the next guess (24, 48, 72 h, then 24 again), Home the first and End the last; the
        map's live region then says the forecast."""
        arrows = {"ArrowUp": (1, 0), "ArrowDown": (-1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}
        if key in arrows:
            self.nudge(*arrows[key])  # which says the forecast
        elif key in ("Enter", " ", "Home", "End"):
            k = LEADS.index(self.rnd.active)
            lead = {"Home": LEADS[0], "End": LEADS[-1]}.get(key, LEADS[(k + 1) % len(LEADS)])
            self._choose_lead(lead)
            self._say_forecast()

    def reveal(self) -> list[ResultRow]:
        if self.class_lock:  # checked here, not only by the disabled button: a team's page cannot reveal
            raise ForecastInputError(lt("forecast.class_reveal_teacher", self.lang))
        rows = self.rnd.reveal()
        self.results.value = results_html(rows, self.lang)
        self._after_change()
        self._say_forecast()  # the forecast with its errors (the status line under the map is not a live region)
        self.record(rows)
        for callback in list(self._on_reveal):
            callback(self.rnd)
        return rows

    def record(self, rows: Sequence[ResultRow]) -> None:
        """Put a revealed forecast on the answer sheet: one row per lead, right when the truth is inside the
        typical official error around the guess (the row says how far off it was)."""
        case = self.rnd.case
        for r in rows:
            lat, lon = (f"{v:g}" for v in r.guess)
            self.sheet.add(forecast_label(case, r.lead, self.lang),
                           lt("forecast.csv_forecast_answer", self.lang, lat=lat, lon=lon, km=f"{r.error_km:.0f}",
                              typical=r.typical_km),
                           r.inside, key=forecast_key(case, r.lead), value=f"{lat}, {lon}")

    def show_class(self, teams: Mapping[str, Mapping[int, LatLon]]) -> None:
        """The class round's reveal: the best track, every team's forecast drawn and scored (and this page's own
        guesses, scored, when all three are placed)."""
        self.teams = {name: dict(g) for name, g in teams.items()}
        self.rnd.show_truth()
        self.results.value = results_html(self.rnd.results(), self.lang) if not self.rnd.missing() else ""
        self._after_change()

    def again(self) -> None:
        if self.class_lock:
            raise ForecastInputError(lt("forecast.class_reveal_teacher", self.lang))
        self.rnd.reset()
        self.results.value = ""
        self._after_change()

    def save_team(self, name: str) -> None:
        """Keep the current three guesses as team ``name``'s forecast, then clear them for the next team."""
        name = " ".join(str(name).split())[:20]
        if not name:
            raise ForecastInputError(lt("forecast.team_need_name", self.lang))
        if self.rnd.missing():
            raise ForecastInputError(lt("forecast.team_need_guesses", self.lang, team=name, missing=i18n.join_names(
                [lt("forecast.lead_cell", self.lang, h=h).lstrip("+") for h in self.rnd.missing()], self.lang)))
        self.teams[name] = dict(self.rnd.guesses)
        self.team_name.value = ""
        if not self.rnd.revealed:
            self.rnd.reset()
        self._after_change()
        saved = lt("forecast.team_saved_one" if len(self.teams) == 1 else "forecast.team_saved", self.lang, team=name,
                   count=len(self.teams))
        self.team_feedback.value = f"<div role='status' style='color:#166534'>✔ {escape(saved)}</div>"

    def _save_team_clicked(self) -> None:
        """The team button: a refusal (no name, guesses missing) is said beside the button, where the class looks."""
        try:
            self.save_team(self.team_name.value)
        except ForecastInputError as exc:
            self.team_feedback.value = f"<div role='alert' style='color:#991b1b;font-weight:bold'>⚠ {escape(str(exc))}</div>"

    def reset_teams(self) -> None:
        self.teams.clear()
        self.team_feedback.value = ""
        self._after_change()

    # --- views ---------------------------------------------------------------------------------------

    def _after_change(self) -> None:
        self.problems.clear()  # an earlier refusal no longer applies once something worked
        self._draw_dynamic()
        self._update()

    def map_label(self) -> str:
        """The map in words, its accessible name: which storm, where the map lies, the forecast so far, the keys."""
        p = self.rnd.proj
        where = lt("forecast.map_label", self.lang, storm=storm_title(self.rnd.case.storm, self.lang), south=f"{p.south:g}",
                   north=f"{p.north:g}", west=f"{p.west:g}", east=f"{p.east:g}", status=status_text(self.rnd))
        return where + ("" if self.lang == "zh-TW" else " ") + lt("forecast.map_keys", self.lang)

    def _update(self) -> None:
        # text to read, not a live region: the map's live region says each forecast (and the reveal), once; this
        # line, rendered anew at each change, made a screen reader that announces inserted status elements say it twice
        self.status.value = (f"<div style='font-size:1.05em;margin:.3em 0'>"
                             f"{escape(keep_units(status_text(self.rnd)))}</div>")
        label = self.map_label()
        if self.access.label != label:
            self.access.label = label
        if self.lead.value != self.rnd.active:
            self.lead.value = self.rnd.active
        locked = self.rnd.revealed
        for w in (self.place_button, self.typed, self.lead, self.reveal_button, *self.arrows.values()):
            w.disabled = locked
        self.reveal_button.disabled = locked or self.class_lock
        self.again_button.disabled = self.class_lock
        self.team_view.value = teams_html(self.rnd.case, self.teams, self.rnd.revealed, self.lang)

    @property
    def min_text(self) -> float:
        """The smallest text of the drawing on the page, canvas px: the phone's (realmap's ``PHONE_MIN_TEXT``) where the
        page says the map is narrow, else 0 (the usual sizes)."""
        return PHONE_MIN_TEXT if self.map_width.narrow else 0.0

    def static_shapes(self, *, phone: bool | None = None) -> list[Shape]:
        """Sea, land, coordinates and names: the drawing on the page, or the phone's (``phone=True``) or the usual
        one (``phone=False``, the saved SVG's)."""
        phone = bool(self.min_text) if phone is None else phone
        if phone not in self._static:
            self._static[phone] = static_scene(self.rnd.proj, self.lang, min_text=PHONE_MIN_TEXT if phone else 0.0)
        return self._static[phone]

    def dynamic_shapes(self, *, phone: bool | None = None) -> list[Shape]:
        """The track, the guesses and the reveal, as :meth:`static_shapes` chooses the drawing."""
        phone = bool(self.min_text) if phone is None else phone
        return forecast_scene(self.rnd, self.teams, min_text=PHONE_MIN_TEXT if phone else 0.0)

    def redraw(self) -> None:
        """Draw both layers (also when a browser connects, and when the page says the map's width changed)."""
        from ..canvas_ready import forget_selected_canvas

        forget_selected_canvas()
        repaint(self.canvas, {0: self.static_shapes(), 1: self.dynamic_shapes()})
        self.map_width.drawing = "phone" if self.min_text else "wide"

    def _draw_dynamic(self) -> None:
        repaint(self.canvas, {1: self.dynamic_shapes()})

    def to_svg(self) -> str:
        p = self.rnd.proj
        return shapes_to_svg([*self.static_shapes(phone=False), *self.dynamic_shapes(phone=False)], p.width, p.height,
                             title=lt("forecast.map_title", self.lang, storm=storm_title(self.rnd.case.storm, self.lang)))

    def to_html(self) -> str:
        """A still picture for saved notebooks: the briefing, the map and the legend."""
        return (f"<div>{self.briefing.value}<div style='max-width:760px'>{self.to_svg()}</div>{self.legend.value}"
                f"{self.results.value}</div>")


def challenge(lang: str = "en") -> ForecastChallenge:
    """The lesson's forecast challenge (four storms, easiest first).

    On the class server (``typhoon-edu serve``) the class round goes through the room store: teams send their
    forecasts from their own devices (:mod:`.forecast_class`); elsewhere it is the one-screen round.

    >>> ch = challenge("zh-TW"); ch.choose.value, len(ch.choose.options), ch.class_panel is None
    ('steady', 4, True)
    """
    from .forecast_class import class_round_panel, on_class_server

    return ForecastChallenge(lang, class_round=class_round_panel if on_class_server() else None)


# --- check yourself ---------------------------------------------------------------------------------------


def questions() -> tuple[Question, ...]:
    """The lesson's questions: the marked ones, whose numbers come from the data (the cases, the typical errors),
    then "explain your reasoning" in free text, as in every lesson; each number carries what a typed answer can
    possibly be (:func:`~typhoon_edu.ui.lessons.limits.with_limits`: a distance above 0).

    >>> qs = questions(); [q.id for q in qs][:3], round(qs[0].answer), qs[-1].kind
    (['degree', 'typical', 'grow'], 111, 'text')
    """
    degree = great_circle_km(0.0, 0.0, 1.0, 0.0)
    recurve, taiwan = find_case("recurve"), find_case("taiwan")
    tw = places()["Taiwan"]
    now_km = float(distance_km(_arr(taiwan.now.lon), _arr(taiwan.now.lat), tw)[0])
    ahead_km = float(distance_km(_arr(taiwan.truth[72].lon), _arr(taiwan.truth[72].lat), tw)[0])
    straight = recurve.persistence_error_km(72)
    e = TYPICAL_ERROR_KM
    abcd, abc = ("a", "b", "c", "d"), ("a", "b", "c")
    return with_limits((
        Question("forecast", "degree", "number", answer=round(degree, 1), tolerance=2.0, fmt={"km": f"{degree:.0f}"}),
        Question("forecast", "typical", "choice", answer="b", options=abcd, fmt={"km": e[72], "h24": e[24], "h48": e[48]}),
        Question("forecast", "grow", "choice", answer="a", options=abcd),
        Question("forecast", "cone", "choice", answer="a", options=abcd),
        Question("forecast", "straight", "number", answer=round(straight), tolerance=round(0.05 * straight),
                 fmt={"storm": "", "km": f"{straight:,.0f}", "turn": f"{recurve.turn():.0f}"}),
        Question("forecast", "pair", "choice", answer="a", options=abcd),
        Question("forecast", "taiwan", "choice", answer="a", options=abc,
                 fmt={"storm": "", "where": f"{ahead_km:.0f}", "now_km": f"{now_km:,.0f}", "typical": e[72]}),
        Question("forecast", "explain", "text", answer=None),
    ))


def _arr(v: float) -> Any:
    import numpy as np

    return np.array([v])


def localised(q: Question, lang: str) -> Question:
    """The question with the storm names of its prompt in ``lang``.

    >>> "巨爵" in localised(questions()[4], "zh-TW").prompt("zh-TW")
    True
    """
    if "storm" not in q.fmt:
        return q
    case = find_case("recurve" if q.id == "straight" else "taiwan")
    fmt = {**q.fmt, "storm": storm_title(case.storm, lang)}
    if "where" in fmt:  # the distance, or "over Taiwan" when the centre was on the island
        fmt["where"] = lt("forecast.taiwan_landfall", lang) if float(fmt["where"]) == 0 else \
            lt("forecast.taiwan_near", lang, km=fmt["where"])
    return replace(q, fmt=fmt)


class ForecastQuiz(Quiz):
    """Check yourself, built like every lesson's quiz: the name first, the options shuffled for that student,
    "explain your reasoning" in free text, and the lesson's answer sheet, which also holds the forecasts the
    challenge revealed (:meth:`ForecastChallenge.reveal` writes them) and keeps everything across a restart.

    >>> from typhoon_edu.ui.quiz import AnswerSheet
    >>> q = ForecastQuiz("en", sheet=AnswerSheet("en", "forecast")); q.items[-1].question.kind, len(q.graded)
    ('text', 7)
    """

    def __init__(self, lang: str = "en", challenge: ForecastChallenge | None = None, *, sheet: AnswerSheet | None = None) -> None:
        lang = i18n.normalize_lang(lang)
        if sheet is None:
            sheet = challenge.sheet if challenge is not None else lesson_sheet("forecast", lang)
        elif challenge is not None and challenge.sheet is not sheet:
            raise ValueError("the quiz and the challenge of lesson 07 write to one answer sheet: pass the challenge's")
        super().__init__([localised(q, lang) for q in questions()], lang, sheet=sheet)


def forecast_quiz(lang: str = "en", challenge: ForecastChallenge | None = None) -> ForecastQuiz:
    """The check-yourself part of lesson 07, on the challenge's answer sheet when the challenge is given (so its
    download holds the forecasts too).

    >>> q = forecast_quiz("zh-TW"); q.items[1].answer("b").correct, len(q.items) >= 6
    (True, True)
    """
    return ForecastQuiz(lang, challenge)


def facts(lang: str = "en") -> Rendered:
    """The notebook's sentence about the cases, from the data.

    >>> "Vamco" in facts("en").value or "Dujuan" in facts("en").value
    True
    """
    lang = i18n.normalize_lang(lang)
    items = "".join(f"<li>{escape(case_label(c, k + 1, lang))} · {c.time:%Y-%m-%d %H} UTC</li>"
                    for k, c in enumerate(forecast_cases()))
    return Rendered(f"<ul style='font-size:1.05em;list-style:none;padding-left:1em'>{items}</ul>")


__all__ = [
    "ForecastChallenge", "ForecastInputError", "ForecastQuiz", "ForecastRound", "ResultRow", "TapFilter", "briefing",
    "case_label", "case_projection", "challenge", "cone_points", "facts", "forecast_key", "forecast_label", "localised",
    "forecast_quiz", "forecast_scene",
    "heading_name", "mean_error", "parse_position", "questions", "results_html", "score", "status_text", "team_table",
    "teams_html",
]
