"""Lesson 06, real typhoons and the game: real tracks on a real map, real directions against the ring,
design a fairer ring, which regions real storms reached, and Taiwan's mountains.

The numbers come from the JMA best tracks shipped in ``typhoon_edu/data/real/`` (computed with numpy
in :mod:`typhoon_edu.realdata.stats`), never typed in: the notebook's sentences that state them are
rendered by :func:`facts`.

>>> d = directions_model()
>>> round(sum(d.real.values()), 6), round(d.game_distance, 3) == round(d.distance(d.rules.ring), 3)
(1.0, True)
>>> best = d.best_ring(); len(best), d.distance(best) <= d.game_distance
(7, True)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import numpy as np

from ... import i18n
from ...realdata import jma, stats
from .. import palette
from ..guard import Problems
from ..map_text import LEGIBLE_PX, narrow_css
from ..quiz import Prediction
from ..realmap import TAIWAN_VIEW, RealStormMap, static_scene, storm_title, track_scene
from ..scene import COMPASS16, Shape, Text
from ..svg import shapes_to_svg
from .common import LessonBox, Rendered, heading, html_table, keep_units, keep_widget_units, lt, note

if TYPE_CHECKING:
    from ...engine.rules import Rules

#: The Taiwan storms of the extract, for the mountains part.
TAIWAN_STORMS = ("Soudelor", "Nepartak", "Meranti", "Megi")
REACH_KM = 200  # default distance for "reached": Hsu et al. (2018) looked at tracks within 200 km of Taiwan
#: The region each option of the prediction "which region did real storms come within 200 km of most often?" names.
REACH_OPTIONS = {"a": "Taiwan", "b": "Philippines", "c": "Japan", "d": "Korea", "e": "South China", "f": "Central China"}
RING_SIZE = 7


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        from ...engine.rules import load_rules

        return load_rules()
    return rules


def _pct(v: float) -> str:
    return f"{v * 100:.1f}%"


# --- directions ----------------------------------------------------------------------------------


@dataclass
class DirectionsModel:
    """Real shares of motion (8 points) against the long-run shares of a ring of stops."""

    rules: Rules
    real: dict[str, float]  # tropical stages only: the fair comparison with the game's (tropical) storms
    steps: int
    storms: int
    _best: tuple[str, ...] | None = field(default=None, repr=False)
    real_all: dict[str, float] = field(default_factory=dict)  # every stage, the extratropical ones included
    steps_all: int = 0

    def game(self, ring: Sequence[str] | None = None) -> dict[str, float]:
        return stats.ring_shares(tuple(ring) if ring is not None else self.rules.ring)

    def distance(self, ring: Sequence[str]) -> float:
        """How far a ring's long-run shares are from nature's (0 = the same; half the sum of the differences)."""
        return stats.share_distance(self.game(ring), self.real)

    @property
    def game_distance(self) -> float:
        return self.distance(self.rules.ring)

    def best_ring(self, size: int = RING_SIZE) -> tuple[str, ...]:
        """The ring of ``size`` stops whose long-run shares come closest to nature's (every choice tried, numpy)."""
        if size == RING_SIZE and self._best is not None:
            return self._best
        # each of the 16 points as a row of its shares of the 8 points; a ring's shares are the mean of its rows
        rows = np.array([[stats.ring_shares((p,))[q] for q in stats.EIGHT_POINTS] for p in COMPASS16])
        real = np.array([self.real[q] for q in stats.EIGHT_POINTS])
        combos = np.array(list(itertools.combinations(range(16), size)))
        shares = rows[combos].mean(axis=1)
        dist = 0.5 * np.abs(shares - real).sum(axis=1)
        best = tuple(COMPASS16[i] for i in combos[int(np.argmin(dist))])
        if size == RING_SIZE:
            self._best = best
        return best


def directions_model(rules: Rules | None = None) -> DirectionsModel:
    """The real shares of motion of every storm of the data (6-hourly steps), with the game's rules.

    ``real`` counts the tropical stages only (the extratropical ends, JMA grade 6, are greyed out on
    the map as "no longer a typhoon", and the game's storms are all tropical); ``real_all`` counts
    every stage, so a teacher can show what the extratropical steps change.

    >>> d = directions_model(); d.steps < d.steps_all, d.real["E"] < d.real_all["E"]
    (True, True)
    """
    storms = jma.all_storms()
    counts = stats.motion_counts(storms, tropical=True)
    every = stats.motion_counts(storms)
    total, total_all = sum(counts.values()), sum(every.values())
    return DirectionsModel(_rules(rules), {k: v / total for k, v in counts.items()}, total, len(storms),
                           real_all={k: v / total_all for k, v in every.items()}, steps_all=total_all)


