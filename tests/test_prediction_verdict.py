"""Predict, observe, explain: once the student has made the observation, the prediction box says what they predicted,
what the observation showed and whether the two match, as a prompt to explain (never a grade: no ✔ or ✘).

What was observed comes from what the lesson computed or showed: lesson 01's simulated share of E after 100,000
rolls, lesson 03's events of the merge demonstration, lesson 06's ranking of the regions within 200 km. The answer
sheet keeps it (two CSV columns: what was observed, matched or differed), and a screen reader hears it.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import numpy as np
import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import compass, intensity, real
from typhoon_edu.ui.map_text import html_text
from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore, Entry, Prediction, lesson_sheet

MARKS = ("✔", "✘")


def _csv(sheet: AnswerSheet) -> list[list[str]]:
    return list(csv.reader(io.StringIO(sheet.csv())))


def _verdict(lang: str, matched: bool) -> str:
    return i18n.t("lesson.common.predict_matched" if matched else "lesson.common.predict_differed", lang)


# --- the prediction box ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_an_observation_tells_the_prediction_and_what_was_seen_and_prompts_to_explain(lang, tmp_path):
    sheet = AnswerSheet(lang, "compass", lesson="compass", store=AnswerStore(tmp_path))
    sheet.set_student("Mei")
    p = Prediction("compass", "long_run", lang, sheet=sheet)
    assert p.record_observation(("a",), "seen") is None and sheet.entries == []  # nothing to compare with before a lock-in
    p.lock_in("c")
    entry = p.record_observation(("a",), "SEEN")
    assert entry is not None and entry.matched is False and entry.observed == "SEEN" and entry.value == "c"
    said = p.verdict_text(entry)
    assert p.option_text("c") in said and "SEEN" in said and said.endswith(_verdict(lang, False))
    assert said == i18n.tidy_spaces(said, lang)  # no space after a full-width mark in Chinese
    assert p.live.announce == said  # a screen reader hears the verdict
    status = p.status.value
    assert "prediction-verdict" in status and "fa-lock" in status and not any(m in status for m in MARKS)
    assert _verdict(lang, False) in status
    assert len(sheet.entries) == 1  # the prediction's own row says what was observed, no second row
    p.record_observation(("c",), "OTHER")
    assert p.entry.matched is True and _verdict(lang, True) in p.status.value and len(sheet.entries) == 1
    # the file keeps it: a restart brings the verdict back, without saying it again
    fresh = AnswerSheet(lang, "compass", lesson="compass", store=AnswerStore(tmp_path))
    again = Prediction("compass", "long_run", lang, sheet=fresh)
    fresh.set_student("mei")
    assert again.entry.matched is True and _verdict(lang, True) in again.status.value and again.live.announce == ""


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_csv_says_what_was_observed_and_whether_the_prediction_matched(lang):
    sheet = AnswerSheet(lang, "compass", lesson="compass", store=None)
    sheet.add("q?", "E", True, key="quiz.compass.first_roll", value="c")
    p = Prediction("compass", "long_run", lang, sheet=sheet)
    p.lock_in("b")
    header, quiz_row, prediction_row = _csv(sheet)
    assert header[:5] == [i18n.t(f"lesson.common.csv_{c}", lang) for c in ("name", "question", "answer", "result", "time")]
    assert header[5:] == [i18n.t("lesson.common.csv_observed", lang), i18n.t("lesson.common.csv_matched", lang)]
    assert quiz_row[5:] == ["", ""] and prediction_row[5:] == ["", ""]  # nothing observed yet
    p.record_observation(("a",), "the rolls gave 14.3% for E")
    prediction_row = _csv(sheet)[2]
    assert prediction_row[3] == i18n.t("lesson.common.csv_prediction", lang)  # still a prediction, never marked
    assert prediction_row[5:] == ["the rolls gave 14.3% for E", i18n.t("lesson.common.csv_matched_no", lang)]
    p.record_observation(("a", "b"), "a tie")
    assert _csv(sheet)[2][6] == i18n.t("lesson.common.csv_matched_yes", lang)


def test_an_answer_file_saved_before_observations_still_loads(tmp_path):
    old = {"format": 1, "lesson": "compass", "student": "Mei", "entries": [
        {"key": "predict.compass.long_run", "question": "q?", "answer": "about half (50%)", "result": "prediction",
         "when": "2026-05-01 09:30:00", "value": "c"}]}
    (tmp_path / "Mei-compass.json").write_text(json.dumps(old), encoding="utf-8")
    [entry] = AnswerStore(tmp_path).load("compass", "Mei")
    assert entry.matched is None and entry.observed == "" and entry.value == "c"
    assert Entry.from_json(entry.to_json()) == entry


# --- lesson 01: the share of E after 100,000 rolls ---------------------------------------------------------------


def test_lesson_01_supports_the_option_closest_to_the_simulated_share():
    def stats(share_e: float) -> compass.RollStats:
        counts = np.full(7, 1000)
        ring = compass._rules(None).ring
        counts[ring.index("E")] = round(6000 * share_e / (1 - share_e))
        return compass.RollStats(stops=ring, counts=counts, faces=np.zeros(6, int), repeats=0)

    assert compass.long_run_supports(compass.simulate_rolls(100_000, seed=5)) == ("a",)
    assert compass.long_run_supports(stats(0.17)) == ("b",)  # what the rolls gave, not a fixed letter
    assert compass.long_run_supports(stats(0.45)) == ("c",)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_01_gives_the_verdict_after_the_100000_rolls(lang):
    lesson = compass.compass_lesson(lang)
    p = lesson.prediction
    lesson.simulate(100_000)  # before a lock-in: hidden, nothing to compare
    p.lock_in("c")
    assert "prediction-verdict" not in p.status.value
    lesson.simulate(100)  # a few rolls are not the observation the prediction asks about
    assert "prediction-verdict" not in p.status.value
    stats = lesson.simulate(100_000, seed=11)
    share = f"{stats.shares[stats.stops.index('E')] * 100:.1f}%"
    assert share in p.status.value and p.option_text("a") in p.status.value  # what the rolls gave, in the box
    assert p.entry.matched is False and share in p.entry.observed and p.option_text("a") in p.entry.observed
    assert "prediction-verdict" in p.status.value and _verdict(lang, False) in p.status.value
    assert share in p.live.announce and p.live.announce.endswith(_verdict(lang, False))
    row = _csv(lesson_sheet("compass", lang))[1]
    assert row[5] == p.entry.observed and row[6] == i18n.t("lesson.common.csv_matched_no", lang)


def test_lesson_01_says_a_matching_prediction_matched():
    lesson = compass.compass_lesson("zh-TW")
    lesson.prediction.lock_in("a")
    lesson.n_rolls.value = 100_000
    lesson.simulate()  # the dropdown's 100,000, as the Simulate button runs it
    assert lesson.prediction.entry.matched is True
    assert _verdict("zh-TW", True) in lesson.prediction.status.value


# --- lesson 03: the merge demonstration ---------------------------------------------------------------------------


def test_lesson_03_reads_the_outcome_from_the_demos_events():
    merged = intensity.worked_example("merge")
    assert intensity.merge_outcome(merged) == ("a",)
    without = replace(merged, events=tuple(e for e in merged.events if e.kind != "Merged"))
    assert "a" not in intensity.merge_outcome(without)  # no Merged event: the demo did not show a merge


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_03_gives_the_verdict_after_the_merge_demo(lang):
    lesson = intensity.intensity_lesson(lang)
    p = lesson.prediction
    p.lock_in("b")
    lesson.play("landfall", speed=0)  # another demonstration is not the observation
    assert "prediction-verdict" not in p.status.value
    lesson.play("merge", speed=0)
    assert p.option_text("a") in p.status.value  # what the demo showed, in the box
    assert p.entry.matched is False and p.option_text("a") in p.entry.observed
    assert "prediction-verdict" in p.status.value and _verdict(lang, False) in p.status.value
    assert p.live.announce.endswith(_verdict(lang, False))


# --- lesson 06: the region real storms came within 200 km of most often --------------------------------------------


def test_lesson_06_supports_the_region_the_ranking_puts_first():
    rows = real.reach_rows(real.REACH_KM, "en", game={k: 0.1 for k in real.REACH_OPTIONS.values()})
    top = [r.key for r in rows if r.count == rows[0].count]
    assert [real.REACH_OPTIONS[o] for o in real.reach_supports(rows)] == top
    swapped = [real.ReachRow(r.key, r.name, 100 if r.key == "Japan" else r.count, r.share, r.real_rank, r.game_hit,
                             r.game_rank) for r in rows]
    assert real.reach_supports(swapped) == ("c",)  # from the counts, not a fixed letter
    for option, key in real.REACH_OPTIONS.items():  # the options name these regions, in both languages
        assert i18n.t(f"lesson.predict.real.reach.{option}", "zh-TW") == i18n.region_name(real._rules(None), key, "zh-TW")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_06_gives_the_verdict_when_the_table_shows(lang):
    w = real.region_reach(lang)
    p = w.prediction
    p.lock_in("a")  # Taiwan
    assert html_text(p.status.value).count(p.option_text("a")) >= 1 and w.rows[0].name in html_text(p.status.value)
    first = real.REACH_OPTIONS[real.reach_supports(w.rows)[0]]
    assert p.entry.matched is (first == "Taiwan")
    assert "prediction-verdict" in p.status.value
    assert p.live.announce.startswith(i18n.t("lesson.common.predict_locked", lang, answer=p.option_text("a")))
    assert p.live.announce.endswith(_verdict(lang, p.entry.matched))  # the lock-in and the verdict, said at once
    observed = p.entry.observed
    w.km.value = 500  # the question is about 200 km: the verdict stays
    assert p.entry.observed == observed
    assert len(lesson_sheet("real", lang).entries) == 1


def test_lesson_06_says_a_prediction_of_the_first_region_matched():
    w = real.region_reach("en")
    option = real.reach_supports(w.rows)[0]
    w.prediction.lock_in(option)
    assert w.prediction.entry.matched is True and w.prediction.option_text(option) in w.prediction.entry.observed


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_lock_in_said_ends_its_sentence_before_what_to_do_next(lang):
    # "Locked in: Taiwan Now read the table" ran on; in Chinese "已鎖定：臺灣現在看表格" read as one phrase
    p = Prediction("real", "reach", lang, options=tuple(real.REACH_OPTIONS), sheet=AnswerSheet(lang, "x", store=None))
    p.lock_in("a")  # "Taiwan": an answer without a closing mark of its own
    said, then = p.live.announce, i18n.t("lesson.predict.real.reach.then", lang)
    assert said.startswith(i18n.t("lesson.common.predict_locked", lang, answer=p.option_text("a")))
    before = said[:said.index(then)]
    assert before.rstrip().endswith((".", "。")) and before == i18n.tidy_spaces(before, lang)
