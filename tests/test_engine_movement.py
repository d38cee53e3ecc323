"""Moving typhoons: pathing and the map edge, footprints, hits, the stay bonus, landfall, merging, growth."""

from __future__ import annotations

import pytest
from engine_helpers import P3, P4, kinds, of, pass_attacks, roll, scn

from typhoon_edu import CHANCE, load_rules

RULES = load_rules()


def dealt(evs, player):
    got = [e for e in of(evs, "DamageDealt") if e.player == player]
    assert len(got) <= 1
    return got[0] if got else None


# ---------------------------------------------------------------- pathing and the edge
def test_eye_follows_the_step_cycle_and_restarts_it_each_move():
    g = scn(P3, typhoons=[((12, 9), 1, "NNE"), ((14, 1), 1, "W")], phase="move")
    g.apply("move T1")
    evs = roll(g, 2)
    assert [e.to for e in of(evs, "TyphoonStepped")] == [(12, 8), (12, 7)]
    roll(g, 1)  # T2 to (13, 1)
    # next turn the cycle restarts at N (N N E), it does not go on with E
    assert g.active == "Japan" and g.phase == "refill"
    g.apply("place 14,9")  # 3 typhoons again
    roll(g, 1)
    pass_attacks(g)
    g.apply("move T1")
    evs = roll(g, 3)
    assert [e.letter for e in of(evs, "TyphoonStepped")] == ["N", "N", "E"]
    assert g.typhoon(1).eye == (13, 5)


def test_leaving_the_map_removes_the_typhoon_at_that_step():
    g = scn(P3, typhoons=[((14, 3), 2, "E")], phase="move")
    evs = roll(g, 4)
    steps = of(evs, "TyphoonStepped")
    assert [e.to for e in steps] == [(15, 3), None]  # the remaining 2 steps do nothing
    (removed,) = of(evs, "TyphoonRemoved")
    assert (removed.typhoon, removed.reason) == (1, "edge")
    assert g.typhoons == []


def test_hits_before_leaving_the_map_count_but_no_stay_bonus():
    g = scn(P3, typhoons=[((7, 3), 3, "N")], phase="move")
    evs = roll(g, 6)
    assert [e.hits for e in of(evs, "RegionHit")] == [3, 3, 1]  # (7,2), (7,1), (7,0), then off the map
    d = dealt(evs, "Korea")
    assert (d.hits, d.bonus, d.amount) == (7, 0, 28)
    assert of(evs, "Landfall") == []  # it is gone before landfall is resolved
    assert g.hp["Korea"] == 12


# ---------------------------------------------------------------- footprints and hits
@pytest.mark.parametrize(
    "level, cells",
    [
        (1, {(12, 5)}),
        (2, {(12, 5)}),
        (3, {(12, 5), (12, 4), (13, 5), (12, 6), (11, 5)}),
        (4, {(12, 5), (12, 4), (13, 5), (12, 6), (11, 5)}),
        (5, {(x, y) for x in (11, 12, 13) for y in (4, 5, 6)}),
    ],
)
def test_footprint_per_level(level, cells):
    g = scn(P3, typhoons=[((12, 5), level, "E")])
    assert set(g.footprint(g.typhoon(1))) == cells


def test_footprint_is_clipped_at_the_map_edge():
    g = scn(P3, typhoons=[((0, 11), 5, "E")])
    assert set(g.footprint(g.typhoon(1))) == {(0, 10), (1, 10), (0, 11), (1, 11)}


def test_super_typhoon_square_hits_every_covered_cell_of_two_regions():
    g = scn(P3, typhoons=[((8, 1), 5, "S")], phase="move")
    evs = roll(g, 1)  # eye to (8, 2), sea; its 3x3 covers Korea (7,1) (7,2) and Japan (9,2) (8,3) (9,3)
    assert (dealt(evs, "Korea").hits, dealt(evs, "Korea").amount) == (2, 2 * 6 + 1)
    assert (dealt(evs, "Japan").hits, dealt(evs, "Japan").amount) == (3, 3 * 6 + 1)
    assert of(evs, "Landfall") == []


def test_the_start_cell_does_not_count():
    g = scn(P3, typhoons=[((7, 6), 3, "E")], phase="move")  # starts covering Taiwan (6, 6)
    evs = roll(g, 1)
    assert of(evs, "RegionHit") == [] and of(evs, "DamageDealt") == []
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp


def test_a_cell_covered_on_two_steps_counts_twice():
    g = scn(P3, typhoons=[((7, 8), 3, "N")], phase="move")
    evs = roll(g, 3)  # (7,7) covers (6,7); (7,6) covers (6,6); (7,5) covers (6,5)
    assert [e.hits for e in of(evs, "RegionHit")] == [1, 1, 1]
    g2 = scn(P3, typhoons=[((6, 8), 3, "N")], phase="move")
    evs = roll(g2, 1)  # eye on (6,7): covers (6,7) and (6,6)
    assert dealt(evs, "Taiwan").hits == 2


