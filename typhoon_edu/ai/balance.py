"""Balancing the edition (docs/rules.md §12): candidate starting HP, GreedyBot games, and a search.

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
ValueError: Taiwan: a region's HP is a whole number from 25 to 60 (docs/rules.md §12); got 70
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from ..engine.rules import DECK_SIZE, HP_MAX, HP_MIN, Effect, Rules, load_rules
from .tournament import GameRow, TournamentResult, run_tournament, wilson

REGION_TOLERANCE = {3: 0.04, 4: 0.03, 5: 0.04}  # docs/rules.md §12: ± 4, 3, 4 points around 1/n
SEAT_TOLERANCE = 0.03
CONFIRM_GAMES = {3: 4_000, 4: 10_000, 5: 4_000}

_VARIANTS: dict[tuple[Any, ...], Rules] = {}

# The edition before the balance search (as it shipped until docs/rules.md §12): HP 10 × a region's size,
# the first tuned deck, the first abilities' strengths. The search starts from it, and
# ``scripts/balance.py --confirm --before`` replays it for the before/after tables. The pre-balance
# deck is not a copy of the cards: it is the rules data's deck with the search's deck steps
# (``DECK_STEPS``) undone (:func:`pre_balance_counts`; ``PRE_BALANCE_COUNTS`` is the edition's), so a
# card added to or recounted in cards.toml needs no change here.
PRE_BALANCE_HP: dict[str, int] = {"Taiwan": 30, "Philippines": 40, "Korea": 40, "Central China": 40,
                                  "South China": 40, "Japan": 50}
PRE_BALANCE_STRENGTHS: dict[str, int] = {"Taiwan": 2, "Korea": 2, "Central China": 1, "Japan": 3}


def rules_with_hp(hp: Mapping[str, int], rules: Rules | None = None) -> Rules:
    """The edition with some regions' starting (= maximum) HP replaced (cached; nothing is written)."""
    return edition_variant(hp=hp, rules=rules)


