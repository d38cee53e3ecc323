"""A room's lifecycle in class play: the lobby before the teacher's start, and the teacher's rematch.

* **The lobby.** While the projector shows the join codes, no team may play: the room records that
  the game has not begun (``lobby``), the kernel refuses a team's decision (``not_started``), a
  phone says the teacher will start soon and offers no button, and a reopened room keeps the state
  (a lobby stays a lobby, a begun game stays begun). One computer (no lobby) plays at once.
* **The rematch.** The teacher's *Rematch* makes a new room that the old one names as its
  successor; a phone still on the old room is told, in its language, and one tap puts it in its own
  seat of the new room. The kernel gives a device the new seat only if it held that region's seat
  in the old room (the region is the old seat's, never the page's word), see docs/security.md.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest
import sqlalchemy as sa
from classplay_helpers import PEOPLE, ended_room

from typhoon_edu import i18n
from typhoon_edu.classroom import rooms
from typhoon_edu.classroom.errors import NotAllowed, SeatError, TokenRejected
from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import NewSeat, RoomStore, sqlite_url
from typhoon_edu.classroom.teachers import add_teacher, local_teacher
from typhoon_edu.ui.classplay.model import seat_label
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.tables import seat_infos
from typhoon_edu.ui.classplay.viewdata import SeatChoice


def choices(devices: bool = True, regions: tuple[str, str, str] = ("Taiwan", "Japan", "Korea")) -> SetupChoices:
    return SetupChoices([SeatChoice("person", "Mei", regions[0]), SeatChoice("person", "Ken", regions[1]),
                         SeatChoice("medium", "", regions[2])], regions="chosen", seed=11, speed=0, devices=devices)


def projector_of(store: RoomStore, lang: str = "en") -> ProjectorApp:
    return ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/",
                        teacher=local_teacher(store))


def shown(root: widgets.Widget) -> list[widgets.Widget]:
    """The widgets under ``root`` (itself too) that are shown: none inside a box whose display is "none"."""
    out, stack = [], [root]
    while stack:
        w = stack.pop()
        layout = getattr(w, "layout", None)
        if layout is not None and layout.display == "none":
            continue
        out.append(w)
        stack.extend(getattr(w, "children", ()))
    return out


def found(root: widgets.Widget, css: str) -> list[widgets.Widget]:
    """The shown widgets under ``root`` with the class ``css``."""
    return [w for w in shown(root) if css in getattr(w, "_dom_classes", ())]


def shown_text(root: widgets.Widget) -> str:
    return "\n".join(v for w in shown(root) for v in (getattr(w, "value", None), getattr(w, "description", None))
                     if isinstance(v, str))


def actions(store: RoomStore, room: Any) -> list[str]:
    return [a.notation for a in store.actions(room.id)]


# ---------------------------------------------------------------------- the lobby
def test_a_room_in_the_lobby_takes_no_decision_until_the_teacher_starts_it(db_url: str) -> None:
    store = RoomStore(db_url)
    teacher = local_teacher(store)
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=teacher, lobby=True)
    phone = Room.open_seat(store, room.issued_tokens["Taiwan"], "phone-T")
    assert not room.begun and not phone.begun and room.waiting_for == "Taiwan"
    assert phone.seat_view().legal_actions == ()  # nothing offered to press
    with pytest.raises(NotAllowed) as e:
        phone.act("place 8,8")
    assert e.value.kind == "not_started"
    with pytest.raises(NotAllowed) as e:  # a crafted write past the kernel: the store's own guard
        store.append(room.id, 1, ["place 8,8"], by="Taiwan", token_hash=phone._token_hash)
    assert e.value.kind == "not_started"
    assert actions(store, room) == [] and room.bot_to_move() is None
    _ = room.set_turn_timer(30)
    assert room.turn_deadline() is None  # no team's time runs out in the lobby
    with pytest.raises(NotAllowed):
        phone.begin()  # only the teacher starts the game
    # reopened (a reload): still in the lobby
    assert not Room.open(store, room.code, teacher=teacher).begun
    room.begin()
    assert room.begun and Room.open(store, room.code, teacher=teacher).begun
    assert phone.seat_view().legal_actions == ()  # the phone has not read the start yet ...
    _ = phone.act("place 8,8")  # ... but its decision is checked against the store, which says begun
    assert actions(store, room) == ["place 8,8"]
    assert room.begin().meta_changed is False  # starting again changes nothing


def test_no_hint_is_given_in_the_lobby_even_when_a_page_asks(store: RoomStore) -> None:
    """The phone offers no hint button in the lobby; a crafted request is refused in the kernel too."""
    teacher = local_teacher(store)
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=teacher, lobby=True)
    phone = Room.open_seat(store, room.issued_tokens["Taiwan"], "phone-T")
    for asker in (phone, room):
        with pytest.raises(NotAllowed) as e:
            asker.prepare_hint("Taiwan", iterations=4)
        assert e.value.kind == "not_started"
    room.begin()
    assert phone.prepare_hint("Taiwan", iterations=4).think().player == "Taiwan"  # started: read from the store


def test_a_room_made_without_a_lobby_and_an_older_room_have_begun(store: RoomStore) -> None:
    room = Room.create(store, PEOPLE, seed=3, lang="en", teacher=local_teacher(store))
    assert room.begun
    device = Room.open_seat(store, room.issued_tokens["Taiwan"])
    _ = device.act("place 8,8")


def test_a_schema_3_database_gets_the_lobby_and_successor_columns_and_its_rooms_have_begun(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "old.sqlite3")
    store = RoomStore(url)
    row = store.create_room(setup={"players": ["Taiwan", "Japan", "Korea"]}, lang="en",
                            seats=[NewSeat("Taiwan"), NewSeat("Japan", "greedy"), NewSeat("Korea", "random")])
    with store._engine.begin() as conn:  # back to schema 3, as a database made before the lobby
        conn.execute(sa.text("UPDATE typhoon_meta SET value = '3' WHERE key = 'schema'"))
        for name in ("lobby", "successor"):
            conn.execute(sa.text(f"ALTER TABLE typhoon_rooms DROP COLUMN {name}"))
    store.close()
    again = RoomStore(url)
    old = again.room(row.id)
    assert (old.lobby, old.successor, old.problem) == (False, None, "")
    assert again.append(row.id, 1, ["place 8,8"], by="Taiwan").seq == 1


def test_a_phone_cannot_play_while_the_projector_shows_the_lobby(store: RoomStore) -> None:
    projector = projector_of(store)
    room = projector.start(choices())
    assert projector.screen == "lobby"
    mei = SeatApp(lang="zh-TW", store=store, token=room.issued_tokens["Taiwan"], device="phone-T")
    assert mei.lang == "en"  # the room's language
    wait = i18n.t("classplay.seat.lobby_wait", "en")
    assert wait in mei.banner.value and "data-mine='0'" in mei.banner.value
    assert not mei.decisions.buttons() and not mei.decisions.highlight_cells()
    assert not mei.decide("place 8,8")  # a crafted decision (the page offers none)
    assert actions(store, room) == []
    mei.set_lang("zh-TW")
    assert i18n.t("classplay.seat.lobby_wait", "zh-TW") in mei.banner.value
    mei.set_lang("en")
    # the teacher reloads the projector: the lobby comes back, and still no team may play
    again = projector_of(store)
    again.open(room.code)
    assert again.screen == "lobby" and not again.room.begun
    again.advance()
    assert actions(store, room) == []
    # the teacher starts the game (Ken's phone has not joined): Mei's phone is called, and plays
    again.show_board()
    assert again.screen == "game" and again.room.begun
    mei.sync()
    assert wait not in mei.banner.value and i18n.t("classplay.seat.your_turn", "en") in mei.banner.value
    assert mei.decide(mei.decisions.cell_action((8, 8)))
    assert actions(store, room) == ["place 8,8"]
    # a reload of a game that has begun keeps it begun (its join codes come back while Ken has not joined, as
    # before; the teams play on meanwhile)
    third = projector_of(store)
    third.open(room.code)
    assert third.room.begun and third.screen == "lobby"
    mei.sync()
    assert wait not in mei.banner.value and mei.decisions.highlight_cells()  # Taiwan places its next storm


def test_one_computer_has_no_lobby_and_plays_at_once(store: RoomStore) -> None:
    projector = projector_of(store)
    room = projector.start(choices(devices=False))
    assert projector.screen == "game" and room.begun
    assert projector.decide("place 8,8")
    assert actions(store, room) == ["place 8,8"]


def test_a_projector_on_the_lobby_follows_a_start_made_on_another_projector(store: RoomStore) -> None:
    first = projector_of(store)
    room = first.start(choices())
    second = projector_of(store)
    second.open(room.code)
    assert second.screen == "lobby" and not second._begun_seen
    first.show_board()
    second._take(second.room.sync())
    assert second.room.begun  # (its loop then shows the board: _run's lobby check)


# ---------------------------------------------------------------------- the rematch, in the kernel
def test_a_rematch_names_its_successor_and_a_phone_that_held_a_seat_takes_its_seat_there(db_url: str) -> None:
    store = RoomStore(db_url)
    old, tokens = ended_room(store, {"Taiwan": "phone-T", "Japan": "phone-J"})
    new = Room.create(store, PEOPLE, seed=4, lang="en", teacher=local_teacher(store), lobby=True, after=old)
    assert old.successor == new.id and new.successor is None
    offer = rooms.rematch_for(store, tokens["Taiwan"], "phone-T")
    assert offer is not None and (offer.code, offer.region, offer.seat) == (new.code, "Taiwan", True)
    room, token = Room.follow(store, tokens["Taiwan"], "phone-T")
    assert room.id == new.id and room.viewer == "Taiwan" and token not in tokens.values()
    assert new.sync().meta_changed and new.seat("Taiwan").joined and new.seat("Taiwan").bound
    assert Room.open_seat(store, token, "phone-T").viewer == "Taiwan"  # the phone's reload
    assert rooms.rematch_for(store, tokens["Taiwan"], "phone-T").seat is False  # taken now: nothing more to offer
    room_j, _ = Room.follow(store, tokens["Japan"], "phone-J")
    assert room_j.viewer == "Japan"


def test_another_teams_device_cannot_take_a_seat_through_the_rematch(db_url: str) -> None:
    store = RoomStore(db_url)
    old, tokens = ended_room(store, {"Taiwan": "phone-T", "Japan": "phone-J"})
    with pytest.raises(NotAllowed) as e:  # no rematch yet
        Room.follow(store, tokens["Taiwan"], "phone-T")
    assert e.value.kind == "no_rematch"
    new = Room.create(store, PEOPLE, seed=4, lang="en", teacher=local_teacher(store), lobby=True, after=old)

    def refused(token: str, device: str | None) -> str:
        before = store.seats(new.id)
        with pytest.raises((TokenRejected, NotAllowed, SeatError)) as e:
            Room.follow(store, token, device)
        assert rooms.rematch_for(store, token, device) is None or e.value.kind == "seat_taken"
        assert store.seats(new.id) == before, "a refused follow changed a seat of the new room"
        return e.value.kind

    # Japan's device, with its own token: Japan's seat, never Taiwan's (the region is the old seat's)
    # Taiwan's old link on Japan's device (a photographed QR code, a crafted message): bound to Taiwan's phone
    assert refused(tokens["Taiwan"], "phone-J") == "device_bound"
    assert refused(tokens["Taiwan"], None) == "device_bound"  # a page that cannot say which device it is
    assert refused("made-up-token", "phone-J") == "token_unknown"
    room_j, _ = Room.follow(store, tokens["Japan"], "phone-J")
    assert room_j.viewer == "Japan" and not store.seats(new.id)[0].joined  # Taiwan's seat is still free
    # once a seat is taken, the same old token cannot take it again (a second tab, another device)
    assert refused(tokens["Japan"], "phone-J") == "seat_taken"


def test_a_seat_never_opened_or_revoked_in_the_old_game_gives_no_seat_in_the_new_one(store: RoomStore) -> None:
    teacher = local_teacher(store)
    old = Room.create(store, PEOPLE, seed=3, lang="en", teacher=teacher)
    tokens = dict(old.issued_tokens)
    Room.open_seat(store, tokens["Taiwan"], "phone-T")
    old.revoke("Taiwan")
    old.end()
    new = Room.create(store, PEOPLE, seed=4, lang="en", teacher=teacher, lobby=True, after=old)
    for token, kind in ((tokens["Taiwan"], "token_revoked"), (tokens["Japan"], "no_rematch")):  # Japan: never opened
        assert rooms.rematch_for(store, token, "phone-T") is None
        with pytest.raises((TokenRejected, NotAllowed)) as e:
            Room.follow(store, token, "phone-T")
        assert e.value.kind == kind
    assert not any(s.joined for s in store.seats(new.id))


def test_a_region_that_does_not_play_again_is_offered_the_join_page(store: RoomStore) -> None:
    teacher = local_teacher(store)
    old, tokens = ended_room(store, {"Taiwan": "phone-T"})
    new = Room.create(store, [Seat("Japan"), Seat("Korea"), Seat("Philippines", "greedy")], seed=4, lang="en",
                      teacher=teacher, lobby=True, after=old)
    offer = rooms.rematch_for(store, tokens["Taiwan"], "phone-T")
    assert offer is not None and (offer.code, offer.seat) == (new.code, False)
    with pytest.raises(SeatError):
        Room.follow(store, tokens["Taiwan"], "phone-T")


def test_only_the_owner_makes_a_rematch_of_a_room(store: RoomStore) -> None:
    old, _ = ended_room(store, {})
    other, _key = add_teacher(store, "Ms Lin")
    with pytest.raises(NotAllowed) as e:
        Room.create(store, PEOPLE, seed=4, lang="en", teacher=other, after=old)
    assert e.value.kind == "not_your_room"
    assert store.room(old.id).successor is None and len(store.rooms()) == 1


# ---------------------------------------------------------------------- the rematch, on the pages
def _class_at_the_results(store: RoomStore, lang: str) -> tuple[ProjectorApp, dict[str, SeatApp]]:
    projector = projector_of(store, lang)
    room = projector.start(choices())
    phones = {r: SeatApp(lang=lang, store=store, token=t, device=f"phone-{r}") for r, t in room.issued_tokens.items()}
    projector.show_board()
    projector.drawer.ask_end()
    projector.drawer.end()
    for p in phones.values():
        p.sync()
    assert projector.screen == "results"
    return projector, phones


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_after_the_teachers_rematch_a_phone_on_the_old_room_is_told_and_takes_its_seat_with_one_tap(
        store: RoomStore, lang: str) -> None:
    projector, phones = _class_at_the_results(store, lang)
    old = projector.room
    mei = phones["Taiwan"]
    assert not found(mei.root, "typhoon-rematch-go")  # nothing to offer before the rematch
    new = projector.rematch()
    assert new is not None and new.id != old.id and projector.screen == "lobby"
    for p in phones.values():
        p.sync()
    said = shown_text(mei.root)
    assert i18n.t("classplay.seat.rematch_title", lang) in said
    label = seat_label(seat_infos(mei.room), "Taiwan", lang)
    go = found(mei.root, "typhoon-rematch-go")
    assert len(go) == 1 and go[0].description == i18n.t("classplay.seat.rematch_go", lang, player=label)
    other = "en" if lang == "zh-TW" else "zh-TW"
    mei.set_lang(other)  # said again in the language the team switches to
    assert go[0].description == i18n.t("classplay.seat.rematch_go", other, player=seat_label(seat_infos(mei.room),
                                                                                             "Taiwan", other))
    mei.set_lang(lang)
    go[0].click()
    assert mei.room.id == new.id and mei.region == "Taiwan" and mei.screen == "seat"
    assert mei.address.query == f"seat={mei.token}"  # a reload opens the new seat
    assert not found(mei.root, "typhoon-rematch-go")
    assert i18n.t("classplay.seat.lobby_wait", lang) in mei.banner.value  # the new game waits for the teacher
    projector.advance()
    assert new.seat("Taiwan").joined
    phones["Japan"].rematch_button.click()
    assert phones["Japan"].room.id == new.id
    projector._take(new.sync())
    assert projector._all_joined()


def test_a_phone_reloaded_on_the_old_link_is_offered_its_seat_in_the_rematch(store: RoomStore) -> None:
    projector, phones = _class_at_the_results(store, "zh-TW")
    old_token = phones["Taiwan"].token
    new = projector.rematch()
    again = SeatApp(lang="en", store=store, token=old_token, device="phone-Taiwan")  # the page reloaded
    assert again.room is None and i18n.t("classplay.seat.rematch_title", "en") in shown_text(again.root)
    again.rematch_button.click()
    assert again.room.id == new.id and again.region == "Taiwan"
    # another team's phone with Taiwan's old link is not offered it, and a crafted tap takes nothing
    thief = SeatApp(lang="en", store=store, token=old_token, device="phone-Japan")
    assert not found(thief.root, "typhoon-rematch-go")
    assert not thief.follow_rematch()
    assert thief.room is None


def test_a_rematch_from_a_reloaded_results_screen_keeps_the_seats_and_tells_the_phones(store: RoomStore) -> None:
    """The projector reloaded on the results (a reopened room has no setup choices): Rematch went back to the
    setup screen and the phones were told nothing."""
    projector, phones = _class_at_the_results(store, "en")
    old = projector.room
    reloaded = projector_of(store)
    reloaded.open(old.code)
    assert reloaded.choices is None
    new = reloaded.rematch()
    assert new is not None and new.id != old.id and reloaded.screen == "lobby"
    assert [(s.region, s.kind, s.name) for s in new.seats] == [(s.region, s.kind, s.name) for s in old.seats]
    assert new.setup["variant"] == old.setup["variant"] and new.dice == old.dice and new.devices == old.devices
    mei = phones["Taiwan"]
    mei.sync()
    mei.rematch_button.click()
    assert mei.room.id == new.id and mei.region == "Taiwan"


def test_a_rematch_offer_for_a_region_not_playing_again_links_the_new_join_page(store: RoomStore) -> None:
    projector, phones = _class_at_the_results(store, "en")
    projector.choices = choices(regions=("Japan", "Korea", "Philippines"))
    new = projector.rematch()
    mei = phones["Taiwan"]
    mei.sync()
    assert not found(mei.root, "typhoon-rematch-go")
    said = shown_text(mei.root)
    assert f"href='join/{new.code}'" in said and new.code in said


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_phone_whose_tap_met_the_teachers_end_still_learns_of_the_rematch(store: RoomStore, lang: str) -> None:
    """Mei taps her storm's cell as the teacher presses End (her page had not read the end yet): the store refuses
    the move (``room_over``). The phone showed the "lost" screen for it ("its join links no longer work") and read
    the room no more, so the teacher's Rematch reached it only after a reload, though Mei's device held the seat
    and may follow (Room.follow). Now it shows the ended game as the others do, and is offered its new seat."""
    projector = projector_of(store, lang)
    room = projector.start(choices())
    phones = {r: SeatApp(lang=lang, store=store, token=t, device=f"phone-{r}") for r, t in room.issued_tokens.items()}
    projector.show_board()
    mei = phones["Taiwan"]
    mei.sync()
    action = mei.decisions.cell_action((8, 8))
    assert action is not None
    projector.drawer.ask_end()
    projector.drawer.end()  # Mei's page has not read it yet
    assert not mei.decide(action)
    assert actions(store, room) == []
    assert mei.screen == "seat", "a device that held its seat was put on the lost screen by the end of the game"
    said = shown_text(mei.root)
    assert i18n.t("classroom.error.room_over", lang) not in said
    assert i18n.t("classroom.error.game_over", lang) in said  # why the tap did nothing
    assert not mei.decisions.buttons() and not mei.decisions.highlight_cells()
    new = projector.rematch()
    assert new is not None
    mei.sync()  # what its page's loop does every 0.2 s
    go = found(mei.root, "typhoon-rematch-go")
    assert len(go) == 1, "the phone was not offered its seat in the rematch"
    go[0].click()
    assert mei.room.id == new.id and mei.region == "Taiwan"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_join_page_of_an_ended_game_says_it_has_ended_not_that_every_seat_is_taken(store: RoomStore,
                                                                                      lang: str) -> None:
    """A phone put off its seat (the seat given away, its link replaced) has the way back "Join again with the room
    code …": after the teacher's End and Rematch that code is the ended game's, whose join page said "Every seat of
    this room has a device already. Ask your teacher for a new link." (Japan's seat was free): wrong, and no way on.
    It says the game has ended and where the new game's code is."""
    projector, _phones = _class_at_the_results(store, lang)
    old = projector.room
    for rematch in (False, True):
        if rematch:
            projector.rematch()
        page = SeatApp(lang=lang, store=store, code=old.code)
        said = shown_text(page.root)
        assert escape(i18n.t("classplay.seat.no_free", lang)) not in said
        assert escape(i18n.t("classplay.join.ended", lang)) in said
        assert not found(page.root, "typhoon-join-seat")


def test_a_phone_that_follows_the_rematch_shows_no_die_of_the_last_game(store: RoomStore) -> None:
    """A rehearsal's phones showed "T1 moves: the die shows 3." from the last game in the new one, until its first roll
    (the projector said "The die is ready.")."""
    projector, phones = _class_at_the_results(store, "en")
    mei = phones["Taiwan"]
    mei.die.roll(3, "move", 1, speed=0)  # the last game's last roll, as this page showed it
    projector.rematch()
    mei.sync()
    mei.rematch_button.click()
    assert mei.die.face is None and mei.die.caption == i18n.t("classplay.die.waiting", "en")
