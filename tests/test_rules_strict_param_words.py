"""A parameter's allowed values, in words, come from one function in both languages: ``Param.allowed(lang, rules)``.

The English words were written in rules.py (``Param.allowed``) and the Chinese ones again in reference.py
(``allowed_zh``); the two could drift apart. They drifted already for an edition with another ring: the English
counted the shipped ring's 7 stops whatever the edition's ring was, the Chinese counted the edition's. Both now
read the catalogs' ``error.rules.param.*`` texts."""

from __future__ import annotations

import shutil

import pytest

from typhoon_edu.engine.rules import DATA_DIR, EFFECT_KINDS, SHIPPED_RING_STOPS, Param, load_rules
from typhoon_edu.i18n import LANGS
from typhoon_edu.reference import cards_markdown

#: What the reference and the loader said before the words had one home (docs/cards.md and the doctests).
BEFORE = {
    Param("int", -5, 5, nonzero=True): ("a whole number from -5 to 5 other than 0", "-5 到 5 的整數（0 除外）"),
    Param("int", 1, 60): ("a whole number from 1 to 60", "1 到 60 的整數"),
    Param("int", 1): ("a whole number, at least 1", "至少 1 的整數"),
    Param("choices"): ("'ring' (the 7 ring stops) or 'all' (16 points)",
                       "'ring'（方位羅盤的 7 個方位格）或 'all'（全部 16 個方位）"),
}


@pytest.mark.parametrize("param", list(BEFORE), ids=str)
def test_the_words_are_what_they_were_in_both_languages(param):
    en, zh = BEFORE[param]
    rules = load_rules()
    assert param.allowed() == param.allowed("en") == param.allowed("en", rules) == en
    assert param.allowed("zh-TW") == param.allowed("zh-TW", rules) == zh


def test_a_compass_point_lists_the_editions_points_with_rules():
    rules = load_rules()
    assert Param("direction").allowed() == "a compass point of compass.toml"
    assert Param("direction").allowed("en", rules) == "a compass point of compass.toml: " + ", ".join(rules.points)
    assert Param("direction").allowed("zh-TW", rules) == "compass.toml 裡的方位：" + "、".join(rules.points)


def test_the_default_ring_count_is_the_shipped_rings():
    assert len(load_rules().ring) == SHIPPED_RING_STOPS


@pytest.mark.parametrize("lang", LANGS)
def test_every_parameter_of_every_effect_kind_has_words(lang):
    rules = load_rules()
    for kind, spec in EFFECT_KINDS.items():
        for name, param in spec.params.items():
            words = param.allowed(lang, rules)
            assert words and "{" not in words, (kind, name, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_parameter_kind_with_no_words_is_refused_in_either_language(lang):
    """Before, the English fell back to 'a whole number' for any kind it did not know."""
    with pytest.raises(ValueError, match=r"Param\.allowed .*error\.rules\.param"):
        Param("colour").allowed(lang)


def test_another_ring_is_counted_alike_in_both_languages(tmp_path):
    folder = tmp_path / "edition"
    shutil.copytree(DATA_DIR, folder)
    path = folder / "compass.toml"
    text = path.read_text(encoding="utf-8")
    old = 'stops = ["N", "NNE", "NE", "E", "WSW", "WNW", "NNW"]'
    assert old in text, "compass.toml's ring changed: the test needs updating"
    path.write_text(text.replace(old, 'stops = ["N", "NNE", "NE", "E", "WSW"]').replace(
        'edition_stops = ["NNE", "NE", "WNW"]', 'edition_stops = ["NNE", "NE"]'), encoding="utf-8")
    rules = load_rules(folder)
    assert Param("choices").allowed("en", rules) == "'ring' (the 5 ring stops) or 'all' (16 points)"
    assert Param("choices").allowed("zh-TW", rules) == "'ring'（方位羅盤的 5 個方位格）或 'all'（全部 16 個方位）"
    steer = next(line for line in cards_markdown(rules).splitlines() if line.startswith("| `steer` |"))
    assert "(the 5 ring stops)" in steer and "方位羅盤的 5 個方位格" in steer and "7" not in steer
