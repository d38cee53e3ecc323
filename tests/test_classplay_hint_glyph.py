"""The hint box starts with a light bulb every browser draws (an inline SVG), not an emoji that a computer without
an emoji font shows as a missing-glyph box (U+1F4A1 was drawn as a box by Debian's Chromium with fonts-noto-cjk);
a screen reader reads "Hint:" / "提示：" before the hint, not "light bulb".
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.ui.classplay.coachbox import CoachBox
from typhoon_edu.ui.guard import Problems


def emoji_like(text: str) -> list[str]:
    """Characters that need an emoji or symbol font: above the BMP, or in the pictographic blocks U+2600-U+27BF
    other than the few DejaVu Sans draws that the app uses elsewhere (★ ⚠ ✔ ✘)."""
    kept = set("★⚠✔✘")
    return [f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in text
            if (ord(c) > 0xFFFF or 0x2600 <= ord(c) <= 0x27BF) and c not in kept]


@pytest.mark.parametrize(("lang", "said"), [("en", "Hint:"), ("zh-TW", "提示：")])
def test_the_hint_has_no_emoji_and_says_hint_to_a_screen_reader(store: RoomStore, lang: str, said: str) -> None:
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")], seed=3, lang=lang,
                       teacher=local_teacher(store))
    phone = Room.open_seat(store, room.issued_tokens["Taiwan"])
    box = CoachBox(Problems(lambda: lang), lambda: lang)
    box.show_for(phone, "Taiwan", mine=True)
    assert box.ask(phone, "Taiwan", iterations=12)
    html = box.text.value
    assert emoji_like(html) == [], html
    icon = re.search(r"<svg[^>]*>", html)
    assert icon is not None and "aria-hidden='true'" in icon.group(0)
    assert re.search(rf"<span class='typhoon-sr-only'>{re.escape(said)} </span>", html)
