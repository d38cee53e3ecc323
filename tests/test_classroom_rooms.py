"""Room logic (typhoon_edu.classroom.rooms): replay, seats and tokens, bots, teacher controls, privacy.

Tests taking ``store`` run on SQLite and on PostgreSQL (see tests/conftest.py ``db_url``).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from typhoon_edu.classroom import (
    NotAllowed,
    Room,
    RoomBroken,
    RoomNotFound,
    RoomStore,
    Seat,
    SeatError,
    StaleWrite,
    TokenRejected,
    list_rooms,
    lobby,
    sqlite_url,
)
from typhoon_edu.classroom.log import UNDO
from typhoon_edu.classroom.rooms import rebuild
from typhoon_edu.classroom.store import ACTIONS, ROOMS
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.engine.events import CardsDrawn, DamageDealt
from typhoon_edu.engine.game import CHANCE, Game
from typhoon_edu.engine.rules import IllegalActionError

REPO = Path(__file__).resolve().parent.parent
PEOPLE_AND_BOTS = [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea"), Seat("Philippines", "random")]


@pytest.fixture
def store(db_url: str) -> RoomStore:
    return RoomStore(db_url)


@pytest.fixture
def lite(tmp_path: Path) -> RoomStore:
    """A SQLite store, for tests of room logic that the dialect cannot change."""
    return RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))


def play_to_the_end(projector: Room, devices: dict[str, Room], seed: int = 0, limit: int = 3000) -> dict[str, list]:
    """Play a whole game: bots through the projector, people through their devices (random legal choices)."""
    rng = random.Random(seed)
    delivered: dict[str, list] = {r: [] for r in devices}
    for _ in range(limit):
        projector.sync()
        if not projector.is_open:
            break
        if projector.bot_to_move():
            projector.step_bot()
            continue
        who = projector.waiting_for
        region = projector.game.active if who == CHANCE else who
        device = devices[region]
        delivered[region] += device.sync().events
        view = device.seat_view()
        assert view.legal_actions, (who, view)
        delivered[region] += device.act(rng.choice(view.legal_actions), expected_seq=view.seq + 1).events
    for region, device in devices.items():
        delivered[region] += device.sync().events
    return delivered


# ---------------------------------------------------------------------- creating and opening
def test_create_issues_tokens_for_person_seats_only_and_stores_their_hashes(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=11, lang="en", teacher=local_teacher(store))
    assert sorted(room.issued_tokens) == ["Korea", "Taiwan"]
    rows = store.seats(room.id)
    assert [s.kind for s in rows] == ["person", "greedy", "person", "random"]
    assert all(s.token_hash not in room.issued_tokens.values() for s in rows)
    assert room.setup["seed"] == 11 and room.setup["dice"] == "auto" and room.lang == "en"
    assert Room.open(store, room.code, teacher=local_teacher(store)).game.digest() == room.game.digest()
    assert Room.open(store, room.id, teacher=local_teacher(store)).code == room.code
    with pytest.raises(RoomNotFound):
        Room.open(store, "ZZZZZ" if room.code != "ZZZZZ" else "YYYYY", teacher=local_teacher(store))


def test_an_advanced_game_stores_the_dice_rolled_before_the_first_decision(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=4, variant="advanced", teacher=local_teacher(lite))
    direct = Game.new(["Taiwan", "Japan", "Korea"], seed=4, variant="advanced")
    assert [e.notation for e in room.entries] == [a.notation for a in direct.history]
    assert room.game.digest() == direct.digest()


def test_bad_seats_are_refused_before_anything_is_stored(lite: RoomStore) -> None:
    with pytest.raises(SeatError) as e:
        Room.create(lite, [Seat("Taiwan"), Seat("Japan", "wizard"), Seat("Korea")], teacher=local_teacher(lite))
    assert e.value.kind == "bad_kind"
    with pytest.raises(ValueError):
        Room.create(lite, [Seat("Taiwan"), Seat("Japan")], teacher=local_teacher(lite))
    assert lite.rooms() == []


# ---------------------------------------------------------------------- a whole game, every view in step
def test_a_whole_game_from_devices_ends_on_one_state_in_every_view(store: RoomStore) -> None:
    projector = Room.create(store, PEOPLE_AND_BOTS, seed=21, lang="en", teacher=local_teacher(store))
    devices = {r: Room.open_seat(store, t) for r, t in projector.issued_tokens.items()}
    second_projector = Room.open(store, projector.code, teacher=local_teacher(store))
    start = {r: len(d.events()) for r, d in devices.items()}
    delivered = play_to_the_end(projector, devices, seed=5)
    assert projector.is_over and projector.status == "finished"
    second_projector.sync()
    log = store.actions(projector.id)
    assert [a.seq for a in log] == list(range(1, len(log) + 1))  # nothing lost, nothing twice
    replayed, _ = rebuild(projector.setup, [a.notation for a in log])
    digests = {replayed.digest(), projector.game.digest(), second_projector.game.digest()}
    assert len(digests) == 1
    for region, device in devices.items():
        # each device got every event it may see exactly once, in order
        assert delivered[region] == device.events()[start[region]:]
        assert device.seat_view().observation == replayed.observation(region)
    # tokens die with the game
    for token in projector.issued_tokens.values():
        with pytest.raises(TokenRejected) as e:
            Room.open_seat(store, token)
        assert e.value.kind == "room_over"


def test_sync_is_one_row_read_when_nothing_changed_and_applies_only_new_entries(
        lite: RoomStore, monkeypatch: pytest.MonkeyPatch) -> None:
    room = Room.create(lite, [Seat("Taiwan", "greedy"), Seat("Japan", "greedy"), Seat("Korea", "greedy")], seed=2, teacher=local_teacher(lite))
    for _ in range(60):
        room.step_bot()
    view = Room.open(lite, room.code, teacher=local_teacher(lite))
    statements: list[str] = []
    sa.event.listen(lite._engine, "before_cursor_execute", lambda c, cur, stmt, p, ctx, many: statements.append(stmt))
    assert not view.sync()
    assert [s.split()[0] for s in statements if not s.startswith(("BEGIN", "COMMIT", "ROLLBACK"))] == ["SELECT"]
    applied = []
    real_apply = Game.apply
    monkeypatch.setattr(Game, "apply", lambda self, a: applied.append(a) or real_apply(self, a))
    before = view.seq
    for _ in range(3):
        room.step_bot()
    applied.clear()
    update = view.sync()
    assert len(applied) == room.seq - before == len(update.entries)


def test_an_update_reports_meta_changes(lite: RoomStore) -> None:
    room = Room.create(lite, PEOPLE_AND_BOTS, seed=3, teacher=local_teacher(lite))
    other = Room.open(lite, room.code, teacher=local_teacher(lite))
    room.rename_seat("Japan", "Kenji")
    update = other.sync()
    assert update.meta_changed and not update.entries and other.display_name("Japan") == "Kenji"
    assert not other.sync()


# ---------------------------------------------------------------------- who may decide
def test_a_device_decides_only_for_its_own_seat(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=7, teacher=local_teacher(store))
    taiwan = Room.open_seat(store, room.issued_tokens["Taiwan"])
    korea = Room.open_seat(store, room.issued_tokens["Korea"])
    assert room.waiting_for == "Taiwan"
    legal = taiwan.seat_view().legal_actions
    with pytest.raises(NotAllowed) as e:
        korea.act(legal[0])
    assert e.value.kind == "not_your_turn"
    with pytest.raises(NotAllowed) as e:  # a device is never the teacher
        korea.act(legal[0], teacher=True)
    assert e.value.kind == "teacher_only"
    with pytest.raises(NotAllowed):  # another seat's token through the projector's room: still its own seat only
        room.act(legal[0], token=room.issued_tokens["Korea"])
    assert store.head(room.id).seq == 0
    taiwan.act(legal[0])
    assert store.head(room.id).seq >= 1


def test_an_illegal_decision_raises_the_engine_error_and_writes_nothing(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=7, teacher=local_teacher(store))
    taiwan = Room.open_seat(store, room.issued_tokens["Taiwan"])
    for bad in ("place 0,0", "pass", "jump T1", 4, None):
        with pytest.raises(IllegalActionError):
            taiwan.act(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="None is not an action"):
        room.act(None, teacher=True)  # type: ignore[arg-type]
    assert store.head(room.id).seq == 0 and taiwan.seq == 0


def test_the_teacher_decides_for_people_but_not_for_bots_nor_automatic_dice(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan", "greedy"), Seat("Japan"), Seat("Korea")], seed=9, teacher=local_teacher(lite))
    with pytest.raises(NotAllowed) as e:
        room.act(room.game.legal_actions()[0], teacher=True)
    assert e.value.kind == "bot_seat"
    with pytest.raises(ValueError, match="say who decides"):
        room.act(room.game.legal_actions()[0])
    while room.bot_to_move():
        room.step_bot()
    assert room.waiting_for in ("Japan", "Korea")
    room.act(room.game.legal_actions()[0], teacher=True)  # one computer: the projector acts for a person


def test_manual_dice_are_typed_by_the_active_seat_or_the_teacher(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=9, dice="manual", teacher=local_teacher(lite))
    devices = {r: Room.open_seat(lite, t) for r, t in room.issued_tokens.items()}
    for _ in range(200):
        if room.waiting_for == CHANCE:
            break
        who = room.waiting_for
        room.act(room.game.legal_actions()[0], token=room.issued_tokens[who])
    assert room.waiting_for == CHANCE
    active = room.game.active
    other = next(r for r in devices if r != active)
    devices[other].sync()
    devices[active].sync()
    assert not devices[other].seat_view().may_type_die and devices[active].seat_view().may_type_die
    with pytest.raises(NotAllowed):
        devices[other].act(3)
    devices[active].act(3)
    assert room.sync().entries[-1].notation == "die 3"


def test_automatic_dice_come_with_the_decision_in_one_append(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=13, teacher=local_teacher(lite))
    direct = Game.new(["Taiwan", "Japan", "Korea"], seed=13)
    while True:
        action = room.game.legal_actions()[-1]
        n = len(direct.history)
        direct.apply(action)
        update = room.act(action, teacher=True)
        assert [e.notation for e in update.entries] == [a.notation for a in direct.history[n:]]
        if any(e.notation.startswith("die") for e in update.entries):
            break
    assert room.game.digest() == direct.digest()
    assert len({e.by for e in update.entries}) == 1  # the decision and its dice are one write


# ---------------------------------------------------------------------- races
def test_two_writers_on_one_decision_exactly_one_wins_and_the_other_catches_up(store: RoomStore) -> None:
    projector = Room.create(store, PEOPLE_AND_BOTS, seed=17, teacher=local_teacher(store))
    device = Room.open_seat(store, projector.issued_tokens["Taiwan"])
    curtain = Room.open(store, projector.code, teacher=local_teacher(store))  # a second screen acting for the same person seat
    a, b = device.seat_view().legal_actions[0], device.seat_view().legal_actions[1]
    device.act(a)
    with pytest.raises(StaleWrite) as e:
        curtain.act(b, teacher=True)
    assert e.value.current_seq == device.seq
    caught = curtain.sync()  # the caught-up move arrives with the next sync, once
    assert [x.notation for x in caught.entries] == [a.notation]
    assert caught.events and not curtain.sync()
    assert curtain.game.digest() == device._game.digest()


def test_a_view_that_showed_an_old_state_is_told_even_if_its_room_caught_up(lite: RoomStore) -> None:
    room = Room.create(lite, PEOPLE_AND_BOTS, seed=17, teacher=local_teacher(lite))
    device = Room.open_seat(lite, room.issued_tokens["Taiwan"])
    shown = device.seat_view()
    room.act(shown.legal_actions[0], teacher=True)
    device.sync()  # the room moved on, but the person decided on what was shown
    with pytest.raises(StaleWrite):
        device.act(shown.legal_actions[1], expected_seq=shown.seq + 1)


def test_threads_racing_through_rooms_exactly_one_wins(store: RoomStore) -> None:
    projector = Room.create(store, PEOPLE_AND_BOTS, seed=19, teacher=local_teacher(store))
    rooms = [Room.open(store, projector.code, teacher=local_teacher(store)) for _ in range(5)]
    barrier = threading.Barrier(len(rooms))
    outcomes: list[str] = []

    def decide(room: Room, i: int) -> None:
        action = room.game.legal_actions()[i]
        barrier.wait()
        try:
            room.act(action, teacher=True)
            outcomes.append("won")
        except StaleWrite:
            outcomes.append("stale")

    threads = [threading.Thread(target=decide, args=(r, i)) for i, r in enumerate(rooms)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["stale"] * 4 + ["won"]
    for r in rooms:
        r.sync()
    assert len({r.game.digest() for r in rooms}) == 1 and store.head(projector.id).seq == 1


def test_two_projectors_running_the_bots_never_double_a_move(store: RoomStore) -> None:
    bots = [Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")]
    a = Room.create(store, bots, seed=23, teacher=local_teacher(store))
    b = Room.open(store, a.code, teacher=local_teacher(store))
    stale = 0
    for i in range(400):
        first, second = (a, b) if i % 2 else (b, a)
        for room in (first, second):
            try:
                room.sync()
                room.step_bot()
            except StaleWrite:
                stale += 1
        if not a.is_open and not b.is_open:
            break
    a.sync()
    b.sync()
    assert a.is_over and a.game.digest() == b.game.digest()
    log = [x.notation for x in store.actions(a.id)]
    assert rebuild(a.setup, log)[0].digest() == a.game.digest()


KILL_MID_ACT = """
import sys, time
from sqlalchemy import event
from typhoon_edu.classroom import Room, RoomStore, local_teacher
url, code = sys.argv[1:3]
store = RoomStore(url)
room = Room.open(store, code, teacher=local_teacher(store))