#: The drawing width of a lesson 06 chart (:func:`hbar_chart_html`), about a phone's: on a 390 px phone it is drawn
#: at about its own size, so its 13-unit words stay above 11 px; a wide screen shows it at most ``HBAR_MAX_PX`` wide.
HBAR_WIDTH = 340
HBAR_MAX_PX = 460
HBAR_FONT = 13.0  # a bar's label and its value, in drawing units


def hbar_chart_html(labels: Sequence[str], series: Sequence[tuple[str, Sequence[float], str]], *, title: str = "",
                    css_class: str = "hbar-chart") -> str:
    """Horizontal grouped bars of shares (0–1) for a phone and a laptop alike: a title and a legend in HTML (their
    words keep the page's size), then an SVG drawn :data:`HBAR_WIDTH` units wide with one row per label.

    Lesson 06's charts were upright bars 640 units wide: on a 390 px phone they shrank to about half, their labels and
    values to 5–8 px. Here a row holds its label, one bar per series and each bar's value at its end, so the words
    need no room beside each other; the second series is striped, so colour is not the only cue.

    >>> html = hbar_chart_html(["N", "E"], [("real", [0.25, 0.5], "#0f766e"), ("game", [0.1, 0.3], "#f97316")], title="T")
    >>> html.count('data-role="bar"'), html.count('data-role="value"'), "T" in html
    (4, 4, True)
    """
    font = HBAR_FONT
    bar_h, gap, row_gap = 15.0, 2.0, 10.0
    label_w = max((_text_width(lab, font, latin=0.75) for lab in labels), default=0.0) + 10.0  # bold
    value_w = _text_width("100.0%", font * 0.95) + 6.0
    plot_w = HBAR_WIDTH - label_w - value_w - 4.0
    top = 4.0
    row_h = len(series) * (bar_h + gap) - gap
    height = top + len(labels) * (row_h + row_gap) + 4.0
    vmax = max([v for _, values, _ in series for v in values] + [1e-9])
    colon = "：" if any(ord(c) > 0x2E80 for name, _, _ in series for c in name) else ": "  # a bar's tooltip
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {HBAR_WIDTH} {_n(height)}" width="{HBAR_WIDTH}"'
             f' height="{_n(height)}" style="width:100%;height:auto;display:block" font-family="{escape(palette.FONT)}"'
             f' role="img" aria-label="{escape(title)}">', "<defs>"]
    for k, (_, _, colour) in enumerate(series):
        if k % 2:
            parts.append(f'<pattern id="{css_class}-stripe{k}" width="8" height="8" patternUnits="userSpaceOnUse"'
                         f' patternTransform="rotate(45)"><rect width="8" height="8" fill="{colour}"/>'
                         f'<rect width="3" height="8" fill="#ffffff" opacity="0.55"/></pattern>')
    parts.append("</defs>")
    x0 = label_w
    parts.append(f'<line x1="{_n(x0)}" y1="0" x2="{_n(x0)}" y2="{_n(height)}" stroke="{palette.INK}" stroke-width="1.5"/>')
    for i, label in enumerate(labels):
        y = top + i * (row_h + row_gap)
        parts.append(f'<text x="{_n(x0 - 6)}" y="{_n(y + row_h / 2)}" font-size="{font:g}" font-weight="bold"'
                     f' text-anchor="end" dominant-baseline="central" fill="{palette.INK}" data-role="label">'
                     f"{escape(label)}</text>")
        for k, (name, values, colour) in enumerate(series):
            value = float(values[i])
            w = plot_w * value / vmax
            by = y + k * (bar_h + gap)
            fill = f"url(#{css_class}-stripe{k})" if k % 2 else colour
            parts.append(f'<rect x="{_n(x0)}" y="{_n(by)}" width="{_n(w)}" height="{_n(bar_h)}" fill="{fill}"'
                         f' stroke="{palette.INK}" stroke-width="1" data-role="bar" data-key="{escape(label)}">'
                         f"<title>{escape(name)}{colon}{escape(label)} {value * 100:.1f}%</title></rect>")
            parts.append(f'<text x="{_n(x0 + w + 4)}" y="{_n(by + bar_h / 2)}" font-size="{font * 0.95:g}"'
                         f' dominant-baseline="central" fill="{palette.INK}" data-role="value">{value * 100:.1f}%</text>')
    parts.append("</svg>")
    legend = "".join(
        f"<span style='display:inline-flex;align-items:center;gap:.35em;margin-right:1em;white-space:nowrap'>"
        f"<span style='display:inline-block;width:1.3em;height:.9em;border:1px solid {palette.INK};background:"
        f"{colour if k % 2 == 0 else f'repeating-linear-gradient(45deg,{colour} 0 5px,#ffffff99 5px 8px)'}'></span>"
        f"{escape(keep_units(name))}</span>"
        for k, (name, _, colour) in enumerate(series))
    head = (f"<div class='{css_class}-title' style='font-weight:bold;font-size:1.08em;margin:.2em 0 .3em 0'>"
            f"{escape(keep_units(title))}</div>") if title else ""
    return (f"<div class='{css_class}' style='font-size:max(13px, 1em);max-width:{HBAR_MAX_PX}px'>{head}"
            f"<div class='{css_class}-legend' style='display:flex;flex-wrap:wrap;row-gap:.2em;margin-bottom:.35em'>"
            f"{legend}</div>" + "\n".join(parts) + "</div>")


