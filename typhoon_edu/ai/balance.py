"""Balancing the edition (RULES §12): candidate starting HP, GreedyBot games, and a search.

The targets: with GreedyBot in every seat and regions dealt at random, every region wins its fair
share (1/n of the games it plays, a shared win counting 1/k) within ``REGION_TOLERANCE[n]``, and
every seat within ``SEAT_TOLERANCE``. :func:`deviation` measures a result against them (1.0 is
exactly at the edge of the target).

The search (:func:`search`, run by ``scripts/balance.py --search``) alternates two steps:

1. **real games**: play GreedyBot games with the candidate HP (3, 4 and 5 players);
2. **a surrogate**: :class:`Surrogate` replays the damage each region took in those games against
   other HP vectors (the final HP of a region is its new starting HP minus the damage it took),
   and :func:`fit_hp` picks the whole-number HP vector (25–60) whose predicted win shares are
   the most even. The surrogate ignores that GreedyBot aims at the leader, so a different HP
   vector changes who is attacked; that is why the next round of real games decides.

>>> r = rules_with_hp({"Taiwan": 45})
>>> r.regions["Taiwan"].hp, r.regions["Taiwan"].size, r.regions["Japan"].hp == load_rules().regions["Japan"].hp
(45, 3, True)
>>> rules_with_hp({"Taiwan": 45}) is r
True
>>> rules_with_hp({"Taiwan": 70})
Traceback (most recent call last):
...
ValueError: Taiwan: a region's HP is a whole number from 25 to 60 (RULES §12); got 70
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from ..engine.rules import DECK_SIZE, HP_MAX, HP_MIN, Rules, load_rules
from .tournament import GameRow, TournamentResult, run_tournament, wilson

REGION_TOLERANCE = {3: 0.04, 4: 0.03, 5: 0.04}  # RULES §12: ± 4, 3, 4 points around 1/n
SEAT_TOLERANCE = 0.03
CONFIRM_GAMES = {3: 4_000, 4: 10_000, 5: 4_000}

_VARIANTS: dict[tuple[Any, ...], Rules] = {}


def rules_with_hp(hp: Mapping[str, int], rules: Rules | None = None) -> Rules:
    """The edition with some regions' starting (= maximum) HP replaced (cached; nothing is written)."""
    return edition_variant(hp=hp, rules=rules)


def edition_variant(hp: Mapping[str, int] | None = None, counts: Mapping[str, int] | None = None,
                    rules: Rules | None = None) -> Rules:
    """The edition with some regions' HP and some card counts replaced (cached; nothing is written).

    The counts must still add up to the 54 cards and keep at least one card of every kind, so
    every mechanism of RULES §11 stays in the deck.

    >>> r = edition_variant(counts={"warm_ocean": 8, "tailwind": 4})
    >>> r.cards["warm_ocean"].count + r.cards["tailwind"].count == 12
    True
    >>> edition_variant(counts={"evacuation": 0})
    Traceback (most recent call last):
    ...
    ValueError: evacuation: every card kind keeps at least 1 card (every mechanism stays in the deck); got 0
    """
    base = rules or load_rules()
    new_hp: dict[str, int] = {}
    for name, value in (hp or {}).items():
        key = base.region_key(name)
        if isinstance(value, bool) or not isinstance(value, int) or not HP_MIN <= value <= HP_MAX:
            raise ValueError(f"{key}: a region's HP is a whole number from {HP_MIN} to {HP_MAX} (RULES §12); got {value!r}")
        if base.regions[key].hp != value:
            new_hp[key] = value
    new_counts: dict[str, int] = {}
    for key, value in (counts or {}).items():
        if key not in base.cards:
            raise ValueError(f"there is no card kind {key!r}; kinds: {', '.join(base.cards)}")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{key}: every card kind keeps at least 1 card (every mechanism stays in the deck); "
                             f"got {value!r}")
        if base.cards[key].count != value:
            new_counts[key] = value
    if not new_hp and not new_counts:
        return base
    total = sum(new_counts.get(k, c.count) for k, c in base.cards.items())
    if total != DECK_SIZE:
        raise ValueError(f"the deck must hold {DECK_SIZE} function cards; these counts add up to {total}")
    cache_key = (id(base), tuple(sorted(new_hp.items())), tuple(sorted(new_counts.items())))
    hit = _VARIANTS.get(cache_key)
    if hit is not None:
        return hit
    regions = {k: (replace(r, hp=new_hp[k]) if k in new_hp else r) for k, r in base.regions.items()}
    cards = {k: (replace(c, count=new_counts[k]) if k in new_counts else c) for k, c in base.cards.items()}
    tag = ",".join(f"{k}={v}" for k, v in (*sorted(new_hp.items()), *sorted(new_counts.items())))
    variant = replace(base, regions=MappingProxyType(regions), cards=MappingProxyType(cards),
                      digest=f"{base.digest}+{tag}")
    _VARIANTS[cache_key] = variant
    return variant


