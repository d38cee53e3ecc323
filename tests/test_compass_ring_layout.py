"""The compass ring's layout: every stop's code inside its circle, nothing overlapping, nothing outside the box, and
the projector's ring without its names where it is drawn too small to read them (a phone).

The projector draws the ring at size 260, label_scale 1.45, ratio 2.05 (classplay/screens.py) in a box 520 px wide
at 1920×1080, 22rem (352 px) at 1366 and 1024 px, and min(22rem, 55vw) on a phone: 214.5 px at 390×844
(classplay/theme.py, ``.typhoon-compass``). Lesson 01 draws it at size 300. Before this layout, the projector's
three-letter codes ("WNW", 19 px bold, about 49 px wide) spilled over their 41.6 px circles, and on a phone its
names were 18.85 × 214.5 / 533 = 7.6 px on screen.
"""

from __future__ import annotations

import math
import re

import ipywidgets as widgets
import pytest

from typhoon_edu import i18n
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.classplay.screens import RING_LABEL_SCALE, RING_RATIO, ProjectorGameScreen
from typhoon_edu.ui.compass_ring import (
    COMPACT_RATIO,
    LEGIBLE_PX,
    CompassRing,
    code_reach,
    compact_width,
    drawn_size,
    ring_scene,
    ring_width,
    text_box,
    text_width,
)
from typhoon_edu.ui.guard import Problems
from typhoon_edu.ui.scene import Circle, Polygon, Text

RULES = load_rules()

#: (size, label_scale, ratio, names): the projector's ring, its compact drawing, lesson 01's, a small one.
CASES = {
    "projector": (260, RING_LABEL_SCALE, RING_RATIO, True),
    "projector-compact": (260, RING_LABEL_SCALE, COMPACT_RATIO, False),
    "lesson": (300, 1.0, 1.7, True),
    "views": (120, 1.0, 1.7, True),
}

#: Bold advance widths in em that Chromium measures in Noto Sans CJK TC (the page's font) and Liberation Sans
#: (Arial's metrics): the estimate must never be narrower than either.
MEASURED_BOLD_EM = {
    "Noto Sans CJK TC": {"N": 0.749, "NNE": 2.113, "NE": 1.364, "E": 0.615, "WSW": 2.451, "WNW": 2.579, "NNW": 2.413},
    "Liberation Sans": {"N": 0.722, "NNE": 2.111, "NE": 1.389, "E": 0.667, "WSW": 2.555, "WNW": 2.61, "NNW": 2.388},
}

#: The ring's box on screen, CSS px (classplay/theme.py).
PROJECTOR_PX, SMALL_PROJECTOR_PX, PHONE_PX = 520.0, 352.0, min(22 * 16, 0.55 * 390)
#: A margin, px of the drawing, between a code's ends and the inside of its circle's ring.
MARGIN = 2.0


def scene(case: str, stop: str, lang: str) -> list:
    size, scale, ratio, names = CASES[case]
    return ring_scene(RULES, stop, lang, size, label_scale=scale, ratio=ratio, names=names)


def all_scenes():
    for case in CASES:
        for lang in i18n.LANGS:
            for stop in RULES.ring:  # the stop the indicator is on has the thickest ring
                yield case, lang, stop, scene(case, stop, lang)


def test_the_width_estimate_is_never_narrower_than_the_fonts() -> None:
    for font, widths in MEASURED_BOLD_EM.items():
        for code, em in widths.items():
            assert text_width(code, 100) >= em * 100, f"{code} in {font}: {em} em, estimated {text_width(code, 100) / 100}"


