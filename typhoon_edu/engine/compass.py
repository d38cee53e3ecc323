"""Compass-ring rolls, step cycles and the damage formula: the game's arithmetic.

>>> advance("N", 3), advance("E", 3), advance("NNW", 5)
('E', 'NNW', 'WSW')
>>> step_cycle("NNW")
('N', 'N', 'W')
>>> "".join(path_steps("NNW", 5)), "".join(path_steps("SW", 6)), "".join(path_steps("E", 4))
('NNWNN', 'WSWSWS', 'EEEE')
>>> damage(3, 5, False), damage(4, 2, True)
(20, 11)
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import GameInputError, load_rules


def advance(start: str, pips: int, ring: Sequence[str] | None = None) -> str:
    """Move the compass indicator clockwise ``pips`` stops from ``start`` and return the stop.

    >>> advance("N", 3)
    'E'
    >>> advance("WNW", 1, ring=("N", "E", "S", "W"))
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.GameInputError: the indicator is on 'WNW', which is not a stop of the ring N, E, S, W
    """
    stops = tuple(ring) if ring is not None else load_rules().ring
    if start not in stops:
        raise GameInputError(f"the indicator is on {start!r}, which is not a stop of the ring {', '.join(stops)}",
                             kind="ring_stop", value=f"{start!s:.20}")
    if isinstance(pips, bool) or not isinstance(pips, int) or pips < 0:
        raise GameInputError(f"a roll moves the indicator a whole number of stops (0 or more), not {pips!r}",
                             kind="pips", value=f"{pips!s:.20}")
    return stops[(stops.index(start) + pips) % len(stops)]


def step_cycle(direction: str) -> tuple[str, ...]:
    """The orthogonal steps a direction repeats, spelled by its Chinese name (北北西 = N, N, W).

    >>> step_cycle("SW"), step_cycle("E")
    (('W', 'S'), ('E',))
    """
    points = load_rules().points
    if direction not in points:
        raise GameInputError(f"unknown direction {direction!r}; the 16 compass points are {', '.join(points)}",
                             kind="direction", value=f"{direction!s:.20}")
    return points[direction].cycle


def path_steps(direction: str, pips: int) -> list[str]:
    """The steps the eye takes for a roll of ``pips``: the cycle restarts on every move.

    >>> path_steps("WSW", 4)
    ['W', 'S', 'W', 'W']
    """
    cycle = step_cycle(direction)
    if isinstance(pips, bool) or not isinstance(pips, int) or pips < 0:
        raise GameInputError(f"a typhoon moves a whole number of cells (0 or more), not {pips!r}", kind="pips",
                             value=f"{pips!s:.20}")
    return [cycle[i % len(cycle)] for i in range(pips)]


def damage(level: int, hits: int, stays: bool) -> int:
    """HP lost: hits x the level's damage per cell, +1 if the storm ends its move on the region.

    >>> damage(5, 1, False)
    6
    """
    levels = load_rules().levels
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= len(levels):
        raise GameInputError(f"a typhoon's level is 1 to {len(levels)}, not {level!r}", kind="level",
                             value=f"{level!s:.20}")
    if isinstance(hits, bool) or not isinstance(hits, int) or hits < 0:
        raise GameInputError(f"hits are counted cells, a whole number 0 or more, not {hits!r}", kind="hits",
                             value=f"{hits!s:.20}")
    return hits * levels[level - 1].damage + (1 if stays else 0)
