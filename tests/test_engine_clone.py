"""Clones share what never changes in place, and copy the rest on write: no change may leak.

``Game.clone`` shares the typhoons (copy-on-write, see ``Game._own``) and the per-turn state
(tuples, frozensets and dicts that are replaced, never changed in place). These tests play a
clone and its original apart from every position of random games and check that neither
moves the other: the digest covers the whole state, hands, deck order and the move in progress.
"""

from __future__ import annotations

import random

import pytest

from typhoon_edu import Game

PLAYERS = [["Taiwan", "Japan", "Korea", "Philippines"], ["South China", "Central China", "Japan", "Korea", "Philippines"]]


def _play(g: Game, rng: random.Random, n: int) -> None:
    for _ in range(n):
        if g.is_over:
            return
        acts = g.legal_actions()
        g.apply(acts[int(rng.random() * len(acts))])


@pytest.mark.parametrize("seed", range(6))
def test_a_clone_and_its_original_never_move_each_other(seed):
    players = PLAYERS[seed % 2]
    g = Game.new(players, seed=seed, dice="manual", variant="advanced" if seed % 3 == 0 else "standard")
    rng = random.Random(seed)
    while not g.is_over:
        before = g.digest()
        c = g.clone()
        assert c.digest() == before
        _play(c, random.Random(rng.random()), 8)  # the clone goes its own way ...
        assert g.digest() == before  # ... and the original is untouched
        after_clone = c.digest()
        cc = c.clone()  # a clone of a clone, and the original goes on: neither moves the others
        _play(g, rng, 1)
        assert c.digest() == after_clone
        _play(cc, random.Random(rng.random()), 4)
        assert c.digest() == after_clone


def test_clones_play_the_same_game_as_the_original():
    """A clone given the same decisions reaches the same state, step for step (nothing is lost by sharing)."""
    g = Game.new(PLAYERS[0], seed=11, dice="manual")
    rng = random.Random(5)
    clones = []
    while not g.is_over:
        clones.append(g.clone())
        acts = g.legal_actions()
        a = acts[int(rng.random() * len(acts))]
        g.apply(a)
        for c in clones[-3:]:  # the last few clones follow the original
            if not c.is_over:
                c.apply(a)
        assert all(c.digest() == g.digest() for c in clones[-3:])
