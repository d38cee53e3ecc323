"""Before the class server stops its kernels: let those still starting finish, drop pool refills not begun,
stop busy and preheated kernels at once.

When the teacher presses Ctrl+C, Voilà's ``stop`` asks its kernel manager to shut every kernel down.
Two kinds of kernel were not ready for that:

* **A kernel still starting** (a page's, or the preheated pool's refill after a page took a kernel)
  is listed among the kernels to stop, but jupyter_server refuses to stop a kernel that has not
  finished starting (``HTTP 404: Kernel does not exist``). The refusal ended Voilà's ``stop`` with a
  traceback and exit code 1, before Voilà stopped the rest of its pool. And a kernel interrupted
  while it was still importing (jupyter_client interrupts every kernel before asking it to shut
  down) printed a ``KeyboardInterrupt`` traceback of its own.
* **A pool refill waiting out its delay** (``fill_delay``: 1 s, 10 s on a LAN, 60 s for a grown
  pool) would have been awaited by Voilà's ``stop`` to the end: it would start a kernel only to stop
  it, and after 10 s ``serve`` would have killed the server instead. (``STOP_SETTLE`` stays under those
  10 s.)

:func:`settle_kernels` waits, for at most ``timeout`` seconds, for the kernels being started; then it
cancels the pool refills that have not started a kernel yet and leaves the manager with only what
can be stopped cleanly.

A third kind stopped noisily: a **busy** kernel, above all a preheated one, which runs the dashboard up
to where it waits for its page. jupyter_client interrupts it and asks it to shut down at once; the
interrupted cell's reply then races ipykernel's own closing of its sockets, and ipykernel logged
``ERROR | Exception in message handler`` with a traceback (about one stop in three under load). A
preheated kernel that has only just answered is idle for a moment before the pool has it run the
dashboard, and the interrupt then reached the dashboard's first cell (``KeyboardInterrupt caught in
kernel``). :func:`stop_at_once` ends the busy kernels and every preheated kernel outright instead
(jupyter_client's ``now=True``): what they were running is being thrown away in any case, a preheated
kernel holds no one's game, and the room store's writes are transactions.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from typing import Any

from jupyter_core.utils import ensure_async

STOP_SETTLE = 6.0
"""Seconds the server waits, when it stops, for kernels still starting (then it stops them anyway)."""


def _starting(km: Any) -> list[asyncio.Future[Any]]:
    """The start tasks of kernels that are not yet the manager's (jupyter_client's ``_pending_kernels``)."""
    pending = getattr(km, "_pending_kernels", {})
    return [task for kernel_id, task in list(pending.items()) if kernel_id not in km and not task.done()]


def in_delay(task: asyncio.Future[Any]) -> bool:
    """Whether a pool task of Voilà is still waiting out its fill delay (``wait_before``'s ``asyncio.sleep``).

    >>> async def wait_before(delay, aw):
    ...     await asyncio.sleep(delay)
    ...     return await aw
    >>> async def check():
    ...     start = asyncio.sleep(0.5)
    ...     task = asyncio.ensure_future(wait_before(5, start))
    ...     await asyncio.sleep(0)
    ...     waiting = in_delay(task)
    ...     task.cancel()
    ...     start.close()
    ...     return waiting
    >>> asyncio.run(check())
    True
    """
    get_coro = getattr(task, "get_coro", None)
    inner = getattr(get_coro(), "cr_await", None) if get_coro is not None else None
    return getattr(inner, "__name__", "") == "sleep"


def _pool_tasks(km: Any) -> list[asyncio.Future[Any]]:
    return [task for pool in getattr(km, "_pools", {}).values() for task in pool]


def coming_up(km: Any) -> int:
    """How many kernels are on their way up: starting, in a pool task past its delay, or not yet answering.

    A kernel counts as started as soon as its process is launched, and may then still be importing
    (an interrupt then ends it with a ``KeyboardInterrupt`` traceback); jupyter_server keeps its
    ``execution_state`` at ``"starting"`` until the kernel's first status message after that.

    >>> class Kernel:
    ...     def __init__(self, state): self.execution_state = state
    >>> class Manager:
    ...     _pending_kernels, _pools = {}, {}
    ...     kernels = {"a": Kernel("idle"), "b": Kernel("starting")}
    ...     def __contains__(self, kernel_id): return kernel_id in self.kernels
    ...     def list_kernel_ids(self): return list(self.kernels)
    ...     def get_kernel(self, kernel_id): return self.kernels[kernel_id]
    >>> coming_up(Manager())
    1
    """
    pool = [task for task in _pool_tasks(km) if not task.done() and not in_delay(task)]
    answering = 0
    for kernel_id in km.list_kernel_ids():
        try:
            if getattr(km.get_kernel(kernel_id), "execution_state", "") == "starting":
                answering += 1
        except KeyError:  # stopped meanwhile
            continue
    return len(_starting(km)) + len(pool) + answering


async def settle_kernels(km: Any, timeout: float = STOP_SETTLE, log: logging.Logger | None = None,
                         interval: float = 0.05) -> int:
    """Get ``km`` (Voilà's kernel manager) ready for ``shutdown_all``; returns how many refills were cancelled.

    Waits up to ``timeout`` s while kernels are on their way up (:func:`coming_up`); then the pool
    tasks still waiting out their delay (or, after ``timeout``, still starting) are cancelled and
    taken out of the pool, so that ``shutdown_all`` neither starts a kernel only to stop it nor
    meets one it cannot stop yet.

    >>> class Manager:  # a manager with nothing starting and an empty pool
    ...     _pending_kernels, _pools = {}, {"dashboard.ipynb": []}
    ...     def __contains__(self, kernel_id): return False
    ...     def list_kernel_ids(self): return []
    >>> asyncio.run(settle_kernels(Manager(), timeout=0.1))
    0
    """
    log = log or logging.getLogger(__name__)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    said = False
    while (n := coming_up(km)) and loop.time() < deadline:
        if not said:
            log.info("Waiting up to %.0f s for %d kernel(s) still starting, to stop them cleanly", timeout, n)
            said = True
        await asyncio.sleep(interval)
    return _cancel_refills(km, log)


def _cancel_refills(km: Any, log: logging.Logger) -> int:
    """Cancel the pool tasks not finished and keep only the finished ones in the pool."""
    cancelled = 0
    pools = getattr(km, "_pools", {})
    for name, pool in pools.items():
        keep = []
        for task in pool:
            if task.done():
                keep.append(task)
            else:
                task.cancel()
                cancelled += 1
        pools[name] = keep
    if cancelled:
        log.info("Cancelled %d preheated kernel(s) not started yet", cancelled)
        # a refill cancelled in its delay never awaits the coroutine it was handed
        warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)
    return cancelled


def _preheated(km: Any) -> list[str]:
    """The ids of the kernels in Voilà's pools (finished pool tasks; their pages have not come yet)."""
    ids = []
    for task in _pool_tasks(km):
        if task.done() and not task.cancelled() and task.exception() is None:
            result = task.result()
            if isinstance(result, dict) and result.get("kernel_id"):
                ids.append(result["kernel_id"])
    return ids


async def stop_at_once(km: Any, log: logging.Logger | None = None) -> list[str]:
    """Stop at once (``now=True``: no interrupt, no shutdown request to race) the busy and the preheated kernels.

    Returns their ids; a kernel that cannot be stopped is logged and left to Voilà's own stop.

    >>> class Kernel:
    ...     def __init__(self, state): self.execution_state = state
    >>> class Manager:
    ...     kernels, stopped = {"a": Kernel("idle"), "b": Kernel("busy"), "c": Kernel("idle")}, []
    ...     _pools = {}
    ...     def list_kernel_ids(self): return list(self.kernels)
    ...     def get_kernel(self, kernel_id): return self.kernels[kernel_id]
    ...     async def shutdown_kernel(self, kernel_id, now=False): self.stopped.append((kernel_id, now))
    >>> async def check(km):
    ...     spare = asyncio.get_running_loop().create_future()
    ...     spare.set_result({"kernel_id": "c"})  # a finished pool task: kernel "c" waits for its page
    ...     km._pools = {"dashboard.ipynb": [spare]}
    ...     return await stop_at_once(km)
    >>> km = Manager()
    >>> asyncio.run(check(km)), km.stopped
    (['b', 'c'], [('b', True), ('c', True)])
    """
    log = log or logging.getLogger(__name__)
    preheated = set(_preheated(km))
    chosen = []
    for kernel_id in km.list_kernel_ids():
        try:
            if kernel_id in preheated or getattr(km.get_kernel(kernel_id), "execution_state", "") == "busy":
                chosen.append(kernel_id)
        except KeyError:  # stopped meanwhile
            continue
    if not chosen:
        return chosen
    log.info("Stopping %d busy or preheated kernel(s) at once", len(chosen))
    results = await asyncio.gather(*(ensure_async(km.shutdown_kernel(kernel_id, now=True)) for kernel_id in chosen),
                                   return_exceptions=True)
    for kernel_id, result in zip(chosen, results, strict=True):
        if isinstance(result, Exception):
            log.warning("Could not stop kernel %s at once (%s); it is stopped with the others", kernel_id, result)
    return chosen
