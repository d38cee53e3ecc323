"""Counter windows (docs/rules.md §6, phase 5) and the four counter cards."""

from __future__ import annotations

from engine_helpers import P3, P4, assert_illegal, kinds, notations, of, pass_attacks, pass_empty_windows, roll, scn

from typhoon_edu import CHANCE, load_rules

RULES = load_rules()

# A moderate typhoon crossing Taiwan west to east: first reaches Taiwan on step 1 at (7, 6).
CROSS_TAIWAN = [((8, 6), 3, "W")]
# A strong typhoon along Taiwan's coast: 2 hits and it stays, 11 damage without counters.
ALONG_TAIWAN = [((7, 8), 4, "N")]


def dealt(evs, player):
    got = [e for e in of(evs, "DamageDealt") if e.player == player]
    assert len(got) <= 1
    return got[0] if got else None


def test_move_pauses_when_the_footprint_first_covers_a_region():
    g = scn(P3, active="Japan", typhoons=CROSS_TAIWAN, hands={"Taiwan": ["evacuation"]}, phase="move")
    evs = roll(g, 4)
    assert kinds(evs)[-2:] == ["TyphoonStepped", "CounterWindow"]
    assert of(evs, "TyphoonStepped")[-1].to == (7, 6)
    assert (evs[-1].player, evs[-1].typhoon) == ("Taiwan", 1)
    assert (g.phase, g.current_player, g.active) == ("counter", "Taiwan", "Japan")
    assert notations(g) == ["play evacuation", "pass"]
    assert of(evs, "RegionHit") == []  # the step's hits wait for the counter
    evs = g.apply("pass")
    assert of(evs, "CounterWindow") == []  # Taiwan is asked only once per move
    assert [e.hits for e in of(evs, "RegionHit")] == [1, 3, 1]
    assert dealt(evs, "Taiwan").amount == 20


def test_several_regions_in_one_step_are_asked_in_turn_order_from_the_active_player():
    # a super typhoon stepping from (8,1) to (8,2) covers Korea and Japan at once
    for active, order in (("Philippines", ["Japan", "Korea"]), ("Korea", ["Korea", "Japan"]), ("Taiwan", ["Japan", "Korea"])):
        g = scn(P4, active=active, typhoons=[((8, 1), 5, "S")], phase="move",
                hands={"Japan": ["flood_defences"], "Korea": ["evacuation"]})
        asked = []
        evs = roll(g, 1)
        while g.phase == "counter":
            asked.append(g.current_player)
            evs += g.apply("pass")
        assert asked == order, active
        assert [e.player for e in of(evs, "CounterWindow")] == order


def test_active_player_may_counter_for_their_own_region():
    g = scn(P3, active="Taiwan", typhoons=CROSS_TAIWAN, hands={"Taiwan": ["evacuation"]}, phase="move")
    roll(g, 4)
    assert (g.phase, g.current_player) == ("counter", "Taiwan")
    evs = g.apply("play evacuation") + pass_empty_windows(g)
    d = dealt(evs, "Taiwan")
    assert (d.amount, d.modifier) == (0, "cancelled")
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp


def test_no_counter_window_after_the_region_card_this_turn():
    g = scn(P3, typhoons=[((8, 4), 3, "N"), ((9, 6), 1, "E")], hands={"Japan": ["evacuation"]}, active="Japan")
    g.apply("region T2")  # Westerlies on T2: Japan's region card is used this turn
    pass_attacks(g)
    g.apply("move T1")
    evs = roll(g, 1)  # (8, 3): Japan
    assert of(evs, "CounterWindow") == []
    assert dealt(evs, "Japan").hits > 0
    assert "evacuation" in g.hand("Japan")


def test_no_counter_window_after_two_function_cards_this_turn():
    g = scn(P3, typhoons=CROSS_TAIWAN + [((13, 3), 1, "E")],
            hands={"Taiwan": ["warm_ocean", "steering_flow", "evacuation"]})
    g.apply("play warm_ocean T2")
    g.apply("play steering_flow T2 N")
    assert g.current_player == "Japan"  # 2 cards end Taiwan's attack play
    pass_attacks(g)
    g.apply("move T1")
    evs = roll(g, 4)
    assert of(evs, "CounterWindow") == []
    assert dealt(evs, "Taiwan").amount == 20