def _text_width(text: str, size: float, latin: float = 0.62) -> float:
    """A text's width estimate in drawing units: CJK characters 1 em, others ``latin`` em (0.75 for bold capitals)."""
    return sum(size * (1.0 if ord(c) > 0x2E80 else latin) for c in text)


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def directions_svg(model: DirectionsModel, ring: Sequence[str] | None, lang: str = "en") -> str:
    """Bars: nature's share of each of the 8 points against a ring's long-run share (:func:`hbar_chart_html`: its
    words legible on a 390 px phone).

    >>> directions_svg(directions_model(), None, "zh-TW").count('data-role="bar"')
    16
    """
    labels = [lt(f"real.point_{p}", lang) for p in stats.EIGHT_POINTS]
    game = model.game(ring)
    series_key = "real.series_game" if ring is None or tuple(ring) == tuple(model.rules.ring) else "real.series_yours"
    return hbar_chart_html(labels, [(lt("real.series_real", lang), [model.real[p] for p in stats.EIGHT_POINTS], "#0f766e"),
                                    (lt(series_key, lang), [game[p] for p in stats.EIGHT_POINTS], "#f97316")],
                           title=lt("real.directions_title", lang, storms=model.storms, steps=f"{model.steps:,}"),
                           css_class="directions-chart")


_ROSE: dict[str, tuple[int, int]] = {
    "NW": (0, 0), "NNW": (0, 1), "N": (0, 2), "NNE": (0, 3), "NE": (0, 4),
    "WNW": (1, 0), "ENE": (1, 4), "W": (2, 0), "E": (2, 4), "WSW": (3, 0), "ESE": (3, 4),
    "SW": (4, 0), "SSW": (4, 1), "S": (4, 2), "SSE": (4, 3), "SE": (4, 4),
}


