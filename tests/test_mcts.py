"""The hard bot (typhoon_edu.ai.mcts): legal, reproducible, blind to hidden information, harmless."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from typhoon_edu.ai.bots import GreedyBot, evaluate, threat
from typhoon_edu.ai.mcts import MCTSBot, fast_threat, fast_value
from typhoon_edu.engine.game import Game

PLAYERS = ["Taiwan", "Japan", "Korea", "Philippines"]
PHASES = ("setup_place", "setup_aim", "refill", "attack", "counter", "move_choose", "discard")


def _positions(max_games: int = 30) -> dict[str, list[Game]]:
    """Positions (copies with their dice generator) with a real choice, by phase, from greedy games."""
    found: dict[str, list[Game]] = {}
    for seed in range(max_games):
        g = Game.new(PLAYERS, seed=seed)
        g._log = False
        bots = {p: GreedyBot(seed=i) for i, p in enumerate(g.players)}
        while not g.is_over:
            if len(g.legal_actions()) > 1 and len(found.get(g.phase, [])) < 3:
                found.setdefault(g.phase, []).append(_copy(g))
            g.apply(bots[g.current_player].choose(g))
        if all(len(found.get(p, [])) >= 2 for p in PHASES):
            break
    return found


def _copy(g: Game) -> Game:
    c = g.clone()
    c.dice = g.dice
    c._rng = random.Random(g.seed * 7_919 + g._rolls + 1)  # a real game's future dice, as the engine makes them
    return c


@pytest.fixture(scope="module")
def positions() -> dict[str, list[Game]]:
    return _positions()


def _hidden_variant(g: Game, seed: int) -> Game:
    """The same position for the deciding player, but other hands, deck order, seed and future dice."""
    v = _copy(g)
    me = g.decider
    pool = [c for s, h in enumerate(g.hands) if s != me for c in h] + list(g.deck)
    random.Random(seed).shuffle(pool)
    i = 0
    for s in range(len(g.players)):
        if s != me:
            v.hands[s] = pool[i:i + len(g.hands[s])]
            i += len(g.hands[s])
    v.deck = pool[i:]
    v.seed = g.seed + 1_000 + seed
    v._rng = random.Random(v.seed)
    return v


def test_every_phase_is_covered(positions: dict[str, list[Game]]) -> None:
    assert set(PHASES) <= set(positions)


@pytest.mark.parametrize("phase", PHASES)
def test_returns_a_legal_action_in_every_phase(positions: dict[str, list[Game]], phase: str) -> None:
    for g in positions[phase][:2]:
        for mode in ("flat", "tree"):
            a = MCTSBot(iterations=12, seed=3, mode=mode).choose(g)
            assert a in g.legal_actions()


def test_deterministic_for_a_seed_and_budget(positions: dict[str, list[Game]]) -> None:
    for phase in ("attack", "discard", "refill"):
        g = positions[phase][0]
        for mode in ("flat", "tree"):
            a = MCTSBot(iterations=18, seed=7, mode=mode).choose(g)
            b = MCTSBot(iterations=18, seed=7, mode=mode).choose(g)
            assert a == b


def test_never_reads_hidden_information(positions: dict[str, list[Game]]) -> None:
    for phase in ("attack", "counter", "discard", "move_choose"):
        g = positions[phase][0]
        v = _hidden_variant(g, seed=99)
        assert v.observation(v.current_player) == g.observation(g.current_player)
        assert v.hands != g.hands or v.deck != g.deck
        assert v.digest() != g.digest()
        for mode in ("flat", "tree"):
            assert MCTSBot(iterations=18, seed=5, mode=mode).choose(g) == \
                MCTSBot(iterations=18, seed=5, mode=mode).choose(v)


def test_does_not_change_the_game(positions: dict[str, list[Game]]) -> None:
    for phase in ("attack", "counter", "discard"):
        g = positions[phase][0]
        before = g.digest()
        rng_state = g._rng.getstate()  # type: ignore[union-attr]
        n_hist = len(g.history)
        MCTSBot(iterations=18, seed=1, mode="flat").choose(g)
        MCTSBot(iterations=18, seed=1, mode="tree").choose(g)
        assert g.digest() == before
        assert g._rng.getstate() == rng_state  # type: ignore[union-attr]
        assert len(g.history) == n_hist and g.dice == "auto"


def test_forced_decision_returns_at_once(positions: dict[str, list[Game]]) -> None:
    g = _copy(positions["discard"][0])
    hand = g.hands[g.active_seat]
    g.hands[g.active_seat] = [hand[0]] * len(hand)  # only one kind of card to discard
    g._legal = None
    assert len(g.legal_actions()) == 1
    bot = MCTSBot(iterations=500, seed=0)
    assert bot.choose(g) == g.legal_actions()[0]
    assert bot.last_iterations == 0


def test_time_limit_stops_the_search(positions: dict[str, list[Game]]) -> None:
    g = positions["attack"][0]
    bot = MCTSBot(time_limit=0.05, seed=0)
    assert bot.choose(g) in g.legal_actions()
    assert bot.last_iterations >= 1


@pytest.mark.parametrize(("horizon", "turns"), [("turn", 1), ("two_turns", 2), ("round", 4)])
def test_play_outs_stop_at_the_horizon(positions: dict[str, list[Game]], horizon: str, turns: int) -> None:
    """A play-out from the attack phase ends when the horizon's number of turns has begun."""
    g = positions["attack"][0]
    assert all(h > 0 for h in g._hp)
    bot = MCTSBot(iterations=6, seed=2, horizon=horizon)
    rng = random.Random(4)
    n = len(g.players)
    ended = 0
    for _ in range(5):
        d = bot.determinize(g, g.decider, rng)
        bot._rollout(d, g.decider, rng)
        if d.phase == "over" or any(h <= 0 for h in d._hp):
            continue  # an elimination or the end of the game changes the count
        start = (g.round - 1) * n + (g.active_seat - g.start_seat) % n
        now = (d.round - 1) * n + (d.active_seat - d.start_seat) % n
        assert now - start == turns
        ended += 1
    assert ended


