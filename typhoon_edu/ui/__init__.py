"""Views of the game: the board (canvas and SVG), the compass ring, the die and the HP track.

The scene, geometry and SVG modules are pure Python (no widgets), so a board can be drawn and
tested without a browser; the widget classes are loaded on first use.

>>> from typhoon_edu.ui import board_svg, pixel_to_cell, BoardGeometry
>>> pixel_to_cell(30, 30, BoardGeometry(16, 12, cell=48))
(0, 0)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .geometry import BoardGeometry, pixel_to_cell
from .scene import board_scene, dynamic_scene, footprint_cells, path_cells, static_scene
from .state import BoardState, PathPreview, TyphoonView, animation_frames, apply_event
from .svg import BoardSVG, board_svg

_WIDGETS = {
    "BoardView": "board",
    "CompassRing": "compass_ring",
    "DieWidget": "die",
    "HPTrack": "hp_track",
    "parse_face": "die",
}


def __getattr__(name: str) -> Any:
    if name in _WIDGETS:
        return getattr(import_module(f".{_WIDGETS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BoardGeometry",
    "BoardSVG",
    "BoardState",
    "BoardView",
    "CompassRing",
    "DieWidget",
    "HPTrack",
    "PathPreview",
    "TyphoonView",
    "animation_frames",
    "apply_event",
    "board_scene",
    "board_svg",
    "dynamic_scene",
    "footprint_cells",
    "parse_face",
    "path_cells",
    "pixel_to_cell",
    "static_scene",
]
