"""The class-play screens without a browser: hints one at a time, honest status, attention, languages."""

from __future__ import annotations

import ast
import asyncio
import threading
import time
from html import escape
from pathlib import Path
from typing import Any

import pytest

import typhoon_edu.ui.classplay
from typhoon_edu import i18n
from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.classplay.coachbox import CoachBox
from typhoon_edu.ui.classplay.hosts import ResultsHost
from typhoon_edu.ui.classplay.results import ResultsScreen
from typhoon_edu.ui.classplay.viewdata import d
from typhoon_edu.ui.guard import Problems


class SlowRoom:
    """A room whose hint waits until the test lets it go, counting how often the coach is asked."""

    def __init__(self, real: Any) -> None:
        self.real, self.calls, self.go = real, 0, threading.Event()
        self.seq, self.hints_enabled, self.is_open, self.paused = real.seq, True, True, False

    def prepare_hint(self, region: str, iterations: int | None = None) -> Any:
        job = self.real.prepare_hint(region, iterations=12)
        real_think = job.think

        def think() -> Any:  # in the worker thread
            self.calls += 1
            assert self.go.wait(10), "the test never released the hint"
            return real_think()

        job.think = think
        return job


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_one_hint_in_flight_per_seat_and_a_second_tap_says_so(lang: str) -> None:
    store = RoomStore("sqlite://")
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")], seed=3, lang="en",
                       teacher=local_teacher(store))
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


def test_the_coach_copies_the_live_game_on_the_pages_loop_never_in_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's loop may apply a move to the live game at any moment; the worker must only see a copy."""
    from typhoon_edu.engine.game import Game

    store = RoomStore("sqlite://")
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")], seed=3, lang="en",
                       teacher=local_teacher(store))
    phone = Room.open_seat(store, room.issued_tokens["Taiwan"])
    live = phone._game
    copied_in: list[threading.Thread] = []
    real_clone = Game.clone

    def clone(self: Game) -> Game:
        if self is live:
            copied_in.append(threading.current_thread())
        return real_clone(self)

    monkeypatch.setattr(Game, "clone", clone)
    box = CoachBox(Problems(lambda: "en"), lambda: "en")
    box.show_for(phone, "Taiwan", mine=True)

    async def tap() -> None:
        assert box.ask(phone, "Taiwan", iterations=8)
        for _ in range(500):
            if not box.asking:
                break
            await asyncio.sleep(0.02)

    asyncio.run(tap())
    assert box.text.value.startswith("<div class='typhoon-hint'>")
    assert copied_in and all(t is threading.main_thread() for t in copied_in), copied_in


# ---------------------------------------------------------------------------- #19.11 no import circle
CLASSPLAY = Path(typhoon_edu.ui.classplay.__file__).parent
#: The pages import the screens; the screens never import a page (the join flow's own files are
#: join.py, joincard.py, lobby.py, setup.py and teacher.py, listed separately below).
PAGES = {"projector", "seat", "__init__"}
FLOW = {"join", "joincard", "lobby", "setup", "teacher"}


def _imported(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update(a.name for a in node.names)
    return found


@pytest.mark.parametrize("module", sorted(p.stem for p in CLASSPLAY.glob("*.py") if p.stem not in PAGES | FLOW))
def test_a_screen_never_imports_a_page(module: str) -> None:
    """Not even for type hints: a screen gets what it needs (a protocol of .hosts, callbacks)."""
    assert not _imported(CLASSPLAY / f"{module}.py") & PAGES


def test_the_seat_page_does_not_import_the_projector() -> None:
    assert "projector" not in _imported(CLASSPLAY / "seat.py")


def test_the_results_screen_runs_with_a_plain_host() -> None:
    """No projector at all: a stand-in with the protocol's few attributes is enough."""
    store = RoomStore("sqlite://")
    room = Room.create(store, [Seat("Taiwan", "random"), Seat("Japan", "greedy"), Seat("Korea", "random")],
                       seed=5, lang="en", teacher=local_teacher(store))
    while room.bot_to_move():
        room.step_bot()
    clicks: list[str] = []

    class Host:
        lang, rules, problems = "en", load_rules(), Problems(lambda: "en")

        def __init__(self) -> None:
            self.room = room

        def rematch(self) -> None:
            clicks.append("rematch")

        def new_game(self) -> None:
            clicks.append("new")

    host = Host()
    assert isinstance(host, ResultsHost)
    screen = ResultsScreen(host)
    screen.render()
    assert "typhoon-winner" in screen.headline.value and "★" in screen.headline.value
    screen.rematch.click()
    assert clicks == ["rematch"]


# ---------------------------------------------------------------------------- #19.4 honest status
def _class(tmp_path: Path, lang: str = "en") -> tuple[Any, dict[str, Any]]:
    from typhoon_edu.classroom.store import sqlite_url
    from typhoon_edu.ui.classplay.projector import ProjectorApp
    from typhoon_edu.ui.classplay.seat import SeatApp
    from typhoon_edu.ui.classplay.setup import SetupChoices
    from typhoon_edu.ui.classplay.viewdata import SeatChoice

    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    projector = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = projector.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                                         SeatChoice("medium", "", "Korea")], regions="chosen", seed=11, speed=0))
    phones = {r: SeatApp(lang=lang, store=store, token=t) for r, t in room.issued_tokens.items()}
    projector.show_board()  # the teacher starts the game: the phones read it at their next poll
    for phone in phones.values():
        phone.sync()
    return projector, phones


