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

from ..i18n import t

__all__ = ["StoreProblem", "os_problem", "prepare_teacher", "shown_url", "sqlite_path", "store_problem",
           "students_url", "teacher_url"]


class StoreProblem(Exception):
    """The room store (or the teacher's key file) cannot be used; :meth:`text` says which, why and what to do.

    ``key`` is a ``serve.err.*`` catalog key (``store_open``, ``store_read``, ``store_write``,
    ``store_missing`` or ``key_file``); ``url`` names the store (``path`` the key file). The reason is
    said in the reader's language from ``os_error`` (what the operating system refused, found by
    :func:`os_problem`) or else from the store's error ``cause`` (its ``kind``); only a case without
    a phrase keeps the driver's own text.

    >>> problem = StoreProblem("store_open", url="sqlite:////srv/rooms.db",
    ...                        os_error=IsADirectoryError(21, "Is a directory"))
    >>> problem.text("en")
    'The room store sqlite:////srv/rooms.db cannot be opened: it is a folder, not a file. Check the path, or give another store with --db.'
    >>> problem.text("zh-TW")
    '無法開啟房間資料庫 sqlite:////srv/rooms.db：這是資料夾，不是檔案。請檢查路徑，或用 --db 指定另一個資料庫。'
    """

    def __init__(self, key: str, *, url: str = "", path: object = "", cause: BaseException | None = None,
                 os_error: OSError | None = None) -> None:
        self.key = key
        self.url = url
        self.path = path
        self.cause = cause
        self.os_error = os_error
        super().__init__(self.text("en"))

    def reason(self, lang: str) -> tuple[str, str]:
        """Why, in ``lang``, and the ``serve.advice.*`` key of what to do."""
        from ..fileio import os_reason, os_reason_key

        if self.os_error is not None:
            return os_reason(self.os_error, lang), _OS_ADVICE.get(os_reason_key(self.os_error) or "", "access")
        kind = str(getattr(self.cause, "kind", "") or "")
        if kind == "unavailable":
            kind = "unavailable_file" if self.url.startswith("sqlite") else "unavailable_server"
        if kind in _KIND_ADVICE:
            return t(f"serve.reason.{kind}", lang), _KIND_ADVICE[kind]
        return (_said(self.cause) if self.cause is not None else ""), "access"

    def text(self, lang: str) -> str:
        """The whole message in ``lang``: which store (or key file), why, and what to do."""
        if self.key == "store_missing":
            return t("serve.err.store_missing", lang, url=self.url)
        reason, advice = self.reason(lang)
        if self.key == "key_file":
            return t("serve.err.key_file", lang, path=self.path, error=reason)
        return t(f"serve.err.{self.key}", lang, url=self.url, error=reason, advice=t(f"serve.advice.{advice}", lang))


#: error.os.* key -> serve.advice.* key (another case: "access")
_OS_ADVICE = {"not_found": "path", "folder": "path", "not_folder": "path", "too_long": "path", "link": "path",
              "special": "path", "full": "space"}
#: StoreError kind -> serve.advice.* key, for the kinds with a serve.reason.* phrase
_KIND_ADVICE = {"read_only": "access", "locked": "locked", "disk_full": "space", "corrupt": "corrupt",
                "unavailable_file": "access", "unavailable_server": "server", "schema": "schema"}


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite store URL (``sqlite:///PATH``), or None (another database, or in memory).

    >>> sqlite_path("sqlite:////srv/class/rooms.db"), sqlite_path("postgresql://db.school/typhoon")
    (PosixPath('/srv/class/rooms.db'), None)
    """
    import sqlalchemy as sa

    try:
        u = sa.engine.make_url(url)
    except Exception:  # noqa: BLE001 - not a URL at all: nothing to look at on disk
        return None
    if u.get_backend_name() != "sqlite" or u.database in (None, "", ":memory:") or u.query.get("uri"):
        return None
    return Path(u.database)


def os_problem(path: Path) -> OSError | None:
    """What the operating system refuses about a store file at ``path``: reading and writing it, making it
    (and its missing folders) and the files SQLite keeps beside it; None if nothing is refused.

    Looks without changing anything that stays: a file or folder made to find out is removed at once.
    """
    import errno
    import os
    import stat
    import tempfile

    from ..fileio import NotARegularFile

    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:  # a file where a folder should be, a folder it may not enter, a name too long
        return exc
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            return IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(info.st_mode):
            return NotARegularFile(f"{path.name} is not a regular file", "special")
        try:
            os.close(os.open(path, os.O_RDWR | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)))
        except OSError as exc:
            return exc
    folder = path.parent
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
    try:
        if folder == path.parent:  # SQLite makes the store, or its journal, beside it
            fd, made = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
            os.close(fd)
            os.remove(made)
        else:  # the store makes its missing folders first
            os.rmdir(tempfile.mkdtemp(prefix=".typhoon-edu.", suffix=".probe", dir=folder))
    except OSError as exc:
        return exc
    return None


def shown_url(url: str) -> str:
    """``url`` as a message shows it: a password in it is hidden.

    >>> shown_url("postgresql://teacher:s3cret@db.school/typhoon"), shown_url("sqlite:////srv/rooms.db")
    ('postgresql://teacher:***@db.school/typhoon', 'sqlite:////srv/rooms.db')
    """
    import sqlalchemy as sa

    try:
        u = sa.engine.make_url(url)
    except Exception:  # noqa: BLE001 - not a URL: shown as given
        return url
    return u.render_as_string(hide_password=True) if u.password else url


def store_problem(key: str, url: str, cause: BaseException) -> StoreProblem:
    """A :class:`StoreProblem` for the store at ``url`` that failed with ``cause``, with what the
    operating system refuses about its file, when it is a SQLite file (:func:`os_problem`)."""
    path = sqlite_path(url)
    return StoreProblem(key, url=shown_url(url), cause=cause, os_error=os_problem(path) if path is not None else None)


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
        raise store_problem("store_open", where, exc) from exc
    try:
        try:
            key = ensure_local_teacher(store, key_path)
        except OSError as exc:
            raise StoreProblem("key_file", path=key_path, cause=exc, os_error=exc) from exc
        # ensure_local_teacher only reads when all is in place: write once, as a Start would.
        store.set_teacher_key(LOCAL_TEACHER, token_hash(key))
    except StoreProblem:
        raise
    except Exception as exc:  # noqa: BLE001
        raise store_problem("store_write", where, exc) from exc
    finally:
        store.close()
    return key


def _said(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
