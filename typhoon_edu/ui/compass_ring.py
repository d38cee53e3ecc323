"""The compass ring (方位羅盤): the ring's stops in a circle and the indicator; a roll moves it clockwise.

>>> from typhoon_edu.engine.rules import load_rules
>>> roll_path(load_rules(), "N", 3)
['NNE', 'NE', 'E']
>>> ring = CompassRing(lang="zh-TW")
>>> ring.roll(3), ring.roll(3), ring.roll(5)
('E', 'NNW', 'WSW')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
from ipycanvas import Canvas

from .. import i18n
from . import palette
from .animation import FramePlayer
from .canvas_ready import canvas_batch, forget_selected_canvas
from .guard import Problems
from .painter import paint
from .scene import Circle, Polygon, Shape, Text, arrow_shapes
from .svg import shapes_to_svg

if TYPE_CHECKING:
    from ..engine.rules import Rules

SECONDS_PER_STOP = 0.35
INDICATOR = "#f97316"


def roll_path(rules: Rules, start: str, face: int) -> list[str]:
    """The stops the indicator passes, clockwise, for a roll of ``face`` (the last is where it stops)."""
    ring = rules.ring
    if start not in ring:
        raise ValueError(f"the indicator is on {start!r}, which is not a stop of the ring {', '.join(ring)}")
    i = ring.index(start)
    return [ring[(i + k) % len(ring)] for k in range(1, int(face) + 1)]


WIDTH_RATIO = 1.7  # the ring is drawn in a wide box so long names ("north-northwest") fit beside it
RING_RADIUS = 0.31  # as a fraction of the box height: the ring's radius when the box has room for it
COMPACT_RATIO = 1.0  # the ring without its names (a phone) needs no room beside it

#: Advance widths, in em, of the bold capitals the stops' codes are made of. Chromium measures N 0.75, E 0.62,
#: S 0.62, W 0.92 em in Noto Sans CJK TC Bold (the page's font, palette.FONT) and N 0.72, E 0.67, S 0.67, W 0.94 em
#: in Liberation Sans Bold (Arial's metrics, the fallback); these are the wider of the two, rounded up. The
#: 0.58 em per Latin letter of scene._label_box suits lower-case words: "WNW" is about 2.6 em wide, not 1.74.
CAPITAL_EM = {"N": 0.76, "E": 0.68, "S": 0.68, "W": 0.95}
#: Any other capital letter (M and W are the widest, about 0.95 em).
OTHER_CAPITAL_EM = 0.8
#: A code is drawn on the 'middle' baseline: its capitals reach about 0.37 em above and below the circle's centre.
CODE_HALF_HEIGHT = 0.4
#: Room between a code's corners and the inside of its circle's ring, in em (never under 2 px).
CODE_MARGIN = 0.1
#: The smallest text, in CSS px, a ring may show on screen (see ``CompassRing(min_text_px=...)``).
LEGIBLE_PX = 12.0


def text_width(text: str, size: float) -> float:
    """Estimated width in px of ``text`` drawn ``size`` px high: a CJK glyph 1 em, a capital by :data:`CAPITAL_EM`,
    any other character 0.58 em (scene._label_box's estimate, generous for lower-case words, bold or not).

    >>> text_width("WNW", 20), text_width("北北西", 20), text_width("east", 10)
    (53.2, 60.0, 23.2)
    """
    width = 0.0
    for ch in text:
        if ord(ch) > 0x2E80:
            width += size
        elif ch.isupper():
            width += size * CAPITAL_EM.get(ch, OTHER_CAPITAL_EM)
        else:
            width += size * 0.58
    return round(width, 6)


def drawn_size(size: float) -> float:
    """The font size the painter really uses for ``size`` (it asks the canvas for whole pixels).

    >>> drawn_size(18.85), drawn_size(15.0)
    (19.0, 15.0)
    """
    return float(f"{size:.0f}")


def code_reach(code: str, size: float) -> float:
    """How far from its circle's centre a stop's code drawn ``size`` px high reaches, margin included: the distance
    to a corner of its box (:func:`text_width` wide, 2 × :data:`CODE_HALF_HEIGHT` em high) plus
    :data:`CODE_MARGIN`. The code fits its circle when this is no more than the radius inside the circle's ring.

    >>> round(code_reach("WNW", 19), 1), round(code_reach("N", 19), 1)
    (28.4, 12.5)
    """
    return math.hypot(text_width(code, size) / 2, CODE_HALF_HEIGHT * size) + max(2.0, CODE_MARGIN * size)


def _code_fit(code: str, inner: float) -> float:
    """The largest whole-pixel font size at which ``code`` fits inside a radius of ``inner`` px."""
    size = max(1.0, math.floor(inner))
    while size > 1 and code_reach(code, size) > inner:
        size -= 1
    return size


def ring_width(size: int, ratio: float = WIDTH_RATIO) -> int:
    """Width in pixels of a ring drawing of height ``size`` (``ratio``: width / height)."""
    return int(size * ratio)


def stop_position(index: int, count: int, size: float, radius: float = RING_RADIUS,
                  ratio: float = WIDTH_RATIO, *, centre: tuple[float, float] | None = None) -> tuple[float, float]:
    """Pixel centre of stop ``index`` of ``count``, clockwise from the top, on a ring of ``radius`` × ``size``
    around ``centre`` (the middle of a drawing of height ``size`` unless given; see :class:`RingLayout`).

    >>> stop_position(0, 7, 300)
    (255.0, 57.0)
    """
    angle = 2 * math.pi * index / count
    cx, cy = centre if centre is not None else (ring_width(int(size), ratio) / 2, size / 2)
    return round(cx + math.sin(angle) * radius * size, 6), round(cy - math.cos(angle) * radius * size, 6)


def _name_anchor(sx: float, sy: float) -> tuple[str, str]:
    """Alignment and baseline of a stop's name, set just outside the stop on the side away from the centre."""
    align = "left" if sx > 0.3 else "right" if sx < -0.3 else "center"
    baseline = "middle" if align != "center" else ("bottom" if sy < 0 else "top")
    return align, baseline


Box = tuple[float, float, float, float]


def _name_offset(sx: float, sy: float, text: str, size: float, clear: float) -> float:
    """How far from its stop's centre, in the direction (``sx``, ``sy``), the name ``text`` drawn ``size`` px high is
    anchored so that its box (:func:`_text_box`) keeps ``clear`` px from the centre: beside a stop above or below
    the middle the box's corner, not its anchor, comes nearest the circle."""
    align, baseline = _name_anchor(sx, sy)

    def near(d: float) -> float:
        x0, y0, x1, y1 = text_box(sx * d, sy * d, text, size, align, baseline)
        return math.hypot(min(max(0.0, x0), x1), min(max(0.0, y0), y1))

    lo, hi = 0.0, clear + 2 * size
    while near(hi) < clear:
        hi *= 2
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if near(mid) < clear else (lo, mid)
    return hi


def text_box(x: float, y: float, text: str, size: float, align: str = "center", baseline: str = "middle") -> Box:
    """The box (x0, y0, x1, y1) the glyphs of ``text`` take, drawn ``size`` px high at (``x``, ``y``) as the painter
    draws a :class:`~typhoon_edu.ui.scene.Text` (its halo, white on white, may stick out): :func:`text_width` wide;
    on the 'middle' baseline a CJK glyph reaches 0.5 em above and below, a Latin word 0.4 em (Chromium, Noto Sans
    CJK TC: 北 +0.46/-0.48 em, "north" +0.38/-0.38 em); on the 'bottom' baseline up to 1 em above ("north" 0.92,
    北 0.96 em).

    >>> text_box(100, 50, "east", 10, "left")
    (100, 46.0, 123.2, 54.0)
    """
    width = text_width(text, size)
    x0 = x if align == "left" else x - width if align == "right" else x - width / 2
    half = (0.5 if any(ord(ch) > 0x2E80 for ch in text) else 0.4) * size
    if baseline == "bottom":
        y0, y1 = y - size, y
    elif baseline == "top":
        y0, y1 = y, y + size
    else:
        y0, y1 = y - half, y + half
    return (x0, y0, x0 + width, y1)


@dataclass
class RingLayout:
    """Where a ring drawing puts its parts, in the drawing's pixels (see :func:`ring_layout`)."""

    width: int
    height: int
    cx: float
    cy: float
    radius: float  # the ring through the stops' centres
    r_stop: float  # each stop's circle
    arrow: float  # half the length of the clockwise arrowheads between the stops
    name_size: float  # 0: the names are left out
    name_offsets: dict[str, float]  # from a stop's centre to its name's anchor, away from the ring's centre
    code_sizes: dict[str, float]
    keys: tuple[str, ...]

    def stop_centre(self, index: int) -> tuple[float, float]:
        return stop_position(index, len(self.keys), self.height, self.radius / self.height, centre=(self.cx, self.cy))

    def line_width(self, on: bool) -> float:
        """The ring of a stop's circle: thick where the indicator is."""
        return max(3.0, self.height / 60) if on else max(1.5, self.height / 160)

    def name_anchor(self, index: int) -> tuple[float, float, str, str]:
        """Anchor (x, y), alignment and baseline of the name of stop ``index``."""
        a = 2 * math.pi * index / len(self.keys)
        sx, sy = math.sin(a), -math.cos(a)
        px, py = self.stop_centre(index)
        off = self.name_offsets[self.keys[index]]
        align, baseline = _name_anchor(sx, sy)
        return px + sx * off, py + sy * off, align, baseline


def ring_layout(keys: tuple[str, ...] | list[str], size: int, *, label_scale: float = 1.0, ratio: float = WIDTH_RATIO,
                names: dict[str, list[str]] | None = None) -> RingLayout:
    """Sizes and places the ring's parts in a drawing ``size`` px high and ``ratio`` × as wide.

    Each stop's circle is made large enough for its code (:func:`code_reach`; all circles alike, the indicator's
    thicker ring counted), and the ring large enough to keep the clockwise arrowheads between the circles, as far
    as the box allows with ``names`` (each stop's possible names, every language, estimated by :func:`text_width`)
    beside the stops; where it does not, the circles and the codes shrink. The ring sits in the middle of the box,
    moved only as far as it must to keep everything inside.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> ring = load_rules().ring
    >>> lesson = ring_layout(ring, 300, names={k: ["north-northwest"] for k in ring})
    >>> (lesson.cx, lesson.cy, lesson.radius), lesson.code_sizes["WNW"]
    ((255.0, 150.0, 93.0), 15.0)
    >>> phone = ring_layout(ring, 260, label_scale=1.45, ratio=COMPACT_RATIO)
    >>> phone.name_size, round(phone.code_sizes["WNW"], 2), phone.width
    (0.0, 18.85, 260)
    """
    frozen = tuple((k, tuple(v)) for k, v in names.items()) if names else ()
    lay = _ring_layout(tuple(keys), size, float(label_scale), float(ratio), frozen)
    return replace(lay, code_sizes=dict(lay.code_sizes), name_offsets=dict(lay.name_offsets))


@lru_cache(maxsize=64)
def _ring_layout(keys: tuple[str, ...], size: int, label_scale: float, ratio: float,
                 names: tuple[tuple[str, tuple[str, ...]], ...]) -> RingLayout:
    n = len(keys)
    width = ring_width(size, ratio)
    name_size = size * 0.05 * label_scale if names else 0.0
    drawn_name = drawn_size(name_size)
    gap = max(2.0, size * 0.01)  # between a stop's circle (its ring included) and its name's box
    pad = 1.0
    lw_on = max(3.0, size / 60)  # the ring of the stop the indicator is on, the thickest
    want = {k: size * (0.05 if len(k) == 3 else 0.06) * label_scale for k in keys}
    arc = 2 * math.sin(math.pi / (2 * n))  # from a stop's centre to the middle of the arc to the next, per unit radius
    arrow_best, arrow_least, clear = size * 0.025, size * 0.016, max(1.0, size * 0.005)
    sines = [(math.sin(2 * math.pi * k / n), -math.cos(2 * math.pi * k / n)) for k in range(n)]
    labels = {k: list(dict(names).get(k, ())) for k in keys}

    def offsets_for(r: float) -> dict[str, float]:  # where each name goes, the same for every language's name
        return {k: max((_name_offset(sx, sy, t, drawn_name, r + lw_on / 2 + gap) for t in labels[k]), default=0.0)
                for k, (sx, sy) in zip(keys, sines, strict=True)}

    def extent(radius: float, r: float, offsets: dict[str, float]) -> Box:
        boxes: list[Box] = [(-radius - lw_on, -radius - lw_on, radius + lw_on, radius + lw_on)]
        for k, (sx, sy) in zip(keys, sines, strict=True):
            px, py = sx * radius, sy * radius
            boxes.append((px - r - lw_on / 2, py - r - lw_on / 2, px + r + lw_on / 2, py + r + lw_on / 2))
            if labels[k]:
                align, baseline = _name_anchor(sx, sy)
                off = offsets[k]
                boxes += [text_box(px + sx * off, py + sy * off, t, drawn_name, align, baseline) for t in labels[k]]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))

    def fits(radius: float, r: float, offsets: dict[str, float]) -> bool:
        x0, y0, x1, y1 = extent(radius, r, offsets)
        return x1 - x0 <= width - 2 * pad and y1 - y0 <= size - 2 * pad

    def least_radius(r: float) -> float:  # the arrowheads keep at least arrow_least between the circles
        return (r + lw_on / 2 + clear + arrow_least) / arc

    def most_radius(r: float) -> float:
        offsets = offsets_for(r)
        lo, hi = 0.0, float(size)
        if not fits(lo, r, offsets):
            return -1.0
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if fits(mid, r, offsets) else (lo, mid)
        return lo

    # (a hair more than the codes need, so that rounding never leaves one a hair too large)
    r_need = max(size * 0.08, max(code_reach(k, drawn_size(want[k])) + lw_on / 2 for k in keys) + 1e-6)
    r = r_need
    if least_radius(r) > most_radius(r):
        lo, hi = size * 0.04, r_need  # the largest circles for which the box has room
        for _ in range(24):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if least_radius(mid) <= most_radius(mid) else (lo, mid)
        r = lo
    room = most_radius(r)
    radius = max(size * RING_RADIUS, (r + lw_on / 2 + clear + arrow_best) / arc)
    radius = max(least_radius(r), min(radius, room)) if room > 0 else size * RING_RADIUS
    arrow = max(0.0, min(arrow_best, arc * radius - r - lw_on / 2 - clear))
    inner = r - lw_on / 2
    codes = {k: want[k] if code_reach(k, drawn_size(want[k])) <= inner else _code_fit(k, inner) for k in keys}
    # codes of the same length alike ("NNW" as large as "WNW")
    codes = {k: min(v for c, v in codes.items() if len(c) == len(k)) for k in keys}
    offsets = offsets_for(r)
    x0, y0, x1, y1 = extent(radius, r, offsets)
    cx = min(max(width / 2, pad - x0), width - pad - x1)
    cy = min(max(size / 2, pad - y0), size - pad - y1)
    return RingLayout(width=width, height=size, cx=round(cx, 6), cy=round(cy, 6), radius=round(radius, 6),
                      r_stop=r, arrow=arrow, name_size=name_size, name_offsets=offsets, code_sizes=codes, keys=keys)