def _shown(app: Any) -> str:
    return app.message.value + app.problems.widget.value


def _banner(app: Any) -> str:
    """The banner of a page (the projector's game screen, a phone), unescaped."""
    from html import unescape

    return unescape((app.game.banner if hasattr(app, "game") else app.banner).value)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_pause_then_resume_leaves_no_stale_pause_notice(tmp_path: Path, lang: str) -> None:
    projector, phones = _class(tmp_path, lang)
    paused = i18n.t("classplay.paused", lang)
    pages = [projector, *phones.values()]
    projector.drawer.toggle_pause()
    for phone in phones.values():
        phone.sync()
    assert all(paused in _banner(p) + _shown(p) for p in pages)
    projector.drawer.toggle_pause()
    for phone in phones.values():
        phone.sync()
    assert paused not in _banner(projector) + _shown(projector)
    assert all(paused not in _banner(p) + _shown(p) for p in phones.values()), "a phone still says the game is paused"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_pause_is_shown_once_and_said_once(tmp_path: Path, lang: str) -> None:
    """The projector and every phone showed the pause twice, the big red banner "The teacher has paused the game."
    and a red line under it saying the same (the walk's 16 to 19 screenshots); neither was a live region, so a screen
    reader was told nothing. The banner says it; the map's live region says it once, when the pause begins."""
    projector, phones = _class(tmp_path, lang)
    paused = i18n.t("classplay.paused", lang)
    pages = {"projector": projector, **phones}
    said: dict[str, list[str]] = {name: [] for name in pages}
    for name, app in pages.items():
        access = (app.game.board if name == "projector" else app.board).access
        access.say = (lambda real, out: lambda s: (out.append(s), real(s)))(access.say, said[name])

    def told() -> dict[str, int]:
        return {name: sum(paused in s for s in sentences) for name, sentences in said.items()}

    projector.drawer.toggle_pause()
    for phone in phones.values():
        phone.sync()
    for name, app in pages.items():
        assert paused in _banner(app), name
        assert paused not in _shown(app), f"{name}: the pause said again under its banner"
    assert told() == dict.fromkeys(pages, 1)
    projector.redraw(exact=True)  # redraws, a language switch, polls during the pause: not said again
    projector.set_lang("zh-TW" if lang == "en" else "en")
    for phone in phones.values():
        phone.sync()
        phone.render()
    assert told() == dict.fromkeys(pages, 1)
    projector.set_lang(lang)
    projector.drawer.toggle_pause()
    for phone in phones.values():
        phone.sync()
    projector.drawer.toggle_pause()  # a second pause is said again
    for phone in phones.values():
        phone.sync()
    assert told() == dict.fromkeys(pages, 2)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_pause_while_the_projectors_storms_move_is_said_with_what_they_did(tmp_path: Path, lang: str) -> None:
    """Paused while the projector still animated a decision (the walk in zh-TW): the pause was said at once, then the
    animation's sentence replaced it in the live region. It is said after that sentence, in the same announcement."""
    projector, phones = _class(tmp_path, lang)
    paused = i18n.t("classplay.paused", lang)
    mei = phones["Taiwan"]
    projector.speed = 4.0
    said: list[str] = []
    access = projector.game.board.access
    access.say = (lambda real: lambda s: (said.append(s), real(s)))(access.say)  # type: ignore[method-assign]

    async def play() -> None:
        assert mei.decide(mei.decisions.cell_action((8, 8)))
        projector._take(projector.room.sync())
        assert not projector.pacer.idle, "no animation on the projector"
        projector.drawer.toggle_pause()
        for _ in range(400):
            if projector.pacer.idle:
                break
            await asyncio.sleep(0.02)
        assert projector.pacer.idle

    asyncio.run(play())
    assert len([s for s in said if paused in s]) == 1, said
    last = said[-1]
    assert last.endswith(paused) and last != paused, f"the pause alone, or not last: {said}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_tap_on_a_paused_phones_map_says_the_game_is_paused(tmp_path: Path, lang: str) -> None:
    """Mei's turn, paused: a tap on her map said "Not on the map this time: choose with the buttons above it." while
    no button was there (the pause hides them). It says the game is paused, as the projector's map does."""
    projector, phones = _class(tmp_path, lang)
    mei = phones["Taiwan"]
    for cell in ((8, 8), (11, 7), (14, 9)):
        assert mei.decide(mei.decisions.cell_action(cell))
    assert mei.decisions.buttons() and not mei.decisions.highlight_cells()  # her aim: a decision of buttons
    projector.drawer.toggle_pause()
    mei.sync()
    mei._board_click(*mei.board.geometry.cell_centre(0, 11))
    assert i18n.t("classplay.paused", lang) in _shown(mei), _shown(mei)
    assert i18n.t("classplay.seat.use_buttons", lang) not in _shown(mei)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_paused_phone_says_paused_not_your_turn(tmp_path: Path, lang: str) -> None:
    projector, phones = _class(tmp_path, lang)
    mei, your_turn = phones["Taiwan"], i18n.t("classplay.seat.your_turn", lang)
    assert your_turn in mei.banner.value
    projector.drawer.toggle_pause()
    mei.sync()
    assert your_turn not in mei.banner.value and escape(i18n.t("classplay.paused", lang)) in mei.banner.value
    projector.drawer.toggle_pause()
    mei.sync()
    assert your_turn in mei.banner.value


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_after_the_end_no_phone_says_your_turn_or_offers_a_button(tmp_path: Path, lang: str) -> None:
    projector, phones = _class(tmp_path, lang)
    mei = phones["Taiwan"]
    assert "data-mine='1'" in mei.banner.value and mei.decisions.buttons() + mei.decisions.highlight_cells()
    projector.drawer.ask_end()
    projector.drawer.end()
    for phone in phones.values():
        phone.sync()
        assert i18n.t("classplay.seat.your_turn", lang) not in phone.banner.value
        assert "data-mine='0'" in phone.banner.value and "data-open='0'" in phone.banner.value
        assert i18n.t("classplay.results.ended", lang) in phone.banner.value
        assert not phone.decisions.buttons() and not phone.decisions.highlight_cells()
        assert phone.die_entry.layout.display == "none" and phone.coach.button.layout.display == "none"
        assert phone.instruments.layout.display == "none", "the phone still shows its die after the end"
        assert "typhoon-active" not in phone.hp.value, "the phone still marks whose turn it was"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_game_ended_before_any_damage_shows_no_empty_chart(tmp_path: Path, lang: str) -> None:
    projector, _phones = _class(tmp_path, lang)
    projector.drawer.ask_end()
    projector.drawer.end()
    assert projector.screen == "results"
    assert projector.results.chart.value == ""  # one point in an empty plot: the summary says no region was hit
    assert projector.results.summary.value.startswith("<ul><li>")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_your_turn_is_said_without_a_stray_space(tmp_path: Path, lang: str) -> None:
    _projector, phones = _class(tmp_path, lang)
    said = phones["Taiwan"].banner.value
    words = i18n.t("classplay.seat.your_turn", lang)
    assert words in said
    assert (words + " " in said) == (lang == "en"), said


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_seat_given_away_and_back_clears_the_warning(tmp_path: Path, lang: str) -> None:
    from typhoon_edu.classroom.errors import NotAllowed

    projector, _phones = _class(tmp_path, lang)
    projector.drawer.set_kind("Japan", "easy")
    projector.problems.report(NotAllowed("the seat Japan is no longer played by the easy bot", kind="seat_changed"))
    warning = i18n.t("classroom.error.seat_changed", lang)
    assert warning in _shown(projector)
    projector.redraw()  # the same state drawn again: the warning is still true
    assert warning in _shown(projector)
    projector.drawer.set_kind("Japan", "person")  # the next state of the room
    assert warning not in _shown(projector)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_revoked_phone_stops_and_says_why(tmp_path: Path, lang: str) -> None:
    projector, phones = _class(tmp_path, lang)
    mei = phones["Taiwan"]
    projector.drawer.revoke("Taiwan")
    mei.sync()
    said = i18n.t("classroom.error.token_revoked", lang)
    assert said in mei.banner.value and said not in mei.message.value  # said once; the message offers the way back
    assert "href='join/" in mei.message.value
    assert "data-mine='0'" in mei.banner.value and not mei.decisions.buttons() and not mei.decisions.highlight_cells()


