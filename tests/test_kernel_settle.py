"""The class server's stop waits for kernels on their way up and drops pool refills not begun (kernel_settle)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from typhoon_edu.server.kernel_settle import coming_up, in_delay, settle_kernels


async def wait_before(delay: float, aw: Any) -> Any:  # as Voilà's pool wraps each refill
    await asyncio.sleep(delay)
    return await aw


class Kernel:
    def __init__(self, state: str) -> None:
        self.execution_state = state


class Manager:
    """The parts of Voilà's kernel manager that settle_kernels reads."""

    def __init__(self) -> None:
        self._pending_kernels: dict[str, asyncio.Future[Any]] = {}
        self._pools: dict[str, list[asyncio.Future[Any]]] = {"dashboard.ipynb": []}
        self.kernels: dict[str, Kernel] = {}

    def __contains__(self, kernel_id: str) -> bool:
        return kernel_id in self.kernels

    def list_kernel_ids(self) -> list[str]:
        return list(self.kernels)

    def get_kernel(self, kernel_id: str) -> Kernel:
        return self.kernels[kernel_id]


async def ready(value: dict[str, Any]) -> dict[str, Any]:
    return value


def test_a_refill_waiting_out_its_delay_is_cancelled_at_once_and_a_warm_kernel_kept() -> None:
    async def scenario() -> tuple[int, float, list[bool], list[bool]]:
        km = Manager()
        warm = asyncio.ensure_future(ready({"kernel_id": "a"}))
        await warm
        km.kernels["a"] = Kernel("idle")
        starter = ready({"kernel_id": "b"})
        refill = asyncio.ensure_future(wait_before(60, starter))  # LAN or grown pool: a long fill delay
        km._pools["dashboard.ipynb"] += [warm, refill]
        await asyncio.sleep(0)
        flags = [in_delay(t) for t in km._pools["dashboard.ipynb"]]
        began = time.monotonic()
        cancelled = await settle_kernels(km, timeout=5)
        took = time.monotonic() - began
        await asyncio.sleep(0)
        starter.close()
        return cancelled, took, flags, [t.cancelled() for t in (warm, refill)] + [km._pools["dashboard.ipynb"] == [warm]]

    cancelled, took, flags, states = asyncio.run(scenario())
    assert flags == [False, True]
    assert cancelled == 1 and took < 1.0, (cancelled, took)
    assert states == [False, True, True]  # the warm one kept in the pool, the refill cancelled and gone


def test_a_kernel_still_starting_is_waited_for_until_it_answers() -> None:
    async def scenario() -> tuple[int, float, int]:
        km = Manager()
        km.kernels["a"] = Kernel("starting")  # launched, not answering yet

        async def answers() -> None:
            await asyncio.sleep(0.3)
            km.kernels["a"].execution_state = "idle"

        flip = asyncio.ensure_future(answers())
        before = coming_up(km)
        began = time.monotonic()
        cancelled = await settle_kernels(km, timeout=5, interval=0.01)
        await flip
        return cancelled, time.monotonic() - began, before

    cancelled, took, before = asyncio.run(scenario())
    assert before == 1 and cancelled == 0
    assert 0.25 <= took < 2.0, took


def test_a_start_not_yet_the_managers_is_waited_for_and_the_wait_is_bounded() -> None:
    async def scenario() -> tuple[float, int, float]:
        km = Manager()
        start = asyncio.ensure_future(asyncio.sleep(0.2))
        km._pending_kernels["p"] = start  # jupyter_client's start task: the kernel is not the manager's yet
        began = time.monotonic()
        await settle_kernels(km, timeout=5, interval=0.01)
        waited = time.monotonic() - began
        km.kernels["q"] = Kernel("starting")  # and one that never answers: the wait ends at the timeout
        began = time.monotonic()
        await settle_kernels(km, timeout=0.3, interval=0.01)
        return waited, coming_up(km), time.monotonic() - began

    waited, left, bounded = asyncio.run(scenario())
    assert 0.15 <= waited < 2.0, waited
    assert left == 1 and 0.3 <= bounded < 2.0, (left, bounded)
