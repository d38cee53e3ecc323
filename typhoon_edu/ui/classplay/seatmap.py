"""A team's map on its phone: the board with names large enough to read at a phone's width.

The seat's canvas is drawn :data:`SEAT_CELL` px a cell (680 px wide) and scaled by CSS to its column: on a phone
390 px wide that is :data:`PHONE_MAP_PX` px, about half its size, so the board's usual names (12 px of canvas)
were 6.2 px on screen. :class:`SeatBoard` draws the region and zone names, and the storms' names, at least
:func:`seat_min_text` px of canvas: :data:`LABEL_PX` CSS px on that phone (larger on a tablet, where the whole map
is larger). What cannot take that size is left out or kept as large as its place allows
(:func:`typhoon_edu.ui.scene.static_scene`): the grid's coordinates are as tall as the names (11.3 CSS px; a row's
"10" and "11" squeezed to the margin's width) and a storm's level digit 0.9 of that (10.2 CSS px, in a badge out on
a corner of the eye; it was 4.5 px). The projector's board is drawn as before.

>>> seat_min_text()
22
>>> from typhoon_edu.ui.scene import Text
>>> board = SeatBoard(lang="en", cell=SEAT_CELL, controls=False)
>>> min(s.size for s in board.static_shapes() if isinstance(s, Text) and s.role == "region-label")
22.0
"""

from __future__ import annotations

import math

from ..board import BoardView
from ..geometry import BoardGeometry
from ..scene import Shape, dynamic_scene

#: The side of a cell of a seat's map, in canvas px.
SEAT_CELL = 40
#: The seat's map on screen, CSS px, on a phone 390 px wide (the canvas fills the seat's column; the browser test
#: tests/browser/test_classplay_phone_map.py measures it).
PHONE_MAP_PX = 350
#: The smallest name on a seat's map on that phone, CSS px.
LABEL_PX = 11.0


def seat_min_text(cell: int = SEAT_CELL) -> int:
    """The smallest text on a seat's map, in canvas px, for :data:`LABEL_PX` CSS px on a phone."""
    from ...engine.rules import load_rules

    width = BoardGeometry.for_rules(load_rules(), cell).pixel_size[0]
    return math.ceil(LABEL_PX * width / PHONE_MAP_PX)


class SeatBoard(BoardView):
    """The board of :mod:`typhoon_edu.ui.board`, its names drawn at least :func:`seat_min_text` px."""

    def dynamic_shapes(self) -> list[Shape]:
        return dynamic_scene(self.rules, self.state, self.lang, self.cell, min_text=self.min_text)

    @property
    def min_text(self) -> float:
        return float(seat_min_text(self.cell))

    def to_svg(self) -> str:
        from ..svg import shapes_to_svg

        shapes = self.static_shapes() + self.dynamic_shapes()
        return shapes_to_svg(shapes, *self.geometry.pixel_size)


__all__ = ["LABEL_PX", "PHONE_MAP_PX", "SEAT_CELL", "SeatBoard", "seat_min_text"]
