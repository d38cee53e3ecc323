"""Actions: small immutable values with a short text notation (like a chess move's UCI).

>>> a = parse_action("play steering_flow T2 NNW")
>>> a.kind, a.card, a.typhoon, a.direction
('play', 'steering_flow', 2, 'NNW')
>>> a.notation
'play steering_flow T2 NNW'
>>> parse_action("place 8,9").cell
(8, 9)
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .rules import IllegalActionError

KINDS = ("place", "aim", "play", "region", "pass", "move", "discard", "die")
# ASCII digits only, and few of them: no map, typhoon count or die needs more, and int() of a
# 5,000-digit token would be refused by Python's own limit with a plain ValueError.
_CELL = re.compile(r"^([0-9]{1,4}),([0-9]{1,4})$")
_TYPHOON = re.compile(r"^[Tt]([0-9]{1,6})$")
_FACE = re.compile(r"^-?[0-9]{1,6}$")
_DIRECTION = re.compile(r"^[NESW]{1,3}$")
MAX_NOTATION = 200  # characters; the longest real action is about 30


class Action(NamedTuple):
    """One decision. ``kind`` is one of ``KINDS``; the other fields say what it acts on."""

    kind: str
    card: str | None = None
    typhoon: int | None = None
    cell: tuple[int, int] | None = None
    direction: str | None = None
    face: int | None = None

    @property
    def notation(self) -> str:
        parts = [self.kind]
        if self.card is not None:
            parts.append(self.card)
        if self.typhoon is not None:
            parts.append(f"T{self.typhoon}")
        if self.cell is not None:
            parts.append(f"{self.cell[0]},{self.cell[1]}")
        if self.direction is not None:
            parts.append(self.direction)
        if self.face is not None:
            parts.append(str(self.face))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.notation


def parse_action(text: str) -> Action:
    """Read an action from its notation; a bare die face ``"4"`` means ``die 4``.

    >>> parse_action("4")
    Action(kind='die', card=None, typhoon=None, cell=None, direction=None, face=4)
    >>> parse_action("jump T1")
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.IllegalActionError: 'jump T1' is not an action; actions start with place, aim, play, region, pass, move, discard or die
    """
    text = str(text)
    if len(text) > MAX_NOTATION:
        raise IllegalActionError(f"{text[:40]!r}… is {len(text)} characters long; an action is at most {MAX_NOTATION}")
    tokens = text.split()
    if len(tokens) == 1 and _FACE.match(tokens[0]) and not tokens[0].startswith("-"):
        tokens = ["die", tokens[0]]
    if not tokens or tokens[0] not in KINDS:
        raise IllegalActionError(
            f"{text!r} is not an action; actions start with {', '.join(KINDS[:-1])} or {KINDS[-1]}"
        )
    kind, rest = tokens[0], tokens[1:]
    fields: dict[str, object] = {}
    if kind in ("play", "discard") and rest:
        fields["card"], rest = rest[0], rest[1:]
    for tok in rest:
        if m := _TYPHOON.match(tok):
            fields["typhoon"] = int(m.group(1))
        elif m := _CELL.match(tok):
            fields["cell"] = (int(m.group(1)), int(m.group(2)))
        elif kind == "die" and _FACE.match(tok):
            fields["face"] = int(tok)
        elif _DIRECTION.match(tok):
            fields["direction"] = tok
        else:
            raise IllegalActionError(f"in {text!r}, {tok!r} is neither a typhoon (T2), a cell (8,9) nor a direction (NNW)")
    return Action(kind, **fields)  # type: ignore[arg-type]
