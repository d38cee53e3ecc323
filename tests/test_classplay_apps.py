"""The class-play pages as a class uses them, without a browser: a projector and phones on one store.

Each page is the real app object (widgets included) on a shared room store; a test does what a
person would (buttons, taps) and checks what every other page shows after its next poll.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import ipywidgets as widgets
import pytest

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.engine.game import CHANCE
from typhoon_edu.ui.classplay.model import seat_label
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.tables import seat_infos
from typhoon_edu.ui.classplay.viewdata import SeatChoice, d


def all_text(w: widgets.Widget) -> str:
    out = []
    stack = [w]
    while stack:
        x = stack.pop()
        for attr in ("value", "description"):
            v = getattr(x, attr, None)
            if isinstance(v, str):
                out.append(v)
        stack.extend(getattr(x, "children", ()))
    return "\n".join(out)


def seat_choices(devices: bool = True) -> SetupChoices:
    return SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                         SeatChoice("medium", "", "Korea")], regions="chosen", seed=11, speed=0, devices=devices)


def open_class(store: RoomStore, lang: str = "en") -> tuple[ProjectorApp, dict[str, SeatApp]]:
    projector = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = projector.start(seat_choices())
    assert projector.screen == "lobby"
    phones = {r: SeatApp(lang=lang, store=store, token=t) for r, t in room.issued_tokens.items()}
    return projector, phones


def begin(projector: ProjectorApp, phones: dict[str, SeatApp]) -> None:
    """The teacher starts the game from the lobby, and every phone reads it (a team decides only after the start)."""
    projector.show_board()
    for p in phones.values():
        p.sync()


def settle(projector: ProjectorApp, phones: dict[str, SeatApp]) -> None:
    projector.advance()
    for p in phones.values():
        p.sync()


def play_person(phone: SeatApp) -> bool:
    """Make the phone's first offered decision (a pass when there is one); False if it decides nothing now."""
    buttons = phone.decisions.buttons()
    cells = phone.decisions.highlight_cells()
    if cells:
        return phone.decide(phone.decisions.cell_action(cells[0]))
    passes = [b for b in buttons if "act-pass" in b._dom_classes]
    if passes or buttons:
        (passes or buttons)[0].click()
        return True
    return False


def test_a_whole_game_from_phones_keeps_every_view_on_the_same_game(store: RoomStore) -> None:
    projector, phones = open_class(store)
    cards = projector.join_cards()
    assert cards.count('class="typhoon-join-link"') == 2 and "?seat=" in cards and "<svg" in cards
    projector.show_board()
    room = projector.room
    for _ in range(2000):
        if room.is_over:
            break
        settle(projector, phones)
        who = room.game.current_player
        if who in phones:
            assert play_person(phones[who]), f"{who}'s phone offered nothing at {room.game.phase}"
        elif who is None:
            break
        elif who != CHANCE:
            assert room.bot_to_move(), f"nobody moves at {room.game.phase}"
    settle(projector, phones)
    assert room.is_over and projector.screen == "results"
    digest = room.game.digest()
    for phone in phones.values():
        assert phone.room._game.digest() == digest and phone.room.seq == room.seq  # the test may look inside
    assert "Mei (Taiwan)" in all_text(projector.results.box)
    assert projector.results.chart.value.count('data-role="hp-line"') == 2 * len(room.players)  # wide and narrow


def test_the_projector_and_a_phone_hold_no_other_hand(store: RoomStore) -> None:
    projector, phones = open_class(store)
    projector.show_board()
    room = projector.room
    for _ in range(400):
        settle(projector, phones)
        game = room.game
        for region, phone in phones.items():
            shown = all_text(phone.root)
            mine = set(game.hand(region))
            for other in game.players:
                for key in set(game.hand(other)) - mine:
                    assert f"data-card='{key}'" not in shown, f"{region}'s phone shows {other}'s {key}"
        assert "data-card=" not in all_text(projector.root), "the projector shows a hand"
        who = game.current_player
        if who in phones:
            play_person(phones[who])
        if room.game.round >= 2 or room.is_over:
            break
    assert room.game.round >= 2


