"""Buttons whose white text can be read: ipywidgets' info, warning and success colours are too light for it.

>>> import ipywidgets as widgets
>>> b = legible(widgets.Button(description="Replay", button_style="info"))
>>> b.style.button_color
'#00727d'
>>> b.button_style = "success"; b.style.button_color
'#15803d'
>>> b.button_style = ""; b.style.button_color is None
True
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from .palette import BUTTON_FILL


def _fill(button: widgets.Button) -> None:
    button.style.button_color = BUTTON_FILL.get(button.button_style)


def legible(button: widgets.Button) -> widgets.Button:
    """Give ``button`` a background its white text reads on (:data:`~typhoon_edu.ui.palette.BUTTON_FILL`), now and
    whenever its ``button_style`` changes (a quiz marks the right answer "success" later); return it."""

    def restyle(_change: dict[str, Any]) -> None:
        _fill(button)

    _fill(button)
    button.observe(restyle, "button_style")
    return button
