"""Small widget helpers shared by the dashboard's screens: relabelling on a language switch, CSS.

>>> import ipywidgets as widgets
>>> labels = Labels("en")
>>> b = labels.bind(widgets.Button(), "description", lambda lang: "Hi" if lang == "en" else "嗨")
>>> labels.set_lang("zh-TW"); b.description
'嗨'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import ipywidgets as widgets

W = TypeVar("W", bound=widgets.Widget)

#: The dashboard's style sheet: larger controls, and larger still on a 1080p projector.
CSS = """
<style>
.typhoon-app { --jp-widgets-font-size: 15px; --jp-widgets-inline-height: 32px; --jp-widgets-inline-label-width: 9em;
  font-size: 15px; color: #0f172a; }
.typhoon-app .widget-button, .typhoon-app .jupyter-button { height: auto; min-height: var(--jp-widgets-inline-height);
  white-space: normal; line-height: 1.25; padding: 4px 12px; }
.typhoon-app .widget-toggle-buttons .widget-toggle-button { width: auto; min-width: 5em; }
.typhoon-app .widget-hbox { gap: .5em; }
.typhoon-app .typhoon-big-button { font-size: 1.25em; min-height: 2.6em; font-weight: bold; }
.typhoon-app .typhoon-act { margin: 2px 4px 2px 0; }
.typhoon-app .typhoon-group { border: 2px solid #cbd5e1; border-radius: 8px; padding: 4px 8px; margin: 3px 0;
  background: #f8fafc; }
.typhoon-app .typhoon-log { max-height: 22em; overflow-y: auto; border: 1px solid #cbd5e1; border-radius: 6px;
  padding: 4px 8px; background: #ffffff; }
.typhoon-app .typhoon-resume-box { border: 3px solid #16a34a; background: #f0fdf4; border-radius: 10px; padding: 6px 12px; }
.typhoon-app .typhoon-panel { border: 1px solid #e2e8f0; border-radius: 8px; padding: 4px 8px; }
@media (min-width: 1700px) {
  .typhoon-app { --jp-widgets-font-size: 19px; --jp-widgets-inline-height: 40px; font-size: 19px; }
}
</style>
"""


class Labels:
    """Every piece of text that depends on the language, so a switch changes all of them at once.

    ``bind(widget, attr, text)`` sets ``widget.attr = text(lang)`` now and after every
    :meth:`set_lang`. For ``options`` the selected value is kept.
    """

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._items: list[tuple[widgets.Widget, str, Callable[[str], Any]]] = []

    def bind(self, widget: W, attr: str, text: Callable[[str], Any]) -> W:
        """Bind one attribute of ``widget`` to a text function of the language; returns the widget."""
        self._items.append((widget, attr, text))
        _set(widget, attr, text(self.lang))
        return widget

    def set_lang(self, lang: str) -> None:
        """Switch every bound text to ``lang``."""
        self.lang = lang
        for widget, attr, text in self._items:
            _set(widget, attr, text(lang))

    def __len__(self) -> int:
        return len(self._items)


def _set(widget: widgets.Widget, attr: str, value: Any) -> None:
    if attr == "options":
        keep = getattr(widget, "value", None)
        widget.options = value
        values = [v[1] if isinstance(v, tuple) else v for v in value]
        if keep in values:
            widget.value = keep
    else:
        setattr(widget, attr, value)


def choice(labels: Labels, cls: type[W], options: Callable[[str], Any], value: Any, **kwargs: Any) -> W:
    """A selection widget (Dropdown, ToggleButtons) whose option labels follow the language."""
    widget = cls(options=options(labels.lang), value=value, **kwargs)
    return labels.bind(widget, "options", options)


def button(css: str | Iterable[str] = (), style: str = "", icon: str = "", **layout: str) -> widgets.Button:
    """A button with CSS classes (tests click by class) and an auto width."""
    b = widgets.Button(button_style=style, icon=icon, layout=widgets.Layout(width="auto", **layout))
    for c in [css] if isinstance(css, str) else css:
        if c:
            b.add_class(c)
    return b


def html(css: str = "", value: str = "", **layout: str) -> widgets.HTML:
    """An HTML widget with a CSS class."""
    w = widgets.HTML(value=value, layout=widgets.Layout(**layout))
    if css:
        w.add_class(css)
    return w


def walk(widget: Any) -> Iterator[Any]:
    """Every widget in a tree that is displayed (``layout.display`` not ``none``)."""
    layout = getattr(widget, "layout", None)
    if layout is not None and getattr(layout, "display", None) == "none":
        return
    yield widget
    for child in getattr(widget, "children", ()) or ():
        yield from walk(child)


def visible_texts(widget: Any) -> list[str]:
    """The texts a person sees in a widget tree: descriptions, HTML values, placeholders, option labels."""
    import re

    out: list[str] = []
    for w in walk(widget):
        for attr in ("description", "placeholder", "tooltip"):
            value = getattr(w, attr, None)
            if isinstance(value, str) and value:
                out.append(value)
        if isinstance(w, (widgets.HTML, widgets.Label)) and w.value:
            text = re.sub(r"<style.*?</style>|<svg.*?</svg>|<[^>]+>", " ", w.value, flags=re.S)
            out.extend(part.strip() for part in text.split("  ") if part.strip())
        labels = getattr(w, "_options_labels", None)
        if labels:
            out.extend(labels)
    return out


def close_all(items: Iterable[widgets.Widget]) -> None:
    """Close widgets that are no longer shown (each open widget keeps a channel to the page)."""
    for w in items:
        for child in list(getattr(w, "children", ()) or ()):
            close_all([child])
        w.close()


__all__ = ["CSS", "Labels", "button", "choice", "close_all", "html", "visible_texts", "walk"]
