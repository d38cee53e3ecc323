"""A school server's admin takes a colleague's teacher key away (``teacher remove``) or replaces a leaked one
(``teacher new-key``): the key stops working at once, also in a page already open with it, and nothing is lost
(the removed teacher's rooms go to the local teacher, who opens them on the server)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from typhoon_edu.classroom.errors import NotAllowed
from typhoon_edu.classroom.lesson_rounds import LessonRounds
from typhoon_edu.classroom.rooms import Room, Seat, list_rooms
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import (
    TeacherNotFound,
    add_teacher,
    find_teacher,
    local_teacher,
    remove_teacher,
    replace_key,
    teacher_for_key,
    teachers,
)
from typhoon_edu.cli import main

PEOPLE = [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea")]


def _room(store: RoomStore, owner) -> Room:
    room = Room.create(store, PEOPLE, seed=7, lang="en", teacher=owner)
    room.act(room.game.legal_actions()[0], teacher=True)
    return room


def test_a_removed_key_stops_at_once_and_the_rooms_go_to_the_local_teacher(db_url: str) -> None:
    store = RoomStore(db_url)
    lin, key = add_teacher(store, "Ms Lin")
    chen, chen_key = add_teacher(store, "Mr Chen")
    room, others = _room(store, lin), _room(store, chen)
    link = room.handover_link()  # a hand-over link Ms Lin put out before she left
    open_page = Room.open(store, room.id, teacher=teacher_for_key(store, key))  # her projector, open in a tab
    steps = len(room.entries)

    assert remove_teacher(store, lin) == 1
    assert teacher_for_key(store, key) is None  # a page opened with the key now is no teacher's page
    with pytest.raises(NotAllowed):
        open_page.pause()  # the page already open can no longer run the room
    assert not store.room(room.id).paused
    local = local_teacher(store)
    kept = Room.open(store, room.id, teacher=local)  # nothing lost: the server's own teacher opens it
    assert len(kept.entries) == steps
    kept.pause()
    assert store.room(room.id).paused
    assert room.id in {r.id for r in list_rooms(store, teacher=local)}
    with pytest.raises(Exception):  # noqa: B017 - the hand-over link she put out was withdrawn with her key
        Room.take(store, link, teacher=chen)
    # another teacher is untouched
    assert teacher_for_key(store, chen_key) == chen and store.room(others.id).owner == chen.id
    assert [t.name for t in teachers(store)] == ["Mr Chen", "local"]
    store.close()


def test_a_new_key_replaces_a_leaked_one_at_once_and_keeps_the_rooms(db_url: str) -> None:
    store = RoomStore(db_url)
    lin, old = add_teacher(store, "Ms Lin")
    room = _room(store, lin)
    leaked_page = Room.open(store, room.id, teacher=teacher_for_key(store, old))

    again, new = replace_key(store, lin)
    assert teacher_for_key(store, old) is None and teacher_for_key(store, new) == again
    assert again.name == "Ms Lin" and again.id != lin.id
    with pytest.raises(NotAllowed):
        leaked_page.pause()
    Room.open(store, room.id, teacher=again).pause()
    assert store.room(room.id).paused and store.room(room.id).owner == again.id
    assert [t.name for t in teachers(store)] == ["Ms Lin"]
    store.close()


def test_a_removed_teachers_lesson_round_goes_to_the_local_teacher() -> None:
    store = RoomStore("sqlite://")
    lin, _ = add_teacher(store, "Ms Lin")
    rounds = LessonRounds(store)
    row = rounds.open_round("forecast", owner=lin.id, stage="steady")
    remove_teacher(store, lin)
    assert rounds.close(row.code, owner="local").accepting is False


def test_the_local_teacher_is_never_removed_nor_rekeyed() -> None:
    store = RoomStore("sqlite://")
    me = local_teacher(store)
    for change in (remove_teacher, replace_key):
        with pytest.raises(ValueError, match="local teacher"):
            change(store, me)
    with pytest.raises(TeacherNotFound) as found:
        find_teacher(store, "local")
    assert found.value.kind == "local"


def test_a_teacher_is_found_by_a_unique_start_of_the_id() -> None:
    store = RoomStore("sqlite://")
    store.create_teacher("abcd1111", "A", None)
    store.create_teacher("abcd2222", "B", None)
    assert find_teacher(store, "ABCD1").name == "A"
    for wanted, kind in (("abcd", "ambiguous"), ("abc", "short"), ("ffff", "unknown")):
        with pytest.raises(TeacherNotFound) as found:
            find_teacher(store, wanted)
        assert found.value.kind == kind


# ---------------------------------------------------------------------- the command
def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def _ids(text: str) -> list[str]:
    return re.findall(r"[（(]([0-9a-f]{32})[）)]", text)


@pytest.mark.parametrize(("lang", "words"), [("en", "Rooms moved to the local teacher: 1"),
                                             ("zh-TW", "轉給本機老師的房間：1 間")])
def test_teacher_remove_takes_the_key_away_and_says_where_the_rooms_went(
        tmp_path: Path, lang: str, words: str) -> None:
    db = f"sqlite:///{tmp_path}/rooms.db"
    key = re.search(r"(?:key|金鑰) (\S+)", run(["teacher", "add", "林老師", "--db", db])[1]).group(1)  # type: ignore[union-attr]
    store = RoomStore(db)
    lin = teacher_for_key(store, key)
    _room(store, lin)
    code, text = run(["teacher", "remove", lin.id[:6], "--db", db, "--lang", lang])
    assert code == 0 and words in text and lin.id in text
    assert teacher_for_key(store, key) is None
    assert len(list_rooms(store, teacher=local_teacher(store))) == 1
    store.close()


@pytest.mark.parametrize(("lang", "words"), [("en", "new key"), ("zh-TW", "新金鑰")])
def test_teacher_new_key_prints_a_key_that_works_and_the_old_one_stops(tmp_path: Path, lang: str, words: str) -> None:
    db = f"sqlite:///{tmp_path}/rooms.db"
    old = re.search(r"key (\S+)", run(["teacher", "add", "Ms Lin", "--db", db])[1]).group(1)  # type: ignore[union-attr]
    lin_id = _ids(run(["teacher", "list", "--db", db])[1])[0]
    code, text = run(["teacher", "new-key", lin_id, "--db", db, "--lang", lang])
    assert code == 0 and words in text
    new = re.search(r"(?:new key|新金鑰) ([A-Za-z0-9_-]+)", text).group(1)  # type: ignore[union-attr]
    store = RoomStore(db)
    assert teacher_for_key(store, old) is None and teacher_for_key(store, new).name == "Ms Lin"  # type: ignore[union-attr]
    store.close()


@pytest.mark.parametrize(("lang", "unknown", "local"), [
    ("en", "there is no teacher with the id 'ffff0000'", "cannot be removed"),
    ("zh-TW", "沒有代號是「ffff0000」的老師", "不能移除")])
def test_an_unknown_id_and_the_local_teacher_are_refused_in_the_persons_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, unknown: str, local: str) -> None:
    db = f"sqlite:///{tmp_path}/rooms.db"
    store = RoomStore(db)
    local_teacher(store)
    store.close()
    assert run(["teacher", "remove", "ffff0000", "--db", db, "--lang", lang])[0] == 2
    assert unknown in capsys.readouterr().err
    assert run(["teacher", "remove", "local", "--db", db, "--lang", lang])[0] == 2
    assert local in capsys.readouterr().err
    assert [t.id for t in teachers(RoomStore(db))] == ["local"]


@pytest.mark.parametrize(("lang", "words"), [("en", "the server computer's own teacher"),
                                             ("zh-TW", "伺服器這臺電腦自己的老師")])
def test_list_explains_the_local_teachers_line(tmp_path: Path, lang: str, words: str) -> None:
    db = f"sqlite:///{tmp_path}/rooms.db"
    store = RoomStore(db)
    local_teacher(store)
    store.close()
    run(["teacher", "add", "Ms Lin", "--db", db])
    lines = run(["teacher", "list", "--db", db, "--lang", lang])[1].splitlines()
    assert words in lines[0] and "local" in lines[0] and words not in lines[1]


@pytest.mark.parametrize(("lang", "words"), [("en", "there is already a teacher called 林老師"),
                                             ("zh-TW", "已經有一位老師叫 林老師")])
def test_a_name_already_taken_is_refused_unless_forced(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, words: str) -> None:
    db = f"sqlite:///{tmp_path}/rooms.db"
    assert run(["teacher", "add", "林老師", "--db", db])[0] == 0
    code, text = run(["teacher", "add", " 林老師 ", "--db", db, "--lang", lang])
    assert code == 2 and text == "" and words in capsys.readouterr().err and "--force" in words + "--force"
    assert len(teachers(RoomStore(db))) == 1
    assert run(["teacher", "add", "林老師", "--db", db, "--force"])[0] == 0
    assert len(teachers(RoomStore(db))) == 2
