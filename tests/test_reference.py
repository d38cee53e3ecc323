"""docs/cards.md is written from the data (regions' HP included, and every effect kind's schema) and is current."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

from typhoon_edu import reference
from typhoon_edu.engine.rules import EFFECT_KINDS, EffectKind, Param, load_rules
from typhoon_edu.reference import cards_markdown

DOC = Path(__file__).resolve().parent.parent / "docs" / "cards.md"


def test_the_card_reference_is_current():
    assert DOC.read_text(encoding="utf-8") == cards_markdown(), "run: python -m typhoon_edu.reference > docs/cards.md"


def test_the_reference_states_every_regions_hp_from_the_data():
    text = cards_markdown()
    for r in load_rules().regions.values():
        assert f"| {r.name} / {r.name_zh} | {r.size} | {r.hp} |" in text


def _kind_rows(text: str) -> dict[str, list[str]]:
    """The rows of the "Effect kinds" table of ``text``, by kind: the cells after the kind."""
    section = text.split("## Effect kinds / 效果種類", 1)[1]
    rows = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_the_reference_lists_every_effect_kind_with_its_schema():
    """Every kind of EFFECT_KINDS, used or not: its line, each parameter with the loader's own words for its
    allowed values, its target, its timing, and whether cards may use it."""
    rules = load_rules()
    for text in (cards_markdown(), DOC.read_text(encoding="utf-8")):  # the generator and the file both have it
        rows = _kind_rows(text)
        assert list(rows) == list(EFFECT_KINDS)
        for kind, spec in EFFECT_KINDS.items():
            what, params, target, timing, users, _ = rows[kind]
            assert reference.KIND_EN[kind] in what and reference.KIND_ZH[kind] in what
            for name, param in spec.params.items():
                assert f"`{name}`: {param.allowed()}" in params, (kind, name)
                assert param.allowed("zh-TW", rules) in params, (kind, name)
            if not spec.params:
                assert params == "– 無"
            assert target == f"`{spec.target}`"
            assert timing.split()[0] == spec.timing
            expected = ("region abilities only" if not spec.cards else
                        "cards and region abilities" if spec.timing == "attack" else "counter cards only")
            assert users.startswith(expected), kind
        for target in {spec.target for spec in EFFECT_KINDS.values()}:
            assert f"- `{target}`: {reference.TARGET_EN[target]} / {reference.TARGET_ZH[target]}" in text


def test_the_kinds_section_follows_the_schema_not_the_cards_in_use(monkeypatch):
    """A changed range, a kind no card uses and a new parameter all show up: nothing is typed by hand."""
    kinds = dict(EFFECT_KINDS)
    kinds["heal"] = kinds["heal"]._replace(params=MappingProxyType({"amount": Param("int", 2, 9)}))
    kinds["gust"] = EffectKind(MappingProxyType({"cells": Param("int", 3), "turn": Param("int", -2, 2, nonzero=True)}),
                               "typhoon", "attack", cards=False)
    monkeypatch.setattr(reference, "EFFECT_KINDS", MappingProxyType(kinds))
    monkeypatch.setitem(reference.KIND_EN, "gust", "a gust")
    monkeypatch.setitem(reference.KIND_ZH, "gust", "一陣風")
    rows = _kind_rows(cards_markdown())
    assert "`amount`: a whole number from 2 to 9 / 2 到 9 的整數" in rows["heal"][1]
    assert rows["gust"][1] == ("`cells`: a whole number, at least 3 / 至少 3 的整數<br>"
                               "`turn`: a whole number from -2 to 2 other than 0 / -2 到 2 的整數（0 除外）")
    assert rows["gust"][4].startswith("region abilities only") and rows["gust"][5] == "– 未使用"


def test_every_effect_kind_has_a_line_in_both_languages():
    assert set(reference.KIND_EN) == set(reference.KIND_ZH) == set(EFFECT_KINDS)
    targets = {spec.target for spec in EFFECT_KINDS.values()}
    assert targets <= set(reference.TARGET_EN) and targets <= set(reference.TARGET_ZH)


def test_a_parameter_type_the_reference_cannot_describe_is_refused():
    with pytest.raises(ValueError, match=r"Param\.allowed"):
        Param("colour").allowed("zh-TW", load_rules())
