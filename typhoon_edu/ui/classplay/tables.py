"""Tables from a room's views: what the projector and each seat may show (see :mod:`.table`).

>>> from typhoon_edu.classroom.store import RoomStore
>>> from typhoon_edu.classroom.rooms import Room, Seat
>>> from typhoon_edu.classroom.teachers import local_teacher
>>> store = RoomStore("sqlite://")
>>> room = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"),
...                    Seat("Korea", "random")], seed=3, lang="en", teacher=local_teacher(store))
>>> public_table(room).hand_cards, seat_table(room, "Taiwan").you
((), 'Taiwan')
>>> seat_infos(room)["Taiwan"].name
'Mei'
"""

from __future__ import annotations

from typing import Any

from ...engine.rules import load_rules
from .model import SeatInfo
from .table import HAND_PHASES, Table


def _table(obs: dict[str, Any], view: Any, private: bool) -> Table:
    full = {"you": None, "hand": [], "legal_actions": [], **obs}
    table = Table.from_observation(full, load_rules(), tuple(view.events) if hasattr(view, "events") else (),
                                   private=private, seq=view.seq)
    return table


def public_table(room: Any) -> Table:
    """The projector's table: the public board, no hand, no decisions."""
    view = room.public_view()
    table = _table(view.observation, view, private=False)
    table.events = tuple(room.events())
    return table


def seat_table(room: Any, region: str, *, cards: bool = True) -> Table:
    """``region``'s own table: its hand and its decisions (``cards=False``: its public decisions only).

    ``cards=False`` is for a person deciding on the projector itself (placing a storm, choosing
    which storm moves): the decision is shown, the hand is not, and no decision made with the
    cards of the hand is listed (its choices would tell the class what the hand holds).
    """
    view = room.seat_view(region)
    obs = dict(view.observation)
    obs["legal_actions"] = [a.notation for a in view.legal_actions]
    table = _table(obs, view, private=True)
    table.events = tuple(room.events())
    if not cards:
        table.hand_cards = ()
        table.hand_hidden = True
        if table.phase in HAND_PHASES:
            table.legal = ()
    return table


def seat_infos(room: Any) -> dict[str, SeatInfo]:
    """Every seat as the views name it (in seat order)."""
    return {s.region: SeatInfo(s.region, s.kind, s.name, bool(getattr(s, "joined", False))) for s in room.seats}


def view_digest(room: Any) -> str:
    """A short hash of the public state and the log position: equal on every page that shows the same game.

    Only the public view goes into it (no hand, no deck order), so a page may show it.
    """
    import hashlib
    import json

    view = room.public_view()
    text = json.dumps([room.seq, view.observation], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]