@event.listens_for(store._engine, "after_cursor_execute")
def stop_inside(conn, cursor, statement, parameters, context, executemany):
    if statement.lstrip().upper().startswith("INSERT INTO TYPHOON_ACTIONS"):
        print("inside", flush=True)
        time.sleep(600)

room.act(room.game.legal_actions()[-1], teacher=True)
"""


def test_a_kernel_killed_in_the_middle_of_a_move_reopens_exactly(store: RoomStore, db_url: str) -> None:
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=29, teacher=local_teacher(store))
    for _ in range(8):
        room.act(room.game.legal_actions()[0], teacher=True)
    before = room.game.digest()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    child = subprocess.Popen([sys.executable, "-c", KILL_MID_ACT, db_url, room.code], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "inside", child.communicate()
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    reopened = Room.open(RoomStore(db_url, busy_timeout=20), room.code, teacher=local_teacher(RoomStore(db_url, busy_timeout=20)))
    assert reopened.game.digest() == before and reopened.seq == room.seq
    reopened.act(reopened.game.legal_actions()[-1], teacher=True)  # and the game goes on


# ---------------------------------------------------------------------- privacy
def test_a_device_sees_only_its_own_hand(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=31, teacher=local_teacher(store))
    korea = Room.open_seat(store, room.issued_tokens["Korea"])
    play_some = Room.open_seat(store, room.issued_tokens["Taiwan"])
    for _ in range(40):
        room.sync()
        if room.bot_to_move():
            room.step_bot()
        elif room.waiting_for == "Taiwan":
            play_some.sync()
            play_some.act(play_some.seat_view().legal_actions[0])
        else:
            break
    korea.sync()
    view = korea.seat_view()
    assert view.hand == room.game.hand("Korea") and "hands" not in view.observation
    assert not view.my_turn or view.region == "Korea"
    other_hands = {c for r in room.players if r != "Korea" for c in room.game.hand(r)}
    for e in korea.events():
        if isinstance(e, CardsDrawn) and e.player != "Korea":
            assert e.cards == ()
    drawn_elsewhere = [e for e in room.game.events if isinstance(e, CardsDrawn) and e.player != "Korea" and e.cards]
    assert drawn_elsewhere and other_hands  # there was something to hide
    for forbidden in (lambda: korea.game, lambda: korea.entries, lambda: korea.record(),
                      lambda: korea.seat_view("Taiwan"), lambda: korea.pause(), lambda: korea.undo(),
                      lambda: korea.revoke("Taiwan"), lambda: korea.set_seat("Taiwan", "greedy")):
        with pytest.raises(NotAllowed) as e:
            forbidden()
        assert e.value.kind == "teacher_only"


def test_the_projector_shows_no_hand(lite: RoomStore) -> None:
    room = Room.create(lite, PEOPLE_AND_BOTS, seed=31, teacher=local_teacher(lite))
    public = room.public_view()
    assert not {"hand", "you", "legal_actions"} & set(public.observation)
    assert public.names["Taiwan"] == "Mei" and public.waiting_for == "Taiwan"
    for e in room.events():  # the projector's log is the public one
        if isinstance(e, CardsDrawn):
            assert e.cards == ()
    assert all(not getattr(e, "cards", ()) for e in room.sync().events)
    text = json.dumps(public.observation)
    assert all(card not in text for card in room.game.hand("Taiwan"))


# ---------------------------------------------------------------------- teacher controls
def test_pause_stops_devices_and_bots_until_resume(store: RoomStore) -> None:
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea")], seed=37, teacher=local_teacher(store))
    device = Room.open_seat(store, room.issued_tokens["Taiwan"])
    room.pause()
    device.sync()
    assert device.paused
    with pytest.raises(NotAllowed) as e:
        device.act(device.seat_view().legal_actions[0])
    assert e.value.kind == "paused"
    with pytest.raises(NotAllowed):
        room.act(room.game.legal_actions()[0], teacher=True)
    assert room.bot_to_move() is None
    room.resume()
    device.sync()
    device.act(device.seat_view().legal_actions[0])


def test_giving_a_seat_to_a_bot_and_back(store: RoomStore) -> None:
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea")], seed=41, teacher=local_teacher(store))
    old = room.issued_tokens["Taiwan"]
    device = Room.open_seat(store, old)
    assert room.set_seat("Taiwan", "greedy") is None
    with pytest.raises(TokenRejected):  # the device's token died with the change
        device.sync()
    with pytest.raises(TokenRejected):
        Room.open_seat(store, old)
    assert room.bot_to_move() == "Taiwan"
    room.step_bot()
    new = room.set_seat("Taiwan", "person", name="Mei")
    assert new and new != old and room.issued_tokens["Taiwan"] == new
    back = Room.open_seat(store, new)
    assert back.display_name("Taiwan") == "Mei" and back.seat("Taiwan").joined
    with pytest.raises(SeatError):
        room.set_seat("Taiwan", "wizard")


def test_a_bot_that_was_thinking_when_its_seat_changed_is_refused(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan", "greedy"), Seat("Japan"), Seat("Korea")], seed=43, teacher=local_teacher(lite))
    job = room.prepare_bot()
    assert job is not None
    action = job.think()
    Room.open(lite, room.code, teacher=local_teacher(lite)).set_seat("Taiwan", "person")
    with pytest.raises(NotAllowed) as e:
        room.apply_bot(job, action)
    assert e.value.kind == "seat_changed" and lite.head(room.id).seq == 0


def test_revoke_stops_a_device_at_once_and_reissue_gives_a_new_one(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=47, teacher=local_teacher(store))
    token = room.issued_tokens["Taiwan"]
    device = Room.open_seat(store, token)
    action = device.seat_view().legal_actions[0]
    room.revoke("Taiwan")
    with pytest.raises(TokenRejected) as e:  # even before the device has synced
        device.act(action)
    assert e.value.kind == "token_revoked"
    with pytest.raises(TokenRejected):
        device.sync()
    with pytest.raises(TokenRejected) as e:
        Room.open_seat(store, token)
    assert e.value.kind == "token_revoked"
    assert store.head(room.id).seq == 0
    fresh = room.reissue_token("Taiwan")
    Room.open_seat(store, fresh).act(action)
    with pytest.raises(NotAllowed):
        room.reissue_token("Japan")  # a bot seat has no device


def test_end_closes_the_room_for_every_token(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=53, teacher=local_teacher(store))
    device = Room.open_seat(store, room.issued_tokens["Taiwan"])
    update = room.end()
    assert update.meta_changed and room.status == "ended"
    device.sync()  # an open device sees the end (and nothing else)
    assert device.status == "ended"
    with pytest.raises(TokenRejected) as e:
        device.act(device.seat_view().legal_actions[0] if device.seat_view().legal_actions else "pass")
    assert e.value.kind == "room_over"
    with pytest.raises(TokenRejected):
        Room.open_seat(store, room.issued_tokens["Korea"])
    assert room.bot_to_move() is None


def test_a_token_of_one_room_does_nothing_in_another(lite: RoomStore) -> None:
    a = Room.create(lite, PEOPLE_AND_BOTS, seed=59, teacher=local_teacher(lite))
    b = Room.create(lite, PEOPLE_AND_BOTS, seed=59, teacher=local_teacher(lite))
    with pytest.raises(TokenRejected) as e:
        b.act(b.game.legal_actions()[0], token=a.issued_tokens["Taiwan"])
    assert e.value.kind == "token_other_room"
    assert lite.head(b.id).seq == 0
    assert Room.open_seat(lite, a.issued_tokens["Taiwan"]).id == a.id


def test_undo_takes_back_a_persons_decision_in_every_view(store: RoomStore) -> None:
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea")], seed=61, teacher=local_teacher(store))
    device = Room.open_seat(store, room.issued_tokens["Taiwan"])
    before = room.game.digest()
    device.act(device.seat_view().legal_actions[0])
    room.sync()
    assert room.can_undo()
    update = room.undo()
    assert update.rebuilt and room.game.digest() == before
    assert [e.notation for e in store.actions(room.id)][-1] == UNDO
    synced = device.sync()
    assert synced.rebuilt and device.seat_view().observation == room.game.observation("Taiwan")
    with pytest.raises(IllegalActionError) as e:
        room.undo()
    assert e.value.kind == "undo_none"
    # a bot's decision is not the teacher's to take back, nor is anything across a die roll
    while room.bot_to_move() or room.waiting_for == "Taiwan":
        room.step_bot() if room.bot_to_move() else room.act(room.game.legal_actions()[0], teacher=True)
        if room.game.history and room.game.history[-1].kind == "die":
            break
    if room.game.history[-1].kind == "die":
        with pytest.raises(IllegalActionError) as e:
            room.undo()
        assert e.value.kind == "undo_die"


def test_undo_refuses_a_bots_decision(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan", "greedy"), Seat("Japan"), Seat("Korea")], seed=67, teacher=local_teacher(lite))
    room.step_bot()
    assert room.game.history[-1].kind != "die" and not room.can_undo()
    with pytest.raises(IllegalActionError) as e:
        room.undo()
    assert e.value.kind == "undo_not_person"


def test_a_mistyped_die_is_corrected_by_the_teacher(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=71, dice="manual", teacher=local_teacher(lite))
    while room.waiting_for != CHANCE:
        room.act(room.game.legal_actions()[0], teacher=True)
    room.act(2, teacher=True)
    expected = Game.new(["Taiwan", "Japan", "Korea"], seed=71, dice="manual")
    for a in room.game.history[:-1]:
        expected.apply(a)
    expected.apply(5)
    room.correct_die(5)
    assert room.game.digest() == expected.digest()
    assert [e.notation for e in lite.actions(room.id)][-2:] == ["die 2", "correct 5"]
    assert Room.open(lite, room.code, teacher=local_teacher(lite)).game.digest() == expected.digest()
    auto = Room.create(lite, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=71, teacher=local_teacher(lite))
    with pytest.raises(NotAllowed) as e:
        auto.correct_die(3)
    assert e.value.kind == "auto_dice"


# ---------------------------------------------------------------------- joining by code
def test_join_by_code_and_a_free_seat(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=73, teacher=local_teacher(store))
    assert lobby(store, room.code.lower()).free == ("Taiwan", "Korea")
    device, token = Room.join(store, room.code, "Korea")
    assert device.viewer == "Korea" and token not in room.issued_tokens.values()
    assert lobby(store, room.code).free == ("Taiwan",)
    with pytest.raises(SeatError) as e:
        Room.join(store, room.code, "Korea")
    assert e.value.kind == "seat_taken"
    with pytest.raises(TokenRejected):  # the link the projector showed for that seat no longer works
        Room.open_seat(store, room.issued_tokens["Korea"])
    with pytest.raises(NotAllowed):
        Room.join(store, room.code, "Japan")  # a bot's seat
    Room.open_seat(store, room.issued_tokens["Taiwan"])
    assert lobby(store, room.code).free == ()  # opening a link joins the seat too
    assert room.sync().meta_changed and room.seat("Taiwan").joined
    # the link of the seat joined by its QR code still stands; the seat joined by code has no link to show
    assert room.join_links() == {"Taiwan": room.issued_tokens["Taiwan"]}


def test_joining_needs_a_real_code_and_seat(lite: RoomStore) -> None:
    room = Room.create(lite, PEOPLE_AND_BOTS, seed=75, teacher=local_teacher(lite))
    with pytest.raises(SeatError) as e:
        Room.join(lite, room.code, "Atlantis")
    assert e.value.kind == "no_such_seat"
    with pytest.raises(SeatError) as e:
        Room.join(lite, room.code, "CentralChina")  # a region, but not in this game
    assert e.value.kind == "no_such_seat"
    with pytest.raises(RoomNotFound) as e2:
        Room.join(lite, "O0O0O", "Taiwan")
    assert e2.value.kind == "bad_code"
    assert lobby(lite, room.code).free == ("Taiwan", "Korea")


def test_a_reopened_projector_shows_the_same_join_links_and_reissues_none(lite: RoomStore) -> None:
    room = Room.create(lite, PEOPLE_AND_BOTS, seed=79, teacher=local_teacher(lite))
    version = lite.head(room.id).version
    reopened = Room.open(lite, room.code, teacher=local_teacher(lite))
    assert reopened.issued_tokens == {}
    assert reopened.join_links() == room.issued_tokens  # the QR codes on the wall still work
    assert lite.head(room.id).version == version  # opening and showing changed nothing in the store
    Room.open_seat(lite, room.issued_tokens["Taiwan"])
    # only the teacher's explicit "New join link" replaces a link
    new = reopened.reissue_token("Korea")
    with pytest.raises(TokenRejected):
        Room.open_seat(lite, room.issued_tokens["Korea"])
    assert Room.open(lite, room.id, teacher=local_teacher(lite)).join_links()["Korea"] == new


def test_links_made_with_another_secret_are_not_shown(lite: RoomStore) -> None:
    room = Room.create(lite, PEOPLE_AND_BOTS, seed=79, teacher=local_teacher(lite))
    lite.link_secret = b"another computer's secret, 32 bytes"
    assert Room.open(lite, room.id, teacher=local_teacher(lite)).join_links() == {}


# ---------------------------------------------------------------------- listing, broken rows
def test_list_rooms_names_broken_rooms_and_keeps_the_others(store: RoomStore) -> None:
    good = Room.create(store, PEOPLE_AND_BOTS, seed=83, teacher=local_teacher(store))
    good.act(good.game.legal_actions()[0], teacher=True)
    bad_setup = Room.create(store, PEOPLE_AND_BOTS, seed=84, teacher=local_teacher(store))
    bad_move = Room.create(store, PEOPLE_AND_BOTS, seed=85, teacher=local_teacher(store))
    bad_rules = Room.create(store, PEOPLE_AND_BOTS, seed=86, teacher=local_teacher(store))
    with store._engine.begin() as conn:
        conn.execute(sa.update(ROOMS).where(ROOMS.c.id == bad_setup.id).values(setup="{not json"))
        conn.execute(sa.insert(ACTIONS).values(room_id=bad_move.id, seq=1, notation="place 0,0", by_seat="x", at=0.0))
        conn.execute(sa.update(ROOMS).where(ROOMS.c.id == bad_move.id).values(head=1, version=ROOMS.c.version + 1))
        setup = json.loads(conn.execute(sa.select(ROOMS.c.setup).where(ROOMS.c.id == bad_rules.id)).scalar())
        setup["rules_digest"] = "0000"
        conn.execute(sa.update(ROOMS).where(ROOMS.c.id == bad_rules.id).values(setup=json.dumps(setup)))
    infos = {i.id: i for i in list_rooms(store, teacher=local_teacher(store))}
    assert infos[good.id].ok and infos[good.id].seq == 1 and infos[good.id].players[0] == "Taiwan"
    assert (infos[bad_setup.id].ok, infos[bad_setup.id].kind) == (False, "setup")
    assert (infos[bad_move.id].ok, infos[bad_move.id].kind) == (False, "replay")
    assert "place 0,0" in infos[bad_move.id].error
    assert (infos[bad_rules.id].ok, infos[bad_rules.id].kind) == (False, "rules")
    for broken, kind in ((bad_setup, "setup"), (bad_move, "replay"), (bad_rules, "rules")):
        with pytest.raises(RoomBroken) as e:
            Room.open(store, broken.code, teacher=local_teacher(store))
        assert e.value.kind == kind
    with pytest.raises(RoomBroken):  # a view that was open when the bad entry arrived is told too
        bad_move.sync()
    assert Room.open(store, good.code, teacher=local_teacher(store)).seq == 1


def test_a_room_stored_with_the_old_bytes_digest_of_the_rules_still_opens(store: RoomStore) -> None:
    """Rooms made before 0.1.0 record the digest of the rules files' bytes: the same rules, so they open."""
    import hashlib

    from typhoon_edu.engine.rules import DATA_DIR, DATA_FILES

    room = Room.create(store, PEOPLE_AND_BOTS, seed=87, teacher=local_teacher(store))
    room.act(room.game.legal_actions()[0], teacher=True)
    old = hashlib.sha256(b"".join((DATA_DIR / n).read_bytes() for n in DATA_FILES)).hexdigest()[:16]
    with store._engine.begin() as conn:
        setup = json.loads(conn.execute(sa.select(ROOMS.c.setup).where(ROOMS.c.id == room.id)).scalar())
        assert setup["rules_digest"] != old
        setup["rules_digest"] = old
        conn.execute(sa.update(ROOMS).where(ROOMS.c.id == room.id).values(setup=json.dumps(setup)))
    again = Room.open(store, room.code, teacher=local_teacher(store))
    assert again.seq == 1 and again.game.digest() == room.game.digest()


