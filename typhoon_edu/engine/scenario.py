"""Build a game in a chosen position: typhoons, hands and HP placed by hand.

For focused tests, lesson sandboxes and "what if" questions. A scenario skips setup, so it
has no replayable history: it cannot be saved or undone past its start.

>>> g = scenario(["Taiwan", "Japan", "Korea"], typhoons=[((8, 6), 3, "W")], phase="move")
>>> g.phase, g.current_player, [t.eye for t in g.typhoons]
('roll_move', 'chance', [(8, 6)])
>>> [e.kind for e in g.apply(2)][:3]
['DieRolled', 'MoveStarted', 'TyphoonStepped']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .game import Game, Typhoon
from .rules import GameInputError, Rules


def scenario(
    players: Sequence[str],
    *,
    typhoons: Iterable[tuple[tuple[int, int], int, str]] = (),
    hands: Mapping[str, Sequence[str]] | None = None,
    hp: Mapping[str, int] | None = None,
    active: str | None = None,
    phase: str = "attack",
    compass: str | None = None,
    round: int = 1,
    dice: str = "manual",
    seed: int = 0,
    rules: Rules | None = None,
) -> Game:
    """A game at the start of the attack phase (``phase="attack"``) or the move phase (``"move"``).

    ``typhoons`` are ``((x, y), level, direction)``; ``hands`` replace the dealt hands (cards come
    from the draw pile, so the 54 cards stay in play); ``hp`` overrides starting HP.
    """
    if phase not in ("attack", "move"):
        raise GameInputError(f"a scenario starts in the 'attack' or 'move' phase, not {phase!r}", kind="scenario_phase",
                             value=f"{phase!s:.20}")
    g = Game.new(players, seed=seed, dice=dice, start=active, rules=rules)
    g._scenario = True  # type: ignore[attr-defined]
    b = g._b
    g.typhoons_ = []
    g.pending_dir, g.setup_zones = (), ()
    for (x, y), level, direction in typhoons:
        if not g.rules.map.on_map(x, y):
            raise GameInputError(f"({x}, {y}) is off the map", kind="off_map", x=x, y=y)
        if not 1 <= level <= 5 or direction not in g.rules.points:
            raise GameInputError(f"a typhoon needs a level 1-5 and one of the 16 directions; got {level}, {direction!r}",
                                 kind="scenario_typhoon")
        g.typhoons_.append(Typhoon(g.next_id, b.index((x, y)), level, direction, b.width))
        g.next_id += 1
    if hands:
        for region, cards in hands.items():
            seat = g._seat(region)
            g.deck.extend(g.hands[seat])
            g.hands[seat] = []
            for key in cards:
                if key not in g.deck:
                    raise GameInputError(f"no {key!r} card left in the draw pile to give to {region}",
                                         kind="scenario_card", card=str(key), region=str(region))
                g.deck.remove(key)
                g.hands[seat].append(key)
    for region, value in (hp or {}).items():
        g._set_hp(g._seat(region), value)
    if compass is not None:
        g.compass_i = g.rules.ring.index(compass)
    g.round = round
    g.history, g.events = [], []
    g._turn_reset()
    n = len(g.players)
    a = g.active_seat
    if phase == "attack":
        queue = tuple((a + i) % n for i in range(n) if g._hp[(a + i) % n] > 0)
        g.decider, g.attack_queue = queue[0], queue[1:]
        g.phase = "attack"
    else:
        g._begin_moves()
    g._legal = None
    g._run()
    return g
