"""Controls that can be read: buttons whose white text reads on their colour (ipywidgets' info, warning and
success colours are too light for it), and fields whose name a screen reader hears (:func:`name_only`).

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


def name_only(widget: Any, name: str | None = None) -> Any:
    """Make ``widget``'s description (``name``, when given) its accessible name without showing it; return it.

    For a field whose question or label is written beside it: without a description ipywidgets renders an empty
    hidden ``<label for>``, so the browser computes the name "" (a placeholder no longer counts) and a screen
    reader says "edit text" and nothing else.

    >>> box = name_only(widgets.Text(placeholder="a number"), "Your answer to question 2")
    >>> box.description, box.style.description_width
    ('Your answer to question 2', '0px')
    """
    if name is not None:
        widget.description = name
    widget.style.description_width = "0px"
    return widget