def _all_names(rules: Rules) -> dict[str, list[str]]:
    """Every name a stop may show, in every language (so a switch of language does not move the ring)."""
    return {k: [i18n.direction_name(rules, k, lang) for lang in i18n.LANGS] for k in rules.ring}


def ring_scene(rules: Rules, stop: str, lang: str = "en", size: int = 320, *, label_scale: float = 1.0,
               ratio: float = WIDTH_RATIO, names: bool = True) -> list[Shape]:
    """Shapes of the ring with the indicator on ``stop``: each stop shows its letters and (``names``) its name.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> shapes = ring_scene(load_rules(), "E", "zh-TW")
    >>> [s.text for s in shapes if s.role == "stop-name"][:4]
    ['北', '北北東', '東北', '東']
    >>> [s.key for s in shapes if s.role == "stop" and s.fill == INDICATOR]
    ['E']
    >>> [s.role for s in ring_scene(load_rules(), "E", names=False, ratio=COMPACT_RATIO) if s.role == "stop-name"]
    []
    """
    ring = rules.ring
    n = len(ring)
    lay = ring_layout(ring, size, label_scale=label_scale, ratio=ratio, names=_all_names(rules) if names else None)
    cx, cy, radius, r_stop = lay.cx, lay.cy, lay.radius, lay.r_stop
    shapes: list[Shape] = [
        Circle(cx=cx, cy=cy, r=radius, stroke=palette.GRID, line_width=max(2.0, size / 80), alpha=0.5, role="ring"),
    ]
    # small arrowheads between stops say which way is clockwise
    for k in range(n):
        a = 2 * math.pi * (k + 0.5) / n
        px, py = cx + math.sin(a) * radius, cy - math.cos(a) * radius
        tx, ty = math.cos(a), math.sin(a)  # tangent, clockwise on screen
        nx, ny = math.sin(a), -math.cos(a)
        h = lay.arrow
        shapes.append(Polygon(points=((px + tx * h, py + ty * h), (px - tx * h + nx * h, py - ty * h + ny * h),
                                      (px - tx * h - nx * h, py - ty * h - ny * h)), fill=palette.GRID, alpha=0.6, role="clockwise"))
    target = lay.stop_centre(ring.index(stop)) if stop in ring else (cx, cy - radius)
    dx, dy = target[0] - cx, target[1] - cy
    dist = math.hypot(dx, dy) or 1.0
    head = (cx + dx / dist * (dist - r_stop - 2), cy + dy / dist * (dist - r_stop - 2))
    shapes += arrow_shapes((cx, cy), head, width=max(3.0, size / 45), colour=INDICATOR, role="indicator", key=stop)
    shapes.append(Circle(cx=cx, cy=cy, r=size * 0.03, fill=palette.INK, role="indicator", key=stop))
    for k, key in enumerate(ring):
        px, py = lay.stop_centre(k)
        on = key == stop
        shapes.append(Circle(cx=px, cy=py, r=r_stop, fill=INDICATOR if on else "#ffffff", stroke=palette.INK,
                             line_width=lay.line_width(on), role="stop", key=key))
        shapes.append(Text(x=px, y=py, text=key, size=lay.code_sizes[key], bold=True, fill=palette.INK, role="stop-key", key=key))
        if lay.name_size:
            # the name sits just outside the stop, on the side away from the centre
            x, y, align, baseline = lay.name_anchor(k)
            shapes.append(Text(x=x, y=y, text=i18n.direction_name(rules, key, lang), size=lay.name_size, bold=on, align=align,
                               baseline=baseline, fill=palette.INK, halo=palette.HALO, role="stop-name", key=key))
    shapes.append(Text(x=cx, y=cy + size * 0.12, text=i18n.t("compass.clockwise", lang), size=size * 0.045 * label_scale,
                       fill=palette.GRID, halo=palette.HALO, role="clockwise-label"))
    return shapes


