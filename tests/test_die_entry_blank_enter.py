"""Enter in the class's die box with nothing typed (lesson 04's real-die mode, a teacher's or a team's page) says
what to type, as the button does: the kernel hears no value for an unchanged box, only the box's submit event."""

from __future__ import annotations

import pytest

from typhoon_edu.ui.classplay.die_entry import DieEntry
from typhoon_edu.ui.die import parse_face
from typhoon_edu.ui.guard import Problems

LANGS = ["en", "zh-TW"]


def _entry(lang: str, faces: list[int]) -> DieEntry:
    return DieEntry(Problems(lambda: lang), lambda face: faces.append(face) is None, lambda: lang)


def _enter(entry: DieEntry) -> None:
    entry.box._handle_custom_msg({"event": "submit"}, [])  # what the page sends on Enter


@pytest.mark.parametrize("lang", LANGS)
def test_enter_in_the_empty_die_box_says_what_to_type(lang: str) -> None:
    faces: list[int] = []
    entry = _entry(lang, faces)
    _enter(entry)
    with pytest.raises(ValueError) as said:
        parse_face("", lang)
    assert str(said.value) and str(said.value) in entry.message.value.replace("&quot;", '"').replace("&#x27;", "'")
    assert faces == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_face_typed_with_enter_is_taken_once_and_not_called_missing(lang: str) -> None:
    faces: list[int] = []
    entry = _entry(lang, faces)
    entry.box.value = "4"  # the typed text reaches the kernel, then the submit event of the same Enter
    _enter(entry)
    assert faces == [4] and entry.box.value == "" and entry.message.value == ""