def test_the_heartbeat_ticks_from_the_event_loop_and_says_lost_in_both_languages() -> None:
    from typhoon_edu.ui.classplay.pagelink import PageLink

    link = PageLink(mode="seat", lang="en", interval=0.05)

    async def run() -> int:
        link.start()  # not served by Voilà (a test, a notebook): no heartbeat, so never "lost"
        await asyncio.sleep(0.2)
        assert link.beat == 0
        link.start(always=True)
        await asyncio.sleep(0.3)
        return link.beat

    assert asyncio.run(run()) >= 3
    assert link.reload_after > 0 and PageLink(mode="projector").reload_after == 0  # the teacher's page asks first
    link.set_lang("zh-TW")
    assert link.lost_text == i18n.t("classplay.connection.lost", "zh-TW") != i18n.t("classplay.connection.lost", "en")


# ---------------------------------------------------------------------------- #19.5 languages, #19.8 attention
def test_speed_and_room_label_survive_a_language_switch(tmp_path: Path) -> None:
    projector, _phones = _class(tmp_path, "en")
    projector.game.speed.value = 2.0
    projector.set_lang("zh-TW")
    assert projector.speed == 2.0 and projector.game.speed.value == 2.0
    assert i18n.t("classplay.room", "zh-TW") in projector.game.code.value
    assert ">Room " not in projector.game.code.value
    projector.set_lang("en")
    assert projector.speed == 2.0 and i18n.t("classplay.room", "en") in projector.game.code.value


