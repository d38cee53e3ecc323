"""Play the engine's events on a stage, one at a time, so that nothing runs ahead of the animation.

A *stage* is what a view shows: the board, the compass ring, the big die, the HP panel, the log
and a "what happens now" line, each optional. :class:`Pacer` takes batches of events (one batch
per decision, from whichever device made it) and plays them in order: a die roll tumbles the
die, a direction roll turns the ring, a step moves the storm; only when an event has been shown
does its sentence enter the log. "What happens now" names the animation that is playing, so
"T2 is moving" never shows while the compass ring is still turning.

Without a running event loop (tests, scripts) or at speed 0, a batch is shown at once, in the
same order, with the same log lines:

>>> from typhoon_edu.engine import events as ev
>>> stage = Stage(lang="en")
>>> pacer = Pacer(stage, speed=lambda: 1.0)
>>> pacer.push([ev.TyphoonPlaced(typhoon=1, cell=(8, 8), level=1, by="Taiwan"),
...             ev.DieRolled(face=3, purpose="direction", typhoon=1),
...             ev.DirectionRolled(typhoon=1, start="N", face=3, stop="E")])
>>> pacer.idle, stage.log_texts()[:2]
(True, ['The compass indicator moves 3 stops clockwise, from north to east, so T1 heads east.', 'Taiwan placed T1, a tropical depression, at (8, 8).'])

A view that fell behind catches up: when one read of the store brings several decisions (a phone that was still
animating while the bots played on), the batch plays ``hurry`` times faster (:func:`hurry_for`), so the view is never
more than about one decision's animation behind; every sentence still enters the log, in order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ... import i18n
from ...classroom import log as control
from ...engine import events as ev
from ..state import BoardState, apply_event

if TYPE_CHECKING:
    from ...engine.rules import Rules
    from ..board import BoardView
    from ..compass_ring import CompassRing
    from ..guard import Problems
    from .bigdie import BigDie

log = logging.getLogger("typhoon_edu.ui")

#: Seconds a board change stays before the next, at speed 1 (as the lesson boards).
STEP_SECONDS = 0.45
#: Log lines kept on screen.
LOG_LIMIT = 80
#: At most this many played sentences are kept to announce at once (a long bot turn is summed up by its last ones).
TELL_LIMIT = 12

_LOG_STYLE = {
    "TurnStarted": "typhoon-log-turn",
    "RoundStarted": "typhoon-log-round",
    "DamageDealt": "typhoon-log-damage",
    "Eliminated": "typhoon-log-damage",
    "GameOver": "typhoon-log-over",
    "CounterWindow": "typhoon-log-counter",
    "CardPlayed": "typhoon-log-card",
    "AbilityUsed": "typhoon-log-card",
}


@dataclass
class Stage:
    """The parts of a view that events animate; any may be missing (``None``)."""

    lang: str = "en"
    rules: Rules | None = None
    board: BoardView | None = None
    ring: CompassRing | None = None
    die: BigDie | None = None
    hp: Callable[[dict[str, int]], None] | None = None  # called with the HP after a damage or heal
    now: widgets.HTML | None = None  # "what happens now"
    log: widgets.HTML | None = None
    lines: list[tuple[str, str]] = field(default_factory=list)  # (event kind, sentence), newest first
    hp_now: dict[str, int] = field(default_factory=dict)
    #: The sentences of the events played since the view last announced them (:meth:`take_told`): a screen reader
    #: hears what happened, not only sees the log change.
    told: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.rules is None:
            from ...engine.rules import load_rules

            self.rules = load_rules()

    def log_texts(self) -> list[str]:
        """The log's sentences, newest first."""
        return [text for _kind, text in self.lines]

    def add_line(self, event: ev.Event, tell: bool = False) -> None:
        """Put ``event``'s sentence at the top of the log; ``tell``: also keep it to announce (a played event, not
        the log rebuilt after a reload or a language switch)."""
        if not i18n.in_log(event):
            return
        try:
            text = i18n.narrate(event, self.lang, self.rules)
        except KeyError:  # an event kind this catalog has no sentence for
            return
        self.lines.insert(0, (event.kind, text))
        del self.lines[LOG_LIMIT:]
        if tell:
            self.told.append(text)
            del self.told[:-TELL_LIMIT]
        self.render_log()

    def take_told(self) -> str:
        """The sentences kept to announce, oldest first, as one text; they are then forgotten.

        >>> from typhoon_edu.engine import events as ev
        >>> stage = Stage(lang="en")
        >>> stage.add_line(ev.Eliminated("Japan"), tell=True); stage.add_line(ev.Eliminated("Korea"))
        >>> stage.take_told(), stage.take_told()
        ('Japan has no HP left and is out of the game.', '')
        """
        text = " ".join(self.told)
        self.told.clear()
        return text

    def render_log(self) -> None:
        if self.log is not None:
            self.log.value = "".join(f"<div class='{_LOG_STYLE.get(kind, 'typhoon-log-line')}'>{escape(text)}</div>"
                                     for kind, text in self.lines)

    def set_now(self, key: str = "", **fmt: Any) -> None:
        if self.now is not None:
            text = i18n.t(f"classplay.now.{key}", self.lang, **fmt) if key else ""
            self.now.value = f"<div class='typhoon-now-text'>{escape(text)}</div>" if text else ""


