"""The attack cards (general and restricted effects, 限定效能) and the per-turn card limits (docs/rules.md §6 and §11)."""

from __future__ import annotations

import pytest
from engine_helpers import P3, assert_illegal, card_count, kinds, notations, of, pass_attacks, roll, scn

from typhoon_edu import CHANCE, load_rules

RULES = load_rules()
SEA = [((12, 5), 3, "E"), ((13, 3), 1, "E")]  # T1 moderate, T2 depression, both at sea far from land


def played(evs):
    (c,) = of(evs, "CardPlayed")
    return c


def test_the_deck_has_13_kinds_and_54_cards():
    assert len(RULES.cards) == 13
    assert sum(c.count for c in RULES.cards.values()) == 54
    assert {c.timing for c in RULES.cards.values()} == {"attack", "counter"}


def test_a_played_card_goes_face_up_onto_the_discard_pile_at_once():
    g = scn(P3, typhoons=SEA, hands={"Japan": ["warm_ocean", "dry_air"]}, active="Japan")
    g.apply("play warm_ocean T1")
    assert g.discard_pile == ["warm_ocean"]
    assert g.hand("Japan") == ["dry_air"]
    assert card_count(g) == 54


# ---------------------------------------------------------------- level cards
def test_warm_ocean_adds_one_level():
    g = scn(P3, typhoons=SEA, hands={"Japan": ["warm_ocean"]}, active="Japan")
    evs = g.apply("play warm_ocean T1")
    assert played(evs).restricted is False
    assert [(e.typhoon, e.old, e.new, e.cause) for e in of(evs, "LevelChanged")] == [(1, 3, 4, "warm_ocean")]


def test_warm_ocean_restricted_philippines_adds_two_capped_at_five():
    g = scn(["Philippines", "Japan", "Korea"], typhoons=[((12, 5), 4, "E"), ((13, 3), 1, "E")],
            hands={"Philippines": ["warm_ocean"]})
    evs = g.apply("play warm_ocean T2")
    assert played(evs).restricted is True
    assert g.typhoon(2).level == 3
    g2 = scn(["Philippines", "Japan", "Korea"], typhoons=[((12, 5), 4, "E")], hands={"Philippines": ["warm_ocean"]})
    g2.apply("play warm_ocean T1")
    assert g2.typhoon(1).level == 5


def test_warm_ocean_is_not_offered_on_a_super_typhoon():
    g = scn(P3, typhoons=[((12, 5), 5, "E"), ((13, 3), 1, "E")], hands={"Taiwan": ["warm_ocean"]})
    assert "play warm_ocean T1" not in notations(g) and "play warm_ocean T2" in notations(g)
    assert_illegal(g, "play warm_ocean T1", "Warm Ocean", "5 is the top")


def test_cool_upwelling_takes_one_level_and_removes_a_depression():
    g = scn(P3, typhoons=SEA, hands={"Taiwan": ["cool_upwelling"]})
    g.apply("play cool_upwelling T1")
    assert g.typhoon(1).level == 2
    g = scn(P3, typhoons=SEA, hands={"Taiwan": ["cool_upwelling"]})
    evs = g.apply("play cool_upwelling T2")
    assert [(e.typhoon, e.reason) for e in of(evs, "TyphoonRemoved")] == [(2, "weakened")]
    assert [t.id for t in g.typhoons] == [1]


@pytest.mark.parametrize("region", ["Japan", "Korea"])
def test_cool_upwelling_restricted_japan_korea_takes_two(region):
    g = scn(["Taiwan", region, "Philippines"], typhoons=SEA, hands={region: ["cool_upwelling"]}, active=region)
    evs = g.apply("play cool_upwelling T1")
    assert played(evs).restricted is True
    assert g.typhoon(1).level == 1


# ---------------------------------------------------------------- tropical disturbance
def test_tropical_disturbance_places_a_depression_and_rolls_its_direction():
    g = scn(P3, typhoons=SEA, hands={"Taiwan": ["tropical_disturbance", "warm_ocean"]}, compass="E")
    evs = g.apply("play tropical_disturbance 14,10")
    assert [(e.typhoon, e.cell, e.level, e.by) for e in of(evs, "TyphoonPlaced")] == [(3, (14, 10), 1, "Taiwan")]
    assert g.current_player == CHANCE
    evs = roll(g, 3)
    assert [(e.start, e.face, e.stop) for e in of(evs, "DirectionRolled")] == [("E", 3, "NNW")]
    assert g.compass == "NNW"
    assert (g.phase, g.current_player) == ("attack", "Taiwan")  # Taiwan may still play one more card


