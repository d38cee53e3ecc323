"""The teacher's credential: keys, the local teacher's key file, named teachers, and the schema upgrade."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest

from typhoon_edu.classroom.codes import token_hash
from typhoon_edu.classroom.store import SCHEMA_VERSION, RoomStore
from typhoon_edu.classroom.teachers import (
    add_teacher,
    ensure_local_teacher,
    local_teacher,
    teacher_for_key,
    teachers,
)


@pytest.fixture
def store() -> RoomStore:
    return RoomStore("sqlite://")


def test_the_local_key_file_is_made_private_once_and_reused(store: RoomStore, tmp_path: Path) -> None:
    key_file = tmp_path / "config" / "teacher.key"
    key = ensure_local_teacher(store, key_file)
    assert len(key) >= 32 and key_file.read_text().strip() == key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert ensure_local_teacher(store, key_file) == key
    teacher = teacher_for_key(store, key)
    assert teacher is not None and teacher.is_local
    # only the hash is stored
    assert all(row.key_hash != key for row in store.teachers())
    assert store.teacher("local").key_hash == token_hash(key)


def test_a_new_store_takes_the_key_file_of_the_computer(tmp_path: Path) -> None:
    key_file = tmp_path / "teacher.key"
    key = ensure_local_teacher(RoomStore("sqlite://"), key_file)
    other = RoomStore(f"sqlite:///{tmp_path}/other.sqlite3")
    assert ensure_local_teacher(other, key_file) == key
    assert teacher_for_key(other, key).is_local


def test_a_key_file_readable_by_others_is_closed(store: RoomStore, tmp_path: Path) -> None:
    key_file = tmp_path / "teacher.key"
    key = ensure_local_teacher(store, key_file)
    os.chmod(key_file, 0o644)
    assert ensure_local_teacher(store, key_file) == key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_a_damaged_key_file_gets_a_new_key_and_the_old_one_stops(store: RoomStore, tmp_path: Path) -> None:
    key_file = tmp_path / "teacher.key"
    old = ensure_local_teacher(store, key_file)
    key_file.write_text("short")
    new = ensure_local_teacher(store, key_file)
    assert new != old and teacher_for_key(store, old) is None and teacher_for_key(store, new).is_local


@pytest.mark.parametrize("key", ["", "x", None, 12, "a" * 5000, "local"])
def test_no_key_or_a_wrong_one_is_nobody(store: RoomStore, tmp_path: Path, key: object) -> None:
    ensure_local_teacher(store, tmp_path / "teacher.key")
    add_teacher(store, "Ms Lin")
    assert teacher_for_key(store, key) is None  # type: ignore[arg-type]


def test_named_teachers_have_keys_of_their_own(store: RoomStore) -> None:
    lin, lin_key = add_teacher(store, "Ms Lin")
    chen, chen_key = add_teacher(store, "Mr Chen")
    assert lin.id != chen.id and lin_key != chen_key
    assert teacher_for_key(store, lin_key) == lin and teacher_for_key(store, chen_key) == chen
    assert [t.name for t in teachers(store)] == ["Ms Lin", "Mr Chen"]
    with pytest.raises(ValueError, match="teacher's name"):
        add_teacher(store, "\u202e\u200b ")


def test_local_teacher_without_a_key_file_has_no_key(store: RoomStore) -> None:
    t = local_teacher(store)
    assert t.is_local and store.teacher("local").key_hash is None
    assert local_teacher(store) == t


def test_a_schema_1_database_is_brought_up_to_date_in_place(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE typhoon_meta (key VARCHAR(32) PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO typhoon_meta VALUES ('schema', '1');
        CREATE TABLE typhoon_rooms (id VARCHAR(32) PRIMARY KEY, code VARCHAR(8) NOT NULL UNIQUE, setup TEXT NOT NULL,
            lang VARCHAR(8) NOT NULL, status VARCHAR(12) NOT NULL, paused BOOLEAN NOT NULL,
            hints_enabled BOOLEAN NOT NULL, created FLOAT NOT NULL, updated FLOAT NOT NULL, finished FLOAT,
            version INTEGER NOT NULL, head INTEGER NOT NULL, origin TEXT NOT NULL);
        CREATE TABLE typhoon_seats (room_id VARCHAR(32) NOT NULL, idx INTEGER NOT NULL, region VARCHAR(32) NOT NULL,
            kind VARCHAR(12) NOT NULL, name TEXT NOT NULL, token_hash VARCHAR(64) UNIQUE, revoked BOOLEAN NOT NULL,
            joined FLOAT, PRIMARY KEY (room_id, idx));
        INSERT INTO typhoon_rooms VALUES ('r1', 'ABCDE', '{}', 'en', 'open', 0, 1, 1.0, 1.0, NULL, 1, 0, '');
        INSERT INTO typhoon_seats VALUES ('r1', 0, 'Taiwan', 'person', 'Mei', 'h', 0, NULL);
    """)
    con.commit()
    con.close()
    store = RoomStore(f"sqlite:///{db}")
    row = store.room("r1")
    assert row.owner is None and store.seats("r1")[0].device_hash is None
    assert [r.id for r in store.rooms(owner="local")] == ["r1"] and store.rooms(owner="someone") == []
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM typhoon_meta WHERE key='schema'").fetchone()[0] == str(SCHEMA_VERSION)


def test_an_older_database_is_upgraded_on_both_dialects(db_url: str) -> None:
    """Schema 1 (no teachers table, no owner/link/device columns), made on SQLite or PostgreSQL, opens and works."""
    import sqlalchemy as sa

    from typhoon_edu.classroom.rooms import Room, Seat
    from typhoon_edu.classroom.store import ROOMS, SEATS, TEACHERS

    store = RoomStore(db_url)
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=3, teacher=local_teacher(store))
    with store._engine.begin() as conn:  # take it back to schema 1
        conn.execute(sa.text("UPDATE typhoon_meta SET value = '1' WHERE key = 'schema'"))
        TEACHERS.drop(conn)
        for table, names in ((ROOMS, ("owner", "handover_hash", "turn_seconds", "turn_since")),
                             (SEATS, ("link_nonce", "device_hash"))):
            for name in names:
                conn.execute(sa.text(f"ALTER TABLE {table.name} DROP COLUMN {name}"))
    store.close()
    again = RoomStore(db_url)
    assert again.room(room.id).owner is None  # a room from before teachers is the local teacher's
    assert again.room(room.id).turn_seconds == 0  # and from before the turn timer: no timer
    opened = Room.open(again, room.id, teacher=local_teacher(again))
    assert opened.join_links() == {}  # its old links cannot be shown again: New join link makes one
    token = opened.reissue_token("Taiwan")
    assert Room.open_seat(again, token, "phone").viewer == "Taiwan"
