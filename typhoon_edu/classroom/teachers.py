"""Teachers: who may set up, run and end a room (a secret key, like a seat's device token).

A teacher is a row in the room store with a name and the SHA-256 of a key (``secrets``, 192
bits); the key itself is shown once and kept by the teacher (in a file, a cookie, or the
address ``serve`` prints). A page proves it is a teacher's by the key (:func:`teacher_for_key`);
every teacher action of a :class:`~typhoon_edu.classroom.rooms.Room` checks that the room was
opened with the key of the teacher who owns it.

- **The local teacher** (id ``local``) is the computer's own user: ``serve`` keeps its key in a
  file readable only by that user (:func:`ensure_local_teacher`), and a notebook opened in
  JupyterLab acts as it (:func:`local_teacher`): whoever can run code there owns the computer.
- **Named teachers** on a school server: :func:`add_teacher` (each sees only their own rooms).
  :func:`remove_teacher` takes a colleague's key away (their rooms go to the local teacher, nothing
  is deleted); :func:`replace_key` gives them a new key (and a new id) when the old one leaked.
  Both work at once: a page is proved a teacher's by a store read of the key each time it opens,
  and every teacher action re-reads the room's owner, which is no longer the old id. A page already
  open asks :func:`key_withdrawn` to tell its teacher which of the two happened.

>>> from typhoon_edu.classroom.store import RoomStore
>>> store = RoomStore("sqlite://")
>>> mei, key = add_teacher(store, "Ms Lin")
>>> teacher_for_key(store, key) == mei, teacher_for_key(store, "guess") is None
(True, True)
>>> len(key) >= 32                                   # 24 random bytes, URL-safe
True
"""

from __future__ import annotations

import os
import secrets
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa

from .codes import token_hash
from .store import LOCAL_TEACHER, ROOMS, TEACHERS, RoomStore, TeacherRow

__all__ = ["KEY_BYTES", "LOCAL_TEACHER", "MIN_ID_PREFIX", "REMOVED", "REPLACED", "Teacher", "TeacherNotFound",
           "add_teacher", "default_key_file", "ensure_local_teacher", "find_teacher", "key_withdrawn", "local_teacher",
           "new_teacher_key", "remove_teacher", "replace_key", "same_name", "teacher_for_key", "teachers"]

KEY_BYTES = 24  # 192 bits (at least 128 are needed so a key cannot be guessed)
MAX_KEY_LENGTH = 200  # longer text is not a key (and is not hashed)
MAX_NAME = 80
#: The fewest first characters of an id that name a teacher (``teacher remove 3f2a``), if only one id starts so.
MIN_ID_PREFIX = 4
#: Lesson 07's class rounds (classroom/lesson_rounds.py keeps them in the same database, made on first use).
_ROUNDS = sa.table("typhoon_lesson_rounds", sa.column("owner"))


@dataclass(frozen=True)
class Teacher:
    """A teacher as a page proved it is (never holds the key)."""

    id: str
    name: str
    #: When the teacher was added (kept through a new key: :func:`key_withdrawn` tells a new key from a removal by it).
    created: float = field(default=0.0, compare=False)

    @property
    def is_local(self) -> bool:
        return self.id == LOCAL_TEACHER


def _teacher(row: TeacherRow) -> Teacher:
    return Teacher(row.id, row.name, row.created)


def new_teacher_key() -> str:
    """A fresh teacher key (URL-safe text, 192 random bits).

    >>> a, b = new_teacher_key(), new_teacher_key()
    >>> a != b and len(a) == 32
    True
    """
    return secrets.token_urlsafe(KEY_BYTES)


def teacher_for_key(store: RoomStore, key: str | None) -> Teacher | None:
    """The teacher whose key this is, or None (no key, an unknown one, or not text).

    >>> teacher_for_key(RoomStore("sqlite://"), "") is None
    True
    """
    if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
        return None
    row = store.teacher_by_key_hash(token_hash(key))
    return None if row is None else _teacher(row)


def _clean_name(name: str) -> str:
    from .names import clean_name

    text = clean_name(name, limit=MAX_NAME)
    if not text:
        raise ValueError("a teacher's name is some visible text (letters, digits, spaces), up to "
                         f"{MAX_NAME} characters; got {name!r}")
    return text


def add_teacher(store: RoomStore, name: str) -> tuple[Teacher, str]:
    """A new named teacher (a school server's colleague) and their key, shown only this once.

    >>> t, key = add_teacher(RoomStore("sqlite://"), "  Mr\\u202e Chen ")
    >>> t.name, t.is_local
    ('Mr Chen', False)
    """
    clean = _clean_name(name)
    key = new_teacher_key()
    row = store.create_teacher(uuid.uuid4().hex, clean, token_hash(key))
    return _teacher(row), key


def teachers(store: RoomStore) -> list[Teacher]:
    """Every teacher of this store, oldest first."""
    return [_teacher(r) for r in store.teachers()]


