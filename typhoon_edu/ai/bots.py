"""Bots that choose actions. They see what their player may see: never other hands, the deck
order or future dice.

>>> from typhoon_edu import Game
>>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=5)
>>> RandomBot(seed=1).choose(g).kind
'place'
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Protocol

from ..engine.actions import Action
from ..engine.board import Board
from ..engine.game import CHANCE, Game, Move, Typhoon

# How many HP a card in hand is worth when it is not played (counter cards keep you safe later).
CARD_VALUE_ATTACK = 1.5
CARD_VALUE_COUNTER = 3.0
REGION_CARD_VALUE = 4.0


class Bot(Protocol):
    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions (the 'easy' opponent)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


def move_damage(game: Game, t: Typhoon, steps: int, start_pos: int = 0) -> dict[int, float]:
    """Damage per seat if ``t`` moved ``steps`` from where it is now (no counters, no landfall loss)."""
    b = game._b
    cycle = game.rules.points[t.direction].cycle if t.direction else ("N",)
    cell = t.cell
    level = t.level
    dmg_per = game._dmg[level]
    hits_tab = b.hits[level]
    out: dict[int, float] = {}
    land = False
    for i in range(steps):
        cell = b.step[cycle[(start_pos + i) % len(cycle)]][cell]
        if cell < 0:
            return out
        land = land or b.land[cell]
        for r, c in hits_tab[cell]:
            s = game._seat_of_region[r]
            if s >= 0:
                out[s] = out.get(s, 0.0) + c * dmg_per
    if out:
        lv = level - 1 if land else level
        if lv >= 1:
            for r, _ in b.hits[lv][cell]:
                s = game._seat_of_region[r]
                if s in out:
                    out[s] += 1
    return out


def apply_shields(game: Game, total: list[float]) -> None:
    """Scale expected damage by the shields raised this turn (rough factors; they act on every storm)."""
    for s, kinds in game.shields.items():
        for kind in kinds:
            if kind == "shield_halve":
                total[s] *= 0.5
            elif kind == "shield_weaken":
                total[s] *= 0.3
        if s in game.cancel_first:
            total[s] *= 0.5


def add_move_so_far(m: Move, total: list[float]) -> None:
    """Add the damage the move in progress ``m`` has already counted to the expected damage ``total``.

    What it counted is certain, so it adds to the rest; a cancelled seat's total becomes 0 and a
    halved one's is halved (as the move's end will do).

    >>> from typhoon_edu.engine.game import Move
    >>> m = Move(1, 3, 3)
    >>> m.dmg, m.cancel, m.halve = {0: 4, 1: 2, 2: 6}, frozenset({1}), {2: "up"}
    >>> total = [1.0, 1.0, 1.0]
    >>> add_move_so_far(m, total)
    >>> total
    [5.0, 0.0, 3.5]
    """
    for s, dm in m.dmg.items():
        done = dm + total[s]
        if s in m.cancel:
            done = 0.0
        elif s in m.halve:
            done /= 2
        total[s] = done


def hp_lead(hp: list[int], th: list[float], seat: int) -> float:
    """``seat``'s lead in HP once the expected damage ``th`` is taken: against the leader and the field.

    Hurting the leader matters most, but every rival counts a little (smoother choices): the
    lead is over the mean of the best rival and the rivals' average. Being out costs 100 more.

    >>> hp_lead([10, 8, 4], [2.0, 0.0, 0.0], 0)  # 8 left against (8 + (8 + 4) / 2) / 2
    1.0
    >>> hp_lead([0, 8], [0.0, 0.0], 0)
    -108.0
    """
    mine = hp[seat] - th[seat]
    if mine < 0.0:
        mine = 0.0
    others = [max(0.0, h - th[s]) for s, h in enumerate(hp) if s != seat and h > 0]
    lead = mine - ((max(others) + sum(others) / len(others)) / 2 if others else 0.0)
    if mine <= 0:
        lead -= 100.0
    return lead


def threat_reference(game: Game) -> list[float]:
    """Expected damage to each seat from the next move of every typhoon (a one-turn forecast).

    The plain version, kept as the specification of :func:`threat` (the tests compare them).
    """
    n = len(game.players)
    total = [0.0] * n
    m = game.move
    for t in game.typhoons_:
        if t.id in game.holds or t.direction is None:
            continue
        if m is not None and m.tid == t.id:
            # the roll is known: the rest of this move is certain
            for s, d in move_damage(game, t, m.steps - m.done, m.pos).items():
                total[s] += d
            continue
        if game.phase in ("move_choose", "roll_move") and t.id not in game.unmoved and t.id != game.roll_for:
            continue  # it has already moved this turn
        mod = game.roll_mods.get(t.id)
        for face in range(1, 7):
            steps = face if mod is None else max(mod[1], face + mod[0])
            for s, d in move_damage(game, t, steps).items():
                total[s] += d / 6
    apply_shields(game, total)
    if m is not None:
        add_move_so_far(m, total)
    return total


# Move tables shared by every game of one board (the board is kept alive with them, so its id
# stays unique): (board, cell, level, direction, steps, start_pos) -> ((region, damage), ...) in
# the order in which move_damage first meets each region, and (board, cell, level, direction) ->
# the six faces' entries one after the other, each damage already divided by 6.
_MOVE_TABLE: dict[tuple[int, int, int, str, int, int], tuple[tuple[int, float], ...]] = {}
_FACE_TABLE: dict[tuple[int, int, int, str], tuple[tuple[int, float], ...]] = {}
_TABLE_BOARDS: dict[int, Board] = {}


def region_move_damage(game: Game, cell: int, level: int, direction: str, steps: int,
                       pos: int = 0) -> tuple[tuple[int, float], ...]:
    """:func:`move_damage` per *region index* (seated or not) from ``cell``, cached per board.

    >>> from typhoon_edu import Game
    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    >>> region_move_damage(g, g._b.index((8, 6)), 3, "WSW", 4)  # the rulebook example: 5 hits x 4 on Taiwan
    ((0, 20.0),)
    """
    b = game._b
    key = (id(b), cell, level, direction, steps, pos)
    hit = _MOVE_TABLE.get(key)
    if hit is not None:
        return hit
    _TABLE_BOARDS[id(b)] = b
    cycle = game.rules.points[direction].cycle
    dmg_per = game._dmg[level]
    hits_tab = b.hits[level]
    out: dict[int, float] = {}
    land = False
    edge = False
    for i in range(steps):
        cell = b.step[cycle[(pos + i) % len(cycle)]][cell]
        if cell < 0:
            edge = True
            break
        land = land or b.land[cell]
        for r, c in hits_tab[cell]:
            out[r] = out.get(r, 0.0) + c * dmg_per
    if out and not edge:
        lv = level - 1 if land else level
        if lv >= 1:
            for r, _ in b.hits[lv][cell]:
                if r in out:
                    out[r] += 1
    res = tuple(out.items())
    _MOVE_TABLE[key] = res
    return res


def _face_table(game: Game, cell: int, level: int, direction: str) -> tuple[tuple[int, float], ...]:
    key = (id(game._b), cell, level, direction)
    hit = _FACE_TABLE.get(key)
    if hit is None:
        hit = _FACE_TABLE[key] = tuple((r, d / 6) for face in range(1, 7)
                                       for r, d in region_move_damage(game, cell, level, direction, face))
    return hit


def threat(game: Game) -> list[float]:
    """Expected damage to each seat from the next move of every typhoon (a one-turn forecast).

    The same numbers as :func:`threat_reference`, added up in the same order, from cached move
    tables (this is the bots' hottest function).

    >>> from typhoon_edu import Game
    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    >>> for a in ["place 8,8", "place 11,7", "place 14,9", "aim T1", "aim T2"]:
    ...     _ = g.apply(a)
    >>> threat(g) == threat_reference(g)
    True
    """
    total = [0.0] * len(game.players)
    sor = game._seat_of_region
    m = game.move
    holds = game.holds
    late = game.phase in ("move_choose", "roll_move")
    for t in game.typhoons_:
        d = t.direction
        if d is None or t.id in holds:
            continue
        if m is not None and m.tid == t.id:
            for r, x in region_move_damage(game, t.cell, t.level, d, m.steps - m.done, m.pos):
                s = sor[r]
                if s >= 0:
                    total[s] += x
            continue
        if late and t.id not in game.unmoved and t.id != game.roll_for:
            continue
        mod = game.roll_mods.get(t.id)
        if mod is None:
            for r, x in _face_table(game, t.cell, t.level, d):
                s = sor[r]
                if s >= 0:
                    total[s] += x
        else:
            for face in range(1, 7):
                for r, x in region_move_damage(game, t.cell, t.level, d, max(mod[1], face + mod[0])):
                    s = sor[r]
                    if s >= 0:
                        total[s] += x / 6
    if game.shields or game.cancel_first:
        apply_shields(game, total)
    if m is not None:
        add_move_so_far(m, total)
    return total


def evaluate_reference(game: Game, seat: int, known_hand: Counter[str]) -> float:
    """Heuristic value of a state for ``seat``: HP lead, expected damage, cards in hand.

    The plain version, kept as the specification of :func:`evaluate` (the tests compare them).
    """
    if game.is_over:
        me = game.players[seat]
        if me in game.winners:
            return 1000.0 / len(game.winners)
        return -1000.0
    hp = [max(0.0, float(h)) for h in game._hp]
    th = threat_reference(game)
    after = [max(0.0, hp[s] - th[s]) for s in range(len(hp))]
    others = [after[s] for s in range(len(hp)) if s != seat and hp[s] > 0]
    # Hurting the leader matters most, but every rival counts a little (smoother choices).
    lead = after[seat] - ((max(others) + sum(others) / len(others)) / 2 if others else 0.0)
    if after[seat] <= 0:
        lead -= 100.0
    cards = game.rules.cards
    values = []
    for key, cnt in Counter(game.hands[seat]).items():
        known = min(cnt, known_hand.get(key, 0))
        v = CARD_VALUE_COUNTER if cards[key].timing == "counter" else CARD_VALUE_ATTACK
        values += [v] * known + [(CARD_VALUE_ATTACK + CARD_VALUE_COUNTER) / 2] * (cnt - known)
    # Cards beyond the hand limit will be discarded at the end of one's own turn: worth little.
    values.sort(reverse=True)
    limit = game._hand_limit[seat]
    value = sum(values[:limit]) + 0.1 * sum(values[limit:])
    if not game.region_spent[seat]:
        value += REGION_CARD_VALUE
    return lead + 0.4 * value


_UNKNOWN_CARD = (CARD_VALUE_ATTACK + CARD_VALUE_COUNTER) / 2


def evaluate(game: Game, seat: int, known_hand: Counter[str]) -> float:
    """Heuristic value of a state for ``seat``: HP lead, expected damage, cards in hand.

    Cards of ``seat``'s hand that are not in ``known_hand`` (drawn in a look-ahead) count as an
    average card. The same number as :func:`evaluate_reference`, computed faster.

    >>> from typhoon_edu import Game
    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    >>> evaluate(g, 1, Counter(g.hands[1])) == evaluate_reference(g, 1, Counter(g.hands[1]))
    True
    """
    if game.phase == "over":
        if game.players[seat] in game.winners_:
            return 1000.0 / len(game.winners_)
        return -1000.0
    lead = hp_lead(game._hp, threat(game), seat)
    timing = game._ctiming
    values = []
    for key, cnt in Counter(game.hands[seat]).items():
        known = min(cnt, known_hand.get(key, 0))
        v = CARD_VALUE_COUNTER if timing[key] == "counter" else CARD_VALUE_ATTACK
        values += [v] * known + [_UNKNOWN_CARD] * (cnt - known)
    values.sort(reverse=True)
    limit = game._hand_limit[seat]
    value = sum(values[:limit]) + 0.1 * sum(values[limit:])
    if not game.region_spent[seat]:
        value += REGION_CARD_VALUE
    return lead + 0.4 * value


class GreedyBot:
    """Looks one decision ahead and picks the action with the best heuristic value (the 'medium' opponent).

    The look-ahead runs on a copy that stops at every die roll, so it never sees future dice,
    and its evaluation uses public information and its own hand only.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        player = game.current_player
        if player == CHANCE or player is None:
            return self.rng.choice(actions)
        seat = game.players.index(player)
        known = Counter(game.hands[seat])
        best: list[Action] = []
        best_v = float("-inf")
        legal = game._legal  # every copy starts from this position, so this legal list is theirs too
        for a in actions:
            c = game.clone()
            c.dice = "manual"
            c._legal = legal
            c.apply(a)
            v = evaluate(c, seat, known)
            if v > best_v + 1e-9:
                best, best_v = [a], v
            elif v > best_v - 1e-9:
                best.append(a)
        return self.rng.choice(best)
