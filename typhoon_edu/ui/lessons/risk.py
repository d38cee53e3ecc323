"""Lesson 05, "Which coast is most at risk?": risk maps, rankings, predictions and why many runs matter.

The lesson notebook (``notebooks/<lang>/05_which_coast_is_most_at_risk.ipynb``) holds the prose
and calls the few entry points here:

* :class:`RiskExplorer`: a heat map of where storms go (:mod:`typhoon_edu.ui.heatmap`), a
  ranking of the regions by expected damage with error bars, and controls for the compass ring
  and the spawn zones. Students first *predict* which region will be hit more, then see.
* :func:`real_world`: the game's ranking next to what weather agencies report.
* :class:`SpreadDemo`: the same estimate from 100 … 100 000 tracks, repeated, so students see
  the spread shrink roughly like 1/√n.
* :func:`risk_quiz`: the check-yourself questions, with instant feedback.

Everything a widget shows is computed by a pure function first (:func:`ranking_rows`,
:func:`judge_prediction`, :func:`spread_by_n`, …), which the tests check without a browser.

Storms are simulated with :func:`typhoon_edu.sim.simulate_tracks` and ``ring_roll="chained"``:
the indicator stays where it stopped, as in a real game, so in the long run every stop of the
ring comes up equally often.

>>> stats = simulate_stats(ring=("WSW", "W", "WNW"), n=5_000, seed=1)
>>> rows = ranking_rows(stats, lang="en")
>>> rows[0].name, rows[-1].key in ("Japan", "Korea")
('Philippines', True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any

import ipywidgets as widgets
import numpy as np

# Absolute imports, so the module also loads on its own (doctests, a notebook importing it directly).
from typhoon_edu import i18n
from typhoon_edu.engine.rules import Rules, load_rules
from typhoon_edu.sim import TrackStats, draw_tracks, run_tracks, simulate_tracks
from typhoon_edu.typed import small_whole
from typhoon_edu.ui import palette
from typhoon_edu.ui.canvas_input import FOCUS_TO_MAP, MAP_AREA, announcer
from typhoon_edu.ui.guard import Problems
from typhoon_edu.ui.heatmap import HeatMapView, heatmap_svg
from typhoon_edu.ui.hp_track import CSS_PATTERNS
from typhoon_edu.ui.quiz import reminder_html
from typhoon_edu.ui.scene import COMPASS16, Circle, Line, Rect, Shape, Text
from typhoon_edu.ui.svg import shapes_to_svg
from typhoon_edu.ui.touch import PHONE_MAX_PX, TOUCH_CSS, touch_style

from .common import keep_units, min_width, scroll_box

#: The quiz's answers wrap inside their own line (the circle before the words), each at least a fingertip high
#: on a phone. ipywidgets gives every radio label one fixed line's height, so on a phone a long answer ran over
#: the next ones and a tap on it chose another answer.
_RADIO_CSS = """<style>
.risk-quiz-choice, .risk-quiz-choice .widget-radio-box { height: auto; }
.risk-quiz-choice .widget-radio-box label { height: auto; min-height: 2.2em; line-height: 1.3; white-space: normal;
  display: flex; flex-direction: row-reverse; justify-content: flex-end; align-items: center; gap: .45em;
  padding: .15em 0; }
.risk-quiz-choice .widget-radio-box input { flex: 0 0 auto; margin: 0; }
@media (max-width: 600px) { .risk-quiz-choice .widget-radio-box label { min-height: 44px; } }
</style>""" + TOUCH_CSS

#: The spread table's columns (keys of ``risk.spread.col_*``).
SPREAD_COLUMNS = ("n", "groups", "low", "high", "spread", "theory", "ratio")

RING_ROLL = "chained"  # the indicator stays where it stopped, as in a real game (the rulebook's compass ring)
EXPLORER_TRACKS = 20_000  # enough for error bars narrower than the differences students look for
BASELINE_SEED = 2024
Z = 2.0  # error bars are ± 2 standard errors: the true value is inside about 95 times in 100
SPREAD_NS: tuple[int, ...] = (100, 1_000, 10_000, 100_000)

#: Ready-made rings for the explorer (compass points, clockwise from north).
RING_PRESETS: dict[str, tuple[str, ...]] = {
    "game": ("N", "NNE", "NE", "E", "WSW", "WNW", "NNW"),
    "west": ("WSW", "W", "WNW"),
    "real": ("N", "NE", "W", "WNW", "NW"),  # 3 of 5 stops W/NW, like ~6 in 10 real motions (IBTrACS)
    "north": ("N", "NNE", "NE"),
    "all": COMPASS16,
}

# Regions in the order the real-world table lists them, and which agency each row cites.
REAL_WORLD_ROWS: tuple[str, ...] = ("Philippines", "Taiwan", "Japan", "South China", "Central China", "Korea")


@lru_cache(maxsize=1)
def _rules() -> Rules:
    return load_rules()


# ---------------------------------------------------------------------------------------------
# simulation helpers


def ring_from_points(points: Iterable[str]) -> tuple[str, ...]:
    """The ring made of the chosen compass points, in clockwise order from north (duplicates dropped).

    >>> ring_from_points(["WNW", "W", "WSW", "W"])
    ('WSW', 'W', 'WNW')
    >>> ring_from_points([])
    Traceback (most recent call last):
    ...
    ValueError: the ring needs at least one compass point
    """
    chosen = set(points)
    unknown = sorted(chosen - set(COMPASS16))
    if unknown:
        raise ValueError(f"unknown compass points {', '.join(unknown)}; use the 16 points such as 'WNW'")
    if not chosen:
        raise ValueError("the ring needs at least one compass point")
    return tuple(p for p in COMPASS16 if p in chosen)


@lru_cache(maxsize=32)
def simulate_stats(
    ring: tuple[str, ...] | None = None,
    zones: tuple[int, ...] | None = None,
    n: int = EXPLORER_TRACKS,
    seed: int | None = BASELINE_SEED,
) -> TrackStats:
    """``n`` storm tracks with the lesson's settings (chained ring rolls); cached per arguments.

    ``ring=None`` is the game's own ring and ``zones=None`` all three generation zones.

    >>> simulate_stats(n=1_000, seed=3) is simulate_stats(n=1_000, seed=3)
    True
    """
    return simulate_tracks(n, seed=seed, ring=ring, zones=zones, ring_roll=RING_ROLL, rules=_rules())


def is_game_setting(ring: Sequence[str] | None, zones: Sequence[int] | None, rules: Rules | None = None) -> bool:
    """Whether a ring and zones are the game's own (the baseline the explorer compares with).

    >>> is_game_setting(("N", "NNE", "NE", "E", "WSW", "WNW", "NNW"), (0, 1, 2)), is_game_setting(("W",), None)
    (True, False)
    """
    rules = rules or _rules()
    same_ring = ring is None or tuple(ring) == tuple(rules.ring)
    same_zones = zones is None or sorted(set(zones)) == list(range(len(rules.map.zones)))
    return same_ring and same_zones


# ---------------------------------------------------------------------------------------------
# ranking


@dataclass(frozen=True)
class RankRow:
    """One region in the ranking: average HP lost per storm, its standard error, and how often it was hit."""

    key: str
    name: str
    mean: float
    se: float
    hit: float
    colour: str
    pattern: str

    @property
    def low(self) -> float:
        """Bottom of the error bar (mean − Z·se, never below 0)."""
        return max(0.0, self.mean - Z * self.se)

    @property
    def high(self) -> float:
        """Top of the error bar (mean + Z·se)."""
        return self.mean + Z * self.se


def ranking_rows(stats: TrackStats, rules: Rules | None = None, lang: str = "en") -> list[RankRow]:
    """The regions from most to least expected damage (ties by name), with error-bar data.

    >>> rows = ranking_rows(simulate_stats(n=2_000, seed=5), lang="zh-TW")
    >>> len(rows), rows[0].mean >= rows[-1].mean, rows[0].low <= rows[0].mean <= rows[0].high
    (6, True, True)
    """
    rules = rules or _rules()
    out = []
    for key, mean in stats.ranking():
        region = rules.regions[key]
        out.append(RankRow(key, i18n.region_name(rules, key, lang), float(mean), float(stats.expected_damage_se[key]),
                           float(stats.region_hit_probability[key]), palette.region_fill(region), region.pattern))
    return out


def clearly_ahead(a: RankRow, b: RankRow) -> bool:
    """Whether ``a``'s expected damage is higher than ``b``'s by more than the noise (2 combined SEs).

    >>> r = lambda m, s: RankRow("k", "k", m, s, 0.0, "#fff", "dots")
    >>> clearly_ahead(r(0.40, 0.01), r(0.30, 0.01)), clearly_ahead(r(0.31, 0.01), r(0.30, 0.01))
    (True, False)
    """
    return a.mean - b.mean > Z * math.hypot(a.se, b.se)


@dataclass(frozen=True)
class Change:
    """How one region's expected damage moved between the baseline and new settings."""

    key: str
    before: float
    after: float
    noise: float  # Z x combined standard error: a change smaller than this may be chance

    @property
    def delta(self) -> float:
        return self.after - self.before

    @property
    def real(self) -> bool:
        """True when the change is larger than the noise."""
        return abs(self.delta) > self.noise


