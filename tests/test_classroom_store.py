"""The room store (typhoon_edu.classroom.store) on SQLite and on a real PostgreSQL server.

Every test taking ``db_url`` runs twice: on a SQLite file and on a fresh schema of the
PostgreSQL server tests/conftest.py starts (skipped locally without PostgreSQL, failing under CI).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from race_helpers import race

from typhoon_edu.classroom import codes
from typhoon_edu.classroom.errors import NotAllowed, RoomNotFound, SeatError, StaleWrite, StoreError, TokenRejected
from typhoon_edu.classroom.store import ACTIONS, ROOMS, NewSeat, RoomStore, sqlite_url

REPO = Path(__file__).resolve().parent.parent
SEATS3 = [NewSeat("Taiwan"), NewSeat("Japan", "greedy"), NewSeat("Korea", "random")]


def make_room(store: RoomStore, *, tokens: dict[str, str] | None = None, actions: tuple[str, ...] = ()):
    seats = [NewSeat(s.region, s.kind, s.name, codes.token_hash(tokens[s.region]) if tokens and s.region in tokens
                     else None) for s in SEATS3]
    return store.create_room(setup={"players": ["Taiwan", "Japan", "Korea"]}, seats=seats, lang="en", actions=actions)


def run_child(code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


# ---------------------------------------------------------------------- the basic interface
def test_create_append_read_head(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    assert row.head == 0 and row.version == 1 and row.status == "open" and len(row.code) == codes.CODE_LENGTH
    head = store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    assert (head.seq, head.version) == (1, 2)
    head = store.append(row.id, 2, ["move T1", "die 4", "die 2"], by="Japan")
    assert head.seq == 4
    assert [(a.seq, a.notation, a.by) for a in store.actions(row.id)] == [
        (1, "place 8,8", "Taiwan"), (2, "move T1", "Japan"), (3, "die 4", "Japan"), (4, "die 2", "Japan")]
    assert [a.seq for a in store.actions(row.id, after=2)] == [3, 4]
    assert store.head(row.id).seq == 4
    assert store.room_by_code(row.code.lower()).id == row.id
    snap = store.snapshot(row.id, after=3)
    assert snap.room.head == 4 and [a.seq for a in snap.actions] == [4] and [s.region for s in snap.seats] == [
        "Taiwan", "Japan", "Korea"]


def test_a_second_store_on_the_same_database_sees_everything(db_url: str) -> None:
    a, b = RoomStore(db_url), RoomStore(db_url)
    row = make_room(a)
    a.append(row.id, 1, ["place 8,8"], by="Taiwan")
    assert [x.notation for x in b.actions(row.id)] == ["place 8,8"]
    assert [r.id for r in b.rooms()] == [row.id]


def test_every_change_moves_the_version(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    seen = [store.head(row.id).version]
    for change in (lambda: store.append(row.id, 1, ["place 8,8"], by="Taiwan"),
                   lambda: store.set_paused(row.id, True),
                   lambda: store.set_paused(row.id, False),
                   lambda: store.update_seat(row.id, "Japan", name="Kenji"),
                   lambda: store.set_hints(row.id, False),
                   lambda: store.set_lang(row.id, "zh-TW"),
                   lambda: store.finish(row.id)):
        change()
        seen.append(store.head(row.id).version)
    assert seen == sorted(set(seen)) and len(seen) == 8


def test_append_checks_the_expected_number(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    with pytest.raises(StaleWrite) as behind:
        store.append(row.id, 1, ["place 9,8"], by="Taiwan")
    assert (behind.value.kind, behind.value.expected_seq, behind.value.current_seq) == ("stale", 1, 1)
    with pytest.raises(StaleWrite):  # ahead of the log is refused too: there would be a gap
        store.append(row.id, 5, ["place 9,8"], by="Taiwan")
    assert [a.notation for a in store.actions(row.id)] == ["place 8,8"]
    # catching up: read from the current head, then write the next number
    current = store.head(row.id).seq
    store.append(row.id, current + 1, ["place 9,8"], by="Taiwan")
    assert [a.notation for a in store.actions(row.id)] == ["place 8,8", "place 9,8"]


@pytest.mark.parametrize("bad", [0, -1, True, "2", None])
def test_append_refuses_a_bad_sequence_number(bad: object, tmp_path: Path) -> None:
    store = RoomStore(sqlite_url(tmp_path / "r.sqlite3"))
    row = make_room(store)
    with pytest.raises(ValueError, match="expected_seq"):
        store.append(row.id, bad, ["place 8,8"], by="Taiwan")  # type: ignore[arg-type]
    assert store.head(row.id).seq == 0


@pytest.mark.parametrize("bad", [[], [""], ["x" * 65], [3]])
def test_append_refuses_bad_notations(bad: list[object], tmp_path: Path) -> None:
    store = RoomStore(sqlite_url(tmp_path / "r.sqlite3"))
    row = make_room(store)
    with pytest.raises(ValueError):
        store.append(row.id, 1, bad, by="Taiwan")  # type: ignore[arg-type]
    assert store.actions(row.id) == []


def test_unknown_rooms_and_codes(db_url: str) -> None:
    store = RoomStore(db_url)
    with pytest.raises(RoomNotFound) as e:
        store.room("no-such-room")
    assert e.value.kind == "not_found"
    with pytest.raises(RoomNotFound) as e:
        store.room_by_code("AB0CD")
    assert e.value.kind == "bad_code"
    with pytest.raises(RoomNotFound) as e:
        store.append("no-such-room", 1, ["place 8,8"], by="Taiwan")
    assert e.value.kind == "not_found"


def test_codes_are_unique_and_readable(db_url: str) -> None:
    store = RoomStore(db_url)
    rows = [make_room(store) for _ in range(30)]
    assert len({r.code for r in rows}) == 30
    assert all(set(r.code) <= set(codes.ALPHABET) and not set(r.code) & set("0O1IL") for r in rows)


def test_code_clash_draws_another_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = RoomStore(sqlite_url(tmp_path / "r.sqlite3"))
    first = make_room(store)
    drawn = iter([first.code, first.code, "ZZZZZ"])
    monkeypatch.setattr("typhoon_edu.classroom.store.new_code", lambda: next(drawn))
    assert make_room(store).code == "ZZZZZ"


def test_finish_closes_the_room_and_delete_removes_it(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    assert store.finish(row.id, "ended") is True
    assert store.finish(row.id) is False  # already closed
    with pytest.raises(NotAllowed) as e:
        store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    assert e.value.kind == "game_over"
    assert store.room(row.id).status == "ended" and store.room(row.id).finished is not None
    store.delete(row.id)
    with pytest.raises(RoomNotFound):
        store.room(row.id)
    assert store.actions(row.id) == [] and store.seats(row.id) == []


def test_append_can_finish_the_room_in_the_same_transaction(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    head = store.append(row.id, 1, ["place 8,8"], by="Taiwan", finish="finished")
    assert head.status == "finished" and store.room(row.id).status == "finished"


def test_paused_room_refuses_moves_unless_allowed(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    store.set_paused(row.id, True)
    with pytest.raises(NotAllowed) as e:
        store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    assert e.value.kind == "paused"
    store.append(row.id, 1, ["undo"], by="teacher", allow_paused=True)
    assert store.head(row.id).seq == 1


# ---------------------------------------------------------------------- tokens
def test_tokens_open_only_their_own_seat_of_their_own_room(db_url: str) -> None:
    store = RoomStore(db_url)
    ta, tb = codes.new_token(), codes.new_token()
    a = make_room(store, tokens={"Taiwan": ta})
    b = make_room(store, tokens={"Taiwan": tb})
    assert store.seat_by_token(codes.token_hash(ta))[0].id == a.id
    # only the hash is stored
    assert all(s.token_hash != ta for s in store.seats(a.id))
    store.append(a.id, 1, ["place 8,8"], by="Taiwan", token_hash=codes.token_hash(ta))
    with pytest.raises(TokenRejected) as e:  # a token for one room does nothing in another
        store.append(b.id, 1, ["place 8,8"], by="Taiwan", token_hash=codes.token_hash(ta))
    assert e.value.kind == "token_other_room"
    with pytest.raises(NotAllowed) as e:  # nor for another seat
        store.append(a.id, 2, ["place 9,8"], by="Japan", token_hash=codes.token_hash(ta))
    assert e.value.kind == "not_your_turn"
    with pytest.raises(TokenRejected) as e:
        store.seat_by_token(codes.token_hash("made-up"))
    assert e.value.kind == "token_unknown"
    assert store.head(b.id).seq == 0 and store.head(a.id).seq == 1


def test_a_revoked_token_stops_at_once_and_a_reissued_one_works(db_url: str) -> None:
    store = RoomStore(db_url)
    old = codes.new_token()
    row = make_room(store, tokens={"Taiwan": old})
    store.update_seat(row.id, "Taiwan", revoked=True)
    for call in (lambda: store.seat_by_token(codes.token_hash(old)),
                 lambda: store.append(row.id, 1, ["place 8,8"], by="Taiwan", token_hash=codes.token_hash(old))):
        with pytest.raises(TokenRejected) as e:
            call()
        assert e.value.kind == "token_revoked"
    new = codes.new_token()
    store.update_seat(row.id, "Taiwan", token_hash=codes.token_hash(new), revoked=False, joined=None)
    with pytest.raises(TokenRejected) as e:
        store.seat_by_token(codes.token_hash(old))
    assert e.value.kind == "token_unknown"
    store.append(row.id, 1, ["place 8,8"], by="Taiwan", token_hash=codes.token_hash(new))
    assert store.head(row.id).seq == 1


def test_tokens_die_with_the_game(db_url: str) -> None:
    store = RoomStore(db_url)
    token = codes.new_token()
    row = make_room(store, tokens={"Taiwan": token})
    store.finish(row.id)
    for call in (lambda: store.seat_by_token(codes.token_hash(token)),
                 lambda: store.append(row.id, 1, ["place 8,8"], by="Taiwan", token_hash=codes.token_hash(token))):
        with pytest.raises(TokenRejected) as e:
            call()
        assert e.value.kind == "room_over"


def test_claim_seat_gives_a_free_seat_once(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store, tokens={"Taiwan": codes.new_token()})
    first = codes.new_token()
    seat = store.claim_seat(row.id, "Taiwan", codes.token_hash(first))
    assert seat.joined is not None and seat.token_hash == codes.token_hash(first)
    with pytest.raises(SeatError) as e:
        store.claim_seat(row.id, "Taiwan", codes.token_hash(codes.new_token()))
    assert e.value.kind == "seat_taken"
    with pytest.raises(NotAllowed) as e2:
        store.claim_seat(row.id, "Japan", codes.token_hash(codes.new_token()))
    assert e2.value.kind == "bot_seat"
    with pytest.raises(SeatError) as e:
        store.update_seat(row.id, "Mars", name="x")
    assert e.value.kind == "no_such_seat"


def test_seat_rules_at_creation(tmp_path: Path) -> None:
    store = RoomStore(sqlite_url(tmp_path / "r.sqlite3"))
    with pytest.raises(SeatError) as e:
        store.create_room(setup={}, seats=SEATS3[:2], lang="en")
    assert e.value.kind == "bad_seats"
    with pytest.raises(SeatError) as e:
        store.create_room(setup={}, seats=[*SEATS3[:2], NewSeat("Korea", "wizard")], lang="en")
    assert e.value.kind == "bad_kind"
    assert store.rooms() == []


# ---------------------------------------------------------------------- racing writers
def test_threads_racing_on_one_decision_exactly_one_wins(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    n = 6

    def writer(i: int) -> str:
        try:
            store.append(row.id, 2, [f"place {i},9", "die 3"], by="Taiwan")
            return f"won {i}"
        except StaleWrite as exc:
            return f"stale {exc.current_seq}"

    results = race(n, writer)
    winners = [r for r in results if r.startswith("won")]
    assert len(results) == n and len(winners) == 1
    assert sorted(r for r in results if r.startswith("stale")) == ["stale 3"] * (n - 1)
    won = int(winners[0].split()[1])
    assert [a.notation for a in store.actions(row.id)] == ["place 8,8", f"place {won},9", "die 3"]


RACER = """
import sys, time
from pathlib import Path
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.errors import StaleWrite
url, room, me, go = sys.argv[1:5]
store = RoomStore(url)
store.head(room)  # connected and ready
Path(go + "." + me).touch()
while not Path(go).exists():
    time.sleep(0.001)
