"""The answers CSV's shape, shared by the lessons' download (:class:`typhoon_edu.ui.quiz.AnswerSheet`) and the
teacher's summary (``typhoon-edu answers``, :mod:`typhoon_edu.answers_cmd`), which reads what the lessons write.

A column's title and a result's word are the catalog texts ``lesson.common.csv_<name>`` in the lesson's language.
This module imports nothing, so the command line can read the format without loading the lessons' widgets.

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

__all__ = ["CSV_COLUMNS", "CSV_RESULT_WORDS", "RESULT_OF_WORD"]
