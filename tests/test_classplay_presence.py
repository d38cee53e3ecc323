"""Which teams' devices are really there: each seat's page notes that it is there (at most every ~10 s, with its own
token, by the kernel's clock), the store keeps a last-seen time per seat (schema 5), and the teacher's drawer says
connected, not seen for N min, or no device yet, in place (no row rebuilt).

The store tests run on SQLite and PostgreSQL (``db_url``); the clocks are injected (``store.clock`` for the
last-seen times, ``room.beat_clock`` for a page's pace, ``drawer.clock`` for the drawer's reads).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import ipywidgets as widgets
import pytest
import sqlalchemy as sa
from classplay_helpers import T0, Clock

from typhoon_edu import i18n
from typhoon_edu.classroom import codes
from typhoon_edu.classroom.rooms import CONNECTED, HEARTBEAT, Room, Seat
from typhoon_edu.classroom.store import SCHEMA_VERSION, NewSeat, RoomStore, sqlite_url
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.teacher import PRESENCE_EVERY
from typhoon_edu.ui.classplay.viewdata import SeatChoice


def _two_teams(store: RoomStore) -> tuple[Room, dict[str, Room]]:
    """A teacher's room (Taiwan and Japan people, Korea a bot) and each team's phone on its seat."""
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea", "random")], seed=3, lang="en",
                       teacher=local_teacher(store))
    phones = {r: Room.open_seat(store, t, f"phone-{r}") for r, t in room.issued_tokens.items()}
    return room, phones


def _seen(store: RoomStore, room: Room) -> dict[str, float | None]:
    return {s.region: s.seen for s in store.seats(room.id)}


# ---------------------------------------------------------------------- the store (schema 5)
def test_a_schema_4_database_gets_the_seen_column_in_place(db_url: str) -> None:
    """A database made before presence opens, is brought to schema 5; a seat joined then counts as seen at its
    joining, and its page's heartbeat is kept from now on."""
    store = RoomStore(db_url)
    token = codes.new_token()
    row = store.create_room(setup={"players": ["Taiwan", "Japan", "Korea"]}, lang="en",
                            seats=[NewSeat("Taiwan", token_hash=codes.token_hash(token)), NewSeat("Japan", "greedy"),
                                   NewSeat("Korea", "random")])
    assert store.mark_joined(codes.token_hash(token))
    joined = store.seats(row.id)[0].joined
    with store._engine.begin() as conn:  # back to schema 4, as a database made before presence
        conn.execute(sa.text("UPDATE typhoon_meta SET value = '4' WHERE key = 'schema'"))
        conn.execute(sa.text("ALTER TABLE typhoon_seats DROP COLUMN seen"))
    store.close()
    again = RoomStore(db_url)
    with again._engine.connect() as conn:  # (6: the class's speed, tests/test_classplay_room_speed.py)
        assert conn.execute(sa.text("SELECT value FROM typhoon_meta WHERE key = 'schema'")).scalar() == \
            str(SCHEMA_VERSION) == "6"
    assert again.seats(row.id)[0].seen is None
    assert again.presence(row.id) == {"Taiwan": joined, "Japan": None, "Korea": None}
    again.clock = Clock()
    assert again.touch_seat(codes.token_hash(token))
    assert again.presence(row.id)["Taiwan"] == T0


def test_a_heartbeat_marks_only_its_own_token_s_seat_and_changes_no_version(db_url: str) -> None:
    """The store API: the seat is the token's (no caller names one); an unknown, revoked or replaced token, a seat
    not joined, a closed room: nothing is written. No view re-reads the room for a heartbeat (same version)."""
    store = RoomStore(db_url)
    store.clock = clock = Clock()
    room, phones = _two_teams(store)
    version = store.head(room.id).version
    clock.now = T0 + 50
    assert store.touch_seat(codes.token_hash(room.issued_tokens["Japan"]))
    assert _seen(store, room) == {"Taiwan": T0, "Japan": T0 + 50, "Korea": None}
    assert store.head(room.id).version == version, "a heartbeat made every view re-read the room"
    clock.now = T0 + 60
    assert not store.touch_seat(codes.token_hash("made-up"))
    assert not store.touch_seat(codes.token_hash(room.issued_tokens["Japan"]) + "x")
    assert _seen(store, room) == {"Taiwan": T0, "Japan": T0 + 50, "Korea": None}
    old_taiwan = room.issued_tokens["Taiwan"]
    room.revoke("Taiwan")
    assert not store.touch_seat(codes.token_hash(old_taiwan)), "a revoked token marked its seat"
    room.reissue_token("Taiwan")
    assert not store.touch_seat(codes.token_hash(old_taiwan)), "a replaced token marked its seat"
    assert not store.touch_seat(codes.token_hash(room.issued_tokens["Taiwan"])), "a seat no device joined is seen"
    assert _seen(store, room)["Taiwan"] is None, "a new join link kept the old device's last-seen time"
    room.end()
    assert not store.touch_seat(codes.token_hash(room.issued_tokens["Japan"])), "a closed room's seat was marked"


