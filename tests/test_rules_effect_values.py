"""The values inside a card's or an ability's effect are checked when an edition is loaded.

Before, only a card's own fields were checked: a wrong number, a number written as text, a
misspelt parameter or table, an empty or repeated region list and a second card of the same name
loaded silently and gave a wrong game (or a TypeError deep in the engine). Each error names the
file, the card or ability, the field, what was given and what is allowed.
"""

from __future__ import annotations

import shutil

import pytest

from typhoon_edu import RulesDataError, load_rules
from typhoon_edu.engine.rules import DATA_DIR, EFFECT_KINDS

COLD_FRONT = '''
[[cards]]
key = "cold_front"
name_en = "Cold Front"
name_zh = "鋒面南下"
count = 1
timing = "attack"
target = "typhoon"
effect = { kind = "level", delta = -1 }
text_en = "A cold front sweeps south: a typhoon loses 1 level."
text_zh = "鋒面南下：選一個颱風減弱 1 級。"
[cards.restricted]
regions = ["Korea"]
effect = { kind = "level", delta = -2 }
text_en = "Korea: the front is strongest near you, 2 levels instead."
text_zh = "韓國：鋒面在你附近最強，改為減弱 2 級。"
'''
WARM_OCEAN_12 = 'key = "warm_ocean"\nname_en = "Warm Ocean"\nname_zh = "暖洋加溫"\ncount = 12'


@pytest.fixture
def data(tmp_path):
    folder = tmp_path / "edition"
    shutil.copytree(DATA_DIR, folder)
    return folder


def with_card(folder, old: str = "", new: str = "", *, keep_54: bool = True):
    """Add the Cold Front card (with ``old`` replaced by ``new``); Warm Ocean gives up a card for it."""
    path = folder / "cards.toml"
    text = path.read_text(encoding="utf-8")
    card = COLD_FRONT
    if old:
        assert old in card, f"{old!r} not in the card: the test needs updating"
        card = card.replace(old, new)
    if keep_54:
        assert WARM_OCEAN_12 in text, "Warm Ocean's count changed: the test needs updating"
        text = text.replace(WARM_OCEAN_12, WARM_OCEAN_12[:-2] + "11")
    path.write_text(text + card, encoding="utf-8")


def edit(folder, name, old, new):
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not found in {name}: the test needs updating"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def broken(folder) -> RulesDataError:
    with pytest.raises(RulesDataError) as info:
        load_rules(folder)
    return info.value


def test_the_new_card_itself_loads(data):
    with_card(data)
    rules = load_rules(data)
    assert rules.cards["cold_front"].effect.params["delta"] == -1
    assert rules.cards["cold_front"].effect_for("Korea").params["delta"] == -2


@pytest.mark.parametrize("value, shown", [("-1.5", "-1.5 (a decimal number)"), ("-100", "-100"), ("0", "0"),
                                          ("6", "6"), ("true", "true")])
def test_a_level_change_out_of_range(data, value, shown):
    with_card(data, "delta = -1 }", f"delta = {value} }}")
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card cold_front")
    assert err.rule == f"the effect 'level': 'delta' must be a whole number from -5 to 5 other than 0; got {shown}"


@pytest.mark.parametrize("effect, rule", [
    ('{ kind = "level", delta = "-1" }',
     "the effect 'level': 'delta' must be a whole number from -5 to 5 other than 0; "
     "got '-1' (text: write the number without quotes)"),
    ('{ kind = "remove", max_level = "two" }', "the effect 'remove': 'max_level' must be a whole number from 1 to 5; got 'two'"),
    ('{ kind = "remove", max_level = 0 }', "the effect 'remove': 'max_level' must be a whole number from 1 to 5; got 0"),
    ('{ kind = "roll", delta = 2, min = 0 }', "the effect 'roll': 'min' must be a whole number from 1 to 6; got 0"),
    ('{ kind = "steer", choices = "north" }', "the effect 'steer': 'choices' must be 'ring' (the 7 ring stops) or 'all' (16 points); got 'north'"),
])
def test_a_parameter_of_the_wrong_type_or_range_names_the_card(data, effect, rule):
    """A number written as text used to load and crash in the engine (game.py) without naming cards.toml."""
    with_card(data, 'effect = { kind = "level", delta = -1 }', f"effect = {effect}")
    err = broken(data)
    assert (err.file, err.entry, err.rule) == ("cards.toml", "card cold_front", rule)


