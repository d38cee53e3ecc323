"""Illegal actions of every kind: IllegalActionError naming the broken rule, and the state left exactly as it was."""

from __future__ import annotations

import pytest
from engine_helpers import P3, assert_illegal, roll, scn, setup_manual

from typhoon_edu import Action, Game, IllegalActionError

SEA = [((12, 5), 3, "E"), ((13, 3), 1, "E")]


@pytest.fixture
def attack():
    return scn(P3, typhoons=SEA, hands={"Taiwan": ["warm_ocean", "blocking_high", "evacuation"], "Japan": ["dry_air"]})


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize(
    "action, needles",
    [
        ("jump T1", ["is not an action"]),
        ("", ["is not an action"]),
        ("play warm_ocean X9", ["X9", "neither a typhoon"]),
        (None, ["not an action"]),
        (3.5, ["not an action"]),
        (True, ["not an action"]),
        (["pass"], ["not an action"]),
    ],
)
def test_things_that_are_not_actions(attack, action, needles):
    assert_illegal(attack, action, *needles)


def test_unknown_card(attack):
    assert_illegal(attack, "play nosuch T1", "no card called 'nosuch'")


def test_card_not_in_hand(attack):
    assert_illegal(attack, "play dry_air T2", "Taiwan has no Dry Air card in hand")


def test_no_such_typhoon(attack):
    assert_illegal(attack, "play warm_ocean T9", "no typhoon T9")


def test_card_without_its_target(attack):
    msg = assert_illegal(attack, "play warm_ocean", "Warm Ocean")
    assert "gains 1 level" in msg  # the card's rule is quoted
    assert_illegal(attack, "play warm_ocean 8,8", "Warm Ocean")
    assert_illegal(attack, "play blocking_high T1 N", "Blocking High")


def test_counter_card_in_the_attack_phase(attack):
    assert_illegal(attack, "play evacuation", "Evacuation", "when a typhoon reaches your region")


def test_die_face_when_no_die_is_rolled(attack):
    assert_illegal(attack, 3, "no die is being rolled now", "Taiwan")
    assert_illegal(attack, "die 3", "no die is being rolled now")
    assert_illegal(attack, Action("die", face=3), "no die is being rolled now")


def test_decision_during_a_die_roll_and_faces_off_the_die():
    g = scn(P3, typhoons=SEA, phase="move")
    g.apply("move T1")
    assert_illegal(g, "pass", "a die is being rolled now", "1 to 6")
    assert_illegal(g, "move T2", "a die is being rolled now")
    for face in (0, 7, -1, 66):
        assert_illegal(g, face, "a die shows 1 to 6")
    assert_illegal(g, "die 9", "a die shows 1 to 6")
    assert_illegal(g, Action("die", face=0), "1 to 6")


def test_place_outside_a_zone_off_the_map_and_on_a_footprint():
    g = Game.new(P3, seed=2, dice="manual")
    assert_illegal(g, "place 5,5", "not in a generation zone")
    assert_illegal(g, "place 40,2", "off the map")
    g.apply("place 8,8")
    assert_illegal(g, "place 9,9", "not free")  # zone 1 already has its storm


def test_aim_a_typhoon_that_is_not_waiting_for_a_direction():
    g = Game.new(P3, seed=2, dice="manual")
    for c in ("8,8", "11,7", "14,9"):
        g.apply(f"place {c}")
    g.apply("aim T2")
    roll(g, 1)
    assert_illegal(g, "aim T2", "not allowed now")
    assert_illegal(g, "aim T7", "not allowed now")


def test_move_a_held_or_already_moved_typhoon():
    g = scn(P3, typhoons=SEA + [((13, 7), 1, "E"), ((13, 9), 1, "E")], hands={"Taiwan": ["blocking_high"]})
    g.apply("play blocking_high T1")
    while g.phase == "attack":
        g.apply("pass")
    assert_illegal(g, "move T1", "T1 cannot move")
    g.apply("move T2")
    roll(g, 1)
    assert_illegal(g, "move T2", "T2 cannot move")
    assert_illegal(g, "move T8", "T8 cannot move")


def test_discard_out_of_the_discard_phase_and_a_card_not_held(attack):
    assert_illegal(attack, "discard warm_ocean", "not possible now", "play up to 2 function cards")
    g = scn(P3, typhoons=[((13, 3), 1, "E")], hands={"Taiwan": ["steering_flow"] * 3 + ["tailwind"] * 2})
    while g.phase == "attack":
        g.apply("pass")
    roll(g, 1)
    assert g.phase == "discard"
    assert_illegal(g, "discard recurve", "Taiwan has no 'recurve' card to discard")


def test_region_card_in_a_counter_window():
    g = scn(P3, active="Japan", typhoons=[((8, 6), 3, "W")], phase="move", hands={"Taiwan": ["evacuation"]})
    roll(g, 4)
    assert g.phase == "counter"
    assert_illegal(g, "region", "attack phase only")


def test_pass_is_the_only_thing_after_the_game_is_over():
    g = scn(P3, typhoons=[((8, 1), 5, "S"), ((13, 3), 1, "E")], hp={"Japan": 3, "Korea": 3}, phase="move")
    g.apply("move T1")
    roll(g, 1)
    assert g.is_over
    for a in ("pass", 3, "move T2", "region"):
        assert_illegal(g, a, "the game is over")


def test_warm_ocean_on_a_super_typhoon_quotes_the_limit():
    g = scn(P3, typhoons=[((12, 5), 5, "E")], hands={"Taiwan": ["warm_ocean", "dry_air"]})
    assert_illegal(g, "play warm_ocean T1", "5 is the top")


def test_illegal_actions_during_setup_leave_it_unchanged():
    g = setup_manual(P3, seed=9)  # setup is over: the attack phase has begun
    assert_illegal(g, "place 8,9", "not possible now")
    g1 = Game.new(P3, seed=9, dice="manual")
    g1.apply("place 8,8")
    assert_illegal(g1, "place 9,9", "not free")  # zone 1 already has its storm
    g2 = Game.new(P3, seed=9, dice="manual")
    assert_illegal(g2, "pass", "place a tropical depression")
    assert_illegal(g2, "aim T1", "place a tropical depression")


# ---------------------------------------------------------------- the message names the rule actually broken
def test_place_outside_a_placement_names_the_phase_not_a_full_cell(attack):
    """(8, 8) is an empty zone cell; placing there is illegal only because no typhoon is placed now."""
    msg = assert_illegal(attack, "place 8,8")
    assert "not free" not in msg, f"misleading reason: {msg!r}"
    assert "play up to 2 function cards" in msg  # what Taiwan must do now


def test_move_outside_the_move_phase_names_the_phase(attack):
    """T1 has not moved, is not held and is on the map: the reason is that typhoons move in phase 4."""
    msg = assert_illegal(attack, "move T1")
    assert "has moved, is held, or is not on the map" not in msg, f"misleading reason: {msg!r}"
    assert "play up to 2 function cards" in msg
