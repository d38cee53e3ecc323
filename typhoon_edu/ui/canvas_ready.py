"""Draw a canvas again whenever a browser connects (Voilà, a reload, a second view).

A canvas has no memory: what was drawn before the page connected is lost, so every widget
registers its full redraw here. ipycanvas 0.14 also remembers which canvas it last sent
commands to and skips selecting it again; after a reconnect the page has no canvas selected
and the redraw would go nowhere (a blank map, "Cannot read properties of undefined"). The
wrapper forgets that choice first.

>>> class FakeCanvas:
...     def on_client_ready(self, cb): self.cb = cb
>>> c, drawn = FakeCanvas(), []
>>> when_client_ready(c, lambda: drawn.append(1))
>>> c.cb(); drawn
[1]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def forget_selected_canvas() -> None:
    """Make ipycanvas select the target canvas again on its next command."""
    try:
        from ipycanvas.canvas import _CANVAS_MANAGER

        _CANVAS_MANAGER._current_canvas = None
    except (ImportError, AttributeError):  # another ipycanvas version: nothing to forget
        pass


def when_client_ready(canvas: Any, draw: Callable[[], Any]) -> None:
    """Register ``draw`` to run each time a browser connects to ``canvas``."""

    def redraw() -> None:
        forget_selected_canvas()
        draw()

    canvas.on_client_ready(redraw)