def test_tropical_disturbance_only_on_free_generation_zone_cells():
    g = scn(P3, typhoons=SEA, hands={"Taiwan": ["tropical_disturbance"]})
    assert_illegal(g, "play tropical_disturbance 12,5", "cannot be played")
    assert_illegal(g, "play tropical_disturbance 5,5", "cannot be played")


# ---------------------------------------------------------------- dry air
def test_dry_air_removes_a_weak_typhoon_only():
    g = scn(P3, typhoons=[((12, 5), 3, "E"), ((13, 3), 2, "E")], hands={"Taiwan": ["dry_air"]})
    assert [n for n in notations(g) if "dry_air" in n] == ["play dry_air T2"]
    assert_illegal(g, "play dry_air T1", "Dry Air", "level 1 or 2")
    evs = g.apply("play dry_air T2")
    assert [(e.typhoon, e.reason) for e in of(evs, "TyphoonRemoved")] == [(2, "card")]


@pytest.mark.parametrize("region", ["Central China", "South China"])
def test_dry_air_restricted_china_removes_level_three(region):
    g = scn([region, "Japan", "Korea"], typhoons=[((12, 5), 3, "E"), ((13, 3), 4, "E")], hands={region: ["dry_air"]})
    assert [n for n in notations(g) if "dry_air" in n] == ["play dry_air T1"]
    evs = g.apply("play dry_air T1")
    assert played(evs).restricted is True
    assert [t.id for t in g.typhoons] == [2]


# ---------------------------------------------------------------- steering flow
def test_steering_flow_chooses_a_ring_direction():
    g = scn(P3, typhoons=[((12, 5), 3, "E")], hands={"Taiwan": ["steering_flow"]})
    dirs = {a.direction for a in g.legal_actions() if a.card == "steering_flow"}
    assert dirs == set(RULES.ring) - {"E"}  # a new direction, from the 7 ring stops
    assert_illegal(g, "play steering_flow T1 S", "Steering Flow")
    evs = g.apply("play steering_flow T1 NNW")
    assert [(e.old, e.new) for e in of(evs, "DirectionChanged")] == [("E", "NNW")]
    assert g.typhoon(1).direction == "NNW"


@pytest.mark.parametrize("region", ["Japan", "Korea"])
def test_steering_flow_restricted_japan_korea_any_of_16(region):
    g = scn(["Taiwan", region, "Philippines"], typhoons=[((12, 5), 3, "E")], hands={region: ["steering_flow"]}, active=region)
    dirs = {a.direction for a in g.legal_actions() if a.card == "steering_flow"}
    assert dirs == set(RULES.points) - {"E"}
    evs = g.apply("play steering_flow T1 SSW")
    assert played(evs).restricted is True and g.typhoon(1).direction == "SSW"


def test_steered_typhoon_moves_the_new_way():
    g = scn(P3, typhoons=[((12, 5), 3, "E")], hands={"Taiwan": ["steering_flow"]})
    g.apply("play steering_flow T1 N")
    pass_attacks(g)
    evs = roll(g, 2)
    assert [e.to for e in of(evs, "TyphoonStepped")] == [(12, 4), (12, 3)]


# ---------------------------------------------------------------- blocking high
def test_blocking_high_holds_a_typhoon_this_turn():
    g = scn(P3, typhoons=SEA, hands={"Taiwan": ["blocking_high"]})
    evs = g.apply("play blocking_high T1")
    assert [e.typhoon for e in of(evs, "TyphoonHeld")] == [1]
    pass_attacks(g)
    assert g.phase == "roll_move" and g.roll_for == 2  # T1 is not offered: only T2 moves
    roll(g, 1)
    assert g.typhoon(1).eye == (12, 5)


# ---------------------------------------------------------------- tailwind and headwind
def test_tailwind_adds_two_steps():
    g = scn(P3, typhoons=[((2, 5), 1, "E")], hands={"Taiwan": ["tailwind"]})
    g.apply("play tailwind T1")
    pass_attacks(g)
    evs = roll(g, 3)
    (ms,) = of(evs, "MoveStarted")
    assert (ms.face, ms.steps) == (3, 5)
    assert len(of(evs, "TyphoonStepped")) == 5