def test_hits_use_the_damage_of_the_level():
    for level, per_hit in ((1, 2), (2, 3)):
        g = scn(P3, typhoons=[((6, 3), level, "S")], phase="move")
        evs = roll(g, 2)  # (6, 4) sea, then (6, 5) Taiwan
        d = dealt(evs, "Taiwan")
        assert d.hits == 1
        assert d.amount == per_hit + d.bonus


def test_stay_bonus_only_when_it_ends_on_the_region():
    g = scn(P3, typhoons=[((7, 8), 4, "N")], phase="move")
    evs = roll(g, 4)  # (7,7) (7,6) (7,5) hit Taiwan once each; (7,4) covers no Taiwan cell
    d = dealt(evs, "Taiwan")
    assert (d.hits, d.bonus, d.amount) == (3, 0, 15)


def test_no_stay_bonus_when_the_typhoon_vanishes_by_landfall():
    g = scn(P3, typhoons=[((7, 6), 1, "W")], phase="move")
    evs = roll(g, 1)  # eye onto Taiwan (6, 6): 1 hit x 2, then landfall removes the depression
    d = dealt(evs, "Taiwan")
    assert (d.hits, d.bonus, d.amount) == (1, 0, 2)
    assert [(e.reason) for e in of(evs, "TyphoonRemoved")] == ["landfall"]


def test_mild_typhoon_ending_on_land_keeps_the_stay_bonus():
    g = scn(P3, typhoons=[((7, 6), 2, "W")], phase="move")
    evs = roll(g, 1)  # 1 hit x 3, landfall -> level 1 still on (6, 6): +1
    d = dealt(evs, "Taiwan")
    assert (d.hits, d.bonus, d.amount) == (1, 1, 4)
    assert g.typhoon(1).level == 1


def test_only_movement_does_damage_growth_in_place_does_none():
    g = scn(P3, typhoons=[((7, 6), 3, "N"), ((13, 3), 1, "E")], hands={"Korea": ["blocking_high"]})
    g.apply("pass")
    g.apply("pass")
    g.apply("play blocking_high T1")  # held next to Taiwan, covering (6, 6)
    pass_attacks(g)
    evs = roll(g, 1)
    assert of(evs, "DamageDealt") == []
    assert g.typhoon(1).level == 4  # grew at sea, no damage for it
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp


# ---------------------------------------------------------------- landfall (section 7)
def test_landfall_on_land_with_no_owner():
    g = scn(P3, typhoons=[((3, 9), 2, "W")], phase="move")
    evs = roll(g, 2)  # (2, 9) sea, (1, 9) '#': land with no owner
    assert [(e.typhoon, e.old, e.new) for e in of(evs, "Landfall")] == [(1, 2, 1)]
    assert of(evs, "DamageDealt") == []


def test_landfall_counts_once_even_when_it_ends_back_at_sea():
    g = scn(P3, typhoons=[((7, 6), 4, "W")], phase="move")
    evs = roll(g, 2)  # (6, 6) Taiwan, (5, 6) sea
    assert [(e.old, e.new) for e in of(evs, "Landfall")] == [(4, 3)]
    assert g.typhoon(1).level == 3 and g.typhoon(1).eye == (5, 6)


def test_landfall_removes_a_tropical_depression():
    g = scn(P3, typhoons=[((3, 9), 1, "W")], phase="move")
    evs = roll(g, 2)
    assert [(e.old, e.new) for e in of(evs, "Landfall")] == [(1, 0)]
    assert g.typhoons == []


def test_no_landfall_when_the_eye_stays_at_sea():
    g = scn(P3, typhoons=[((7, 8), 5, "N")], phase="move")
    evs = roll(g, 3)  # square footprint sweeps Taiwan, eye stays at sea
    assert of(evs, "Landfall") == []
    assert g.typhoon(1).level == 5


def test_damage_is_counted_at_the_level_before_landfall():
    g = scn(P3, typhoons=[((8, 6), 3, "W")], phase="move")
    evs = roll(g, 4)
    assert all(e.level == 3 for e in of(evs, "RegionHit"))
    assert dealt(evs, "Taiwan").amount == 20
    assert kinds(evs).index("Landfall") < kinds(evs).index("DamageDealt")


# ---------------------------------------------------------------- merge (Fujiwhara)
def test_merge_stronger_wins_and_gains_a_level():
    g = scn(P3, typhoons=[((12, 5), 2, "E"), ((11, 5), 4, "SSE")], phase="move")
    g.apply("move T1")
    evs = roll(g, 1)
    assert g.phase == "roll_move" and g.roll_for == 2  # T2 still moves next
    g = scn(P3, typhoons=[((12, 5), 4, "S"), ((11, 5), 2, "E")], phase="move")
    g.apply("move T2")
    evs = roll(g, 1)  # T2 (level 2, E) moves onto T1 (level 4, S)
    (m,) = of(evs, "Merged")
    assert (m.survivor, m.absorbed, m.level, m.direction) == (1, 2, 5, "S")
    assert [(t.id, t.level, t.direction, t.eye) for t in g.typhoons] == [(1, 5, "S", (12, 5))]
    assert [e.reason for e in of(evs, "TyphoonRemoved")] == ["merged"]


