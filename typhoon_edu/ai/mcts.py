"""The 'hard' bot: information-set Monte Carlo search over the rest of the turn.

The bot sees only what its player may see: its own hand, the public discard pile, hand sizes,
the draw-pile size and the board. Every sample of the search

1. *determinizes* (:meth:`MCTSBot.determinize`): copies the game (``Game.clone``), deals the
   cards it cannot see (all 54 cards minus its own hand minus the discard pile) at random into
   the other players' hands and the draw pile, with the right sizes, and gives the copy a fresh
   shuffle seed, so neither the real hands, the deck order nor future reshuffles can leak in;
2. switches the copy to ``dice="manual"`` and rolls every die itself from its own generator
   (it never sees, nor touches, the game's dice generator);
3. plays the candidate action and then on to the end of the current turn: every player (the
   bot included, for its later decisions) uses a fast one-ply greedy policy with the same
   heuristic as :class:`~typhoon_edu.ai.bots.GreedyBot`, so opponents in the search behave like
   the sensible players they are;
4. scores the end of the turn with that heuristic (:func:`~typhoon_edu.ai.bots.evaluate`: HP
   lead after the expected damage of the next moves, plus the cards in hand). In the last
   ``endgame`` turns of the game (8 by default) it plays on to the end of the game instead and
   scores a win (1/k for a shared one) or a loss.

Two search modes (measured with ``benchmarks/mcts.py``; ``flat`` won more at the same cost):

- ``mode="flat"`` (default): determinized flat Monte Carlo with *common random numbers*. The
  ``top_k`` actions by a one-ply greedy evaluation are the candidates (progressive bias; that
  evaluation also counts as ``prior_weight`` samples); each determinization, with one shared
  dice stream, is played out once for *every* candidate, so candidates are compared on the
  same luck, which removes most of the dice noise from the comparison. ``iterations`` counts
  play-outs (``iterations // top_k`` determinizations).
- ``mode="tree"``: single-observer ISMCTS with an open-loop tree of the bot's own decisions
  this turn, UCB1 with availability counts, values seeded by the greedy evaluation.

With ``iterations`` the bot is deterministic for a given ``seed`` (the same sequence of
positions gives the same choices). ``time_limit`` (seconds) stops the search by the clock
instead, which makes the choice depend on the machine's speed and load, so it is *not*
reproducible. If both are given the search stops at whichever comes first.

>>> from typhoon_edu import Game
>>> g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=11)
>>> bot = MCTSBot(iterations=30, seed=1)
>>> a = bot.choose(g)
>>> a in g.legal_actions()
True
>>> a == MCTSBot(iterations=30, seed=1).choose(g)
True
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.board import Board
from ..engine.game import CHANCE, FACES, Game
from ..engine.rules import Rules
from .beliefs import HandBeliefs, deal_with_beliefs
from .bots import (
    CARD_VALUE_ATTACK,
    CARD_VALUE_COUNTER,
    REGION_CARD_VALUE,
    add_move_so_far,
    apply_shields,
    hp_lead,
    region_move_damage,
)

DEFAULT_ENDGAME = 8  # turns before the end from which play-outs run to the end of the game
# 20 determinizations of the top 6. 144 (24) was tried when the engine got faster: on 200 paired games it won
# 34.9 % against 39.7 % for 120, and took longer (docs/engine_speed.md §6), so the speed-up shortens the wait instead.
DEFAULT_ITERATIONS = 120
HORIZONS = ("turn", "two_turns", "round", "game", "attack")
_DIE_ACTIONS = tuple(Action("die", face=f) for f in FACES)
_WIN = 1000.0

# (board, cell, level, direction) -> ((region index, expected damage over the six faces), ...); the
# boards stay alive (so their ids unique) in bots.region_move_damage's table, which every entry used
_EXPECT_CACHE: dict[tuple[int, int, int, str], tuple[tuple[int, float], ...]] = {}


def _expected_damage(game: Game, cell: int, level: int, direction: str) -> tuple[tuple[int, float], ...]:
    key = (id(game._b), cell, level, direction)
    hit = _EXPECT_CACHE.get(key)
    if hit is not None:
        return hit
    out: dict[int, float] = {}
    for face in FACES:
        for r, d in region_move_damage(game, cell, level, direction, face, 0):
            out[r] = out.get(r, 0.0) + d / 6
    res = tuple(out.items())
    _EXPECT_CACHE[key] = res
    return res


# id(players) -> (players, board, {key: ((seat, damage), ...)}), for one seating (a game and its
# clones share their players tuple; the entry keeps it alive, so its id stays unique). The keys:
# (cell, level, direction) -> _expected_damage by seat; (cell, level, direction, roll modifier)
# -> the six faces' region_move_damage by seat, each damage divided by 6, in the order fast_threat
# adds them (so the sums are the same to the last bit).
_SeatTable = dict[tuple[Any, ...], tuple[tuple[int, float], ...]]
_SEAT_TABLES: dict[int, tuple[tuple[str, ...], Board, _SeatTable]] = {}
# id(rules) -> (rules, {card key: its value in hand}) for fast_value
_CARD_VALUES: dict[int, tuple[object, dict[str, float]]] = {}
_LATE = frozenset({"move_choose", "roll_move"})


def _seat_table(game: Game) -> _SeatTable:
    """The damage tables of ``game``'s board and seating (see ``_SEAT_TABLES``)."""
    players = game.players
    hit = _SEAT_TABLES.get(id(players))
    if hit is None or hit[0] is not players or hit[1] is not game._b:
        hit = _SEAT_TABLES[id(players)] = (players, game._b, {})
    return hit[2]


