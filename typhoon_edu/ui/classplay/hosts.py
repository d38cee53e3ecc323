"""What a screen needs from the page that shows it: small protocols instead of the projector's app.

A screen (results, lobby) is handed an object with these few attributes and callbacks; it never
imports :mod:`.projector`, so the projector can import the screens without an import circle, and a
test can show a screen with a plain stand-in.

>>> from typhoon_edu.ui.classplay.projector import ProjectorApp
>>> from typhoon_edu.classroom.store import RoomStore
>>> app = ProjectorApp(lang="en", store=RoomStore("sqlite://"), fullscreen=False)
>>> isinstance(app, ResultsHost), isinstance(app, LobbyHost)
(True, True)
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ..guard import Problems


@runtime_checkable
class ResultsHost(Protocol):
    """What the results screen reads (the room, its language, the rules) and the buttons it calls."""

    room: Any
    lang: str
    rules: Any
    problems: Problems

    def rematch(self) -> Any: ...

    def new_game(self) -> None: ...


@runtime_checkable
class LobbyHost(Protocol):
    """What the lobby reads (the room, the join cards) and the button that opens the board."""

    room: Any
    lang: str
    problems: Problems

    def join_cards(self) -> str: ...

    def show_board(self) -> None: ...


__all__ = ["LobbyHost", "ResultsHost"]
