"""Lessons 01 and 07 on a phone, checked without a browser: every text of their pictures at least 11 CSS px where a
390×844 phone shows them (tests/browser/test_lessons_browser.py and test_lesson07_browser.py measure the page).

Measured in Voilà at 390×844 (touch) before these fixes: lesson 01's compass rose (690 units shown 356 px wide) 6.6 px,
its two bar charts (640 units, 356 px) 6.1 px, its ring (a 510 px canvas shown 360 px wide) 9.9-10.6 px; lesson 07's
forecast map (a 760 px canvas shown 360 px wide) 5.2 px (a guess's lead), 5.7 px (coordinates), 7.1 px (names).
Lesson 04 shows no picture of its own (its game is class play's projector page).

A picture that the page draws twice carries the CSS of :func:`~typhoon_edu.ui.map_text.narrow_css` (a container
query): below its width the phone's drawing is the one on screen. The wide drawings are the ones a laptop and a
projector showed before, unchanged.
"""

from __future__ import annotations

import re

import pytest
from phone_drawing import LEGIBLE_PX, page_says, walk

from typhoon_edu import i18n
from typhoon_edu.realdata.forecast_cases import LEADS, forecast_cases
from typhoon_edu.ui import compass_ring
from typhoon_edu.ui.lessons import compass, forecast
from typhoon_edu.ui.map_text import overlaps, text_box
from typhoon_edu.ui.scene import Circle, Polygon, Text

#: The smallest text a phone may show, CSS px.
#: How wide lesson 01's pictures (the rose, the charts) are on a 390×844 phone in Voilà, CSS px (measured: 356).
PHONE_PICTURE_PX = 356.0
#: How wide lesson 01's ring and lesson 07's map are on that phone, CSS px (measured: 360; 340 to be safe).
PHONE_MAP_PX = 340.0
#: Lesson 07's map on a 1366×768 laptop (fitted to the screen's height: 815-840 px) and lesson 01's charts (960 px).
LAPTOP_MAP_PX = 815.0


