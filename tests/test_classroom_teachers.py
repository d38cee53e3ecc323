"""The teacher is in charge: every teacher action is checked by the room against the owner's key.

Each action is tried with a student's credential (a seat's room), with no credential (a room
opened without a teacher), and by another teacher; each must be refused with nothing written,
and the same action must work for the teacher who owns the room (so the refusals are not a
room that refuses everything).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

import pytest

from typhoon_edu.classroom.errors import NotAllowed, SeatError, TokenRejected
from typhoon_edu.classroom.records import import_record
from typhoon_edu.classroom.rooms import Room, Seat, list_rooms
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import Teacher, add_teacher, local_teacher
from typhoon_edu.engine.game import SEED_LIMIT, Game

PEOPLE = [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea")]


@pytest.fixture
def store() -> RoomStore:
    return RoomStore("sqlite://")


@pytest.fixture
def lin(store: RoomStore) -> Teacher:
    return add_teacher(store, "Ms Lin")[0]


def _room(store: RoomStore, owner: Teacher, dice: str = "auto") -> Room:
    room = Room.create(store, PEOPLE, seed=7, lang="en", teacher=owner, dice=dice)
    room.act(room.game.legal_actions()[0], teacher=True)  # something to undo
    return room


#: Every teacher action of the room API, as (name, call). Each is made on a fresh room.
ACTIONS: list[tuple[str, Callable[[Room], Any]]] = [
    ("pause", lambda r: r.pause()),
    ("resume", lambda r: r.resume()),
    ("undo", lambda r: r.undo()),
    ("give a seat to a bot", lambda r: r.set_seat("Taiwan", "greedy")),
    ("give a seat back to a person", lambda r: r.set_seat("Japan", "person")),
    ("rename a seat", lambda r: r.rename_seat("Taiwan", "X")),
    ("revoke a device", lambda r: r.revoke("Taiwan")),
    ("new join link", lambda r: r.reissue_token("Korea")),
    ("show the join links", lambda r: r.join_links()),
    ("reset a seat's device", lambda r: r.reset_device("Taiwan")),
    ("hand the room over", lambda r: r.handover_link()),
    ("hints switch", lambda r: r.set_hints(False)),
    ("turn timer", lambda r: r.set_turn_timer(30)),
    ("play a turn whose time ran out", lambda r: r.play_for_time(now=10**12)),
    ("language", lambda r: r.set_lang("zh-TW")),
    ("end the game", lambda r: r.end()),
    ("export the record", lambda r: r.record()),
    ("export the record as JSON", lambda r: r.record_json()),
    ("review", lambda r: r.review(iterations=10)),
    ("decide for a person seat (one computer)", lambda r: r.act(r.seat_view("Japan").legal_actions[0]
                                                                 if r.waiting_for == "Japan" else "pass",
                                                                 teacher=True)),
    ("see a seat's hand (the curtain)", lambda r: r.seat_view("Taiwan")),
    ("a seat's hint on the projector", lambda r: r.hint("Taiwan", iterations=10)),
    ("run a bot", lambda r: r.apply_bot(r.prepare_bot() or _job(r), None)),
    ("see the whole game", lambda r: r.game),
    ("read the log", lambda r: r.entries),
    ("delete the room", lambda r: r.delete()),
]


def _job(room: Room) -> Any:
    from typhoon_edu.classroom.rooms import BotJob

    return BotJob("Japan", "greedy", room.next_seq, room._game.clone())


def _state(store: RoomStore, room_id: str) -> tuple[Any, ...]:
    snap = store.snapshot(room_id)
    return (snap.room, snap.seats, snap.actions)


@pytest.mark.parametrize("name,action", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_a_students_page_cannot_do_any_teacher_action(store: RoomStore, lin: Teacher, name: str,
                                                      action: Callable[[Room], Any]) -> None:
    room = _room(store, lin)
    phone = Room.open_seat(store, room.issued_tokens["Korea"], "phone-1")
    before = _state(store, room.id)
    with pytest.raises(NotAllowed) as e:
        action(phone)
    assert e.value.kind == "teacher_only", (name, e.value)
    assert _state(store, room.id) == before, name


@pytest.mark.parametrize("name,action", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_a_page_without_a_teachers_key_cannot_do_any_teacher_action(store: RoomStore, lin: Teacher, name: str,
                                                                   action: Callable[[Room], Any]) -> None:
    room = _room(store, lin)
    watcher = Room.open(store, room.code, teacher=None)  # what a page without a key could open
    assert watcher.public_view().seq == room.seq  # it may watch the public board
    before = _state(store, room.id)
    with pytest.raises(NotAllowed) as e:
        action(watcher)
    assert e.value.kind == "teacher_only", (name, e.value)
    assert _state(store, room.id) == before, name


@pytest.mark.parametrize("name,action", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_a_room_handed_over_is_no_longer_the_old_teachers(store: RoomStore, lin: Teacher, name: str,
                                                          action: Callable[[Room], Any]) -> None:
    room = _room(store, lin)
    chen, _ = add_teacher(store, "Mr Chen")
    Room.take(store, room.handover_link(), teacher=chen)
    before = _state(store, room.id)
    stale_copy = room  # Ms Lin's projector, still open in her kernel
    with pytest.raises(NotAllowed) as e:
        action(stale_copy)
        if name in ("see the whole game", "read the log", "see a seat's hand (the curtain)",
                    "a seat's hint on the projector", "show the join links"):
            stale_copy.sync()  # reads of what her kernel has: refused once it has seen the new owner
            action(stale_copy)
    assert e.value.kind == "not_your_room", (name, e.value)
    assert _state(store, room.id) == before, name


@pytest.mark.parametrize("name,action", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_the_owner_can_do_each_action(store: RoomStore, lin: Teacher, name: str,
                                      action: Callable[[Room], Any]) -> None:
    room = _room(store, lin)
    if name == "reset a seat's device":
        Room.open_seat(store, room.issued_tokens["Taiwan"], "phone-1")
        room.sync()
    if name == "run a bot":
        while room.waiting_for != "Japan":
            room.act(room.seat_view(room.waiting_for).legal_actions[0], teacher=True)
        job = room.prepare_bot()
        assert job is not None
        room.apply_bot(job, job.think())
        return
    if name in ("a seat's hint on the projector",):
        while room.waiting_for != "Taiwan":
            if room.waiting_for == "Japan":
                room.step_bot()
            else:
                room.act(room.seat_view(room.waiting_for).legal_actions[0], teacher=True)
    if name.startswith("decide for a person seat"):
        room.act(room.seat_view(room.waiting_for).legal_actions[0], teacher=True)
        return
    action(room)  # raises if refused


def test_setting_up_and_importing_need_a_teacher(store: RoomStore, lin: Teacher) -> None:
    with pytest.raises(NotAllowed):
        Room.create(store, PEOPLE, teacher=None)  # type: ignore[arg-type]
    record = _room(store, lin).record_json()
    with pytest.raises(NotAllowed):
        import_record(store, record, teacher=None)  # type: ignore[arg-type]
    copy = import_record(store, record, teacher=lin)
    assert copy.owner == lin.id


def test_each_teacher_sees_and_opens_only_their_own_rooms(store: RoomStore, lin: Teacher) -> None:
    chen, _ = add_teacher(store, "Mr Chen")
    mine = _room(store, lin)
    his = _room(store, chen)
    old = _room(store, local_teacher(store))
    assert [i.code for i in list_rooms(store, teacher=lin)] == [mine.code]
    assert [i.code for i in list_rooms(store, teacher=chen)] == [his.code]
    assert [i.code for i in list_rooms(store, teacher=local_teacher(store))] == [old.code]
    assert list_rooms(store, teacher=None) == []
    with pytest.raises(NotAllowed) as e:
        Room.open(store, his.code, teacher=lin)
    assert e.value.kind == "not_your_room"


def test_a_handover_link_works_once_and_the_latest_one_only(store: RoomStore, lin: Teacher) -> None:
    room = _room(store, lin)
    chen, _ = add_teacher(store, "Mr Chen")
    first = room.handover_link()
    second = room.handover_link()
    with pytest.raises(TokenRejected) as e:
        Room.take(store, first, teacher=chen)
    assert e.value.kind == "handover_unknown"
    taken = Room.take(store, second, teacher=chen)
    assert taken.owner == chen.id and taken.join_links() == room.issued_tokens
    with pytest.raises(TokenRejected):
        Room.take(store, second, teacher=lin)
    with pytest.raises(NotAllowed):
        Room.take(store, second, teacher=None)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- join links and devices
def test_opening_a_room_never_reissues_a_link(store: RoomStore, lin: Teacher) -> None:
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=lin)
    before = _state(store, room.id)
    for _ in range(3):
        again = Room.open(store, room.code, teacher=lin)
        assert again.join_links() == room.issued_tokens
    assert _state(store, room.id) == before
    for token in room.issued_tokens.values():
        assert Room.open_seat(store, token, f"device-{token[:4]}").viewer in ("Taiwan", "Korea")


def test_a_seat_link_stays_with_the_first_device_until_the_teacher_resets_it(store: RoomStore, lin: Teacher) -> None:
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=lin)
    link = room.issued_tokens["Taiwan"]
    phone = Room.open_seat(store, link, "phone-of-team-taiwan")
    assert Room.open_seat(store, link, "phone-of-team-taiwan").viewer == "Taiwan"  # a reload
    for other in ("photographed-it", None, ""):
        with pytest.raises(TokenRejected) as e:
            Room.open_seat(store, link, other)
        assert e.value.kind == "device_bound"
    room.sync()
    assert room.seat("Taiwan").bound
    room.reset_device("Taiwan")
    assert not room.seat("Taiwan").bound
    assert Room.open_seat(store, link, "the-spare-tablet").viewer == "Taiwan"
    with pytest.raises(TokenRejected):
        Room.open_seat(store, link, "phone-of-team-taiwan")
    phone.sync()  # the first phone's open room still plays (its token was not changed)
    assert phone.seat_view().region == "Taiwan"


def test_joining_by_code_binds_the_device_and_a_reload_gets_the_seat_back(store: RoomStore, lin: Teacher) -> None:
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=lin)
    device, token = Room.join(store, room.code, "Korea", "tablet-7")
    assert device.viewer == "Korea"
    assert Room.open_seat(store, token, "tablet-7").viewer == "Korea"  # the reload of the replaced address
    with pytest.raises(TokenRejected) as e:
        Room.open_seat(store, token, "someone-elses-phone")
    assert e.value.kind == "device_bound"
    with pytest.raises(SeatError):
        Room.join(store, room.code, "Korea", "tablet-7")  # joining again is not the way back: the link is


def test_a_new_join_link_is_the_only_way_a_link_changes(store: RoomStore, lin: Teacher) -> None:
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=lin)
    old = room.issued_tokens["Taiwan"]
    Room.open_seat(store, old, "phone-1")
    new = room.reissue_token("Taiwan")
    assert new != old
    with pytest.raises(TokenRejected):
        Room.open_seat(store, old, "phone-1")
    assert Room.open_seat(store, new, "phone-2").viewer == "Taiwan"  # a fresh link is free for any device


# ---------------------------------------------------------------------- names and seeds
@pytest.mark.parametrize("raw,clean", [("Mei\u202e04", "Mei04"), ("\u2067Ann\u2069", "Ann"),
                                       ("A\u200b\u200dB", "AB"), ("tab\there", "tab here"),
                                       ("\x1b[31mRed", "[31mRed")])
def test_names_lose_bidi_and_control_characters_everywhere(store: RoomStore, lin: Teacher, raw: str,
                                                           clean: str) -> None:
    from typhoon_edu.ui.classplay.model import SeatInfo, seat_label

    room = Room.create(store, [Seat("Taiwan", name=raw), Seat("Japan", "greedy"), Seat("Korea")], seed=3,
                       lang="en", teacher=lin)
    assert room.seat("Taiwan").name == clean and room.display_name("Taiwan") == clean
    room.rename_seat("Korea", raw)
    assert room.seat("Korea").name == clean
    label = seat_label({"Taiwan": SeatInfo("Taiwan", "person", raw)}, "Taiwan", "en")
    assert clean in label and not any(c in label for c in "\u202e\u2067\u2069\u200b\x1b")


def test_names_in_a_saved_session_are_cleaned_when_read(tmp_path: Any) -> None:
    from typhoon_edu.ui.classplay.session import ClassSession
    from typhoon_edu.ui.classplay.session import Seat as SessionSeat

    s = ClassSession.start([SessionSeat("Taiwan", "person", "40\u202e"), SessionSeat("Japan", "greedy"),
                            SessionSeat("Korea", "random")], seed=2, save_dir=tmp_path)
    assert s.display_name("Taiwan") == "40"
    path = s.save_path
    data = json.loads(path.read_text())
    data["session"]["seats"][0]["name"] = "Mei\u202e04"
    path.write_text(json.dumps(data))
    assert ClassSession.resume(path).display_name("Taiwan") == "Mei04"


def test_new_seeds_have_63_bits_from_secrets_and_records_replay(store: RoomStore, lin: Teacher,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = [Game.new(["Taiwan", "Japan", "Korea"]).seed for _ in range(40)]
    assert all(0 <= s < SEED_LIMIT for s in seeds)
    assert max(seeds) >= 2**40  # with 63 random bits, 40 seeds all below 2**40 has odds of 2**-920
    drawn = []
    real = secrets.randbits

    def spy(k: int) -> int:
        drawn.append(k)
        return real(k)

    monkeypatch.setattr(secrets, "randbits", spy)
    room = Room.create(store, [Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")],
                       teacher=lin)
    assert drawn == [63]
    for _ in range(30):
        room.step_bot()
    copy = import_record(store, room.record_json(), teacher=lin)
    assert copy.setup["seed"] == room.setup["seed"] and copy.game.digest() == room.game.digest()
    big = Game.new(["Taiwan", "Japan", "Korea"], seed=2**63 - 1)
    from typhoon_edu.engine.savefile import game_from_json, game_to_json

    big.apply(big.legal_actions()[0])
    assert game_from_json(game_to_json(big)).digest() == big.digest()
