"""What a page request's query becomes before Voilà hands it to the kernel: the server's cookies.

The kernel chooses the page from the query (:func:`typhoon_edu.ui.query.page_query`). Two of its
names are the server's to set, never the browser's:

* ``teacher=<key>``: the teacher's key, from the ``typhoon_teacher`` cookie. The key arrives once
  in the address ``serve`` prints (``/?teacher=<key>``); the server then sets the cookie
  (HttpOnly, SameSite=Strict) and redirects to the same address without the key, so the key is
  not left in a projected address bar, in the history or in a photo of the screen.
* ``device=<id>``: a random 128-bit id of this browser, from the ``typhoon_device`` cookie
  (HttpOnly, SameSite=Lax, kept for a school year), which a seat link can be bound to.

Whatever the browser puts under those names in its address is dropped. ``/join`` and
``/join/<CODE>`` are the students' short address: the kernel sees ``join`` or ``join=<CODE>``.

>>> kernel_query("seat=abc&teacher=forged&device=forged", teacher=None, device="d" * 22)
'seat=abc&device=dddddddddddddddddddddd'
>>> kernel_query("", teacher="k" * 32, device="d" * 22, join="K7PM2")
'join=K7PM2&teacher=kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk&device=dddddddddddddddddddddd'
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlencode

__all__ = [
    "DEVICE_COOKIE",
    "DEVICE_COOKIE_DAYS",
    "JOIN_CODE_PATTERN",
    "SERVER_NAMES",
    "TEACHER_COOKIE",
    "client_query",
    "kernel_query",
    "masked",
    "new_device_id",
    "plausible_device",
    "plausible_teacher_key",
    "teacher_key_in",
]

TEACHER_COOKIE = "typhoon_teacher"
DEVICE_COOKIE = "typhoon_device"

#: A device cookie is kept this long (a school year and a bit): a seat bound to it survives the holidays.
DEVICE_COOKIE_DAYS = 400

#: Query names only the server may set.
SERVER_NAMES: tuple[str, ...] = ("teacher", "device")

#: What ``/join/<CODE>`` accepts as a code in the address (the kernel checks it against the rooms).
JOIN_CODE_PATTERN = r"[A-Za-z0-9]{1,16}"

# secrets.token_urlsafe: teacher keys are token_urlsafe(24) (32 characters), device ids
# token_urlsafe(16) (22); a little room either way, and nothing that could break a query or a log line.
_TEACHER_KEY = re.compile(r"[A-Za-z0-9_-]{20,128}")
_DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{22,64}")


def plausible_teacher_key(value: str | None) -> bool:
    """Whether ``value`` has the shape of a teacher key (the kernel checks whether it is one).

    >>> plausible_teacher_key("A" * 32), plausible_teacher_key("x"), plausible_teacher_key("a b" * 20)
    (True, False, False)
    """
    return bool(value) and _TEACHER_KEY.fullmatch(value or "") is not None


def plausible_device(value: str | None) -> bool:
    """Whether ``value`` has the shape of a device id this server hands out.

    >>> plausible_device(new_device_id()), plausible_device("short"), plausible_device(None)
    (True, False, False)
    """
    return bool(value) and _DEVICE_ID.fullmatch(value or "") is not None


def new_device_id() -> str:
    """A new device id: 128 random bits from :mod:`secrets`, URL-safe.

    >>> len(new_device_id())
    22
    """
    return secrets.token_urlsafe(16)


def _pairs(query: str) -> list[tuple[str, str]]:
    return parse_qsl(query.lstrip("?"), keep_blank_values=True)


def _encode(pairs: Iterable[tuple[str, str]]) -> str:
    # A blank value is written as the bare name (``join``, not ``join=``), as people type it.
    return "&".join(urlencode([(name, value)]) if value != "" else urlencode([(name, "")])[:-1]
                    for name, value in pairs)


def teacher_key_in(query: str) -> str | None:
    """The first ``teacher`` value of a query, if it has one (even a blank or malformed one).

    >>> teacher_key_in("teacher=abc&seat=x"), teacher_key_in("seat=x"), teacher_key_in("teacher")
    ('abc', None, '')
    """
    for name, value in _pairs(query):
        if name == "teacher":
            return value
    return None


def client_query(query: str, *, drop: Iterable[str] = ()) -> str:
    """The browser's query without the server's names (and ``drop``): what its address bar may show.

    >>> client_query("seat=a&teacher=k&device=d&lang=en")
    'seat=a&lang=en'
    >>> client_query("join=X&join&seat=s", drop=["join"])
    'seat=s'
    """
    dropped = set(SERVER_NAMES) | set(drop)
    return _encode((name, value) for name, value in _pairs(query) if name not in dropped)


def kernel_query(query: str, *, teacher: str | None, device: str, join: str | None = None) -> str:
    """The query the kernel gets: the browser's (without the server's names), then ours.

    ``join`` (``""`` for ``/join``, the code for ``/join/<CODE>``) replaces any ``join`` the
    browser sent; ``teacher`` is added only when the browser holds a teacher cookie.

    >>> kernel_query("join=EVIL", teacher=None, device="d" * 22, join="")
    'join&device=dddddddddddddddddddddd'
    """
    pairs = _pairs(client_query(query, drop=["join"] if join is not None else []))
    if join is not None:
        pairs.insert(0, ("join", join))
    if teacher is not None:
        pairs.append(("teacher", teacher))
    pairs.append(("device", device))
    return _encode(pairs)


def masked(uri: str) -> str:
    """A request URI fit for a log line: every ``teacher`` value replaced by ``***``.

    >>> masked("/?seat=a&teacher=SECRET_KEY&x=1")
    '/?seat=a&teacher=***&x=1'
    """
    return re.sub(r"(?<=[?&]teacher=)[^&#]*", "***", uri)
