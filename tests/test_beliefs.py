"""Beliefs about rivals' hands: inferred from public play only, and never contradicted by a greedy rival's real hand."""

from __future__ import annotations

import random
from collections import Counter

from typhoon_edu.ai.beliefs import HandBeliefs, deal_with_beliefs, excluded_kinds
from typhoon_edu.ai.bots import GreedyBot
from typhoon_edu.engine.game import Game
from typhoon_edu.engine.scenario import scenario

REGIONS = ["Taiwan", "Japan", "Korea", "Philippines", "SouthChina", "CentralChina"]


def _games(n: int):
    for seed in range(n):
        players = random.Random(seed).sample(REGIONS, 4)
        g = Game.new(players, seed=seed)
        g._log = False
        yield g, [GreedyBot(seed=seed * 10 + i) for i in range(4)]


def test_inferences_hold_for_greedy_rivals() -> None:
    checked = 0
    counter_kinds = 0
    for g, bots in _games(12):
        b = HandBeliefs(0)
        while not g.is_over:
            if g.decider == 0 and g.phase in ("attack", "counter"):
                assert b.update(g)
                for s, (kinds, count) in b.beliefs().items():
                    assert s != 0 and 0 < count <= len(g.hands[s])
                    # at least `count` of the real cards are of kinds the belief allows
                    assert sum(c not in kinds for c in g.hands[s]) >= count
                    checked += 1
                    counter_kinds += any(g.rules.cards[k].timing == "counter" for k in kinds)
            g.apply(bots[g.decider].choose(g))
    assert checked > 100 and counter_kinds > 0


def test_beliefs_come_from_public_play_only() -> None:
    g, bots = next(_games(1))
    while g.round < 3:
        g.apply(bots[g.decider].choose(g))
    v = g.clone(keep_log=True)
    pool = [c for s, h in enumerate(g.hands) if s != 0 for c in h] + list(g.deck)
    random.Random(2).shuffle(pool)
    i = 0
    for s in range(1, 4):
        v.hands[s] = pool[i:i + len(g.hands[s])]
        i += len(g.hands[s])
    v.deck = pool[i:]
    v.seed += 77
    a, b = HandBeliefs(0), HandBeliefs(0)
    assert a.update(g) and b.update(v)
    assert a.beliefs() == b.beliefs() and a.beliefs()


def test_no_history_no_beliefs() -> None:
    g, bots = next(_games(1))
    for _ in range(30):
        g.apply(bots[g.decider].choose(g))
    b = HandBeliefs(0)
    assert not b.update(g.clone())  # a copy without its history cannot be followed
    assert b.beliefs() == {}
    assert not HandBeliefs(0).update(scenario(["Taiwan", "Japan", "Korea"], typhoons=[((8, 6), 3, "WSW")]))


def test_following_a_game_step_by_step_equals_following_it_at_once() -> None:
    g, bots = next(_games(1))
    step = HandBeliefs(1)
    while not g.is_over:
        step.update(g)
        g.apply(bots[g.decider].choose(g))
    once = HandBeliefs(1)
    assert step.update(g) and once.update(g)
    assert step.beliefs() == once.beliefs()


def test_a_pass_under_a_big_hit_rules_out_cancelling_cards() -> None:
    g = scenario(["Taiwan", "Japan", "Korea"], typhoons=[((8, 6), 4, "WSW")], hands={"Taiwan": ["dry_air"]},
                 active="Japan", phase="move")
    while g.phase != "counter":
        g.apply(g.legal_actions()[0] if g.phase != "roll_move" else 4)
    assert g.players[g.decider] == "Taiwan"
    kinds = excluded_kinds(g, g.legal_actions()[-1])  # Taiwan passes while a strong typhoon crosses it
    assert {"evacuation", "flood_defences"} <= kinds


def test_dealing_with_beliefs_keeps_every_card_and_the_sizes() -> None:
    rng = random.Random(5)
    pool = ["evacuation"] * 3 + ["recurve"] * 2 + ["warm_ocean"] * 4 + ["dry_air"] * 3
    rng.shuffle(pool)
    sizes = {1: 4, 2: 3, 3: 2}
    beliefs = {2: (frozenset({"evacuation", "recurve"}), 3)}
    dealt = deal_with_beliefs(pool, sizes, beliefs, rng)
    assert {s: len(h) for s, h in dealt.items() if s >= 0} == sizes
    assert Counter(c for h in dealt.values() for c in h) == Counter(pool)
    assert not {"evacuation", "recurve"} & set(dealt[2])
