"""Class play with fingers: phones and a touch whiteboard place storms by touch alone (no mouse).

* Devices: a projector and two phones, every context with ``has_touch``. Taiwan's phone places
  three storms with ``page.touchscreen.tap``: two on the map, the last on its cell's button (at
  least 44 x 44 px, where a map cell is about 20 px); after each tap the room store holds exactly one
  more action (one tap = one action, never two) and the projector shows it.
* One computer on a touch whiteboard: the projector's own board takes the placements by touch.

In both, the teacher's setup form is filled by taps too (``setup_room`` on a touch page).
Both languages. The pages count mouse events on canvases and must see none.
Screenshots: ``artifacts/screenshots/touch-classplay-<moment>-<lang>.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess

from .harness import save_screenshot
from .langs import flow_langs
from .test_classroom_browser import PROJECTOR, open_class, open_one_computer_game, room_of, wait_state
from .touch_helpers import mouse_events, seen_box, touch_cell, touch_page, touch_tap

pytestmark = pytest.mark.browser


CELLS = ((8, 8), (11, 7), (14, 9))


@pytest.mark.parametrize("server", flow_langs("zh-TW"), indirect=True)
def test_phones_place_storms_by_touch(server: tuple[VoilaProcess, RoomStore], chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    projector, phones = open_class(chromium_browser, proc, lang, page_for=touch_page)
    mei = phones["Taiwan"]
    for n, cell in enumerate(CELLS, start=1):
        wait_state(mei, lambda s: s.get("mine") == "1" and s.get("busy") == "0", what="Taiwan's phone to decide")
        if n < len(CELLS):
            touch_cell(mei, ".typhoon-board canvas", cell, 40)
        else:  # the last by the cell's button: a fingertip's target, not the map's 20 px cell
            button = mei.locator(f".typhoon-cell-{cell[0]}-{cell[1]}").first
            box = seen_box(mei, button)
            assert box["width"] >= 44 and box["height"] >= 44, f"the cell button is {box} on a phone"
            touch_tap(mei, button)
        wait_state(mei, lambda s, n=n: int(s["seq"]) >= n, what=f"the phone's own move {n}")
        wait_state(projector, lambda s, n=n: int(s["seq"]) >= n, timeout=10, what=f"the projector to show move {n}")
        mei.wait_for_timeout(800)  # time for a second action, if one tap made two
        room = room_of(store)
        assert room.seq == n, f"tap {n} made {room.seq - n + 1} actions in the store"
        assert tuple(room.game.typhoons[-1].eye) == cell
    assert len(room_of(store).game.typhoons) == 3
    assert mouse_events(mei) == 0, "a mouse event reached the phone's map: the test did not test touch"
    save_screenshot(mei, f"touch-classplay-phone-{lang}", full_page=False)
    save_screenshot(projector, f"touch-classplay-projector-{lang}", full_page=False)
    for page in (projector, *phones.values()):
        page.context.close()


@pytest.mark.parametrize("server", flow_langs("en"), indirect=True)
def test_whiteboard_places_storms_by_touch(server: tuple[VoilaProcess, RoomStore], chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    board = touch_page(chromium_browser, PROJECTOR)
    open_one_computer_game(board, proc, lang)
    for n, cell in enumerate(CELLS, start=1):
        wait_state(board, lambda s: s.get("busy") == "0" and s.get("who") == "Taiwan", what="Taiwan's placement")
        touch_cell(board, ".typhoon-board canvas", cell, 56)
        wait_state(board, lambda s, n=n: int(s["seq"]) >= n, what=f"placement {n}")
        board.wait_for_timeout(800)
        assert room_of(store).seq == n, f"tap {n} did not make exactly one action"
    assert mouse_events(board) == 0
    save_screenshot(board, f"touch-classplay-whiteboard-{lang}", full_page=False)
    board.context.close()
