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
