"""Class play: a projector for the whole class and a page per team on its own phone or tablet.

One dashboard notebook serves every page; :func:`launch` picks the page from the URL and the
teacher's credential:

- the **teacher** (the page's query carries a teacher's key, put there by ``typhoon-edu serve`` from
  the teacher's cookie or the teacher's address ``/?teacher=<key>``; or a notebook in JupyterLab,
  whose user is the computer's teacher): the **projector** (:class:`~.projector.ProjectorApp`) with
  that teacher's rooms only: setup, rooms, lobby, game, results; ``&take=<secret>`` takes over a
  room a colleague handed over;
- ``?seat=<token>``: that seat's **own page** (:class:`~.seat.SeatApp`), the link in its QR code
  (``&speed=2`` animates faster, ``&speed=0`` not at all); the first device that opens it keeps it;
- anything else (``/``, ``/join``, ``/join/<CODE>`` without a teacher's key): the students' **join
  page**: type the room code, pick a free seat. No list of rooms, no codes.

The rooms live in a store (:mod:`typhoon_edu.classroom`: SQLite by default, PostgreSQL for a
school server); every page is a client of it.

>>> from typhoon_edu.classroom.store import RoomStore
>>> from typhoon_edu.classroom.teachers import add_teacher
>>> store = RoomStore("sqlite://")
>>> _, key = add_teacher(store, "Ms Lin")
>>> type(launch({"join": ""}, lang="en", store=store, display=False)).__name__
'SeatApp'
>>> type(launch({"teacher": key}, lang="en", store=store, display=False)).__name__
'ProjectorApp'
>>> launch({"teacher": "a guess"}, lang="en", store=store, display=False).screen   # no key: the join page
'join'
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

from ...classroom.errors import ClassroomError

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
    """Build (and show) the page the URL asks for; ``lang`` defaults to ``$TYPHOON_EDU_LANG`` or zh-TW.

    ``query``: the page's query (default: :func:`page_query`). Given explicitly, or in a Voilà
    kernel, the page is a served one: the teacher is whoever the query's ``teacher`` key proves;
    in a notebook (JupyterLab, no query) the notebook's user is the local teacher.
    """
    from .projector import _open_store, served_by_voila

    served = query is not None or served_by_voila()
    query = dict(page_query() if query is None else query)
    lang = lang or query.get("lang") or os.environ.get(LANG_ENV_VAR, "zh-TW")
    try:
        from ... import i18n

        lang = i18n.normalize_lang(lang)
    except ValueError:
        lang = "zh-TW"
    try:
        store = _open_store(store)
    except ClassroomError as exc:  # an unwritable folder, a database that cannot be reached: said, not a traceback
        app = StoreProblemPage(exc, lang)
        if display:
            app.show()
        return app
    device = query.get("device") or None
    teacher = None
    if "seat" not in query and "join" not in query:
        from ...classroom.teachers import local_teacher, teacher_for_key

        teacher = teacher_for_key(store, query.get("teacher")) if served else local_teacher(store)
    if teacher is None:
        from .seat import SeatApp

        # no (usable) &speed= in the link: None, the class's speed (the projector's); &speed=1 is this device's Normal
        speed = seat_speed(query.get("speed"), default=None)
        app: Any = SeatApp(lang=lang, store=store, token=query.get("seat") or None, code=query.get("join") or None,
                           speed=speed, device=device)
        if query.get("lang"):  # an address's ?lang= wins over the room's and the browser's language
            app.asked_lang = True
            if app.lang != lang:
                app.set_lang(lang)
    else:
        from .projector import ProjectorApp

        app = ProjectorApp(lang=lang, store=store, teacher=teacher)
        app.keeps_address = served
        if query.get("take"):
            app._said(lambda: app.take(query["take"]))
        elif query.get("room"):  # a reload: the room the page showed, if it is this teacher's (Room.open checks)
            app._said(lambda: app.open(query["room"]))
    if display:
        app.show()
    return app


#: Normal animation speed (a room made before the class's speed was kept, a seat page without a room); the most a
#: seat link's ``&speed=`` takes.
DEFAULT_SPEED = 1.0
MAX_SPEED = 8.0


def seat_speed(raw: str | None, default: float | None = DEFAULT_SPEED) -> float | None:
    """The animation speed a seat link's ``&speed=`` asks for, kept between 0 (none) and :data:`MAX_SPEED`.

    Anything that is not a finite number (``nan``, ``inf``, ``fast``, nothing) gives ``default``:
    ``min(max(nan, 0), 8)`` is ``nan``, and the page's pacer would sleep ``nan`` seconds between frames.
    :func:`launch` asks for ``default=None``: such a link follows the class's speed.

    >>> seat_speed("2"), seat_speed("-1"), seat_speed("99"), seat_speed("nan"), seat_speed("inf"), seat_speed(None)
    (2.0, 0.0, 8.0, 1.0, 1.0, 1.0)
    >>> seat_speed("fast", default=None), seat_speed("", default=None)
    (None, None)
    """
    try:
        speed = float(raw) if raw is not None else math.nan
    except (TypeError, ValueError):
        return default
    if not math.isfinite(speed):
        return default
    return min(max(speed, 0.0), MAX_SPEED)


class StoreProblemPage:
    """What a page shows when the room store cannot be opened: the reason, in the page's language.

    >>> from typhoon_edu.classroom.errors import StoreError
    >>> page = StoreProblemPage(StoreError("no folder", kind="read_only"), "en")
    >>> page.screen, "cannot be written" in page.root.children[0].value
    ('store_problem', True)
    """

    screen = "store_problem"

    def __init__(self, exc: Exception, lang: str) -> None:
        import logging
        from html import escape

        import ipywidgets as widgets

        from .projector import _error_text

        logging.getLogger("typhoon_edu.ui").error("the room store cannot be opened: %s", exc)
        self.error = exc
        self.root = widgets.VBox([widgets.HTML(
            f"<div class='typhoon-message-error typhoon-store-problem' style='font-size:1.3rem;padding:1rem'>"
            f"{escape(_error_text(exc, lang))}</div>")])

    def show(self) -> StoreProblemPage:
        from IPython.display import display

        display(self.root)
        return self


__all__ = ["DEFAULT_SPEED", "MAX_SPEED", "StoreProblemPage", "launch", "page_query", "preload", "seat_speed"]
