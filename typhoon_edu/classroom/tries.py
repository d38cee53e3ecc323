"""Wrong room codes typed on one page: a few are free, then each next try waits longer.

A room code is five characters from 29 (about 20 million codes), enough that nobody guesses one
by hand, but a script sending the join page's widget messages could try a thousand a second and
take the free seat of a team that has not joined yet. :class:`WrongCodes` keeps one page's count:
after :data:`FREE` wrong codes in a row, the next one is looked up only after a wait that doubles
each time (2, 4, 8 … :data:`MOST_WAIT` seconds); a code that opens a room starts the count again.
A page is one kernel, and the server caps the kernels one device may hold, so one device tries a
few codes a minute at most.

>>> now = [0.0]
>>> tries = WrongCodes(clock=lambda: now[0])
>>> for _ in range(FREE):
...     tries.failed()
>>> tries.wait()
0.0
>>> tries.failed(); tries.wait()
2.0
>>> now[0] = 1.5; tries.wait()
0.5
>>> now[0] = 2.0; tries.wait(), tries.failed(), tries.wait()
(0.0, None, 4.0)
>>> tries.found(); tries.wait()
0.0
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["FIRST_WAIT", "FREE", "MOST_WAIT", "WrongCodes"]

#: Wrong codes in a row that cost nothing (a class mistypes).
FREE = 5
#: The wait after the first wrong code beyond those, doubling with each further one, up to MOST_WAIT (seconds).
FIRST_WAIT = 2.0
MOST_WAIT = 30.0


class WrongCodes:
    """One page's wrong room codes in a row (module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.wrong = 0
        self.last = 0.0

    def wait(self) -> float:
        """Seconds before the next code may be looked up (0.0: now)."""
        if self.wrong <= FREE:
            return 0.0
        need = min(MOST_WAIT, FIRST_WAIT * 2 ** (self.wrong - FREE - 1))
        return max(0.0, self.last + need - self.clock())

    def failed(self) -> None:
        """A code that opened no room."""
        self.wrong += 1
        self.last = self.clock()

    def found(self) -> None:
        """A code that opened a room: the count starts again."""
        self.wrong = 0