def edition_counts(rules: Rules | None = None) -> dict[str, int]:
    """Every card kind's count in ``rules`` (the edition's by default).

    >>> sum(edition_counts().values())
    54
    """
    rules = rules or load_rules()
    return {k: c.count for k, c in rules.cards.items()}


def edition_hp(rules: Rules | None = None) -> dict[str, int]:
    """Every region's starting HP in ``rules`` (the edition's by default), in the data's order.

    >>> sorted(edition_hp()) == sorted(load_rules().regions)
    True
    """
    rules = rules or load_rules()
    return {k: r.hp for k, r in rules.regions.items()}


def region_shares(rows: Iterable[GameRow]) -> dict[str, float]:
    """Each region's win share over the games it played (a shared win counts 1/k)."""
    res = TournamentResult(list(rows))
    return {name: rate for name, _games, rate, _lo, _hi in res.table("region")}


def seat_shares(rows: Iterable[GameRow]) -> dict[int, float]:
    """Each seat's win share (seat 1 is the first in the deal order)."""
    res = TournamentResult(list(rows))
    return {int(name.split()[1]): rate for name, _games, rate, _lo, _hi in res.table("seat")}


def deviation(shares: Mapping[Any, float], n_players: int, tolerance: float | None = None) -> float:
    """The largest distance of a share from the fair 1/n, in units of the target's tolerance.

    >>> deviation({"a": 0.25, "b": 0.22, "c": 0.265}, 4)
    1.0
    """
    tol = REGION_TOLERANCE[n_players] if tolerance is None else tolerance
    fair = 1 / n_players
    return round(max(abs(v - fair) for v in shares.values()) / tol, 9)


@dataclass
class Measured:
    """One batch of real GreedyBot games with one HP vector."""

    n_players: int
    hp: dict[str, int]
    seed: int
    rows: list[GameRow]
    seconds: float
    counts: dict[str, int] = field(default_factory=dict)  # card counts changed from the edition's

    @property
    def games(self) -> int:
        return len(self.rows)

    @property
    def regions(self) -> dict[str, float]:
        return region_shares(self.rows)

    @property
    def seats(self) -> dict[int, float]:
        return seat_shares(self.rows)

    @property
    def region_deviation(self) -> float:
        return deviation(self.regions, self.n_players)

    @property
    def seat_deviation(self) -> float:
        return deviation(self.seats, self.n_players, SEAT_TOLERANCE)

    def intervals(self) -> dict[str, tuple[int, float, float, float]]:
        """Per region: (games, share, 95 % Wilson low, high)."""
        res = TournamentResult(self.rows)
        return {name: (g, rate, lo, hi) for name, g, rate, lo, hi in res.table("region")}


def measure(hp: Mapping[str, int], n_players: int, games: int, *, seed: int = 0, jobs: int = 2,
            bots: Sequence[str] | None = None, counts: Mapping[str, int] | None = None) -> Measured:
    """Play ``games`` games with ``hp`` (GreedyBot in every seat unless ``bots`` says otherwise).

    >>> m = measure(edition_hp(), 3, 3, seed=5, jobs=1)
    >>> m.games, round(sum(m.regions[r] * sum(r in g.players for g in m.rows) for r in m.regions), 6)
    (3, 3.0)
    """
    t0 = time.perf_counter()
    res = run_tournament(games, list(bots or ["greedy"] * n_players), seed=seed, jobs=jobs, hp=dict(hp),
                         counts=dict(counts) if counts else None)
    return Measured(n_players, dict(hp), seed, res.games, time.perf_counter() - t0, dict(counts or {}))


