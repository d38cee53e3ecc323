"""The lobby on the projector: how each team joins with its phone or tablet.

Each person seat has a card with a QR code, its own link and the room code (see
:mod:`.joincard`); the cards turn to "joined" as devices arrive, and the board opens by itself
once every person seat has joined (or when the teacher presses the button).
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

import ipywidgets as widgets

from ... import i18n
from ..buttons import legible

if TYPE_CHECKING:
    from .projector import ProjectorApp


class Lobby:
    def __init__(self, app: ProjectorApp) -> None:
        self.app = app
        self.head = widgets.HTML()
        self.head.add_class("typhoon-lobby-head")
        self.cards = widgets.HTML()
        self.cards.add_class("typhoon-join-grid")
        self.go = legible(widgets.Button(button_style="success", icon="play", layout=widgets.Layout(width="auto")))
        self.go.add_class("typhoon-lobby-go")
        self.go.add_class("typhoon-big-button")
        app.problems.on_click(self.go, lambda _b: app.show_board(), where="lobby: show the board")
        self.box = widgets.VBox([self.head, app.problems.widget, self.cards, self.go],
                                layout=widgets.Layout(overflow="auto", height="100%"))
        self.box.add_class("typhoon-lobby")

    def render(self) -> None:
        app, lang, room = self.app, self.app.lang, self.app.room
        self.go.description = i18n.t("classplay.lobby.go", lang)
        if room is None:
            self.head.value = ""
            self.cards.value = ""
            return
        from .joincard import JOIN_CSS

        self.head.value = (f"{JOIN_CSS}<h2>{escape(i18n.t('classplay.lobby.title', lang))} "
                           f"<span class='typhoon-room-chip'>{escape(room.code)}</span></h2>"
                           f"<div>{escape(i18n.t('classplay.lobby.how', lang))}</div>")
        self.cards.value = app.join_cards()