class FairerRing(LessonBox):
    """Real directions against the game's ring; then choose 7 stops and see how close the long run comes."""

    def __init__(self, lang: str = "en", rules: Rules | None = None) -> None:
        lang = i18n.normalize_lang(lang)
        self.lang = lang
        self.model = directions_model(rules)
        r = self.model.rules
        self.problems = Problems(lambda: self.lang)
        self.chart = widgets.HTML(layout=widgets.Layout(width="100%", max_width="900px"))
        self.points: dict[str, widgets.ToggleButton] = {}
        cells: list[widgets.Widget] = []
        for row in range(5):
            for col in range(5):
                key = next((k for k, rc in _ROSE.items() if rc == (row, col)), None)
                if key is None:
                    cells.append(widgets.HTML())
                    continue
                label = i18n.direction_name(r, key, lang) if lang == "zh-TW" else key
                b = widgets.ToggleButton(value=key in r.ring, description=label, tooltip=i18n.direction_name(r, key, lang),
                                         layout=widgets.Layout(width="auto", height="2.2em", padding="0 2px"))
                b.add_class("ring-point")
                self.problems.observe(b, lambda _c: self.update(), where="fairer ring: stop")
                self.points[key] = b
                cells.append(b)
        self.count = widgets.HTML()
        cells[12] = self.count
        rose = widgets.GridBox(cells, layout=widgets.Layout(grid_template_columns="repeat(5, minmax(4.2em, 1fr))",
                                                            grid_gap="3px", width="100%", max_width="30em"))
        reset = widgets.Button(description=lt("real.ring_reset", lang), icon="undo", layout=widgets.Layout(width="auto"))
        self.problems.on_click(reset, lambda _b: self.set_ring(r.ring), where="fairer ring: reset")
        self.best_button = widgets.Button(description=lt("real.ring_best", lang), icon="star", layout=widgets.Layout(width="auto"))
        self.problems.on_click(self.best_button, lambda _b: self.set_ring(self.model.best_ring()), where="fairer ring: best")
        self.verdict = widgets.HTML(layout=widgets.Layout(min_height="3em"))
        self.verdict.add_class("ring-verdict")
        table = html_table([lt("real.col_point", lang), lt("real.col_real", lang), lt("real.col_real_all", lang),
                            lt("real.col_game", lang)],
                           [(lt(f"real.point_{p}", lang), _pct(self.model.real[p]), _pct(self.model.real_all[p]),
                             _pct(self.model.game()[p])) for p in stats.EIGHT_POINTS])
        part1 = [heading(lt("real.part_directions", lang)), note(lt("real.part_directions_note", lang)),
                 widgets.HTML(table)]
        controls = widgets.VBox([rose, widgets.HBox([reset, self.best_button], layout=widgets.Layout(flex_flow="row wrap")),
                                 self.verdict], layout=widgets.Layout(flex="1 1 300px", min_width="280px", max_width="480px"))
        part2 = [heading(lt("real.part_ring", lang)), note(lt("real.part_ring_note", lang)),
                 widgets.HBox([widgets.VBox([self.chart], layout=widgets.Layout(flex="2 1 480px", min_width="300px")), controls],
                              layout=widgets.Layout(flex_flow="row wrap", width="100%", align_items="flex-start"))]
        self._table = table
        super().__init__([self.problems.widget, *part1, *part2], snapshot=self._snapshot)
        self.update()

    @property
    def ring(self) -> tuple[str, ...]:
        return tuple(k for k in COMPASS16 if self.points[k].value)

    def set_ring(self, points: Iterable[str]) -> None:
        chosen = set(points)
        unknown = chosen - set(COMPASS16)
        if unknown:
            raise ValueError(f"unknown compass points {', '.join(sorted(unknown))}; use the 16 points such as 'WNW'")
        for k, b in self.points.items():
            b.value = k in chosen
        self.update()

    def update(self) -> float | None:
        """Redraw for the chosen stops; returns how far the ring is from nature, or None unless 7 are chosen."""
        ring, lang = self.ring, self.lang
        for b in self.points.values():
            b.icon = "check" if b.value else ""
        self.count.value = (f"<div style='text-align:center;font-size:.95em;line-height:1.2'>"
                            f"{escape(lt('real.ring_count', lang, count=len(ring), size=RING_SIZE))}</div>")
        if len(ring) != RING_SIZE:
            self.verdict.value = f"<div style='color:#334155'>{escape(lt('real.ring_need', lang, size=RING_SIZE, count=len(ring)))}</div>"
            self.chart.value = directions_svg(self.model, None, lang)
            return None
        d, g = self.model.distance(ring), self.model.game_distance
        key = "real.ring_same" if abs(d - g) < 1e-9 else "real.ring_better" if d < g else "real.ring_worse"
        mark, colour = ("=", "#334155") if key == "real.ring_same" else ("✔", "#166534") if d < g else ("✘", "#991b1b")
        if key != "real.ring_same" and abs(d - self.model.distance(self.model.best_ring())) < 1e-9:
            # the closest ring there is (the computer's, after "Show the closest ring"): not praised as the student's own
            key, mark, colour = "real.ring_closest", "★", "#334155"
        self.chart.value = directions_svg(self.model, ring, lang)
        self.verdict.value = (f"<div style='font-size:1.05em;padding:.3em .5em;border-left:6px solid {colour};background:#f8fafc'>"
                              f"<b style='color:{colour}'>{mark}</b> "
                              f"{escape(lt(key, lang, yours=_pct(1 - d), game=_pct(1 - g)))}</div>")
        return d

    def _snapshot(self) -> str:
        return (f"<div><h3>{escape(lt('real.part_directions', self.lang))}</h3>{self._table}"
                f"<div style='max-width:760px'>{self.chart.value}</div>{self.verdict.value}</div>")


