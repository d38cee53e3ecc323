"""Lesson 07, the forecast challenge: the cases follow their rules, errors are great-circle distances, typed
positions and taps are read right, the reveal never leaks early, the class round ranks teams, and the answers
(free text and forecasts included) reach the CSV."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest

from typhoon_edu import i18n
from typhoon_edu.realdata import forecast_cases as fc
from typhoon_edu.realdata.jma import all_storms
from typhoon_edu.realdata.stats import distance_km, places
from typhoon_edu.ui.lessons import answers
from typhoon_edu.ui.lessons import forecast as fw
from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore, Quiz, check, option_order

LEADS = fc.LEADS


def _taiwan_km(lat: float, lon: float) -> float:
    return float(distance_km(np.array([lon]), np.array([lat]), places()["Taiwan"])[0])


# --- the numbers -------------------------------------------------------------------------------------


def test_great_circle_distances_match_known_values():
    r = fc.EARTH_RADIUS_KM
    assert fc.great_circle_km(0, 0, 0, 1) == pytest.approx(2 * math.pi * r / 360, rel=1e-9)
    assert fc.great_circle_km(0, 0, 0, 180) == pytest.approx(math.pi * r, rel=1e-9)
    # one degree of longitude shrinks with the cosine of the latitude
    assert fc.great_circle_km(60, 10, 60, 11) == pytest.approx(2 * math.pi * r / 360 * 0.5, rel=2e-3)
    # Taipei (25.03 °N, 121.57 °E) to Hong Kong (22.32 °N, 114.17 °E): about 810 km
    assert 790 < fc.great_circle_km(25.03, 121.57, 22.32, 114.17) < 830
    a, b = (12.3, 130.1), (31.0, 141.7)
    assert fc.great_circle_km(*a, *b) == pytest.approx(fc.great_circle_km(*b, *a))


def test_typical_errors_grow_with_lead_time_and_name_a_source():
    e = fc.TYPICAL_ERROR_KM
    assert sorted(e) == list(LEADS) and e[24] < e[48] < e[72]
    assert "Hong Kong Observatory" in fc.ERROR_SOURCE and "Table 4.12" in fc.ERROR_SOURCE
    for lang in ("en", "zh-TW"):
        text = i18n.t("lesson.forecast.errors_source", lang)
        assert all(str(v) in text for v in e.values()), text


# --- the cases follow their rules ---------------------------------------------------------------------


def test_four_cases_from_easy_to_hard_on_four_different_storms():
    cases = fc.forecast_cases()
    assert [c.key for c in cases] == ["steady", "taiwan", "recurve", "pair"]
    assert [c.level for c in cases] == sorted(c.level for c in cases)
    numbers = [c.storm.number for c in cases] + [cases[3].partner.number]
    assert len(set(numbers)) == len(numbers)


def test_truth_is_the_best_track_24_48_72_hours_later():
    for c in fc.forecast_cases():
        for h in LEADS:
            assert (c.truth[h].time - c.time).total_seconds() == h * 3600
            assert c.truth[h] in c.storm.six_hourly()
        assert c.seen()[-1] == c.now and all(f.time <= c.time for f in c.seen())


def test_the_steady_case_goes_west_every_day_and_is_the_easiest():
    cases = {c.key: c for c in fc.forecast_cases()}
    c = cases["steady"]
    pts = [c.seen()[-5], c.now, *[c.truth[h] for h in LEADS]]
    headings = [fc.bearing_deg(p.lat, p.lon, q.lat, q.lon) for p, q in zip(pts, pts[1:], strict=False)]
    assert all(250 <= h <= 290 for h in headings), headings
    assert all(abs(fc.turn_deg(headings[0], h)) <= 15 for h in headings), headings
    # "keep going straight" does far better on it than on the hard cases
    assert all(c.persistence_error_km(72) < other.persistence_error_km(72) / 3
               for other in (cases["recurve"], cases["pair"]))


def test_no_other_steady_moment_is_easier():
    """The rule says: the smallest 72-hour persistence miss among steady westward moments (recomputed here)."""
    cands = fc._candidates(all_storms())
    best = fc.pick_steady(cands)
    steady = [x for x in cands if all(250 <= h <= 290 for h in x.headings)
              and all(abs(fc.turn_deg(x.headings[0], h)) <= 15 for h in x.headings)]
    assert len(steady) > 1 and best.miss() == min(x.miss() for x in steady)


def test_the_taiwan_case_reaches_taiwan_from_far_away():
    c = fc.find_case("taiwan")
    assert _taiwan_km(c.now.lat, c.now.lon) >= 500
    ahead = [f for f in c.storm.six_hourly() if c.time < f.time <= c.truth[72].time]
    assert min(_taiwan_km(f.lat, f.lon) for f in ahead) <= fc.TAIWAN_KM


def test_the_recurving_case_turns_right_from_west_or_north_to_north_east():
    c = fc.find_case("recurve")
    assert c.now.grade == 5 and c.turn() > 90
    d, e = c.truth[48], c.truth[72]
    assert 20 <= fc.bearing_deg(d.lat, d.lon, e.lat, e.lon) <= 90


def test_the_pair_case_is_the_closest_pair_and_comes_within_650_km():
    c = fc.find_case("pair")
    assert c.partner is not None and c.partner_seen()[-1].time == c.time
    ours = {f.time: f for f in c.storm.six_hourly()}
    seps = [fc.great_circle_km(ours[f.time].lat, ours[f.time].lon, f.lat, f.lon)
            for f in c.partner.six_hourly() if f.time in ours and f.grade != 6 and ours[f.time].grade != 6]
    closest = min(seps)
    assert closest < fc.PAIR_KM
    # no other pair of storms of the data came closer at the same time
    storms = all_storms()
    for a_i, a in enumerate(storms):
        fixes = {f.time: f for f in a.six_hourly() if f.grade != 6}
        for b in storms[a_i + 1:]:
            for f in b.six_hourly():
                g = fixes.get(f.time)
                if g is not None and f.grade != 6:
                    assert fc.great_circle_km(g.lat, g.lon, f.lat, f.lon) >= closest - 1e-6


@pytest.mark.parametrize("key", ["steady", "taiwan", "recurve", "pair"])
def test_every_position_of_a_case_is_on_its_map_and_the_map_ignores_the_future(key):
    """The last two days before the moment, the answers and the other storm are on the map."""
    c = fc.find_case(key)
    proj = fw.case_projection(c)
    for f in [*c.seen()[-8:], *c.truth.values(), *c.partner_seen()[-8:], *c.partner_truth().values()]:
        assert fw.inside(proj, f.lat, f.lon), (key, f)
    # the frame depends on the present only: a case with another future gets the same map
    other = fc.Case(c.key, c.level, c.storm, c.index, {h: c.now for h in LEADS}, c.persistence)
    assert fw.case_projection(other) == proj


# --- typed positions and taps ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("23.5, 121", (23.5, 121.0)), ("23.5 121", (23.5, 121.0)), ("23.5N 121E", (23.5, 121.0)),
    ("121E, 23.5N", (23.5, 121.0)), ("23.5°N, 121.0°E", (23.5, 121.0)), ("２３．５，１２１", (23.5, 121.0)),
    ("北緯23.5度 東經121度", (23.5, 121.0)), (" 18 ,130.25 ", (18.0, 130.25)),
])
def test_typed_positions(text, expected):
    assert fw.parse_position(text) == expected


@pytest.mark.parametrize("text", ["", "23.5", "1, 2, 3", "Taipei", "23.5S 121W", "23.5N 24N"])
def test_unreadable_positions_are_refused_in_the_lessons_language(text):
    with pytest.raises(ValueError, match="例如 23.5, 121"):
        fw.parse_position(text, "zh-TW")


def test_a_tap_acts_once_although_the_browser_sends_touch_and_mouse():
    ch = fw.challenge("en")
    clock = iter([10.0, 10.2, 11.5, 11.6])
    ch._clock = lambda: next(clock)
    c = ch.rnd.case
    x, y = ch.rnd.proj.xy(c.now.lon - 3, c.now.lat)
    assert ch.tap("touch", x, y) == 24
    assert ch.tap("mouse", x, y) is None  # the emulated click of the same tap
    assert list(ch.rnd.guesses) == [24]
    assert ch.tap("mouse", x - 40, y) == 48  # a real click later counts
    assert ch.tap("touch", x - 80, y) == 72
    assert list(ch.rnd.guesses) == [24, 48, 72]


def test_a_click_on_the_truth_scores_almost_zero():
    ch = fw.challenge("en")
    c = ch.rnd.case
    for h in LEADS:
        ch.tap("mouse", *ch.rnd.proj.xy(c.truth[h].lon, c.truth[h].lat))
        ch.taps._last_touch = -1e9
    rows = ch.reveal()
    assert all(r.error_km < 12 for r in rows), rows  # a click is rounded to 0.1°


# --- the round's state ---------------------------------------------------------------------------------


def test_off_the_map_is_refused_and_nothing_changes():
    r = fw.ForecastRound(fc.find_case("steady"), "zh-TW")
    r.place(15.0, 118.0)
    before = (dict(r.guesses), r.active)
    with pytest.raises(ValueError, match="不在這張地圖上"):
        r.place(60.0, 118.0)
    assert (dict(r.guesses), r.active) == before


def test_the_reveal_needs_three_guesses_and_then_locks_them():
    r = fw.ForecastRound(fc.find_case("pair"))
    r.place(20.0, 119.0)
    with pytest.raises(ValueError, match="still missing: 48 h and 72 h"):
        r.reveal()
    assert not r.revealed
    r.place(21.0, 119.0)
    r.place(22.0, 119.0)
    rows = r.reveal()
    assert [x.lead for x in rows] == list(LEADS) and r.revealed
    with pytest.raises(ValueError, match="Try again"):
        r.place(23.0, 119.0)
    with pytest.raises(ValueError, match="Try again"):
        r.nudge(1, 0)
    r.reset()
    assert not r.guesses and not r.revealed and r.active == 24


def test_arrows_start_from_the_guess_before_or_the_storm_now():
    c = fc.find_case("taiwan")
    r = fw.ForecastRound(c)
    r.nudge(1, 0)  # no guess yet: from the storm now, half a degree north
    assert r.guesses[24] == (round(c.now.lat + 0.5, 2), round(c.now.lon, 2))
    r.choose(48)
    r.nudge(0, -1)
    assert r.guesses[48] == (round(c.now.lat + 0.5, 2), round(c.now.lon - 0.5, 2))


def test_errors_are_great_circle_distances_to_the_best_track():
    c = fc.find_case("recurve")
    guesses = {h: (c.truth[h].lat + 1.0, c.truth[h].lon) for h in LEADS}
    rows = fw.score(c, guesses)
    assert [r.error_km for r in rows] == pytest.approx([111.2] * 3, abs=0.1)
    assert [r.inside for r in rows] == [False, True, True]  # 111 km > 69 km, < 121 and < 175
    assert rows[2].straight_km == pytest.approx(c.persistence_error_km(72), abs=0.1)


def test_class_round_ranks_teams_by_mean_error_and_skips_unfinished_ones():
    c = fc.find_case("steady")
    t = c.truth
    near = {h: (t[h].lat + 0.5, t[h].lon) for h in LEADS}
    far = {h: (t[h].lat + 2.0, t[h].lon) for h in LEADS}
    half = {24: (t[24].lat, t[24].lon)}
    table = fw.team_table(c, {"Far": far, "Near": near, "Half": half})
    assert [(rank, name) for rank, name, _, _ in table] == [(1, "Near"), (2, "Far")]
    assert table[0][3] == pytest.approx(55.6, abs=0.2)


def test_class_round_in_the_widget():
    ch = fw.challenge("zh-TW")
    c = ch.rnd.case
    with pytest.raises(ValueError, match="隊名"):
        ch.save_team("  ")
    for name, dlat in (("貓頭鷹", 0.5), ("海豚", 2.0)):
        for h in LEADS:
            ch.rnd.place(c.truth[h].lat + dlat, c.truth[h].lon)
        ch.save_team(name)
        assert not ch.rnd.guesses  # ready for the next team
    assert "「海豚」" in ch.team_feedback.value and not ch.problems.message  # said as news, not as a problem
    assert "貓頭鷹" in ch.team_view.value and "平均誤差" not in ch.team_view.value  # not scored before the reveal
    roles = [s.role for s in ch.dynamic_shapes()]
    assert roles.count("team-guess") == 0  # hidden until the reveal: a team saving later cannot copy them
    t24 = f"{c.truth[24].lat + 0.5:g}"
    assert t24 not in ch.team_view.value and i18n.t("lesson.forecast.team_hidden", "zh-TW") in ch.team_view.value
    for h in LEADS:
        ch.rnd.place(c.truth[h].lat, c.truth[h].lon)
    ch.reveal()
    assert [s.role for s in ch.dynamic_shapes()].count("team-guess") == 6
    assert "平均誤差" in ch.team_view.value
    assert ch.team_view.value.index("貓頭鷹") < ch.team_view.value.index("海豚")


# --- the picture ------------------------------------------------------------------------------------------


def test_nothing_of_the_future_is_drawn_before_the_reveal():
    for key in ("steady", "pair"):
        r = fw.ForecastRound(fc.find_case(key))
        for h in LEADS:
            r.place(r.case.now.lat + 0.1 * h / 24, r.case.now.lon - 0.1 * h / 24)
        hidden = {"truth", "truth-outline", "truth-mark", "error", "error-km", "cone", "partner-truth"}
        assert not hidden & {s.role for s in fw.forecast_scene(r)}
        future = {r.proj.xy(f.lon, f.lat) for f in r.case.truth.values()}
        points = {p for s in fw.forecast_scene(r) for p in getattr(s, "points", ())}
        centres = {(s.cx, s.cy) for s in fw.forecast_scene(r) if hasattr(s, "cx")}
        assert not future & (points | centres)
        r.reveal()
        assert hidden - {"partner-truth"} <= {s.role for s in fw.forecast_scene(r)}


def _inside_polygon(x: float, y: float, poly: list[tuple[float, float]]) -> bool:
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def test_the_cone_holds_its_centres_and_widens_with_the_errors():
    centres = [(100.0, 300.0), (160.0, 260.0), (210.0, 200.0), (240.0, 120.0)]
    radii = [0.0, 20.0, 35.0, 50.0]
    poly = fw.cone_points(centres, radii)
    for x, y in centres[1:]:
        assert _inside_polygon(x, y, poly)
    # the round cap reaches the last circle's radius beyond its centre, along the track's last heading
    (x0, y0), (x1, y1) = centres[-2], centres[-1]
    ux, uy = (x1 - x0) / math.dist(centres[-2], centres[-1]), (y1 - y0) / math.dist(centres[-2], centres[-1])
    assert max((px - x1) * ux + (py - y1) * uy for px, py in poly) == pytest.approx(50.0, abs=1e-2)
    assert not _inside_polygon(400.0, 400.0, poly)
    with pytest.raises(ValueError):
        fw.cone_points([(0, 0)], [0])


def test_the_map_description_follows_the_guesses_in_both_languages():
    r = fw.ForecastRound(fc.find_case("steady"), "zh-TW")
    assert "24 小時" in fw.status_text(r)
    r.place(15.2, 116.3)
    text = fw.status_text(r)
    assert "北緯 15.2 度、東經 116.3 度" in text and "48 小時" in text


def test_a_bad_typed_position_reaches_the_person_and_changes_nothing():
    ch = fw.challenge("en")
    ch.typed.value = "north of Luzon"
    assert "for example 23.5, 121" in ch.problems.message and not ch.rnd.guesses
    ch.typed.value = "16, 118"
    assert ch.rnd.guesses == {24: (16.0, 118.0)} and not ch.problems.message  # the old refusal is gone



@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_map_has_a_role_a_name_and_keys_in_both_languages(lang):
    """The map is a named tab stop (an accessibility review found it unnamed): its name says which storm, the map's
    extent, the forecast so far and how to use it from the keyboard; the arrow keys move the chosen guess, Enter
    (or Space) chooses the next one, and the live region says the forecast after each key."""
    from typhoon_edu.ui.canvas_input import MapAccess

    ch = fw.challenge(lang)
    access = ch.access
    assert isinstance(access, MapAccess) and access in ch.children
    assert access.target in ch.canvas._dom_classes and "forecast-map" in ch.canvas._dom_classes
    assert access.interactive and access.roledescription == i18n.t("maptext.roledescription", lang)
    p = ch.rnd.proj
    storm = fw.storm_title(ch.rnd.case.storm, lang)
    assert access.label.startswith(fw.lt("forecast.map_label", lang, storm=storm, south=f"{p.south:g}", north=f"{p.north:g}",
                                         west=f"{p.west:g}", east=f"{p.east:g}", status="@").split("@")[0])
    assert fw.lt("forecast.map_keys", lang) in access.label and fw.status_text(ch.rnd) in access.label
    now = ch.rnd.case.now
    access.receive({"key": "ArrowLeft"})  # the 24-hour guess starts from the storm now, half a degree west
    assert ch.rnd.guesses == {24: (now.lat, now.lon - 0.5)}
    assert access.announce == fw.status_text(ch.rnd) and fw.status_text(ch.rnd) in access.label
    access.receive({"key": "Enter"})  # the next guess: 48 h, from the 24-hour one
    assert ch.rnd.active == 48 and ch.lead.value == 48
    access.receive({"key": "ArrowUp"})
    assert ch.rnd.guesses[48] == (now.lat + 0.5, now.lon - 0.5)
    access.receive({"key": " "})  # Space too: 72 h
    access.receive({"key": "ArrowDown"})
    assert ch.rnd.guesses[72] == (now.lat, now.lon - 0.5)
    access.receive({"key": "Home"})
    assert ch.rnd.active == 24
    access.receive({"key": "End"})
    assert ch.rnd.active == 72
    ch.reveal()
    access.receive({"key": "ArrowUp"})  # after the reveal the guesses are locked: said, nothing moves
    assert ch.problems.message == fw.lt("forecast.revealed_locked", lang) and ch.rnd.guesses[72] == (now.lat, now.lon - 0.5)


# --- check yourself ------------------------------------------------------------------------------------


def test_quiz_answers_come_from_the_data():
    qs = {q.id: q for q in fw.questions()}
    assert len(qs) >= 6
    assert qs["degree"].answer == pytest.approx(111.2, abs=0.1)
    recurve = fc.find_case("recurve")
    assert check(qs["straight"], f"{recurve.persistence_error_km(72):.0f} km", "en").correct
    assert not check(qs["straight"], "100", "en").correct
    assert str(fc.TYPICAL_ERROR_KM[72]) in fw.localised(qs["typical"], "en").option_text("b", "en")


def _sheet(lang: str, store_dir) -> AnswerSheet:
    return AnswerSheet(lang, "forecast", lesson="forecast", store=AnswerStore(store_dir))


def _reveal_one_degree_east(ch) -> None:
    c = ch.rnd.case
    for h in LEADS:
        ch.rnd.place(c.truth[h].lat, c.truth[h].lon + 1.0)
    ch.reveal()


def test_the_quiz_is_built_like_every_lessons_name_first_and_shuffled_per_student(tmp_path):
    sheet = _sheet("en", tmp_path)
    ch = fw.ForecastChallenge("en", sheet=sheet)
    quiz = fw.forecast_quiz("en", ch)
    assert isinstance(quiz, Quiz) and quiz.sheet is sheet
    assert sheet.name in quiz.children[1].children and sheet.name in ch.children[1].children  # the name comes first
    assert [i.question.kind for i in quiz.items][-1] == "text" and len(quiz.graded) == len(quiz.items) - 1
    orders = set()
    for name in ("Mei", "Ahmad", "陳小美", "Lin", "student 4", "student 5"):
        sheet.name.value = name
        typical = quiz.items[1]
        assert typical.order == option_order(typical.question, name)
        orders.add(typical.order)
    assert len(orders) >= 2
    with pytest.raises(ValueError, match="one answer sheet"):
        fw.ForecastQuiz("en", ch, sheet=_sheet("en", tmp_path))


def test_answers_free_text_and_forecasts_reach_the_csv(tmp_path):
    sheet = _sheet("zh-TW", tmp_path)
    ch = fw.ForecastChallenge("zh-TW", sheet=sheet)
    quiz = fw.forecast_quiz("zh-TW", ch)
    sheet.name.value = "陳小美"
    assert quiz.items[1].answer("b").correct
    explain = quiz.items[-1]
    assert explain.answer("   ").problem == i18n.t("lesson.common.write_something", "zh-TW")
    fb = explain.answer("它一直往西北走，但北邊有西風，所以我猜它會轉向東北。")
    assert not fb.graded and fb.why == explain.question.why("zh-TW") and quiz.answered == 1
    _reveal_one_degree_east(ch)
    rows = list(csv.reader(io.StringIO(sheet.csv())))
    assert rows[0][:5] == ["姓名", "題目", "回答", "對或錯", "時間"]  # then a prediction's two columns
    assert all(r[0] == "陳小美" for r in rows[1:])
    assert rows[1][1] == quiz.questions[1].prompt("zh-TW") and rows[1][3] == "對"
    assert rows[2][2].startswith("它一直往西北走") and rows[2][3] == i18n.t("lesson.common.csv_free", "zh-TW")
    forecasts = [r for r in rows if r[1].startswith("預報")]
    assert len(forecasts) == 3 and all("公里" in r[2] for r in forecasts)
    errors = [round(r.error_km) for r in ch.rnd.results()]
    assert [f"差 {km} 公里" in r[2] for r, km in zip(forecasts, errors, strict=True)] == [True] * 3
    assert [r[3] for r in forecasts] == ["錯", "對", "對"]  # 1° of longitude at 15 °N ≈ 107 km: > 69, < 121, < 175
    assert sheet.filename == "陳小美-forecast-answers.csv" and "陳小美-forecast-answers.csv" in sheet.widget.value


def test_answers_and_forecasts_come_back_after_a_kernel_restart(tmp_path):
    sheet = _sheet("en", tmp_path)
    ch = fw.ForecastChallenge("en", sheet=sheet)
    quiz = fw.forecast_quiz("en", ch)
    _reveal_one_degree_east(ch)  # before any name: kept, and saved once the name is typed
    quiz.items[2].answer("a")
    quiz.items[-1].answer("It kept going north-west, then the westerlies took it.")
    sheet.name.value = "Mei"
    saved = json.loads((tmp_path / "Mei-forecast.json").read_text(encoding="utf-8"))
    assert len(saved["entries"]) == 5 and {e["key"] for e in saved["entries"]} >= {
        f"forecast.{ch.rnd.case.key}.{h}" for h in LEADS}

    again_sheet = _sheet("en", tmp_path)  # a new kernel: nothing in memory
    again = fw.forecast_quiz("en", fw.ForecastChallenge("en", sheet=again_sheet))
    assert again.answered == 0 and not again_sheet.entries
    again_sheet.name.value = " mei "
    assert again.answered == 1 and again.right == 1
    assert again.items[-1].entry.value == "It kept going north-west, then the westerlies took it."
    assert len(again_sheet.entries) == 5  # restoring records nothing new
    assert [r[1:] for r in csv.reader(io.StringIO(again_sheet.csv()))] == [r[1:] for r in csv.reader(io.StringIO(sheet.csv()))]


def test_the_explanation_is_in_the_answer_key_as_a_free_answer():
    for lang in i18n.LANGS:
        last = answers.rows("forecast", lang)[-1]
        q = fw.questions()[-1]
        assert last[1:] == (q.prompt(lang), i18n.t("lesson.common.free_answer", lang), q.why(lang))
        assert len(answers.rows("forecast", lang)) == len(fw.questions())


def test_the_glossary_and_the_storm_names_exist_in_both_languages():
    from typhoon_edu.ui.lessons.glossaries import terms

    assert len(terms("forecast", "en")) == len(terms("forecast", "zh-TW")) >= 6
    for c in fc.forecast_cases():
        for s in (c.storm, c.partner):
            if s is not None:
                assert i18n.has(f"lesson.real.names.n{s.number}", "zh-TW"), s.title


# --- the wiring: canvas events and failing callbacks ------------------------------------------------------


def _front_end(ch, event: str, x: float, y: float) -> None:
    content = {"event": event, "x": x, "y": y} if event.startswith("mouse") else {"event": event, "touches": [{"x": x, "y": y}]}
    ch.canvas._canvases[-1]._handle_frontend_event(None, content, [])


def test_the_canvas_events_reach_the_round():
    ch = fw.challenge("en")
    t = [10.0]
    ch._clock = lambda: t[0]
    x, y = ch.rnd.proj.xy(ch.rnd.case.now.lon - 2, ch.rnd.case.now.lat)
    _front_end(ch, "touch_start", x, y)
    _front_end(ch, "mouse_down", x, y)  # the same tap's emulated click, if a front end sent one
    assert list(ch.rnd.guesses) == [24]
    t[0] = 12.0
    _front_end(ch, "mouse_down", x - 30, y)
    assert list(ch.rnd.guesses) == [24, 48]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_failing_callbacks_reach_the_person_in_their_language(lang, monkeypatch):
    start = {"en": "Something went wrong", "zh-TW": "發生錯誤"}[lang]

    def boom(*_args, **_kwargs):
        raise RuntimeError("test failure")

    ch = fw.challenge(lang)
    assert ch.problems.widget in ch.children
    monkeypatch.setattr(ch, "redraw", boom)
    ch.canvas._canvases[-1]._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert ch.problems.message.startswith(start) and "test failure" in ch.problems.message
    ch.problems.clear()
    monkeypatch.setattr(ch.rnd, "place_pixel", boom)
    _front_end(ch, "mouse_down", 100, 100)
    assert "test failure" in ch.problems.message
    ch.problems.clear()
    ch.reveal_button.click()  # an expected refusal: said plainly, not as a failure
    assert ch.problems.message and not ch.problems.message.startswith(start)
    assert ("24" in ch.problems.message) and not ch.rnd.revealed


# --- after a kernel restart --------------------------------------------------------------------------------------


def test_the_map_shows_the_revealed_forecasts_again_after_a_restart(tmp_path):
    case = fc.find_case("recurve")
    guesses = {h: (round(case.truth[h].lat + 0.5, 1), round(case.truth[h].lon - 1.0, 1)) for h in LEADS}
    first = fw.ForecastChallenge("en", sheet=AnswerSheet("en", "forecast", store=AnswerStore(tmp_path)))
    first.sheet.set_student("Mei Lin")
    first.select("recurve")
    for h in LEADS:
        first.rnd.place(*guesses[h], lead=h)
    first.reveal()
    drawn = sorted((s.role, s.key) for s in first.dynamic_shapes())
    saved = len(first.sheet.entries)
    # a new kernel: a new sheet on the same folder, a new challenge; nothing shows until the student is known
    sheet = AnswerSheet("en", "forecast", store=AnswerStore(tmp_path))
    again = fw.ForecastChallenge("en", sheet=sheet)
    again.select("recurve")
    assert not again.rnd.revealed and not again.rnd.guesses
    sheet.set_student("Mei Lin")
    assert again.rnd.revealed and again.rnd.guesses == guesses
    assert sorted((s.role, s.key) for s in again.dynamic_shapes()) == drawn  # the guesses, the track, the errors
    assert "forecast-results" in again.results.value and len(sheet.entries) == saved  # shown, not recorded twice
    # another storm has no saved forecast; coming back to this one shows it again, and re-running the cell does too
    again.select("steady")
    assert not again.rnd.revealed
    again.select("recurve")
    assert again.rnd.guesses == guesses
    rerun = fw.ForecastChallenge("en", sheet=sheet)
    rerun.select("recurve")
    assert rerun.rnd.revealed and rerun.rnd.guesses == guesses
    # "try again" clears the map; the saved forecast is not forced back on it
    rerun.again()
    assert not rerun.rnd.guesses and not rerun.rnd.revealed


def test_a_damaged_saved_forecast_is_left_off_the_map(tmp_path):
    sheet = AnswerSheet("en", "forecast", store=AnswerStore(tmp_path))
    sheet.set_student("Mei")
    for h in LEADS:
        sheet.add(f"Forecast +{h} h", "?", False, key=f"forecast.steady.{h}", value="north-ish" if h == 48 else "15, 117")
    ch = fw.ForecastChallenge("en", sheet=sheet)
    assert ch.rnd.case.key == "steady" and not ch.rnd.revealed and not ch.rnd.guesses


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_team_button_says_why_it_saved_nothing_beside_itself(lang):
    ch = fw.challenge(lang)
    ch.team_name.value = "Owls"
    ch.team_button.click()  # no guesses placed yet
    assert "⚠" in ch.team_feedback.value and i18n.t("lesson.forecast.team_need_guesses", lang, team="Owls",
                                                                 missing="@").split("@")[0] in ch.team_feedback.value
    for h in LEADS:
        ch.rnd.place(ch.rnd.case.now.lat + 0.1 * h / 24, ch.rnd.case.now.lon - 0.1 * h / 24)
    ch.team_name.value = ""
    ch.team_button.click()  # no team name
    assert i18n.t("lesson.forecast.team_need_name", lang) in ch.team_feedback.value
    ch.team_name.value = "Owls"
    ch.team_button.click()
    assert ch.team_feedback.value.count("✔") == 1 and "1 teams" not in ch.team_feedback.value
    assert i18n.t("lesson.forecast.team_saved_one", lang, team="Owls") in ch.team_feedback.value
