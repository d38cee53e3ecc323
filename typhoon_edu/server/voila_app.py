"""The Voilà application behind ``typhoon-edu serve``: Voilà itself, with the server's guards.

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
* **The teacher's and the device's cookies** become the ``teacher`` and ``device`` the kernel
  sees, and the students' short address ``/join`` (``/join/<CODE>``): see
  :mod:`typhoon_edu.server.page_handlers` and :mod:`typhoon_edu.server.page_query`.
* **Kernels within bounds**: at most ``--TyphoonVoila.max_kernels`` page kernels in all and
  ``--TyphoonVoila.max_kernels_per_client`` per client address (a page saying so beyond that), and a
  kernel whose page never connects is stopped ``--TyphoonVoila.connect_grace`` seconds after it was
  sent (:mod:`typhoon_edu.server.kernel_budget`).
* **A clean stop** while kernels are starting: Voilà's ``stop`` waits for them, drops pool refills
  still waiting out their delay, and ends busy kernels at once, before it stops every other kernel
  (:mod:`typhoon_edu.server.kernel_settle`).
* **The query socket for this server's kernels only**: a preheated kernel's ``voila/query/<id>`` socket needs the
  server's key, held in the kernels' environment (:mod:`typhoon_edu.server.query_socket`).
* **Kernel websocket frames checked** before jupyter_server's and Voilà's parsers see them
  (:mod:`typhoon_edu.server.websocket_guard`, :class:`GuardedKernelWebsocketHandler`), and a frame over
  the size limit closed with a close frame the client gets (:mod:`typhoon_edu.server.websocket_size`).
* **Short answers, no tracebacks** for a websocket to an unknown kernel, ``/logout`` and odd
  ``/voila/templates/`` paths (:mod:`typhoon_edu.server.short_answers`).

Kept as Voilà has it: kernels accept only widget (comm) messages, kernel info and shutdown
requests from the browser (``allowed_message_types``): no page can send an ``execute_request``.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Collection
from typing import Any

from . import lean_start  # noqa: F401 - before jupyter_server and Voilà are imported (see its docstring)

# isort: split
from jupyter_core.utils import ensure_async
from jupyter_server.auth.logout import LogoutHandler
from jupyter_server.utils import url_path_join
from tornado.httputil import HTTPServerRequest
from tornado.ioloop import PeriodicCallback
from tornado.routing import Matcher, Rule
from tornado.web import HTTPError, RequestHandler
from traitlets import Bool, Float, Int, List, Unicode
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import (
    VoilaKernelWebsocketHandler,
    WebsocketHandler,
    read_header_from_binary_message,
)

from .kernel_budget import KernelBudget
from .kernel_settle import STOP_SETTLE, settle_kernels, stop_at_once
from .network import host_allowed, machine_hosts
from .page_handlers import BUDGET_SETTING, JoinPageHandler, PageHandler, track_page_kernels
from .page_query import DEVICE_COOKIE, JOIN_CODE_PATTERN
from .pool_growth import GROWN_FILL_DELAY, WATCH_INTERVAL, WatchProblems, pool_target, waiting_device_seats
from .query_socket import GuardedQuerySocket, ensure_query_key
from .short_answers import NotHereHandler, PlainErrors, TemplateFiles, plain_answer
from .websocket_guard import KERNEL_WS_PROTOCOL, offers_v1, v1_frame_problem, v1_message_problem
from .websocket_size import size_limited

__all__ = [
    "DEFAULT_CONNECT_GRACE",
    "DEFAULT_MAX_KERNELS",
    "DEFAULT_MAX_KERNELS_PER_CLIENT",
    "ForeignHostMatcher",
    "GuardedKernelWebsocketHandler",
    "TyphoonVoila",
    "main",
]

log = logging.getLogger(__name__)

#: Page kernels in all (~115 MB each; the preheated pool comes on top): a few classes' worth.
DEFAULT_MAX_KERNELS = 40

#: Page kernels one client address may hold: a teacher's projector and a few tabs, a phone and its reloads.
DEFAULT_MAX_KERNELS_PER_CLIENT = 8

#: Seconds after its page was sent that a kernel whose page never connected is stopped.
DEFAULT_CONNECT_GRACE = 40.0

#: Seconds between two looks for kernels whose page never connected.
BUDGET_CHECK_INTERVAL = 5.0


class ForeignHostMatcher(Matcher):
    """Matches the requests whose ``Host`` header is *not* one of ``allowed`` (see :func:`host_allowed`)."""

    def __init__(self, allowed: Collection[str]) -> None:
        self.allowed = frozenset(allowed)

    def match(self, request: HTTPServerRequest) -> dict[str, Any] | None:
        # request.host falls back to 127.0.0.1 when the header is missing: read the header itself.
        if host_allowed(request.headers.get("Host"), self.allowed):
            return None
        return {}


class DeviceActivityMatcher(Matcher):
    """Matches nothing; notes the device cookie of every request, so that a page still loading its
    scripts (on a busy machine, for a minute) keeps its kernel (see :meth:`KernelBudget.never_connected`)."""

    def __init__(self, budget: KernelBudget) -> None:
        self.budget = budget

    def match(self, request: HTTPServerRequest) -> dict[str, Any] | None:
        found = _DEVICE_IN_COOKIE.search(request.headers.get("Cookie", ""))
        if found is not None:
            self.budget.seen(found.group(1))
        return None


_DEVICE_IN_COOKIE = re.compile(rf"(?:^|;)\s*{DEVICE_COOKIE}=([A-Za-z0-9_-]{{1,64}})")


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


class GuardedKernelWebsocketHandler(PlainErrors, VoilaKernelWebsocketHandler):
    """Voilà's kernel websocket, behind the frame guard of :mod:`typhoon_edu.server.websocket_guard`.

    * The handshake must offer the v1 subprotocol; otherwise 400 (the legacy protocol's binary
      replies mislead Voilà's header reader, and its own parser has the same unbounded count).
    * A kernel the server does not have is 404, one line of text (jupyter_server's error page
      failed and logged a traceback for each: :mod:`typhoon_edu.server.short_answers`).
    * A text frame, or a binary frame whose layout or header :func:`v1_message_problem` refuses,
      closes the socket (1008) with one log line before jupyter_server's parser sees it; so does
      a frame jupyter_server fails to read all the same. The page's kernel lives on.
    * A frame over the size limit (10 MiB) closes the socket with 1009 and one log line
      (:mod:`typhoon_edu.server.websocket_size`).
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
        kernel_id = kwargs.get("kernel_id", args[0] if args else None)
        if kernel_id not in self.kernel_manager:  # answered here: the access log's one line, no traceback
            plain_answer(self, 404, "no such kernel")
            return
        await super().get(*args, **kwargs)

    def get_websocket_protocol(self) -> Any:
        return size_limited(self, super().get_websocket_protocol())

    async def open(self, kernel_id: str) -> None:  # type: ignore[override]
        budget: KernelBudget | None = self.settings.get(BUDGET_SETTING)
        if budget is not None:
            budget.connected(kernel_id)
            self._typhoon_counted = kernel_id
        await super().open(kernel_id)

    def on_close(self) -> None:
        counted = getattr(self, "_typhoon_counted", None)
        budget: KernelBudget | None = self.settings.get(BUDGET_SETTING)
        if counted is not None and budget is not None:
            budget.disconnected(counted)
            self._typhoon_counted = None
        super().on_close()

    def on_message(self, message: str | bytes) -> None:  # type: ignore[override]
        problem = v1_message_problem(message)
        if problem is None:
            try:
                super().on_message(message)
                return
            except (ValueError, TypeError, KeyError, IndexError, AssertionError, RecursionError) as exc:
                problem = f"jupyter_server could not read it ({type(exc).__name__}: {str(exc)[:80]})"
        log.warning("Closed a kernel websocket from %s: %s", self.request.remote_ip, problem)
        self.close(1008, "malformed kernel message")

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


class QuietTrust(logging.Filter):
    """Drops jupyter_server's "Notebook … is not trusted", logged at every page load of the class server.

    Trust only decides whether a notebook's *saved* outputs may show HTML and run scripts in
    JupyterLab; Voilà runs the notebook afresh for each page and shows what it makes, so for the
    dashboard the warning says nothing a teacher can act on, in the terminal they watch.

    >>> record = logging.LogRecord("x", logging.WARNING, "", 0, "Notebook %s is not trusted", ("d.ipynb",), None)
    >>> QuietTrust().filter(record), QuietTrust().filter(logging.makeLogRecord({"msg": "Kernel started"}))
    (False, True)
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != "Notebook %s is not trusted"


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

    max_kernels = Int(DEFAULT_MAX_KERNELS, config=True, help="Most page kernels in all (the preheated pool not counted).")
    max_kernels_per_client = Int(DEFAULT_MAX_KERNELS_PER_CLIENT, config=True,
                                 help="Most page kernels one client address may hold.")
    connect_grace = Float(DEFAULT_CONNECT_GRACE, config=True,
                          help="Seconds after which a kernel whose page never connected is stopped.")

    grow_pool = Bool(True, config=True,
                     help="Preheat one more kernel per device seat waiting to join an open room (issue 19 §7).")

    def allowed_hosts(self) -> list[str]:
        """Every Host (without port) this server answers to."""
        return machine_hosts(self.extra_hosts)

    def init_settings(self) -> dict[str, Any]:
        ensure_query_key()  # before the first kernel starts: each inherits it (server/query_socket.py)
        settings: dict[str, Any] = super().init_settings()
        self.log.addFilter(QuietTrust())  # the contents manager logs through this app's logger
        # The cookie is only ever needed by this site's own page, so no other site may send it.
        settings["xsrf_cookie_kwargs"] = {"samesite": "Strict"}
        self.kernel_budget = KernelBudget(self.max_kernels, self.max_kernels_per_client, self.connect_grace)
        settings[BUDGET_SETTING] = self.kernel_budget
        track_page_kernels(self.kernel_manager)
        return settings

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = []
        for spec in super().init_handlers():
            if isinstance(spec, tuple) and len(spec) >= 2 and spec[1] is TornadoVoilaHandler:
                # The students' short address first: the catch-all would send /join to a file.
                join = url_path_join(self.server_url, rf"/join(?:/({JOIN_CODE_PATTERN}))?/?")
                handlers.append((join, JoinPageHandler, *spec[2:]))
                spec = (spec[0], PageHandler, *spec[2:])
            elif isinstance(spec, tuple) and len(spec) >= 2 and spec[1] is VoilaKernelWebsocketHandler:
                spec = (spec[0], GuardedKernelWebsocketHandler, *spec[2:])
            elif isinstance(spec, tuple) and len(spec) >= 2 and spec[1] is RequestInfoSocketHandler:
                spec = (spec[0], GuardedQuerySocket, *spec[2:])
            elif isinstance(spec, tuple) and len(spec) >= 2 and spec[1] is TemplateStaticFileHandler:
                spec = (spec[0], TemplateFiles, *spec[2:])
            elif isinstance(spec, tuple) and len(spec) >= 2 and isinstance(spec[1], type) \
                    and issubclass(spec[1], LogoutHandler):
                spec = (spec[0], NotHereHandler)  # no login in Voilà; its page failed (short_answers)
            handlers.append(spec)
        return handlers

    def listen(self) -> None:
        if self.check_host:
            allowed = self.allowed_hosts()
            self.app.default_router.rules.insert(0, Rule(ForeignHostMatcher(allowed), ForeignHostHandler))
            self.log.info("Answering only to Host: %s (and loopback addresses)", ", ".join(allowed))
        self.app.default_router.rules.insert(0, Rule(DeviceActivityMatcher(self.kernel_budget), ForeignHostHandler))
        self._budget_check = PeriodicCallback(self._check_budget, BUDGET_CHECK_INTERVAL * 1000)
        self._budget_check.start()
        if self.grow_pool and self.voila_configuration.preheat_kernel:
            self._room_store: Any = None
            self._watching = False
            self._watch_problems = WatchProblems(self.log)
            self._pool_watch = PeriodicCallback(self._watch_rooms, WATCH_INTERVAL * 1000)
            self._pool_watch.start()
        super().listen()

    def stop(self) -> None:
        """Stop the kernels as Voilà does, once those still starting are up and the busy ones ended (:mod:`.kernel_settle`)."""
        # On the server's own loop, where the kernels' tasks and message streams live (jupyter_core's
        # run_sync, which Voilà's stop uses, would make a new loop, on which they never move).
        loop = getattr(getattr(self, "ioloop", None), "asyncio_loop", None)
        try:
            if loop is not None and not loop.is_closed() and not loop.is_running():
                loop.run_until_complete(settle_kernels(self.kernel_manager, STOP_SETTLE, self.log))
                loop.run_until_complete(stop_at_once(self.kernel_manager, self.log))
        except Exception:  # noqa: BLE001 - stopping goes on whatever happened here
            self.log.warning("Could not wait for the kernels still starting", exc_info=True)
        try:
            super().stop()
        except HTTPError as err:  # a kernel that was still starting after STOP_SETTLE s
            self.log.warning("A kernel still starting could not be stopped (%s); it stops by itself when it "
                             "notices the server is gone", err.log_message)

    def _waiting_seats(self) -> int:
        """Device seats waiting to join (runs in a worker thread: it reads the store)."""
        if self._room_store is None:
            from ..classroom.store import RoomStore

            self._room_store = RoomStore()  # TYPHOON_EDU_DB, as every kernel reads it
        return waiting_device_seats(self._room_store)

    async def _watch_rooms(self) -> None:
        """Keep the preheated pool at :func:`pool_target` for the device seats waiting to join."""
        if self._watching:
            return
        self._watching = True
        try:
            import asyncio

            waiting = await asyncio.get_running_loop().run_in_executor(None, self._waiting_seats)
        except Exception as exc:  # noqa: BLE001 - a store that cannot be read: the pool stays as it is
            self._watch_problems.failed(exc)
            return
        finally:
            self._watching = False
        self._watch_problems.ok()
        km = self.kernel_manager
        base = max(int(self.voila_configuration.default_pool_size), 1)
        config = {name: dict(value) for name, value in km.kernel_pools_config.items()}
        default = config.setdefault("default", {})
        target = pool_target(base, waiting)
        if default.get("pool_size") == target:
            return
        self.log.info("Preheated pool: %s kernels (%s device seats waiting to join)", target, waiting)
        default["pool_size"] = target
        km.kernel_pools_config = config
        if not hasattr(self, "_base_fill_delay"):
            self._base_fill_delay = float(km.fill_delay)
        km.fill_delay = max(self._base_fill_delay, GROWN_FILL_DELAY) if target > base else self._base_fill_delay
        if target > base or waiting:
            km.fill_if_needed(delay=0, notebook_name=km.notebook_path)

    async def _check_budget(self) -> None:
        """Forget kernels that are gone; stop those whose page never connected."""
        budget = self.kernel_budget
        budget.keep_only(self.kernel_manager.list_kernel_ids())
        for kernel_id in budget.never_connected():
            budget.forget(kernel_id)
            self.log.info("Stopping kernel %s: its page never connected", kernel_id)
            try:
                await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
            except Exception:  # already stopped by someone else
                self.log.debug("kernel %s was already stopped", kernel_id, exc_info=True)


def main(argv: list[str] | None = None) -> None:
    """``python -m typhoon_edu.server.voila_app NOTEBOOK [options]``: start :class:`TyphoonVoila`."""
    TyphoonVoila.launch_instance(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
