"""Lesson 05 "Which coast is most at risk?": heat-map shapes, ranking logic, spread vs n, widgets in both languages."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from typhoon_edu import i18n
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.sim import simulate_tracks
from typhoon_edu.ui import heatmap, palette
from typhoon_edu.ui.heatmap import (
    HEAT_COLOURS,
    HeatMapView,
    heat_bins,
    heat_cells_scene,
    heat_geometry,
    heat_scene,
    heatmap_svg,
    legend_entries,
    percent_label,
)
from typhoon_edu.ui.lessons import risk
from typhoon_edu.ui.scene import Rect, Text

RULES = load_rules()
SHAPE = (RULES.map.height, RULES.map.width)


# --- heat map: pure functions ---------------------------------------------------------------------


def test_bins_are_ordered_and_zero_is_uncoloured():
    p = np.array([0.0, 1e-6, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0])
    bins = heat_bins(p)
    assert bins[0] == -1
    assert list(bins[1:]) == sorted(bins[1:])
    assert set(bins[1:]) == set(range(len(HEAT_COLOURS)))


def test_bins_reject_probabilities_outside_0_1():
    with pytest.raises(ValueError, match="between 0 and 1"):
        heat_bins([1.2])


def test_palette_gets_darker_with_risk():
    """A sequential palette: relative luminance falls steadily, so order survives colour blindness and greyscale."""

    def luminance(hex_colour: str) -> float:
        r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    values = [luminance(c) for c in HEAT_COLOURS]
    assert values == sorted(values, reverse=True)
    assert len(legend_entries()) == len(HEAT_COLOURS)


@pytest.mark.parametrize(("p", "label"), [(0.0, ""), (0.001, "<1"), (0.0049, "<1"), (0.005, "1"), (0.214, "21"),
                                          (0.9951, "99"), (1.0, "100")])
def test_percent_labels(p, label):
    assert percent_label(p) == label


def test_heat_cells_one_square_and_number_per_reached_cell():
    p = np.zeros(SHAPE)
    p[8, 8], p[0, 15], p[11, 0] = 0.3, 0.004, 1.0
    shapes = heat_cells_scene(RULES, p, cell=40)
    cells = [s for s in shapes if s.role == "heat-cell"]
    values = [s for s in shapes if s.role == "heat-value"]
    assert {s.key for s in cells} == {s.key for s in values} == {"8,8", "15,0", "0,11"}
    by_key = {s.key: s for s in cells}
    geo = heat_geometry(RULES, 40)[0]
    assert (by_key["8,8"].x, by_key["8,8"].y) == geo.cell_origin(8, 8)
    assert by_key["0,11"].fill == HEAT_COLOURS[-1]
    assert {s.key: s.text for s in values} == {"8,8": "30", "15,0": "<1", "0,11": "100"}
    # number text stays readable on the dark colours
    assert next(s for s in values if s.key == "0,11").fill == "#ffffff"


def test_heat_scene_keeps_regions_recognisable_and_has_a_legend():
    shapes = heat_scene(RULES, np.full(SHAPE, 0.06), "zh-TW", cell=32)
    roles = [s.role for s in shapes]
    # region names come after (above) the coloured cells
    assert roles.index("region-label") > max(i for i, r in enumerate(roles) if r == "heat-cell")
    labels = {s.text for s in shapes if isinstance(s, Text) and s.role == "region-label"}
    assert labels == {i18n.region_name(RULES, k, "zh-TW") for k in RULES.regions}
    swatches = [s for s in shapes if s.role == "legend-swatch"]
    assert [s.fill for s in swatches] == list(HEAT_COLOURS)
    # the legend lies below the map, inside the drawing
    geo, width, height = heat_geometry(RULES, 32)
    assert all(isinstance(s, Rect) and s.y >= geo.pixel_size[1] and s.y + s.h <= height for s in swatches)
    assert any(s.role == "legend-title" and "%" in s.text for s in shapes if isinstance(s, Text))


def test_heat_scene_checks_the_array_shape():
    with pytest.raises(ValueError, match=r"\(12, 16\)"):
        heat_scene(RULES, np.zeros((3, 3)))


def test_heatmap_svg_is_valid_and_uses_simulated_probabilities():
    stats = simulate_tracks(3_000, seed=4)
    svg = heatmap_svg(RULES, stats.hit_probability, "en")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    reached = int((stats.hit_probability > 0).sum())
    assert svg.count('data-role="heat-cell"') == reached
    assert svg.count('data-role="region-label"') == len(RULES.regions)


# --- ranking and predictions --------------------------------------------------------------------


def test_ranking_rows_sorted_with_error_bars():
    stats = risk.simulate_stats(n=5_000, seed=11)
    rows = risk.ranking_rows(stats, RULES, "en")
    assert [r.key for r in rows] == [k for k, _ in stats.ranking()]
    assert [r.mean for r in rows] == sorted((r.mean for r in rows), reverse=True)
    for r in rows:
        assert r.se == pytest.approx(stats.expected_damage_se[r.key])
        assert r.high - r.mean == pytest.approx(risk.Z * r.se)
        assert 0.0 <= r.low <= r.mean
        assert r.colour == palette.region_fill(RULES.regions[r.key])


def test_ranking_html_shows_values_and_baseline_marker():
    base = risk.simulate_stats(n=5_000, seed=11)
    west = risk.simulate_stats(("WSW", "W", "WNW"), n=5_000, seed=12)
    html = risk.ranking_html(risk.ranking_rows(west, RULES, "zh-TW"), "zh-TW", baseline=dict(base.expected_damage))
    assert html.count("data-region=") == 6
    assert "▲" in html and "▼" in html  # a non-colour cue for the direction of change
    assert i18n.t("risk.rank.title", "zh-TW") in html


def test_changes_and_noise():
    base = risk.simulate_stats(n=20_000, seed=1)
    same = risk.simulate_stats(n=20_000, seed=2)
    # the same settings twice: no change should look real (at 2 standard errors, allow one fluke)
    assert sum(c.real for c in risk.changes(base, same)) <= 1
    north = risk.simulate_stats(("N", "NNE", "NE"), n=20_000, seed=3)
    by_key = {c.key: c for c in risk.changes(base, north)}
    assert by_key["Japan"].delta > 0 and by_key["Japan"].real
    assert all(by_key[k].after == 0 for k in ("Taiwan", "Philippines", "South China"))


@pytest.mark.parametrize(("ring", "zones", "best"), [
    (("WSW", "W", "WNW"), None, "Philippines"),
    (("N", "NNE", "NE"), None, "Japan"),
    (None, (0,), "Japan"),
])
def test_judge_prediction(ring, zones, best):
    base = risk.simulate_stats(n=20_000)
    new = risk.simulate_stats(ring, zones, n=20_000, seed=99)
    assert risk.judge_prediction(best, base, new).outcome == "best"
    worst = risk.changes(base, new)[-1].key
    verdict = risk.judge_prediction(worst, base, new)
    assert verdict.outcome == "no" and verdict.best == best


def test_judge_prediction_with_unchanged_settings_and_bad_region():
    base = risk.simulate_stats(n=20_000, seed=1)
    again = risk.simulate_stats(n=20_000, seed=1)
    assert risk.judge_prediction("Taiwan", base, again).outcome == "none"
    with pytest.raises(ValueError, match="unknown region"):
        risk.judge_prediction("Atlantis", base, again)


def test_ring_from_points_and_settings():
    assert risk.ring_from_points(["NNW", "N", "E"]) == ("N", "E", "NNW")
    with pytest.raises(ValueError, match="unknown compass points"):
        risk.ring_from_points(["X"])
    assert risk.is_game_setting(tuple(RULES.ring), (2, 1, 0), RULES)
    assert not risk.is_game_setting(tuple(RULES.ring), (0,), RULES)
    for preset in risk.RING_PRESETS.values():
        assert risk.ring_from_points(preset) == preset  # presets are already clockwise


# --- why many runs ------------------------------------------------------------------------------


def test_spread_shrinks_like_one_over_sqrt_n():
    rows = risk.spread_by_n((100, 1_000, 10_000), repeats=4, seed=3)
    assert [r.n for r in rows] == [100, 1_000, 10_000]
    assert [len(r.estimates) for r in rows] == [4, 4, 4]
    assert [r.groups for r in rows] == [400, 40, 4]
    spreads = [r.spread for r in rows]
    assert spreads == sorted(spreads, reverse=True)
    # 10x more tracks -> about sqrt(10) = 3.16x less spread; the 100-track row is measured over 400 runs
    assert 2.3 < spreads[0] / spreads[1] < 4.3
    for r in rows[:2]:
        assert 0.7 < r.spread / r.expected_spread < 1.3
    assert rows[0].expected_spread == pytest.approx(rows[0].sigma / math.sqrt(100))


def test_spread_is_repeatable_and_checks_arguments():
    a = risk.spread_by_n((50, 500), repeats=2, seed=8, region="Japan")
    b = risk.spread_by_n((500, 50), repeats=2, seed=8, region="Japan")
    assert a == b
    with pytest.raises(ValueError, match="unknown region"):
        risk.spread_by_n((100,), repeats=2, region="Mars")
    with pytest.raises(ValueError, match="at least 2"):
        risk.spread_by_n((1,), repeats=2)


def test_spread_chart_and_table():
    rows = risk.spread_by_n((100, 1_000), repeats=3, seed=1)
    svg = risk.spread_svg(rows, "zh-TW", region_name="臺灣")
    assert ET.fromstring(svg).tag.endswith("svg")
    assert svg.count('data-role="run"') == 6 and "臺灣" in svg
    table = risk.spread_table_html(rows, "en")
    assert table.count("<tr>") == 3 and "1,000" in table


# --- real world ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_real_world_table_cites_sources(lang):
    html = risk.real_world_html(risk.simulate_stats(n=5_000, seed=2), RULES, lang)
    for agency in ("PAGASA", "CWA", "JMA", "CMA", "KMA", "IBTrACS"):
        assert agency in html
    rows = risk.real_world_rows(risk.simulate_stats(n=5_000, seed=2), RULES, lang)
    assert sorted(r.game_rank for r in rows) == [1, 2, 3, 4, 5, 6]


# --- widgets, both languages --------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_heatmap_view_construction(lang):
    view = HeatMapView(RULES, np.full(SHAPE, 0.2), lang, cell=24, caption="x")
    assert view.canvas.width == heat_geometry(RULES, 24)[1]
    assert "risk-map" in view.canvas._dom_classes
    view.show(np.zeros(SHAPE), caption="y")
    assert view.caption == "y" and not view.p.any()
    assert "image/svg+xml" in view._repr_mimebundle_()
    view.canvas._canvases[-1]._client_ready_callbacks()  # a browser connecting redraws without error
    assert heatmap.HeatMapView is HeatMapView


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_explorer_predict_then_see(lang):
    ex = risk.RiskExplorer(lang, n=4_000, seed=5)
    assert ex.run_button.disabled  # no prediction yet
    assert ex.ring == tuple(RULES.ring) and ex.zone_indices == (0, 1, 2)
    assert ex.run() is None
    ex.use_preset("west")
    assert ex.ring == ("WSW", "W", "WNW")
    ex.prediction.value = "Philippines"
    assert not ex.run_button.disabled
    verdict = ex.run()
    assert verdict is not None and verdict.outcome == "best"
    assert ex.prediction.value is None and ex.run_button.disabled  # predict again before the next run
    assert "✔" in ex.feedback.value
    assert i18n.t("risk.rank.before", lang, value="").strip() in ex.ranking.value
    assert "WSW" in ex.map.caption or "西南西" in ex.map.caption
    ex.set_zones([])
    ex.prediction.value = "Japan"
    assert ex.run_button.disabled and i18n.t("risk.explore.need_zone", lang) in ex.hint.value
    ex.set_zones([0])
    ex.set_ring(["N", "NNE", "NE"])
    ex.prediction.value = "Taiwan"
    wrong = ex.run()
    assert wrong is not None and wrong.outcome == "no" and "✘" in ex.feedback.value
    assert "text/html" in ex._repr_mimebundle_()


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_spread_demo_construction(lang):
    demo = risk.SpreadDemo(lang, ns=(100, 1_000), repeats=3)
    assert [r.n for r in demo.rows] == [100, 1_000]
    first = demo.rows
    demo.again.click()
    assert demo.rows != first  # new storms, new dots
    demo.region.value = "Japan"
    assert i18n.region_name(RULES, "Japan", lang) in demo.chart.value


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_quiz_gives_instant_feedback_in_the_lessons_language(lang):
    quiz = risk.risk_quiz(lang)
    assert len(quiz.questions) >= 5
    for i, q in enumerate(quiz.questions):
        wrong = (q.answer + 1) % len(q.options)
        assert quiz.answer(i, wrong) is False
        assert "✘" in quiz.feedback[i].value and i18n.t("risk.quiz.wrong", lang) in quiz.feedback[i].value
        assert quiz.answer(i, q.answer) is True
        assert "✔" in quiz.feedback[i].value and q.why in quiz.feedback[i].value
    assert quiz.right_count == len(quiz.questions)
    zh = any("\u4e00" <= ch <= "\u9fff" for q in quiz.questions for ch in q.prompt)
    assert zh == (lang == "zh-TW")


def test_quiz_options_are_distinct_and_answers_in_range():
    for lang in i18n.LANGS:
        for q in risk.risk_questions(lang):
            assert len(set(q.options)) == len(q.options) >= 3
            assert 0 <= q.answer < len(q.options)


def test_risk_strings_exist_in_both_languages():
    en = {k for k in i18n.catalog("en") if k.startswith("risk.")}
    zh = {k for k in i18n.catalog("zh-TW") if k.startswith("risk.")}
    assert en == zh and len(en) > 60


def test_heat_map_numbers_are_not_under_region_or_zone_names():
    # a name drawn over a number hides it (seen on the risk map): the number moves to the top of its cell
    from typhoon_edu.ui import heatmap

    rules = load_rules()
    p = risk.simulate_stats(n=2_000, seed=3).hit_probability
    for lang in ("en", "zh-TW"):
        shapes = heatmap.heat_scene(rules, p, lang, 48)
        labels = [heatmap.text_box(s) for s in shapes if s.role in ("region-label", "zone-label")]
        numbers = [s for s in shapes if s.role == "heat-value"]
        assert numbers and labels
        hidden = [n.key for n in numbers if any(heatmap._overlaps(heatmap.text_box(n), b) for b in labels)]
        assert len(hidden) <= 2, hidden  # at most a cell whose top and bottom are both under a long name
        assert len({round(n.y % 48, 3) for n in numbers}) == 2  # some numbers moved to the top of their cells
        assert len(hidden) < sum(1 for n in heatmap.heat_cells_scene(rules, p, 48) if n.role == "heat-value"
                                 and any(heatmap._overlaps(heatmap.text_box(n), b) for b in labels))
