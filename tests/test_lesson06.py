"""Lesson 06 (real typhoons): the real map's scenes and widget, the directions and the fairer ring, the
regions real storms reached, Taiwan's mountains, and the quiz — in both languages."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from typhoon_edu import i18n, load_rules
from typhoon_edu.realdata import jma, stats
from typhoon_edu.ui import realmap
from typhoon_edu.ui.lessons import bank, real
from typhoon_edu.ui.quiz import check, quiz

RULES = load_rules()
LANGS = i18n.LANGS


def test_projection_round_trips_and_keeps_north_up():
    p = realmap.Projection()
    for lon, lat in ((100.0, 5.0), (121.5, 25.0), (160.0, 46.0)):
        x, y = p.xy(lon, lat)
        assert 0 <= x <= p.width and 0 <= y <= p.height
        back = p.lonlat(x, y)
        assert math.isclose(back[0], lon, abs_tol=1e-3) and math.isclose(back[1], lat, abs_tol=1e-3)
    assert p.xy(121, 20)[1] > p.xy(121, 30)[1]
    assert p.km(111.195) == pytest.approx(p.scale * p.aspect)


@pytest.mark.parametrize("lang", LANGS)
def test_static_scene_draws_every_country_and_the_graticule(lang):
    shapes = realmap.static_scene(realmap.Projection(), lang)
    land = {s.key for s in shapes if s.role == "land"}
    assert {"China", "Taiwan", "Japan", "Philippines", "South Korea"} <= land
    labels = [s.text for s in shapes if s.role == "label"]
    assert i18n.region_name(RULES, "Taiwan", lang) in labels and len(labels) == 6
    assert sum(1 for s in shapes if s.role == "graticule") >= 8


def test_track_scene_colours_each_leg_by_the_cwa_class_of_its_start():
    storm = jma.find_storm("Soudelor")
    six = storm.six_hourly()
    k = max(range(len(six)), key=lambda i: six[i].wind_kt or 0)  # its strongest analysis
    shapes = realmap.track_scene(storm, k, realmap.Projection())
    legs = [s for s in shapes if s.role == "leg"]
    assert len(legs) == k
    assert [int(s.key) for s in legs] == [stats.cwa_class(f.wind_kt, f.grade) for f in six[:k]]
    assert {s.stroke for s in legs} <= set(realmap.CLASS_COLOUR.values())
    now = [s for s in shapes if s.role == "now-class"][0]
    assert now.fill == realmap.CLASS_COLOUR[4]  # 115 kt: a strong typhoon
    r30 = [s for s in shapes if s.role == "r30"][0]
    assert r30.r == pytest.approx(realmap.Projection().km(six[k].r30.longest_km))
    # a depression's analysis has no radii: none drawn
    first = realmap.track_scene(storm, 0, realmap.Projection())
    assert not [s for s in first if s.role in ("r30", "r50")] and six[0].r30 is None


def test_classes_cover_extratropical_stages_and_sizes_differ():
    assert len(set(realmap.CLASS_RADIUS.values())) == 5  # size, not colour alone, tells the classes apart
    late = [f for f in jma.find_storm("Soudelor").fixes if f.grade == 6]
    assert late and all(realmap.fix_class(f) == 0 for f in late)


@pytest.mark.parametrize("lang", LANGS)
def test_real_map_widget_replays_six_hours_at_a_time_with_the_board(lang):
    m = realmap.real_map(lang, "Nepartak")
    six = m.storm.six_hourly()
    assert m.slider.max == len(six) - 1 and m.play.max == m.slider.max
    m.slider.value = 10
    assert m.index == 10 and f"{six[10].pressure}" in m.info.value
    assert six[10].time.strftime("%Y-%m-%d %H:%M") in m.info.value
    state = m.board.state
    assert state.typhoons[0].eye == stats.nearest_cell(six[10].lon, six[10].lat)
    assert state.trail[-1] == state.typhoons[0].eye
    m.choose.value = "1617"  # Megi
    assert m.storm.name == "MEGI" and m.index == 0 and m.slider.value == 0
    svg = m.to_svg()
    ET.fromstring(svg)
    assert realmap.storm_title(m.storm, lang) in m.to_html()
    with pytest.raises(ValueError, match="no storm"):
        m.select("9999")


def test_storm_names_in_both_languages():
    for s in jma.selected_storms():
        assert realmap.storm_title(s, "en").endswith(str(s.year))
        zh = realmap.storm_title(s, "zh-TW")
        assert zh.endswith(f"（{s.year}）") and not zh.startswith(s.name.title())


# --- directions and the fairer ring ----------------------------------------------------------------


def test_directions_model_matches_the_numpy_count():
    d = real.directions_model()
    for tropical, shares, steps in ((True, d.real, d.steps), (False, d.real_all, d.steps_all)):
        bearings = stats.motion_bearings(jma.all_storms(), tropical=tropical)
        counts = np.bincount((np.floor((bearings + 22.5) / 45) % 8).astype(int), minlength=8)
        assert steps == int(counts.sum()) and d.storms == 169
        for p, c in zip(stats.EIGHT_POINTS, counts, strict=True):
            assert shares[p] == pytest.approx(c / counts.sum())


def _six_hour_steps(tropical: bool) -> int:
    """Steps counted by hand from the fixes: 6 hours apart, moved, and (tropical) no end in JMA grade 6."""
    n = 0
    for s in jma.all_storms():
        fixes = s.six_hourly()
        for a, b in zip(fixes, fixes[1:], strict=False):
            if (b.time - a.time).total_seconds() != 6 * 3600 or (a.lon, a.lat) == (b.lon, b.lat):
                continue
            n += not (tropical and 6 in (a.grade, b.grade))
    return n


def test_the_comparison_leaves_out_the_extratropical_stages():
    """Issue 22.1: the map greys grade 6 out as "no longer a typhoon"; the shares compared with the ring do too."""
    d = real.directions_model()
    assert d.steps == _six_hour_steps(True) < d.steps_all == _six_hour_steps(False)
    assert d.real["W"] + d.real["NW"] > d.real_all["W"] + d.real_all["NW"]  # extratropical lows run east
    assert d.real["E"] < d.real_all["E"]
    by = {q.id: q for q in bank.real_bank()}
    assert by["west_share"].answer == pytest.approx(d.real["W"] + d.real["NW"], abs=0.001)


@pytest.mark.parametrize("lang", LANGS)
def test_the_directions_table_labels_both_counts(lang):
    w = real.fairer_ring(lang)
    html = w.snapshot()
    d = w.model
    assert i18n.t("lesson.real.col_real", lang) in html and i18n.t("lesson.real.col_real_all", lang) in html
    assert f"{d.real['W'] * 100:.1f}%" in html and f"{d.real_all['W'] * 100:.1f}%" in html


NOTEBOOKS_06 = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*/06_*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS_06, ids=lambda p: p.parent.name)
def test_lesson_06_states_only_numbers_from_the_data(path):
    """Every percentage the notebook shows (prose and saved outputs) is one the data gives."""
    import json

    d = real.directions_model()
    known = {f"{v * 100:.1f}%" for shares in (d.real, d.real_all) for v in shares.values()}
    known |= {f"{(s['W'] + s['NW']) * 100:.1f}%" for s in (d.real, d.real_all)}
    known |= {f"{v * 100:.1f}%" for v in d.game().values()}
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    prose = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    typed = set(re.findall(r"\d+(?:\.\d+)?\s?%", prose))
    assert typed <= {"100%"}, f"{path.name} types percentages; render them from the data: {typed}"
    numpy_cell = next(c for c in cells if c["cell_type"] == "code" and "motion_bearings(" in "".join(c["source"]))
    assert "tropical=True" in "".join(numpy_cell["source"])
    shown = "".join("".join(o.get("data", {}).get(kind, "")) for o in numpy_cell.get("outputs", [])
                    for kind in ("text/plain", "text/html"))  # the count is shown as a table (text/html)
    if shown:  # the notebook is stored with its outputs: the saved numbers are the tropical shares
        assert set(re.findall(r"\d+\.\d%", shown)) <= known
        assert f"{d.real['W'] * 100:.1f}%" in shown


def test_best_ring_is_the_closest_of_all_choices():
    d = real.directions_model()
    best = d.best_ring()
    assert len(best) == 7 and len(set(best)) == 7
    rng = np.random.default_rng(0)
    points = list(stats.EIGHT_POINTS) + ["NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW", "NNW"]
    for _ in range(200):
        ring = tuple(rng.choice(points, 7, replace=False))
        assert d.distance(best) <= d.distance(ring) + 1e-12
    assert d.distance(best) < d.game_distance  # nature's shares can be matched better than the game does


@pytest.mark.parametrize("lang", LANGS)
def test_fairer_ring_widget(lang):
    w = real.fairer_ring(lang)
    assert w.ring == RULES.ring
    assert "=" in w.verdict.value  # the game's own ring
    w.points["N"].value = False
    assert "7" in w.verdict.value and w.update() is None  # 6 stops: asks for exactly 7
    w.set_ring(("W", "WNW", "NW", "NNW", "N", "NE", "WSW"))
    d = w.update()
    assert d is not None and "✔" in w.verdict.value and d < w.model.game_distance
    w.best_button.click()
    assert w.ring == tuple(p for p in real.COMPASS16 if p in w.model.best_ring())
    ET.fromstring(w.chart.value)
    with pytest.raises(ValueError, match="unknown compass points"):
        w.set_ring(("X",))


# --- regions and mountains -----------------------------------------------------------------------------


def test_reach_rows_rank_both_ways():
    game = {"Taiwan": 0.5, "Philippines": 0.4, "Japan": 0.3, "Korea": 0.2, "South China": 0.1, "Central China": 0.05}
    rows = real.reach_rows(200, "en", game=game)
    assert [r.real_rank for r in rows] == [1, 2, 3, 4, 5, 6]
    assert {r.key: r.game_rank for r in rows}["Taiwan"] == 1
    assert rows[0].count == stats.region_reach(jma.all_storms(), 200)[rows[0].key].count


@pytest.mark.parametrize("lang", LANGS)
def test_region_reach_widget_compares_with_lesson_05(lang):
    from typhoon_edu.ui.lessons.risk import simulate_stats

    w = real.region_reach(lang)
    game = simulate_stats().region_hit_probability
    assert {r.key: r.game_hit for r in w.rows} == pytest.approx({k: float(v) for k, v in game.items()})
    near = {r.key: r.count for r in w.rows}
    w.km.value = 500
    far = {r.key: r.count for r in w.rows}
    assert all(far[k] >= near[k] for k in near) and "500" in w.view.value
    assert i18n.region_name(RULES, w.rows[0].key, lang) in w.summary.value


@pytest.mark.parametrize("lang", LANGS)
def test_mountains_part(lang):
    rows = real.mountain_rows(lang)
    assert len(rows) == 4 and all(r[5] > 0 for r in rows)
    box = real.mountains(lang)
    assert "<svg" in box.snapshot() and realmap.storm_title(jma.find_storm("Meranti"), lang) in box.snapshot()
    ET.fromstring(real.mountains_svg(lang))


@pytest.mark.parametrize("lang", LANGS)
def test_facts_are_rendered_from_the_data(lang):
    text = real.facts("data", lang)._repr_html_()
    assert "169" in text and f"{sum(len(s.fixes) for s in jma.all_storms()):,}" in text
    shares = stats.motion_shares(jma.all_storms(), tropical=True)
    every = stats.motion_shares(jma.all_storms())
    html = real.facts("directions", lang)._repr_html_()
    assert f"{shares['W'] * 100:.1f}%" in html and f"{(every['W'] + every['NW']) * 100:.1f}%" in html
    assert f"{(shares['W'] + shares['NW']) * 100:.1f}%" in html
    with pytest.raises(ValueError):
        real.facts("nothing", lang)


# --- quiz -------------------------------------------------------------------------------------------------


def test_real_quiz_answers_come_from_the_data():
    by = {q.id: q for q in bank.real_bank()}
    assert len(by) >= 6
    shares = stats.motion_shares(jma.all_storms(), tropical=True)
    west = shares["W"] + shares["NW"]
    assert by["west_share"].answer == pytest.approx(west, abs=0.001)
    assert by["cell"].answer == stats.nearest_cell(145.0, 13.1)
    # issue 22.2: a percentage with or without %, and the answer shown as a percentage
    for typed in (f"{west * 100:.0f}%", f"{west * 100:.1f}", f"{west * 100:.1f} %", f"{west * 100:.1f}％"):
        assert check(by["west_share"], typed, "en").correct, typed
    assert not check(by["west_share"], f"{west:.3f}", "en").correct  # a bare number is a percentage: 0.6 % is wrong
    assert by["west_share"].expected("en") == f"{west * 100:.1f}%"
    assert f"{west * 100:.1f}%" in check(by["west_share"], "10", "zh-TW").html("zh-TW")
    assert by["reach"].answer == "d"  # the Philippines
    soudelor = jma.find_storm("Soudelor")
    assert stats.cwa_class(soudelor.max_wind_kt) == 4 and by["class"].answer == "b"


@pytest.mark.parametrize("lang", LANGS)
def test_real_quiz_widget(lang):
    qz = quiz("real", lang)
    assert len(qz.items) >= 6
    before = len(qz.sheet.rows)
    qz.items[0].buttons["c"].click()  # west
    assert qz.right == 1 and len(qz.sheet.rows) == before + 1
    assert i18n.t("lesson.common.right", lang) in qz.items[0].feedback.value
