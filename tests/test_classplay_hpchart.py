"""The results chart (``ui/classplay/hpchart.py``): well-formed SVG, every line named, a phone's version narrow."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.classplay.hpchart import hp_chart_svg

RULES = load_rules()
PLAYERS = ["Taiwan", "Japan", "Korea", "Philippines", "South China"]
TRACK = [{p: RULES.regions[p].hp for p in PLAYERS}, {"Taiwan": 30, "Japan": 41, "Korea": 12, "Philippines": 0,
                                                      "South China": 25}]
NAMES = {"Korea": "Korea (computer, medium)", "Taiwan": "Mei (Taiwan)"}


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("narrow", [False, True])
def test_every_line_is_drawn_and_named_with_its_last_hp(lang: str, narrow: bool) -> None:
    svg = hp_chart_svg(RULES, PLAYERS, TRACK, lang, NAMES, narrow=narrow)
    root = ET.fromstring(svg)
    lines = [e for e in root.iter() if e.get("data-role") == "hp-line"]
    assert [e.get("data-key") for e in lines] == PLAYERS
    texts = " ".join("".join(e.itertext()) for e in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "Korea (computer, medium) 12" in texts and "Mei (Taiwan) 30" in texts


def test_the_phones_chart_is_narrow_and_keeps_its_words_inside() -> None:
    svg = hp_chart_svg(RULES, PLAYERS, TRACK, "en", NAMES, narrow=True)
    width, height = map(float, re.search(r'viewBox="0 0 (\S+) (\S+)"', svg).groups())
    assert width == 360  # drawn at about a 390 px phone's width, its 14-unit words are about 14 px there
    root = ET.fromstring(svg)
    legend = [e for e in root.iter() if e.get("data-role") == "hp-legend"]
    assert ["".join(e.itertext()).rsplit(" ", 1)[0] for e in legend] == [
        "Mei (Taiwan)", "Japan", "Korea (computer, medium)", "Philippines", "South China"]
    for e in legend:  # each legend line starts inside the chart and lies above its bottom
        assert 0 < float(e.get("x")) < width / 4 and float(e.get("y")) < height
    wide = hp_chart_svg(RULES, PLAYERS, TRACK, "en", NAMES)
    assert 'viewBox="0 0 900 360"' in wide and 'data-role="hp-legend"' not in wide