def _svgs(html: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", html, flags=re.S)


def _shown(html: str, width: float) -> tuple[str, float]:
    """The picture (an SVG) a page shows of ``html`` in a box ``width`` CSS px wide, and its scale (CSS px per unit).

    With a container query (narrow_css), the phone's drawing (the element of its phone class) below its width, the
    usual one above it; without one, the first SVG."""
    query = re.search(r"@container \(max-width: ([\d.]+)px\) \{\s*\.([\w-]+) \.([\w-]+) \{ display: none", html)
    svgs = _svgs(html)
    if query is None:
        svg = svgs[0]
    else:
        narrow = width <= float(query.group(1))
        wide_class = query.group(3)
        phone_class = re.search(r"\.[\w-]+ \.([\w-]+) \{ display: none !important; \}\n@container", html).group(1)
        wanted = phone_class if narrow else wide_class
        start = html.index(f'class="{wanted}"') if f'class="{wanted}"' in html else html.index(f"class='{wanted}")
        svg = next(s for s in svgs if html.index(s) + len(s) > start)  # the SVG of that class, or the first in it
    view_width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    return svg, width / view_width


def _smallest(svg: str, scale: float) -> list[tuple[str, float]]:
    """The texts of ``svg`` (and their tspans with a size of their own) under 11 px at ``scale``."""
    out = []
    for m in re.finditer(r'<(text|tspan)\b[^>]*font-size="([\d.]+)"[^>]*>([^<]*)', svg):
        if m.group(3).strip() and float(m.group(2)) * scale < LEGIBLE_PX:
            out.append((m.group(3).strip(), round(float(m.group(2)) * scale, 1)))
    return out


# --- lesson 01 ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson01_rose_is_legible_on_a_phone(lang: str) -> None:
    html = compass.compass_rose(lang).children[0].children[0].value
    svg, scale = _shown(html, PHONE_PICTURE_PX)
    assert "<text" in svg and not _smallest(svg, scale), (
        f"the compass rose on a 390 px phone ({lang}): texts under 11 px {_smallest(svg, scale)}")
    # the phone's rose keeps the 16 points and the 7 stops of the ring
    assert svg.count('data-role="point"') == 16 and svg.count('data-role="ring-stop"') == 7
    # a laptop shows the usual rose, unchanged, its texts 11 px or more wherever it is shown
    wide, _ = _shown(html, 616.0)
    assert wide == compass.rose_svg(lang)
    threshold = float(re.search(r"@container \(max-width: ([\d.]+)px", html).group(1))
    assert not _smallest(wide, (threshold + 0.02) / 690)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson01_charts_are_legible_on_a_phone(lang: str) -> None:
    lesson = compass.CompassLesson(lang)
    charts = {"histogram": lesson.chart.value, "motion": _html_of(lesson, "motion")}
    for name, html in charts.items():
        svg, scale = _shown(html, PHONE_PICTURE_PX)
        assert 'data-role="bar"' in svg and not _smallest(svg, scale), (
            f"lesson 01's {name} chart on a 390 px phone ({lang}): texts under 11 px {_smallest(svg, scale)}")
        # every stop (direction group) still has its bars on the phone
        assert svg.count('data-role="bar"') == (14 if name == "histogram" else 12), name
        # a laptop's chart (960 px) is the usual one
        wide, scale = _shown(html, 960.0)
        assert wide.replace(' class="compass-chart-wide"', "") == (compass.histogram_svg(lesson.stats, lang) if name == "histogram" else compass.motion_svg(lang))
        threshold = float(re.search(r"@container \(max-width: ([\d.]+)px", html).group(1))
        assert not _smallest(wide, (threshold + 0.02) / 640), name
    # the saved picture of the lesson is the usual drawing
    assert compass.histogram_svg(lesson.stats, lang) in lesson.snapshot()
    # the phone charts' stripes are their own: one page showing both must not give the second the first's pattern
    ids = [i for html in charts.values() for i in re.findall(r'pattern id="([^"]+)"', _shown(html, PHONE_PICTURE_PX)[0])]
    assert len(ids) == len(set(ids)) == 2, ids


def _html_of(lesson: compass.CompassLesson, what: str) -> str:
    """The live HTML that shows the lesson's motion chart."""
    import ipywidgets as widgets

    found = [w.value for w in walk(lesson) if isinstance(w, widgets.HTML) and "motion" in what
             and compass.motion_svg(lesson.lang)[5:] in w.value]
    assert len(found) == 1
    return found[0]




@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson01_ring_is_legible_on_a_phone(lang: str) -> None:
    ring = compass.CompassLesson(lang).ring
    # the canvas's drawing is the usual one (a laptop's, a projector's)
    assert ring.shapes() == compass_ring.ring_scene(ring.rules, ring.stop, lang, 300)
    below = ring.compact_below or 0
    # on a phone the compact drawing (no names: the label under the ring names the stop) is shown, an SVG as wide as
    # the ring's box
    if PHONE_MAP_PX < below:
        svg = ring.compact.value
        view_width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
        small = _smallest(svg, PHONE_MAP_PX / view_width)
    else:
        small = [(s.text, round(compass_ring.drawn_size(s.size) * PHONE_MAP_PX / ring.canvas.width, 1))
                 for s in ring.shapes() if isinstance(s, Text)
                 if compass_ring.drawn_size(s.size) * PHONE_MAP_PX / ring.canvas.width < LEGIBLE_PX]
    assert not small, f"lesson 01's ring on a 390 px phone ({lang}): texts under 11 px {small}"
    # wherever the canvas is shown (from the container query's width up) its texts are 11 px or more
    texts = [compass_ring.drawn_size(s.size) for s in ring.shapes() if isinstance(s, Text)]
    assert min(texts) * below / ring.canvas.width >= LEGIBLE_PX


# --- lesson 07 ---------------------------------------------------------------------------------------------------


def _played(lang: str, key: str) -> forecast.ForecastChallenge:
    """Lesson 07's challenge on storm ``key``: three guesses placed a degree off the truth, revealed, two teams."""
    ch = forecast.ForecastChallenge(lang)
    ch.select(key)
    truth = ch.rnd.case.truth
    ch.teams = {"Owls": {h: (truth[h].lat + 1.5, truth[h].lon - 1) for h in LEADS},
                "Bats": {h: (truth[h].lat - 1, truth[h].lon + 1.5) for h in LEADS}}
    for h in LEADS:
        ch.rnd.place(truth[h].lat + 1, truth[h].lon + 1)
    ch.reveal()
    return ch




@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("key", [c.key for c in forecast_cases()])
def test_lesson07_map_is_legible_on_a_phone(lang: str, key: str) -> None:
    ch = _played(lang, key)
    scale = PHONE_MAP_PX / ch.rnd.proj.width
    # before the page says anything (and on a laptop) the drawing is the usual one
    usual = ch.static_shapes() + ch.dynamic_shapes()
    small = sorted({(t.role, t.text, round(t.size * scale, 1)) for t in usual if isinstance(t, Text)
                    and t.size * scale < LEGIBLE_PX})
    assert small, "the usual drawing is expected to be too small on a phone (the test would not test)"
    page_says(getattr(ch, "map_width", None), True, "the forecast map")
    texts = [s for s in ch.static_shapes() + ch.dynamic_shapes() if isinstance(s, Text)]
    small = sorted({(t.role, t.text, round(t.size * scale, 1)) for t in texts if t.size * scale < LEGIBLE_PX})
    assert not small, f"lesson 07's map on a 390 px phone ({key}, {lang}): texts under 11 px {small}"
    assert ch.map_width.drawing == "phone"
    # each lead's number fits its marker (a guess's circle, the truth's diamond, a team's initial its circle)
    shapes = ch.dynamic_shapes()
    for t in texts:
        if t.role in ("guess-label", "truth-label", "team-initial"):
            marker = next(s for s in shapes if s.role == {"guess-label": "guess", "truth-label": "truth-mark",
                                                           "team-initial": "team-guess"}[t.role]
                          and s.key == t.key and _centre(s) == (t.x, t.y))
            x0, y0, x1, y1 = text_box(t)
            half = max(x1 - x0, y1 - y0) / 2
            if isinstance(marker, Circle):
                assert (x1 - x0) ** 2 / 4 + (y1 - y0) ** 2 / 4 <= marker.r ** 2, (t.role, t.text, marker.r, half)
            else:
                reach = abs(marker.points[0][1] - t.y)
                assert (x1 - x0) / 2 + (y1 - y0) / 2 <= reach, (t.role, t.text, reach)
    # the map's coordinates and names keep off each other and inside the map (realmap's phone drawing)
    static = [t for t in ch.static_shapes() if isinstance(t, Text)]
    boxes = [(t.text, text_box(t)) for t in static]
    met = [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:] if overlaps(ba, bb)]
    assert not met, f"texts that run into each other on the phone's map ({key}, {lang}): {met}"
    w, h = ch.rnd.proj.width, ch.rnd.proj.height
    off = [name for name, b in boxes if b[0] < 0 or b[1] < 0 or b[2] > w or b[3] > h]
    assert not off, f"texts past the map's edge ({key}, {lang}): {off}"
    # the saved picture is the usual drawing, whatever the page shows
    assert ch.to_svg() == forecast.shapes_to_svg(usual, w, h, title=re.search(r"<title>(.*?)</title>", ch.to_svg()).group(1))
    # a wide page gets the usual drawing back, exactly
    page_says(getattr(ch, "map_width", None), False, "the forecast map")
    assert ch.static_shapes() + ch.dynamic_shapes() == usual and ch.map_width.drawing == "wide"
    assert min(t.size for t in usual if isinstance(t, Text)) * LAPTOP_MAP_PX / w >= LEGIBLE_PX


def _centre(shape: object) -> tuple[float, float]:
    if isinstance(shape, Circle):
        return (shape.cx, shape.cy)
    assert isinstance(shape, Polygon)
    xs, ys = [p[0] for p in shape.points], [p[1] for p in shape.points]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def test_lesson07_phone_drawing_is_asked_for_below_the_real_maps_width() -> None:
    """The page's helper watches the forecast map's canvas and asks for the phone's drawing below the width where
    the usual drawing's coordinates would fall under 11 px (the real map's, lesson 06)."""
    from typhoon_edu.ui import realmap

    ch = forecast.ForecastChallenge("en")
    page_says(getattr(ch, "map_width", None), False, "the forecast map")
    assert ch.map_width.target == ch.access.target and ch.map_width.target in ch.canvas._dom_classes
    assert ch.map_width.narrow_below == realmap.NARROW_MAP_PX
    assert ch.map_width in walk(ch)
