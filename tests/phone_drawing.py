"""What the tests of the lessons' phone drawings share: what a board paints, the page's word on a map's width, the
smallest text as a phone shows it, and a widget tree walked.

A board with a phone drawing (BoardView's ``phone_text``; lesson 07's forecast map) has a page-side helper (``MapWidth``)
that tells the kernel when the page shows the map narrower than its line; the kernel then repaints the same canvas.
These tests stand in for the page with a widget message and read what the canvas is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from typhoon_edu.ui import board as board_module
from typhoon_edu.ui.scene import Shape, Text

#: The smallest text a student should have to read on a phone, CSS px.
LEGIBLE_PX = 11.0


def painted(monkeypatch: pytest.MonkeyPatch, what: Callable[[], Any]) -> list[Shape]:
    """Every shape a board sends its canvas while ``what()`` runs."""
    shapes: list[Shape] = []
    monkeypatch.setattr(board_module, "paint", lambda _layer, drawn: shapes.extend(drawn))
    what()
    return shapes


def page_says(helper: Any, narrow: bool, what: str = "the map") -> None:
    """What the page does when a map's width crosses its line: a widget message setting ``narrow`` on ``helper`` (a
    ``MapWidth``; ``None`` fails: that map has no phone drawing)."""
    assert helper is not None, f"{what} has no page-side helper: a phone gets the laptop's drawing"
    helper.set_state({"narrow": narrow})


def smallest_css_px(shapes: list[Shape], canvas_width: float, shown_px: float) -> tuple[float, str]:
    """The smallest text among ``shapes`` as a canvas ``canvas_width`` px wide shows it at ``shown_px`` CSS px, and
    which text it is."""
    texts = [s for s in shapes if isinstance(s, Text)]
    assert texts, "nothing was painted"
    small = min(texts, key=lambda t: t.size)
    return small.size * shown_px / canvas_width, f"{small.role} {small.text!r}"


def walk(widget: Any) -> list[Any]:
    """``widget`` and every widget inside it, depth first."""
    out = [widget]
    for child in getattr(widget, "children", ()):
        out += walk(child)
    return out
