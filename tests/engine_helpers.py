"""Shared helpers for the engine tests: build positions, run dice, check illegal actions and invariants.

The map (16 x 12, ``typhoon_edu/data/map.toml``) cells the tests rely on:

- Taiwan ``(6, 5) (6, 6) (6, 7)``; Korea ``(6, 1) (7, 1) (6, 2) (7, 2)``;
  Japan ``(10, 1) (9, 2) (10, 2) (8, 3) (9, 3)``; Central China ``(4, 3) (5, 3) (4, 4) (5, 4)``;
  South China ``(4, 5) (2, 6) (3, 6) (4, 6)``; Philippines ``(6, 9) (6, 10) (7, 10) (7, 11)``.
- Generation zones: 1 = ``(8..9, 8..9)``, 2 = ``(11..12, 7..8)``, 3 = ``(14..15, 9..10)``.
- Open sea far from every region: the east, e.g. ``(13, 3)``, ``(14, 5)``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import pytest

from typhoon_edu import CHANCE, Game, IllegalActionError, load_rules
from typhoon_edu.engine.scenario import scenario

RULES = load_rules()
P3 = ["Taiwan", "Japan", "Korea"]
P4 = ["Taiwan", "Japan", "Korea", "Philippines"]
ALL6 = ["Taiwan", "Philippines", "Korea", "Central China", "South China", "Japan"]
COUNTER_CARDS = tuple(k for k, c in RULES.cards.items() if c.timing == "counter")


def scn(players: Sequence[str] = P3, *, hands: dict[str, list[str]] | None = None, **kw) -> Game:
    """A hand-built position; every player not named in ``hands`` gets an EMPTY hand.

    Empty hands keep counter windows from opening unless a test asks for them.
    """
    full = _EmptyFirst({p: [] for p in players})
    full.update(hands or {})
    return scenario(list(players), hands=full, **kw)


class _EmptyFirst(dict):
    """Hands for ``scenario``: every dealt hand goes back to the pile before any hand is given,
    so a test may ask for all copies of a card kind."""

    def items(self):
        return [(p, []) for p in self] + list(super().items())


def kinds(events: Iterable) -> list[str]:
    return [e.kind for e in events]


def of(events: Iterable, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def notations(game: Game) -> list[str]:
    return [a.notation for a in game.legal_actions()]


def assert_illegal(game: Game, action, *needles: str) -> str:
    """``action`` raises IllegalActionError whose message holds every needle; nothing changes."""
    before = game.digest()
    n_events, n_hist = len(game.events), len(game.history)
    phase, player = game.phase, game.current_player
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    msg = str(info.value)
    assert msg.strip(), "an illegal action needs an explanation"
    for needle in needles:
        assert needle.lower() in msg.lower(), f"{needle!r} not in the message {msg!r}"
    assert game.digest() == before, f"the illegal action {action!r} changed the state"
    assert len(game.events) == n_events and len(game.history) == n_hist
    assert (game.phase, game.current_player) == (phase, player)
    return msg


def pass_empty_windows(game: Game) -> list:
    """Pass every counter window whose owner has nothing to play (docs/rules.md §6 opens them anyway)."""
    out = []
    while game.phase == "counter" and [a.notation for a in game.legal_actions()] == ["pass"]:
        out.extend(game.apply("pass"))
    return out


def roll(game: Game, *faces: int, auto_pass: bool = True) -> list:
    """Answer die rolls (manual dice) with ``faces``; every face must meet a die roll.

    With ``auto_pass`` a counter window whose owner holds no playable counter card is passed,
    as a player with nothing to play would do.
    """
    out = []
    for f in faces:
        assert game.current_player == CHANCE, f"expected a die roll, the game is in {game.phase}"
        out.extend(game.apply(f))
        if auto_pass:
            out.extend(pass_empty_windows(game))
    return out


def setup_manual(players: Sequence[str] = P3, *, seed: int = 0, faces=(1, 1, 1), **kw) -> Game:
    """A manual-dice game taken through setup (first cells of the 3 zones, T1, T2, T3 aimed in order)."""
    g = Game.new(list(players), seed=seed, dice="manual", **kw)
    for cell in ("8,8", "11,7", "14,9"):
        g.apply(f"place {cell}")
    for tid, face in zip((1, 2, 3), faces, strict=True):
        if g.phase == "setup_aim":
            g.apply(f"aim T{tid}")
        roll(g, face)
    return g


def pass_attacks(game: Game) -> None:
    """Everyone passes in the attack phase."""
    while game.phase == "attack":
        game.apply("pass")


def card_count(game: Game) -> int:
    return game.draw_pile_size + len(game.discard_pile) + sum(len(game.hand(p)) for p in game.players)


def check_invariants(game: Game) -> None:
    """The engine's invariants (HP in range, the 54 cards accounted for, …), checked on any state."""
    rules = game.rules
    assert card_count(game) == 54
    for p in game.players:
        assert 0 <= game.hp[p] <= rules.regions[p].hp, (p, game.hp[p])
    ts = game.typhoons
    assert 0 <= len(ts) <= 8
    assert len({t.id for t in ts}) == len(ts)
    for t in ts:
        assert 1 <= t.level <= 5
        x, y = t.eye
        assert rules.map.on_map(x, y)
    if game.is_over:
        assert game.legal_actions() == []
        assert game.winners and set(game.winners) <= set(game.players)
        return
    legal = game.legal_actions()
    assert legal, f"no legal action in phase {game.phase}"
    cp = game.current_player
    if cp == CHANCE:
        assert game.phase.startswith("roll_")
        assert sorted(a.face for a in legal) == [1, 2, 3, 4, 5, 6]
    else:
        assert cp in game.players
        assert game.hp[cp] > 0, f"a decision was offered to the eliminated {cp}"
        assert all(a.kind != "die" for a in legal)
    assert game.active in game.players


def random_game(players: Sequence[str], seed: int, *, variant="standard", dice="auto", check=None) -> Game:
    """Play a whole random game, calling ``check(game, action)`` after every action."""
    g = Game.new(list(players), seed=seed, variant=variant, dice=dice)
    rng = random.Random(seed)
    while not g.is_over:
        a = rng.choice(g.legal_actions())
        g.apply(a)
        if check is not None:
            check(g, a)
    return g
