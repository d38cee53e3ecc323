"""Board geometry: where each cell is in pixels, and which cell a pixel falls in.

The grid sits inside a margin on every side: the top and left margins hold the grid coordinates,
the right and bottom ones leave room for a storm that steps off the map.

>>> g = BoardGeometry(16, 12, cell=48)
>>> g.pixel_size
(816, 624)
>>> g.cell_centre(0, 0), g.pixel_to_cell(24 + 47.9, 24)
((48.0, 48.0), (0, 0))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass(frozen=True)
class BoardGeometry:
    """Pixel geometry of a ``width`` × ``height`` grid of square cells of side ``cell`` pixels."""

    width: int
    height: int
    cell: int = 48
    margin: int | None = None  # default: half a cell

    def __post_init__(self) -> None:
        if self.cell < 8:
            raise ValueError(f"a cell must be at least 8 pixels wide to be readable, not {self.cell}")
        if self.margin is None:
            object.__setattr__(self, "margin", self.cell // 2)

    @classmethod
    def for_rules(cls, rules: object, cell: int = 48) -> BoardGeometry:
        """The geometry of a rules object's map (anything with ``.map.width`` and ``.map.height``)."""
        game_map = rules.map  # type: ignore[attr-defined]
        return cls(game_map.width, game_map.height, cell)

    @property
    def m(self) -> int:
        return int(self.margin or 0)

    @property
    def pixel_size(self) -> tuple[int, int]:
        """Width and height of the whole drawing in pixels, margins included."""
        return self.width * self.cell + 2 * self.m, self.height * self.cell + 2 * self.m

    def cell_origin(self, x: float, y: float) -> tuple[float, float]:
        """Top-left pixel of cell ``(x, y)`` (cells off the map are extrapolated)."""
        return float(self.m + x * self.cell), float(self.m + y * self.cell)

    def cell_centre(self, x: float, y: float) -> tuple[float, float]:
        """Centre pixel of cell ``(x, y)``.

        >>> BoardGeometry(16, 12, cell=40).cell_centre(15, 11)
        (640.0, 480.0)
        """
        ox, oy = self.cell_origin(x, y)
        return ox + self.cell / 2, oy + self.cell / 2

    def pixel_to_cell(self, px: float, py: float) -> Cell | None:
        """The cell under pixel ``(px, py)``, or ``None`` in the margin or outside the board.

        A pixel on the line between two cells belongs to the cell to its right / below, like
        ``floor``; the far edge of the last cell is outside.

        >>> g = BoardGeometry(16, 12, cell=48)
        >>> g.pixel_to_cell(24, 24), g.pixel_to_cell(23.9, 30), g.pixel_to_cell(24 + 16 * 48, 30)
        ((0, 0), None, None)
        """
        if not (math.isfinite(px) and math.isfinite(py)):
            return None
        x = math.floor((px - self.m) / self.cell)
        y = math.floor((py - self.m) / self.cell)
        if 0 <= x < self.width and 0 <= y < self.height:
            return x, y
        return None


def pixel_to_cell(px: float, py: float, geometry: BoardGeometry) -> Cell | None:
    """The cell under a pixel of a board drawn with ``geometry`` (``None`` if none).

    >>> pixel_to_cell(100, 100, BoardGeometry(16, 12, cell=48))
    (1, 1)
    """
    return geometry.pixel_to_cell(px, py)