# ---------------------------------------------------------------------- the kernel (Room)
def test_a_page_beats_at_most_every_ten_seconds_by_the_kernel_s_clock(tmp_path: Path) -> None:
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    store.clock = clock = Clock()
    room, phones = _two_teams(store)
    japan = phones["Japan"]
    japan.beat_clock = beat = Clock(0.0)
    writes: list[str] = []
    touch = store.touch_seat
    store.touch_seat = lambda h: writes.append(h) or touch(h)  # type: ignore[method-assign]
    for t in range(0, 31):  # a poll every 0.2 s for 30 s would be 150 writes
        beat.now = float(t)
        clock.now = T0 + t
        japan.heartbeat()
        japan.heartbeat()
    assert len(writes) == 4 == 30 // HEARTBEAT + 1, writes
    assert _seen(store, room)["Japan"] == T0 + 30


def test_another_device_s_room_cannot_mark_a_seat_it_does_not_hold(db_url: str) -> None:
    """Japan's phone beats: only Japan is seen. The teacher's room has no seat to mark."""
    store = RoomStore(db_url)
    store.clock = clock = Clock()
    room, phones = _two_teams(store)
    clock.now = T0 + 100
    assert phones["Japan"].heartbeat()
    assert _seen(store, room) == {"Taiwan": T0, "Japan": T0 + 100, "Korea": None}
    with pytest.raises(TypeError):
        phones["Japan"].heartbeat("Taiwan")  # type: ignore[call-arg]  # a seat cannot be named
    clock.now = T0 + 200
    assert not room.heartbeat(), "the teacher's room marked a seat"
    assert _seen(store, room) == {"Taiwan": T0, "Japan": T0 + 100, "Korea": None}
    stranger = Room.open(store, room.id, teacher=None)  # a page watching without a key
    assert not stranger.heartbeat()
    assert _seen(store, room)["Taiwan"] == T0


def test_the_teacher_sees_connected_away_and_never(tmp_path: Path) -> None:
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    store.clock = clock = Clock()
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea", "random")], seed=3, lang="en",
                       teacher=local_teacher(store))
    Room.open_seat(store, room.issued_tokens["Taiwan"], "phone-Taiwan")  # Japan never joins
    clock.now = T0 + CONNECTED
    seen = room.presence()
    assert set(seen) == {"Taiwan", "Japan"}, "a bot seat has no device"
    assert (seen["Taiwan"].state, seen["Japan"].state) == ("connected", "never")
    clock.now = T0 + CONNECTED + 1
    assert room.presence()["Taiwan"].state == "away"
    assert room.presence()["Taiwan"].ago == CONNECTED + 1
    phone = Room.open_seat(store, room.issued_tokens["Taiwan"], "phone-Taiwan")
    with pytest.raises(Exception, match="only the teacher"):
        phone.presence()


def test_a_heartbeat_is_no_news_to_the_other_views(tmp_path: Path) -> None:
    """The views poll the room's version: a page's heartbeat must not make every phone redraw (meta_changed)."""
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    room, phones = _two_teams(store)
    for v in (room, *phones.values()):
        v.sync()
    assert phones["Japan"].heartbeat()
    assert not room.sync() and not phones["Taiwan"].sync()
    assert phones["Taiwan"].act("place 8,8").entries  # a move re-reads the room (and its seats) everywhere
    assert phones["Japan"].heartbeat() is False  # (within 10 s)
    phones["Japan"].beat_clock = lambda: 1e12
    assert phones["Japan"].heartbeat()
    update = phones["Japan"].sync()
    assert update.entries and not update.meta_changed, "a heartbeat's last-seen time was taken for a seat change"
    assert not room.sync().meta_changed


