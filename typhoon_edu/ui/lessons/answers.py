"""The answer keys of every lesson's check-yourself questions, written from the question banks.

``docs/teachers.md`` and ``docs/teachers.zh-TW.md`` hold the keys between two marker lines;
``python -m typhoon_edu.ui.lessons.answers`` rewrites that part of both files, so the keys always
show the answers the quizzes mark right (numbers that come from the data files included), and a
test checks that the files are current.

>>> "| 1 |" in answer_key_markdown("en")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ... import i18n
from .common import lt

BEGIN = "<!-- answer keys: written by python -m typhoon_edu.ui.lessons.answers -->"
END = "<!-- end of answer keys -->"
DOCS = Path(__file__).resolve().parents[3] / "docs"
LESSON_BANKS = (("01", "compass"), ("02", "pathing"), ("03", "intensity"), ("04", "game"), ("05", "risk"), ("06", "real"),
                ("07", "forecast"))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


@dataclass(frozen=True)
class Asked:
    """One check-yourself question of a lesson as the lesson asks it in one language: its ``number`` in the lesson
    (the answer keys' ``#``), its ``key`` (``quiz.compass.first_roll``: the answer sheet's), its ``kind``
    (:data:`~typhoon_edu.ui.quiz.KINDS`), its ``prompt``, its options (id -> text, for a choice), the right answer
    as text (``expected``), ``why`` it is right, and whether a number is typed as a percentage."""

    number: int
    key: str
    kind: str
    prompt: str
    options: Mapping[str, str]
    expected: str
    why: str
    percent: bool = False


def lesson_questions(lesson: str, lang: str = "en") -> list[Asked]:
    """The check-yourself questions of ``lesson`` in ``lang``, in the lesson's order: the one list the answer keys
    (:func:`rows`) and ``typhoon-edu answers`` (:func:`typhoon_edu.answers_cmd.known_questions`) are written from.

    >>> qs = lesson_questions("risk", "zh-TW")
    >>> qs[0].number, qs[0].key.startswith("quiz.risk."), qs[0].kind, qs[-1].kind, qs[-1].number == len(qs)
    (1, True, 'choice', 'text', True)
    >>> [q.key for q in lesson_questions("forecast")][:2]
    ['quiz.forecast.degree', 'quiz.forecast.typical']
    """
    from ..quiz import Question

    if lesson == "risk":
        from .risk import risk_questions

        out = [Asked(k, f"quiz.risk.{q.key}", "choice", q.prompt, {str(i): o for i, o in enumerate(q.options)},
                     q.options[q.answer], q.why) for k, q in enumerate(risk_questions(lang), start=1)]
        questions: list[Question] = [Question("risk", "explain", "text", answer=None)]
    elif lesson == "forecast":
        from .forecast import localised
        from .forecast import questions as forecast_questions

        out, questions = [], [localised(q, lang) for q in forecast_questions()]
    else:
        from .bank import bank

        out, questions = [], list(bank(lesson))
    return out + [Asked(k, q.key, q.kind, q.prompt(lang), {o: q.option_text(o, lang) for o in q.options},
                        q.expected(lang), q.why(lang), q.percent) for k, q in enumerate(questions, start=len(out) + 1)]


def forecast_rows(lang: str = "en") -> list[tuple[str, str]]:
    """``(key, label)`` of every forecast row lesson 07 can add to the answer sheet (a storm of the challenge at a
    lead), as :meth:`~typhoon_edu.ui.lessons.forecast.ForecastChallenge.record` writes them (both use
    :func:`~typhoon_edu.ui.lessons.forecast.forecast_key` and :func:`~typhoon_edu.ui.lessons.forecast.forecast_label`):
    the key is the same in every language, the label (``Forecast Dujuan 2015, +24 h``) is in ``lang``.

    >>> forecast_rows("zh-TW")[3]
    ('forecast.taiwan.24', '預報杜鵑（2015），+24 小時')
    """
    from ...realdata.forecast_cases import LEADS, forecast_cases
    from . import forecast

    return [(forecast.forecast_key(case, h), forecast.forecast_label(case, h, lang))
            for case in forecast_cases() for h in LEADS]


def rows(lesson: str, lang: str = "en") -> list[tuple[int, str, str, str]]:
    """``(number, question, answer, why)`` for each question of ``lesson``.

    >>> rows("risk", "en")[0][0], len(rows("real", "zh-TW")) >= 6
    (1, True)
    """
    return [(q.number, q.prompt, q.expected, q.why) for q in lesson_questions(lesson, lang)]


def answer_key_markdown(lang: str = "en") -> str:
    """All six answer keys as Markdown tables."""
    lang = i18n.normalize_lang(lang)
    head = ("| # | question | answer | why |", "|---|---|---|---|") if lang == "en" else \
        ("| # | 題目 | 答案 | 說明 |", "|---|---|---|---|")
    out = []
    for number, lesson in LESSON_BANKS:
        title = f"Lesson {number}" if lang == "en" else f"第 {number} 課"
        out += [f"### {title} · {lt('common.quiz_title', lang)}", "", *head]
        out += [f"| {k} | {_cell(q)} | **{_cell(a)}** | {_cell(w)} |" for k, q, a, w in rows(lesson, lang)]
        out.append("")
    return "\n".join(out).rstrip("\n")


def with_keys(text: str, lang: str) -> str:
    """``text`` (a teachers' guide) with the part between the markers replaced by the current keys."""
    if BEGIN not in text or END not in text:
        raise ValueError(f"the guide has no answer-key markers ({BEGIN} … {END})")
    before, rest = text.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    return f"{before}{BEGIN}\n\n{answer_key_markdown(lang)}\n\n{END}{after}"


GUIDES = {"en": "teachers.md", "zh-TW": "teachers.zh-TW.md"}


def main() -> None:  # pragma: no cover - a command
    for lang, name in GUIDES.items():
        path = DOCS / name
        path.write_text(with_keys(path.read_text(encoding="utf-8"), lang), encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main()

__all__ = ["BEGIN", "END", "GUIDES", "Asked", "answer_key_markdown", "forecast_rows", "lesson_questions", "rows", "with_keys"]
