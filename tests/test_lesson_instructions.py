"""Instructions students can follow where they are: a touch screen taps (lesson 02), the page a student sees in the
app view (Voilà) has no code to read, and numbers are shown as a sentence or a table, not a raw Python dict."""

from __future__ import annotations

import re

import pytest

from typhoon_edu import i18n


def test_lesson_02_asks_to_tap_or_click_a_cell():
    for key in ("part_board_note", "puzzle_prompt"):
        text = i18n.t(f"lesson.pathing.{key}", "en", start="(1, 1)", direction="N", name="北", pips=1)
        assert "Tap or click" in text and not re.search(r"(?<!or )\bClick the cell", text)
    assert "clicked" not in i18n.t("lesson.pathing.puzzle_wrong", "en", cell="(1, 1)", answer="(2, 2)", letters="N")


def _cells(lang: str, stem: str) -> list[dict]:
    import json
    from pathlib import Path

    path = next((Path(__file__).resolve().parents[1] / "notebooks" / lang).glob(f"{stem}_*.ipynb"))
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_06_never_asks_to_read_code_the_app_view_hides(lang):
    text = "".join("".join(c["source"]) for c in _cells(lang, "06") if c["cell_type"] == "markdown")
    assert "Read the code, then run it" not in text and "先讀程式，再執行" not in text
    assert "JupyterLab" in text  # where the code can be read: said plainly


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_06_shows_the_numpy_count_as_a_table_not_a_dict(lang):
    cell = next(c for c in _cells(lang, "06") if c["cell_type"] == "code" and "np.bincount" in "".join(c["source"]))
    shown = [o for o in cell.get("outputs", []) if o.get("output_type") == "execute_result"]
    assert shown, "the stored notebook shows the count"
    data = shown[0]["data"]
    assert "<table" in "".join(data.get("text/html", "")) and "{'N'" not in "".join(data.get("text/plain", ""))


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_01_starts_the_simulation_with_100_rolls_as_the_prediction_says(lang):
    from typhoon_edu.ui.lessons.compass import compass_lesson

    w = compass_lesson(lang)
    assert "100" in i18n.t("lesson.predict.compass.long_run.then", lang)
    assert w.n_rolls.value == 100 and w.stats.n == 100  # what shows once the prediction is locked in


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("typed", ["1 in 7", "1 out of 7", "7 分之 1", "1/7"])
def test_lesson_01_takes_the_share_in_the_words_of_its_prediction(lang, typed):
    from typhoon_edu.ui.lessons.bank import COMPASS
    from typhoon_edu.ui.quiz import check

    q = next(q for q in COMPASS if q.id == "long_run")
    fb = check(q, typed, lang)
    assert not fb.problem and fb.correct


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_06_the_closest_ring_is_not_praised_as_the_students_own(lang):
    from typhoon_edu.ui.lessons import real

    w = real.fairer_ring(lang)
    w.best_button.click()
    yours = i18n.t("lesson.real.ring_better", lang, yours="@", game="@").split("@")[0]
    assert yours not in w.verdict.value
    closest = i18n.t("lesson.real.ring_closest", lang, yours="@", game="@").split("@")[0]
    assert closest in w.verdict.value
