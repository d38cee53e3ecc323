"""How many kernels the pages may hold: a cap in total and per client address, and the kernels
whose page never connected.

Every page Voilà serves gets a kernel (~115 MB, a few CPU-seconds to start). Unchecked, anyone
who can reach the server starts one per request and keeps it for the idle-cull time (12 requests:
+1.39 GB in 29 s, none stopped for 15 minutes). :class:`KernelBudget` is the book the page handler
keeps (:mod:`typhoon_edu.server.voila_app`):

* **A page request is admitted** only while its client address holds fewer than ``per_client``
  page kernels (this computer's own ``127.0.0.1`` and ``::1``, where the teacher's projector and
  tabs are, are not capped per client: see ``exempt``) and all pages together fewer than ``total`` (the preheated pool is not counted:
  its size is fixed by ``serve``). This computer is never refused for the total either: the room's devices,
  however many, cannot lock the teacher out of the projector. At the cap, kernels whose page was open and has gone
  (a reloaded phone whose tab never said goodbye) make room, the client's own first, then the
  longest-gone; a kernel whose page is still connected is never taken. Otherwise the request is
  refused (the handler answers 503 with a page saying so, in both languages).
* **A kernel whose page never connects** (a script that fetched ``/`` and left) is stopped
  ``connect_grace`` seconds after its page was sent and its browser's last request (its device
  cookie, :meth:`seen`): a page that a loaded machine takes a minute to bring up keeps fetching
  its scripts and styles meanwhile, and keeps its kernel (:meth:`never_connected`).

>>> clock = [0.0]
>>> book = KernelBudget(total=3, per_client=2, connect_grace=45, clock=lambda: clock[0])
>>> a = book.admit("10.0.0.5"); a.bind("k1"); a.finish()
>>> b = book.admit("10.0.0.5"); b.bind("k2"); b.finish()
>>> book.admit("10.0.0.5").refused
'client'
>>> book.admit("127.0.0.1").refused is None  # this computer: only the total counts
True
>>> clock[0] = 50.0
>>> book.never_connected()
['k1', 'k2']
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

__all__ = ["EXEMPT_CLIENTS", "Admission", "KernelBudget", "PageKernel"]

#: This computer, as a browser on it reaches the server: the teacher's, not a student's device.
#: (Behind a reverse proxy on the same machine every client looks like this: use the proxy's limits.)
EXEMPT_CLIENTS: frozenset[str] = frozenset({"127.0.0.1", "::1"})


@dataclass
class PageKernel:
    """One page's kernel: whose it is, when its page was sent, and its websocket connections."""

    client: str
    device: str | None = None
    sent_at: float | None = None
    connections: int = 0
    ever_connected: bool = False
    gone_at: float | None = None

    @property
    def gone(self) -> bool:
        """Its page was connected and has no connection now."""
        return self.ever_connected and self.connections == 0


@dataclass
class Admission:
    """The answer to one page request: admitted (``refused`` is ``None``) or why not.

    ``evict`` lists kernels of pages that have gone, to stop before the new one starts.
    """

    book: KernelBudget | None
    client: str
    device: str | None = None
    refused: str | None = None
    evict: list[str] = field(default_factory=list)
    kernel_id: str | None = None
    _open: bool = True

    def bind(self, kernel_id: str) -> None:
        """The request's kernel is known (started for it, or taken from the pool)."""
        if self.book is None or self.refused is not None or self.kernel_id is not None:
            return
        self.kernel_id = kernel_id
        self.book._bind(self.client, kernel_id, self.device)

    def finish(self) -> None:
        """The page has been sent (or the request failed): the connect-grace clock starts."""
        if self.book is None or self.refused is not None or not self._open:
            return
        self._open = False
        self.book._finish(self.client, self.kernel_id)


