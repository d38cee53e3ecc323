"""Check yourself: questions with instant feedback (right or wrong, and why) in the lesson's language.

A :class:`Question` is data: its kind (``"choice"``, ``"number"``, ``"cell"`` or ``"text"``), its
answer, and the catalog keys of its texts (``lesson.quiz.<lesson>.<id>.prompt`` / ``.why`` / one key
per option). The question banks of the lessons are in :mod:`typhoon_edu.ui.lessons.bank`.
:func:`check` is pure and tested; :class:`Quiz` is the widget a notebook shows.

A typed answer that cannot possibly be right (a cell off the map, a share above 1: outside the question's
:attr:`Question.limit`, an :class:`AnswerLimit`; the lessons' are in :mod:`typhoon_edu.ui.lessons.limits`) is not
marked either: the student is told what is allowed, as for an answer that cannot be read, and tries again.

A ``"text"`` question ("explain your reasoning") is not marked: the answer goes into the CSV for
the teacher, and its ``why`` says what a good answer contains.

Students' work: the student types a name (:class:`AnswerSheet`); the options of each question are
then shuffled for that student, the same way every time (:func:`option_order`), and every answer
and prediction (:class:`Prediction`) is kept in a file beside the notebook (:class:`AnswerStore`),
so a kernel restart loses nothing. The CSV download is named after the student and the lesson. Until a name is
typed the answers are kept only in the open page (the name typed next takes them over), and each answer's feedback
says to type one (:meth:`AnswerSheet.reminder`).

On the class server (``typhoon-edu serve``) every page of a lesson is a kernel of one server sharing
that folder, so a typed name alone must not open a sheet: there the file is keyed by the page's device
(:func:`~typhoon_edu.ui.query.page_device`, from the server's HttpOnly cookie) as well as the name, and a
classmate typing "Mei" on another device gets a sheet of their own, never Mei's answers. In JupyterLab
and Binder (a kernel per student) the name alone finds the file, as before.

>>> q = Question("compass", "first_roll", "choice", answer="c", options=("a", "b", "c", "d"))
>>> fb = check(q, "c", "en")
>>> fb.correct, fb.verdict
(True, 'Right!')
>>> fb = check(q, "a", "zh-TW")
>>> fb.correct, fb.verdict, fb.expected
(False, '還差一點。', '東（E）')
>>> n = Question("intensity", "moderate_five", "number", answer=20)
>>> check(n, "20", "en").correct, check(n, "21", "en").correct
(True, False)
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import random
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from html import escape
from pathlib import Path
from typing import Any, Protocol

import ipywidgets as widgets

from .. import i18n
from ..answers_format import CSV_COLUMNS, formula_safe
from ..classroom.names import clean_name
from ..fileio import atomic_write_text
from ..typed import WHOLE_DIGITS
from .blank_enter import on_blank_enter
from .buttons import legible, name_only
from .guard import Problems
from .touch import TOUCH_CSS

Cell = tuple[int, int]
KINDS = ("choice", "number", "cell", "text")
RIGHT = "#15803d"
WRONG = "#b91c1c"
SAVED = "#1d4ed8"  # a free-text answer or a prediction: kept, not marked
REMIND = "#92400e"  # a reminder below a verdict (no name typed yet): neither right nor wrong


def _lt(key: str, lang: str, /, **fmt: Any) -> str:
    return i18n.t(f"lesson.{key}", lang, **fmt)


class AnswerLimit(Protocol):
    """What a typed answer to a question can possibly be (:attr:`Question.limit`): a cell on the map, a share from 0
    to 1, a whole number of HP. The lessons' limits are :mod:`typhoon_edu.ui.lessons.limits`."""

    def hint(self, value: Any, typed: Any, lang: str) -> str:
        """"" when ``value`` (the answer as read: a number, or a cell ``(x, y)``) can possibly be right; otherwise what
        is allowed, in ``lang``, quoting ``typed`` (what the student typed) and never naming the right answer."""
        ...


@dataclass(frozen=True)
class Question:
    """One check-yourself question.

    ``answer`` is an option id (choice), a number (number; ``tolerance`` allows rounding), or a
    cell ``(x, y)`` (cell). ``fmt`` fills placeholders of the prompt and of the why.
    ``percent``: the number is a share (0–1) that the student types as a percentage, with or
    without ``%`` (``57.5`` and ``57.5%`` both mean 0.575), and the answer is shown as one.
    ``board`` optionally draws a typhoon ``((x, y), level, direction)`` beside a cell question.
    ``limit`` (a number or cell question): what a typed answer can possibly be; an answer outside it is not marked,
    the student is told what is allowed (:func:`check`).
    """

    lesson: str
    id: str
    kind: str
    answer: Any
    options: tuple[str, ...] = ()
    tolerance: float = 0.0
    fmt: Mapping[str, Any] = field(default_factory=dict)
    board: tuple[Cell, int, str] | None = None
    percent: bool = False
    limit: AnswerLimit | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a question's kind is one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.kind == "choice" and self.answer not in self.options:
            raise ValueError(f"question {self.lesson}.{self.id}: the answer {self.answer!r} is not one of its options")

    @property
    def key(self) -> str:
        """The catalog prefix of this question's texts (without ``lesson.``)."""
        return f"quiz.{self.lesson}.{self.id}"

    def prompt(self, lang: str = "en") -> str:
        """The question, in ``lang``."""
        return _lt(f"{self.key}.prompt", lang, **self.fmt)

    def option_text(self, option: str, lang: str = "en") -> str:
        """The text of one option of a choice question."""
        return _lt(f"{self.key}.{option}", lang, **self.fmt)

    def why(self, lang: str = "en") -> str:
        """The explanation shown after any answer."""
        return _lt(f"{self.key}.why", lang, **self.fmt)

    def expected(self, lang: str = "en") -> str:
        """The right answer as text."""
        if self.kind == "choice":
            return self.option_text(self.answer, lang)
        if self.kind == "cell":
            return i18n.cell_label(self.answer, lang)
        if self.percent:
            return format_percent(float(self.answer))
        if self.kind == "text":
            return _lt("common.free_answer", lang)
        return _format_number(float(self.answer))

    def text_keys(self) -> list[str]:
        """Every catalog key (with ``lesson.``) this question needs."""
        keys = [f"lesson.{self.key}.prompt", f"lesson.{self.key}.why"]
        keys += [f"lesson.{self.key}.{o}" for o in self.options]
        return keys


#: The longest free-text answer kept (characters): a few paragraphs; a longer one is refused, nothing is kept.
MAX_TEXT_ANSWER = 2000
#: The longest typed number or cell kept (characters): "1,800 km", "7 次中 1 次" and "(7, 4)" are far shorter.
MAX_TYPED_ANSWER = 100


def answer_limit(question: Question) -> int:
    """How many characters a typed answer to ``question`` may have (:data:`MAX_TEXT_ANSWER` for free text,
    :data:`MAX_TYPED_ANSWER` for a number or a cell); a longer one is not marked, nor kept (:func:`check`).

    >>> answer_limit(Question("risk", "explain", "text", answer=None)), answer_limit(Question("i", "n", "number", answer=1))
    (2000, 100)
    """
    return MAX_TEXT_ANSWER if question.kind == "text" else MAX_TYPED_ANSWER


def reminder_html(note: str) -> str:
    """A reminder below a verdict (:meth:`AnswerSheet.reminder`: no name typed yet) as HTML; "" for no reminder.

    >>> reminder_html(""), "quiz-name-reminder" in reminder_html("Type your name above")
    ('', True)
    """
    if not note:
        return ""
    return (f"<div class='quiz-name-reminder' style='margin-top:.35em;color:{REMIND};font-weight:bold'>"
            f"<i class='fa fa-user' aria-hidden='true'></i> {escape(note)}</div>")


@dataclass(frozen=True)
class Feedback:
    """What a student sees after answering."""

    correct: bool
    verdict: str
    why: str
    expected: str
    problem: str = ""  # the answer could not be read, or cannot possibly be right (nothing is marked right or wrong)
    graded: bool = True  # False for a free-text answer: kept for the teacher, never marked
    note: str = ""  # said after the verdict and why: no name is typed, so the answer is kept in this page only

    def text(self, lang: str = "en") -> str:
        """The feedback as one plain sentence or a few (what a screen reader says), the words :meth:`html` shows.

        >>> Feedback(False, "Not quite.", "Count the stops.", "E").text("en")
        '✘ Not quite. The answer is E. Count the stops.'
        >>> Feedback(True, "答對了！", "數停點。", "東", note="請在上方輸入名字。").text("zh-TW")
        '✔ 答對了！數停點。請在上方輸入名字。'
        """
        if self.problem:
            return self.problem
        if not self.graded:
            return i18n.join_sentences(f"✎ {self.verdict}", _lt("common.good_answer", lang, why=self.why), self.note,
                                       lang=lang)
        return i18n.join_sentences(f"{self._mark} {self.verdict}", self._answer_is(lang), self.why, self.note, lang=lang)

    @property
    def _mark(self) -> str:
        return "✔" if self.correct else "✘"

    def _answer_is(self, lang: str) -> str:
        """ "The answer is {answer}." for a wrong answer ("" for a right one); an answer that ends its own sentence
        ("No, never.") keeps one full stop."""
        if self.correct:
            return ""
        expected = self.expected.rstrip(".。") if self.expected.endswith((".", "。")) else self.expected
        return _lt("common.answer_is", lang, answer=expected)

    def html(self, lang: str = "en") -> str:
        """The feedback as HTML: a coloured verdict (with a ✔ or ✘, not colour alone), the why, and the note."""
        if self.problem:
            return f"<div style='color:{WRONG};font-weight:bold'>{escape(self.problem)}</div>"
        note = reminder_html(self.note)
        if not self.graded:
            guide = escape(_lt("common.good_answer", lang, why=self.why))
            return (f"<div style='border-left:6px solid {SAVED};padding:.2em .6em;margin:.2em 0;background:#f8fafc'>"
                    f"<b style='color:{SAVED};font-size:1.1em'>✎ {escape(self.verdict)}</b>"
                    f"<div style='margin-top:.2em'>{guide}</div>{note}</div>")
        colour = RIGHT if self.correct else WRONG
        answer = self._answer_is(lang)
        answer = i18n.sentence_gap(self.verdict, lang) + escape(answer) if answer else ""
        return (f"<div style='border-left:6px solid {colour};padding:.2em .6em;margin:.2em 0;background:#f8fafc'>"
                f"<b style='color:{colour};font-size:1.1em'>{self._mark} {escape(self.verdict)}</b>{answer}"
                f"<div style='margin-top:.2em'>{escape(self.why)}</div>{note}</div>")