def changes(before: TrackStats, after: TrackStats) -> list[Change]:
    """Every region's change, biggest rise first.

    >>> ch = changes(simulate_stats(n=4_000, seed=1), simulate_stats(("WSW", "W", "WNW"), n=4_000, seed=2))
    >>> ch[0].key, ch[0].real, ch[-1].key
    ('Philippines', True, 'Japan')
    """
    out = [
        Change(key, before.expected_damage[key], after.expected_damage[key],
               Z * math.hypot(before.expected_damage_se[key], after.expected_damage_se[key]))
        for key in before.expected_damage
    ]
    return sorted(out, key=lambda c: (-c.delta, c.key))


@dataclass(frozen=True)
class Verdict:
    """The result of a prediction: ``"best"`` (picked the biggest real rise), ``"rose"`` (it rose,
    but another rose more), ``"no"`` (it did not rise), or ``"none"`` (no region rose beyond chance)."""

    outcome: str
    picked: str
    best: str | None
    picked_change: Change
    best_change: Change | None


def judge_prediction(picked: str, before: TrackStats, after: TrackStats) -> Verdict:
    """Compare a student's pick with the region whose expected damage rose the most.

    >>> base = simulate_stats(n=4_000, seed=1)
    >>> west = simulate_stats(("WSW", "W", "WNW"), n=4_000, seed=2)
    >>> [judge_prediction(k, base, west).outcome for k in ("Philippines", "Taiwan", "Japan")]
    ['best', 'rose', 'no']
    """
    ch = {c.key: c for c in changes(before, after)}
    if picked not in ch:
        raise ValueError(f"unknown region {picked!r}; pick one of {', '.join(ch)}")
    rises = [c for c in changes(before, after) if c.delta > 0 and c.real]
    best = rises[0] if rises else None
    mine = ch[picked]
    if best is None:
        outcome = "none"
    elif best.key == picked:
        outcome = "best"
    elif mine.delta > 0 and mine.real:
        outcome = "rose"
    else:
        outcome = "no"
    return Verdict(outcome, picked, best.key if best else None, mine, best)


def _fmt(v: float) -> str:
    return f"{v:.2f}"


#: The ranking's rows: on a wide screen one line each (rank, name, bar, value, share hit, change); on a phone the bar
#: takes a line of its own under the name and the value, the share and the change the next ones. A row of fixed
#: widths was wider than a phone: the bar shrank to nothing and the texts ran off the screen.
_RANKING_CSS = f"""<style>
.risk-ranking, .widget-html:has(.risk-ranking), .widget-html-content:has(.risk-ranking) {{ min-width: 0; }}
.risk-ranking .rk-row {{ display: flex; flex-wrap: wrap; align-items: center; gap: .1em .5em; margin: .2em 0;
  font-size: 1.05em; }}
.risk-ranking .rk-rank {{ flex: 0 0 1.6em; text-align: right; font-weight: bold; }}
.risk-ranking .rk-name {{ flex: 0 0 8.5em; font-weight: bold; }}
.risk-ranking .rk-bar {{ flex: 1 1 12em; min-width: 8em; height: 1.4em; position: relative;
  border-bottom: 1px solid #94a3b8; }}
.risk-ranking .rk-value {{ flex: 0 0 7.5em; font-variant-numeric: tabular-nums; font-weight: bold; }}
.risk-ranking .rk-hit {{ flex: 0 0 11em; color: #334155; }}
.risk-ranking .rk-change {{ flex: 0 0 8.5em; font-variant-numeric: tabular-nums; }}
@media (max-width: {PHONE_MAX_PX}px) {{
  .risk-ranking .rk-row {{ display: grid; grid-template-columns: 1.6em minmax(0, 1fr) auto; margin: .2em 0 .6em 0; }}
  .risk-ranking .rk-row > * {{ min-width: 0; }}
  .risk-ranking .rk-bar {{ grid-column: 2 / 4; grid-row: 2; }}
  .risk-ranking .rk-hit, .risk-ranking .rk-change {{ grid-column: 2 / 4; font-size: .95em; }}
}}
</style>"""


