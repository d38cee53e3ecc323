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
import uuid
from dataclasses import dataclass
from pathlib import Path

from .codes import token_hash
from .store import LOCAL_TEACHER, RoomStore, TeacherRow

__all__ = ["KEY_BYTES", "LOCAL_TEACHER", "Teacher", "add_teacher", "default_key_file", "ensure_local_teacher",
           "local_teacher", "new_teacher_key", "teacher_for_key", "teachers"]

KEY_BYTES = 24  # 192 bits (at least 128 are needed so a key cannot be guessed)
MAX_KEY_LENGTH = 200  # longer text is not a key (and is not hashed)
MAX_NAME = 80


@dataclass(frozen=True)
class Teacher:
    """A teacher as a page proved it is (never holds the key)."""

    id: str
    name: str

    @property
    def is_local(self) -> bool:
        return self.id == LOCAL_TEACHER


def _teacher(row: TeacherRow) -> Teacher:
    return Teacher(row.id, row.name)


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