@pytest.mark.parametrize("face, steps", [(6, 4), (3, 1), (2, 1), (1, 1)])
def test_headwind_takes_two_steps_at_least_one_remains(face, steps):
    g = scn(P3, typhoons=[((9, 4), 1, "E")], hands={"Taiwan": ["headwind"]})
    g.apply("play headwind T1")
    pass_attacks(g)
    evs = roll(g, face)
    (ms,) = of(evs, "MoveStarted")
    assert (ms.face, ms.steps) == (face, steps)
    assert len(of(evs, "TyphoonStepped")) == steps


def test_alike_roll_changes_the_later_replaces_the_earlier():
    g = scn(P3, typhoons=[((9, 4), 1, "E")], hands={"Taiwan": ["tailwind"], "Japan": ["headwind"]})
    evs = g.apply("play tailwind T1")
    assert [e.replaced for e in of(evs, "RollModified")] == [False]
    assert [a.notation for a in g.legal_actions()] == ["pass"]  # Taiwan has nothing more to play
    g.apply("pass")
    assert g.current_player == "Japan"
    evs = g.apply("play headwind T1")
    assert [(e.delta, e.replaced) for e in of(evs, "RollModified")] == [(-2, True)]
    pass_attacks(g)
    (ms,) = of(roll(g, 5), "MoveStarted")
    assert ms.steps == 3  # 5 - 2, the tailwind's +2 is gone


def test_alike_level_changes_the_later_replaces_the_earlier():
    """docs/rules.md §6: when two played effects are alike (same kind, same target), the later one replaces
    the earlier (seed 000: 若場上出現2張效能相近的功能卡，則後者效能將可替代前者效能).
    Warm Ocean and Cool Upwelling have the same effect kind ('level' in cards.toml) and here the
    same target, exactly like Tailwind/Headwind ('roll'), which the engine does replace.
    So Cool Upwelling's -1 replaces Warm Ocean's +1: T1 ends at 3 - 1 = 2, not 3 + 1 - 1 = 3."""
    assert RULES.cards["warm_ocean"].effect.kind == RULES.cards["cool_upwelling"].effect.kind == "level"
    # general effects only: no restricted effect applies to Taiwan's Warm Ocean or South China's Cool Upwelling
    g = scn(["Taiwan", "South China", "Central China"], typhoons=SEA,
            hands={"Taiwan": ["warm_ocean"], "South China": ["cool_upwelling"]})
    evs = g.apply("play warm_ocean T1")
    assert of(evs, "CardPlayed")[0].restricted is False
    assert g.typhoon(1).level == 4
    g.apply("pass")  # Taiwan has nothing more to play
    assert g.current_player == "South China"
    evs = g.apply("play cool_upwelling T1")
    assert of(evs, "CardPlayed")[0].restricted is False
    assert g.typhoon(1).level == 2


def test_roll_change_on_one_typhoon_leaves_the_others_alone():
    g = scn(P3, typhoons=[((9, 4), 1, "E"), ((9, 6), 1, "E")], hands={"Taiwan": ["tailwind"]})
    g.apply("play tailwind T1")
    pass_attacks(g)
    g.apply("move T2")
    (ms,) = of(roll(g, 2), "MoveStarted")
    assert (ms.typhoon, ms.steps) == (2, 2)


# ---------------------------------------------------------------- disaster relief
def test_disaster_relief_heals_five_never_above_the_maximum():
    full = RULES.regions["Japan"].hp
    g = scn(P3, typhoons=SEA, hp={"Japan": full - 10}, hands={"Japan": ["disaster_relief"]}, active="Japan")
    evs = g.apply("play disaster_relief")
    assert [(e.player, e.amount, e.hp) for e in of(evs, "Healed")] == [("Japan", 5, full - 5)]
    g = scn(P3, typhoons=SEA, hp={"Japan": full - 2}, hands={"Japan": ["disaster_relief"]}, active="Japan")
    evs = g.apply("play disaster_relief")
    assert [(e.amount, e.hp) for e in of(evs, "Healed")] == [(2, full)]
    assert g.hp["Japan"] == full


def test_disaster_relief_not_offered_at_full_hp():
    g = scn(P3, typhoons=SEA, hands={"Japan": ["disaster_relief"]}, active="Japan")
    assert "play disaster_relief" not in notations(g)
    assert_illegal(g, "play disaster_relief", "Disaster Relief", "never above its maximum")


