"""What a typed answer of a lesson can possibly be: the limit each number or cell question of the lessons carries.

An answer outside what can possibly be right (a cell off the 16 × 12 map, a share above 1, a negative number of
HP, 2.5 storms) is not marked "Not quite." (which also shows the right answer): the student is told what is
allowed and tries again, as for an answer that cannot be read at all. The hint never names the right answer.
The lessons' question banks give every question its limit (:func:`with_limits`), and the quiz refuses an answer
outside it (:func:`~typhoon_edu.ui.quiz.check`, :attr:`~typhoon_edu.ui.quiz.Question.limit`).

>>> from typhoon_edu.ui.lessons.bank import PATHING
>>> from typhoon_edu.ui.quiz import check
>>> check(PATHING[2], "99, 99", "en").problem
'“99, 99” is off the map. Cells are numbered from 0, column first: columns 0 to 15 (west to east), rows 0 to 11 (north to south).'
>>> check(PATHING[2], "15, 11", "en").problem, check(PATHING[2], "15, 11", "en").verdict  # possible: marked
('', 'Not quite.')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ...typed import echo
from ..quiz import AnswerLimit, Question
from .common import lt

#: Lesson 06: Hsu et al. (2018) studied 84 typhoons that made landfall on Taiwan (the question's own number).
HSU_STUDIED = 84


def _quoted(typed: Any, lang: str) -> str:
    """What the student typed, in quotes of ``lang``."""
    return ("「{}」" if lang == "zh-TW" else "“{}”").format(echo(typed))


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

    def hint(self, value: Any, typed: Any, lang: str) -> str:
        """What is allowed, when ``value`` (what ``typed`` reads as) cannot possibly be right; "" when it can be.

        >>> Limit("km", above=True).hint(-600.0, "-600 km", "en")
        "“-600 km” can't be a distance: type a number of kilometres greater than 0."
        """
        if self.allows(float(value)):
            return ""
        return lt(f"limits.{self.kind}", lang, text=_quoted(typed, lang), **self.fmt)


@dataclass(frozen=True)
class OnTheMap:
    """A cell answer: on the game's map, columns and rows numbered from 0 (the map of the rules as they are now)."""

    def hint(self, value: Any, typed: Any, lang: str) -> str:
        """What is allowed, when the cell ``value`` (what ``typed`` reads as) is off the map; "" when it is on it.

        >>> OnTheMap().hint((15, 11), "15, 11", "en"), OnTheMap().hint((16, 0), "16, 0", "zh-TW")[:13]
        ('', '「16, 0」不在地圖上。')
        """
        x, y = value
        width, height = _map_size()
        if 0 <= x < width and 0 <= y < height:
            return ""
        return lt("limits.cell", lang, text=_quoted(typed, lang), max_x=width - 1, max_y=height - 1)


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


def limit_of(question: Question) -> AnswerLimit | None:
    """The limit of a question of the lessons: on the map for a cell, :func:`limits` for a number, else ``None``.

    >>> from typhoon_edu.ui.lessons.bank import COMPASS
    >>> [type(limit_of(q)).__name__ for q in COMPASS[2:5]]
    ['NoneType', 'Limit', 'Limit']
    """
    if question.kind == "cell":
        return OnTheMap()
    if question.kind != "number":
        return None
    if not _LIMITS:
        _LIMITS.update(limits())
    return _LIMITS.get(question.key)


def with_limits(questions: Iterable[Question]) -> tuple[Question, ...]:
    """``questions``, each carrying its limit (:func:`limit_of`; a limit a question has already is kept).

    >>> from typhoon_edu.ui.quiz import check
    >>> q, = with_limits([Question("intensity", "strong_two", "number", answer=10)])
    >>> q.limit.kind, check(q, "10.5", "en").problem[:34]
    ('hp', "“10.5” can't be a number of HP: HP")
    """
    return tuple(q if q.limit is not None or limit_of(q) is None else replace(q, limit=limit_of(q)) for q in questions)


__all__ = ["HSU_STUDIED", "Limit", "OnTheMap", "limit_of", "limits", "with_limits"]
