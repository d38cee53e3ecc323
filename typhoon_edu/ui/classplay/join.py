"""Joining without a camera: type the room code, pick a free seat.

A seat joined this way gets a fresh device token bound to this device (the QR code for it on the
projector turns to "joined"); the page's address becomes the seat's link (see :mod:`.address`),
so a reload finds the seat again, and its personal link is shown too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING

import ipywidgets as widgets

from ... import i18n
from ...classroom.store import OPEN
from ...classroom.tries import WrongCodes
from .model import seat_label

if TYPE_CHECKING:
    from .seat import SeatApp


class JoinScreen:
    def __init__(self, app: SeatApp) -> None:
        self.app = app
        g = app.problems
        self.title = widgets.HTML()
        self.code = widgets.Text(continuous_update=False, layout=widgets.Layout(width="9em"))
        self.code.add_class("typhoon-join-code")
        self.find_button = widgets.Button(button_style="primary", icon="search", layout=widgets.Layout(width="auto"))
        self.find_button.add_class("typhoon-join-find")
        g.on_click(self.find_button, lambda _b: self.find(), where="find room")
        g.observe(self.code, lambda c: self.find() if str(c["new"]).strip() else None, where="room code")
        self.message = widgets.HTML()
        self.seats = widgets.VBox()
        self.seats.add_class("typhoon-join-seats")
        self.box = widgets.VBox([self.title, widgets.HBox([self.code, self.find_button]), app.problems.widget,
                                 self.message, self.seats])
        self.box.add_class("typhoon-join")
        self._free: tuple[str, ...] = ()
        self._lobby = None
        #: The found room's language (None until a code is found): the seat list and its refusals are in it,
        #: unless this device chose its own language.
        self.room_lang: str | None = None
        self._error: Callable[[str], str] | None = None  # what the message says, in any language
        self.tries = WrongCodes()  # after a few wrong codes, each next one waits (classroom/tries.py)

    def render(self) -> None:
        lang = self.app.lang
        self.title.value = (f"<h2>{escape(i18n.t('classplay.seat.join_title', lang))}</h2>"
                            f"<div>{escape(i18n.t('classplay.seat.join_how', lang))}</div>")
        self.code.placeholder = "K7Q2M"
        self.find_button.description = i18n.t("classplay.seat.find", lang)
        if self._lobby is not None:
            self._render_seats()
        self._show_message()

    def show_error(self, text: str | Callable[[str], str]) -> None:
        """Say ``text``, or ``text(lang)`` (said again in the page's language if it changes later)."""
        self._error = (lambda _lang, said=text: said) if isinstance(text, str) else text
        self._show_message()

    def _show_message(self) -> None:
        text = self._error(self.app.lang) if self._error is not None else ""
        self.message.value = f"<div class='typhoon-message-error'>{escape(text)}</div>" if text else ""

    def _room_language(self, code: str) -> None:
        """The page takes the found room's language (a device's own switch wins)."""
        try:
            self.room_lang = i18n.normalize_lang(self.app.store.room_by_code(code).lang)
        except Exception:  # noqa: BLE001 - a guess only: the page keeps its language
            return
        if not (self.app.link.chosen_lang or self.app.asked_lang) and self.room_lang != self.app.lang:
            self.app.set_lang(self.room_lang)

    def find(self) -> None:
        """Look the typed code up and list the free seats."""
        from ...classroom.codes import normalize_code
        from ...classroom.errors import ClassroomError
        from ...classroom.rooms import lobby
        from .projector import _error_text

        left = self.tries.wait()
        if left > 0:  # nothing is looked up: a script cannot try code after code
            n = math.ceil(left)
            self.show_error(lambda lang: i18n.t("classplay.join.wait", lang, n=n))
            return
        try:
            self._lobby = lobby(self.app.store, normalize_code(self.code.value))
        except (ClassroomError, ValueError) as exc:
            self.tries.failed()
            self._lobby = None
            self.seats.children = []
            self.show_error(lambda lang, exc=exc: _error_text(exc, lang))
            return
        self.tries.found()
        self._room_language(self._lobby.code)
        if not self._lobby.devices:  # one computer: no seat is a device's (say why none is offered)
            self.show_error(lambda lang: i18n.t("classroom.error.no_devices", lang))
        elif self._lobby.status != OPEN:  # no seat is free because the game is over, not because all are taken
            self.show_error(lambda lang: i18n.t("classplay.join.ended", lang))
        else:
            self.show_error("" if self._lobby.free else (lambda lang: i18n.t("classplay.seat.no_free", lang)))
        self._render_seats()

    def _render_seats(self) -> None:
        from .model import SeatInfo

        lobby, lang = self._lobby, self.app.lang
        for w in self.seats.children:
            w.close()
        assert lobby is not None
        infos = {s.region: SeatInfo(s.region, s.kind, s.name) for s in lobby.seats}
        buttons = []
        for region in lobby.free:
            b = widgets.Button(description=seat_label(infos, region, lang), icon="user",
                               layout=widgets.Layout(width="100%"))
            b.add_class("typhoon-join-seat")
            b.add_class(f"typhoon-join-seat-{region.replace(' ', '_')}")
            b.add_class("typhoon-big-button")
            self.app.problems.on_click(b, lambda _b, r=region: self.take(r), where="take seat")
            buttons.append(b)
        self.seats.children = buttons

    def take(self, region: str) -> bool:
        """Join ``region``'s seat (another device may have taken it a moment before: then say so)."""
        from ...classroom.errors import ClassroomError
        from ...classroom.rooms import Room
        from .projector import _error_text

        assert self._lobby is not None
        try:
            room, token = Room.join(self.app.store, self._lobby.code, region, self.app.device)
        except ClassroomError as exc:
            self.find()
            self.show_error(lambda lang, exc=exc: _error_text(exc, lang))  # after the list: its reason is kept
            return False
        self.app._enter(room, token)
        link = f"?seat={token}"
        # both said again in the language the team switches to, the link with them
        self.app._say(lambda lang: i18n.t("classplay.seat.bookmark", lang), error=False,
                      after=lambda lang: (f"<a class='typhoon-own-link' href='{escape(link)}'>"
                                          f"{escape(i18n.t('classplay.seat.own_link', lang))}</a>"))
        return True
