"""Before ``serve`` says it is ready: the room store is writable and the local teacher has a key.

``serve`` opens the store every kernel will use (``--db``, else ``TYPHOON_EDU_DB``, else the
user data folder's file), makes sure the computer's own teacher exists and has a key (kept in a
0600 file in the user's config folder, see :func:`typhoon_edu.classroom.teachers.ensure_local_teacher`)
and writes to the store once. A store that cannot be written (a read-only file, a folder the
user may not write to, a database that refuses) is said at once, in the teacher's language,
instead of a setup page whose *Start* does nothing.

>>> teacher_url(8866, "k" * 32)
'http://127.0.0.1:8866/?teacher=kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk'
>>> students_url("http://192.168.1.23:8866/")
'http://192.168.1.23:8866/join'
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["StoreProblem", "prepare_teacher", "students_url", "teacher_url"]


class StoreProblem(Exception):
    """The store (or the teacher's key file) cannot be used: ``key`` is a ``serve.err.*`` catalog key."""

    def __init__(self, key: str, **fields: object) -> None:
        self.key = key
        self.fields = fields
        super().__init__(f"{key}: {fields}")


def teacher_url(port: int, key: str) -> str:
    """The teacher's address: this computer only (``127.0.0.1``, so the cookie it leaves is always
    for the same host), with the key the server turns into a cookie on the first visit."""
    return f"http://127.0.0.1:{port}/?teacher={key}"


def students_url(public_url: str) -> str:
    """The students' short address: ``/join`` on the address they can reach."""
    return public_url.rstrip("/") + "/join"


def _where(url: str | None) -> str:
    from ..classroom.store import default_url

    return url or default_url()


def prepare_teacher(db_url: str | None, key_file: Path | None = None) -> str:
    """Open the store at ``db_url`` (``None``: the default one), check that it can be written, and
    return the local teacher's key (made on first use). Raises :class:`StoreProblem`.
    """
    from ..classroom.codes import token_hash
    from ..classroom.store import LOCAL_TEACHER, RoomStore
    from ..classroom.teachers import default_key_file, ensure_local_teacher

    where = _where(db_url)
    key_path = Path(key_file) if key_file is not None else default_key_file()
    try:
        store = RoomStore(db_url)
    except Exception as exc:  # noqa: BLE001 - whatever the driver says goes to the teacher
        raise StoreProblem("store_open", url=where, error=_said(exc)) from exc
    try:
        try:
            key = ensure_local_teacher(store, key_path)
        except OSError as exc:
            raise StoreProblem("key_file", path=key_path, error=_said(exc)) from exc
        # ensure_local_teacher only reads when all is in place: write once, as a Start would.
        store.set_teacher_key(LOCAL_TEACHER, token_hash(key))
    except StoreProblem:
        raise
    except Exception as exc:  # noqa: BLE001
        raise StoreProblem("store_write", url=where, error=_said(exc)) from exc
    finally:
        store.close()
    return key


def _said(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