def local_teacher(store: RoomStore, name: str = "") -> Teacher:
    """The computer's own teacher (the notebook's user in JupyterLab), made if it is missing.

    Only code running on this computer can call this; a browser page never can (a served page
    proves it is the teacher's with :func:`teacher_for_key`).

    >>> local_teacher(RoomStore("sqlite://")).is_local
    True
    """
    from .errors import StoreError

    row = store.teacher(LOCAL_TEACHER)
    if row is None:
        try:
            row = store.create_teacher(LOCAL_TEACHER, name or "local", None)
        except StoreError:  # another kernel made it at the same moment, or the store is read-only
            row = store.teacher(LOCAL_TEACHER)
            if row is None:  # a read-only store: its rooms can still be listed (and the problem said)
                return Teacher(LOCAL_TEACHER, name or "local")
    return _teacher(row)


def default_key_file() -> Path:
    """Where ``serve`` keeps the local teacher's key: the user's config folder (platformdirs)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("typhoon-edu", appauthor=False)) / "teacher.key"


def _read_key(key_file: Path) -> str | None:
    try:
        text = key_file.read_text(encoding="ascii").strip()
    except (FileNotFoundError, UnicodeDecodeError):
        return None
    return text if 32 <= len(text) <= MAX_KEY_LENGTH and text.isascii() else None


def _write_key(key_file: Path, key: str) -> None:
    key_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = key_file.with_name(key_file.name + f".{os.getpid()}.tmp")
    # Created 0600 from the start (never readable by others, not even for a moment), then moved in place.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, (key + "\n").encode("ascii"))
    finally:
        os.close(fd)
    os.replace(tmp, key_file)


def ensure_local_teacher(store: RoomStore, key_file: Path | None = None) -> str:
    """The local teacher's key: read from ``key_file`` if it opens this store's local teacher,
    otherwise a new one (the file is written with mode 0600, the store keeps only its hash).

    ``key_file`` defaults to :func:`default_key_file`. Calling it again reuses the key.

    >>> import tempfile, pathlib
    >>> store = RoomStore("sqlite://")
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "teacher.key"
    >>> key = ensure_local_teacher(store, f)
    >>> ensure_local_teacher(store, f) == key, teacher_for_key(store, key).is_local, oct(f.stat().st_mode & 0o777)
    (True, True, '0o600')
    """
    key_file = Path(key_file) if key_file is not None else default_key_file()
    teacher = local_teacher(store)
    key = _read_key(key_file)
    if key is None:
        key = new_teacher_key()
        _write_key(key_file, key)
    elif key_file.stat().st_mode & 0o077:
        os.chmod(key_file, 0o600)  # a copy made readable by others is closed again
    # The file is the computer user's own secret: a store made later (or another database) takes it too.
    found = teacher_for_key(store, key)
    if found is None or found.id != teacher.id:
        store.set_teacher_key(teacher.id, token_hash(key))
    return key


class TeacherNotFound(LookupError):
    """No teacher can be chosen with this id: ``kind`` is ``unknown`` (no id is or starts with it), ``ambiguous``
    (several ids start with it: ``ids``), ``short`` (fewer than :data:`MIN_ID_PREFIX` characters and not a whole
    id) or ``local`` (the local teacher, which is not removed nor given a key here)."""

    def __init__(self, wanted: str, kind: str, ids: tuple[str, ...] = ()) -> None:
        super().__init__(f"no teacher can be chosen with {wanted!r} ({kind})")
        self.wanted, self.kind, self.ids = wanted, kind, ids


def find_teacher(store: RoomStore, wanted: str) -> Teacher:
    """The named teacher whose id is ``wanted``, or the only one whose id starts with it
    (at least :data:`MIN_ID_PREFIX` characters); :class:`TeacherNotFound` otherwise.

    >>> store = RoomStore("sqlite://")
    >>> lin, _ = add_teacher(store, "Ms Lin")
    >>> find_teacher(store, lin.id[:6]) == lin
    True
    >>> try:
    ...     find_teacher(store, "zzzz")
    ... except TeacherNotFound as exc:
    ...     exc.kind
    'unknown'
    """
    text = wanted.strip().lower()
    if text == LOCAL_TEACHER:
        raise TeacherNotFound(wanted, "local")
    every = [t for t in teachers(store) if not t.is_local]
    exact = [t for t in every if t.id == text]
    if exact:
        return exact[0]
    if len(text) < MIN_ID_PREFIX:
        raise TeacherNotFound(wanted, "short")
    found = [t for t in every if t.id.startswith(text)]
    if not found:
        raise TeacherNotFound(wanted, "unknown")
    if len(found) > 1:
        raise TeacherNotFound(wanted, "ambiguous", tuple(t.id for t in found))
    return found[0]


def same_name(store: RoomStore, name: str) -> list[Teacher]:
    """The teachers already called ``name`` (as :func:`add_teacher` would keep it, letter case ignored).

    >>> store = RoomStore("sqlite://")
    >>> _ = add_teacher(store, "Ms Lin")
    >>> [t.name for t in same_name(store, " ms  LIN ")], same_name(store, "Mr Chen")
    (['Ms Lin'], [])
    """
    wanted = _clean_name(name).casefold()
    return [t for t in teachers(store) if t.name.casefold() == wanted]


def _move_rooms(conn: sa.engine.Connection, old: str, new: str) -> int:
    """Give ``old``'s rooms (and lesson rounds) to ``new``, withdrawing their hand-over links; how many rooms."""
    moved = conn.execute(sa.update(ROOMS).where(ROOMS.c.owner == old)
                         .values(owner=new, handover_hash=None, version=ROOMS.c.version + 1,
                                 updated=time.time())).rowcount
    if sa.inspect(conn).has_table("typhoon_lesson_rounds"):
        conn.execute(sa.update(_ROUNDS).where(_ROUNDS.c.owner == old).values(owner=new))
    return int(moved or 0)


