"""Typing the face of the class's own die: a box that takes Enter, and a button.

>>> from typhoon_edu.ui.guard import Problems
>>> faces = []
>>> entry = DieEntry(Problems(lambda: "en"), faces.append, lambda: "en")
>>> entry.submit("7")
>>> entry.message.value.count("not a die face"), faces
(1, [])
>>> entry.box.value = "5"  # what pressing Enter in the box does
>>> faces, entry.box.value
([5], '')
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets

from ... import i18n
from ..die import parse_face
from ..guard import Problems


class DieEntry(widgets.VBox):
    """``on_face(face)`` gets each accepted face; a wrong one is explained and nothing else happens."""

    def __init__(self, problems: Problems, on_face: Callable[[int], Any], lang: Callable[[], str], **kwargs: Any) -> None:
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
        problems.on_click(self.button, lambda _b: self.submit(self.box.value), where="die entry button")
        problems.observe(self.box, lambda change: self.submit(change["new"]) if str(change["new"]).strip() else None,
                         where="die entry box")
        self.relabel()

    def relabel(self) -> None:
        lang = self._lang()
        self.label.value = f"<b>{escape(i18n.t('classplay.die.type', lang))}</b>"
        self.box.placeholder = i18n.t("die.placeholder", lang)
        self.button.description = i18n.t("die.enter", lang)

    def submit(self, text: Any) -> None:
        try:
            face = parse_face(text, self._lang())
        except ValueError as exc:
            self.message.value = f"<span class='typhoon-message-error'>{escape(str(exc))}</span>"
            return
        self.message.value = ""
        if self.box.value:
            self.box.value = ""  # its observer sees an empty box and does nothing
        self.on_face(face)
