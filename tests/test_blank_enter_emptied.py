"""Enter in a box the person has just emptied says what to type, as in a box never typed in.

Deleting the text and pressing Enter sends the empty text, then the ``submit`` event: the box's change to "" used
to count as "the text typed with that Enter", so nothing was said and the earlier feedback stayed. A box that takes
its text and empties itself (lesson 01's die) is still not answered twice.
"""

from __future__ import annotations

import asyncio

import ipywidgets as widgets

from typhoon_edu.ui.blank_enter import on_blank_enter
from typhoon_edu.ui.guard import Problems

WAIT = 0.05


def _box() -> tuple[widgets.Text, list[str]]:
    box, said = widgets.Text(), []
    on_blank_enter(box, lambda: said.append(box.value), Problems(lambda: "en"), "test", wait=WAIT)
    return box, said


def _enter(box: widgets.Text) -> None:
    box._handle_custom_msg({"event": "submit"}, [])


def test_enter_in_a_box_the_person_emptied_is_answered() -> None:
    async def run() -> list[str]:
        box, said = _box()
        box.value = "3, 3"  # typed and answered earlier
        await asyncio.sleep(6 * WAIT)
        box.value = ""  # deleted, then Enter: the empty text arrives first, then the event
        _enter(box)
        await asyncio.sleep(4 * WAIT)
        return said

    assert asyncio.run(run()) == [""]


def test_a_box_that_takes_its_text_and_empties_itself_is_not_answered_again() -> None:
    async def run() -> list[str]:
        box, said = _box()
        box.value = "5"  # typed with the Enter ...
        box.value = ""  # ... taken by the box (lesson 01's die), which empties itself
        _enter(box)
        await asyncio.sleep(4 * WAIT)
        return said

    assert asyncio.run(run()) == []


def test_enter_in_a_box_never_typed_in_is_answered() -> None:
    async def run() -> list[str]:
        box, said = _box()
        _enter(box)
        await asyncio.sleep(4 * WAIT)
        return said

    assert asyncio.run(run()) == [""]
