"""Lessons 03–06 and the shared lesson widgets: what a walk on a phone and with a screen reader found, checked without a
browser (tests/browser/test_lessons_walk_0206.py measures the same texts on a 390 px phone).

* The heat map's legend (lessons 05, 06) was drawn on the canvas and shrank with it: on a 390×844 phone its note
  came out about 5 px high. It is HTML under the canvas now, in the page's own size.
* Lesson 06's charts (the directions, the regions reached) were upright bars 640 units wide: on a phone their labels
  and values were 5–8 px. They are horizontal bars drawn about a phone's width, at most 460 px wide on a laptop.
* Lesson 05's explorer: its verdict (right / wrong) was shown but not said; the map's live region said only the new
  map. The map's live region says the verdict first, once; the feedback box is no second live region.
* A prediction's next step ("Now press 'Two storms meet' and check.") stayed on the screen under its verdict.
* The name field's hint said the options are shuffled once the name is in, while the options are on the page before.
* Lesson 04's region table right-aligned the regions' names.
"""

from __future__ import annotations

import re
from html import escape

import numpy as np
import pytest

from typhoon_edu import i18n
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui import heatmap
from typhoon_edu.ui.lessons import intensity, real, risk
from typhoon_edu.ui.lessons.bank import bank
from typhoon_edu.ui.lessons.game import rules_guide
from typhoon_edu.ui.quiz import AnswerSheet, Quiz, forget_sheets

RULES = load_rules()
#: The smallest text a phone must show, in CSS px (the brief: ≥ 11 px as rendered).
PHONE_TEXT_PX = 11.0
#: How wide a lesson's map or chart is drawn on a 390×844 phone in Voilà, in CSS px (measured by the browser test:
#: the page's and the output area's margins take the rest).
PHONE_CONTENT_PX = 340.0


@pytest.fixture(autouse=True)
def _fresh_sheets():
    forget_sheets()
    yield
    forget_sheets()


# --- 1. the heat map's legend ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_live_heat_maps_legend_is_legible_on_a_phone(lang):
    view = heatmap.HeatMapView(RULES, np.full((12, 16), 0.03), lang, cell=48)
    scale = PHONE_CONTENT_PX / view.canvas.width
    legend = [s for s in view.heat_shapes() if s.role.startswith("legend") and hasattr(s, "text")]
    small = [(s.role, s.text, round(s.size * scale, 1)) for s in legend if s.size * scale < PHONE_TEXT_PX]
    assert not small, f"legend texts drawn on the canvas, under {PHONE_TEXT_PX} px on a phone: {small}"
    # the legend is HTML under the canvas: its title, seven swatches and the note, in the page's size
    html = view.legend.value
    assert view.legend in view.children and view.children.index(view.legend) == view.children.index(view.canvas) + 1
    assert escape(i18n.t("risk.map.legend_blank", lang)) in html and escape(i18n.t("risk.map.legend_title", lang)) in html
    assert html.count("heat-legend-swatch") == len(heatmap.HEAT_COLOURS)
    assert "max(13px" in html
    # the canvas holds the map only (no empty strip where the legend was)
    assert view.canvas.height == heatmap.BoardGeometry.for_rules(RULES, 48).pixel_size[1]


def test_a_saved_heat_map_keeps_its_legend():
    svg = heatmap.heatmap_svg(RULES, np.full((12, 16), 0.03), "en")
    assert 'data-role="legend-note"' in svg and svg.count('data-role="legend-swatch"') == 7


# --- 2. lesson 06's charts -------------------------------------------------------------------------------------------


def _svg_texts(html: str) -> tuple[float, list[tuple[str, float]]]:
    """The SVG's drawing width and each of its texts with its font size (drawing units)."""
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', html).group(1))
    texts = re.findall(r'<text[^>]*font-size="([\d.]+)"[^>]*>([^<]*)</text>', html)
    return width, [(t, float(size)) for size, t in texts]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson06_charts_are_legible_on_a_phone_and_not_huge_on_a_laptop(lang):
    model = real.directions_model()
    charts = {"directions": real.directions_svg(model, None, lang),
              "reach": real.reach_html(real.reach_rows(real.REACH_KM, lang), real.REACH_KM, lang)}
    for name, html in charts.items():
        width, texts = _svg_texts(html)
        assert texts, name
        phone = PHONE_CONTENT_PX / width  # the chart fills the phone's width
        small = [(t, round(size * phone, 1)) for t, size in texts if size * phone < PHONE_TEXT_PX]
        assert not small, f"{name} chart on a 390 px phone ({lang}): texts under {PHONE_TEXT_PX} px: {small[:6]}"
        # on a laptop it is drawn at most HBAR_MAX_PX wide: its words stay under 24 px
        laptop = min(real.HBAR_MAX_PX, 900) / width
        assert max(size for _, size in texts) * laptop <= 24, name
        # every bar has its value written at its end
        assert html.count('data-role="bar"') == html.count('data-role="value"') > 0


# --- 3. lesson 05's verdict, said once --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson05_explorer_says_its_verdict_in_the_maps_live_region(lang):
    ex = risk.RiskExplorer(lang, n=4_000, seed=5)
    ex.use_preset("west")
    ex.prediction.value = "Philippines"
    verdict = ex.run()
    assert verdict is not None and verdict.outcome == "best"
    said = ex.map.access.announce
    best = i18n.t("risk.explore.best", lang, region=i18n.region_name(RULES, "Philippines", lang))
    assert said.startswith("✔") and best in said, said
    assert said.endswith(ex.map.access.label)  # then the new map in words
    # one live region: the feedback box shows the same words and is none
    assert "aria-live" not in ex.feedback.value and "role='status'" not in ex.feedback.value