def test_disaster_relief_restricted_taiwan_heals_eight():
    g = scn(P3, typhoons=SEA, hp={"Taiwan": 10}, hands={"Taiwan": ["disaster_relief"]})
    evs = g.apply("play disaster_relief")
    assert played(evs).restricted is True
    assert g.hp["Taiwan"] == 18
    g = scn(P3, typhoons=SEA, hp={"Taiwan": RULES.regions["Taiwan"].hp - 5}, hands={"Taiwan": ["disaster_relief"]})
    g.apply("play disaster_relief")
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp  # 8 would go past the maximum


# ---------------------------------------------------------------- per-turn limits
def test_at_most_two_function_cards_in_the_attack_phase():
    g = scn(P3, typhoons=SEA, hands={"Taiwan": ["warm_ocean", "steering_flow", "dry_air"]})
    g.apply("play warm_ocean T1")
    assert g.current_player == "Taiwan"  # a second card is allowed
    g.apply("play steering_flow T1 N")
    assert g.current_player == "Japan"  # and then the turn to play moves on
    assert "dry_air" in g.hand("Taiwan")


def test_a_card_name_is_played_at_most_once_per_turn_by_all_players():
    g = scn(P3, typhoons=SEA, hands={"Taiwan": ["warm_ocean"], "Japan": ["warm_ocean", "dry_air"]})
    g.apply("play warm_ocean T1")
    assert [a.notation for a in g.legal_actions()] == ["pass"]  # Taiwan has nothing more to play
    g.apply("pass")
    assert g.current_player == "Japan"
    assert not any("warm_ocean" in n for n in notations(g))
    msg = assert_illegal(g, "play warm_ocean T2", "Warm Ocean", "already played this turn")
    assert "once per turn" in msg
    # the same player cannot play two copies either
    g2 = scn(P3, typhoons=SEA, hands={"Taiwan": ["warm_ocean", "warm_ocean", "dry_air"]})
    g2.apply("play warm_ocean T1")
    assert g2.current_player == "Taiwan"
    assert notations(g2) == ["play dry_air T2", "pass"]
    assert_illegal(g2, "play warm_ocean T2", "already played this turn")


def test_card_names_are_free_again_next_turn():
    g = scn(P3, typhoons=[((13, 3), 1, "E"), ((13, 5), 1, "E"), ((13, 7), 1, "E")],
            hands={"Taiwan": ["warm_ocean"], "Japan": ["warm_ocean"]})
    g.apply("play warm_ocean T1")
    pass_attacks(g)
    while g.phase in ("move_choose", "roll_move"):
        g.apply(1) if g.current_player == CHANCE else g.apply(g.legal_actions()[0])
    assert g.active == "Japan"
    while g.phase == "refill" or g.current_player == CHANCE:
        g.apply(1) if g.current_player == CHANCE else g.apply(g.legal_actions()[0])
    assert g.phase == "attack" and g.current_player == "Japan"
    assert any(n.startswith("play warm_ocean") for n in notations(g))


def test_region_card_not_after_a_function_card_and_no_function_card_after_it():
    g = scn(P3, typhoons=SEA, hands={"Taiwan": ["warm_ocean", "dry_air"]})
    assert "region" in notations(g)
    g.apply("play warm_ocean T1")
    assert "region" not in notations(g)
    assert_illegal(g, "region", "played a function card this turn")
    g2 = scn(P3, typhoons=SEA, hands={"Korea": ["warm_ocean", "dry_air"]}, active="Korea")
    evs = g2.apply("region T1")
    assert kinds(evs)[0] == "AbilityUsed"
    assert g2.current_player == "Taiwan"  # the region card ends Korea's attack play
    assert "warm_ocean" in g2.hand("Korea") and "dry_air" in g2.hand("Korea")


def test_region_card_once_per_game():
    g = scn(P3, typhoons=[((12, 5), 5, "E"), ((12, 3), 5, "E"), ((10, 5), 5, "E")], active="Korea")
    g.apply("region T1")
    assert g.observation("Taiwan")["region_card_used"]["Korea"] is True
    pass_attacks(g)
    # play on to Korea's next turn
    for _ in range(500):
        if g.phase == "attack" and g.current_player == "Korea":
            break
        if g.current_player == CHANCE:
            g.apply(1)
        else:
            acts = [a for a in g.legal_actions() if a.kind in ("pass", "place", "move", "discard", "aim")]
            g.apply(acts[0])
    assert g.current_player == "Korea"
    assert "region" not in notations(g)
    msg = assert_illegal(g, "region T1", "once per game")
    assert "Korea" in msg
