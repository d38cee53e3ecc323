"""The teacher's rematch made safe against a second press, a follow from a room still played, and a double read.

* **One successor.** A second Rematch of the same old room (a second teacher tab, a reload of the results, a
  double tap) opens the new room the first one made instead of making another and renaming the old room's
  successor, so every phone that follows ends up in the same room. The store decides it in the write that names
  the successor (a compare-and-set on the old room's row), so two rematches at the same moment make one room on
  SQLite (its write lock) and on PostgreSQL (the row lock and READ COMMITTED's re-check).
* **Follow only from a closed room.** :meth:`Room.follow` (and the offer, :func:`rooms.rematch_for`) works only
  from a room whose game has finished or was ended: a device still in a game being played is refused
  (NotAllowed ``game_not_over``) whatever its page sends. docs/security.md, row 35.
* **One presence read in the lobby.** With the teacher's drawer open on the lobby, the projector's cards use the
  drawer's read of who is there (one read per PRESENCE_EVERY), instead of a second read of their own.
"""

from __future__ import annotations

import types

import pytest
from classplay_helpers import PEOPLE, T0, Clock, ended_room
from race_helpers import race

from typhoon_edu import i18n
from typhoon_edu.classroom import rooms
from typhoon_edu.classroom.errors import ClassroomError, NotAllowed
from typhoon_edu.classroom.rooms import Room
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.ui.classplay import projector as projector_module
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.teacher import PRESENCE_EVERY
from typhoon_edu.ui.classplay.viewdata import SeatChoice


def choices(devices: bool = True) -> SetupChoices:
    return SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                         SeatChoice("medium", "", "Korea")], regions="chosen", seed=11, speed=0, devices=devices)


def projector_of(store: RoomStore, lang: str = "en") -> ProjectorApp:
    return ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/",
                        teacher=local_teacher(store))


# ---------------------------------------------------------------------- one successor
def test_a_second_rematch_of_a_room_opens_the_new_room_the_first_made(db_url: str) -> None:
    """In the kernel: the second Room.create(after=old) is the first one's room, with the same seat links."""
    store = RoomStore(db_url)
    teacher = local_teacher(store)
    old, tokens = ended_room(store, {"Taiwan": "phone-T", "Japan": "phone-J"})
    first = Room.create(store, PEOPLE, seed=4, lang="en", teacher=teacher, lobby=True, after=old)
    taiwan, _ = Room.follow(store, tokens["Taiwan"], "phone-T")  # a phone follows before the second press
    again = Room.create(store, PEOPLE, seed=5, lang="en", teacher=teacher, lobby=True,
                        after=Room.open(store, old.code, teacher=teacher))  # another teacher page's room object
    assert again.id == first.id, "a second rematch made another room"
    assert store.room(old.id).successor == first.id and len(store.rooms()) == 2
    assert again.setup["seed"] == first.setup["seed"]  # the first one's game, not a new shuffle
    assert again.issued_tokens == {"Japan": first.issued_tokens["Japan"]}  # Taiwan's seat is taken: no link
    japan, _ = Room.follow(store, tokens["Japan"], "phone-J")  # a phone that follows now: the same room
    assert taiwan.id == japan.id == first.id


def test_two_teacher_pages_that_rematch_the_same_room_end_up_on_one_new_room(store: RoomStore) -> None:
    """A projector on the results, and a second tab (or a reload) of the same results: both press Rematch."""
    first = projector_of(store)
    old = first.start(choices())
    phones = {r: SeatApp(lang="en", store=store, token=t, device=f"phone-{r}") for r, t in old.issued_tokens.items()}
    first.show_board()
    first.drawer.ask_end()
    first.drawer.end()
    second = projector_of(store, "zh-TW")
    second.open(old.code)
    assert first.screen == second.screen == "results"
    new = first.rematch()
    phones["Taiwan"].sync()
    assert phones["Taiwan"].follow_rematch() and phones["Taiwan"].room.id == new.id
    again = second.rematch()
    assert again is not None and again.id == new.id, "the second page made another room"
    assert second.room.id == new.id and second.screen == "lobby"  # shown as if it had made it
    assert second.join_url("Japan") == first.join_url("Japan")  # the same QR code on both pages
    assert "Japan" in second.join_cards() and "Taiwan" in second.join_cards()
    assert store.room(old.id).successor == new.id and len(store.rooms()) == 2
    phones["Japan"].sync()
    assert phones["Japan"].follow_rematch()
    assert phones["Japan"].room.id == phones["Taiwan"].room.id == new.id
    second._take(second.room.sync())
    assert second._all_joined()


def test_two_rematches_at_the_same_moment_make_one_new_room(db_url: str) -> None:
    """Three teacher kernels (each its own store connection) rematch the same room at once: one room is made."""
    setup_store = RoomStore(db_url)
    old, _ = ended_room(setup_store, {})
    stores = [RoomStore(db_url) for _ in range(3)]
    pages = [Room.open(s, old.id, teacher=local_teacher(s)) for s in stores]

    def attempt(i: int) -> str:
        try:
            return Room.create(stores[i], PEOPLE, seed=10 + i, lang="en", teacher=local_teacher(stores[i]),
                               lobby=True, after=pages[i]).id
        except ClassroomError as exc:
            return f"refused {exc.kind}"

    outcomes = race(3, attempt)
    assert len(outcomes) == 3, outcomes
    successor = setup_store.room(old.id).successor
    assert outcomes == [successor] * 3, outcomes
    assert len(setup_store.rooms()) == 2, "a rematch that lost the race left a room behind"
    for s in stores:
        s.close()


