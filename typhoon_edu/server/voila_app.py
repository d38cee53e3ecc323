"""The Voilà application behind ``typhoon-edu serve``: Voilà itself, with two safety fixes.

``python -m typhoon_edu.server.voila_app NOTEBOOK [Voilà options]`` takes every option ``voila`` takes
(it *is* :class:`voila.app.Voila`, subclassed) and adds:

* **A Host check (DNS rebinding).** Voilà's stand-alone app sets the tornado setting
  ``allow_remote_access=True`` for itself, which turns off jupyter_server's own ``Host`` check,
  and that check would in any case refuse a LAN address (it accepts loopback *addresses* and
  ``local_hostnames`` *names* only). So a first routing rule, ahead of all of Voilà's, answers
  403 to every request (pages, static files, kernel and query websockets alike) whose ``Host``
  is not one of this machine's: loopback, ``localhost``, the host name, the interfaces'
  addresses (:func:`typhoon_edu.server.network.machine_hosts`) and ``--TyphoonVoila.extra_hosts``
  (``serve --lan`` passes the LAN address it prints). ``--TyphoonVoila.check_host=False`` turns
  it off.
* **The ``_xsrf`` cookie for the closing-tab beacon.** On ``beforeunload`` Voilà's page posts
  ``voila/api/shutdown/<kernel>`` with the ``_xsrf`` value it reads from ``document.cookie``, but
  nothing in Voilà 0.5 ever sets that cookie (the page is rendered by nbconvert, not by a
  template that touches ``xsrf_token``), so the post is refused (``403 '_xsrf' argument missing``,
  voila-dashboards/voila#1458) and the kernel lives on until culled. The notebook page's handler
  now reads ``self.xsrf_token`` before its first byte, which makes tornado set the cookie
  (``SameSite=Strict``); the XSRF check itself stays on for every POST.

Kept as Voilà has it: kernels accept only widget (comm) messages, kernel info and shutdown
requests from the browser (``allowed_message_types``): no page can send an ``execute_request``.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Collection
from typing import Any

from tornado.httputil import HTTPServerRequest
from tornado.routing import Matcher, Rule
from tornado.web import HTTPError, RequestHandler
from traitlets import Bool, List, Unicode
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import (
    VoilaKernelWebsocketHandler,
    WebsocketHandler,
    read_header_from_binary_message,
)

from .network import host_allowed, machine_hosts
from .websocket_guard import KERNEL_WS_PROTOCOL, offers_v1, v1_frame_problem

__all__ = ["ForeignHostMatcher", "GuardedKernelWebsocketHandler", "TyphoonVoila", "XsrfCookieVoilaHandler", "main"]

log = logging.getLogger(__name__)


class ForeignHostMatcher(Matcher):
    """Matches the requests whose ``Host`` header is *not* one of ``allowed`` (see :func:`host_allowed`)."""

    def __init__(self, allowed: Collection[str]) -> None:
        self.allowed = frozenset(allowed)

    def match(self, request: HTTPServerRequest) -> dict[str, Any] | None:
        # request.host falls back to 127.0.0.1 when the header is missing: read the header itself.
        if host_allowed(request.headers.get("Host"), self.allowed):
            return None
        return {}


class ForeignHostHandler(RequestHandler):
    """Answers 403 to a request addressed to another machine's name, whatever its method or path."""

    SUPPORTED_METHODS = ("GET", "HEAD", "POST", "DELETE", "PATCH", "PUT", "OPTIONS")  # type: ignore[assignment]

    def prepare(self) -> None:
        log.warning("Refused a request for Host %r (not this machine's): %s %s",
                    self.request.headers.get("Host"), self.request.method, self.request.path)
        raise HTTPError(403, "Host not allowed")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: this server answers only to this machine's own names and addresses\n")


class XsrfCookieVoilaHandler(TornadoVoilaHandler):
    """Voilà's notebook page, which also sets the ``_xsrf`` cookie its shutdown beacon needs."""

    async def get(self, path: str | None = None) -> None:
        _ = self.xsrf_token  # tornado sets the _xsrf cookie the first time the token is read
        await super().get(path)