# --- which regions did real storms reach? ---------------------------------------------------------


@dataclass(frozen=True)
class ReachRow:
    key: str
    name: str
    count: int
    share: float
    real_rank: int
    game_hit: float
    game_rank: int


def reach_rows(km: float = REACH_KM, lang: str = "en", rules: Rules | None = None, game: dict[str, float] | None = None
               ) -> list[ReachRow]:
    """Each region: how many real storms of 2015–2021 came within ``km`` of its real place, its rank, and the
    game's share of simulated storms that hit it (lesson 05's numbers) with its rank.

    >>> rows = reach_rows(200, game={"Taiwan": 0.5, "Philippines": 0.4, "Japan": 0.3, "Korea": 0.2, "South China": 0.1,
    ...                                "Central China": 0.05})
    >>> rows[0].key, rows[0].real_rank, sorted(r.game_rank for r in rows)
    ('Philippines', 1, [1, 2, 3, 4, 5, 6])
    """
    r = _rules(rules)
    reach = stats.region_reach(jma.all_storms(), km)
    order = stats.reach_ranking(reach)
    if game is None:
        game = game_hit_shares()
    game_order = sorted(game, key=lambda k: (-game[k], k))
    return [ReachRow(k, i18n.region_name(r, k, lang), reach[k].count, reach[k].share, order.index(k) + 1, float(game[k]),
                     game_order.index(k) + 1) for k in order]


def reach_supports(rows: Sequence[ReachRow]) -> tuple[str, ...]:
    """The options of lesson 06's prediction that the ranking ``rows`` bears out: the region (or the regions, on a tie)
    the most real storms came near.

    >>> rows = [ReachRow("Japan", "Japan", 50, 0.3, 1, 0.1, 1), ReachRow("Taiwan", "Taiwan", 27, 0.16, 2, 0.1, 2)]
    >>> reach_supports(rows)
    ('c',)
    """
    most = max((r.count for r in rows), default=0)
    top = {r.key for r in rows if r.count == most}
    return tuple(option for option, key in REACH_OPTIONS.items() if key in top)


def game_hit_shares() -> dict[str, float]:
    """Lesson 05's simulated share of storms that hit each region (the same tracks and seed as lesson 05)."""
    from .risk import simulate_stats

    return {k: float(v) for k, v in simulate_stats().region_hit_probability.items()}


def reach_html(rows: Sequence[ReachRow], km: float, lang: str = "en") -> str:
    """The comparison as a table and a bar chart.

    >>> rows = [ReachRow("Taiwan", "Taiwan", 27, 0.16, 4, 0.5, 1)]
    >>> "27" in reach_html(rows, 200, "en")
    True
    """
    header = [lt(f"real.col_{c}", lang) for c in ("region", "reached", "real_rank", "game_hit", "game_rank")]
    body = [(r.name, lt("real.reached_cell", lang, count=r.count, total=len(jma.all_storms()), pct=f"{r.share * 100:.0f}"),
             r.real_rank, f"{r.game_hit * 100:.0f}%", r.game_rank) for r in rows]
    table = html_table(header, body, caption=lt("real.reach_caption", lang, km=f"{km:g}"))
    chart = hbar_chart_html([r.name for r in rows], [(lt("real.series_reached", lang), [r.share for r in rows], "#0f766e"),
                                                     (lt("real.series_game_hit", lang), [r.game_hit for r in rows], "#f97316")],
                            title=lt("real.reach_title", lang, km=f"{km:g}"), css_class="reach-chart")
    return f"<div class='reach'>{table}<div style='margin-top:.6em'>{chart}</div></div>"