def ranking_html(rows: Sequence[RankRow], lang: str = "en", *, baseline: Mapping[str, float] | None = None,
                 scale: float | None = None) -> str:
    """The ranking as HTML bars: colour *and* pattern *and* name per region, the value written out,
    error bars (± 2 standard errors), and, with ``baseline``, a dashed marker and ▲/▼ for the change.

    >>> html = ranking_html(ranking_rows(simulate_stats(n=2_000, seed=5)), "en")
    >>> html.count("data-region="), "±" in html
    (6, True)
    """
    top = max([r.high for r in rows] + list((baseline or {}).values()) + [1e-9])
    scale = scale or top * 1.08

    def pct(v: float) -> float:
        return round(max(0.0, min(1.0, v / scale)) * 100, 2)

    head = (f"<div style='font-weight:bold;font-size:1.1em;margin:.2em 0'>{escape(i18n.t('risk.rank.title', lang))}</div>"
            f"<div style='font-size:.95em;color:#334155;margin-bottom:.3em'>{escape(i18n.t('risk.rank.howto', lang))}</div>")
    parts = [head]
    for i, row in enumerate(rows, start=1):
        pattern = CSS_PATTERNS.get(row.pattern, "none")
        value = keep_units(i18n.t("risk.rank.value", lang, mean=_fmt(row.mean), err=_fmt(Z * row.se)))
        hit = keep_units(i18n.t("risk.rank.hit", lang, pct=round(row.hit * 100)))  # "14 %" stays on one line
        marker = change = ""
        if baseline is not None and row.key in baseline:
            before = baseline[row.key]
            marker = (f"<span title='{escape(i18n.t('risk.rank.before', lang, value=_fmt(before)))}' "
                      f"style='position:absolute;top:-3px;bottom:-3px;left:{pct(before)}%;border-left:3px dashed {palette.INK}'></span>")
            delta = row.mean - before
            arrow = "▲" if delta > 0.005 else "▼" if delta < -0.005 else "="
            change = (f"<span class='rk-change'>{arrow} "
                      f"{escape(keep_units(i18n.t('risk.rank.before', lang, value=_fmt(before))))}</span>")
        whisker = (f"<span style='position:absolute;top:50%;height:0;left:{pct(row.low)}%;width:{max(pct(row.high) - pct(row.low), 0.3)}%;"
                   f"border-top:2px solid {palette.INK}'></span>"
                   f"<span style='position:absolute;top:15%;bottom:15%;left:{pct(row.low)}%;border-left:2px solid {palette.INK}'></span>"
                   f"<span style='position:absolute;top:15%;bottom:15%;left:{pct(row.high)}%;border-left:2px solid {palette.INK}'></span>")
        parts.append(
            f"<div data-region='{row.key}' class='rk-row'>"
            f"<span class='rk-rank'>{i}.</span>"
            f"<span class='rk-name'>{escape(row.name)}</span>"
            f"<span class='rk-bar'>"
            f"<span style='position:absolute;left:0;top:12%;bottom:12%;width:{pct(row.mean)}%;background:{pattern},{row.colour};"
            f"border:1px solid {palette.INK};box-sizing:border-box'></span>{whisker}{marker}</span>"
            f"<span class='rk-value'>{escape(value)}</span>"
            f"<span class='rk-hit'>{escape(hit)}</span>{change}</div>"
        )
    return f"<div class='risk-ranking'>{_RANKING_CSS}" + "".join(parts) + "</div>"


# ---------------------------------------------------------------------------------------------
# why many runs: the spread of an estimate against the number of tracks


@dataclass(frozen=True)
class SpreadRow:
    """Estimates of one region's expected damage, each from ``n`` tracks.

    ``estimates`` are the runs a chart shows (one per repeat); ``spread`` is the standard
    deviation over *all* ``groups`` disjoint runs of ``n`` tracks that the batches held, which is
    a steadier number than the spread of a handful of dots.
    """

    n: int
    estimates: tuple[float, ...]
    spread: float
    groups: int
    sigma: float  # standard deviation of one track's damage (pooled over all tracks)

    @property
    def mean(self) -> float:
        return float(np.mean(self.estimates))

    @property
    def expected_spread(self) -> float:
        """What theory says the spread should be: sigma / sqrt(n).

        >>> SpreadRow(100, (0.2, 0.4), 0.1, 2, 0.5).expected_spread
        0.05
        """
        return self.sigma / math.sqrt(self.n)

    @property
    def low(self) -> float:
        return min(self.estimates)

    @property
    def high(self) -> float:
        return max(self.estimates)


def spread_by_n(
    ns: Sequence[int] = SPREAD_NS,
    repeats: int = 6,
    *,
    region: str = "Taiwan",
    seed: int | None = 0,
    ring: Sequence[str] | None = None,
    zones: Sequence[int] | None = None,
    rules: Rules | None = None,
) -> list[SpreadRow]:
    """Estimate ``region``'s expected damage ``repeats`` times from each number of tracks in ``ns``.

    Each repeat is an independent batch of ``max(ns)`` tracks; the shown estimate for ``n`` is
    the mean damage of the batch's first ``n`` tracks. The spread is measured over every
    disjoint run of ``n`` tracks in all batches (e.g. 6 batches of 100 000 hold 6 000 runs of
    100). It shrinks roughly like 1/√n: 100 times more tracks, 10 times less spread.

    >>> rows = spread_by_n((100, 10_000), repeats=6, seed=1)
    >>> [len(r.estimates) for r in rows], [r.groups for r in rows], 5 < rows[0].spread / rows[1].spread < 20
    ([6, 6], [600, 6], True)
    >>> spread_by_n((100,), repeats=1)
    Traceback (most recent call last):
    ...
    ValueError: repeats must be at least 2 to see a spread; got 1
    """
    rules = rules or _rules()
    if repeats < 2:
        raise ValueError(f"repeats must be at least 2 to see a spread; got {repeats}")
    sizes = sorted({int(n) for n in ns})
    if not sizes or sizes[0] < 2:
        raise ValueError("every number of tracks must be at least 2")
    if region not in rules.regions:
        raise ValueError(f"unknown region {region!r}; the regions are {', '.join(rules.regions)}")
    rng = np.random.default_rng(seed)
    top = sizes[-1]
    shown: dict[int, list[float]] = {n: [] for n in sizes}
    pooled: dict[int, list[np.ndarray]] = {n: [] for n in sizes}
    every: list[np.ndarray] = []
    for _ in range(repeats):
        inputs = draw_tracks(top, seed=rng, ring=ring, zones=zones, ring_roll=RING_ROLL, rules=rules)
        batch = run_tracks(inputs, rules=rules)
        damage = batch.damage[:, batch.regions.index(region)].astype(float)
        every.append(damage)
        for n in sizes:
            groups = top // n
            means = damage[: groups * n].reshape(groups, n).mean(axis=1)
            shown[n].append(float(means[0]))
            pooled[n].append(means)
    sigma = float(np.std(np.concatenate(every), ddof=1))
    rows = []
    for n in sizes:
        means = np.concatenate(pooled[n])
        rows.append(SpreadRow(n, tuple(shown[n]), float(np.std(means, ddof=1)), int(means.size), sigma))
    return rows


