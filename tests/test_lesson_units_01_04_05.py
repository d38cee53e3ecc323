"""Lessons 01, 04 and 05 keep every number they show on the line of its unit (a no-break space between them, so a
phone never ends a line between ``37`` and ``min`` or ``每 6`` and ``小時``), as lessons 02, 03, 06 and 07 do
(tests/test_lesson_units.py): their texts, tables, predictions and quizzes, after each thing a student can do, and
their saved pictures. What is saved or computed with (an answer in the CSV) keeps the catalog's plain space."""

from __future__ import annotations

import pytest
from test_lesson_units import html_texts, shown_texts, split_units

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import compass_lesson, compass_rose, glossary, risk
from typhoon_edu.ui.lessons.game import lesson_plan, rules_guide
from typhoon_edu.ui.quiz import AnswerSheet

LANGS = i18n.LANGS


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_01_shows_every_number_with_its_unit(lang):
    rose, lesson = compass_rose(lang), compass_lesson(lang)
    texts = [*shown_texts(rose), *html_texts(rose.snapshot()), *html_texts(glossary("compass", lang)._repr_html_())]
    lesson.prediction.lock_in("b")  # the simulation and its summary show once a prediction is locked in
    for face in (3, 5, 1):
        lesson.roll(face)
    lesson.replay()
    lesson.simulate(1000, seed=1)
    texts += [*shown_texts(lesson), *html_texts(lesson.snapshot())]
    assert not split_units(texts)
    if lang == "zh-TW":  # the source of the real storms' motions: "每 6 小時"
        assert any("6\u00a0小時" in t for t in shown_texts(lesson)) and "6\u00a0小時" in lesson.snapshot()
    assert all("\u00a0" not in e.question + e.answer for e in lesson.prediction.sheet.entries)  # the CSV: as typed


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_04_shows_every_number_with_its_unit(lang):
    plan = lesson_plan(lang, games=10)._repr_html_()
    texts = [*html_texts(plan), *html_texts(rules_guide(lang)._repr_html_()), *html_texts(glossary("game", lang)._repr_html_())]
    assert not split_units(texts)
    assert "\u00a0min" in plan or "\u00a0分鐘" in plan  # "about 37 min", "大約 37 分鐘"


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_05_shows_every_number_with_its_unit(lang):
    explorer = risk.explorer(lang, n=2_000)
    texts = [*shown_texts(explorer), *html_texts(explorer.to_html())]
    explorer.use_preset(next(iter(risk.RING_PRESETS)))
    explorer.prediction.value = "Taiwan"
    assert explorer.run() is not None
    texts += [*shown_texts(explorer), *html_texts(explorer.to_html())]
    if lang == "en":  # the ranking: "hit by 14 % of storms"
        assert "\u00a0% of storms" in explorer.ranking.value and "\u00a0% of storms" in explorer.to_html()
    real, spread = risk.real_world(lang, n=2_000), risk.many_runs(lang)
    texts += [*shown_texts(real), *html_texts(real.value), *shown_texts(spread)]
    texts += html_texts(glossary("risk", lang)._repr_html_())
    quiz = risk.QuizView(risk.risk_questions(lang), lang, sheet=AnswerSheet(lang, "risk", store=None))
    for i, q in enumerate(quiz.questions):  # every question's feedback ("why") shows too
        quiz.answer(i, q.answer)
    texts += [*shown_texts(quiz), *html_texts(quiz.to_html()), quiz.live.announce]
    assert not split_units(texts)
    assert all("\u00a0" not in e.question + e.answer for e in quiz.sheet.entries)  # the CSV keeps the catalog's texts
