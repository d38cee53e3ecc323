"""HP limits, elimination, the immediate win, ties and the end after 3 rounds (docs/rules.md §8 and §9)."""

from __future__ import annotations

import random

from engine_helpers import P3, P4, check_invariants, kinds, of, roll, scn

from typhoon_edu import CHANCE, load_rules

RULES = load_rules()

NORTHBOUND = [((13, 11), 1, "N"), ((14, 11), 1, "N"), ((15, 11), 1, "N")]  # never near land in 9 steps


def quiet_turns(g, max_actions=2000):
    """Everybody passes, every die shows 1, the first legal choice otherwise, until the game ends."""
    for _ in range(max_actions):
        if g.is_over:
            return
        if g.current_player == CHANCE:
            g.apply(1)
        elif any(a.kind == "pass" for a in g.legal_actions()):
            g.apply("pass")
        else:
            g.apply(g.legal_actions()[0])
        check_invariants(g)
    raise AssertionError("the game did not end")


def test_hp_never_below_zero():
    g = scn(P4, active="Japan", typhoons=[((7, 3), 3, "N")], hp={"Korea": 5}, phase="move")
    evs = roll(g, 6)  # 7 hits x 4 = 28 on Korea
    (d,) = of(evs, "DamageDealt")
    assert (d.player, d.amount, d.hp) == ("Korea", 28, 0)
    assert g.hp["Korea"] == 0
    assert [e.player for e in of(evs, "Eliminated")] == ["Korea"]
    assert not g.is_over  # three players are still in


def test_eliminated_player_takes_no_turns_draws_no_cards_makes_no_decisions():
    g = scn(P4, active="Japan", typhoons=[((7, 3), 3, "N")], hp={"Korea": 5}, phase="move")
    roll(g, 6)
    assert g.active == "Philippines"  # Korea's turn is skipped
    n = len(g.events)
    rng = random.Random(3)
    korea_cards = len(g.hand("Korea"))
    while not g.is_over:
        assert g.current_player != "Korea"
        g.apply(rng.choice(g.legal_actions()))
        check_invariants(g)
    later = g.events[n:]
    assert all(e.player != "Korea" for e in later if e.kind in ("TurnStarted", "CardsDrawn", "CounterWindow", "Passed", "CardPlayed", "AbilityUsed"))
    assert len(g.hand("Korea")) == korea_cards
    assert g.hp["Korea"] == 0


def test_eliminated_player_gets_no_counter_window_and_no_more_damage():
    g = scn(P4, active="Japan", typhoons=[((7, 3), 3, "N"), ((8, 1), 5, "S")], hp={"Korea": 5},
            hands={"Korea": ["evacuation", "flood_defences"]}, phase="move")
    g.apply("move T1")
    roll(g, 6)  # Korea (still in) holds counters, so it is asked; it passes
    while g.phase == "counter":
        g.apply("pass")
    assert g.hp["Korea"] == 0
    evs = roll(g, 1)  # T2 covers Korea and Japan: only Japan is still in
    assert [e.player for e in of(evs, "CounterWindow")] == ["Japan"]  # never Korea
    assert [e.player for e in of(evs, "DamageDealt")] == ["Japan"]


def test_eliminated_active_player_makes_no_more_decisions_this_turn():
    g = scn(P3, typhoons=[((8, 6), 3, "W"), ((13, 3), 1, "E"), ((13, 5), 1, "E")], hp={"Taiwan": 5},
            hands={"Taiwan": ["warm_ocean", "dry_air", "steering_flow", "tailwind", "headwind"]}, phase="move")
    g.apply("move T1")
    evs = roll(g, 4)
    assert "Eliminated" in kinds(evs)
    # the other two typhoons still move, chosen by no one, and Taiwan does not discard
    assert g.current_player == CHANCE
    evs = roll(g, 1, 1)
    assert len(of(evs, "MoveStarted")) == 2
    assert "Discarded" not in kinds(evs)
    assert g.active == "Japan"


def test_last_player_standing_wins_at_once():
    g = scn(P3, active="Taiwan", typhoons=[((8, 1), 5, "S"), ((13, 3), 1, "E"), ((13, 5), 1, "E")],
            hp={"Japan": 3, "Korea": 3}, phase="move")
    g.apply("move T1")
    evs = roll(g, 1)
    assert g.is_over
    assert g.winners == ("Taiwan",)
    assert g.over_reason == "last_standing"
    assert evs[-1].kind == "GameOver" and evs[-1].winners == ("Taiwan",)
    assert g.legal_actions() == [] and g.current_player is None
    assert sorted(e.player for e in of(evs, "Eliminated")) == ["Japan", "Korea"]
    assert "MoveStarted" not in kinds(evs)[kinds(evs).index("GameOver"):]


def test_last_players_out_together_share_the_win():
    g = scn(P3, active="Japan", typhoons=[((8, 6), 3, "W"), ((8, 1), 5, "S"), ((13, 5), 1, "E")],
            hp={"Taiwan": 5, "Japan": 5, "Korea": 5}, phase="move")
    g.apply("move T1")
    roll(g, 4)
    assert g.hp["Taiwan"] == 0 and not g.is_over
    g.apply("move T2")
    roll(g, 1)
    assert g.is_over and g.over_reason == "all_out"
    assert set(g.winners) == {"Japan", "Korea"}
    assert g.hp == {"Taiwan": 0, "Japan": 0, "Korea": 0}


def test_after_the_third_round_the_highest_hp_wins():
    g = scn(P3, round=3, typhoons=NORTHBOUND, hp={"Taiwan": 20, "Japan": 25, "Korea": 15})
    quiet_turns(g)
    assert g.winners == ("Japan",) and g.over_reason == "rounds" and g.round == 3
    assert [e.player for e in of(g.events, "TurnStarted")] == ["Japan", "Korea"]


def test_ties_share_the_win():
    g = scn(P3, round=3, typhoons=NORTHBOUND, hp={"Taiwan": 20, "Japan": 20, "Korea": 15})
    quiet_turns(g)
    assert set(g.winners) == {"Taiwan", "Japan"} and g.over_reason == "rounds"


def test_a_standard_game_is_three_rounds_of_turns():
    g = scn(P3, typhoons=NORTHBOUND)
    quiet_turns(g)
    assert [e.round for e in of(g.events, "RoundStarted")] == [2, 3]
    assert [e.player for e in of(g.events, "TurnStarted")] == ["Japan", "Korea"] + P3 * 2
    assert g.hp == {p: RULES.regions[p].hp for p in g.players}  # nobody was hit
    top = max(RULES.regions[p].hp for p in P3)  # the highest HP, not the highest share of the maximum
    assert g.winners == tuple(p for p in g.players if RULES.regions[p].hp == top)