def test_two_phones_racing_on_one_decision_exactly_one_wins(store: RoomStore) -> None:
    projector, phones = open_class(store)
    begin(projector, phones)
    mei = phones["Taiwan"]
    # a second page of the same seat (the same link opened twice): both show the same decision
    twin = SeatApp(lang="zh-TW", store=store, token=projector._tokens["Taiwan"])
    assert mei.decide(mei.decisions.cell_action((8, 8)))
    assert not twin.decide(twin.decisions.cell_action((9, 8)))  # it still showed seq 0
    assert twin.lang == projector.room.lang  # a page opens in the room's language (#19.5)
    assert i18n.t("classplay.stale", twin.lang) in twin.message.value
    twin.sync()
    assert twin.room.seq == mei.room.seq == 1
    assert [a.notation for a in store.actions(projector.room.id)] == ["place 8,8"]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_tap_on_the_map_that_chooses_nothing_says_why(store: RoomStore, lang: str) -> None:
    """A tap is never met with silence: not this team's turn, or a decision made with the buttons, is said (#class play)."""
    projector, phones = open_class(store, lang=lang)
    begin(projector, phones)
    mei, ken = phones["Taiwan"], phones["Japan"]
    room_id = projector.room.id

    def tap(phone: SeatApp, cell: tuple[int, int]) -> str:
        phone.message.value = ""
        phone._board_click(*phone.board.geometry.cell_centre(*cell))
        return phone.message.value

    # Taiwan places the first storms: Japan's map chooses nothing, and says whose turn it is
    mei_label = seat_label(seat_infos(ken.room), "Taiwan", lang)
    assert "Mei" in mei_label
    said = tap(ken, (8, 8))
    assert said == f"<div class='typhoon-message-ok'>{escape(i18n.t('classplay.seat.not_your_turn', lang, player=mei_label))}</div>"
    assert store.actions(room_id) == []
    # Taiwan's tap on a free cell places a storm (nothing to explain: the move is confirmed)
    placed = i18n.t("classplay.seat.chose", lang, action=i18n.t("action.place", lang, cell=i18n.cell_label((8, 8), lang)))
    assert tap(mei, (8, 8)) == f"<div class='typhoon-message-ok'>{escape(placed)}</div>"
    assert len(store.actions(room_id)) == 1
    # play on until Taiwan decides with buttons; its tap on the map then says so
    for _ in range(60):
        settle(projector, phones)
        table = mei.decisions.table
        if table is not None and table.current_player == "Taiwan" and not mei.decisions.highlight_cells() \
                and mei.decisions.buttons():
            break
        if not any(play_person(p) for p in phones.values()):
            projector.advance()
    else:
        pytest.fail("Taiwan never had a decision made with buttons")
    n = len(store.actions(room_id))
    assert tap(mei, (0, 0)) == f"<div class='typhoon-message-ok'>{i18n.t('classplay.seat.use_buttons', lang)}</div>"
    assert len(store.actions(room_id)) == n  # nothing was played


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_tap_on_the_projector_map_that_chooses_nothing_says_why(store: RoomStore, lang: str) -> None:
    """The projector's map answers a tap that chooses nothing with the banner's advice, with devices and without."""
    def tap(app: ProjectorApp, cell: tuple[int, int]) -> str:
        app.message.value = ""
        app._board_click(*app.game.board.geometry.cell_centre(*cell))
        return app.message.value

    def says(app: ProjectorApp, detail: str) -> str:
        return f"<div class='typhoon-message-ok'>{escape(i18n.t('classplay.map_idle', lang, why=detail))}</div>"

    # with devices: Taiwan places the first storm on its phone, so the projector's map chooses nothing
    projector, phones = open_class(store, lang=lang)
    projector.show_board()
    mei_label = seat_label(seat_infos(projector.room), "Taiwan", lang)
    assert tap(projector, (8, 8)) == says(projector, i18n.t("classplay.banner.on_device", lang, player=mei_label))
    assert store.actions(projector.room.id) == []
    # a paused game says so
    projector.room.pause()
    assert tap(projector, (8, 8)) == f"<div class='typhoon-message-error'>{escape(i18n.t('classplay.paused', lang))}</div>"
    projector.room.resume()
    # one computer: on a decision made with the buttons, the tap points to them
    app = ProjectorApp(lang=lang, store=store, fullscreen=False)
    room = app.start(seat_choices(devices=False))
    for cell in ((8, 8), (11, 7), (14, 9)):
        assert app.decide(app.decisions.cell_action(cell))
    assert room.game.phase == "setup_aim" and app.decisions.buttons() and not app.decisions.highlight_cells()
    n = len(store.actions(room.id))
    assert tap(app, (0, 0)) == says(app, d("banner.person_detail", lang))
    assert len(store.actions(room.id)) == n  # nothing was played


