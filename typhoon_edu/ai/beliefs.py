"""What one player can infer about the others' hands from their public play.

A player who lets a big hit through while a counter card would have stopped it holds no such
card; one who passes in the attack phase holds no attack card that would have helped them much.
:class:`HandBeliefs` follows a game through its public history only (every action is public:
plays, passes, discards, die faces; the cards drawn are not in it) on a *public replay*: a copy
of the game whose hidden cards are made up and, whenever a player plays or discards a card the
copy had placed elsewhere, swapped so that the copy stays legal. The copy's public state (board,
HP, phases, hand sizes, discard pile) is then the real one at every step, while its hidden cards
mean nothing and are never used for an inference.

At each decision of another player it asks, for every card kind that player could have played
there, whether a greedy player (the evaluation of :class:`~typhoon_edu.ai.bots.GreedyBot`)
holding that card would have preferred playing it to what was actually done, by more than the
card's own worth in hand. If so, the player held no card of that kind at that moment. The belief
about a seat is then ``(excluded kinds, count)``: of the cards that seat holds now, ``count``
are known not to be of the excluded kinds (cards drawn since are unknown). A seat that later
plays a card its belief excludes, from the cards covered by it, is not playing greedily: its
belief is dropped.

The inference assumes greedy play; against other players it is at worst wrong, never a look at
hidden information.

>>> from typhoon_edu import Game
>>> from typhoon_edu.ai.bots import GreedyBot
>>> g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=3)
>>> bots = [GreedyBot(seed=i) for i in range(4)]
>>> while g.round < 3 and not g.is_over:
...     _ = g.apply(bots[g.decider].choose(g))
>>> b = HandBeliefs(0)
>>> b.update(g)
True
>>> all(count <= len(g.hands[s]) for s, (kinds, count) in b.beliefs().items())
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..engine.actions import Action
from ..engine.game import CHANCE_PHASES, Game
from .bots import CARD_VALUE_ATTACK, CARD_VALUE_COUNTER, REGION_CARD_VALUE, hp_lead, threat

_EPS = 1e-6


def public_value(game: Game, seat: int) -> float:
    """The greedy evaluation of ``seat`` without the cards in hand (those are hidden): HP lead and region card.

    :func:`typhoon_edu.ai.bots.evaluate` is this plus 0.4 × the worth of the cards in hand.
    """
    if game.phase == "over":
        return 1000.0 / len(game.winners_) if game.players[seat] in game.winners_ else -1000.0
    lead = hp_lead(game._hp, threat(game), seat)
    return lead + (0.4 * REGION_CARD_VALUE if not game.region_spent[seat] else 0.0)


def _worth(timing: str) -> float:
    """The most a card of this timing can add to the evaluation by staying in hand."""
    return 0.4 * (CARD_VALUE_COUNTER if timing == "counter" else CARD_VALUE_ATTACK)


def _after(game: Game, action: Action, seat: int) -> float:
    c = game.clone()
    c.dice = "manual"
    c.apply(action)
    return public_value(c, seat)


def excluded_kinds(game: Game, chosen: Action) -> frozenset[str]:
    """The card kinds the deciding player cannot hold, if it plays greedily and chose ``chosen`` here.

    Only public information is read: the hypothetical plays are listed on a copy that is given
    the card, and valued without any cards in hand.
    """
    seat = game.decider
    phase = game.phase
    if phase not in ("attack", "counter"):
        return frozenset()
    timing = "counter" if phase == "counter" else "attack"
    if game.fn_played[seat] >= 2 or game.region_turn[seat]:
        return frozenset()
    base = _after(game, chosen, seat)
    out = []
    for key, card in game.rules.cards.items():
        if card.timing != timing or key in game.names_played:
            continue
        probe = game.clone()
        probe.hands[seat] = [*probe.hands[seat], key]
        probe._legal = None
        plays = [a for a in probe.legal_actions() if a.kind == "play" and a.card == key]
        if chosen in plays:
            continue
        need = base + _worth(timing) + _EPS
        for a in plays:
            c = probe.clone()
            c.dice = "manual"
            c.apply(a)
            if public_value(c, seat) > need:
                out.append(key)
                break
    return frozenset(out)


class HandBeliefs:
    """The beliefs of the player in ``seat`` about the other players' hands, from the public history.

    Call :meth:`update` with the real game before each use; it replays only the actions it has
    not seen (or starts over when the history is not the one it followed). ``beliefs()`` maps a
    seat to ``(excluded kinds, count)``.
    """

    def __init__(self, seat: int, *, inference: bool = True) -> None:
        self.seat = seat
        self.inference = inference
        self._replay: Game | None = None
        self._seen: list[Action] = []
        self._key: tuple[object, ...] | None = None
        self._excluded: dict[int, frozenset[str]] = {}
        self._clean: dict[int, int] = {}
        self.valid = False

    def beliefs(self) -> dict[int, tuple[frozenset[str], int]]:
        """Per other seat: the kinds excluded and how many of its cards the exclusion covers."""
        if not self.valid:
            return {}
        return {s: (k, self._clean.get(s, 0)) for s, k in self._excluded.items() if k and self._clean.get(s, 0) > 0}

    def update(self, game: Game) -> bool:
        """Follow ``game``'s history; False (and no beliefs) when it cannot be followed from the start."""
        key = (game.players, game.variant, game.start_seat, id(game.rules))
        hist = game.history
        if getattr(game, "_scenario", False) or not hist:
            self.valid = False
            return False
        if (self._replay is None or key != self._key or len(hist) < len(self._seen)
                or hist[: len(self._seen)] != self._seen):
            self._start(game, key)
        assert self._replay is not None
        try:
            for a in hist[len(self._seen):]:
                self._step(a)
                self._seen.append(a)
        except Exception:  # an action the replay cannot follow: no beliefs rather than wrong ones
            self._replay = None
            self.valid = False
            return False
        self.valid = _same_public_state(self._replay, game)
        return self.valid

    # ------------------------------------------------------------------ the public replay
    def _start(self, game: Game, key: tuple[object, ...]) -> None:
        # A fixed seed: the made-up cards depend on nothing hidden (and are never used to infer).
        self._replay = Game.new(list(game.players), seed=0, variant=game.variant, dice="manual",
                                start=game.players[game.start_seat], rules=game.rules)
        self._replay._log = False
        self._seen = []
        self._key = key
        self._excluded = {}
        self._clean = {}

    def _step(self, a: Action) -> None:
        r = self._replay
        assert r is not None
        if r.phase in CHANCE_PHASES or a.kind == "die":
            r.apply(a)
            return
        s = r.decider
        if a.kind in ("play", "discard") and a.card is not None:
            ex = self._excluded.get(s)
            if ex and a.card in ex and self._clean.get(s, 0) >= len(r.hands[s]):
                self._excluded.pop(s, None)  # it held a card it should not have: not a greedy player
                self._clean.pop(s, None)
            self._make_holdable(s, a.card)
        if self.inference and s != self.seat and r.phase in ("attack", "counter"):
            kinds = excluded_kinds(r, a)
            if kinds:
                if self._clean.get(s, 0) >= len(r.hands[s]) and s in self._excluded:
                    self._excluded[s] = self._excluded[s] | kinds
                else:
                    self._excluded[s] = kinds
                self._clean[s] = len(r.hands[s])
        r.apply(a)
        if a.kind in ("play", "discard") and s in self._clean:
            self._clean[s] = max(0, self._clean[s] - 1)
        for seat in list(self._clean):
            self._clean[seat] = min(self._clean[seat], len(r.hands[seat]))

    def _make_holdable(self, seat: int, card: str) -> None:
        """Put ``card`` in the replay's hand of ``seat`` (swapped with one of its made-up cards)."""
        r = self._replay
        assert r is not None
        hand = r.hands[seat]
        if card in hand:
            return
        give = next((c for c in hand if c != card), None)
        if r.deck and card in r.deck:
            pile = r.deck
        else:
            pile = next((h for i, h in enumerate(r.hands) if i != seat and card in h), None)
        if pile is None or give is None:
            raise ValueError(f"the replay cannot find a {card} card to give to seat {seat}")
        pile[pile.index(card)] = give
        hand[hand.index(give)] = card
        r._legal = None


