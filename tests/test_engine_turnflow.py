"""A turn (docs/rules.md §6): phase order, refill, draw, deck upkeep, attack order, moves, discard, count limits."""

from __future__ import annotations

import shutil

import pytest
from engine_helpers import P3, P4, assert_illegal, card_count, kinds, notations, of, pass_attacks, roll, scn

from typhoon_edu import CHANCE, load_rules
from typhoon_edu.engine.rules import DATA_DIR

FAR = [((13, 3), 1, "E")]  # a depression in the open sea, leaving the map to the east


def end_turn_quietly(g):
    """Pass the attack phase and move every typhoon 1 step, as far as the turn goes."""
    pass_attacks(g)
    while g.phase in ("move_choose", "roll_move"):
        if g.current_player == CHANCE:
            g.apply(1)
        else:
            g.apply(g.legal_actions()[0])


# ---------------------------------------------------------------- phase order
def test_phase_order_of_a_turn():
    g = scn(P3, typhoons=[((13, 3), 1, "E"), ((14, 5), 1, "E")], hands={"Taiwan": ["warm_ocean"] * 5})
    g.apply("pass")
    pass_attacks(g)
    evs = []
    evs += g.apply("move T1") + roll(g, 1) + roll(g, 1)
    assert g.phase == "discard" and g.current_player == "Taiwan"  # 5 cards, hand limit 3
    evs += g.apply("discard warm_ocean") + g.apply("discard warm_ocean")
    ks = [k for k in kinds(evs) if k in ("MoveStarted", "Discarded", "TurnEnded", "TurnStarted", "CardsDrawn")]
    assert ks[:6] == ["MoveStarted", "MoveStarted", "Discarded", "Discarded", "TurnEnded", "TurnStarted"]
    # next turn: refill first (only 2 typhoons), then draw
    assert g.phase == "refill" and g.current_player == "Japan"
    g.apply("place 8,8")
    assert g.current_player == CHANCE
    evs = roll(g, 1)
    assert kinds(evs)[:2] == ["DieRolled", "DirectionRolled"]
    assert [(e.player, e.count) for e in of(evs, "CardsDrawn")] == [("Japan", 3), ("Korea", 1), ("Taiwan", 1)]
    assert g.phase == "attack" and g.current_player == "Japan"


def test_attack_order_goes_once_around_the_table_from_the_active_player():
    g = scn(P4, active="Korea", typhoons=FAR)
    seen = []
    while g.phase == "attack":
        seen.append(g.current_player)
        g.apply("pass")
    assert seen == ["Korea", "Philippines", "Taiwan", "Japan"]


def test_active_player_moves_every_typhoon_in_the_order_they_choose():
    g = scn(P3, typhoons=[((13, 3), 1, "E"), ((13, 5), 1, "E"), ((13, 7), 1, "E")], phase="move")
    assert g.current_player == "Taiwan"
    assert notations(g) == ["move T1", "move T2", "move T3"]
    g.apply("move T2")
    evs = roll(g, 1)
    assert of(evs, "MoveStarted")[0].typhoon == 2
    assert notations(g) == ["move T1", "move T3"]
    assert_illegal(g, "move T2", "T2", "cannot move")
    g.apply("move T3")
    evs = roll(g, 1) + roll(g, 1)  # the last typhoon moves without a choice
    assert [e.typhoon for e in of(evs, "MoveStarted")] == [3, 1]


def test_roll_gives_the_number_of_steps():
    g = scn(P3, typhoons=[((9, 5), 1, "E")], phase="move")
    evs = roll(g, 3)
    assert [e.to for e in of(evs, "TyphoonStepped")] == [(10, 5), (11, 5), (12, 5)]
    assert g.typhoons[0].eye == (12, 5)


