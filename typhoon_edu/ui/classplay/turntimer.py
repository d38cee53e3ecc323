"""The teacher's optional turn timer: when a team takes too long, a bot plays its turn, and the class is told.

The timer lives in the room (:meth:`typhoon_edu.classroom.rooms.Room.set_turn_timer`, stored with
the room, so a reloaded projector keeps it and every phone knows it); each page asks the room
for the deadline of the person decision waited on (:meth:`~typhoon_edu.classroom.rooms.Room.turn_deadline`).
The projector (the teacher's kernel, which runs the bots) shows the seconds left and, when they
run out, lets the easy bot play the turn (:meth:`~typhoon_edu.classroom.rooms.Room.play_for_time`).
A phone shows its own countdown while it must decide.

The count runs in the browser (:class:`Countdown`, a small anywidget): the kernel sends the
seconds left once per decision, not once per second per phone.

>>> seconds_left(deadline=130.0, now=112.2), seconds_left(deadline=130.0, now=131.0), seconds_left(None, now=1.0)
(18, 0, None)
>>> expired(130.0, now=129.9), expired(130.0, now=130.0), expired(None, now=1e12)
(False, True, False)
>>> box = Countdown()
>>> box.show(("seq 4", 130.0), 18.0, "{n} s left")
>>> box.left, box.template, box.stamp
(18.0, '{n} s left', 1)
>>> box.show(("seq 4", 130.0), 17.0, "{n} s left")   # the same decision: the browser counts on alone
>>> box.left, box.stamp
(18.0, 1)
>>> box.say("Time is up."); box.left, box.note
(-1.0, 'Time is up.')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from ... import i18n
from ..page_writes import PageMaySet

#: The times a teacher can choose in the drawer, in seconds (0: no timer). The room accepts 0 or 10 to 600.
CHOICES = (0, 30, 60, 90, 120, 180)
#: Seconds left from which the count is shown in red.
URGENT = 10


def seconds_left(deadline: float | None, now: float) -> int | None:
    """Whole seconds left before ``deadline`` (never below 0); None when there is no deadline."""
    if deadline is None:
        return None
    return max(0, math.ceil(deadline - now - 1e-9))


def expired(deadline: float | None, now: float) -> bool:
    """Whether the time up to ``deadline`` has run out (never, without a deadline)."""
    return deadline is not None and now >= deadline


ESM = r"""
function render({ model, el }) {
  el.classList.add("typhoon-countdown");
  const note = document.createElement("div");
  note.className = "typhoon-timer-out"; note.setAttribute("role", "status");
  const box = document.createElement("div");
  box.className = "typhoon-timer-text"; box.setAttribute("role", "timer"); box.setAttribute("aria-live", "off");
  el.append(note, box);
  let end = 0;  // performance.now() at which the count reaches 0 (this browser's own clock: no skew)
  const start = () => { const left = model.get("left"); end = left >= 0 ? performance.now() + left * 1000 : 0; draw(); };
  const draw = () => {
    const said = model.get("note");
    note.textContent = said; note.hidden = !said;
    const left = model.get("left");
    if (left < 0) { box.hidden = true; box.textContent = ""; box.dataset.left = ""; return; }
    const n = Math.max(0, Math.ceil((end - performance.now()) / 1000 - 1e-6));
    box.hidden = false; box.dataset.left = String(n);
    box.classList.toggle("typhoon-timer-urgent", n <= model.get("urgent"));
    box.textContent = model.get("template").split("{n}").join(String(n));
  };
  model.on("change:stamp", start); model.on("change:left", start);
  model.on("change:note", draw); model.on("change:template", draw);
  start();
  const timer = setInterval(() => { if (end) draw(); }, 250);
  return () => clearInterval(timer);
}
export default { render };
"""

CSS = """
.typhoon-countdown .typhoon-timer-text { font-size: 1.6rem; font-weight: bold; color: #9a3412; padding: .1rem .5rem;
  border-left: .4rem solid currentColor; }
.typhoon-countdown .typhoon-timer-urgent { color: #b91c1c; }
.typhoon-countdown .typhoon-timer-out { font-size: 1.2rem; font-weight: bold; color: #7c2d12; background: #ffedd5;
  border-radius: 6px; padding: .2rem .5rem; }
.typhoon-countdown [hidden] { display: none; }
.typhoon-seat .typhoon-countdown .typhoon-timer-text { font-size: 2.2rem; text-align: center; border-left: 0;
  border-bottom: .3rem solid currentColor; }
.typhoon-seat .typhoon-countdown .typhoon-timer-out { font-size: 1.25rem; text-align: center; }
"""


class Countdown(PageMaySet, anywidget.AnyWidget):
    """Seconds left for a decision, counted down by the browser, and a note above it (the time ran out).

    ``left`` < 0: no count. ``template`` holds ``{n}``. ``note`` "": no note.
    """

    _esm = ESM
    _css = CSS
    left = traitlets.Float(-1.0).tag(sync=True)
    stamp = traitlets.Int(0).tag(sync=True)
    template = traitlets.Unicode("{n}").tag(sync=True)
    note = traitlets.Unicode("").tag(sync=True)
    urgent = traitlets.Int(URGENT).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._key: Hashable | None = None

    def show(self, key: Hashable, left: float, template: str, note: str = "") -> None:
        """Count down ``left`` seconds for the decision ``key`` (under ``note``); the same key again sends nothing."""
        if key == self._key and template == self.template and self.left >= 0:
            self.note = note
            return
        with self.hold_sync():  # one message to the browser
            self._key = key
            self.template = template
            self.note = note
            self.left = max(0.0, float(left))
            self.stamp += 1

    def say(self, note: str) -> None:
        """Stop the count and show ``note`` only ("" shows nothing)."""
        with self.hold_sync():
            self._key = None
            self.note = note
            self.left = -1.0

    def hide(self) -> None:
        self.say("")

    @property
    def counting(self) -> bool:
        return self.left >= 0


def timer_control(lang: str, on_change: Callable[[int], Any], observe: Callable[..., Any]) -> widgets.Dropdown:
    """The drawer's menu (off, 30 s, …); ``observe`` is the page's guarded ``Problems.observe``."""
    menu = widgets.Dropdown(options=timer_options(lang), value=0, layout=widgets.Layout(width="auto"))
    menu.add_class("typhoon-turn-timer")
    menu.description = i18n.t("classplay.attention.timer", lang)
    observe(menu, lambda c: on_change(int(c["new"])), where="turn timer")
    return menu


def timer_options(lang: str, current: int = 0) -> list[tuple[str, int]]:
    """The menu's choices labelled in ``lang`` (with ``current`` too, if the room holds another value).

    >>> timer_options("en")[:2]
    [('off', 0), ('30 s', 30)]
    >>> [n for _, n in timer_options("en", current=15)][:3]
    [0, 15, 30]
    """
    values = sorted({*CHOICES, int(current)})
    return [(i18n.t("classplay.attention.timer_off", lang) if n == 0
             else i18n.t("classplay.attention.timer_seconds", lang, n=n), n) for n in values]


__all__ = ["CHOICES", "URGENT", "Countdown", "expired", "seconds_left", "timer_control", "timer_options"]
