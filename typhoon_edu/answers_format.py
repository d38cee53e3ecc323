"""The answers CSV's shape, shared by the lessons' download (:class:`typhoon_edu.ui.quiz.AnswerSheet`) and the
teacher's summary (``typhoon-edu answers``, :mod:`typhoon_edu.answers_cmd`), which reads what the lessons write.

A column's title and a result's word are the catalog texts ``lesson.common.csv_<name>`` in the lesson's language.
This module imports nothing, so the command line can read the format without loading the lessons' widgets.

A text cell a spreadsheet would take for a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return: ``=HYPERLINK(…)`` typed as a name) is written with one ``'`` before it (:func:`formula_safe`), so a spreadsheet
shows it as text; a reader takes exactly that ``'`` off again (:func:`as_typed`).

>>> CSV_COLUMNS[:3], RESULT_OF_WORD["right_later"]
(('name', 'question', 'answer'), 'right')
"""

from __future__ import annotations

#: The columns, in order.
CSV_COLUMNS = ("name", "question", "answer", "result", "time", "observed", "matched")
#: The words of the result column: an entry's result, and "right_later" (right, after a wrong try at that question).
CSV_RESULT_WORDS = ("right", "wrong", "right_later", "free", "prediction")
#: The result an entry had, by the word written for it.
RESULT_OF_WORD = {word: "right" if word == "right_later" else word for word in CSV_RESULT_WORDS}

#: The first characters that make a spreadsheet read a cell as a formula (or a DDE command).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_safe(text: str) -> str:
    """``text`` as a CSV cell a spreadsheet shows as text: with one ``'`` before it when it starts as a formula does.

    >>> formula_safe("=cmd|' /C calc'!A0"), formula_safe("-3"), formula_safe("@SUM(A1)"), formula_safe("Mei")
    ("'=cmd|' /C calc'!A0", "'-3", "'@SUM(A1)", 'Mei')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def as_typed(cell: str) -> str:
    """A cell :func:`formula_safe` wrote, as it was typed: exactly one ``'`` taken off when a formula's first
    character follows it; any other cell as it is.

    >>> as_typed("'=1+1"), as_typed("''=1"), as_typed("'quoted'"), as_typed("=1"), as_typed("'")
    ('=1+1', "''=1", "'quoted'", '=1', "'")
    """
    return cell[1:] if cell.startswith("'") and cell[1:2] in FORMULA_STARTS else cell


__all__ = ["CSV_COLUMNS", "CSV_RESULT_WORDS", "FORMULA_STARTS", "RESULT_OF_WORD", "as_typed", "formula_safe"]
