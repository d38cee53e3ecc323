"""A mistyped die face's explanation on class play's die box follows a switch of language, as the box's other words
do (it stayed in the language it was typed in: noted by the message-line helper)."""

from __future__ import annotations

import pytest

from typhoon_edu.ui.classplay.die_entry import DieEntry
from typhoon_edu.ui.die import parse_face
from typhoon_edu.ui.guard import Problems


def _why(text: str, lang: str) -> str:
    with pytest.raises(ValueError) as wrong:
        parse_face(text, lang)
    return str(wrong.value)


@pytest.mark.parametrize(("first", "then"), [("en", "zh-TW"), ("zh-TW", "en")])
@pytest.mark.parametrize("text", ["9", "six", "0"])
def test_a_mistyped_face_is_explained_again_after_a_language_switch(first: str, then: str, text: str) -> None:
    lang, faces = [first], []
    entry = DieEntry(Problems(lambda: lang[0]), lambda face: faces.append(face) is None, lambda: lang[0])
    entry.box.value = text
    assert _why(text, first) in entry.message.value.replace("&#x27;", "'").replace("&quot;", '"')
    lang[0] = then
    entry.relabel()
    shown = entry.message.value.replace("&#x27;", "'").replace("&quot;", '"')
    assert _why(text, then) in shown and _why(text, first) not in shown
    entry.box.value = "4"  # a good face clears the explanation for good
    entry.relabel()
    assert faces == [4] and entry.message.value == ""