# ---------------------------------------------------------------------- the seat's page (its loop)
def test_the_seat_page_beats_only_while_its_browser_answers(tmp_path: Path) -> None:
    """The kernel of a phone that ran out of battery lives on until culled: it must not say the phone is there."""
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    store.clock = Clock()
    room, _ = _two_teams(store)

    async def page(answers: bool) -> float | None:
        phone = SeatApp(lang="en", store=store, token=room.issued_tokens["Japan"], device="phone-Japan")
        assert phone.screen == "seat" and phone.room is not None
        phone.room.beat_clock = lambda: 1e12  # due at once
        if not answers:
            phone.link.clock = lambda: phone.link.heard + 60  # its page has said nothing for a minute
        store.clock = Clock(T0 + (500 if answers else 400))
        phone._drive()
        await asyncio.sleep(0.5)
        phone._stop()
        return _seen(store, room)["Japan"]

    assert asyncio.run(page(answers=False)) == T0, "a silent page's kernel said its device is there"
    assert asyncio.run(page(answers=True)) == T0 + 500, "the page's loop did not say its device is there"


# ---------------------------------------------------------------------- the teacher's drawer
def _class(tmp_path: Path, lang: str, clock: Clock) -> tuple[ProjectorApp, dict[str, SeatApp]]:
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    store.clock = clock
    app = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = app.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                                   SeatChoice("person", "Ann", "Korea"), SeatChoice("medium", "", "Philippines")],
                                  regions="chosen", seed=11, speed=0))
    phones = {r: SeatApp(lang=lang, store=store, token=t, device=f"phone-{r}") for r, t in room.issued_tokens.items()
              if r != "Korea"}  # Korea's phone never comes
    app.show_board()
    app.advance()
    app.drawer.clock = Clock(0.0)
    app.drawer.open()
    return app, phones


def _state(app: ProjectorApp, region: str) -> widgets.HTML:
    return app.drawer._rows[region].state


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_drawer_says_who_is_there_and_updates_in_place(tmp_path: Path, lang: str) -> None:
    clock = Clock()
    app, phones = _class(tmp_path, lang, clock)
    drawer = app.drawer
    t = i18n.t
    assert t("classplay.teacher.connected", lang) in _state(app, "Taiwan").value
    assert t("classplay.teacher.connected", lang) in _state(app, "Japan").value
    assert t("classplay.teacher.not_joined", lang) in _state(app, "Korea").value
    rows = dict(drawer._rows)
    states = {r: row.state for r, row in rows.items()}
    # Taiwan's phone goes to sleep; Japan's page keeps beating
    clock.now = T0 + 190
    phones["Japan"].room.beat_clock = lambda: 1e12
    assert phones["Japan"].room.heartbeat()
    clock.now = T0 + 200
    drawer.refresh_presence()
    away = t("classplay.teacher.away_minutes", lang, n=3)
    assert away in _state(app, "Taiwan").value and "data-presence='away'" in _state(app, "Taiwan").value
    assert t("classplay.teacher.connected", lang) in _state(app, "Japan").value
    assert t("classplay.teacher.bound", lang) in _state(app, "Taiwan").value, "the device's link state went"
    assert drawer._rows == rows and {r: row.state for r, row in drawer._rows.items()} == states, \
        "a row was rebuilt: the keyboard's focus in it is lost"
    assert [c for c in drawer.seats.children] == [row.box for row in rows.values()]
    # back: the phone woke up and its page beat again
    phones["Taiwan"].room.beat_clock = lambda: 1e12
    assert phones["Taiwan"].room.heartbeat()
    drawer.refresh_presence()
    assert t("classplay.teacher.connected", lang) in _state(app, "Taiwan").value
    assert drawer._rows == rows


def test_the_drawer_reads_who_is_there_only_while_open_and_not_on_every_redraw(tmp_path: Path) -> None:
    clock = Clock()
    app, _phones = _class(tmp_path, "en", clock)
    room = app.room
    reads: list[int] = []
    presence = room.presence
    room.presence = lambda: reads.append(1) or presence()  # type: ignore[method-assign]
    for _ in range(20):  # the projector redraws many times a second while storms move
        app.drawer.render()
    assert reads == [], "the drawer read the store on every redraw"
    app.drawer.clock.now += PRESENCE_EVERY
    app.drawer.render()
    assert len(reads) == 1
    app.drawer.close()
    app.drawer.clock.now += 10 * PRESENCE_EVERY
    app.drawer.render()
    app.drawer.refresh_presence()
    assert len(reads) == 1, "a closed drawer kept reading the store"