def test_rows_with_damaged_values_are_listed_as_broken(lite: RoomStore, tmp_path: Path) -> None:
    import sqlite3

    good = Room.create(lite, PEOPLE_AND_BOTS, seed=90, teacher=local_teacher(lite))
    odd_row = Room.create(lite, PEOPLE_AND_BOTS, seed=91, teacher=local_teacher(lite))
    odd_seq = Room.create(lite, PEOPLE_AND_BOTS, seed=92, teacher=local_teacher(lite))
    odd_kind = Room.create(lite, PEOPLE_AND_BOTS, seed=93, teacher=local_teacher(lite))
    odd_seq.act(odd_seq.game.legal_actions()[0], teacher=True)
    with sqlite3.connect(tmp_path / "rooms.sqlite3") as conn:  # a hand-edited database
        conn.execute("UPDATE typhoon_rooms SET created = 'yesterday', status = 'lost' WHERE id = ?", (odd_row.id,))
        conn.execute("UPDATE typhoon_actions SET seq = 'one' WHERE room_id = ?", (odd_seq.id,))
        conn.execute("UPDATE typhoon_seats SET kind = 'wizard' WHERE room_id = ? AND idx = 1", (odd_kind.id,))
    infos = {i.id: i for i in list_rooms(lite, teacher=local_teacher(lite))}
    assert infos[good.id].ok
    assert (infos[odd_row.id].ok, infos[odd_row.id].kind) == (False, "setup") and "created" in infos[odd_row.id].error
    assert (infos[odd_seq.id].ok, infos[odd_seq.id].kind) == (False, "replay")
    assert (infos[odd_kind.id].ok, infos[odd_kind.id].kind) == (False, "setup") and "wizard" in infos[odd_kind.id].error
    for broken in (odd_row, odd_seq, odd_kind):
        with pytest.raises(RoomBroken):
            Room.open(lite, broken.id, teacher=local_teacher(lite))