def test_a_phone_opens_in_the_rooms_language_and_keeps_its_own_choice(tmp_path: Path) -> None:
    from typhoon_edu.ui.classplay.seat import SeatApp

    projector, _phones = _class(tmp_path, "en")  # a room in English
    token = projector.drawer.app.room.reissue_token("Japan")
    phone = SeatApp(lang="zh-TW", store=projector.store, token=token)  # the server's language: zh-TW
    assert phone.lang == "en" and phone.link.chosen_lang == ""
    phone.lang_toggle.value = "zh-TW"  # this device's own switch: handed to the browser to keep
    assert phone.lang == "zh-TW" and phone.link.chosen_lang == "zh-TW"
    again = SeatApp(lang="en", store=projector.store, token=token)
    again.link.chosen_lang = "zh-TW"  # what the browser gives back from its storage after a reload
    assert again.lang == "zh-TW" and i18n.t("classplay.attention.sound", "zh-TW") == again.sound.description


def test_the_sound_switch_says_whether_it_is_on_in_the_devices_language(tmp_path: Path) -> None:
    from typhoon_edu.ui.classplay.seat import SeatApp

    projector, _phones = _class(tmp_path, "en")
    phone = SeatApp(lang="en", store=projector.store, token=projector.drawer.app.room.reissue_token("Japan"))
    assert (phone.sound.description, phone.sound.icon) == ("Sound on", "bell")
    phone.sound.value = False
    assert (phone.sound.description, phone.sound.icon) == ("Sound off", "bell-slash") and phone.link.muted
    phone.lang_toggle.value = "zh-TW"
    assert phone.sound.description == "聲音：關"
    phone.link.muted = False  # the browser's stored choice, given back after a reload
    assert phone.sound.value and phone.sound.description == "聲音：開"