class GuardedKernelWebsocketHandler(VoilaKernelWebsocketHandler):
    """Voilà's kernel websocket, behind the frame guard of :mod:`typhoon_edu.server.websocket_guard`.

    * The handshake must offer the v1 subprotocol; otherwise 400 (the legacy protocol's binary
      replies mislead Voilà's header reader, and its own parser has the same unbounded count).
    * A text frame, or a binary frame whose layout :func:`v1_frame_problem` refuses, closes the
      socket (1008) before jupyter_server's parser sees it; the page's kernel lives on.
    * Frames the server sends are checked before Voilà reads their header.

    Needed while the pinned jupyter_server (2.x) and Voilà (0.5) parse frames unchecked; the
    upstream reports are quoted in docs/security.md.
    """

    async def get(self, *args: Any, **kwargs: Any) -> None:
        offered = self.request.headers.get("Sec-WebSocket-Protocol")
        if not offers_v1(offered):
            log.warning("Refused a kernel websocket without the %s subprotocol (offered: %r) from %s",
                        KERNEL_WS_PROTOCOL, offered, self.request.remote_ip)
            self.set_status(400)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(f"400: kernel websockets must use the {KERNEL_WS_PROTOCOL} subprotocol\n")
            return
        await super().get(*args, **kwargs)

    def on_message(self, message: str | bytes) -> None:  # type: ignore[override]
        problem = v1_frame_problem(message)
        if problem is not None:
            log.warning("Closed a kernel websocket from %s: %s", self.request.remote_ip, problem)
            self.close(1008, "malformed kernel message")
            return
        super().on_message(message)

    def write_message(self, message: bytes | dict[str, Any], binary: bool = False) -> Any:  # type: ignore[override]
        header: Any = None
        if isinstance(message, bytes):
            if v1_frame_problem(message) is None:
                header = read_header_from_binary_message(message)
        elif isinstance(message, dict):
            header = message.get("header")
        if isinstance(header, dict) and header.get("msg_type") == "execute_input":
            return None  # as Voilà does: the page never sees the notebook's code
        return WebsocketHandler.write_message(self, message, binary)


class TyphoonVoila(Voila):
    """Voilà with a Host check and a working closing-tab shutdown (see the module's docstring)."""

    name = "typhoon-voila"

    check_host = Bool(True, config=True, help="Refuse requests whose Host header is not this machine's (403).")
    extra_hosts = List(
        Unicode(),
        [],
        config=True,
        help="More names or addresses that count as this machine's (serve --lan adds the LAN address).",
    )

    def allowed_hosts(self) -> list[str]:
        """Every Host (without port) this server answers to."""
        return machine_hosts(self.extra_hosts)

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        # The cookie is only ever needed by this site's own page, so no other site may send it.
        settings["xsrf_cookie_kwargs"] = {"samesite": "Strict"}
        return settings

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = []
        for spec in super().init_handlers():
            if isinstance(spec, tuple) and len(spec) >= 2 and spec[1] is TornadoVoilaHandler:
                spec = (spec[0], XsrfCookieVoilaHandler, *spec[2:])
            elif isinstance(spec, tuple) and len(spec) >= 2 and spec[1] is VoilaKernelWebsocketHandler:
                spec = (spec[0], GuardedKernelWebsocketHandler, *spec[2:])
            handlers.append(spec)
        return handlers

    def listen(self) -> None:
        if self.check_host:
            allowed = self.allowed_hosts()
            self.app.default_router.rules.insert(0, Rule(ForeignHostMatcher(allowed), ForeignHostHandler))
            self.log.info("Answering only to Host: %s (and loopback addresses)", ", ".join(allowed))
        super().listen()


def main(argv: list[str] | None = None) -> None:
    """``python -m typhoon_edu.server.voila_app NOTEBOOK [options]``: start :class:`TyphoonVoila`."""
    TyphoonVoila.launch_instance(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
