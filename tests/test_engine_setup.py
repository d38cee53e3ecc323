"""Setup (docs/rules.md §5) and the advanced variant (§10)."""

from __future__ import annotations

import pytest
from engine_helpers import P3, P4, check_invariants, notations, of, roll, setup_manual

from typhoon_edu import CHANCE, Game, load_rules

RULES = load_rules()
ZONE_CELLS = {z.index: set(z.cells) for z in RULES.map.zones}


def test_setup_hp_hands_round_and_indicator():
    g = Game.new(P4, seed=11, dice="manual")
    assert g.hp == {p: RULES.regions[p].hp for p in P4}
    for p in P4:
        assert len(g.hand(p)) == RULES.regions[p].size  # starting hand = region size
    assert g.round == 1
    assert g.compass == "N"
    assert g.draw_pile_size == 54 - (3 + 5 + 4 + 4)
    assert g.discard_pile == []
    assert g.typhoons == []
    assert (g.phase, g.current_player, g.active) == ("setup_place", "Taiwan", "Taiwan")


def test_start_player_is_taiwan_even_when_not_seated_first():
    g = Game.new(["Japan", "Korea", "Taiwan"], seed=1)
    assert g.current_player == "Taiwan" and g.active == "Taiwan"


def test_start_player_without_taiwan_is_first_or_chosen():
    assert Game.new(["Japan", "Korea", "Philippines"], seed=1).active == "Japan"
    g = Game.new(["Japan", "Korea", "Philippines"], seed=1, start="Korea")
    assert g.active == "Korea" and g.current_player == "Korea"


@pytest.mark.parametrize("players", [["Taiwan", "Japan"], P4 + ["Central China", "South China"], ["Taiwan", "Taiwan", "Japan"]])
def test_player_count_and_distinct_regions(players):
    with pytest.raises(ValueError):
        Game.new(players, seed=1)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_three_to_five_players(n):
    players = ["Taiwan", "Philippines", "Korea", "Central China", "South China"][:n]
    g = Game.new(players, seed=2)
    assert g.players == tuple(players)  # seated in the order given (clockwise)
    assert sum(len(g.hand(p)) for p in players) + g.draw_pile_size == 54


def test_setup_places_one_depression_in_each_zone():
    g = Game.new(P3, seed=4, dice="manual")
    all_zone_cells = set().union(*ZONE_CELLS.values())
    assert {a.cell for a in g.legal_actions()} == all_zone_cells
    g.apply("place 9,9")  # zone 1
    offered = {a.cell for a in g.legal_actions()}
    assert offered == ZONE_CELLS[1] | ZONE_CELLS[2]  # zone 1 already has its storm
    g.apply("place 12,8")
    assert {a.cell for a in g.legal_actions()} == ZONE_CELLS[2]
    g.apply("place 15,10")
    assert g.phase == "setup_aim" and g.current_player == "Taiwan"
    assert [(t.eye, t.level, t.direction) for t in g.typhoons] == [((9, 9), 1, None), ((12, 8), 1, None), ((15, 10), 1, None)]


def test_setup_direction_order_is_chosen_by_the_start_player():
    g = Game.new(P3, seed=4, dice="manual")
    for cell in ("8,8", "11,7", "14,9"):
        g.apply(f"place {cell}")
    assert notations(g) == ["aim T1", "aim T2", "aim T3"]
    g.apply("aim T3")
    assert g.current_player == CHANCE
    roll(g, 4)  # N -> 4 -> WSW for T3
    assert g.typhoon(3).direction == "WSW"
    assert notations(g) == ["aim T1", "aim T2"]
    g.apply("aim T2")
    roll(g, 1)  # WSW -> WNW
    evs = roll(g, 2)  # the last one is aimed without asking: WNW -> N
    assert g.typhoon(2).direction == "WNW"
    assert g.typhoon(1).direction == "N"
    assert of(evs, "DirectionRolled")[0].typhoon == 1
    assert g.phase == "attack" and g.round == 1


def test_first_turn_after_setup_start_player_draws_three_others_one():
    g = setup_manual(P4, seed=5)
    drawn = of(g.events, "CardsDrawn")[-4:]
    assert [(e.player, e.count) for e in drawn] == [("Taiwan", 3), ("Japan", 1), ("Korea", 1), ("Philippines", 1)]
    assert len(g.hand("Taiwan")) == 3 + 3
    assert len(g.hand("Japan")) == 5 + 1
    check_invariants(g)


def test_unused_region_is_land_with_no_owner():
    """Philippines is not playing: a storm over it damages no one, but it still makes landfall."""
    from engine_helpers import scn

    g = scn(P3, typhoons=[((7, 8), 3, "S")], phase="move")
    evs = roll(g, 2)  # (7,9) then (7,10): Philippine cells, nobody owns them in this game
    assert of(evs, "RegionHit") == [] and of(evs, "DamageDealt") == []
    assert [(e.old, e.new) for e in of(evs, "Landfall")] == [(3, 2)]
    assert g.hp == {p: RULES.regions[p].hp for p in P3}


