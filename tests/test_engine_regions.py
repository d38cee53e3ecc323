"""The six region abilities (地區卡), each once per game, in the attack phase (docs/rules.md §11)."""

from __future__ import annotations

from engine_helpers import P3, notations, of, pass_attacks, scn

from typhoon_edu import CHANCE, load_rules

RULES = load_rules()


def dealt(evs, player):
    got = [e for e in of(evs, "DamageDealt") if e.player == player]
    assert len(got) <= 1
    return got[0] if got else None


def finish_moves(g, order=()):
    evs = []
    order = list(order)
    while g.phase in ("move_choose", "roll_move", "counter"):
        if g.current_player == CHANCE:
            evs += g.apply(1)
        elif g.phase == "move_choose" and order:
            evs += g.apply(f"move T{order.pop(0)}")
        else:
            evs += g.apply(g.legal_actions()[0] if g.phase == "move_choose" else "pass")
    return evs


def test_six_regions_each_with_one_ability():
    assert set(RULES.regions) == {"Taiwan", "Philippines", "Korea", "Central China", "South China", "Japan"}
    assert {r.ability.key for r in RULES.regions.values()} == {
        "central_mountains", "sierra_madre", "cool_yellow_sea", "cold_surge", "typhoon_signals", "westerlies",
    }
    for key, r in RULES.regions.items():
        assert 25 <= r.hp <= 60 and len(r.cells) == r.size and r.ability.region == key  # docs/rules.md §12


# ---------------------------------------------------------------- Taiwan: Central Mountain Range
def test_central_mountains_weaken_a_storm_by_three_the_moment_it_reaches_taiwan():
    g = scn(P3, typhoons=[((7, 8), 4, "N"), ((13, 3), 1, "E")])
    evs = g.apply("region")
    assert [(e.player, e.ability) for e in of(evs, "AbilityUsed")] == [("Taiwan", "central_mountains")]
    assert [e.shield for e in of(evs, "ShieldRaised")] == ["shield_weaken"]
    pass_attacks(g)
    evs = finish_moves(g, [1])
    # T1 (level 4) reaches Taiwan at (7,7): it drops to 1 before hitting, and its eye-only footprint misses
    assert RULES.regions["Taiwan"].ability.effect.params["delta"] == 3
    assert [(e.typhoon, e.old, e.new, e.cause) for e in of(evs, "LevelChanged")] == [(1, 4, 1, "central_mountains")]
    assert of(evs, "RegionHit") == []
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp
    assert g.typhoon(1).level == 1


def test_central_mountains_break_up_a_moderate_typhoon():
    g = scn(P3, typhoons=[((7, 6), 3, "W"), ((13, 3), 1, "E")])
    g.apply("region")
    pass_attacks(g)
    evs = finish_moves(g, [1])
    assert [(e.typhoon, e.reason) for e in of(evs, "TyphoonRemoved")] == [(1, "weakened")]
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp


def test_central_mountains_last_the_rest_of_the_turn_for_every_typhoon():
    g = scn(P3, typhoons=[((8, 6), 5, "W"), ((7, 8), 4, "N")])
    g.apply("region")
    pass_attacks(g)
    evs = finish_moves(g, [1])
    weakened = [(e.typhoon, e.old, e.new) for e in of(evs, "LevelChanged") if e.cause == "central_mountains"]
    assert weakened == [(1, 5, 2), (2, 4, 1)]


# ---------------------------------------------------------------- Philippines: Sierra Madre
def test_sierra_madre_halves_all_damage_to_the_philippines_rounded_down():
    players = ["Philippines", "Japan", "Korea"]
    g = scn(players, typhoons=[((7, 8), 3, "S"), ((13, 3), 1, "E")])
    evs = g.apply("region")
    assert [e.shield for e in of(evs, "ShieldRaised")] == ["shield_halve"]
    pass_attacks(g)
    evs = finish_moves(g, [1])
    d = dealt(evs, "Philippines")
    assert d.hits == 2 and d.bonus == 1
    assert d.amount == (2 * 4 + 1) // 2  # 9 halved, rounded down
    assert g.hp["Philippines"] == RULES.regions["Philippines"].hp - 4
    g2 = scn(players, typhoons=[((7, 8), 3, "S"), ((13, 3), 1, "E")])
    g2.apply("pass")
    pass_attacks(g2)
    assert dealt(finish_moves(g2, [1]), "Philippines").amount == 9  # without the ability