def edition_variant(hp: Mapping[str, int] | None = None, counts: Mapping[str, int] | None = None,
                    rules: Rules | None = None, abilities: Mapping[str, int] | None = None) -> Rules:
    """The edition with some regions' HP, some card counts and some abilities' strengths replaced.

    Cached; nothing is written. The counts must still add up to the 54 cards and keep at least
    one card of every kind, so every mechanism of docs/rules.md §11 stays in the deck. ``abilities``
    maps a region to a number of steps by which its ability is made stronger (or, below 0,
    weaker), each step one unit of the ability's strength (:func:`ability_strength`); the kind
    of the ability never changes.

    >>> now = edition_counts()
    >>> r = edition_variant(counts={"warm_ocean": now["warm_ocean"] + 1, "tailwind": now["tailwind"] - 1})
    >>> r.cards["warm_ocean"].count + r.cards["tailwind"].count == now["warm_ocean"] + now["tailwind"]
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
            raise ValueError(f"{key}: a region's HP is a whole number from {HP_MIN} to {HP_MAX} (docs/rules.md §12); got {value!r}")
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
    new_abilities: dict[str, Effect] = {}
    for name, steps in (abilities or {}).items():
        key = base.region_key(name)
        if isinstance(steps, bool) or not isinstance(steps, int):
            raise ValueError(f"{key}: an ability's change is a whole number of steps; got {steps!r}")
        if steps:
            new_abilities[key] = stronger_ability(base.regions[key].ability.effect, steps, key)
    if not new_hp and not new_counts and not new_abilities:
        return base
    total = sum(new_counts.get(k, c.count) for k, c in base.cards.items())
    if total != DECK_SIZE:
        raise ValueError(f"the deck must hold {DECK_SIZE} function cards; these counts add up to {total}")
    cache_key = (id(base), tuple(sorted(new_hp.items())), tuple(sorted(new_counts.items())),
                 tuple(sorted((k, tuple(sorted(e.params.items()))) for k, e in new_abilities.items())))
    hit = _VARIANTS.get(cache_key)
    if hit is not None:
        return hit
    regions = {}
    for k, r in base.regions.items():
        if k in new_hp:
            r = replace(r, hp=new_hp[k])
        if k in new_abilities:
            r = replace(r, ability=replace(r.ability, effect=new_abilities[k]))
        regions[k] = r
    cards = {k: (replace(c, count=new_counts[k]) if k in new_counts else c) for k, c in base.cards.items()}
    tag = ",".join([f"{k}={v}" for k, v in (*sorted(new_hp.items()), *sorted(new_counts.items()))]
                   + [f"{k}:{ability_strength(e)}" for k, e in sorted(new_abilities.items())])
    variant = replace(base, regions=MappingProxyType(regions), cards=MappingProxyType(cards),
                      digest=f"{base.digest}+{tag}")
    _VARIANTS[cache_key] = variant
    return variant


# An ability's strength: the parameter that says how much it does, and the sign of a stronger step.
_STRENGTH: dict[str, tuple[str, int]] = {
    "level": ("delta", -1),  # a typhoon loses more levels
    "level_all": ("delta", -1),  # every typhoon loses more levels
    "shield_weaken": ("delta", 1),  # a typhoon that reaches the region loses more levels
    "push": ("cells", 1),  # a typhoon is blown farther
}


def ability_strength(effect: Effect) -> int | None:
    """How strong an ability is (levels taken away, cells blown), or None if it has no strength to tune.

    >>> r = load_rules()
    >>> ability_strength(r.regions["Central China"].ability.effect) >= 1
    True
    >>> ability_strength(r.regions["Philippines"].ability.effect) is None  # halving has no amount
    True
    """
    spec = _STRENGTH.get(effect.kind)
    return None if spec is None else int(effect.params[spec[0]]) * spec[1]


def stronger_ability(effect: Effect, steps: int, region: str = "") -> Effect:
    """``effect`` made ``steps`` units stronger (weaker below 0), its strength kept from 1 to 5.

    >>> stronger_ability(Effect("level_all", {"delta": -1}), 1).params["delta"]
    -2
    >>> stronger_ability(Effect("shield_halve"), 1, "Philippines")
    Traceback (most recent call last):
    ...
    ValueError: Philippines: the ability 'shield_halve' has no strength to tune (only level, level_all, shield_weaken, push)
    """
    spec = _STRENGTH.get(effect.kind)
    if spec is None:
        raise ValueError(f"{region}: the ability {effect.kind!r} has no strength to tune (only {', '.join(_STRENGTH)})")
    param, sign = spec
    strength = int(effect.params[param]) * sign + steps
    if not 1 <= strength <= 5:
        raise ValueError(f"{region}: an ability's strength stays from 1 to 5; {steps:+d} step(s) would make it {strength}")
    return Effect(effect.kind, MappingProxyType({**effect.params, param: strength * sign}))


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


def seat_shares(rows: Iterable[GameRow], by: str = "turn") -> dict[int, float]:
    """Each seat's win share: by ``turn`` (1 = the start player, then clockwise) or by ``seat`` (deal order)."""
    res = TournamentResult(list(rows))
    return {int(name.split()[1]): rate for name, _games, rate, _lo, _hi in res.table(by)}


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
    abilities: dict[str, int] = field(default_factory=dict)  # ability steps (see edition_variant)

    @property
    def games(self) -> int:
        return len(self.rows)

    @property
    def regions(self) -> dict[str, float]:
        return region_shares(self.rows)

    @property
    def seats(self) -> dict[int, float]:
        """Win share by place in the turn order (1 = the start player)."""
        return seat_shares(self.rows, "turn")

    @property
    def deal_seats(self) -> dict[int, float]:
        """Win share by place in the deal order (Taiwan's player starts wherever it sits)."""
        return seat_shares(self.rows, "seat")

    @property
    def region_deviation(self) -> float:
        return deviation(self.regions, self.n_players)

    @property
    def seat_deviation(self) -> float:
        """The worst seat, in the turn order or the deal order, in units of the seat tolerance."""
        return max(deviation(self.seats, self.n_players, SEAT_TOLERANCE),
                   deviation(self.deal_seats, self.n_players, SEAT_TOLERANCE))

    def intervals(self) -> dict[str, tuple[int, float, float, float]]:
        """Per region: (games, share, 95 % Wilson low, high)."""
        res = TournamentResult(self.rows)
        return {name: (g, rate, lo, hi) for name, g, rate, lo, hi in res.table("region")}


