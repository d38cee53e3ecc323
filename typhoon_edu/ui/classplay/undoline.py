"""The log's "The last decision was taken back.": one helper for the projector and the phones.

A page's log is rebuilt from the room's events (after an undo, a reload, a language switch), each
line narrated in the page's language. An undo is no event, so its line is kept as a place in the
room's events (how many there were when the decision was taken back) and written, in the page's
language, every time the log is rebuilt: it stays where it was and follows a language switch.

>>> from typhoon_edu.engine import events as ev
>>> from typhoon_edu.ui.classplay.pacer import Stage
>>> class Room:  # a room's event log
...     def __init__(self) -> None:
...         self.log = [ev.Eliminated("Japan")]
...     def events(self) -> list[ev.Event]:
...         return list(self.log)
>>> room, stage, undone = Room(), Stage(lang="en"), UndoLines()
>>> stage.add_line(room.log[0])
>>> undone.note(stage, room)       # a decision taken back after the first event
>>> room.log.append(ev.Eliminated("Korea"))
>>> stage.add_line(room.log[1])    # the next move's line comes above the undo's
>>> stage.lang, stage.lines = "zh-TW", []   # a language switch rebuilds the log from the events
>>> for e in room.events():
...     stage.add_line(e)
>>> undone.draw(stage, room)
>>> [kind for kind, _text in stage.lines], stage.lines[1][1]
(['Eliminated', 'Undone', 'Eliminated'], '剛才的決定已經收回。')
"""

from __future__ import annotations

from typing import Any

from .pacer import LOG_LIMIT, Stage
from .viewdata import d

#: The kind of the undo's line among a stage's ``(kind, sentence)`` lines (no event has it).
UNDONE_KIND = "Undone"
#: Its sentence's key (:func:`~typhoon_edu.ui.classplay.viewdata.d`).
UNDONE_KEY = "game.undone"


class UndoLines:
    """Where one page's log said a decision was taken back, for the room it shows."""

    def __init__(self) -> None:
        self._room: Any = None
        #: For each undo, how many of the room's events (as this page sees them) came before it; oldest first.
        self._after: list[int] = []
        #: The list of lines last drawn into (a rebuilt log is a new list: drawn again).
        self._drawn: list[tuple[str, str]] | None = None

    def note(self, stage: Stage, room: Any) -> None:
        """The page has just rebuilt its log after an undo: say so at its top."""
        if self._room is not room:
            self._room, self._after = room, []
        count = len(room.events())
        # an undo that went back further than an earlier one's place: that earlier line has no place left
        self._after = [k for k in self._after if k <= count] + [count]
        self._drawn = None
        self.draw(stage, room)

    def draw(self, stage: Stage, room: Any) -> None:
        """Put the undo lines, in ``stage.lang``, into a log just rebuilt from ``room``'s events (nothing to do when
        the log has not been rebuilt since the last call: the lines played since then went above them)."""
        if room is not self._room:
            self._room, self._after, self._drawn = room, [], None  # another game: its log never said an undo
        if stage.lines is self._drawn:
            return
        lines = [line for line in stage.lines if line[0] != UNDONE_KIND]
        if self._after:
            events = room.events()
            for after in self._after:  # oldest first: a later undo's line goes above an earlier one's
                later = Stage(lang=stage.lang, rules=stage.rules)  # the lines of the events since then, as drawn
                for e in events[after:]:
                    later.add_line(e)
                at = len(later.lines)
                if at <= len(lines):
                    lines.insert(at, (UNDONE_KIND, d(UNDONE_KEY, stage.lang)))
        stage.lines[:] = lines[:LOG_LIMIT]
        self._drawn = stage.lines
        stage.render_log()


__all__ = ["UNDONE_KEY", "UNDONE_KIND", "UndoLines"]