# --- 4. a prediction's next step; the name's hint --------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_predictions_next_step_goes_once_it_is_done(lang):
    lesson = intensity.intensity_lesson(lang)
    p = lesson.prediction
    then = i18n.t("lesson.predict.intensity.merge.then", lang)
    p.lock_in("a")
    assert then in p.status.value  # what to do next, until it is done
    lesson.play("merge", speed=0)
    assert "prediction-verdict" in p.status.value
    assert then not in p.status.value, "the step 'press Two storms meet' is still asked for under its verdict"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson06s_next_step_stays_with_its_verdict(lang):
    # its observation is the table the lock-in shows; the step also asks to move the slider after it
    w = real.region_reach(lang)
    w.prediction.lock_in("a")
    assert "prediction-verdict" in w.prediction.status.value
    assert i18n.t("lesson.predict.real.reach.then", lang) in w.prediction.status.value


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_name_hint_says_the_options_shown_change_order(lang):
    # the options are on the page before a name is typed; the hint said "type your name first: the options are then
    # shuffled", as if they came after it. It says the options already shown move into the student's own order.
    sheet = AnswerSheet(lang, "x", store=None)
    qz = Quiz(bank("intensity"), lang, sheet=sheet)
    choice = next(item for item in qz.items if item.question.kind == "choice")
    assert choice.options_box is not None and choice.options_box.layout.display != "none"
    hint = re.sub(r"<[^>]+>", "", sheet.status.value)
    already = {"en": "already on the page", "zh-TW": "頁面上"}[lang]
    assert already in hint, hint
    before = choice.order
    sheet.set_student("Mei 7B")
    assert sorted(choice.order) == sorted(before)


# --- 5. lesson 04's region table --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson04_region_names_are_left_aligned(lang):
    html = rules_guide(lang)._repr_html_()
    style = re.search(r"<style>(.*?)</style>", html).group(1)
    rule = re.search(r"\.rules-guide-regions td:first-child[^{]*\{([^}]*)\}", style)
    assert rule is not None and "text-align:left" in rule.group(1), style


# --- 6. the heat map's own texts on a phone ---------------------------------------------------------------------------


def _drawing_at(view: heatmap.HeatMapView, map_px: float) -> tuple[list, float]:
    """The texts of the drawing a page shows when the map is ``map_px`` CSS px wide, and its scale (CSS px per canvas
    px). The view's CSS shows its phone drawing below ``NARROW_MAP_PX`` (a view with one drawing shows it always)."""
    phone = getattr(view, "phone_canvas", None)
    narrow = getattr(heatmap, "NARROW_MAP_PX", 0)
    shapes = (view.board_shapes(phone=True) + view.heat_shapes(phone=True) if phone is not None and map_px < narrow
              else heatmap.static_scene(RULES, view.lang, view.cell) + view.heat_shapes())
    return [s for s in shapes if isinstance(s, heatmap.Text)], map_px / view.canvas.width


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_heat_maps_numbers_names_and_coordinates_are_legible_on_a_phone(lang):
    # lesson 05's map on a 390 px phone: its numbers, names and coordinates were 12.5-14.4 px of an 816 px canvas,
    # about 5-6 px on the screen. The phone's drawing has every text at 11 px or more.
    rng = np.random.default_rng(3)
    p = rng.uniform(0.0, 0.3, (12, 16))
    p[0, :3] = 0.0
    view = heatmap.HeatMapView(RULES, p, lang, cell=48)
    texts, scale = _drawing_at(view, PHONE_CONTENT_PX)
    small = sorted({(s.role, round(s.size * scale, 1)) for s in texts if s.size * scale < PHONE_TEXT_PX})
    assert not small, f"texts on the heat map under {PHONE_TEXT_PX} px on a 390 px phone ({lang}): {small}"
    roles = {s.role for s in texts}
    assert {"heat-value", "region-label", "zone-label", "coord"} <= roles, roles
    # a number is never under (or a third of an em beside) a name: where a name covers its cell, the colour says it
    names = [heatmap.text_box(s) for s in texts if s.role in ("region-label", "zone-label")]
    numbers = [s for s in texts if s.role == "heat-value"]
    assert not [n.key for n in numbers if any(heatmap._overlaps(heatmap.text_box(n), b) for b in names)]
    assert len(numbers) > 100  # most reached cells keep their number
    # on a laptop the map (about 770 px beside the explorer's controls) is drawn as before, as its saved SVG is
    wide, laptop = _drawing_at(view, 770)
    assert [s for s in wide if s.role == "heat-value"] == [
        s for s in heatmap.heat_scene(RULES, p, lang, 48, legend=False) if s.role == "heat-value"]
    assert min(s.size for s in wide) * laptop >= PHONE_TEXT_PX
    # and wherever the usual drawing is shown, its smallest text is 11 px or more (the CSS's threshold)
    css = view.children[-1].value
    assert f"@container (max-width: {heatmap.NARROW_MAP_PX - 0.02}px)" in css and "heat-map-phone" in css
    # the legend says, there only, why a pale cell or one under a name has no number
    assert escape(i18n.t("risk.map.legend_narrow", lang)) in view.legend.value and "heat-legend-narrow" in css
    wide_at_threshold, scale = _drawing_at(view, heatmap.NARROW_MAP_PX)
    assert min(s.size for s in wide_at_threshold) * scale >= PHONE_TEXT_PX
    # both drawings answer to the same keyboard focus and description (one target class)
    assert view.access.target in view.phone_canvas._dom_classes and view.access.target in view.canvas._dom_classes