try:
    store.append(room, 2, ["place " + me + ",9"], by="Taiwan")
    print("won", me)
except StaleWrite as exc:
    print("stale", exc.current_seq)
"""


def test_processes_racing_on_one_decision_exactly_one_wins(db_url: str, tmp_path: Path) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    go = tmp_path / "go"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    n = 4
    procs = [subprocess.Popen([sys.executable, "-c", RACER, db_url, row.id, str(i), str(go)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(n)]
    deadline = time.time() + 120
    while not all((tmp_path / f"go.{i}").exists() for i in range(n)):
        assert time.time() < deadline and all(p.poll() is None for p in procs), [p.communicate() for p in procs]
        time.sleep(0.01)
    go.touch()
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    lines = [o.strip() for o, _ in outs]
    winners = [line for line in lines if line.startswith("won")]
    assert len(winners) == 1 and lines.count("stale 2") == n - 1, lines
    assert [a.notation for a in store.actions(row.id)] == ["place 8,8", f"place {winners[0].split()[1]},9"]


KILLED = """
import sys, time
from sqlalchemy import event
from typhoon_edu.classroom.store import RoomStore
url, room = sys.argv[1:3]
store = RoomStore(url)

@event.listens_for(store._engine, "after_cursor_execute")
def stop_inside(conn, cursor, statement, parameters, context, executemany):
    if statement.lstrip().upper().startswith("INSERT INTO TYPHOON_ACTIONS"):
        print("inside", flush=True)
        time.sleep(600)  # killed here: the rows are written but not committed