def _fill_seat_table(game: Game, table: _SeatTable, key: tuple[Any, ...]) -> tuple[tuple[int, float], ...]:
    sor = game._seat_of_region
    if len(key) == 3:
        hit = tuple((sor[r], x) for r, x in _expected_damage(game, *key) if sor[r] >= 0)
    else:
        cell, level, d, (delta, low) = key
        hit = tuple((sor[r], x / 6) for face in FACES
                    for r, x in region_move_damage(game, cell, level, d, max(low, face + delta), 0) if sor[r] >= 0)
    table[key] = hit
    return hit


def fast_threat(game: Game) -> list[float]:
    """The same forecast as :func:`typhoon_edu.ai.bots.threat`, with cached move tables.

    The sums are made in the same order as there, so the numbers are the same to the last bit
    (``tests/test_mcts.py`` compares them); only the look-ups are cached.

    >>> from typhoon_edu import Game
    >>> from typhoon_edu.ai.bots import threat
    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    >>> for a in ["place 8,8", "place 11,7", "place 14,9", "aim T1", "aim T2"]:
    ...     _ = g.apply(a)
    >>> all(abs(x - y) < 1e-9 for x, y in zip(fast_threat(g), threat(g)))
    True
    """
    total = [0.0] * len(game.players)
    sor = game._seat_of_region
    m = game.move
    holds = game.holds
    mods = game.roll_mods
    late = game.phase in _LATE
    table = _seat_table(game)
    for t in game.typhoons_:
        d = t.direction
        tid = t.id
        if d is None or tid in holds:
            continue
        if m is not None and m.tid == tid:
            for r, x in region_move_damage(game, t.cell, t.level, d, m.steps - m.done, m.pos):
                s = sor[r]
                if s >= 0:
                    total[s] += x
            continue
        if late and tid not in game.unmoved and tid != game.roll_for:
            continue
        key = (t.cell, t.level, d) if not mods or tid not in mods else (t.cell, t.level, d, mods[tid])
        hit = table.get(key)
        if hit is None:
            hit = _fill_seat_table(game, table, key)
        for s, x in hit:
            total[s] += x
    if game.shields:
        apply_shields(game, total)  # shields raised by region abilities this turn
    if m is not None:
        add_move_so_far(m, total)
    return total


def _card_values(rules: Rules) -> dict[str, float]:
    """Each card's value in hand for fast_value (counter cards are worth more), per rules (cached)."""
    values = {k: CARD_VALUE_COUNTER if card.timing == "counter" else CARD_VALUE_ATTACK for k, card in rules.cards.items()}
    _CARD_VALUES[id(rules)] = (rules, values)
    return values