def measure(hp: Mapping[str, int], n_players: int, games: int, *, seed: int = 0, jobs: int = 2,
            bots: Sequence[str] | None = None, counts: Mapping[str, int] | None = None,
            abilities: Mapping[str, int] | None = None) -> Measured:
    """Play ``games`` games with ``hp`` (GreedyBot in every seat unless ``bots`` says otherwise).

    >>> m = measure(edition_hp(), 3, 3, seed=5, jobs=1)
    >>> m.games, round(sum(m.regions[r] * sum(r in g.players for g in m.rows) for r in m.regions), 6)
    (3, 3.0)
    """
    t0 = time.perf_counter()
    res = run_tournament(games, list(bots or ["greedy"] * n_players), seed=seed, jobs=jobs, hp=dict(hp),
                         counts=dict(counts) if counts else None, abilities=dict(abilities) if abilities else None)
    return Measured(n_players, dict(hp), seed, res.games, time.perf_counter() - t0, dict(counts or {}),
                    dict(abilities or {}))


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

    def objective(self, hp: Mapping[str, int], anchor: float | None = None,
                  offset: Mapping[int, Mapping[str, float]] | None = None) -> float:
        """How uneven the predicted shares are: the worst deviation plus a little of the mean one.

        With ``anchor`` a small pull keeps the mean HP near it (adding the same number to every
        region changes nothing else, so the search needs a level). ``offset`` is added to the
        predicted shares (per number of players and region): the search's correction, what the
        real games showed minus what the surrogate predicted for them.
        """
        devs = []
        for n, shares in self.shares(hp).items():
            fair, tol = 1 / n, REGION_TOLERANCE.get(n, 0.04)
            add = offset.get(n, {}) if offset else {}
            devs += [abs(v + add.get(k, 0.0) - fair) / tol for k, v in shares.items()]
        value = max(devs) + 0.3 * math.sqrt(sum(d * d for d in devs) / len(devs))
        if anchor is not None:
            value += 0.01 * abs(sum(hp.values()) / len(hp) - anchor)
        return value