class Surrogate:
    """Win shares predicted for other HP vectors by replaying the damage of recorded games.

    Every recorded game keeps its deal and each region's damage (starting HP minus final HP); for
    a candidate HP vector a region ends with ``candidate - damage`` (at least 0) and the highest
    wins, ties shared. Games recorded with different HP vectors can be pooled.

    >>> rows = [GameRow(0, ("Taiwan", "Japan", "Korea"), ("greedy",) * 3, ("Japan",), (20, 45, 38), 3, 99, "rounds")]
    >>> s = Surrogate([(rows, {"Taiwan": 30, "Japan": 50, "Korea": 40})])
    >>> s.shares({"Taiwan": 30, "Japan": 50, "Korea": 40})[3]["Japan"]
    1.0
    >>> s.shares({"Taiwan": 50, "Japan": 40, "Korea": 40})[3]
    {'Japan': 0.0, 'Korea': 0.0, 'Taiwan': 1.0}
    """

    def __init__(self, batches: Iterable[tuple[Iterable[GameRow], Mapping[str, int]]]) -> None:
        per_n: dict[int, tuple[list[list[str]], list[list[int]]]] = {}
        for rows, hp in batches:
            for g in rows:
                players, damage = per_n.setdefault(len(g.players), ([], []))
                players.append(list(g.players))
                damage.append([hp[p] - h for p, h in zip(g.players, g.hp, strict=True)])
        self.keys = sorted({p for players, _ in per_n.values() for row in players for p in row})
        index = {k: i for i, k in enumerate(self.keys)}
        self._data = {n: (np.array([[index[p] for p in row] for row in players], dtype=np.int64),
                          np.array(damage, dtype=np.int64))
                      for n, (players, damage) in per_n.items()}

    @property
    def player_counts(self) -> list[int]:
        return sorted(self._data)

    def shares(self, hp: Mapping[str, int]) -> dict[int, dict[str, float]]:
        """Predicted win share of each region, per number of players."""
        vec = np.array([hp[k] for k in self.keys], dtype=np.int64)
        out: dict[int, dict[str, float]] = {}
        for n, (reg, dmg) in self._data.items():
            final = np.maximum(vec[reg] - dmg, 0)
            top = final.max(axis=1, keepdims=True)
            won = final == top
            credit = won / won.sum(axis=1, keepdims=True)
            wins = np.bincount(reg.ravel(), weights=credit.ravel(), minlength=len(self.keys))
            played = np.bincount(reg.ravel(), minlength=len(self.keys))
            out[n] = {k: float(wins[i] / played[i]) for i, k in enumerate(self.keys) if played[i]}
        return out

    def objective(self, hp: Mapping[str, int], anchor: float | None = None) -> float:
        """How uneven the predicted shares are: the worst deviation plus a little of the mean one.

        With ``anchor`` a small pull keeps the mean HP near it (adding the same number to every
        region changes nothing else, so the search needs a level).
        """
        devs = []
        for n, shares in self.shares(hp).items():
            fair, tol = 1 / n, REGION_TOLERANCE.get(n, 0.04)
            devs += [abs(v - fair) / tol for v in shares.values()]
        value = max(devs) + 0.3 * math.sqrt(sum(d * d for d in devs) / len(devs))
        if anchor is not None:
            value += 0.01 * abs(sum(hp.values()) / len(hp) - anchor)
        return value


def fit_hp(surrogate: Surrogate, start: Mapping[str, int], *, anchor: float | None = None, radius: int | None = None,
           lo: int = HP_MIN, hi: int = HP_MAX, sweeps: int = 12) -> dict[str, int]:
    """The whole-number HP vector with the most even predicted shares, near ``start``.

    Every value stays within ``lo``–``hi`` and, with ``radius``, within that many points of
    ``start`` (a trust region: the recorded damage says little about HP far from where it was
    recorded). Coordinate descent from ``start``: each region in turn takes its best value with
    the others held, then each pair of regions is tried one point up or down together (steps
    that single changes miss), until a sweep changes nothing.

    >>> rows = [GameRow(i, ("Taiwan", "Japan", "Korea"), ("greedy",) * 3, (), hp, 3, 99, "rounds")
    ...         for i, hp in enumerate([(20, 45, 38), (30, 36, 40), (24, 48, 31)])]
    >>> start = {"Taiwan": 30, "Japan": 50, "Korea": 40}
    >>> s = Surrogate([(rows, start)])
    >>> fit = fit_hp(s, start, radius=8)
    >>> s.objective(fit) < s.objective(start), all(abs(fit[k] - start[k]) <= 8 for k in start)
    (True, True)
    """
    hp = dict(start)
    keys = list(hp)
    bounds = {k: (max(lo, start[k] - radius), min(hi, start[k] + radius)) if radius is not None else (lo, hi)
              for k in keys}
    best = surrogate.objective(hp, anchor)
    for _ in range(sweeps):
        changed = False
        for k in keys:
            for v in range(bounds[k][0], bounds[k][1] + 1):
                if v == hp[k]:
                    continue
                trial = {**hp, k: v}
                val = surrogate.objective(trial, anchor)
                if val < best - 1e-12:
                    best, hp, changed = val, trial, True
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                for da, db in ((1, 1), (-1, -1), (1, -1), (-1, 1)):
                    trial = {**hp, a: hp[a] + da, b: hp[b] + db}
                    if not (bounds[a][0] <= trial[a] <= bounds[a][1] and bounds[b][0] <= trial[b] <= bounds[b][1]):
                        continue
                    val = surrogate.objective(trial, anchor)
                    if val < best - 1e-12:
                        best, hp, changed = val, trial, True
        if not changed:
            break
    return hp