store.append(room, 2, ["move T1", "die 4", "die 5"], by="Japan")
print("committed?!", flush=True)
"""


def test_a_process_killed_in_the_middle_of_an_append_leaves_nothing(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    child = subprocess.Popen([sys.executable, "-c", KILLED, db_url, row.id], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.strip() == "inside", child.communicate()
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    # the next reader sees exactly the log before the append; the next writer takes #2
    fresh = RoomStore(db_url, busy_timeout=20)
    assert fresh.head(row.id).seq == 1
    assert [a.notation for a in fresh.actions(row.id)] == ["place 8,8"]
    assert fresh.append(row.id, 2, ["move T2"], by="Japan").seq == 2
    assert [a.notation for a in fresh.actions(row.id)] == ["place 8,8", "move T2"]


def test_the_primary_key_is_the_last_line_of_defence(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    # damage the head column so it disagrees with the log: the (room, seq) key still refuses a second #1
    with store._engine.begin() as conn:
        conn.execute(sa.update(ROOMS).where(ROOMS.c.id == row.id).values(head=0))
    with pytest.raises(StaleWrite):
        store.append(row.id, 1, ["place 9,8"], by="Taiwan")
    assert [a.notation for a in store.actions(row.id)] == ["place 8,8"]
    assert store.head(row.id).seq == 0  # the whole transaction was rolled back


# ---------------------------------------------------------------------- failed writes are typed
def test_a_locked_database_is_a_typed_error(db_url: str) -> None:
    store = RoomStore(db_url, busy_timeout=0.3)
    row = make_room(store)
    other = RoomStore(db_url)
    with other._engine.connect() as conn:
        if other.dialect == "sqlite":
            conn.execution_options(typhoon_write=True)
            conn.begin()  # BEGIN IMMEDIATE: another writer holds the database
        else:
            conn.execute(sa.select(ROOMS.c.id).where(ROOMS.c.id == row.id).with_for_update())  # holds the row
        t0 = time.monotonic()
        with pytest.raises(StoreError) as e:
            store.append(row.id, 1, ["place 8,8"], by="Taiwan")
        waited = time.monotonic() - t0
        conn.rollback()
    assert e.value.kind == "locked" and 0.2 <= waited < 10
    assert store.head(row.id).seq == 0
    store.append(row.id, 1, ["place 8,8"], by="Taiwan")  # works again once the lock is gone


def test_a_read_only_database_refuses_writes_with_a_typed_error(db_url: str, tmp_path: Path) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    if store.dialect == "sqlite":
        store.close()
        ro_url = f"sqlite:///file:{(tmp_path / 'rooms.sqlite3').as_posix()}?mode=ro&uri=true"
    else:
        with store._engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("ALTER ROLE postgres SET default_transaction_read_only = on")
        ro_url = db_url
    try:
        ro = RoomStore(ro_url)
        assert [a.notation for a in ro.actions(row.id)] == ["place 8,8"]  # reading still works
        for write in (lambda: ro.append(row.id, 2, ["place 9,8"], by="Taiwan"), lambda: ro.set_paused(row.id, True),
                      lambda: make_room(ro)):
            with pytest.raises(StoreError) as e:
                write()
            assert e.value.kind == "read_only", e.value
        ro.close()
    finally:
        if store.dialect == "postgresql":
            with store._engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql("ALTER ROLE postgres RESET default_transaction_read_only")
    again = RoomStore(db_url)
    assert again.head(row.id).seq == 1 and not again.head(row.id).paused and len(again.rooms()) == 1


READ_ONLY_FILE = """
import os, sys
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.errors import StaleWrite, StoreError
url, room = sys.argv[1:3]
if os.geteuid() == 0:  # root ignores file modes: drop to nobody (after loading what is loaded lazily)
    from typhoon_edu.classroom.store import NewSeat
    warm = RoomStore("sqlite://")
    r = warm.create_room(setup="{}", seats=[NewSeat("A"), NewSeat("B"), NewSeat("C")], lang="en")
    warm.append(r.id, 1, ["x"], by="A")
    warm.actions(r.id)
    try:
        warm.append(r.id, 1, ["x"], by="A")
    except StaleWrite:
        pass
    os.setgid(65534); os.setuid(65534)
