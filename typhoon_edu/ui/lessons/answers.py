"""The answer keys of every lesson's check-yourself questions, written from the question banks.

``docs/teachers.md`` and ``docs/teachers.zh-TW.md`` hold the keys between two marker lines;
``python -m typhoon_edu.ui.lessons.answers`` rewrites that part of both files, so the keys always
show the answers the quizzes mark right (numbers that come from the data files included), and a
test checks that the files are current.

>>> "| 1 |" in answer_key_markdown("en")
True
"""

from __future__ import annotations

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


def rows(lesson: str, lang: str = "en") -> list[tuple[int, str, str, str]]:
    """``(number, question, answer, why)`` for each question of ``lesson``.

    >>> rows("risk", "en")[0][0], len(rows("real", "zh-TW")) >= 6
    (1, True)
    """
    if lesson == "risk":
        from ..quiz import Question
        from .risk import risk_questions

        out = [(k, q.prompt, q.options[q.answer], q.why) for k, q in enumerate(risk_questions(lang), start=1)]
        free = Question("risk", "explain", "text", answer=None)
        return [*out, (len(out) + 1, free.prompt(lang), free.expected(lang), free.why(lang))]
    if lesson == "forecast":
        from .forecast import localised, questions

        return [(k, q.prompt(lang), q.expected(lang), q.why(lang)) for k, q in enumerate((localised(q, lang) for q in questions()), start=1)]
    from .bank import bank

    return [(k, q.prompt(lang), q.expected(lang), q.why(lang)) for k, q in enumerate(bank(lesson), start=1)]


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

__all__ = ["BEGIN", "END", "GUIDES", "answer_key_markdown", "rows", "with_keys"]
