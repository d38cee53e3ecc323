"""What several class-play test modules share: a clock moved by hand, and a room its teacher has ended.

>>> clock = Clock()
>>> clock() == T0
True
>>> clock.now = T0 + 5; clock() - T0
5.0
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from html import unescape
from typing import Any

from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.ui.classplay.viewdata import SeatChoice

#: Two people (Mei for Taiwan, Ken for Japan) and a bot (Korea): the rematch tests' class.
PEOPLE = [Seat("Taiwan", name="Mei"), Seat("Japan", name="Ken"), Seat("Korea", "greedy")]
#: The same class as the setup screen makes it (two people and a medium computer player), for the apps' tests.
SEAT_CHOICES = [SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                SeatChoice("medium", "", "Korea")]


def open_class(store: RoomStore, lang: str = "en", seats: list[SeatChoice] | None = None) -> tuple[Any, dict[str, Any]]:
    """The teacher's projector with the game started (``seats``: SEAT_CHOICES, seed 11, no animation, on phones)
    and a phone page per person seat: ``(projector, {region: phone})``."""
    from typhoon_edu.ui.classplay.projector import ProjectorApp
    from typhoon_edu.ui.classplay.seat import SeatApp
    from typhoon_edu.ui.classplay.setup import SetupChoices

    projector = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = projector.start(SetupChoices(list(seats or SEAT_CHOICES), regions="chosen", seed=11, speed=0, devices=True))
    projector.show_board()
    return projector, {r: SeatApp(lang=lang, store=store, token=t) for r, t in room.issued_tokens.items()}


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


def page_text(html: str) -> str:
    """A widget's HTML as the page shows it: its text without tags or style sheets.

    >>> page_text("<style>b{}</style><b>Mei</b>&amp;Ken")
    ' Mei &Ken'
    """
    return unescape(re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<style>.*?</style>", "", html)))


async def animation_done(pacer: Any) -> None:
    """Wait until a page's animation (its ``pacer``) has played out, for at most 10 s of the event loop."""
    for _ in range(500):
        if pacer.idle:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the animation never ended")