def spread_scene(rows: Sequence[SpreadRow], lang: str = "en", *, width: int = 760, height: int = 380,
                 region_name: str = "") -> list[Shape]:
    """A strip chart: one column per number of tracks, one dot per run, the range as a bar, and
    the band theory predicts (mean ± 2·sigma/√n) shaded behind.

    >>> rows = [SpreadRow(100, (0.2, 0.4), 0.1, 2, 0.5), SpreadRow(10_000, (0.3, 0.31), 0.007, 2, 0.5)]
    >>> shapes = spread_scene(rows, "en")
    >>> len([s for s in shapes if s.role == "run"]), [s.text for s in shapes if s.role == "n-label"]
    (4, ['100', '10,000'])
    """
    if not rows:
        return []
    left, right, top, bottom = 70.0, 20.0, 44.0, 78.0
    plot_w, plot_h = width - left - right, height - top - bottom
    centre = float(np.mean([r.mean for r in rows[-1:]]))
    lo = min(min(r.low for r in rows), min(centre - Z * r.expected_spread for r in rows))
    hi = max(max(r.high for r in rows), max(centre + Z * r.expected_spread for r in rows))
    pad = (hi - lo) * 0.08 or 0.05
    lo, hi = max(0.0, lo - pad), hi + pad

    def ypix(v: float) -> float:
        return top + plot_h * (1 - (v - lo) / (hi - lo))

    col_w = plot_w / len(rows)
    shapes: list[Shape] = [Rect(x=0, y=0, w=width, h=height, fill="#ffffff", role="background")]
    title = (i18n.t("risk.spread.chart_title", lang, region=region_name, repeats=len(rows[0].estimates))
             if region_name else "")
    if title:
        shapes.append(Text(x=left, y=16, text=title, size=16, bold=True, align="left", role="title"))
    # axis and gridlines with values
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        py = ypix(v)
        shapes.append(Line(points=((left, py), (width - right, py)), stroke="#cbd5e1", line_width=1, role="grid"))
        shapes.append(Text(x=left - 8, y=py, text=f"{v:.2f}", size=13, align="right", fill="#334155", role="y-label"))
    shapes.append(Line(points=((left, ypix(centre)), (width - right, ypix(centre))), stroke=palette.INK, line_width=1.5,
                       dash=(6, 4), role="centre"))
    for i, row in enumerate(rows):
        cx = left + col_w * (i + 0.5)
        band = Z * row.expected_spread
        shapes.append(Rect(x=cx - col_w * 0.32, y=ypix(centre + band), w=col_w * 0.64,
                           h=max(ypix(centre - band) - ypix(centre + band), 1.0), fill="#93c5fd", alpha=0.45, role="band",
                           key=str(row.n)))
        shapes.append(Line(points=((cx, ypix(row.high)), (cx, ypix(row.low))), stroke=palette.INK, line_width=3, role="range",
                           key=str(row.n)))
        for j, v in enumerate(row.estimates):
            offset = (j - (len(row.estimates) - 1) / 2) * min(9.0, col_w * 0.5 / max(len(row.estimates), 1))
            shapes.append(Circle(cx=cx + offset, cy=ypix(v), r=6, fill="#b10026", stroke="#ffffff", line_width=1.5,
                                 role="run", key=str(row.n)))
        shapes.append(Text(x=cx, y=height - bottom + 18, text=f"{row.n:,}", size=15, bold=True, role="n-label", key=str(row.n)))
        shapes.append(Text(x=cx, y=height - bottom + 40, text=i18n.t("risk.spread.spread_short", lang, value=f"{row.spread:.3f}"),
                           size=13, fill="#334155", role="spread-label", key=str(row.n)))
    shapes.append(Text(x=left + plot_w / 2, y=height - 12, text=i18n.t("risk.spread.x_axis", lang), size=14, role="x-axis"))
    return shapes


def spread_svg(rows: Sequence[SpreadRow], lang: str = "en", *, region_name: str = "") -> str:
    """:func:`spread_scene` as an SVG document.

    >>> spread_svg([SpreadRow(100, (0.2, 0.4), 0.1, 2, 0.5)]).count("<circle")
    2
    """
    width, height = 760, 380
    return shapes_to_svg(spread_scene(rows, lang, width=width, height=height, region_name=region_name), width, height,
                         title=i18n.t("risk.spread.title", lang))


def spread_table_html(rows: Sequence[SpreadRow], lang: str = "en") -> str:
    """A table: tracks per run, how many runs were measured, lowest and highest shown estimate,
    spread, what theory expects, and how many times smaller the spread got than on the row before.

    >>> html = spread_table_html([SpreadRow(100, (0.2, 0.4), 0.1, 2, 0.5), SpreadRow(10_000, (0.3, 0.32), 0.01, 2, 0.5)])
    >>> html.count("<tr"), "×" in html
    (3, True)
    """
    th = "".join(f"<th style='padding:.2em .6em;text-align:right;{min_width(h)}'>{escape(h)}</th>"
                 for h in (i18n.t(f"risk.spread.col_{c}", lang) for c in SPREAD_COLUMNS))
    body = []
    prev: SpreadRow | None = None
    for row in rows:
        ratio = f"{prev.spread / row.spread:.1f}×" if prev is not None and row.spread > 0 else "–"
        cells = (f"{row.n:,}", f"{row.groups:,}", f"{row.low:.3f}", f"{row.high:.3f}", f"{row.spread:.4f}", f"{row.expected_spread:.4f}", ratio)
        body.append("<tr>" + "".join(f"<td style='padding:.2em .6em;text-align:right;font-variant-numeric:tabular-nums;min-width:2em'>{c}</td>"
                                     for c in cells) + "</tr>")
        prev = row
    table = (f"<table class='risk-spread-table' style='border-collapse:collapse;font-size:1.05em'><tr>{th}</tr>"
             + "".join(body) + "</table>")
    return scroll_box(table, " · ".join(i18n.t(f"risk.spread.col_{c}", lang) for c in SPREAD_COLUMNS))


# ---------------------------------------------------------------------------------------------
# the real world


@dataclass(frozen=True)
class RealRow:
    """A game region next to what a weather agency reports about the real place."""

    key: str
    name: str
    game_hit: float
    game_rank: int
    record: str
    source: str


def real_world_rows(stats: TrackStats, rules: Rules | None = None, lang: str = "en") -> list[RealRow]:
    """Rows for the comparison table; ``game_rank`` ranks regions by how often storms hit them.

    >>> rows = real_world_rows(simulate_stats(n=2_000, seed=5), lang="en")
    >>> [r.key for r in rows][:2], sorted(r.game_rank for r in rows)
    (['Philippines', 'Taiwan'], [1, 2, 3, 4, 5, 6])
    """
    rules = rules or _rules()
    order = sorted(stats.region_hit_probability, key=lambda k: (-stats.region_hit_probability[k], k))
    return [
        RealRow(key, i18n.region_name(rules, key, lang), float(stats.region_hit_probability[key]), order.index(key) + 1,
                i18n.t(f"risk.real.{key}", lang), i18n.t(f"risk.real.{key}_source", lang))
        for key in REAL_WORLD_ROWS
    ]


