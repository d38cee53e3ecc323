"""Draw a canvas again whenever a browser connects (Voilà, a reload, a second view), in batches that name their canvas.

A canvas has no memory: what was drawn before the page connected is lost, so every widget
registers its full redraw here (:func:`when_client_ready`).

ipycanvas 0.14 also remembers which canvas it last sent commands to (``_CANVAS_MANAGER._current_canvas``)
and skips selecting it again. A page that has just connected has no canvas selected, and its canvas
manager plays every batch on one promise chain: a batch without a ``switchCanvas`` first throws there
("Cannot read properties of undefined"), the chain stays rejected, and **every later batch of that page
is dropped**, the client-ready redraws included: every canvas of the page stays blank for good. The
teacher's projector reloaded mid-game got exactly that (its poll repaints the map five times a second,
so a repaint reached the new page between its connecting and its client-ready redraw). Hence
:func:`canvas_batch`: every drawing is one ``hold_canvas()`` batch that selects its canvas first, so
any batch can be a page's first. Use it instead of ``hold_canvas()``.

>>> class FakeCanvas:
...     def on_client_ready(self, cb): self.cb = cb
>>> c, drawn = FakeCanvas(), []
>>> when_client_ready(c, lambda: drawn.append(1))
>>> c.cb(); drawn
[1]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


def forget_selected_canvas() -> None:
    """Make ipycanvas select the target canvas again on its next command."""
    try:
        from ipycanvas.canvas import _CANVAS_MANAGER

        _CANVAS_MANAGER._current_canvas = None
    except (ImportError, AttributeError):  # another ipycanvas version: nothing to forget
        pass


@contextmanager
def canvas_batch() -> Iterator[None]:
    """``hold_canvas()`` whose batch starts by selecting its canvas (a page may get it as its first; module doc).

    >>> from ipycanvas import Canvas
    >>> from ipycanvas.canvas import _CANVAS_MANAGER, COMMANDS
    >>> canvas, sent = Canvas(width=4, height=4), []
    >>> _CANVAS_MANAGER._send_custom = lambda command, buffers=(): sent.append(command)
    >>> for _ in range(2):
    ...     with canvas_batch():
    ...         canvas.clear()
    >>> del _CANVAS_MANAGER._send_custom
    >>> [batch[0][0] == COMMANDS["switchCanvas"] for batch in sent]  # the second too, to the same canvas
    [True, True]
    """
    from ipycanvas import hold_canvas

    forget_selected_canvas()
    with hold_canvas():
        yield


def when_client_ready(canvas: Any, draw: Callable[[], Any]) -> None:
    """Register ``draw`` to run each time a browser connects to ``canvas``."""

    def redraw() -> None:
        forget_selected_canvas()
        draw()

    canvas.on_client_ready(redraw)
