"""What a typed answer of a lesson can possibly be, and a student who presses Enter in an empty box.

An answer outside what can possibly be right (a cell off the 16 × 12 map, a share above 1, a negative number of
HP, 2.5 storms) is not marked "Not quite." (which also shows the right answer): the student is told what is
allowed and tries again, as for an answer that cannot be read at all. The hint never names the right answer.

A box of ipywidgets sends the kernel nothing when Enter is pressed and its text has not changed, so Enter in an
empty box showed nothing. The box's own front end also sends a ``submit`` event on every Enter (stock ipywidgets,
JupyterLab and Voilà alike): :func:`on_blank_enter` answers it, after a moment in which a text typed with that
Enter arrives (the event comes before the text), when the box is still empty.

>>> from typhoon_edu.ui.lessons.bank import PATHING
>>> limit_text(PATHING[2], "99, 99", "en")
'“99, 99” is off the map. Cells are numbered from 0, column first: columns 0 to 15 (west to east), rows 0 to 11 (north to south).'
>>> limit_text(PATHING[2], "15, 11", "en"), limit_text(PATHING[2], "x", "en")  # possible; unreadable (check() says how)
('', '')
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ... import i18n
from ...typed import echo
from ..guard import Problems
from ..quiz import Feedback, Question, parse_cell, parse_number, parse_percent
from .common import lt

if TYPE_CHECKING:
    from ..quiz import QuestionWidget, Quiz

#: Seconds between Enter and looking at the box: the text typed with that Enter arrives after its ``submit`` event.
ENTER_WAIT = 0.3
#: Lesson 06: Hsu et al. (2018) studied 84 typhoons that made landfall on Taiwan (the question's own number).
HSU_STUDIED = 84


@dataclass(frozen=True)
class Limit:
    """What an answer can be: ``kind`` names the hint (``lesson.limits.<kind>``); ``low``/``high`` bound the value
    (``None``: no bound; ``above`` excludes ``low`` itself); ``whole``: a count, never a fraction."""

    kind: str
    low: float | None = 0
    high: float | None = None
    whole: bool = False
    above: bool = False
    fmt: Mapping[str, Any] = field(default_factory=dict)

    def allows(self, value: float) -> bool:
        """Whether ``value`` can possibly be right.

        >>> Limit("hp", whole=True).allows(20), Limit("hp", whole=True).allows(2.5), Limit("km", above=True).allows(0)
        (True, False, False)
        """
        if not math.isfinite(value) or (self.whole and value != round(value)):
            return False
        if self.low is not None and (value <= self.low if self.above else value < self.low):
            return False
        return self.high is None or value <= self.high


def _map_size() -> tuple[int, int]:
    from ...engine.rules import load_rules

    m = load_rules().map
    return m.width, m.height


def _ring_stops() -> int:
    from ...engine.rules import load_rules

    return len(load_rules().ring)


def limits() -> dict[str, Limit]:
    """The limit of every number question of the lessons' quizzes, by the question's key (a cell question needs none:
    every cell answer must be on the map).

    >>> limits()["quiz.compass.reachable"].fmt["stops"], limits()["quiz.real.west_share"].kind
    (7, 'percent')
    """
    stops = _ring_stops()
    hp = Limit("hp", whole=True)
    km = Limit("km", above=True)
    return {
        # 7 (all the stops) is possible: the misconception the question is about, answered "Not quite" and explained
        "quiz.compass.reachable": Limit("stops", high=stops, whole=True, fmt={"stops": stops}),
        "quiz.compass.long_run": Limit("share", high=1),
        "quiz.pathing.km": km,
        "quiz.pathing.hours": Limit("hours", above=True),
        "quiz.intensity.moderate_five": hp,
        "quiz.intensity.strong_two": hp,
        "quiz.intensity.super_three": hp,
        "quiz.game.counter": hp,
        "quiz.game.start_hp": hp,
        "quiz.game.strongest": hp,
        "quiz.game.refill": Limit("storms", whole=True),
        "quiz.real.west_share": Limit("percent", high=1),
        "quiz.real.hsu": Limit("of_total", high=HSU_STUDIED, whole=True, fmt={"total": HSU_STUDIED}),
        "quiz.forecast.degree": km,
        "quiz.forecast.straight": km,
    }


_LIMITS: dict[str, Limit] = {}


def limit_text(question: Question, answer: Any, lang: str = "en") -> str:
    """The hint for ``answer`` to ``question`` when it cannot possibly be right, in ``lang``; "" when it can be (it is
    then marked), or when it cannot be read (:func:`~typhoon_edu.ui.quiz.check` says how to type it).

    >>> from typhoon_edu.ui.lessons.bank import COMPASS
    >>> limit_text(COMPASS[3], "-5", "zh-TW")
    '「-5」不可能是停點的數目：方位羅盤上有 7 個停點，答案是 0 到 7 之間的整數。'
    >>> limit_text(COMPASS[3], "7", "en"), limit_text(COMPASS[4], "14%", "en")
    ('', '')
    """
    lang = i18n.normalize_lang(lang)
    if not _LIMITS:
        _LIMITS.update(limits())
    quote = "「{}」" if lang == "zh-TW" else "“{}”"
    if question.kind == "cell":
        try:
            x, y = parse_cell(answer, lang)
        except ValueError:
            return ""
        width, height = _map_size()
        if 0 <= x < width and 0 <= y < height:
            return ""
        return lt("limits.cell", lang, text=quote.format(echo(answer)), max_x=width - 1, max_y=height - 1)
    limit = _LIMITS.get(question.key) if question.kind == "number" else None
    if limit is None:
        return ""
    try:
        value = parse_percent(answer, lang) if question.percent else parse_number(answer, lang)
    except ValueError:
        return ""
    if limit.allows(value):
        return ""
    return lt(f"limits.{limit.kind}", lang, text=quote.format(echo(answer)), **limit.fmt)


def keep_in_limits(item: QuestionWidget) -> None:
    """Make ``item`` (a question of a quiz) answer an impossible answer with its hint: shown and said like an answer
    that cannot be read, neither marked nor kept, so the right answer stays hidden and the first try is still to come.
    A restored answer (:meth:`~typhoon_edu.ui.quiz.QuestionWidget.show`) is shown as it was kept."""
    marked = item.answer

    def answer(value: Any) -> Feedback:
        hint = limit_text(item.question, value, item.lang)
        if not hint:
            return marked(value)
        result = Feedback(False, "", "", "", problem=hint)
        item.feedback.value = result.html(item.lang)
        if item.live is not None:
            item.live.say(result.text(item.lang))
        return result

    item.answer = answer  # type: ignore[method-assign]  # the box's Enter and the Check button call it at once


def on_blank_enter(box: widgets.Text, act: Callable[[], Any], problems: Problems, where: str,
                   wait: float = ENTER_WAIT) -> None:
    """Call ``act()`` when Enter is pressed in ``box`` and the box is empty: ``wait`` seconds after the ``submit``
    event (at once without an event loop), unless the box's text changed within ``wait`` of it (the text typed with
    that Enter, which a box that takes it, lesson 01's die, may have emptied again: it was answered then).

    >>> box, said = widgets.Text(), []
    >>> on_blank_enter(box, lambda: said.append("type a number"), Problems(lambda: "en"), "demo")
    >>> box._handle_custom_msg({"event": "submit"}, []); said
    ['type a number']
    >>> box.value = "5"; box._handle_custom_msg({"event": "submit"}, []); said  # typed with that Enter
    ['type a number']
    """
    last = [-math.inf]  # when the box's text last changed (time.monotonic())

    def changed(_change: Any) -> None:
        last[0] = time.monotonic()

    def look() -> None:
        # a change within ``wait`` of the Enter, before or after it, was the Enter's own text (Chromium sends it before
        # the event, and a box that takes it, lesson 01's die, empties itself again): answered already
        if time.monotonic() - last[0] >= 2 * wait and not str(box.value).strip():
            act()

    guarded = problems.guard(look, where)

    def submitted(_box: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("event") != "submit":
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (tests, scripts): at once
            guarded()
            return
        loop.call_later(wait, guarded)

    box.observe(changed, names="value")
    box.on_msg(submitted)


def check_answers(quiz: Quiz) -> None:
    """Every typed answer of ``quiz`` within its limits (:func:`keep_in_limits`), and Enter in an empty answer box
    answered like the Check button (``Type a number, for example …``)."""
    for item in quiz.items:
        if item.question.kind in ("number", "cell"):
            keep_in_limits(item)
            if isinstance(item.entry, widgets.Text):
                on_blank_enter(item.entry, lambda i=item: i.answer(i.entry.value if i.entry else ""), quiz.problems,
                               f"quiz {item.question.key}: Enter")


__all__ = ["ENTER_WAIT", "HSU_STUDIED", "Limit", "check_answers", "keep_in_limits", "limit_text", "limits", "on_blank_enter"]