@pytest.mark.parametrize("case", list(CASES))
def test_every_code_fits_inside_its_circle_with_a_margin(case: str) -> None:
    for _case, lang, stop, shapes in all_scenes():
        if _case != case:
            continue
        circles = {s.key: s for s in shapes if isinstance(s, Circle) and s.role == "stop"}
        for code in (s for s in shapes if isinstance(s, Text) and s.role == "stop-key"):
            assert code.text == code.key and code.text.isascii(), (lang, code.text)  # the same Latin code in zh-TW
            circle = circles[code.key]
            inner = circle.r - circle.line_width / 2  # the inside of the circle's ring
            size = drawn_size(code.size)
            width = text_width(code.text, size)
            assert width <= 2 * inner - 2 * MARGIN, \
                f"{case} {lang} on {stop}: {code.text} at {size:.0f} px is ~{width:.1f} px wide, its circle {2 * inner:.1f}"
            # a code is a box: its corners, not only its ends, stay inside the round ring
            assert code_reach(code.text, size) <= inner + 1e-9, (case, lang, stop, code.text)
            assert math.hypot(width / 2, 0.4 * size) + MARGIN <= inner, (case, lang, stop, code.text)


def test_the_projector_keeps_its_back_row_sizes() -> None:
    """At 1920 the box is 520 px for 533 px of drawing: the names stay at least 18 px on screen (the back row,
    tests/browser/test_classroom_backrow.py) and the codes 17.5 px (18 px of the drawing: 19 px would need circles
    that leave no room for the names beside them); the circles grew from 20.8 px to hold the codes."""
    scale = PROJECTOR_PX / ring_width(260, RING_RATIO)
    for lang in i18n.LANGS:
        shapes = scene("projector", "N", lang)
        names = [drawn_size(s.size) for s in shapes if isinstance(s, Text) and s.role == "stop-name"]
        codes = {s.text: drawn_size(s.size) for s in shapes if isinstance(s, Text) and s.role == "stop-key"}
        assert min(names) * scale >= 18 and min(codes.values()) * scale >= 17.5, (names, codes)
        assert len({v for k, v in codes.items() if len(k) == 3}) == 1  # "NNW" as large as "WNW"
        r = {s.r for s in shapes if isinstance(s, Circle) and s.role == "stop"}
        assert len(r) == 1 and r.pop() > 260 * 0.08 + 5  # all alike


@pytest.mark.parametrize("case", list(CASES))
def test_stops_do_not_overlap_and_the_arrowheads_sit_between_them(case: str) -> None:
    shapes = scene(case, "N", "en")
    stops = [s for s in shapes if isinstance(s, Circle) and s.role == "stop"]
    lw = max(s.line_width for s in stops)
    for i, a in enumerate(stops):
        for b in stops[i + 1:]:
            assert math.hypot(a.cx - b.cx, a.cy - b.cy) >= a.r + b.r + lw, (case, a.key, b.key)
    heads = [s for s in shapes if isinstance(s, Polygon) and s.role == "clockwise"]
    assert len(heads) == len(stops)
    for head in heads:
        for x, y in head.points:
            for stop in stops:
                assert math.hypot(x - stop.cx, y - stop.cy) >= stop.r + stop.line_width / 2, (case, stop.key)
        side = math.dist(head.points[1], head.points[2])
        assert side >= CASES[case][0] * 0.016 * 2 - 1e-6, (case, side)  # an arrowhead one can see


def box_meets_circle(box: tuple[float, float, float, float], c: Circle) -> bool:
    nx, ny = min(max(c.cx, box[0]), box[2]), min(max(c.cy, box[1]), box[3])
    return math.hypot(nx - c.cx, ny - c.cy) < c.r + c.line_width / 2


@pytest.mark.parametrize("case", list(CASES))
def test_names_and_circles_stay_inside_the_box_and_apart(case: str) -> None:
    size, _scale, ratio, _names = CASES[case]
    width, height = ring_width(size, ratio), size
    for _case, lang, stop, shapes in all_scenes():
        if _case != case:
            continue
        stops = [s for s in shapes if isinstance(s, Circle) and s.role == "stop"]
        for c in stops:
            assert c.r <= c.cx <= width - c.r and c.r <= c.cy <= height - c.r, (case, lang, c.key)
        for t in (s for s in shapes if isinstance(s, Text) and s.role in ("stop-name", "clockwise-label")):
            box = text_box(t.x, t.y, t.text, drawn_size(t.size), t.align, t.baseline)
            assert box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height, \
                f"{case} {lang} on {stop}: {t.text!r} {box} leaves the {width}x{height} box"
            hit = [c.key for c in stops if box_meets_circle(box, c)]
            assert not hit, f"{case} {lang} on {stop}: {t.text!r} covers the stops {hit}"