def remove_teacher(store: RoomStore, teacher: Teacher) -> int:
    """Take a named teacher's key away; their rooms (games, logs, seats) go to the local teacher, who can open
    them on the server. Returns how many rooms moved. The local teacher is never removed (ValueError).

    >>> store = RoomStore("sqlite://")
    >>> lin, key = add_teacher(store, "Ms Lin")
    >>> remove_teacher(store, lin), teacher_for_key(store, key), [t.name for t in teachers(store)]
    (0, None, [])
    """
    if teacher.is_local:
        raise ValueError("the local teacher (the server computer's own) cannot be removed")
    with store.transaction("remove the teacher", write=True) as conn:
        # First lock the teacher's row (PostgreSQL): a room or round being made for them right now (store.hold_teacher
        # holds that row FOR SHARE) commits before the rooms are moved, so it moves too; one that starts later finds
        # no teacher. (SQLite runs one writer at a time.)
        conn.execute(sa.select(TEACHERS.c.id).where(TEACHERS.c.id == teacher.id).with_for_update())
        moved = _move_rooms(conn, teacher.id, LOCAL_TEACHER)
        if conn.execute(sa.delete(TEACHERS).where(TEACHERS.c.id == teacher.id)).rowcount != 1:
            raise TeacherNotFound(teacher.id, "unknown")
    return moved


def replace_key(store: RoomStore, teacher: Teacher) -> tuple[Teacher, str]:
    """A new key for a named teacher (the old one stops working), shown only this once.

    The teacher gets a new id too, and their rooms and lesson rounds go with it: a page already open
    with the old key can no longer act on them (every teacher action re-reads the room's owner).

    >>> store = RoomStore("sqlite://")
    >>> lin, old = add_teacher(store, "Ms Lin")
    >>> again, key = replace_key(store, lin)
    >>> again.name, again.id != lin.id, teacher_for_key(store, old), teacher_for_key(store, key) == again
    ('Ms Lin', True, None, True)
    """
    if teacher.is_local:
        raise ValueError("the local teacher's key is kept by serve (delete its key file and start serve again)")
    key, new_id = new_teacher_key(), uuid.uuid4().hex
    with store.transaction("give the teacher a new key", write=True) as conn:
        # locked first, as remove_teacher does: a room or round being made for the old id lands before the move
        row = conn.execute(sa.select(TEACHERS).where(TEACHERS.c.id == teacher.id).with_for_update()).first()
        if row is None:
            raise TeacherNotFound(teacher.id, "unknown")
        conn.execute(sa.insert(TEACHERS).values(id=new_id, name=row.name, key_hash=token_hash(key),
                                                created=row.created))
        _move_rooms(conn, teacher.id, new_id)
        conn.execute(sa.delete(TEACHERS).where(TEACHERS.c.id == teacher.id))
    return Teacher(new_id, row.name, float(row.created)), key


#: What :func:`key_withdrawn` says of a key taken away: ``teacher remove`` / ``teacher new-key``.
REMOVED, REPLACED = "removed", "replaced"


def key_withdrawn(store: RoomStore, teacher: Teacher) -> str | None:
    """Whether the key a page proved ``teacher`` with has been taken away since, and how: :data:`REMOVED`
    (``teacher remove``: their rooms went to the local teacher), :data:`REPLACED` (``teacher new-key``: the same
    teacher, added at the same moment, now has another id and key, and their rooms went with it), or None while
    the key still opens this teacher (the local teacher's always does: it is never removed here).

    One store read while the key stands (a page asks it when an action of its teacher is refused, or its room
    changed owner), two once it is gone.

    >>> store = RoomStore("sqlite://")
    >>> lin, _ = add_teacher(store, "Ms Lin")
    >>> key_withdrawn(store, lin) is None
    True
    >>> _ = replace_key(store, lin)
    >>> key_withdrawn(store, lin)
    'replaced'
    >>> chen, _ = add_teacher(store, "Mr Chen")
    >>> _ = remove_teacher(store, chen)
    >>> key_withdrawn(store, chen)
    'removed'
    """
    if teacher.is_local or store.teacher(teacher.id) is not None:
        return None
    same = [t for t in store.teachers() if t.id != teacher.id and t.name == teacher.name and t.created == teacher.created]
    return REPLACED if same and teacher.created else REMOVED
