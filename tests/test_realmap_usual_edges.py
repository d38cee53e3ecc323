"""The real-storm maps' usual drawing (a laptop's, and the saved SVG) keeps every coordinate and name inside the
picture, as the phone drawing does: lesson 07's "recurve" case cut "Central China" in half at the top, and its
"steady" case drew "30°N" wholly above the map, where nobody saw it (found by review)."""

from __future__ import annotations

import pytest

from typhoon_edu import i18n
from typhoon_edu.realdata.forecast_cases import forecast_cases
from typhoon_edu.ui.lessons import forecast as fw
from typhoon_edu.ui.map_text import text_box
from typhoon_edu.ui.realmap import Projection, static_scene
from typhoon_edu.ui.scene import Text


def _outside(proj: Projection, lang: str) -> list[str]:
    out = []
    for t in static_scene(proj, lang):
        if isinstance(t, Text):
            x0, y0, x1, y1 = text_box(t)
            if x0 < -0.5 or y0 < -0.5 or x1 > proj.width + 0.5 or y1 > proj.height + 0.5:
                out.append(f"{t.role} {t.text!r} ({x0:.0f}, {y0:.0f}, {x1:.0f}, {y1:.0f})")
    return out


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_text_of_the_usual_drawing_lies_inside_the_map(lang: str) -> None:
    projections = {"lesson 06": Projection(), **{f"lesson 07 {c.key}": fw.case_projection(c) for c in forecast_cases()}}
    found = {name: bad for name, proj in projections.items() if (bad := _outside(proj, lang))}
    assert not found, f"texts past the map's edge ({lang}): {found}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_name_moved_inside_covers_no_coordinate(lang: str) -> None:
    from typhoon_edu.ui.map_text import overlaps

    for c in forecast_cases():
        texts = [t for t in static_scene(fw.case_projection(c), lang) if isinstance(t, Text)]
        boxes = [(t.text, text_box(t)) for t in texts]
        met = [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:] if overlaps(ba, bb)]
        assert not met, f"lesson 07 {c.key} ({lang}): texts on each other {met}"