def test_the_lesson_ring_keeps_its_place() -> None:
    """Lesson 01's ring had room: it stays where it was, only its circles a little larger for its codes."""
    stops = [s for s in scene("lesson", "N", "en") if isinstance(s, Circle) and s.role == "stop"]
    assert (stops[0].cx, stops[0].cy) == (255.0, 57.0)
    assert 24 <= stops[0].r <= 26


def projector_ring(lang: str) -> CompassRing:
    """The ring of the projector's game screen (classplay/screens.py)."""
    screen = ProjectorGameScreen(RULES, lang, widgets.VBox(), Problems(lambda: lang))
    return screen.ring


def shown_texts(ring: CompassRing, box_px: float) -> list[tuple[str, float]]:
    """The texts the page shows for ``ring`` in a box ``box_px`` CSS px wide and their size on screen (CSS px)."""
    compact = ring.compact_below is not None and box_px < ring.compact_below
    ratio = COMPACT_RATIO if compact else ring.ratio
    shapes = ring_scene(ring.rules, ring.stop, ring.lang, ring.size, label_scale=ring.label_scale, ratio=ratio,
                        names=not compact)
    scale = box_px / ring_width(ring.size, ratio)
    return [(s.text, drawn_size(s.size) * scale) for s in shapes if isinstance(s, Text)]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_projector_ring_on_a_phone_shows_no_name_too_small_to_read(lang: str) -> None:
    ring = projector_ring(lang)
    on_phone = shown_texts(ring, PHONE_PX)
    small = [(t, round(px, 1)) for t, px in on_phone if px < LEGIBLE_PX]
    assert not small, f"on a phone ({PHONE_PX} px) the ring shows text too small to read: {small}"
    names = {i18n.direction_name(RULES, k, lang) for k in RULES.ring} - set(RULES.ring)
    assert not names & {t for t, _ in on_phone}  # dropped: the label under the ring names the indicator's stop
    assert set(RULES.ring) <= {t for t, _ in on_phone}  # the codes stay
    # on the projector, 1920 and the smaller ones (where the ring is as wide as on a tablet), the names are shown
    for box in (PROJECTOR_PX, SMALL_PROJECTOR_PX):
        shown = shown_texts(ring, box)
        assert names <= {t for t, _ in shown}, box
        assert min(px for t, px in shown if t in names) >= LEGIBLE_PX
        assert min(px for t, px in shown if t in RULES.ring) >= LEGIBLE_PX * 18 / 19  # the codes: 18 px to the names' 19
    assert PHONE_PX < ring.compact_below <= SMALL_PROJECTOR_PX


def test_the_page_switches_by_the_rings_own_width() -> None:
    ring = projector_ring("zh-TW")
    assert ring.compact_below == compact_width(RULES, 260, label_scale=RING_LABEL_SCALE, ratio=RING_RATIO)
    assert ring.compact is not None and ring.children.index(ring.compact) == ring.children.index(ring.canvas) + 1
    assert {"typhoon-ring", f"typhoon-ring-below-{ring.compact_below}"} <= set(ring._dom_classes)
    assert "typhoon-ring-full" in ring.canvas._dom_classes and "typhoon-ring-compact" in ring.compact._dom_classes
    value = ring.compact.value
    assert f"@container (max-width: {ring.compact_below - 0.02:.2f}px)" in value and "container-type: inline-size" in value
    assert 'data-role="stop-name"' not in value and value.count('data-role="stop-key"') == len(RULES.ring)
    ring.set_stop("WSW")
    assert re.search(r'<circle [^>]*fill="#f97316"[^>]*data-role="stop" data-key="WSW"', ring.compact.value)
    ring.set_lang("en")
    assert "clockwise" in ring.compact.value and "順時針" not in ring.compact.value
    # the lessons' rings have no compact drawing: nothing changes there
    lesson = CompassRing(RULES, size=300)
    assert lesson.compact is None and "typhoon-ring" not in lesson._dom_classes