# ---------------------------------------------------------------- Korea: Cool Yellow Sea
def test_cool_yellow_sea_takes_two_levels_from_a_chosen_typhoon():
    g = scn(P3, typhoons=[((12, 5), 5, "E"), ((13, 3), 2, "E")], active="Korea")
    assert {n for n in notations(g) if n.startswith("region")} == {"region T1", "region T2"}
    evs = g.apply("region T1")
    assert [(e.player, e.ability, e.typhoon) for e in of(evs, "AbilityUsed")] == [("Korea", "cool_yellow_sea", 1)]
    assert g.typhoon(1).level == 3


def test_cool_yellow_sea_removes_a_typhoon_falling_below_level_one():
    g = scn(P3, typhoons=[((12, 5), 5, "E"), ((13, 3), 2, "E")], active="Korea")
    evs = g.apply("region T2")
    assert [(e.typhoon, e.reason) for e in of(evs, "TyphoonRemoved")] == [(2, "weakened")]
    assert [t.id for t in g.typhoons] == [1]


# ---------------------------------------------------------------- Central China: Cold Surge
def test_cold_surge_weakens_every_typhoon_three_levels_and_removes_the_weaker_ones():
    players = ["Central China", "Japan", "Korea"]
    assert RULES.regions["Central China"].ability.effect.params["delta"] == -3
    g = scn(players, typhoons=[((12, 5), 5, "E"), ((13, 3), 1, "E"), ((10, 8), 3, "E"), ((8, 4), 2, "E")])
    evs = g.apply("region")
    assert [(e.typhoon, e.old, e.new) for e in of(evs, "LevelChanged")] == [(1, 5, 2), (2, 1, 0), (3, 3, 0), (4, 2, 0)]
    assert [e.typhoon for e in of(evs, "TyphoonRemoved")] == [2, 3, 4]  # a depression, a moderate and a mild typhoon
    assert [(t.id, t.level) for t in g.typhoons] == [(1, 2)]


# ---------------------------------------------------------------- South China: Typhoon Signals
def test_typhoon_signals_cancel_the_first_storm_to_reach_south_china_only():
    players = ["South China", "Japan", "Korea"]
    g = scn(players, typhoons=[((5, 6), 2, "W"), ((5, 5), 2, "W")])
    evs = g.apply("region")
    assert [e.shield for e in of(evs, "ShieldRaised")] == ["shield_cancel_first"]
    pass_attacks(g)
    evs = finish_moves(g, [1, 2])
    first, second = of(evs, "DamageDealt")
    assert (first.typhoon, first.hits, first.amount) == (1, 1, 0)
    assert first.modifier is not None
    assert (second.typhoon, second.hits, second.amount) == (2, 1, 3 + 1)
    assert g.hp["South China"] == 36


# ---------------------------------------------------------------- Japan: Westerlies
def test_westerlies_blow_a_typhoon_three_cells_east_and_turn_it_east():
    g = scn(P3, typhoons=[((9, 5), 3, "WSW"), ((13, 1), 1, "W")], active="Japan")
    evs = g.apply("region T1")
    (push,) = of(evs, "TyphoonPushed")
    assert (push.typhoon, push.frm, push.to) == (1, (9, 5), (12, 5))
    assert g.typhoon(1).eye == (12, 5) and g.typhoon(1).direction == "E"


def test_westerlies_do_no_damage_and_cause_no_landfall():
    g = scn(P3, typhoons=[((3, 7), 3, "S"), ((13, 1), 1, "W")], active="Japan")
    evs = g.apply("region T1")  # blown over (6, 7): Taiwan
    assert of(evs, "TyphoonPushed")[0].to == (6, 7)
    assert of(evs, "DamageDealt") == [] and of(evs, "RegionHit") == [] and of(evs, "Landfall") == []
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp and g.typhoon(1).level == 3


def test_westerlies_blow_a_typhoon_off_the_map():
    g = scn(P3, typhoons=[((14, 5), 3, "S"), ((13, 1), 1, "W")], active="Japan")
    evs = g.apply("region T1")
    assert of(evs, "TyphoonPushed")[0].to is None
    assert [(e.typhoon, e.reason) for e in of(evs, "TyphoonRemoved")] == [(1, "edge")]


def test_ability_is_spent_for_the_rest_of_the_game():
    g = scn(P3, typhoons=[((9, 5), 3, "WSW"), ((13, 1), 1, "W")], active="Japan")
    g.apply("region T1")
    assert g.region_spent[g.players.index("Japan")] is True
    assert g.observation("Korea")["region_card_used"] == {"Taiwan": False, "Japan": True, "Korea": False}
