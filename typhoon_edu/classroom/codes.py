"""Room codes to read aloud and device tokens to keep secret.

A room code is 5 characters from an alphabet without the look-alikes 0/O, 1/I/L and U/V
(29 symbols, about 20 million codes); typing is forgiving: lower case, spaces and dashes are
accepted. A device token is 192 random bits from :mod:`secrets`; the store keeps only its
SHA-256, so a copied database opens no seat.

>>> code = new_code()
>>> len(code), all(c in ALPHABET for c in code)
(5, True)
>>> normalize_code(" ab-c2d ")
'ABC2D'
>>> normalize_code("AB0CD")
Traceback (most recent call last):
...
typhoon_edu.classroom.errors.RoomNotFound: 'AB0CD' is not a room code: room codes have 5 characters from 23456789ABCDEFGHJKMNPQRSTWXYZ (no 0, O, 1, I, L, U or V)
>>> token = new_token()
>>> len(token) >= 32, token_hash(token) == token_hash(token), len(token_hash(token))
(True, True, 64)
"""

from __future__ import annotations

import hashlib
import secrets

from .errors import RoomNotFound

#: Characters of a room code: digits 2–9 and letters, without 0/O, 1/I/L and U/V.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTWXYZ"
CODE_LENGTH = 5
TOKEN_BYTES = 24  # 192 bits


def new_code(length: int = CODE_LENGTH) -> str:
    """A random room code (the store retries on the rare clash with an existing room)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str:
    """The code as stored: upper case, without spaces or dashes; RoomNotFound(kind="bad_code") if it cannot be one."""
    code = "".join(str(text).split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        raise RoomNotFound(
            f"{code!r} is not a room code: room codes have {CODE_LENGTH} characters from {ALPHABET} "
            "(no 0, O, 1, I, L, U or V)", kind="bad_code", code=code)
    return code


def looks_like_code(text: str) -> bool:
    """Whether ``text`` could be a room code (rather than a room id).

    >>> looks_like_code("abc2d"), looks_like_code("3f2a9c0d11e24b8f9a77c2d1e0f3a4b5")
    (True, False)
    """
    try:
        normalize_code(text)
    except RoomNotFound:
        return False
    return True


def new_token() -> str:
    """A fresh device token (URL-safe text, 192 random bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256 in hex (a token is random, so no salt is needed)."""
    return hashlib.sha256(str(token).encode("utf-8")).hexdigest()
