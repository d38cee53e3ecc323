"""Class play: a projector for the whole class and a page per team on its own phone or tablet.

One dashboard notebook serves every page; :func:`launch` picks the page from the URL:

- no query: the **projector** (:class:`~.projector.ProjectorApp`): setup, rooms, lobby, game, results;
- ``?seat=<token>``: that seat's **own page** (:class:`~.seat.SeatApp`), the link in its QR code
  (``&speed=2`` animates faster, ``&speed=0`` not at all);
- ``?join`` or ``?join=<code>``: the **join page**: type the room code, pick a free seat.

The rooms live in a store (:mod:`typhoon_edu.classroom`: SQLite by default, PostgreSQL for a
school server); every page is a client of it.

>>> from typhoon_edu.classroom.store import RoomStore
>>> type(launch({"join": ""}, lang="en", store=RoomStore("sqlite://"), display=False)).__name__
'SeatApp'
>>> type(launch({}, lang="en", store=RoomStore("sqlite://"), display=False)).__name__
'ProjectorApp'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

LANG_ENV_VAR = "TYPHOON_EDU_LANG"


def page_query() -> dict[str, str]:
    """The page's query string as a dict (``{}`` in a plain notebook); see :mod:`typhoon_edu.ui.query`.

    In a preheated Voilà kernel this waits until a browser asks for the page.
    """
    from ..query import page_query as server_query

    return dict(server_query())


def preload() -> None:
    """Import the pages and load the rules data: the slow part of a start, done before the page is asked for."""
    from ...engine.rules import load_rules
    from . import projector, seat  # noqa: F401

    load_rules()


def launch(query: Mapping[str, str] | None = None, *, lang: str | None = None, store: Any = None,
           display: bool = True) -> Any:
    """Build (and show) the page the URL asks for; ``lang`` defaults to ``$TYPHOON_EDU_LANG`` or zh-TW."""
    query = dict(page_query() if query is None else query)
    lang = lang or query.get("lang") or os.environ.get(LANG_ENV_VAR, "zh-TW")
    try:
        from ... import i18n

        lang = i18n.normalize_lang(lang)
    except ValueError:
        lang = "zh-TW"
    if "seat" in query or "join" in query:
        from .seat import SeatApp

        try:
            speed = min(max(float(query.get("speed", "1")), 0.0), 8.0)
        except ValueError:
            speed = 1.0
        app: Any = SeatApp(lang=lang, store=store, token=query.get("seat") or None, code=query.get("join") or None,
                           speed=speed)
    else:
        from .projector import ProjectorApp

        app = ProjectorApp(lang=lang, store=store)
    if display:
        app.show()
    return app


__all__ = ["launch", "page_query", "preload"]
