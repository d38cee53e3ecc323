"""Play a list of frames one after another, at an adjustable speed, and skip to the end on demand.

In a running Jupyter or Voilà kernel the frames are played by an asyncio task, so the kernel keeps
answering button clicks (a Skip button works mid-animation). Without a running event loop (tests,
scripts) all frames are drawn at once, which is also what ``speed=0`` asks for.

>>> drawn = []
>>> player = FramePlayer(["a", "b", "c"], drawn.append, delay=lambda: 0.5)
>>> player.start().done, drawn  # no event loop here: straight to the last frame
(True, ['c'])
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

F = TypeVar("F")


class FramePlayer(Generic[F]):
    """Draw ``frames`` with ``draw``, waiting ``delay()`` seconds between frames (read each time,
    so a speed slider takes effect mid-animation)."""

    def __init__(self, frames: Sequence[F], draw: Callable[[F], None], delay: Callable[[], float],
                 on_done: Callable[[], None] | None = None) -> None:
        self.frames = list(frames)
        self.draw = draw
        self.delay = delay
        self.on_done = on_done
        self.shown = 0  # frames drawn so far
        self.done = False
        self._skip = False
        self.task: asyncio.Task[None] | None = None

    def start(self) -> FramePlayer[F]:
        """Start playing: as a background task if an event loop runs, else all at once."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or self.delay() <= 0:
            self.skip()
        else:
            self.task = loop.create_task(self._run())
        return self

    async def _run(self) -> None:
        for frame in self.frames:
            if self._skip:
                return
            self.draw(frame)
            self.shown += 1
            wait = self.delay()
            if wait > 0:
                await asyncio.sleep(wait)
        self._finish()

    def skip(self) -> None:
        """Jump to the last frame now (and stop the task, if any)."""
        if self.done:
            return
        self._skip = True
        if self.frames:
            self.draw(self.frames[-1])
            self.shown = len(self.frames)
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self._finish()

    def then(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once the last frame is shown: now if it is, else after ``on_done`` (which it keeps).

        >>> player = FramePlayer([1, 2], draw=lambda f: None, delay=lambda: 0.0)
        >>> said = []
        >>> player.then(lambda: said.append("later")); player.start().done, said
        (True, ['later'])
        >>> player.then(lambda: said.append("now")); said
        ['later', 'now']
        """
        if self.done:
            callback()
            return
        before = self.on_done

        def both() -> None:
            if before is not None:
                before()
            callback()

        self.on_done = both

    def _finish(self) -> None:
        if not self.done:
            self.done = True
            if self.on_done is not None:
                self.on_done()
