"""Events: what happened, as data (never prose). Views animate them; ``typhoon_edu.i18n`` narrates them.

Every event is an immutable record with a ``kind`` class attribute and JSON-able fields.
Cells are ``(x, y)`` tuples, typhoons are named by id (``1`` is shown as ``T1``), players by
region key. ``private_to`` marks the one event whose details only one player may see.

>>> e = TyphoonStepped(typhoon=2, step=1, letter="N", frm=(8, 8), to=(8, 7), level=1)
>>> e.kind, event_to_dict(e)["to"]
('TyphoonStepped', [8, 7])
>>> e
TyphoonStepped(typhoon=2, step=1, letter='N', frm=(8, 8), to=(8, 7), level=1)
>>> [f.name for f in fields(e)][:3]
['typhoon', 'step', 'letter']

Why a tuple underneath: the engine makes two or three events per decision when it keeps its
log, and a tuple is the cheapest immutable record Python builds (about 4x cheaper than a
frozen slots dataclass, measured in docs/engine_speed.md). The records still behave as the
frozen dataclasses they were: keyword or positional construction with defaults, the same
``repr``, ``dataclasses.fields()`` (and ``asdict``/``replace``), equality and hashing that
include the event's type (``Eliminated("Japan") != TurnEnded("Japan")``), no assignments.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import itemgetter
from typing import Any, ClassVar

Cell = tuple[int, int]

_tuple_new = tuple.__new__
_tuple_eq = tuple.__eq__
_tuple_hash = tuple.__hash__


class Event(tuple):  # type: ignore[type-arg]
    """The base of every event: an immutable record (a tuple underneath) with named fields."""

    __slots__ = ()
    kind: ClassVar[str] = "Event"
    __dataclass_fields__: ClassVar[dict[str, Any]] = {}
    _fields: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and _tuple_eq(self, other)  # type: ignore[arg-type]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.kind, _tuple_hash(self)))

    def __repr__(self) -> str:
        return f"{self.kind}({', '.join(f'{n}={v!r}' for n, v in zip(self._fields, self, strict=True))})"

    def __getnewargs__(self) -> tuple[Any, ...]:  # copy and pickle rebuild it through __new__
        return tuple(self)

    # a record, not a sequence: ordering comparisons are refused, as a dataclass refuses them
    def __lt__(self, other: object) -> bool:
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__


EVENT_TYPES: dict[str, type] = {}


def _event(cls: type) -> type:
    """Turn a class body of annotated fields (with optional defaults) into an event type."""
    name = cls.__name__
    names = tuple(n for n in cls.__dict__.get("__annotations__", {}))
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    # the same fields as a frozen dataclass would have, for dataclasses.fields() and friends
    shadow = dataclass(frozen=True)(type(name, (), {"__annotations__": dict(cls.__annotations__), **defaults}))
    namespace: dict[str, Any] = {"_tuple_new": _tuple_new}
    params = []
    for n in names:
        if n in defaults:
            namespace[f"_default_{n}"] = defaults[n]
            params.append(f"{n}=_default_{n}")
        else:
            params.append(n)
    comma = "," if len(names) == 1 else ""
    exec(f"def __new__(cls, {', '.join(params)}):\n    return _tuple_new(cls, ({', '.join(names)}{comma}))\n",
         namespace)
    new = namespace["__new__"]
    new.__qualname__ = f"{name}.__new__"
    new.__module__ = cls.__module__
    body: dict[str, Any] = {
        "__slots__": (),
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__doc__": cls.__doc__ or f"{name}({', '.join(names)})",
        "__annotations__": dict(cls.__annotations__),
        "__new__": new,
        "__match_args__": names,
        "__dataclass_fields__": shadow.__dataclass_fields__,
        "__dataclass_params__": shadow.__dataclass_params__,  # type: ignore[attr-defined]
        "_fields": names,
        "kind": name,
    }
    for i, n in enumerate(names):
        body[n] = property(itemgetter(i), doc=f"field {n}")
    made = type(name, (Event,), body)
    EVENT_TYPES[name] = made
    return made


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
    purpose: str  # "direction", "move", "zone", "cell"; "zone_again", "cell_again": a face that picks nothing, rolled again
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

