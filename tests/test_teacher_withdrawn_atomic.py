"""A teacher key taken away (``typhoon-edu teacher remove`` / ``teacher new-key``, run by another process while the
server serves) between a page's check of its key and its write: the store checks "this teacher still exists" (the
local teacher always counts) in the same write transaction as the insert of a room or a lesson round, on SQLite and
PostgreSQL, so no room or round is ever left owned by an id no teacher has (docs/security.md row 41).

Before, ``Room.create`` asked :func:`~typhoon_edu.classroom.teachers.key_withdrawn` before its transaction, and a
lesson round asked nothing: a removal committed in between left a room owned by a deleted id, shown to no one.

The races are made deterministic: the removal runs through a second store connection from a hook placed between the
check and the insert; on PostgreSQL two threads are ordered by events, and "the other one waits for the lock" is
read from ``pg_stat_activity`` (no sleeping and hoping).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from typhoon_edu.classroom import lesson_rounds as rounds_mod
from typhoon_edu.classroom import rooms as rooms_mod
from typhoon_edu.classroom import store as store_mod
from typhoon_edu.classroom import teachers as teachers_mod
from typhoon_edu.classroom.errors import NotAllowed
from typhoon_edu.classroom.lesson_rounds import LESSON_ROUNDS, LessonRounds
from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import LOCAL_TEACHER, NewSeat, RoomStore
from typhoon_edu.classroom.teachers import Teacher, add_teacher, remove_teacher, replace_key
from typhoon_edu.ui.lessons import forecast as fw
from typhoon_edu.ui.lessons import forecast_class as fcl

PEOPLE = [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea", name="Ken")]
SEATS = [NewSeat("Taiwan"), NewSeat("Japan", "greedy"), NewSeat("Korea")]


@pytest.fixture
def db(db_url: str) -> Iterator[RoomStore]:
    store = RoomStore(db_url)
    yield store
    store.close()


def take_away(url: str, how: str, teacher: Teacher) -> str:
    """Remove ``teacher`` or give them a new key through a connection of its own (another process's, as the CLI's);
    the id their rooms and rounds go to."""
    other = RoomStore(url)
    try:
        if how == "removed":
            remove_teacher(other, teacher)
            return LOCAL_TEACHER
        return replace_key(other, teacher)[0].id
    finally:
        other.close()


def owners(store: RoomStore) -> tuple[list[str], list[str]]:
    """The owners of every room and of every lesson round."""
    with store.transaction("read the owners") as conn:
        rooms = [r.owner or LOCAL_TEACHER for r in conn.execute(sa.select(store_mod.ROOMS.c.owner))]
        has_rounds = sa.inspect(conn).has_table(LESSON_ROUNDS.name)
        rounds = [r.owner for r in conn.execute(sa.select(LESSON_ROUNDS.c.owner))] if has_rounds else []
    return rooms, rounds


# ---------------------------------------------------------------------- between the page's check and its insert
@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_room_set_up_as_the_key_is_taken_away_is_refused_in_its_transaction(db: RoomStore, db_url: str,
                                                                              how: str, monkeypatch) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    real = rooms_mod.key_withdrawn

    def checked_then_removed(store: RoomStore, teacher: Teacher) -> str | None:
        said = real(store, teacher)  # the page's check passes: the key still works …
        take_away(db_url, how, teacher)  # … and the CLI takes it away before the room is written
        return said

    monkeypatch.setattr(rooms_mod, "key_withdrawn", checked_then_removed)
    with pytest.raises(NotAllowed) as err:
        Room.create(db, PEOPLE, seed=7, lang="en", teacher=lin)
    assert err.value.kind == "teacher_only"
    assert owners(db) == ([], [])  # before: a room owned by the deleted id, in nobody's rooms list


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_round_opened_as_the_key_is_taken_away_is_refused_in_its_transaction(db: RoomStore, db_url: str,
                                                                              how: str, monkeypatch) -> None:
    lin, key = add_teacher(db, "Ms Lin")
    rounds = LessonRounds(db)
    teacher = fw.ForecastChallenge("en", class_round=lambda c: fcl.class_round_panel(
        c, query={"teacher": key}, rounds=rounds))
    panel = teacher.class_panel
    assert panel.teacher_side is not None  # the page proved the key when it opened
    real, taken = rounds_mod.new_code, []

    def code_then_removed() -> str:  # drawn just before the round's transaction
        if not taken:
            taken.append(take_away(db_url, how, lin))
        return real()

    monkeypatch.setattr(rounds_mod, "new_code", code_then_removed)
    assert panel.open_round() is None  # before: "round opened", owned by the deleted id
    assert taken and owners(db) == ([], [])
    assert panel.key_gone == how


# ---------------------------------------------------------------------- PostgreSQL: two transactions at once
@pytest.fixture
def pg_url(postgres_server: Any) -> str:
    return postgres_server.create_schema(f"t_{uuid.uuid4().hex[:12]}")


def waits_for_a_lock(url: str, timeout: float = 30.0) -> bool:
    """Whether some session of this server comes to wait for a row lock within ``timeout`` seconds (read, not
    guessed: PostgreSQL's own view of its sessions)."""
    watcher = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with watcher.connect() as conn:
                n = conn.execute(sa.text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                         "AND pid <> pg_backend_pid()")).scalar()
            if n:
                return True
            time.sleep(0.02)
        return False
    finally:
        watcher.dispose()


