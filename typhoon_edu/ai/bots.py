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
from ..engine.game import CHANCE, Game, Typhoon

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


def threat(game: Game) -> list[float]:
    """Expected damage to each seat from the next move of every typhoon (a one-turn forecast)."""
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
        for s, d in m.dmg.items():
            extra = total[s]
            done = d + extra
            if s in m.cancel:
                done = 0.0
            elif s in m.halve:
                done /= 2
            total[s] = done
    return total


def evaluate(game: Game, seat: int, known_hand: Counter[str]) -> float:
    """Heuristic value of a state for ``seat``: HP lead, expected damage, cards in hand."""
    if game.is_over:
        me = game.players[seat]
        if me in game.winners:
            return 1000.0 / len(game.winners)
        return -1000.0
    hp = [max(0.0, float(h)) for h in game._hp]
    th = threat(game)
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
        for a in actions:
            c = game.clone()
            c.dice = "manual"
            c.apply(a)
            v = evaluate(c, seat, known)
            if v > best_v + 1e-9:
                best, best_v = [a], v
            elif v > best_v - 1e-9:
                best.append(a)
        return self.rng.choice(best)
