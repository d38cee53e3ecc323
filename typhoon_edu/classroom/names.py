"""Names people type (seats, teachers): visible text only.

A name is shown on the projector, in the results legend and on phones, next to numbers. A
right-to-left override (U+202E) or an isolate in a name reverses what follows it ("04" for 40),
and other control or format characters hide text or break lines, so :func:`clean_name` removes
every character of Unicode categories Cc (controls), Cf (format: bidi controls, zero-width
characters), Cs, Co and Cn, turns line and paragraph separators into spaces, and squeezes runs of
white space. Letters of every script stay (臺灣, 日本, Ελλάδα).

>>> clean_name("Mei\\u202e04")
'Mei04'
>>> clean_name("  A\\tB\\n\\u2028C\\u200b ")
'A B C'
>>> clean_name("臺灣隊")
'臺灣隊'
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_NAME_LENGTH", "clean_name"]

#: The longest name kept (longer ones are cut, so a pasted essay cannot fill the projector).
MAX_NAME_LENGTH = 60

_DROP = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def clean_name(text: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``text`` without control, format (bidi) and unassigned characters, white space squeezed, at most ``limit`` long.

    >>> clean_name(None), clean_name("x" * 50, limit=5)
    ('', 'xxxxx')
    """
    if not isinstance(text, str):
        return ""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if ch in "\t\n\r\x0b\x0c" or cat in ("Zl", "Zp"):
            out.append(" ")
        elif cat not in _DROP:
            out.append(ch)
    return " ".join("".join(out).split())[:limit].strip()