def test_a_heal_that_takes_hp_away(data):
    edit(data, "cards.toml", 'effect = { kind = "heal", amount = 5 }', 'effect = { kind = "heal", amount = -5 }')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card disaster_relief")
    assert err.rule == "the effect 'heal': 'amount' must be a whole number from 1 to 60; got -5"


def test_a_restricted_effect_is_checked_too(data):
    edit(data, "cards.toml", 'effect = { kind = "heal", amount = 8 }', 'effect = { kind = "heal", amount = 0 }')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card disaster_relief, restricted effect")
    assert "'amount' must be a whole number from 1 to 60; got 0" in err.rule


@pytest.mark.parametrize("extra, rule", [
    (', region = "Taiwan"', "the effect 'level' has no parameter 'region'; its parameters are: kind, delta"),
    (', regoin = "Korea"', "the effect 'level' has no parameter 'regoin'; its parameters are: kind, delta"),
])
def test_an_unknown_parameter_is_refused(data, extra, rule):
    with_card(data, "delta = -1 }", f"delta = -1{extra} }}")
    err = broken(data)
    assert (err.file, err.entry, err.rule) == ("cards.toml", "card cold_front", rule)


def test_a_misspelt_parameter_gets_a_suggestion(data):
    with_card(data, 'effect = { kind = "level", delta = -2 }', 'effect = { kind = "level", delt = -2 }')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card cold_front, restricted effect")
    assert err.rule.startswith("the effect 'level' has no parameter 'delt' (did you mean 'delta'?)")


@pytest.mark.parametrize("old, new, entry, rule", [
    ("[cards.restricted]", "[cards.restriced]", "card cold_front",
     "a card has no field 'restriced' (did you mean 'restricted'?); its fields are: key, name_en, name_zh, "
     "count, timing, target, effect, text_en, text_zh, restricted"),
    ('name_zh = "鋒面南下"', 'name_zh_tw = "鋒面南下"', "card cold_front", "a card has no field 'name_zh_tw' (did you mean 'name_zh'?)"),
    ('regions = ["Korea"]', 'regions = ["Korea"]\nregion = "Japan"', "card cold_front, restricted effect",
     "a restricted effect has no field 'region' (did you mean 'regions'?)"),
    ("[[cards]]", "[[card]]", "file", "cards.toml (its cards are [[cards]] tables) has no table 'card' (did you mean 'cards'?)"),
])
def test_an_unknown_field_or_table_is_refused(data, old, new, entry, rule):
    with_card(data, old, new)
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", entry)
    assert err.rule.startswith(rule)


@pytest.mark.parametrize("regions, rule", [
    ("[]", "'regions' is empty; a restricted effect names at least one region of: Taiwan, Philippines, Korea"),
    ('["Korea", "Korea"]', "'regions' lists 'Korea' twice; name each region once"),
    ('["Korea", 7]', "unknown region 7; regions: Taiwan"),
])
def test_a_restricted_region_list_that_is_empty_or_repeats(data, regions, rule):
    with_card(data, 'regions = ["Korea"]', f"regions = {regions}")
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card cold_front, restricted effect")
    assert err.rule.startswith(rule)


@pytest.mark.parametrize("name_en, name_zh, shown", [
    ("Warm Ocean", "暖洋加溫", "'Warm Ocean'"), ("warm  ocean", "鋒面南下", "'warm  ocean'"), ("Cold Front", "暖洋加溫", "'暖洋加溫'"),
])
def test_two_cards_with_the_same_name(data, name_en, name_zh, shown):
    with_card(data, 'name_en = "Cold Front"\nname_zh = "鋒面南下"', f'name_en = "{name_en}"\nname_zh = "{name_zh}"')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card cold_front")
    assert err.rule == (f"its name {shown} is also the name of card warm_ocean; "
                        "every card needs its own name in English and in Chinese")


def test_a_count_written_as_text_says_whole_number(data):
    with_card(data, "count = 1", 'count = "1"')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card cold_front")
    assert err.rule == "'count' must be a whole number, not '1' (text: write the number without quotes)"


def test_the_timing_error_lists_the_effects_that_fit(data):
    with_card(data, 'timing = "attack"', 'timing = "counter"')
    err = broken(data)
    assert err.rule == ("the effect 'level' does not fit the timing 'counter'; "
                        "the effects for counter cards are: cancel_damage, halve_damage, turn_away, weaken")


