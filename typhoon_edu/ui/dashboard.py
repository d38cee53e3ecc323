"""The class-play app inside a notebook (lesson 04): the projector page of :mod:`typhoon_edu.ui.classplay`.

``typhoon-edu serve`` shows the same page full-window in Voilà, with a page per team's device;
in a notebook cell it stays in the cell (no full-window layout) and plays on this computer or
with devices joining through the server's address.

>>> from typhoon_edu.classroom.store import RoomStore
>>> app = ClassPlayApp(lang="en", store=RoomStore("sqlite://"))
>>> app.screen, "typhoon-fullscreen" in app.root._dom_classes
('setup', False)
"""

from __future__ import annotations

from typing import Any

from .classplay.projector import ProjectorApp


def ClassPlayApp(lang: str = "zh-TW", store: Any = None, **kwargs: Any) -> ProjectorApp:  # noqa: N802 - the old class name
    """The projector page for a notebook cell (``fullscreen=False``); ``store`` defaults to the user's room store."""
    kwargs.setdefault("fullscreen", False)
    return ProjectorApp(lang=lang, store=store, **kwargs)


__all__ = ["ClassPlayApp"]
