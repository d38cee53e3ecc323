"""The die widget: roll it, or type the face of a real die (physical-dice mode).

A typed face must be a whole number from 1 to 6; anything else shows a message in the chosen
language and changes nothing.

>>> parse_face(" 4 "), parse_face("６")
(4, 6)
>>> parse_face("7")
Traceback (most recent call last):
...
ValueError: “7” is not a die face. Type a whole number from 1 to 6.
>>> parse_face("6" * 5000)
Traceback (most recent call last):
...
ValueError: “66666666666666666666…” is not a die face. Type a whole number from 1 to 6.
>>> die = DieWidget(seed=1)
>>> die.enter("0") is None, die.face, die.enter("5"), die.face
(True, None, 5, 5)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import i18n
from ..typed import echo, small_whole
from .guard import Problems

FACES = (1, 2, 3, 4, 5, 6)
_PIPS = "⚀⚁⚂⚃⚄⚅"


def parse_face(text: Any, lang: str = "en") -> int:
    """The face typed in ``text`` (1–6; full-width digits are fine), or ``ValueError`` with a message in ``lang``.

    >>> parse_face("", "zh-TW")
    Traceback (most recent call last):
    ...
    ValueError: 請先輸入你的骰子點數（1 到 6）。
    """
    if isinstance(text, bool):
        raise ValueError(i18n.t("die.invalid", lang, text=text))
    if isinstance(text, int):
        value: int | None = text
    else:
        if not str(text).strip():
            raise ValueError(i18n.t("die.empty", lang))
        value = small_whole(text)  # a page may send megabytes of digits: int() would refuse them in its own words
    if value not in FACES:
        raise ValueError(i18n.t("die.invalid", lang, text=echo(text)))
    return value


class DieWidget(widgets.VBox):
    """A die: a Roll button (seeded if you like) and a box to type the face of a real die.

    ``on_face(callback)`` is called with each accepted face, rolled or typed.
    """

    def __init__(self, lang: str = "en", seed: int | None = None, allow_roll: bool = True, allow_typed: bool = True,
                 **kwargs: Any) -> None:
        lang = i18n.normalize_lang(lang)
        face_view = widgets.HTML(layout=widgets.Layout(min_height="3.2em"))
        roll_button = widgets.Button(description=i18n.t("die.roll", lang), icon="dice", button_style="primary",
                                     layout=widgets.Layout(display="flex" if allow_roll else "none", width="auto"))
        entry = widgets.Text(placeholder=i18n.t("die.placeholder", lang), description=i18n.t("die.label", lang),
                             continuous_update=False, layout=widgets.Layout(width="14em"),
                             style={"description_width": "initial"})
        enter_button = widgets.Button(description=i18n.t("die.enter", lang), layout=widgets.Layout(width="auto"))
        typed = widgets.HBox([entry, enter_button], layout=widgets.Layout(display="flex" if allow_typed else "none"))
        message = widgets.HTML()
        self.problems = Problems(lambda: self.lang)
        super().__init__(children=[face_view, widgets.HBox([roll_button]), typed, message, self.problems.widget],
                         **kwargs)
        self.lang = lang
        self.rng = random.Random(seed)
        self.face: int | None = None
        self.face_view = face_view
        self.roll_button = roll_button
        self.entry = entry
        self.enter_button = enter_button
        self.message = message
        self._callbacks: list[Callable[[int], Any]] = []
        self.problems.on_click(roll_button, lambda _b: self.roll(), where="die: roll")
        self.problems.on_click(enter_button, lambda _b: self.enter(self.entry.value), where="die: enter")
        # Enter in the box submits too (continuous_update=False: the value arrives on Enter)
        self.problems.observe(entry, lambda c: self.enter(c["new"]) if str(c["new"]).strip() else None,
                              where="die: box")
        self._show()

    def on_face(self, callback: Callable[[int], Any], remove: bool = False) -> None:
        """Call ``callback(face)`` for every accepted face."""
        if remove:
            self._callbacks.remove(callback)
        else:
            self._callbacks.append(callback)

    def roll(self) -> int:
        """Roll the die (uniform 1–6 from this widget's random generator)."""
        return self._accept(self.rng.choice(FACES))

    def enter(self, text: Any) -> int | None:
        """Take the face of a real die typed as ``text``; a bad value shows a message and changes nothing."""
        try:
            face = parse_face(text, self.lang)
        except ValueError as exc:
            self.message.value = f"<span style='color:#b91c1c;font-weight:bold'>{escape(str(exc))}</span>"
            return None
        self.entry.value = ""
        return self._accept(face)

    def _accept(self, face: int) -> int:
        self.face = face
        self.message.value = ""
        self._show()
        for callback in list(self._callbacks):
            callback(face)
        return face

    def _show(self) -> None:
        if self.face is None:
            self.face_view.value = f"<span style='font-size:2em;color:#94a3b8'>{_PIPS[5]}</span>"
            return
        text = escape(i18n.t("die.result", self.lang, face=self.face))
        self.face_view.value = (f"<span style='font-size:3em;line-height:1'>{_PIPS[self.face - 1]}</span> "
                                f"<b style='font-size:1.6em'>{self.face}</b> <span style='font-size:1.1em'>{text}</span>")

    def set_lang(self, lang: str) -> None:
        self.lang = i18n.normalize_lang(lang)
        self.roll_button.description = i18n.t("die.roll", self.lang)
        self.enter_button.description = i18n.t("die.enter", self.lang)
        self.entry.description = i18n.t("die.label", self.lang)
        self.entry.placeholder = i18n.t("die.placeholder", self.lang)
        self.message.value = ""
        self._show()
