"""``typhoon-edu answers``: a class summary of the answers students handed in.

``typhoon-edu answers FILES_OR_FOLDERS... [--roster FILE] [--csv OUT] [--overwrite] [--lang en|zh-TW]``

Students hand in the lessons' *Download my answers (CSV)* files (:meth:`~typhoon_edu.ui.quiz.AnswerSheet.csv`: a
header in the lesson's language, English or Chinese; files saved before the prediction columns have five columns),
and the lessons keep every answer in ``answers/<name>-<lesson>.json`` beside the notebooks
(:class:`~typhoon_edu.ui.quiz.AnswerStore`). This command reads any mix of both and prints, in the teacher's
language, per lesson and question: how many students answered, how many were right at the first try and the most
common wrong answer; for a prediction, how the class predicted and how many matched what they then observed; for a
free answer, how many wrote one; then one line per student.

* **Which question.** A JSON entry names its question (``quiz.compass.first_roll``); a CSV row has only the
  question's text, which is looked up among every lesson's questions in both languages
  (:func:`known_questions`), so an English and a Chinese file of one lesson add up. A row whose text is not a
  known question (a question of another version, a forecast of a storm the lesson no longer has) is counted under
  its own text.
* **Which lesson.** A JSON file says it; a CSV file's lesson is the one its known questions belong to, else the
  one its name says (``<name>-<lesson>-answers.csv``).
* **First try.** As in the lessons, a question's score is the student's first marked answer to it (the earliest
  by time); a right answer after a wrong one is "right on a later try". The wrong answers counted (the most common
  wrong answer) are a student's tries before their first right answer: a wrong answer after a right one is not.
* **Handed in twice.** The same answer in two files (a CSV download and the class server's JSON file, or two
  downloads) is counted once: two answers are the same when the student (the name as the lessons compare names:
  :func:`~typhoon_edu.ui.quiz.student_key`), the lesson, the question's text, the answer and the time (to the
  second, as the sheet records it) are all the same. A file a spreadsheet re-saved may give the time to the minute
  only (``2026/12/3 09:14``): its answers are then matched to the minute, each with one answer of the other file.
  Of the two, the one that says what the student then observed is kept.
* **The same name.** The class server keeps a name typed on two devices in two files (a device tag in the file's
  name: :class:`~typhoon_edu.ui.quiz.AnswerStore`), so those are two students, ``Ann (1)`` and ``Ann (2)``
  (numbered by their first answer); a download goes with the device whose file holds its answers. A download or a
  file outside the class server says only the name: two students who typed the same name are one student there,
  and the summary says so when such files of one lesson share no answer (:func:`same_names`). Such a student's
  first try at a question is the earliest answer of all their files, and the other files' answers after it are
  later tries.
* **Lesson 07's forecasts** are counted per storm and lead (``forecast.taiwan.24``), found by the row's label in
  either language, so an English and a Chinese file's forecasts of one storm add up; a wrong forecast is grouped
  by where it put the storm (:func:`_forecast_guess`), whichever language it is written in, and shown in the
  summary's language.
* **Dates a spreadsheet re-saved.** Year first (``2026/12/7 09:05``) or last (``12/7/2026 9:05 AM``), 24- or
  12-hour: a year-last date with ``/`` or ``-`` is month/day or day/month as the file's own dates say
  (:class:`DateOrder`); a file none of whose dates says is read as month/day and named in the summary.
* **Folders.** A folder's files are read with those of the folders in it (:data:`MAX_DEPTH` deep: a learning
  platform's download puts each student's file in a folder of its own), hidden ones aside; every other file there
  (a spreadsheet's own file, an archive, a notebook, anything else) is named with what to do, but the lessons' own
  notebooks in a folder of the lessons (:func:`_lesson_folder`), said in one line, and a table an earlier run wrote
  with ``--csv`` (:func:`_is_summary_table`), said in one line and never read as answers.
* **Spreadsheets' saves.** UTF-8, UTF-16 with a byte-order mark ("Unicode Text") or Big5; cells separated by
  commas, or by tabs or semicolons when the header, so read, is the answers table's (:func:`_delimiter`).
* **The roster** (``--roster``, :func:`read_roster`): a class list, a name per line or in a CSV file's first column
  (or the one headed ``name`` / ``姓名``), as a teacher or a spreadsheet saves it. Each lesson's summary then says
  who on it handed nothing in and which names handed in are not on it, with the missing name each may be a
  misspelling of (:func:`check_roster`); ``--csv`` adds a column and a row per name that handed nothing in. A Latin
  name matches whatever its capitals, width and spaces; a Chinese one as written (:func:`roster_key`). A roster
  that cannot be used stops the command before anything is read or written.
* **Bad input.** A file that is not an answers file, cannot be read, or a folder without answers files is named
  with the reason and left out; the rest are summarised. A file that stops being text part-way (NUL bytes, bytes
  that are not UTF-8) keeps its whole lines before that and is named with the line. The exit code is 2 only if
  nothing could be read.

>>> text = "name,question,answer,right or wrong,when\\nMei,Q?,E,right,2026-05-01 09:30:00\\n"
>>> [(a.student, a.answer, a.result) for a in parse_csv(text, "Mei-compass-answers.csv")[0]]
[('Mei', 'E', 'right')]
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import io
import os
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cache
from itertools import islice, takewhile
from pathlib import Path
from typing import Any, TextIO

from .answers_format import CSV_COLUMNS, RESULT_OF_WORD, as_typed, formula_safe
from .fileio import atomic_write_text, os_reason, read_bounded
from .i18n import LANGS, catalog, cell_label, join_names, normalize_lang, t, template

__all__ = ["Answer", "DateOrder", "Lesson", "Problem", "QuestionInfo", "Reading", "Roster", "RosterCheck", "RosterError",
           "SameName", "add_parser", "check_roster", "known_questions", "lesson_title", "merge", "parse_csv", "parse_json",
           "read_paths", "read_roster", "roster_key", "roster_lines", "roster_names", "run", "same_names",
           "skipped_lines", "summarise", "summary_lines", "table_csv"]

#: The biggest answers file read (a lesson's download is a few kilobytes).
MAX_FILE_BYTES = 8 * 1024 * 1024
#: The CSV columns (``lesson.common.csv_<column>``) and the results (``lesson.common.csv_<result>``), in any language:
#: as the lessons write them (:mod:`typhoon_edu.answers_format`).
COLUMNS = CSV_COLUMNS
RESULT_WORDS = RESULT_OF_WORD
GRADED = ("right", "wrong")
#: The kinds of question marked right or wrong.
GRADED_KINDS = ("choice", "number", "cell")


def _norm(text: object) -> str:
    """Text (a student's name, a question, an answer) as it is compared: as the lessons compare students' names
    (:func:`~typhoon_edu.ui.quiz.student_key`: NFKC, spaces collapsed, case-folded). The lessons' module is imported
    when first needed, not when ``typhoon-edu`` starts.

    >>> _norm("  About  1 in 7 ") == _norm("about 1 in 7"), _norm("ＡＢ")
    (True, 'ab')
    """
    from .ui.quiz import student_key

    return student_key(str(text))


def _clean(text: object, limit: int = 0) -> str:
    """A name read from a file as names are shown everywhere (:func:`~typhoon_edu.classroom.names.clean_name`:
    without control, bidi and zero-width characters, at most ``limit`` long, by default a name's limit).

    >>> _clean("Mei\x1b[2J\u202eChen\u200b"), _clean("x" * 80, 70) == "x" * 70
    ('Mei[2JChen', True)
    """
    from .classroom.names import MAX_NAME_LENGTH, clean_name

    return clean_name(text, limit or MAX_NAME_LENGTH)


#: Unicode categories never written to the teacher's terminal as they are: controls (an escape sequence clears the
#: screen or plants a link), format characters (bidi overrides, zero-width characters), surrogates, line breaks.
_UNSEEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _visible(text: str) -> str:
    """``text`` as the terminal may show it: each character of :data:`_UNSEEN` replaced by U+FFFD, visibly.

    >>> _visible("Mei\x1b]8;;http://evil.example\x07click"), _visible("A\u202eB"), _visible("颱風 · 30%")
    ('Mei\ufffd]8;;http://evil.example\ufffdclick', 'A\ufffdB', '颱風 · 30%')
    """
    if text.isprintable():
        return text
    return "".join("\ufffd" if ch != " " and unicodedata.category(ch) in _UNSEEN else ch for ch in text)


@contextlib.contextmanager
def _long_cells() -> Iterator[None]:
    """CSV cells up to a whole file (:data:`MAX_FILE_BYTES`) long while the block runs: Python's CSV reader refuses a
    cell over 131,072 characters with an error (a long first line of a JSON file, a pasted essay)."""
    old = csv.field_size_limit()
    csv.field_size_limit(max(old, MAX_FILE_BYTES))
    try:
        yield
    finally:
        csv.field_size_limit(old)


def _lesson_order(lesson: str) -> tuple[int, str]:
    """Where ``lesson`` comes among the lessons (01 … 07, then lessons not known, by name)."""
    numbers = list(known_questions().numbers)
    return (numbers.index(lesson) if lesson in numbers else len(numbers), lesson)


def _lt(key: str, lang: str, /, **fmt: Any) -> str:
    return t(f"answers.{key}", lang, **fmt)


# ------------------------------------------------------------------------------------------------ the questions
@dataclass(frozen=True)
class QuestionInfo:
    """One question a lesson asks: its ``key`` (``quiz.compass.first_roll``, ``predict.compass.long_run``,
    ``forecast.taiwan.24``), its ``kind`` (``choice``, ``number``, ``cell``, ``text``, ``prediction``, or
    ``forecast``: a row of lesson 07's forecast challenge, marked but not one of the questions every student is
    asked), its ``label`` in the lesson (``"1"``,
    ``"P"`` for a prediction: the answer keys in the teachers' guides number them so), its text in each language
    and, for a choice or a prediction, each option's text in each language."""

    lesson: str
    key: str
    kind: str
    label: str
    prompts: Mapping[str, str]
    options: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    percent: bool = False

    @property
    def graded(self) -> bool:
        """Whether answers are marked right or wrong."""
        return self.kind in GRADED_KINDS

    def prompt(self, lang: str) -> str:
        """The question in ``lang``."""
        return self.prompts.get(lang) or next(iter(self.prompts.values()))

    def option_of(self, answer: str) -> str | None:
        """The option id whose text (in any language) is ``answer``, or None."""
        key = _norm(answer)
        for option, texts in self.options.items():
            if any(_norm(text) == key for text in texts.values()):
                return option
        return None


@dataclass(frozen=True)
class Known:
    """Every lesson's questions: by key, by text (in both languages), and in each lesson's order."""

    by_key: Mapping[str, QuestionInfo]
    by_text: Mapping[str, QuestionInfo]
    order: Mapping[str, Sequence[str]]
    numbers: Mapping[str, str]
    forecast: Sequence[re.Pattern[str]]


@cache
def known_questions() -> Known:
    """The questions of every lesson, from the question banks and the catalogs (as the lessons ask them).

    >>> k = known_questions()
    >>> k.by_key["quiz.compass.first_roll"].kind, k.numbers["pathing"]
    ('choice', '02')
    >>> k.by_text[_norm(k.by_key["predict.compass.long_run"].prompt("zh-TW"))].key
    'predict.compass.long_run'
    """
    from .ui.lessons.answers import LESSON_BANKS, forecast_rows, lesson_questions

    infos: list[QuestionInfo] = []
    numbers = {lesson: number for number, lesson in LESSON_BANKS}
    predict = re.compile(r"lesson\.predict\.(\w+)\.(\w+)\.prompt")
    for lesson in numbers:  # a lesson's prediction comes before its quiz
        for key in catalog("en"):
            m = predict.fullmatch(key)
            if m and m[1] == lesson:
                base = f"lesson.predict.{lesson}.{m[2]}"
                options = sorted(k.rsplit(".", 1)[1] for k in catalog("en") if re.fullmatch(rf"{re.escape(base)}\.[a-z]", k))
                infos.append(QuestionInfo(lesson, f"predict.{lesson}.{m[2]}", "prediction", "P",
                                          {lang: t(f"{base}.prompt", lang) for lang in LANGS},
                                          {o: {lang: t(f"{base}.{o}", lang) for lang in LANGS} for o in options}))
        by_lang = {lang: lesson_questions(lesson, lang) for lang in LANGS}
        for k, q in enumerate(by_lang["en"]):
            asked = {lang: qs[k] for lang, qs in by_lang.items()}
            infos.append(QuestionInfo(lesson, q.key, q.kind, str(q.number), {lang: a.prompt for lang, a in asked.items()},
                                      {o: {lang: a.options[o] for lang, a in asked.items()} for o in q.options},
                                      q.percent))
        if lesson == "forecast":  # the forecast rows, by the storm and the lead (a key the same in both languages)
            rows = {lang: forecast_rows(lang) for lang in LANGS}
            infos += [QuestionInfo(lesson, key, "forecast", "", {lang: rows[lang][k][1] for lang in LANGS})
                      for k, (key, _) in enumerate(rows["en"])]
    by_text: dict[str, QuestionInfo] = {}
    for info in infos:
        for text in info.prompts.values():
            by_text.setdefault(_norm(text), info)
    forecast = [re.compile(re.escape(_norm(template("lesson.forecast.csv_forecast", lang))).replace(r"\{storm\}", ".+")
                           .replace(r"\{h\}", r"\d+")) for lang in LANGS]
    order: dict[str, list[str]] = defaultdict(list)
    for info in infos:
        order[info.lesson].append(info.key)
    return Known({i.key: i for i in infos}, by_text, dict(order), numbers, forecast)


def _lesson_of_text(question: str) -> str | None:
    """The lesson a question's text belongs to (a known question, or one of lesson 07's forecasts), or None."""
    known = known_questions()
    info = known.by_text.get(_norm(question))
    if info is not None:
        return info.lesson
    if any(p.fullmatch(_norm(question)) for p in known.forecast):
        return "forecast"
    return None


@cache
def _notebook_titles(lang: str) -> dict[str, str]:
    from .lessonbook import LessonsError, lesson_title, shipped_lessons

    try:
        return {p.name[:2]: lesson_title(p) for p in shipped_lessons(lang)}
    except (LessonsError, OSError):  # an installation without the notebooks: numbers only
        return {}


def lesson_title(lesson: str, lang: str = "en") -> str:
    """The lesson's title as its notebook says it (``Lesson 01 · Compass rolls``), in ``lang``.

    >>> lesson_title("compass", "zh-TW"), lesson_title("tides", "en"), lesson_title("", "en")
    ('第 01 課 · 方位羅盤擲骰', 'Lesson “tides”', 'Lesson not known')
    """
    if not lesson:
        return _lt("lesson_unknown", lang)
    number = known_questions().numbers.get(lesson)
    if number is None:
        return _lt("lesson_other", lang, lesson=lesson)
    return _notebook_titles(lang).get(number) or _lt("lesson_number", lang, number=number)


# ------------------------------------------------------------------------------------------------ reading
@dataclass(frozen=True)
class Answer:
    """One answer (or prediction) a student handed in.

    ``result`` is ``right``, ``wrong``, ``free`` or ``prediction``; ``later`` marks a right answer the file
    itself says came on a later try; ``key`` is the question's key when it is a known question (else ``""``);
    ``value`` is the option id of a choice or a prediction when it is known. ``device`` is the class server's
    device tag of the file it came from (or of the server's copy of it); ``seconds`` is False when the file gave the
    time to the minute only (a spreadsheet re-saved it); ``copies`` are the other files the same answer was in
    (:func:`merge`); ``typed`` is the name as typed when ``student`` was made distinct (``Ann (2)``).
    """

    student: str
    lesson: str
    question: str
    answer: str
    result: str
    when: datetime
    key: str = ""
    value: str = ""
    observed: str = ""
    matched: bool | None = None
    later: bool = False
    source: str = ""
    device: str = ""
    seconds: bool = True
    copies: tuple[str, ...] = ()
    typed: str = ""

    @property
    def group(self) -> str:
        """The question this answer counts under: its key, else its text."""
        return self.key or "?" + _norm(self.question)

    @property
    def identity(self) -> tuple[str, str, str, str, str]:
        """What makes two answers the same answer handed in twice (see the module's notes)."""
        return (_norm(self.student), self.lesson, _norm(self.question), _norm(self.answer),
                self.when.isoformat(sep=" "))

    @property
    def minute_identity(self) -> tuple[str, str, str, str, str]:
        """:attr:`identity` with the time to the minute: what an answer whose file lost the seconds is matched on."""
        return (_norm(self.student), self.lesson, _norm(self.question), _norm(self.answer),
                self.when.replace(second=0, microsecond=0).isoformat(sep=" "))


@dataclass(frozen=True)
class Problem:
    """A file or folder left out (or partly read): ``key`` is an ``answers.problem.*`` catalog key."""

    path: str
    key: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lang: str) -> str:
        """What went wrong, in ``lang``.

        >>> Problem("x.csv", "not_answers").text("zh-TW")
        'x.csv：不是作答檔（第一行不是作答表的標題列）'
        """
        fields = {k: os_reason(v, lang) if isinstance(v, OSError) else v for k, v in self.fields.items()}
        return _visible(_lt("problem.line", lang, path=self.path, reason=_lt(f"problem.{self.key}", lang, **fields)))


class NotAnswers(ValueError):
    """A file that is not an answers file: ``key`` is an ``answers.problem.*`` catalog key."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


@cache
def _header_words() -> dict[str, str]:
    """Every language's CSV column title -> column."""
    return {_norm(t(f"lesson.common.csv_{c}", lang)): c for lang in LANGS for c in COLUMNS}


@cache
def _result_words() -> dict[str, str]:
    """Every language's result word -> (result, later?)."""
    return {_norm(t(f"lesson.common.csv_{w}", lang)): w for lang in LANGS for w in RESULT_WORDS}


@cache
def _matched_words() -> dict[str, bool]:
    return {_norm(t(f"lesson.common.csv_matched_{w}", lang)): w == "yes" for lang in LANGS for w in ("yes", "no")}


_SECONDS = re.compile(r"\d:\d\d:\d\d")
#: A time as the sheet writes it or a spreadsheet re-saves it: the date with the year first (``2026-12-07``,
#: ``2026/12/7``) or last (``12/7/2026``, ``7.12.2026``), then the clock, 24-hour or 12-hour (``9:05 AM``,
#: ``下午 02:05``, as a spreadsheet in Taiwan writes the afternoon).
_STAMP = re.compile(
    r"\s*(?:(?P<y>\d{4})(?P<ys>[-/.])(?P<m>\d{1,2})(?P=ys)(?P<d>\d{1,2})"
    r"|(?P<a>\d{1,2})(?P<s>[-/.])(?P<b>\d{1,2})(?P=s)(?P<year>\d{4}))"
    r"(?:\s*T\s*|\s*,?\s+)(?P<pre>上午|下午)?\s*(?P<H>\d{1,2}):(?P<M>\d\d)(?::(?P<S>\d\d)(?:[.,](?P<F>\d{1,6}))?)?"
    r"\s*(?P<post>[ap]\.?\s?m\.?|上午|下午)?\s*", re.IGNORECASE)
_AFTERNOON = ("p", "下午")


def _has_seconds(text: str) -> bool:
    """Whether a time's text gives the seconds (a spreadsheet that re-saves the file may drop them).

    >>> _has_seconds("2026-12-03 09:14:37"), _has_seconds("2026/12/3 09:14"), _has_seconds("12/3/2026 9:14:37 AM")
    (True, False, True)
    """
    return bool(_SECONDS.search(text))


def _valid(year: int, month: int, day: int) -> bool:
    try:
        datetime(year, month, day)
    except ValueError:
        return False
    return True


def _year_last(text: str) -> tuple[int, int, int] | None:
    """``(first, second, year)`` of a time whose date puts the year last with ``/`` or ``-`` (``12/7/2026``:
    month/day in the US, day/month in most other places), else None."""
    m = _STAMP.fullmatch(text)
    if m is None or m["a"] is None or m["s"] == ".":
        return None
    return int(m["a"]), int(m["b"]), int(m["year"])


@dataclass(frozen=True)
class DateOrder:
    """How a file's year-last dates (``12/7/2026``) are read: ``order`` is ``mdy`` (month first, as in the US),
    ``dmy``, or ``""`` when the file's dates contradict each other (one can only be month/day, another only
    day/month: none of them is read). ``guessed`` is a date of the file that could be read either way when none of
    its dates tells which (it is read as month/day, and the summary says so), else ``""``.

    >>> DateOrder.of(["12/17/2026 9:05 AM", "12/7/2026 9:06 AM"]), DateOrder.of(["13/7/2026 0:05", "12/7/2026 23:59"])
    (DateOrder(order='mdy', guessed=''), DateOrder(order='dmy', guessed=''))
    >>> DateOrder.of(["12/7/2026 9:06 AM", "5/5/2026 9:07"]), DateOrder.of(["5/5/2026 9:07", "2026-12-07 09:06"])
    (DateOrder(order='mdy', guessed='12/7/2026'), DateOrder(order='mdy', guessed=''))
    >>> DateOrder.of(["13/12/2026 09:05", "12/14/2026 09:05"])
    DateOrder(order='', guessed='')
    """

    order: str = "mdy"
    guessed: str = ""

    @classmethod
    def of(cls, texts: Iterable[str]) -> DateOrder:
        """The reading of a file whose times are ``texts``: a date that can only be month/day (``12/17/2026``) or
        only day/month (``17/12/2026``) decides; a file without one is read as month/day."""
        mdy = dmy = False
        either = ""
        for text in texts:
            date = _year_last(text.strip())
            if date is None:
                continue
            a, b, year = date
            as_mdy, as_dmy = _valid(year, a, b), _valid(year, b, a)
            mdy |= as_mdy and not as_dmy
            dmy |= as_dmy and not as_mdy
            if as_mdy and as_dmy and a != b and not either:
                either = f"{a}/{b}/{year}"
        if mdy and dmy:
            return cls("")
        return cls("dmy" if dmy else "mdy", either if not (mdy or dmy) else "")


def _time(text: str, order: DateOrder = DateOrder()) -> datetime:
    """A time as the sheet writes it (ISO), or as a spreadsheet may have re-saved it: the year first
    (``2026/5/1 9:30``) or last, month/day or day/month as ``order`` reads the file's dates (``5/1/2026 9:30 AM``;
    with dots, ``1.5.2026 9:30``, always day/month), the clock 24-hour or 12-hour (``AM``/``PM``,
    ``上午``/``下午``).

    >>> _time("2026-05-01 09:30:00"), _time("2026/5/1 9:30"), _time("5/1/2026 9:30 AM")
    (datetime.datetime(2026, 5, 1, 9, 30), datetime.datetime(2026, 5, 1, 9, 30), datetime.datetime(2026, 5, 1, 9, 30))
    >>> _time("1/5/2026 21:30", DateOrder("dmy")), _time("2026/5/1 下午 09:30:15")
    (datetime.datetime(2026, 5, 1, 21, 30), datetime.datetime(2026, 5, 1, 21, 30, 15))
    >>> _time("1.5.2026 12:05 a.m."), _time("2026/5/1 上午 12:05")
    (datetime.datetime(2026, 5, 1, 0, 5), datetime.datetime(2026, 5, 1, 0, 5))
    """
    text = text.strip()
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    m = _STAMP.fullmatch(text)
    if m is None or (m["pre"] and m["post"]):
        raise ValueError(f"not a time: {text!r}")
    if m["y"] is not None:
        year, month, day = int(m["y"]), int(m["m"]), int(m["d"])
    elif m["s"] == "." or order.order == "dmy":
        year, month, day = int(m["year"]), int(m["b"]), int(m["a"])
    elif order.order == "mdy":
        year, month, day = int(m["year"]), int(m["a"]), int(m["b"])
    else:
        raise ValueError(f"a date of a file whose dates are month/day and day/month: {text!r}")
    hour, noon = int(m["H"]), (m["pre"] or m["post"] or "").lower()
    if noon:
        if not 1 <= hour <= 12:
            raise ValueError(f"not a 12-hour time: {text!r}")
        hour = hour % 12 + (12 if noon.startswith(_AFTERNOON) else 0)
    micro = int((m["F"] or "0").ljust(6, "0"))
    return datetime(year, month, day, hour, int(m["M"]), int(m["S"] or 0), micro)


def _utf8_tally(data: bytes) -> tuple[int, int, int]:
    """How ``data`` reads as UTF-8: its characters beyond ASCII that are UTF-8, its runs of bytes that are not, and
    the lines that have such runs.

    >>> _utf8_tally("大,é\\ufffd".encode()), _utf8_tally("簡小明\\n羅\\n".encode("cp950")), _utf8_tally(b"abc")
    ((3, 0, 0), (2, 3, 1), (0, 0, 0))
    """
    good = bad = lines = 0
    for line in data.split(b"\n"):
        text = line.decode("utf-8", "replace")
        runs = text.count("\ufffd") - line.count("\ufffd".encode())  # a replacement character written in the file
        good += sum(1 for c in text if c > "\x7f") - runs
        bad += runs
        lines += runs > 0
    return good, bad, lines


def _is_text(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _big5_or_damaged(raw: bytes, error: UnicodeDecodeError) -> str:
    """Whether ``raw`` (no byte-order mark, no NUL byte), which stops being UTF-8 at ``error``, is ``big5``, is
    ``not_text`` (neither), or is UTF-8 ``damaged`` there (:func:`_decode`).

    Some Big5 characters are UTF-8 too (簡, 羅, 蘇 are ``C2 B2``, ``C3 B9``, ``C4 AC``) but seldom the name's next one:
    read as UTF-8, a Big5 file has bytes that are not UTF-8 on every line with a Chinese name (a download repeats the
    name on each line), or at least one run of them for every three characters beyond ASCII that are UTF-8. A UTF-8
    file with a stray byte is not UTF-8 in one line only, among all its characters (and its Chinese is seldom Big5
    throughout); one broken off inside its last character is UTF-8 up to there. A file that is not Big5 either is
    ``not_text`` when nothing before ``error`` and little after it is UTF-8 (say, Latin-1), else ``damaged``.

    >>> big5, stray = "name\\n羅婷\\n羅婷\\n".encode("cp950"), "Zoë\\nJosé\\n".encode() + b"\\xa4M\\n" + "Zoë\\nJosé\\n".encode()
    >>> [_big5_or_damaged(b, UnicodeDecodeError("utf-8", b, 0, 1, "x")) for b in (big5, stray, b"\\xe9\\n")]
    ['big5', 'damaged', 'not_text']
    """
    if error.reason == "unexpected end of data" and error.end == len(raw):
        return "damaged"
    good, bad, lines = _utf8_tally(raw)
    if _is_text(raw, "cp950"):
        return "big5" if good < 3 * bad or lines > 1 else "damaged"
    return "not_text" if good < bad and not any(b >= 0x80 for b in raw[:error.start]) else "damaged"


def _decode(raw: bytes) -> tuple[str, int]:
    """A file's text: UTF-8 (with or without a byte-order mark), UTF-16 with its byte-order mark (a spreadsheet's
    "Unicode Text"), else Big5 (a spreadsheet in Taiwan saves so); and ``0``, or the line where a damaged UTF-8 file
    stops being text (a NUL byte, or bytes that are not UTF-8: a download broken off, a bad copy). Of a damaged file,
    only the whole lines before that line are returned; a file that is none of these is :class:`NotAnswers`. A file
    without a byte-order mark or NUL byte that is Big5 throughout is Big5 unless it reads as UTF-8 damaged in one
    place (:func:`_big5_or_damaged`), even when its first Chinese characters are UTF-8 too (簡 is ``C2 B2`` in Big5).

    >>> _decode("名,Q\\n".encode("utf-16")), _decode("名".encode("cp950")), _decode("n\\n簡小明\\n".encode("cp950"))
    (('名,Q\\n', 0), ('名', 0), ('n\\n簡小明\\n', 0))
    >>> _decode(b"\\xef\\xbb\\xbfa,b\\n\\xe5\\xa4\\xa7,c\\n\\xe5\\x00\\x00x")  # cut inside a character, then NUL bytes
    ('a,b\\n大,c\\n', 3)
    >>> _decode("a,b\\n大,c\\n大".encode()[:-1])  # broken off inside its last character
    ('a,b\\n大,c\\n', 3)
    """
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16"), 0
        except UnicodeDecodeError:
            raise NotAnswers("not_text") from None
    body = raw.removeprefix(b"\xef\xbb\xbf")
    nul = body.find(b"\x00")  # a text file has none
    try:
        body[:nul if nul >= 0 else len(body)].decode("utf-8")
        bad = nul
    except UnicodeDecodeError as exc:
        bad = exc.start
        if body is raw:  # no byte-order mark says it is UTF-8: Big5, or not text?
            if nul < 0:
                verdict = _big5_or_damaged(raw, exc)
            else:  # a NUL byte: damaged, or not text from its first character beyond ASCII on
                ascii_before = not any(b >= 0x80 for b in raw[:bad])
                verdict = "not_text" if ascii_before and not _is_text(raw, "cp950") else "damaged"
            if verdict == "big5":
                return raw.decode("cp950"), 0
            if verdict == "not_text":
                raise NotAnswers("not_text") from None
    if bad < 0:
        return body.decode("utf-8"), 0
    good = body[:body.rfind(b"\n", 0, bad) + 1]  # the whole lines before the damage
    if not good.strip():
        raise NotAnswers("not_text")
    return good.decode("utf-8"), good.count(b"\n") + 1


def _lesson_from_name(name: str) -> str:
    """The lesson a download's file name says (``Mei-compass-answers (1).csv`` -> ``compass``), or ``""``.

    >>> _lesson_from_name("Mei-compass-answers (1).csv"), _lesson_from_name("compass-answers.csv"), _lesson_from_name("x.csv")
    ('compass', 'compass', '')
    """
    stem = re.sub(r"\s*\(\d+\)$", "", Path(name).stem)
    for lesson in known_questions().numbers:
        if stem == f"{lesson}-answers" or stem.endswith(f"-{lesson}-answers"):
            return lesson
    return ""


def _no_name(source: str) -> str:
    return f"({_clean(Path(source).name, 255)})"


_NUMBER = r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?"


@cache
def _forecast_answers() -> tuple[re.Pattern[str], ...]:
    """Lesson 07's forecast answer (``lesson.forecast.csv_forecast_answer``) in each language, as :func:`_norm`
    writes it, with its four numbers as named groups."""
    fields = ("lat", "lon", "km", "typical")
    out = []
    for lang in LANGS:
        pattern = re.escape(_norm(t("lesson.forecast.csv_forecast_answer", lang, **{f: f"{{{f}}}" for f in fields})))
        for f in fields:
            pattern = pattern.replace(rf"\{{{f}\}}", rf"(?P<{f}>{_NUMBER})")
        out.append(re.compile(pattern))
    return tuple(out)


def _forecast_numbers(text: str) -> dict[str, str] | None:
    """The numbers of a forecast answer written in either language (where the guess was, how far off, the typical
    official error), or None for other text.

    >>> _forecast_numbers("北緯 22.6 度、東經 122 度，差 107 公里（官方預報約 69 公里）")
    {'lat': '22.6', 'lon': '122', 'km': '107', 'typical': '69'}
    >>> _forecast_numbers("22.6, 122")
    """
    key = _norm(text)
    return next((m.groupdict() for p in _forecast_answers() if (m := p.fullmatch(key))), None)


def _forecast_guess(value: str, answer: str) -> str:
    """Where a forecast answer put the storm, the same however it was written (``22.6,122``): from the value the
    lesson keeps (``22.6, 122``), else from the answer's text in either language; ``""`` if neither says.

    >>> _forecast_guess("", "22.60 °N, 122 °E — 107 km off (official forecasts: about 69 km)")
    '22.6,122'
    >>> _forecast_guess("22.6, 122.0", "x"), _forecast_guess("x", "y")
    ('22.6,122', '')
    """
    numbers = _forecast_numbers(answer)
    parts = value.split(",") if value else [numbers["lat"], numbers["lon"]] if numbers else []
    try:
        lat, lon = (float(p) for p in parts)
    except ValueError:
        return ""
    return f"{lat:g},{lon:g}"


def _with_question(answer: Answer) -> Answer:
    """``answer`` with its question's key and its option's id filled in, when the question is known (of lesson
    07's forecast, where the guess was: :func:`_forecast_guess`)."""
    known = known_questions()
    info = known.by_key.get(answer.key) if answer.key else None
    if info is None:
        info = known.by_text.get(_norm(answer.question))
        if info is not None and answer.lesson and info.lesson != answer.lesson:
            info = None
    if info is None:
        return replace(answer, key="")
    if info.kind == "forecast":
        value = _forecast_guess(answer.value, answer.answer)
    else:
        value = answer.value if answer.value in info.options else (info.option_of(answer.answer) or "")
    return replace(answer, key=info.key, lesson=info.lesson, value=value)


#: The longest first line looked at as a header (the answers table's and the summary table's are ~100 characters).
_HEADER_CHARS = 4096


def _delimiter(text: str) -> str:
    """How a CSV file's cells are separated: by commas, as the lessons write them, or by tabs (a spreadsheet's
    "Unicode Text") or semicolons (a spreadsheet where the comma is the decimal mark) when the first line read so
    is the answers table's header.

    >>> _delimiter("name;question;answer;right or wrong;when\\n"), _delimiter("姓名\\t題目\\t回答\\t對或錯\\t時間"), _delimiter("a;b")
    (';', '\\t', ',')
    """
    first = next((line for line in text.splitlines() if line.strip()), "")
    if len(first) > _HEADER_CHARS:  # no header is so long
        return ","
    for delimiter in (",", "\t", ";"):
        try:
            cells = next(csv.reader([first], delimiter=delimiter), [])
        except csv.Error:
            continue
        if {"question", "answer", "result"} <= {_header_words().get(_norm(cell)) for cell in cells}:
            return delimiter
    return ","


def parse_csv(text: str, source: str, *, notes: list[Problem] | None = None) -> tuple[list[Answer], int]:
    """The answers in a handed-in CSV file's ``text`` (``source``: its name), and how many rows could not be read.

    The header may be in either language and have five columns (before the prediction's two) or seven; the
    columns are found by their titles. A file without the question, answer and result columns is not an answers
    file (:class:`NotAnswers`). Its times may be as a spreadsheet re-saved them (:func:`_time`); when its
    dates could be month/day or day/month and none of them tells which (:class:`DateOrder`), they are read as
    month/day and a ``dates_month_first`` note is added to ``notes``.

    >>> rows, bad = parse_csv("姓名,題目,回答,對或錯,時間,觀察到的結果,預測和觀察\\n"
    ...                       "小美,Q?,東,再試才對,2026-05-01 09:30:00,,\\n小美,Q?,東,?,2026-05-01 09:31:00,,\\n", "a.csv")
    >>> [(a.result, a.later) for a in rows], bad
    ([('right', True)], 1)
    """
    lines: list[list[str]] = []
    broken = 0
    text = text.lstrip("\ufeff")
    try:  # strict: a file cut short inside a quoted cell (a download broken off) is an error, not a last row
        for row in csv.reader(io.StringIO(text), delimiter=_delimiter(text), strict=True):
            lines.append(row)
    except csv.Error:
        broken = 1  # the rest of the file: the rows read before it still count
    header = next((row for row in lines if any(cell.strip() for cell in row)), None)
    if header is None and broken:
        raise NotAnswers("damaged")
    columns = {_header_words().get(_norm(cell)): k for k, cell in enumerate(header or [])}
    if not {"question", "answer", "result"} <= set(columns):
        raise NotAnswers("not_answers")
    results, matched_words = _result_words(), _matched_words()
    out: list[Answer] = []
    bad = broken
    rows = lines[lines.index(header) + 1:] if header is not None else []
    file_lesson = _lesson_from_name(source)
    time_column = columns.get("time")
    dates = DateOrder.of(row[time_column] for row in rows if time_column is not None and time_column < len(row))

    def cell(row: list[str], column: str) -> str:
        k = columns.get(column)
        return as_typed(row[k]).strip() if k is not None and k < len(row) else ""

    for row in rows:
        if not any(c.strip() for c in row):
            continue
        word = results.get(_norm(cell(row, "result")))
        question = cell(row, "question")
        try:
            when = _time(cell(row, "time"), dates)
        except ValueError:
            word = None
        seconds = _has_seconds(cell(row, "time"))
        matched_text = _norm(cell(row, "matched"))
        if word is None or not question or (matched_text and matched_text not in matched_words):
            bad += 1
            continue
        name = _clean(cell(row, "name")) or _no_name(source)
        out.append(Answer(name, "", question, cell(row, "answer"), RESULT_WORDS[word], when,
                          observed=cell(row, "observed"), matched=matched_words.get(matched_text),
                          later=word == "right_later", source=source, seconds=seconds))
    # the file's lesson: the one its known questions belong to, else the one its name says
    if broken and not out:
        raise NotAnswers("damaged")
    if dates.guessed and out and notes is not None:
        read = _time(dates.guessed + " 0:00", dates)
        other = _time(dates.guessed + " 0:00", DateOrder("dmy"))
        notes.append(Problem(source, "dates_month_first", {"example": dates.guessed, "read": f"{read:%Y-%m-%d}",
                                                           "other": f"{other:%Y-%m-%d}"}))
    lessons = Counter(filter(None, (_lesson_of_text(a.question) for a in out)))
    lesson = lessons.most_common(1)[0][0] if lessons else file_lesson
    return [_with_question(replace(a, lesson=_lesson_of_text(a.question) or lesson)) for a in out], bad


def parse_json(text: str, source: str) -> tuple[list[Answer], int]:
    """The answers in a lesson's ``answers/<name>-<lesson>.json`` file (``source``: its name), and how many of its
    entries could not be read; :class:`NotAnswers` for a file of another kind.

    >>> import json
    >>> doc = {"format": 1, "lesson": "compass", "student": "Mei", "entries": [
    ...     {"key": "k", "question": "Q?", "answer": "E", "result": "right", "when": "2026-05-01 09:30:00"}, {"x": 1}]}
    >>> rows, bad = parse_json(json.dumps(doc), "Mei-compass.json")
    >>> [(a.student, a.lesson, a.answer) for a in rows], bad
    ([('Mei', 'compass', 'E')], 1)
    """
    from .ui.quiz import NotAnswersFile, answers_file_name, file_stem, read_answers

    try:
        read = read_answers(text)
    except NotAnswersFile:
        raise NotAnswers("not_answers_json") from None
    except ValueError:
        raise NotAnswers("bad_json") from None
    named, device, lesson = answers_file_name(Path(source).name, read.lesson)
    lesson = read.lesson or lesson
    if read.student and named.casefold() != file_stem(read.student).casefold():
        device = ""  # a file renamed: its name's tag may not be the device it was saved from
    student = _clean(read.student) or _no_name(source)
    out = [_with_question(Answer(student, lesson, e.question, e.answer, e.result, e.when, key=e.key, value=e.value,
                                 observed=e.observed, matched=e.matched, source=source, device=device))
           for e in read.entries]
    bad = read.unreadable
    return out, bad


@dataclass
class Reading:
    """What :func:`read_paths` found: the answers, the files they came from, what was left out and why, and
    what the summary says of how a file was read (``notes``: files whose dates were read as month/day though
    they could be day/month); the files passed over as known not to hold answers, said in one line each kind:
    ``lesson_notebooks`` (the lessons' own notebooks in a lesson folder: :func:`_lesson_folder`) and ``tables``
    (a table this command wrote with ``--csv``: :func:`_is_summary_table`)."""

    answers: list[Answer] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    lesson_notebooks: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)


#: The files read as answers files: the lessons' downloads (``.csv``) and answers files (``.json``), and a
#: spreadsheet's tab-separated saves (``.txt``, ``.tsv``: read when they hold the answers table).
READ_SUFFIXES = (".csv", ".json", ".tsv", ".txt")
#: Files named with the reason they are not read (``answers.problem.<reason>``): a spreadsheet's own files, archives
#: and notebooks; any other file is ``other_kind``.
LEFT_OUT_SUFFIXES = {**dict.fromkeys((".xlsx", ".xlsm", ".xls", ".ods", ".numbers"), "spreadsheet"),
                     **dict.fromkeys((".zip", ".7z", ".rar", ".tar", ".gz", ".tgz"), "archive"), ".ipynb": "notebook"}
#: How deep the folders inside a folder given are looked into (a learning platform's download puts each student's
#: file in a folder of its own, perhaps inside a folder of the assignment), how many answers files of a folder given
#: are read at most (:func:`_fair_share` chooses which, when there are more), and how many files are looked at.
MAX_DEPTH = 4
MAX_FILES = 2000
MAX_LISTED = 20_000
#: Folders and files not looked at: hidden ones (names starting with a dot, as a save's temporary files), a
#: spreadsheet's lock files (``~$``), and what systems add (a Mac's archive folder, Windows' thumbnails).
_NOT_LOOKED_AT = re.compile(r"^(?:\.|~\$)|^(?:__MACOSX|__pycache__|Thumbs\.db|desktop\.ini)$", re.IGNORECASE)


#: A lesson notebook's name (``01_compass_rolls.ipynb``, the copy's index ``00_index.ipynb``), as the lessons name them;
#: not a browser's second download of one (``01_compass_rolls (1).ipynb``: a student's, named with what to ask for).
_LESSON_NOTEBOOK = re.compile(r"\d\d_[^/\\()\s]+\.ipynb", re.IGNORECASE)


@cache
def _shipped_notebook_names() -> frozenset[str]:
    """The names of the lessons' notebooks as this version ships them (both languages' are the same), and of the
    index ``typhoon-edu lessons`` writes into a copy; only the index's name on an installation without them."""
    from .lessonbook import INDEX_NAME, LESSON_LANGS, LessonsError, shipped_lessons

    names = {INDEX_NAME}
    for lang in LESSON_LANGS:
        try:
            names.update(p.name for p in shipped_lessons(lang))
        except (LessonsError, OSError):
            pass
    return frozenset(names)


def _lesson_folder(where: Path, names: Iterable[str]) -> bool:
    """Whether ``where`` (holding files ``names``) is a folder of the lessons: a copy ``typhoon-edu lessons`` made
    (its record of what it copied, or its index notebook) or a folder with two of the lessons' notebooks or more, as
    shipped and unchanged (the package's or the repository's own, a newer version's copy: two lessons a student ran
    and downloaded hold their outputs, and are named). Its lesson notebooks are then passed over in one line
    of the summary; a notebook elsewhere (a student handed in a notebook instead of the download) is named, with
    what to ask for.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _lesson_folder(folder, ["01_compass_rolls.ipynb"]), _lesson_folder(folder, ["00_index.ipynb", "x.csv"])
    (False, True)
    >>> _lesson_folder(folder, ["01_compass_rolls.ipynb", "02_grid_pathing.ipynb"])  # no such files there
    False
    """
    from .lessonbook import INDEX_NAME, MANIFEST_NAME

    names = [n for n in names if _LESSON_NOTEBOOK.fullmatch(n)]
    if INDEX_NAME in names or (where / MANIFEST_NAME).is_file():
        return True
    return sum(1 for n in names if n in _shipped_notebook_names() and _shipped_copy(where / n)) >= 2


@cache
def _shipped_digests() -> frozenset[str]:
    """The SHA-256 of each lesson notebook this version ships (both languages)."""
    from .lessonbook import LESSON_LANGS, LessonsError, shipped_lessons

    found: set[str] = set()
    for lang in LESSON_LANGS:
        try:
            found.update(hashlib.sha256(p.read_bytes()).hexdigest() for p in shipped_lessons(lang))
        except (LessonsError, OSError):
            pass
    return frozenset(found)


def _shipped_copy(path: Path) -> bool:
    """Whether the notebook at ``path`` is a lesson as shipped, unchanged (a copy of the lessons, not a student's
    download: one that was run holds its outputs)."""
    try:
        return path.stat().st_size <= 8 * 1024 * 1024 and hashlib.sha256(path.read_bytes()).hexdigest() in \
            _shipped_digests()
    except OSError:
        return False


def _answer_files(folder: Path, reading: Reading) -> list[Path]:
    """The files to read in ``folder`` and the folders in it (:data:`MAX_DEPTH` deep), each folder's files before its
    folders, by name: :data:`MAX_FILES` at most, chosen by :func:`_fair_share` when there are more (never the first by
    name: a device that made thousands of files named ``00000…`` would crowd out the class). Every other file is a
    problem of ``reading`` with the reason it is not read, and so is a folder that cannot be listed (the others' files
    are still read), a link to a folder (not followed), a folder too deep, the answers files left out (by device) and
    the files beyond :data:`MAX_LISTED`, not looked at; hidden files and folders (:data:`_NOT_LOOKED_AT`) are not
    looked at, and the lessons' own notebooks in a lesson folder (:func:`_lesson_folder`) are counted in
    ``reading.lesson_notebooks``, not named one by one.

    >>> import tempfile
    >>> top = Path(tempfile.mkdtemp()); (top / "Mei_1_file").mkdir(); (top / ".git").mkdir()
    >>> for name in ("Mei_1_file/Mei-compass-answers.csv", "Ann.xlsx", ".~lock.x#", ".git/x.csv"):
    ...     _ = (top / name).write_text("x")
    >>> reading = Reading()
    >>> [p.relative_to(top).as_posix() for p in _answer_files(top, reading)], [p.key for p in reading.problems]
    (['Mei_1_file/Mei-compass-answers.csv'], ['spreadsheet'])
    """
    found: list[Path] = []
    looked = 0

    def walk(where: Path, depth: int) -> None:
        nonlocal looked
        try:  # a folder of a million names is not listed whole
            entries = sorted(p for p in islice(where.iterdir(), MAX_LISTED + 1 - looked)
                             if not _NOT_LOOKED_AT.search(p.name))
        except OSError as exc:
            reading.problems.append(Problem(str(where), "os", {"reason": exc}))
            return
        folders = []
        lessons = _lesson_folder(where, (p.name for p in entries))
        for p in entries:
            if p.is_dir():
                folders.append(p)
                continue
            looked += 1
            if looked > MAX_LISTED:
                continue
            if p.suffix.lower() in READ_SUFFIXES or not p.exists():  # a dangling link: said when it is read
                found.append(p)
            elif lessons and _LESSON_NOTEBOOK.fullmatch(p.name):
                reading.lesson_notebooks.append(str(p))
            else:
                reading.problems.append(Problem(str(p), LEFT_OUT_SUFFIXES.get(p.suffix.lower(), "other_kind"),
                                                {"kind": p.suffix or p.name}))
        for p in folders:
            if looked > MAX_LISTED:
                return
            if p.is_symlink():
                reading.problems.append(Problem(str(p), "folder_link"))
            elif depth >= MAX_DEPTH:
                reading.problems.append(Problem(str(p), "too_deep", {"n": MAX_DEPTH}))
            else:
                walk(p, depth + 1)

    walk(folder, 0)
    if looked > MAX_LISTED:
        reading.problems.append(Problem(str(folder), "too_many_listed", {"n": MAX_LISTED}))
    chosen, left = _fair_share(found, MAX_FILES)
    by_device: dict[str, list[Path]] = defaultdict(list)
    for p in left:
        by_device[_device_of(p)].append(p)
    totals = Counter(_device_of(p) for p in found)
    for device, files in sorted(by_device.items(), key=lambda item: (item[0] == "", -len(item[1]), item[0])):
        names = ", ".join(p.name for p in files[:2])
        if device:
            reading.problems.append(Problem(str(folder), "flood", {"tag": device, "more": len(files),
                                                                   "total": totals[device], "names": names}))
        else:
            reading.problems.append(Problem(str(folder), "too_many", {"n": MAX_FILES, "more": len(files)}))
    return chosen


def _device_of(path: Path) -> str:
    """The class server's device tag in an answers file's name (``Mei-0123456789abcdef-compass.json``), else ``""``."""
    if path.suffix.lower() != ".json":
        return ""
    from .ui.quiz import answers_file_name

    return answers_file_name(path.name)[1]


def _fair_share(files: Sequence[Path], limit: int) -> tuple[list[Path], list[Path]]:
    """Of ``files``, the ``limit`` to read (in their order) and the ones left out, chosen device by device: every file
    without a device tag (a download, a file outside the class server) and each device's first file come first, then
    each device's second file, and so on (:func:`_device_of`), so the device with the most files is the one left out,
    whatever its files are named.

    >>> flood = [Path(f"{k:05}-{'f' * 16}-compass.json") for k in range(5)]
    >>> class_ = [Path("Mei-compass-answers.csv"), Path(f"Ann-{'a' * 16}-compass.json"), Path(f"Ann-{'a' * 16}-pathing.json")]
    >>> chosen, left = _fair_share(flood + class_, 5)
    >>> [p.name[:5] for p in chosen], len(left), {_device_of(p) for p in left} == {"f" * 16}
    (['00000', '00001', 'Mei-c', 'Ann-a', 'Ann-a'], 3, True)
    """
    if len(files) <= limit:
        return list(files), []
    seen: Counter[str] = Counter()
    rank: dict[Path, int] = {}
    for p in files:
        device = _device_of(p)
        rank[p] = seen[device] if device else 0
        seen[device] += 1
    keep = set(sorted(files, key=lambda p: rank[p])[:limit])  # stable: by name within a rank
    return [p for p in files if p in keep], [p for p in files if p not in keep]


def _real(path: Path) -> str:
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):
        return str(path)


#: The problems that say a file is not an answers file (of any other, it is or may be one: its name is said with
#: what was wrong in it).
_NOT_ANSWERS_FILE = frozenset({"not_answers", "not_answers_json"})


def read_paths(paths: Iterable[str | os.PathLike[str]], *, skip: Iterable[Path] = ()) -> Reading:
    """Read every answers file named in ``paths`` and in the folders named there, but the files of ``skip`` (the
    table this command writes); nothing raises: a file or folder that cannot be used is a :class:`Problem` of the
    result. A folder is said to hold no answers files (``empty_folder``) only when none of the files it holds of a
    kind read (:data:`READ_SUFFIXES`) is or may be one: each was found not to be an answers file, or there is none
    (a file that is one but holds no answer that could be read is named with what was wrong in it, not the folder).

    >>> reading = read_paths(["/no/such/folder"])
    >>> reading.answers, [p.text("en") for p in reading.problems]
    ([], ['/no/such/folder: there is no such file or folder'])
    """
    reading = Reading()
    skipped = {_real(Path(p)) for p in skip}
    seen = set(skipped)
    for given in paths:
        path = Path(given)
        folder = path.is_dir()
        files = _answer_files(path, reading) if folder else [path]
        read, tables, named = len(reading.files), len(reading.tables), len(reading.problems)
        held = False  # a file of the folder read already (given twice); not the table written nor the roster
        for file in files:
            real = _real(file)
            if real in seen:
                held = held or real not in skipped
                continue
            seen.add(real)
            _read_file(file, reading)
        held = held or len(reading.files) > read or len(reading.tables) > tables \
            or any(p.key not in _NOT_ANSWERS_FILE for p in reading.problems[named:])
        if folder and not held and not any(p.path == str(path) and p.key == "os" for p in reading.problems):
            reading.problems.append(Problem(str(path), "empty_folder"))
    return reading


#: The columns of the table ``--csv`` writes (``answers.csv.<column>``), in order.
TABLE_COLUMNS = ("student", "lesson", "number", "question", "answer", "result", "first", "time", "observed", "matched",
                 "file")


@cache
def _table_headers() -> tuple[tuple[str, ...], ...]:
    """The first six column titles of the ``--csv`` table in each language, as :func:`_norm` writes them."""
    return tuple(tuple(_norm(_lt(f"csv.{c}", lang)) for c in TABLE_COLUMNS[:6]) for lang in LANGS)


def _is_summary_table(text: str) -> bool:
    """Whether ``text`` is a table this command wrote (``--csv``, in either language, perhaps re-saved by a
    spreadsheet with tabs or semicolons): its first line is the table's header. It holds the answers of files read
    already, so it is never read as answers.

    >>> _is_summary_table("\\ufeffstudent,lesson,no.,question,answer,result,first try\\nMei,x\\n")
    True
    >>> _is_summary_table("學生\\t課程\\t題號\\t題目\\t回答\\t結果\\n"), _is_summary_table("name,question,answer,right or wrong\\n")
    (True, False)
    """
    first = next((line for line in text.lstrip("\ufeff").splitlines() if line.strip()), "")
    if len(first) > _HEADER_CHARS:  # a long first line (a JSON file on one line) is no table's header
        return False
    for delimiter in (",", "\t", ";"):
        try:
            cells = next(csv.reader([first], delimiter=delimiter), [])
        except csv.Error:
            continue
        if tuple(_norm(cell) for cell in cells[:6]) in _table_headers():
            return True
    return False


def _read_file(path: Path, reading: Reading) -> None:
    name = str(path)
    try:
        raw = read_bounded(path, MAX_FILE_BYTES)
    except OSError as exc:
        reading.problems.append(Problem(name, "os", {"reason": exc}))
        return
    if path.suffix.lower() in LEFT_OUT_SUFFIXES:  # named on the command line: a notebook, a spreadsheet's own file …
        reading.problems.append(Problem(name, LEFT_OUT_SUFFIXES[path.suffix.lower()], {"kind": path.suffix}))
        return
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")) and path.suffix.lower() in READ_SUFFIXES:
        reading.problems.append(Problem(name, "spreadsheet", {"kind": path.suffix}))  # an Excel file renamed
        return
    notes: list[Problem] = []
    cut = 0
    try:
        text, cut = _decode(raw)
        if _is_summary_table(text):  # a table of an earlier run (--csv) left in the folder
            reading.tables.append(name)
            return
        if text.lstrip("\ufeff \t\r\n").startswith(("{", "[")):
            answers, bad = parse_json(text, name)
        else:
            with _long_cells():  # a cell may be as long as the file (a pasted essay): read, not an error
                answers, bad = parse_csv(text, name, notes=notes)
    except NotAnswers as exc:
        reading.problems.append(Problem(name, "cut_all" if cut and exc.key != "not_answers" else exc.key,
                                        {**exc.fields, "line": cut}))
        return
    if cut:  # the answers before the damage are counted; the file is named with the line it stops at
        reading.problems.append(Problem(name, "cut" if answers else "cut_all", {"line": cut}))
    if not answers:
        if not cut:
            reading.problems.append(Problem(name, _one("unreadable_rows", bad) if bad else "empty", {"n": bad}))
        return
    if bad:
        reading.problems.append(Problem(name, _one("some_rows", bad), {"n": bad}))
    reading.notes += notes
    reading.answers += answers
    reading.files.append(name)


def _one(key: str, n: int) -> str:
    """``key`` of a count ``n`` (``some_rows_one`` when ``n`` is 1)."""
    return f"{key}_one" if n == 1 else key


def _combined(kept: Answer, copy: Answer) -> Answer:
    """One answer of two copies of it: the one that says what the student then observed, with the time to the
    second and the device if either copy has them, and the other copy's file among its ``copies``."""
    base = replace(copy, student=kept.student) if kept.matched is None and copy.matched is not None else kept
    timed = kept if kept.seconds or not copy.seconds else copy
    files = dict.fromkeys((kept.source, *kept.copies, copy.source, *copy.copies))
    return replace(base, when=timed.when, seconds=timed.seconds, device=kept.device or copy.device,
                   copies=tuple(f for f in files if f != base.source))


def merge(answers: Iterable[Answer]) -> tuple[list[Answer], int]:
    """The answers with every one handed in twice counted once (see the module's notes), in order of time, and how
    many were left out as repeats; students who typed the same name on two devices of the class server made
    distinct (:func:`_tell_apart`).

    Of two copies, the one that says what was observed is kept. An answer whose file gave the time to the minute
    only is the same as an answer of that minute (with the seconds), each copy of a file paired with one answer
    of the other; copies from two devices are never the same answer.

    >>> a = Answer("Mei", "compass", "Q?", "E", "prediction", datetime(2026, 5, 1, 9, 30, 12))
    >>> kept, repeats = merge([a, replace(a, student=" mei ", observed="14%", matched=True), replace(a, answer="W")])
    >>> [(x.answer, x.matched) for x in kept], repeats
    ([('E', True), ('W', None)], 1)
    >>> kept, repeats = merge([replace(a, when=datetime(2026, 5, 1, 9, 30), seconds=False, source="b.csv"), a])
    >>> [x.when.second for x in kept], repeats
    ([12], 1)
    """
    kept: list[Answer] = []
    exact: dict[tuple[str, ...], list[int]] = defaultdict(list)
    minute: dict[tuple[str, ...], list[int]] = defaultdict(list)
    paired: list[set[str]] = []  # per kept answer: the files a copy of it came from (each pairs with one only)
    repeats = 0
    for a in answers:

        def fits(k: int, a: Answer = a) -> bool:
            return not (a.device and kept[k].device and a.device != kept[k].device)

        same = next((k for k in exact.get(a.identity, ()) if a.seconds and fits(k)), None)
        if same is None:
            same = next((k for k in minute.get(a.minute_identity, ()) if fits(k) and a.source not in paired[k]
                         and not (a.seconds and kept[k].seconds)), None)
        if same is None:
            exact[a.identity].append(len(kept))
            minute[a.minute_identity].append(len(kept))
            kept.append(a)
            paired.append({a.source})
            continue
        repeats += 1
        paired[same].add(a.source)
        kept[same] = _combined(kept[same], a)
        if kept[same].seconds:
            exact[kept[same].identity].append(same)
    return sorted(_tell_apart(kept), key=lambda a: a.when), repeats


def _tell_apart(answers: Sequence[Answer]) -> list[Answer]:
    """``answers`` with their students told apart as the class server tells them: a name typed on two devices is
    two students (``Ann (1)``, ``Ann (2)``, by their first answer; ``typed`` keeps the name). A download's answers
    belong to the device whose file holds some of them, and a name typed on one device only is that device's
    student wherever its answers come from. A name known only from downloads (no device) is one student."""
    links: dict[tuple[str, str], set[str]] = defaultdict(set)  # (file, student) -> the devices of its answers
    for a in answers:
        if a.device:
            for source in (a.source, *a.copies):
                links[(source, _norm(a.student))].add(a.device)
    out = []
    for a in answers:
        if not a.device:
            devices = set().union(*(links.get((source, _norm(a.student)), set()) for source in (a.source, *a.copies)))
            if len(devices) == 1:
                a = replace(a, device=devices.pop())
        out.append(a)
    first_of: dict[str, dict[str, Answer]] = defaultdict(dict)  # student -> device -> its first answer
    for a in sorted(out, key=lambda a: a.when):
        if a.device:
            first_of[_norm(a.student)].setdefault(a.device, a)
    for k, a in enumerate(out):
        devices = first_of.get(_norm(a.student), {})
        if len(devices) == 1 and not a.device:  # the name's answers without a device are that device's
            out[k] = replace(a, device=next(iter(devices)))
        elif len(devices) > 1 and a.device:
            number = list(devices).index(a.device) + 1
            out[k] = replace(a, student=f"{devices[a.device].student} ({number})", typed=a.student)
        elif len(devices) > 1:  # a download of the name that holds none of either device's answers
            out[k] = replace(a, typed=a.student)
    return out


@dataclass(frozen=True)
class SameName:
    """Students a summary cannot tell apart, or told apart only by the class server's devices: ``kind`` is
    ``devices`` (the name typed on ``devices`` devices: ``names`` are the students it was made into) or ``files``
    (``files`` name-only files of ``lesson`` that share no answer carry the name)."""

    kind: str
    name: str
    names: tuple[str, ...] = ()
    devices: int = 0
    files: int = 0
    lesson: str = ""

    def text(self, lang: str) -> str:
        """The note, in ``lang``."""
        if self.kind == "devices":
            return _lt("same_devices", lang, name=self.name, n=self.devices, names=join_names(self.names, lang),
                       students=_count("people", len(self.names), lang))
        return _lt("same_files", lang, name=self.name, n=self.files, lesson=lesson_title(self.lesson, lang))


def same_names(answers: Sequence[Answer]) -> list[SameName]:
    """What the summary says of students' names: each name the class server kept apart on several devices, and
    each name that files without a device (downloads, a lesson's answers folder outside the class server) give in
    one lesson when the files share no answer, so they may be two students (or one who started afresh).

    >>> a = Answer("Mei", "compass", "Q?", "E", "right", datetime(2026, 5, 1, 9, 30), source="a.csv")
    >>> [n.text("en")[:51] for n in same_names([a, replace(a, answer="W", source="b.csv")])]
    ['“Mei”: 2 files that share no answer carry this name']
    >>> same_names([a, replace(a, answer="W", source="b.csv", copies=("a.csv",))])  # b.csv holds a.csv's answer too
    []
    """
    notes: list[SameName] = []
    made: dict[str, dict[str, Answer]] = defaultdict(dict)  # a name typed -> the students made of it -> an answer
    for a in sorted(answers, key=lambda a: (not a.device, a.when)):
        if a.typed:
            made[_norm(a.typed)].setdefault(a.student, a)
    for students in made.values():
        first = next(iter(students.values()))
        notes.append(SameName("devices", first.typed, tuple(students),
                              devices=sum(1 for a in students.values() if a.device)))
    groups: dict[tuple[str, str], list[tuple[str, ...]]] = defaultdict(list)
    for a in answers:
        if not a.device:
            groups[(a.lesson, _norm(a.student))].append((a.source, *a.copies))
    for (lesson, key), sources in groups.items():
        owner: dict[str, str] = {}  # union-find over the files: two files that share an answer are one sheet

        def root(x: str, owner: dict[str, str] = owner) -> str:
            while owner.setdefault(x, x) != x:
                x = owner[x]
            return x

        for files in sources:
            for other in files[1:]:
                owner[root(other)] = root(files[0])
        sheets = {root(f) for files in sources for f in files}
        if len(sheets) > 1:
            name = next(a.student for a in answers if not a.device and a.lesson == lesson and _norm(a.student) == key)
            notes.append(SameName("files", name, files=len(sheets), lesson=lesson))
    return notes


# ------------------------------------------------------------------------------------------------ the roster
#: The biggest roster read (a class list is a few kilobytes).
MAX_ROSTER_BYTES = 1024 * 1024
#: A roster's header cell over the names' column (as :func:`_norm` writes it), besides the answers files' own
#: titles of the name column (``lesson.common.csv_name``, ``answers.csv.student``) in every language.
ROSTER_HEADERS = frozenset({"name", "names", "student", "students", "student name", "full name", "姓名", "名字",
                            "學生", "學生姓名"})
#: Characters of Chinese (and other East Asian) names: such a name is matched exactly as written.
_EAST_ASIAN = re.compile("[\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
                         "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003ffff]")
#: A seat number before the name (``1``, ``01.``, ``１``).
_SEAT = re.compile(r"\d+\.?")
#: A seat number written before the name in the same cell or line (``1 Mei Chen``, ``01. 陳小美``, ``3、王大明``).
_SEAT_BEFORE = re.compile(r"\d{1,3}(?:[.)、:]\s*|\s+)(?=\D)")


def roster_key(name: str) -> str:
    """A name as the roster matches it: a name written in Chinese characters exactly as written, the spaces around
    it aside; any other name whatever its capitals, its width (``ＭＥＩ``, typed with a Chinese keyboard) and its
    spaces.

    >>> roster_key(" Mei  Chen "), roster_key("ＭＥＩ chen"), roster_key("MeiChen")
    ('meichen', 'meichen', 'meichen')
    >>> roster_key("\u3000陳小美 "), roster_key("陳 小美") == roster_key("陳小美")
    ('陳小美', False)
    """
    text = name.strip()
    if _EAST_ASIAN.search(text):
        return text
    return "".join(unicodedata.normalize("NFKC", text).split()).casefold()


class RosterError(ValueError):
    """A roster that cannot be used: ``key`` is an ``answers.err.*`` catalog key, said with ``fields``."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields

    def text(self, lang: str) -> str:
        """The error in ``lang``.

        >>> RosterError("roster_empty", path="class.txt").text("en")[:34]
        '--roster: class.txt holds no names'
        """
        fields = {k: os_reason(v, lang) if isinstance(v, OSError) else v for k, v in self.fields.items()}
        return _lt(f"err.{self.key}", lang, **fields)


@cache
def _roster_headers() -> frozenset[str]:
    return ROSTER_HEADERS | {_norm(t(key, lang)) for key in ("lesson.common.csv_name", "answers.csv.student")
                             for lang in LANGS}


def roster_names(text: str, suffix: str = ".txt") -> list[str]:
    """The names of a roster's ``text``, in its order, each once (the first spelling of names the roster matches
    as one: :func:`roster_key`). A CSV file (``suffix`` ``.csv``; cells separated by commas, semicolons or tabs)
    gives the column headed ``name`` / ``姓名`` (or ``student`` / ``學生`` …), else each row's first cell; a seat
    number before the name is passed over. Any other file gives a name per line (of a tab-separated one, the
    first cell). Blank lines and the spaces around a name are passed over.

    >>> roster_names("\\ufeff座號,姓名\\n1,陳小美\\n2, 王大明 \\n\\n3,陳小美\\n", ".csv")
    ['陳小美', '王大明']
    >>> roster_names("Name\\nMei Chen\\n  mei  chen\\nKai\\n"), roster_names("1\\tTom\\n2\\tAnn\\n")
    (['Mei Chen', 'Kai'], ['Tom', 'Ann'])
    >>> roster_names("1 Mei Chen\\n02. 陳小美\\n3、王大明\\n4) Ann\\n")  # the seat number in the same line
    ['Mei Chen', '陳小美', '王大明', 'Ann']
    """
    lines = [line for line in text.lstrip("\ufeff").splitlines() if line.strip()]
    if suffix.lower() in (".csv", ".tsv") or any("\t" in line for line in lines):
        first = lines[0] if lines else ""
        delimiter = "\t" if "\t" in first else ";" if ";" in first and "," not in first else ","
        rows = list(csv.reader(lines, delimiter=delimiter))
    else:
        rows = [[line] for line in lines]
    column = None
    if rows:
        headers = [k for k, cell in enumerate(rows[0]) if _norm(cell) in _roster_headers()]
        if headers:
            column, rows = headers[0], rows[1:]
    names: dict[str, str] = {}
    for row in rows:
        cells = [" ".join(cell.split()) for cell in row]
        if column is not None:
            name = cells[column] if column < len(cells) else ""
        else:
            name = next((c for c in cells if c and not _SEAT.fullmatch(unicodedata.normalize("NFKC", c))), "")
        seat = _SEAT_BEFORE.match(unicodedata.normalize("NFKC", name))
        if seat is not None:  # the seat number before the name, in the same cell
            name = unicodedata.normalize("NFKC", name)[seat.end():].strip()
        name = _clean(name)  # as the answers' names are read
        if name:
            names.setdefault(roster_key(name), name)
    return list(names.values())


@dataclass(frozen=True)
class Roster:
    """A class list (``--roster``): the file and its names (:func:`read_roster`)."""

    path: str
    names: tuple[str, ...]

    def keys(self) -> set[str]:
        """The names as they are matched (:func:`roster_key`)."""
        return {roster_key(name) for name in self.names}


def read_roster(path: str | os.PathLike[str]) -> Roster:
    """The roster in the file ``path``: UTF-8 (with or without a byte-order mark), UTF-16 with its mark (a
    spreadsheet's "Unicode Text") or Big5 (:func:`roster_names`); :class:`RosterError` for a file that cannot be read,
    is not text or holds no names.

    >>> import tempfile
    >>> file = Path(tempfile.mkdtemp()) / "class.txt"
    >>> _ = file.write_text("姓名\\n陳小美\\n王大明\\n", encoding="utf-16")
    >>> read_roster(file).names
    ('陳小美', '王大明')
    >>> read_roster(file.parent / "none.txt")
    Traceback (most recent call last):
    ...
    typhoon_edu.answers_cmd.RosterError: roster_read
    """
    try:
        raw = read_bounded(path, MAX_ROSTER_BYTES)
    except OSError as exc:
        raise RosterError("roster_read", path=path, reason=exc) from None
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):  # a spreadsheet's own file
        raise RosterError("roster_not_text", path=path)
    try:
        text, cut = _decode(raw)
    except NotAnswers:
        raise RosterError("roster_not_text", path=path) from None
    if cut:
        raise RosterError("roster_not_text", path=path)
    with _long_cells():
        names = roster_names(text, Path(path).suffix)
    if not names:
        raise RosterError("roster_empty", path=path)
    return Roster(str(path), tuple(names))


@dataclass(frozen=True)
class RosterCheck:
    """A lesson's answers against the roster: the roster's names with no answer to it (``missing``), and the names
    that handed answers in but are not on the roster (``unknown``: each with the missing name it may be a misspelling
    of, else ``""``)."""

    lesson: str
    total: int
    missing: tuple[str, ...]
    unknown: tuple[tuple[str, str], ...]


def check_roster(answers: Iterable[Answer], roster: Roster) -> dict[str, RosterCheck]:
    """Per lesson of ``answers``: who on ``roster`` handed nothing in, and which names are not on it. A name the class
    server kept apart on two devices (``Ann (1)``) is the name typed (``Ann``).

    >>> a = Answer("mei chen", "compass", "Q?", "E", "right", datetime(2026, 5, 1, 9, 30))
    >>> check = check_roster([a, replace(a, student="Tomm")], Roster("class.txt", ("Mei Chen", "Tom", "Ann")))
    >>> check["compass"].missing, check["compass"].unknown
    (('Tom', 'Ann'), (('Tomm', 'Tom'),))
    """
    import difflib

    handed: dict[str, dict[str, str]] = defaultdict(dict)  # lesson -> key -> the name as handed in
    for a in answers:
        name = a.typed or a.student
        handed[a.lesson].setdefault(roster_key(name), name)
    keys = roster.keys()
    out = {}
    for lesson, names in handed.items():
        missing = tuple(name for name in roster.names if roster_key(name) not in names)
        by_key = {roster_key(name): name for name in missing}
        unknown = []
        for key, name in sorted(names.items(), key=lambda item: _norm(item[1])):
            if key not in keys:
                close = difflib.get_close_matches(key, list(by_key), n=1, cutoff=0.6)
                unknown.append((name, by_key[close[0]] if close else ""))
        out[lesson] = RosterCheck(lesson, len(roster.names), missing, tuple(unknown))
    return out


def roster_lines(check: RosterCheck, lang: str = "en") -> list[str]:
    """What a lesson's summary says of the roster, in ``lang``.

    >>> roster_lines(RosterCheck("compass", 3, ("Tom", "Ann"), (("Tomm", "Tom"),)))
    ['No answers from 2 of the 3 on the roster: Tom and Ann', 'Not on the roster (1; a misspelt name?): “Tomm” (perhaps Tom)']
    """
    if check.missing:
        lines = [_lt("roster_missing", lang, n=len(check.missing), total=check.total,
                     names=join_names(check.missing, lang))]
    else:
        lines = [_lt("roster_all", lang, total=check.total)]
    if check.unknown:
        names = [_lt("roster_guess", lang, name=_lt("quoted", lang, text=name), guess=guess) if guess else
                 _lt("quoted", lang, text=name) for name, guess in check.unknown]
        lines.append(_lt("roster_unknown", lang, n=len(check.unknown), names=_lt("list_sep", lang).join(names)))
    return lines


# ------------------------------------------------------------------------------------------------ the summary
@dataclass
class QuestionStats:
    """One question's answers in one lesson."""

    key: str
    text: str
    kind: str
    label: str = ""
    answered: int = 0
    right_first: int = 0
    wrong: Counter[str] = field(default_factory=Counter)
    wrong_shown: dict[str, str] = field(default_factory=dict)
    spread: Counter[str] = field(default_factory=Counter)
    observed: int = 0
    matched: int = 0


@dataclass
class StudentStats:
    """One student's first tries in one lesson, and how many of the lesson's marked questions they did not answer."""

    name: str
    right_first: int = 0
    graded: int = 0
    missing: int = 0


@dataclass
class Lesson:
    """A lesson's summary: its questions in the lesson's order, and its students by name."""

    lesson: str
    questions: list[QuestionStats]
    students: list[StudentStats]


def _wrong_group(info: QuestionInfo | None, a: Answer) -> str:
    """What a wrong answer is grouped by: its option, its number or cell (however typed), where a forecast put the
    storm (in whichever language it was written), else its words."""
    if info is not None and info.kind == "forecast" and a.value:
        return "f:" + a.value
    if info is not None and a.value:
        return "o:" + a.value
    if info is not None and info.kind in ("number", "cell"):
        from .ui.quiz import parse_cell, parse_number, parse_percent

        try:
            if info.kind == "cell":
                return "c:{},{}".format(*parse_cell(a.answer))
            return f"n:{(parse_percent(a.answer) if info.percent else parse_number(a.answer)):.9g}"
        except ValueError:
            pass
    return "t:" + _norm(a.answer)


def _shown(info: QuestionInfo | None, group: str, written: str, lang: str) -> str:
    """A grouped answer as the teacher reads it: an option or a forecast in the teacher's language, a cell as
    ``(x, y)``."""
    if info is not None and group.startswith("o:") and group[2:] in info.options:
        return info.options[group[2:]].get(lang) or written
    if group.startswith("f:") and (numbers := _forecast_numbers(written)) is not None:
        return t("lesson.forecast.csv_forecast_answer", lang, **numbers)
    if group.startswith("c:"):
        x, y = group[2:].split(",")
        return cell_label((int(x), int(y)), lang)
    if group.startswith("n:"):  # a number as the first student typed it, full-width digits (a zh-TW keyboard's) plain
        return unicodedata.normalize("NFKC", written).strip()
    return written


def summarise(answers: Sequence[Answer], lang: str = "en") -> list[Lesson]:
    """Per lesson (in the lessons' order): each question's numbers and each student's first tries; the texts of
    questions and options in ``lang`` where the question is known.

    >>> a = Answer("Mei", "compass", "", "W", "wrong", datetime(2026, 5, 1, 9, 30), key="quiz.compass.first_roll",
    ...            value="d")
    >>> lesson = summarise([a, replace(a, answer="E", value="c", result="right", when=datetime(2026, 5, 1, 9, 31))])[0]
    >>> q = lesson.questions[0]; (q.label, q.answered, q.right_first, sum(q.wrong.values()))
    ('1', 1, 0, 1)
    """
    known = known_questions()
    by_lesson: dict[str, list[Answer]] = defaultdict(list)
    for a in answers:
        by_lesson[a.lesson].append(a)
    out = []
    for lesson in sorted(by_lesson, key=_lesson_order):
        given = sorted(by_lesson[lesson], key=lambda a: a.when)
        groups: dict[str, list[Answer]] = defaultdict(list)
        for a in given:
            groups[a.group].append(a)
        order = [k for k in known.order.get(lesson, ()) if k in groups] + [k for k in groups if k not in known.by_key]
        students: dict[str, StudentStats] = {}
        for a in given:
            students.setdefault(_norm(a.student), StudentStats(a.student))
        questions = []
        marked_by: dict[str, set[str]] = defaultdict(set)  # student -> the questions they gave a marked answer to
        for group in order:
            info = known.by_key.get(group)
            rows = groups[group]
            kind = info.kind if info is not None else ("prediction" if any(r.result == "prediction" for r in rows) else
                                                       "choice" if any(r.result in GRADED for r in rows) else "text")
            text = info.prompt(lang) if info is not None else rows[0].question
            stats = QuestionStats(group, text, kind, info.label if info is not None else "")
            per_student: dict[str, list[Answer]] = defaultdict(list)
            for r in rows:
                per_student[_norm(r.student)].append(r)
            stats.answered = len(per_student)
            for who, mine in per_student.items():
                marked = [r for r in mine if r.result in GRADED]
                if marked:
                    first_right = marked[0].result == "right" and not marked[0].later
                    stats.right_first += first_right
                    students[who].graded += 1
                    students[who].right_first += first_right
                    marked_by[who].add(group)
                    # the wrong answers on the way to the first right one (a wrong answer after it, as of another
                    # student who typed the same name, is not one of this student's tries: see the module's notes)
                    tries = list(takewhile(lambda r: r.result != "right", marked))
                    for r in {_wrong_group(info, r): r for r in reversed(tries)}.items():
                        stats.wrong[r[0]] += 1
                        stats.wrong_shown.setdefault(r[0], _shown(info, r[0], r[1].answer, lang))
                predictions = [r for r in mine if r.result == "prediction"]
                if predictions:
                    last = predictions[-1]
                    stats.spread["o:" + last.value if last.value else "t:" + last.answer] += 1
                    if last.matched is not None:
                        stats.observed += 1
                        stats.matched += last.matched
            questions.append(stats)
        # "not answered": the lesson's own marked questions (not lesson 07's forecast rows, which depend on the
        # storm each student chose, nor a question of another version); of a lesson not known, every marked one
        asked = [k for k in known.order.get(lesson, ()) if known.by_key[k].graded] or \
            [q.key for q in questions if q.kind in GRADED_KINDS]
        for who, s in students.items():
            s.missing = sum(1 for k in asked if k not in marked_by[who])
        out.append(Lesson(lesson, questions, sorted(students.values(), key=lambda s: _norm(s.name))))
    return out


def _width(text: str) -> int:
    """Terminal columns ``text`` takes (a Chinese character two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _clip(text: str, width: int) -> str:
    """``text`` shortened to ``width`` terminal columns with an ellipsis.

    >>> _clip("abcdef", 4), _clip("颱風不要來", 6), _clip("abc", 9)
    ('abc…', '颱風…', 'abc')
    """
    text = " ".join(text.split())
    if _width(text) <= width:
        return text
    out = ""
    for ch in text:
        if _width(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "–"


def _count(what: str, n: int, lang: str) -> str:
    """``n`` files, students, lessons … in ``lang`` (one file, two files).

    >>> _count("people", 1, "en"), _count("people", 3, "en"), _count("people", 3, "zh-TW")
    ('1 student', '3 students', '3 人')
    """
    return _lt(f"count.{what}_one" if n == 1 else f"count.{what}", lang, n=n)


def _people(n: int, lang: str) -> str:
    return _count("people", n, lang)


def summary_lines(lessons: Sequence[Lesson], reading: Reading, repeats: int, lang: str = "en",
                  names: Sequence[SameName] = (), roster: Roster | None = None,
                  checks: Mapping[str, RosterCheck] | None = None) -> list[str]:
    """The summary as the terminal shows it, in ``lang``: the files read and left out, the answers handed in twice,
    what ``names`` says of students' names (:func:`same_names`), then each lesson, with what ``checks`` says of it
    against the ``roster`` (:func:`check_roster`): who handed nothing in, and names not on the roster."""
    known = known_questions()
    students = {_norm(s.name) for lesson in lessons for s in lesson.students}
    lines = [_lt("head", lang, files=_count("files", len(reading.files), lang),
                 students=_count("students", len(students), lang), lessons=_count("lessons", len(lessons), lang))]
    lines += skipped_lines(reading, lang)
    if roster is not None:
        lines.append(_lt("roster_head", lang, path=roster.path, names=_count("names", len(roster.names), lang)))
    if reading.problems:
        lines += ["", _lt("problems_head", lang, n=len(reading.problems))]
        lines += ["  - " + p.text(lang) for p in reading.problems]
    if reading.notes:  # files whose dates were read as month/day, though they could be day/month
        lines += ["", _lt("dates_head", lang, n=len(reading.notes))]
        lines += ["  - " + _lt("dates_item", lang, path=n.path, **n.fields) for n in reading.notes]
        lines.append(_lt("dates_fix", lang, **reading.notes[0].fields))
    if repeats:
        lines += ["", _lt("repeats", lang, n=repeats)]
    if names:
        lines += ["", *(note.text(lang) for note in names)]
    for lesson in lessons:
        lines += ["", _lt("lesson_head", lang, title=lesson_title(lesson.lesson, lang),
                                  students=_count("students", len(lesson.students), lang))]
        for q in lesson.questions:
            label = f"{q.label}." if q.label else "·"
            lines.append(f"  {_pad(label, 3)} {_clip(q.text, 74)}")
            indent = "      "
            if q.kind == "prediction":
                info = known.by_key.get(q.key)
                options = ["o:" + o for o in info.options] if info is not None else []
                groups = options + [g for g in q.spread if g not in options]  # every option, even one nobody chose
                texts = [_clip(_shown(info, g, g[2:], lang), 44) for g in groups]
                width = max((_width(x) for x in texts), default=0)
                lines.append(indent + _lt("predictions", lang, answered=_people(q.answered, lang)))
                for g, text in zip(groups, texts, strict=True):
                    n = q.spread.get(g, 0)
                    lines.append(f"{indent}  {_pad(text, width)}  {n:>3}  {'█' * n}".rstrip())
                if q.observed:
                    lines.append(indent + _lt("matched", lang, matched=q.matched, observed=q.observed))
                if q.answered > q.observed:
                    lines.append(indent + _lt("not_observed", lang, n=q.answered - q.observed))
            elif q.kind == "text":
                lines.append(indent + _lt("free", lang, answered=_people(q.answered, lang)))
            else:
                lines.append(indent + _lt("sep", lang).join((
                    _lt("answered", lang, answered=_people(q.answered, lang)),
                    _lt("right_first", lang, n=q.right_first, percent=_percent(q.right_first, q.answered)))))
                if q.wrong:  # the most common wrong answer (two, when two are as common)
                    top = max(q.wrong.values())
                    common = [g for g, n in q.wrong.items() if n == top][:2]
                    words = _lt("or", lang).join(_lt("quoted", lang, text=_clip(q.wrong_shown[g], 50)) for g in common)
                    lines.append(indent + _lt("wrong_common", lang, answer=words, n=_people(top, lang)))
        if lesson.students:
            lines.append("  " + _lt("students_head", lang))
            width = max(_width(s.name) for s in lesson.students)
            for s in lesson.students:
                score = _lt("student_score", lang, right=s.right_first, graded=s.graded) if s.graded else \
                    _lt("student_none", lang)
                if s.missing:
                    score += _lt("student_missing", lang, n=s.missing)
                lines.append(f"    {_pad(s.name, width)}  {score}")
        if checks is not None and lesson.lesson in checks:
            lines += ["  " + line for line in roster_lines(checks[lesson.lesson], lang)]
    return [_visible(line) for line in lines]


def skipped_lines(reading: Reading, lang: str = "en") -> list[str]:
    """The files passed over as known not to hold answers, in ``lang``: the lessons' own notebooks in one line, and
    each table of an earlier ``--csv``.

    >>> skipped_lines(Reading(lesson_notebooks=["en/01_compass_rolls.ipynb"] * 8, tables=["class.csv"]))[0][:35]
    '8 lesson notebooks skipped (the les'
    """
    lines = []
    if reading.lesson_notebooks:
        n = len(reading.lesson_notebooks)
        lines.append(_lt(_one("skipped_notebooks", n), lang, n=n))
    lines += [_lt("skipped_table", lang, path=path) for path in reading.tables]
    return [_visible(line) for line in lines]


@dataclass(frozen=True)
class _SafeWriter:
    """A CSV writer whose every cell a spreadsheet shows as text, never as a formula (:func:`formula_safe`)."""

    writer: Any

    def writerow(self, cells: Iterable[str]) -> None:
        self.writer.writerow([formula_safe(str(cell)) for cell in cells])


def table_csv(answers: Sequence[Answer], lang: str = "en", roster: Roster | None = None) -> str:
    """Every answer in one table for a spreadsheet, in ``lang``: student, lesson, question number and text, answer,
    result, whether it is the student's first marked answer to that question, when, what was observed, and the
    file it came from (UTF-8 with a byte-order mark, so spreadsheet programs read Chinese right). With a ``roster``,
    a last column says whether the student is on it, and after each lesson's answers a row for each name on the
    roster with no answers to that lesson says so (its other cells empty).

    >>> a = Answer("Mei", "compass", "Q?", "E", "right", datetime(2026, 5, 1, 9, 30), source="a.csv")
    >>> table_csv([a]).splitlines()[1]
    'Mei,Lesson 01 · Compass rolls,,Q?,E,right,yes,2026-05-01 09:30:00,,,a.csv'
    """
    known = known_questions()
    out = io.StringIO()
    writer = _SafeWriter(csv.writer(out, lineterminator="\n"))
    writer.writerow([_lt(f"csv.{c}", lang) for c in TABLE_COLUMNS] + ([_lt("csv.roster", lang)] if roster else []))
    rows = sorted(answers, key=lambda a: (*_lesson_order(a.lesson), _norm(a.student), a.when))
    checks = check_roster(rows, roster) if roster is not None else {}
    keys = roster.keys() if roster is not None else set()
    marked: set[tuple[str, str, str]] = set()  # (student, lesson, question) given a marked answer already
    for k, a in enumerate(rows):
        info = known.by_key.get(a.key)
        mark = (_norm(a.student), a.lesson, a.group)
        again = mark in marked  # a marked answer after another one to the same question: not a first try
        first = "" if a.result not in GRADED else _lt("csv.no" if again else "csv.yes", lang)
        if a.result in GRADED:
            marked.add(mark)
        word = "right_later" if a.result == "right" and (a.later or again) else a.result
        matched = "" if a.matched is None else t(f"lesson.common.csv_matched_{'yes' if a.matched else 'no'}", lang)
        on_roster = [_lt("csv.roster_yes" if roster_key(a.typed or a.student) in keys else "csv.roster_no", lang)]
        writer.writerow([a.student, lesson_title(a.lesson, lang), info.label if info else "",
                         info.prompt(lang) if info else a.question, a.answer, t(f"lesson.common.csv_{word}", lang),
                         first, a.when.isoformat(sep=" "), a.observed, matched, a.source] + (on_roster if roster else []))
        if roster is not None and (k + 1 == len(rows) or rows[k + 1].lesson != a.lesson):  # the lesson's last answer
            for name in checks[a.lesson].missing:
                writer.writerow([name, lesson_title(a.lesson, lang)] + [""] * (len(TABLE_COLUMNS) - 2) +
                                [_lt("csv.roster_missing", lang)])
    return "\ufeff" + out.getvalue()


# ------------------------------------------------------------------------------------------------ the command
def add_parser(sub: Any, help_text: Any, lang: str = "en") -> argparse.ArgumentParser:
    """Add ``answers`` to ``typhoon-edu``'s subparsers (``help_text(key)`` gives a ``cli.help`` text; argument
    errors are said in ``lang``)."""
    from .argparse_lang import file_path, language

    p: argparse.ArgumentParser = sub.add_parser("answers", help=help_text("answers"),
                                                description=help_text("answers_description"))
    p.add_argument("paths", nargs="+", type=file_path(lang), metavar="FILE_OR_FOLDER", help=help_text("answers_paths"))
    p.add_argument("--csv", type=file_path(lang), default=None, metavar="OUT", help=help_text("answers_csv"))
    p.add_argument("--overwrite", action="store_true", help=help_text("answers_overwrite"))
    p.add_argument("--roster", type=file_path(lang), default=None, metavar="FILE", help=help_text("answers_roster"))
    p.add_argument("--lang", type=language(lang), default=None, help=help_text("answers_lang"))
    return p


def build_parser_for_tests(lang: str = "en") -> argparse.ArgumentParser:
    """A parser holding only ``answers`` (the doctests' and unit tests' own).

    >>> build_parser_for_tests().parse_args(["answers", "answers/", "--csv", "class.csv"]).csv.name
    'class.csv'
    """
    parser = argparse.ArgumentParser(prog="typhoon-edu")
    add_parser(parser.add_subparsers(dest="command"), lambda key: t(f"cli.help.{key}", lang), lang)
    return parser


def run(args: argparse.Namespace, lang: str, out: TextIO, err: TextIO | None = None) -> int:
    """Read the files and folders of ``args.paths``, print the summary in ``lang`` (checked against the class list
    ``args.roster``, when given: :func:`check_roster`) and write ``args.csv``; the exit code is 2 when the roster
    cannot be used (nothing is read or written then), nothing could be read or the table cannot be written, else 0.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "Mei-compass-answers.csv").write_text("name,question,answer,right or wrong,when\\n"
    ...                                                     "Mei,Q?,E,right,2026-05-01 09:30:00\\n")
    >>> buf = io.StringIO()
    >>> run(argparse.Namespace(paths=[folder], csv=None, overwrite=False), "en", buf), buf.getvalue().splitlines()[0]
    (0, 'Answers handed in: 1 file read, 1 student, 1 lesson.')
    """
    import sys

    err = err if err is not None else sys.stderr
    lang = normalize_lang(lang)

    def refuse(text: str) -> int:
        err.write(_visible(t("cli.err.prefix", lang, error=text)) + "\n")
        return 2

    table: Path | None = getattr(args, "csv", None)
    if table is not None and not getattr(args, "overwrite", False) and (table.exists() or table.is_symlink()):
        return refuse(_lt("err.csv_exists", lang, path=table))
    roster_path: Path | None = getattr(args, "roster", None)
    try:
        roster = read_roster(roster_path) if roster_path is not None else None
    except RosterError as exc:
        return refuse(exc.text(lang))
    reading = read_paths(args.paths, skip=[p for p in (table, roster_path) if p is not None])
    answers, repeats = merge(reading.answers)
    checks = check_roster(answers, roster) if roster is not None else None
    for line in summary_lines(summarise(answers, lang), reading, repeats, lang, same_names(answers), roster,
                              checks) if answers else \
            [p.text(lang) for p in reading.problems] + skipped_lines(reading, lang):
        out.write(_visible(line) + "\n")
    if not answers:
        return refuse(_lt("err.nothing", lang))
    if table is not None:
        try:
            atomic_write_text(table, table_csv(answers, lang, roster))
        except OSError as exc:
            return refuse(_lt("err.csv_write", lang, path=table, reason=os_reason(exc, lang)))
        out.write("\n" + _lt("csv_written_one" if len(answers) == 1 else "csv_written", lang, path=table, n=len(answers)) + "\n")
    return 0