def _format_number(value: float) -> str:
    """12.0 → '12', 0.142857 → '0.143'.

    >>> _format_number(20.0), _format_number(1 / 7)
    ('20', '0.143')
    """
    if abs(value - round(value)) < 1e-9:
        return str(int(round(value)))
    return f"{value:.3f}".rstrip("0").rstrip(".")


def format_percent(share: float) -> str:
    """A share as a percentage with one decimal: 0.575 → '57.5%', 0.5 → '50%'.

    >>> format_percent(0.575), format_percent(0.5), format_percent(1 / 7)
    ('57.5%', '50%', '14.3%')
    """
    return f"{share * 100:.1f}".rstrip("0").rstrip(".") + "%"


def parse_percent(text: Any, lang: str = "en") -> float:
    """A percentage typed by a student, as a share: ``57.5``, ``57.5%``, ``57.5 %`` and ``５７．５％`` are all 0.575.

    A bare number is read as a percentage (the question asked for one), so ``0.575`` is 0.575 %.

    >>> parse_percent("57.5"), parse_percent("57.5%"), parse_percent(" 57.5 % "), parse_percent("５７．５％")
    (0.575, 0.575, 0.575, 0.575)
    >>> parse_percent("most")
    Traceback (most recent call last):
    ...
    ValueError: Type a number, for example 12, 3.5 or 1/7.
    """
    s = unicodedata.normalize("NFKC", str(text)).strip().replace(" ", "")
    value = parse_number(s, lang)
    return value if s.endswith("%") else value / 100


#: A share said in words: "1 in 7", "1 out of 7"; "7 分之 1" / "7分之1"; "7 次中 1 次" / "每 7 次 1 次".
_RATIO = re.compile(r"(?:(?P<part>\d+)\s*(?:in|out\s+of)\s*(?P<whole>\d+)"
                    r"|(?P<whole2>\d+)\s*分之\s*(?P<part2>\d+)"
                    r"|每?\s*(?P<whole3>\d+)\s*次(?:中|裡|裡面|當中)?(?:有)?\s*(?P<part3>\d+)\s*次)", re.IGNORECASE)

#: A unit a student may type after a number ("18 hours", "18 小時", "18h", "1,800 km"): letters, CJK, °.
_UNIT = re.compile(r"(?<=[\d%.])\s*[A-Za-z°\u3000-\u9fff]+\.?$")


#: What :func:`parse_number` hands to ``Fraction``, once words, units and thousands separators are gone: a whole number
#: over a whole number, or a decimal with an exponent of at most 3 digits, each part at most 40 digits (any answer of
#: the lessons fits; a longer one is not a number a student means, and a huge exponent costs minutes to work out).
_NUMBER = re.compile(r"[+-]?(?:\d{1,40}/\d{1,40}|(?:\d{1,40}(?:\.\d{0,40})?|\.\d{1,40})(?:[eE][+-]?\d{1,3})?)")