class KernelBudget:
    """The page kernels, per client address; see the module's docstring."""

    def __init__(self, total: int, per_client: int, connect_grace: float,
                 clock: Callable[[], float] = time.monotonic, exempt: Iterable[str] = EXEMPT_CLIENTS) -> None:
        if total < 1 or per_client < 1 or connect_grace <= 0:
            raise ValueError(f"kernel caps must be >= 1 and the grace > 0, not {total}, {per_client}, {connect_grace}")
        self.total = total
        self.per_client = per_client
        self.connect_grace = connect_grace
        self.clock = clock
        self.exempt = frozenset(exempt)
        self.kernels: dict[str, PageKernel] = {}
        self.pending: Counter[str] = Counter()
        self.last_seen: dict[str, float] = {}

    def held_by(self, client: str) -> int:
        """Page kernels ``client`` holds, counting requests still starting theirs."""
        return sum(1 for page in self.kernels.values() if page.client == client) + self.pending[client]

    def in_use(self) -> int:
        """Page kernels in all, counting requests still starting theirs."""
        return len(self.kernels) + sum(self.pending.values())

    def admit(self, client: str, device: str | None = None) -> Admission:
        """Admit a page request from ``client`` (see the module's docstring), or say why not.

        >>> book = KernelBudget(total=2, per_client=2, connect_grace=45)
        >>> first = book.admit("a"); first.bind("k1"); book.connected("k1"); book.disconnected("k1")
        >>> second = book.admit("b"); third = book.admit("b")
        >>> third.refused is None, third.evict
        (True, ['k1'])
        >>> book.admit("c").refused
        'total'
        >>> book.admit("127.0.0.1").refused is None  # the teacher's own computer: never locked out by the devices
        True
        """
        evict: list[str] = []
        over = 0 if client in self.exempt else self.held_by(client) - self.per_client + 1
        if over > 0:
            own = self._gone(lambda page: page.client == client)
            if len(own) < over:
                return Admission(None, client, refused="client")
            evict = own[:over]
        over = self.in_use() - len(evict) - self.total + 1
        if over > 0:
            others = [kid for kid in self._gone(lambda page: True) if kid not in evict]
            if len(others) < over and client not in self.exempt:
                return Admission(None, client, refused="total")
            evict += others[:over]  # this computer is let in even when no gone page makes room
        for kernel_id in evict:
            self.forget(kernel_id)
        self.pending[client] += 1
        return Admission(self, client, device=device, evict=evict)

    def _gone(self, which: Callable[[PageKernel], bool]) -> list[str]:
        gone = [(page.gone_at or 0.0, kid) for kid, page in self.kernels.items() if page.gone and which(page)]
        return [kid for _, kid in sorted(gone)]

    def _bind(self, client: str, kernel_id: str, device: str | None = None) -> None:
        self._unpend(client)
        self.kernels[kernel_id] = PageKernel(client, device)

    def _finish(self, client: str, kernel_id: str | None) -> None:
        if kernel_id is None:
            self._unpend(client)
            return
        page = self.kernels.get(kernel_id)
        if page is not None and page.sent_at is None:
            page.sent_at = self.clock()

    def _unpend(self, client: str) -> None:
        if self.pending[client] > 0:
            self.pending[client] -= 1
        if self.pending[client] == 0:
            del self.pending[client]

    def connected(self, kernel_id: str) -> None:
        """A page's websocket to ``kernel_id`` opened."""
        page = self.kernels.get(kernel_id)
        if page is not None:
            page.connections += 1
            page.ever_connected = True
            page.gone_at = None

    def disconnected(self, kernel_id: str) -> None:
        """A page's websocket to ``kernel_id`` closed."""
        page = self.kernels.get(kernel_id)
        if page is not None and page.connections > 0:
            page.connections -= 1
            if page.connections == 0:
                page.gone_at = self.clock()

    def seen(self, device: str) -> None:
        """A request came from the browser with this device cookie (any request: a script, a style, a font)."""
        self.last_seen[device] = self.clock()

    def never_connected(self) -> list[str]:
        """Kernels whose page was sent, and whose browser last asked for anything, more than
        ``connect_grace`` s ago, and which never connected.

        >>> clock = [0.0]
        >>> book = KernelBudget(total=9, per_client=9, connect_grace=45, clock=lambda: clock[0])
        >>> slow = book.admit("10.0.0.7", device="d7"); slow.bind("k7"); slow.finish()
        >>> clock[0] = 40.0; book.seen("d7")           # still loading its scripts
        >>> clock[0] = 60.0; book.never_connected()
        []
        >>> clock[0] = 90.0; book.never_connected()
        ['k7']
        """
        now = self.clock()
        stale = [device for device, when in self.last_seen.items() if now - when > 4 * self.connect_grace]
        for device in stale:
            del self.last_seen[device]
        found = []
        for kid, page in self.kernels.items():
            if page.ever_connected or page.sent_at is None:
                continue
            last = max(page.sent_at, self.last_seen.get(page.device or "", page.sent_at))
            if now - last > self.connect_grace:
                found.append(kid)
        return found

    def forget(self, kernel_id: str) -> None:
        """``kernel_id`` was stopped (or is about to be)."""
        self.kernels.pop(kernel_id, None)

    def keep_only(self, alive: Iterable[str]) -> None:
        """Forget every kernel the kernel manager no longer has (shut down by a tab, culled, crashed)."""
        living = set(alive)
        for kernel_id in [kid for kid in self.kernels if kid not in living]:
            self.forget(kernel_id)
