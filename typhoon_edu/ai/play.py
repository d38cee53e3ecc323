"""Play whole games between bots.

>>> from typhoon_edu.ai import RandomBot
>>> r = play_game([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4)
>>> len(r.hp), r.rounds <= 3, set(r.winners) <= set(r.hp)
(3, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.game import CHANCE, Game
from ..engine.rules import Rules, load_rules
from .bots import Bot


@dataclass(frozen=True)
class GameResult:
    winners: tuple[str, ...]
    hp: dict[str, int]
    rounds: int
    actions: int  # player decisions made
    players: tuple[str, ...] = ()
    reason: str = ""
    start: int = 0  # the start player's index in ``players`` (Taiwan when dealt, docs/rules.md §5)


def deal_regions(n: int, seed: int, rules: Rules | None = None) -> list[str]:
    """Deal ``n`` region cards at random, like the face-down region cards."""
    keys = list((rules or load_rules()).regions)
    return random.Random(seed).sample(keys, n)


def play_game(
    bots: Sequence[Bot],
    *,
    seed: int,
    regions: Sequence[str] | None = None,
    variant: str = "standard",
    rules: Rules | None = None,
) -> GameResult:
    """Play one game: ``bots[i]`` plays ``regions[i]`` (dealt at random when not given)."""
    regions = list(regions) if regions is not None else deal_regions(len(bots), seed, rules)
    if len(regions) != len(bots):
        raise ValueError(f"{len(bots)} bots need {len(bots)} regions; got {len(regions)}")
    game = Game.new(regions, seed=seed, variant=variant, rules=rules)
    game._log = False
    by_region = dict(zip(game.players, bots, strict=True))
    decisions = 0
    while not game.is_over:
        player = game.current_player
        if player == CHANCE or player is None:  # pragma: no cover - auto dice never stop here
            raise RuntimeError("play_game uses automatic dice")
        game.apply(by_region[player].choose(game))
        decisions += 1
    return GameResult(game.winners, dict(game.hp), game.round, decisions, game.players, game.over_reason or "",
                      game.start_seat)
