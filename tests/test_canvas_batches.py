"""Every canvas batch the kernel sends names its canvas first, so a page that has just connected can play it.

ipycanvas 0.14's page plays the batches on one promise chain and has no canvas selected when it connects; a batch
without ``switchCanvas`` first fails there and every later batch of the page is dropped: the teacher's projector,
reloaded mid-game, kept a blank map and compass ring for good (its poll repaints the map between the page's
connecting and its client-ready redraw). See :mod:`typhoon_edu.ui.canvas_ready`. The browser check is in
``tests/browser/test_turn_timer_browser.py`` (the projector's reload).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ipycanvas.canvas import COMMANDS

from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.board import BoardView
from typhoon_edu.ui.compass_ring import CompassRing
from typhoon_edu.ui.painter import repaint
from typhoon_edu.ui.scene import Rect
from typhoon_edu.ui.state import TyphoonView

RULES = load_rules()
SWITCH = COMMANDS["switchCanvas"]
PACKAGE = Path(__file__).resolve().parents[1] / "typhoon_edu"



def first_command(batch: Any) -> int:
    """The code of a batch's first command (a held batch is a list of commands; a lone command is one)."""
    return int(batch[0][0] if isinstance(batch[0], list) else batch[0])


def drawings() -> dict[str, Callable[[], Any]]:
    board = BoardView(lang="en", cell=24)
    ring = CompassRing(RULES, lang="en", size=120)
    return {
        "board: both layers": board.redraw,
        "board: the storms' layer": lambda: board.show([TyphoonView(1, (8, 8), 1, "NNW")]),
        "board: highlights": lambda: board.highlight([(3, 4)]),
        "ring": ring.redraw,
        "painter.repaint (lessons' maps)": lambda: repaint(board.canvas, {1: [Rect(x=0, y=0, w=2, h=2, fill="#000")]}),
    }


@pytest.mark.parametrize("name", list(drawings()))
def test_every_batch_selects_its_canvas_even_when_it_was_the_last_one_drawn(name: str, canvas_batches: list[Any]) -> None:
    draw = drawings()[name]
    draw()  # the canvas is now ipycanvas's "current" one: a plain hold_canvas() would not select it again
    canvas_batches.clear()
    draw()  # what a page that connected between the two draws gets as its first batch
    assert canvas_batches, f"{name}: nothing was sent"
    assert all(first_command(batch) == SWITCH for batch in canvas_batches), (
        f"{name}: a batch does not start by selecting its canvas: {[first_command(b) for b in canvas_batches]}")


def test_the_package_draws_only_through_canvas_batch() -> None:
    """``hold_canvas()`` itself is used only inside canvas_ready.canvas_batch: a new drawing cannot forget the rule."""
    used = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                  if path.name != "canvas_ready.py" and re.search(r"\bhold_canvas\s*\(", path.read_text("utf-8")))
    assert used == [], f"use typhoon_edu.ui.canvas_ready.canvas_batch() instead of hold_canvas() in {used}"