# ---------------------------------------------------------------- refill
def test_refill_to_three_with_direction_at_once():
    g = scn(P3, typhoons=FAR)
    end_turn_quietly(g)  # T1 leaves to (14, 3): still one typhoon
    assert g.phase == "refill" and g.current_player == "Japan"
    g.apply("place 9,9")
    evs = roll(g, 3)
    assert of(evs, "DirectionRolled")[0].typhoon == 2
    assert g.phase == "refill"  # still fewer than 3
    g.apply("place 12,8")
    roll(g, 1)
    assert len(g.typhoons) == 3 and g.phase == "attack"
    assert [t.level for t in g.typhoons] == [1, 1, 1]
    assert all(t.direction is not None for t in g.typhoons)


def test_refill_may_not_overlap_another_typhoons_footprint():
    # a super typhoon on (9, 8) covers all of zone 1 and (10, 7..9); it will be held in place
    g = scn(P3, typhoons=[((9, 8), 5, "N")], hands={"Taiwan": ["blocking_high"]})
    g.apply("play blocking_high T1")
    pass_attacks(g)  # nothing moves; T1 stays a super typhoon (level 5 cannot grow)
    assert g.phase == "refill" and g.current_player == "Japan"
    offered = {a.cell for a in g.legal_actions()}
    assert offered == {(11, 7), (12, 7), (11, 8), (12, 8), (14, 9), (15, 9), (14, 10), (15, 10)}
    assert_illegal(g, "place 8,8", "not free")
    assert_illegal(g, "place 5,5", "not in a generation zone")


