"""The curtain between players on one computer: "Pass to 王小明 — tap to see your hand".

While it is down, the whole window is covered, so the next player can take the computer
without anyone seeing a hand; one tap lifts it for that player's decision only.

>>> from typhoon_edu.ui.guard import Problems
>>> lifted = []
>>> c = Curtain(Problems(lambda: "en"), on_lift=lifted.append)
>>> c.drop("Taiwan", "Mei (Taiwan)", "en")
>>> c.down, c.button.description
(True, 'Pass the computer to Mei (Taiwan) — tap here to see your hand')
>>> c.button.click()
>>> c.down, lifted
(False, ['Taiwan'])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ... import i18n
from ..buttons import legible
from ..guard import Problems


class Curtain(widgets.VBox):
    """A full-window cover with one big button; ``on_lift(region)`` runs when that player taps it."""

    def __init__(self, problems: Problems, on_lift: Callable[[str], Any], **kwargs: Any) -> None:
        self.button = legible(widgets.Button(button_style="warning", icon="eye", layout=widgets.Layout(width="auto")))
        self.button.add_class("typhoon-curtain-button")
        super().__init__([self.button], **kwargs)
        self.add_class("typhoon-curtain")
        self.layout.display = "none"
        self.region: str | None = None
        self.on_lift = on_lift
        problems.on_click(self.button, lambda _b: self.lift(), where="curtain")

    @property
    def down(self) -> bool:
        return self.layout.display != "none"

    def drop(self, region: str, label: str, lang: str) -> None:
        """Cover the window for ``region``'s private decision."""
        self.region = region
        self.button.description = i18n.t("classplay.curtain.pass", lang, player=label)
        self.layout.display = "flex"

    def lift(self) -> None:
        region = self.region
        self.layout.display = "none"
        if region is not None:
            self.on_lift(region)

    def hide(self) -> None:
        """Take the curtain away without lifting it for anyone (the decision is no longer private)."""
        self.region = None
        self.layout.display = "none"
