"""The coach on a person's page: a "Hint" button and the hint, in the seat's language.

The hint comes from the room (:meth:`~typhoon_edu.classroom.rooms.Room.prepare_hint`), which asks the
hard bot with only what this seat may see; it is computed in a worker thread when the page runs an
event loop (a hint takes a fraction of a second), on a copy of the game taken on the loop (the loop
may apply a move to the live game meanwhile), and kept until the decision changes. One hint
is in flight per seat: a second tap while the coach thinks does nothing but say so (twenty taps
must not cost twenty searches of the kernel's CPU).

>>> from typhoon_edu.classroom.store import RoomStore
>>> from typhoon_edu.classroom.rooms import Room, Seat
>>> from typhoon_edu.ui.guard import Problems
>>> store = RoomStore("sqlite://")
>>> from typhoon_edu.classroom.teachers import local_teacher
>>> room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")], seed=3, lang="en",
...                    teacher=local_teacher(store))
>>> phone = Room.open_seat(store, room.issued_tokens["Taiwan"])
>>> box = CoachBox(Problems(lambda: "en"), lambda: "en")
>>> box.show_for(phone, "Taiwan", mine=True)
>>> box.button.layout.display is None
True
>>> box.ask(phone, "Taiwan", iterations=12)
True
>>> box.text.value.startswith("<div class='typhoon-hint'>")
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets

from ... import i18n
from ..guard import Problems

#: The hint's light bulb, drawn (an emoji such as U+1F4A1 is a missing-glyph box where no emoji font is installed, as
#: with Debian's Chromium and fonts-noto-cjk); hidden from screen readers, which read "Hint:" before the hint instead.
BULB = ("<svg class='typhoon-hint-icon' viewBox='0 0 24 24' width='1.1em' height='1.1em' aria-hidden='true' "
        "focusable='false'><path fill='currentColor' d='M9 21c0 .55.45 1 1 1h4c.55 0 1-.45 1-1v-1H9v1zm3-19C8.14 2 5 "
        "5.14 5 9c0 2.38 1.19 4.47 3 5.74V17c0 .55.45 1 1 1h6c.55 0 1-.45 1-1v-2.26c1.81-1.27 3-3.36 3-5.74 0-3.86-3.14"
        "-7-7-7z'/></svg>")


class CoachBox(widgets.VBox):
    def __init__(self, problems: Problems, lang: Callable[[], str], **kwargs: Any) -> None:
        self.button = widgets.Button(icon="lightbulb-o", layout=widgets.Layout(width="auto"))
        self.button.add_class("typhoon-hint-button")
        self.text = widgets.HTML()
        self.text.add_class("typhoon-hint-text")
        super().__init__([self.button, self.text], **kwargs)
        self.add_class("typhoon-coach")
        self._lang = lang
        self._problems = problems
        self._room: Any = None
        self._region = ""
        self._seq = -1
        self._hint: Any = None
        self.asking = False  # a hint is being computed (one at a time per seat)
        self._asking_seq = -1
        problems.on_click(self.button, lambda _b: self.ask(self._room, self._region), where="hint")
        self.show_for(None, "", mine=False)

    def show_for(self, room: Any, region: str, *, mine: bool) -> None:
        """Offer the button when ``region`` decides now and the teacher allows hints; forget an old hint."""
        self._room, self._region = room, region
        allowed = room is not None and mine and room.hints_enabled and room.is_open and not room.paused
        if room is None or room.seq != self._seq:
            self._hint = None
            if not (self.asking and room is not None and room.seq == self._asking_seq):
                self.text.value = ""
        self.button.description = i18n.t("classplay.coach.ask", self._lang())
        self.button.layout.display = None if allowed else "none"
        if not allowed:
            self.text.value = ""
        elif self._hint is not None:
            self._render()

    def ask(self, room: Any, region: str, iterations: int | None = None) -> bool:
        """Compute the hint (in a worker thread when a loop runs) and show it; False while one is computing."""
        if room is None:
            return False
        if self.asking:
            self.text.value = f"<i class='typhoon-hint-busy'>{escape(i18n.t('classplay.coach.busy', self._lang()))}</i>"
            return False
        seq = room.seq
        self.asking, self._asking_seq = True, seq
        self.text.value = f"<i>{escape(i18n.t('classplay.coach.thinking', self._lang()))}</i>"
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            try:
                self._take(room.prepare_hint(region, iterations=iterations).think(), seq)
            finally:
                self.asking = False
            return True

        try:  # the checks and the copy of the game here, on the loop: never read the live game from the worker
            job = room.prepare_hint(region, iterations=iterations)
        except Exception as exc:  # noqa: BLE001 - told to the person, like any callback failure
            self.asking = False
            self.text.value = ""
            self._problems.report(exc, "hint")
            return False

        async def run() -> None:
            try:
                hint = await loop.run_in_executor(None, job.think)
            except Exception as exc:  # noqa: BLE001 - told to the person, like any callback failure
                self.text.value = ""
                self._problems.report(exc, "hint")
                return
            finally:
                self.asking = False
            self._take(hint, seq)

        loop.create_task(run())
        return True

    def _take(self, hint: Any, seq: int) -> None:
        if self._room is None or self._room.seq != seq:
            self.text.value = ""  # the decision moved on while the coach thought
            return
        self._hint, self._seq = hint, seq
        self._render()

    def _render(self) -> None:
        from ...ai.coach import hint_text

        lang = self._lang()
        self.text.value = (f"<div class='typhoon-hint'>{BULB}<span class='typhoon-sr-only'>"
                           f"{escape(i18n.t('classplay.coach.said', lang))} </span>"
                           f"{escape(hint_text(self._hint, lang))}</div>")
