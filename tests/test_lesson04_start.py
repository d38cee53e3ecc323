"""Lesson 04's start: the class-play setup in a lesson (JupyterLab, Binder, plain Voilà) plays on this computer by
default, since phones can join only through the class server, and says so plainly when phones are chosen there;
and the lesson's rules text and quiz follow the game's own damage rule."""

from __future__ import annotations

import pytest

from typhoon_edu import damage, i18n, load_rules
from typhoon_edu.ui.classplay.setup import SetupScreen
from typhoon_edu.ui.guard import Problems
from typhoon_edu.ui.lessons.bank import game_bank
from typhoon_edu.ui.lessons.game import rules_guide
from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR


def _screen(lang: str) -> SetupScreen:
    return SetupScreen(lang, Problems(lambda: lang), lambda _c: None, lambda _c: None)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_in_a_lesson_the_game_starts_on_this_computer(monkeypatch, lang):
    monkeypatch.delenv(CLASS_SERVER_ENV_VAR, raising=False)
    screen = _screen(lang)
    assert screen.hands.value is False and screen.choices().devices is False
    assert screen.hands_warning.value == ""


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_phones_chosen_off_the_class_server_are_refused_in_plain_words(monkeypatch, lang):
    monkeypatch.delenv(CLASS_SERVER_ENV_VAR, raising=False)
    screen = _screen(lang)
    screen.hands.value = True
    warning = screen.hands_warning.value
    assert "typhoon-edu serve --lan" in warning
    assert i18n.t("classplay.setup.one_computer", lang) in warning  # names the choice that works here
    screen.labels.set_lang("zh-TW" if lang == "en" else "en")  # the language buttons switch it too
    assert screen.hands_warning.value != warning and "typhoon-edu serve --lan" in screen.hands_warning.value
    screen.hands.value = False
    assert screen.hands_warning.value == ""


def test_on_the_class_server_phones_stay_the_default_and_no_warning(monkeypatch):
    monkeypatch.setenv(CLASS_SERVER_ENV_VAR, "1")
    screen = _screen("en")
    assert screen.hands.value is True and screen.hands_warning.value == ""


def test_the_counter_question_follows_the_games_end_of_move_rule():
    """A moderate typhoon covering 2 of your cells on each of its 2 steps and ending its move there: +1."""
    q = next(q for q in game_bank() if q.id == "counter")
    assert q.answer == damage(3, 4, True)
    for lang in i18n.LANGS:
        why = q.why(lang)
        assert str(q.answer) in why and f"{load_rules().level(3).damage}" in why  # the explanation gives its number


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_rules_text_says_the_bonus_as_the_engine_counts_it(lang):
    text = rules_guide(lang)._repr_html_()
    assert {"en": "radius still covers your region at the end of its move", "zh-TW": "暴風半徑仍蓋住你的地區"}[lang] in text


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_goals_count_the_seats_a_game_has(lang):
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / lang / "04_full_game.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    goals = next("".join(c["source"]) for c in cells if "".join(c["source"]).startswith(("## Goals", "## 學習目標")))
    assert "six" not in goals and "六個" not in goals  # a game has 3 to 5 seats
    assert "3" in goals and "5" in goals
