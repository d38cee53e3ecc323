"""A phone's "Your turn!" goes in the same breath as its buttons, not a moment after them.

A class rehearsal saw "Your turn!" stay on a phone for 0.5-2.5 s after its tap, over no button, on a loaded machine:
the page handles the kernel's messages one at a time, and the banner's update was sent after the ~90 that close the
old buttons (each with its layout and style) and redraw the map and the HP panel. The banner that leaves "Your
turn!" is now sent before the buttons are taken away; the banner that says it is still sent last (the map does not
move under the finger reaching for it).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pytest
from test_classplay_phase_words import LANGS, open_class, play_one, walk

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore

Sent = list[tuple[str, Any, tuple[str, ...]]]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Sent:
    """Every widget message the kernel sends from now on, in order: (``update`` | ``open`` | ``close``, the widget,
    the names of the updated traits)."""
    log: Sent = []
    send, close, open_ = widgets.Widget._send, widgets.Widget.close, widgets.Widget.open

    def sending(self: widgets.Widget, msg: dict[str, Any], buffers: Any = None) -> None:
        log.append(("update", self, tuple(msg.get("state", {}))))
        send(self, msg, buffers)

    def closing(self: widgets.Widget) -> None:
        if self.comm is not None:
            log.append(("close", self, ()))
        close(self)

    def opening(self: widgets.Widget) -> None:
        log.append(("open", self, ()))
        open_(self)

    monkeypatch.setattr(widgets.Widget, "_send", sending)
    monkeypatch.setattr(widgets.Widget, "close", closing)
    monkeypatch.setattr(widgets.Widget, "open", opening)
    return log


@pytest.mark.parametrize("lang", LANGS)
def test_the_banner_leaves_your_turn_before_the_buttons_go(store: RoomStore, lang: str, sent: Sent) -> None:
    projector, phones = open_class(store, lang)
    room = projector.room
    mei = phones["Taiwan"]
    your_turn = i18n.t("classplay.seat.your_turn", lang)
    ended = becoming = 0
    for _ in range(60):
        walk(projector, phones, lambda: room.game.current_player == "Taiwan")
        assert your_turn in mei.banner.value
        old = {id(b) for b in mei.decisions.buttons()}
        sent.clear()
        play_one(mei)
        banner = [i for i, (kind, w, names) in enumerate(sent) if w is mei.banner and "value" in names]
        gone = [i for i, (kind, w, names) in enumerate(sent)
                if (kind == "close" and id(w) in old) or (w is mei.decisions.groups and "children" in names)]
        if your_turn in mei.banner.value:  # still this team's decision (a second storm to place, a discard …)
            becoming += 1
            continue
        ended += 1
        assert banner and gone, (banner, gone)
        assert banner[0] < gone[0], (f"the banner said {your_turn!r} over no button for {banner[0] - gone[0]}"
                                     f" messages (sent {banner[0]}th, the buttons went {gone[0]}th)")
        if ended >= 3:
            break
    assert ended >= 3, f"only {ended} decisions ended this team's turn"


@pytest.mark.parametrize("lang", LANGS)
def test_your_turn_still_comes_after_its_buttons(store: RoomStore, lang: str, sent: Sent) -> None:
    """The other way round, the banner that says "Your turn!" comes after the buttons are drawn."""
    projector, phones = open_class(store, lang)
    room = projector.room
    mei = phones["Taiwan"]
    your_turn = i18n.t("classplay.seat.your_turn", lang)
    walk(projector, phones, lambda: room.game.current_player == "Japan")
    sent.clear()
    walk(projector, phones, lambda: room.game.current_player == "Taiwan" and bool(mei.decisions.buttons()))
    assert your_turn in mei.banner.value
    banner = [i for i, (kind, w, names) in enumerate(sent) if w is mei.banner and "value" in names]
    drawn = [i for i, (kind, w, names) in enumerate(sent) if w is mei.decisions.groups and "children" in names]
    assert banner and drawn and drawn[-1] < banner[-1], (banner, drawn)