def test_the_drawer_says_who_was_there_at_its_last_read_without_reading_again(tmp_path: Path) -> None:
    """``TeacherDrawer.last_presence``: the open drawer's latest read of this room (what the lobby's cards take
    instead of reading the store a second time), None once it is stale, closed, or of another room."""
    clock = Clock()
    app, _phones = _class(tmp_path, "en", clock)
    drawer, room = app.drawer, app.room
    reads: list[int] = []
    presence = room.presence
    room.presence = lambda: reads.append(1) or presence()  # type: ignore[method-assign]
    seen = drawer.last_presence(room)
    assert seen is not None and set(seen) == {"Taiwan", "Japan", "Korea"}
    assert seen["Taiwan"].state == "connected" and seen["Korea"].state == "never"
    assert reads == [], "asking what the drawer last read read the store"
    assert drawer.last_presence(object()) is None, "another room's devices were given for this one"
    drawer.clock.now += 2 * PRESENCE_EVERY + 0.1  # the drawer's task has not read for two intervals
    assert drawer.last_presence(room) is None
    drawer.refresh_presence()
    assert drawer.last_presence(room) is not None and len(reads) == 1
    drawer.close()
    assert drawer.last_presence(room) is None, "a closed drawer's read is no longer news"


def test_a_drawer_rendered_before_any_read_still_says_joined(tmp_path: Path) -> None:
    """Without a presence read (the store away a moment), a joined seat's row says what it said before."""
    clock = Clock()
    app, _phones = _class(tmp_path, "en", clock)
    app.drawer.close()
    app.drawer._presence, app.drawer._presence_of = {}, None
    app.drawer._shape = None
    app.drawer.render()
    assert i18n.t("classplay.teacher.joined", "en") in _state(app, "Japan").value


# ---------------------------------------------------------------------- the lobby's cards
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_lobby_card_of_a_team_whose_phone_went_quiet_says_so(tmp_path: Path, lang: str) -> None:
    """In the lobby a card said "joined" for a phone closed after joining, however long ago."""
    clock = Clock()
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    store.clock = clock
    app = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = app.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                                   SeatChoice("person", "Ann", "Korea")], regions="chosen", seed=11, speed=0))
    phones = {r: SeatApp(lang=lang, store=store, token=t, device=f"phone-{r}") for r, t in room.issued_tokens.items()
              if r != "Korea"}  # Korea has not joined: the board stays on the lobby
    app._take(app.room.sync())
    assert app.screen == "lobby"
    assert app.lobby_presence(force=True) is False  # both just joined: nothing new to say
    away = i18n.t("classplay.teacher.away_minutes", lang, n=3)
    clock.now = T0 + 190
    phones["Japan"].room.beat_clock = lambda: 1e12
    assert phones["Japan"].room.heartbeat()  # Ken's page keeps beating; Mei's phone was closed
    clock.now = T0 + 200
    assert app.lobby_presence(force=True) is True
    cards = app.lobby.cards.value
    mei = cards[cards.index('data-region="Taiwan"'):cards.index('data-region="Japan"')]
    ken = cards[cards.index('data-region="Japan"'):cards.index('data-region="Korea"')]
    assert away in mei and "typhoon-join-away" in mei
    assert away not in ken and "typhoon-join-away" not in ken
    assert app.lobby_presence() is False  # read again only after PRESENCE_EVERY seconds
    assert PRESENCE_EVERY > 0


def test_a_phone_left_on_a_closed_room_writes_nothing_for_its_heartbeat(tmp_path: Path) -> None:
    """After the game the phones stay on their seat pages (waiting for a rematch): a closed room marks no seat, so its
    heartbeat must not take the database's write lock every 10 s per phone for a write that changes nothing."""
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    room, phones = _two_teams(store)
    japan = phones["Japan"]
    japan.beat_clock = lambda: 1e12  # due at once
    writes: list[str] = []
    touch = store.touch_seat
    store.touch_seat = lambda h: writes.append(h) or touch(h)  # type: ignore[method-assign]
    room.end()
    japan.sync()
    assert not japan.is_open
    assert japan.heartbeat() is False
    assert writes == [], "a closed room's page still wrote its heartbeat"


def test_a_heartbeat_the_store_could_not_save_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The team is not bothered (it is not its problem), but the failure leaves a line in the log: the drawer will
    say the phone is not seen while it is there, and the log is where the reason is."""
    from typhoon_edu.classroom.errors import StoreError

    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    _room, phones = _two_teams(store)
    japan = phones["Japan"]
    japan.beat_clock = lambda: 1e12

    def locked(_h: str) -> bool:
        raise StoreError("the room database could not note the device: database is locked", kind="locked")

    store.touch_seat = locked  # type: ignore[method-assign]
    with caplog.at_level("WARNING"):
        assert japan.heartbeat() is False
    assert any("heartbeat" in r.getMessage() and "locked" in r.getMessage() for r in caplog.records), \
        "a heartbeat that failed left no word anywhere"