def fast_value(game: Game, seat: int) -> float:
    """:func:`typhoon_edu.ai.bots.evaluate` for ``seat``, knowing its whole hand (faster).

    >>> from collections import Counter
    >>> from typhoon_edu import Game
    >>> from typhoon_edu.ai.bots import evaluate
    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    >>> abs(fast_value(g, 1) - evaluate(g, 1, Counter(g.hands[1]))) < 1e-9
    True
    """
    if game.phase == "over":
        return _WIN / len(game.winners_) if game.players[seat] in game.winners_ else -_WIN
    lead = hp_lead(game._hp, fast_threat(game), seat)
    rules = game.rules
    hit = _CARD_VALUES.get(id(rules))
    values = hit[1] if hit is not None and hit[0] is rules else _card_values(rules)
    hand = game.hands[seat]
    limit = game._hand_limit[seat]
    if len(hand) <= limit:
        value = sum(map(values.__getitem__, hand))
    else:  # cards beyond the hand limit will be discarded: worth little
        ranked = sorted(map(values.__getitem__, hand), reverse=True)
        value = sum(ranked[:limit]) + 0.1 * sum(ranked[limit:])
    if not game.region_spent[seat]:
        value += REGION_CARD_VALUE
    return lead + 0.4 * value


def _one_ply(game: Game, seat: int, actions: Sequence[Action]) -> list[float]:
    """The greedy value of each action for ``seat`` (the copy stops at every die roll)."""
    out = []
    legal = game._legal  # every copy starts from this position, so this legal list is theirs too
    for a in actions:
        c = game.clone()
        c.dice = "manual"
        c._legal = legal
        c.apply(a)
        out.append(fast_value(c, seat))
    return out


_HASH_MODULUS = (1 << 61) - 1  # sys.hash_info.modulus of a 64-bit CPython


def stream_of(x: float) -> random.Random:
    """A generator seeded from the number ``x`` in [0, 1) exactly as ``random.Random(x)`` on 64-bit CPython.

    ``Random(x)`` seeds a float by its ``hash()``, whose modulus is 2**61 - 1 on 64-bit builds but
    2**31 - 1 on 32-bit ones: Pyodide (WebAssembly) is 32-bit, so the same seed gave the search
    other play-outs there, and other choices. This computes the 64-bit hash of ``x`` (the algorithm
    of the Python docs' "Hashing of numeric types") so that every platform draws the same numbers
    and the bot plays as it always has on 64-bit CPython.

    >>> x = random.Random(7).random()
    >>> stream_of(x).random() == random.Random(hash(x)).random()  # on 64-bit CPython
    True
    """
    m, n = x.as_integer_ratio()
    h = abs(m) % _HASH_MODULUS * pow(n, _HASH_MODULUS - 2, _HASH_MODULUS) % _HASH_MODULUS
    return random.Random(h)


def _greedy(game: Game, seat: int, actions: Sequence[Action], rng: random.Random) -> Action:
    vals = _one_ply(game, seat, actions)
    top = max(vals)
    best = [a for a, v in zip(actions, vals, strict=True) if v > top - 1e-9]
    return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]


def _score(game: Game, seat: int) -> float:
    """A play-out's value for ``seat``: the heuristic, clipped to ±150, or 150 shared among the winners."""
    if game.phase == "over":
        return 150.0 / len(game.winners_) if game.players[seat] in game.winners_ else -150.0
    return max(-150.0, min(150.0, fast_value(game, seat)))


def turns_left(game: Game) -> int:
    """How many turns the game has left, the current one included (eliminations aside).

    >>> from typhoon_edu import Game
    >>> turns_left(Game.new(["Taiwan", "Japan", "Korea"], seed=1))
    9
    """
    n = len(game.players)
    alive = [s for s in range(n) if game._hp[s] > 0]
    rounds = 1 if game.variant == "advanced" else 3
    here = (game.active_seat - game.start_seat) % n
    this_round = sum(1 for s in alive if (s - game.start_seat) % n >= here)
    return this_round + (rounds - game.round) * len(alive)


def hp_outlook(game: Game) -> tuple[float, ...]:
    """Every seat's HP after the damage still expected from the storms' next moves (0 at least).

    >>> from typhoon_edu import Game
    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=1)
    >>> hp_outlook(g) == tuple(float(h) for h in g._hp)
    True
    """
    hp = game._hp
    if game.phase == "over":
        return tuple(float(h) for h in hp)
    th = fast_threat(game)
    return tuple(max(0.0, h - th[s]) if h > 0 else 0.0 for s, h in enumerate(hp))


@dataclass(frozen=True)
class Candidate:
    """One action the flat search looked at, with what its play-outs came to.

    ``value`` is the search's score (the play-outs' mean, the greedy ``prior`` counted as
    ``prior_weight`` samples) and ``samples`` the number of play-outs. ``hp`` is every seat's
    mean HP at the play-outs' end after the damage still expected (:func:`hp_outlook`); it is
    filled only by :meth:`MCTSBot.analyse` (empty when the bot just chooses).
    """

    action: Action
    prior: float
    value: float
    samples: int
    hp: tuple[float, ...] = ()