store = RoomStore(url)
print(len(store.actions(room)))
try:
    store.append(room, 2, ["place 9,8"], by="Taiwan")
    print("written")
except StoreError as exc:
    print(exc.kind)
"""


@pytest.mark.parametrize("folder_writable", [True, False])
def test_a_read_only_sqlite_file_is_read_and_refuses_writes(folder_writable: bool) -> None:
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="typhoon-ro-"))  # under /tmp, reachable by another user
    try:
        os.chmod(base, 0o755)
        folder = base / "db"
        folder.mkdir()
        store = RoomStore(sqlite_url(folder / "rooms.sqlite3"))
        row = make_room(store)
        store.append(row.id, 1, ["place 8,8"], by="Taiwan")
        store.close()
        os.chmod(folder / "rooms.sqlite3", 0o444)
        os.chmod(folder, 0o777 if folder_writable else 0o555)
        try:
            done = run_child(READ_ONLY_FILE, sqlite_url(folder / "rooms.sqlite3"), row.id)
        finally:
            os.chmod(folder, 0o755)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["1", "read_only"]
        assert [a.notation for a in RoomStore(sqlite_url(folder / "rooms.sqlite3")).actions(row.id)] == ["place 8,8"]
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_a_full_disk_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    store = RoomStore(sqlite_url(path))
    row = make_room(store)
    pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0]

    @sa.event.listens_for(store._engine, "connect")
    def _small(dbapi_conn, _rec):  # type: ignore[no-untyped-def]
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages}")

    store._engine.dispose()
    with pytest.raises(StoreError) as e:
        for i in range(2000):
            store.append(row.id, i + 1, [f"place {i % 16},{i % 12}" + " " * 40], by="Taiwan")
    assert e.value.kind == "disk_full"
    written = store.head(row.id).seq
    assert len(store.actions(row.id)) == written  # nothing half-written


def test_an_unreachable_or_foreign_database_is_a_typed_error(tmp_path: Path) -> None:
    not_a_db = tmp_path / "notes.sqlite3"
    not_a_db.write_bytes(b"these are not the rooms you are looking for" * 100)
    with pytest.raises(StoreError) as e:
        RoomStore(sqlite_url(not_a_db))
    assert e.value.kind == "corrupt"
    with pytest.raises(StoreError) as e:
        RoomStore("mysql://nobody@127.0.0.1/rooms")
    assert e.value.kind == "unavailable"
    with pytest.raises(StoreError) as e:
        RoomStore("postgresql+psycopg://nobody@127.0.0.1:1/rooms", busy_timeout=1)
    assert e.value.kind == "unavailable"


def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "r.sqlite3")
    RoomStore(url).close()
    with sqlite3.connect(tmp_path / "r.sqlite3") as conn:
        conn.execute("UPDATE typhoon_meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(StoreError) as e:
        RoomStore(url)
    assert e.value.kind == "schema"


def test_stores_opened_at_the_same_moment_make_the_tables_once(db_url: str) -> None:
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def opener() -> None:
        barrier.wait()
        try:
            RoomStore(db_url).rooms()
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=opener) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []


def test_default_url_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from typhoon_edu.classroom.store import default_url

    monkeypatch.setenv("TYPHOON_EDU_DB", str(tmp_path / "x.sqlite3"))
    assert default_url() == sqlite_url(tmp_path / "x.sqlite3")
    monkeypatch.setenv("TYPHOON_EDU_DB", "postgresql+psycopg://u@127.0.0.1/db")
    assert default_url() == "postgresql+psycopg://u@127.0.0.1/db"
    monkeypatch.delenv("TYPHOON_EDU_DB")
    assert default_url().endswith("rooms.sqlite3") and "typhoon-edu" in default_url()


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    store = RoomStore(sqlite_url(tmp_path / "r.sqlite3"))
    with store._engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000


def test_the_version_poll_reads_one_row_by_primary_key(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    statements: list[str] = []
    sa.event.listen(store._engine, "before_cursor_execute",
                    lambda conn, cur, stmt, params, ctx, many: statements.append(stmt))
    store.head(row.id)
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 1 and "typhoon_rooms.id =" in selects[0] and "typhoon_actions" not in selects[0]
    assert ACTIONS.primary_key.columns.keys() == ["room_id", "seq"]


# ---------------------------------------------------------------------- the teacher's turn timer (schema 3)
def test_the_turn_timer_is_stored_and_each_write_or_resume_starts_a_new_count(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    assert row.turn_seconds == 0 and row.turn_since is not None  # off in a new room
    before = time.time()
    store.set_turn_timer(row.id, 45)
    set_at = store.room(row.id)
    assert set_at.turn_seconds == 45 and set_at.turn_since >= before and set_at.version == row.version + 1
    time.sleep(0.02)
    head = store.append(row.id, 1, ["place 8,8"], by="Taiwan")
    moved = store.room(row.id)
    assert moved.turn_since > set_at.turn_since and head.turn_since == moved.turn_since  # the writer learns it too
    store.set_paused(row.id, True)
    assert store.room(row.id).turn_since == moved.turn_since  # pausing does not count as a new decision
    time.sleep(0.02)
    store.set_paused(row.id, False)
    assert store.room(row.id).turn_since > moved.turn_since  # a resume gives the team its full time again
    assert store.room(row.id).turn_seconds == 45
    for bad in (-1, 1.5, True, "30"):
        with pytest.raises(ValueError, match="whole number of seconds"):
            store.set_turn_timer(row.id, bad)  # type: ignore[arg-type]
    assert store.room(row.id).turn_seconds == 45
    store.finish(row.id)
    with pytest.raises(NotAllowed):
        store.set_turn_timer(row.id, 30)  # a closed room has no turns left to time


def test_a_schema_2_database_gets_the_timer_columns_in_place(db_url: str) -> None:
    """A database made before the turn timer (schema 2) opens, is brought to schema 3, and its rooms have no timer."""
    from typhoon_edu.classroom.store import SCHEMA_VERSION

    store = RoomStore(db_url)
    row = make_room(store, actions=("place 8,8",))
    with store._engine.begin() as conn:  # take it back to schema 2
        conn.execute(sa.text("UPDATE typhoon_meta SET value = '2' WHERE key = 'schema'"))
        for name in ("turn_seconds", "turn_since"):
            conn.execute(sa.text(f"ALTER TABLE typhoon_rooms DROP COLUMN {name}"))
    store.close()
    again = RoomStore(db_url)
    old = again.room(row.id)
    assert (old.turn_seconds, old.turn_since, old.head, old.problem) == (0, None, 1, "")
    with again._engine.connect() as conn:  # (4: the lobby and the rematch's successor, tests/test_classplay_rematch.py;
        # 5: a seat's last-seen time, tests/test_classplay_presence.py; 6: the class's speed,
        # tests/test_classplay_room_speed.py)
        assert conn.execute(sa.text("SELECT value FROM typhoon_meta WHERE key = 'schema'")).scalar() == \
            str(SCHEMA_VERSION) == "6"
    again.set_turn_timer(row.id, 60)
    assert again.room(row.id).turn_seconds == 60
    assert again.append(row.id, 2, ["move T1"], by="Japan").seq == 2


# ---------------------------------------------------------------------- security review: seats and devices
def _people_room(store: RoomStore, *, devices: bool | None = None, tokens: dict[str, str] | None = None):
    """Taiwan and Japan played by people (with these link tokens), Korea by a bot; ``devices`` as the room's option."""
    setup: dict = {"players": ["Taiwan", "Japan", "Korea"]}
    if devices is not None:
        setup["options"] = {"devices": devices}
    tokens = tokens or {}
    seats = [NewSeat("Taiwan", token_hash=codes.token_hash(tokens["Taiwan"]) if "Taiwan" in tokens else None),
             NewSeat("Japan", token_hash=codes.token_hash(tokens["Japan"]) if "Japan" in tokens else None),
             NewSeat("Korea", "random")]
    return store.create_room(setup=setup, seats=seats, lang="en")


