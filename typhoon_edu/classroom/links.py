"""Seat links that a reopened projector can show again, without the store holding them.

A seat's link carries a device token; the store keeps only the token's SHA-256 (a copied
database opens no seat). So that a projector reopened later (another kernel, the next morning)
shows the *same* QR codes, instead of issuing new tokens and breaking the ones already on the
wall, a seat link's token is derived: ``HMAC-SHA256(server secret, room id / region / nonce)``.
The nonce is stored with the seat; the secret lives in a file only the computer's user can read
(next to the teacher's key), or in memory for a store that has none. *New join link* draws a new
nonce, so the old link stops working.

>>> secret = b"s" * 32
>>> a = seat_link_token(secret, "room1", "Taiwan", "n1")
>>> a == seat_link_token(secret, "room1", "Taiwan", "n1"), a == seat_link_token(secret, "room1", "Taiwan", "n2")
(True, False)
>>> len(a)
32
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

__all__ = ["default_secret_file", "load_link_secret", "new_nonce", "process_secret", "seat_link_token"]

SECRET_BYTES = 32
_PROCESS_SECRET = secrets.token_bytes(SECRET_BYTES)


def process_secret() -> bytes:
    """A secret for this process only (a store without a secret file: links last as long as the kernel)."""
    return _PROCESS_SECRET


def new_nonce() -> str:
    """A fresh nonce for one seat link (64 random bits, hex)."""
    return secrets.token_hex(8)


def seat_link_token(secret: bytes, room_id: str, region: str, nonce: str) -> str:
    """The device token of a seat link: 24 bytes of HMAC-SHA256, URL-safe (32 characters, like a random token)."""
    mac = hmac.new(secret, f"seat-link/{room_id}/{region}/{nonce}".encode(), hashlib.sha256).digest()[:24]
    return base64.urlsafe_b64encode(mac).decode("ascii")


def default_secret_file() -> Path:
    """Where the computer keeps the seat links' secret: the user's config folder (platformdirs)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("typhoon-edu", appauthor=False)) / "links.key"


def load_link_secret(path: Path | None = None) -> bytes:
    """The secret in ``path`` (default :func:`default_secret_file`), made (mode 0600) if missing or damaged.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "links.key"
    >>> load_link_secret(f) == load_link_secret(f), oct(f.stat().st_mode & 0o777)
    (True, '0o600')
    """
    path = Path(path) if path is not None else default_secret_file()
    try:
        data = bytes.fromhex(path.read_text(encoding="ascii").strip())
        if len(data) >= SECRET_BYTES:
            if path.stat().st_mode & 0o077:
                os.chmod(path, 0o600)
            return data
        damaged = True  # too short
    except FileNotFoundError:
        damaged = False
    except (ValueError, UnicodeDecodeError):
        damaged = True
    data = secrets.token_bytes(SECRET_BYTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, (data.hex() + "\n").encode("ascii"))
    finally:
        os.close(fd)
    if damaged:
        os.replace(tmp, path)
        return data
    try:
        os.link(tmp, path)  # never replaces a secret another kernel wrote a moment ago
    except FileExistsError:
        os.unlink(tmp)
        return load_link_secret(path)
    os.unlink(tmp)
    return data
