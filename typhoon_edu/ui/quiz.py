"""Check yourself: questions with instant feedback (right or wrong, and why) in the lesson's language.

A :class:`Question` is data: its kind (``"choice"``, ``"number"`` or ``"cell"``), its answer, and
the catalog keys of its texts (``lesson.quiz.<lesson>.<id>.prompt`` / ``.why`` / one key per
option). The question banks of the lessons are in :mod:`typhoon_edu.ui.lessons.bank`.
:func:`check` is pure and tested; :class:`Quiz` is the widget a notebook shows.

>>> q = Question("compass", "first_roll", "choice", answer="c", options=("a", "b", "c", "d"))
>>> fb = check(q, "c", "en")
>>> fb.correct, fb.verdict
(True, 'Right!')
>>> fb = check(q, "a", "zh-TW")
>>> fb.correct, fb.verdict, fb.expected
(False, '還差一點。', '東 (E)')
>>> n = Question("intensity", "moderate_five", "number", answer=20)
>>> check(n, "20", "en").correct, check(n, "21", "en").correct
(True, False)
"""

from __future__ import annotations

import base64
import csv
import io
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import i18n
from .guard import Problems

Cell = tuple[int, int]
KINDS = ("choice", "number", "cell")
RIGHT = "#15803d"
WRONG = "#b91c1c"


def _lt(key: str, lang: str, /, **fmt: Any) -> str:
    return i18n.t(f"lesson.{key}", lang, **fmt)


