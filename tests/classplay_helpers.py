"""What several class-play test modules share: a clock moved by hand, and a room its teacher has ended.

>>> clock = Clock()
>>> clock() == T0
True
>>> clock.now = T0 + 5; clock() - T0
5.0
"""

from __future__ import annotations

from collections.abc import Mapping

from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher

#: Two people (Mei for Taiwan, Ken for Japan) and a bot (Korea): the rematch tests' class.
PEOPLE = [Seat("Taiwan", name="Mei"), Seat("Japan", name="Ken"), Seat("Korea", "greedy")]
#: A fixed moment for the clocks below (seconds since the epoch, in 2027).
T0 = 1_800_000_000.0


class Clock:
    """A clock a test moves by hand (``store.clock``, ``room.beat_clock``, ``drawer.clock``)."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def ended_room(store: RoomStore, devices: Mapping[str, str | None]) -> tuple[Room, dict[str, str]]:
    """A room of :data:`PEOPLE` whose seats these devices opened (region → device id), then ended by the teacher;
    the room and its seat links (region → token)."""
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=local_teacher(store))
    tokens = dict(room.issued_tokens)
    for region, device in devices.items():
        Room.open_seat(store, tokens[region], device)
    room.end()
    return room, tokens
