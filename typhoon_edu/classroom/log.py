"""How an append-only log holds undo: explicit control entries that replay understands.

A room's log is never rewritten. Besides the engine's actions (``place 8,8``, ``die 4``, …)
it may hold two control entries, both written by the teacher only:

- ``undo``: take back the last *effective* action, which must be a player decision (never a
  die roll: undo never crosses a die roll, as :func:`typhoon_edu.engine.game.undo`);
- ``correct N``: replace the last effective action, which must be a typed die roll, by ``die N``
  (a mistyped physical die; :func:`typhoon_edu.engine.game.correct_die`).

Why entries rather than a new log generation (copying the log minus one action under a new
generation number): sequence numbers keep growing by one per write, so the one optimistic
check ("is ``expected_seq`` the next number?") also orders undo against moves made at the same
moment, every view sees an undo as one more entry (and rebuilds), and the log stays a full
record of what happened in class, mistakes included. The cost, a full replay when an undo
arrives, is about 2 ms for a whole game.

>>> effective(["place 8,8", "place 9,8", "undo", "place 11,7"])
['place 8,8', 'place 11,7']
>>> effective(["move T1", "die 4", "correct 5"])
['move T1', 'die 5']
>>> effective(["move T1", "die 4", "undo"])
Traceback (most recent call last):
...
ValueError: entry #3 (undo) would take back a die roll, and undo never goes back across a die roll
"""

from __future__ import annotations

from collections.abc import Iterable

UNDO = "undo"
CORRECT = "correct"


def is_control(notation: str) -> bool:
    """Whether a log entry is an ``undo`` or ``correct N`` entry rather than a game action.

    >>> is_control("undo"), is_control("correct 3"), is_control("die 3")
    (True, True, False)
    """
    return notation == UNDO or notation.startswith(CORRECT + " ")


def is_die(notation: str) -> bool:
    return notation.startswith("die ")


def correct_entry(face: int) -> str:
    """The log entry that corrects the last typed die to ``face``.

    >>> correct_entry(6)
    'correct 6'
    """
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
        raise ValueError(f"a die shows 1 to 6; {face!r} is not a face of the die")
    return f"{CORRECT} {face}"


def effective(entries: Iterable[str]) -> list[str]:
    """The game's actions: the log with every ``undo`` and ``correct N`` applied, in order.

    ValueError names the first control entry that cannot apply (an undo of nothing or of a die
    roll, a correction without a die roll before it).
    """
    out: list[str] = []
    for i, n in enumerate(entries, 1):
        if n == UNDO:
            if not out:
                raise ValueError(f"entry #{i} (undo) has no decision before it to take back")
            if is_die(out[-1]):
                raise ValueError(f"entry #{i} (undo) would take back a die roll, and undo never goes back across a "
                                 "die roll")
            out.pop()
        elif n.startswith(CORRECT + " "):
            face = n[len(CORRECT) + 1:]
            if not face.isdigit() or not 1 <= int(face) <= 6:
                raise ValueError(f"entry #{i} ({n}) does not name a die face 1 to 6")
            if not out or not is_die(out[-1]):
                raise ValueError(f"entry #{i} ({n}) corrects a die roll, but the action before it is not one")
            out[-1] = f"die {int(face)}"
        else:
            out.append(n)
    return out