# ---------------------------------------------------------------- advanced variant (section 10)
def test_advanced_setup_places_levels_one_to_five_by_dice():
    g = Game.new(["Japan", "Korea", "Philippines"], seed=3, dice="manual", variant="advanced")
    assert g.current_player == CHANCE
    placed = []
    while g.current_player == CHANCE:
        placed += of(g.apply(2), "TyphoonPlaced")
    assert sorted(e.level for e in placed) == [1, 2, 3, 4, 5]
    all_zone_cells = set().union(*ZONE_CELLS.values())
    for e in placed:
        assert e.cell in all_zone_cells and e.by == "Japan"
    # no new tile's eye is under an earlier typhoon's footprint
    for i, t in enumerate(g.typhoons):
        for u in g.typhoons[:i]:
            assert t.eye not in g.footprint(u)
    assert all(t.direction in RULES.ring for t in g.typhoons)
    assert g.phase == "attack" and g.active == "Japan" and g.round == 1


def _first_advanced_cell_roll() -> Game:
    """A manual-dice advanced game at its first cell roll: zone 0 chosen, its four cells free."""
    g = Game.new(["Japan", "Korea", "Philippines"], seed=3, dice="manual", variant="advanced")
    assert g.phase == "roll_zone"
    g.apply(1)  # the first of three open zones
    assert g.phase == "roll_cell" and len(g._free_cells([0])) == 4
    return g


def test_advanced_cell_roll_is_fair_with_four_free_cells():
    """Each of four free cells has one face (1-4); 5 and 6 are rolled again, placing nothing."""
    first = _first_advanced_cell_roll()
    free = [first._b.cell(c) for c in first._free_cells([0])]
    reached = []
    for face in range(1, 7):
        g = first.clone(keep_log=True)
        evs = g.apply(face)
        if face <= 4:
            (placed,) = of(evs, "TyphoonPlaced")
            reached.append(placed.cell)
        else:
            assert of(evs, "TyphoonPlaced") == [] and g.phase == "roll_cell" and g.typhoons == []
            assert [(e.face, e.purpose) for e in of(evs, "DieRolled")] == [(face, "cell_again")]
    assert sorted(reached) == sorted(free)  # every free cell exactly once


def test_advanced_zone_roll_is_fair_when_a_zone_is_full():
    """With one zone full, the two open zones get three faces each (odd: the first, even: the second)."""
    g = Game.new(["Japan", "Korea", "Philippines"], seed=3, dice="manual", variant="advanced")
    g = scenario_with_full_zone(g)
    open_zones = g._open_zones()
    assert len(open_zones) == 2 and g.phase == "roll_zone"
    chosen = []
    for face in range(1, 7):
        c = g.clone()
        c.apply(face)
        chosen.append(c.adv_zone)
    assert chosen == [open_zones[0], open_zones[1]] * 3


def scenario_with_full_zone(g: Game) -> Game:
    """Play the advanced setup's rolls until a zone is full and a zone roll is due (faces 1, 1, …)."""
    while g.phase != "roll_zone" or len(g._open_zones()) != 2:
        assert g.current_player == CHANCE, "the setup ended before a zone filled up"
        g.apply(1)
    return g


def test_advanced_is_one_round():
    g = Game.new(["Japan", "Korea", "Philippines"], seed=8, variant="advanced")
    turns = []
    import random

    rng = random.Random(0)
    while not g.is_over:
        turns += [e.player for e in g.apply(rng.choice(g.legal_actions())) if e.kind == "TurnStarted"]
    assert g.round == 1
    assert len(turns) <= 3 and len(set(turns)) == len(turns)
    assert of(g.events, "RoundStarted") == []
    assert g.events[-1].kind == "GameOver"


def test_advanced_refill_still_uses_tropical_depressions():
    import random

    for seed in range(40):
        g = Game.new(["Japan", "Korea", "Philippines"], seed=seed, variant="advanced")
        rng = random.Random(seed)
        while not g.is_over:
            for e in g.apply(rng.choice(g.legal_actions())):
                if e.kind == "TyphoonPlaced" and e.by != "Japan":
                    assert e.level == 1
        placed_later = [e for e in of(g.events, "TyphoonPlaced")[5:]]
        assert all(e.level == 1 for e in placed_later)


def test_invalid_variant_and_dice_mode():
    with pytest.raises(ValueError):
        Game.new(P3, seed=1, variant="expert")
    with pytest.raises(ValueError):
        Game.new(P3, seed=1, dice="loaded")



@pytest.mark.parametrize("players", [["Japan", "Korea", "Taiwan"], P4, ["Philippines", "Taiwan", "South China", "Japan",
                                                                         "Central China"]])
def test_the_deal_is_one_card_at_a_time_clockwise_from_the_start_player(players):
    """The first deal (built from a cached dealing plan) is docs/rules.md §5's deal, card by card.

    Reference: the rules' deck in card order, shuffled by ``random.Random`` with the game's first
    shuffle seed (``seed * 1_000_003``, as ``Game._shuffle`` seeds it), then dealt one card at a
    time from the top, clockwise from the start player, skipping hands that are full.
    """
    import random

    for seed in (23, 24):
        for start in players:
            g = Game.new(players, seed=seed, dice="manual", start=start)
            deck = [key for key, card in RULES.cards.items() for _ in range(card.count)]
            random.Random(seed * 1_000_003).shuffle(deck)
            limits = [RULES.regions[p].size for p in players]
            order = [(players.index(start) + i) % len(players) for i in range(len(players))]
            hands: list[list[str]] = [[] for _ in players]
            while any(len(hands[s]) < limits[s] for s in order):
                for s in order:
                    if len(hands[s]) < limits[s]:
                        hands[s].append(deck.pop())
            assert g.hands == hands and g.deck == deck
            assert {p: g.hand(p) for p in players} == {p: sorted(hands[i]) for i, p in enumerate(players)}