def real_world_html(stats: TrackStats, rules: Rules | None = None, lang: str = "en") -> str:
    """The comparison table as HTML.

    >>> "PAGASA" in real_world_html(simulate_stats(n=2_000, seed=5), lang="zh-TW")
    True
    """
    rows = real_world_rows(stats, rules, lang)
    cols = ("region", "game", "record", "source")
    th = "".join(f"<th style='padding:.3em .6em;text-align:left;border-bottom:2px solid {palette.INK};{min_width(h)}'>"
                 f"{escape(h)}</th>" for h in (i18n.t(f"risk.real.col_{c}", lang) for c in cols))
    body = []
    for r in rows:
        game = i18n.t("risk.real.game_cell", lang, pct=round(r.game_hit * 100), rank=r.game_rank)
        cells = ((r.name, "<b>{}</b>"), (game, "{}"), (r.record, "{}"), (r.source, "<i>{}</i>"))
        body.append("<tr>" + "".join(f"<td style='padding:.3em .6em;vertical-align:top;border-bottom:1px solid #cbd5e1;"
                                     f"{min_width(text)}'>{markup.format(escape(keep_units(text)))}</td>" for text, markup in cells)
                    + "</tr>")
    note = f"<p style='margin:.4em 0;color:#334155'>{escape(keep_units(i18n.t('risk.real.note', lang)))}</p>"
    table = f"<table style='border-collapse:collapse;font-size:1.02em;margin-top:.3em'><tr>{th}</tr>{''.join(body)}</table>"
    return (f"<div class='risk-real-world'><b style='font-size:1.15em'>{escape(i18n.t('risk.real.title', lang))}</b>"
            f"{scroll_box(table, i18n.t('risk.real.title', lang), i18n.t('risk.real.table_hint', lang))}{note}</div>")


class HTMLPanel(widgets.HTML):
    """An HTML widget that also leaves its HTML in saved notebook outputs (GitHub, nbviewer)."""

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self.value
        return data


def real_world(lang: str = "en", n: int = EXPLORER_TRACKS, seed: int = BASELINE_SEED) -> HTMLPanel:
    """The real-world comparison as a widget (the game's numbers from ``n`` tracks with the game's settings)."""
    box = HTMLPanel(real_world_html(simulate_stats(n=n, seed=seed), lang=lang), layout=widgets.Layout(width="100%"))
    box.add_class("risk-real")
    return box


# ---------------------------------------------------------------------------------------------
# check yourself


@dataclass(frozen=True)
class Question:
    """A multiple-choice question: ``options[answer]`` is right; ``why`` explains it."""

    key: str
    prompt: str
    options: tuple[str, ...]
    answer: int
    why: str

    def check(self, choice: int) -> bool:
        """Whether option ``choice`` (0-based) is the right one.

        >>> Question("q", "?", ("a", "b"), 1, "because").check(1)
        True
        """
        if not 0 <= choice < len(self.options):
            raise ValueError(f"choice must be 0 to {len(self.options) - 1}; got {choice}")
        return choice == self.answer


# question key -> (number of options, index of the right one); the texts are in the catalogs
QUIZ: dict[str, tuple[int, int]] = {
    "meaning": (4, 1),
    "west": (4, 2),
    "error_bars": (3, 0),
    "spread": (4, 2),
    "real": (4, 0),
    "map_limits": (3, 1),
}


def risk_questions(lang: str = "en") -> list[Question]:
    """The lesson's check-yourself questions in ``lang``.

    >>> qs = risk_questions("zh-TW")
    >>> len(qs) >= 5, all(0 <= q.answer < len(q.options) for q in qs)
    (True, True)
    """
    out = []
    for key, (count, answer) in QUIZ.items():
        base = f"risk.quiz.{key}"
        options = tuple(i18n.t(f"{base}.o{i + 1}", lang) for i in range(count))
        out.append(Question(key, i18n.t(f"{base}.prompt", lang), options, answer, i18n.t(f"{base}.why", lang)))
    return out


class QuizView(widgets.VBox):
    """Questions with instant feedback: pick an option and see right/wrong (✔/✘ and words) and why.

    The options are shuffled per student (the name typed above the questions), a last question asks the
    student to explain their reasoning in free text, and every answer goes into the lesson's answer sheet
    (kept in a file beside the notebook; see :class:`typhoon_edu.ui.quiz.AnswerSheet`).
    ``title=True`` shows the quiz's heading (leave it off under a notebook heading that says the same).
    """

    def __init__(self, questions: Sequence[Question], lang: str = "en", *, title: bool = False,
                 sheet: Any = None, **kwargs: Any) -> None:
        from typhoon_edu.ui.quiz import Question as FreeQuestion
        from typhoon_edu.ui.quiz import QuestionWidget, lesson_sheet

        self.lang = i18n.normalize_lang(lang)
        self.problems = Problems(lambda: self.lang)
        self.sheet = sheet if sheet is not None else lesson_sheet("risk", self.lang)
        self.questions = list(questions)
        self.choices: list[widgets.RadioButtons] = []
        self.feedback: list[widgets.HTML] = []
        self.score = widgets.HTML()
        self._quiet = False  # set while the options are re-ordered for a student: not an answer
        # a screen reader hears each choice's verdict, as every quiz's ("✔ Right!" only appeared): one live region,
        # in the page before any answer
        self.live = announcer()
        # the notebook's own "Check yourself" heading usually introduces the quiz; ``title`` repeats it
        rows: list[widgets.Widget] = (
            [widgets.HTML(f"<b style='font-size:1.2em'>{escape(i18n.t('risk.quiz.title', self.lang))}</b>")] if title else [])
        rows += [self.sheet.name_box(), self.live]
        for i, q in enumerate(self.questions):
            prompt = widgets.HTML(f"<div style='font-size:1.1em;margin-top:.6em'><b>{i + 1}.</b> {escape(keep_units(q.prompt))}</div>")
            radio = widgets.RadioButtons(options=self._options(q), value=None, layout=widgets.Layout(width="auto"))
            radio.add_class("risk-quiz-choice")
            fb = widgets.HTML()
            self.problems.observe(radio, lambda change, i=i: self._answered(i, change["new"]), where="risk quiz")
            self.choices.append(radio)
            self.feedback.append(fb)
            rows += [prompt, radio, fb]
        self.explain = QuestionWidget(FreeQuestion("risk", "explain", "text", answer=None), self.lang,
                                      len(self.questions) + 1, problems=self.problems)
        self.explain.live = self.live
        self.explain.remind = self.sheet.reminder  # no name typed: each kept answer says to type one
        self.explain.on_answer(lambda item: self.sheet.add(item.question.prompt(self.lang), item.given, None,
                                                           key="quiz.risk.explain", value=item.value))
        rows += [self.explain, self.score, self.sheet.widget, widgets.HTML(_RADIO_CSS)]
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        super().__init__(children=[self.problems.widget, *rows], **kwargs)
        self.add_class("risk-quiz")
        self.sheet.on_student(self.problems.guard(lambda _s: self._student_changed(), "risk quiz: name"))
        self._student_changed()

    def _options(self, q: Question) -> list[tuple[str, int]]:
        from typhoon_edu.ui.quiz import student_order

        # shown with each number kept with its unit; the answer sheet keeps the catalog's text (q.options)
        return [(keep_units(q.options[k]), k) for k in student_order(range(len(q.options)), self.sheet.student, "risk", q.key)]

    def _student_changed(self) -> None:
        """Shuffle the options for this student and show the answers the sheet holds."""
        self._quiet = True
        try:
            for i, (q, radio) in enumerate(zip(self.questions, self.choices, strict=True)):
                entry = self.sheet.latest(f"quiz.risk.{q.key}")
                radio.value = None
                radio.options = self._options(q)
                chosen = None if entry is None else small_whole(entry.value)  # a damaged line: not shown, nothing breaks
                if chosen is not None and chosen < len(q.options):
                    radio.value = chosen
                    self._show(i, chosen)
                else:
                    self.feedback[i].value = ""
        finally:
            self._quiet = False
        entry = self.sheet.latest("quiz.risk.explain")
        if entry is not None and entry.value:
            self.explain.show(entry.value)
        self._update_score()

    def answer(self, index: int, choice: int) -> bool:
        """Answer question ``index`` with option ``choice`` (as a click would); returns whether it was right."""
        self.choices[index].value = choice
        return self.questions[index].check(choice)

    def _answered(self, index: int, choice: int | None) -> None:
        if self._quiet:
            return
        q = self.questions[index]
        if choice is None:
            self.feedback[index].value = ""
        else:
            self.sheet.add(q.prompt, q.options[choice], q.check(choice), key=f"quiz.risk.{q.key}", value=str(choice))
            self._show(index, choice)
            # what is shown, said: the verdict, and the reminder to type a name while none is typed
            self.live.say(i18n.join_sentences(self.verdict(index, choice), self.sheet.reminder(), lang=self.lang))
        self._update_score()

    def verdict(self, index: int, choice: int) -> str:
        """The feedback on option ``choice`` of question ``index`` in words: ✔ or ✘, right or wrong, and why (what
        the feedback shows, and what the live region says).

        >>> q = risk_quiz("en"); q.verdict(0, q.questions[0].answer).startswith("✔ Right! ")
        True
        """
        q = self.questions[index]
        mark, word = ("✔", i18n.t("risk.quiz.right", self.lang)) if q.check(choice) else ("✘", i18n.t("risk.quiz.wrong", self.lang))
        return i18n.tidy_spaces(f"{mark} {word} {q.why}", self.lang)  # "✔ 答對了！數字是…": no space after "！"

    def _show(self, index: int, choice: int) -> None:
        q = self.questions[index]
        right = q.check(choice)
        mark, word, colour = ("✔", i18n.t("risk.quiz.right", self.lang), "#166534") if right else \
            ("✘", i18n.t("risk.quiz.wrong", self.lang), "#991b1b")
        self.feedback[index].value = (f"<div style='font-size:1.05em;padding:.3em .5em;border-left:5px solid {colour};"
                                      f"background:#f8fafc'><b style='color:{colour}'>{mark} {escape(word)}</b>"
                                      f"{i18n.sentence_gap(word, self.lang)}{escape(keep_units(q.why))}"
                                      f"{reminder_html(self.sheet.reminder())}</div>")

    @property
    def right_count(self) -> int:
        return sum(1 for q, c in zip(self.questions, self.choices, strict=True) if c.value is not None and q.check(c.value))

    def to_html(self) -> str:
        """The questions and options as HTML (no answers), for saved outputs."""
        items = "".join(f"<li><p>{escape(keep_units(q.prompt))}</p><ul>" + "".join(f"<li>{escape(keep_units(o))}</li>" for o in q.options)
                        + "</ul></li>" for q in self.questions)
        items += f"<li><p>{escape(self.explain.question.prompt(self.lang))}</p></li>"
        return f"<div><b>{escape(i18n.t('risk.quiz.title', self.lang))}</b><ol>{items}</ol></div>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self.to_html()
        return data

    def _update_score(self) -> None:
        answered = sum(1 for c in self.choices if c.value is not None)
        self.score.value = (f"<div style='margin-top:.6em;font-weight:bold'>"
                            f"{escape(i18n.t('risk.quiz.score', self.lang, right=self.right_count, answered=answered, total=len(self.questions)))}</div>")


