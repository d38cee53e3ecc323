"""A broken edition data file raises RulesDataError naming the file, the entry and the rule broken."""

from __future__ import annotations

import dataclasses
import re
import shutil
import sys

import pytest

from typhoon_edu import Game, RulesDataError, load_rules
from typhoon_edu.engine.rules import DATA_DIR, DECK_SIZE

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@pytest.fixture
def data(tmp_path):
    folder = tmp_path / "edition"
    shutil.copytree(DATA_DIR, folder)
    return folder


def edit(folder, name, old, new, count=1):
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"{old!r} not found in {name}: the test needs updating"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def broken(folder) -> RulesDataError:
    with pytest.raises(RulesDataError) as info:
        load_rules(folder)
    err = info.value
    assert str(err) == f"{err.file}: {err.entry}: {err.rule}"
    return err


def test_the_copy_loads_and_plays(data):
    rules = load_rules(data)
    assert rules.digest == load_rules().digest
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=1, rules=rules)
    assert g.current_player == "Taiwan"


def _region_field(data, key, name, value):
    """Set ``name = value`` in region ``key``'s table of regions.toml (whatever it was)."""
    path = data / "regions.toml"
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(rf'(key = "{key}"\n(?:[^\[]*?\n)?{name} = )[^\n]*', rf"\g<1>{value}", text, count=1)
    assert n == 1, f"region {key} has no {name}: the test needs updating"
    path.write_text(new, encoding="utf-8")


def test_region_with_the_wrong_cell_count(data):
    _region_field(data, "Taiwan", "size", 4)
    err = broken(data)
    assert (err.file, err.entry) == ("regions.toml", "region Taiwan")
    assert "size is 4" in err.rule and "3 cells" in err.rule


@pytest.mark.parametrize("hp", [24, 61, 0])
def test_region_hp_outside_the_balance_range(data, hp):
    _region_field(data, "Japan", "hp", hp)
    err = broken(data)
    assert (err.file, err.entry) == ("regions.toml", "region Japan")
    assert "25 to 60" in err.rule and f"found {hp}" in err.rule and "§12" in err.rule


@pytest.mark.parametrize("hp", [25, 60])
def test_region_hp_at_the_ends_of_the_range_loads(data, hp):
    _region_field(data, "Japan", "hp", hp)
    assert load_rules(data).regions["Japan"].hp == hp


def test_unknown_direction_in_the_ring(data):
    edit(data, "compass.toml", 'stops = ["N", "NNE", "NE", "E", "WSW", "WNW", "NNW"]', 'stops = ["N", "NNE", "NE", "E", "WSW", "XYZ", "NNW"]')
    err = broken(data)
    assert (err.file, err.entry) == ("compass.toml", "ring")
    assert "unknown direction 'XYZ'" in err.rule


def test_step_cycle_with_a_diagonal_letter(data):
    edit(data, "compass.toml", 'key = "NNE"\nname_en = "north-northeast"\nname_zh = "北北東"\ncycle = ["N", "N", "E"]',
         'key = "NNE"\nname_en = "north-northeast"\nname_zh = "北北東"\ncycle = ["N", "X"]')
    err = broken(data)
    assert (err.file, err.entry) == ("compass.toml", "point NNE")
    assert "N, E, S, W" in err.rule


def _card_count(data, key, count):
    """Set card ``key``'s ``count = …`` in cards.toml to ``count`` (whatever it was)."""
    path = data / "cards.toml"
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(rf'(key = "{key}"\n(?:[^\[]*?\n)?count = )[^\n]*', rf"\g<1>{count}", text, count=1)
    assert n == 1, f"cards.toml: no card key = {key!r} with a line 'count = …' (the test reads the data's layout)"
    path.write_text(new, encoding="utf-8")


def test_deck_not_54(data):
    cards = tomllib.loads((data / "cards.toml").read_text(encoding="utf-8"))["cards"]  # not load_rules: it caches
    total = sum(c["count"] for c in cards)
    _card_count(data, cards[0]["key"], cards[0]["count"] + 1)  # one card more than the data's deck
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "deck")
    assert str(DECK_SIZE) in err.rule and str(total + 1) in err.rule, err.rule


def test_card_with_no_effect(data):
    edit(data, "cards.toml", 'target = "zone_cell"\neffect = { kind = "add_depression" }\n', 'target = "zone_cell"\n')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card tropical_disturbance")
    assert "no effect" in err.rule


def test_card_with_an_unknown_effect_kind(data):
    edit(data, "cards.toml", 'effect = { kind = "hold" }', 'effect = { kind = "teleport" }')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card blocking_high")
    assert "unknown effect kind 'teleport'" in err.rule


def test_card_timing_that_does_not_fit_its_effect(data):
    edit(data, "cards.toml", 'count = 1\ntiming = "counter"\ntarget = "none"\neffect = { kind = "cancel_damage" }',
         'count = 1\ntiming = "attack"\ntarget = "none"\neffect = { kind = "cancel_damage" }')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card evacuation")
    assert "does not fit the timing" in err.rule


def test_restricted_effect_for_an_unknown_region(data):
    edit(data, "cards.toml", 'regions = ["Philippines"]', 'regions = ["Atlantis"]')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card warm_ocean, restricted effect")
    assert "unknown region 'Atlantis'" in err.rule