def parse_number(text: Any, lang: str = "en") -> float:
    """A number typed by a student: ``12``, ``3.75``, ``1/7``, ``14%``, full-width digits, a ``,`` as
    thousands separator, and a unit after it (``18 hours``, ``18 小時``, ``18h``); ``ValueError`` (in
    ``lang``) otherwise.

    >>> parse_number("1/7") == 1 / 7, parse_number("１８００"), parse_number("1,800"), parse_number("50%")
    (True, 1800.0, 1800.0, 0.5)
    >>> parse_number("18 hours"), parse_number("18 小時"), parse_number("18h"), parse_number("1,800 km")
    (18.0, 18.0, 18.0, 1800.0)
    >>> [round(parse_number(t), 4) for t in ("1 in 7", "1 out of 7", "7 分之 1", "7 次中 1 次")]
    [0.1429, 0.1429, 0.1429, 0.1429]
    >>> parse_number("many")
    Traceback (most recent call last):
    ...
    ValueError: Type a number, for example 12, 3.5 or 1/7.
    >>> parse_number("1e400")
    Traceback (most recent call last):
    ...
    ValueError: Type a number, for example 12, 3.5 or 1/7.
    >>> parse_number("1e99999999")  # refused at once (Fraction would take minutes of CPU)
    Traceback (most recent call last):
    ...
    ValueError: Type a number, for example 12, 3.5 or 1/7.
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    s = unicodedata.normalize("NFKC", str(text)).strip()
    ratio = _RATIO.fullmatch(s)  # "1 in 7" (the words of lesson 01's prediction), "7 分之 1", "7 次中 1 次"
    if ratio is not None:
        part, whole = (ratio["part"], ratio["whole"]) if ratio["part"] else (ratio["part2"] or ratio["part3"],
                                                                               ratio["whole2"] or ratio["whole3"])
        s = f"{part}/{whole}"
    s = _UNIT.sub("", s).replace(" ", "")
    s = re.sub(r"(?<=\d),(?=\d{3}\b)", "", s)
    percent = s.endswith("%")
    if percent:
        s = s[:-1]
    if _NUMBER.fullmatch(s) is None:  # checked first: Fraction("1e99999999") works out 10**99999999 (minutes of CPU)
        raise ValueError(_lt("common.bad_number", lang))
    try:
        value = float(Fraction(s))
    except (ValueError, ZeroDivisionError, OverflowError):  # "1e400": too large for any answer
        raise ValueError(_lt("common.bad_number", lang)) from None
    return value / 100 if percent else value


def parse_cell(text: Any, lang: str = "en") -> Cell:
    """A cell typed as ``x, y`` (brackets, spaces and full-width commas are fine).

    >>> parse_cell("(7, 4)"), parse_cell("７，４")
    ((7, 4), (7, 4))
    >>> parse_cell("7")
    Traceback (most recent call last):
    ...
    ValueError: Type a cell as x, y, for example 7, 4.
    >>> parse_cell("6" * 5000 + ", 4")
    Traceback (most recent call last):
    ...
    ValueError: Type a cell as x, y, for example 7, 4.
    """
    if isinstance(text, tuple) and len(text) == 2:
        return int(text[0]), int(text[1])
    s = unicodedata.normalize("NFKC", str(text))
    numbers = re.findall(r"-?\d+", s)
    if len(numbers) != 2 or any(len(n) > WHOLE_DIGITS for n in numbers):  # no grid has a 10-digit column
        raise ValueError(_lt("common.bad_cell", lang))
    return int(numbers[0]), int(numbers[1])


def read_answer(question: Question, answer: Any, lang: str = "en") -> Any:
    """A typed answer to a number or cell question as the question reads it: a number (a percentage as a share, for a
    ``percent`` question) or a cell ``(x, y)``; ``ValueError`` (in ``lang``) when it cannot be read.

    >>> read_answer(Question("real", "west_share", "number", answer=0.5, percent=True), "57.5")
    0.575
    >>> read_answer(Question("pathing", "wnw_four", "cell", answer=(6, 8)), "（7，4）")
    (7, 4)
    """
    if question.kind == "cell":
        return parse_cell(answer, lang)
    if question.kind != "number":
        raise ValueError(f"only a number or a cell is read from typed text, not the answer to a {question.kind} question")
    return parse_percent(answer, lang) if question.percent else parse_number(answer, lang)


def check(question: Question, answer: Any, lang: str = "en", *, limited: bool = True) -> Feedback:
    """Mark ``answer`` (an option id, typed text, a number or a cell) and explain, in ``lang``.

    An answer that cannot be read, or (``limited``) cannot possibly be right, is not marked: ``problem`` says how to
    type it, or what is allowed (the question's :attr:`~Question.limit`), never the right answer. ``limited=False``
    marks an impossible answer all the same (an answer kept before its question had a limit, shown again).

    >>> q = Question("pathing", "wnw_four", "cell", answer=(6, 8))
    >>> check(q, "6,8", "en").correct, check(q, (7, 5), "en").expected
    (True, '(6, 8)')
    >>> check(q, "", "en").problem
    'Type a cell as x, y, for example 7, 4.'
    >>> from typhoon_edu.ui.lessons.bank import PATHING
    >>> check(PATHING[2], "99, 99", "en").problem.startswith("“99, 99” is off the map.")
    True
    >>> check(PATHING[2], "99, 99", "en", limited=False).verdict
    'Not quite.'
    >>> check(q, "7, 4" + " " * 200, "en").problem
    'This answer is 204 characters long; at most 100 are allowed here. Shorten it and try again: nothing was kept.'
    """
    lang = i18n.normalize_lang(lang)
    expected = question.expected(lang)
    if limited and isinstance(answer, str) and question.kind != "choice" and len(answer) > answer_limit(question):
        # too long to keep; a number or cell this long is no number or cell at all: then how to type one
        problem = _lt("common.too_long", lang, n=len(answer), limit=answer_limit(question))
        if question.kind != "text" and len(answer.strip()) > answer_limit(question):
            problem = _lt("common.bad_cell" if question.kind == "cell" else "common.bad_number", lang)
        return Feedback(False, "", "", expected, graded=question.kind != "text", problem=problem)
    if question.kind == "text":
        if not str(answer or "").strip():
            return Feedback(False, "", "", expected, problem=_lt("common.write_something", lang), graded=False)
        return Feedback(False, _lt("common.saved", lang), question.why(lang), expected, graded=False)
    try:
        if question.kind == "choice":
            if answer not in question.options:
                raise ValueError(_lt("common.pick_one", lang))
            correct = answer == question.answer
        else:
            value = read_answer(question, answer, lang)
            if limited and question.limit is not None:
                hint = question.limit.hint(value, answer, lang)
                if hint:
                    return Feedback(False, "", "", expected, problem=hint)
            correct = abs(value - float(question.answer)) <= question.tolerance + 1e-9 if question.kind == "number" \
                else value == tuple(question.answer)
    except ValueError as exc:
        return Feedback(False, "", "", expected, problem=str(exc))
    verdict = _lt("common.right" if correct else "common.wrong", lang)
    return Feedback(correct, verdict, question.why(lang), expected)


def option_order(question: Question, student: str = "") -> tuple[str, ...]:
    """The options of a choice question in the order ``student`` sees them: shuffled, and the same every
    time for that student (the seed is a hash of the name, the lesson and the question, not Python's
    ``hash``, so it holds across kernels and machines).

    >>> q = Question("compass", "first_roll", "choice", answer="c", options=("a", "b", "c", "d"))
    >>> option_order(q, "Mei") == option_order(q, " mei "), sorted(option_order(q, "Mei"))
    (True, ['a', 'b', 'c', 'd'])
    """
    return student_order(question.options, student, question.lesson, question.id)


def student_order(items: Sequence[Any], student: str, lesson: str, key: str) -> tuple[Any, ...]:
    """``items`` shuffled for ``student`` in question ``key`` of ``lesson``: the same order every time.

    >>> student_order(range(4), "Mei", "risk", "west") == student_order(range(4), "MEI", "risk", "west")
    True
    """
    seed = f"{student_key(student)}\x1f{lesson}\x1f{key}".encode()
    rng = random.Random(int.from_bytes(hashlib.sha256(seed).digest()[:8], "big"))
    out = list(items)
    rng.shuffle(out)
    return tuple(out)


def student_key(name: str) -> str:
    """A student's name as it identifies them: NFKC, trimmed, inner spaces collapsed, case-folded.

    >>> student_key("  Chen  Mei ") == student_key("chen mei"), student_key("ＭＥＩ")
    (True, 'mei')
    """
    return " ".join(unicodedata.normalize("NFKC", str(name)).split()).casefold()


def file_stem(name: str) -> str:
    """A name made safe for a file name: letters (any script), digits, ``-`` and ``_``; spaces become ``_``.

    >>> file_stem(" 陳 小美 "), file_stem("../etc/passwd"), file_stem("Mei O'Hara")
    ('陳_小美', 'etcpasswd', 'Mei_OHara')
    """
    text = "_".join(unicodedata.normalize("NFKC", str(name)).split())
    return "".join(ch for ch in text if ch.isalnum() or ch in "-_")[:40].strip("-_")


#: Where answers are kept when no folder is given: a folder of this name beside the notebook (the
#: kernel's working directory, in Jupyter and in Voilà), or the folder in TYPHOON_EDU_ANSWERS.
ANSWERS_DIR = "answers"
RESULTS = ("right", "wrong", "free", "prediction")
#: On the class server, the most new names (answers files) one device may start in one lesson of a folder within
#: :data:`NAMES_WINDOW` seconds: a device that typed name after name filled the folder, and the teacher's summary
#: left the real students out. A name the device has used already is always fine; a shared computer (a lab PC a
#: class after class uses, a group's laptop) counts only the last hour's names, so it is never refused for good.
MAX_NAMES_PER_DEVICE = 8
NAMES_WINDOW = 3600.0
#: The most answers one sheet keeps (a lesson asks a few dozen questions): a further answer is not kept.
MAX_ENTRIES = 300
#: The largest answers file written (bytes), well below what ``typhoon-edu answers`` reads (8 MiB).
MAX_SHEET_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Entry:
    """One line of a student's answer sheet.

    ``result`` is ``right``, ``wrong``, ``free`` (a free-text answer, for the teacher) or ``prediction``;
    ``key`` names the question (``quiz.compass.first_roll``, ``predict.real.reach``) and ``value`` is
    what the widget needs to show the answer again (an option id, or the typed text). A prediction, once the lesson
    has shown what it asked about, also keeps what was ``observed`` (in words, in the lesson's language) and whether
    it ``matched`` the prediction (``None``: nothing observed yet; files saved before observations load so).
    """

    key: str
    question: str
    answer: str
    result: str
    when: datetime
    value: str = ""
    observed: str = ""
    matched: bool | None = None

    def to_json(self) -> dict[str, str]:
        data = asdict(self)
        data["when"] = self.when.isoformat(sep=" ")
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        if data.get("result") not in RESULTS:
            raise ValueError(f"an answer's result is one of {', '.join(RESULTS)}, not {data.get('result')!r}")
        matched = data.get("matched")
        if matched is not None and not isinstance(matched, bool):
            raise ValueError(f"a prediction matched its observation or not (true or false), not {matched!r}")
        return cls(str(data.get("key", "")), str(data["question"]), str(data["answer"]), str(data["result"]),
                   datetime.fromisoformat(str(data["when"])), str(data.get("value", "")), str(data.get("observed", "")),
                   matched)


def device_tag(device: str) -> str:
    """What an answer file's name keeps of a device id: 16 hex digits of its SHA-256 (the id itself, a secret of
    the browser's cookie, is never written).

    >>> device_tag("d" * 22) == device_tag("d" * 22), len(device_tag("d" * 22)), device_tag("a" * 22) != device_tag("b" * 22)
    (True, 16, True)
    """
    return hashlib.sha256(f"answers/{device}".encode()).hexdigest()[:16]


class SheetRefused(ValueError):
    """An answers file :class:`AnswerStore` will not write: ``kind`` is ``"names"`` (this device keeps answers under
    :data:`MAX_NAMES_PER_DEVICE` other names in the lesson already) or ``"size"`` (the file would be larger than
    :data:`MAX_SHEET_BYTES`); nothing was written."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class NotAnswersFile(ValueError):
    """JSON that is not an answers file (no list of ``entries``)."""


@dataclass(frozen=True)
class AnswersFile:
    """What an answers file (:class:`AnswerStore`'s JSON) holds: the ``lesson`` and the ``student`` it says ("" when
    it does not say), the entries that could be read, and how many could not (``unreadable``)."""

    lesson: str
    student: str
    entries: tuple[Entry, ...]
    unreadable: int = 0


def read_answers(text: str) -> AnswersFile:
    """An answers file's ``text``, read: the one reading of the format, for the lessons (:meth:`AnswerStore.load`)
    and for the teacher's summary (``typhoon-edu answers``).

    Raises :class:`json.JSONDecodeError` for text that is not JSON and :class:`NotAnswersFile` for JSON of another
    kind; an entry that cannot be read is counted in ``unreadable``, the others are kept.

    >>> f = read_answers('{"lesson": "compass", "student": " Mei  Chen", "entries": [{"key": "k", "question": "Q?", '
    ...                  '"answer": "E", "result": "right", "when": "2026-05-01 09:30:00"}, {"x": 1}]}')
    >>> f.lesson, f.student, [e.answer for e in f.entries], f.unreadable
    ('compass', 'Mei Chen', ['E'], 1)
    """
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise NotAnswersFile("an answers file is a JSON object with a list of entries")
    entries: list[Entry] = []
    unreadable = 0
    for item in data["entries"]:
        try:
            entries.append(Entry.from_json(item))
        except (ValueError, KeyError, TypeError, AttributeError):
            unreadable += 1
    lesson, student = (data.get(k) if isinstance(data.get(k), str) else "" for k in ("lesson", "student"))
    return AnswersFile(lesson, " ".join(student.split()), tuple(entries), unreadable)


def answers_file_name(name: str, lesson: str = "") -> tuple[str, str, str]:
    """``(name part, device tag, lesson)`` of an answers file's name as :meth:`AnswerStore.path` makes it
    (``<name>-<lesson>.json``, on the class server ``<name>-<device tag>-<lesson>.json``; a damaged file set aside
    ends ``.damaged.json``); ``lesson``, when known, is the one the name ends with. A part not found is "".

    >>> answers_file_name("Mei_Chen-0123456789abcdef-compass.json"), answers_file_name("Mei-compass.damaged.json")
    (('Mei_Chen', '0123456789abcdef', 'compass'), ('Mei', '', 'compass'))
    >>> answers_file_name("notes.json")
    ('', '', '')
    """
    lesson_part = re.escape(lesson) if lesson else r"[A-Za-z0-9_]+"
    m = re.fullmatch(rf"(.+?)(?:-([0-9a-f]{{16}}))?-({lesson_part})(?:\.damaged)?\.json", name)
    return (m[1], m[2] or "", m[3]) if m else ("", "", "")


_UNRESOLVED: Any = object()


class AnswerStore:
    """A student's answers to one lesson, kept in a JSON file (``<name>-<lesson>.json``) in a folder.

    ``device``: on the class server, the page's device id (or a function that gives it, asked on the first
    save or load, once the page's request has arrived): the file is then ``<name>-<device tag>-<lesson>.json``,
    so the same name typed on another device is another file. ``None`` (JupyterLab, Binder): the name alone.
    Files are written atomically, each write through a fresh temporary file of its own
    (:func:`~typhoon_edu.fileio.atomic_write_text`), so two pages saving at once never damage one.

    >>> import tempfile
    >>> store = AnswerStore(tempfile.mkdtemp())
    >>> path = store.save("compass", "Mei", [Entry("k", "q?", "E", "right", datetime(2026, 5, 1, 9, 30), "c")])
    >>> [e.answer for e in store.load("compass", "mei")], store.path("compass", "Mei").name
    (['E'], 'Mei-compass.json')
    >>> served = AnswerStore(store.directory, device="d" * 22)
    >>> served.load("compass", "Mei"), served.path("compass", "Mei").name == f"Mei-{device_tag('d' * 22)}-compass.json"
    ([], True)
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None, *,
                 device: str | Callable[[], str | None] | None = None) -> None:
        default = os.environ.get("TYPHOON_EDU_ANSWERS") or Path.cwd() / ANSWERS_DIR
        self.directory = Path(directory if directory is not None else default)
        self._device_source = device
        self._device: str | None = _UNRESOLVED

    @property
    def device(self) -> str | None:
        """The page's device id the files are keyed by (``None``: by the name alone)."""
        if self._device is _UNRESOLVED:
            source = self._device_source
            self._device = source() if callable(source) else source
        return self._device

    def path(self, lesson: str, student: str) -> Path:
        stem = file_stem(student)
        if not stem:
            raise ValueError("a student's name needs at least one letter or digit")
        device = self.device
        if device is not None:  # the class server: this device's sheet for the name, never another device's
            stem = f"{stem}-{device_tag(device)}"
        # the same student typed with other capitals finds the same file
        for existing in self.directory.glob(f"*-{lesson}.json") if self.directory.is_dir() else ():
            if existing.name[: -len(f"-{lesson}.json")].casefold() == stem.casefold():
                return existing
        return self.directory / f"{stem}-{lesson}.json"

    def device_names(self, lesson: str) -> int:
        """How many answers files of ``lesson`` this store's device has written in the folder in the last
        :data:`NAMES_WINDOW` seconds (0 without a device).

        >>> import tempfile
        >>> store = AnswerStore(tempfile.mkdtemp(), device="d" * 22)
        >>> _ = store.save("compass", "Mei", []); _ = store.save("compass", "Ann", []); store.device_names("compass")
        2
        """
        device = self.device
        if device is None or not self.directory.is_dir():
            return 0
        since = time.time() - NAMES_WINDOW
        count = 0
        for path in self.directory.glob(f"*-{device_tag(device)}-{lesson}.json"):
            try:
                count += path.stat().st_mtime >= since
            except OSError:  # removed meanwhile
                pass
        return count

    def may_open(self, lesson: str, student: str) -> bool:
        """Whether answers to ``lesson`` may be kept under ``student`` here: always without a device (a student's own
        JupyterLab) and for a name the device has a file of already; otherwise while the device has written fewer
        than :data:`MAX_NAMES_PER_DEVICE` files of the lesson in the last :data:`NAMES_WINDOW` seconds.

        >>> import tempfile
        >>> store = AnswerStore(tempfile.mkdtemp(), device="d" * 22)
        >>> for k in range(MAX_NAMES_PER_DEVICE):
        ...     _ = store.save("compass", f"Name{k}", [])
        >>> store.may_open("compass", "name0"), store.may_open("compass", "Zoe"), store.may_open("pathing", "Zoe")
        (True, False, True)
        """
        return self.device is None or self.path(lesson, student).exists() \
            or self.device_names(lesson) < MAX_NAMES_PER_DEVICE

    def load(self, lesson: str, student: str) -> list[Entry]:
        """The entries saved for this student and lesson ([] when there are none; a damaged file is set aside)."""
        path = self.path(lesson, student)
        if not path.is_file():
            return []
        try:
            read = read_answers(path.read_text(encoding="utf-8"))
        except ValueError:
            read = None
        if read is None or read.unreadable:
            # keep the damaged file for the teacher and start afresh rather than lose new answers too
            path.replace(path.with_suffix(".damaged.json"))
            return []
        return list(read.entries)

    def save(self, lesson: str, student: str, entries: Iterable[Entry]) -> Path:
        """Write the answers file of ``student`` in ``lesson``; :class:`SheetRefused` (nothing written) for a new name
        past this device's :data:`MAX_NAMES_PER_DEVICE`, or a file larger than :data:`MAX_SHEET_BYTES`."""
        path = self.path(lesson, student)
        if not path.exists() and not self.may_open(lesson, student):
            raise SheetRefused("names", f"this device keeps answers to {lesson} under {MAX_NAMES_PER_DEVICE} names "
                                        "already, the most one device may")
        data = {"format": 1, "lesson": lesson, "student": clean_name(student),
                "entries": [e.to_json() for e in entries]}
        text = json.dumps(data, ensure_ascii=False, indent=1)
        size = len(text.encode("utf-8"))
        if size > MAX_SHEET_BYTES:
            raise SheetRefused("size", f"an answers file is at most {MAX_SHEET_BYTES} bytes, this one would be {size}")
        path.parent.mkdir(parents=True, exist_ok=True)
        # atomic, through a fresh temporary file of this write's own (never a fixed name another page writes too,
        # nor a link planted there): a crash or a second page saving at once never leaves half a file
        return atomic_write_text(path, text)


class QuestionWidget(widgets.VBox):
    """One question: option buttons (choice), a box to type the answer (number, cell) or to write a few
    sentences (text); feedback below. ``order`` is the order of the option buttons (see :func:`option_order`).
    Enter in an empty answer box says what to type, as the Check button does (:func:`on_blank_enter`).

    >>> w = QuestionWidget(Question("compass", "first_roll", "choice", answer="c", options=("a", "b", "c", "d")))
    >>> w.buttons["b"].click(); w.result.correct, w.buttons["c"].button_style
    (False, 'success')
    """

    def __init__(self, question: Question, lang: str = "en", number: int = 1,
                 picture: Callable[[Question, str], str] | None = None, problems: Problems | None = None,
                 order: Sequence[str] | None = None, **kwargs: Any) -> None:
        lang = i18n.normalize_lang(lang)
        self.problems = problems or Problems(lambda: self.lang)
        prompt = widgets.HTML(f"<div style='font-size:1.1em;margin-top:.6em'><b>{number}.</b> {escape(question.prompt(lang))}</div>")
        feedback = widgets.HTML()
        feedback.add_class("quiz-feedback")
        children: list[widgets.Widget] = [prompt]
        if picture is not None and question.board is not None:
            children.append(widgets.HTML(f"<div style='max-width:36em'>{picture(question, lang)}</div>"))
        self.buttons: dict[str, widgets.Button] = {}
        self.entry: widgets.Text | widgets.Textarea | None = None
        self.options_box: widgets.HBox | None = None
        if question.kind == "choice":
            for option in question.options:
                button = legible(widgets.Button(description=question.option_text(option, lang),
                                                layout=widgets.Layout(width="auto", min_width="8em", height="auto"),
                                                tooltip=question.option_text(option, lang)))
                self.problems.on_click(button, lambda _b, o=option: self.answer(o), where=f"quiz {question.key}")
                button.add_class("quiz-option")
                self.buttons[option] = button
            self.options_box = widgets.HBox(list(self.buttons.values()), layout=widgets.Layout(flex_flow="row wrap"))
            children.append(self.options_box)
        elif question.kind == "text":
            self.entry = widgets.Textarea(placeholder=_lt("common.type_text", lang), rows=4,
                                          layout=widgets.Layout(width="100%", max_width="44em"))
            self.entry.add_class("quiz-text")
            name_only(self.entry, _lt("common.answer_label", lang, n=number, prompt=question.prompt(lang)))
            save = widgets.Button(description=_lt("common.save", lang), button_style="primary", icon="save",
                                  layout=widgets.Layout(width="auto"))
            self.problems.on_click(save, lambda _b: self.answer(self.entry.value if self.entry else ""), where=f"quiz {question.key}")
            children.append(widgets.VBox([self.entry, widgets.HBox([save])]))
        else:
            kind = "common.type_cell" if question.kind == "cell" else "common.type_percent" if question.percent \
                else "common.type_number"
            self.entry = widgets.Text(placeholder=_lt(kind, lang), continuous_update=False, layout=widgets.Layout(width="14em"))
            self.entry.add_class("quiz-answer")
            name_only(self.entry, _lt("common.answer_label", lang, n=number, prompt=question.prompt(lang)))
            go = widgets.Button(description=_lt("common.check", lang), button_style="primary", layout=widgets.Layout(width="auto"))
            self.problems.on_click(go, lambda _b: self.answer(self.entry.value if self.entry else ""), where=f"quiz {question.key}")
            # typing + Enter answers; a value the widget sets itself (a restored answer) does not
            self.problems.observe(self.entry, lambda change: self.answer(change["new"])
                                  if change["new"] and not getattr(self, "_syncing", False) else None, where=f"quiz {question.key}")
            # Enter in the empty box says what to type, as the Check button does (the box alone sends nothing then)
            on_blank_enter(self.entry, lambda: self.answer(self.entry.value if self.entry else ""), self.problems,
                           f"quiz {question.key}: Enter")
            children.append(widgets.HBox([self.entry, go]))
        children.append(feedback)
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        super().__init__(children=children, **kwargs)
        self.question = question
        self.lang = lang
        self.feedback = feedback
        #: the live region that says each answer's feedback (set by :class:`Quiz`; ``None``: shown only)
        self.live: Any = None
        #: what a kept answer's feedback ends with (set by :class:`Quiz`: its sheet's :meth:`AnswerSheet.reminder`)
        self.remind: Callable[[], str] | None = None
        self.result: Feedback | None = None
        #: the first marked answer's feedback: the score counts it, a right answer on a later try does not
        self.first: Feedback | None = None
        self.given = ""  # the answer as the student gave it (an option's text, or what they typed)
        self.value = ""  # the answer as the widget takes it back (an option id, or the typed text)
        self._callbacks: list[Callable[[QuestionWidget], Any]] = []
        if order is not None:
            self.set_order(order)

    @property
    def order(self) -> tuple[str, ...]:
        """The option ids in the order the buttons are shown."""
        if self.options_box is None:
            return ()
        ids = {id(b): o for o, b in self.buttons.items()}
        return tuple(ids[id(b)] for b in self.options_box.children)

    def set_order(self, order: Sequence[str]) -> None:
        """Show the option buttons in ``order`` (every option id once)."""
        if self.options_box is None:
            return
        if sorted(order) != sorted(self.buttons):
            raise ValueError(f"an order names every option once ({', '.join(self.buttons)}), not {', '.join(order)}")
        self.options_box.children = tuple(self.buttons[o] for o in order)

    def answer(self, value: Any) -> Feedback:
        """Answer the question (as a click or typing would) and show the feedback (and say it, with a live region).

        An answer that cannot be read or cannot possibly be right (the question's limit) is shown and said, neither
        marked nor kept: the right answer stays hidden and the first try is still to come.
        """
        result = self._show(value, check(self.question, value, self.lang))
        if self.live is not None:
            self.live.say(result.text(self.lang))
        if result.problem:
            return result
        for callback in list(self._callbacks):
            callback(self)
        return result

    def show(self, value: Any) -> Feedback:
        """Show ``value`` as this question's answer with its feedback, without telling anyone (a restored answer: shown
        as it was kept, even one outside the question's limit, kept before the question had one)."""
        return self._show(value, check(self.question, value, self.lang, limited=False))

    def _show(self, value: Any, result: Feedback) -> Feedback:
        if result.problem:
            self.feedback.value = result.html(self.lang)
            return result
        if result.graded:
            if self.first is None:
                self.first = result
            elif result.correct and not self.first.correct:  # the right option shows after a wrong one: not a first try
                result = replace(result, verdict=_lt("common.right_later", self.lang))
        if self.remind is not None:
            result = replace(result, note=self.remind())
        self.feedback.value = result.html(self.lang)
        self.result = result
        self.value = str(value)
        self.given = self.question.option_text(value, self.lang) if self.question.kind == "choice" else str(value).strip()
        if self.entry is not None and self.entry.value != str(value):
            self._syncing = True
            try:
                self.entry.value = str(value)
            finally:
                self._syncing = False
        for option, button in self.buttons.items():
            if option == self.question.answer:
                button.button_style = "success"
                button.icon = "check"
            elif option == value:
                button.button_style = "danger"
                button.icon = "times"
            else:
                button.button_style = ""
                button.icon = ""
        return result

    def clear(self) -> None:
        """Show the question unanswered (another student's sheet has no answer to it)."""
        self.result = self.first = None
        self.given = self.value = ""
        self.feedback.value = ""
        if self.entry is not None and self.entry.value:
            self._syncing = True
            try:
                self.entry.value = ""
            finally:
                self._syncing = False
        for button in self.buttons.values():
            button.button_style = ""
            button.icon = ""

    def on_answer(self, callback: Callable[[QuestionWidget], Any]) -> None:
        """Call ``callback(widget)`` after each readable answer."""
        self._callbacks.append(callback)


class Quiz(widgets.VBox):
    """A list of questions with a running score. Build it with :func:`quiz` for a lesson's bank.

    The student's name comes first: it shuffles the options for that student and keeps the answers
    (see :class:`AnswerSheet`). Free-text questions are not counted in the score.

    >>> qz = Quiz([Question("intensity", "moderate_five", "number", answer=20)], "en", sheet=AnswerSheet("en", "x"))
    >>> qz.items[0].answer("20").correct, qz.right, qz.answered
    (True, 1, 1)
    """

    def __init__(self, questions: Sequence[Question], lang: str = "en", title: str | None = None,
                 picture: Callable[[Question, str], str] | None = None, *, sheet: AnswerSheet | None = None,
                 **kwargs: Any) -> None:
        lang = i18n.normalize_lang(lang)
        self.lang = lang
        self.problems = Problems(lambda: self.lang)
        lesson = questions[0].lesson if questions else "quiz"
        self.sheet = sheet if sheet is not None else lesson_sheet(lesson, lang)
        student = self.sheet.student
        self.items = [QuestionWidget(q, lang, i + 1, picture, self.problems, order=option_order(q, student))
                      for i, q in enumerate(questions)]
        self.score = widgets.HTML()
        # a screen reader hears each verdict ("✔ Right!" only appeared): one live region, in the page before any answer
        from .canvas_input import announcer

        self.live = announcer()
        for item in self.items:
            item.live = self.live
            item.remind = self.sheet.reminder  # no name typed: each kept answer says to type one
        # the notebook's own "Check yourself" heading usually comes right before: no second one by default
        head = [widgets.HTML(f"<h3 style='margin:.4em 0'>{escape(title)}</h3>")] if title else []
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        super().__init__(children=[*head, self.problems.widget, self.sheet.name_box(), self.live, *self.items, self.score,
                                   self.sheet.widget, widgets.HTML(_CHOICES_CSS)], **kwargs)
        self.questions = list(questions)
        self.picture = picture
        for item in self.items:
            item.on_answer(self._answered)
        self.sheet.on_student(self.problems.guard(lambda _sheet: self._student_changed(), "quiz: name"))
        self._student_changed()

    def _student_changed(self) -> None:
        """Shuffle the options for this student and show the answers the sheet holds for each question."""
        for item in self.items:
            item.set_order(option_order(item.question, self.sheet.student))
            key = f"quiz.{item.question.lesson}.{item.question.id}"
            given = [e for e in self.sheet.entries if e.key == key and e.value]
            item.clear()
            if given:
                item.show(given[0].value)  # the first answer is the one the score counts
                if len(given) > 1:
                    item.show(given[-1].value)
        self._update_score()

    def _answered(self, item: QuestionWidget) -> None:
        key = f"quiz.{item.question.lesson}.{item.question.id}"
        last = self.sheet.latest(key)
        if last is not None and last.value == item.value:  # the same answer again (a second click, Enter then Check)
            self._update_score()
            return
        if item.result is not None:
            kept = self.sheet.keep(item.question.prompt(self.lang), item.given,
                                   item.result.correct if item.result.graded else None, key=key, value=item.value)
            if kept is None and self.sheet.full:  # not kept: the feedback ends with what to do (said too)
                # a free-text answer is not "Saved": the feedback says only that it was not kept, and what to do
                item.result = replace(item.result, note=self.sheet.reminder()) if item.result.graded \
                    else replace(item.result, problem=self.sheet.reminder())
                item.feedback.value = item.result.html(self.lang)
                if item.live is not None:
                    item.live.say(item.result.text(self.lang))
        self._update_score()

    @property
    def graded(self) -> list[QuestionWidget]:
        """The questions that are marked right or wrong (free-text ones are not)."""
        return [item for item in self.items if item.question.kind != "text"]

    @property
    def right(self) -> int:
        """How many questions were answered right at the first try (a re-try after the answer was shown is not)."""
        return sum(1 for item in self.graded if item.first is not None and item.first.correct)

    @property
    def right_later(self) -> int:
        """How many questions, first answered wrong, were answered right on a later try."""
        return sum(1 for item in self.graded if item.first is not None and not item.first.correct
                   and item.result is not None and item.result.correct)

    @property
    def answered(self) -> int:
        return sum(1 for item in self.graded if item.result is not None)

    def _update_score(self) -> None:
        text = _lt("common.score", self.lang, right=self.right, answered=self.answered, total=len(self.graded))
        later = self.right_later
        if later:
            text = i18n.join_sentences(text, _lt("common.score_later", self.lang, n=later), lang=self.lang)
        self.score.value = f"<div style='font-size:1.15em;font-weight:bold;margin-top:.6em'>{escape(text)}</div>"

    def to_html(self) -> str:
        """The questions as static HTML (what a saved notebook shows)."""
        out = [f"<p><b>{escape(_lt('common.quiz_title', self.lang))}</b></p><ol>"]
        for q in self.questions:
            extra = ""
            if q.kind == "choice":
                extra = "<ul>" + "".join(f"<li>{escape(q.option_text(o, self.lang))}</li>" for o in q.options) + "</ul>"
            if self.picture is not None and q.board is not None:
                extra += f"<div style='max-width:24em'>{self.picture(q, self.lang)}</div>"
            out.append(f"<li>{escape(q.prompt(self.lang))}{extra}</li>")
        out.append("</ol>")
        return "".join(out)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self.to_html()
        return data


class AnswerSheet:
    """Every answer and prediction of one student in one lesson, a name field, and a link to download them as CSV.

    The link is a ``data:`` URL in an HTML widget, so the browser saves the file without any server of
    ours (it works in Jupyter, Voilà and Binder alike). The CSV is in the lesson's language, starts
    with the student's name, and is named after the student and the lesson. Once the student has
    typed a name, every entry is also saved in ``store`` (a file beside the notebook), and typing the
    same name after a kernel restart brings the answers back.

    >>> sheet = AnswerSheet("zh-TW", filename="compass", store=None)
    >>> sheet.add("第一題？", "東", True, when=datetime(2026, 5, 1, 9, 30))
    >>> sheet.csv().splitlines()
    ['姓名,題目,回答,對或錯,時間,觀察到的結果,預測和觀察', ',第一題？,東,對,2026-05-01 09:30:00,,']
    >>> "compass-answers.csv" in sheet.widget.value
    True
    """

    def __init__(self, lang: str = "en", filename: str = "quiz", *, lesson: str | None = None,
                 store: AnswerStore | None = None) -> None:
        self.lang = i18n.normalize_lang(lang)
        self.base = filename
        self.lesson = lesson or filename
        self.store = store
        self.student = ""
        self.entries: list[Entry] = []
        self.saved_to: Path | None = None
        self.save_failed = False  # the last write of the answers file failed: they are in the page only
        self._too_large = False  # an answer was refused: the file would have been larger than MAX_SHEET_BYTES
        self._save_refused = False  # the last write was refused: this device keeps MAX_NAMES_PER_DEVICE names already
        self._name_refused = ""  # the catalog key of why the name typed last was refused ("" when it was taken)
        self.name = widgets.Text(description=_lt("common.name", self.lang), placeholder=_lt("common.name_placeholder", self.lang),
                                 continuous_update=False, style={"description_width": "initial"},
                                 layout=widgets.Layout(width="22em"))
        self.name.add_class("quiz-name")
        self.status = widgets.HTML()
        self.status.add_class("quiz-name-status")
        self._listeners: list[Callable[[AnswerSheet], Any]] = []
        self.problems = Problems(lambda: self.lang)
        self.problems.observe(self.name, lambda change: self.set_student(change["new"]), where="answer sheet: name")
        self.widget = widgets.HTML()
        self.widget.add_class("quiz-download")
        self._refresh()

    @property
    def filename(self) -> str:
        """The CSV's file name: ``<name>-<lesson>-answers.csv`` (``<lesson>-answers.csv`` before a name is typed)."""
        stem = file_stem(self.student)
        return f"{stem}-{self.base}-answers.csv" if stem else f"{self.base}-answers.csv"

    @property
    def rows(self) -> list[tuple[str, str, bool | None, datetime]]:
        """``(question, answer, right?, when)`` per entry (``None``: a free-text answer or a prediction)."""
        return [(e.question, e.answer, {"right": True, "wrong": False}.get(e.result), e.when) for e in self.entries]

    def name_box(self) -> widgets.Widget:
        """The name field and what it does (the same field may be shown in several places of a lesson)."""
        return widgets.VBox([self.problems.widget, self.name, self.status], layout=widgets.Layout(margin=".3em 0"))

    def reminder(self) -> str:
        """What an answer given now ends with, in the sheet's language, while no name is typed: to type one, since the
        answers are kept until then only in the open page (and the next name typed at it, another student's on a
        shared computer, takes them over). "" once a name is typed, and for a sheet that keeps no file.

        >>> import tempfile
        >>> sheet = AnswerSheet("en", "compass", store=AnswerStore(tempfile.mkdtemp()))
        >>> sheet.reminder()
        'Type your name above so your answers are kept: until then they are only in this page.'
        >>> sheet.set_student("Mei"); sheet.reminder(), AnswerSheet("en", "compass", store=None).reminder()
        ('', '')
        """
        if self.full:
            return _lt("common.sheet_full", self.lang, n=len(self.entries))
        if self.student or self.store is None:
            return ""
        if self._name_refused:
            return _lt(self._name_refused, self.lang, n=MAX_NAMES_PER_DEVICE)
        return _lt("common.name_reminder", self.lang)

    @property
    def full(self) -> bool:
        """Whether the sheet keeps no further answer: it holds :data:`MAX_ENTRIES`, or its file would be larger than
        :data:`MAX_SHEET_BYTES` (:meth:`reminder` and the status then say so, and what to do).

        >>> sheet = AnswerSheet("en", "compass", store=None)
        >>> for k in range(MAX_ENTRIES + 1):
        ...     sheet.add("q?", str(k), None)
        >>> sheet.full, len(sheet.entries), sheet.reminder().startswith("Your answer sheet is full (300 answers)")
        (True, 300, True)
        """
        return len(self.entries) >= MAX_ENTRIES or self._too_large

    def on_student(self, callback: Callable[[AnswerSheet], Any]) -> None:
        """Call ``callback(sheet)`` after the student's name changes (and their saved answers are loaded)."""
        self._listeners.append(callback)

    def set_student(self, name: str) -> None:
        """Make ``name`` the student of this sheet: load their saved answers and save the ones given so far.

        Answers given before any name was typed are kept and saved under the new name. The name is cleaned
        (:func:`~typhoon_edu.classroom.names.clean_name`: no control, bidi or zero-width characters, at most
        :data:`~typhoon_edu.classroom.names.MAX_NAME_LENGTH` long); one with no letter or digit left is refused, and so
        is a new name on a device that started :data:`MAX_NAMES_PER_DEVICE` names in the lesson within the last hour (the
        status says what to do). After a refused name the page answers as no one (the name before's answers are in
        its file): on a shared computer the next student's answers went into the last student's file.

        >>> sheet = AnswerSheet("en", "compass", store=None)
        >>> sheet.set_student("Mei\x1b[2J\u202e"); sheet.student
        'Mei[2J'
        >>> sheet.set_student("\u200b\x1b"); sheet.student  # refused: the page no longer answers as Mei
        ''
        """
        raw = str(name)
        name = clean_name(raw)
        if student_key(name) == student_key(self.student) and (name or not raw.strip()):
            if name and self.name.value != name:  # "Mei\u200b" is Mei: the box shows the name as kept
                self.name.value = name
            return
        refused = "common.name_bad" if (raw.strip() or name) and not file_stem(name) else \
            "common.name_too_many" if name and self.store is not None and not self.store.may_open(self.lesson, name) \
            else ""
        if refused:
            # the page no longer answers as the name before (its answers are in its file already): a refused name on
            # a shared computer sent the next student's answers into the last student's file
            if self.student:
                self.student, self.entries, self.saved_to, self.save_failed = "", [], None, False
            self._name_refused = refused
            self._refresh()
            return
        self._name_refused = ""
        unnamed = self.entries if not self.student else []
        self.student = name
        if self.name.value != name:
            self.name.value = name
        self._too_large = False
        loaded = self.store.load(self.lesson, name) if self.store is not None and name else []
        self.entries = loaded + list(unnamed)[: max(0, MAX_ENTRIES - len(loaded))]
        self._save()
        self._refresh()
        for callback in list(self._listeners):
            callback(self)

    def add(self, question: str, answer: str, correct: bool | None, when: datetime | None = None, *, key: str = "",
            result: str | None = None, value: str = "") -> None:
        """Record one answer (a later answer to the same question is recorded too: the sheet is a log).

        ``correct`` is ``None`` for an answer that is not marked; ``result="prediction"`` marks a prediction. A full
        sheet (:attr:`full`) keeps nothing more and says so (:meth:`keep` tells whether the answer was kept).
        """
        self.keep(question, answer, correct, when, key=key, result=result, value=value)

    def keep(self, question: str, answer: str, correct: bool | None, when: datetime | None = None, *, key: str = "",
             result: str | None = None, value: str = "") -> Entry | None:
        """:meth:`add`, and the entry kept (``None``: the sheet is full, and nothing was kept).

        >>> AnswerSheet("en", "compass", store=None).keep("q?", "E", True).result
        'right'
        """
        result = result or ("free" if correct is None else "right" if correct else "wrong")
        if result not in RESULTS:
            raise ValueError(f"an answer's result is one of {', '.join(RESULTS)}, not {result!r}")
        if self.full:
            self._refresh()
            return None
        entry = Entry(key, question, answer, result, when or datetime.now().replace(microsecond=0), value)
        self.entries.append(entry)
        if not self._save():  # the file would be too large: the answer is not kept
            self.entries.pop()
            self._too_large = True
            entry = None
        self._refresh()
        return entry

    def latest(self, key: str) -> Entry | None:
        """The last entry recorded for ``key`` (None if there is none)."""
        return next((e for e in reversed(self.entries) if e.key == key), None)

    def csv(self) -> str:
        """The answers as CSV text (a header row in the lesson's language, then one row per answer).

        The last two columns are a prediction's: what the lesson then showed, and whether that matched the prediction
        (empty for an answer, and for a prediction whose observation the student has not made yet).
        """
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([_lt(f"common.csv_{c}", self.lang) for c in CSV_COLUMNS])
        missed: set[str] = set()  # questions answered wrong before: a right answer to them is a later try
        for e in self.entries:
            later = e.result == "right" and e.key and e.key in missed
            result = _lt(f"common.csv_{'right_later' if later else e.result}", self.lang)
            if e.result == "wrong":
                missed.add(e.key)
            matched = "" if e.matched is None else _lt("common.csv_matched_yes" if e.matched else "common.csv_matched_no",
                                                      self.lang)
            writer.writerow([formula_safe(self.student), formula_safe(e.question), formula_safe(e.answer),
                             result, e.when.isoformat(sep=" "), formula_safe(e.observed), matched])
        return out.getvalue()

    def replace(self, old: Entry, new: Entry) -> None:
        """Put ``new`` in the place of entry ``old`` (a prediction that now says what was observed) and save."""
        index = next(k for k, e in enumerate(self.entries) if e is old)
        self.entries[index] = new
        if not self._save():  # the file would be too large: the entry stays as it was
            self.entries[index] = old
            self._too_large = True
        self._refresh()

    def data_url(self) -> str:
        """The CSV as a ``data:`` URL (UTF-8 with a byte-order mark, so spreadsheet programs read Chinese right)."""
        payload = base64.b64encode(("\ufeff" + self.csv()).encode("utf-8")).decode("ascii")
        return f"data:text/csv;charset=utf-8;base64,{payload}"

    def _save(self) -> bool:
        """Write the answers file; ``False`` only when the store refuses it for its size (nothing was written)."""
        self._save_refused = False
        if self.store is None or not self.student:
            return True
        if not self.entries and not self.store.path(self.lesson, self.student).exists():
            return True  # typing a name alone leaves no empty file behind
        try:
            self.saved_to = self.store.save(self.lesson, self.student, self.entries)
            self.save_failed = False
        except SheetRefused as exc:
            if exc.kind == "size":
                return False
            # another page of this device took the last name meanwhile: the answers stay in the page, and it says why
            self.saved_to = None
            self.save_failed = self._save_refused = True
        except OSError as exc:  # a read-only folder: the answers stay in the page, and the person is told why
            self.saved_to = None
            self.save_failed = True
            self.problems.report(exc, "answer sheet: save")
        return True

    def status_text(self) -> str:
        """What the line under the name box says: to type a name; where the answers are kept (or will be, from the
        first answer: a name alone writes no file); that they are in the page only, for a sheet that keeps no file
        or whose file could not be written.

        >>> import tempfile
        >>> sheet = AnswerSheet("en", "compass", store=AnswerStore(tempfile.mkdtemp()))
        >>> sheet.set_student("Mei"); sheet.status_text()
        'Answers of Mei will be kept in answers/Mei-compass.json from the first answer.'
        >>> sheet.add("q?", "E", True); sheet.status_text()
        'Answers of Mei are kept in answers/Mei-compass.json.'
        >>> page_only = AnswerSheet("en", "compass", store=None); page_only.set_student("Mei"); page_only.status_text()
        'Answers of Mei are kept in this page only: download them before you leave.'
        """
        if self.full:
            return _lt("common.sheet_full", self.lang, n=len(self.entries))
        if self._save_refused:
            return _lt("common.name_too_many", self.lang, n=MAX_NAMES_PER_DEVICE)
        if self._name_refused and not self.student:
            return _lt(self._name_refused, self.lang, n=MAX_NAMES_PER_DEVICE)
        if not self.student:
            return _lt("common.name_hint", self.lang)
        if self.saved_to is not None:
            return _lt("common.name_saved", self.lang, name=self.student, file=self.saved_to.name)
        if self.store is None:
            return _lt("common.name_page", self.lang, name=self.student)
        if self.save_failed:
            return _lt("common.name_unsaved", self.lang, name=self.student)
        return _lt("common.name_ready", self.lang, name=self.student, file=self.store.path(self.lesson, self.student).name)

    def _refresh(self) -> None:
        text = escape(self.status_text())
        if self.full or self._save_refused or (self._name_refused and not self.student):  # said as a refusal
            self.status.value = f"<span style='color:{WRONG}'>{text}</span>"
        else:
            self.status.value = (f"<span style='color:{RIGHT}'>✔ {text}</span>" if self.student and self.saved_to is not None
                                 else f"<span style='color:#334155'>{text}</span>")
        label = escape(_lt("common.download", self.lang))
        n = len(self.entries)
        count = escape(_lt("common.download_count_one" if n == 1 else "common.download_count", self.lang, n=n))
        style = ("display:inline-block;padding:.35em .9em;border-radius:4px;background:#1d4ed8;color:#ffffff;"
                 "text-decoration:none;font-weight:bold")
        self.widget.value = (f"<div style='margin:.6em 0'><a class='quiz-download-link' download='{escape(self.filename)}' "
                             f"href='{self.data_url()}' style='{style}'>⬇ {label}</a> "
                             f"<span style='color:#334155'>{count}</span></div>")


_SHEETS: dict[tuple[str, str], AnswerSheet] = {}


def lesson_sheet(lesson: str, lang: str = "en") -> AnswerSheet:
    """The one answer sheet of ``lesson`` in this kernel: its predictions and its quiz write to it, and it
    keeps the student's answers in a file beside the notebook (:class:`AnswerStore`), keyed on the class
    server by the page's device as well as the name (:func:`~typhoon_edu.ui.query.page_device`).

    >>> lesson_sheet("compass", "en") is lesson_sheet("compass", "en")
    True
    """
    lang = i18n.normalize_lang(lang)
    key = (lesson, lang)
    if key not in _SHEETS:
        from .query import page_device

        _SHEETS[key] = AnswerSheet(lang, filename=lesson, lesson=lesson, store=AnswerStore(device=page_device))
    return _SHEETS[key]


def forget_sheets() -> None:
    """Start every lesson's answer sheet afresh (a new student at the same kernel; tests)."""
    _SHEETS.clear()


#: A long option wraps onto more lines inside its button instead of being cut short ("Because storms always grow
#: when they stand still, eve…") or running past the lesson's edge on a phone ("they merge into one storm, one
#: level above the stronger" was cut off at 390 px): ipywidgets keeps a button's text on one line.
_CHOICES_CSS = """<style>
.prediction-choice { flex-wrap: wrap; }
.prediction-choice .widget-toggle-button, .quiz-option { white-space: normal; height: auto; max-width: calc(100% - 4px);
  min-height: var(--jp-widgets-inline-height); line-height: 1.3; padding-top: 4px; padding-bottom: 4px; }
.quiz-option { text-align: left; }
</style>""" + TOUCH_CSS  # every control a fingertip high on a phone (touch.py): a quiz shown alone gets it too


class Prediction(widgets.VBox):
    """Predict, observe, explain: the student picks an answer and locks it in before the lesson shows the result;
    once the lesson has shown it, the box says what was predicted, what was observed, and whether they match, as a
    question to explain (a prediction is never marked right or wrong).

    The texts are ``lesson.predict.<lesson>.<id>.prompt``, one per option, and ``.then`` (what to do
    next; it goes once the lesson has shown what was asked, unless ``keep_then``). ``reveal`` widgets stay hidden and ``enable`` buttons stay disabled until the prediction is
    locked in; the prediction goes into the lesson's answer sheet (and so into the CSV), and comes back
    after a kernel restart when the student types the same name. The lesson tells the box what it observed with
    :meth:`record_observation` (the options its result supports, and the result in words), which the answer sheet
    keeps with the prediction; :meth:`on_reveal` runs a callback whenever what the prediction guards is shown (a lesson
    whose observation is that very reveal, a table, gives it there).

    >>> p = Prediction("compass", "long_run", "en", options=("a", "b", "c", "d"), sheet=AnswerSheet("en", "x"))
    >>> p.lock.disabled, p.lock_in("b").result, p.lock.disabled
    (True, 'prediction', True)
    >>> p.record_observation(("a",), "the rolls gave 14.3% for E").matched
    False
    >>> p.live.announce
    'You predicted “about 1 in 6 (17%)”; the rolls gave 14.3% for E. That differs from your prediction: what made the difference?'
    """

    def __init__(self, lesson: str, id: str, lang: str = "en", *, options: Sequence[str] = ("a", "b", "c", "d"),
                 sheet: AnswerSheet | None = None, reveal: Sequence[widgets.Widget] = (),
                 enable: Sequence[widgets.Button] = (), keep_then: bool = False, **kwargs: Any) -> None:
        lang = i18n.normalize_lang(lang)
        self.lang, self.lesson, self.id = lang, lesson, id
        #: the next step (``.then``) stays shown with the verdict: the observation is made at the lock-in, and the step
        #: asks for more than it ("Now read the table, then move the slider"); otherwise it goes once it is done
        self.keep_then = keep_then
        self.key = f"predict.{lesson}.{id}"
        self.sheet = sheet if sheet is not None else lesson_sheet(lesson, lang)
        self.problems = Problems(lambda: self.lang)
        self.options = tuple(options)
        self.choice = widgets.ToggleButtons(options=[(self.option_text(o), o) for o in self.options], value=None,
                                            style={"button_width": "auto"}, layout=widgets.Layout(width="auto"))
        self.choice.add_class("prediction-choice")
        self.lock = legible(widgets.Button(description=_lt("common.predict_lock", lang), icon="lock",
                                           button_style="warning", disabled=True, layout=widgets.Layout(width="auto")))
        self.lock.add_class("prediction-lock")
        self.status = widgets.HTML()
        self.status.add_class("prediction-status")
        # a screen reader hears the prediction locked in (the keyboard's focus moves on to what it revealed, so the
        # status under the button would go unheard): one live region, in the page before the lock
        from .canvas_input import announcer

        self.live = announcer()
        self.reveal = list(reveal)
        self.enable = list(enable)
        self.entry: Entry | None = None
        self._on_reveal: list[Callable[[Prediction], Any]] = []
        self._quiet = False  # a restored prediction: its verdict is shown, not said
        self._locking = False  # locking in: the verdict of an observation made then is said with the lock-in
        self.problems.observe(self.choice, lambda change: setattr(self.lock, "disabled", change["new"] is None or self.locked),
                              where=f"prediction {self.key}")
        self.problems.on_click(self.lock, lambda _b: self.lock_in(self.choice.value), where=f"prediction {self.key}")
        title = widgets.HTML(f"<div style='font-size:1.1em;margin:.4em 0 .2em 0'><b>{escape(_lt('common.predict_title', lang))}</b> "
                             f"{escape(self.prompt())}</div>")
        kwargs.setdefault("layout", widgets.Layout(width="100%", border_left=f"6px solid {SAVED}", padding="0 .6em",
                                                   margin=".4em 0"))
        super().__init__(children=[self.problems.widget, title, self.sheet.name_box(), self.choice, widgets.HBox([self.lock]),
                                   self.status, self.live, widgets.HTML(_CHOICES_CSS)],
                         **kwargs)
        self.add_class("prediction")
        self.sheet.on_student(self.problems.guard(lambda _s: self._restore(), f"prediction {self.key}"))
        self._restore()

    def prompt(self) -> str:
        return _lt(f"predict.{self.lesson}.{self.id}.prompt", self.lang)

    def option_text(self, option: str) -> str:
        return _lt(f"predict.{self.lesson}.{self.id}.{option}", self.lang)

    def options_text(self, options: Iterable[str]) -> str:
        """The texts of ``options`` as a sentence names them (what an observation bears out: "Japan and Korea").

        >>> Prediction("compass", "long_run", "en", sheet=AnswerSheet("en", "x", store=None)).options_text(("a", "b"))
        'about 1 in 7 (14%) and about 1 in 6 (17%)'
        """
        return i18n.join_names([self.option_text(o) for o in options], self.lang)

    @property
    def locked(self) -> bool:
        return self.entry is not None

    def lock_in(self, option: str | None) -> Entry:
        """Lock in ``option`` as the prediction (once; a second call changes nothing) and reveal what it guards."""
        if self.entry is not None:
            return self.entry
        if option not in self.options:
            raise ValueError(_lt("common.predict_pick", self.lang))
        kept = self.sheet.keep(self.prompt(), self.option_text(option), None, key=self.key, result="prediction",
                               value=option)
        # a full sheet keeps no more: the prediction still guards the lesson's reveal, in this page only
        entry = kept if kept is not None else Entry(self.key, self.prompt(), self.option_text(option), "prediction",
                                                    datetime.now().replace(microsecond=0), option)
        self._show(entry)
        self._locking = True
        try:
            self._revealed()
        finally:
            self._locking = False
        entry = self.entry if self.entry is not None else entry
        # "Locked in: …": words, no mark that reads like a verdict; and what was observed, if the reveal showed it
        said = self.locked_text(entry)
        if entry.matched is not None:
            said = i18n.join_sentences(said, self.verdict_text(entry), lang=self.lang)
        self.live.say(said)
        return entry

    def on_reveal(self, callback: Callable[[Prediction], Any]) -> None:
        """Call ``callback(prediction)`` whenever what the prediction guards is shown: at the lock-in, and when a
        student's locked-in prediction is restored (at once, if it is shown already). An observation recorded from a
        restored prediction's callback is shown, not said."""
        self._on_reveal.append(callback)
        if self.locked:
            self._quiet = True
            try:
                self.problems.guard(callback, f"prediction {self.key}: reveal")(self)
            finally:
                self._quiet = False

    def _revealed(self) -> None:
        for callback in list(self._on_reveal):
            self.problems.guard(callback, f"prediction {self.key}: reveal")(self)

    def record_observation(self, supports: Iterable[str], observed: str) -> Entry | None:
        """The lesson has shown what the prediction asked about: ``observed`` says it in words (in the lesson's
        language), ``supports`` are the options it bears out (computed from the result, never fixed in advance).

        The box then says the prediction, the observation and whether they match, as a question to explain; the
        answer sheet keeps it with the prediction, and a screen reader hears it. Nothing happens before a lock-in
        (there is nothing to compare with). Returns the prediction's entry.
        """
        entry = self.entry
        if entry is None:
            return None
        matched = entry.value in set(supports)
        if (entry.observed, entry.matched) != (observed, matched):
            new = replace(entry, observed=observed, matched=matched)
            if any(e is entry for e in self.sheet.entries):
                self.sheet.replace(entry, new)
            entry = new
        self._show(entry)
        if not (self._quiet or self._locking):
            self.live.say(self.verdict_text(entry))
        return entry

    def verdict_text(self, entry: Entry) -> str:
        """What an observed prediction ``entry`` says: what was predicted and observed, and a question to explain."""
        compare = _lt("common.predict_compare", self.lang, answer=entry.answer, observed=entry.observed)
        prompt = _lt("common.predict_matched" if entry.matched else "common.predict_differed", self.lang)
        return i18n.join_sentences(compare, prompt, lang=self.lang)

    def locked_text(self, entry: Entry) -> str:
        """What the locked-in prediction ``entry`` says: the answer chosen, then what to do next (two sentences, the
        first ended: "Locked in: Taiwan. Now read the table", not "Locked in: Taiwan Now read the table")."""
        return i18n.join_sentences(_lt("common.predict_locked_said", self.lang, answer=entry.answer),
                          _lt(f"predict.{self.lesson}.{self.id}.then", self.lang), lang=self.lang)

    def _restore(self) -> None:
        entry = self.sheet.latest(self.key)
        if entry is not None and entry.value in self.options:
            self._show(entry)
            self._quiet = True
            try:
                self._revealed()
            finally:
                self._quiet = False
        else:
            self.entry = None
            self.choice.disabled = False
            self.lock.disabled = self.choice.value is None
            self.status.value = ""
            for w in self.reveal:
                w.layout.display = "none"
            for b in self.enable:
                b.disabled = True
                b.tooltip = _lt("common.predict_first", self.lang)

    def _show(self, entry: Entry) -> None:
        self.entry = entry
        if self.choice.value != entry.value:
            self.choice.value = entry.value
        # what the prediction guards is shown first, then the lock disabled: the page's helper moves the keyboard's
        # focus from the disabled lock to the next control, which is then there (canvas_input.py)
        for w in self.reveal:
            w.layout.display = None
        for b in self.enable:
            b.disabled = False
            b.tooltip = ""
        # what to do next ("Now press 'Two storms meet' and check."), until it is done: once the lesson has shown what
        # the prediction asked about, the verdict below says what was seen, and the step would still ask for it
        then = _lt(f"predict.{self.lesson}.{self.id}.then", self.lang) if entry.matched is None or self.keep_then else ""
        # a padlock (Font Awesome, as on the lock button; an emoji lock showed as an empty box without an emoji font),
        # never the ✔ of a right answer: a prediction is kept, not marked
        verdict = ""
        if entry.matched is not None:
            # what was observed, below what to do: a question to explain, in the prediction's colour (no ✔ or ✘)
            verdict = (f"<div class='prediction-verdict' style='margin:.35em 0 .2em 0;padding:.2em .5em;"
                       f"border-left:4px solid {SAVED};background:#eff6ff;font-size:1.05em'>"
                       f"<i class='fa fa-eye' aria-hidden='true' style='color:{SAVED}'></i> "
                       f"{escape(self.verdict_text(entry))}</div>")
        self.status.value = (f"<div style='color:{SAVED};font-weight:bold'><i class='fa fa-lock' aria-hidden='true'></i> "
                             f"{escape(_lt('common.predict_locked', self.lang, answer=entry.answer))}</div>"
                             f"{f'<div>{escape(then)}</div>' if then else ''}{verdict}")
        self.choice.disabled = True
        self.lock.disabled = True

    def to_html(self) -> str:
        """The question and its options as static HTML (what a saved notebook shows)."""
        options = "".join(f"<li>{escape(self.option_text(o))}</li>" for o in self.options)
        return (f"<div class='prediction'><p><b>{escape(_lt('common.predict_title', self.lang))}</b> "
                f"{escape(self.prompt())}</p><ul>{options}</ul></div>")

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self.to_html()
        return data


def quiz(lesson: str, lang: str = "en") -> Quiz:
    """The check-yourself quiz of a lesson (``"compass"``, ``"pathing"`` or ``"intensity"``): its questions carry their
    limits, so an answer that cannot possibly be right gets a hint, as in the lesson's own quiz.

    >>> q = quiz("compass", "zh-TW")
    >>> len(q.items) >= 5, q.items[0].answer("c").correct
    (True, True)
    """
    from .lessons.bank import BANKS, bank, board_picture

    if lesson not in BANKS:
        raise ValueError(f"there is no quiz for {lesson!r}; the lessons are {', '.join(BANKS)}")
    return Quiz(bank(lesson), lang, picture=board_picture)


__all__ = ["ANSWERS_DIR", "AnswerLimit", "AnswerSheet", "AnswerStore", "AnswersFile", "Entry", "Feedback",
           "NotAnswersFile", "Prediction", "Question", "QuestionWidget", "Quiz", "answers_file_name", "check", "device_tag",
           "file_stem", "forget_sheets", "format_percent", "lesson_sheet", "reminder_html", "option_order", "parse_cell",
           "parse_number", "parse_percent", "quiz", "read_answer", "read_answers", "student_key", "student_order"]