def test_one_attack_card_leaves_room_for_one_counter_card():
    g = scn(P3, typhoons=CROSS_TAIWAN + [((13, 3), 1, "E")],
            hands={"Taiwan": ["warm_ocean", "evacuation", "flood_defences"]})
    g.apply("play warm_ocean T2")
    g.apply("pass")
    pass_attacks(g)
    g.apply("move T1")
    roll(g, 4)
    assert g.phase == "counter" and g.current_player == "Taiwan"
    evs = g.apply("play flood_defences") + pass_empty_windows(g)
    assert g.phase != "counter"  # the 2nd function card this turn closes the window
    d = dealt(evs, "Taiwan")  # Taiwan's Flood Defences is restricted (限定效能): it cancels
    assert (d.amount, d.modifier) == (0, "cancelled")
    assert "evacuation" in g.hand("Taiwan")


def test_two_counter_cards_in_one_window():
    g = scn(P3, active="Japan", typhoons=CROSS_TAIWAN, phase="move", hands={"Taiwan": ["recurve", "flood_defences"]})
    roll(g, 4)
    g.apply("play recurve E")
    assert g.phase == "counter" and notations(g) == ["play flood_defences", "pass"]
    evs = g.apply("play flood_defences") + pass_empty_windows(g)
    d = dealt(evs, "Taiwan")
    assert (d.hits, d.amount, d.modifier) == (1, 0, "cancelled")  # Taiwan's restricted Flood Defences


def test_counter_limit_holds_across_moves_of_the_same_turn():
    g = scn(P3, active="Japan", typhoons=[((8, 6), 3, "W"), ((7, 9), 3, "N")], phase="move",
            hands={"Taiwan": ["evacuation", "flood_defences", "recurve"]})
    g.apply("move T1")
    roll(g, 4)
    g.apply("play evacuation")
    g.apply("play recurve E")
    assert g.phase != "counter"
    evs = roll(g, 2) if g.current_player == CHANCE else []
    assert of(evs, "CounterWindow") == []  # Taiwan has played 2 function cards this turn
    assert dealt(evs, "Taiwan").amount > 0


def test_a_counter_card_name_played_this_turn_is_not_offered_again():
    g = scn(P4, active="Philippines", typhoons=[((8, 1), 5, "S")], phase="move",
            hands={"Japan": ["flood_defences", "evacuation"], "Korea": ["flood_defences", "wind_shear"]})
    roll(g, 1)
    assert g.current_player == "Japan"
    g.apply("play flood_defences")
    g.apply("pass")
    assert g.current_player == "Korea"
    assert notations(g) == ["play wind_shear", "pass"]
    assert_illegal(g, "play flood_defences", "already played this turn")


def test_attack_cards_are_not_counters_and_counters_not_attack_cards():
    g = scn(P3, active="Japan", typhoons=CROSS_TAIWAN, phase="move", hands={"Taiwan": ["evacuation", "warm_ocean"]})
    roll(g, 4)
    assert_illegal(g, "play warm_ocean T1", "not now")
    assert_illegal(g, "region", "attack phase")
    g2 = scn(P3, typhoons=CROSS_TAIWAN, hands={"Taiwan": ["evacuation", "warm_ocean"]})
    assert "play evacuation" not in notations(g2)
    assert_illegal(g2, "play evacuation", "when a typhoon reaches your region")


# ---------------------------------------------------------------- the counter cards
def test_evacuation_cancels_the_whole_move_including_the_stay_bonus():
    g = scn(P3, active="Japan", typhoons=ALONG_TAIWAN, phase="move", hands={"Taiwan": ["evacuation"]})
    roll(g, 2)
    evs = g.apply("play evacuation") + pass_empty_windows(g)
    played = of(evs, "CardPlayed")[0]
    assert played.counter is True and played.card == "evacuation"
    d = dealt(evs, "Taiwan")
    assert (d.hits, d.amount, d.modifier) == (2, 0, "cancelled")
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp
    assert g.discard_pile[-1] == "evacuation"


