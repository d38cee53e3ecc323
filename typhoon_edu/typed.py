"""What a person typed: read as a small whole number, and repeated back in a message, both bounded.

A die face, a numbered choice or a count is a few digits; a page or a terminal can send megabytes. Python's
``int()`` refuses a string of more than 4,300 digits with its own English message ("Exceeds the limit … for
integer string conversion"), and a message that repeats what was typed would repeat all of it. These two keep
both short, so a refusal says, in the person's language, what was wrong and what is allowed.

>>> small_whole("4"), small_whole(" ６ "), small_whole("x"), small_whole("²"), small_whole("6" * 5000)
(4, 6, None, None, None)
>>> echo("six"), echo("6" * 5000)
('six', '66666666666666666666…')
"""

from __future__ import annotations

__all__ = ["ECHO_CHARS", "WHOLE_DIGITS", "echo", "small_whole"]

#: The most digits :func:`small_whole` reads (a die face, a menu choice, a count of games).
WHOLE_DIGITS = 9
#: The most characters of typed text a message repeats.
ECHO_CHARS = 20


def small_whole(text: object, digits: int = WHOLE_DIGITS) -> int | None:
    """``text`` (stripped; full-width digits are fine) as a whole number of at most ``digits`` digits, else None.

    Only decimal digits count (``str.isdecimal``, not ``isdigit``: "²" is a digit ``int()`` cannot read).
    """
    stripped = str(text).strip()
    if not stripped or len(stripped) > digits or not stripped.isdecimal():
        return None
    return int(stripped)


def echo(text: object, limit: int = ECHO_CHARS) -> str:
    """What was typed, for a message to repeat: at most ``limit`` characters, then "…"."""
    shown = str(text).strip()
    return shown if len(shown) <= limit else shown[:limit] + "…"