@dataclass(frozen=True)
class Analysis:
    """The flat search's candidates for ``player`` (in the order searched) and the index of the best."""

    player: str
    candidates: tuple[Candidate, ...]
    best_index: int

    @property
    def best(self) -> Candidate:
        return self.candidates[self.best_index]

    def of(self, action: Action) -> Candidate | None:
        """The candidate for ``action``, if the search looked at it."""
        for c in self.candidates:
            if c.action == action:
                return c
        return None


class _Node:
    """One decision of the searching player, reached by a sequence of its own actions."""

    __slots__ = ("stats", "children")

    def __init__(self) -> None:
        # action -> [visits, total value, availability, prior, allowed]
        self.stats: dict[Action, list[float]] = {}
        self.children: dict[Action, _Node] = {}


class MCTSBot:
    """Information-set Monte Carlo search to the end of the turn with greedy opponents ('hard').

    ``iterations`` (play-outs; 120 when neither limit is given) or ``time_limit`` (seconds)
    bound each decision; ``seed`` makes it reproducible with ``iterations``. ``top_k`` actions
    (ranked by a one-ply greedy evaluation) are searched, ``prior_weight`` is how many samples
    that evaluation counts for, ``exploration`` is the UCB1 constant (HP) of ``mode="tree"``,
    and ``horizon`` is ``"turn"`` (play to the end of the turn), ``"two_turns"``, ``"round"`` or
    ``"game"`` (play on through the next turn, until every living player has had a turn, or to
    the end of the game, scored win or loss; dearer and, in ``benchmarks/mcts.py``, no
    stronger) or ``"attack"`` (stop before the storms move and use the expected damage
    instead). ``endgame`` (turns; 8 by default, 0 for never) plays on to the end of the game
    instead, scored win or loss (a shared win 1/k), once no more than that many turns are left:
    at the end, one HP more than the leader is all that counts, and the heuristic's lead does
    not see it (on the balanced edition, against three GreedyBots, this raised the bot's win
    share from 29.9 % to 37.1 % with 4 turns and 42.5 % with 8; docs/hard_bot.md). With ``beliefs`` (the default) the copies it
    searches deal the rivals' hands to fit what their own public play says they do not hold
    (:mod:`typhoon_edu.ai.beliefs`). ``last_iterations`` tells how many play-outs the last
    decision used (0 when it had one legal action).
    """

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = None,
        time_limit: float | None = None,
        seed: int | None = None,
        *,
        top_k: int = 6,
        exploration: float = 8.0,
        prior_weight: float = 2.0,
        horizon: str = "turn",
        mode: str = "flat",
        beliefs: bool = True,
        endgame: int = DEFAULT_ENDGAME,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit is a number of seconds above 0, not {time_limit}")
        if horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {', '.join(map(repr, HORIZONS))}, not {horizon!r}")
        if mode not in ("flat", "tree"):
            raise ValueError(f"mode must be 'flat' or 'tree', not {mode!r}")
        self.iterations = iterations if iterations is not None or time_limit is not None else DEFAULT_ITERATIONS
        self.time_limit = time_limit
        self.seed = seed
        self.rng = random.Random(seed)
        self.top_k = top_k
        self.exploration = exploration
        self.prior_weight = prior_weight
        self.horizon = horizon
        self.mode = mode
        self.beliefs = beliefs
        self.endgame = endgame
        self._beliefs: HandBeliefs | None = None
        self.last_iterations = 0

    # ------------------------------------------------------------------ determinization
    def determinize(self, game: Game, seat: int, rng: random.Random) -> Game:
        """A copy of ``game`` with the cards ``seat`` cannot see dealt at random, and manual dice.

        Only public information and ``seat``'s own hand are read: the unseen cards are the full
        deck minus that hand minus the discard pile; other hands keep their sizes, the draw pile
        its size. With ``beliefs`` the cards a rival is inferred not to hold (from its own public
        play, :mod:`typhoon_edu.ai.beliefs`) are dealt elsewhere. The copy gets a new shuffle
        seed, so later reshuffles are unknown too.
        """
        c = game.clone()
        c.dice = "manual"
        c.seed = rng.randrange(2**31)
        c._rng = None
        unseen = Counter({k: card.count for k, card in game.rules.cards.items()})
        unseen.subtract(game.hands[seat])
        unseen.subtract(game.discard)
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        sizes = {s: len(game.hands[s]) for s in range(len(game.players)) if s != seat}
        beliefs = self._beliefs.beliefs() if self._beliefs is not None and self._beliefs.seat == seat else {}
        dealt = deal_with_beliefs(pool, sizes, beliefs, rng)
        for s, hand in dealt.items():
            if s >= 0:
                c.hands[s] = hand
        c.deck = dealt[-1]
        if len(c.deck) != len(game.deck):  # pragma: no cover - the 54 cards are always accounted for
            raise RuntimeError("the unseen cards do not match the hand sizes and the draw pile")
        return c

    def _follow(self, game: Game, seat: int) -> None:
        """Bring the beliefs about the rivals' hands up to date with ``game``'s public history."""
        if not self.beliefs:
            self._beliefs = None
            return
        if self._beliefs is None or self._beliefs.seat != seat:
            self._beliefs = HandBeliefs(seat)
        self._beliefs.update(game)

    # ------------------------------------------------------------------ search
    def choose(self, game: Game) -> Action:
        """Search and return the action to play now (at once when there is only one)."""
        actions = game.legal_actions()
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        player = game.current_player
        if player == CHANCE or player is None:
            return actions[int(self.rng.random() * len(actions))]
        seat = game.players.index(player)
        self._follow(game, seat)
        rng = stream_of(self.rng.random())
        deadline = time.perf_counter() + self.time_limit if self.time_limit is not None else None
        if self.mode == "flat":
            return self._flat(game, seat, actions, rng, deadline)
        root = _Node()
        it = 0
        while True:
            if self.iterations is not None and it >= self.iterations:
                break
            if deadline is not None and it > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(game, seat, root, rng)
            it += 1
        self.last_iterations = it
        legal = set(actions)
        best: Action | None = None
        best_key = (-1.0, -math.inf)
        for a, st in root.stats.items():
            if a not in legal:
                continue
            key = (st[0], (st[1] + self.prior_weight * st[3]) / (st[0] + self.prior_weight))
            if key > best_key:
                best, best_key = a, key
        return best if best is not None else actions[0]

    def _select(self, node: _Node, d: Game, seat: int, legal: list[Action], rng: random.Random) -> Action:
        stats = node.stats
        new = [a for a in legal if a not in stats]
        if new:
            for a, v in zip(new, _one_ply(d, seat, new), strict=True):
                stats[a] = [0.0, 0.0, 0.0, v, 0.0]
        cand = [a for a in legal if stats[a][4]]
        if new or not cand:
            # the best top_k available actions by the greedy evaluation are searched (progressive bias)
            ranked = sorted(range(len(legal)), key=lambda i: -stats[legal[i]][3])[: self.top_k]
            for i in ranked:
                stats[legal[i]][4] = 1.0
            cand = [a for a in legal if stats[a][4]]
        w = self.prior_weight
        c = self.exploration
        for a in cand:
            stats[a][2] += 1
        best = cand[0]
        best_u = -math.inf
        for a in cand:
            n, tot, avail, prior, _ = stats[a]
            u = (tot + w * prior) / (n + w) + c * math.sqrt(math.log(avail + 1) / (n + 1))
            if u > best_u:
                best, best_u = a, u
        return best

    def _turns(self, d: Game) -> int:
        """How many turns a play-out covers: the current one, two, a whole round, or all that are left."""
        if self.horizon == "game" or (self.endgame and turns_left(d) <= self.endgame):
            return 1 << 30
        if self.horizon == "round":
            return sum(1 for h in d._hp if h > 0)
        return 2 if self.horizon == "two_turns" else 1

    def _rollout(self, d: Game, seat: int, rng: random.Random) -> float:
        """Play ``d`` on to the horizon with the greedy default policy; the value for ``seat``."""
        cur = (d.round, d.active_seat)
        left = self._turns(d)
        attack_only = self.horizon == "attack"
        while d.phase != "over":
            if (d.round, d.active_seat) != cur:
                left -= 1
                if left <= 0:
                    break
                cur = (d.round, d.active_seat)
            ph = d.phase
            if attack_only and ph in ("move_choose", "roll_move"):
                break
            if ph in ("roll_direction", "roll_move", "roll_zone", "roll_cell"):
                d.apply(_DIE_ACTIONS[int(rng.random() * 6)])
                continue
            legal = d.legal_actions()
            d.apply(legal[0] if len(legal) == 1 else _greedy(d, d.decider, legal, rng))
        return _score(d, seat)

    def _flat(self, game: Game, seat: int, actions: list[Action], rng: random.Random,
              deadline: float | None) -> Action:
        """Determinized flat Monte Carlo with common random numbers (see :meth:`analyse`)."""
        return self._analyse(game, seat, actions, rng, deadline, (), outlook=False).best.action

    def analyse(self, game: Game, include: Sequence[Action] = ()) -> Analysis:
        """The flat search's view of the position for whoever decides now: every candidate's value.

        The candidates are the ``top_k`` legal actions by the greedy evaluation, plus ``include``
        (for example passing, to compare with). Only what the deciding player may see is used, as
        in :meth:`choose`; the game is not changed. The bot's generator advances as in a search.
        """
        actions = game.legal_actions()
        player = game.current_player
        if player == CHANCE or player is None:
            raise ValueError("there is no player decision to analyse now (a die roll, or the game is over)")
        seat = game.players.index(player)
        self._follow(game, seat)
        for a in include:
            if a not in actions:
                raise ValueError(f"{a.notation!r} is not a legal action now")
        rng = stream_of(self.rng.random())
        deadline = time.perf_counter() + self.time_limit if self.time_limit is not None else None
        return self._analyse(game, seat, actions, rng, deadline, tuple(include), outlook=True)

    def _analyse(self, game: Game, seat: int, actions: list[Action], rng: random.Random,
                 deadline: float | None, include: tuple[Action, ...], *, outlook: bool) -> Analysis:
        """Determinized flat Monte Carlo with common random numbers.

        Every determinization (hands, deck, dice stream) is shared by all candidate actions, so
        their values are compared on the same luck; candidates are the ``top_k`` by the greedy
        evaluation, whose value also counts as ``prior_weight`` samples.
        """
        d0 = self.determinize(game, seat, rng)
        prior = _one_ply(d0, seat, actions)
        order = sorted(range(len(actions)), key=lambda i: -prior[i])[: self.top_k]
        for a in include:
            i = actions.index(a)
            if i not in order:
                order.append(i)
        cand = [actions[i] for i in order]
        tot = [self.prior_weight * prior[i] for i in order]
        seats = len(game.players)
        hp_sum = [[0.0] * seats for _ in cand]
        n = 0
        budget = self.iterations
        while True:
            if budget is not None and n * len(cand) >= budget:
                break
            if deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            d = self.determinize(game, seat, rng)
            draw = rng.random()
            for j, a in enumerate(cand):
                c = d.clone()
                c.apply(a)
                tot[j] += self._rollout(c, seat, stream_of(draw))
                if outlook:
                    for k, h in enumerate(hp_outlook(c)):
                        hp_sum[j][k] += h
            n += 1
        self.last_iterations = n * len(cand)
        w = self.prior_weight
        cands = tuple(Candidate(a, prior[i], tot[j] / (n + w), n,
                                tuple(h / n for h in hp_sum[j]) if n and outlook else ())
                      for j, (a, i) in enumerate(zip(cand, order, strict=True)))
        best = max(range(len(cand)), key=lambda j: tot[j])
        return Analysis(game.players[seat], cands, best)

    def _iterate(self, game: Game, seat: int, root: _Node, rng: random.Random) -> None:
        d = self.determinize(game, seat, rng)
        start = (d.round, d.active_seat)
        node: _Node | None = root
        path: list[tuple[_Node, Action]] = []
        attack_only = self.horizon == "attack"
        while d.phase != "over":
            if (d.round, d.active_seat) != start:
                break
            ph = d.phase
            if attack_only and ph in ("move_choose", "roll_move") and path:
                break
            if ph in ("roll_direction", "roll_move", "roll_zone", "roll_cell"):
                d.apply(_DIE_ACTIONS[int(rng.random() * 6)])
                continue
            legal = d.legal_actions()
            s = d.decider
            if len(legal) == 1:
                d.apply(legal[0])
                continue
            if s == seat and node is not None:
                a = self._select(node, d, seat, legal, rng)
                path.append((node, a))
                child = node.children.get(a)
                if child is None:
                    node.children[a] = _Node()
                    node = None  # expanded one node: the rest is played by the default policy
                else:
                    node = child
                d.apply(a)
                continue
            d.apply(_greedy(d, s, legal, rng))
        v = _score(d, seat)
        for nd, a in path:
            st = nd.stats[a]
            st[0] += 1
            st[1] += v
