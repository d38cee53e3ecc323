"""The class-play screens without a browser: hints one at a time, honest status, attention, languages."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from typhoon_edu import i18n
from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.ui.classplay.coachbox import CoachBox
from typhoon_edu.ui.guard import Problems


class SlowRoom:
    """A room whose hint waits until the test lets it go, counting how often the coach is asked."""

    def __init__(self, real: Any) -> None:
        self.real, self.calls, self.go = real, 0, threading.Event()
        self.seq, self.hints_enabled, self.is_open, self.paused = real.seq, True, True, False

    def hint(self, region: str, iterations: int | None = None) -> Any:
        self.calls += 1
        assert self.go.wait(10), "the test never released the hint"
        return self.real.hint(region, iterations=12)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_one_hint_in_flight_per_seat_and_a_second_tap_says_so(lang: str) -> None:
    store = RoomStore("sqlite://")
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")], seed=3, lang="en")
    phone = SlowRoom(Room.open_seat(store, room.issued_tokens["Taiwan"]))
    box = CoachBox(Problems(lambda: lang), lambda: lang)
    box.show_for(phone, "Taiwan", mine=True)

    async def taps() -> tuple[bool, bool, str]:
        first = box.ask(phone, "Taiwan")
        await asyncio.sleep(0.05)
        second = box.ask(phone, "Taiwan")  # while the first is still computing
        said = box.text.value
        box.show_for(phone, "Taiwan", mine=True)  # a redraw meanwhile keeps the word that it thinks
        phone.go.set()
        for _ in range(200):
            if not box.asking:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.05)
        return first, second, said

    first, second, said = asyncio.run(taps())
    assert first is True and second is False
    assert i18n.t("classplay.coach.busy", lang) in said
    assert phone.calls == 1, f"the coach searched {phone.calls} times for two taps"
    assert box.text.value.startswith("<div class='typhoon-hint'>")
    assert box.ask(phone, "Taiwan") is True  # once answered, a new question is welcome
