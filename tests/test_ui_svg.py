"""The widget-free SVG board: well-formed, complete, in both languages."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui import palette
from typhoon_edu.ui.scene import Rect, Text
from typhoon_edu.ui.state import PathPreview, TyphoonView
from typhoon_edu.ui.svg import BoardSVG, board_svg, shape_to_svg

RULES = load_rules()
NS = "{http://www.w3.org/2000/svg}"
TYPHOONS = [TyphoonView(1, (8, 8), 1, "NNW"), TyphoonView(2, (11, 4), 3, "WSW"), TyphoonView(3, (13, 9), 5, "NE")]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_svg_is_well_formed_and_complete(lang):
    root = parse(board_svg(RULES, TYPHOONS, lang, path=PathPreview((8, 8), "NNW", 5), highlights=[(12, 7)]))
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == "0 0 816 624"
    roles = [el.get("data-role") for el in root.iter()]
    assert roles.count("region") == sum(len(r.cells) for r in RULES.regions.values())
    assert roles.count("eye") == 3 and roles.count("highlight") == 2 and roles.count("path") == 1
    texts = {el.text for el in root.iter(f"{NS}text")}
    for region in RULES.regions.values():
        assert (region.name_zh if lang == "zh-TW" else region.name) in texts
    for level in (1, 3, 5):
        lv = RULES.level(level)
        assert (lv.name_zh if lang == "zh-TW" else lv.name_en) in texts
    title = root.find(f"{NS}title")
    assert title is not None and "3" in title.text


def test_svg_region_fill_colours():
    root = parse(board_svg(RULES))
    fills = {el.get("data-key"): el.get("fill") for el in root.iter(f"{NS}rect") if el.get("data-role") == "region"}
    assert fills == {k: palette.region_fill(r) for k, r in RULES.regions.items()}


def test_svg_escapes_text():
    el = parse(shape_to_svg(Text(x=1, y=2, text="<T&1>", size=10, role="x", key='a"b')))
    assert el.text == "<T&1>" and el.get("data-key") == 'a"b'


def test_svg_rect_with_dash_and_alpha():
    el = parse(shape_to_svg(Rect(x=0.5, y=1, w=2, h=3, stroke="#000", line_width=2, dash=(4, 2), alpha=0.5)))
    assert el.get("fill") == "none" and el.get("stroke-dasharray") == "4 2" and el.get("opacity") == "0.5"


def test_board_svg_repr_and_game():
    class Game:
        rules = RULES
        typhoons = [{"id": 4, "eye": (9, 9), "level": 2, "direction": "E"}]

    board = BoardSVG.from_game(Game(), lang="zh-TW", cell=32)
    svg = board._repr_svg_()
    assert svg == str(board)
    root = parse(svg)
    assert root.get("width") == str(16 * 32 + 32)
    assert "輕度颱風" in {el.text for el in root.iter(f"{NS}text")}


def test_svg_changes_with_the_board():
    assert board_svg(RULES, TYPHOONS[:1]) != board_svg(RULES, TYPHOONS[:2])


def test_svg_squeezes_a_text_given_a_max_width_and_no_other():
    """A phone's row number "10" squeezed into its margin on the canvas is squeezed in the SVG too."""
    squeezed = parse(shape_to_svg(Text(x=5, y=5, text="10", size=22, max_width=20.0)))
    assert squeezed.get("textLength") == "20" and squeezed.get("lengthAdjust") == "spacingAndGlyphs"
    plain = parse(shape_to_svg(Text(x=5, y=5, text="9", size=22)))
    assert plain.get("textLength") is None