def compact_width(rules: Rules, size: int, *, label_scale: float = 1.0, ratio: float = WIDTH_RATIO,
                  min_text_px: float = LEGIBLE_PX) -> int:
    """The on-screen width (CSS px) under which the ring drawn with its names (``ring_scene``) would show them smaller
    than ``min_text_px``: a canvas is scaled to its box's width, so its text shrinks with it. (The codes are drawn
    nearly as large as the names, at least 18/19 of them.)

    >>> from typhoon_edu.engine.rules import load_rules
    >>> compact_width(load_rules(), 260, label_scale=1.45, ratio=2.05)
    337
    """
    smallest = min(drawn_size(s.size) for lang in i18n.LANGS for s in ring_scene(
        rules, rules.ring[0], lang, size, label_scale=label_scale, ratio=ratio)
        if isinstance(s, Text) and s.role == "stop-name")
    return math.ceil(min_text_px * ring_width(size, ratio) / smallest)


def compact_css(threshold: int) -> str:
    """The rules that show a ring's compact drawing instead of its full one in a box under ``threshold`` px wide
    (a CSS container query: the ring's own width decides, wherever the page puts it).

    >>> "@container (max-width: 375.98px)" in compact_css(376)
    True
    """
    below = f"typhoon-ring-below-{threshold}"
    return (f"<style>.typhoon-ring.{below} {{ container-type: inline-size; }}\n"
            f".typhoon-ring.{below} > .typhoon-ring-compact {{ display: none; }}\n"
            f".typhoon-ring-compact svg {{ display: block; width: 100%; max-width: 100%; height: auto; }}\n"
            f"@container (max-width: {threshold - 0.02:.2f}px) {{\n"
            f"  .typhoon-ring.{below} > .typhoon-ring-full {{ display: none !important; }}\n"
            f"  .typhoon-ring.{below} > .typhoon-ring-compact {{ display: block; }}\n}}</style>")