def risk_quiz(lang: str = "en", *, title: bool = False) -> QuizView:
    """The lesson's check-yourself quiz as a widget."""
    return QuizView(risk_questions(lang), lang, title=title)


# ---------------------------------------------------------------------------------------------
# the explorer


def _point_label(rules: Rules, key: str, lang: str) -> str:
    return i18n.direction_name(rules, key, lang) if i18n.normalize_lang(lang) == "zh-TW" else key


def settings_caption(ring: Sequence[str] | None, zones: Sequence[int] | None, n: int, lang: str = "en",
                     rules: Rules | None = None) -> str:
    """The caption over the map, naming the ring, the zones and the number of storms.

    >>> settings_caption(None, None, 20_000)
    "The game's own ring and zones · 20,000 storms"
    >>> settings_caption(("WSW", "W"), (0,), 500, "zh-TW")
    '方位羅盤：西南西、西 · 生成區：1 · 500 個颱風'
    """
    rules = rules or _rules()
    count = f"{n:,}"
    if is_game_setting(ring, zones, rules):
        return i18n.t("risk.explore.caption_game", lang, n=count)
    ring_text = i18n.t("lang.list_sep", lang).join(_point_label(rules, p, lang) for p in (ring or rules.ring))
    zone_text = ", ".join(str(z + 1) for z in (zones if zones is not None else range(len(rules.map.zones))))
    if i18n.normalize_lang(lang) == "zh-TW":
        zone_text = "、".join(zone_text.split(", "))
    return i18n.t("risk.explore.caption", lang, ring=ring_text, zones=zone_text, n=count)


# Where each of the 16 points sits on the border of a 5 x 5 grid, like a compass rose.
_ROSE: dict[str, tuple[int, int]] = {
    "NW": (0, 0), "NNW": (0, 1), "N": (0, 2), "NNE": (0, 3), "NE": (0, 4),
    "WNW": (1, 0), "ENE": (1, 4), "W": (2, 0), "E": (2, 4), "WSW": (3, 0), "ESE": (3, 4),
    "SW": (4, 0), "SSW": (4, 1), "S": (4, 2), "SSE": (4, 3), "SE": (4, 4),
}