def fit_hp(surrogate: Surrogate, start: Mapping[str, int], *, anchor: float | None = None, radius: int | None = None,
           lo: int = HP_MIN, hi: int = HP_MAX, sweeps: int = 12,
           offset: Mapping[int, Mapping[str, float]] | None = None) -> dict[str, int]:
    """The whole-number HP vector with the most even predicted shares, near ``start``.

    Every value stays within ``lo``–``hi`` and, with ``radius``, within that many points of
    ``start`` (a trust region: the recorded damage says little about HP far from where it was
    recorded). Coordinate descent from ``start``: each region in turn takes its best value with
    the others held, then each pair of regions is tried one point up or down together (steps
    that single changes miss), until a sweep changes nothing. ``offset`` corrects the predicted
    shares (see :meth:`Surrogate.objective`).

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
    best = surrogate.objective(hp, anchor, offset)
    for _ in range(sweeps):
        changed = False
        for k in keys:
            for v in range(bounds[k][0], bounds[k][1] + 1):
                if v == hp[k]:
                    continue
                trial = {**hp, k: v}
                val = surrogate.objective(trial, anchor, offset)
                if val < best - 1e-12:
                    best, hp, changed = val, trial, True
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                for da, db in ((1, 1), (-1, -1), (1, -1), (-1, 1)):
                    trial = {**hp, a: hp[a] + da, b: hp[b] + db}
                    if not (bounds[a][0] <= trial[a] <= bounds[a][1] and bounds[b][0] <= trial[b] <= bounds[b][1]):
                        continue
                    val = surrogate.objective(trial, anchor, offset)
                    if val < best - 1e-12:
                        best, hp, changed = val, trial, True
        if not changed:
            break
    return hp


# The deck family the search may use when HP alone cannot balance the edition: step k moves one
# card from a kind that keeps storms off the land (counters first, then the attack cards that
# weaken or slow a storm) to a kind that brings storms to land: steering (which a player aims at
# a rival), warm water, new depressions, tailwind. Every kind keeps at least 1 card.
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
    ("cool_upwelling", "tailwind"),
    ("headwind", "tailwind"),
    ("cool_upwelling", "steering_flow"),
    ("headwind", "tailwind"),
    ("dry_air", "steering_flow"),
)


def pre_balance_counts(rules: Rules | None = None) -> dict[str, int]:
    """The deck the balance search started from: the deck of ``rules`` (the edition's by default)
    with every step of ``DECK_STEPS`` undone, every kind of the data in the data's order.

    A kind the steps never name keeps its count in the data, so a new card needs no change here.

    >>> c = pre_balance_counts()
    >>> sum(c.values()), list(c) == list(load_rules().cards)
    (54, True)
    >>> c["warm_ocean"] == edition_counts()["warm_ocean"] - 3  # three deck steps brought Warm Ocean cards in
    True
    """
    rules = rules or load_rules()
    counts = edition_counts(rules)
    missing = sorted({k for step in DECK_STEPS for k in step} - set(counts))
    if missing:
        raise ValueError(f"the balance search's deck steps (typhoon_edu/ai/balance.py DECK_STEPS) name card kinds "
                         f"the rules data does not have: {', '.join(missing)}; kinds: {', '.join(counts)}")
    for frm, to in reversed(DECK_STEPS):
        counts[frm] += 1
        counts[to] -= 1
    low = {k: v for k, v in counts.items() if v < 1}
    if low:
        raise ValueError("with the deck steps (typhoon_edu/ai/balance.py DECK_STEPS) undone, these kinds of the rules "
                         f"data would have fewer than 1 card in the pre-balance deck: {low}")
    return counts


def deck_counts(k: int, rules: Rules | None = None) -> dict[str, int]:
    """The whole deck after the first ``k`` steps of ``DECK_STEPS``, counted from the pre-balance deck
    (:func:`pre_balance_counts` of ``rules``, the edition's by default).

    >>> deck_counts(0) == pre_balance_counts()
    True
    >>> c = deck_counts(2)
    >>> c["evacuation"] - deck_counts(0)["evacuation"], c["steering_flow"] - deck_counts(0)["steering_flow"], sum(c.values())
    (-1, 1, 54)
    >>> deck_counts(14) == edition_counts()  # the balanced edition's deck is step 14
    True
    """
    if not 0 <= k <= len(DECK_STEPS):
        raise ValueError(f"a deck step is 0 to {len(DECK_STEPS)}; got {k}")
    counts = pre_balance_counts(rules)
    for frm, to in DECK_STEPS[:k]:
        counts[frm] -= 1
        counts[to] += 1
    return counts


def __getattr__(name: str) -> Any:
    """``PRE_BALANCE_COUNTS``: the edition's pre-balance deck, computed from the rules data when first asked for."""
    if name == "PRE_BALANCE_COUNTS":
        return pre_balance_counts()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pre_balance_abilities(rules: Rules | None = None) -> dict[str, int]:
    """The ability steps (see :func:`edition_variant`) that turn ``rules`` back into the pre-balance strengths.

    >>> steps = pre_balance_abilities()
    >>> all(ability_strength(edition_variant(abilities=steps).regions[k].ability.effect) == v
    ...     for k, v in PRE_BALANCE_STRENGTHS.items())
    True
    """
    rules = rules or load_rules()
    out = {}
    for name, strength in PRE_BALANCE_STRENGTHS.items():
        now = ability_strength(rules.regions[name].ability.effect)
        if now is not None and now != strength:
            out[name] = strength - now
    return out


@dataclass
class Step:
    """One candidate of the search: the deck and HP tried and the real games' result.

    ``round`` is the search round (all candidates of a round play the same seeds); ``how`` says
    where the HP came from: ``start``, ``incumbent`` (the best so far, played again on the
    round's seeds), ``surrogate`` (:func:`fit_hp` on the corrected surrogate) or a move such as
    ``Korea -1`` (:func:`moves`).
    """

    number: int
    hp: dict[str, int]
    counts: dict[str, int]
    measured: dict[int, Measured]
    how: str = "start"
    round: int = 0
    abilities: dict[str, int] = field(default_factory=dict)  # ability steps (see edition_variant)

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


def correction(surrogate: Surrogate, step: Step) -> dict[int, dict[str, float]]:
    """What the real games of ``step`` showed minus what ``surrogate`` predicts for its HP.

    The surrogate replays recorded damage, so it cannot see that GreedyBot aims at the leader and
    that other HP change who is attacked; this difference, added to its forecasts near the HP
    just played, corrects that (the output correction of surrogate-based optimisation).
    """
    predicted = surrogate.shares(step.hp)
    return {n: {k: v - predicted.get(n, {}).get(k, 0.0) for k, v in m.regions.items()}
            for n, m in step.measured.items()}


def evenness(measured: Mapping[int, Measured]) -> float:
    """How uneven a result is, for comparing candidates: the worst deviation plus a little of the rest.

    Every region's and every seat's distance from its fair share, in units of its tolerance, over
    the player counts: the largest, plus 0.3 × their root mean square (so of two candidates with
    the same worst region, the one with the others closer to fair wins).
    """
    devs = []
    for n, m in measured.items():
        fair = 1 / n
        devs += [abs(v - fair) / REGION_TOLERANCE[n] for v in m.regions.values()]
        devs += [abs(v - fair) / SEAT_TOLERANCE for v in (*m.seats.values(), *m.deal_seats.values())]
    return max(devs) + 0.3 * math.sqrt(sum(d * d for d in devs) / len(devs))


def moves(step: Step, lo: int = HP_MIN, hi: int = HP_MAX, regions: int = 2) -> list[tuple[dict[str, int], str]]:
    """Single-region moves toward the fair share: for the ``regions`` regions farthest from it
    (averaged over the player counts), one HP less for a region that wins too often, one more for
    one that wins too seldom; for the farthest, two as well.

    >>> m = Measured(3, {"Taiwan": 40, "Japan": 40, "Korea": 40}, 0, [
    ...     GameRow(0, ("Taiwan", "Japan", "Korea"), ("greedy",) * 3, ("Korea",), (30, 38, 40), 3, 99, "rounds")], 1.0)
    >>> [how for _hp, how in moves(Step(1, m.hp, {}, {3: m}))]
    ['Korea -1', 'Korea -2', 'Japan +1']
    """
    pull = step.region_pull()
    order = sorted(pull, key=lambda k: (-abs(pull[k]), k))[:regions]
    out = []
    for rank, key in enumerate(order):
        sign = -1 if pull[key] > 0 else 1
        for size in ((1, 2) if rank == 0 else (1,)):
            value = min(hi, max(lo, step.hp[key] + sign * size))
            if value != step.hp[key]:
                out.append(({**step.hp, key: value}, f"{key} {sign * size:+d}"))
    return out


def search(start: Mapping[str, int], *, games: Mapping[int, int], counts: Mapping[str, int] | None = None,
           steps: int = 8, seed: int = 1_000_000, jobs: int = 2, pool: int = 3, radius: int = 3,
           anchor: float | None = None, stop_below: float = 0.7, first: int = 1, patience: int = 2,
           abilities: Mapping[str, int] | None = None, report: Callable[[Step], None] | None = None) -> list[Step]:
    """Search HP with real games, from ``start``, for at most ``steps`` rounds; every candidate played is returned.

    Round ``i`` (numbered from ``first``) plays, on one block of seeds (``seed + i * 100_000``
    upward, fresh every round, the same for every candidate of the round so that they meet the
    same deals and dice), ``games[n]`` GreedyBot games for each number of players ``n`` with
    each candidate HP vector:

    - the best HP so far (the incumbent);
    - the fit (:func:`fit_hp`, within ``radius`` points) on a surrogate of the incumbent's last
      ``pool`` rounds of games, corrected by what its real games showed (:func:`correction`);
    - :func:`moves`: the regions farthest from their fair share moved one or two HP toward it.

    The candidate with the most even result (:func:`evenness`) becomes the incumbent. The search
    stops when a round's best meets the targets within ``stop_below`` (1.0 = exactly at the
    tolerance), or when the incumbent has stayed best for ``patience`` rounds in a row. ``anchor``
    is the mean HP the fit keeps (default: the mean of ``start``). ``counts`` replaces card
    counts for every game (a deck of :func:`deck_counts`), ``abilities`` strengthens region
    abilities (see :func:`edition_variant`).
    """
    anchor = sum(start.values()) / len(start) if anchor is None else anchor
    counts = dict(counts or {})
    abilities = dict(abilities or {})
    incumbent, how = dict(start), "start"
    mine: list[Step] = []  # the incumbent's own rounds, for the surrogate
    done: list[Step] = []
    stayed = 0

    def play(hp: Mapping[str, int], how: str, rnd: int) -> Step:
        block = seed + rnd * 100_000
        measured = {n: measure(hp, n, g, seed=block, jobs=jobs, counts=counts, abilities=abilities)
                    for n, g in sorted(games.items())}
        step = Step(first + len(done), dict(hp), counts, measured, how, rnd, abilities)
        done.append(step)
        if report:
            report(step)
        return step

    for rnd in range(first, first + steps):
        here = play(incumbent, how if rnd == first else "incumbent", rnd)
        if here.score <= stop_below:
            break
        mine = [s for s in mine if s.hp == incumbent][-(pool - 1):] + [here]
        surrogate = Surrogate(_batches(mine))
        fit = fit_hp(surrogate, incumbent, anchor=anchor, radius=radius, offset=correction(surrogate, here))
        candidates = [(fit, "surrogate")] if fit != incumbent else []
        candidates += [(hp, how) for hp, how in moves(here) if hp != fit]
        played = [here] + [play(hp, how, rnd) for hp, how in candidates]
        best = min(played, key=lambda s: evenness(s.measured))
        if best is here:
            stayed += 1
            if stayed >= patience:
                break
        else:
            stayed = 0
            incumbent, mine = dict(best.hp), [best]
        if best.score <= stop_below:
            break
    return done


def ability_to_strengthen(step: Step, rules: Rules | None = None) -> str | None:
    """The region whose ability the next ability stage makes one step stronger: of the regions whose
    ability has a strength (:func:`ability_strength`), the one farthest below its fair share,
    averaged over the player counts (None if none is below).

    >>> m = Measured(3, {"Taiwan": 40, "Philippines": 40, "Korea": 40}, 0, [GameRow(0, ("Taiwan", "Philippines", "Korea"),
    ...     ("greedy",) * 3, ("Korea",), (30, 38, 40), 3, 99, "rounds")], 1.0)
    >>> ability_to_strengthen(Step(1, m.hp, {}, {3: m}))  # the Philippines' halving has no strength
    'Taiwan'
    """
    rules = rules or load_rules()
    effects = {k: stronger_ability_or_none(r.ability.effect, step.abilities.get(k, 0)) for k, r in rules.regions.items()}
    pull = {k: v for k, v in step.region_pull().items() if v < 0 and effects.get(k) is not None}
    return min(pull, key=lambda k: (pull[k], k)) if pull else None


def stronger_ability_or_none(effect: Effect, steps: int) -> Effect | None:
    """``effect`` after ``steps`` and one more step, or None if it cannot be made stronger."""
    try:
        return stronger_ability(effect, steps + 1)
    except ValueError:
        return None


def _batches(steps: Sequence[Step]) -> list[tuple[list[GameRow], dict[str, int]]]:
    return [(m.rows, s.hp) for s in steps for m in s.measured.values()]


def best_step(steps: Sequence[Step]) -> Step:
    """The search's answer: of the candidates of the last round played, the most even.

    (Candidates of one round met the same games; comparing across rounds would favour a lucky
    block of seeds.)
    """
    last = max(s.round for s in steps)
    return min((s for s in steps if s.round == last), key=lambda s: evenness(s.measured))


__all__ = [
    "CONFIRM_GAMES", "DECK_STEPS", "PRE_BALANCE_HP", "PRE_BALANCE_STRENGTHS",
    "pre_balance_abilities", "pre_balance_counts", "ability_strength", "ability_to_strengthen", "stronger_ability", "REGION_TOLERANCE", "SEAT_TOLERANCE", "Measured", "Step", "Surrogate", "best_step",
    "correction", "evenness", "moves",
    "deck_counts", "deviation", "edition_counts", "edition_hp", "edition_variant", "fit_hp", "measure",
    "region_shares", "rules_with_hp",
    "search", "seat_shares", "wilson",
]
