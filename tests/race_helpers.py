"""Racing writers: run one attempt per thread, all released at the same moment, and collect what each says."""

from __future__ import annotations

import threading
from collections.abc import Callable


def race(n: int, attempt: Callable[[int], str], timeout: float = 60.0) -> list[str]:
    """Run ``attempt(0)`` … ``attempt(n - 1)`` in ``n`` threads that start together; their outcomes.

    Each attempt returns a short outcome (``"won 3"``, an error's kind); the list is in the order the
    attempts finished. Threads still running after ``timeout`` seconds are left out of the list, so a
    hang shows as a missing outcome rather than a test that never ends.

    >>> sorted(race(3, lambda i: f"ran {i}"))
    ['ran 0', 'ran 1', 'ran 2']
    """
    barrier = threading.Barrier(n)
    results: list[str] = []
    lock = threading.Lock()

    def run(i: int) -> None:
        barrier.wait()
        outcome = attempt(i)
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    with lock:
        return list(results)
