"""The teacher's optional turn timer: when a team takes too long, a bot plays its turn, and the class is told.

The projector (the teacher's kernel, which runs the bots) keeps the timer: :meth:`TurnTimer.watch`
starts a new count for each person decision (a new ``(seq, region)``), the projector shows the
seconds left, and when they run out it plays the seat's decision with an easy bot and says so.
Off by default; the teacher sets it in the drawer.

>>> timer = TurnTimer(seconds=30)
>>> timer.watch((4, "Taiwan"), now=100.0)
>>> timer.left(now=112.2), timer.expired(now=112.2)
(18, False)
>>> timer.expired(now=130.0)
True
>>> timer.watch((4, "Taiwan"), now=131.0)   # the same decision: the count goes on
>>> timer.expired(now=131.0)
True
>>> timer.watch((5, "Japan"), now=131.0)    # the next decision: a new count
>>> timer.left(now=131.0)
30
>>> TurnTimer(0).left(now=1.0) is None      # off
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any

import ipywidgets as widgets

from ... import i18n

#: The times a teacher can choose, in seconds (0: no timer).
CHOICES = (0, 30, 60, 90, 120, 180)


class TurnTimer:
    """Seconds per person decision (0: off) and the count for the decision being watched."""

    def __init__(self, seconds: int = 0) -> None:
        self.seconds = int(seconds)
        self._key: Hashable | None = None
        self._start = 0.0

    def watch(self, key: Hashable | None, now: float) -> None:
        """The decision shown now (None: no person decides); a new one starts a new count."""
        if key != self._key:
            self._key, self._start = key, now

    def left(self, now: float) -> int | None:
        """Whole seconds left for the watched decision (None when off or nothing is watched)."""
        if self.seconds <= 0 or self._key is None:
            return None
        return max(0, math.ceil(self.seconds - (now - self._start) - 1e-9))

    def expired(self, now: float) -> bool:
        left = self.left(now)
        return left is not None and left <= 0

    def stop(self) -> None:
        self._key = None


def timer_control(lang: str, on_change: Callable[[int], Any], observe: Callable[..., Any]) -> widgets.Dropdown:
    """The drawer's menu (off, 30 s, …); ``observe`` is the page's guarded ``Problems.observe``."""
    menu = widgets.Dropdown(options=timer_options(lang), value=0, layout=widgets.Layout(width="auto"))
    menu.add_class("typhoon-turn-timer")
    menu.description = i18n.t("classplay.attention.timer", lang)
    observe(menu, lambda c: on_change(int(c["new"])), where="turn timer")
    return menu


def timer_options(lang: str) -> list[tuple[str, int]]:
    """The menu's choices labelled in ``lang``.

    >>> timer_options("en")[:2]
    [('off', 0), ('30 s', 30)]
    """
    return [(i18n.t("classplay.attention.timer_off", lang) if n == 0
             else i18n.t("classplay.attention.timer_seconds", lang, n=n), n) for n in CHOICES]


__all__ = ["CHOICES", "TurnTimer", "timer_control", "timer_options"]
