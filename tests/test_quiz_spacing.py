"""Quiz feedback in Chinese has no space after (or before) a full-width mark, in what the page shows and in what
the screen reader's live region says; English keeps a space between its sentences."""

from __future__ import annotations

import re

import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import bank
from typhoon_edu.ui.quiz import AnswerSheet, Question, QuestionWidget, Quiz, check

ALL = [q for questions in bank.BANKS.values() for q in questions]

#: A space beside a full-width mark ("答對了！ 正確答案…", "。 好的答案…"), also across a closing tag ("！</b> 正確").
STRAY = re.compile(r"[）」』】〕，。：；！？、](?:</b>)? | (?:<div[^>]*>)?[（）「」『』【】〔〕，。：；！？、]")


def answers(q: Question) -> list[object]:
    """A right and a wrong answer (one answer for a free-text question)."""
    if q.kind == "choice":
        return [q.answer, next(o for o in q.options if o != q.answer)]
    if q.kind == "cell":
        return [q.answer, (q.answer[0] + 1, q.answer[1])]
    if q.kind == "text":
        return ["因為每一面的機率一樣。"]
    return [str(q.answer), str(float(q.answer) + 10 * (q.tolerance + 1))]


@pytest.mark.parametrize("q", ALL, ids=lambda q: f"{q.lesson}.{q.id}")
def test_chinese_feedback_has_no_space_beside_a_full_width_mark(q):
    for value in answers(q):
        fb = check(q, value, "zh-TW")
        assert not STRAY.search(fb.text("zh-TW")), fb.text("zh-TW")
        assert not STRAY.search(fb.html("zh-TW")), fb.html("zh-TW")


def test_chinese_feedback_reads_as_one_run_of_sentences():
    q = bank.COMPASS[0]
    right, wrong = check(q, q.answer, "zh-TW"), check(q, next(o for o in q.options if o != q.answer), "zh-TW")
    assert right.text("zh-TW") == f"✔ 答對了！{q.why('zh-TW')}"
    assert wrong.text("zh-TW").startswith("✘ 還差一點。正確答案是 ")
    assert wrong.text("zh-TW").endswith(f"。{q.why('zh-TW')}")
    assert "還差一點。</b>正確答案是 " in wrong.html("zh-TW")


def test_english_feedback_keeps_a_space_between_sentences():
    q = bank.COMPASS[0]
    wrong = check(q, next(o for o in q.options if o != q.answer), "en")
    assert wrong.text("en").startswith("✘ Not quite. The answer is ")
    assert wrong.text("en").endswith(f". {q.why('en')}")
    assert "Not quite.</b> The answer is " in wrong.html("en")
    saved = check(next(q for q in ALL if q.kind == "text"), "Each face is as likely.", "en")
    assert saved.text("en").startswith("✎ Saved")
    assert ". A good answer mentions: " in saved.text("en")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_live_region_says_the_feedback_as_shown(lang):
    q = bank.COMPASS[0]
    qz = Quiz([q], lang, sheet=AnswerSheet(lang, "compass", store=None))
    item: QuestionWidget = qz.items[0]
    item.answer(next(o for o in q.options if o != q.answer))
    said = qz.live.announce
    assert said == check(q, next(o for o in q.options if o != q.answer), lang).text(lang)
    if lang == "zh-TW":
        assert not STRAY.search(said), said
        assert "還差一點。正確答案是" in said
    else:
        assert "Not quite. The answer is" in said
    item.answer(q.answer)  # right on a later try: its own verdict, joined the same way
    said = qz.live.announce
    later = i18n.t("lesson.common.right_later", lang)
    assert said.startswith(f"✔ {later}")
    assert (f"{later}{q.why(lang)}" if lang == "zh-TW" else f"{later} {q.why(lang)}") in said


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_05s_quiz_joins_its_verdict_and_why_the_same_way(lang):
    """Lesson 05's quiz (radio choices, its own widget) shows and says "✔ 答對了！…" with no space after the "！"."""
    from typhoon_edu.ui.lessons.risk import QuizView, risk_questions

    q = QuizView(risk_questions(lang), lang, sheet=AnswerSheet(lang, "risk", store=None))
    first, second = q.questions[0], q.questions[1]
    q.answer(0, first.answer)
    q.answer(1, (second.answer + 1) % len(second.options))
    right, wrong = i18n.t("risk.quiz.right", lang), i18n.t("risk.quiz.wrong", lang)
    gap = "" if lang == "zh-TW" else " "
    assert q.verdict(0, first.answer) == f"✔ {right}{gap}{first.why}"
    assert q.live.announce == f"✘ {wrong}{gap}{second.why}"
    assert f"{right}</b>{gap}{first.why}" in q.feedback[0].value
    if lang == "zh-TW":
        assert not STRAY.search(q.feedback[1].value) and not STRAY.search(q.live.announce), q.live.announce


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_02s_puzzle_says_its_prompt_and_verdict_joined_the_same_way(lang):
    """Lesson 02's landing puzzle says its prompt and hint, then its verdict and score, in the map's live region:
    in Chinese with no space after the "。" that ends each sentence."""
    from typhoon_edu.ui.lessons import pathing_lesson

    w = pathing_lesson(lang)
    p = w.new_puzzle()
    prompt = i18n.t("lesson.pathing.puzzle_prompt", lang, start=i18n.cell_label(p.start, lang), direction=p.direction,
                    name=i18n.direction_name(w.rules, p.direction, lang), pips=p.pips)
    said = [w.board.access.announce]
    w.guess((p.answer[0] + 1, p.answer[1]))
    said.append(w.board.access.announce)
    score = i18n.t("lesson.pathing.puzzle_score", lang, right=0, total=1)
    if lang == "zh-TW":
        assert said[0].startswith(prompt + "提示") and said[1].endswith("。" + score), said
        assert not any(STRAY.search(s) for s in said), said
    else:
        assert said[0].startswith(prompt + " ") and said[1].endswith(". " + score), said
