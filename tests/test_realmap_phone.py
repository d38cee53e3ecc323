"""Lesson 06's real-storm map on a phone, checked without a browser (tests/browser/test_realmap_phone.py measures the
drawing a 390×844 phone shows).

The map is a 760 px canvas that CSS scales to the page: on a phone (about 360 px wide) its coordinates (12 px) and
region names (15 px) came out at 5.4–7 px. The map now draws a second time for narrow widths, every text at least
11 CSS px at :data:`PHONE_MAP_PX`, and a container query on the map's own width shows that drawing below
``realmap.NARROW_MAP_PX``; a laptop's map (about 810 px) keeps the usual drawing.
"""

from __future__ import annotations

import pytest

from typhoon_edu import i18n
from typhoon_edu.ui import realmap
from typhoon_edu.ui.map_text import overlaps, text_box
from typhoon_edu.ui.scene import Text

#: The smallest text a phone must show, CSS px (the brief: at least 11 px as rendered).
PHONE_TEXT_PX = 11.0
#: How wide a lesson's map is drawn on a 390×844 phone in Voilà, CSS px (lesson 05's heat map 340, the real map 360:
#: the narrower one).
PHONE_MAP_PX = 340.0
#: The real map's width on a 1366×768 laptop in Voilà, CSS px (measured: 813).
LAPTOP_MAP_PX = 810.0


def _texts(shapes: list) -> list[Text]:
    return [s for s in shapes if isinstance(s, Text)]


def _drawing_at(view: realmap.RealStormMap, map_px: float) -> tuple[list[Text], float]:
    """The texts of the drawing a page shows when the map is ``map_px`` CSS px wide, and its scale (CSS px per canvas
    px). A view with a phone drawing shows it below ``NARROW_MAP_PX``; a view with one drawing shows that one always."""
    narrow = getattr(realmap, "NARROW_MAP_PX", 0)
    phone = getattr(view, "phone_canvas", None) is not None and map_px < narrow
    shapes = view.static_shapes(phone=True) if phone else view.static_shapes()
    return _texts(shapes + view.dynamic_shapes()), map_px / view.canvas.width


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_real_maps_texts_are_legible_on_a_phone(lang: str) -> None:
    # on a 390 px phone the map's coordinates were 12 px and its names 15 px of a 760 px canvas: 5.4 and 6.7 px
    view = realmap.RealStormMap(lang, "Soudelor")
    texts, scale = _drawing_at(view, PHONE_MAP_PX)
    small = sorted({(t.role, t.text, round(t.size * scale, 1)) for t in texts if t.size * scale < PHONE_TEXT_PX})
    assert not small, f"texts on the real map under {PHONE_TEXT_PX} px on a 390 px phone ({lang}): {small}"
    # every region keeps its name, and the map keeps coordinates both ways (fewer where they would run together)
    assert sorted(t.key for t in texts if t.role == "label") == sorted(realmap.LABELS)
    coords = [t for t in texts if t.role == "graticule-label"]
    lons = [t.text for t in coords if t.y == view.proj.height - 4]  # along the bottom edge
    assert len(lons) >= 3 and len(coords) - len(lons) >= 3, [t.text for t in coords]
    # no text runs into another or off the map
    boxes = [(t.text, text_box(t)) for t in texts]
    w, h = view.proj.width, view.proj.height
    off = [name for name, b in boxes if b[0] < 0 or b[1] < 0 or b[2] > w or b[3] > h]
    assert not off, f"texts past the map's edge ({lang}): {off}"
    met = [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:] if overlaps(ba, bb)]
    assert not met, f"texts that run into each other on the phone's map ({lang}): {met}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_laptop_keeps_the_usual_drawing(lang: str) -> None:
    view = realmap.RealStormMap(lang, "Soudelor")
    # the usual drawing is the one lesson 07's map and the saved SVG draw, as before
    assert view.static_shapes() == realmap.static_scene(view.proj, lang, view.rules)
    texts, scale = _drawing_at(view, LAPTOP_MAP_PX)
    assert min(t.size for t in texts) == 12.0 and min(t.size for t in texts) * scale >= PHONE_TEXT_PX
    # wherever the usual drawing is shown (down to the container query's width), its smallest text is 11 px or more
    css = view.map_css.value
    assert f"@container (max-width: {realmap.NARROW_MAP_PX - 0.02}px)" in css and ".real-map-phone" in css
    texts, scale = _drawing_at(view, realmap.NARROW_MAP_PX)
    assert min(t.size for t in texts) * scale >= PHONE_TEXT_PX
    # the container is the map's own box (beside the board on a laptop, alone on a phone), holding both drawings
    box = next(c for c in _boxes(view) if view.canvas in getattr(c, "children", ()))
    assert "real-map-box" in box._dom_classes and view.phone_canvas in box.children


def _boxes(widget: object) -> list:
    out = []
    for child in getattr(widget, "children", ()):
        out.append(child)
        out.extend(_boxes(child))
    return out


def test_both_drawings_answer_to_the_keyboard_and_are_drawn_when_a_browser_connects(monkeypatch: pytest.MonkeyPatch
                                                                                    ) -> None:
    view = realmap.RealStormMap("zh-TW", "Meranti")
    # one name, description and focus for both drawings (the map's text description is the info panel's words)
    assert view.access.target in view.canvas._dom_classes and view.access.target in view.phone_canvas._dom_classes
    assert "百帕" in view.access.label
    painted: list[tuple[object, tuple[int, ...]]] = []
    monkeypatch.setattr(realmap, "repaint", lambda canvas, layers: painted.append((canvas, tuple(sorted(layers)))))
    # in Voilà a canvas has no memory: each drawing is drawn again when a browser connects to it
    view.phone_canvas._canvases[-1]._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert painted == [(view.phone_canvas, (0, 1))]
    # a step of the time slider moves the storm on both drawings
    painted.clear()
    view.show(5)
    assert {canvas for canvas, layers in painted if layers == (1,)} == {view.canvas, view.phone_canvas}
    assert view.static_shapes(phone=True) != view.static_shapes()
