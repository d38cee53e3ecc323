"""The class's speed: the teacher's choice on the projector (Slow, Normal, Fast, Faster, no animation) is kept by the
room (schema 6), written when the teacher starts the game and whenever they change it, and every team's phone animates
at it (a measurement at Fast found the phones 4.5-10 s behind the projector during runs of bot turns, since they
animated at Normal). A seat link's own ``&speed=`` still decides for that one device.

Writing it is a teacher action: a seat's room, or a page without the teacher's key, is refused and nothing changes
(SQLite and PostgreSQL, ``db_url``). A room from before schema 6 reads as Normal (1.0).
"""

from __future__ import annotations

import math
import threading

import pytest
import sqlalchemy as sa
from classplay_helpers import PEOPLE, SEAT_CHOICES

from typhoon_edu import i18n
from typhoon_edu.classroom.errors import NotAllowed
from typhoon_edu.classroom.rooms import Room
from typhoon_edu.classroom.store import SCHEMA_VERSION, RoomStore, sqlite_url
from typhoon_edu.classroom.teachers import add_teacher, local_teacher
from typhoon_edu.ui.classplay import launch
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices


def _projector(store: RoomStore, speed: float, lang: str = "en") -> ProjectorApp:
    """A projector whose teacher started a game of Mei (Taiwan), Ken (Japan) and a computer player at ``speed``."""
    projector = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    projector.start(SetupChoices(list(SEAT_CHOICES), regions="chosen", seed=11, speed=speed, devices=True))
    projector.show_board()
    return projector


def _phone(store: RoomStore, projector: ProjectorApp, region: str, lang: str = "en") -> SeatApp:
    return SeatApp(lang=lang, store=store, token=projector.room.issued_tokens[region], device=f"phone-{region}")


# ---------------------------------------------------------------------- the phones follow the class
@pytest.mark.parametrize("speed", [2.0, 0.0])
def test_the_phones_animate_at_the_speed_the_teacher_started_the_game_with(store: RoomStore, speed: float) -> None:
    projector = _projector(store, speed)
    for region in ("Taiwan", "Japan"):
        assert _phone(store, projector, region).pacer.speed() == speed
    assert store.room(projector.room.id).speed == speed


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_phone_follows_the_teachers_change_of_speed(store: RoomStore, lang: str) -> None:
    projector = _projector(store, 1.0, lang)
    mei = _phone(store, projector, "Taiwan", lang)
    assert mei.pacer.speed() == 1.0
    for speed in (2.0, 4.0, 0.5, 0.0, 1.0):
        projector.game.speed.value = speed  # the teacher's tap on the projector's speed buttons
        mei.sync()  # the phone's next poll
        assert mei.pacer.speed() == speed, speed
        assert store.room(projector.room.id).speed == speed


def test_a_phone_joining_mid_game_gets_the_current_speed(store: RoomStore) -> None:
    projector = _projector(store, 1.0)
    mei = _phone(store, projector, "Taiwan")
    assert mei.decide(mei.decisions.cell_action((8, 8)))
    projector.advance()
    projector.set_speed(4.0)
    ken = _phone(store, projector, "Japan")  # Ken's phone opens his link only now
    assert ken.pacer.speed() == 4.0
    ken_again = SeatApp(lang="en", store=store, token=ken.token, device="phone-Japan")  # a reload
    assert ken_again.pacer.speed() == 4.0


