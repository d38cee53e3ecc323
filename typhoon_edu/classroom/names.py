"""Names people type (seats, teachers, teams): visible text only.

A name is shown on the projector, in the results legend and on phones, next to numbers. A
right-to-left override (U+202E) or an isolate in a name reverses what follows it ("04" for 40),
and other control or format characters hide text or break lines, so :func:`clean_name` removes
every character of Unicode categories Cc (controls), Cf (format: bidi controls, zero-width
characters), Cs, Co and Cn, turns line and paragraph separators into spaces, and squeezes runs of
white space. Letters of every script stay (臺灣, 日本, Ελλάδα, 한국, Zoë).

It also removes the characters that draw nothing although they are letters, symbols or marks
(:data:`INVISIBLE`): the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Braille blank U+2800,
the combining grapheme joiner U+034F, the Khmer inherent vowels U+17B4/U+17B5, the Mongolian and
Khitan fillers and the variation selectors, and a combining mark with no letter to sit on (at the
start of a name or after a space). So "Owls" followed by any of them is "Owls". The one exception
is an emoji's own presentation selector: U+FE0E or U+FE0F right after a symbol (❤️, ☀️) or in a
keycap (1️⃣) stays, since there it changes how the symbol is drawn; anywhere else it is dropped.

:func:`name_key` is what two names are compared by, where a name must be told apart from the names
already taken (a lesson round's teams): "Owls", "owls", "ＯＷＬＳ" and "Оwls" with a Cyrillic О
have one key.

>>> clean_name("Mei\\u202e04")
'Mei04'
>>> clean_name("  A\\tB\\n\\u2028C\\u200b ")
'A B C'
>>> clean_name("臺灣隊")
'臺灣隊'
>>> [clean_name(s) for s in ("Owls\\u3164", "Owls\\u2800", "Owls\\u034f", "Owls\\ufe0f", "\\uffa0Owls", "\\u0301Owls")]
['Owls', 'Owls', 'Owls', 'Owls', 'Owls', 'Owls']
>>> clean_name("Owls \\u2764\\ufe0f") == "Owls \\u2764\\ufe0f", clean_name("한국 Zoë 颱風")
(True, '한국 Zoë 颱風')
"""

from __future__ import annotations

import unicodedata

__all__ = ["CONFUSABLES", "INVISIBLE", "MAX_NAME_LENGTH", "STROKES", "alike", "clean_name", "name_key"]

#: The longest name kept (longer ones are cut, so a pasted essay cannot fill the projector).
MAX_NAME_LENGTH = 60

_DROP = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})

_VS_EMOJI = frozenset({"\ufe0e", "\ufe0f"})  # text and emoji presentation selectors
_KEYCAP = "\u20e3"

#: Characters of other categories than Cc/Cf/Cs/Co/Cn that draw nothing (Unicode's Default_Ignorable_Code_Point
#: letters and marks, and the Braille blank): removed from every name.
INVISIBLE: frozenset[str] = frozenset(
    [chr(c) for c in (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x2800, 0x3164, 0xFFA0,
                      0x16FE4)]
    + [chr(c) for c in range(0xFE00, 0xFE10)]  # variation selectors 1–16 (15 and 16 kept after a symbol: see above)
    + [chr(c) for c in range(0xE0100, 0xE01F0)]  # variation selectors 17–256 (ideographic variants)
)

#: Letters that look like a Latin letter (or a digit like a letter), by what :func:`name_key` reads them as: the
#: common Cyrillic and Greek look-alikes of UTS #39's confusables, both cases, and 0/1/I/| as o/l (they look alike
#: on a projector in a sans-serif font). A hand-kept table, not all of UTS #39: fullwidth, mathematical, circled
#: and other compatibility forms are folded by NFKD before it.
CONFUSABLES: dict[str, str] = {
    # Cyrillic capitals and small letters
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X",
    "Ү": "Y", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j",
    "ԛ": "q", "ԝ": "w", "һ": "h", "ԁ": "d", "ү": "y",
    # Greek capitals and small letters
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v", "ρ": "p", "α": "a", "ι": "i", "υ": "u", "γ": "y",
    # Latin look-alikes of other Latin letters, and digits and signs
    "ɑ": "a", "ɡ": "g", "ı": "i", "0": "o",
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-", "‘": "'", "’": "'", "ʼ": "'", "′": "'",
}
_CONFUSABLE_TABLE = str.maketrans(CONFUSABLES)
#: Strokes that look like a small L on a projector in a sans-serif font, whatever their case: capital I, 1, |, and
#: the Latin and Cyrillic palochka. They are compared as they are written, before case folding, by :func:`alike`
#: (folded with case, "Team L" would look like "Team I": L is l, and l is I).
STROKES: dict[str, str] = {"I": "l", "1": "l", "|": "l", "ǀ": "l", "Ӏ": "l", "ӏ": "l"}
_STROKE_TABLE = str.maketrans(STROKES)