def run(fn: Callable[[], Any], out: list[Any]) -> threading.Thread:
    def target() -> None:
        try:
            out.append(fn())
        except Exception as exc:  # noqa: BLE001 - the outcome is checked by the test
            out.append(exc)

    t = threading.Thread(target=target, daemon=True)
    t.start()
    return t


def _paused_after(module: Any, name: str, teacher_id: str, held: threading.Event, go: threading.Event,
                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``module.name`` (a check of the teacher's row) pauses its transaction, once it has run, until ``go``."""
    real = getattr(module, name)

    def paused(conn: sa.engine.Connection, who: str | None, *args: Any) -> Any:
        result = real(conn, who, *args)
        if who == teacher_id:
            held.set()
            assert go.wait(60)
        return result

    monkeypatch.setattr(module, name, paused)


@pytest.mark.parametrize("how", ["removed", "replaced"])
@pytest.mark.parametrize("what", ["room", "round"])
def test_postgres_a_removal_waits_for_a_room_or_round_being_made_and_then_moves_it(pg_url: str, how: str, what: str,
                                                                                  monkeypatch) -> None:
    db = RoomStore(pg_url)
    lin, _ = add_teacher(db, "Ms Lin")
    rounds = LessonRounds(db)
    held, go = threading.Event(), threading.Event()
    _paused_after(store_mod if what == "room" else rounds_mod, "hold_teacher", lin.id, held, go, monkeypatch)
    made: list[Any] = []
    if what == "room":
        maker = run(lambda: db.create_room(setup={"players": ["Taiwan", "Japan", "Korea"]}, seats=SEATS, lang="en",
                                           owner=lin.id), made)
    else:
        maker = run(lambda: rounds.open_round("forecast", owner=lin, stage="steady"), made)
    assert held.wait(60)  # the maker holds the teacher's row, its insert not yet written
    moved: list[Any] = []
    remover = run(lambda: take_away(pg_url, how, lin), moved)
    waited = waits_for_a_lock(pg_url)
    go.set()
    maker.join(60)
    remover.join(60)
    assert waited  # the removal waited for the maker's transaction …
    assert len(made) == 1 and not isinstance(made[0], Exception), made
    assert len(moved) == 1 and isinstance(moved[0], str), moved
    rooms, round_owners = owners(db)
    assert (rooms if what == "room" else round_owners) == [moved[0]]  # … and then moved what it made
    db.close()


@pytest.mark.parametrize("how", ["removed", "replaced"])
@pytest.mark.parametrize("what", ["room", "round"])
def test_postgres_a_room_or_round_made_while_a_removal_holds_the_teacher_waits_and_is_refused(
        pg_url: str, how: str, what: str, monkeypatch) -> None:
    db = RoomStore(pg_url)
    lin, _ = add_teacher(db, "Ms Lin")
    rounds = LessonRounds(db)
    held, go = threading.Event(), threading.Event()
    _paused_after(teachers_mod, "_move_rooms", lin.id, held, go, monkeypatch)  # the removal, its rooms moved
    moved: list[Any] = []
    remover = run(lambda: take_away(pg_url, how, lin), moved)
    assert held.wait(60)
    made: list[Any] = []
    if what == "room":
        maker = run(lambda: db.create_room(setup={"players": ["Taiwan", "Japan", "Korea"]}, seats=SEATS, lang="en",
                                           owner=lin.id), made)
    else:
        maker = run(lambda: rounds.open_round("forecast", owner=lin, stage="steady"), made)
    waited = waits_for_a_lock(pg_url)
    go.set()
    remover.join(60)
    maker.join(60)
    assert waited  # the maker waited for the removal …
    assert len(moved) == 1 and isinstance(moved[0], str), moved
    assert len(made) == 1 and isinstance(made[0], NotAllowed) and made[0].kind == "teacher_only", made
    assert owners(db) == ([], [])  # … and then found no teacher: nothing made
    db.close()