def test_a_reopened_projector_takes_the_rooms_speed_without_writing_it(store: RoomStore) -> None:
    projector = _projector(store, 2.0)
    room = projector.room
    version = store.head(room.id).version
    again = ProjectorApp(lang="en", store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    again.open(room.code)  # the teacher's reload
    assert again.speed == 2.0 and again.game.speed.value == 2.0
    assert store.head(room.id).version == version


def test_a_language_switch_on_the_projector_writes_no_speed(store: RoomStore) -> None:
    """Relabelling the speed buttons resets them to their first choice for a moment: not the teacher's choice."""
    projector = _projector(store, 2.0)
    version = store.head(projector.room.id).version
    projector.set_lang("zh-TW")
    projector.set_lang("en")
    assert store.head(projector.room.id).version == version and store.room(projector.room.id).speed == 2.0


def test_a_rematch_keeps_the_classs_speed(store: RoomStore) -> None:
    projector = _projector(store, 1.0)
    projector.set_speed(4.0)
    old = projector.room
    old.end()
    new = projector.rematch()
    assert new is not None and new.id != old.id
    assert store.room(new.id).speed == 4.0 and projector.speed == 4.0


def test_a_seat_links_own_speed_decides_for_that_device(store: RoomStore) -> None:
    projector = _projector(store, 1.0)
    token = projector.room.issued_tokens["Taiwan"]
    own = launch({"seat": token, "speed": "0"}, lang="en", store=store, display=False)
    plain = launch({"seat": projector.room.issued_tokens["Japan"]}, lang="en", store=store, display=False)
    projector.set_speed(2.0)
    own.sync()
    plain.sync()
    assert own.pacer.speed() == 0.0  # (a device that asked for no animation)
    assert plain.pacer.speed() == 2.0


def test_a_seat_link_asking_for_normal_speed_keeps_it(store: RoomStore) -> None:
    """``&speed=1`` is the device's own Normal, not "follow the class" (only a link without ``&speed=`` follows)."""
    projector = _projector(store, 1.0)
    normal = launch({"seat": projector.room.issued_tokens["Taiwan"], "speed": "1"}, lang="en", store=store,
                    display=False)
    projector.set_speed(4.0)
    normal.sync()
    assert normal.pacer.speed() == 1.0


@pytest.mark.parametrize("raw", ["fast", "nan", "inf", ""])
def test_a_seat_link_with_an_unusable_speed_follows_the_class(store: RoomStore, raw: str) -> None:
    """A mistyped ``&speed=`` is no speed of the device's own: the phone follows the class, as without one."""
    projector = _projector(store, 1.0)
    phone = launch({"seat": projector.room.issued_tokens["Taiwan"], "speed": raw}, lang="en", store=store,
                   display=False)
    projector.set_speed(4.0)
    phone.sync()
    assert phone.pacer.speed() == 4.0


# ---------------------------------------------------------------------- a teacher's action only
def test_a_student_cannot_change_the_speed(db_url: str) -> None:
    store = RoomStore(db_url)
    teacher = Room.create(store, PEOPLE, seed=3, lang="en", teacher=local_teacher(store))
    teacher.set_speed(2.0)
    phone = Room.open_seat(store, teacher.issued_tokens["Taiwan"], "phone-1")
    watcher = Room.open(store, teacher.code, teacher=None)  # a page without the teacher's key
    before = store.snapshot(teacher.id)
    for other in (phone, watcher):
        with pytest.raises(NotAllowed) as e:
            other.set_speed(0.0)
        assert e.value.kind == "teacher_only"
    assert store.snapshot(teacher.id) == before and store.room(teacher.id).speed == 2.0
    page = SeatApp(lang="en", store=store, token=teacher.issued_tokens["Japan"], device="phone-2")
    with pytest.raises(NotAllowed):  # the phone page's own kernel holds a seat's room
        page.room.set_speed(4.0)
    assert store.room(teacher.id).speed == 2.0 and page.pacer.speed() == 2.0


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_projector_whose_room_was_handed_over_cannot_change_the_speed(store: RoomStore, lang: str) -> None:
    """The write checks the teacher's credential against the room's owner in the store (the room was handed to a
    colleague a moment ago on another computer): refused and said; the projector's buttons go back to the class's."""
    projector = _projector(store, 1.0, lang)
    room = projector.room
    colleague, _key = add_teacher(store, "Mr Chen")
    Room.take(store, room.handover_link(), teacher=colleague)
    before = store.snapshot(room.id)
    projector.game.speed.value = 4.0
    assert store.snapshot(room.id) == before and store.room(room.id).speed == 1.0
    assert projector.speed == 1.0 and projector.game.speed.value == 1.0
    assert i18n.t("classroom.error.not_your_room", lang) in projector.message.value


def test_the_speed_buttons_work_while_the_last_moves_of_an_ended_game_still_play(store: RoomStore) -> None:
    """The game ended in the store (the last move made on a phone, or End on another page) while this projector still
    plays the moves before it: Faster speeds those up, with no "this game has ended" over a board still moving (found
    by a review: the refused write also set the buttons back)."""
    projector = _projector(store, 1.0)
    Room.open(store, projector.room.id, teacher=local_teacher(store)).end()  # another page of the teacher's
    projector.game.speed.value = 4.0
    assert projector.speed == 4.0 and projector.game.speed.value == 4.0
    assert "ended" not in projector.message.value.lower()


@pytest.mark.parametrize("bad", [-1.0, 8.5, math.nan, math.inf, True, "fast", None, 10**400])
def test_a_speed_out_of_range_is_refused_and_changes_nothing(store: RoomStore, bad: object) -> None:
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=local_teacher(store))
    before = store.snapshot(room.id)
    with pytest.raises(ValueError):
        room.set_speed(bad)  # type: ignore[arg-type]
    assert store.snapshot(room.id) == before