def test_ability_for_an_unknown_region(data):
    edit(data, "regions.toml", '[[abilities]]\nregion = "Korea"', '[[abilities]]\nregion = "Atlantis"')
    err = broken(data)
    assert (err.file, err.entry) == ("regions.toml", "ability cool_yellow_sea")
    assert "unknown region 'Atlantis'" in err.rule


def test_ability_that_is_a_counter_effect(data):
    edit(data, "regions.toml", 'effect = { kind = "level_all", delta = -3 }', 'effect = { kind = "cancel_damage" }')
    err = broken(data)
    assert (err.file, err.entry) == ("regions.toml", "ability cold_surge")
    assert "counter effect" in err.rule


def test_zone_on_land(data):
    edit(data, "map.toml", "cells = [[8, 8], [9, 8], [8, 9], [9, 9]]", "cells = [[8, 8], [9, 8], [6, 6], [9, 9]]")
    err = broken(data)
    assert (err.file, err.entry) == ("map.toml", "zone 1")
    assert "(6, 6) is on land" in err.rule


def test_zone_off_the_map(data):
    edit(data, "map.toml", "cells = [[14, 9], [15, 9], [14, 10], [15, 10]]", "cells = [[14, 9], [16, 9]]")
    err = broken(data)
    assert (err.file, err.entry) == ("map.toml", "zone 3")
    assert "off the" in err.rule


def test_ragged_map_row(data):
    edit(data, "map.toml", '"##SSS~T~~~~~~~~~",', '"##SSS~T~~~~~~~~",')
    err = broken(data)
    assert (err.file, err.entry) == ("map.toml", "row y=6")


def test_unknown_footprint(data):
    edit(data, "levels.toml", 'footprint = "square"', 'footprint = "circle"')
    err = broken(data)
    assert (err.file, err.entry) == ("levels.toml", "level #5")
    assert "unknown footprint 'circle'" in err.rule


@pytest.mark.parametrize("name", ["map.toml", "compass.toml", "levels.toml", "regions.toml", "cards.toml"])
def test_invalid_toml(data, name):
    (data / name).write_text((data / name).read_text(encoding="utf-8") + "\nthis is = = not toml [\n", encoding="utf-8")
    err = broken(data)
    assert (err.file, err.entry) == (name, "file")
    assert "not valid UTF-8 TOML" in err.rule


def test_missing_file(data):
    (data / "levels.toml").unlink()
    err = broken(data)
    assert (err.file, err.entry) == ("levels.toml", "file")
    assert "cannot be read" in err.rule


def test_rules_data_error_is_a_value_error():
    assert issubclass(RulesDataError, ValueError)


def test_rules_are_immutable():
    rules = load_rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.ring = ("N",)  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.cards["warm_ocean"] = None  # type: ignore[index]


def test_a_region_key_is_its_english_name(data):
    edit(data, "regions.toml", 'key = "Korea"', 'key = "KR"')
    edit(data, "regions.toml", 'region = "Korea"', 'region = "KR"')
    err = broken(data)
    assert (err.file, err.entry) == ("regions.toml", "region KR")
    assert "English name 'Korea'" in err.rule


def test_two_regions_whose_names_read_alike_are_refused(data):
    edit(data, "regions.toml", 'name_zh = "中國華南"', 'name_zh = "Central-China"')
    err = broken(data)
    assert (err.file, err.entry) == ("regions.toml", "region South China")
    assert "reads the same as a name of Central China" in err.rule


def test_one_spelling_in_and_out_for_every_region():
    rules = load_rules()
    for key, region in rules.regions.items():
        assert key == region.name
        for spelling in (key, key.replace(" ", ""), key.upper(), key.replace(" ", "_"), region.name_zh):
            assert rules.region_key(spelling) == key
    g = Game.new(["Central China", "SouthChina", "taiwan"], seed=3)
    assert g.players == ("Central China", "South China", "Taiwan")
    assert set(g.hp) == set(g.players) and g.current_player == "Taiwan"
    from typhoon_edu.ai import play_game
    from typhoon_edu.ai.bots import RandomBot

    result = play_game([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4, regions=["CentralChina", "South China", "Japan"])
    assert set(result.hp) == {"Central China", "South China", "Japan"}
    assert set(result.winners) <= set(result.hp)


def test_every_ability_and_card_text_states_its_numbers():
    """The texts a student reads carry the edition's numbers (so a tuned strength cannot leave an old text)."""
    rules = load_rules()
    numbers = {"delta": lambda v: abs(v), "cells": lambda v: v, "amount": lambda v: v, "max_level": lambda v: v}

    def check(name: str, params, text_en: str, text_zh: str) -> None:
        for param, value in params.items():
            if param in numbers:
                n = str(numbers[param](value))
                assert n in text_en and n in text_zh, f"{name}: its text does not say {param} = {n}"

    for region in rules.regions.values():
        a = region.ability
        check(a.key, a.effect.params, a.text_en, a.text_zh)
    for card in rules.cards.values():
        check(card.key, card.effect.params, card.text_en, card.text_zh)
        if card.restricted is not None:
            check(card.key + " (restricted)", card.restricted.effect.params, card.restricted.text_en,
                  card.restricted.text_zh)
