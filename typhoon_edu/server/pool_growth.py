"""The preheated pool grows when a room with device seats is created (issue 19 §7).

A page that finds a preheated kernel is usable in a few seconds; one that must start its own
waits for a kernel *and* the notebook, while every other page opening at that moment competes
for the same two cores (four phones with a pool of one: 5.5 / 20.8 / 23.9 / 25.0 s). So the
Voilà server watches the room store: every :data:`WATCH_INTERVAL` seconds it counts the device
seats of open rooms that no device has joined yet (the codes the projector is showing), and
keeps that many kernels preheated on top of ``serve``'s pool, one more for the projector's own
reload, at most :data:`MOST_EXTRA` more. A room is created some seconds before its codes are
read and typed, which is the time the kernels need; the pool shrinks back as the seats join
(Voilà refills only up to the new size). While it is grown, kernels taken are replaced only
after :data:`GROWN_FILL_DELAY` s, so the replacements do not compete with the pages loading.

>>> pool_target(base=1, waiting=5)
6
>>> pool_target(base=6, waiting=5), pool_target(base=1, waiting=0), pool_target(base=1, waiting=40)
(6, 1, 13)
"""

from __future__ import annotations

import logging
import time
from typing import Any

__all__ = [
    "GROWN_FILL_DELAY",
    "MOST_EXTRA",
    "RECENT",
    "WATCH_INTERVAL",
    "WatchProblems",
    "pool_target",
    "waiting_device_seats",
]

#: Seconds between two looks at the store.
WATCH_INTERVAL = 2.0

#: Most kernels kept on top of the configured pool (each idle one holds ~75-115 MB).
MOST_EXTRA = 12

#: Seconds Voilà waits before refilling a grown pool: the kernels a class just took are replaced
#: after its pages are up, not while they load on the same cores. With 10 s, six replacement
#: kernels started while the six pages of ``benchmarks/classroom.py class`` were still loading
#: (kernels 22 CPU-s in the burst, p95 27 s); with 60 s, 8 CPU-s and p95 17 s in the same
#: conditions (a busy machine). By then the students have joined and the pool has shrunk back.
GROWN_FILL_DELAY = 60.0

#: Only rooms changed within this many seconds count: a lobby left open since last week is not a class arriving.
RECENT = 1800.0


def pool_target(base: int, waiting: int, most_extra: int = MOST_EXTRA) -> int:
    """The pool to keep: ``base``, or one kernel per waiting device seat and one for the projector
    (at most ``most_extra`` above ``base``)."""
    return max(base, min(base + most_extra, waiting + 1 if waiting > 0 else 0))


def waiting_device_seats(store: object, now: float | None = None, recent: float = RECENT) -> int:
    """Device seats (people with a seat link) not joined yet, in open rooms changed within ``recent`` s."""
    from ..classroom.store import OPEN

    moment = time.time() if now is None else now
    rooms = [room for room in store.rooms(status=OPEN) if moment - room.updated <= recent]  # type: ignore[attr-defined]
    if not rooms:
        return 0
    seats = store.seats_of([room.id for room in rooms])  # type: ignore[attr-defined]
    return sum(_waiting(row) for rows in seats.values() for row in rows)


def _waiting(row: object) -> bool:
    return (getattr(row, "kind", "") == "person" and getattr(row, "token_hash", None) is not None
            and getattr(row, "joined", None) is None and not getattr(row, "revoked", False))


class WatchProblems:
    """Tells the server's log when the store cannot be read, without repeating it every 2 s.

    A new problem is a warning (the pool then stays as it is, so a class may wait longer);
    the same one again is only a debug line; the first good read after it says so.

    >>> import logging
    >>> seen = []
    >>> class Log:
    ...     def log(self, level, msg, *args): seen.append((logging.getLevelName(level), msg % args))
    >>> problems = WatchProblems(Log())
    >>> problems.failed(OSError("disk I/O error")); problems.failed(OSError("disk I/O error")); problems.ok()
    >>> [level for level, _ in seen]
    ['WARNING', 'DEBUG', 'INFO']
    >>> seen[0][1]
    'The preheated pool cannot follow the rooms: the room store could not be read (OSError: disk I/O error)'
    """

    def __init__(self, log: logging.Logger | logging.LoggerAdapter[Any]) -> None:
        self._log = log
        self._last: str | None = None

    def failed(self, exc: BaseException) -> None:
        text = f"{type(exc).__name__}: {exc}"
        level = logging.DEBUG if text == self._last else logging.WARNING
        self._last = text
        self._log.log(level, "The preheated pool cannot follow the rooms: the room store could not be read (%s)", text)

    def ok(self) -> None:
        if self._last is not None:
            self._log.log(logging.INFO, "The room store can be read again; the preheated pool follows the rooms")
            self._last = None