class Pacer:
    """Plays event batches on a :class:`Stage` in order; ``speed()`` is read before every wait.

    A failed animation never stops the game: the view shows the state as it is, and ``problems``
    (if given) tells the person in their language, the log getting the traceback.
    """

    def __init__(self, stage: Stage, speed: Callable[[], float], on_idle: Callable[[], None] | None = None,
                 problems: Problems | None = None) -> None:
        self.stage = stage
        self.speed = speed
        self.on_idle = on_idle
        self.problems = problems
        self._queue: list[tuple[list[ev.Event], float]] = []  # (a batch, how many times faster it plays)
        self._task: asyncio.Task[None] | None = None
        self._running = False  # a task is playing (it calls on_idle after clearing this)
        self._skip = False

    @property
    def idle(self) -> bool:
        """Whether every pushed event has been shown."""
        return not self._queue and not self._running

    def push(self, events: Sequence[ev.Event], hurry: float = 1.0) -> None:
        """Queue one batch; it plays after those before it (at once without an event loop).

        ``hurry``: how many times faster than ``speed()`` this batch plays (:func:`hurry_for`: a view that fell
        behind gets several decisions in one batch and plays them in about the time of one).
        """
        if not events:
            return
        self._queue.append((list(events), max(float(hurry), 1.0)))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or self.speed() <= 0:
            if not self._running:
                self._drain_now()
            return
        if not self._running:
            self._running = True
            self._task = loop.create_task(self._run())

    def skip(self) -> None:
        """Show everything queued at once (the Skip button)."""
        self._skip = True

    def cancel(self) -> None:
        """Drop what is queued (a new game or a resync replaces it)."""
        self._queue.clear()
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        self._running = False
        self.stage.set_now()

    # ------------------------------------------------------------------ playing
    def _drain_now(self) -> None:
        while self._queue:
            for event in self._queue.pop(0)[0]:
                self._show(event, animate=False)
                self.stage.add_line(event, tell=True)
        self.stage.set_now()
        self._idle()

    async def _run(self) -> None:
        try:
            while self._queue:
                batch, hurry = self._queue.pop(0)
                for event in batch:
                    wait = self._show(event, animate=not self._skip, hurry=hurry)
                    later = isinstance(event, _TOLD_AFTER)
                    if not later:
                        self.stage.add_line(event, tell=True)  # a step: the storm is already where the sentence says
                    if wait > 0:
                        await self._sleep(wait)
                    if later:
                        self.stage.add_line(event, tell=True)  # a roll: told once the die or the ring has stopped
            self._skip = False
            self.stage.set_now()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken animation must not stop the game: show the state as it is
            self._queue.clear()
            if self.problems is not None:
                self.problems.report(exc, "animation")
            else:
                log.exception("an animation failed; the view shows the game as it is now")
        self._running = False
        self._idle()

    async def _sleep(self, seconds: float) -> None:
        end = asyncio.get_running_loop().time() + seconds
        while not self._skip:
            left = end - asyncio.get_running_loop().time()
            if left <= 0:
                return
            await asyncio.sleep(min(left, 0.05))

    def _idle(self) -> None:
        if self.on_idle is not None:
            self.on_idle()

    def _show(self, event: ev.Event, animate: bool, hurry: float = 1.0) -> float:
        """Show one event (``hurry`` times faster than ``speed()``); returns how long to wait before the next."""
        stage = self.stage
        speed = self.speed() * hurry if animate else 0.0
        wait = 0.0
        if isinstance(event, ev.DieRolled):
            if stage.die is not None:
                # a face that picks no zone or cell ("cell_again") is still the roll for a cell
                now = f"roll_{event.purpose.removesuffix('_again')}"
                stage.set_now(now, typhoon=i18n.typhoon_label(event.typhoon, stage.lang))
                wait = stage.die.roll(event.face, event.purpose, event.typhoon, speed=speed)
        elif isinstance(event, ev.DirectionRolled):
            if stage.ring is not None:
                stage.set_now("ring", typhoon=i18n.typhoon_label(event.typhoon, stage.lang))
                if stage.ring.stop != event.start:
                    stage.ring.set_stop(event.start)
                stage.ring.roll(event.face, speed=speed if speed > 0 else 0)
                if speed > 0:
                    from ..compass_ring import SECONDS_PER_STOP

                    wait = (event.face + 1) * SECONDS_PER_STOP / speed
                else:
                    assert stage.ring.player is not None
                    stage.ring.player.skip()
        elif isinstance(event, ev.TurnStarted):
            if stage.die is not None and stage.die.face is not None:
                stage.die.clear()  # a new player's turn: a blank die, not the last turn's "T5 moves: the die shows 1"
        elif isinstance(event, ev.MoveStarted):
            stage.set_now("moving", typhoon=i18n.typhoon_label(event.typhoon, stage.lang), steps=event.steps)
        elif isinstance(event, ev.CounterWindow):
            stage.set_now("counter", typhoon=i18n.typhoon_label(event.typhoon, stage.lang))
        elif isinstance(event, (ev.DamageDealt, ev.Healed)):
            stage.hp_now[event.player] = event.hp
            if stage.hp is not None:
                stage.hp(dict(stage.hp_now))
        if stage.board is not None:
            before = stage.board.state
            after = apply_event(before, event)
            if after != before:
                stage.board.show(after)
                if speed > 0:
                    wait = max(wait, STEP_SECONDS / speed)
        return wait


