"""Lesson 01, compass rolls: the 16-point compass, the game's 7-stop ring, rolls, and many rolls at once.

Pure helpers (tested, no widgets) and one widget per lesson part; :func:`compass_lesson` puts the
parts together for the notebook.

>>> [(s.start, s.face, s.stop) for s in replay_rulebook()]
[('N', 3, 'E'), ('E', 3, 'NNW'), ('NNW', 5, 'WSW')]
>>> "N" in one_roll_stops("N").values()
False
>>> stats = simulate_rolls(7000, seed=1)
>>> int(stats.counts.sum()), stats.repeats, all(abs(s - 1 / 7) < 0.02 for s in stats.shares)
(7000, 0, True)
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

import ipywidgets as widgets
import numpy as np

from ... import i18n
from .. import palette
from ..buttons import legible
from ..canvas_input import make_accessible
from ..guard import Problems
from ..map_text import LEGIBLE_PX, html_text, narrow_css
from ..quiz import Prediction
from ..scene import COMPASS16
from .common import LessonBox, bar_chart_svg, heading, html_table, keep_units, keep_widget_units, lt, note

if TYPE_CHECKING:
    from ...engine.rules import Rules

#: The rulebook's own worked example (seed 000): N →3→ E →3→ NNW →5→ WSW.
RULEBOOK_FACES = (3, 3, 5)

#: Direction of motion of Western North Pacific tropical cyclones, share of 6-hourly motions,
#: computed from IBTrACS v04 (WP basin, 1980–2025, 53,071 points), as the lesson's sources say (Knapp et al. 2010).
REAL_MOTION_SHARES: Mapping[str, float] = {"W": 0.315, "NW": 0.267, "N": 0.135, "NE": 0.151, "E": 0.07, "S": 0.063}

#: The groups the real-motion figures use, in display order; "S" stands for S, SW and SE together.
MOTION_GROUPS = ("W", "NW", "N", "NE", "E", "S")

#: The prediction "After 100,000 rolls, about what share ends on E?": how many rolls it asks about, the stop, and the
#: share each option names ("d", "it depends on luck", names none: no simulated share bears it out).
LONG_RUN_ROLLS = 100_000
LONG_RUN_STOP = "E"
LONG_RUN_OPTIONS: Mapping[str, float] = {"a": 1 / 7, "b": 1 / 6, "c": 1 / 2}


#: A phone's pictures. On a 390×844 phone lesson 01's rose (690 units wide) and its bar charts (640 units) are shown
#: about 356 px wide, their texts 6-9 px. Each is drawn a second time for a phone, and a container query
#: (:func:`~typhoon_edu.ui.map_text.narrow_css`) shows that drawing where the picture's box is narrower than the width
#: at which the usual drawing's smallest text (the rose's second names, 12.9 units; a chart's values, 11 units) would
#: fall under :data:`~typhoon_edu.ui.map_text.LEGIBLE_PX`. A laptop and a projector show the usual drawings.
ROSE_SIZE = 460
ROSE_NARROW_PX = math.ceil(LEGIBLE_PX * ROSE_SIZE * 1.5 / (ROSE_SIZE * 0.028))
CHART_WIDTH = 640
CHART_NARROW_PX = math.ceil(LEGIBLE_PX * CHART_WIDTH / 11)
#: The phone's rose: drawn this many units wide (about a phone's width, so a unit is about a CSS px) and its smallest
#: text (the codes of three letters), in units.
ROSE_PHONE_WIDTH = 340
ROSE_PHONE_TEXT = 14.0
_ROSE_CSS = narrow_css("compass-rose", "compass-rose-wide", "compass-rose-phone", ROSE_NARROW_PX)
#: Each chart's phone drawing has a class of its own (its bars' stripe pattern is named after it: two charts of one
#: page sharing a name would share one pattern).
_CHART_CSS = {name: narrow_css("compass-chart", "compass-chart-wide", f"compass-{name}-phone", CHART_NARROW_PX)
              for name in ("hist", "motion")}


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        from ...engine.rules import load_rules

        return load_rules()
    return rules


def compass_points(rules: Rules | None = None) -> list[tuple[str, str, str, bool]]:
    """The 16 compass points clockwise from north: ``(key, English name, Chinese name, on the ring)``.

    >>> compass_points()[13]
    ('WNW', 'west-northwest', '西北西', True)
    >>> sum(1 for p in compass_points() if p[3])
    7
    """
    r = _rules(rules)
    return [(k, r.points[k].name_en, r.points[k].name_zh, k in r.ring) for k in COMPASS16]


@dataclass(frozen=True)
class RollStep:
    """One direction roll: the indicator goes from ``start`` through ``passed`` and stops on ``stop``."""

    start: str
    face: int
    passed: tuple[str, ...]
    stop: str


def roll(start: str, face: int, rules: Rules | None = None) -> RollStep:
    """Move the indicator ``face`` stops clockwise from ``start``.

    >>> roll("E", 3)
    RollStep(start='E', face=3, passed=('WSW', 'WNW', 'NNW'), stop='NNW')
    """
    ring = _rules(rules).ring
    if start not in ring:
        raise ValueError(f"the indicator is on {start!r}, which is not a stop of the ring {', '.join(ring)}")
    i = ring.index(start)
    passed = tuple(ring[(i + k) % len(ring)] for k in range(1, face + 1))
    return RollStep(start, face, passed, passed[-1] if passed else start)


def replay_rulebook(faces: Sequence[int] = RULEBOOK_FACES, start: str | None = None, rules: Rules | None = None) -> list[RollStep]:
    """The rulebook's example: three rolls in a row, each starting where the last one stopped.

    >>> [s.stop for s in replay_rulebook((1, 1))]
    ['NNE', 'NE']
    """
    r = _rules(rules)
    stop = start or r.ring_start
    steps = []
    for face in faces:
        step = roll(stop, face, r)
        steps.append(step)
        stop = step.stop
    return steps


def one_roll_stops(start: str, rules: Rules | None = None) -> dict[int, str]:
    """Where one roll of each face 1–6 takes the indicator from ``start``.

    Seven stops and six faces: the stop the indicator starts on is the one stop no face reaches,
    since coming back to it needs exactly 7 steps.

    >>> one_roll_stops("N")
    {1: 'NNE', 2: 'NE', 3: 'E', 4: 'WSW', 5: 'WNW', 6: 'NNW'}
    """
    r = _rules(rules)
    return {face: roll(start, face, r).stop for face in range(1, 7)}


def transition_matrix(rules: Rules | None = None) -> np.ndarray:
    """``P[i, j]``: the chance that one roll moves the indicator from stop ``i`` to stop ``j`` (ring order).

    Each row has six entries of 1/6 and a 0 on the diagonal; each column also sums to 1, which is
    why every stop gets the same long-run share.

    >>> P = transition_matrix()
    >>> P.shape, float(P[0, 0]), bool(np.allclose(P.sum(axis=0), 1))
    ((7, 7), 0.0, True)
    """
    ring = _rules(rules).ring
    n = len(ring)
    p = np.zeros((n, n))
    for i in range(n):
        for face in range(1, 7):
            p[i, (i + face) % n] += 1 / 6
    return p


def long_run_shares(rules: Rules | None = None) -> dict[str, float]:
    """The share of rolls that end on each stop in a very long game (the chain's stationary distribution).

    >>> {k: round(v, 4) for k, v in long_run_shares().items()}["E"]
    0.1429
    """
    r = _rules(rules)
    p = transition_matrix(r)
    values, vectors = np.linalg.eig(p.T)
    v = np.real(vectors[:, int(np.argmin(np.abs(values - 1)))])
    v = v / v.sum()
    return {stop: float(share) for stop, share in zip(r.ring, v, strict=True)}


@dataclass(frozen=True)
class RollStats:
    """The result of :func:`simulate_rolls`."""

    stops: tuple[str, ...]
    counts: np.ndarray  # how many rolls ended on each stop (ring order)
    faces: np.ndarray  # how many times each face 1..6 came up
    repeats: int  # rolls that ended on the stop they started from (always 0)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def shares(self) -> list[float]:
        """Each stop's share of the rolls."""
        return [float(c) / max(self.n, 1) for c in self.counts]


def simulate_rolls(n: int, seed: int | None = 0, start: str | None = None, rules: Rules | None = None) -> RollStats:
    """Roll the die ``n`` times in a row, the indicator moving on from wherever it stopped (numpy).

    >>> s = simulate_rolls(10, seed=3)
    >>> s.n, len(s.counts), int(s.faces.sum())
    (10, 7, 10)
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"the number of rolls is a whole number 0 or more, not {n!r}")
    r = _rules(rules)
    k = len(r.ring)
    rng = np.random.default_rng(seed)
    faces = rng.integers(1, 7, size=int(n))
    first = r.ring.index(start or r.ring_start)
    positions = (first + np.cumsum(faces)) % k  # where the indicator stops after each roll
    previous = np.concatenate(([first], positions[:-1]))
    return RollStats(
        stops=r.ring,
        counts=np.bincount(positions, minlength=k),
        faces=np.bincount(faces, minlength=7)[1:],
        repeats=int(np.count_nonzero(positions == previous)),
    )


def long_run_supports(stats: RollStats, stop: str = LONG_RUN_STOP) -> tuple[str, ...]:
    """The options of lesson 01's prediction that the simulation ``stats`` bears out: the one whose share is
    closest to the share of the rolls that ended on ``stop`` (both, on an exact tie).

    >>> long_run_supports(simulate_rolls(100_000, seed=1))
    ('a',)
    """
    share = stats.shares[stats.stops.index(stop)]
    gaps = {option: abs(value - share) for option, value in LONG_RUN_OPTIONS.items()}
    best = min(gaps.values())
    return tuple(option for option, gap in gaps.items() if gap - best < 1e-12)


def game_vs_real(rules: Rules | None = None) -> dict[str, tuple[float, float]]:
    """For each real-motion group (W, NW, N, NE, E, and S/SW/SE together): ``(game share, real share)``.

    The game's long-run share of each ring stop (1/7) is split between the two 8-point
    directions it lies between: NNE is half N and half NE, WSW half W and half SW, and so on.

    >>> shares = game_vs_real()
    >>> round(shares["N"][0] * 7, 3), shares["W"][1]
    (2.0, 0.315)
    """
    r = _rules(rules)
    game = dict.fromkeys(MOTION_GROUPS, 0.0)
    eight = {"N": "N", "NE": "NE", "E": "E", "SE": "S", "S": "S", "SW": "S", "W": "W", "NW": "NW"}
    points8 = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    for stop, share in long_run_shares(r).items():
        angle = COMPASS16.index(stop) * 22.5
        lower = points8[int(angle // 45) % 8]
        upper = points8[(int(angle // 45) + 1) % 8]
        frac = (angle % 45) / 45
        game[eight[lower]] += share * (1 - frac)
        game[eight[upper]] += share * frac
    return {g: (game[g], REAL_MOTION_SHARES[g]) for g in MOTION_GROUPS}


# --- pictures ------------------------------------------------------------------------------------


def rose_svg(lang: str = "en", rules: Rules | None = None, size: int = ROSE_SIZE) -> str:
    """A 16-point compass rose; the 7 stops of the game's ring are filled, with both names.

    >>> svg = rose_svg("zh-TW")
    >>> svg.count('data-role="point"'), svg.count('data-role="ring-stop"'), "北北西" in svg
    (16, 7, True)
    """
    r = _rules(rules)
    lang = i18n.normalize_lang(lang)
    w, h = int(size * 1.5), size
    cx, cy = w / 2, h / 2
    radius = size * 0.3
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}"'
           f' style="max-width:100%;height:auto" font-family="{escape(palette.FONT)}" role="img">',
           f"<title>{escape(lt('compass.rose_title', lang))}</title>",
           f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="#f1f5f9" stroke="{palette.GRID}" stroke-width="2"/>']
    for k in range(len(COMPASS16)):
        a = math.radians(k * 22.5)
        sx, sy = math.sin(a), -math.cos(a)
        long = k % 2 == 0
        tip = radius * (0.95 if k % 4 == 0 else 0.8 if long else 0.65)
        out.append(f'<line x1="{cx}" y1="{cy}" x2="{cx + sx * tip:.1f}" y2="{cy + sy * tip:.1f}" stroke="{palette.GRID}"'
                   f' stroke-width="{3 if k % 4 == 0 else 1.5}"/>')
    for k, key in enumerate(COMPASS16):
        a = math.radians(k * 22.5)
        sx, sy = math.sin(a), -math.cos(a)
        on = key in r.ring
        px, py = cx + sx * radius, cy + sy * radius
        out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{size * 0.045:.1f}" fill="{"#f97316" if on else "#ffffff"}"'
                   f' stroke="{palette.INK}" stroke-width="{2.5 if on else 1}" data-role="{"ring-stop" if on else "point-dot"}"/>')
        out.append(f'<text x="{px:.1f}" y="{py:.1f}" font-size="{size * (0.03 if len(key) == 3 else 0.036):.1f}" font-weight="bold"'
                   f' text-anchor="middle" dominant-baseline="central" fill="{palette.INK}" data-role="point" data-key="{key}">{key}</text>')
        gap = radius + size * 0.075
        lx, ly = cx + sx * gap, cy + sy * gap
        anchor = "start" if sx > 0.2 else "end" if sx < -0.2 else "middle"
        weight = ' font-weight="bold"' if on else ""
        zh, en = r.points[key].name_zh, r.points[key].name_en
        first, second = (zh, en) if lang == "zh-TW" else (en, zh)
        out.append(f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="{size * 0.034:.1f}"{weight} text-anchor="{anchor}"'
                   f' dominant-baseline="central" fill="{palette.INK}">{escape(first)}'
                   f'<tspan fill="{palette.GRID}" font-size="{size * 0.028:.1f}"> {escape(second)}</tspan></text>')
    out.append(f'<text x="{w - 8}" y="{h - 10}" font-size="{size * 0.032:.1f}" text-anchor="end" fill="{palette.INK}">'
               f'<tspan fill="#f97316">●</tspan> {escape(lt("compass.rose_legend", lang))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def rose_phone_svg(lang: str = "en", rules: Rules | None = None) -> str:
    """The rose for a phone (:data:`ROSE_PHONE_WIDTH` units wide, shown about as many CSS px): each point's code in
    its dot, every text at least :data:`ROSE_PHONE_TEXT` units; in Chinese each point's Chinese name beside it (an
    English name, up to 15 letters, has no room there: the table beside the rose gives both names).

    >>> svg = rose_phone_svg("zh-TW")
    >>> svg.count('data-role="point"'), svg.count('data-role="ring-stop"'), "北北西" in svg, "north" in svg
    (16, 7, True, False)
    """
    r = _rules(rules)
    lang = i18n.normalize_lang(lang)
    names = lang == "zh-TW"
    w = h = ROSE_PHONE_WIDTH
    cx, cy = w / 2, h / 2
    dot = 19.0  # holds a three-letter code (about 2.5 em of ROSE_PHONE_TEXT, bold)
    name_size = ROSE_PHONE_TEXT
    # with names: room for three Chinese characters beside the ring; without: the ring as large as the box allows
    radius = cx - dot - 8 - 3 * name_size - 4 if names else cx - dot - 8
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}"'
           f' style="width:100%;height:auto;display:block" font-family="{escape(palette.FONT)}" role="img">',
           f"<title>{escape(lt('compass.rose_title', lang))}</title>",
           f'<circle cx="{cx}" cy="{cy}" r="{radius:.1f}" fill="#f1f5f9" stroke="{palette.GRID}" stroke-width="2"/>']
    for k in range(len(COMPASS16)):
        a = math.radians(k * 22.5)
        tip = radius - dot - 2
        out.append(f'<line x1="{cx}" y1="{cy}" x2="{cx + math.sin(a) * tip:.1f}" y2="{cy - math.cos(a) * tip:.1f}"'
                   f' stroke="{palette.GRID}" stroke-width="{2.5 if k % 4 == 0 else 1.2}"/>')
    for k, key in enumerate(COMPASS16):
        a = math.radians(k * 22.5)
        sx, sy = math.sin(a), -math.cos(a)
        on = key in r.ring
        px, py = cx + sx * radius, cy + sy * radius
        out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{dot}" fill="{"#f97316" if on else "#ffffff"}"'
                   f' stroke="{palette.INK}" stroke-width="{2.5 if on else 1}" data-role="{"ring-stop" if on else "point-dot"}"/>')
        code = ROSE_PHONE_TEXT if len(key) == 3 else ROSE_PHONE_TEXT + 2
        out.append(f'<text x="{px:.1f}" y="{py:.1f}" font-size="{code:g}" font-weight="bold" text-anchor="middle"'
                   f' dominant-baseline="central" fill="{palette.INK}" data-role="point" data-key="{key}">{key}</text>')
        if names:
            gap = radius + dot + 4
            lx, ly = cx + sx * gap, cy + sy * (gap + name_size * 0.4 * abs(sy))
            anchor = "start" if sx > 0.2 else "end" if sx < -0.2 else "middle"
            weight = ' font-weight="bold"' if on else ""
            out.append(f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="{name_size:g}"{weight} text-anchor="{anchor}"'
                       f' dominant-baseline="central" fill="{palette.INK}">{escape(r.points[key].name_zh)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def rose_html(lang: str = "en", rules: Rules | None = None) -> str:
    """The rose as the page gets it: the usual drawing, and the phone's (:func:`rose_phone_svg`) with its key in words
    under it, which the page shows where the rose's row is narrower than :data:`ROSE_NARROW_PX`.

    >>> html = rose_html("en"); html.count("<svg"), "compass-rose-phone" in html
    (2, True)
    """
    lang = i18n.normalize_lang(lang)
    key = (f"<div style='margin-top:.3em'><span style='color:#f97316' aria-hidden='true'>●</span> "
           f"{escape(lt('compass.rose_legend', lang))}</div>")
    return (f"{_ROSE_CSS}<div class='compass-rose-wide' style='max-width:44em'>{rose_svg(lang, rules)}</div>"
            f"<div class='compass-rose-phone' style='max-width:460px'>{rose_phone_svg(lang, rules)}{key}</div>")


def points_table_html(lang: str = "en", rules: Rules | None = None) -> str:
    """The 16 points as a table: letters, both names, and whether the game's ring has the point.

    >>> points_table_html("zh-TW").count("✔ 在羅盤上")
    7
    """
    lang = i18n.normalize_lang(lang)
    yes, no = lt("compass.on_ring_yes", lang), ""
    rows = [(k, zh, en, yes if on else no) for k, en, zh, on in compass_points(rules)]
    header = [lt("compass.col_key", lang), lt("compass.col_zh", lang), lt("compass.col_en", lang), lt("compass.col_ring", lang)]
    return html_table(header, rows)


def compass_rose(lang: str = "en") -> LessonBox:
    """The 16-point compass in both languages, with the game's 7 stops marked (a picture and a table).

    >>> "北北西" in compass_rose("en").snapshot()
    True
    """
    lang = i18n.normalize_lang(lang)
    svg = rose_svg(lang)
    table = points_table_html(lang)
    # the row is the container whose width picks the rose's drawing (beside the table on a laptop, alone on a phone)
    body = widgets.HBox([widgets.HTML(rose_html(lang)), widgets.HTML(table)],
                        layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
    body.add_class("compass-rose")
    return LessonBox([body], snapshot=lambda: f"<div>{svg}{table}</div>", svg=lambda: svg)


def histogram_svg(stats: RollStats, lang: str = "en", rules: Rules | None = None) -> str:
    """Bars of each stop's share of the simulated rolls, with the long-run share 1/7 dashed.

    >>> histogram_svg(simulate_rolls(70, seed=0)).count('data-role="bar"')
    7
    """
    r = _rules(rules)
    labels = [f"{s}" for s in stats.stops]
    title = lt("compass.hist_title", lang, n=f"{stats.n:,}")
    return bar_chart_svg(labels, [(lt("compass.hist_series", lang), stats.shares, "#2563eb")], title=title,
                         reference=1 / len(r.ring), reference_label=lt("compass.hist_reference", lang))


def _two_charts(wide: str, phone: str, name: str) -> str:
    """A chart as the page gets it: the usual one (still the first thing in it), and the phone's where the chart's
    box, the HTML widget of class ``compass-chart`` that shows it, is narrower than :data:`CHART_NARROW_PX` (a
    container query: the chart's own width decides)."""
    return wide.replace("<svg ", '<svg class="compass-chart-wide" ', 1) + phone + _CHART_CSS[name]


def histogram_html(stats: RollStats, lang: str = "en", rules: Rules | None = None) -> str:
    """The histogram for the page: :func:`histogram_svg`, and for a phone the same shares as a row per stop
    (lesson 06's horizontal bars, every word at least 12 px there), each stop's bar beside the long-run share 1/7.

    >>> html = histogram_html(simulate_rolls(70, seed=0)); html.count('data-role="bar"'), "compass-hist-phone" in html
    (21, True)
    """
    from .real import hbar_chart_html

    r = _rules(rules)
    phone = hbar_chart_html(list(stats.stops), [(lt("compass.hist_series", lang), stats.shares, "#2563eb"),
                                                (lt("compass.hist_reference", lang), [1 / len(r.ring)] * len(stats.stops),
                                                 "#b91c1c")],
                            title=lt("compass.hist_title", lang, n=f"{stats.n:,}"), css_class="compass-hist-phone")
    return _two_charts(histogram_svg(stats, lang, r), phone, "hist")


def motion_html(lang: str = "en", rules: Rules | None = None) -> str:
    """The game against real storms for the page: :func:`motion_svg`, and for a phone a row per direction group.

    >>> motion_html("zh-TW").count('data-role="bar"')
    24
    """
    from .real import hbar_chart_html

    shares = game_vs_real(rules)
    labels = [lt(f"compass.group_{g}", lang) for g in MOTION_GROUPS]
    phone = hbar_chart_html(labels, [(lt("compass.series_game", lang), [shares[g][0] for g in MOTION_GROUPS], "#f97316"),
                                     (lt("compass.series_real", lang), [shares[g][1] for g in MOTION_GROUPS], "#0f766e")],
                            title=lt("compass.motion_title", lang), css_class="compass-motion-phone")
    return _two_charts(motion_svg(lang, rules), phone, "motion")


def motion_svg(lang: str = "en", rules: Rules | None = None) -> str:
    """Game (long run) against real Western Pacific typhoon motion (IBTrACS), by direction group.

    >>> motion_svg("zh-TW").count('data-role="bar"'), "真實颱風" in motion_svg("zh-TW")
    (12, True)
    """
    shares = game_vs_real(rules)
    labels = [lt(f"compass.group_{g}", lang) for g in MOTION_GROUPS]
    return bar_chart_svg(labels, [(lt("compass.series_game", lang), [shares[g][0] for g in MOTION_GROUPS], "#f97316"),
                                  (lt("compass.series_real", lang), [shares[g][1] for g in MOTION_GROUPS], "#0f766e")],
                         title=lt("compass.motion_title", lang), height=320)


# --- the lesson widget ---------------------------------------------------------------------------


def _steps_text(steps: Sequence[RollStep], lang: str, rules: Rules) -> str:
    if not steps:
        return ""
    chain = " ".join([steps[0].start] + [f"→{s.face}→ {s.stop}" for s in steps])
    names = i18n.join_names([i18n.direction_name(rules, s.stop, lang) for s in steps], lang)
    return f"<b style='font-size:1.3em'>{escape(chain)}</b><br>{escape(keep_units(lt('compass.replay_names', lang, names=names)))}"


class CompassLesson(LessonBox):
    """Roll and watch the ring, replay the rulebook example, simulate many rolls, compare with real storms."""

    def __init__(self, lang: str = "en", seed: int | None = 7, rules: Rules | None = None) -> None:
        from ..blank_enter import on_blank_enter
        from ..compass_ring import LEGIBLE_PX as RING_LEGIBLE_PX
        from ..compass_ring import CompassRing
        from ..die import DieWidget

        lang = i18n.normalize_lang(lang)
        r = _rules(rules)
        self.rules, self.lang = r, lang
        self.problems = Problems(lambda: self.lang)
        # 1. roll and watch
        # on a phone (the ring's box under compact_width, about 400 px) the ring without its names, whose 15 px of a
        # 510 px canvas were 10 px there: the label under the ring names the stop
        self.ring = CompassRing(r, lang=lang, size=300, min_text_px=RING_LEGIBLE_PX)
        self.ring.canvas.add_class("lesson-ring")
        # the ring in words (what its label under it says), and a way out for the keyboard
        self.ring_access = make_accessible(self.ring.canvas, html_text(self.ring.label.value),
                                           i18n.t("compass.title", lang))
        self.ring.label.observe(lambda change: setattr(self.ring_access, "label", html_text(change["new"])), names="value")
        self.die = DieWidget(lang=lang, seed=seed)
        self.log_view = widgets.HTML()
        self.steps: list[RollStep] = []
        self.die.on_face(self.problems.guard(self._rolled, "compass lesson: roll"))
        # Enter in the empty face box says to type the face first, as the button does (the box alone sends nothing)
        on_blank_enter(self.die.entry, lambda: self.die.enter(self.die.entry.value), self.problems,
                       "compass lesson: Enter in the die box")
        reset = widgets.Button(description=lt("compass.reset", lang), icon="undo", layout=widgets.Layout(width="auto"))
        self.problems.on_click(reset, lambda _b: self.reset(), where="compass lesson: reset")
        replay = legible(widgets.Button(description=lt("compass.replay_button", lang), icon="play", button_style="info",
                                        layout=widgets.Layout(width="auto")))
        self.problems.on_click(replay, lambda _b: self.replay(), where="compass lesson: replay")
        self.reach = widgets.HTML()
        self.ring.on_stop(self.problems.guard(lambda _s: self._show_reach(), "compass lesson: reach"))
        left = widgets.VBox([self.ring, self.ring_access], layout=widgets.Layout(flex="1 1 420px", min_width="300px", max_width="720px"))
        right = widgets.VBox([self.die, widgets.HBox([replay, reset], layout=widgets.Layout(flex_flow="row wrap")),
                              self.log_view, self.reach], layout=widgets.Layout(flex="1 1 320px"))
        part1 = [heading(lt("compass.part_roll", lang)), note(lt("compass.part_roll_note", lang)),
                 widgets.HBox([left, right], layout=widgets.Layout(flex_flow="row wrap", width="100%"))]
        # 2. many rolls
        self.n_rolls = widgets.Dropdown(options=[("100", 100), ("1,000", 1000), ("10,000", 10_000), ("100,000", 100_000)],
                                        value=100, description=lt("compass.n_rolls", lang), style={"description_width": "initial"},
                                        layout=widgets.Layout(width="auto"))
        self.seed = widgets.IntText(value=2024, description=lt("compass.seed", lang), style={"description_width": "initial"},
                                    layout=widgets.Layout(width="12em"))
        run = widgets.Button(description=lt("compass.simulate", lang), icon="bar-chart", button_style="primary",
                             layout=widgets.Layout(width="auto"))
        self.problems.on_click(run, lambda _b: self.simulate(), where="compass lesson: simulate")
        self.chart = widgets.HTML(layout=widgets.Layout(max_width="960px"))
        self.chart.add_class("compass-chart")  # the box whose width picks the histogram's drawing (histogram_html)
        self.summary = widgets.HTML()
        controls = widgets.HBox([self.n_rolls, self.seed, run], layout=widgets.Layout(flex_flow="row wrap"))
        # predict first: the simulation and its chart stay hidden until the prediction is locked in
        self.prediction = keep_widget_units(Prediction("compass", "long_run", lang, reveal=[controls, self.chart, self.summary]))
        part2 = [heading(lt("compass.part_many", lang)), note(lt("compass.part_many_note", lang)), self.prediction,
                 controls, self.chart, self.summary]
        # 3. game against the real world
        self.motion = motion_svg(lang, r)
        part3 = [heading(lt("compass.part_real", lang)), note(lt("compass.part_real_note", lang)),
                 widgets.HTML(motion_html(lang, r), layout=widgets.Layout(max_width="960px"),
                              _dom_classes=("compass-chart",)),
                 widgets.HTML(f"<div style='font-size:.95em;color:#334155'>{escape(keep_units(lt('compass.real_source', lang)))}</div>")]
        super().__init__([self.problems.widget, *part1, *part2, *part3], snapshot=self._snapshot, svg=self.ring.to_svg)
        self._show_reach()
        self._start = (self.n_rolls.value, self.seed.value)
        self.simulate()
        # the next student at this computer makes their own observation after predicting (registered after the
        # prediction's own listener, so it sees the new student's prediction restored)
        self._student = self.prediction.sheet.student
        self.prediction.sheet.on_student(self.problems.guard(lambda _s: self._student_changed(), "compass lesson: name"))

    def _rolled(self, face: int) -> None:
        start = self.ring.stop
        self.ring.roll(face)
        self.steps.append(roll(start, face, self.rules))
        self.log_view.value = _steps_text(self.steps[-6:], self.lang, self.rules)
        # the ring's label changes silently: a screen reader hears the roll and where the indicator went
        stop = self.ring.stop
        self.ring_access.say(lt("compass.rolled", self.lang, face=face, start=start, stop=stop,
                                name=i18n.direction_name(self.rules, stop, self.lang)))

    def _show_reach(self) -> None:
        stops = one_roll_stops(self.ring.stop, self.rules)
        items = ", ".join(f"{face} → {stop}" for face, stop in stops.items())
        self.reach.value = (f"<div style='margin-top:.4em'>{escape(keep_units(lt('compass.reach', self.lang, stop=self.ring.stop)))}<br>"
                            f"<code style='font-size:1.05em'>{escape(items)}</code><br>"
                            f"<i>{escape(keep_units(lt('compass.never_same', self.lang, stop=self.ring.stop)))}</i></div>")

    def roll(self, face: int) -> str:
        """Roll ``face`` as if the die showed it; returns the stop."""
        self.die.enter(str(face))
        return self.ring.stop

    def reset(self) -> None:
        """Put the indicator back on its starting stop and clear the log."""
        self.ring.set_stop(self.rules.ring_start)
        self.die.face = None
        self.die._show()
        self.steps = []
        self.log_view.value = ""
        self._show_reach()

    def replay(self, faces: Sequence[int] = RULEBOOK_FACES) -> list[RollStep]:
        """Replay the rulebook example from N, one roll after another (animated in a live kernel)."""
        self.reset()
        steps = replay_rulebook(faces, self.rules.ring_start, self.rules)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None

        def show(k: int) -> None:
            self.ring.roll(steps[k].face)
            self.die.face = steps[k].face  # the die shows the face of the roll just replayed
            self.die._show()
            self.steps.append(steps[k])
            self.log_view.value = _steps_text(self.steps, self.lang, self.rules)

        if loop is None:
            for k in range(len(steps)):
                show(k)
        else:
            async def play() -> None:
                try:
                    for k, step in enumerate(steps):
                        show(k)
                        await asyncio.sleep(0.35 * step.face / max(self.ring.speed, 0.01) + 0.6)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # a task's failure would reach no one: tell the student and the log
                    self.problems.report(exc, "compass lesson: replay")

            loop.create_task(play())
        return steps

    def simulate(self, n: int | None = None, seed: int | None = None) -> RollStats:
        """Simulate ``n`` chained rolls (default: the dropdown) and draw the histogram."""
        stats = simulate_rolls(int(n if n is not None else self.n_rolls.value), seed if seed is not None else self.seed.value,
                               rules=self.rules)
        self.chart.value = histogram_html(stats, self.lang, self.rules)
        rows = [(s, int(c), f"{share * 100:.1f}%") for s, c, share in zip(stats.stops, stats.counts, stats.shares, strict=True)]
        table = html_table([lt("compass.col_stop", self.lang), lt("compass.col_count", self.lang), lt("compass.col_share", self.lang)],
                           rows)
        summary = lt("compass.sim_summary", self.lang, n=f"{stats.n:,}", repeats=stats.repeats, share="14.3%")
        self.summary.value = f"{table}<div style='font-size:1.05em'>{escape(keep_units(summary))}</div>"
        self.stats = stats
        if stats.n >= LONG_RUN_ROLLS and LONG_RUN_STOP in stats.stops:  # the rolls the prediction asks about
            self._observed(stats)
        return stats

    def _student_changed(self) -> None:
        """Another student typed their name: part 2 starts again as the lesson starts (100 rolls, the first seed).

        The last student's 100,000-roll chart is not the next one's observation: it may have been seen before they
        predicted (standing at the same computer), and the prediction box compares only what is simulated after the
        lock-in ("Now simulate 100 rolls, then 100,000"), so it stayed on the page with no verdict. A name typed after
        the first answers keeps the chart, as the answer sheet keeps those answers for that name.
        """
        before, self._student = self._student, self.prediction.sheet.student
        if not before:
            return
        self.n_rolls.value, self.seed.value = self._start
        self.simulate()

    def _observed(self, stats: RollStats) -> None:
        """Tell the prediction what the simulation gave for E, and which option that bears out."""
        supports = long_run_supports(stats)
        share = stats.shares[stats.stops.index(LONG_RUN_STOP)]
        closest = self.prediction.options_text(supports)
        observed = lt("predict.compass.long_run.observed", self.lang, n=f"{stats.n:,}", share=f"{share * 100:.1f}%",
                      closest=closest)
        self.prediction.record_observation(supports, observed)

    def _snapshot(self) -> str:
        return (f"<div><h3>{escape(lt('compass.part_roll', self.lang))}</h3><div style='max-width:520px'>{self.ring.to_svg()}</div>"
                f"<h3>{escape(lt('compass.part_many', self.lang))}</h3><div style='max-width:760px'>"
                f"{histogram_svg(self.stats, self.lang, self.rules)}</div>"
                f"<h3>{escape(lt('compass.part_real', self.lang))}</h3><div style='max-width:760px'>{self.motion}</div>"
                f"<p>{escape(keep_units(lt('compass.real_source', self.lang)))}</p></div>")


def compass_lesson(lang: str = "en", seed: int | None = 7) -> CompassLesson:
    """Lesson 01's "Try it" widget: roll and watch the ring, the rulebook replay, many rolls, real storms.

    >>> w = compass_lesson("zh-TW")
    >>> w.replay()[-1].stop, w.ring.stop
    ('WSW', 'WSW')
    >>> w.simulate(700, seed=1).repeats
    0
    """
    return CompassLesson(lang, seed)


__all__ = [
    "CompassLesson", "LONG_RUN_OPTIONS", "LONG_RUN_ROLLS", "RollStats", "RollStep", "compass_lesson", "compass_points",
    "compass_rose", "game_vs_real", "histogram_html", "histogram_svg", "long_run_shares", "long_run_supports", "motion_html",
    "motion_svg", "one_roll_stops", "points_table_html", "replay_rulebook", "roll", "rose_html", "rose_phone_svg", "rose_svg",
    "simulate_rolls", "transition_matrix",
]