def _same_public_state(r: Game, g: Game) -> bool:
    return (r.phase == g.phase and r.round == g.round and r.active_seat == g.active_seat and r._hp == g._hp
            and [len(h) for h in r.hands] == [len(h) for h in g.hands] and r.discard == g.discard
            and len(r.deck) == len(g.deck)
            and [(t.id, t.cell, t.level, t.direction) for t in r.typhoons_]
            == [(t.id, t.cell, t.level, t.direction) for t in g.typhoons_])


def deal_with_beliefs(pool: Sequence[str], sizes: Mapping[int, int], beliefs: Mapping[int, tuple[frozenset[str], int]],
                      rng: random.Random) -> dict[int, list[str]]:
    """Deal the unseen cards ``pool`` (already shuffled) into hands of ``sizes``; the rest is the deck (key -1).

    A seat with a belief ``(kinds, count)`` gets ``count`` of its cards from the cards not of those
    kinds (as many as there are), the rest at random. The seats with beliefs are dealt first.

    >>> hands = deal_with_beliefs(["evacuation", "warm_ocean", "recurve", "dry_air"], {1: 2, 2: 1},
    ...                           {1: (frozenset({"evacuation", "recurve"}), 2)}, random.Random(0))
    >>> sorted(hands[1]), len(hands[2]) + len(hands[-1])
    (['dry_air', 'warm_ocean'], 2)
    """
    left = list(pool)
    out: dict[int, list[str]] = {}
    order = sorted(sizes, key=lambda s: (s not in beliefs, s))
    for s in order:
        n = sizes[s]
        hand: list[str] = []
        if s in beliefs:
            kinds, count = beliefs[s]
            count = min(count, n)
            keep = []
            for c in left:
                if len(hand) < count and c not in kinds:
                    hand.append(c)
                else:
                    keep.append(c)
            left = keep
        take = n - len(hand)
        hand += left[:take]
        left = left[take:]
        out[s] = hand
    out[-1] = left
    return out


__all__ = ["HandBeliefs", "deal_with_beliefs", "excluded_kinds", "public_value"]
