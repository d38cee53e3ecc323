"""Callbacks never fail silently: in every lesson widget family a failing callback shows a message in the
lesson's language (the widget's Problems line) instead of vanishing into the kernel's log."""

from __future__ import annotations

import base64
import csv
import io

import pytest

from typhoon_edu import i18n
from typhoon_edu.ui import realmap
from typhoon_edu.ui.compass_ring import CompassRing
from typhoon_edu.ui.lessons import compass, intensity, pathing, real, risk
from typhoon_edu.ui.quiz import AnswerSheet, quiz

START = {"en": "Something went wrong", "zh-TW": "發生錯誤"}


def boom(*_args, **_kwargs):
    raise RuntimeError("test failure")


def shown(problems, lang: str) -> bool:
    return problems.message.startswith(START[lang]) and "test failure" in problems.message and problems.widget.layout.display is None


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_compass_lesson(lang, monkeypatch):
    w = compass.compass_lesson(lang)
    assert w.problems.widget in w.children
    monkeypatch.setattr(w, "simulate", boom)
    run = [b for b in w.children[1:] if hasattr(b, "children")]  # the button sits in a box; find it by its text
    button = _find_button(w, i18n.t("lesson.compass.simulate", lang))
    button.click()
    assert shown(w.problems, lang), (run, w.problems.message)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_compass_ring_draw_on_connect(lang, monkeypatch):
    ring = CompassRing(lang=lang)
    assert ring.problems.widget in ring.children
    monkeypatch.setattr(ring, "redraw", boom)
    ring.canvas._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert shown(ring.problems, lang)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_pathing_lesson(lang, monkeypatch):
    w = pathing.pathing_lesson(lang)
    monkeypatch.setattr(w, "draw_staircase", boom)
    w.stair_steps.value = 3
    assert shown(w.problems, lang) and w.problems.widget in w.children


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_intensity_widgets(lang, monkeypatch):
    w = intensity.intensity_lesson(lang)
    monkeypatch.setattr(w, "play", boom)
    _find_button(w, i18n.t("lesson.intensity.button_landfall", lang)).click()
    assert shown(w.problems, lang)
    s = intensity.intensity_sandbox(lang)
    monkeypatch.setattr(s, "run", boom)
    _find_button(s, i18n.t("lesson.intensity.sandbox_move", lang)).click()
    assert shown(s.problems, lang) and s.problems.widget in s.children


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_risk_widgets(lang, monkeypatch):
    e = risk.explorer(lang, n=500)
    monkeypatch.setattr(e, "use_preset", boom)
    e.presets["west"].click()
    assert shown(e.problems, lang) and e.problems.widget in e.children
    q = risk.risk_quiz(lang)
    monkeypatch.setattr(q, "_answered", boom)
    q.choices[0].value = 1
    assert shown(q.problems, lang)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_quiz(lang, monkeypatch):
    qz = quiz("compass", lang)
    monkeypatch.setattr(qz.items[0], "answer", boom)
    qz.items[0].buttons["a"].click()
    assert shown(qz.problems, lang) and qz.problems.widget in qz.children


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_lesson06_widgets(lang, monkeypatch):
    m = realmap.real_map(lang)
    monkeypatch.setattr(m, "show", boom)
    m.slider.value = 5
    assert shown(m.problems, lang) and m.problems.widget in m.children
    monkeypatch.setattr(m, "redraw", boom)
    m.canvas._canvases[-1]._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert shown(m.problems, lang)
    f = real.fairer_ring(lang)
    monkeypatch.setattr(f, "update", boom)
    f.points["S"].value = True
    assert shown(f.problems, lang)
    r = real.region_reach(lang)
    monkeypatch.setattr(r, "update", boom)
    r.km.value = 300
    assert shown(r.problems, lang)


def _find_button(widget, description):
    stack = [widget]
    while stack:
        w = stack.pop()
        if getattr(w, "description", None) == description and hasattr(w, "click"):
            return w
        stack.extend(getattr(w, "children", ()) or ())
    raise AssertionError(f"no button {description!r}")


# --- answers: units, and the CSV to hand in -----------------------------------------------------------


@pytest.mark.parametrize("typed", ["18", "18 hours", "18 小時", "18h", "18 h", "１８ 小時"])
def test_hours_question_accepts_a_number_with_its_unit(typed):
    qz = quiz("pathing", "en")
    item = next(i for i in qz.items if i.question.id == "hours")
    assert item.answer(typed).correct, typed


def test_a_unit_does_not_hide_a_wrong_or_unreadable_answer():
    qz = quiz("pathing", "en")
    item = next(i for i in qz.items if i.question.id == "hours")
    assert not item.answer("19 hours").correct
    assert item.answer("hours").problem


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_download_gives_a_csv_in_the_lessons_language(lang):
    qz = quiz("intensity", lang)
    qz.items[0].buttons["b"].click()  # right
    qz.items[1].answer("21")  # wrong
    qz.items[1].answer("nonsense")  # unreadable: not recorded
    link = qz.sheet.widget.value
    assert "download=" in link and "data:text/csv;charset=utf-8;base64," in link
    payload = link.split("base64,")[1].split("'")[0]
    text = base64.b64decode(payload).decode("utf-8").lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    header = [i18n.t(f"lesson.common.csv_{c}", lang) for c in ("name", "question", "answer", "result", "time")]
    assert rows[0][:5] == header and len(rows) == 3
    # then a prediction's two columns (what was observed, matched or not): empty for a quiz's answers
    assert rows[0][5:] == [i18n.t(f"lesson.common.csv_{c}", lang) for c in ("observed", "matched")]
    assert rows[1][5:] == rows[2][5:] == ["", ""]
    assert rows[1][1] == qz.questions[0].prompt(lang) and rows[1][3] == i18n.t("lesson.common.csv_right", lang)
    assert rows[1][2] == qz.questions[0].option_text("b", lang)
    assert rows[2][2] == "21" and rows[2][3] == i18n.t("lesson.common.csv_wrong", lang)
    assert len(rows[2][4]) == 19  # YYYY-MM-DD HH:MM:SS


def test_risk_quiz_has_its_download_too():
    q = risk.risk_quiz("zh-TW")
    q.answer(0, 1)
    assert len(q.sheet.rows) == 1 and q.sheet.rows[0][2] is True
    assert "risk-answers.csv" in q.sheet.widget.value


def test_answer_sheet_escapes_commas_and_quotes():
    sheet = AnswerSheet("en", "x")
    sheet.add('Is "a, b" right?', "yes, it is", False)
    rows = list(csv.reader(io.StringIO(sheet.csv())))
    assert rows[1][:4] == ["", 'Is "a, b" right?', "yes, it is", "wrong"]