# ---------------------------------------------------------------------- rooms from before schema 6
def test_an_old_room_reads_normal_speed(db_url: str) -> None:
    """A database made before the class's speed (schema 5) is brought to schema 6; its rooms read as 1.0, and a room
    written by an older kernel still running (no speed in the row) too."""
    store = RoomStore(db_url)
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=local_teacher(store))
    token = room.issued_tokens["Taiwan"]
    with store._engine.begin() as conn:  # back to schema 5
        conn.execute(sa.text("UPDATE typhoon_meta SET value = '5' WHERE key = 'schema'"))
        conn.execute(sa.text("ALTER TABLE typhoon_rooms DROP COLUMN speed"))
    store.close()
    again = RoomStore(db_url)
    with again._engine.connect() as conn:
        assert conn.execute(sa.text("SELECT value FROM typhoon_meta WHERE key = 'schema'")).scalar() == \
            str(SCHEMA_VERSION) == "6"
    old = again.room(room.id)
    assert (old.speed, old.problem) == (1.0, "")
    assert SeatApp(lang="en", store=again, token=token, device="phone-1").pacer.speed() == 1.0
    teacher = Room.open(again, room.id, teacher=local_teacher(again))
    assert teacher.speed == 1.0
    teacher.set_speed(0.5)
    assert again.room(room.id).speed == 0.5
    with again._engine.begin() as conn:  # what an older kernel's write leaves
        conn.execute(sa.text("UPDATE typhoon_rooms SET speed = NULL, version = version + 1"))
    assert again.room(room.id).speed == 1.0 and teacher.sync().meta_changed and teacher.speed == 1.0


def test_a_damaged_speed_reads_normal_and_the_room_still_plays(tmp_path: object) -> None:
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))  # type: ignore[operator]
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=local_teacher(store))
    for damaged in ("'fast'", "-3", "1e999"):
        with store._engine.begin() as conn:
            conn.execute(sa.text(f"UPDATE typhoon_rooms SET speed = {damaged}"))
        row = store.room(room.id)
        assert (row.speed, row.problem) == (1.0, ""), damaged
        assert Room.open(store, room.code, teacher=local_teacher(store)).speed == 1.0


def test_an_old_database_opened_by_several_kernels_at_once_is_brought_up_to_date_once(db_url: str) -> None:
    """After an update, the teacher's page and the teams' pages may open a schema-5 database at the same moment: each
    opens it. (On PostgreSQL the kernels that lost the race met "column speed already exists" and showed the store's
    problem page: found by a review, 5 of 10 trials of 4 threads.)"""
    store = RoomStore(db_url)
    Room.create(store, PEOPLE, seed=3, lang="en", teacher=local_teacher(store))
    for _trial in range(3):
        with store._engine.begin() as conn:  # back to schema 5
            conn.execute(sa.text("UPDATE typhoon_meta SET value = '5' WHERE key = 'schema'"))
            conn.execute(sa.text("ALTER TABLE typhoon_rooms DROP COLUMN speed"))
        errors: list[BaseException] = []
        barrier = threading.Barrier(4)

        def opener(barrier: threading.Barrier, errors: list[BaseException]) -> None:
            barrier.wait()
            try:
                RoomStore(db_url).rooms()
            except BaseException as exc:  # noqa: BLE001 - collected for the assertion
                errors.append(exc)

        threads = [threading.Thread(target=opener, args=(barrier, errors)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == []
        with store._engine.connect() as conn:
            assert conn.execute(sa.text("SELECT value FROM typhoon_meta WHERE key = 'schema'")).scalar() == "6"
