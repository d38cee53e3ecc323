"""A view that fell behind catches up: several decisions in one read of the store play in about the time of one.

A team's phone reads the store only when its animation has ended; meanwhile the projector runs the bots on. When the
phone's animation is slower than the projector's (the teacher chose a faster speed: the phones animate at their own
speed), one read brings several decisions, and the phone played them all at full length, falling further behind
with every bot (measured in a browser: up to 10 s behind the projector at "Fast", within one run of bot turns). Such a batch now
plays as many times faster as it holds decisions (:func:`~typhoon_edu.ui.classplay.pacer.hurry_for`); a single
decision still plays at full length, and every sentence still enters the log, in order.

The waits are counted, not slept: each pacer's ``_sleep`` records the seconds it was asked to wait.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.engine import events as ev
from typhoon_edu.engine.actions import Action
from typhoon_edu.ui.classplay.bigdie import BigDie
from typhoon_edu.ui.classplay.pacer import Pacer, Stage, hurry_for
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.seatmap import SEAT_CELL, SeatBoard
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice


def counted(pacer: Pacer) -> list[float]:
    """The waits ``pacer`` asks for from now on (returned at once instead of slept)."""
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await asyncio.sleep(0)

    pacer._sleep = sleep  # type: ignore[method-assign]
    return waits


async def until_idle(pacer: Pacer) -> None:
    for _ in range(10_000):
        if pacer.idle:
            return
        await asyncio.sleep(0)
    raise AssertionError("the pacer never finished its batch")


def replay(events: Sequence[ev.Event], board_from: SeatBoard, hurry: float = 1.0) -> tuple[float, list[str]]:
    """The waits and the log of ``events`` played by a phone-like stage (a board as ``board_from`` shows it now and a
    die) at speed 1: the full-length reference."""
    board = SeatBoard(cell=SEAT_CELL, controls=False)
    board.show(board_from.state)
    stage = Stage(lang="en", board=board, die=BigDie(lang="en"))
    pacer = Pacer(stage, speed=lambda: 1.0)
    waits = counted(pacer)

    async def play() -> None:
        pacer.push(list(events), hurry=hurry)
        await until_idle(pacer)

    asyncio.run(play())
    return sum(waits), stage.log_texts()


def a_turn_of_storms() -> list[ev.Event]:
    return [ev.TurnStarted(player="Japan", round=1),
            ev.TyphoonPlaced(typhoon=1, cell=(8, 8), level=1, by="Japan"),
            ev.DieRolled(face=3, purpose="direction", typhoon=1),
            ev.DirectionRolled(typhoon=1, start="N", face=3, stop="E"),
            ev.TyphoonPlaced(typhoon=2, cell=(11, 7), level=2, by="Japan"),
            ev.DieRolled(face=5, purpose="move", typhoon=2)]


def test_a_hurried_batch_waits_that_many_times_less_and_logs_the_same() -> None:
    events = a_turn_of_storms()
    full, log_full = replay(events, SeatBoard(cell=SEAT_CELL, controls=False))
    hurried, log_hurried = replay(events, SeatBoard(cell=SEAT_CELL, controls=False), hurry=3)
    assert full > 1.0, f"the batch hardly animates ({full:.2f} s): the test would see nothing"
    assert hurried == pytest.approx(full / 3, rel=0.02)
    assert log_hurried == log_full and len(log_full) >= 4


def test_hurry_counts_decisions_not_the_dice_after_them() -> None:
    class Entry:
        def __init__(self, notation: str) -> None:
            self.notation = notation

    assert hurry_for([Entry("aim T1 N"), Entry("die 4"), Entry("die 2")]) == 1.0
    assert hurry_for([Entry("pass"), Entry("die 1"), Entry("move T1"), Entry("die 6"), Entry("pass")]) == 3.0
    assert hurry_for([Entry("die 3")]) == 1.0  # a die alone (typed on the projector) plays at full length
    assert hurry_for([Entry("undo"), Entry("correct 4")]) == 1.0


def _phone_behind(store: RoomStore) -> tuple[SeatApp, Room]:
    """Mei's phone (Taiwan) as it was before the two bots after her played: the room moved on, the phone did not."""
    room = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", "easy"), Seat("Korea", "easy")],
                       seed=3, lang="en", teacher=local_teacher(store))
    phone = SeatApp(lang="en", store=store, token=room.issued_tokens["Taiwan"])
    for cell in ((8, 8), (11, 7), (14, 9)):  # Mei places the storms, then plays on until a bot's turn
        assert phone.decide(phone.decisions.cell_action(cell)), phone.message.value
    while phone.room.waiting_for == "Taiwan":
        legal = phone.room.seat_view().legal_actions
        assert phone.decide(next((a for a in legal if a.kind == "pass"), legal[0]))
    room.sync()
    return phone, room


