"""Lessons 01-03: the pure helpers, the widgets in both languages, and complete texts."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from typhoon_edu import advance, damage, i18n, load_rules, path_steps, step_cycle
from typhoon_edu.ui.lessons import bank, common, compass, intensity, pathing
from typhoon_edu.ui.state import BoardState

RULES = load_rules()
LANGS = i18n.LANGS


def lesson_keys(lang: str) -> set[str]:
    return {k for k in i18n.catalog(lang) if k.startswith("lesson.")}


# --- catalogs -----------------------------------------------------------------------------------


def test_lesson_texts_exist_in_both_languages_with_the_same_placeholders():
    en, zh = lesson_keys("en"), lesson_keys("zh-TW")
    assert en == zh and len(en) > 150
    for key in en:
        assert i18n.placeholders(i18n.template(key, "en")) == i18n.placeholders(i18n.template(key, "zh-TW")), key


def test_lesson_texts_live_in_their_own_files():
    from typhoon_edu.i18n import CATALOG_DIR

    for lang in LANGS:
        assert (CATALOG_DIR / f"{lang}.lessons.toml").is_file()
    assert all(k.startswith("lesson.") for k in lesson_keys("en"))


def test_zh_lesson_texts_use_the_games_terms_and_traditional_characters():
    text = "".join(i18n.template(k, "zh-TW") for k in lesson_keys("zh-TW"))
    for term in ("颱風眼", "暴風半徑", "登陸", "合併", "方位羅盤"):
        assert term in text, term
    for simplified in "风图区级个动东难这过时变经们说运开么":
        assert simplified not in text, simplified


# --- 01 compass ---------------------------------------------------------------------------------


def test_sixteen_points_both_languages_and_the_ring():
    points = compass.compass_points(RULES)
    assert [p[0] for p in points][:4] == ["N", "NNE", "NE", "ENE"] and len(points) == 16
    assert [p[0] for p in points if p[3]] == ["N", "NNE", "NE", "E", "WSW", "WNW", "NNW"]
    assert dict((p[0], p[2]) for p in points)["SW"] == "西南"


def test_rulebook_replay_matches_the_engine():
    steps = compass.replay_rulebook()
    assert [(s.start, s.face, s.stop) for s in steps] == [("N", 3, "E"), ("E", 3, "NNW"), ("NNW", 5, "WSW")]
    for s in steps:
        assert advance(s.start, s.face) == s.stop
        assert len(s.passed) == s.face
    assert steps[1].passed == ("WSW", "WNW", "NNW")


@pytest.mark.parametrize("start", RULES.ring)
def test_one_roll_never_lands_on_the_same_stop(start):
    stops = compass.one_roll_stops(start)
    assert start not in stops.values()
    assert sorted(stops.values()) == sorted(set(RULES.ring) - {start})


def test_transition_matrix_is_doubly_stochastic_and_long_run_is_one_seventh():
    p = compass.transition_matrix()
    assert np.allclose(p.sum(axis=1), 1) and np.allclose(p.sum(axis=0), 1)
    assert np.allclose(np.diag(p), 0)
    shares = compass.long_run_shares()
    assert list(shares) == list(RULES.ring)
    assert all(math.isclose(v, 1 / 7, abs_tol=1e-9) for v in shares.values())


def test_simulate_rolls_is_seeded_chained_and_converges():
    a, b = compass.simulate_rolls(5000, seed=4), compass.simulate_rolls(5000, seed=4)
    assert np.array_equal(a.counts, b.counts)
    assert a.n == 5000 and int(a.faces.sum()) == 5000 and a.repeats == 0
    big = compass.simulate_rolls(200_000, seed=1)
    assert max(abs(s - 1 / 7) for s in big.shares) < 0.005
    assert max(abs(f / big.n - 1 / 6) for f in big.faces) < 0.005
    assert compass.simulate_rolls(0).n == 0
    with pytest.raises(ValueError):
        compass.simulate_rolls(-1)


def test_simulation_chains_from_where_the_indicator_stopped():
    # first roll from N can never be N; one roll only: the stop is N + face
    one = compass.simulate_rolls(1, seed=9)
    face = int(np.argmax(one.faces)) + 1
    assert one.stops[int(np.argmax(one.counts))] == advance("N", face)


def test_game_vs_real_shares():
    shares = compass.game_vs_real()
    assert list(shares) == list(compass.MOTION_GROUPS)
    assert math.isclose(sum(g for g, _ in shares.values()), 1.0)
    assert math.isclose(shares["N"][0], 2 / 7) and math.isclose(shares["S"][0], 0.5 / 7)
    assert shares["W"][1] > shares["W"][0]  # real storms go west far more often than the game's
    assert math.isclose(sum(r for _, r in shares.values()), 1.0, abs_tol=0.002)


@pytest.mark.parametrize("lang", LANGS)
def test_compass_pictures_are_valid_svg(lang):
    for svg in (compass.rose_svg(lang), compass.motion_svg(lang), compass.histogram_svg(compass.simulate_rolls(100), lang)):
        ET.fromstring(svg)
    assert compass.histogram_svg(compass.simulate_rolls(100), lang).count('data-role="bar"') == 7


@pytest.mark.parametrize("lang", LANGS)
def test_compass_lesson_widget(lang):
    w = compass.compass_lesson(lang)
    assert w.ring.stop == "N"
    w.die.enter("3")
    assert w.ring.stop == "E" and "→3→ E" in w.log_view.value
    assert "E" in w.reach.value
    steps = w.replay()
    assert [s.stop for s in steps] == ["E", "NNW", "WSW"] and w.ring.stop == "WSW"
    stats = w.simulate(1000, seed=3)
    assert stats.repeats == 0 and w.chart.value.startswith("<svg")
    data = w._repr_mimebundle_()
    assert {"text/html", "image/svg+xml", "application/vnd.jupyter.widget-view+json"} <= set(data)
    rose = compass.compass_rose(lang)
    assert "WSW" in rose._repr_mimebundle_()["text/html"]


# --- 02 pathing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(RULES.points))
def test_every_cycle_is_spelled_by_its_chinese_name(key):
    assert pathing.spell_cycle(RULES.points[key].name_zh) == step_cycle(key)


def test_rulebook_paths_reproduced_by_the_engine():
    for ex in pathing.RULEBOOK_EXAMPLES:
        assert "".join(path_steps(ex.direction, ex.pips)) == ex.letters
        events = pathing.example_events(ex)
        stepped = [e for e in events if e.kind == "TyphoonStepped"]
        assert "".join(e.letter for e in stepped) == ex.letters
        assert stepped[-1].to == pathing.landing_cell(ex.start, ex.direction, ex.pips)
        assert not any(e.kind in ("Landfall", "TyphoonRemoved") for e in events)  # all three stay at sea


def test_landing_cell_and_puzzles():
    assert pathing.landing_cell((8, 8), "NNW", 5) == (7, 4)
    assert pathing.landing_cell((8, 8), "N", 0) == (8, 8)
    assert pathing.landing_cell((15, 0), "NNE", 1) is None
    puzzles = pathing.landing_puzzles(20, seed=3)
    assert len(puzzles) == 20 and puzzles == pathing.landing_puzzles(20, seed=3)
    for p in puzzles:
        assert p.direction in RULES.ring and 2 <= p.pips <= 6
        assert not RULES.map.is_land(*p.start)
        assert pathing.landing_cell(p.start, p.direction, p.pips) == p.answer


def test_staircase_approximates_the_diagonal():
    for key in RULES.points:
        assert abs((pathing.cycle_bearing(key) - pathing.true_bearing(key) + 180) % 360 - 180) < 5, key
        for n in range(1, 13):
            # a two-letter cycle stays within 1/√2 cell of the straight line, a three-letter one within 2/√5
            bound = math.sqrt(2) / 2 if len(RULES.points[key].cycle) == 2 else 2 / math.sqrt(5)
            assert pathing.max_offset(key, n) <= bound + 1e-9, (key, n)
    assert pathing.max_offset("N", 6) == 0.0
    # the picture's staircase does not stop at the map's edge
    assert pathing.staircase_cells("NNW", 6)[-1] == (-2, -4)
    assert pathing.max_offset("NE", 6) == pytest.approx(math.sqrt(2) / 2)
    assert 'data-role="staircase"' in pathing.staircase_svg("NNW", 12, "zh-TW")


def test_cells_to_km_with_the_maps_geo_data():
    geo = RULES.map.geo
    assert pathing.km_per_cell() == geo["km_per_cell"] == 360
    assert pathing.cell_lonlat((0, 0)) == (geo["lon0"], geo["lat0"])
    ns, ew = pathing.cell_size_km((6, 6))
    assert abs(ns - 360) < 15 and abs(ew - 360) < 15  # the scale agrees with the coordinates near Taiwan
    n_ns, n_ew = pathing.cell_size_km((6, 0))
    assert n_ew < ew  # east-west cells shrink towards the pole
    t = pathing.trip((8, 8), "NNW", 5)
    assert (t.steps, t.km_scale, t.end) == (5, 5 * geo["km_per_cell"], (7, 4))
    assert t.hours_steps == pytest.approx(t.km_steps / 20) and t.days_steps == pytest.approx(t.hours_steps / 24)
    assert t.km_straight < t.km_steps  # the staircase is longer than the straight line


@pytest.mark.parametrize("example", pathing.RULEBOOK_EXAMPLES)
def test_path_and_straight_line_use_one_geometry(example):
    # both are great circles between cell centres: the path along the steps is never the shorter one
    t = pathing.trip(example.start, example.direction, example.pips)
    legs = [example.start, *pathing.path_cells(RULES, example.start, example.direction, example.pips)]
    along = sum(pathing.great_circle_km(pathing.cell_lonlat(a), pathing.cell_lonlat(b)) for a, b in zip(legs, legs[1:], strict=False))
    assert t.km_steps == pytest.approx(along)
    assert t.km_steps >= t.km_straight - 1e-9
    assert t.km_straight == pytest.approx(pathing.great_circle_km(pathing.cell_lonlat(legs[0]), pathing.cell_lonlat(legs[-1])))
    off = pathing.trip((1, 3), "W", 4)
    assert off.end is None and off.steps == 1


@pytest.mark.parametrize("lang", LANGS)
def test_pathing_lesson_widget(lang):
    w = pathing.pathing_lesson(lang)
    assert w.board.state.typhoon(1).eye == (7, 4)
    for k, ex in enumerate(pathing.RULEBOOK_EXAMPLES):
        w.play_example(k, speed=0)
        assert w.board.state.typhoon(1).eye == pathing.landing_cell(ex.start, ex.direction, ex.pips)
    p = w.new_puzzle()
    wrong = (p.answer[0] + 1, p.answer[1])
    assert w.guess(wrong) is False and "✘" in w.info.value
    assert w.board.state.path is not None  # the path is shown after the answer
    assert w.guess(p.answer) is None  # the puzzle is over
    p2 = w.new_puzzle()
    w.board.click(*[v + 2 for v in w.board.geometry.cell_origin(*p2.answer)])  # a click on the map answers
    assert w.score == [1, 2] and "✔" in w.info.value
    w.stair_dir.value = "NE"
    assert "45.0" in w.stair_text.value
    data = w._repr_mimebundle_()
    assert data["image/svg+xml"].startswith("<svg") and f"{pathing.trip((8, 8), 'NNW', 5).km_steps:,.0f}" in data["text/html"]


# --- 03 intensity -------------------------------------------------------------------------------


def test_levels_and_wind_classes():
    rows = intensity.level_rows("en")
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5]
    assert [r[5] for r in rows] == [2, 3, 4, 5, 6]
    assert [r[6] for r in rows] == [1, 1, 5, 5, 9]
    assert rows[3][3] == "≥ 51.0" and rows[4][4] == "≥ 241"
    zh = intensity.level_rows("zh-TW")
    assert zh[0][1] == "熱帶低壓" and "氣象署" in zh[0][2]
    ET.fromstring(intensity.footprints_svg("zh-TW"))


def test_rulebook_damage_examples_worked_on_the_map():
    a = intensity.worked_example("moderate_five")
    assert (a.region, a.hits, a.per_hit, a.bonus, a.total) == ("Taiwan", 5, 4, 0, 20)
    assert a.total == damage(3, 5, False)
    assert sum(sum(s.hits.values()) for s in a.steps) == 5
    assert any(e.kind == "Landfall" for e in a.events)
    b = intensity.worked_example("strong_two")
    assert (b.region, b.hits, b.per_hit, b.bonus, b.total) == ("Taiwan", 2, 5, 1, 11)
    assert b.total == damage(4, 2, True)
    assert not any(e.kind == "Landfall" for e in b.events)


def test_landfall_growth_and_merge_demos():
    land = intensity.worked_example("landfall")
    lf = next(e for e in land.events if e.kind == "Landfall")
    assert (lf.old, lf.new) == (2, 1) and land.region == "Philippines" and land.total == 3
    grow = intensity.worked_example("growth")
    assert [e.level for e in grow.events if e.kind == "Intensified"] == [3]
    assert not grow.steps  # a held storm does not move
    merge = intensity.worked_example("merge")
    m = next(e for e in merge.events if e.kind == "Merged")
    assert (m.survivor, m.absorbed, m.level, m.direction) == (2, 1, 4, "NNW")
    with pytest.raises(ValueError, match="moderate_five"):
        intensity.worked_example("nothing")


@pytest.mark.parametrize("lang", LANGS)
def test_worked_html_shows_the_formula(lang):
    html = intensity.worked_html(intensity.worked_example("strong_two"), lang)
    assert "2 × 5 + 1 = 11" in html
    html = intensity.worked_html(intensity.worked_example("moderate_five"), lang)
    assert "5 × 4 = 20" in html


def test_sandbox_model():
    s = intensity.SandboxModel(seed=5)
    assert s.place((6, 6), 3, "N") == "land"
    assert s.place((8, 8), 1, "E") is None
    assert s.place((8, 8), 2, "E") == "taken"
    for cell in ((9, 0), (10, 0), (12, 0), (13, 0), (14, 0), (15, 0), (13, 1)):
        assert s.place(cell, 1, "N") is None
    assert len(s.typhoons) == 8 and s.place((14, 5), 1, "N") == "full"
    s.clear()
    assert s.run() == [] and s.hp["Taiwan"] == s.rules.regions["Taiwan"].hp
    s.place((8, 6), 3, "WSW")
    events = s.run(faces=[4])
    assert s.hp["Taiwan"] == s.rules.regions["Taiwan"].hp - 20 and s.typhoons == [((5, 7), 2, "WSW")]
    assert any(e.kind == "DamageDealt" for e in events)
    s.clear()
    s.place((9, 9), 2, "N")
    s.place((14, 9), 1, "W")
    s.run(hold=1)
    assert s.typhoons[0] == ((9, 9), 3, "N") and len(s.last_faces) == 1
    assert isinstance(s.board_state(), BoardState)


@pytest.mark.parametrize("lang", LANGS)
def test_intensity_widgets(lang):
    w = intensity.intensity_lesson(lang)
    assert w.worked.total == 20
    for key in intensity.DEMOS:
        assert w.play(key, speed=0).key == key
    assert set(w.board.state.highlights) == set()  # the merge demo hits no region
    w.play("strong_two", speed=0)
    assert set(w.board.state.highlights) == set(RULES.regions["Taiwan"].cells)  # the region hit is marked
    sandbox = intensity.intensity_sandbox(lang, seed=1)
    n = len(sandbox.model.typhoons)
    sandbox.click((14, 3))
    assert len(sandbox.model.typhoons) == n + 1
    sandbox.click((14, 3))
    assert len(sandbox.model.typhoons) == n
    sandbox.click((6, 6))  # land
    assert i18n.t("lesson.intensity.sandbox_land", lang, cell="(6, 6)") in sandbox.message.value.replace("&#x27;", "'")
    events = sandbox.run()
    assert events and sandbox.log_view.value.startswith("<ul")
    sandbox.clear()
    assert sandbox.model.typhoons == [] and sandbox.run() == []
    table = intensity.levels_table(lang)
    assert "<table" in table._repr_mimebundle_()["text/html"]


# --- common ---------------------------------------------------------------------------------------


def test_play_moves_orders_and_filters_events():
    game, events = common.play_moves([((8, 8), 1, "E"), ((3, 9), 1, "N")], [1, 1], order=[2, 1])
    moved = [e.typhoon for e in events if e.kind == "MoveStarted"]
    assert moved == [2, 1]
    assert all(e.kind in common.MOVE_EVENTS for e in events)


def test_lesson_boxes_redraw_canvases_for_new_clients():
    from ipycanvas.canvas import _CANVAS_MANAGER

    w = pathing.pathing_lesson("en")
    layers = w.board.canvas._canvases
    assert common.reset_canvas_manager_on_ready(w) == 0  # already done when the box was built
    first = layers[-1]._client_ready_callbacks.callbacks[0]
    _CANVAS_MANAGER._current_canvas = layers[-1]
    first()  # runs before the board's own redraw, so that redraw starts with a "switch canvas"
    assert _CANVAS_MANAGER._current_canvas is None
    layers[-1]._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert _CANVAS_MANAGER._current_canvas is not None


def test_quiz_banks_have_six_or_more_questions_each():
    assert set(bank.BANKS) == {"compass", "pathing", "intensity", "game", "real"}
    for questions in bank.BANKS.values():
        assert len(questions) >= 6
        assert len({q.id for q in questions}) == len(questions)
        assert {q.kind for q in questions} >= {"choice", "number"}
