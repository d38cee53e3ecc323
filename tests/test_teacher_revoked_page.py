"""A projector still open with a teacher key the server's administrator took away (``typhoon-edu teacher remove``)
or replaced (``teacher new-key``) says so at its next poll or action, in its language, and shows nothing else: no
teacher's control, no join link; the teams' phones in that room play on (docs/security.md row 41).

Before, the page kept showing the game it had loaded, its drawer and join links included, until it was closed; its
actions were refused with "This game belongs to another teacher. Ask them for a hand-over link.", and its update
loop kept trying to run the computer players and said the same refusal every two seconds.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_classplay_apps import all_text

from typhoon_edu.classroom.errors import NotAllowed
from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import (
    add_teacher,
    key_withdrawn,
    local_teacher,
    remove_teacher,
    replace_key,
)
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice

PEOPLE = [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea", name="Ken")]
WORDS = {
    ("removed", "en"): ("This teacher key was removed", "ask the local teacher"),
    ("replaced", "en"): ("This teacher key was replaced", "sign in again with your new key"),
    ("removed", "zh-TW"): ("這把老師金鑰已被收回", "請本機老師"),
    ("replaced", "zh-TW"): ("這把老師金鑰已換成新的", "請用新金鑰重新登入"),
}


@pytest.fixture
def db(db_url: str) -> Iterator[RoomStore]:
    store = RoomStore(db_url)
    yield store
    store.close()


def take_away(store: RoomStore, how: str, teacher) -> None:  # noqa: ANN001
    if how == "removed":
        remove_teacher(store, teacher)
    else:
        replace_key(store, teacher)




# ---------------------------------------------------------------------- the kernel
@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_the_room_notices_at_its_next_poll_that_its_key_was_taken_away(db: RoomStore, how: str) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    room = Room.create(db, PEOPLE, seed=7, lang="en", teacher=lin, start="Taiwan")
    phone = Room.open_seat(db, room.issued_tokens["Taiwan"])
    assert room.teacher_lost is None and key_withdrawn(db, lin) is None

    take_away(db, how, lin)
    update = room.sync()
    assert update.meta_changed and room.teacher_lost == how
    assert room.bot_to_move() is None  # this page runs nothing any more
    with pytest.raises(NotAllowed):
        room.pause()
    # the team's phone plays on: it decides, and the room's new owner opens the room with its move
    phone.sync()
    view = phone.seat_view()
    assert view.my_turn and view.legal_actions
    phone.act(view.legal_actions[0])
    owner = db.room(room.id).owner
    kept = Room.open(db, room.id, teacher=local_teacher(db) if how == "removed" else _teacher_of(db, owner))
    assert kept.seq == phone.seq == room.seq + 1 and kept.teacher_lost is None
    kept.pause()
    assert db.room(room.id).paused


def _teacher_of(store: RoomStore, teacher_id: str):  # noqa: ANN202
    from typhoon_edu.classroom.teachers import teachers

    return next(t for t in teachers(store) if t.id == teacher_id)


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_the_room_notices_at_the_next_action_without_a_poll(db: RoomStore, how: str) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    room = Room.create(db, PEOPLE, seed=7, lang="en", teacher=lin, lobby=True)
    take_away(db, how, lin)
    with pytest.raises(NotAllowed) as refused:
        room.begin()  # the lobby's "Show the board now"
    assert refused.value.kind == "not_your_room" and room.teacher_lost == how
    assert db.room(room.id).lobby  # nothing was written


def test_a_withdrawn_key_sets_up_no_new_room(db: RoomStore) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    remove_teacher(db, lin)
    with pytest.raises(NotAllowed) as refused:
        Room.create(db, PEOPLE, seed=7, teacher=lin)
    assert refused.value.kind == "teacher_only"
    assert db.rooms() == []


def test_a_room_handed_to_a_colleague_is_no_withdrawn_key(db: RoomStore) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    chen, _ = add_teacher(db, "Mr Chen")
    room = Room.create(db, PEOPLE, seed=7, teacher=lin)
    Room.take(db, room.handover_link(), teacher=chen)
    room.sync()
    assert room.teacher_lost is None and key_withdrawn(db, lin) is None
    with pytest.raises(NotAllowed):
        room.pause()  # refused as before (the room is Mr Chen's), and Ms Lin's key still stands
    assert room.teacher_lost is None


def test_a_second_teacher_of_the_same_name_is_not_a_new_key() -> None:
    store = RoomStore("sqlite://")
    lin, _ = add_teacher(store, "Ms Lin")
    add_teacher(store, "Ms Lin")  # another colleague of the same name (teacher add --force)
    remove_teacher(store, lin)
    assert key_withdrawn(store, lin) == "removed"


# ---------------------------------------------------------------------- the projector page
def phones_class(store: RoomStore, teacher, lang: str = "en") -> tuple[ProjectorApp, dict[str, SeatApp]]:  # noqa: ANN001
    app = ProjectorApp(lang=lang, store=store, fullscreen=False, teacher=teacher, public_url="http://127.0.0.1:8866/")
    room = app.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                                   SeatChoice("medium", "", "Korea")], regions="chosen", seed=11, speed=0))
    phones = {r: SeatApp(lang=lang, store=store, token=t) for r, t in room.issued_tokens.items()}
    app.show_board()
    for p in phones.values():
        p.sync()
    return app, phones


def assert_notice_only(app: ProjectorApp, how: str, lang: str) -> None:
    title, todo = WORDS[(how, lang)]
    shown = all_text(app.body)
    assert app.key_gone == how and app.screen == "key_gone" and app.room is None
    assert title in shown and todo in shown
    assert list(app.body.children) == [app.setup_header, app.key_notice]  # no board, drawer, join link or button
    assert "?seat=" not in all_text(app.root)  # (the join cards' links were in the drawer and the lobby)
    assert "Traceback" not in all_text(app.root)


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_the_projector_shows_the_notice_at_its_next_poll_and_the_phones_play_on(db: RoomStore, how: str) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    app, phones = phones_class(db, lin)
    room_id = app.room.id
    assert app.screen == "game" and "?seat=" in app.join_cards()

    take_away(db, how, lin)
    app.advance()  # what the update loop does every 0.2 s: read the store
    assert_notice_only(app, how, "en")
    app.set_lang("zh-TW")  # the notice follows the page's language
    assert_notice_only(app, how, "zh-TW")
    assert WORDS[(how, "en")][0] not in all_text(app.body)
    # a team's phone is still in its game and decides when it is its turn
    mei = phones["Taiwan"]
    mei.sync()
    assert mei.room.seat_view().my_turn and "Traceback" not in all_text(mei.root)
    seq = mei.room.seq
    cells = mei.decisions.highlight_cells()  # the first decision: where to place a storm
    assert cells and mei.decide(mei.decisions.cell_action(cells[0]))
    assert db.head(room_id).seq == seq + 1


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_projector_shows_the_notice_at_the_next_teacher_action(db: RoomStore, lang: str) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    app, _phones = phones_class(db, lin, lang)
    remove_teacher(db, lin)  # no poll in between
    app.drawer.pause_button.click()  # the drawer's Pause button
    assert_notice_only(app, "removed", lang)
    assert not db.room(_phones["Taiwan"].room.id).paused


def test_a_refused_undo_says_the_notice_not_the_refusal(db: RoomStore) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    app, _phones = phones_class(db, lin)
    replace_key(db, lin)
    app.undo()  # the drawer's Undo (its refusal is said on the page, not raised)
    assert_notice_only(app, "replaced", "en")
    assert "another teacher" not in all_text(app.root) and app.problems.message == ""


def test_the_rooms_list_and_start_of_a_withdrawn_key_show_the_notice(db: RoomStore) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    app = ProjectorApp(lang="en", store=db, fullscreen=False, teacher=lin)
    assert app.refresh_rooms() == [] and app.key_gone is None
    remove_teacher(db, lin)
    app._start_clicked(SetupChoices([SeatChoice("person", "Mei"), SeatChoice("easy"), SeatChoice("easy")], seed=3))
    assert_notice_only(app, "removed", "en")
    assert db.rooms() == []  # nothing was set up
    other = ProjectorApp(lang="zh-TW", store=db, fullscreen=False, teacher=lin)
    other.refresh_rooms()
    assert_notice_only(other, "removed", "zh-TW")


def test_the_local_teachers_page_never_shows_it(store: RoomStore) -> None:
    me = local_teacher(store)
    app, _phones = phones_class(store, me)
    lin, _ = add_teacher(store, "Ms Lin")
    remove_teacher(store, lin)  # another teacher removed: nothing changes here
    app.advance()
    assert app.key_gone is None and app.screen == "game" and app.check_teacher(ask=True) is None
