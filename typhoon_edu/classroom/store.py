"""The durable room store: rooms, seats and an append-only action log, on SQLAlchemy Core.

One interface for both dialects (boardgame.io's storage API is the model): create, append,
read from seq N, head/version, list, finish, delete, seat changes, pause. No SQL is written
by hand; SQLAlchemy Core emits it for SQLite and PostgreSQL alike.

- **SQLite** (default): one file in the user data folder, ``TYPHOON_EDU_DB`` (a URL, or a
  file path) or an explicit URL overrides it. WAL mode (readers never block the writer), a
  busy timeout, and every write in a ``BEGIN IMMEDIATE`` transaction, so two writers queue
  instead of failing on a lock upgrade.
- **PostgreSQL**: ``postgresql+psycopg://user:password@host/db`` (psycopg 3; a plain
  ``postgresql://`` URL is read as psycopg 3 too), with a lock timeout.

The store is the authority on **order**: :meth:`RoomStore.append` takes the sequence number
the writer expects its first action to get, and in one transaction moves the room's head
only if that number is the next one; a writer that is behind gets :class:`StaleWrite`
carrying the current head, and nothing is written. The ``(room, seq)`` primary key is the
last line of defence, so an action can never be stored twice. The engine (see
:mod:`typhoon_edu.classroom.rooms`) is the authority on legality.

>>> store = RoomStore("sqlite://")                      # in memory, for this example
>>> row = store.create_room(setup={"players": ["Taiwan", "Japan", "Korea"]}, lang="en",
...                         seats=[NewSeat("Taiwan"), NewSeat("Japan", "greedy"), NewSeat("Korea", "random")])
>>> store.append(row.id, 1, ["place 8,8"], by="Taiwan").seq
1
>>> store.append(row.id, 1, ["place 9,8"], by="Taiwan").seq
Traceback (most recent call last):
...
typhoon_edu.classroom.errors.StaleWrite: someone else moved first: this was to be entry #1 of the log, which already holds entries up to #1
>>> [a.notation for a in store.actions(row.id)], store.head(row.id).seq
(['place 8,8'], 1)
"""

from __future__ import annotations

import json
import math
import os
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.pool import StaticPool

from .codes import new_code, normalize_code
from .errors import ClassroomError, NotAllowed, RoomNotFound, SeatError, StaleWrite, StoreError, TokenRejected

# 2: teachers, room owners and hand-over links, seat link nonces and device bindings;
# 3: the teacher's turn timer (turn_seconds, turn_since); 4: a room's lobby (the teacher has not started
# the game yet) and its successor (the room the teacher's rematch made after it); 5: a seat's last-seen time (its
# page's kernel says, at most every ~10 s, that the page is there: the teacher's drawer tells who has dropped out);
# 6: the class's animation speed (the teacher's choice on the projector, which every team's phone follows)
SCHEMA_VERSION = 6
OPEN, FINISHED, ENDED = "open", "finished", "ended"
STATUSES = (OPEN, FINISHED, ENDED)
SEAT_KINDS = ("person", "random", "greedy", "mcts")
MAX_NOTATION = 64

metadata = sa.MetaData()

