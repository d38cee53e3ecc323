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
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
from ipycanvas import Canvas, hold_canvas

from .. import i18n
from . import palette
from .animation import FramePlayer
from .canvas_ready import forget_selected_canvas
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
RING_RADIUS = 0.31  # as a fraction of the box height


def ring_width(size: int, ratio: float = WIDTH_RATIO) -> int:
    """Width in pixels of a ring drawing of height ``size`` (``ratio``: width / height)."""
    return int(size * ratio)


def stop_position(index: int, count: int, size: float, radius: float = RING_RADIUS,
                  ratio: float = WIDTH_RATIO) -> tuple[float, float]:
    """Pixel centre of stop ``index`` of ``count``, clockwise from the top, in a drawing of height ``size``.

    >>> stop_position(0, 7, 300)
    (255.0, 57.0)
    """
    angle = 2 * math.pi * index / count
    cx, cy = ring_width(int(size), ratio) / 2, size / 2
    return round(cx + math.sin(angle) * radius * size, 6), round(cy - math.cos(angle) * radius * size, 6)


def ring_scene(rules: Rules, stop: str, lang: str = "en", size: int = 320, *, label_scale: float = 1.0,
               ratio: float = WIDTH_RATIO) -> list[Shape]:
    """Shapes of the ring with the indicator on ``stop``: each stop shows its letters and its name.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> shapes = ring_scene(load_rules(), "E", "zh-TW")
    >>> [s.text for s in shapes if s.role == "stop-name"][:4]
    ['北', '北北東', '東北', '東']
    >>> [s.key for s in shapes if s.role == "stop" and s.fill == INDICATOR]
    ['E']
    """
    ring = rules.ring
    n = len(ring)
    cx, cy = ring_width(size, ratio) / 2, size / 2
    radius = RING_RADIUS * size
    r_stop = size * 0.08
    shapes: list[Shape] = [
        Circle(cx=cx, cy=cy, r=radius, stroke=palette.GRID, line_width=max(2.0, size / 80), alpha=0.5, role="ring"),
    ]
    # small arrowheads between stops say which way is clockwise
    for k in range(n):
        a = 2 * math.pi * (k + 0.5) / n
        px, py = cx + math.sin(a) * radius, cy - math.cos(a) * radius
        tx, ty = math.cos(a), math.sin(a)  # tangent, clockwise on screen
        nx, ny = math.sin(a), -math.cos(a)
        h = size * 0.025
        shapes.append(Polygon(points=((px + tx * h, py + ty * h), (px - tx * h + nx * h, py - ty * h + ny * h),
                                      (px - tx * h - nx * h, py - ty * h - ny * h)), fill=palette.GRID, alpha=0.6, role="clockwise"))
    target = stop_position(ring.index(stop), n, size, ratio=ratio) if stop in ring else (cx, cy - radius)
    dx, dy = target[0] - cx, target[1] - cy
    dist = math.hypot(dx, dy) or 1.0
    head = (cx + dx / dist * (dist - r_stop - 2), cy + dy / dist * (dist - r_stop - 2))
    shapes += arrow_shapes((cx, cy), head, width=max(3.0, size / 45), colour=INDICATOR, role="indicator", key=stop)
    shapes.append(Circle(cx=cx, cy=cy, r=size * 0.03, fill=palette.INK, role="indicator", key=stop))
    for k, key in enumerate(ring):
        px, py = stop_position(k, n, size, ratio=ratio)
        on = key == stop
        shapes.append(Circle(cx=px, cy=py, r=r_stop, fill=INDICATOR if on else "#ffffff", stroke=palette.INK,
                             line_width=max(3.0, size / 60) if on else max(1.5, size / 160), role="stop", key=key))
        shapes.append(Text(x=px, y=py, text=key, size=size * (0.05 if len(key) == 3 else 0.06) * label_scale, bold=True,
                           fill=palette.INK, role="stop-key", key=key))
        # the name sits just outside the stop, on the side away from the centre
        a = 2 * math.pi * k / n
        sx, sy = math.sin(a), -math.cos(a)
        gap = r_stop + size * 0.025
        align = "left" if sx > 0.3 else "right" if sx < -0.3 else "center"
        baseline = "middle" if align != "center" else ("bottom" if sy < 0 else "top")
        shapes.append(Text(x=px + sx * gap, y=py + sy * gap, text=i18n.direction_name(rules, key, lang), size=size * 0.05 * label_scale,
                           bold=on, align=align, baseline=baseline, fill=palette.INK, halo=palette.HALO, role="stop-name", key=key))
    shapes.append(Text(x=cx, y=cy + size * 0.12, text=i18n.t("compass.clockwise", lang), size=size * 0.045 * label_scale,
                       fill=palette.GRID, halo=palette.HALO, role="clockwise-label"))
    return shapes


class CompassRing(widgets.VBox):
    """The ring widget. ``roll(face)`` moves the indicator clockwise, stop by stop."""

    def __init__(self, rules: Rules | None = None, lang: str = "en", stop: str | None = None, size: int = 320,
                 label_scale: float = 1.0, ratio: float = WIDTH_RATIO, **kwargs: Any) -> None:
        """``label_scale`` enlarges the stop names (a projector for the back row), ``ratio`` widens the box for them."""
        if rules is None:
            from ..engine.rules import load_rules

            rules = load_rules()
        canvas = Canvas(width=ring_width(size, ratio), height=size,
                        layout=widgets.Layout(width="100%", height="auto", max_width=f"{2 * ring_width(size, ratio)}px"))
        label = widgets.HTML()
        self.lang = i18n.normalize_lang(lang)
        self.problems = Problems(lambda: self.lang)
        super().__init__(children=[self.problems.widget, canvas, label], **kwargs)
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
        with hold_canvas():
            self.canvas.clear()
            paint(self.canvas, self.shapes())
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


__all__ = ["CompassRing", "ring_scene", "ring_width", "roll_path", "stop_position"]
