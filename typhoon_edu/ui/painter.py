"""Send a scene to an ipycanvas canvas: runs of alike shapes go out as one vectorised call.

The painter knows nothing about the game; it draws :mod:`typhoon_edu.ui.scene` records. Callers
wrap it in :func:`~typhoon_edu.ui.canvas_ready.canvas_batch` (ipycanvas's ``hold_canvas``, selecting its canvas first)
so a whole layer arrives in the browser as one message that any page, even one that has just connected, can play.

>>> class Log:
...     def __init__(self): self.calls = []
...     def __getattr__(self, name): return lambda *a, **k: self.calls.append(name)
>>> log = Log()
>>> from typhoon_edu.ui.scene import Rect
>>> paint(log, [Rect(x=0, y=0, w=4, h=4, fill="#fff"), Rect(x=4, y=0, w=4, h=4, fill="#fff")])
>>> log.calls
['fill_rects']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any

import numpy as np

from . import palette
from .scene import Circle, Line, Polygon, Rect, Shape, Text

_ALIGN = {"left": "left", "center": "center", "right": "right"}


def _batch_key(shape: Shape) -> tuple[Any, ...]:
    if isinstance(shape, Text):
        return (id(shape),)  # text is drawn one by one (each has its own string)
    if isinstance(shape, Line):
        return (Line, shape.stroke, shape.line_width, shape.alpha, shape.dash, len(shape.points))
    if isinstance(shape, Polygon):
        return (Polygon, shape.fill, shape.stroke, shape.line_width, shape.alpha, len(shape.points))
    if isinstance(shape, Rect):
        return (Rect, shape.fill, shape.stroke, shape.line_width, shape.alpha, shape.dash)
    return (Circle, shape.fill, shape.stroke, shape.line_width, shape.alpha)


def _set(canvas: Any, name: str, value: Any) -> None:
    setattr(canvas, name, value)


def paint(canvas: Any, shapes: Sequence[Shape]) -> None:
    """Draw ``shapes`` in order on an ipycanvas ``Canvas`` (or a layer of a ``MultiCanvas``)."""
    for _, run in groupby(shapes, key=_batch_key):
        group = list(run)
        first = group[0]
        _set(canvas, "global_alpha", getattr(first, "alpha", 1.0))
        if isinstance(first, Rect):
            _paint_rects(canvas, group)  # type: ignore[arg-type]
        elif isinstance(first, Circle):
            _paint_circles(canvas, group)  # type: ignore[arg-type]
        elif isinstance(first, Line):
            _paint_lines(canvas, group)  # type: ignore[arg-type]
        elif isinstance(first, Polygon):
            for poly in group:
                _paint_polygon(canvas, poly)  # type: ignore[arg-type]
        elif isinstance(first, Text):
            _paint_text(canvas, first)
    _set(canvas, "global_alpha", 1.0)


def repaint(canvas: Any, layers: Mapping[int, Sequence[Shape]]) -> None:
    """Clear and paint each ``{layer index: shapes}`` of a ``MultiCanvas`` in one batch that names its canvas
    (:func:`~.canvas_ready.canvas_batch`).

    >>> class Layer:
    ...     def __init__(self): self.calls = []
    ...     def clear(self): self.calls.append("clear")
    ...     def __setattr__(self, name, value): object.__setattr__(self, name, value)
    ...     def fill_rects(self, *a): self.calls.append("rects")
    >>> layers = [Layer(), Layer()]
    >>> repaint(layers, {1: [Rect(x=0, y=0, w=1, h=1, fill="#000")]})
    >>> layers[0].calls, layers[1].calls[:2]
    ([], ['clear', 'rects'])
    """
    from .canvas_ready import canvas_batch

    with canvas_batch():
        for index, shapes in layers.items():
            canvas[index].clear()
            paint(canvas[index], shapes)


def _paint_rects(canvas: Any, rects: list[Rect]) -> None:
    xs = np.array([r.x for r in rects], dtype=float)
    ys = np.array([r.y for r in rects], dtype=float)
    ws = np.array([r.w for r in rects], dtype=float)
    hs = np.array([r.h for r in rects], dtype=float)
    first = rects[0]
    if first.fill:
        _set(canvas, "fill_style", first.fill)
        canvas.fill_rects(xs, ys, ws, hs)
    if first.stroke:
        _set(canvas, "stroke_style", first.stroke)
        _set(canvas, "line_width", first.line_width)
        canvas.set_line_dash(list(first.dash))
        canvas.stroke_rects(xs, ys, ws, hs)
        canvas.set_line_dash([])


def _paint_circles(canvas: Any, circles: list[Circle]) -> None:
    xs = np.array([c.cx for c in circles], dtype=float)
    ys = np.array([c.cy for c in circles], dtype=float)
    rs = np.array([c.r for c in circles], dtype=float)
    first = circles[0]
    if first.fill:
        _set(canvas, "fill_style", first.fill)
        canvas.fill_circles(xs, ys, rs)
    if first.stroke:
        _set(canvas, "stroke_style", first.stroke)
        _set(canvas, "line_width", first.line_width)
        canvas.stroke_circles(xs, ys, rs)


def _paint_lines(canvas: Any, lines: list[Line]) -> None:
    first = lines[0]
    _set(canvas, "stroke_style", first.stroke)
    _set(canvas, "line_width", first.line_width)
    _set(canvas, "line_cap", "round")
    _set(canvas, "line_join", "round")
    canvas.set_line_dash(list(first.dash))
    if len(lines) == 1:
        canvas.stroke_lines([tuple(p) for p in first.points])
    else:
        # all lines of a run have the same number of points: one (n_lines, n_points, 2) array
        canvas.stroke_line_segments(np.array([line.points for line in lines], dtype=float))
    canvas.set_line_dash([])


def _paint_polygon(canvas: Any, poly: Polygon) -> None:
    points = [tuple(p) for p in poly.points]
    if poly.fill:
        _set(canvas, "fill_style", poly.fill)
        canvas.fill_polygon(points)
    if poly.stroke:
        _set(canvas, "stroke_style", poly.stroke)
        _set(canvas, "line_width", poly.line_width)
        canvas.stroke_polygon(points)


def _paint_text(canvas: Any, text: Text) -> None:
    weight = "bold " if text.bold else ""
    _set(canvas, "font", f"{weight}{text.size:.0f}px {palette.FONT}")
    _set(canvas, "text_align", _ALIGN.get(text.align, "center"))
    _set(canvas, "text_baseline", text.baseline)
    # a text with a max_width is squeezed to it by the browser (a phone's row numbers "10", "11" in their margin)
    squeeze = () if text.max_width is None else (text.max_width,)
    if text.halo:
        _set(canvas, "stroke_style", text.halo)
        _set(canvas, "line_width", max(2.0, text.size / 4))
        _set(canvas, "line_join", "round")
        canvas.stroke_text(text.text, text.x, text.y, *squeeze)
    _set(canvas, "fill_style", text.fill)
    canvas.fill_text(text.text, text.x, text.y, *squeeze)
