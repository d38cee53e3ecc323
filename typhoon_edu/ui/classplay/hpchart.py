"""The results chart: every region's HP over the game, as SVG (no plotting library needed).

Each region's line has its colour *and* its own dash pattern and marker shape, and is named at
its end, so the chart reads without colour (colour-blind students, black-and-white printouts).

>>> from typhoon_edu.engine.rules import load_rules
>>> svg = hp_chart_svg(load_rules(), ["Taiwan", "Japan"], [{"Taiwan": 30, "Japan": 50}, {"Taiwan": 19, "Japan": 50}])
>>> svg.count('data-role="hp-line"'), "Taiwan 19" in svg
(2, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from ... import i18n
from .. import palette

if TYPE_CHECKING:
    from ...engine.rules import Rules

DASHES = ("", "10 5", "3 4", "12 4 3 4", "6 3", "1 3")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "ring")
# Darker outlines for light region colours (white Japan, yellow China) so lines stay visible on white.
_OUTLINE = "#0f172a"


def _marker(shape: str, x: float, y: float, colour: str, r: float = 5.0) -> str:
    stroke = f'stroke="{_OUTLINE}" stroke-width="1.5"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}" {stroke}/>'
    if shape == "ring":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="#ffffff" stroke="{_OUTLINE}" stroke-width="2.5"/>'
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" fill="{colour}" {stroke}/>'
    if shape == "triangle":
        pts = f"{x:.1f},{y - r - 1:.1f} {x - r - 1:.1f},{y + r:.1f} {x + r + 1:.1f},{y + r:.1f}"
        return f'<polygon points="{pts}" fill="{colour}" {stroke}/>'
    if shape == "diamond":
        pts = f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y:.1f} {x:.1f},{y + r + 1:.1f} {x - r - 1:.1f},{y:.1f}"
        return f'<polygon points="{pts}" fill="{colour}" {stroke}/>'
    return (f'<path d="M{x - r:.1f},{y - r:.1f} L{x + r:.1f},{y + r:.1f} M{x - r:.1f},{y + r:.1f} L{x + r:.1f},{y - r:.1f}"'
            f' stroke="{_OUTLINE}" stroke-width="3"/>')


def hp_chart_svg(rules: Rules, players: Sequence[str], track: Sequence[Mapping[str, int]], lang: str = "en",
                 names: Mapping[str, str] | None = None, width: int = 900, height: int = 360, *,
                 narrow: bool = False) -> str:
    """A line chart of ``track`` (one ``{region: hp}`` per point in time) for ``players``.

    ``names`` overrides how a region is labelled (e.g. ``"Mei (Taiwan)"``). ``narrow``: the chart for a phone,
    360 units wide so that its words show at about their size on a 390 px screen, with each line's name and
    last HP listed under the chart instead of at its end.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> svg = hp_chart_svg(load_rules(), ["Taiwan", "Japan"], [{"Taiwan": 30, "Japan": 50}], narrow=True)
    >>> 'viewBox="0 0 360 ' in svg, svg.count('data-role="hp-legend"')
    (True, 2)
    """
    names = dict(names or {})
    if narrow:
        width, height = 360, 260 + 22 * len(players)
    left, right, top, bottom = (40, 14, 16, 40 + 22 * len(players)) if narrow else (48, 290, 20, 44)
    pw, ph = width - left - right, height - top - bottom
    top_hp = max([rules.regions[p].hp for p in players] + [10])
    n = max(len(track), 1)

    def px(i: int) -> float:
        return left + (pw * i / (n - 1) if n > 1 else pw / 2)

    def py(hp: float) -> float:
        return top + ph * (1 - hp / top_hp)

    title = i18n.t("dash.results.chart_title", lang)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}"'
           f' style="max-width:100%;height:auto;background:#ffffff" font-family={quoteattr(palette.FONT)} role="img">',
           f"<title>{escape(title)}</title>"]
    for hp in range(0, top_hp + 1, 10):
        y = py(hp)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#cbd5e1" stroke-width="1"/>')
        out.append(f'<text x="{left - 6}" y="{y:.1f}" font-size="13" text-anchor="end" dominant-baseline="central"'
                   f' fill="#334155">{hp}</text>')
    out.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="{_OUTLINE}" stroke-width="2"/>')
    out.append(f'<text x="{left + pw / 2:.1f}" y="{top + ph + 30 if narrow else height - 10}" font-size="14" text-anchor="middle" fill="#334155">'
               f'{escape(i18n.t("dash.results.chart_x", lang))}</text>')
    out.append(f'<text x="12" y="{top + ph / 2:.1f}" font-size="14" text-anchor="middle" fill="#334155"'
               f' transform="rotate(-90 12 {top + ph / 2:.1f})">HP</text>')
    ends: list[tuple[float, str, str]] = []
    for k, p in enumerate(players):
        region = rules.regions[p]
        pts = [(px(i), py(point.get(p, region.hp))) for i, point in enumerate(track)] or [(px(0), py(region.hp))]
        dash = DASHES[k % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        poly = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        # an ink-coloured underlay keeps white and yellow lines visible on the white background
        out.append(f'<polyline points="{poly}" fill="none" stroke="{_OUTLINE}" stroke-width="5"{dash_attr}'
                   f' stroke-linejoin="round" opacity="0.55"/>')
        out.append(f'<polyline points="{poly}" fill="none" stroke="{palette.region_fill(region)}" stroke-width="3"{dash_attr}'
                   f' stroke-linejoin="round" data-role="hp-line" data-key={quoteattr(p)}/>')
        step = max(1, len(pts) // 12)
        for i in list(range(0, len(pts), step)) + [len(pts) - 1]:
            out.append(_marker(MARKERS[k % len(MARKERS)], *pts[i], palette.region_fill(region)))
        last = track[-1].get(p, region.hp) if track else region.hp
        label = f"{names.get(p) or i18n.region_name(rules, p, lang)} {last}"
        ends.append((pts[-1][1], label, MARKERS[k % len(MARKERS)] + "|" + palette.region_fill(region)))
    if narrow:  # a legend under the chart, in seat order
        for k, (_y, label, mark) in enumerate(ends):
            shape, colour = mark.split("|")
            y = top + ph + 56 + 22 * k
            out.append(_marker(shape, left + 6, y, colour))
            out.append(f'<text x="{left + 20}" y="{y:.1f}" font-size="14" font-weight="bold" dominant-baseline="central"'
                       f' fill="#0f172a" data-role="hp-legend">{escape(label)}</text>')
        ends = []
    # end labels, pushed apart so that regions with equal HP do not print on top of each other
    ends.sort()
    placed: list[float] = []
    for y, label, mark in ends:
        y = max(y, placed[-1] + 18) if placed else y
        placed.append(y)
        shape, colour = mark.split("|")
        out.append(_marker(shape, left + pw + 14, y, colour))
        out.append(f'<text x="{left + pw + 26}" y="{y:.1f}" font-size="14" font-weight="bold" dominant-baseline="central"'
                   f' fill="#0f172a">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


__all__ = ["hp_chart_svg"]
