"""The real-map widget of lesson 06: coastlines in longitude/latitude, a real storm's track coloured by
Taiwan CWA's class, a 6-hourly time slider with pressure and wind, the 30-kt and 50-kt wind radii, and the
same storm on the game board beside it.

No web tiles (the lessons run without internet): the coastlines are the Natural Earth outlines shipped in
``typhoon_edu/data/real/``. As everywhere in the UI, a pure **scene** function builds the shapes (tested
without a browser) and a thin painter draws them on a two-layer ``MultiCanvas`` (static: sea, land,
graticule, labels; dynamic: the track and the storm now), drawn in ``on_client_ready``.

On a phone the 760 px map is shown about 360 px wide, and its 12–15 px texts came out at 5–7 px. The view draws the
map twice, as lesson 05's heat map does (:mod:`typhoon_edu.ui.heatmap`): the usual drawing, and a phone's drawing with
every text at least :data:`PHONE_MIN_TEXT` px (``static_scene(..., min_text=...)``: fewer coordinates where they would
run together, names moved clear of them); a container query on the map's own width shows the phone's drawing below
:data:`NARROW_MAP_PX`.

>>> from typhoon_edu.realdata import find_storm
>>> proj = Projection()
>>> proj.xy(120.0, 24.0)[0] < proj.xy(121.0, 24.0)[0], proj.xy(120.0, 24.0)[1] > proj.xy(120.0, 25.0)[1]
(True, True)
>>> shapes = track_scene(find_storm("Soudelor"), 10, proj)
>>> sum(1 for s in shapes if s.role == "now"), sum(1 for s in shapes if s.role == "r30")
(1, 1)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
from ipycanvas import MultiCanvas

from .. import i18n
from ..realdata.jma import Fix, Storm, selected_storms
from ..realdata.outlines import countries
from ..realdata.stats import KM_PER_DEGREE, cwa_class, nearest_cell, storm_cells
from . import palette
from .canvas_input import check_canvas_events, make_accessible
from .guard import Problems
from .map_text import Box, html_text, narrow_css, overlaps, text_box
from .painter import repaint
from .scene import Circle, Line, Polygon, Rect, Shape, Text
from .state import BoardState, TyphoonView
from .svg import shapes_to_svg
from .touch import touch_style

if TYPE_CHECKING:
    from ..engine.rules import Rules

#: Colours of CWA's classes 1–4 (the game's level ramp, so lesson 03's colours carry over) and of an
#: extratropical stage (0). Each class also has its own marker size and line width, and the legend
#: names it, so colour is never the only cue.
CLASS_COLOUR = {0: "#64748b", 1: palette.LEVEL_FILL[1], 2: palette.LEVEL_FILL[2], 3: palette.LEVEL_FILL[3],
                4: palette.LEVEL_FILL[4]}
CLASS_RADIUS = {0: 3.0, 1: 3.5, 2: 5.0, 3: 6.5, 4: 8.0}
CLASS_WIDTH = {0: 2.0, 1: 2.5, 2: 3.5, 3: 4.5, 4: 5.5}
LAND_FILL = palette.LAND
SEA_FILL = palette.SEA
R30_COLOUR = "#0369a1"
R50_COLOUR = "#b91c1c"


@dataclass(frozen=True)
class Projection:
    """Longitude/latitude → canvas pixels (equirectangular, east–west shrunk by the cosine of the middle latitude).

    >>> p = Projection(west=100, east=160, south=0, north=45, width=600)
    >>> p.height, p.xy(100, 45), [round(v, 2) for v in p.lonlat(*p.xy(130, 20))]
    (487, (0.0, 0.0), [130.0, 20.0])
    """

    west: float = 99.0
    east: float = 161.0
    south: float = 2.0
    north: float = 47.0
    width: int = 760

    @property
    def scale(self) -> float:
        """Pixels per degree of longitude."""
        return self.width / (self.east - self.west)

    @property
    def aspect(self) -> float:
        return 1 / math.cos(math.radians((self.north + self.south) / 2))

    @property
    def height(self) -> int:
        return int(round((self.north - self.south) * self.scale * self.aspect))

    def xy(self, lon: float, lat: float) -> tuple[float, float]:
        return (round((lon - self.west) * self.scale, 3), round((self.north - lat) * self.scale * self.aspect, 3))

    def lonlat(self, x: float, y: float) -> tuple[float, float]:
        return (round(self.west + x / self.scale, 6), round(self.north - y / (self.scale * self.aspect), 6))

    def km(self, km: float) -> float:
        """Pixels for a distance north–south (a radius drawn as a circle)."""
        return km / KM_PER_DEGREE * self.scale * self.aspect


#: The smallest text of the phone's drawing, canvas px (of the 760 px map): 11.6 CSS px at
#: :data:`~typhoon_edu.ui.map_text.PHONE_MAP_PX` (12.3 px on the 360 px a 390×844 phone gives the map).
PHONE_MIN_TEXT = 26.0
#: Below this width of the map, CSS px, the page shows the phone's drawing: the usual one's smallest texts (the
#: coordinates, 12 px of the 760 px canvas) would come out under :data:`~typhoon_edu.ui.map_text.LEGIBLE_PX`
#: (11.05 px here). A laptop's map (1366×768: about 810 px, beside the board) and a projector's keep the usual drawing.
NARROW_MAP_PX = 700

#: The game board beside the map has the board's phone drawing (BoardView's ``phone_text``, as lessons 02 and 03) on
#: every screen: it is never wider than 520 px (its layout's max-width), so it is painted so from the first paint,
#: without the page's word on its width (``math.inf``: no width is narrower, none needs measuring): its usual 9–10 px texts (of the 510 px canvas) came out at 6.4–7.1 px on a 390×844 phone, 7.7–8.6 px on a
#: 1366×768 laptop (439 px) and about 9 px on a 1920×1080 projector (520 px); the phone drawing's 16 px texts are
#: 11.3, 13.8 and 16.3 px there. The saved SVG keeps the usual drawing.
REAL_BOARD_NARROW_PX = math.inf

#: A close-up of Taiwan, for the mountains part of lesson 06.
TAIWAN_VIEW = Projection(west=113.0, east=129.0, south=17.0, north=29.0, width=560)

#: Where each label of the map sits (lon, lat): the six regions of the game and the two seas.
LABELS: dict[str, tuple[float, float]] = {
    "Taiwan": (123.2, 23.4), "Philippines": (125.2, 12.0), "Japan": (137.0, 38.2), "Korea": (127.8, 39.6),
    "South China": (111.0, 24.5), "Central China": (114.5, 31.0),
}


def _label_width(text: str, size: float) -> float:
    """About how wide ``text`` is drawn at ``size`` px: a Chinese character a whole ``size``, other characters 0.62.

    >>> _label_width("160°E", 12) < _label_width("東經 160°", 12)
    True
    """
    return sum(size if ord(ch) >= 0x2E80 else 0.62 * size for ch in text)


def static_scene(proj: Projection, lang: str = "en", rules: Rules | None = None, labels: bool = True, *,
                 min_text: float = 0.0) -> list[Shape]:
    """Sea, land (the 16 outlines), a 10° graticule with its values, and the regions' names.

    ``min_text``: every text at least that large, in canvas px, for a map the page shows much smaller than it is
    drawn (a phone, :data:`PHONE_MIN_TEXT`). A coordinate that would then run into the one before it is left out
    (its line stays), and a name that would cover a coordinate or another name moves a little (:func:`_place_name`).

    >>> shapes = static_scene(Projection(), "zh-TW")
    >>> sum(1 for s in shapes if s.role == "land") > 16, "臺灣" in [s.text for s in shapes if s.role == "label"]
    (True, True)
    >>> phone = static_scene(Projection(), "zh-TW", min_text=PHONE_MIN_TEXT)
    >>> min(s.size for s in phone if isinstance(s, Text)) >= PHONE_MIN_TEXT
    True
    """
    from .lessons.common import lt

    if rules is None:
        from ..engine.rules import load_rules

        rules = load_rules()
    w, h = proj.width, proj.height
    coord_size, name_size = max(12.0, min_text), max(15.0, min_text)
    shapes: list[Shape] = [Rect(x=0, y=0, w=w, h=h, fill=SEA_FILL, role="sea")]
    for country in countries().values():
        for ring in country.rings:
            pts = tuple(proj.xy(float(lon), float(lat)) for lon, lat in ring)
            shapes.append(Polygon(points=pts, fill=LAND_FILL, stroke="#57534e", line_width=1.2, role="land", key=country.name))
    step = 10 if proj.east - proj.west > 30 else 5
    coords: list[Text] = []
    for lon in range(int(math.ceil(proj.west / step) * step), int(proj.east) + 1, step):
        x, _ = proj.xy(lon, proj.north)
        shapes.append(Line(points=((x, 0.0), (x, float(h))), stroke="#64748b", line_width=0.8, alpha=0.6, dash=(4, 4),
                           role="graticule"))
        text = lt("real.lon_label", lang, deg=lon)
        # the last line's value goes on its left when it would run past the map's right edge (160°E was cut in two)
        right = x + 3 + _label_width(text, coord_size) > w
        label = Text(x=x - 3 if right else x + 3, y=h - 4, text=text, size=coord_size,
                     align="right" if right else "left", baseline="bottom", fill="#334155", halo=palette.HALO,
                     role="graticule-label")
        # a phone's "東經 110°" ran into "東經 100°" (the lines are 123 px apart): that one is left out
        if min_text and coords and overlaps(_padded(text_box(label), min_text * 0.3), text_box(coords[-1])):
            continue
        coords.append(label)
        shapes.append(label)
    for lat in range(int(math.ceil(proj.south / step) * step), int(proj.north) + 1, step):
        _, y = proj.xy(proj.west, lat)
        shapes.append(Line(points=((0.0, y), (float(w), y)), stroke="#64748b", line_width=0.8, alpha=0.6, dash=(4, 4),
                           role="graticule"))
        label = Text(x=3, y=y - 2, text=lt("real.lat_label", lang, deg=lat), size=coord_size, align="left",
                     baseline="bottom", fill="#334155", halo=palette.HALO, role="graticule-label")
        if text_box(label)[1] < 0:  # a latitude's value that would stick out above the map (cut, or not seen at all)
            continue
        coords.append(label)
        shapes.append(label)
    if not labels:
        return shapes
    names: list[Text] = []
    for key, (lon, lat) in LABELS.items():
        if proj.west <= lon <= proj.east and proj.south <= lat <= proj.north:
            x, y = proj.xy(lon, lat)
            name = Text(x=x, y=y, text=i18n.region_name(rules, key, lang), size=name_size, bold=True,
                        fill=palette.INK, halo=palette.HALO, role="label", key=key)
            if min_text or _inside(name, w, h) is not name:  # a phone's, or a name past the map's edge (it was cut)
                name, coords = _place_name(name, proj, coords, names)
            names.append(name)
    # the coordinates a name took the place of
    shapes = [s for s in shapes if not isinstance(s, Text) or s in coords]
    return shapes + names


def _inside(t: Text, w: float, h: float) -> Text:
    """``t`` moved just enough to lie inside a ``w`` × ``h`` map (a name at the map's edge was cut in half).

    >>> _inside(Text(x=40, y=2, text="Central China", size=15), 760, 500).y > 2
    True
    """
    x0, y0, x1, y1 = text_box(t)
    dx = -x0 if x0 < 0 else (w - x1 if x1 > w else 0.0)
    dy = -y0 if y0 < 0 else (h - y1 if y1 > h else 0.0)
    return replace(t, x=round(t.x + dx, 3), y=round(t.y + dy, 3)) if dx or dy else t


def _padded(box: Box, by: float) -> Box:
    return (box[0] - by, box[1], box[2] + by, box[3])


def _bold_box(t: Text) -> Box:
    """A name's box: :func:`~typhoon_edu.ui.map_text.text_box`, a little wider for bold Latin letters (0.68 em)."""
    box = text_box(t)
    extra = sum(0.08 * t.size for c in t.text if ord(c) <= 0x2E80) / 2
    return (box[0] - extra, box[1], box[2] + extra, box[3])


def _place_name(name: Text, proj: Projection, coords: list[Text], names: Sequence[Text]) -> tuple[Text, list[Text]]:
    """A phone's region name (or one past the map's edge) where it covers no coordinate and no other name, inside the
    map; and the coordinates left.

    The name is tried where it belongs, then moved up or down by half an em or a whole one, then sideways (its place
    still under it); kept inside the map's edges. Where no place is clear, it stays and the coordinates it covers are
    left out: the names are what the lesson talks about.
    """
    size, w, h = name.size, proj.width, proj.height
    half = (_bold_box(name)[2] - _bold_box(name)[0]) / 2
    taken = [text_box(t) for t in coords] + [_bold_box(t) for t in names]
    tries = [(0.0, 0.0), (0.0, -0.6), (0.0, 0.6), (0.0, -1.2), (0.0, 1.2), (0.8, 0.0), (-0.8, 0.0), (0.8, -0.6),
             (-0.8, -0.6), (0.8, 0.6), (-0.8, 0.6)]
    places = []
    for dx, dy in tries:
        x = min(max(name.x + dx * size, half + 2), w - half - 2)
        y = min(max(name.y + dy * size, size * 0.6), h - size * 0.6)
        places.append(replace(name, x=round(x, 3), y=round(y, 3)))
    clear = next((t for t in places if not any(overlaps(_bold_box(t), b) for b in taken)), None)
    if clear is not None:
        return clear, coords
    return places[0], [t for t in coords if not overlaps(_bold_box(places[0]), text_box(t))]


def storm_title(storm: Storm, lang: str = "en") -> str:
    """A storm's name in ``lang`` and its year: ``"Soudelor 2015"``, ``"蘇迪勒（2015）"``.

    >>> from typhoon_edu.realdata import find_storm
    >>> storm_title(find_storm("Soudelor"), "en"), storm_title(find_storm("Soudelor"), "zh-TW")
    ('Soudelor 2015', '蘇迪勒（2015）')
    """
    key = f"lesson.real.names.n{storm.number}"
    if not i18n.has(key, lang):
        return storm.title
    name = i18n.t(key, lang)
    return f"{name}（{storm.year}）" if i18n.normalize_lang(lang) == "zh-TW" else f"{name} {storm.year}"


def geo_fmt(rules: Rules | None = None) -> dict[str, str]:
    """The board's real-position formula as text placeholders (lon0, lon_step, lat0, lat_step, km), from map.toml.

    >>> geo_fmt()["lon_step"]
    '3.5'
    """
    if rules is None:
        from ..engine.rules import load_rules

        rules = load_rules()
    g = rules.map.geo
    return {"lon0": f"{g['lon0']:g}", "lon_step": f"{g['lon_step']:g}", "lat0": f"{g['lat0']:g}",
            "lat_step": f"{g['lat_step']:g}", "km": f"{g['km_per_cell']:g}"}


def fix_class(fix: Fix) -> int:
    """CWA's class of an analysis (0 = extratropical).

    >>> from typhoon_edu.realdata.jma import parse_data_line
    >>> fix_class(parse_data_line("15080300 002 5 162 1440  940     090"))
    3
    """
    return cwa_class(fix.wind_kt, fix.grade)


def track_scene(storm: Storm, index: int, proj: Projection, *, fixes: Sequence[Fix] | None = None,
                radii: bool = True, whole: bool = True) -> list[Shape]:
    """The track (each 6-hour leg in the class of its start), the analyses as dots, and the storm at ``index``.

    ``index`` counts 6-hourly analyses. With ``whole`` the rest of the track is drawn faintly ahead.

    >>> from typhoon_edu.realdata import find_storm
    >>> s = find_storm("Megi")
    >>> shapes = track_scene(s, 0, Projection(), whole=False)
    >>> sum(1 for x in shapes if x.role == "leg")
    0
    """
    six = list(fixes if fixes is not None else storm.six_hourly())
    if not six:
        return []
    index = max(0, min(int(index), len(six) - 1))
    pts = [proj.xy(f.lon, f.lat) for f in six]
    shapes: list[Shape] = []
    if whole and index < len(six) - 1:
        shapes.append(Line(points=tuple(pts[index:]), stroke=palette.INK, line_width=1.5, alpha=0.45, dash=(5, 4),
                           role="ahead"))
    for k in range(index):
        shapes.append(Line(points=(pts[k], pts[k + 1]), stroke=palette.INK, line_width=CLASS_WIDTH[fix_class(six[k])] + 2.5,
                           role="leg-outline"))
    for k in range(index):
        c = fix_class(six[k])
        shapes.append(Line(points=(pts[k], pts[k + 1]), stroke=CLASS_COLOUR[c], line_width=CLASS_WIDTH[c], role="leg",
                           key=str(c)))
    for k in range(index + 1):
        c = fix_class(six[k])
        shapes.append(Circle(cx=pts[k][0], cy=pts[k][1], r=CLASS_RADIUS[c], fill=CLASS_COLOUR[c], stroke=palette.INK,
                             line_width=1.2, role="fix", key=str(c)))
    now = six[index]
    x, y = pts[index]
    if radii:
        if now.r30 is not None:
            shapes.append(Circle(cx=x, cy=y, r=proj.km(now.r30.longest_km), stroke=R30_COLOUR, line_width=2.5, role="r30"))
        if now.r50 is not None:
            shapes.append(Circle(cx=x, cy=y, r=proj.km(now.r50.longest_km), stroke=R50_COLOUR, line_width=3.0, role="r50"))
    c = fix_class(now)
    shapes.append(Circle(cx=x, cy=y, r=CLASS_RADIUS[c] + 5, fill="#ffffff", stroke=palette.INK, line_width=3, role="now"))
    shapes.append(Circle(cx=x, cy=y, r=CLASS_RADIUS[c] + 1, fill=CLASS_COLOUR[c], stroke=palette.INK, line_width=1.5,
                         role="now-class", key=str(c)))
    return shapes


def legend_item(picture: str, text: str) -> str:
    """One entry of a map's key: its picture (SVG) and its words (escaped here), kept together.

    The words of a long entry wrap beside the picture when the line is shorter than they are, instead of running
    past the box's edge: on a phone, "30-kt winds (JMA's strong-wind radius) reach this far" was cut off.

    >>> legend_item("<svg></svg>", "a < b")
    "<span class='map-key' style='display:inline-flex;align-items:center;gap:.3em;max-width:100%;margin-right:.8em;vertical-align:middle'><span style='flex:none;display:inline-flex'><svg></svg></span><span>a &lt; b</span></span>"
    """
    return ("<span class='map-key' style='display:inline-flex;align-items:center;gap:.3em;max-width:100%;margin-right:.8em;"
            f"vertical-align:middle'><span style='flex:none;display:inline-flex'>{picture}</span><span>{escape(text)}</span></span>")


def legend_html(lang: str = "en") -> str:
    """The key: each class with its colour and dot size, and the two wind radii.

    >>> "strong typhoon" in legend_html("en"), "強烈颱風" in legend_html("zh-TW")
    (True, True)
    """
    from .lessons.common import lt

    items = []
    for c in (1, 2, 3, 4, 0):
        r = CLASS_RADIUS[c]
        dot = (f"<svg width='22' height='22' style='vertical-align:middle'><circle cx='11' cy='11' r='{r + 1}' "
               f"fill='{CLASS_COLOUR[c]}' stroke='{palette.INK}' stroke-width='1.3'/></svg>")
        items.append(legend_item(dot, lt(f"real.class_{c}", lang)))
    for colour, key in ((R30_COLOUR, "real.legend_r30"), (R50_COLOUR, "real.legend_r50")):
        ring = (f"<svg width='22' height='22' style='vertical-align:middle'><circle cx='11' cy='11' r='8' fill='none' "
                f"stroke='{colour}' stroke-width='2.5'/></svg>")
        items.append(legend_item(ring, lt(key, lang)))
    return "<div class='realmap-legend' style='font-size:1em;line-height:1.9'>" + "".join(items) + "</div>"


def fix_html(storm: Storm, fix: Fix, lang: str = "en", rules: Rules | None = None) -> str:
    """What the storm was at one analysis: time, centre, pressure, wind (kt, m/s, km/h), class, radii, board cell.

    >>> from typhoon_edu.realdata import find_storm
    >>> s = find_storm("Soudelor"); html = fix_html(s, s.six_hourly()[20], "en")
    >>> "hPa" in html and "kt" in html and "cell" in html
    True
    """
    from .lessons.common import lt

    c = fix_class(fix)
    if fix.wind_kt is None:
        wind = lt("real.no_wind", lang)
    else:
        wind = lt("real.wind", lang, kt=fix.wind_kt, ms=f"{fix.wind_kt * 0.514444:.1f}", kmh=f"{fix.wind_kt * 1.852:.0f}")
    lines = [
        f"<b style='font-size:1.15em'>{escape(storm_title(storm, lang))}</b> · "
        f"{escape(lt('real.time', lang, time=fix.time.strftime('%Y-%m-%d %H:%M')))}",
        escape(lt("real.centre", lang, lat=f"{fix.lat:.1f}", lon=f"{fix.lon:.1f}")),
        f"<b>{escape(lt('real.pressure', lang, hpa=fix.pressure))}</b> · <b>{escape(wind)}</b>",
        escape(lt("real.class_now", lang, name=lt(f"real.class_{c}", lang))),
    ]
    radii = []
    if fix.r30 is not None:
        radii.append(lt("real.r30", lang, km=f"{fix.r30.longest_km:.0f}"))
    if fix.r50 is not None:
        radii.append(lt("real.r50", lang, km=f"{fix.r50.longest_km:.0f}"))
    lines.append(escape(" · ".join(radii) if radii else lt("real.no_radii", lang)))
    cell = nearest_cell(fix.lon, fix.lat, rules)
    lines.append(escape(lt("real.cell", lang, cell=i18n.cell_label(cell, lang)) if cell else lt("real.off_board", lang)))
    return "<div class='realmap-info' style='font-size:1.05em;line-height:1.55'>" + "<br>".join(lines) + "</div>"


def board_state(storm: Storm, index: int, rules: Rules | None = None) -> BoardState:
    """The storm on the game board at analysis ``index``: the cells it has crossed (as a trail) and its eye.

    >>> from typhoon_edu.realdata import find_storm
    >>> st = board_state(find_storm("Soudelor"), 40)
    >>> len(st.trail) > 3, st.typhoons[0].level in (1, 2, 3, 4)
    (True, True)
    """
    six = storm.six_hourly()
    index = max(0, min(int(index), len(six) - 1))
    cells = storm_cells(six[: index + 1], rules)
    now = nearest_cell(six[index].lon, six[index].lat, rules)
    typhoons = (TyphoonView(1, now, max(1, fix_class(six[index]))),) if now is not None else ()
    return BoardState(typhoons=typhoons, trail=tuple(cells))


#: The map's two drawings: the usual one, and the phone's (larger texts, fewer coordinates) where the map's own box is
#: narrower than :data:`NARROW_MAP_PX` (see :func:`~typhoon_edu.ui.map_text.narrow_css`).
_MAP_CSS = narrow_css("real-map-box", "real-map-wide", "real-map-phone", NARROW_MAP_PX)


class RealStormMap(widgets.VBox):
    """A real storm replayed 6 hours at a time on a real map, with the game board beside it.

    The map is drawn twice: :attr:`canvas` as the saved SVG shows it, and :attr:`phone_canvas` with every text at
    least :data:`PHONE_MIN_TEXT` px (the usual drawing's 12–15 px were 5–7 px on a 390 px phone). The page shows the
    one that fits the map's width (:data:`NARROW_MAP_PX`); both answer to the same keyboard focus and description.
    The game board beside it (:attr:`board`) has its own phone drawing on every screen (:data:`REAL_BOARD_NARROW_PX`,
    BoardView's ``phone_text``: one canvas, the same description).
    """

    def __init__(self, lang: str = "en", storm: str = "Soudelor", *, storms: Sequence[Storm] | None = None,
                 rules: Rules | None = None, proj: Projection | None = None, board_cell: int = 30, **kwargs: Any) -> None:
        from .board import BoardView, phone_text
        from .lessons.common import lt

        if rules is None:
            from ..engine.rules import load_rules

            rules = load_rules()
        self.rules = rules
        self.lang = lang = i18n.normalize_lang(lang)
        self.storms = list(storms if storms is not None else selected_storms())
        self.proj = proj or Projection()
        self.problems = Problems(lambda: self.lang)
        # as wide as the page allows, but never taller than the screen (the info and legend need room too)
        fit = f"min({2 * self.proj.width}px, calc((100vh - 120px) * {self.proj.width / self.proj.height:.3f}))"
        self.canvas = MultiCanvas(2, width=self.proj.width, height=self.proj.height,
                                  layout=widgets.Layout(width="100%", height="auto", max_width=fit))
        self.canvas.add_class("real-map")
        self.canvas.add_class("real-map-wide")
        # the phone's drawing (every text at least PHONE_MIN_TEXT px), shown instead where the map is narrow (_MAP_CSS)
        self.phone_canvas = MultiCanvas(2, width=self.proj.width, height=self.proj.height,
                                        layout=widgets.Layout(width="100%", height="auto", max_width=fit))
        self.phone_canvas.add_class("real-map-phone")
        self.access = make_accessible(self.canvas, "", i18n.t("maptext.roledescription", lang))
        self.phone_canvas.add_class(self.access.target)  # the same name, description and focus as the usual drawing
        check_canvas_events(self.phone_canvas)  # a crafted event sent to the phone's drawing is left out too
        self.access.button_names = {k: i18n.t(f"maptext.{k}", lang) for k in ("play", "pause", "stop", "repeat")}
        self.choose = widgets.Dropdown(options=[(storm_title(s, lang), s.number) for s in self.storms], description=lt("real.storm", lang),
                                       style={"description_width": "initial"}, layout=widgets.Layout(width="auto"))
        self.slider = widgets.IntSlider(value=0, min=0, max=1, description=lt("real.time_slider", lang),
                                        style={"description_width": "initial"}, continuous_update=True,
                                        layout=widgets.Layout(width="100%", max_width="40em"))
        self.play = widgets.Play(value=0, min=0, max=1, interval=500, description=lt("real.play", lang),
                                 layout=widgets.Layout(width="auto"))
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.info = widgets.HTML(layout=widgets.Layout(min_height="9em"))
        # its phone drawing on every screen (REAL_BOARD_NARROW_PX): every text at least 11 CSS
        # px at the 360 px a 390x844 phone gives it (board.phone_text: 16 px of the 510 px canvas)
        self.board = BoardView(rules, lang=lang, cell=board_cell, controls=False,
                               phone_text=phone_text(board_cell, rules), narrow_px=REAL_BOARD_NARROW_PX)
        self.board.canvas.add_class("real-board")
        self.board.layout = widgets.Layout(width="100%", max_width="520px")
        self.legend = widgets.HTML(legend_html(lang))
        self.source = widgets.HTML(f"<div style='font-size:.9em;color:#334155'>{escape(lt('real.map_source', lang))}</div>")
        board_box = widgets.VBox([widgets.HTML(f"<b>{escape(lt('real.board_title', lang))}</b>"), self.board,
                                  widgets.HTML(f"<div style='font-size:.95em;max-width:32em'>{escape(lt('real.board_note', lang, **geo_fmt(rules)))}</div>")],
                                 layout=widgets.Layout(flex="1 1 300px", min_width="260px", max_width="540px"))
        # no smallest width of its own: a phone narrower than 300 px + its margins would cut the map and its key off
        self.map_css = widgets.HTML(_MAP_CSS, layout=widgets.Layout(display="none"))
        map_box = widgets.VBox([self.canvas, self.phone_canvas, self.access, self.legend, self.source, self.map_css],
                               layout=widgets.Layout(flex="3 1 480px", min_width="0"))
        map_box.add_class("real-map-box")  # the container whose width picks the drawing
        controls = widgets.HBox([self.choose, self.play], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        super().__init__(children=[self.problems.widget, controls, self.slider, self.info,
                                   widgets.HBox([map_box, board_box], layout=widgets.Layout(flex_flow="row wrap", width="100%",
                                                                                             align_items="flex-start")),
                                   touch_style()], **kwargs)
        self.add_class("real-storm-map")
        self._static: dict[bool, list[Shape]] = {}
        self.storm = self.storms[0]
        self.problems.observe(self.choose, lambda change: self.select(change["new"]), where="real map: storm")
        self.problems.observe(self.slider, lambda change: self.show(change["new"]), where="real map: time")
        # each drawing is drawn again when a browser connects to it: in Voilà a canvas has no memory
        self.problems.on_client_ready(self.canvas, lambda: self._redraw(phone=False), where="real map: draw")
        self.problems.on_client_ready(self.phone_canvas, lambda: self._redraw(phone=True), where="real map: draw")
        self.select(self._number(storm))

    def _number(self, storm: str) -> str:
        from ..realdata.jma import find_storm

        return find_storm(storm, self.storms).number

    # --- state -------------------------------------------------------------------------------

    @property
    def six(self) -> tuple[Fix, ...]:
        return self.storm.six_hourly()

    def select(self, number: str) -> None:
        """Show storm ``number`` (e.g. "1513") from its first analysis."""
        storm = next((s for s in self.storms if s.number == number), None)
        if storm is None:
            raise ValueError(f"no storm {number!r} in this map; the storms are {', '.join(s.number for s in self.storms)}")
        self.storm = storm
        if self.choose.value != number:
            self.choose.value = number
        last = len(self.six) - 1
        self.slider.value = 0
        self.slider.max = self.play.max = max(last, 1)
        self.show(0)

    def show(self, index: int) -> None:
        """Move the replay to 6-hourly analysis ``index``."""
        index = max(0, min(int(index), len(self.six) - 1))
        self.index = index
        if self.slider.value != index:
            self.slider.value = index
        self.info.value = fix_html(self.storm, self.six[index], self.lang, self.rules)
        # the map's words are the info panel's: the same analysis, said once more for a screen reader
        self.access.label = i18n.t("maptext.real", self.lang, info=html_text(self.info.value))
        self.board.show(board_state(self.storm, index, self.rules))
        self._draw_dynamic()

    # --- drawing -----------------------------------------------------------------------------

    def static_shapes(self, *, phone: bool = False) -> list[Shape]:
        """The static layer's scene (sea, land, graticule, names); ``phone``: the phone's drawing
        (:data:`PHONE_MIN_TEXT`)."""
        if phone not in self._static:
            self._static[phone] = static_scene(self.proj, self.lang, self.rules, min_text=PHONE_MIN_TEXT if phone else 0.0)
        return self._static[phone]

    def dynamic_shapes(self) -> list[Shape]:
        """The track and the storm now (no text: the same on both drawings)."""
        return track_scene(self.storm, self.index, self.proj)

    def redraw(self) -> None:
        """Draw both layers of both drawings."""
        self._redraw(phone=False)
        self._redraw(phone=True)

    def _redraw(self, *, phone: bool) -> None:
        from .canvas_ready import forget_selected_canvas

        forget_selected_canvas()
        repaint(self.phone_canvas if phone else self.canvas, {0: self.static_shapes(phone=phone), 1: self.dynamic_shapes()})

    def _draw_dynamic(self) -> None:
        track = self.dynamic_shapes()
        repaint(self.canvas, {1: track})
        repaint(self.phone_canvas, {1: track})

    def to_svg(self) -> str:
        from .lessons.common import lt

        return shapes_to_svg([*self.static_shapes(), *self.dynamic_shapes()], self.proj.width, self.proj.height,
                             title=lt("real.map_title", self.lang, storm=storm_title(self.storm, self.lang)))

    def to_html(self) -> str:
        """A still picture for saved notebooks: the map, the info, the legend and the board."""
        return (f"<div>{self.info.value}<div style='max-width:760px'>{self.to_svg()}</div>{self.legend.value}"
                f"<div style='max-width:480px'>{self.board.to_svg()}</div></div>")

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self.to_html()
        return data


def real_map(lang: str = "en", storm: str = "Soudelor") -> RealStormMap:
    """Lesson 06's real map (the 13 landmark storms).

    >>> m = real_map("zh-TW", "Meranti")
    >>> m.storm.name, m.slider.max == len(m.storm.six_hourly()) - 1
    ('MERANTI', True)
    >>> m.show(12); "百帕" in m.info.value
    True
    """
    return RealStormMap(lang, storm)


__all__ = ["CLASS_COLOUR", "LABELS", "REAL_BOARD_NARROW_PX", "NARROW_MAP_PX", "PHONE_MIN_TEXT", "geo_fmt", "storm_title", "TAIWAN_VIEW", "Projection", "RealStormMap", "board_state", "fix_class", "fix_html",
           "legend_html", "legend_item", "real_map", "static_scene", "track_scene"]
