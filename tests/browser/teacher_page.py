"""The teacher's address for browser tests: the computer's teacher key, as ``typhoon-edu serve`` prints it.

``/?teacher=<key>`` works with the server's cookie layer (it turns the address into a cookie)
and without it (the key reaches the page's query as it is), so tests that open the projector
call :func:`teacher_url` instead of opening ``/``, which is the students' join page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import ensure_local_teacher


def teacher_key(db: str | None) -> str:
    """The local teacher's key for the store at ``db`` (the one in the user's config folder, made if missing)."""
    return ensure_local_teacher(RoomStore(db))


def teacher_url(proc: Any, **query: str) -> str:
    """``proc``'s projector address for the computer's teacher (plus any ``query`` items)."""
    items = {"teacher": teacher_key(proc.db), **query}
    return proc.url + "?" + "&".join(f"{k}={quote(v)}" for k, v in items.items())
