"""The medium bot's fast evaluation gives exactly the numbers of its plain reference version."""

from __future__ import annotations

import random
from collections import Counter

from typhoon_edu.ai.bots import GreedyBot, evaluate, evaluate_reference, threat, threat_reference
from typhoon_edu.engine.game import Game

PLAYERS = ["Taiwan", "Japan", "Korea", "Philippines", "SouthChina"]


def _positions(games: int = 6) -> list[Game]:
    """Copies of every position of a few greedy games (look-ahead copies included: mid-move, counters)."""
    out: list[Game] = []
    for seed in range(games):
        g = Game.new(PLAYERS[: 3 + seed % 3], seed=seed)
        g._log = False
        bots = {p: GreedyBot(seed=i) for i, p in enumerate(g.players)}
        while not g.is_over:
            out.append(g.clone())
            for a in g.legal_actions()[:4]:  # a few one-ply copies too, stopped at their die rolls
                c = g.clone()
                c.dice = "manual"
                c.apply(a)
                out.append(c)
            g.apply(bots[g.current_player].choose(g))
        out.append(g)
    return out


def test_threat_is_exactly_the_reference() -> None:
    positions = _positions()
    assert len(positions) > 1000
    assert any(p.move is not None for p in positions)  # stopped mid-move, in a counter window
    assert any(p.roll_mods for p in positions) and any(p.shields for p in positions)
    for p in positions:
        assert threat(p) == threat_reference(p)


def test_evaluate_is_exactly_the_reference_with_known_and_unknown_cards() -> None:
    rng = random.Random(3)
    for p in _positions(3):
        for s in range(len(p.players)):
            hand = p.hands[s]
            known = Counter(hand)
            assert evaluate(p, s, known) == evaluate_reference(p, s, known)
            partly = Counter(rng.sample(hand, len(hand) // 2))  # cards drawn in a look-ahead are unknown
            assert evaluate(p, s, partly) == evaluate_reference(p, s, partly)


def test_greedy_choices_do_not_depend_on_the_caches() -> None:
    from typhoon_edu.ai import bots

    def choices() -> list[str]:
        g = Game.new(PLAYERS[:4], seed=21)
        g._log = False
        bot = GreedyBot(seed=5)
        out = []
        while not g.is_over:
            a = bot.choose(g)
            out.append(a.notation)
            g.apply(a)
        return out

    warm = choices()
    bots._MOVE_TABLE.clear()
    bots._FACE_TABLE.clear()
    assert choices() == warm