def test_bot_levels_are_seat_kinds(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan", "easy"), Seat("Japan", "medium"), Seat("Korea")], seed=94, teacher=local_teacher(lite))
    assert [s.kind for s in room.seats] == ["random", "greedy", "person"]
    room.set_seat("Korea", "hard")
    assert room.seat("Korea").kind == "mcts"


def test_list_rooms_remembers_replays(lite: RoomStore, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(3):
        Room.create(lite, PEOPLE_AND_BOTS, seed=seed, teacher=local_teacher(lite))
    list_rooms(lite, teacher=local_teacher(lite))
    calls = []
    import typhoon_edu.classroom.rooms as rooms_mod

    monkeypatch.setattr(rooms_mod, "rebuild", lambda *a, **k: calls.append(a) or rebuild(*a, **k))
    assert len(list_rooms(lite, teacher=local_teacher(lite))) == 3 and calls == []


# ---------------------------------------------------------------------- results
def test_results_match_the_dashboard_session(lite: RoomStore, tmp_path: Path) -> None:
    from typhoon_edu.ui.classplay.session import ClassSession

    room = Room.create(lite, [Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")], seed=89, teacher=local_teacher(lite))
    while room.bot_to_move():
        room.step_bot()
    assert room.is_over
    path = tmp_path / "game.json"
    path.write_text(room.record_json(), encoding="utf-8")
    session = ClassSession.resume(path)  # the dashboard reads the room's record
    assert session.game.digest() == room.game.digest()
    assert room.summary() == session.summary() and room.events_csv() == session.events_csv()
    # the HP track: full HP, then the HP after every log entry that dealt damage (and at the end)
    g = Game.new(list(room.players), seed=89, dice="manual")
    expected = [dict(g.hp)]
    for a in lite.actions(room.id):
        events = g.apply(a.notation)
        if any(isinstance(e, DamageDealt) for e in events) or g.is_over:
            expected.append(dict(g.hp))
    assert room.hp_track == expected and len(expected) > 2 and expected[-1] == room.game.hp
    assert Room.open(lite, room.code, teacher=local_teacher(lite)).hp_track == expected


def test_error_texts_exist_for_every_kind_in_both_languages() -> None:
    from typhoon_edu import i18n
    from typhoon_edu.classroom.errors import KINDS

    for kind in KINDS:
        for lang in ("en", "zh-TW"):
            assert i18n.has(f"classroom.error.{kind}", lang), (kind, lang)
    source = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "typhoon_edu" / "classroom").glob("*.py"))
    import re

    used = set(re.findall(r'kind="([a-z_]+)"', source)) - {"damaged", "unreadable", "not_json", "undo_die",
                                                            "undo_none", "undo_not_person"}
    assert used <= set(KINDS), used - set(KINDS)


# ---------------------------------------------------------------------- the teacher's turn timer
def _timed_room(store: RoomStore) -> Room:
    return Room.create(store, PEOPLE_AND_BOTS, seed=31, lang="en", teacher=local_teacher(store))


def test_the_turn_timer_is_kept_in_the_room_and_counts_only_a_persons_decision(store: RoomStore) -> None:
    import time

    room = _timed_room(store)
    assert room.turn_seconds == 0 and room.turn_deadline() is None
    assert room.waiting_for == "Taiwan"  # a person decides first
    before = time.time()
    update = room.set_turn_timer(30)
    assert update.meta_changed and room.turn_seconds == 30
    assert before + 30 <= room.turn_deadline() <= time.time() + 30
    reopened = Room.open(store, room.code, teacher=local_teacher(store))  # a projector reloaded
    assert reopened.turn_seconds == 30 and reopened.turn_deadline() == room.turn_deadline()
    phone = Room.open_seat(store, room.issued_tokens["Taiwan"], "phone-1")
    assert phone.turn_deadline() == room.turn_deadline()  # the phone can show the same countdown
    deadline = room.turn_deadline()
    phone.act(phone.seat_view().legal_actions[0])
    room.sync()
    if room.waiting_for == "Taiwan":  # the same team decides again: a new count for the new decision
        assert room.turn_deadline() > deadline
    while room.bot_to_move():
        room.step_bot()
        if room.waiting_for in ("Japan", "Philippines"):
            assert room.turn_deadline() is None  # a bot's turn is never timed
    room.pause()
    assert room.turn_deadline() is None  # no count while paused
    room.resume()
    assert room.turn_deadline() is not None and room.turn_deadline() >= time.time() + 29
    room.set_turn_timer(0)
    assert room.turn_deadline() is None and Room.open(store, room.code, teacher=local_teacher(store)).turn_seconds == 0


@pytest.mark.parametrize("bad", [5, 9, 601, -10, 1.5, True, "30", None])
def test_a_turn_timer_out_of_range_is_refused_and_changes_nothing(lite: RoomStore, bad: object) -> None:
    room = _timed_room(lite)
    room.set_turn_timer(60)
    before = lite.snapshot(room.id)
    with pytest.raises(ValueError, match=r"0 \(off\) or 10 to 600 seconds"):
        room.set_turn_timer(bad)  # type: ignore[arg-type]
    assert lite.snapshot(room.id) == before and room.turn_seconds == 60


@pytest.mark.parametrize("seconds", [0, 10, 600])
def test_the_ends_of_the_turn_timers_range_are_allowed(lite: RoomStore, seconds: int) -> None:
    room = _timed_room(lite)
    room.set_turn_timer(seconds)
    assert lite.room(room.id).turn_seconds == seconds


def test_a_students_room_cannot_set_the_turn_timer_or_play_for_time(lite: RoomStore) -> None:
    room = _timed_room(lite)
    phone = Room.open_seat(lite, room.issued_tokens["Taiwan"], "phone-1")
    watcher = Room.open(lite, room.code, teacher=None)
    before = lite.snapshot(room.id)
    for other in (phone, watcher):
        for call in (lambda r: r.set_turn_timer(10), lambda r: r.play_for_time(now=10**12)):
            with pytest.raises(NotAllowed) as e:
                call(other)
            assert e.value.kind == "teacher_only"
    assert lite.snapshot(room.id) == before


def test_when_the_time_runs_out_the_easy_bot_plays_the_teams_turn(store: RoomStore) -> None:
    room = _timed_room(store)
    room.set_turn_timer(10)
    deadline = room.turn_deadline()
    assert not room.play_for_time(now=deadline - 0.5) and room.seq == 0  # time is left: nothing happens
    update = room.play_for_time(now=deadline + 0.1)
    assert update.entries and update.entries[0].by == "timer" and room.seq >= 1
    logged = store.actions(room.id)
    assert logged[0].by == "timer" and logged[0].notation == update.entries[0].notation
    again = rebuild(room.setup, [a.notation for a in logged])[0]
    assert again.history[0].notation == logged[0].notation  # a legal move of the team's, replayable
    phone = Room.open_seat(store, room.issued_tokens["Taiwan"], "phone-1")
    assert phone.seq == room.seq


def test_a_teams_move_that_reached_the_store_first_beats_the_timer(store: RoomStore) -> None:
    room = _timed_room(store)
    room.set_turn_timer(10)
    deadline = room.turn_deadline()
    phone = Room.open_seat(store, room.issued_tokens["Taiwan"], "phone-1")
    phone.act(phone.seat_view().legal_actions[0])  # the team decided at the last moment
    with pytest.raises(StaleWrite):
        room.play_for_time(now=deadline + 1)  # the projector had not seen it yet: harmless
    assert [a.by for a in store.actions(room.id)][0] == "Taiwan" and len(store.actions(room.id)) == phone.seq
    room.sync()
    assert room.entries[0].by == "Taiwan"


def test_two_projectors_play_an_expired_turn_once(store: RoomStore) -> None:
    room = _timed_room(store)
    room.set_turn_timer(10)
    second = Room.open(store, room.code, teacher=local_teacher(store))  # the same room on another screen
    late = room.turn_deadline() + 1
    assert room.play_for_time(now=late).entries
    with pytest.raises(StaleWrite):
        second.play_for_time(now=late)  # it had not seen the first one's move: refused, nothing written
    assert [a.by for a in store.actions(room.id)].count("timer") == 1


# ---------------------------------------------------------------------- security review
def test_a_one_computer_room_hands_no_seat_to_a_device(store: RoomStore) -> None:
    """A student who reads the room code off the wall gets no team's hand when the class plays on one computer."""
    room = Room.create(store, PEOPLE_AND_BOTS, seed=101, lang="en", options={"devices": False},
                       teacher=local_teacher(store))
    assert room.issued_tokens == {} and room.join_links() == {}
    assert lobby(store, room.code).free == ()
    before = (store.seats(room.id), store.head(room.id).version)
    with pytest.raises(SeatError) as e:
        Room.join(store, room.code, "Taiwan", "phone-1")
    assert e.value.kind == "no_devices"
    from typhoon_edu.classroom.errors import error_text

    assert "one computer" in error_text(e.value, "en") and "一臺電腦" in error_text(e.value, "zh-TW")
    with pytest.raises(SeatError) as e:
        room.reissue_token("Korea")  # no "new join link" either
    assert e.value.kind == "no_devices"
    assert (store.seats(room.id), store.head(room.id).version) == before
    room.set_seat("Japan", "greedy")
    assert room.set_seat("Philippines", "person") is None  # a seat given to a person gets no link
    assert all(s.token_hash is None for s in store.seats(room.id))
    assert room.act(room.seat_view("Taiwan").legal_actions[0], teacher=True).entries  # the teacher still plays
    # a room with devices is unchanged
    phones = Room.create(store, PEOPLE_AND_BOTS, seed=101, lang="en", options={"devices": True},
                         teacher=local_teacher(store))
    assert lobby(store, phones.code).free == ("Taiwan", "Korea") and sorted(phones.issued_tokens) == ["Korea", "Taiwan"]


def test_one_device_cannot_hold_two_seats_of_a_room(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=103, lang="en", teacher=local_teacher(store))
    korea_link = room.issued_tokens["Korea"]
    phone, token = Room.join(store, room.code, "Taiwan", "phone-1")
    before = (store.seats(room.id), store.head(room.id).version)
    with pytest.raises(SeatError) as e:  # a second tab, or a crafted message to the join page's seat buttons
        Room.join(store, room.code, "Korea", "phone-1")
    assert e.value.kind == "device_has_seat"
    with pytest.raises(SeatError) as e:
        Room.open_seat(store, korea_link, "phone-1")
    assert e.value.kind == "device_has_seat"
    assert (store.seats(room.id), store.head(room.id).version) == before
    assert lobby(store, room.code).free == ("Korea",)
    assert Room.open_seat(store, token, "phone-1").viewer == "Taiwan"  # a reload opens its own seat again
    # the teacher's "New join link" frees the device from its seat: it may then take another one
    room.reissue_token("Taiwan")
    assert Room.open_seat(store, korea_link, "phone-1").viewer == "Korea"
    # the teacher's "Reset device": another device opens the seat's link
    room.reset_device("Korea")
    assert Room.open_seat(store, korea_link, "phone-2").viewer == "Korea"


def test_an_expected_seq_ahead_of_the_room_is_refused_as_stale_and_breaks_nothing(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=107, lang="en", teacher=local_teacher(store))
    token = room.issued_tokens["Taiwan"]
    fresh = Room.open_seat(store, token, "phone-1")
    stale = Room.open_seat(store, token, "phone-1")  # a second page of the same seat, which has not synced
    place = fresh.seat_view().legal_actions[0]
    fresh.act(place)
    with pytest.raises(StaleWrite):  # the store's next number, checked against the stale game: refused
        stale.act(place, expected_seq=fresh.next_seq)
    assert [a.notation for a in store.actions(room.id)] == [place.notation]
    assert stale.seq == fresh.seq  # it caught up
    Room.open(store, room.code, teacher=local_teacher(store))  # no RoomBroken
    fresh.sync()
    # the teacher's undo and die correction check the same way
    room.sync()
    other = Room.open(store, room.code, teacher=local_teacher(store))
    assert other.can_undo()  # on its screen, Taiwan's first placement is the last decision
    room.act(room.seat_view(room.waiting_for).legal_actions[0], teacher=True)  # a decision the other has not seen
    with pytest.raises(StaleWrite):
        other.undo(expected_seq=room.next_seq)  # it would take back a decision it never showed
    assert UNDO not in [a.notation for a in store.actions(room.id)]
    with pytest.raises(StaleWrite):
        room.undo(expected_seq=room.next_seq + 3)
    assert store.head(room.id).seq == room.seq


def test_the_hint_is_computed_on_a_copy_taken_when_it_is_asked(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE_AND_BOTS, seed=109, lang="en", teacher=local_teacher(store))
    phone = Room.open_seat(store, room.issued_tokens["Taiwan"], "phone-1")
    job = phone.prepare_hint("Taiwan", iterations=8)  # on the page's loop: checks, and a copy of the game
    assert job.game is not phone._game and job.game.digest() == phone._game.digest()
    digest = job.game.digest()
    phone.act(phone.seat_view().legal_actions[0])  # the live game moves on while the worker thinks
    assert job.game.digest() == digest
    hint = job.think()  # what the worker thread runs
    assert hint.player == "Taiwan"
    room.set_hints(False)
    phone.sync()
    with pytest.raises(NotAllowed):
        phone.prepare_hint("Taiwan")


def test_a_one_computer_room_made_with_seat_links_by_an_older_version_neither_shows_nor_opens_them(
        lite: RoomStore) -> None:
    from typhoon_edu.classroom.codes import token_hash
    from typhoon_edu.classroom.links import new_nonce, seat_link_token

    room = Room.create(lite, PEOPLE_AND_BOTS, seed=113, lang="en", options={"devices": False},
                       teacher=local_teacher(lite))
    nonce = new_nonce()  # as Room.create made them before the fix
    link = seat_link_token(lite.link_secret, room.id, "Taiwan", nonce)
    lite.update_seat(room.id, "Taiwan", token_hash=token_hash(link), link_nonce=nonce)
    again = Room.open(lite, room.code, teacher=local_teacher(lite))
    assert again.join_links() == {}
    with pytest.raises(SeatError) as e:
        Room.open_seat(lite, link, "phone-1")
    assert e.value.kind == "no_devices" and lite.seats(room.id)[0].device_hash is None