def _tiny_zone_rules(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    text = (data / "map.toml").read_text(encoding="utf-8")
    head = text[: text.index("\n[[zones]]") + 1]
    zones = "".join(
        f'[[zones]]\nmark = "{i}"\ncells = [{cell}]\nname_en = "z{i}"\nname_zh = "z{i}"\n\n'
        for i, cell in ((1, "[8, 8]"), (2, "[9, 9]"), (3, "[14, 9]"))
    )
    (data / "map.toml").write_text(head + zones, encoding="utf-8")
    return load_rules(data)


def test_refill_is_skipped_when_no_zone_cell_is_free(tmp_path):
    rules = _tiny_zone_rules(tmp_path)
    g = scn(P3, typhoons=[((9, 9), 5, "N"), ((14, 10), 1, "N")], phase="move", rules=rules)
    g.apply("move T1")
    roll(g, 1)  # T1 to (9, 8): its 3x3 covers (8, 8) and (9, 9)
    evs = roll(g, 1)  # T2 to (14, 9)
    assert len(g.typhoons) == 2
    assert of(evs, "TyphoonPlaced") == []
    assert g.phase == "attack" and g.active == "Japan"  # straight on to the draw and attack


# ---------------------------------------------------------------- draw and deck upkeep
def test_draw_three_for_active_one_for_each_other_living_player():
    g = scn(P4, active="Japan", typhoons=FAR + [((14, 5), 1, "E"), ((14, 7), 1, "E")])
    end_turn_quietly(g)
    evs = [e for e in g.events if e.kind == "CardsDrawn"]
    assert [(e.player, e.count) for e in evs[-4:]] == [("Korea", 3), ("Philippines", 1), ("Taiwan", 1), ("Japan", 1)]


def test_deck_upkeep_puts_the_shuffled_discard_under_the_last_card():
    g = scn(P3, typhoons=FAR + [((14, 5), 1, "E"), ((14, 7), 1, "E")])
    last = g.deck[-1]
    g.discard.extend(g.deck[:-1])
    del g.deck[:-1]
    n_discard = len(g.discard)
    end_turn_quietly(g)
    (shuffle,) = of(g.events, "DeckReshuffled")
    assert (shuffle.cards, shuffle.under) == (n_discard, True)
    drawn = [e for e in g.events if e.kind == "CardsDrawn"][-3]
    assert drawn.player == "Japan" and drawn.cards[0] == last  # the old last card stays on top
    assert card_count(g) == 54


def test_draw_from_an_empty_pile_shuffles_the_discard_into_a_new_pile():
    g = scn(P3, typhoons=FAR + [((14, 5), 1, "E"), ((14, 7), 1, "E")])
    g.discard.extend(g.deck)
    g.deck.clear()
    end_turn_quietly(g)
    (shuffle,) = of(g.events, "DeckReshuffled")
    assert shuffle.under is False and shuffle.cards == 54
    assert len(g.hand("Japan")) == 3 and len(g.hand("Korea")) == 1 and len(g.hand("Taiwan")) == 1
    assert card_count(g) == 54


def test_draw_is_lost_when_both_piles_are_empty():
    g = scn(P3, typhoons=FAR + [((14, 5), 1, "E"), ((14, 7), 1, "E")], hands={"Korea": ["warm_ocean"]})
    # park every other card in Korea's hand so both piles are empty
    g.hands[2].extend(g.deck)
    g.deck.clear()
    end_turn_quietly(g)
    drawn = [e for e in g.events if e.kind == "CardsDrawn"]
    assert [(e.player, e.count, e.lost) for e in drawn] == [("Japan", 0, 3), ("Korea", 0, 1), ("Taiwan", 0, 1)]
    assert card_count(g) == 54


# ---------------------------------------------------------------- discard (phase 7)
def test_only_the_active_player_discards_down_to_the_hand_limit():
    g = scn(P3, typhoons=FAR, hands={"Taiwan": ["steering_flow"] * 3 + ["tailwind"] * 2,
                                   "Japan": ["recurve"] * 2 + ["flood_defences"] * 2 + ["cool_upwelling"] * 2 + ["evacuation"]})
    pass_attacks(g)
    roll(g, 1)
    assert g.phase == "discard" and g.current_player == "Taiwan"
    assert notations(g) == ["discard steering_flow", "discard tailwind"]
    assert_illegal(g, "discard recurve", "no", "recurve")
    g.apply("discard tailwind")
    assert g.phase == "discard"
    evs = g.apply("discard steering_flow")
    assert "TurnEnded" in kinds(evs)
    assert sorted(g.hand("Taiwan")) == ["steering_flow", "steering_flow", "tailwind"]
    assert len(g.hand("Japan")) >= 7  # Japan (limit 5) never discards on Taiwan's turn
    assert g.discard_pile[-2:] == ["tailwind", "steering_flow"]


def test_no_discard_at_or_below_the_hand_limit():
    g = scn(P3, typhoons=FAR, hands={"Taiwan": ["steering_flow"] * 3})
    pass_attacks(g)
    evs = roll(g, 1)
    assert "Discarded" not in kinds(evs) and g.active == "Japan"


# ---------------------------------------------------------------- count limits (section 7)
EIGHT = [((13, 1), 1, "E"), ((13, 3), 1, "E"), ((13, 5), 1, "E"), ((15, 1), 1, "E"),
         ((15, 3), 1, "E"), ((15, 5), 1, "E"), ((15, 7), 1, "E"), ((1, 9), 1, "W")]


def test_tropical_disturbance_is_not_offered_with_eight_typhoons():
    g = scn(P3, typhoons=EIGHT, hands={"Taiwan": ["tropical_disturbance"]})
    assert len(g.typhoons) == 8
    assert not any(n.startswith("play tropical_disturbance") for n in notations(g))
    assert_illegal(g, "play tropical_disturbance 8,8", "Tropical Disturbance")


def test_tropical_disturbance_can_make_the_eighth_typhoon():
    g = scn(P3, typhoons=EIGHT[:7], hands={"Taiwan": ["tropical_disturbance"]})
    assert "play tropical_disturbance 8,8" in notations(g)
    g.apply("play tropical_disturbance 8,8")
    assert g.current_player == CHANCE  # its direction is rolled at once
    roll(g, 2)
    assert len(g.typhoons) == 8
    assert g.typhoon(8).level == 1 and g.typhoon(8).direction == "NE"


@pytest.mark.parametrize("level", [1, 3, 5])
def test_new_depression_cells_avoid_every_footprint(level):
    g = scn(P3, typhoons=[((10, 8), level, "E")], hands={"Taiwan": ["tropical_disturbance"]})
    cover = set(g.footprint(g.typhoon(1)))
    offered = {a.cell for a in g.legal_actions() if a.card == "tropical_disturbance"}
    zones = {c for z in load_rules().map.zones for c in z.cells}
    assert offered == zones - cover