def test_a_rematch_after_the_new_game_ended_or_was_deleted_makes_a_new_room(store: RoomStore) -> None:
    """The old room's successor is kept while it is open; once it is over (or gone), a Rematch of the old
    results is a new game again (else the button would open a finished game, or fail for ever)."""
    teacher = local_teacher(store)
    old, _ = ended_room(store, {})
    first = Room.create(store, PEOPLE, seed=4, lang="en", teacher=teacher, after=old)
    first.end()
    second = Room.create(store, PEOPLE, seed=5, lang="en", teacher=teacher, after=old)
    assert second.id != first.id and store.room(old.id).successor == second.id and second.is_open
    second.delete()
    third = Room.create(store, PEOPLE, seed=6, lang="en", teacher=teacher, after=old)
    assert third.id not in (first.id, second.id) and store.room(old.id).successor == third.id


# ---------------------------------------------------------------------- follow only from a closed room
def test_a_device_cannot_follow_from_a_room_still_being_played(db_url: str) -> None:
    """A successor named while the old game is still played (the kernel allows the teacher that): no device of
    the old room may move to the new one until the old game is over, whatever its page sends."""
    store = RoomStore(db_url)
    teacher = local_teacher(store)
    old = Room.create(store, PEOPLE, seed=3, lang="en", teacher=teacher)
    tokens = dict(old.issued_tokens)
    for region in ("Taiwan", "Japan"):
        Room.open_seat(store, tokens[region], f"phone-{region}")
    new = Room.create(store, PEOPLE, seed=4, lang="en", teacher=teacher, lobby=True, after=old)
    assert store.room(old.id).is_open and store.room(old.id).successor == new.id
    before = store.seats(new.id)
    for region in ("Taiwan", "Japan"):  # each team's own device, with its own live token
        with pytest.raises(NotAllowed) as e:
            Room.follow(store, tokens[region], f"phone-{region}")
        assert e.value.kind == "game_not_over"
        assert rooms.rematch_for(store, tokens[region], f"phone-{region}") is None
    assert store.seats(new.id) == before, "a refused follow changed a seat of the new room"
    for lang in i18n.LANGS:
        assert e.value.text(lang) == i18n.t("classroom.error.game_not_over", lang)
    old.end()
    room, _ = Room.follow(store, tokens["Japan"], "phone-Japan")
    assert room.id == new.id and room.viewer == "Japan"


# ---------------------------------------------------------------------- one presence read in the lobby
def test_the_lobby_reads_who_is_there_once_per_interval_with_the_drawer_open(
        store: RoomStore, monkeypatch: pytest.MonkeyPatch) -> None:
    store.clock = clock = Clock()
    reads: list[str] = []
    read = store.presence

    def counting(room_id: str) -> dict[str, float | None]:
        reads.append(room_id)
        return read(room_id)

    monkeypatch.setattr(store, "presence", counting)
    app = projector_of(store)
    room = app.start(choices())
    phones = {r: SeatApp(lang="en", store=store, token=t, device=f"phone-{r}") for r, t in room.issued_tokens.items()
              if r == "Taiwan"}  # Japan has not joined: the board stays on the lobby
    app._take(app.room.sync())
    assert app.screen == "lobby" and phones
    tick = Clock(0.0)  # the page's own clock (time.monotonic) and the drawer's
    monkeypatch.setattr(projector_module, "time", types.SimpleNamespace(monotonic=tick, time=projector_module.time.time))
    app.drawer.clock = tick
    app.drawer.open()

    def run(seconds: float) -> None:
        """``seconds`` of the page's loop: the lobby's check every 0.2 s, the drawer's read every PRESENCE_EVERY."""
        due = tick.now + PRESENCE_EVERY
        end = tick.now + seconds
        while tick.now < end - 1e-9:
            tick.now += 0.2
            if app.drawer.shown and tick.now >= due - 1e-9:
                app.drawer.refresh_presence()  # what the open drawer's own task does
                due += PRESENCE_EVERY
            app.lobby_presence()

    reads.clear()
    run(6 * PRESENCE_EVERY)
    assert len(reads) == 6, f"{len(reads)} presence reads in {6 * PRESENCE_EVERY:.0f} s with the drawer open"
    # Mei's phone went quiet: the lobby's card says so from the drawer's read
    clock.now = T0 + 200
    run(PRESENCE_EVERY)
    away = i18n.t("classplay.teacher.away_minutes", "en", n=3)
    cards = app.lobby.cards.value
    assert away in cards[cards.index('data-region="Taiwan"'):cards.index('data-region="Japan"')]
    # the drawer closed: the lobby reads for itself, once per interval
    app.drawer.close()
    reads.clear()
    run(4 * PRESENCE_EVERY)
    assert len(reads) == 4, f"{len(reads)} presence reads in {4 * PRESENCE_EVERY:.0f} s with the drawer closed"