def _seats_and_version(store: RoomStore, room_id: str) -> tuple:
    return tuple(store.seats(room_id)), store.head(room_id).version


def test_a_one_computer_room_gives_no_seat_to_any_device(db_url: str) -> None:
    store = RoomStore(db_url)
    link = codes.new_token()
    row = _people_room(store, devices=False, tokens={"Taiwan": link})
    before = _seats_and_version(store, row.id)
    device = "d" * 64
    for call in (lambda: store.claim_seat(row.id, "Japan", codes.token_hash(codes.new_token()), device),
                 lambda: store.claim_seat(row.id, "Japan", codes.token_hash(codes.new_token())),
                 lambda: store.seat_by_token(codes.token_hash(link)),
                 lambda: store.bind_device(codes.token_hash(link), device)):
        with pytest.raises(SeatError) as e:
            call()
        assert e.value.kind == "no_devices" and "one computer" in str(e.value)
    assert _seats_and_version(store, row.id) == before
    # a room with devices (said so, or saying nothing, as rooms made before the option do) is unchanged
    for devices in (True, None):
        other = _people_room(store, devices=devices)
        assert store.claim_seat(other.id, "Japan", codes.token_hash(codes.new_token()), device).joined is not None


def test_one_device_holds_at_most_one_live_seat_of_a_room(db_url: str) -> None:
    store = RoomStore(db_url)
    japan_link = codes.new_token()
    row = _people_room(store, tokens={"Japan": japan_link})
    phone, other_phone = "a" * 64, "b" * 64
    mine = codes.new_token()
    store.claim_seat(row.id, "Taiwan", codes.token_hash(mine), phone)
    before = _seats_and_version(store, row.id)
    with pytest.raises(SeatError) as e:  # a second free seat, by the room code
        store.claim_seat(row.id, "Japan", codes.token_hash(codes.new_token()), phone)
    assert e.value.kind == "device_has_seat" and "Taiwan" in str(e.value)
    with pytest.raises(SeatError) as e:  # a second seat, by its link
        store.bind_device(codes.token_hash(japan_link), phone)
    assert e.value.kind == "device_has_seat"
    assert _seats_and_version(store, row.id) == before
    store.bind_device(codes.token_hash(mine), phone)  # its own seat again (a reload) still opens
    store.bind_device(codes.token_hash(japan_link), other_phone)  # another device may take the other seat
    # once the teacher revoked its seat, the device holds no live seat and may join another room's seat again
    store.update_seat(row.id, "Taiwan", revoked=True)
    third = _people_room(store)
    store.claim_seat(third.id, "Taiwan", codes.token_hash(codes.new_token()), phone)  # other rooms never count
    store.update_seat(row.id, "Japan", device_hash=None)  # the teacher reset Japan's device
    store.bind_device(codes.token_hash(japan_link), phone)


