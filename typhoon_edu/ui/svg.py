"""The board as SVG, so it shows without widgets: on GitHub, nbviewer and in saved notebook outputs.

>>> import xml.etree.ElementTree as ET
>>> board = BoardSVG(typhoons=[TyphoonView(1, (8, 8), 3, "NNW")], lang="zh-TW")
>>> root = ET.fromstring(board._repr_svg_())
>>> root.tag.endswith("svg") and "中度颱風" in board.svg
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

from .. import i18n
from . import palette
from .geometry import BoardGeometry, Cell
from .scene import Circle, Line, Polygon, Rect, Shape, Text, board_scene
from .state import BoardState, PathPreview, TyphoonView, typhoon_views

if TYPE_CHECKING:
    from ..engine.rules import Rules

_ANCHOR = {"left": "start", "center": "middle", "right": "end"}
_BASELINE = {"top": "hanging", "middle": "central", "bottom": "text-after-edge", "alphabetic": "alphabetic"}


def _n(v: float) -> str:
    """A compact number: 12, 12.5, not 12.000000."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _style(shape: Any) -> str:
    parts = []
    fill = getattr(shape, "fill", None)
    parts.append(f'fill="{fill}"' if fill else 'fill="none"')
    stroke = getattr(shape, "stroke", None)
    if stroke:
        parts.append(f'stroke="{stroke}" stroke-width="{_n(shape.line_width)}"')
        if getattr(shape, "dash", ()):
            parts.append(f'stroke-dasharray="{" ".join(_n(d) for d in shape.dash)}"')
    if shape.alpha != 1.0:
        parts.append(f'opacity="{_n(shape.alpha)}"')
    return " ".join(parts)


def shape_to_svg(shape: Shape) -> str:
    """One shape as one SVG element.

    >>> shape_to_svg(Rect(x=0, y=0, w=10, h=10, fill="#fff", role="sea"))
    '<rect x="0" y="0" width="10" height="10" fill="#fff" data-role="sea"/>'
    """
    role = f' data-role="{shape.role}"' if shape.role else ""
    key = f" data-key={quoteattr(shape.key)}" if shape.key else ""
    if isinstance(shape, Rect):
        return f'<rect x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.w)}" height="{_n(shape.h)}" {_style(shape)}{role}{key}/>'
    if isinstance(shape, Circle):
        return f'<circle cx="{_n(shape.cx)}" cy="{_n(shape.cy)}" r="{_n(shape.r)}" {_style(shape)}{role}{key}/>'
    if isinstance(shape, Line):
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
        return (f'<polyline points="{pts}" {_style(shape)} stroke-linecap="round" stroke-linejoin="round"'
                f"{role}{key}/>").replace('fill="none" ', 'fill="none" ', 1)
    if isinstance(shape, Polygon):
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
        return f'<polygon points="{pts}" {_style(shape)}{role}{key}/>'
    if isinstance(shape, Text):
        weight = ' font-weight="bold"' if shape.bold else ""
        halo = (f' stroke="{shape.halo}" stroke-width="{_n(shape.size / 4)}" stroke-linejoin="round" paint-order="stroke"'
                if shape.halo else "")
        # a text given a max_width is one the scene found too wide for its place: squeezed to it, as the canvas does
        squeeze = (f' textLength="{_n(shape.max_width)}" lengthAdjust="spacingAndGlyphs"'
                   if shape.max_width is not None else "")
        return (f'<text x="{_n(shape.x)}" y="{_n(shape.y)}" font-size="{_n(shape.size)}"{weight} fill="{shape.fill}"'
                f' text-anchor="{_ANCHOR.get(shape.align, "middle")}" dominant-baseline="{_BASELINE.get(shape.baseline, "central")}"'
                f"{squeeze}{halo}{role}{key}>{escape(shape.text)}</text>")
    raise TypeError(f"cannot draw {type(shape).__name__} as SVG")


def shapes_to_svg(shapes: Iterable[Shape], width: float, height: float, title: str = "") -> str:
    """A whole SVG document of ``width`` × ``height`` pixels that scales to its container's width.

    >>> shapes_to_svg([], 20, 10).startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"')
    True
    """
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" width="{_n(width)}"'
            f' height="{_n(height)}" style="max-width:100%;height:auto" font-family={quoteattr(palette.FONT)} role="img">')
    body = [f"<title>{escape(title)}</title>"] if title else []
    body += [shape_to_svg(s) for s in shapes]
    return "\n".join([head, *body, "</svg>"])


def board_svg(
    rules: Rules | None = None,
    typhoons: Any = (),
    lang: str = "en",
    cell: int = 48,
    *,
    path: PathPreview | None = None,
    highlights: Sequence[Cell] = (),
    state: BoardState | None = None,
) -> str:
    """The board as an SVG string: the map, and ``typhoons`` (TyphoonViews, engine typhoons or dicts).

    >>> svg = board_svg(typhoons=[{"id": 1, "eye": (8, 8), "level": 1, "direction": "N"}])
    >>> svg.count('data-role="eye"')
    1
    """
    if rules is None:
        from ..engine.rules import load_rules

        rules = load_rules()
    if state is None:
        state = BoardState(typhoons=typhoon_views(typhoons), path=path, highlights=tuple(highlights))
    geo = BoardGeometry.for_rules(rules, cell)
    title = i18n.t("board.summary", lang, width=rules.map.width, height=rules.map.height, count=len(state.typhoons))
    return shapes_to_svg(board_scene(rules, state, lang, cell), *geo.pixel_size, title=title)


class BoardSVG:
    """A board picture that Jupyter, GitHub and nbviewer display as SVG (``_repr_svg_``).

    Build it from typhoons, or from a game with :meth:`from_game`.

    >>> BoardSVG().svg.count('data-role="region-label"')
    6
    """

    def __init__(
        self,
        rules: Rules | None = None,
        typhoons: Any = (),
        lang: str = "en",
        cell: int = 48,
        *,
        path: PathPreview | None = None,
        highlights: Sequence[Cell] = (),
        state: BoardState | None = None,
    ) -> None:
        self.svg = board_svg(rules, typhoons, lang, cell, path=path, highlights=highlights, state=state)

    @classmethod
    def from_game(cls, game: Any, lang: str = "en", cell: int = 48) -> BoardSVG:
        """The board of a game (anything with ``.rules`` and ``.typhoons``)."""
        return cls(getattr(game, "rules", None), getattr(game, "typhoons", ()), lang, cell)

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg


__all__ = ["BoardSVG", "TyphoonView", "board_svg", "shape_to_svg", "shapes_to_svg"]