#: Events whose sentence waits for the end of their animation (the die lands, the ring stops).
_TOLD_AFTER = (ev.DieRolled, ev.DirectionRolled)


def hurry_for(entries: Sequence[Any]) -> float:
    """How many times faster a view plays what one read of the store brought: the number of decisions among the
    log ``entries`` (each with a ``notation``), at least 1. The dice rolled after a decision (``die N``, automatic or
    typed) and the teacher's ``undo`` / ``correct N`` are no decisions of their own.

    >>> from types import SimpleNamespace as E
    >>> hurry_for([E(notation="place 8,8"), E(notation="die 3"), E(notation="die 5")])
    1.0
    >>> hurry_for([E(notation="pass"), E(notation="die 2"), E(notation="aim T2 N"), E(notation="die 4")])
    2.0
    >>> hurry_for([])
    1.0
    """
    decisions = sum(1 for e in entries if not control.is_die(e.notation) and not control.is_control(e.notation))
    return float(max(decisions, 1))


def board_state_of(typhoons: Sequence[Any]) -> BoardState:
    """A board state from typhoon records (``id``, ``eye``, ``level``, ``direction``), as an observation lists them.

    >>> board_state_of([{"id": 2, "eye": [8, 9], "level": 3, "direction": "NNW"}]).typhoon(2).eye
    (8, 9)
    """
    from ..state import TyphoonView

    views = []
    for t in typhoons:
        get = t.get if isinstance(t, dict) else lambda k, t=t: getattr(t, k)
        views.append(TyphoonView(int(get("id")), tuple(get("eye")), int(get("level")), get("direction")))
    return BoardState(typhoons=tuple(views))