def test_revoked_phone_stops_and_says_why(store: RoomStore) -> None:
    projector, phones = open_class(store, lang="zh-TW")
    projector.drawer.revoke("Japan")
    ken = phones["Japan"]
    ken.sync()
    assert ken.screen == "lost"
    assert i18n.t("classroom.error.token_revoked", "zh-TW") in ken.banner.value  # why, once; the message: the way back
    assert "href='join/" in ken.message.value
    projector.drawer.new_link("Japan")
    assert projector.screen == "lobby" and "?seat=" + projector._tokens["Japan"] in projector.join_cards()


def test_one_computer_curtain_shows_a_hand_only_after_the_tap(store: RoomStore) -> None:
    app = ProjectorApp(lang="en", store=store, fullscreen=False)
    room = app.start(seat_choices(devices=False))
    assert app.screen == "game"
    for cell in ((8, 8), (11, 7), (14, 9)):
        assert app.decide(app.decisions.cell_action(cell))
    for _ in range(3):
        if room.game.phase == "setup_aim":
            app.decisions.buttons()[0].click()
    for _ in range(200):
        app.advance()
        if room.game.phase in ("attack", "counter", "discard") and room.game.current_player in ("Taiwan", "Japan"):
            break
        if app.decisions.buttons():
            app.decisions.buttons()[0].click()
    who = room.game.current_player
    assert app.curtain.down
    assert {"Taiwan": "Mei", "Japan": "Ken"}[who] in app.curtain.button.description
    assert "data-card=" not in all_text(app.root)
    app.curtain.button.click()
    assert not app.curtain.down and app.revealed == who
    hand = room.game.hand(who)
    shown = all_text(app.root)
    assert all(f"data-card='{k}'" in shown for k in hand)
    passes = [b for b in app.decisions.buttons() if "act-pass" in b._dom_classes]
    (passes or app.decisions.buttons())[0].click()
    assert app.revealed is None and "data-card=" not in all_text(app.root)


def test_a_failed_write_is_told_and_nothing_is_shown_as_made(store: RoomStore, monkeypatch) -> None:
    projector, phones = open_class(store)
    begin(projector, phones)
    mei = phones["Taiwan"]
    from typhoon_edu.classroom.errors import StoreError

    def broken(*_a, **_k):
        raise StoreError("the database file is read-only", kind="read_only")

    monkeypatch.setattr(store, "append", broken)
    assert not mei.decide(mei.decisions.cell_action((8, 8)))
    assert mei.room.seq == 0 and "typhoon-message-error" in mei.message.value
    monkeypatch.undo()
    assert mei.decide(mei.decisions.cell_action((8, 8)))


