"""docs/cards.md is written from the data (regions' HP included) and is current."""

from __future__ import annotations

from pathlib import Path

from typhoon_edu.engine.rules import load_rules
from typhoon_edu.reference import cards_markdown

DOC = Path(__file__).resolve().parent.parent / "docs" / "cards.md"


def test_the_card_reference_is_current():
    assert DOC.read_text(encoding="utf-8") == cards_markdown(), "run: python -m typhoon_edu.reference > docs/cards.md"


def test_the_reference_states_every_regions_hp_from_the_data():
    text = cards_markdown()
    for r in load_rules().regions.values():
        assert f"| {r.name} / {r.name_zh} | {r.size} | {r.hp} |" in text
