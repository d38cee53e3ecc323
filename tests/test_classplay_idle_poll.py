"""An idle projector sends its page nothing for the map, the ring or the map's words: its poll only reads the store.

The projector reads the room every 0.2 s and, once the storms stand still, redraws the screen exactly. That redraw
painted the map's storm layer twice a poll (without the lit cells, then with them), about 9 KB each, and set the
map's words for a screen reader to a text without the lit cells and back: about 44 KB/s per projector, and a label
flipping five times a second, while nothing on the board changed. The map is painted again when something drawn
changes (a new state here); a page that connects, a language and a width are painted by the board itself.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from typhoon_edu.classroom.rooms import Room
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.ui.classplay.pacer import board_state_of
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.tables import public_table
from typhoon_edu.ui.classplay.viewdata import SeatChoice

#: Polls of an idle projector (2 s of its loop).
POLLS = 10



def mid_game(tmp_path: Path, devices: bool) -> ProjectorApp:
    """A projector mid-game, its storms still, a person to decide; on one computer, with cells lit on its map."""
    store = RoomStore(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    app = ProjectorApp(lang="en", store=store, fullscreen=False, teacher=local_teacher(store))
    app.start(SetupChoices([SeatChoice("person", "Mei"), SeatChoice("person", "Ken"), SeatChoice("easy")], seed=3,
                           speed=0, devices=devices))
    if app.screen == "lobby":
        app.show_board()
    rng = random.Random(7)
    for made in range(200):
        app.advance()
        if made >= 6 and (devices or app.decisions.highlight_cells()):
            break
        assert app.decide(rng.choice(app.room.game.legal_actions())), app.message.value
    assert app.screen == "game" and app.pacer.idle and app.room.waiting_for_person
    assert app.room.game.typhoons, "no storm on the map to paint"
    if not devices:
        assert app.game.board.state.highlights, "no lit cell on the one computer's map"
    return app


def poll(app: ProjectorApp) -> None:
    """What the projector's loop does every 0.2 s while nothing moves (ProjectorApp._run, its storms still)."""
    app._take(app.room.sync())
    app.check_timer()


@pytest.mark.parametrize("devices", [False, True], ids=["one-computer", "devices"])
def test_an_idle_projector_sends_no_map_and_keeps_its_words_until_a_new_state(tmp_path: Path, devices: bool,
                                                                               canvas_batches: list[Any]) -> None:
    app = mid_game(tmp_path, devices)
    board = app.game.board
    lit = tuple(board.state.highlights)
    labels: list[str] = []
    board.access.observe(lambda change: labels.append(change["new"]), names="label")
    canvas_batches.clear()
    for _ in range(POLLS):
        poll(app)
    assert canvas_batches == [], f"{POLLS} polls of an idle projector sent {len(canvas_batches)} canvas canvas_batches"
    assert labels == [], f"the map's words changed {len(labels)} times while nothing changed"
    assert tuple(board.state.highlights) == lit, "the lit cells are gone from the map"

    # a new state (a decision made on another page of the room) is painted at the next poll
    other = Room.open(app.store, app.room.code, teacher=app.teacher)
    other.act(random.Random(3).choice(other.game.legal_actions()), expected_seq=other.next_seq, teacher=True)
    poll(app)
    assert canvas_batches, "a new state of the room was not painted"
    shown = board.state
    assert shown.typhoons == board_state_of(public_table(app.room).typhoons).typhoons, "the map shows old storms"
    assert shown.highlights == tuple(tuple(c) for c in app.decisions.highlight_cells()), "the lit cells are old ones"
