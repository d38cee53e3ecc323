"""A card key with capital letters is refused when the edition loads, naming the file, the card and the key to write.

Cards are found by their exact key (the engine, save files, scenarios, the bots), and a cause's name is looked up
among the cards first and then among the regions, whose keys are capitalised English names: a capitalised card key
would not match what a teacher types elsewhere in lower case, or would shadow a region."""

from __future__ import annotations

import shutil

import pytest

from typhoon_edu import RulesDataError, load_rules
from typhoon_edu.engine.rules import DATA_DIR


@pytest.fixture
def data(tmp_path):
    folder = tmp_path / "edition"
    shutil.copytree(DATA_DIR, folder)
    return folder


def _rename_card(folder, old: str, new: str) -> None:
    path = folder / "cards.toml"
    text = path.read_text(encoding="utf-8")
    assert text.count(f'key = "{old}"') == 1, f"cards.toml has no card {old!r}: the test needs updating"
    path.write_text(text.replace(f'key = "{old}"', f'key = "{new}"'), encoding="utf-8")


def test_the_shipped_card_keys_are_lower_case():
    assert all(key == key.lower() for key in load_rules().cards)


@pytest.mark.parametrize(("key", "lower"), [("Dry_Air", "dry_air"), ("DRYAIR", "dryair"), ("Taiwan", "taiwan")])
def test_a_capitalised_card_key_is_refused_with_the_lower_case_key(data, key, lower):
    _rename_card(data, "dry_air", key)
    with pytest.raises(RulesDataError) as info:
        load_rules(data)
    err = info.value
    assert (err.file, err.entry) == ("cards.toml", f"card {key}")
    assert "lower case" in err.rule and f'key = "{lower}"' in err.rule


def test_the_suggested_key_says_when_another_card_has_it(data):
    _rename_card(data, "tailwind", "Warm_Ocean")  # warm_ocean comes first in cards.toml
    with pytest.raises(RulesDataError) as info:
        load_rules(data)
    assert info.value.entry == "card Warm_Ocean"
    assert 'key = "warm_ocean"' in info.value.rule and "card warm_ocean already has that key" in info.value.rule


def test_a_lower_case_renamed_key_still_loads(data):
    _rename_card(data, "dry_air", "dry_air_2")
    rules = load_rules(data)
    assert "dry_air_2" in rules.cards and "dry_air" not in rules.cards
