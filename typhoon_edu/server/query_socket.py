"""The websocket on which a preheated kernel waits for its page's request, open to this server's kernels only.

Voilà hands a preheated kernel the query of the page that takes it (the teacher's key, the device's id)
over ``voila/query/<kernel id>`` (:func:`typhoon_edu.ui.query.wait_for_voila_request`). Voilà 0.5's
handler trusts whoever connects: any device could open that socket under any id, so that it replaced a
kernel's own waiter, and on closing removed *another* kernel's (its ``on_close`` deletes the last entry it
looked at when the closing socket is not found). The kernel whose waiter was removed never got its page's
request, so its page never came, and the request, the teacher's key in it, stayed in a class-level cache
that anyone could read back by opening the socket under that kernel's id.

:class:`GuardedQuerySocket` takes its place:

* the handshake must carry this server's query key (:data:`QUERY_KEY_HEADER`): a random value made when the
  server starts and put in the server's environment (:func:`ensure_query_key`), which every kernel it starts
  inherits and no page ever sees; anything else is answered 403;
* a second socket for an id that already has a waiter is refused (409) instead of replacing it;
* a closing socket removes its own entry only;
* a request is dropped from the cache once it is delivered.

>>> env = {}
>>> key = ensure_query_key(env)
>>> len(key) >= 32 and ensure_query_key(env) == key and env[QUERY_KEY_ENV_VAR] == key
True
>>> key_matches(key, env), key_matches("guess", env), key_matches(key, {})
(True, False, False)
"""

from __future__ import annotations

import hmac
import logging
import os
import secrets
from collections.abc import Mapping, MutableMapping
from typing import Any

from voila.request_info_handler import RequestInfoSocketHandler

from ..ui.query import QUERY_KEY_ENV_VAR, QUERY_KEY_HEADER

__all__ = ["QUERY_KEY_ENV_VAR", "QUERY_KEY_HEADER", "GuardedQuerySocket", "ensure_query_key", "key_matches"]

log = logging.getLogger(__name__)


def ensure_query_key(environ: MutableMapping[str, str] | None = None) -> str:
    """The server's query key, made (and put into ``environ``, ``os.environ`` by default) if there is none yet."""
    env = os.environ if environ is None else environ
    key = env.get(QUERY_KEY_ENV_VAR)
    if not key:
        key = env[QUERY_KEY_ENV_VAR] = secrets.token_urlsafe(32)
    return key


def key_matches(given: str | None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``given`` is the server's query key (compared in constant time; never true without a key)."""
    key = (os.environ if environ is None else environ).get(QUERY_KEY_ENV_VAR)
    if not key or given is None:
        return False
    return hmac.compare_digest(given.encode(), key.encode())


class GuardedQuerySocket(RequestInfoSocketHandler):  # type: ignore[misc]
    """Voilà's ``voila/query/<kernel id>`` socket for this server's own kernels only (module docstring)."""

    async def get(self, *args: Any, **kwargs: Any) -> None:
        kernel_id = kwargs.get("kernel_id") or (args[0] if args else "")  # Voilà's route names its group
        if not key_matches(self.request.headers.get(QUERY_KEY_HEADER)):
            log.warning("Refused a query socket without this server's key from %s", self.request.remote_ip)
            self._refuse(403, "this socket is for the server's own kernels")
            return
        if kernel_id in RequestInfoSocketHandler._waiters:
            log.warning("Refused a second query socket for kernel %s from %s", kernel_id, self.request.remote_ip)
            self._refuse(409, "this kernel is already waiting for its page")
            return
        await super().get(*args, **kwargs)

    def _refuse(self, status: int, why: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status}: {why}\n")

    def open(self, kernel_id: str) -> None:  # type: ignore[override]
        super().open(kernel_id)  # sends the request at once if it came before this socket
        RequestInfoSocketHandler._cache.pop(kernel_id, None)

    def on_close(self) -> None:
        waiters = RequestInfoSocketHandler._waiters
        for kernel_id in [k for k, w in waiters.items() if w is self]:
            del waiters[kernel_id]
