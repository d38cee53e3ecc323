"""The question banks of the three lessons (answers here; texts in ``data/i18n/*.lessons.toml``).

Cell and number answers are facts of the rules; ``tests/test_quiz.py`` recomputes each one with
the engine, so a teacher who changes the map or the levels is told which answers to update.

>>> sorted(BANKS), [len(BANKS[k]) >= 5 for k in sorted(BANKS)]
(['compass', 'intensity', 'pathing'], [True, True, True])
"""

from __future__ import annotations

from ..quiz import Question

_ABCD = ("a", "b", "c", "d")
_ABC = ("a", "b", "c")

COMPASS: tuple[Question, ...] = (
    Question("compass", "first_roll", "choice", answer="c", options=_ABCD),
    Question("compass", "rulebook_last", "choice", answer="b", options=_ABCD),
    Question("compass", "same_stop", "choice", answer="c", options=_ABC),
    Question("compass", "reachable", "number", answer=6),
    Question("compass", "long_run", "number", answer=1 / 7, tolerance=0.005),
    Question("compass", "after_e", "choice", answer="c", options=_ABCD),
    Question("compass", "real_motion", "choice", answer="a", options=_ABCD),
)

PATHING: tuple[Question, ...] = (
    Question("pathing", "wnw_cycle", "choice", answer="a", options=_ABCD),
    Question("pathing", "sw_first", "choice", answer="a", options=("a", "b")),
    Question("pathing", "nnw_five", "cell", answer=(7, 4), board=((8, 8), 1, "NNW")),
    Question("pathing", "sw_six", "cell", answer=(9, 10), board=((12, 7), 1, "SW")),
    Question("pathing", "e_four", "cell", answer=(12, 8), board=((8, 8), 1, "E")),
    Question("pathing", "km", "number", answer=1800, tolerance=1),
    Question("pathing", "hours", "number", answer=18, tolerance=0.1),
    Question("pathing", "diagonal", "choice", answer="a", options=_ABC),
)

INTENSITY: tuple[Question, ...] = (
    Question("intensity", "footprint", "choice", answer="b", options=_ABC),
    Question("intensity", "moderate_five", "number", answer=20),
    Question("intensity", "strong_two", "number", answer=11),
    Question("intensity", "super_three", "number", answer=18),
    Question("intensity", "landfall", "choice", answer="a", options=_ABCD),
    Question("intensity", "merge", "choice", answer="a", options=_ABCD),
    Question("intensity", "cwa_super", "choice", answer="a", options=_ABC),
    Question("intensity", "grow", "choice", answer="a", options=_ABC),
)

BANKS: dict[str, tuple[Question, ...]] = {"compass": COMPASS, "pathing": PATHING, "intensity": INTENSITY}


def board_picture(question: Question, lang: str = "en") -> str:
    """The small map drawn beside a cell question: the typhoon and its heading (the path is the puzzle).

    >>> board_picture(PATHING[2]).count('data-role="eye"')
    1
    """
    from ..svg import board_svg

    if question.board is None:
        return ""
    eye, level, direction = question.board
    return board_svg(typhoons=[{"id": 1, "eye": eye, "level": level, "direction": direction}], lang=lang, cell=36)


__all__ = ["BANKS", "COMPASS", "INTENSITY", "PATHING", "board_picture"]