class CompassRing(widgets.VBox):
    """The ring widget. ``roll(face)`` moves the indicator clockwise, stop by stop."""

    def __init__(self, rules: Rules | None = None, lang: str = "en", stop: str | None = None, size: int = 320,
                 label_scale: float = 1.0, ratio: float = WIDTH_RATIO, min_text_px: float | None = None,
                 **kwargs: Any) -> None:
        """``label_scale`` enlarges the stop names (a projector for the back row), ``ratio`` widens the box for them.

        With ``min_text_px`` the ring also holds a compact drawing without the names (:data:`COMPACT_RATIO`, an SVG
        as wide as the ring's box), which the page shows instead of the canvas wherever the ring's box is so narrow
        that the canvas's text would be smaller than ``min_text_px`` CSS px on screen (:func:`compact_width`; a
        projector's page opened on a phone). The label under the ring still names the indicator's stop.
        """
        if rules is None:
            from ..engine.rules import load_rules

            rules = load_rules()
        canvas = Canvas(width=ring_width(size, ratio), height=size,
                        layout=widgets.Layout(width="100%", height="auto", max_width=f"{2 * ring_width(size, ratio)}px"))
        label = widgets.HTML()
        self.lang = i18n.normalize_lang(lang)
        self.problems = Problems(lambda: self.lang)
        self.compact: widgets.HTML | None = None
        self.compact_below: int | None = None
        drawings: list[widgets.Widget] = [canvas]
        if min_text_px is not None:
            self.compact_below = compact_width(rules, size, label_scale=label_scale, ratio=ratio, min_text_px=min_text_px)
            self.compact = widgets.HTML()
            self.compact.add_class("typhoon-ring-compact")
            drawings.append(self.compact)
        super().__init__(children=[self.problems.widget, *drawings, label], **kwargs)
        if self.compact_below is not None:
            canvas.add_class("typhoon-ring-full")
            self.add_class("typhoon-ring")
            self.add_class(f"typhoon-ring-below-{self.compact_below}")
        self.rules = rules
        self.size = size
        self.label_scale = label_scale
        self.ratio = ratio
        self.canvas = canvas
        self.label = label
        self.stop = stop if stop is not None else rules.ring_start  # where the indicator is, for the game
        if self.stop not in rules.ring:
            raise ValueError(f"{self.stop!r} is not a stop of the ring {', '.join(rules.ring)}")
        self.shown_stop = self.stop  # where it is drawn (behind `stop` while a roll animates)
        self.speed = 1.0
        self.player: FramePlayer[str] | None = None
        self._callbacks: list[Callable[[str], Any]] = []
        self._last_roll: tuple[int, str, str] | None = None
        self.problems.on_client_ready(canvas, self._client_ready, where="compass ring: draw")
        self.redraw()

    def _client_ready(self) -> None:
        forget_selected_canvas()  # a browser that connects later has no selected canvas yet
        self.redraw()

    def shapes(self) -> list[Shape]:
        return ring_scene(self.rules, self.shown_stop, self.lang, self.size, label_scale=self.label_scale,
                          ratio=self.ratio)

    def redraw(self) -> None:
        """Draw the ring with the indicator where it is now."""
        with canvas_batch():
            self.canvas.clear()
            paint(self.canvas, self.shapes())
        if self.compact is not None and self.compact_below is not None:
            shapes = ring_scene(self.rules, self.shown_stop, self.lang, self.size, label_scale=self.label_scale,
                                ratio=COMPACT_RATIO, names=False)
            svg = shapes_to_svg(shapes, ring_width(self.size, COMPACT_RATIO), self.size,
                                title=i18n.t("compass.title", self.lang))
            self.compact.value = compact_css(self.compact_below) + svg
        self._update_label()

    def _update_label(self) -> None:
        shown = self.shown_stop
        name = i18n.t("compass.stop", self.lang, key=shown, name=i18n.direction_name(self.rules, shown, self.lang))
        text = i18n.t("compass.indicator", self.lang, stop=name)
        if self._last_roll is not None and shown == self.stop:
            face, start, end = self._last_roll
            text += " — " + i18n.t("compass.rolled", self.lang, face=face, start=start, stop=end)
        self.label.value = f"<b style='font-size:1.2em'>{text}</b>"

    def set_stop(self, stop: str) -> None:
        """Put the indicator on ``stop`` (no animation)."""
        if stop not in self.rules.ring:
            raise ValueError(f"{stop!r} is not a stop of the ring {', '.join(self.rules.ring)}")
        self.stop = self.shown_stop = stop
        self._last_roll = None
        self.redraw()

    def roll(self, face: int, speed: float | None = None) -> str:
        """Move the indicator ``face`` stops clockwise, animating each stop; return where it stops."""
        if isinstance(face, bool) or not isinstance(face, int) or face < 0:
            raise ValueError(f"a roll moves the indicator a whole number of stops, not {face!r}")
        if speed is not None:
            self.speed = speed
        if self.player is not None:
            self.player.skip()
        start = self.stop
        path = roll_path(self.rules, start, face)
        end = path[-1] if path else start
        self._last_roll = (face, start, end)

        def draw(stop: str) -> None:
            self.shown_stop = stop
            self.redraw()

        self.stop = end  # the game's position is known at once, even while the animation plays
        self.player = FramePlayer(path or [start], draw, lambda: SECONDS_PER_STOP / self.speed if self.speed > 0 else 0)
        self.player.start()
        for callback in list(self._callbacks):
            callback(end)
        return end

    def on_stop(self, callback: Callable[[str], Any]) -> None:
        """Call ``callback(stop)`` after every roll."""
        self._callbacks.append(callback)

    def set_lang(self, lang: str) -> None:
        self.lang = i18n.normalize_lang(lang)
        self.redraw()

    def to_svg(self) -> str:
        return shapes_to_svg(self.shapes(), ring_width(self.size, self.ratio), self.size, title=i18n.t("compass.title", self.lang))

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["image/svg+xml"] = self.to_svg()
        return data


__all__ = ["COMPACT_RATIO", "CompassRing", "RingLayout", "code_reach", "compact_css", "compact_width", "drawn_size", "ring_layout",
           "ring_scene", "ring_width", "roll_path", "stop_position", "text_box", "text_width"]