class RegionReach(LessonBox):
    """Count the real storms that came within a chosen distance of each region's real place; compare with lesson 05."""

    def __init__(self, lang: str = "en", rules: Rules | None = None) -> None:
        lang = i18n.normalize_lang(lang)
        self.lang, self.rules = lang, _rules(rules)
        self.problems = Problems(lambda: self.lang)
        self.game = game_hit_shares()
        self.km = widgets.IntSlider(value=REACH_KM, min=50, max=500, step=50, description=lt("real.reach_km", lang),
                                    style={"description_width": "initial"}, continuous_update=False,
                                    layout=widgets.Layout(width="100%", max_width="34em"))
        self.view = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.summary = widgets.HTML()
        self.problems.observe(self.km, lambda change: self.update(change["new"]), where="region reach: distance")
        # predict first: the counts stay hidden until the prediction is locked in; the table seen at the lock-in is the
        # observation, and the next step (move the slider) stays shown with the verdict
        self.prediction = keep_widget_units(Prediction("real", "reach", lang, options=tuple(REACH_OPTIONS),
                                                       reveal=[self.km, self.view, self.summary], keep_then=True))
        # its title, "4. Which regions did real storms reach?", is the notebook's own heading just above
        super().__init__([self.problems.widget, note(lt("real.part_reach_note", lang)),
                          self.prediction, self.km, self.view, self.summary],
                         snapshot=lambda: self.view.value + self.summary.value)
        self.update(REACH_KM)
        # the observation is the table the lock-in shows, at the prediction's 200 km (the slider moves it on later)
        self.rows_asked = self.rows
        self.prediction.on_reveal(lambda _p: self._observed())

    def _observed(self) -> None:
        """Tell the prediction which region the table at 200 km puts first, and which option that bears out."""
        rows = self.rows_asked
        supports = reach_supports(rows)
        region = self.prediction.options_text(supports)
        observed = lt("predict.real.reach.observed", self.lang, km=f"{REACH_KM:g}", region=region, count=rows[0].count,
                      total=len(jma.all_storms()))
        self.prediction.record_observation(supports, observed)

    def update(self, km: float) -> list[ReachRow]:
        rows = reach_rows(km, self.lang, self.rules, self.game)
        self.rows = rows
        self.view.value = reach_html(rows, km, self.lang)
        same = [r.name for r in rows if r.real_rank == r.game_rank]
        self.summary.value = (f"<p style='font-size:1.05em;max-width:60em'>"
                              f"{escape(lt('real.reach_summary', self.lang, first=rows[0].name, game_first=next(r.name for r in rows if r.game_rank == 1), same=i18n.join_names(same, self.lang) if same else lt('real.none', self.lang)))}</p>")
        return rows


# --- Taiwan's mountains ---------------------------------------------------------------------------


def mountain_rows(lang: str = "en", hours: int = 12) -> list[tuple[Any, ...]]:
    """For each Taiwan storm of the extract: pressure and wind ``hours`` before and after it was closest to Taiwan.

    >>> rows = mountain_rows("en")
    >>> [r[0] for r in rows], all(r[5] > 0 for r in rows)
    (['Soudelor 2015', 'Nepartak 2016', 'Meranti 2016', 'Megi 2016'], True)
    """
    taiwan = stats.places()["Taiwan"]
    out = []
    for name in TAIWAN_STORMS:
        c = stats.pressure_change(jma.find_storm(name), taiwan, hours)
        how = lt("real.crossed", lang) if c.crossed else lt("real.passed", lang, km=f"{c.closest_km:.0f}")
        out.append((storm_title(jma.find_storm(name), lang), how, c.closest_time.strftime("%Y-%m-%d %H"), f"{c.before.pressure} → {c.after.pressure}",
                    f"{c.before.wind_kt or 0} → {c.after.wind_kt or 0}", c.rise))
    return out


#: How wide the Taiwan close-up (:data:`~typhoon_edu.ui.realmap.TAIWAN_VIEW`, 560 units) is on a 390×844 phone in
#: Voilà, CSS px (356 measured; tests/browser/test_lessons_browser.py): its usual 12–15 unit texts came out at 7.6–9.5 px.
CLOSE_UP_PHONE_PX = 350.0
#: The smallest text of the close-up's phone drawing, drawing units: :data:`LEGIBLE_PX` at :data:`CLOSE_UP_PHONE_PX`.
CLOSE_UP_PHONE_TEXT = float(math.ceil(LEGIBLE_PX * TAIWAN_VIEW.width / CLOSE_UP_PHONE_PX))
#: Below this width of the close-up, CSS px, the page shows its phone drawing (a container query): the usual drawing's
#: coordinates (12 units) would come out under :data:`LEGIBLE_PX`. A laptop's and a projector's close-up (560 px) keep
#: the usual drawing.
CLOSE_UP_NARROW_PX = float(math.ceil(LEGIBLE_PX * TAIWAN_VIEW.width / 12.0))
#: The close-up's two drawings: the usual one, and the phone's where the close-up's own box is narrow.
_CLOSE_UP_CSS = narrow_css("mountains-map", "mountains-wide", "mountains-phone", CLOSE_UP_NARROW_PX)


