"""A risk heat map on the board: each cell coloured by how often storms covered it, with its number.

Three parts, as for the board (:mod:`typhoon_edu.ui.scene`, :mod:`typhoon_edu.ui.svg`, :mod:`typhoon_edu.ui.board`):

* pure functions that turn a rows x cols array of hit probabilities into scene shapes
  (:func:`heat_scene`: coloured cells, a number in every reached cell, region outlines and
  names on top, and a legend strip under the map);
* :func:`heatmap_svg` / :class:`HeatMapSVG` for saved notebook outputs, GitHub and nbviewer;
* :class:`HeatMapView`, an ipycanvas ``MultiCanvas`` (board layer + heat layer) that draws in
  ``on_client_ready`` so the map is not blank in Voilà.

The colours are ColorBrewer's 7-class *YlOrRd* ramp (light yellow → dark red), a sequential
scheme that stays in order for the common colour-vision deficiencies because its lightness falls
steadily; every reached cell also shows its percentage, so colour is never the only cue. The bins
are fixed (not scaled to the data), so two maps made with different settings can be compared by
eye.

>>> import numpy as np
>>> from typhoon_edu.engine.rules import load_rules
>>> rules = load_rules()
>>> p = np.zeros((12, 16)); p[8, 8] = 0.25; p[0, 0] = 0.003
>>> shapes = heat_scene(rules, p, "en", cell=32)
>>> [(s.key, s.fill) for s in shapes if s.role == "heat-cell"]
[('0,0', '#ffffb2'), ('8,8', '#e31a1c')]
>>> [s.text for s in shapes if s.role == "heat-value"]
['<1', '25']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import numpy as np
from ipycanvas import MultiCanvas

from .. import i18n
from . import palette
from .canvas_input import check_canvas_events, make_accessible
from .canvas_ready import when_client_ready
from .geometry import BoardGeometry
from .map_text import LEGIBLE_PX, PHONE_MAP_PX, heat_text, narrow_css, text_box
from .map_text import overlaps as _overlaps
from .painter import repaint
from .scene import Rect, Shape, Text, static_scene
from .svg import shapes_to_svg

if TYPE_CHECKING:
    from ..engine.rules import Rules

#: ColorBrewer YlOrRd, 7 classes (colorbrewer2.org marks it colour-blind safe): low → high risk.
HEAT_COLOURS: tuple[str, ...] = ("#ffffb2", "#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c", "#b10026")

#: Bin edges (probabilities). Bin i holds ``EDGES[i] < p <= EDGES[i + 1]``, except that bin 0 starts just above 0.
HEAT_EDGES: tuple[float, ...] = (0.0, 0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1.0)

HEAT_ALPHA = 0.88  # the board shows through a little: land stays a shade darker than sea
LEGEND_ROWS = 1.7
# roles of the board's static scene that the heat layer draws again above the colours (borders first)
_REDRAWN = ("zone-border", "region-border", "zone-label", "region-label")  # height of the legend strip, in cells


@dataclass(frozen=True)
class LegendEntry:
    """One swatch of the legend: its colour and its range in per cent (``"5–10"``)."""

    colour: str
    label: str


def heat_bins(p: np.ndarray | Sequence[float]) -> np.ndarray:
    """The colour bin (0–6) of each probability; ``-1`` where ``p`` is 0 (no storm got there).

    Upper edges are inclusive, so exactly 1 %, 2 %, 5 % … fall in the lower bin.

    >>> heat_bins([0.0, 0.004, 0.01, 0.011, 0.2, 0.21, 1.0]).tolist()
    [-1, 0, 0, 1, 4, 5, 6]
    """
    arr = np.asarray(p, dtype=float)
    if arr.size and (np.nanmin(arr) < 0.0 or np.nanmax(arr) > 1.0):
        raise ValueError("hit probabilities must lie between 0 and 1")
    bins = np.searchsorted(np.asarray(HEAT_EDGES[1:-1]), arr, side="left")
    return np.where(arr > 0.0, bins, -1)


def heat_colour(p: float) -> str | None:
    """The fill colour of one probability (``None`` for 0: the board shows through).

    >>> heat_colour(0.0), heat_colour(0.07), heat_colour(0.9)
    (None, '#fd8d3c', '#b10026')
    """
    b = int(heat_bins([p])[0])
    return None if b < 0 else HEAT_COLOURS[b]


def percent_label(p: float) -> str:
    """A probability as a whole percentage for a cell: ``""`` for 0, ``"<1"`` below half a per cent.

    A value under 100 % never rounds up to ``"100"`` (that would claim every storm came).

    >>> [percent_label(v) for v in (0.0, 0.004, 0.013, 0.5, 0.998, 1.0)]
    ['', '<1', '1', '50', '99', '100']
    """
    if p <= 0.0:
        return ""
    if p < 0.005:
        return "<1"
    if p < 1.0:
        # half up (Python's round() would turn 0.5 % into "0"), never 0 and never 100
        return str(min(max(int(np.floor(p * 100 + 0.5)), 1), 99))
    return "100"


def legend_entries() -> list[LegendEntry]:
    """The seven swatches with their ranges in per cent.

    >>> [e.label for e in legend_entries()]
    ['<1', '1–2', '2–5', '5–10', '10–20', '20–50', '50–100']
    """
    out = [LegendEntry(HEAT_COLOURS[0], "<1")]
    for i in range(1, len(HEAT_COLOURS)):
        lo, hi = (round(HEAT_EDGES[j] * 100) for j in (i, i + 1))
        out.append(LegendEntry(HEAT_COLOURS[i], f"{lo}–{hi}"))
    return out


def heat_geometry(rules: Rules, cell: int = 48) -> tuple[BoardGeometry, int, int]:
    """The board's geometry and the full drawing size (board + legend strip) in pixels.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> heat_geometry(load_rules(), 48)[1:]
    (816, 706)
    """
    geo = BoardGeometry.for_rules(rules, cell)
    width, height = geo.pixel_size
    return geo, width, height + int(round(LEGEND_ROWS * cell))


def _check_shape(rules: Rules, p: np.ndarray) -> np.ndarray:
    arr = np.asarray(p, dtype=float)
    want = (rules.map.height, rules.map.width)
    if arr.shape != want:
        raise ValueError(f"hit probabilities must be a rows x cols array of shape {want} (the map), not {arr.shape}")
    return arr


def heat_cells_scene(rules: Rules, p: np.ndarray, cell: int = 48, *, min_text: float = 0.0) -> list[Shape]:
    """One coloured square and one number per cell that any storm reached (row by row).

    ``min_text``: the numbers' smallest size, in canvas px, for a map the page shows much smaller than it is
    drawn (a phone, :data:`PHONE_MIN_TEXT`); they are then centred in their cell, which they nearly fill.

    A land cell that no storm reached is painted plain grey, so a region's own colour (Korea's
    orange, say) can never be mistaken for a heat colour; unreached sea stays sea blue. Neither
    grey nor blue is on the heat ramp.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> p = np.zeros((12, 16)); p[5, 6] = 0.6
    >>> shapes = heat_cells_scene(load_rules(), p)
    >>> [(s.role, getattr(s, "text", None) or s.fill) for s in shapes if s.role != "heat-none"]
    [('heat-cell', '#b10026'), ('heat-value', '60')]
    >>> sorted({s.fill for s in shapes if s.role == "heat-none"}) == [palette.LAND]
    True
    """
    arr = _check_shape(rules, p)
    geo = BoardGeometry.for_rules(rules, cell)
    bins = heat_bins(arr)
    squares: list[Shape] = []
    numbers: list[Shape] = []
    size = max(9.0, cell * 0.3, min_text)
    # low in the cell, so a region's name (at a cell centre) and the number do not overlap; a phone's number fills
    # the cell's height and is centred (heat_scene leaves it out where a name covers it)
    low = 0.5 if min_text else 0.8
    for y, x in zip(*np.nonzero(bins >= 0), strict=True):
        colour = HEAT_COLOURS[int(bins[y, x])]
        ox, oy = geo.cell_origin(int(x), int(y))
        key = f"{int(x)},{int(y)}"
        squares.append(Rect(x=ox, y=oy, w=cell, h=cell, fill=colour, alpha=HEAT_ALPHA, role="heat-cell", key=key))
        text = percent_label(float(arr[y, x]))
        if min_text and text == "<1":
            continue  # the palest colour says it (the legend: "<1"); a row of "<1<1<1" at this size ran together
        # a phone's "100" is squeezed to its cell's width (an SVG's textLength would stretch a shorter one)
        squeeze = cell * 0.94 if min_text and len(text) > 2 else None
        numbers.append(Text(x=ox + cell / 2, y=oy + cell * low, text=text, size=size,
                            fill=palette.text_colour_on(colour), role="heat-value", key=key, max_width=squeeze))
    unreached_land: list[Shape] = []
    for y, x in zip(*np.nonzero(bins < 0), strict=True):
        if rules.map.is_land(int(x), int(y)):
            ox, oy = geo.cell_origin(int(x), int(y))
            unreached_land.append(Rect(x=ox, y=oy, w=cell, h=cell, fill=palette.LAND, role="heat-none",
                                       key=f"{int(x)},{int(y)}"))
    return unreached_land + squares + numbers


def legend_scene(rules: Rules, lang: str = "en", cell: int = 48, *, note: str = "") -> list[Shape]:
    """The legend strip under the map: a title, seven labelled swatches, and an optional note.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> [s.text for s in legend_scene(load_rules(), "zh-TW") if s.role == "legend-title"]
    ['每格的數字：颱風暴風半徑掃過這一格的機率（%）']
    """
    geo, width, height = heat_geometry(rules, cell)
    top = geo.pixel_size[1]
    shapes: list[Shape] = [Rect(x=0, y=top, w=width, h=height - top, fill=palette.MARGIN, role="legend-background")]
    left = geo.m
    title_size = max(11.0, cell * 0.3)
    shapes.append(Text(x=left, y=top + cell * 0.05, text=i18n.t("risk.map.legend_title", lang), size=title_size, bold=True,
                       align="left", baseline="top", role="legend-title"))
    sw_w, sw_h = cell * 1.25, cell * 0.72
    sy = top + cell * 0.55
    for i, entry in enumerate(legend_entries()):
        sx = left + i * sw_w
        shapes.append(Rect(x=sx, y=sy, w=sw_w, h=sw_h, fill=entry.colour, stroke=palette.INK, line_width=1,
                           role="legend-swatch", key=entry.label))
        shapes.append(Text(x=sx + sw_w / 2, y=sy + sw_h / 2, text=entry.label, size=max(9.0, cell * 0.27), bold=True,
                           fill=palette.text_colour_on(entry.colour), role="legend-label", key=entry.label))
    note_x = left + len(HEAT_COLOURS) * sw_w + cell * 0.3
    blank = note or i18n.t("risk.map.legend_blank", lang)
    shapes.append(Text(x=note_x, y=sy + sw_h / 2, text=blank, size=max(9.0, cell * 0.26), align="left",
                       role="legend-note"))
    return shapes


def legend_html(lang: str = "en", *, note: str = "") -> str:
    """The legend of the live map, in HTML under its canvas: a title, seven labelled swatches and a note.

    Drawn on the canvas, the legend shrank with it: on a 390 px phone its note came out about 5 px high. In
    HTML its words keep the page's size (at least 13 px) on any screen, and the swatches wrap to a second
    line when the screen is narrow. Each swatch shows its range in words, so colour is not the only cue.

    >>> html = legend_html("en")
    >>> html.count("class='heat-legend-swatch'"), "no storm got there" in html
    (7, True)
    """
    title = escape(i18n.t("risk.map.legend_title", lang))
    blank = escape(note or i18n.t("risk.map.legend_blank", lang))
    narrow = escape(i18n.t("risk.map.legend_narrow", lang))
    swatches = "".join(
        f"<span class='heat-legend-swatch' style='display:inline-block;min-width:3.3em;padding:.15em .3em;"
        f"text-align:center;font-weight:bold;background:{e.colour};color:{palette.text_colour_on(e.colour)};"
        f"border:1px solid {palette.INK};margin:0 -1px 2px 0'>{escape(e.label)}</span>"
        for e in legend_entries())
    return (f"<div class='heat-legend' style='font-size:max(13px, .95em);line-height:1.35;color:{palette.INK};"
            f"margin:.25em 0 .4em 0'>"
            f"<div class='heat-legend-title' style='font-weight:bold'>{title}</div>"
            f"<div style='display:flex;flex-wrap:wrap;align-items:center;gap:.2em .6em;margin-top:.2em'>"
            f"<span style='display:inline-flex;flex-wrap:wrap'>{swatches}</span>"
            f"<span class='heat-legend-note'>{blank}</span></div>"
            # shown by the view's CSS where the map is the phone's drawing (no "<1", no number under a name)
            f"<div class='heat-legend-narrow' style='display:none;margin-top:.2em'>{narrow}</div></div>")


def heat_scene(rules: Rules, p: np.ndarray, lang: str = "en", cell: int = 48, *, note: str = "",
               legend: bool = True, min_text: float = 0.0) -> list[Shape]:
    """The heat layer: coloured cells with numbers, then zone and region outlines and names, then the legend.

    The outlines and names are copied from the board's static scene and drawn again on top, so
    regions stay recognisable under the colours. ``legend=False`` leaves the legend strip out (the
    live map shows it in HTML under the canvas, :func:`legend_html`).

    ``min_text`` draws every text at least that large, in canvas px: the phone's map (:data:`PHONE_MIN_TEXT`).
    There a number fills its cell, so a cell under a region's or zone's name shows its colour only (its number is in
    the map's text description and the ranking gives each region's own).

    >>> from typhoon_edu.engine.rules import load_rules
    >>> shapes = heat_scene(load_rules(), np.zeros((12, 16)), "en")
    >>> sorted({s.role for s in shapes} - {"legend-label", "legend-swatch", "legend-background"})
    ['heat-none', 'legend-note', 'legend-title', 'region-border', 'region-label', 'zone-border', 'zone-label']
    >>> phone = heat_scene(load_rules(), np.full((12, 16), 0.03), "en", legend=False, min_text=PHONE_MIN_TEXT)
    >>> min(s.size for s in phone if isinstance(s, Text)) >= PHONE_MIN_TEXT
    True
    """
    shapes = heat_cells_scene(rules, p, cell, min_text=min_text)
    board = static_scene(rules, lang, cell, min_text=min_text)
    labels = [s for s in board if s.role in _REDRAWN[2:]]
    if min_text:
        # a number a third of an em from a name read as part of it ("日本5", "臺灣 7"): kept half an em clear
        boxes = [(b[0] - t.size / 2, b[1], b[2] + t.size / 2, b[3])
                 for t in labels if isinstance(t, Text) for b in [text_box(t)]]
        shapes = [s for s in shapes if not (s.role == "heat-value" and isinstance(s, Text)
                                            and any(_overlaps(text_box(s), b) for b in boxes))]
    else:
        shapes = [_clear_of(s, labels, cell) if s.role == "heat-value" else s for s in shapes]
    shapes += [s for s in board if s.role in _REDRAWN[:2]]
    shapes += labels
    return shapes + (legend_scene(rules, lang, cell, note=note) if legend else [])


def _clear_of(number: Text, labels: list[Shape], cell: int) -> Text:
    """``number`` moved to the top of its cell when a region's or zone's name would cover it at the bottom."""
    boxes = [text_box(t) for t in labels if isinstance(t, Text)]
    if not any(_overlaps(text_box(number), b) for b in boxes):
        return number
    top = replace(number, y=number.y - cell * 0.58)
    return top if not any(_overlaps(text_box(top), b) for b in boxes) else number


def heatmap_svg(rules: Rules | None, p: np.ndarray, lang: str = "en", cell: int = 48, *, title: str = "",
                note: str = "") -> str:
    """The board with the heat map and legend, as one SVG document (for saved outputs).

    >>> svg = heatmap_svg(None, np.full((12, 16), 0.03))
    >>> svg.count('data-role="heat-cell"'), 'data-role="legend-swatch"' in svg
    (192, True)
    """
    if rules is None:
        from ..engine.rules import load_rules

        rules = load_rules()
    _, width, height = heat_geometry(rules, cell)
    # the heat layer draws the outlines and names again on top; the SVG needs them only once
    board = [s for s in static_scene(rules, lang, cell) if s.role not in _REDRAWN]
    shapes = board + heat_scene(rules, p, lang, cell, note=note)
    return shapes_to_svg(shapes, width, height, title=title or i18n.t("risk.map.svg_title", lang))


class HeatMapSVG:
    """A heat map that Jupyter, GitHub and nbviewer show as SVG.

    >>> HeatMapSVG(None, np.zeros((12, 16)), lang="zh-TW").svg.count('data-role="region-label"')
    6
    """

    def __init__(self, rules: Rules | None, p: np.ndarray, lang: str = "en", cell: int = 48, *, title: str = "",
                 note: str = "") -> None:
        self.svg = heatmap_svg(rules, p, lang, cell, title=title, note=note)

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg


# the phone's measures (LEGIBLE_PX, PHONE_MAP_PX) are map_text's, shared with lesson 06's real map
#: The smallest text of the phone's drawing, canvas px (of an 816 px map): 11.7 CSS px at :data:`PHONE_MAP_PX`.
#: The coordinates grow only as far as the margins hold them (27.6 px, 11.5 CSS px; see ``scene.coord_fit``).
PHONE_MIN_TEXT = 28.0
#: Below this width of the map, CSS px, the page shows the phone's drawing: the usual one's smallest texts (the
#: coordinates, 12.5 px of an 816 px canvas) would come out under :data:`LEGIBLE_PX`.
NARROW_MAP_PX = 720

#: The view's two drawings: the usual one, and the phone's (larger texts, fewer numbers) where the map is narrower
#: than :data:`NARROW_MAP_PX`. A container query, so the map's own width decides (beside the explorer's controls on a
#: laptop, alone on a phone); a browser without container queries shows the usual drawing, as before.
_MAP_CSS = narrow_css("heat-map-view", "heat-map-wide", "heat-map-phone", NARROW_MAP_PX, also=("heat-legend-narrow",))


class HeatMapView(widgets.VBox):
    """The board with a heat map on top (ipycanvas). ``show(p)`` paints new probabilities.

    ``cell`` is the canvas side of a cell; CSS scales the canvas to the page width. The legend is HTML under
    the canvas (:func:`legend_html`), so its words keep their size on a phone.

    The map is drawn twice: :attr:`canvas` as the saved SVG shows it, a number in every cell, and
    :attr:`phone_canvas` with every text at least :data:`PHONE_MIN_TEXT` px (the usual drawing's 12.5–14.4 px were
    about 6 px on a 390 px phone), the numbers left out where a name covers them. The page shows the one that fits
    the map's width (:data:`NARROW_MAP_PX`); both answer to the same keyboard focus and description.
    """

    def __init__(self, rules: Rules | None = None, p: np.ndarray | None = None, lang: str = "en", cell: int = 48,
                 *, caption: str = "", note: str = "", **kwargs: Any) -> None:
        if rules is None:
            from ..engine.rules import load_rules

            rules = load_rules()
        geo = BoardGeometry.for_rules(rules, cell)
        # the canvas holds the map only; its legend is HTML under it (legend_html): drawn on the canvas, it shrank
        # with it to about 5 px on a phone
        width, height = geo.pixel_size
        canvas = MultiCanvas(2, width=width, height=height,
                             layout=widgets.Layout(width="100%", height="auto", max_width=f"{2 * width}px"))
        canvas.add_class("risk-map")
        canvas.add_class("heat-map-wide")
        phone = MultiCanvas(2, width=width, height=height, layout=widgets.Layout(width="100%", height="auto"))
        phone.add_class("risk-map-phone")
        phone.add_class("heat-map-phone")
        self.access = make_accessible(canvas, "", i18n.t("maptext.roledescription", lang))
        phone.add_class(self.access.target)  # the same name, description and focus as the usual drawing
        check_canvas_events(phone)  # a crafted event sent to the phone's drawing is left out too (one log line)
        label = widgets.HTML(layout=widgets.Layout(min_height="1.5em"))
        self.legend = widgets.HTML(legend_html(lang, note=note), layout=widgets.Layout(width="100%"))
        self.legend.add_class("heat-legend-box")
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        style = widgets.HTML(_MAP_CSS, layout=widgets.Layout(display="none"))
        super().__init__(children=[label, phone, canvas, self.legend, self.access, style], **kwargs)
        self.add_class("heat-map-view")
        self.rules = rules
        self.lang = i18n.normalize_lang(lang)
        self.cell = cell
        self.geometry = geo
        self.canvas = canvas
        self.phone_canvas = phone
        self.label = label
        self.note = note
        self.p = _check_shape(rules, p if p is not None else np.zeros((rules.map.height, rules.map.width)))
        self.caption = caption
        # drawn again each time a browser connects: in Voilà a canvas has no memory (see ui/canvas_ready.py)
        when_client_ready(canvas, self._redraw_wide)
        when_client_ready(phone, self._redraw_phone)
        self.redraw()

    @property
    def caption(self) -> str:
        """The line above the map (plain text)."""
        return self._caption

    @caption.setter
    def caption(self, text: str) -> None:
        self._caption = text
        self.label.value = f"<b style='font-size:1.15em'>{escape(text)}</b>" if text else ""

    def heat_shapes(self, *, phone: bool = False) -> list[Shape]:
        """The heat layer's scene for the current probabilities (no legend: it is HTML under the canvas);
        ``phone``: the phone's drawing (:data:`PHONE_MIN_TEXT`)."""
        return heat_scene(self.rules, self.p, self.lang, self.cell, note=self.note, legend=False,
                          min_text=PHONE_MIN_TEXT if phone else 0.0)

    def board_shapes(self, *, phone: bool = False) -> list[Shape]:
        """The board under the heat layer (its names and coordinates at the phone's size with ``phone``)."""
        return static_scene(self.rules, self.lang, self.cell, min_text=PHONE_MIN_TEXT if phone else 0.0)

    def redraw(self) -> None:
        """Draw both layers of both drawings from scratch (also when a browser connects)."""
        self._redraw_wide()
        self._redraw_phone()
        self._update_text()

    def _redraw_wide(self) -> None:
        repaint(self.canvas, {0: self.board_shapes(), 1: self.heat_shapes()})

    def _redraw_phone(self) -> None:
        repaint(self.phone_canvas, {0: self.board_shapes(phone=True), 1: self.heat_shapes(phone=True)})

    def _update_text(self) -> None:
        self.access.label = heat_text(self.rules, self.p, self.caption, self.lang)

    def show(self, p: np.ndarray, caption: str | None = None, *, said_first: str = "") -> None:
        """Paint new hit probabilities (rows x cols); optionally change the caption.

        The map's live region then says the new map in words, after ``said_first`` if given (what the run that made
        the map found: a lesson's verdict is said there, once, not by a second live region).
        """
        self.p = _check_shape(self.rules, p)
        if caption is not None:
            self.caption = caption
        repaint(self.canvas, {1: self.heat_shapes()})
        repaint(self.phone_canvas, {1: self.heat_shapes(phone=True)})
        self._update_text()
        self.access.say(i18n.join_sentences(said_first, self.access.label, lang=self.lang) if said_first
                        else self.access.label)

    def to_svg(self) -> str:
        """The map as it is now, as SVG."""
        return heatmap_svg(self.rules, self.p, self.lang, self.cell, title=self.caption, note=self.note)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["image/svg+xml"] = self.to_svg()
        return data


__all__ = [
    "HEAT_COLOURS",
    "HEAT_EDGES",
    "HeatMapSVG",
    "HeatMapView",
    "LEGIBLE_PX",
    "LegendEntry",
    "NARROW_MAP_PX",
    "PHONE_MAP_PX",
    "PHONE_MIN_TEXT",
    "heat_bins",
    "heat_cells_scene",
    "heat_colour",
    "heat_geometry",
    "heatmap_svg",
    "legend_entries",
    "legend_html",
    "legend_scene",
    "heat_scene",
    "percent_label",
    "text_box",
]
