"""Typing the face of the class's own die: a box that takes Enter, and a button.

The face stays in the box until the room has written it: when the store refuses (a full disk, a
read-only or busy database), the teacher sends the same face again with the button instead of
typing it again. A face kept for a die that is no longer awaited (someone else entered it, the
game moved on) is dropped when the page shows the next die (:meth:`DieEntry.awaiting`).

>>> from typhoon_edu.ui.guard import Problems
>>> faces = []
>>> def take(face):  # the room: True once the roll is written, False if it refused (6 here, a full disk)
...     faces.append(face)
...     return face != 6
>>> entry = DieEntry(Problems(lambda: "en"), take, lambda: "en")
>>> entry.submit("7")
>>> entry.message.value.count("not a die face"), faces
(1, [])
>>> entry.box.value = "5"  # what pressing Enter in the box does
>>> faces, entry.box.value
([5], '')
>>> entry.box.value = "6"  # refused: the face stays in the box, and the button sends it again
>>> faces, entry.box.value, "Use my die" in entry.message.value
([5, 6], '6', True)
>>> entry.awaiting(12)  # the page shows another die than the one the face was typed for
>>> entry.box.value
''
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from html import escape
from typing import Any

import ipywidgets as widgets

from ... import i18n
from ..blank_enter import on_blank_enter
from ..die import parse_face
from ..guard import Problems

#: Seconds after the entry shows again at which its box asks for the keyboard's focus (:meth:`DieEntry.show`).
FOCUS_DELAYS = (0.15, 0.6)


class DieEntry(widgets.VBox):
    """``on_face(face)`` gets each accepted face and says whether the room took it (``False``: refused, nothing
    was written; the face stays in the box); a wrong face is explained and nothing else happens."""

    def __init__(self, problems: Problems, on_face: Callable[[int], bool], lang: Callable[[], str],
                 **kwargs: Any) -> None:
        # continuous_update=False: the value reaches the kernel on Enter (or leaving the box), not per key
        self.box = widgets.Text(continuous_update=False, layout=widgets.Layout(width="7em"))
        self.box.add_class("typhoon-die-entry")
        self.button = widgets.Button(button_style="primary", layout=widgets.Layout(width="auto"))
        self.button.add_class("typhoon-die-enter")
        self.label = widgets.HTML()
        self.message = widgets.HTML()
        super().__init__([self.label, widgets.HBox([self.box, self.button]), self.message], **kwargs)
        self.add_class("typhoon-die-input")
        self.on_face = on_face
        self._lang = lang
        self._moment: Hashable = None  # the die the page awaits (its log position), see awaiting()
        self._kept: int | None = None  # a face the room refused, still in the box
        self._wrong: Any = None  # a text that is no face, explained (again in the other language after a switch)
        #: The last face was typed and sent with Enter: the box takes the keyboard back when it shows again (:meth:`show`).
        self.keep_focus = False
        problems.on_click(self.button, lambda _b: self.submit(self.box.value), where="die entry button")
        problems.observe(self.box, lambda change: self.submit(change["new"], typed=True)
                         if str(change["new"]).strip() else None, where="die entry box")
        # Enter in the empty box (the kernel hears nothing of it otherwise): say what to type, as the button does
        on_blank_enter(self.box, lambda: self.submit(self.box.value), problems, "die entry box: Enter")
        self.relabel()

    def relabel(self) -> None:
        lang = self._lang()
        self.label.value = f"<b>{escape(i18n.t('classplay.die.type', lang))}</b>"
        self.box.placeholder = i18n.t("die.placeholder", lang)
        self.button.description = i18n.t("die.enter", lang)
        if self._kept is not None:
            self._say_kept(self._kept)
        elif self._wrong is not None:
            self._say_wrong(self._wrong)

    def awaiting(self, moment: Hashable) -> None:
        """The page now awaits the die at ``moment`` (the room's log position): a face kept for another die is dropped."""
        if moment != self._moment:
            self._moment = moment
            self._clear()

    def show(self, shown: bool) -> None:
        """Show or hide the entry. Shown again after a face typed with Enter, the box has the keyboard's focus: it was
        hidden while the storms moved, and the focus had fallen to the page's body (the next box took 15 Tabs)."""
        self.layout.display = None if shown else "none"
        if shown and self.keep_focus:
            self.keep_focus = False
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no event loop (tests, scripts): at once
                self.box.focus()
                return
            # the browser applies the box's new display after a message to the box itself: asked at once, the focus
            # would go to a box still hidden; asked again a moment later, in case the page was slow
            for delay in FOCUS_DELAYS:
                loop.call_later(delay, self.box.focus)

    def submit(self, text: Any, typed: bool = False) -> None:
        try:
            face = parse_face(text, self._lang())
        except ValueError:
            self._kept, self._wrong = None, text
            self._say_wrong(text)
            return
        self._wrong = None
        self.message.value = ""
        self._kept = face  # until the room has it: a refusal (or a failure the guard reports) leaves it in the box
        if self.on_face(face) is False:
            self._say_kept(face)
            return
        self.keep_focus = typed
        self._clear()

    def _say_wrong(self, text: Any) -> None:
        try:
            parse_face(text, self._lang())
        except ValueError as exc:  # what is wrong with it, in the page's language now
            self.message.value = f"<span class='typhoon-message-error'>{escape(str(exc))}</span>"

    def _say_kept(self, face: int) -> None:
        lang = self._lang()
        self.message.value = (f"<span class='typhoon-die-kept'>"
                              f"{escape(i18n.t('classplay.die.kept', lang, face=face, button=i18n.t('die.enter', lang)))}"
                              f"</span>")

    def _clear(self) -> None:
        self._kept = self._wrong = None
        self.message.value = ""
        if self.box.value:
            self.box.value = ""  # its observer sees an empty box and does nothing