def test_flood_defences_halves_rounding_up_including_the_stay_bonus():
    # a strong typhoon heading north past Japan: 1 hit at (10, 2) on step 2 and it stays there
    g = scn(P3, active="Taiwan", typhoons=[((11, 4), 4, "N")], phase="move", hands={"Japan": ["flood_defences"]})
    roll(g, 2)
    assert (g.phase, g.current_player) == ("counter", "Japan")
    evs = g.apply("play flood_defences") + pass_empty_windows(g)
    assert of(evs, "CardPlayed")[0].restricted is False
    d = dealt(evs, "Japan")
    assert (d.hits, d.amount, d.bonus, d.modifier) == (1, 3, 1, "halved")  # (1 x 5 + 1) / 2 rounded up
    assert g.hp["Japan"] == RULES.regions["Japan"].hp - 3


def test_flood_defences_restricted_for_taiwan_cancels():
    g = scn(P3, active="Japan", typhoons=ALONG_TAIWAN, phase="move", hands={"Taiwan": ["flood_defences"]})
    roll(g, 2)
    evs = g.apply("play flood_defences") + pass_empty_windows(g)
    assert of(evs, "CardPlayed")[0].restricted is True
    d = dealt(evs, "Taiwan")
    assert (d.hits, d.amount, d.modifier) == (2, 0, "cancelled")
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp


def test_recurve_turns_the_storm_away_hits_so_far_still_count():
    g = scn(P3, active="Japan", typhoons=CROSS_TAIWAN, phase="move", hands={"Taiwan": ["recurve"]})
    roll(g, 4)
    offered = notations(g)
    assert "play recurve W" not in offered  # W is not a ring stop; the ring's 7 are offered
    assert sorted(offered) == sorted(["pass"] + [f"play recurve {d}" for d in ("N", "NNE", "NE", "E", "WSW", "WNW", "NNW")])
    evs = g.apply("play recurve NNE") + pass_empty_windows(g)
    steps = of(evs, "TyphoonStepped")
    assert [e.letter for e in steps] == ["N", "N", "E"]  # the new cycle starts at its first letter
    assert [e.to for e in steps] == [(7, 5), (7, 4), (8, 4)]
    assert [e.hits for e in of(evs, "RegionHit") if e.player == "Taiwan"] == [1, 1]  # the step that reached Taiwan counts
    d = dealt(evs, "Taiwan")
    assert (d.hits, d.amount) == (2, 8)
    assert g.typhoon(1).direction == "NNE"


def test_wind_shear_weakens_now_and_this_steps_hits_use_the_new_level():
    g = scn(P3, active="Japan", typhoons=ALONG_TAIWAN, phase="move", hands={"Taiwan": ["wind_shear"]})
    roll(g, 2)
    evs = g.apply("play wind_shear") + pass_empty_windows(g)
    assert [(e.old, e.new) for e in of(evs, "LevelChanged")] == [(4, 3)]
    assert [e.level for e in of(evs, "RegionHit")] == [3, 3]
    d = dealt(evs, "Taiwan")
    assert (d.hits, d.amount) == (2, 2 * 4 + 1)
    assert g.typhoon(1).level == 3


def test_wind_shear_removes_a_tropical_depression_before_it_hits():
    g = scn(P3, active="Japan", typhoons=[((7, 6), 1, "W")], phase="move", hands={"Taiwan": ["wind_shear"]})
    roll(g, 3)
    assert g.phase == "counter"
    evs = g.apply("play wind_shear") + pass_empty_windows(g)
    assert [e.reason for e in of(evs, "TyphoonRemoved")] == ["weakened"]
    assert of(evs, "RegionHit") == [] and of(evs, "Landfall") == []
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp and g.typhoons == []


def test_counter_applies_only_to_the_countering_players_region():
    g = scn(P4, active="Taiwan", typhoons=[((8, 1), 5, "S")], phase="move", hands={"Korea": ["evacuation"]})
    evs = roll(g, 1)
    assert g.current_player == "Korea"
    evs += g.apply("play evacuation") + pass_empty_windows(g)
    assert dealt(evs, "Korea").amount == 0
    assert dealt(evs, "Japan").amount == 19