def test_a_device_is_called_once_per_decision_and_not_when_muted(tmp_path: Path) -> None:
    projector, phones = _class(tmp_path, "en")
    mei, ken = phones["Taiwan"], phones["Japan"]
    assert mei.link.alert == 1 and ken.link.alert == 0  # Taiwan places the first storm
    mei.render()
    assert mei.link.alert == 1  # drawn again, same decision: no second call
    ken.sound.value = False  # the mute switch
    assert ken.link.muted
    calls = mei.link.alert
    for _ in range(30):  # Taiwan decides (placing, aiming) until Japan's first turn
        ken.sync()
        if ken.room.seat_view().my_turn:
            break
        mei.sync()
        cells = mei.decisions.highlight_cells()
        assert mei.decide(mei.decisions.cell_action(tuple(cells[0]))) if cells else mei.decisions.buttons()[0].click() is None
        projector.advance()
    assert ken.room.seat_view().my_turn and ken.link.alert == 0  # muted: no sound, no vibration
    assert mei.link.alert > calls  # Taiwan's later decisions each called Taiwan's device


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_turn_timer_lets_a_bot_play_a_slow_teams_turn_and_says_so(tmp_path: Path, lang: str) -> None:
    from typhoon_edu.ui.classplay.model import seat_label
    from typhoon_edu.ui.classplay.tables import seat_infos

    projector, phones = _class(tmp_path, lang)
    room = projector.room
    projector.check_timer()
    assert not projector.timer_note.counting and projector.timer_note.note == ""  # off by default: nobody is hurried
    assert not projector.check_timer(now=time.time() + 10_000) and room.seq == 0
    projector.timer_menu.value = 30  # the teacher's drawer: the room keeps it, the count starts now
    assert projector.store.room(room.id).turn_seconds == 30
    deadline = room.turn_deadline()
    assert deadline is not None and projector.timer_note.counting and 29 <= projector.timer_note.left <= 30
    assert "Mei" in projector.timer_note.template and "{n}" in projector.timer_note.template
    phones["Taiwan"].sync()
    phone_box = phones["Taiwan"].countdown
    assert phone_box.counting and 29 <= phone_box.left <= 30  # the team's phone counts down too
    assert phone_box.template == i18n.t("classplay.attention.my_time_left", lang, n="{n}")
    assert not phones["Japan"].countdown.counting  # not Japan's turn: no count there
    stamp = phone_box.stamp
    phones["Taiwan"].sync()
    phones["Taiwan"].render()
    assert phone_box.stamp == stamp  # the browser counts on its own: nothing more is sent
    assert not projector.check_timer(now=deadline - 10) and room.seq == 0
    assert projector.check_timer(now=deadline + 0.5)
    assert room.seq >= 1 and room.entries[0].by == "timer"  # played for the team, by the teacher's kernel
    said = i18n.t("classplay.attention.timer_out", lang, player=seat_label(seat_infos(room), "Taiwan", lang))
    assert said == projector.timer_note.note  # said above the count, until another team's count starts
    phones["Taiwan"].sync()
    assert phones["Taiwan"].room.seq == room.seq  # the phone shows the move made for it, and says why
    assert phone_box.note.endswith(i18n.t("classplay.attention.my_time_out", lang))
    projector.set_lang("zh-TW" if lang == "en" else "en")
    assert projector.timer_menu.value == 30  # kept across a language switch
    from typhoon_edu.ui.classplay.projector import ProjectorApp

    again = ProjectorApp(lang=lang, store=projector.store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    again.open(room.code)  # the projector reloaded: the room's timer, not the page's
    assert again.timer_menu.value == 30 and again.timer_seconds == 30


def test_a_timer_the_menu_does_not_offer_is_shown_and_kept(tmp_path: Path) -> None:
    projector, _phones = _class(tmp_path, "en")
    from typhoon_edu.classroom.rooms import Room

    other = Room.open(projector.store, projector.room.code, teacher=projector.room.teacher)
    other.set_turn_timer(15)  # another projector of the room (or a test) sets it
    projector._take(projector.room.sync())
    assert projector.timer_menu.value == 15 and ("15 s", 15) in projector.timer_menu.options
    assert projector.store.room(projector.room.id).turn_seconds == 15  # showing it wrote nothing new


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_store_failing_during_a_move_is_told_without_not_possible_and_logged_with_its_traceback(
        tmp_path: Path, lang: str, monkeypatch, caplog) -> None:
    """A read-only or full disk under a team's move: the phone says the store failed (not "Not possible", the move was
    legal), the move is not shown as made, and the log gets a warning with the traceback for whoever runs the server."""
    import logging

    from typhoon_edu.classroom.errors import StoreError

    _projector, phones = _class(tmp_path, lang)
    mei = phones["Taiwan"]
    seq = mei.decisions.table.seq
    store = mei.room.store

    def fail(*_a, **_k):
        raise StoreError("disk I/O error")

    monkeypatch.setattr(store, "append", fail)
    with caplog.at_level(logging.INFO, logger="typhoon_edu.ui"):
        assert mei.decide(mei.decisions.cell_action(mei.decisions.highlight_cells()[0])) is False
    shown = _shown(mei)
    assert escape(StoreError("disk I/O error").text(lang)) in shown
    assert d("error.illegal", lang, error="").strip() not in shown
    assert mei.decisions.table.seq == seq and mei.decisions.highlight_cells()  # nothing shown as made
    warned = [r for r in caplog.records if r.levelno == logging.WARNING and "store failed" in r.getMessage()]
    assert warned and warned[0].exc_info is not None


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_seat_change_the_store_refuses_leaves_the_menu_showing_the_seat_as_it_is(
        tmp_path: Path, lang: str, monkeypatch) -> None:
    from typhoon_edu.classroom.errors import StoreError

    projector, _phones = _class(tmp_path, lang)
    room = projector.room

    def fail(*_a, **_k):
        raise StoreError("disk I/O error")

    monkeypatch.setattr(room, "set_seat", fail)
    menu = next(w for w in _all_widgets(projector.drawer.seats) if "typhoon-teacher-kind-Taiwan" in w._dom_classes)
    menu.value = "mcts"  # the teacher gives Mei's seat to the hard bot; the store refuses
    assert escape(StoreError("disk I/O error").text(lang)) in projector.problems.widget.value
    menu = next(w for w in _all_widgets(projector.drawer.seats) if "typhoon-teacher-kind-Taiwan" in w._dom_classes)
    assert room.seat("Taiwan").kind == "person" and menu.value == "person"


def _all_widgets(root: Any) -> list[Any]:
    out, stack = [], [root]
    while stack:
        w = stack.pop()
        out.append(w)
        stack.extend(getattr(w, "children", ()))
    return out


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_screen_reader_hears_a_move_and_its_turn(tmp_path: Path, lang: str) -> None:
    """The seat's live region says what was just played and, when the team must decide, "Your turn! …"; the projector's
    says what was played too (the log alone changed silently)."""
    projector, phones = _class(tmp_path, lang)
    mei, ken = phones["Taiwan"], phones["Japan"]
    heard: list[str] = []  # everything Ken's live region says, in order
    ken.board.access.observe(lambda c: heard.append(c["new"]), names="announce")
    assert mei.decide(mei.decisions.cell_action(mei.decisions.highlight_cells()[0]))
    said = mei.board.access.announce
    placed = mei.stage.log_texts()[0]
    assert placed in said, (placed, said)
    projector.advance()
    assert placed in projector.game.board.access.announce
    # play on until Ken must decide: his phone says so
    for _ in range(60):  # Mei plays on (aims, dice, passes) until the turn is Ken's
        ken.sync()
        if ken.decisions.table is not None and ken.decisions.table.current_player == "Japan":
            break
        mei.sync()
        cells, buttons = mei.decisions.highlight_cells(), mei.decisions.buttons()
        if cells:
            mei.decide(mei.decisions.cell_action(cells[0]))
        elif buttons:
            passes = [b for b in buttons if "act-pass" in b._dom_classes]
            (passes or buttons)[0].click()
        projector.advance()
    assert ken.decisions.table.current_player == "Japan"
    turn = [h for h in heard if i18n.t("classplay.seat.your_turn", lang) in h]
    assert len(turn) == 1, heard  # said once, when the turn came
    assert placed in " ".join(heard)  # and the other team's moves before it


def test_the_setup_fields_and_the_projector_ring_have_names(tmp_path: Path) -> None:
    from typhoon_edu.ui.classplay.viewdata import d as dash
    from typhoon_edu.ui.map_text import html_text

    projector, _phones = _class(tmp_path, "zh-TW")
    ring = projector.game.ring
    assert projector.game.ring_access.label == html_text(ring.label.value) and projector.game.ring_access.label
    setup = projector.setup
    assert setup.seed.description == dash("setup.seed_name", "zh-TW")
    assert [row.name.description for row in setup.rows[:2]] == [dash("setup.seat_name", "zh-TW", n=n) for n in (1, 2)]