def test_a_handover_taken_twice_at_the_same_moment_works_once(db_url: str) -> None:
    """Another take commits between this take's read and its write (PostgreSQL's READ COMMITTED allows
    it): the write must see that the link was used and refuse, not hand the room over a second time."""
    store = RoomStore(db_url)
    row = make_room(store)
    secret = codes.token_hash("hand-over secret")
    store.set_handover(row.id, secret)
    rival = {"done": False}

    @sa.event.listens_for(store._engine, "before_cursor_execute")
    def _rival_takes_it_first(conn, cursor, statement, parameters, context, executemany) -> None:  # noqa: ANN001
        if not rival["done"] and statement.lstrip().upper().startswith("UPDATE TYPHOON_ROOMS") and "owner" in statement:
            rival["done"] = True
            raw = conn.connection.dbapi_connection.cursor()
            raw.execute("UPDATE typhoon_rooms SET owner = 'rival', handover_hash = NULL, version = version + 1")
            raw.close()

    with pytest.raises(TokenRejected) as e:
        store.take_room(secret, "late")
    sa.event.remove(store._engine, "before_cursor_execute", _rival_takes_it_first)
    assert rival["done"] and e.value.kind == "handover_unknown"
    assert store.room(row.id).owner is None  # rolled back: the late take changed nothing


def test_threads_racing_on_one_handover_exactly_one_wins(db_url: str) -> None:
    store = RoomStore(db_url)
    row = make_room(store)
    secret = codes.token_hash("hand-over secret")
    store.set_handover(row.id, secret)
    n = 6

    def taker(i: int) -> str:
        try:
            store.take_room(secret, f"teacher{i}")
            return f"won teacher{i}"
        except TokenRejected as exc:
            return exc.kind

    results = race(n, taker)
    winners = [r for r in results if r.startswith("won")]
    assert len(results) == n and len(winners) == 1, results
    assert sorted(r for r in results if not r.startswith("won")) == ["handover_unknown"] * (n - 1)
    assert store.room(row.id).owner == winners[0].split()[1]