def mountains_shapes(lang: str = "en", *, min_text: float = 0.0) -> list[Shape]:
    """The close-up's scene: the map, the four Taiwan storms' whole tracks (coloured by class), a numbered tag where
    each track enters the view and the storms' names in a key at the top right.

    ``min_text``: every text at least that large, in drawing units (a phone, :data:`CLOSE_UP_PHONE_TEXT`): the
    coordinates as :func:`~typhoon_edu.ui.realmap.static_scene` draws them, the key's lines spaced for it, the tags kept
    as far inside the edge as they are large (at 18 units the four tags, the key and the coordinates stay apart:
    tests/test_lesson06_phone_pictures.py).

    >>> phone = mountains_shapes("zh-TW", min_text=CLOSE_UP_PHONE_TEXT)
    >>> min(s.size for s in phone if isinstance(s, Text)) >= CLOSE_UP_PHONE_TEXT
    True
    """
    proj = TAIWAN_VIEW
    shapes = static_scene(proj, lang, labels=False, min_text=min_text)
    tag_size, name_size = max(15.0, min_text), max(14.0, min_text)
    line, edge = max(20.0, round(name_size * 1.3)), max(14.0, tag_size * 0.9)
    names: list[Text] = []
    for k, name in enumerate(TAIWAN_STORMS):
        s = jma.find_storm(name)
        six = s.six_hourly()
        shapes += track_scene(s, len(six) - 1, proj, radii=False, whole=False)[:-2]
        # a numbered tag where each track enters the view, and the names in a key at the top right
        inside = [f for f in six if proj.west < f.lon < proj.east and proj.south < f.lat < proj.north]
        if inside:
            x, y = proj.xy(inside[0].lon, inside[0].lat)
            x, y = min(max(x, edge), proj.width - edge), min(max(y, edge), proj.height - edge)
            names.append(Text(x=x, y=y, text=str(k + 1), size=tag_size, bold=True, halo=palette.HALO, role="storm-tag",
                              key=s.number))
        names.append(Text(x=proj.width - 10, y=18 + line * k, text=f"{k + 1} {storm_title(s, lang)}", size=name_size,
                          bold=True, align="right", halo=palette.HALO, role="storm-name", key=s.number))
    return shapes + names


def mountains_svg(lang: str = "en", *, min_text: float = 0.0) -> str:
    """The four Taiwan storms on a close-up map of Taiwan (:func:`mountains_shapes`).

    >>> mountains_svg("en").count("<polygon") > 5
    True
    """
    proj = TAIWAN_VIEW
    return shapes_to_svg(mountains_shapes(lang, min_text=min_text), proj.width, proj.height,
                         title=lt("real.mountains_title", lang))


def close_up_html(lang: str = "en") -> str:
    """The close-up as the page gets it: the usual drawing, and the phone's (every text at least
    :data:`CLOSE_UP_PHONE_TEXT` units) that a container query shows where the close-up is narrower than
    :data:`CLOSE_UP_NARROW_PX`. A browser without container queries shows the usual one.

    >>> html = close_up_html("en"); html.count("<svg"), 'class="mountains-phone"' in html
    (2, True)
    """
    wide = mountains_svg(lang).replace("<svg ", '<svg class="mountains-wide" ', 1)
    phone = mountains_svg(lang, min_text=CLOSE_UP_PHONE_TEXT).replace("<svg ", '<svg class="mountains-phone" ', 1)
    return f"<div class='mountains-map'>{_CLOSE_UP_CSS}{wide}{phone}</div>"