@dataclass(frozen=True)
class Question:
    """One check-yourself question.

    ``answer`` is an option id (choice), a number (number; ``tolerance`` allows rounding), or a
    cell ``(x, y)`` (cell). ``fmt`` fills placeholders of the prompt and of the why.
    ``percent``: the number is a share (0–1) that the student types as a percentage, with or
    without ``%`` (``57.5`` and ``57.5%`` both mean 0.575), and the answer is shown as one.
    ``board`` optionally draws a typhoon ``((x, y), level, direction)`` beside a cell question.
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
        return _format_number(float(self.answer))

    def text_keys(self) -> list[str]:
        """Every catalog key (with ``lesson.``) this question needs."""
        keys = [f"lesson.{self.key}.prompt", f"lesson.{self.key}.why"]
        keys += [f"lesson.{self.key}.{o}" for o in self.options]
        return keys


@dataclass(frozen=True)
class Feedback:
    """What a student sees after answering."""

    correct: bool
    verdict: str
    why: str
    expected: str
    problem: str = ""  # the answer could not be read (nothing is marked right or wrong)

    def html(self, lang: str = "en") -> str:
        """The feedback as HTML: a coloured verdict (with a ✔ or ✘, not colour alone) and the why."""
        if self.problem:
            return f"<div style='color:{WRONG};font-weight:bold'>{escape(self.problem)}</div>"
        colour, mark = (RIGHT, "✔") if self.correct else (WRONG, "✘")
        # "The answer is {answer}." around an answer that ends its own sentence ("No, never.") keeps one full stop
        expected = self.expected.rstrip(".。") if self.expected.endswith((".", "。")) else self.expected
        answer = "" if self.correct else " " + escape(_lt("common.answer_is", lang, answer=expected))
        return (f"<div style='border-left:6px solid {colour};padding:.2em .6em;margin:.2em 0;background:#f8fafc'>"
                f"<b style='color:{colour};font-size:1.1em'>{mark} {escape(self.verdict)}</b>{answer}"
                f"<div style='margin-top:.2em'>{escape(self.why)}</div></div>")


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


#: A unit a student may type after a number ("18 hours", "18 小時", "18h", "1,800 km"): letters, CJK, °.
_UNIT = re.compile(r"(?<=[\d%.])\s*[A-Za-z°\u3000-\u9fff]+\.?$")


def parse_number(text: Any, lang: str = "en") -> float:
    """A number typed by a student: ``12``, ``3.75``, ``1/7``, ``14%``, full-width digits, a ``,`` as
    thousands separator, and a unit after it (``18 hours``, ``18 小時``, ``18h``); ``ValueError`` (in
    ``lang``) otherwise.

    >>> parse_number("1/7") == 1 / 7, parse_number("１８００"), parse_number("1,800"), parse_number("50%")
    (True, 1800.0, 1800.0, 0.5)
    >>> parse_number("18 hours"), parse_number("18 小時"), parse_number("18h"), parse_number("1,800 km")
    (18.0, 18.0, 18.0, 1800.0)
    >>> parse_number("many")
    Traceback (most recent call last):
    ...
    ValueError: Type a number, for example 12, 3.5 or 1/7.
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    s = unicodedata.normalize("NFKC", str(text)).strip()
    s = _UNIT.sub("", s).replace(" ", "")
    s = re.sub(r"(?<=\d),(?=\d{3}\b)", "", s)
    percent = s.endswith("%")
    if percent:
        s = s[:-1]
    try:
        value = float(Fraction(s))
    except (ValueError, ZeroDivisionError):
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
    """
    if isinstance(text, tuple) and len(text) == 2:
        return int(text[0]), int(text[1])
    s = unicodedata.normalize("NFKC", str(text))
    numbers = re.findall(r"-?\d+", s)
    if len(numbers) != 2:
        raise ValueError(_lt("common.bad_cell", lang))
    return int(numbers[0]), int(numbers[1])


def check(question: Question, answer: Any, lang: str = "en") -> Feedback:
    """Mark ``answer`` (an option id, typed text, a number or a cell) and explain, in ``lang``.

    >>> q = Question("pathing", "nnw_five", "cell", answer=(7, 4))
    >>> check(q, "7,4", "en").correct, check(q, (7, 5), "en").expected
    (True, '(7, 4)')
    >>> check(q, "", "en").problem
    'Type a cell as x, y, for example 7, 4.'
    """
    lang = i18n.normalize_lang(lang)
    expected = question.expected(lang)
    try:
        if question.kind == "choice":
            if answer not in question.options:
                raise ValueError(_lt("common.pick_one", lang))
            correct = answer == question.answer
        elif question.kind == "number":
            value = parse_percent(answer, lang) if question.percent else parse_number(answer, lang)
            correct = abs(value - float(question.answer)) <= question.tolerance + 1e-9
        else:
            correct = parse_cell(answer, lang) == tuple(question.answer)
    except ValueError as exc:
        return Feedback(False, "", "", expected, problem=str(exc))
    verdict = _lt("common.right" if correct else "common.wrong", lang)
    return Feedback(correct, verdict, question.why(lang), expected)


class QuestionWidget(widgets.VBox):
    """One question: option buttons (choice) or a box to type the answer (number, cell); feedback below.

    >>> w = QuestionWidget(Question("compass", "first_roll", "choice", answer="c", options=("a", "b", "c", "d")))
    >>> w.buttons["b"].click(); w.result.correct, w.buttons["c"].button_style
    (False, 'success')
    """

    def __init__(self, question: Question, lang: str = "en", number: int = 1,
                 picture: Callable[[Question, str], str] | None = None, problems: Problems | None = None,
                 **kwargs: Any) -> None:
        lang = i18n.normalize_lang(lang)
        self.problems = problems or Problems(lambda: self.lang)
        prompt = widgets.HTML(f"<div style='font-size:1.1em;margin-top:.6em'><b>{number}.</b> {escape(question.prompt(lang))}</div>")
        feedback = widgets.HTML()
        feedback.add_class("quiz-feedback")
        children: list[widgets.Widget] = [prompt]
        if picture is not None and question.board is not None:
            children.append(widgets.HTML(f"<div style='max-width:36em'>{picture(question, lang)}</div>"))
        self.buttons: dict[str, widgets.Button] = {}
        self.entry: widgets.Text | None = None
        if question.kind == "choice":
            for option in question.options:
                button = widgets.Button(description=question.option_text(option, lang),
                                        layout=widgets.Layout(width="auto", min_width="8em", height="auto"),
                                        tooltip=question.option_text(option, lang))
                self.problems.on_click(button, lambda _b, o=option: self.answer(o), where=f"quiz {question.key}")
                button.add_class("quiz-option")
                self.buttons[option] = button
            children.append(widgets.HBox(list(self.buttons.values()), layout=widgets.Layout(flex_flow="row wrap")))
        else:
            hint = _lt("common.type_cell" if question.kind == "cell" else "common.type_number", lang)
            self.entry = widgets.Text(placeholder=hint, continuous_update=False, layout=widgets.Layout(width="14em"))
            go = widgets.Button(description=_lt("common.check", lang), button_style="primary", layout=widgets.Layout(width="auto"))
            self.problems.on_click(go, lambda _b: self.answer(self.entry.value if self.entry else ""), where=f"quiz {question.key}")
            self.problems.observe(self.entry, lambda change: self.answer(change["new"]) if change["new"] else None,
                                  where=f"quiz {question.key}")
            children.append(widgets.HBox([self.entry, go]))
        children.append(feedback)
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        super().__init__(children=children, **kwargs)
        self.question = question
        self.lang = lang
        self.feedback = feedback
        self.result: Feedback | None = None
        self.given = ""  # the answer as the student gave it (an option's text, or what they typed)
        self._callbacks: list[Callable[[QuestionWidget], Any]] = []

    def answer(self, value: Any) -> Feedback:
        """Answer the question (as a click or typing would) and show the feedback."""
        result = check(self.question, value, self.lang)
        self.feedback.value = result.html(self.lang)
        if result.problem:
            return result
        self.result = result
        self.given = self.question.option_text(value, self.lang) if self.question.kind == "choice" else str(value)
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
        for callback in list(self._callbacks):
            callback(self)
        return result

    def on_answer(self, callback: Callable[[QuestionWidget], Any]) -> None:
        """Call ``callback(widget)`` after each readable answer."""
        self._callbacks.append(callback)


class Quiz(widgets.VBox):
    """A list of questions with a running score. Build it with :func:`quiz` for a lesson's bank.

    >>> qz = Quiz([Question("intensity", "moderate_five", "number", answer=20)], "en")
    >>> qz.items[0].answer("20").correct, qz.right, qz.answered
    (True, 1, 1)
    """

    def __init__(self, questions: Sequence[Question], lang: str = "en", title: str | None = None,
                 picture: Callable[[Question, str], str] | None = None, **kwargs: Any) -> None:
        lang = i18n.normalize_lang(lang)
        self.lang = lang
        self.problems = Problems(lambda: self.lang)
        self.items = [QuestionWidget(q, lang, i + 1, picture, self.problems) for i, q in enumerate(questions)]
        self.score = widgets.HTML()
        self.sheet = AnswerSheet(lang, filename=f"{questions[0].lesson if questions else 'quiz'}")
        # the notebook's own "Check yourself" heading usually comes right before: no second one by default
        head = [widgets.HTML(f"<h3 style='margin:.4em 0'>{escape(title)}</h3>")] if title else []
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        super().__init__(children=[*head, self.problems.widget, *self.items, self.score, self.sheet.widget], **kwargs)
        self.questions = list(questions)
        self.picture = picture
        for item in self.items:
            item.on_answer(self._answered)
        self._update_score()

    def _answered(self, item: QuestionWidget) -> None:
        if item.result is not None:
            self.sheet.add(item.question.prompt(self.lang), item.given, item.result.correct)
        self._update_score()

    @property
    def right(self) -> int:
        """How many questions were last answered right."""
        return sum(1 for item in self.items if item.result is not None and item.result.correct)

    @property
    def answered(self) -> int:
        return sum(1 for item in self.items if item.result is not None)

    def _update_score(self) -> None:
        self.score.value = (f"<div style='font-size:1.15em;font-weight:bold;margin-top:.6em'>"
                            f"{escape(_lt('common.score', self.lang, right=self.right, answered=self.answered, total=len(self.items)))}</div>")

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
    """Every answer a student gave (question, answer, right or wrong, when), and a link to download it as CSV.

    The link is a ``data:`` URL in an HTML widget, so the browser saves the file without any server of
    ours (it works in Jupyter, Voilà and Binder alike). The CSV is in the lesson's language.

    >>> sheet = AnswerSheet("zh-TW", filename="compass")
    >>> sheet.add("第一題？", "東", True, when=datetime(2026, 5, 1, 9, 30))
    >>> sheet.csv().splitlines()
    ['題目,回答,對或錯,時間', '第一題？,東,對,2026-05-01 09:30:00']
    >>> "compass-answers.csv" in sheet.widget.value
    True
    """

    def __init__(self, lang: str = "en", filename: str = "quiz") -> None:
        self.lang = i18n.normalize_lang(lang)
        self.filename = f"{filename}-answers.csv"
        self.rows: list[tuple[str, str, bool, datetime]] = []
        self.widget = widgets.HTML()
        self.widget.add_class("quiz-download")
        self._refresh()

    def add(self, question: str, answer: str, correct: bool, when: datetime | None = None) -> None:
        """Record one answer (a later answer to the same question is recorded too: the sheet is a log)."""
        self.rows.append((question, answer, bool(correct), when or datetime.now().replace(microsecond=0)))
        self._refresh()

    def csv(self) -> str:
        """The answers as CSV text (a header row in the lesson's language, then one row per answer)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([_lt(f"common.csv_{c}", self.lang) for c in ("question", "answer", "result", "time")])
        for question, answer, correct, when in self.rows:
            writer.writerow([question, answer, _lt("common.csv_right" if correct else "common.csv_wrong", self.lang),
                             when.isoformat(sep=" ")])
        return out.getvalue()

    def data_url(self) -> str:
        """The CSV as a ``data:`` URL (UTF-8 with a byte-order mark, so spreadsheet programs read Chinese right)."""
        payload = base64.b64encode(("\ufeff" + self.csv()).encode("utf-8")).decode("ascii")
        return f"data:text/csv;charset=utf-8;base64,{payload}"

    def _refresh(self) -> None:
        label = escape(_lt("common.download", self.lang))
        count = escape(_lt("common.download_count", self.lang, n=len(self.rows)))
        style = ("display:inline-block;padding:.35em .9em;border-radius:4px;background:#1d4ed8;color:#ffffff;"
                 "text-decoration:none;font-weight:bold")
        self.widget.value = (f"<div style='margin:.6em 0'><a class='quiz-download-link' download='{escape(self.filename)}' "
                             f"href='{self.data_url()}' style='{style}'>⬇ {label}</a> "
                             f"<span style='color:#334155'>{count}</span></div>")


def quiz(lesson: str, lang: str = "en") -> Quiz:
    """The check-yourself quiz of a lesson (``"compass"``, ``"pathing"`` or ``"intensity"``).

    >>> q = quiz("compass", "zh-TW")
    >>> len(q.items) >= 5, q.items[0].answer("c").correct
    (True, True)
    """
    from .lessons.bank import BANKS, bank, board_picture

    if lesson not in BANKS:
        raise ValueError(f"there is no quiz for {lesson!r}; the lessons are {', '.join(BANKS)}")
    return Quiz(bank(lesson), lang, picture=board_picture)


__all__ = ["AnswerSheet", "Feedback", "Question", "QuestionWidget", "Quiz", "check", "format_percent", "parse_cell", "parse_number",
           "parse_percent", "quiz"]
