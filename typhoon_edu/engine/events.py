"""Events: what happened, as data (never prose). Views animate them; ``typhoon_edu.i18n`` narrates them.

Every event is a frozen dataclass with a ``kind`` class attribute and JSON-able fields.
Cells are ``(x, y)`` tuples, typhoons are named by id (``1`` is shown as ``T1``), players by
region key. ``private_to`` marks the one event whose details only one player may see.

>>> e = TyphoonStepped(typhoon=2, step=1, letter="N", frm=(8, 8), to=(8, 7), level=1)
>>> e.kind, event_to_dict(e)["to"]
('TyphoonStepped', [8, 7])
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "Event"


EVENT_TYPES: dict[str, type] = {}


def _event(cls: type) -> type:
    cls.kind = cls.__name__
    made = dataclass(frozen=True, slots=True)(cls)
    made.__init__ = _slot_init(made)
    EVENT_TYPES[cls.__name__] = made
    return made


def _slot_init(cls: type) -> Any:
    """An ``__init__`` for a frozen slots dataclass that does what the generated one does, faster.

    The dataclass's own ``__init__`` stores each field with ``object.__setattr__(self, name,
    value)`` (its ``__setattr__`` refuses), which finds the slot by name every time; this one
    calls each slot descriptor's ``__set__`` directly, which makes building an event about 40%
    cheaper (the engine builds two or three per decision when it keeps its log). Same
    parameters, defaults and annotations; the class, its ``__eq__``, ``__hash__``, ``__repr__``,
    ``fields()`` and its refusal of assignments are the dataclass's own, untouched.
    """
    params, body = [], []
    namespace: dict[str, Any] = {}
    for f in fields(cls):
        assert f.init and f.default_factory is MISSING, f"{cls.__name__}.{f.name}: not supported"
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})\n")
    exec(f"def __init__(self, {', '.join(params)}):\n" + ("".join(body) or "    pass\n"), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {**cls.__init__.__annotations__}
    return init


@_event
class GameStarted(Event):
    players: tuple[str, ...]
    variant: str
    start: str


@_event
class TurnStarted(Event):
    player: str
    round: int


@_event
class RoundStarted(Event):
    round: int


@_event
class DeckReshuffled(Event):
    cards: int  # how many cards of the discard pile went into the draw pile
    under: bool  # True: put under the last card (deck upkeep); False: a new pile


@_event
class CardsDrawn(Event):
    player: str
    count: int
    cards: tuple[str, ...]  # hidden from everyone but `player` (see filter_events)
    lost: int = 0  # draws lost because both piles were empty


@_event
class TyphoonPlaced(Event):
    typhoon: int
    cell: Cell
    level: int
    by: str


@_event
class DieRolled(Event):
    face: int
    purpose: str  # "direction", "move", "zone", "cell"
    typhoon: int | None = None


@_event
class DirectionRolled(Event):
    typhoon: int
    start: str
    face: int
    stop: str


@_event
class CardPlayed(Event):
    player: str
    card: str
    restricted: bool
    typhoon: int | None = None
    cell: Cell | None = None
    direction: str | None = None
    counter: bool = False


@_event
class AbilityUsed(Event):
    player: str
    ability: str
    typhoon: int | None = None


@_event
class Passed(Event):
    player: str
    counter: bool = False


@_event
class LevelChanged(Event):
    typhoon: int
    old: int
    new: int
    cause: str  # a card key, an ability key, "landfall", "growth", "merge"


@_event
class DirectionChanged(Event):
    typhoon: int
    old: str
    new: str
    cause: str


@_event
class TyphoonHeld(Event):
    typhoon: int


@_event
class RollModified(Event):
    typhoon: int
    delta: int
    replaced: bool  # an alike effect on the same typhoon was replaced


@_event
class Healed(Event):
    player: str
    amount: int
    hp: int


@_event
class ShieldRaised(Event):
    player: str
    shield: str


@_event
class TyphoonPushed(Event):
    typhoon: int
    frm: Cell
    to: Cell | None  # None: blown off the map


@_event
class MoveStarted(Event):
    typhoon: int
    face: int
    steps: int
    held: bool = False


@_event
class TyphoonStepped(Event):
    typhoon: int
    step: int
    letter: str
    frm: Cell
    to: Cell | None  # None: the eye left the map
    level: int


@_event
class CounterWindow(Event):
    player: str
    typhoon: int


@_event
class RegionHit(Event):
    player: str
    typhoon: int
    hits: int
    level: int


@_event
class DamageDealt(Event):
    player: str
    typhoon: int
    hits: int
    amount: int
    bonus: int
    hp: int
    modifier: str | None = None  # "cancelled", "halved", a shield key, or None


@_event
class Landfall(Event):
    typhoon: int
    old: int
    new: int  # 0: removed


@_event
class Merged(Event):
    survivor: int
    absorbed: int
    level: int
    direction: str


@_event
class Intensified(Event):
    typhoon: int
    level: int


@_event
class TyphoonRemoved(Event):
    typhoon: int
    reason: str  # "edge", "landfall", "weakened", "merged", "card"
    cell: Cell | None


@_event
class Discarded(Event):
    player: str
    card: str


@_event
class Eliminated(Event):
    player: str


@_event
class TurnEnded(Event):
    player: str


@_event
class GameOver(Event):
    winners: tuple[str, ...]
    reason: str  # "rounds" or "last_standing" or "all_out"


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-able dict of an event (tuples become lists), with its ``kind``."""
    out: dict[str, Any] = {"kind": event.kind}
    for f in fields(event):
        value = getattr(event, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def filter_events(events: list[Event], viewer: str | None) -> list[Event]:
    """The events as ``viewer`` may see them: other players' drawn cards are blanked.

    >>> evs = [CardsDrawn("Japan", 1, ("recurve",)), CardsDrawn("Korea", 1, ("dry_air",))]
    >>> [e.cards for e in filter_events(evs, "Japan")]
    [('recurve',), ()]
    """
    out = []
    for e in events:
        if isinstance(e, CardsDrawn) and e.player != viewer and e.cards:
            e = CardsDrawn(e.player, e.count, (), e.lost)
        out.append(e)
    return out