# The deck family the search may use when HP alone cannot balance the edition: step k moves one
# card from a counter kind to a kind that brings storms to land: steering (which a player aims at
# a rival), warm water, new depressions. Every kind keeps at least 1 card.
DECK_STEPS: tuple[tuple[str, str], ...] = (
    ("evacuation", "steering_flow"),
    ("flood_defences", "warm_ocean"),
    ("evacuation", "steering_flow"),
    ("flood_defences", "tropical_disturbance"),
    ("wind_shear", "steering_flow"),
    ("recurve", "warm_ocean"),
    ("flood_defences", "tropical_disturbance"),
    ("wind_shear", "steering_flow"),
    ("recurve", "warm_ocean"),
)


def deck_counts(k: int, rules: Rules | None = None) -> dict[str, int]:
    """The card counts after the first ``k`` steps of ``DECK_STEPS`` (only the kinds that change).

    >>> deck_counts(0)
    {}
    >>> c = deck_counts(2); base = edition_counts()
    >>> c["evacuation"] == base["evacuation"] - 1 and c["steering_flow"] == base["steering_flow"] + 1
    True
    """
    if not 0 <= k <= len(DECK_STEPS):
        raise ValueError(f"a deck step is 0 to {len(DECK_STEPS)}; got {k}")
    base = edition_counts(rules)
    counts = dict(base)
    for frm, to in DECK_STEPS[:k]:
        counts[frm] -= 1
        counts[to] += 1
    return {key: v for key, v in counts.items() if v != base[key]}


@dataclass
class Step:
    """One round of the search: the deck and HP tried, the real games' result, and the next proposal.

    ``how`` says where this round's HP came from: ``start``, ``tiers`` (:func:`tier_start`),
    ``surrogate`` (:func:`fit_hp`) or
    ``nudge`` (one point down for the region furthest above its fair share, one up for the one
    furthest below, when the surrogate proposes nothing new).
    """

    number: int
    hp: dict[str, int]
    counts: dict[str, int]
    measured: dict[int, Measured]
    how: str = "start"
    predicted: dict[int, dict[str, float]] = field(default_factory=dict)  # the surrogate's forecast for hp
    proposal: dict[str, int] | None = None
    proposal_how: str = ""

    @property
    def score(self) -> float:
        """The worst of the region and seat deviations over the player counts (≤ 1 meets the targets)."""
        return max(max(m.region_deviation, m.seat_deviation) for m in self.measured.values())

    def region_pull(self) -> dict[str, float]:
        """Each region's deviation from its fair share, in tolerances, averaged over the player counts."""
        out: dict[str, list[float]] = {}
        for n, m in self.measured.items():
            for k, v in m.regions.items():
                out.setdefault(k, []).append((v - 1 / n) / REGION_TOLERANCE[n])
        return {k: sum(v) / len(v) for k, v in out.items()}

    def mean_damage(self) -> dict[str, float]:
        """Each region's mean damage (starting HP minus final HP) over this round's games."""
        total: dict[str, float] = {}
        games: dict[str, int] = {}
        for m in self.measured.values():
            for g in m.rows:
                for p, h in zip(g.players, g.hp, strict=True):
                    total[p] = total.get(p, 0.0) + self.hp[p] - h
                    games[p] = games.get(p, 0) + 1
        return {k: total[k] / games[k] for k in total}


