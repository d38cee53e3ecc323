"""A page's message line that never goes stale: what it says is cleared by the next state of the room.

A refusal ("someone else moved first"), a failure on the problem line ("the teacher changed who
plays this seat") or "the teacher has paused the game" describe one moment. :class:`PageStatus`
remembers the room's state when a message was shown (the first state the page draws after
saying it) and clears the message, and the problem line, as soon as the page draws another state:
a resume, the next move, a seat given back.

>>> import ipywidgets as widgets
>>> from typhoon_edu.ui.guard import Problems
>>> status = PageStatus(widgets.HTML(), Problems(lambda: "en"))
>>> status.say("Wait for the storm to stop.")
>>> status.seen((4, 1))             # the page draws state 4 right after the refusal: kept
>>> "Wait for the storm" in status.message.value
True
>>> status.seen((5, 1))             # the next state: cleared
>>> status.message.value
''
>>> status.hold("The teacher has paused the game.", (5, 2))   # said for this state only
>>> status.seen((5, 3))
>>> status.message.value
''
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from html import escape
from typing import Any

import ipywidgets as widgets

from ..guard import Problems

_PENDING = object()

#: A message in every language: the language's code → the words.
Words = Callable[[str], str]


class PageStatus:
    """The message widget of a page and its problem line, cleared when the room's state moves on."""

    def __init__(self, message: widgets.HTML, problems: Problems) -> None:
        self.message = message
        self.problems = problems
        self._stamp: Any = None  # the state the message belongs to; _PENDING until the page draws one
        self._key: Any = None
        self._words: Words | None = None  # the message in every language, when it was given so
        self._after: Words | None = None  # HTML shown after the words (a link), in every language
        self._error = True
        problems.widget.observe(self._problem_shown, "value")

    def _problem_shown(self, change: dict[str, Any]) -> None:
        if change["new"] and self._stamp is None:
            self._stamp = _PENDING

    def say(self, text: str | Words, error: bool = True, *, drawn: bool = False, after: Words | None = None) -> None:
        """Show ``text`` (in the person's language) until the room's state after this one.

        ``text`` may be words in every language (a function of the language): :meth:`relabel` then says them again
        in the language the person switches to while they are shown. ``drawn``: the message is about the state the
        page has just drawn (an undo said after its redraw), not the one it draws next; it is cleared when the page
        draws any other. ``after``: HTML of the page's own (escaped already, such as a link) put after the words, as a
        function of the language too.

        >>> status = PageStatus(widgets.HTML(), Problems(lambda: "en"))
        >>> status.seen((7, 1)); status.say("The last decision was taken back.", False, drawn=True)
        >>> status.seen((8, 1)); status.message.value
        ''
        >>> lang = ["en"]
        >>> status = PageStatus(widgets.HTML(), Problems(lambda: lang[0]))
        >>> status.say(lambda l: {"en": "You chose: Pass.", "zh-TW": "你們選擇了：跳過。"}[l], error=False)
        >>> lang[0] = "zh-TW"; status.relabel(); status.message.value
        "<div class='typhoon-message-ok'>你們選擇了：跳過。</div>"
        >>> status.say(lambda l: "Keep this page.", error=False, after=lambda l: f"<a href='?seat=x'>{l}</a>")
        >>> status.message.value
        "<div class='typhoon-message-ok'>Keep this page.</div><a href='?seat=x'>zh-TW</a>"
        """
        self._words = text if callable(text) else None
        self._after = after
        self._error = error
        shown = self._show(text(self.problems.lang) if callable(text) else text)
        self._stamp = (self._key if drawn and self._key is not None else _PENDING) if shown else None

    def relabel(self) -> None:
        """The person switched the language: words given in every language are said again in it (a message given
        as one string stays as it is)."""
        if self._words is not None and self.message.value:
            self._show(self._words(self.problems.lang))

    def _show(self, text: str) -> str:
        css = "typhoon-message-error" if self._error else "typhoon-message-ok"
        after = self._after(self.problems.lang) if self._after is not None and text else ""
        self.message.value = f"<div class='{css}'>{escape(text)}</div>{after}" if text else ""
        return text

    def hold(self, text: str, key: Hashable) -> None:
        """Show ``text`` for the state ``key`` only (a standing condition, such as a pause)."""
        self.say(text)
        self._stamp = self._key = key

    def seen(self, key: Hashable) -> None:
        """The page draws the room in state ``key``: a message of an earlier state is cleared."""
        self._key = key
        if self._stamp is _PENDING:
            self._stamp = key
        elif self._stamp is not None and self._stamp != key:
            self.clear()

    def clear(self) -> None:
        self.message.value = ""
        self._words = self._after = None
        self.problems.clear()
        self._stamp = None


def room_state(room: Any) -> tuple[Any, ...]:
    """What a page's messages depend on: the room's last action, its version (seats, pause), open or not."""
    return (room.seq, room.version, room.paused, room.is_open)


__all__ = ["PageStatus", "Words", "room_state"]
