"""What the board shows: typhoons, a path preview, highlights, a trail, as plain immutable data.

``BoardState`` is built from a game (duck-typed: anything with ``.typhoons`` whose items have
``.id``, ``.eye``, ``.level`` and ``.direction``) and moved forward by the engine's events, one
frame per board change, which is how the board animates a move cell by cell.

>>> from typhoon_edu.engine import events as ev
>>> s = BoardState(typhoons=(TyphoonView(1, (8, 8), 1, "NNW"),))
>>> frames = animation_frames(s, [ev.MoveStarted(1, 2, 2),
...     ev.TyphoonStepped(1, 1, "N", (8, 8), (8, 7), 1), ev.TyphoonStepped(1, 2, "N", (8, 7), (8, 6), 1)])
>>> [f.typhoon(1).eye for f in frames]  # start, move announced, step 1, step 2
[(8, 8), (8, 8), (8, 7), (8, 6)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

Cell = tuple[int, int]


@dataclass(frozen=True)
class TyphoonView:
    """One typhoon as the board draws it."""

    id: int
    eye: Cell
    level: int
    direction: str | None = None


@dataclass(frozen=True)
class PathPreview:
    """The path a typhoon would take from ``start`` heading ``direction`` for ``pips`` steps."""

    start: Cell
    direction: str
    pips: int
    level: int = 1


@dataclass(frozen=True)
class BoardState:
    """Everything the dynamic layer of the board draws."""

    typhoons: tuple[TyphoonView, ...] = ()
    path: PathPreview | None = None
    highlights: tuple[Cell, ...] = ()
    trail: tuple[Cell, ...] = ()  # cells the moving typhoon has visited during this move
    moving: int | None = None  # id of the typhoon being animated

    def typhoon(self, tid: int) -> TyphoonView | None:
        """The typhoon with id ``tid``, or ``None``."""
        return next((ty for ty in self.typhoons if ty.id == tid), None)

    def with_typhoon(self, ty: TyphoonView) -> BoardState:
        """A copy with ``ty`` added or replacing the typhoon with the same id."""
        others = tuple(o for o in self.typhoons if o.id != ty.id)
        return replace(self, typhoons=tuple(sorted((*others, ty), key=lambda o: o.id)))

    def without(self, tid: int) -> BoardState:
        """A copy without typhoon ``tid``."""
        return replace(self, typhoons=tuple(o for o in self.typhoons if o.id != tid))

    @classmethod
    def from_game(cls, game: Any) -> BoardState:
        """The board state of a game object (see module docstring for the shape it needs)."""
        return cls(typhoons=typhoon_views(getattr(game, "typhoons", ())))


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def typhoon_views(typhoons: Any) -> tuple[TyphoonView, ...]:
    """Typhoon views from a game's ``.typhoons``: a list or a dict of objects or of dicts.

    >>> typhoon_views([{"id": 2, "eye": [9, 8], "level": 3, "direction": "E"}])
    (TyphoonView(id=2, eye=(9, 8), level=3, direction='E'),)
    """
    items: Iterable[Any] = typhoons.values() if isinstance(typhoons, Mapping) else typhoons
    out = []
    for ty in items:
        if isinstance(ty, TyphoonView):
            out.append(ty)
            continue
        eye = _get(ty, "eye")
        if eye is None:
            continue
        out.append(TyphoonView(int(_get(ty, "id")), (int(eye[0]), int(eye[1])), int(_get(ty, "level", 1)), _get(ty, "direction")))
    return tuple(sorted(out, key=lambda o: o.id))


def apply_event(state: BoardState, event: Any) -> BoardState:
    """The board after one engine event (events that do not change the board return ``state``).

    >>> from typhoon_edu.engine import events as ev
    >>> s = apply_event(BoardState(), ev.TyphoonPlaced(typhoon=3, cell=(14, 9), level=1, by="Japan"))
    >>> s.typhoon(3)
    TyphoonView(id=3, eye=(14, 9), level=1, direction=None)
    >>> apply_event(s, ev.TyphoonRemoved(typhoon=3, reason="edge", cell=None)).typhoons
    ()
    """
    kind = type(event).__name__
    tid = getattr(event, "typhoon", None)
    ty = state.typhoon(tid) if isinstance(tid, int) else None
    if kind == "TyphoonPlaced":
        return state.with_typhoon(TyphoonView(tid, tuple(event.cell), event.level, None))  # type: ignore[arg-type]
    if kind == "MoveStarted":
        return replace(state, moving=tid, trail=(ty.eye,) if ty else (), path=None)
    if kind == "TyphoonStepped":
        trail = (*state.trail, tuple(event.to)) if event.to is not None else state.trail
        state = replace(state, moving=tid, trail=trail)
        if ty is None:
            return state
        if event.to is None:
            return state.without(tid)
        return state.with_typhoon(replace(ty, eye=tuple(event.to), level=event.level))
    if ty is None and kind != "Merged":
        return state
    if kind in ("DirectionRolled",):
        return state.with_typhoon(replace(ty, direction=event.stop))  # type: ignore[arg-type]
    if kind == "DirectionChanged":
        return state.with_typhoon(replace(ty, direction=event.new))  # type: ignore[arg-type]
    if kind in ("LevelChanged", "Landfall"):
        if event.new < 1:
            return state.without(tid)  # type: ignore[arg-type]
        return state.with_typhoon(replace(ty, level=event.new))  # type: ignore[arg-type]
    if kind == "Intensified":
        return state.with_typhoon(replace(ty, level=event.level))  # type: ignore[arg-type]
    if kind == "TyphoonPushed":
        if event.to is None:
            return state.without(tid)  # type: ignore[arg-type]
        return state.with_typhoon(replace(ty, eye=tuple(event.to)))  # type: ignore[arg-type]
    if kind == "TyphoonRemoved":
        return state.without(tid)  # type: ignore[arg-type]
    if kind == "Merged":
        survivor = state.typhoon(event.survivor)
        state = state.without(event.absorbed)
        if survivor is None:
            return state
        return state.with_typhoon(replace(survivor, level=event.level, direction=event.direction))
    return state


def animation_frames(state: BoardState, events: Iterable[Any]) -> list[BoardState]:
    """The start state, then one state per event that changes the board (a step, a merge, …).

    >>> len(animation_frames(BoardState(), []))
    1
    """
    frames = [state]
    for event in events:
        nxt = apply_event(frames[-1], event)
        if nxt != frames[-1]:
            frames.append(nxt)
    return frames