def clean_name(text: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``text`` without control, format (bidi), invisible and unassigned characters, white space squeezed, at most
    ``limit`` long.

    >>> clean_name(None), clean_name("x" * 50, limit=5)
    ('', 'xxxxx')
    """
    if not isinstance(text, str):
        return ""
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if ch in "\t\n\r\x0b\x0c" or cat in ("Zl", "Zp"):
            out.append(" ")
        elif ch in _VS_EMOJI and ((out and unicodedata.category(out[-1]) == "So") or text[i + 1:i + 2] == _KEYCAP):
            out.append(ch)  # an emoji's presentation: ❤️, 1️⃣
        elif cat not in _DROP and ch not in INVISIBLE:
            out.append(ch)
    kept: list[str] = []
    for ch in " ".join("".join(out).split()):
        if unicodedata.category(ch).startswith("M") and (not kept or kept[-1] == " "):
            continue  # a combining mark with nothing to sit on
        kept.append(ch)
    name = unicodedata.normalize("NFC", " ".join("".join(kept).split()))
    return name[:limit].strip()


def name_key(text: object) -> str:
    """What a name is compared by, case aside: :func:`clean_name`'s text without presentation selectors, folded by
    NFKD (fullwidth, mathematical and circled letters), :data:`CONFUSABLES` (Cyrillic and Greek look-alikes, 0 as
    o), case (``casefold``) and NFKC. Names that look alike by a stroke (``OwIs``) are found by :func:`alike`.

    >>> name_key("Owls") == name_key("owls") == name_key("ＯＷＬＳ") == name_key("\\u041ewls")
    True
    >>> name_key("Owls") == name_key("Owl"), name_key("颱風隊"), name_key("Zoë") == name_key("Zoe\\u0308")
    (False, '颱風隊', True)
    """
    name = "".join(ch for ch in clean_name(text, limit=10 * MAX_NAME_LENGTH) if ch not in _VS_EMOJI)
    folded = unicodedata.normalize("NFKD", name).translate(_CONFUSABLE_TABLE).casefold()
    return unicodedata.normalize("NFKC", folded.translate(_CONFUSABLE_TABLE))


def _stroke_key(text: object) -> str:
    """A name with its case kept and :data:`STROKES` read as a small L (``OwIs`` and ``Owls`` alike)."""
    name = "".join(ch for ch in clean_name(text, limit=10 * MAX_NAME_LENGTH) if ch not in _VS_EMOJI)
    folded = unicodedata.normalize("NFKD", name).translate(_CONFUSABLE_TABLE).translate(_STROKE_TABLE)
    return unicodedata.normalize("NFKC", folded)


def alike(a: object, b: object) -> bool:
    """Whether two names look alike on a screen: the same :func:`name_key` (case, width, Cyrillic and Greek
    look-alikes), or the same letters with capital I, 1 and | read as a small L, case kept. "Team I" and "Team L"
    are told apart (lettered teams), "OwIs" and "Owls" are not.

    >>> alike("Owls", "OwIs"), alike("Owls", "OWLS"), alike("Team I", "Team L"), alike("Team 1", "Team I")
    (True, True, False, True)
    >>> alike("L組", "I組"), alike("Lions", "Iions"), alike("Team 11", "Team LL"), alike("A隊", "B隊")
    (False, False, False, False)
    """
    return name_key(a) == name_key(b) or _stroke_key(a) == _stroke_key(b)