def test_game_horizon_plays_to_the_end(positions: dict[str, list[Game]]) -> None:
    """With ``horizon="game"`` a play-out ends only when the game does, and scores a win or a loss."""
    g = positions["attack"][0]
    bot = MCTSBot(iterations=6, seed=2, horizon="game")
    rng = random.Random(4)
    for _ in range(3):
        d = bot.determinize(g, g.decider, rng)
        v = bot._rollout(d, g.decider, rng)
        assert d.phase == "over"
        share = 1 / len(d.winners) if g.players[g.decider] in d.winners else 0
        assert v == (150.0 * share if share else -150.0)


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError):
        MCTSBot(iterations=0)
    with pytest.raises(ValueError):
        MCTSBot(time_limit=-1)
    with pytest.raises(ValueError):
        MCTSBot(mode="minimax")
    with pytest.raises(ValueError, match="horizon"):
        MCTSBot(horizon="century")


def test_fast_heuristic_matches_the_greedy_one(positions: dict[str, list[Game]]) -> None:
    for games in positions.values():
        for g in games:
            assert fast_threat(g) == pytest.approx(threat(g))
            for s in range(len(g.players)):
                assert fast_value(g, s) == pytest.approx(evaluate(g, s, Counter(g.hands[s])))


def test_plays_a_whole_game() -> None:
    from typhoon_edu.ai.play import play_game

    r = play_game([MCTSBot(iterations=6, seed=1), GreedyBot(2), GreedyBot(3)], seed=12,
                  regions=["Taiwan", "Japan", "Korea"])
    assert r.winners and set(r.winners) <= set(r.hp)


def test_in_the_last_turns_the_default_bot_plays_on_to_the_end_of_the_game() -> None:
    """``endgame`` (8 turns by default): near the end only a win counts, so play-outs run to the end."""
    from typhoon_edu.ai.mcts import DEFAULT_ENDGAME, turns_left

    g = Game.new(PLAYERS, seed=3)
    bots = {p: GreedyBot(seed=i) for i, p in enumerate(g.players)}
    while not (g.phase == "attack" and turns_left(g) <= DEFAULT_ENDGAME):
        g.apply(bots[g.current_player].choose(g))
    assert DEFAULT_ENDGAME == MCTSBot().endgame == 8 and turns_left(g) > 1
    rng = random.Random(5)
    d = MCTSBot(iterations=6, seed=2).determinize(g, g.decider, rng)
    v = MCTSBot(iterations=6, seed=2)._rollout(d, g.decider, rng)
    assert d.phase == "over" and v in (-150.0, 150.0, 75.0, 50.0, 37.5)
    e = MCTSBot(iterations=6, seed=2, endgame=0).determinize(g, g.decider, rng)
    MCTSBot(iterations=6, seed=2, endgame=0)._rollout(e, g.decider, rng)
    assert e.phase != "over"  # without it, the play-out stops at the end of this turn