class RiskExplorer(widgets.VBox):
    """Change the compass ring or the spawn zones, predict which region will be hit more, then see.

    The map and ranking start with the game's own settings (the baseline); each run shows the
    new heat map, the ranking with the baseline marked, and whether the prediction was right.
    ``n`` tracks per run; ``seed`` makes the runs repeatable (run k uses ``seed + k``).
    """

    def __init__(self, lang: str = "en", *, n: int = EXPLORER_TRACKS, seed: int = BASELINE_SEED,
                 rules: Rules | None = None, cell: int = 48, **kwargs: Any) -> None:
        self.rules = rules or _rules()
        self.lang = i18n.normalize_lang(lang)
        self.n = n
        self.seed = seed
        self.runs = 0
        self.baseline = simulate_stats(n=n, seed=seed) if self.rules is _rules() else simulate_tracks(
            n, seed=seed, ring_roll=RING_ROLL, rules=self.rules)
        self.current = self.baseline
        lang = self.lang
        t = i18n.t
        self.problems = Problems(lambda: self.lang)

        self.map = HeatMapView(self.rules, self.baseline.hit_probability, lang, cell,
                               caption=settings_caption(None, None, n, lang, self.rules))
        self.map.layout = widgets.Layout(flex="1 1 520px", min_width="320px", max_width="920px")
        self.ranking = widgets.HTML(ranking_html(ranking_rows(self.baseline, self.rules, lang), lang),
                                    layout=widgets.Layout(width="100%"))

        # 1. the ring, as a compass rose of toggle buttons
        self.points: dict[str, widgets.ToggleButton] = {}
        cells: list[widgets.Widget] = []
        for row in range(5):
            for col in range(5):
                key = next((k for k, rc in _ROSE.items() if rc == (row, col)), None)
                if key is None:
                    cells.append(widgets.HTML(layout=widgets.Layout(width="auto")))
                    continue
                button = widgets.ToggleButton(value=key in self.rules.ring, description=_point_label(self.rules, key, lang),
                                              tooltip=i18n.direction_name(self.rules, key, lang),
                                              layout=widgets.Layout(width="auto", height="2.2em", padding="0 2px"))
                button.add_class("risk-point")
                self.problems.observe(button, self._settings_changed, where="risk explorer: ring")
                self.points[key] = button
                cells.append(button)
        self.ring_count = widgets.HTML()
        cells[12] = self.ring_count  # the centre of the rose
        self.rose = widgets.GridBox(cells, layout=widgets.Layout(grid_template_columns="repeat(5, minmax(4.6em, 1fr))",
                                                                 grid_gap="3px", width="100%", max_width="34em"))
        self.presets: dict[str, widgets.Button] = {}
        for key in RING_PRESETS:
            b = widgets.Button(description=t(f"risk.preset.{key}", lang), layout=widgets.Layout(width="auto"))
            self.problems.on_click(b, lambda _b, key=key: self.use_preset(key), where="risk explorer: preset")
            self.presets[key] = b

        # 2. the spawn zones
        self.zones: list[widgets.ToggleButton] = []
        for z in range(len(self.rules.map.zones)):
            b = widgets.ToggleButton(value=True, description=t("board.zone_short", lang, n=z + 1),
                                     tooltip=t("board.zone", lang, n=z + 1), icon="check", layout=widgets.Layout(width="auto"))
            self.problems.observe(b, self._settings_changed, where="risk explorer: zones")
            self.zones.append(b)

        # 3. the prediction
        self.prediction = widgets.ToggleButtons(
            options=[(i18n.region_name(self.rules, k, lang), k) for k in self.rules.regions], value=None,
            style={"button_width": "auto"}, layout=widgets.Layout(width="100%"))
        self.problems.observe(self.prediction, self._settings_changed, where="risk explorer: prediction")
        self.run_button = widgets.Button(description=t("risk.explore.run", lang, n=f"{n:,}"), button_style="primary",
                                         icon="play", layout=widgets.Layout(width="auto", height="2.6em"))
        self.run_button.add_class("risk-run")
        # a run disables the button until the next prediction: the keyboard's focus goes to the new map (in view beside
        # or above the verdict), not on to the next control of the page (part 2's table, which scrolled the verdict away)
        self.run_button.add_class(FOCUS_TO_MAP)
        self.problems.on_click(self.run_button, lambda _b: self.run(), where="risk explorer: run")
        self.hint = widgets.HTML()
        self.feedback = widgets.HTML(layout=widgets.Layout(min_height="3em"))
        self.feedback.add_class("risk-feedback")

        def heading(key: str) -> widgets.HTML:
            return widgets.HTML(f"<b style='font-size:1.1em'>{escape(t(key, lang))}</b>")

        controls = widgets.VBox(
            [heading("risk.explore.step_ring"), widgets.HBox(list(self.presets.values()), layout=widgets.Layout(flex_flow="row wrap")),
             self.rose, heading("risk.explore.step_zones"), widgets.HBox(self.zones, layout=widgets.Layout(flex_flow="row wrap")),
             heading("risk.explore.step_predict"), self.prediction, self.hint, self.run_button, self.feedback],
            layout=widgets.Layout(flex="1 1 330px", min_width="300px", max_width="560px", padding="0 0 0 1em"))
        top = widgets.HBox([self.map, controls], layout=widgets.Layout(flex_flow="row wrap", width="100%", align_items="flex-start"))
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        super().__init__(children=[self.problems.widget, top, self.ranking, touch_style()], **kwargs)
        self.add_class("risk-explorer")
        self.add_class(MAP_AREA)
        self._settings_changed()

    # --- settings ----------------------------------------------------------------------------

    @property
    def ring(self) -> tuple[str, ...]:
        """The ring the toggles describe (clockwise); empty if none is on."""
        return tuple(k for k in COMPASS16 if self.points[k].value)

    @property
    def zone_indices(self) -> tuple[int, ...]:
        return tuple(i for i, b in enumerate(self.zones) if b.value)

    def use_preset(self, key: str) -> None:
        """Switch the toggles to one of :data:`RING_PRESETS`."""
        ring = RING_PRESETS[key]
        for k, button in self.points.items():
            button.value = k in ring

    def set_ring(self, points: Iterable[str]) -> None:
        """Switch the toggles to exactly ``points``."""
        ring = ring_from_points(points)
        for k, button in self.points.items():
            button.value = k in ring

    def set_zones(self, zones: Iterable[int]) -> None:
        """Switch the zone toggles to exactly ``zones`` (0-based)."""
        chosen = set(zones)
        for i, b in enumerate(self.zones):
            b.value = i in chosen

    def _settings_changed(self, _change: Any = None) -> None:
        t, lang = i18n.t, self.lang
        for button in self.points.values():
            button.icon = "check" if button.value else ""
        for b in self.zones:
            b.icon = "check" if b.value else ""
        k = len(self.ring)
        self.ring_count.value = (f"<div style='text-align:center;line-height:1.2;font-size:.95em'>"
                                 f"{escape(t('risk.explore.ring_count', lang, count=k))}</div>")
        problems = []
        if not self.ring:
            problems.append(t("risk.explore.need_ring", lang))
        if not self.zone_indices:
            problems.append(t("risk.explore.need_zone", lang))
        if self.prediction.value is None:
            problems.append(t("risk.explore.need_prediction", lang))
        self.run_button.disabled = bool(problems)
        self.hint.value = (f"<div style='color:#334155'>{escape(' '.join(problems))}</div>" if problems else
                           f"<div style='color:#334155'>{escape(t('risk.explore.ready', lang))}</div>")

    # --- running -----------------------------------------------------------------------------

    def run(self) -> Verdict | None:
        """Simulate the chosen settings, show the new map and ranking, and judge the prediction."""
        if self.run_button.disabled or self.prediction.value is None:
            return None
        ring, zones = self.ring, self.zone_indices
        self.runs += 1
        self.feedback.value = f"<i>{escape(i18n.t('risk.explore.running', self.lang))}</i>"
        ring_arg = None if tuple(ring) == tuple(self.rules.ring) else ring
        zone_arg = None if len(zones) == len(self.zones) else zones
        if self.rules is _rules():
            stats = simulate_stats(ring_arg, zone_arg, n=self.n, seed=self.seed + self.runs)
        else:
            stats = simulate_tracks(self.n, seed=self.seed + self.runs, ring=ring_arg, zones=zone_arg, ring_roll=RING_ROLL,
                                    rules=self.rules)
        self.current = stats
        verdict = judge_prediction(self.prediction.value, self.baseline, stats)
        same = is_game_setting(ring, zones, self.rules)
        # the verdict is said once, by the map's live region (in the page from the start), before the new map in
        # words; the feedback box under the Run button shows it and is no live region
        self.map.show(stats.hit_probability, caption=settings_caption(ring, zones, self.n, self.lang, self.rules),
                      said_first=self.verdict_text(verdict, same=same))
        self.ranking.value = ranking_html(ranking_rows(stats, self.rules, self.lang), self.lang,
                                          baseline=dict(self.baseline.expected_damage))
        self.feedback.value = self.verdict_html(verdict, same=same)
        self.prediction.value = None  # predict again before the next run
        return verdict

    def verdict_html(self, verdict: Verdict, *, same: bool = False) -> str:
        """The feedback after a run: right/wrong with a symbol and words, and the biggest rise."""
        mark, colour, body, mine = self._verdict_parts(verdict, same=same)
        return (f"<div style='font-size:1.08em;padding:.4em .6em;border-left:6px solid {colour};background:#f8fafc'>"
                f"<b style='color:{colour}'>{mark}</b> {escape(keep_units(body))}<br>{escape(keep_units(mine))}</div>")

    def verdict_text(self, verdict: Verdict, *, same: bool = False) -> str:
        """The feedback after a run in words (what the map's live region says before the new map)."""
        mark, _colour, body, mine = self._verdict_parts(verdict, same=same)
        return i18n.join_sentences(f"{mark} {body}", mine, lang=self.lang)

    def _verdict_parts(self, verdict: Verdict, *, same: bool = False) -> tuple[str, str, str, str]:
        """The verdict's mark (✔ ✘ ≈ =), colour, sentence, and the picked region's change."""
        t, lang, rules = i18n.t, self.lang, self.rules

        def name(key: str) -> str:
            return i18n.region_name(rules, key, lang)

        picked = name(verdict.picked)
        mine = t("risk.explore.change", lang, region=picked, before=_fmt(verdict.picked_change.before),
                 after=_fmt(verdict.picked_change.after))
        if same:
            body, mark, colour = t("risk.explore.same", lang), "=", "#334155"
        elif verdict.outcome == "best":
            body, mark, colour = t("risk.explore.best", lang, region=picked), "✔", "#166534"
        elif verdict.outcome == "rose":
            body, mark, colour = t("risk.explore.rose", lang, region=picked, best=name(verdict.best or "")), "≈", "#92400e"
        elif verdict.outcome == "none":
            body, mark, colour = t("risk.explore.none", lang), "=", "#334155"
        else:
            body, mark, colour = t("risk.explore.no", lang, region=picked, best=name(verdict.best or "")), "✘", "#991b1b"
        return mark, colour, body, mine

    def to_html(self) -> str:
        """A still picture of the explorer (map as SVG, and the ranking) for saved outputs."""
        return (heatmap_svg(self.rules, self.current.hit_probability, self.lang, self.map.cell, title=self.map.caption)
                + self.ranking.value)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self.to_html()
        return data