def tier_start(step: Step) -> dict[str, int]:
    """One HP more for every region that won less than its fair share (averaged over the player counts).

    From equal HP this splits the regions into two tiers: the ones the storms reach often get the
    extra point, the sheltered ones do not. (A sheltered region given one HP more than the others
    wins most of its games, because the storms seldom reach it: see ``--probe``.)

    >>> m = Measured(3, {"Taiwan": 40, "Japan": 40, "Korea": 40}, 0, [
    ...     GameRow(0, ("Taiwan", "Japan", "Korea"), ("greedy",) * 3, ("Korea",), (30, 38, 40), 3, 99, "rounds")], 1.0)
    >>> tier_start(Step(1, m.hp, {}, {3: m}))
    {'Taiwan': 41, 'Japan': 41, 'Korea': 40}
    """
    pull = step.region_pull()
    return {k: v + (1 if pull.get(k, 0.0) < 0 else 0) for k, v in step.hp.items()}


def nudge(step: Step, lo: int = HP_MIN, hi: int = HP_MAX) -> dict[str, int]:
    """One point less for the region that wins most above its fair share, one more for the one most below."""
    pull = step.region_pull()
    hp = dict(step.hp)
    top = max(pull, key=lambda k: (pull[k], k))
    low = min(pull, key=lambda k: (pull[k], k))
    hp[top] = max(lo, hp[top] - 1)
    hp[low] = min(hi, hp[low] + 1)
    return hp


def search(start: Mapping[str, int], *, games: Mapping[int, int], counts: Mapping[str, int] | None = None,
           steps: int = 8, seed: int = 1_000_000, jobs: int = 2, pool: int = 3, radius: int = 3,
           anchor: float | None = None, stop_below: float = 0.7, first: int = 1, tiers: bool = True,
           report: Callable[[Step], None] | None = None) -> list[Step]:
    """Alternate real games and proposals, from ``start``, for at most ``steps`` rounds.

    Round ``i`` (numbered from ``first``) plays ``games[n]`` GreedyBot games for each number of
    players ``n`` with seeds from ``seed + i * 100_000`` (fresh games every round). The next HP
    vector is, after the first round and with ``tiers``, :func:`tier_start`; after that
    the surrogate's fit on the games of the last ``pool`` rounds, within ``radius`` points of the
    HP just played, or :func:`nudge` when the fit proposes an HP vector already played. It stops
    early when a round's real result is within ``stop_below`` of the targets (1.0 = exactly at the
    tolerance). ``anchor`` is the mean HP kept (default: the mean of ``start``). ``counts``
    replaces card counts for every game (a deck of :func:`deck_counts`).
    """
    anchor = sum(start.values()) / len(start) if anchor is None else anchor
    counts = dict(counts or {})
    hp = dict(start)
    how = "start"
    done: list[Step] = []
    tried: set[tuple[tuple[str, int], ...]] = set()
    for i in range(first, first + steps):
        measured = {n: measure(hp, n, g, seed=seed + i * 100_000, jobs=jobs, counts=counts)
                    for n, g in sorted(games.items())}
        step = Step(i, dict(hp), counts, measured, how)
        if done and how == "surrogate":
            step.predicted = Surrogate(_batches(done[-pool:])).shares(hp)
        tried.add(tuple(sorted(hp.items())))
        done.append(step)
        if step.score > stop_below:
            if tiers and len(done) == 1:
                step.proposal, step.proposal_how = tier_start(step), "tiers"
            else:
                fit = fit_hp(Surrogate(_batches(done[-pool:])), hp, anchor=anchor, radius=radius)
                if tuple(sorted(fit.items())) in tried:
                    step.proposal, step.proposal_how = nudge(step), "nudge"
                else:
                    step.proposal, step.proposal_how = fit, "surrogate"
        if report:
            report(step)
        if step.proposal is None:
            break
        hp, how = step.proposal, step.proposal_how
    return done


def _batches(steps: Sequence[Step]) -> list[tuple[list[GameRow], dict[str, int]]]:
    return [(m.rows, s.hp) for s in steps for m in s.measured.values()]


def best_step(steps: Sequence[Step]) -> Step:
    """The round whose real games came closest to the targets."""
    return min(steps, key=lambda s: s.score)


__all__ = [
    "CONFIRM_GAMES", "DECK_STEPS", "REGION_TOLERANCE", "SEAT_TOLERANCE", "Measured", "Step", "Surrogate", "best_step",
    "nudge", "tier_start",
    "deck_counts", "deviation", "edition_counts", "edition_hp", "edition_variant", "fit_hp", "measure",
    "region_shares", "rules_with_hp",
    "search", "seat_shares", "wilson",
]
