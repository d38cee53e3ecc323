"""What one view may show, as plain data built from the engine's ``observation(region)``.

A seat's phone is built from its own observation only (its hand, its legal actions, the public
state), and the projector from the public part of an observation (no hand at all), so a view
never holds another seat's cards or the deck order. :class:`Table` answers the few questions the
texts need (``phase``, ``current_player``, ``typhoon(id)``, ``legal_actions()``) in the same
words as a :class:`~typhoon_edu.engine.game.Game`, so :mod:`typhoon_edu.describe` works on it.

>>> from typhoon_edu import Game
>>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
>>> seat = Table.for_seat(g, "Taiwan")
>>> seat.you, seat.phase, len(seat.hand_cards) == len(g.hand("Taiwan")), seat.legal_actions()[0].notation
('Taiwan', 'setup_place', True, 'place 8,8')
>>> public = Table.public(g)
>>> public.you, public.hand_cards, public.legal_actions()
(None, (), [])
>>> public.hand("Taiwan")
Traceback (most recent call last):
...
PermissionError: this view belongs to the projector; it holds no other hand
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...engine import events as ev
from ...engine.actions import Action, parse_action
from ...engine.game import CHANCE

#: Phases in which a person decides with the cards of their own hand: never on the public table.
HAND_PHASES = frozenset({"attack", "counter", "discard"})

if TYPE_CHECKING:
    from ...engine.game import Game
    from ...engine.rules import Rules


@dataclass(frozen=True)
class TyphoonInfo:
    """A typhoon as everyone sees it."""

    id: int
    eye: tuple[int, int]
    level: int
    direction: str | None
    held: bool = False


@dataclass
class Table:
    """The public state, plus one seat's hand and decisions when ``you`` is set."""

    rules: Rules
    players: tuple[str, ...]
    variant: str
    round: int
    active: str
    phase: str
    current_player: str | None
    compass: str
    hp: dict[str, int]
    hand_sizes: dict[str, int]
    region_card_used: dict[str, bool]
    draw_pile_size: int
    discard_pile: tuple[str, ...]
    typhoons: tuple[TyphoonInfo, ...]
    winners: tuple[str, ...]
    events: tuple[ev.Event, ...] = ()
    you: str | None = None
    hand_cards: tuple[str, ...] = ()
    hand_hidden: bool = False  # ``you``'s hand is not shown (decided on the projector, before the class)
    legal: tuple[Action, ...] = ()
    seq: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_observation(cls, obs: dict[str, Any], rules: Rules, events: tuple[ev.Event, ...] = (),
                         private: bool = True, seq: int = 0) -> Table:
        """A table from ``Game.observation(region)``; ``private=False`` drops the hand and the decisions."""
        return cls(
            rules=rules,
            players=tuple(obs["players"]),
            variant=obs["variant"],
            round=int(obs["round"]),
            active=obs["active"],
            phase=obs["phase"],
            current_player=obs["current_player"],
            compass=obs["compass"],
            hp={str(k): int(v) for k, v in obs["hp"].items()},
            hand_sizes={str(k): int(v) for k, v in obs["hand_sizes"].items()},
            region_card_used={str(k): bool(v) for k, v in obs["region_card_used"].items()},
            draw_pile_size=int(obs["draw_pile_size"]),
            discard_pile=tuple(obs["discard_pile"]),
            typhoons=tuple(TyphoonInfo(int(t["id"]), (int(t["eye"][0]), int(t["eye"][1])), int(t["level"]),
                                       t["direction"], bool(t.get("held", False))) for t in obs["typhoons"]),
            winners=tuple(obs["winners"]),
            events=tuple(events),
            you=obs["you"] if private else None,
            hand_cards=tuple(obs["hand"]) if private else (),
            legal=tuple(parse_action(a) for a in obs["legal_actions"]) if private else (),
            seq=seq,
        )

    @classmethod
    def for_seat(cls, game: Game, region: str, seq: int = 0) -> Table:
        """What ``region``'s own device shows."""
        return cls.from_observation(game.observation(region), game.rules, tuple(game.visible_events(region)), seq=seq)

    @classmethod
    def public(cls, game: Game, seq: int = 0, decider: str | None = None) -> Table:
        """What the projector shows: no hand; with ``decider``, that seat's decisions (not its cards).

        The decisions of a person deciding on the projector itself (placing a storm, choosing which
        storm moves next) are public; a decision among the cards of a hand is shown only behind the
        curtain, from :meth:`for_seat`.
        """
        anyone = game.players[0]
        table = cls.from_observation(game.observation(anyone), game.rules, tuple(game.visible_events(None)),
                                     private=False, seq=seq)
        if decider is not None and game.current_player in (decider, CHANCE) and game.phase not in HAND_PHASES:
            table.legal = tuple(game.legal_actions())
        return table

    # ------------------------------------------------------------------ the Game-like questions
    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    def legal_actions(self) -> list[Action]:
        return list(self.legal)

    def hand(self, region: str) -> list[str]:
        """The hand of the seat this table belongs to (no other hand is ever here)."""
        if region != self.you:
            raise PermissionError(f"this view belongs to {self.you or 'the projector'}; it holds no other hand")
        return list(self.hand_cards)

    def typhoon(self, tid: int) -> TyphoonInfo:
        for t in self.typhoons:
            if t.id == tid:
                return t
        raise KeyError(tid)

    @property
    def move_typhoon(self) -> int | None:
        """The storm whose move is in progress (for a counter window's prompt), from the public events."""
        if self.phase not in ("counter", "roll_move", "move_choose"):
            return None
        for e in reversed(self.events):
            if isinstance(e, ev.CounterWindow | ev.MoveStarted):
                return e.typhoon
            if isinstance(e, ev.TurnStarted):
                break
        return None