# ---------------------------------------------------------------------------------------------
# why many runs: the widget


class SpreadDemo(widgets.VBox):
    """Run the same estimate with 100, 1 000, 10 000 and 100 000 tracks, several times each, and
    see how much the runs disagree. "Run again" draws new storms."""

    def __init__(self, lang: str = "en", *, region: str = "Taiwan", repeats: int = 6, ns: Sequence[int] = SPREAD_NS,
                 seed: int = 0, rules: Rules | None = None, **kwargs: Any) -> None:
        self.rules = rules or _rules()
        self.lang = i18n.normalize_lang(lang)
        self.repeats = repeats
        self.ns = tuple(ns)
        self.seed = seed
        self.region = widgets.Dropdown(options=[(i18n.region_name(self.rules, k, self.lang), k) for k in self.rules.regions],
                                       value=region, description=i18n.t("risk.spread.region", self.lang),
                                       style={"description_width": "auto"})
        # never narrower than its words (on a phone it goes under the menu instead: the row wraps)
        self.again = widgets.Button(description=i18n.t("risk.spread.again", self.lang), icon="refresh",
                                    layout=widgets.Layout(width="auto", flex="0 0 auto"))
        self.again.add_class("risk-again")
        self.chart = widgets.HTML(layout=widgets.Layout(width="100%", max_width="820px"))
        self.table = widgets.HTML()
        self.summary = widgets.HTML()
        self.rows: list[SpreadRow] = []
        self.problems = Problems(lambda: self.lang)
        self.problems.on_click(self.again, lambda _b: self.rerun(new_seed=True), where="many runs: again")
        self.problems.observe(self.region, lambda _c: self.rerun(), where="many runs: region")
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        super().__init__(children=[self.problems.widget, widgets.HBox([self.region, self.again],
                                                                            layout=widgets.Layout(flex_flow="row wrap")), self.chart, self.table,
                                   self.summary, touch_style()], **kwargs)
        self.add_class("risk-spread")
        self.rerun()

    def rerun(self, new_seed: bool = False) -> list[SpreadRow]:
        """Compute the estimates again (with new storms if ``new_seed``) and redraw."""
        if new_seed:
            self.seed += 1
        self.rows = spread_by_n(self.ns, self.repeats, region=self.region.value, seed=self.seed, rules=self.rules)
        name = i18n.region_name(self.rules, self.region.value, self.lang)
        self.chart.value = spread_svg(self.rows, self.lang, region_name=name)
        self.table.value = spread_table_html(self.rows, self.lang)
        first, last = self.rows[0], self.rows[-1]
        factor = first.spread / last.spread if last.spread > 0 else float("inf")
        summary = i18n.t("risk.spread.summary", self.lang, small=f"{first.n:,}", big=f"{last.n:,}", times=f"{last.n // first.n:,}",
                         factor=f"{factor:.0f}", theory=f"{math.sqrt(last.n / first.n):.0f}")
        self.summary.value = f"<p style='font-size:1.08em'>{escape(keep_units(summary))}</p>"
        return self.rows

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self.chart.value + self.table.value + self.summary.value
        return data


def many_runs(lang: str = "en", **kwargs: Any) -> SpreadDemo:
    """The "why a simulation needs many runs" widget."""
    return SpreadDemo(lang, **kwargs)


def explorer(lang: str = "en", **kwargs: Any) -> RiskExplorer:
    """The risk explorer widget (map, ranking, ring and zone controls, prediction)."""
    return RiskExplorer(lang, **kwargs)


__all__ = [
    "BASELINE_SEED",
    "EXPLORER_TRACKS",
    "QUIZ",
    "REAL_WORLD_ROWS",
    "RING_PRESETS",
    "RING_ROLL",
    "Change",
    "HTMLPanel",
    "Question",
    "QuizView",
    "RankRow",
    "RealRow",
    "RiskExplorer",
    "SpreadDemo",
    "SpreadRow",
    "Verdict",
    "changes",
    "clearly_ahead",
    "explorer",
    "is_game_setting",
    "judge_prediction",
    "many_runs",
    "ranking_html",
    "ranking_rows",
    "real_world",
    "real_world_html",
    "real_world_rows",
    "ring_from_points",
    "risk_questions",
    "risk_quiz",
    "settings_caption",
    "simulate_stats",
    "spread_by_n",
    "spread_scene",
    "spread_svg",
    "spread_table_html",
]
