"""The engine's inlined copies stay in step with the methods they copy.

For speed, the attack listing (``Game._attack_actions``) lists the usual attack card kinds and the
region ability in loops of its own instead of calling ``_card_actions``/``_effect_actions``, and a
move's die roll builds its ``Move`` without calling ``Move.__init__``. Those methods still exist and
are used elsewhere (counter cards, ``Move.copy``), so a change made to one copy only would make the
attack phase list other actions than the counter phase for the same card kind, or a move start in
another state than ``Move(...)`` makes. These tests compare each copy with its original at every
position of random games.
"""

from __future__ import annotations

import random

import pytest

from typhoon_edu import Game
from typhoon_edu.engine.game import _NO_KEY, _PASS, Move

SETUPS = [
    (["Taiwan", "Japan", "Korea"], "standard"),
    (["Taiwan", "Japan", "Korea", "Philippines"], "standard"),
    (["Taiwan", "Japan", "Korea", "Philippines", "South China"], "advanced"),
]


def attack_actions_the_general_way(g: Game, seat: int) -> list:
    """The attack listing as it was before it was inlined: through _card_actions and _effect_actions."""
    out: list = []
    if g.fn_played[seat] < 2 and not g.region_turn[seat]:
        g._card_actions(seat, "attack", out)
    if g.fn_played[seat] == 0 and not g.region_spent[seat]:
        g._effect_actions(_NO_KEY, g._aspec[seat], seat, "region", out)
    out.append(_PASS)
    return out


def played_games(seeds: range):
    """Every position of random games (manual dice, so die rolls are decisions too)."""
    for seed in seeds:
        players, variant = SETUPS[seed % len(SETUPS)]
        g = Game.new(players, seed=seed, variant=variant, dice="manual")
        rng = random.Random(seed)
        while not g.is_over:
            yield g
            acts = g.legal_actions()
            g.apply(acts[int(rng.random() * len(acts))])


@pytest.mark.parametrize("seeds", [range(1, 16), range(16, 31)], ids=["seeds 1-15", "seeds 16-30"])
def test_the_attack_listing_is_the_general_listing(seeds: range):
    checked = 0
    for g in played_games(seeds):
        if g.phase == "attack":
            seat = g.decider
            # every hand as it is, and every hand with one of each card: all kinds of attack card listed
            for hand in (list(g.hands[seat]), sorted(g._cspec[seat]["attack"])):
                probe = g.clone()
                probe.hands[seat] = hand
                assert probe._attack_actions(seat) == attack_actions_the_general_way(probe, seat), (
                    g.seed, len(g.history), hand)
                checked += 1
    assert checked > 500


def test_a_move_starts_as_move_init_makes_it():
    checked = 0
    slots = Move.__slots__
    for g in played_games(range(1, 11)):
        if g.phase == "roll_move":
            for face in range(1, 7):
                probe = g.clone()
                probe._step_on = lambda: None  # type: ignore[method-assign]  # see the move before its first step
                probe._on_die(face)  # (apply() would go on to _run(), which steps)
                made = probe.move
                tid = probe.roll_for
                mod = probe.roll_mods.get(tid)
                expected = Move(tid, face, face if mod is None else max(mod[1], face + mod[0]))
                expected.halve = made.halve  # the shields' halving is set after the move is made
                assert {s: getattr(made, s) for s in slots} == {s: getattr(expected, s) for s in slots}
                checked += 1
    assert checked > 100
