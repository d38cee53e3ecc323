"""Many bot games at once: win rates with confidence intervals, game length, early endings.

>>> res = run_tournament(6, ["random"] * 3, seed=1)
>>> len(res.games), round(sum(res.region_wins().values()), 6)
(6, 6.0)
"""

from __future__ import annotations

import csv
import math
import os
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from ..engine.rules import load_rules
from .bots import Bot, GreedyBot, RandomBot
from .play import play_game

BOT_KINDS = ("random", "greedy", "mcts")


def make_bot(kind: str, seed: int | None = None) -> Bot:
    """A bot by name: ``random`` (easy), ``greedy`` (medium), ``mcts`` (hard)."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed)
    if kind == "mcts":
        from .mcts import MCTSBot

        return MCTSBot(seed=seed)
    raise ValueError(f"unknown bot {kind!r}; the bots are {', '.join(BOT_KINDS)}")


@dataclass(frozen=True)
class GameRow:
    seed: int
    players: tuple[str, ...]
    bots: tuple[str, ...]
    winners: tuple[str, ...]
    hp: tuple[int, ...]
    rounds: int
    decisions: int
    reason: str
    start: int = 0  # the start player's index in ``players``

    def turn(self, i: int) -> int:
        """Where ``players[i]`` comes in the turn order: 1 for the start player, then clockwise."""
        return (i - self.start) % len(self.players) + 1

    @property
    def early(self) -> bool:
        return self.reason != "rounds"


def wilson(successes: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) for a share ``successes / n``.

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class TournamentResult:
    games: list[GameRow] = field(default_factory=list)

    def _shares(self, key: Callable[[GameRow, int], str]) -> tuple[dict[str, float], dict[str, int]]:
        wins: dict[str, float] = {}
        played: dict[str, int] = {}
        for g in self.games:
            for i, p in enumerate(g.players):
                k = key(g, i)
                played[k] = played.get(k, 0) + 1
                if p in g.winners:
                    wins[k] = wins.get(k, 0.0) + 1 / len(g.winners)
                else:
                    wins.setdefault(k, 0.0)
        return wins, played

    def region_wins(self) -> dict[str, float]:
        """Wins per region; a shared win counts 1/k for each of the k winners."""
        return self._shares(lambda g, i: g.players[i])[0]

    def table(self, by: str = "region") -> list[tuple[str, int, float, float, float]]:
        """Rows ``(name, games, win rate, ci low, ci high)`` by ``region``, ``bot``, ``seat`` or ``turn``.

        ``seat`` is the order in which the regions were dealt; ``turn`` the order of play, from the
        start player (who is Taiwan's player when Taiwan is dealt).
        """
        key: Callable[[GameRow, int], str] = {
            "region": lambda g, i: g.players[i],
            "bot": lambda g, i: g.bots[i],
            "seat": lambda g, i: f"seat {i + 1}",
            "turn": lambda g, i: f"turn {g.turn(i)}",
        }[by]
        wins, played = self._shares(key)
        rows = []
        for name in sorted(played):
            lo, hi = wilson(wins[name], played[name])
            rows.append((name, played[name], wins[name] / played[name], lo, hi))
        return rows

    @property
    def mean_rounds(self) -> float:
        return sum(g.rounds for g in self.games) / max(1, len(self.games))

    @property
    def mean_decisions(self) -> float:
        return sum(g.decisions for g in self.games) / max(1, len(self.games))

    @property
    def early_share(self) -> float:
        return sum(g.early for g in self.games) / max(1, len(self.games))

    def write_csv(self, path: str | Path) -> None:
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["seed", "seat", "region", "bot", "hp", "won", "shared", "rounds", "decisions", "reason"])
            for g in self.games:
                for i, p in enumerate(g.players):
                    w.writerow([g.seed, i + 1, p, g.bots[i], g.hp[i], int(p in g.winners), len(g.winners),
                                g.rounds, g.decisions, g.reason])


_Items = tuple[tuple[str, int], ...]
_Job = tuple[int, tuple[str, ...], tuple[str, ...] | None, str, bool, _Items | None, _Items | None, _Items | None,
             str | None]


def _one(job: _Job) -> GameRow:
    seed, bots, players, variant, rotate, hp, counts, abilities, folder = job
    if hp or counts or abilities:
        from .balance import edition_variant

        rules = edition_variant(hp=dict(hp or ()), counts=dict(counts or ()), abilities=dict(abilities or ()))
    else:
        rules = load_rules(folder)  # cached per process (the shipped edition when folder is None)
    rng = random.Random(seed)
    kinds = list(bots)
    if players is None:
        regions = rng.sample(list(rules.regions), len(kinds))
    else:
        regions = list(players)
    if rotate:
        shift = seed % len(kinds)
        kinds = kinds[shift:] + kinds[:shift]
    result = play_game([make_bot(k, seed * 31 + i) for i, k in enumerate(kinds)], seed=seed, regions=regions,
                       variant=variant, rules=rules)
    return GameRow(seed, result.players, tuple(kinds), result.winners, tuple(result.hp[p] for p in result.players),
                   result.rounds, result.actions, result.reason, result.start)


def run_tournament(
    n: int,
    bots: Sequence[str],
    *,
    seed: int = 0,
    players: Sequence[str] | None = None,
    variant: str = "standard",
    jobs: int = 1,
    rotate: bool = True,
    progress: Callable[[Iterable[GameRow], int], Iterable[GameRow]] | None = None,
    hp: Mapping[str, int] | None = None,
    counts: Mapping[str, int] | None = None,
    abilities: Mapping[str, int] | None = None,
    folder: str | os.PathLike[str] | None = None,
) -> TournamentResult:
    """Play ``n`` games; ``bots[i]`` is the kind at seat ``i`` (rotated game by game when ``rotate``).

    Regions are dealt at random per game unless ``players`` fixes them. ``hp`` replaces some
    regions' starting (= maximum) HP for these games (see :func:`~typhoon_edu.ai.balance.rules_with_hp`), as the
    balance search does, ``counts`` some card kinds' counts and ``abilities`` some region abilities'
    strengths (see :func:`~typhoon_edu.ai.balance.edition_variant`); the edition's files are not touched.
    ``folder``: a folder of rules files to play instead of the shipped edition (``typhoon-edu simulate --rules``;
    ``players`` are then that edition's regions); not with ``hp``, ``counts`` or ``abilities``.
    """
    if n < 1:
        raise ValueError(f"the number of games must be at least 1, not {n}")
    if not 3 <= len(bots) <= 5:
        raise ValueError(f"a game has 3 to 5 seats; got {len(bots)} bots")
    for b in bots:
        if b not in BOT_KINDS:
            raise ValueError(f"unknown bot {b!r}; the bots are {', '.join(BOT_KINDS)}")
    if folder is not None and (hp or counts or abilities):
        raise ValueError("hp, counts and abilities change the shipped edition; a rules folder is edited in its files")
    folder = os.fspath(folder) if folder is not None else None
    rules = load_rules(folder)
    fixed = tuple(rules.region_key(p) for p in players) if players else None
    if fixed is not None and len(fixed) != len(bots):
        raise ValueError(f"{len(bots)} bots need {len(bots)} regions; got {len(fixed)}")
    hp_items = tuple(sorted((rules.region_key(k), v) for k, v in hp.items())) if hp else None
    count_items = tuple(sorted(counts.items())) if counts else None
    ability_items = tuple(sorted((rules.region_key(k), v) for k, v in abilities.items())) if abilities else None
    if hp_items or count_items or ability_items:
        from .balance import edition_variant

        # refuses bad values before any game
        edition_variant(hp=dict(hp_items or ()), counts=dict(count_items or ()), abilities=dict(ability_items or ()))
    jobs_list: list[_Job] = [(seed + i, tuple(bots), fixed, variant, rotate, hp_items, count_items, ability_items,
                              folder) for i in range(n)]
    result = TournamentResult()
    if jobs > 1:
        with get_context("fork").Pool(jobs) as pool:
            it: Iterable[GameRow] = pool.imap(_one, jobs_list, chunksize=max(1, min(50, n // (jobs * 8) or 1)))
            if progress:
                it = progress(it, n)
            result.games.extend(it)
    else:
        it = map(_one, jobs_list)
        if progress:
            it = progress(it, n)
        result.games.extend(it)
    return result
