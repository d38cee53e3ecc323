"""Property-based tests: random legal games with the engine's invariants (tests/engine_helpers.py) after EVERY action.

Sized for about a minute on 2 cores: about a thousand hypothesis games (shrinkable) plus a plain
seeded loop of 2,800 fast random games.
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import ALL6, check_invariants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from typhoon_edu import CHANCE, Game, IllegalActionError

SETTINGS = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

players_st = st.integers(3, 5).flatmap(lambda n: st.permutations(ALL6).map(lambda p: list(p[:n])))
games_st = st.fixed_dictionaries(
    {
        "players": players_st,
        "seed": st.integers(0, 2**31 - 1),
        "variant": st.sampled_from(["standard", "advanced"]),
        "dice": st.sampled_from(["auto", "manual"]),
        "start": st.integers(0, 4),
    }
)


def new_game(p):
    start = p["players"][p["start"] % len(p["players"])] if "Taiwan" not in p["players"] else None
    return Game.new(p["players"], seed=p["seed"], variant=p["variant"], dice=p["dice"], start=start)


def check_step(g, before_alive):
    """Invariants, plus: once out, a player never comes back and never decides."""
    check_invariants(g)
    alive = {p for p in g.players if g.hp[p] > 0}
    assert alive <= before_alive
    if not g.is_over:
        cp = g.current_player
        assert cp == CHANCE or cp in alive
        assert g.round in (1, 2, 3) and (g.variant == "standard" or g.round == 1)
    return alive


@settings(max_examples=800, **SETTINGS)
@given(p=games_st, rnd=st.randoms(use_true_random=False))
def test_random_games_keep_the_invariants(p, rnd):
    g = new_game(p)
    alive = set(g.players)
    check_step(g, alive)
    n = 0
    while not g.is_over:
        g.apply(rnd.choice(g.legal_actions()))
        alive = check_step(g, alive)
        n += 1
        assert n < 5000, "a game that does not end"
    assert g.winners
    if g.over_reason == "rounds":
        top = max(g.hp.values())
        assert set(g.winners) == {q for q in g.players if g.hp[q] == top}
    elif g.over_reason == "last_standing":
        assert len(g.winners) == 1 and g.hp[g.winners[0]] > 0
        assert sum(1 for q in g.players if g.hp[q] > 0) == 1
    else:
        assert g.over_reason == "all_out" and all(v == 0 for v in g.hp.values())


@settings(max_examples=20, **SETTINGS)
@given(p=games_st, rnd=st.randoms(use_true_random=False))
def test_save_and_load_give_the_same_state_at_every_step(p, rnd):
    g = new_game(p)
    while True:
        loaded = Game.from_json(g.to_json())
        assert loaded.digest() == g.digest()
        assert loaded.events == g.events
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))


@settings(max_examples=60, **SETTINGS)
@given(p=games_st, rnd=st.randoms(use_true_random=False))
def test_undo_takes_back_exactly_one_decision(p, rnd):
    g = new_game(p)
    undone = refused = 0
    while not g.is_over:
        a = rnd.choice(g.legal_actions())
        if a.kind == "die" or rnd.random() < 0.5:
            g.apply(a)
            continue
        before, events, history = g.digest(), list(g.events), list(g.history)
        g.apply(a)
        if g.history[-1] == a:  # no die was rolled after it
            assert g.undo() == a
            assert g.digest() == before
            assert g.events == events and g.history == history
            undone += 1
            g.apply(a)
        else:
            after = g.digest()
            with pytest.raises(IllegalActionError):
                g.undo()
            assert g.digest() == after
            refused += 1
    if p["dice"] == "manual":
        assert refused == 0  # with typed dice, a decision is never followed by an automatic roll


@settings(max_examples=30, **SETTINGS)
@given(p=games_st, rnd=st.randoms(use_true_random=False))
def test_illegal_actions_never_change_the_state(p, rnd):
    g = new_game(p)
    junk = ["pass", "move T1", "place 8,8", "aim T2", "region", "region T1", "discard warm_ocean",
            "play warm_ocean T1", "play evacuation", "play recurve N", "play tropical_disturbance 9,9", "3", "die 7"]
    while not g.is_over:
        legal = {a.notation for a in g.legal_actions()}
        for text in rnd.sample(junk, 4):
            if text in legal or (text == "3" and "die 3" in legal):
                continue
            before = g.digest()
            with pytest.raises(IllegalActionError):
                g.apply(text)
            assert g.digest() == before
        g.apply(rnd.choice(g.legal_actions()))


@pytest.mark.parametrize("block", range(4))
def test_many_seeded_random_games(block):
    """A plain loop: 4 x 700 random games, the cheap invariants after every action."""
    rng = random.Random(block)
    outcomes = set()
    for i in range(700):
        seed = block * 100_000 + i
        n = rng.randint(3, 5)
        players = rng.sample(ALL6, n)
        variant = "advanced" if i % 5 == 0 else "standard"
        dice = "manual" if i % 3 == 0 else "auto"
        g = Game.new(players, seed=seed, variant=variant, dice=dice)
        g._log = i % 2 == 0  # half the games without an event log, as the bots play
        max_hp = {q: g.rules.regions[q].hp for q in players}
        while not g.is_over:
            legal = g.legal_actions()
            assert legal
            cp = g.current_player
            assert (cp == CHANCE) == g.phase.startswith("roll_")
            if cp != CHANCE:
                assert g.hp[cp] > 0
            g.apply(rng.choice(legal))
            assert g.draw_pile_size + len(g.discard) + sum(len(h) for h in g.hands) == 54
            assert all(0 <= g.hp[q] <= max_hp[q] for q in players)
            ts = g.typhoons_
            assert len(ts) <= 8
            for t in ts:
                assert 1 <= t.level <= 5 and 0 <= t.cell < 16 * 12
        outcomes.add(g.over_reason)
        assert g.winners
    assert "rounds" in outcomes