def _phone_takes(phone: SeatApp) -> tuple[list[float], list[Any], float, list[str]]:
    """What the phone's next read brings, played in an event loop: the hurries it pushed, the events, the waits'
    total and the log's new sentences."""
    pushed: list[float] = []
    taken: list[Any] = []
    push = phone.pacer.push

    def spy(events: Sequence[ev.Event], hurry: float = 1.0) -> None:
        pushed.append(hurry)
        taken.extend(events)
        push(events, hurry)

    phone.pacer.push = spy  # type: ignore[method-assign]
    waits = counted(phone.pacer)
    lines = len(phone.stage.lines)

    async def play() -> None:
        phone.sync()
        await until_idle(phone.pacer)

    asyncio.run(play())
    new = phone.stage.log_texts()[: len(phone.stage.lines) - lines]
    return pushed, taken, sum(waits), new


def test_a_phone_behind_by_several_decisions_plays_them_in_about_the_time_of_one(store: RoomStore) -> None:
    phone, room = _phone_behind(store)
    board_before = SeatBoard(cell=SEAT_CELL, controls=False)
    board_before.show(phone.board.state)
    entries: list[Any] = []
    while room.bot_to_move():  # Japan's and Korea's turns, the dice rolled for them, until Mei's turn
        entries.extend(room.step_bot().entries)
    decisions = int(hurry_for(entries))
    assert decisions >= 2, f"the bots made {decisions} decision(s): nothing to catch up"

    pushed, taken, waited, new_lines = _phone_takes(phone)
    full, full_log = replay(taken, board_before)
    assert pushed == [float(decisions)], f"the phone played {decisions} decisions at hurry {pushed}"
    assert full > 1.0, f"the batch hardly animates ({full:.2f} s): the test would see nothing"
    assert waited == pytest.approx(full / decisions, rel=0.05), (waited, full)
    assert new_lines == full_log[: len(new_lines)] and len(new_lines) == len(full_log), "the log lost or moved a line"


def test_a_phone_that_kept_up_plays_the_one_decision_at_full_length(store: RoomStore) -> None:
    phone, room = _phone_behind(store)
    while room.waiting_for == "chance":
        room.step_bot()
    board_before = SeatBoard(cell=SEAT_CELL, controls=False)
    board_before.show(phone.board.state)
    update = room.step_bot()  # one bot's decision (and its dice)
    assert hurry_for(update.entries) == 1.0 and update.entries
    pushed, taken, waited, _lines = _phone_takes(phone)
    full, _log = replay(taken, board_before)
    assert pushed == [1.0]
    assert waited == pytest.approx(full, rel=0.02)


def test_the_phones_own_decision_is_not_hurried(store: RoomStore) -> None:
    room = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", "easy"), Seat("Korea", "easy")],
                       seed=3, lang="en", teacher=local_teacher(store))
    phone = SeatApp(lang="en", store=store, token=room.issued_tokens["Taiwan"])
    pushed: list[float] = []
    push = phone.pacer.push
    phone.pacer.push = lambda events, hurry=1.0: (pushed.append(hurry), push(events, hurry))[-1]  # type: ignore[method-assign]
    assert phone.decide(Action("place", cell=(8, 8)))
    assert pushed == [1.0]


def test_the_projector_catches_up_on_decisions_the_phones_made_while_it_animated(store: RoomStore) -> None:
    """The projector turns the compass ring, which the phones do not: two teams may decide while it still animates,
    and its next read brings both decisions."""
    projector = ProjectorApp(lang="en", store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = projector.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                                         SeatChoice("easy", "", "Korea")], regions="chosen", seed=11, speed=0,
                                        devices=True))
    phones = {r: SeatApp(lang="en", store=store, token=t) for r, t in room.issued_tokens.items()}
    projector.show_board()
    projector.advance()
    made = 0
    for _ in range(40):  # the teams decide on their phones; the projector does not read the store meanwhile
        who = phones["Taiwan"].room.waiting_for
        if who not in phones or made >= 3:
            break
        phone = phones[who]
        phone.sync()
        legal = phone.room.seat_view().legal_actions
        assert phone.decide(next((a for a in legal if a.kind == "pass"), legal[0])), phone.message.value
        made += 1
        for other in phones.values():
            other.sync()
    assert made >= 2, f"the teams made {made} decision(s) in a row: nothing to catch up"
    pushed: list[float] = []
    push = projector.pacer.push
    projector.pacer.push = lambda events, hurry=1.0: (pushed.append(hurry), push(events, hurry))[-1]  # type: ignore[method-assign]
    projector.advance()
    assert pushed[:1] == [float(made)], f"the projector played {made} decisions at hurry {pushed[:1]}"
    assert all(h == 1.0 for h in pushed[1:]), "a bot's own move, played by the projector, is never hurried"