def test_rooms_list_is_read_when_shown_and_names_broken_rooms(store: RoomStore, tmp_path: Path) -> None:
    first = ProjectorApp(lang="en", store=store, fullscreen=False)
    room = first.start(seat_choices())
    version = store.head(room.id).version
    later = ProjectorApp(lang="zh-TW", store=store, fullscreen=False)
    rooms = later.refresh_rooms()
    assert len(rooms) == 1 and rooms[0].ok
    assert rooms[0].code in all_text(later.setup.box)
    later.open(rooms[0].code)
    assert later.screen == "lobby" and later.join_cards().count("typhoon-join-link") == 2
    # Opening the room re-issued nothing: the links (and QR codes) the first projector showed still work.
    assert later._tokens == room.issued_tokens and store.head(room.id).version == version
    for region, token in room.issued_tokens.items():
        assert "?seat=" + token in later.join_cards()
        assert SeatApp(lang="en", store=store, token=token, device=f"phone-{region}").region == region


def test_hints_on_a_phone_follow_the_teachers_switch_and_never_show_on_the_projector(store: RoomStore) -> None:
    projector, phones = open_class(store, lang="zh-TW")
    begin(projector, phones)
    mei = phones["Taiwan"]
    assert mei.coach.button.layout.display is None  # Taiwan decides first
    mei.coach.ask(mei.room, "Taiwan", iterations=12)
    assert "typhoon-hint" in mei.coach.text.value and "typhoon-hint-icon" in mei.coach.text.value
    before = store.actions(projector.room.id)
    assert [a.notation for a in before] == [], "asking for a hint must not move the game"
    assert phones["Japan"].coach.button.layout.display == "none"  # not its decision
    assert projector.coach.button.layout.display == "none"  # the projector never shows a seat's hint
    projector.drawer.hints.value = False
    mei.sync()
    assert mei.coach.button.layout.display == "none" and mei.coach.text.value == ""
    from typhoon_edu.classroom.errors import NotAllowed

    with pytest.raises(NotAllowed) as e:
        mei.room.hint()
    assert e.value.kind == "hints_off"


def test_results_list_what_each_person_could_try(store: RoomStore) -> None:
    from typhoon_edu.ai.bots import RandomBot

    app = ProjectorApp(lang="en", store=store, fullscreen=False)
    room = app.start(seat_choices(devices=False))
    bot = RandomBot(3)  # a careless person: the coach has something to say
    while not room.is_over:
        if room.bot_to_move():
            room.step_bot()
        else:
            room.act(bot.choose(room.game.clone()), teacher=True)
    app.advance()
    assert app.screen == "results" and app.results.extra.layout.display is None
    app.results.review(iterations=12, hint_iterations=12)  # short searches: a test
    text = app.results.review_box.value
    assert "What you could try" in text and "Mei (Taiwan)" in text and "Ken (Japan)" in text
    assert "<li>" in text


def test_an_old_save_that_cannot_be_imported_is_named_on_the_setup_screen(store: RoomStore, tmp_path: Path,
                                                                          monkeypatch) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "broken.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("TYPHOON_EDU_SAVES", str(saves))
    app = ProjectorApp(lang="zh-TW", store=store, fullscreen=False)
    app.refresh_rooms()
    text = all_text(app.setup.box)
    assert "broken.json" in text and i18n.t("error.save.not_json", "zh-TW") in text


