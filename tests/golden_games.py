"""The golden games' recipes: fixed seeds, bots and dice, and the summary each game is checked by.

Also fixed positions of a GreedyBot game (:func:`choice_positions`) to compare the hard bot at.

Plain Python (no pytest), so the same games can be played wherever the engine runs:
``tests/test_golden.py`` checks them on this interpreter and ``tests/test_pyodide.py`` in Pyodide.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from typhoon_edu import CHANCE, Game
from typhoon_edu.ai import GreedyBot, RandomBot
from typhoon_edu.ai.play import deal_regions
from typhoon_edu.engine.events import event_to_dict

BOTS = {"random": RandomBot, "greedy": GreedyBot}

# name: (bot kind, number of players, seed, variant)
BOT_CASES = {
    "random-3p-s1": ("random", 3, 1, "standard"),
    "random-4p-s2": ("random", 4, 2, "standard"),
    "random-5p-s3": ("random", 5, 3, "standard"),
    "random-4p-s4-adv": ("random", 4, 4, "advanced"),
    "greedy-3p-s5": ("greedy", 3, 5, "standard"),
    "greedy-4p-s6": ("greedy", 4, 6, "standard"),
    "greedy-4p-s7-adv": ("greedy", 4, 7, "advanced"),
}
# name: (players, seed, variant, choice-rng seed) for a manual-dice game with random choices and faces
MANUAL_CASES = {
    "manual-4p-s8": (["Taiwan", "Japan", "Korea", "Philippines"], 8, "standard", 80),
    "manual-5p-s9-adv": (["South China", "Central China", "Japan", "Korea", "Philippines"], 9, "advanced", 90),
}


def bot_game(kind: str, n: int, seed: int, variant: str) -> tuple[Game, int, list[str]]:
    """The play_game loop, keeping the Game so its digest can be checked."""
    regions = deal_regions(n, seed)
    bots = [BOTS[kind](seed * 10 + i) for i in range(n)]
    g = Game.new(regions, seed=seed, variant=variant)
    by_region = dict(zip(g.players, bots, strict=True))
    decisions = 0
    while not g.is_over:
        g.apply(by_region[g.current_player].choose(g))
        decisions += 1
    return g, decisions, regions


def manual_game(players: list[str], seed: int, variant: str, choice_seed: int) -> Game:
    g = Game.new(players, seed=seed, variant=variant, dice="manual")
    rng = random.Random(choice_seed)
    while not g.is_over:
        assert (g.current_player == CHANCE) == g.phase.startswith("roll_")
        g.apply(rng.choice(g.legal_actions()))
    return g


def events_digest(g: Game) -> str:
    text = json.dumps([event_to_dict(e) for e in g.events], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def summary(g: Game, decisions: int | None = None) -> dict[str, Any]:
    out = {
        "digest": g.digest(),
        "events": events_digest(g),
        "winners": list(g.winners),
        "hp": dict(g.hp),
        "round": g.round,
        "reason": g.over_reason,
        "actions": len(g.history),
    }
    if decisions is not None:
        out["decisions"] = decisions
    return out


def generate() -> dict[str, dict[str, Any]]:
    table = {}
    for name, case in BOT_CASES.items():
        g, decisions, _ = bot_game(*case)
        table[name] = summary(g, decisions)
    for name, case in MANUAL_CASES.items():
        table[name] = summary(manual_game(*case))
    return table


def choice_positions(count: int, every: int, seed: int = 100) -> list[Game]:
    """Fixed positions to compare the hard bot at: every ``every``-th decision with a real choice (no die
    roll) of a 4-player GreedyBot game (``seed``), up to ``count`` of them (copies, with their history).

    >>> [g.phase for g in choice_positions(2, every=6)]
    ['attack', 'move_choose']
    """
    g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=seed)
    bots = [GreedyBot(seed=seed + i) for i in range(4)]
    found: list[Game] = []
    k = 0
    while not g.is_over and len(found) < count:
        if len(g.legal_actions()) > 1 and not g.phase.startswith("roll_"):
            k += 1
            if k % every == 0:
                found.append(g.clone(keep_log=True))
        g.apply(bots[g.players.index(g.current_player)].choose(g))
    return found
