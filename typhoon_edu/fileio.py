"""Safe file writes and bounded reads for save files and records.

:func:`atomic_write_text` replaces a file so that a reader sees the old content or the new,
never half a file: the text goes to a fresh temporary file in the same folder (created with
``O_EXCL``, so a link planted under any name is never followed and two writers never share one),
is flushed and ``fsync``-ed, then renamed over the target, and the folder is synced. Renaming
replaces a link at the target itself; it never writes through it.

:func:`read_bounded` reads a regular file of at most ``limit`` bytes, and refuses anything else
(a folder, a device, a FIFO, a link when ``follow_links`` is false, a file that is too big)
before reading it.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(folder / "game.json", '{"a": 1}').name
'game.json'
>>> read_bounded(folder / "game.json", 100)
b'{"a": 1}'
>>> sorted(p.name for p in folder.iterdir())  # no temporary file is left behind
['game.json']
>>> read_bounded(folder / "game.json", 4)
Traceback (most recent call last):
...
typhoon_edu.fileio.FileTooLarge: game.json is 8 bytes; the limit is 4 bytes
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["FileTooLarge", "NotARegularFile", "atomic_write_file", "atomic_write_text", "os_reason", "os_reason_key",
           "read_bounded"]


class FileTooLarge(OSError):
    """A file bigger than the reader's limit (refused before it is read); ``str()`` says so."""


class NotARegularFile(OSError):
    """A folder, device, FIFO or socket (or a link, when links are not followed) where a file was expected.

    ``kind`` says which: ``"folder"``, ``"link"`` or ``"special"`` (a device, pipe or socket).
    """

    def __init__(self, message: str, kind: str = "special") -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> tuple[object, ...]:  # keeps its kind when pickled (errors cross processes)
        return (type(self), (str(self), self.kind))


#: errno -> the ``error.os.*`` catalog key of a phrase a person can read, in their language
_ERRNO_KEYS = {
    errno.ENOENT: "not_found",
    errno.EACCES: "denied",
    errno.EPERM: "denied",
    errno.EROFS: "read_only",
    errno.ENOSPC: "full",
    getattr(errno, "EDQUOT", errno.ENOSPC): "full",
    errno.EISDIR: "folder",
    errno.ENOTDIR: "not_folder",
    errno.ENAMETOOLONG: "too_long",
}


def os_reason_key(exc: OSError) -> str | None:
    """The ``error.os.*`` catalog key saying why ``exc`` happened, or None for a case without a phrase.

    >>> os_reason_key(PermissionError(13, "Permission denied")), os_reason_key(OSError(5, "Input/output error"))
    ('denied', None)
    """
    if isinstance(exc, NotARegularFile):
        return exc.kind if exc.kind in ("folder", "link") else "special"
    if isinstance(exc, FileTooLarge):
        return "too_large"
    return _ERRNO_KEYS.get(exc.errno) if exc.errno is not None else None


def os_reason(exc: OSError, lang: str | None = None) -> str:
    """A short reason for a failed read or write, in ``lang`` (en or zh-TW).

    With a ``lang``, the common cases (a missing file, no permission, a read-only or full disk, a
    folder where a file was expected, a file where a folder was expected …) are said in that
    language; another case keeps the system's own text, as it does without a ``lang``.

    >>> os_reason(FileNotFoundError(2, "No such file or directory")), os_reason(FileTooLarge("x is big"))
    ('No such file or directory', 'x is big')
    >>> os_reason(FileNotFoundError(2, "No such file or directory"), "zh-TW")
    '沒有這個檔案或資料夾'
    """
    key = os_reason_key(exc) if lang is not None else None
    if key is None:
        return exc.strerror or str(exc)
    from .i18n import t

    return t(f"error.os.{key}", lang)


def _umask() -> int:
    """The process's umask, read without changing it (Linux), else the common 022."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def _fsync_folder(folder: Path) -> None:
    if os.name == "nt":  # pragma: no cover - Windows cannot open a folder for fsync
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_text(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically and durably; returns the path.

    The new file keeps the mode of the file it replaces (a new one gets the usual ``0666 & ~umask``).
    On any failure the temporary file is removed and the old content stays.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    data = text.encode(encoding)
    try:
        old = os.lstat(path)
        mode = stat.S_IMODE(old.st_mode) if stat.S_ISREG(old.st_mode) else 0o666 & ~_umask()
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    # mkstemp opens with O_CREAT | O_EXCL (and O_NOFOLLOW where there is one): a fresh name, never a link.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    _fsync_folder(folder)
    return path


def atomic_write_file(path: str | os.PathLike[str], fill: Callable[[Path], object]) -> Path:
    """Replace ``path`` atomically with what ``fill(temporary)`` writes, for a writer that takes a file
    name (a CSV writer); returns the path.

    As :func:`atomic_write_text`: the new file keeps the old one's mode, and on any failure (a full
    disk half-way) the temporary file is removed and the old content stays.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> atomic_write_file(folder / "t.csv", lambda tmp: tmp.write_text("a,b\\n")).read_text()
    'a,b\\n'
    >>> sorted(p.name for p in folder.iterdir())
    ['t.csv']
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        old = os.lstat(path)
        mode = stat.S_IMODE(old.st_mode) if stat.S_ISREG(old.st_mode) else 0o666 & ~_umask()
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        fill(tmp)
        fd = os.open(tmp, os.O_RDWR)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    _fsync_folder(folder)
    return path


def read_bounded(path: str | os.PathLike[str], limit: int, *, follow_links: bool = True) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Raises :class:`FileTooLarge`, :class:`NotARegularFile` or another ``OSError`` (missing,
    unreadable, a dangling link) without reading more than ``limit + 1`` bytes, and never blocks
    on a FIFO. With ``follow_links=False`` a symbolic link is refused.
    """
    path = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
        if path.is_symlink():  # also where there is no O_NOFOLLOW
            raise NotARegularFile(f"{path.name} is a symbolic link; only regular files are read here", "link")
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotARegularFile(f"{path.name} is a symbolic link; only regular files are read here", "link") from None
        if exc.errno == errno.EISDIR:
            raise NotARegularFile(f"{path.name} is a folder, not a file", "folder") from None
        raise
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise NotARegularFile(f"{path.name} is a folder, not a file", "folder")
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFile(f"{path.name} is not a regular file (a device, pipe or socket)")
        if info.st_size > limit:
            raise FileTooLarge(f"{path.name} is {info.st_size} bytes; the limit is {limit} bytes")
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise FileTooLarge(f"{path.name} is more than {limit} bytes; the limit is {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)