ROOMS = sa.Table(
    "typhoon_rooms", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("code", sa.String(8), nullable=False, unique=True),
    sa.Column("setup", sa.Text, nullable=False),  # JSON text: kept as text so a damaged one can be named, not crash a query
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("paused", sa.Boolean, nullable=False),
    sa.Column("hints_enabled", sa.Boolean, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("version", sa.Integer, nullable=False),  # changes on every change: a view polls this one row
    sa.Column("head", sa.Integer, nullable=False),  # the last sequence number in the log (0: none yet)
    sa.Column("origin", sa.Text, nullable=False),  # "" or where it came from ("import:<file name>")
    sa.Column("owner", sa.String(32), nullable=True),  # the teacher's id (None: made before teachers: the local one)
    sa.Column("handover_hash", sa.String(64), nullable=True),  # SHA-256 of a hand-over link's secret, if one is out
    # The teacher's turn timer: seconds per person decision (0 or None: off), and when the count for
    # the decision now waited on began (set by every logged write, a resume and setting the timer).
    # Nullable, so an older database gets them by a plain ALTER TABLE ADD COLUMN.
    sa.Column("turn_seconds", sa.Integer, nullable=True),
    sa.Column("turn_since", sa.Float, nullable=True),
    # True while the room waits in the lobby (teams join; the teacher has not started the game): no decision is
    # stored until the teacher's start. NULL or False: the game has begun (every room made before schema 4).
    sa.Column("lobby", sa.Boolean, nullable=True),
    # The id of the room the teacher's rematch made after this one (None: none yet): a phone still on this room
    # is told, and offered its own seat there (rooms.Room.follow).
    sa.Column("successor", sa.String(32), nullable=True),
    # The class's animation speed, as the teacher chose it on the projector (0: no animation; NULL: a room made before
    # schema 6, or written by an older kernel: Normal, 1). Every team's phone animates at it.
    sa.Column("speed", sa.Float, nullable=True),
)

SEATS = sa.Table(
    "typhoon_seats", metadata,
    sa.Column("room_id", sa.String(32), sa.ForeignKey("typhoon_rooms.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("region", sa.String(32), nullable=False),
    sa.Column("kind", sa.String(12), nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),  # SHA-256 of the device token, never the token
    sa.Column("revoked", sa.Boolean, nullable=False),
    sa.Column("joined", sa.Float, nullable=True),  # when a device first opened the seat
    # The seat link's token is derived from a server secret and this nonce (see classroom/links.py),
    # so a reopened projector can show the same link again without the store holding the token.
    sa.Column("link_nonce", sa.String(32), nullable=True),
    sa.Column("device_hash", sa.String(64), nullable=True),  # SHA-256 of the device that the link is bound to
    # When the seat's page last said it is there (RoomStore.touch_seat, by the store's clock; None: not since it was
    # joined, or joined before schema 5). Not part of the room's version: a page's heartbeat makes no view re-read.
    sa.Column("seen", sa.Float, nullable=True),
)

TEACHERS = sa.Table(
    "typhoon_teachers", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("key_hash", sa.String(64), nullable=True, unique=True),  # SHA-256 of the teacher's key, never the key
    sa.Column("created", sa.Float, nullable=False),
)

#: Columns later schemas added to schema-1 tables (added in place when an older database is opened):
#: 2 added owner, handover_hash, link_nonce and device_hash; 3 added turn_seconds and turn_since; 4 added lobby and
#: successor; 5 added the seats' seen; 6 added the rooms' speed.
_ADDED = ((ROOMS, ("owner", "handover_hash", "turn_seconds", "turn_since", "lobby", "successor", "speed")),
          (SEATS, ("link_nonce", "device_hash", "seen")))

ACTIONS = sa.Table(
    "typhoon_actions", metadata,
    sa.Column("room_id", sa.String(32), sa.ForeignKey("typhoon_rooms.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("notation", sa.String(MAX_NOTATION), nullable=False),
    sa.Column("by_seat", sa.String(32), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

IMPORTS = sa.Table(
    "typhoon_imports", metadata,
    sa.Column("source", sa.Text, primary_key=True),  # the absolute path of the JSON save file
    sa.Column("digest", sa.String(64), nullable=False),
    sa.Column("room_id", sa.String(32), nullable=True),
    sa.Column("ok", sa.Boolean, nullable=False),
    sa.Column("kind", sa.String(24), nullable=False),
    sa.Column("error", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

META = sa.Table(
    "typhoon_meta", metadata,
    sa.Column("key", sa.String(32), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)


# ---------------------------------------------------------------------- rows
@dataclass(frozen=True)
class RoomRow:
    """One room's row. ``setup`` is the stored JSON text (see :meth:`setup_dict`)."""

    id: str
    code: str
    setup: str
    lang: str
    status: str
    paused: bool
    hints_enabled: bool
    created: float
    updated: float
    finished: float | None
    version: int
    head: int
    origin: str
    problem: str = ""  # set when the row itself holds damaged values
    owner: str | None = None  # the id of the teacher whose room it is (None: the local teacher's)
    turn_seconds: int = 0  # the teacher's turn timer: seconds per person decision (0: off)
    turn_since: float | None = None  # when the count for the decision now waited on began
    lobby: bool = False  # waiting in the lobby: the teacher has not started the game, no decision is taken
    successor: str | None = None  # the id of the room the teacher's rematch made after this one
    speed: float = 1.0  # the class's animation speed (0: none); 1 for a room that has none stored

    @property
    def is_open(self) -> bool:
        return self.status == OPEN

    def setup_dict(self) -> dict[str, Any]:
        """The setup as a dict; ValueError naming the problem if the stored text is damaged."""
        data = json.loads(self.setup)
        if not isinstance(data, dict):
            raise ValueError("the stored setup is not a JSON object")
        return data


@dataclass(frozen=True)
class SeatRow:
    room_id: str
    index: int
    region: str
    kind: str
    name: str
    token_hash: str | None
    revoked: bool
    joined: float | None
    link_nonce: str | None = None
    device_hash: str | None = None
    seen: float | None = None  # when the seat's page last said it is there (the store's clock)


@dataclass(frozen=True)
class TeacherRow:
    id: str
    name: str
    key_hash: str | None
    created: float


@dataclass(frozen=True)
class ActionRow:
    seq: int
    notation: str
    by: str
    at: float


@dataclass(frozen=True)
class Head:
    """The cheap row a view polls: the last sequence number and the version."""

    seq: int
    version: int
    status: str
    paused: bool
    turn_since: float | None = None  # filled in by append (a writer's room keeps its timer's start right)


@dataclass(frozen=True)
class Snapshot:
    """A consistent read of one room: its row, its seats, and its actions after a given seq."""

    room: RoomRow
    seats: tuple[SeatRow, ...]
    actions: tuple[ActionRow, ...]


@dataclass(frozen=True)
class ImportRow:
    source: str
    digest: str
    room_id: str | None
    ok: bool
    kind: str
    error: str
    at: float


@dataclass(frozen=True)
class NewSeat:
    """A seat for :meth:`RoomStore.create_room` (``token_hash`` only for a person seat with a device token)."""

    region: str
    kind: str = "person"
    name: str = ""
    token_hash: str | None = None
    link_nonce: str | None = None


_KEEP: Any = object()


class _Succeeded(Exception):  # not an error: a signal that rolls a rematch's transaction back
    """The room a rematch was to follow already names an open successor (:meth:`RoomStore._name_successor`)."""

    def __init__(self, successor: str) -> None:
        super().__init__(successor)
        self.successor = successor


class _Bad(list):  # type: ignore[type-arg]
    """The fields of one row that did not hold what the schema says (a hand-edited database)."""


def _num(value: Any, cast: type, field: str, bad: _Bad, default: Any = 0) -> Any:
    try:
        return cast(value)
    except (TypeError, ValueError):
        bad.append(field)
        return default


def _text(value: Any, field: str, bad: _Bad) -> str:
    if isinstance(value, str):
        return value
    bad.append(field)
    return "" if value is None else str(value)


def _room(r: Any) -> RoomRow:
    # Every value is checked, so one damaged row is listed as broken instead of stopping the list.
    bad = _Bad()
    finished = None if r.finished is None else _num(r.finished, float, "finished", bad, None)
    row = RoomRow(_text(r.id, "id", bad), _text(r.code, "code", bad), _text(r.setup, "setup", bad),
                  _text(r.lang, "lang", bad), _text(r.status, "status", bad), bool(r.paused), bool(r.hints_enabled),
                  _num(r.created, float, "created", bad, 0.0), _num(r.updated, float, "updated", bad, 0.0), finished,
                  _num(r.version, int, "version", bad), _num(r.head, int, "head", bad), r.origin or "",
                  owner=r.owner if isinstance(r.owner, str) else None,
                  turn_seconds=0 if r.turn_seconds is None else _num(r.turn_seconds, int, "turn_seconds", bad),
                  turn_since=None if r.turn_since is None else _num(r.turn_since, float, "turn_since", bad, None),
                  lobby=bool(r.lobby), successor=r.successor if isinstance(r.successor, str) else None,
                  speed=stored_speed(r.speed))
    if row.status not in STATUSES:
        bad.append("status")
    if bad:
        row = replace(row, problem=f"the stored room has damaged fields: {', '.join(bad)}")
    return row


#: The class's animation speeds a room keeps: 0 (no animation) to this many times Normal.
MAX_SPEED = 8.0


def valid_speed(speed: Any) -> bool:
    """Whether ``speed`` is an animation speed a room keeps: a finite number from 0 (no animation) to :data:`MAX_SPEED`.

    >>> valid_speed(2), valid_speed(0.0), valid_speed(-1), valid_speed(float("nan")), valid_speed(True), valid_speed("2")
    (True, True, False, False, False, False)
    >>> valid_speed(10**400)
    False
    """
    if not isinstance(speed, (int, float)) or isinstance(speed, bool):
        return False
    try:
        return math.isfinite(speed) and 0.0 <= speed <= MAX_SPEED
    except OverflowError:  # an int too large for a float (10**400)
        return False


def stored_speed(value: Any) -> float:
    """The class's speed from a room's row: 1 (Normal) when none is stored (a room made before schema 6, or written by
    an older kernel) or the stored value is not a speed (a hand-edited row; the game itself is not damaged by it).

    >>> stored_speed(2.0), stored_speed(None), stored_speed("fast"), stored_speed(float("inf")), stored_speed(-3)
    (2.0, 1.0, 1.0, 1.0, 1.0)
    """
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    return float(value) if valid_speed(value) else 1.0


def _seat(r: Any) -> SeatRow:
    bad = _Bad()
    joined = None if r.joined is None else _num(r.joined, float, "joined", bad, None)
    seen = None if r.seen is None else _num(r.seen, float, "seen", bad, None)
    return SeatRow(r.room_id, _num(r.idx, int, "idx", bad, -1), _text(r.region, "region", bad),
                   _text(r.kind, "kind", bad), r.name if isinstance(r.name, str) else "", r.token_hash,
                   bool(r.revoked), joined, r.link_nonce if isinstance(r.link_nonce, str) else None,
                   r.device_hash if isinstance(r.device_hash, str) else None, seen)


def _teacher(r: Any) -> TeacherRow:
    return TeacherRow(str(r.id), r.name if isinstance(r.name, str) else "", r.key_hash, float(r.created or 0.0))


#: The id of the computer's own teacher (the notebook's user; the one ``serve`` prints the address of).
LOCAL_TEACHER = "local"


def _owned_by(owner: str | None) -> Any:
    """The rooms of ``owner``: rooms without an owner (made before teachers) are the local teacher's."""
    if owner == LOCAL_TEACHER:
        return sa.or_(ROOMS.c.owner == owner, ROOMS.c.owner.is_(None))
    return ROOMS.c.owner == owner


def hold_teacher(conn: sa.engine.Connection, teacher_id: str | None, what: str = "do this") -> None:
    """In a write transaction that is about to give ``teacher_id`` something (a new room, a lesson round), make sure
    they are still a teacher of this store until it commits: NotAllowed (``teacher_only``) if ``teacher remove`` or
    ``teacher new-key`` took their id away, and nothing is written. The local teacher always counts (it is never
    removed), and so does no owner (None: a room from before teachers, the local teacher's).

    The check and the write are one transaction, so a removal by another process (the CLI while the server serves)
    lands before it (refused here) or after it (the removal then moves the new room or round as it moves every
    other): on SQLite every write holds the write lock (``BEGIN IMMEDIATE``); on PostgreSQL the teacher's row is
    read ``FOR SHARE``, which a removal or a new key (both lock that row ``FOR UPDATE`` first) waits for, and
    which waits for them and then finds the row gone.

    >>> store = RoomStore("sqlite://")
    >>> with store.transaction("check that it can be written", write=True) as conn:
    ...     hold_teacher(conn, LOCAL_TEACHER)
    ...     hold_teacher(conn, "0f" * 16, "open a lesson round")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    typhoon_edu.classroom.errors.NotAllowed: only a teacher may open a lesson round: teacher 0f0f0f... is no longer ...
    """
    if teacher_id is None or teacher_id == LOCAL_TEACHER:
        return
    found = conn.execute(sa.select(TEACHERS.c.id).where(TEACHERS.c.id == teacher_id)
                         .with_for_update(read=True)).first()
    if found is None:
        raise NotAllowed(f"only a teacher may {what}: teacher {teacher_id} is no longer a teacher of this server (the "
                         f"key this page proved was removed or replaced)", kind="teacher_only", withdrawn=True)


def devices_allowed(setup: Mapping[str, Any] | str | None) -> bool:
    """Whether teams may join a room with this setup from their devices (its ``options``' ``devices``).

    Off only when the teacher chose one computer (``{"options": {"devices": false}}``); a room made
    before the option, or without it, has devices. A damaged setup says yes here: such a room does
    not open at all (:func:`typhoon_edu.classroom.rooms.setup_of`).

    >>> devices_allowed('{"options": {"devices": false}}'), devices_allowed({"players": []}), devices_allowed(None)
    (False, True, True)
    """
    if isinstance(setup, str):
        try:
            setup = json.loads(setup)
        except ValueError:
            return True
    options = setup.get("options") if isinstance(setup, Mapping) else None
    return bool(options.get("devices", True)) if isinstance(options, Mapping) else True


def _check_speed(speed: Any) -> None:
    if not valid_speed(speed):
        raise ValueError(f"the speed is a number from 0 (no animation) to {MAX_SPEED:g}, not {speed!r}")


def _no_devices(conn: sa.engine.Connection, room_id: str) -> None:
    """SeatError ``no_devices`` if the room is played on one computer (no seat is a device's)."""
    setup = conn.execute(sa.select(ROOMS.c.setup).where(ROOMS.c.id == room_id)).scalar()
    if not devices_allowed(setup):
        raise SeatError("this game is played on one computer: none of its seats can be joined or opened from a "
                        "device (only a room set up with devices allows that)", kind="no_devices")


def _has_other_seat(conn: sa.engine.Connection, room_id: str, device_hash: str | None, *, region: str) -> None:
    """SeatError ``device_has_seat`` if this device already holds a live (not revoked) seat of the room
    other than ``region``: a device plays one seat, so it never sees two hands."""
    if device_hash is None:
        return
    other = conn.execute(sa.select(SEATS.c.region).where(
        SEATS.c.room_id == room_id, SEATS.c.region != region, SEATS.c.device_hash == device_hash,
        SEATS.c.revoked == sa.false())).first()
    if other is not None:
        raise SeatError(f"this device already plays {other.region} in this game, and a device plays one seat only "
                        f"(it may open {other.region} again; the teacher's reset device or new join link frees it)",
                        kind="device_has_seat", region=other.region)


def _action(r: Any) -> ActionRow:
    bad = _Bad()
    return ActionRow(_num(r.seq, int, "seq", bad, -1), _text(r.notation, "notation", bad),
                     r.by_seat if isinstance(r.by_seat, str) else "", _num(r.at, float, "at", bad, 0.0))


# ---------------------------------------------------------------------- URLs and engines
def sqlite_url(path: str | Path) -> str:
    """The SQLAlchemy URL of a SQLite file.

    >>> sqlite_url("/tmp/rooms.sqlite3")
    'sqlite:////tmp/rooms.sqlite3'
    """
    return "sqlite:///" + Path(path).expanduser().absolute().as_posix()


def default_db_path() -> Path:
    """The SQLite file used unless ``TYPHOON_EDU_DB`` or a URL says otherwise."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("typhoon-edu", appauthor=False)) / "rooms.sqlite3"


def default_url() -> str:
    """``TYPHOON_EDU_DB`` (a URL like ``postgresql+psycopg://…`` or a file path), else the user data folder's file."""
    env = os.environ.get("TYPHOON_EDU_DB", "").strip()
    if env:
        return env if "://" in env else sqlite_url(env)
    return sqlite_url(default_db_path())


def _translate(exc: BaseException, what: str) -> StoreError:
    """A database failure as a StoreError whose kind a person can be told about."""
    orig = getattr(exc, "orig", None) or exc
    name = str(getattr(orig, "sqlite_errorname", "") or "")
    state = str(getattr(orig, "sqlstate", "") or "")
    msg = str(orig).lower()
    if name.startswith("SQLITE_READONLY") or "readonly" in msg or "read-only" in msg or state in ("25006", "42501"):
        kind = "read_only"
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in msg \
            or state in ("55P03", "40001", "40P01", "57014"):
        kind = "locked"
    elif name == "SQLITE_FULL" or "disk is full" in msg or state == "53100":
        kind = "disk_full"
    elif name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or "not a database" in msg or "malformed" in msg:
        kind = "corrupt"
    elif name == "SQLITE_CANTOPEN" or "unable to open" in msg or state.startswith(("08", "57P", "3D")) \
            or (isinstance(exc, sa_exc.OperationalError) and not name and not state):
        kind = "unavailable"
    else:
        kind = "io"
    return StoreError(f"the room database could not {what}: {orig}", kind=kind, what=what)


class RoomStore:
    """Rooms, seats and action logs in one database (SQLite file or PostgreSQL server).

    ``url``: a SQLAlchemy URL (``sqlite:///path``, ``postgresql+psycopg://…``), or None for
    :func:`default_url`. ``busy_timeout``: seconds a writer waits for another writer's lock
    before :class:`StoreError` (``kind="locked"``). Thread-safe (each thread gets its own
    pooled connection); a forked child process reconnects on first use.
    """

    def __init__(self, url: str | None = None, *, busy_timeout: float = 5.0) -> None:
        self.busy_timeout = float(busy_timeout)
        raw = url if url is not None else default_url()
        try:
            u = sa.engine.make_url(raw)
        except sa_exc.ArgumentError as exc:
            raise StoreError(f"{raw!r} is not a database URL ({exc})", kind="unavailable", what="open") from None
        backend = u.get_backend_name()
        if backend == "sqlite":
            self._engine = self._sqlite_engine(u)
        elif backend == "postgresql":
            self._engine = self._postgres_engine(u)
        else:
            raise StoreError(f"the room store runs on SQLite or PostgreSQL, not {backend!r}", kind="unavailable",
                             what="open")
        self.dialect = backend
        from .links import process_secret

        #: The secret seat links are derived from (classroom/links.py); a served app sets the
        #: computer's (``load_link_secret()``) so a reopened projector shows the same links.
        self.link_secret: bytes = process_secret()
        self.read_only = False  # True when a SQLite file could only be opened read-only
        #: The clock of the seats' last-seen times (:meth:`touch_seat`, :meth:`presence`): this kernel's, never a
        #: page's (a device sends no time). Replaceable, for tests.
        self.clock: Callable[[], float] = time.time
        self.url = self._engine.url.render_as_string(hide_password=True)
        self._pid = os.getpid()
        self._init_schema()

    # -------------------------------------------------------------- engines
    def _sqlite_engine(self, u: sa.engine.URL) -> sa.engine.Engine:
        db = u.database or ""
        memory = db in ("", ":memory:") or "mode=memory" in db
        if not memory and not u.query.get("uri"):
            try:
                Path(db).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"the folder of the room database {db} cannot be made ({exc.strerror})",
                                 kind="read_only" if isinstance(exc, PermissionError) else "unavailable",
                                 what="open") from None
        args: dict[str, Any] = {"timeout": self.busy_timeout, "check_same_thread": False}
        if memory:
            engine = sa.create_engine(u, connect_args=args, poolclass=StaticPool)
        else:
            engine = sa.create_engine(u, connect_args=args)
        busy_ms = int(self.busy_timeout * 1000)

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # the driver begins nothing itself: _on_begin does (below)
            cur = dbapi_conn.cursor()
            try:
                cur.execute(f"PRAGMA busy_timeout = {busy_ms}")
                cur.execute("PRAGMA foreign_keys = ON")
                if not memory:
                    try:
                        cur.execute("PRAGMA journal_mode = WAL")
                        # WAL + NORMAL: no corruption and nothing lost when a process dies; only a
                        # power cut may lose the last moves (FULL would fsync every move).
                        cur.execute("PRAGMA synchronous = NORMAL")
                    except Exception:  # noqa: BLE001 - a read-only database file can still be read
                        pass
            finally:
                cur.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: sa.engine.Connection) -> None:
            # A write takes the lock when it begins, so two writers queue (busy timeout) instead of
            # both reading and then failing to upgrade their lock.
            conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("typhoon_write") else "BEGIN")

        return engine

    def _postgres_engine(self, u: sa.engine.URL) -> sa.engine.Engine:
        if u.drivername == "postgresql":
            u = u.set(drivername="postgresql+psycopg")
        ms = int(self.busy_timeout * 1000)
        # libpq "options" from the URL (e.g. a search_path) are kept; the lock timeout is added to them
        extra = u.query.get("options", "")
        extra = " ".join(extra) if isinstance(extra, tuple) else extra
        u = u.difference_update_query(["options"])
        args = {"connect_timeout": max(1, int(round(self.busy_timeout))),
                "options": f"{extra} -c lock_timeout={ms}".strip()}
        return sa.create_engine(u, connect_args=args, pool_pre_ping=True)

    def transaction(self, what: str, *, write: bool = False, snapshot: bool = False,
                    single: bool = False) -> AbstractContextManager[sa.engine.Connection]:
        """One transaction on this store's database for a module that keeps tables of its own in it
        (lesson 07's class rounds, :mod:`typhoon_edu.classroom.lesson_rounds`).

        ``what`` says what it does ("keep the team's answer"): a database failure becomes a
        :class:`StoreError` naming it, and everything done in the block is rolled back.
        ``write=True`` takes the store's write lock (SQLite's ``BEGIN IMMEDIATE``);
        ``snapshot=True`` reads several tables as of one moment; ``single=True`` is for one
        statement only.

        >>> store = RoomStore("sqlite://")
        >>> with store.transaction("count the rooms") as conn:
        ...     conn.execute(sa.text("SELECT COUNT(*) FROM typhoon_rooms")).scalar()
        0
        """
        return self._tx(what, write=write, snapshot=snapshot, single=single)

    @contextmanager
    def _tx(self, what: str, *, write: bool = False, snapshot: bool = False, single: bool = False,
            integrity_raw: bool = False) -> Iterator[sa.engine.Connection]:
        """One transaction; a database failure becomes a StoreError naming ``what`` (all rolled back)."""
        if os.getpid() != self._pid:  # a forked child: never share the parent's connections
            self._engine.dispose(close=False)
            self._pid = os.getpid()
        try:
            with self._engine.connect() as conn:
                if write:
                    conn.execution_options(typhoon_write=True)
                elif snapshot and self.dialect == "postgresql":
                    conn.execution_options(isolation_level="REPEATABLE READ")
                elif single and self.dialect == "postgresql":
                    # one statement is its own snapshot: no BEGIN/COMMIT round trips for the poll
                    conn.execution_options(isolation_level="AUTOCOMMIT")
                with conn.begin():
                    yield conn
        except ClassroomError:
            raise
        except sa_exc.IntegrityError as exc:
            if integrity_raw:
                raise
            raise _translate(exc, what) from exc
        except sa_exc.DBAPIError as exc:
            raise _translate(exc, what) from exc
        except sa_exc.SQLAlchemyError as exc:
            raise StoreError(f"the room database could not {what}: {exc}", kind="io", what=what) from exc
        except OSError as exc:
            raise StoreError(f"the room database could not {what}: {exc}", kind="io", what=what) from exc

    def _schema_version(self) -> int | None:
        try:
            with self._tx("read its version") as conn:
                value = conn.execute(sa.select(META.c.value).where(META.c.key == "schema")).scalar()
        except StoreError as exc:
            if exc.kind in ("unavailable", "corrupt", "locked", "read_only"):
                raise
            return None  # no tables yet
        return None if value is None else int(value)

    def _init_schema(self) -> None:
        try:
            found = self._schema_version()
        except StoreError as exc:
            db = self._engine.url.database or ""
            if exc.kind != "read_only" or self.dialect != "sqlite" or self._engine.url.query.get("uri") \
                    or not Path(db).is_file():
                raise
            # A WAL database in a folder this user cannot write: SQLite cannot make its shared-memory
            # file, so open it as an unchanging, read-only file instead (every write says read_only).
            self._engine.dispose()
            self._engine = self._sqlite_engine(sa.engine.make_url(
                f"sqlite:///file:{Path(db).absolute().as_posix()}?mode=ro&immutable=1&uri=true"))
            self.read_only = True
            found = self._schema_version()
        if found is None:
            try:
                with self._tx("create its tables", write=True, integrity_raw=True) as conn:
                    metadata.create_all(conn, checkfirst=True)
                    if conn.execute(sa.select(META.c.value).where(META.c.key == "schema")).scalar() is None:
                        conn.execute(sa.insert(META).values(key="schema", value=str(SCHEMA_VERSION)))
            except (StoreError, sa_exc.IntegrityError) as exc:
                # another process may have made the tables at the same moment: then they are there now
                if isinstance(exc, StoreError) and exc.kind != "io":
                    raise
                if self._schema_version() is None:
                    raise exc if isinstance(exc, StoreError) else _translate(exc, "create its tables") from None
            found = self._schema_version() or SCHEMA_VERSION
        if found > SCHEMA_VERSION:
            raise StoreError(f"the room database was made by a newer version of typhoon-edu (schema {found}; "
                             f"this version reads schema {SCHEMA_VERSION})", kind="schema", what="open")
        if found < SCHEMA_VERSION:
            self._upgrade(found)

    def _upgrade(self, found: int) -> None:
        """Bring a schema-1 or schema-2 database up to date in place: new tables, and new (empty) columns."""
        if self.read_only:
            raise StoreError(f"the room database is read-only and was made by an older version of typhoon-edu "
                             f"(schema {found}); it must be writable once so it can be brought up to date",
                             kind="read_only", what="open")
        try:
            with self._tx("bring its tables up to date", write=True, integrity_raw=True) as conn:
                metadata.create_all(conn, checkfirst=True)
                have = {t.name: {c["name"] for c in sa.inspect(conn).get_columns(t.name)} for t, _ in _ADDED}
                for table, names in _ADDED:
                    for name in names:
                        if name not in have[table.name]:
                            col = table.c[name]
                            ddl = col.type.compile(dialect=conn.dialect)
                            conn.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {name} {ddl}")
                conn.execute(sa.update(META).where(META.c.key == "schema").values(value=str(SCHEMA_VERSION)))
        except (sa_exc.SQLAlchemyError, StoreError) as exc:
            # another process may have upgraded it at the same moment (on PostgreSQL its ALTER TABLE then fails here
            # with "column already exists", which _tx has already translated into a StoreError)
            if (self._schema_version() or 0) < SCHEMA_VERSION:
                if isinstance(exc, StoreError):
                    raise
                raise _translate(exc, "bring its tables up to date") from None

    def check_writable(self) -> None:
        """StoreError (``read_only``, ``locked``, ``disk_full``, …) unless a write can be made now.

        Writes one row back unchanged, in a transaction of its own: a read-only file, database or
        role says so here, before a teacher presses Start.
        """
        if self.read_only:
            raise StoreError("the room database could not be written: it was opened read-only", kind="read_only",
                             what="check that it can be written")
        with self._tx("check that it can be written", write=True) as conn:
            conn.execute(sa.update(META).where(META.c.key == "schema").values(value=META.c.value))

    def close(self) -> None:
        """Close every pooled connection."""
        self._engine.dispose()

    def __repr__(self) -> str:
        return f"RoomStore({self.url!r})"

    # -------------------------------------------------------------- rooms
    def create_room(self, *, setup: Mapping[str, Any] | str, seats: Sequence[NewSeat], lang: str,
                    hints_enabled: bool = True, actions: Sequence[str] = (), by: str = "setup", status: str = OPEN,
                    origin: str = "", import_source: str | None = None, import_digest: str = "",
                    owner: str | None = None, room_id: str | None = None, lobby: bool = False,
                    predecessor: str | None = None, speed: float = 1.0) -> RoomRow:
        """A new room with a fresh code (retried on a clash), its seats and its first actions.

        With ``import_source``, the import is recorded in the same transaction; if that source
        was already imported (by another process, a moment ago) nothing is created and
        :class:`KeyError` is raised. ``lobby``: the room waits in the lobby until :meth:`begin`
        (no decision is stored before). ``predecessor``: the id of the room this one is a rematch of,
        which names this one as its successor in the same transaction (RoomNotFound, and nothing
        is created, if there is no such room). ``speed``: the class's animation speed (:meth:`set_speed`).
        ``owner``: the teacher whose room it is; NotAllowed (``teacher_only``), and nothing is created, when that id
        is no longer a teacher of this store, checked in the same transaction (:func:`hold_teacher`).
        The first rematch wins: when the predecessor already
        names an open successor (a second teacher page, a reload of the results, a double tap, or a
        rematch a moment ago on another kernel), nothing is created and that room's row is returned
        instead (the caller tells by its id); see :meth:`_name_successor`.
        """
        if status not in STATUSES:
            raise ValueError(f"a room's status is one of {', '.join(STATUSES)}, not {status!r}")
        _check_speed(speed)
        setup_text = setup if isinstance(setup, str) else json.dumps(dict(setup), sort_keys=True, ensure_ascii=False)
        self._check_seats(seats)
        notations = self._check_notations(actions, allow_empty=True)
        for _attempt in range(50):
            rid, code, now = room_id or uuid.uuid4().hex, new_code(), time.time()
            try:
                with self._tx("create the room", write=True, integrity_raw=True) as conn:
                    hold_teacher(conn, owner, "set up a room")  # first: a removal that came first is seen here
                    if predecessor is not None:  # a rematch: first, atomically, the old room names this one
                        self._name_successor(conn, predecessor, rid)
                    conn.execute(sa.insert(ROOMS).values(
                        id=rid, code=code, setup=setup_text, lang=lang, status=status, paused=False,
                        hints_enabled=bool(hints_enabled), created=now, updated=now,
                        finished=None if status == OPEN else now, version=1, head=len(notations), origin=origin,
                        owner=owner, handover_hash=None, turn_seconds=0, turn_since=now, lobby=bool(lobby),
                        successor=None, speed=float(speed)))
                    conn.execute(sa.insert(SEATS), [
                        dict(room_id=rid, idx=i, region=s.region, kind=s.kind, name=s.name, token_hash=s.token_hash,
                             revoked=False, joined=None, link_nonce=s.link_nonce, device_hash=None, seen=None)
                        for i, s in enumerate(seats)])
                    if notations:
                        conn.execute(sa.insert(ACTIONS), [
                            dict(room_id=rid, seq=i + 1, notation=n, by_seat=by, at=now) for i, n in enumerate(notations)])
                    if import_source is not None:  # (a note that it was damaged before gives way)
                        conn.execute(sa.delete(IMPORTS).where(IMPORTS.c.source == import_source,
                                                              IMPORTS.c.ok == sa.false()))
                        conn.execute(sa.insert(IMPORTS).values(source=import_source, digest=import_digest, room_id=rid,
                                                               ok=True, kind="", error="", at=now))
            except _Succeeded as exc:  # another rematch of the predecessor came first: its room, nothing made
                return self.room(exc.successor)
            except sa_exc.IntegrityError as exc:
                done = self.import_row(import_source) if import_source is not None else None
                if done is not None and done.ok:
                    raise KeyError(import_source) from None
                if any(s.token_hash for s in seats) and "token" in str(exc.orig).lower():
                    raise _translate(exc, "create the room") from None
                continue  # the code clashed with another room's: draw another
            return self.room(rid)
        raise StoreError("no free room code could be found", kind="io", what="create the room")

    @staticmethod
    def _name_successor(conn: sa.engine.Connection, predecessor: str, rid: str) -> None:
        """Make ``rid`` the successor of room ``predecessor``, unless it already has one that is open (the first
        rematch wins): then raise :class:`_Succeeded` with that room's id, and the caller's transaction makes nothing.

        A successor whose game is over, or that was deleted, gives way (a rematch of the old results is then a new
        game, not the old new one's results or an error for ever). The write is a compare-and-set on the successor
        just read: on SQLite the write lock (``BEGIN IMMEDIATE``) already orders rematches; on PostgreSQL (READ
        COMMITTED) a second rematch waits for the first one's row lock, then finds the successor changed and reads
        the first one's room (a WHERE that looked the successor's status up itself would be re-checked on the old
        snapshot, and both would win). RoomNotFound if there is no room ``predecessor``.
        """
        for _attempt in range(3):
            row = conn.execute(sa.select(ROOMS.c.successor).where(ROOMS.c.id == predecessor)).first()
            if row is None:
                raise RoomNotFound(f"there is no room with id {predecessor!r}", kind="not_found")
            current = row.successor
            if current is not None:
                status = conn.execute(sa.select(ROOMS.c.status).where(ROOMS.c.id == current)).scalar()
                if status == OPEN:
                    raise _Succeeded(current)
            same = ROOMS.c.successor.is_(None) if current is None else ROOMS.c.successor == current
            if conn.execute(sa.update(ROOMS).where(ROOMS.c.id == predecessor, same).values(
                    successor=rid, version=ROOMS.c.version + 1, updated=time.time())).rowcount == 1:
                return
            # another rematch named its room in between (PostgreSQL): read it again, now committed
        raise StoreError("the rematch could not be recorded: the old room's next game kept changing", kind="io",
                         what="create the room")

    @staticmethod
    def _check_seats(seats: Sequence[NewSeat]) -> None:
        if not 3 <= len(seats) <= 5:
            raise SeatError(f"a room has 3 to 5 seats, not {len(seats)}", kind="bad_seats")
        for s in seats:
            if s.kind not in SEAT_KINDS:
                raise SeatError(f"a seat is a person or a bot ({', '.join(SEAT_KINDS[1:])}); got {s.kind!r}",
                                kind="bad_kind", seat_kind=s.kind)
            if s.kind != "person" and s.token_hash:
                raise SeatError(f"the bot seat {s.region} cannot have a device token", kind="bad_kind", seat_kind=s.kind)

    @staticmethod
    def _check_notations(notations: Sequence[str], allow_empty: bool = False) -> list[str]:
        out = list(notations)
        if not out and not allow_empty:
            raise ValueError("append needs at least one action")
        for n in out:
            if not isinstance(n, str) or not n.strip() or len(n) > MAX_NOTATION:
                raise ValueError(f"an action is stored as its notation (text of 1 to {MAX_NOTATION} characters), "
                                 f"not {n!r}")
        return out

    def room(self, room_id: str) -> RoomRow:
        """One room's row; RoomNotFound if there is none."""
        with self._tx("read the room") as conn:
            r = conn.execute(sa.select(ROOMS).where(ROOMS.c.id == room_id)).first()
        if r is None:
            raise RoomNotFound(f"there is no room with id {room_id!r}", kind="not_found")
        return _room(r)

    def room_by_code(self, code: str) -> RoomRow:
        """The room with this join code (typed loosely: case, spaces and dashes do not matter)."""
        norm = normalize_code(code)
        with self._tx("find the room") as conn:
            r = conn.execute(sa.select(ROOMS).where(ROOMS.c.code == norm)).first()
        if r is None:
            raise RoomNotFound(f"no room has the code {norm}", kind="not_found", code=norm)
        return _room(r)

    def rooms(self, *, status: str | None = None, owner: str | None = _KEEP) -> list[RoomRow]:
        """Every room's row (most recently changed first), or those with ``status``, or those of one ``owner``.

        ``owner``: a teacher's id; rooms made before teachers existed (no owner) are the local
        teacher's (:data:`LOCAL_TEACHER`).
        """
        q = sa.select(ROOMS).order_by(ROOMS.c.updated.desc())
        if status is not None:
            q = q.where(ROOMS.c.status == status)
        if owner is not _KEEP:
            q = q.where(_owned_by(owner))
        with self._tx("list the rooms") as conn:
            return [_room(r) for r in conn.execute(q)]

    def head(self, room_id: str) -> Head:
        """The one cheap row a view polls (~every 0.2 s): last sequence number, version, status, paused."""
        with self._tx("read the room", single=True) as conn:
            r = conn.execute(sa.select(ROOMS.c.head, ROOMS.c.version, ROOMS.c.status, ROOMS.c.paused)
                             .where(ROOMS.c.id == room_id)).first()
        if r is None:
            raise RoomNotFound(f"there is no room with id {room_id!r}", kind="not_found")
        return Head(int(r.head), int(r.version), r.status, bool(r.paused))

    def seats(self, room_id: str) -> list[SeatRow]:
        with self._tx("read the seats") as conn:
            return [_seat(r) for r in conn.execute(sa.select(SEATS).where(SEATS.c.room_id == room_id)
                                                   .order_by(SEATS.c.idx))]

    def seats_of(self, room_ids: Sequence[str]) -> dict[str, list[SeatRow]]:
        """The seats of several rooms in one query (for listing)."""
        out: dict[str, list[SeatRow]] = {rid: [] for rid in room_ids}
        if not room_ids:
            return out
        with self._tx("read the seats") as conn:
            for s in conn.execute(sa.select(SEATS).where(SEATS.c.room_id.in_(list(room_ids)))
                                  .order_by(SEATS.c.room_id, SEATS.c.idx)):
                out[s.room_id].append(_seat(s))
        return out

    def actions(self, room_id: str, after: int = 0) -> list[ActionRow]:
        """The log entries with a sequence number above ``after``, in order."""
        with self._tx("read the moves") as conn:
            return [_action(r) for r in conn.execute(
                sa.select(ACTIONS).where(ACTIONS.c.room_id == room_id, ACTIONS.c.seq > after).order_by(ACTIONS.c.seq))]

    def actions_of(self, room_ids: Sequence[str]) -> dict[str, list[ActionRow]]:
        """The whole logs of several rooms in one query (for listing)."""
        out: dict[str, list[ActionRow]] = {rid: [] for rid in room_ids}
        if not room_ids:
            return out
        with self._tx("read the moves") as conn:
            for r in conn.execute(sa.select(ACTIONS).where(ACTIONS.c.room_id.in_(list(room_ids)))
                                  .order_by(ACTIONS.c.room_id, ACTIONS.c.seq)):
                out[r.room_id].append(_action(r))
        return out

    def snapshot(self, room_id: str, after: int = 0) -> Snapshot:
        """The room row, its seats and the actions after ``after``, read consistently (one snapshot)."""
        with self._tx("read the room", snapshot=True) as conn:
            r = conn.execute(sa.select(ROOMS).where(ROOMS.c.id == room_id)).first()
            if r is None:
                raise RoomNotFound(f"there is no room with id {room_id!r}", kind="not_found")
            seats = tuple(_seat(s) for s in conn.execute(sa.select(SEATS).where(SEATS.c.room_id == room_id)
                                                         .order_by(SEATS.c.idx)))
            acts = tuple(_action(a) for a in conn.execute(
                sa.select(ACTIONS).where(ACTIONS.c.room_id == room_id, ACTIONS.c.seq > after).order_by(ACTIONS.c.seq)))
        return Snapshot(_room(r), seats, acts)

    # -------------------------------------------------------------- the log
    def append(self, room_id: str, expected_seq: int, notations: Sequence[str], by: str, *,
               token_hash: str | None = None, bot_kind: str | None = None, allow_paused: bool = False,
               finish: str | None = None, what: str = "save the move") -> Head:
        """Append ``notations`` as entries ``expected_seq``, ``expected_seq + 1``, … in ONE transaction.

        Written only if ``expected_seq`` is the next number (the head + 1), the room is open
        (and not paused, unless ``allow_paused``), and, with ``token_hash``, that token is the
        live token of seat ``by``; with ``bot_kind``, seat ``by`` is still played by that bot.
        ``finish`` (``"finished"``) closes the room in the same transaction (the game ended).
        ``what`` says what the entries are ("save the die roll"; a failed write's StoreError names it, and a person
        is told what was not saved, :data:`.errors.UNSAVED`).
        Returns the room's new :class:`Head`. Raises StaleWrite (someone else moved first), RoomNotFound,
        TokenRejected, NotAllowed, or StoreError; in every case nothing is written.
        """
        if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 1:
            raise ValueError(f"expected_seq is the sequence number of the first new action (1 or more), "
                             f"not {expected_seq!r}")
        entries = self._check_notations(notations)
        if finish is not None and finish not in (FINISHED, ENDED):
            raise ValueError(f"finish is {FINISHED!r} or {ENDED!r}, not {finish!r}")
        now = time.time()
        with self._tx(what, write=True, integrity_raw=True) as conn:
            where = [ROOMS.c.id == room_id, ROOMS.c.head == expected_seq - 1, ROOMS.c.status == OPEN,
                     sa.or_(ROOMS.c.lobby.is_(None), ROOMS.c.lobby == sa.false())]
            if not allow_paused:
                where.append(ROOMS.c.paused == sa.false())
            values: dict[str, Any] = {"head": ROOMS.c.head + len(entries), "version": ROOMS.c.version + 1,
                                      "updated": now, "turn_since": now}  # the next decision's count begins
            if finish:
                values.update(status=finish, finished=now)
            # The guarded UPDATE takes the room's row lock first: a concurrent writer waits here and
            # then finds the head moved (PostgreSQL re-checks the WHERE on the new row), so exactly one wins.
            done = conn.execute(sa.update(ROOMS).where(*where).values(**values)).rowcount
            if done != 1:
                r = conn.execute(sa.select(ROOMS.c.head, ROOMS.c.status, ROOMS.c.paused, ROOMS.c.lobby)
                                 .where(ROOMS.c.id == room_id)).first()
                if r is None:
                    raise RoomNotFound(f"there is no room with id {room_id!r}", kind="not_found")
                if r.status != OPEN:
                    if token_hash is not None:
                        raise TokenRejected("the game in this room has ended; its device tokens no longer work",
                                            kind="room_over")
                    raise NotAllowed("the game in this room has ended; no more moves can be made", kind="game_over")
                if token_hash is not None:
                    self._check_token(conn, room_id, by, token_hash)
                if r.lobby:
                    raise NotAllowed("the teacher has not started the game yet", kind="not_started")
                if r.paused and not allow_paused:
                    raise NotAllowed("the teacher has paused the game", kind="paused")
                raise StaleWrite(expected_seq=expected_seq, current_seq=int(r.head))
            if token_hash is not None:
                self._check_token(conn, room_id, by, token_hash)
            if bot_kind is not None:
                kind = conn.execute(sa.select(SEATS.c.kind).where(SEATS.c.room_id == room_id,
                                                                  SEATS.c.region == by)).scalar()
                if kind != bot_kind:
                    raise NotAllowed(f"the seat {by} is no longer played by the {bot_kind} bot", kind="seat_changed")
            try:
                conn.execute(sa.insert(ACTIONS), [
                    dict(room_id=room_id, seq=expected_seq + i, notation=n, by_seat=by, at=now)
                    for i, n in enumerate(entries)])
            except sa_exc.IntegrityError:
                # The (room, seq) key: only reachable if the head column and the log disagree.
                raise StaleWrite(expected_seq=expected_seq, current_seq=expected_seq) from None
            r = conn.execute(sa.select(ROOMS.c.head, ROOMS.c.version, ROOMS.c.status, ROOMS.c.paused)
                             .where(ROOMS.c.id == room_id)).first()
        return Head(int(r.head), int(r.version), r.status, bool(r.paused), now)

    @staticmethod
    def _check_token(conn: sa.engine.Connection, room_id: str, region: str, token_hash: str) -> None:
        s = conn.execute(sa.select(SEATS).where(SEATS.c.token_hash == token_hash)).first()
        if s is None:
            raise TokenRejected("this device token is not (or no longer) a seat's token", kind="token_unknown")
        if s.room_id != room_id:
            raise TokenRejected("this device token belongs to another room", kind="token_other_room")
        if s.revoked:
            raise TokenRejected("the teacher revoked this device's token", kind="token_revoked")
        if s.region != region:
            raise NotAllowed(f"this device plays {s.region}, not {region}", kind="not_your_turn", region=region)

    # -------------------------------------------------------------- room state
    def _bump(self, conn: sa.engine.Connection, room_id: str, *, open_only: bool = False, **values: Any) -> None:
        """Change the room row (and its version); takes the row's lock first, as append does."""
        where = [ROOMS.c.id == room_id]
        if open_only:
            where.append(ROOMS.c.status == OPEN)
        values.update(version=ROOMS.c.version + 1, updated=time.time())
        if conn.execute(sa.update(ROOMS).where(*where).values(**values)).rowcount != 1:
            status = conn.execute(sa.select(ROOMS.c.status).where(ROOMS.c.id == room_id)).scalar()
            if status is None:
                raise RoomNotFound(f"there is no room with id {room_id!r}", kind="not_found")
            raise NotAllowed("the game in this room has ended", kind="game_over")

    def begin(self, room_id: str) -> bool:
        """The teacher starts the game from the lobby: decisions are stored from now on (the turn timer's count
        starts now). False (and nothing changes) if the room was not in the lobby."""
        with self._tx("start the game", write=True) as conn:
            lobby = conn.execute(sa.select(ROOMS.c.lobby).where(ROOMS.c.id == room_id)).first()
            if lobby is None:
                raise RoomNotFound(f"there is no room with id {room_id!r}", kind="not_found")
            if not lobby.lobby:
                return False
            self._bump(conn, room_id, open_only=True, lobby=False, turn_since=time.time())
        return True

    def set_paused(self, room_id: str, paused: bool) -> None:
        # A resume starts the waited-on decision's count again: a pause stops the clock.
        extra = {} if paused else {"turn_since": time.time()}
        with self._tx("pause the game" if paused else "resume the game", write=True) as conn:
            self._bump(conn, room_id, open_only=True, paused=bool(paused), **extra)

    def set_turn_timer(self, room_id: str, seconds: int) -> None:
        """The teacher's seconds per person decision (0: off); the count for the decision now waited on starts now.

        Checked by :meth:`typhoon_edu.classroom.rooms.Room.set_turn_timer` (0 or 10 to 600).
        """
        if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < 0:
            raise ValueError(f"the turn timer is a whole number of seconds (0: off), not {seconds!r}")
        with self._tx("set the turn timer", write=True) as conn:
            self._bump(conn, room_id, open_only=True, turn_seconds=seconds, turn_since=time.time())

    def set_speed(self, room_id: str, speed: float) -> None:
        """The class's animation speed (0: none, up to :data:`MAX_SPEED`), for every page of the open room.

        Checked by :meth:`typhoon_edu.classroom.rooms.Room.set_speed` (the teacher only); a value that is no speed
        raises ValueError and nothing is written.
        """
        _check_speed(speed)
        with self._tx("change the speed", write=True) as conn:
            self._bump(conn, room_id, open_only=True, speed=float(speed))

    def set_hints(self, room_id: str, enabled: bool) -> None:
        with self._tx("change the hints", write=True) as conn:
            self._bump(conn, room_id, hints_enabled=bool(enabled))

    def set_lang(self, room_id: str, lang: str) -> None:
        with self._tx("change the language", write=True) as conn:
            self._bump(conn, room_id, lang=lang)

    def finish(self, room_id: str, status: str = FINISHED) -> bool:
        """Close an open room (``finished``: the game ended; ``ended``: the teacher stopped it).

        Its device tokens stop working at once. Returns False if it was already closed.
        """
        if status not in (FINISHED, ENDED):
            raise ValueError(f"a room is closed as {FINISHED!r} or {ENDED!r}, not {status!r}")
        with self._tx("end the game", write=True) as conn:
            try:
                self._bump(conn, room_id, open_only=True, status=status, finished=time.time(), paused=False)
            except NotAllowed:
                return False
        return True

    def delete(self, room_id: str) -> None:
        """Remove a room, its seats and its log (its import record stays, so it is not imported again)."""
        with self._tx("delete the room", write=True) as conn:
            self._bump(conn, room_id)
            conn.execute(sa.delete(ACTIONS).where(ACTIONS.c.room_id == room_id))
            conn.execute(sa.delete(SEATS).where(SEATS.c.room_id == room_id))
            conn.execute(sa.delete(ROOMS).where(ROOMS.c.id == room_id))

    # -------------------------------------------------------------- seats and tokens
    def update_seat(self, room_id: str, region: str, *, kind: str = _KEEP, name: str = _KEEP,
                    token_hash: str | None = _KEEP, revoked: bool = _KEEP, joined: float | None = _KEEP,
                    link_nonce: str | None = _KEEP, device_hash: str | None = _KEEP,
                    open_only: bool = True) -> SeatRow:
        """Change one seat (only the fields given); the room's version changes with it."""
        values: dict[str, Any] = {}
        if kind is not _KEEP:
            if kind not in SEAT_KINDS:
                raise SeatError(f"a seat is a person or a bot ({', '.join(SEAT_KINDS[1:])}); got {kind!r}",
                                kind="bad_kind", seat_kind=kind)
            values["kind"] = kind
        for key, value in (("name", name), ("token_hash", token_hash), ("revoked", revoked), ("joined", joined),
                           ("link_nonce", link_nonce), ("device_hash", device_hash)):
            if value is not _KEEP:
                values[key] = value
        if joined is None:  # a seat no device has joined has not been seen either (a new link's device starts afresh)
            values["seen"] = None
        with self._tx("change the seat", write=True) as conn:
            self._bump(conn, room_id, open_only=open_only)
            where = [SEATS.c.room_id == room_id, SEATS.c.region == region]
            if values and conn.execute(sa.update(SEATS).where(*where).values(**values)).rowcount != 1:
                raise SeatError(f"this room has no seat {region}", kind="no_such_seat", region=region)
            r = conn.execute(sa.select(SEATS).where(*where)).first()
            if r is None:
                raise SeatError(f"this room has no seat {region}", kind="no_such_seat", region=region)
            return _seat(r)

    def claim_seat(self, room_id: str, region: str, token_hash: str, device_hash: str | None = None) -> SeatRow:
        """Give a free person seat (no device has joined it) to a new device token, atomically.

        SeatError ``seat_taken`` if a device already joined it, ``bot_seat`` if a bot plays it,
        ``no_devices`` if the room is played on one computer, ``device_has_seat`` if ``device_hash``
        already holds another live seat of the room.
        """
        now = time.time()
        with self._tx("give the seat to this device", write=True) as conn:
            self._bump(conn, room_id, open_only=True)
            _no_devices(conn, room_id)
            s = conn.execute(sa.select(SEATS).where(SEATS.c.room_id == room_id, SEATS.c.region == region)).first()
            if s is None:
                raise SeatError(f"this room has no seat {region}", kind="no_such_seat", region=region)
            if s.kind != "person":
                raise NotAllowed(f"a bot plays {region}", kind="bot_seat", region=region)
            _has_other_seat(conn, room_id, device_hash, region=region)
            done = conn.execute(sa.update(SEATS).where(
                SEATS.c.room_id == room_id, SEATS.c.region == region, SEATS.c.joined.is_(None),
                SEATS.c.revoked == sa.false()).values(token_hash=token_hash, joined=now, link_nonce=None,
                                                      device_hash=device_hash, seen=self.clock())).rowcount
            if done != 1:
                raise SeatError(f"another device has already joined as {region}", kind="seat_taken", region=region)
            return _seat(conn.execute(sa.select(SEATS).where(SEATS.c.room_id == room_id,
                                                             SEATS.c.region == region)).first())

    def seat_of_token(self, token_hash: str) -> tuple[RoomRow, SeatRow]:
        """The room and seat a device token is (or was) the token of, whatever the room's status and the seat's
        state; TokenRejected ``token_unknown`` if no seat has it (never issued, or replaced)."""
        with self._tx("check the device") as conn:
            s = conn.execute(sa.select(SEATS).where(SEATS.c.token_hash == token_hash)).first()
            r = None if s is None else conn.execute(sa.select(ROOMS).where(ROOMS.c.id == s.room_id)).first()
        if s is None or r is None:
            raise TokenRejected("this device token is not (or no longer) a seat's token", kind="token_unknown")
        return _room(r), _seat(s)

    def seat_by_token(self, token_hash: str) -> tuple[RoomRow, SeatRow]:
        """The room and seat of a live device token; TokenRejected (unknown, revoked, room over) otherwise,
        SeatError ``no_devices`` if the room is played on one computer."""
        room, seat = self.seat_of_token(token_hash)
        if seat.revoked:
            raise TokenRejected("the teacher revoked this device's token", kind="token_revoked")
        if not room.is_open:
            raise TokenRejected("the game in this room has ended; its device tokens no longer work", kind="room_over")
        if not devices_allowed(room.setup):
            raise SeatError("this game is played on one computer: none of its seats can be joined or opened from a "
                            "device (only a room set up with devices allows that)", kind="no_devices")
        return room, seat

    def mark_joined(self, token_hash: str) -> bool:
        """Note that a device opened its seat (first time only); True if this was the first time."""
        with self._tx("note the device", write=True) as conn:
            s = conn.execute(sa.select(SEATS.c.room_id, SEATS.c.joined).where(SEATS.c.token_hash == token_hash)).first()
            if s is None or s.joined is not None:
                return False
            self._bump(conn, s.room_id, open_only=True)
            return conn.execute(sa.update(SEATS).where(SEATS.c.token_hash == token_hash, SEATS.c.joined.is_(None))
                                .values(joined=time.time(), seen=self.clock())).rowcount == 1

    def touch_seat(self, token_hash: str) -> bool:
        """Note that the page of the seat whose live device token this is was there just now (the store's clock).

        The seat is the token's own, never one the caller names: a device marks only its own seat. Only a joined,
        not revoked seat of an open room is marked (False, and nothing is written, otherwise). One guarded UPDATE
        of one row; the room's version does not change, so no view re-reads the room for it. Its page's kernel
        calls it at most every ~10 s (:meth:`typhoon_edu.classroom.rooms.Room.heartbeat`).
        """
        open_rooms = sa.select(ROOMS.c.id).where(ROOMS.c.status == OPEN)
        # (a failure is named as opening the seat's is: Room.heartbeat tells no one, the page's next sync does)
        with self._tx("note the device", write=True) as conn:
            return conn.execute(sa.update(SEATS).where(
                SEATS.c.token_hash == token_hash, SEATS.c.revoked == sa.false(), SEATS.c.joined.is_not(None),
                SEATS.c.room_id.in_(open_rooms)).values(seen=self.clock())).rowcount == 1

    def presence(self, room_id: str) -> dict[str, float | None]:
        """When each seat of the room was last seen (its page's :meth:`touch_seat`, or its joining), by region; None:
        never since it was last joined (or not joined). One small read, for the teacher's drawer."""
        with self._tx("read who is there", single=True) as conn:
            rows = conn.execute(sa.select(SEATS.c.region, SEATS.c.joined, SEATS.c.seen)
                                .where(SEATS.c.room_id == room_id)).all()
        out: dict[str, float | None] = {}
        for r in rows:
            bad = _Bad()
            seen = None if r.seen is None else _num(r.seen, float, "seen", bad, None)
            joined = None if r.joined is None else _num(r.joined, float, "joined", bad, None)
            out[str(r.region)] = seen if seen is not None or joined is None else joined  # joined before schema 5
        return out

    def bind_device(self, token_hash: str, device_hash: str | None) -> None:
        """Bind a seat's link to the first device that opens it (atomically); later, only that device.

        TokenRejected ``device_bound`` if another device holds it (or, with ``device_hash=None``, a
        page that cannot say which device it is opens a bound seat). An unbound seat opened without
        a device stays unbound. SeatError ``no_devices`` if the room is played on one computer,
        ``device_has_seat`` if this device already holds another live seat of the room (its own seat
        opens again as before).
        """
        with self._tx("note the device", write=True) as conn:
            s = conn.execute(sa.select(SEATS.c.room_id, SEATS.c.region, SEATS.c.device_hash)
                             .where(SEATS.c.token_hash == token_hash)).first()
            if s is None:
                raise TokenRejected("this device token is not (or no longer) a seat's token", kind="token_unknown")
            _no_devices(conn, s.room_id)
            if s.device_hash is None and device_hash is not None:
                _has_other_seat(conn, s.room_id, device_hash, region=s.region)
                self._bump(conn, s.room_id, open_only=True)
                done = conn.execute(sa.update(SEATS).where(SEATS.c.token_hash == token_hash,
                                                           SEATS.c.device_hash.is_(None))
                                    .values(device_hash=device_hash)).rowcount
                if done == 1:
                    return
                s = conn.execute(sa.select(SEATS.c.room_id, SEATS.c.region, SEATS.c.device_hash)
                                 .where(SEATS.c.token_hash == token_hash)).first()
            if s.device_hash is not None and s.device_hash != device_hash:
                raise TokenRejected("this seat's link is already open on another device", kind="device_bound")

    # -------------------------------------------------------------- teachers and owners
    def create_teacher(self, teacher_id: str, name: str, key_hash: str | None) -> TeacherRow:
        """A new teacher row; StoreError if the id or the key is taken."""
        with self._tx("add the teacher", write=True) as conn:
            conn.execute(sa.insert(TEACHERS).values(id=teacher_id, name=name, key_hash=key_hash, created=time.time()))
            return _teacher(conn.execute(sa.select(TEACHERS).where(TEACHERS.c.id == teacher_id)).first())

    def set_teacher_key(self, teacher_id: str, key_hash: str | None) -> None:
        with self._tx("change the teacher's key", write=True) as conn:
            if conn.execute(sa.update(TEACHERS).where(TEACHERS.c.id == teacher_id)
                            .values(key_hash=key_hash)).rowcount != 1:
                raise NotAllowed(f"there is no teacher {teacher_id!r}", kind="not_your_room")

    def teacher(self, teacher_id: str) -> TeacherRow | None:
        with self._tx("read the teacher") as conn:
            r = conn.execute(sa.select(TEACHERS).where(TEACHERS.c.id == teacher_id)).first()
        return None if r is None else _teacher(r)

    def teacher_by_key_hash(self, key_hash: str) -> TeacherRow | None:
        with self._tx("check the teacher") as conn:
            r = conn.execute(sa.select(TEACHERS).where(TEACHERS.c.key_hash == key_hash)).first()
        return None if r is None else _teacher(r)

    def teachers(self) -> list[TeacherRow]:
        with self._tx("list the teachers") as conn:
            return [_teacher(r) for r in conn.execute(sa.select(TEACHERS).order_by(TEACHERS.c.created))]

    def set_handover(self, room_id: str, handover_hash: str | None) -> None:
        """Put out (or withdraw, with None) a hand-over link for the room; an older one stops working."""
        with self._tx("make a hand-over link", write=True) as conn:
            self._bump(conn, room_id, handover_hash=handover_hash)

    def take_room(self, handover_hash: str, owner: str, *, hold: bool = False) -> RoomRow:
        """Make ``owner`` the owner of the room whose hand-over link this is (the link works once).

        TokenRejected ``handover_unknown`` if no room has this link now, also when another take of
        the same link got there first (the write itself checks the link, so two takes at the same
        moment cannot both succeed on PostgreSQL's READ COMMITTED); nothing changes then. ``hold``: ``owner`` is a
        teacher's id, checked in the same transaction (:func:`hold_teacher`: NotAllowed ``teacher_only``, the link
        left unused, when ``teacher remove`` or ``teacher new-key`` took it away).
        """
        def used() -> TokenRejected:
            return TokenRejected("this hand-over link is not (or no longer) valid: it was used already or replaced "
                                 "(a hand-over link works once; ask for a new one)", kind="handover_unknown")

        with self._tx("hand the room over", write=True) as conn:
            if hold:
                hold_teacher(conn, owner, "take over a room")
            rid = conn.execute(sa.select(ROOMS.c.id).where(ROOMS.c.handover_hash == handover_hash)).scalar()
            if rid is None:
                raise used()
            done = conn.execute(sa.update(ROOMS).where(ROOMS.c.id == rid, ROOMS.c.handover_hash == handover_hash)
                                .values(owner=owner, handover_hash=None, version=ROOMS.c.version + 1,
                                        updated=time.time())).rowcount
            if done != 1:
                raise used()
            return _room(conn.execute(sa.select(ROOMS).where(ROOMS.c.id == rid)).first())

    # -------------------------------------------------------------- imports
    def imports(self) -> list[ImportRow]:
        """Every JSON file an import has looked at: imported ones and damaged ones with their reason."""
        with self._tx("read the imports") as conn:
            return [ImportRow(r.source, r.digest, r.room_id, bool(r.ok), r.kind, r.error, float(r.at))
                    for r in conn.execute(sa.select(IMPORTS).order_by(IMPORTS.c.at.desc()))]

    def import_row(self, source: str) -> ImportRow | None:
        with self._tx("read the imports") as conn:
            r = conn.execute(sa.select(IMPORTS).where(IMPORTS.c.source == source)).first()
        return None if r is None else ImportRow(r.source, r.digest, r.room_id, bool(r.ok), r.kind, r.error, float(r.at))

    def record_import_problem(self, source: str, digest: str, kind: str, error: str) -> None:
        """Remember that ``source`` could not be imported, and why (replacing an older note)."""
        with self._tx("note the damaged file", write=True) as conn:
            conn.execute(sa.delete(IMPORTS).where(IMPORTS.c.source == source, IMPORTS.c.ok == sa.false()))
            if conn.execute(sa.select(IMPORTS.c.source).where(IMPORTS.c.source == source)).first() is None:
                conn.execute(sa.insert(IMPORTS).values(source=source, digest=digest, room_id=None, ok=False,
                                                       kind=kind, error=error[:2000], at=time.time()))
