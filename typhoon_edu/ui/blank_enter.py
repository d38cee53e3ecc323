"""Enter pressed in an empty text box, answered: ipywidgets sends the kernel nothing for it.

A box of ipywidgets sends the kernel its text when Enter is pressed only if the text changed, so Enter in an empty
box (a quiz answer, a die face not typed yet) showed the person nothing. The box's front end (stock ipywidgets,
JupyterLab and Voilà alike) also sends a ``submit`` event on every Enter, before the text typed with it, which
:func:`on_blank_enter` answers.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from .guard import Problems

#: Seconds between Enter and looking at the box: the text typed with that Enter arrives after its ``submit`` event.
ENTER_WAIT = 0.3


def on_blank_enter(box: widgets.Text, act: Callable[[], Any], problems: Problems, where: str,
                   wait: float = ENTER_WAIT) -> None:
    """Call ``act()`` when Enter is pressed in ``box`` and the box is empty: ``wait`` seconds after the ``submit``
    event (at once without an event loop), unless the box got a text within ``wait`` of it (the text typed with
    that Enter, which a box that takes it, lesson 01's die, may have emptied again: it was answered then). A box the
    person emptied (deleted the text, then pressed Enter) is answered too.

    >>> box, said = widgets.Text(), []
    >>> on_blank_enter(box, lambda: said.append("type a number"), Problems(lambda: "en"), "demo")
    >>> box._handle_custom_msg({"event": "submit"}, []); said
    ['type a number']
    >>> box.value = "5"; box._handle_custom_msg({"event": "submit"}, []); said  # typed with that Enter
    ['type a number']
    """
    last = [-math.inf]  # when the box last got a text (time.monotonic()); emptying it is not counted

    def changed(change: Any) -> None:
        if str(change["new"]).strip():
            last[0] = time.monotonic()

    def look() -> None:
        # a text within ``wait`` of the Enter, before or after it, was the Enter's own (Chromium sends it before the
        # event, and a box that takes it, lesson 01's die, empties itself again): answered already. A box the person
        # emptied before pressing Enter is answered like one never typed in.
        if time.monotonic() - last[0] >= 2 * wait and not str(box.value).strip():
            act()

    guarded = problems.guard(look, where)

    def submitted(_box: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("event") != "submit":
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (tests, scripts): at once
            guarded()
            return
        loop.call_later(wait, guarded)

    box.observe(changed, names="value")
    box.on_msg(submitted)


__all__ = ["ENTER_WAIT", "on_blank_enter"]