def test_one_curtain_per_players_run_of_decisions(store: RoomStore) -> None:
    """Six discards are one curtain drop for their player, not six (#19.6); another player's turn drops it."""
    app = ProjectorApp(lang="en", store=store, fullscreen=False)
    room = app.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                                   SeatChoice("person", "Ann", "Korea")], regions="chosen", seed=11, speed=0,
                                  devices=False))
    drops: list[tuple[str, int]] = []
    real_drop = app.curtain.drop

    def counted(region: str, label: str, lang: str) -> None:
        if not app.curtain.down:
            drops.append((region, room.seq))
        real_drop(region, label, lang)

    app.curtain.drop = counted  # type: ignore[method-assign]
    runs: list[tuple[str, int]] = []  # (player, decisions made behind one lifted curtain)
    for _ in range(600):
        if room.is_over or (runs and any(n >= 2 for _, n in runs) and len(runs) >= 6):
            break
        app.advance()
        if app.curtain.down:
            who = app.curtain.region
            before = len(drops)
            assert "typhoon-hand-up" not in app.root._dom_classes
            app.curtain.button.click()
            assert "typhoon-hand-up" in app.root._dom_classes  # the hand gets the side column's height
            made = 0
            while room.game.current_player == who and app.revealed == who and not app.curtain.down:
                buttons = app.decisions.buttons()
                if not buttons:
                    break
                pick = [b for b in buttons if "act-pass" in b._dom_classes] or buttons
                pick[0].click()
                made += 1
            runs.append((who, made))
            assert all(r != who for r, _ in drops[before:]), "the curtain dropped within one player's decisions"
            continue
        buttons = app.decisions.buttons()
        if buttons:
            buttons[0].click()
        else:
            cells = app.decisions.highlight_cells()
            if cells:
                app.decide(app.decisions.cell_action(tuple(cells[0])))
    assert any(n >= 2 for _, n in runs), f"no player made two private decisions in a row: {runs}"
    assert len(drops) - int(app.curtain.down) == len(runs)  # exactly one drop per run


def test_the_projector_shows_the_room_code_only_when_teams_join_on_devices(store: RoomStore) -> None:
    """On one computer nobody joins from a phone, so the code on the wall would only let a student in."""
    one = ProjectorApp(lang="en", store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = one.start(seat_choices(devices=False))
    assert one.screen == "game" and room.code not in one.game.code.value and one.game.code.value == ""
    one.set_lang("zh-TW")  # a language switch redraws the header: still no code
    assert room.code not in one.game.code.value
    again = ProjectorApp(lang="en", store=store, fullscreen=False)
    again.open(room.code)  # reopened by the teacher: the same
    assert room.code not in again.game.code.value
    phones = ProjectorApp(lang="en", store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    other = phones.start(seat_choices())
    assert other.code in phones.game.code.value  # teams join on their devices: the code is shown as before


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_page_typing_code_after_wrong_code_has_to_wait(store: RoomStore, lang: str, monkeypatch) -> None:
    """A script sending the join page's widget messages cannot try thousands of room codes: after five wrong ones each
    next code waits (nothing is looked up meanwhile, the right code included), and the wait is said in the language."""
    import typhoon_edu.classroom.rooms as rooms_module
    from typhoon_edu.classroom.tries import FREE

    projector = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = projector.start(seat_choices())
    phone = SeatApp(lang=lang, store=store)
    now = [100.0]
    phone.join.tries.clock = lambda: now[0]
    looked_up = []  # the codes looked up in the store (the join screen imports rooms.lobby when it looks)
    original = rooms_module.lobby
    monkeypatch.setattr(rooms_module, "lobby", lambda *a, **k: looked_up.append(a[1]) or original(*a, **k))
    wrong = "ZZZZZ" if room.code != "ZZZZZ" else "YYYYY"
    for _ in range(FREE + 1):
        phone.join.code.value = ""
        phone.join.code.value = wrong
    assert len(looked_up) == FREE + 1 and not phone.join.seats.children
    phone.join.code.value = room.code  # the right one, at once: it waits too
    assert len(looked_up) == FREE + 1 and not phone.join.seats.children
    said = i18n.t("classplay.join.wait", lang, n=2)
    assert escape(said) in phone.join.message.value
    now[0] += 2.0
    phone.join.find()
    assert looked_up[-1] == room.code and phone.join.seats.children  # found: the free seats are offered
    assert phone.join.tries.wrong == 0