def test_an_unknown_kind_says_which_kinds_are_for_cards(data):
    with_card(data, 'kind = "level", delta = -1', 'kind = "levle", delta = -1')
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "card cold_front")
    assert err.rule == (
        "unknown effect kind 'levle' (did you mean 'level'?); known: "
        "for attack cards: level, add_depression, remove, steer, hold, roll, heal; "
        "for counter cards: cancel_damage, halve_damage, turn_away, weaken; "
        "for region abilities only: push, level_all, shield_weaken, shield_halve, shield_cancel_first")


def test_an_ability_only_effect_on_a_card_lists_the_card_effects(data):
    with_card(data, 'effect = { kind = "level", delta = -1 }', 'effect = { kind = "level_all", delta = -1 }')
    err = broken(data)
    assert err.rule == ("the effect 'level_all' is for region abilities only; the effects for attack cards are: "
                        "level, add_depression, remove, steer, hold, roll, heal")


@pytest.mark.parametrize("total, change", [
    (55, "lower other cards' counts by 1 in all (a new card or a higher count takes its place from the others)"),
    (53, "raise counts by 1 in all"),
])
def test_the_deck_size_error_says_it_is_the_rule_and_what_to_change(data, total, change):
    edit(data, "cards.toml", WARM_OCEAN_12, WARM_OCEAN_12[:-2] + str(12 + total - 54))
    err = broken(data)
    assert (err.file, err.entry) == ("cards.toml", "deck")
    assert err.rule == ("the deck must hold 54 function cards (the rule of docs/rules.md §1, DECK_SIZE in the engine); "
                        f"the counts add up to {total}: {change}")


@pytest.mark.parametrize("old, new, entry, rule", [
    ('effect = { kind = "level_all", delta = -3 }', 'effect = { kind = "level_all", delta = -30 }', "ability cold_surge",
     "the effect 'level_all': 'delta' must be a whole number from -5 to 5 other than 0; got -30"),
    ('effect = { kind = "shield_weaken", delta = 3 }', 'effect = { kind = "shield_weaken", delta = -3 }',
     "ability central_mountains", "the effect 'shield_weaken': 'delta' must be a whole number from 1 to 5; got -3"),
    ('effect = { kind = "push", direction = "E", cells = 3 }', 'effect = { kind = "push", direction = "E", cells = 0 }',
     "ability westerlies", "the effect 'push': 'cells' must be a whole number, at least 1; got 0"),
    ('effect = { kind = "push", direction = "E", cells = 3 }', 'effect = { kind = "push", direction = "East", cells = 3 }',
     "ability westerlies", "the effect 'push': 'direction' must be a compass point: N, NNE, NE"),
    ('effect = { kind = "level", delta = -2 }', 'effect = { kind = "level", delta = -2, region = "Taiwan" }',
     "ability cool_yellow_sea", "the effect 'level' has no parameter 'region'; its parameters are: kind, delta"),
    ('effect = { kind = "shield_halve" }', 'effect = { kind = "shield_halv" }', "ability sierra_madre",
     "unknown effect kind 'shield_halv' (did you mean 'shield_halve'?); known: level, add_depression"),
    ('key = "sierra_madre"', 'key = "sierra_madre"\nbasis = "PAGASA"', "ability sierra_madre",
     "a region ability has no field 'basis'"),
    ('effect = { kind = "level", delta = -2 }\ntarget = "typhoon"', 'effect = { kind = "level", delta = -2 }\ntarget = "none"',
     "ability cool_yellow_sea", "the effect 'level' needs target 'typhoon', not 'none'"),
])
def test_region_abilities_are_checked_the_same_way(data, old, new, entry, rule):
    edit(data, "regions.toml", old, new)
    err = broken(data)
    assert (err.file, err.entry) == ("regions.toml", entry)
    assert err.rule.startswith(rule)


def test_every_kind_has_a_schema_the_shipped_data_fits():
    rules = load_rules()
    effects = [r.ability.effect for r in rules.regions.values()]
    effects += [e for c in rules.cards.values() for e in (c.effect, c.restricted and c.restricted.effect) if e]
    for effect in effects:
        assert set(effect.params) == set(EFFECT_KINDS[effect.kind].params), effect


def test_a_misspelt_timing_gets_a_suggestion(data):
    with_card(data, 'timing = "attack"', 'timing = "attak"')
    message = str(broken(data))
    assert "cards.toml" in message and "cold_front" in message
    assert "got 'attak' (did you mean 'attack'?)" in message