def mountains(lang: str = "en") -> LessonBox:
    """The mountains part: the close-up map and the table of pressure before and after."""
    lang = i18n.normalize_lang(lang)
    header = [lt(f"real.col_{c}", lang) for c in ("storm", "how", "closest", "pressure", "wind_kt", "rise")]
    table = html_table(header, mountain_rows(lang))
    svg = mountains_svg(lang)
    # the close-up's own box decides its drawing (a container query): as wide as 560 px where the row has room, the
    # whole row's width on a phone
    picture = widgets.HTML(close_up_html(lang), layout=widgets.Layout(flex="1 1 560px", max_width="560px", min_width="0"))
    body = widgets.HBox([picture, widgets.HTML(table)],
                        layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
    parts = [note(lt("real.part_mountains_note", lang)), body,  # titled by the notebook's heading just above
             widgets.HTML(f"<div style='font-size:.95em;color:#334155;max-width:60em'>"
                          f"{escape(keep_units(lt('real.mountains_source', lang)))}</div>")]
    return LessonBox(parts, snapshot=lambda: f"<div>{svg}{table}</div>", svg=lambda: svg)


# --- the whole "Try it" and the facts the notebook states -------------------------------------------


def real_storm_map(lang: str = "en", storm: str = "Soudelor") -> RealStormMap:
    """Part 1: a real storm on a real map, replayed 6 hours at a time, and the board beside it."""
    return RealStormMap(lang, storm)


def fairer_ring(lang: str = "en") -> FairerRing:
    """Parts 2–3: real directions and the design-a-fairer-ring tool."""
    return FairerRing(lang)


def region_reach(lang: str = "en") -> RegionReach:
    """Part 4: which regions did real storms reach?"""
    return RegionReach(lang)


def directions_facts() -> dict[str, str]:
    """The numbers lesson 06 states about real directions, as the texts show them (tropical stages, then all stages).

    >>> f = directions_facts(); f["wnw"] != f["wnw_all"], f["extra"]
    (True, '713')
    """
    m = directions_model()
    return {"w": _pct(m.real["W"]), "nw": _pct(m.real["NW"]), "n": _pct(m.real["N"]), "ne": _pct(m.real["NE"]),
            "e": _pct(m.real["E"]), "wnw": _pct(m.real["W"] + m.real["NW"]), "steps": f"{m.steps:,}",
            "extra": f"{m.steps_all - m.steps:,}", "wnw_all": _pct(m.real_all["W"] + m.real_all["NW"]),
            "e_all": _pct(m.real_all["E"]), "storms": str(m.storms)}


def shares_table(points: Sequence[str], counts: Sequence[int] | np.ndarray, lang: str = "en") -> Rendered:
    """Lesson 06's numpy cell, shown readably: how many six-hour steps went each way, and their share, as a table.

    ``points`` are the compass points (``EIGHT_POINTS``) and ``counts`` the steps counted for each.

    >>> html = shares_table(("N", "E"), [1, 3], "en")._repr_html_()
    >>> "75.0%" in html and "<th" in html and "{'N'" not in html
    True
    """
    lang = i18n.normalize_lang(lang)
    counts = [int(c) for c in counts]
    total = sum(counts) or 1
    rows = [(lt(f"real.point_{p}", lang), f"{c:,}", f"{c / total:.1%}")
            for p, c in zip(points, counts, strict=True)]
    table = html_table([lt("real.col_point", lang), lt("real.col_steps", lang), lt("real.col_share", lang)], rows,
                       caption=lt("real.shares_caption", lang, steps=f"{sum(counts):,}"))
    return Rendered(f"<div class='real-shares'>{table}</div>")


def facts(key: str, lang: str = "en") -> Rendered:
    """A sentence of the notebook that states numbers from the data, rendered from the data (never typed).

    ``key`` is ``"data"`` (how many storms and analyses) or ``"directions"`` (the real shares).

    >>> "169" in facts("data", "en").value
    True
    """
    lang = i18n.normalize_lang(lang)
    if key == "data":
        storms = jma.all_storms()
        text = lt("real.facts_data", lang, storms=len(storms), lines=f"{sum(len(s.fixes) for s in storms):,}",
                  first=storm_title(storms[0], lang), last=storm_title(storms[-1], lang), selected=len(jma.selected_storms()))
    elif key == "directions":
        text = lt("real.facts_directions", lang, **directions_facts())
    else:
        raise ValueError(f"no facts {key!r}; choose data or directions")
    return Rendered(f"<p style='font-size:1.05em;max-width:60em'>{escape(keep_units(text))}</p>")


__all__ = [
    "REACH_KM", "TAIWAN_STORMS", "DirectionsModel", "FairerRing", "ReachRow", "RegionReach", "directions_facts", "directions_model",
    "directions_svg", "hbar_chart_html", "REACH_OPTIONS", "reach_supports",
    "facts", "fairer_ring", "shares_table", "game_hit_shares", "mountain_rows", "mountains", "mountains_svg",
    "mountains_shapes", "close_up_html", "CLOSE_UP_NARROW_PX", "CLOSE_UP_PHONE_TEXT", "reach_html", "reach_rows",
    "real_storm_map", "region_reach",
]
