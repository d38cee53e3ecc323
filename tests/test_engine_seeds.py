"""The seed-exact examples of docs/rules.md §3, §4 and §8, as named tests."""

from __future__ import annotations

import pytest
from engine_helpers import P3, of, roll, scn

from typhoon_edu import Game, advance, damage, load_rules, path_steps, step_cycle

RULES = load_rules()


# ---------------------------------------------------------------- section 3: the compass ring
def test_seed_ring_n3_e3_nnw5_wsw_via_advance():
    assert advance("N", 3) == "E"
    assert advance("E", 3) == "NNW"
    assert advance("NNW", 5) == "WSW"


def test_ring_is_the_editions_seven_stops_clockwise_from_n():
    assert RULES.ring == ("N", "NNE", "NE", "E", "WSW", "WNW", "NNW")
    assert RULES.ring_start == "N"
    # a full turn of the ring comes back to the start
    for stop in RULES.ring:
        assert advance(stop, 7) == stop
        assert advance(stop, 0) == stop


def test_seed_ring_via_setup_direction_rolls():
    """Setup gives the three depressions their directions by the ring roll, and the indicator stays."""
    g = Game.new(P3, seed=1, dice="manual")
    assert g.compass == "N"
    for cell in ("8,8", "11,7", "14,9"):
        g.apply(f"place {cell}")
    got = []
    for tid, face in ((1, 3), (2, 3), (3, 5)):
        if g.phase == "setup_aim":
            g.apply(f"aim T{tid}")
        got += of(roll(g, face), "DirectionRolled")
    assert [(e.typhoon, e.start, e.face, e.stop) for e in got] == [
        (1, "N", 3, "E"),
        (2, "E", 3, "NNW"),
        (3, "NNW", 5, "WSW"),
    ]
    assert {t.id: t.direction for t in g.typhoons} == {1: "E", 2: "NNW", 3: "WSW"}
    assert g.compass == "WSW"  # the indicator stays where it landed


# ---------------------------------------------------------------- section 4: grid pathing
def test_seed_path_nnw_5_is_nnwnn():
    assert "".join(path_steps("NNW", 5)) == "NNWNN"


def test_seed_path_sw_6_is_wswsws():
    assert "".join(path_steps("SW", 6)) == "WSWSWS"


def test_seed_path_e_4_is_eeee():
    assert "".join(path_steps("E", 4)) == "EEEE"


# The step cycle of every compass point is spelled by its Chinese name.
ALL_CYCLES = {
    "N": "N", "NNE": "NNE", "NE": "EN", "ENE": "ENE", "E": "E", "ESE": "ESE", "SE": "ES", "SSE": "SSE",
    "S": "S", "SSW": "SSW", "SW": "WS", "WSW": "WSW", "W": "W", "WNW": "WNW", "NW": "WN", "NNW": "NNW",
}


@pytest.mark.parametrize("direction", sorted(ALL_CYCLES))
def test_all_16_step_cycles(direction):
    assert "".join(step_cycle(direction)) == ALL_CYCLES[direction]
    cycle = ALL_CYCLES[direction]
    assert "".join(path_steps(direction, 7)) == (cycle * 7)[:7]
    # the cycle restarts at its first letter on every move
    assert path_steps(direction, 1) == [cycle[0]]


def test_sixteen_points_in_the_data():
    assert set(RULES.points) == set(ALL_CYCLES)


def test_seed_pathing_on_the_map_nnw_5():
    g = scn(typhoons=[((13, 9), 1, "NNW")], phase="move")
    evs = roll(g, 5)
    steps = of(evs, "TyphoonStepped")
    assert "".join(e.letter for e in steps) == "NNWNN"
    assert [e.to for e in steps] == [(13, 8), (13, 7), (12, 7), (12, 6), (12, 5)]


def test_seed_pathing_on_the_map_sw_6():
    g = scn(typhoons=[((15, 3), 1, "SW")], phase="move")
    steps = of(roll(g, 6), "TyphoonStepped")
    assert "".join(e.letter for e in steps) == "WSWSWS"
    assert steps[-1].to == (12, 6)


# ---------------------------------------------------------------- section 8: damage
def test_seed_damage_moderate_5_hits_is_20():
    assert damage(3, 5, False) == 20


def test_seed_damage_strong_2_hits_stays_is_11():
    assert damage(4, 2, True) == 11


def test_damage_per_level_table():
    assert [damage(level, 1, False) for level in range(1, 6)] == [2, 3, 4, 5, 6]
    assert damage(5, 0, False) == 0


def test_seed_damage_20_on_the_map():
    """A moderate typhoon crossing Taiwan west-east makes 5 hits (1 + 3 + 1) and leaves: 5 x 4 = 20."""
    g = scn(typhoons=[((8, 6), 3, "W")], phase="move")
    evs = roll(g, 4)
    assert [e.hits for e in of(evs, "RegionHit") if e.player == "Taiwan"] == [1, 3, 1]
    (dealt,) = [e for e in of(evs, "DamageDealt") if e.player == "Taiwan"]
    assert (dealt.hits, dealt.bonus, dealt.amount) == (5, 0, 20)
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp - 20


def test_seed_damage_11_on_the_map():
    """A strong typhoon passes along Taiwan's east coast: 2 hits and ends on the region: 2 x 5 + 1."""
    g = scn(typhoons=[((7, 8), 4, "N")], phase="move")
    evs = roll(g, 2)
    (dealt,) = of(evs, "DamageDealt")
    assert (dealt.player, dealt.hits, dealt.bonus, dealt.amount) == ("Taiwan", 2, 1, 11)
    assert g.hp["Taiwan"] == RULES.regions["Taiwan"].hp - 11
    assert g.typhoons[0].eye == (7, 6) and g.typhoons[0].level == 4  # no landfall: the eye stayed at sea


def test_the_engines_shuffle_is_random_shuffle():
    """The deck shuffle is written out for speed; it must deal exactly what ``random.shuffle`` deals."""
    import random

    from typhoon_edu.engine.game import _shuffle_like_random

    for seed in range(200):
        for size in (0, 1, 2, 3, 17, 54, 100):
            a, b = list(range(size)), list(range(size))
            random.Random(seed).shuffle(a)
            _shuffle_like_random(random.Random(seed), b)
            assert a == b