def test_merge_moving_stronger_keeps_its_direction():
    g = scn(P3, typhoons=[((12, 5), 1, "S"), ((11, 5), 3, "E")], phase="move")
    g.apply("move T2")
    evs = roll(g, 1)
    (m,) = of(evs, "Merged")
    assert (m.survivor, m.level, m.direction) == (2, 4, "E")


def test_merge_equal_levels_take_the_moving_typhoons_direction():
    g = scn(P3, typhoons=[((12, 5), 3, "S"), ((11, 5), 3, "E")], phase="move")
    g.apply("move T2")
    evs = roll(g, 1)
    (m,) = of(evs, "Merged")
    assert (m.level, m.direction) == (4, "E")
    (t,) = g.typhoons
    assert (t.level, t.direction, t.eye) == (4, "E", (12, 5))


def test_merge_never_exceeds_level_five():
    g = scn(P3, typhoons=[((12, 5), 5, "S"), ((11, 5), 5, "E")], phase="move")
    g.apply("move T2")
    roll(g, 1)
    (t,) = g.typhoons
    assert t.level == 5


def test_passing_over_another_eye_is_not_a_merge():
    g = scn(P3, typhoons=[((12, 5), 2, "S"), ((11, 5), 2, "E")], phase="move")
    g.apply("move T2")
    evs = roll(g, 2)
    assert of(evs, "Merged") == []
    assert {t.eye for t in g.typhoons if t.id == 2} == {(13, 5)}


def test_landfall_is_resolved_before_the_merge():
    """Section 7 order: (b) landfall, then (d) merge. T2 (3) crosses Taiwan -> 2, then meets T1 (3)."""
    g = scn(P3, typhoons=[((5, 6), 3, "S"), ((7, 6), 3, "W")], phase="move")
    g.apply("move T2")
    evs = roll(g, 2)
    assert kinds(evs).index("Landfall") < kinds(evs).index("Merged")
    (m,) = of(evs, "Merged")
    assert (m.survivor, m.level, m.direction) == (1, 4, "S")  # T1 is now the stronger one


# ---------------------------------------------------------------- growth of held typhoons
def hold_and_finish(g, tid):
    g.apply(f"play blocking_high T{tid}")
    pass_attacks(g)
    evs = []
    while g.phase in ("move_choose", "roll_move"):
        evs += g.apply(1) if g.current_player == CHANCE else g.apply(g.legal_actions()[0])
    return evs


def test_held_typhoon_does_not_move_and_grows_at_sea():
    g = scn(P3, typhoons=[((12, 5), 2, "E"), ((13, 3), 1, "E")], hands={"Taiwan": ["blocking_high"]})
    evs = hold_and_finish(g, 1)
    assert [e.typhoon for e in of(evs, "MoveStarted")] == [2]
    assert [(e.typhoon, e.level) for e in of(evs, "Intensified")] == [(1, 3)]
    assert g.typhoon(1).eye == (12, 5) and g.typhoon(1).level == 3
    k = kinds(evs)
    assert k.index("Intensified") < k.index("TurnEnded")


def test_held_typhoon_on_land_does_not_grow():
    g = scn(P3, typhoons=[((1, 9), 2, "E"), ((13, 3), 1, "E")], hands={"Taiwan": ["blocking_high"]})
    evs = hold_and_finish(g, 1)
    assert of(evs, "Intensified") == []
    assert g.typhoon(1).level == 2


def test_held_super_typhoon_stays_level_five():
    g = scn(P3, typhoons=[((12, 5), 5, "E"), ((13, 3), 1, "E")], hands={"Taiwan": ["blocking_high"]})
    hold_and_finish(g, 1)
    assert g.typhoon(1).level == 5


def test_typhoons_that_moved_do_not_grow():
    g = scn(P3, typhoons=[((12, 5), 2, "E"), ((13, 3), 1, "S")], hands={"Taiwan": ["blocking_high"]})
    hold_and_finish(g, 1)
    assert g.typhoon(2).level == 1


def test_depression_placed_this_turn_is_not_grown():
    """A storm placed during the turn (Tropical Disturbance) moves with the rest and gets no growth."""
    g = scn(P4, typhoons=[((12, 5), 2, "E"), ((13, 3), 1, "E")], hands={"Taiwan": ["tropical_disturbance", "blocking_high"]})
    g.apply("play tropical_disturbance 8,8")
    roll(g, 1)  # its direction
    evs = hold_and_finish(g, 1)
    assert sorted(e.typhoon for e in of(evs, "MoveStarted")) == [2, 3]
    assert [e.typhoon for e in of(evs, "Intensified")] == [1]
    assert g.typhoon(3).level == 1
