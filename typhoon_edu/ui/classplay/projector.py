"""The projector: the page ``typhoon-edu serve`` opens, for the whole class to watch.

Screens: **setup** (a new room, or the rooms in the store), **lobby** (with devices: a QR code,
a link and the room code per person seat), **game** (board, HP, compass ring, big die, what
happens now, the log; the teacher's drawer) and **results**. The projector's kernel is the
teacher's client of the room: it runs the computer players and the automatic dice, and it
shows every change another device makes within a poll (0.2 s).

With devices, the projector never shows a hand: person seats decide on their own phones. On one
computer, a curtain covers the window between players, and a player's hand is shown only after
they lift it, and hidden again as soon as they have decided.

Without an event loop (tests, scripts), :meth:`ProjectorApp.advance` does what the loop does.

>>> from typhoon_edu.classroom.store import RoomStore
>>> from typhoon_edu.ui.classplay.setup import SetupChoices
>>> from typhoon_edu.ui.classplay.viewdata import SeatChoice
>>> from typhoon_edu.classroom.teachers import local_teacher
>>> store = RoomStore("sqlite://")
>>> app = ProjectorApp(lang="en", store=store, fullscreen=False, teacher=local_teacher(store))
>>> room = app.start(SetupChoices([SeatChoice("easy"), SeatChoice("medium"), SeatChoice("easy")], seed=4, speed=0))
>>> _ = app.advance()
>>> app.screen, room.is_over
('results', True)
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from html import escape
from typing import Any
from urllib.parse import urlencode

import ipywidgets as widgets

from ... import i18n
from ...classroom.errors import ClassroomError, StaleWrite
from ...engine.actions import Action
from ...engine.game import CHANCE
from ...engine.rules import IllegalActionError, load_rules
from ..guard import Problems
from ..palette import region_edge
from .address import PageAddress
from .curtain import Curtain
from .decisions import DecisionPanel
from .die_entry import DieEntry
from .joincard import join_card_html
from .model import BOT_LEVEL, Situation, banner, private_decision, screen_banner, seat_label
from .pacer import Pacer, board_state_of, hurry_for
from .pagelink import PageLink
from .runtime import POLL, _error_text, _open_store, _running_loop, refused
from .screens import LANG_OPTIONS, ProjectorGameScreen, banner_html
from .setup import SetupChoices, SetupScreen, speed_options
from .status import PageStatus, Words, room_state
from .tables import public_table, seat_infos, seat_table, view_digest
from .teacher import PRESENCE_EVERY, presence_words
from .theme import CSS
from .turntimer import Countdown, expired, timer_control, timer_options
from .viewdata import SeatChoice, SetupError, d

log = logging.getLogger("typhoon_edu.ui")

#: Seconds a bot "thinks" before its move shows, at speed 1 (so a class can follow each decision).
BOT_PAUSE = 0.9
#: Seconds the final board stays up before the results, at speed 1.
RESULTS_PAUSE = 2.0


def served_by_voila(environ: Any = None) -> bool:
    """Whether this kernel serves a page to browsers that must prove they are the teacher's.

    True under ``typhoon-edu serve`` (it sets ``TYPHOON_EDU_PUBLIC_URL``) and under a standalone
    Voilà (a kernel started for a request, or preheated). False in JupyterLab, and for Voilà as a
    Jupyter Server extension (``/voila/render/…``, e.g. Binder), where Jupyter's own login already
    says the page is its user's: there, as in a notebook, the user is the computer's teacher.

    >>> served_by_voila({"QUERY_STRING": ""}), served_by_voila({"VOILA_PREHEAT": "True"}), served_by_voila({})
    (True, True, False)
    >>> served_by_voila({"QUERY_STRING": "", "SCRIPT_NAME": "/user/x/voila/render/notebooks/dashboard.ipynb"})
    False
    >>> served_by_voila({"TYPHOON_EDU_PUBLIC_URL": "http://10.0.0.7:8866/", "SCRIPT_NAME": "/voila/render/d.ipynb"})
    True
    """
    import os

    env = os.environ if environ is None else environ
    if env.get("TYPHOON_EDU_PUBLIC_URL"):
        return True
    voila = "QUERY_STRING" in env or env.get("VOILA_PREHEAT") == "True" \
        or str(env.get("SERVER_SOFTWARE", "")).lower().startswith("voila")
    return voila and "/voila/render/" not in str(env.get("SCRIPT_NAME", ""))


def page_teacher(store: Any, query: Any = None) -> Any:
    """The teacher this page belongs to: in a served page, the one whose key the page's query carries
    (the server puts it there from the teacher's cookie or address); in JupyterLab, and in the person's own
    lessons shown by ``typhoon-edu lessons --voila`` (one person, this computer only), the computer's user (the
    local teacher). None for a student's page.

    >>> from typhoon_edu.classroom.store import RoomStore
    >>> from typhoon_edu.ui.query import LESSONS_SERVER_ENV_VAR
    >>> import os
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {LESSONS_SERVER_ENV_VAR: "1", "QUERY_STRING": ""}):
    ...     page_teacher(RoomStore("sqlite://")).is_local
    True
    """
    from ...classroom.teachers import local_teacher, teacher_for_key
    from ..query import on_lessons_server

    if query is None:
        if not served_by_voila() or on_lessons_server():
            return local_teacher(store)
        from ..query import page_query

        query = page_query()
    return teacher_for_key(store, query.get("teacher"))


def choices_of_room(room: Any) -> SetupChoices:
    """The setup that makes ``room``'s game again: its seats (kinds, names, regions as they were), start player,
    rules variant, dice and devices; a rematch of a room this page reopened rather than set up.

    >>> from typhoon_edu.classroom.rooms import Room, Seat
    >>> from typhoon_edu.classroom.store import RoomStore
    >>> from typhoon_edu.classroom.teachers import local_teacher
    >>> store = RoomStore("sqlite://")
    >>> room = Room.create(store, [Seat("Japan", "person", "Ann"), Seat("Korea", "mcts"), Seat("Taiwan", "random")],
    ...                    seed=4, dice="manual", teacher=local_teacher(store))
    >>> c = choices_of_room(room)
    >>> [(s.kind, s.name, s.region) for s in c.seats], c.regions, c.start, c.dice
    ([('person', 'Ann', 'Japan'), ('hard', '', 'Korea'), ('easy', '', 'Taiwan')], 'chosen', 2, 'manual')
    """
    seats = [SeatChoice(BOT_LEVEL.get(s.kind, s.kind), s.name, s.region) for s in room.seats]
    regions = [s.region for s in room.seats]
    start = room.setup.get("start")
    return SetupChoices(seats, regions="chosen", start=regions.index(start) if start in regions else None,
                        variant=str(room.setup.get("variant", "standard")), dice=room.dice, devices=room.devices)


class ProjectorApp:
    """The projector page. ``show()`` displays it; every button is also a method, for tests."""

    def __init__(self, lang: str = "zh-TW", store: Any = None, *, fullscreen: bool = True,
                 bot_pause: float = BOT_PAUSE, public_url: str | None = None, teacher: Any = None) -> None:
        self.lang = i18n.normalize_lang(lang)
        self.store = _open_store(store)
        #: The teacher whose projector this is (every teacher action is checked by the room against it).
        self.teacher = teacher if teacher is not None else page_teacher(self.store)
        self.bot_pause = bot_pause
        if public_url is None:
            from ..query import public_url as served_url

            public_url = served_url() or ""
        self.public_url = public_url
        self.rules = load_rules()
        self.room: Any = None
        self.choices: SetupChoices | None = None
        self.devices = True
        self.speed = 1.0
        self.screen = "setup"
        self.revealed: str | None = None  # one computer: whose hand is shown now
        self._revealed_seq = -1
        self._task: asyncio.Task[None] | None = None
        self._thinking = False
        self._up = False  # a lifted curtain shows a hand now
        self._die_shown = False  # the class's die is awaited now (its entry box shown)
        self._pause_told = False  # the pause now on was said to a screen reader (once, when it began)
        self._tokens: dict[str, str] = {}
        #: Why this page's teacher key no longer works ("removed" / "replaced", :func:`.teachers.key_withdrawn`):
        #: once set, the page shows only that, in its language (:meth:`check_teacher`).
        self.key_gone: str | None = None
        self.key_notice = widgets.HTML()
        self.key_notice.add_class("typhoon-key-gone")
        self.problems = Problems(lambda: self.lang, on_error=self._after_error)
        self.message = widgets.HTML()
        self.message.add_class("typhoon-message")
        self.status = PageStatus(self.message, self.problems)
        self.link = PageLink(mode="projector", lang=self.lang)
        # The teacher's turn timer is kept by the room (Room.set_turn_timer); its deadlines are
        # time.time() values written by the store, so this page's clock is the same wall clock.
        self.clock = time.time
        self._timed_out: str | None = None  # the team whose time last ran out (said until the next count)

        self.setup = SetupScreen(self.lang, self.problems, self._start_clicked, self._open_clicked)
        self.setup_lang = widgets.ToggleButtons(options=list(LANG_OPTIONS), value=self.lang)
        self.setup_lang.add_class("typhoon-lang")
        self.problems.observe(self.setup_lang, lambda c: self.set_lang(c["new"]), where="language")
        self.setup_header = widgets.HBox([widgets.HTML(), self.setup_lang])
        self.setup_header.add_class("typhoon-header")

        self.body = widgets.VBox([self.setup_header, self.setup.box], layout=widgets.Layout(width="100%",
                                                                                            height="100%"))
        self._played = False  # the game, lobby, teacher and results widgets are built with the first room
        from .access import PageAccess

        # toggles' states and groups' names, icons hidden, the focus kept through a redraw, the drawer by keyboard
        self.access = PageAccess()
        self.address = PageAddress()  # the room and language shown, in the page's address (see keeps_address)
        self.root = widgets.VBox([widgets.HTML(CSS), self.link, self.address, self.access, self.body],
                                 layout=widgets.Layout(width="100%"))
        self.root.add_class("typhoon-app")
        self.root.add_class("typhoon-projector")
        if fullscreen:
            self.root.add_class("typhoon-fullscreen")
        self.set_lang(self.lang)
        if self.teacher is None:  # never the setup screen or the rooms for a page without the teacher's key
            self.body.children = [self.setup_header, widgets.HTML(
                f"<div class='typhoon-message-error typhoon-teacher-needed'>"
                f"{escape(i18n.t('classplay.teacher_needed', self.lang))}</div>")]


    def _build_play(self) -> None:
        """The game screen, lobby, teacher's drawer, curtain and results: built for the first room only.

        A page that only shows the setup screen (a class opening at once) sends the browser a third
        of the widgets.
        """
        if self._played:
            return
        self._played = True
        self.decisions = DecisionPanel(self.problems, on_action=self.decide, on_pick=lambda _k: self._highlight(),
                                       show_hand=True)
        self.die_entry = DieEntry(self.problems, self.enter_die, lambda: self.lang)
        self.die_entry.layout.display = "none"
        from .coachbox import CoachBox

        self.coach = CoachBox(self.problems, lambda: self.lang)
        self.timer_note = Countdown()
        self.timer_note.add_class("typhoon-timer")
        self.timer_menu = timer_control(self.lang, self.set_timer, self.problems.observe)
        decide_box = widgets.VBox([self.timer_note, self.message, self.die_entry, self.coach, self.decisions])
        decide_box.add_class("typhoon-decide-box")
        self.game = ProjectorGameScreen(self.rules, self.lang, decide_box, self.problems)
        self.pacer = Pacer(self.game.stage, lambda: self.speed, on_idle=self._after_animation, problems=self.problems)
        self.problems.on_mouse_down(self.game.board.canvas, lambda x, y: self._board_click(x, y), where="map")
        self.problems.observe(self.game.lang_toggle, lambda c: self.set_lang(c["new"]), where="language")
        self.problems.observe(self.game.speed, lambda c: self.set_speed(float(c["new"])), where="speed")
        self.problems.on_click(self.game.skip, lambda _b: self.pacer.skip(), where="skip")
        self.problems.observe(self.game.teacher_button, lambda c: self._show_teacher(bool(c["new"])), where="teacher")
        self.curtain = Curtain(self.problems, on_lift=self.reveal)
        from .teacher import TeacherDrawer

        #: The teacher's drawer (pause, seats, links …); ``self.teacher`` stays the teacher's credential.
        self.drawer = TeacherDrawer(self)
        #: Which joined devices are there, read in the lobby (:meth:`lobby_presence`): region -> Presence.
        self._lobby_presence: dict[str, Any] = {}
        self._lobby_presence_at = float("-inf")
        self.drawer.box.children = (*self.drawer.box.children, self.timer_menu)
        from .lobby import Lobby

        self.lobby = Lobby(self)
        from .results import ResultsScreen

        self.results = ResultsScreen(self)
        # the drawer (fixed over the side column) right after its toggle's header, so Tab goes from "Teacher" into it
        game = self.game.box.children
        self.game.box.children = [game[0], self.drawer.box, *game[1:]]
        self.root.children = [*self.root.children, self.curtain]
        self._relabel_play(self.lang)

    # ------------------------------------------------------------------ display
    def show(self) -> ProjectorApp:
        """Display the page (a notebook or Voilà) and read the rooms list now that a browser asks for it."""
        from IPython.display import display

        if self.teacher is not None:
            self.refresh_rooms()
        display(self.root)
        self.link.start()
        return self

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    def _go(self, screen: str) -> None:
        if self.key_gone is not None:
            return  # the page's key was taken away: it shows only that (check_teacher)
        self.screen = screen
        if screen != "setup":
            self._build_play()
        boxes = {"setup": lambda: [self.setup_header, self.setup.box], "lobby": lambda: [self.lobby.box],
                 "game": lambda: [self.game.box], "results": lambda: [self.setup_header, self.results.box]}
        self.body.children = boxes[screen]()
        if screen != "game" and self._played:
            self.curtain.hide()
            self.drawer.close()
        self._sync_address()

    #: Whether the page's address follows the room and language shown (a page the class server serves: a teacher's
    #: reload then reopens the same room, :func:`typhoon_edu.ui.classplay.launch`); not in a notebook or a lesson.
    keeps_address = False

    def _sync_address(self) -> None:
        """Put the room shown (none on the setup screen) and the language into the page's address."""
        if not self.keeps_address:
            return
        room = self.room.code if self.room is not None and self.screen != "setup" else ""
        self.address.query = urlencode({"room": room, "lang": self.lang} if room else {"lang": self.lang})

    def set_lang(self, lang: str) -> None:
        """Every text of every screen in ``lang`` (at any moment, mid-game too)."""
        lang = i18n.normalize_lang(lang)
        self.lang = lang
        for toggle in (self.setup_lang, *([self.game.lang_toggle] if self._played else [])):
            if toggle.value != lang:
                toggle.value = lang
        self.setup_header.children[0].value = f"<span class='typhoon-title'><b>{escape(d('app.title', lang))}</b></span>"
        self.setup.set_lang(lang)
        self.link.set_lang(lang)
        self.access.set_lang(lang)
        self._sync_address()
        if self.key_gone is not None:
            self._render_key_gone()
        if self._played:
            self._relabel_play(lang)
        self.status.relabel()  # what the message line says, said again in the new language
        if self.screen == "results":
            self.results.render()
        if self.room is not None and self.screen == "game":
            self.game.stage.lines = []
            for e in self.room.events():
                self.game.stage.add_line(e)
            self.redraw()

    def _relabel_play(self, lang: str) -> None:
        self.game.set_lang(lang)
        speed = self.speed  # new options reset the toggle (to Slow): the class's speed stays, and is not written
        self._speed_quiet = True
        try:
            self.game.speed.options = speed_options(lang)
        finally:
            self._speed_quiet = False
        self._show_speed(speed)
        self._show_code()
        self._show_timer_setting()
        self.timer_menu.description = i18n.t("classplay.attention.timer", lang)
        self.game.skip.description = d("game.skip", lang)
        self.game.teacher_button.description = i18n.t("classplay.teacher.title", lang)
        self.die_entry.relabel()
        self.drawer.set_lang(lang)
        self.lobby.render()

    @property
    def timer_seconds(self) -> int:
        """The room's turn timer (seconds per person decision; 0: off)."""
        return int(getattr(self.room, "turn_seconds", 0) or 0) if self.room is not None else 0

    def _show_timer_setting(self) -> None:
        """The drawer's menu shows the room's timer (a reloaded projector too); no write follows."""
        seconds = self.timer_seconds
        options = timer_options(self.lang, seconds)
        self._menu_quiet = True  # new options reset the menu's value: not the teacher choosing "off"
        try:
            if list(self.timer_menu.options) != options:
                self.timer_menu.options = options
            if self.timer_menu.value != seconds:
                self.timer_menu.value = seconds
        finally:
            self._menu_quiet = False

    _menu_quiet = False
    #: Whether this page has seen the room's game begun (a start made on another projector moves its lobby on).
    _begun_seen = False

    def set_timer(self, seconds: int) -> None:
        """The teacher's time per person decision (0: no timer), kept by the room; the count starts again."""
        if self._menu_quiet or self.room is None:
            return
        if seconds != self.timer_seconds:
            try:
                self._take(self.room.set_turn_timer(int(seconds)))
            except ClassroomError as exc:
                self._refused(exc, "turn timer")
            except ValueError as exc:
                self._say(lambda lang, exc=exc: d("error.illegal", lang, error=str(exc)))
        if self._played:
            self._show_timer_setting()
        self._timed_out = None
        self.check_timer()

    def check_timer(self, now: float | None = None) -> bool:
        """Show the seconds left for the person deciding; when they run out, a bot plays the turn (True).

        The deadline is the room's (stored), so a reloaded projector counts on where it was. Only
        one writer plays the expired turn: the write names the decision it is for, and a team's
        move that reached the store first wins (this one is then refused as stale, harmlessly).
        """
        room = self.room
        now = self.clock() if now is None else now
        if not self._played:
            return False
        deadline = None
        if room is not None and self.screen == "game" and not room.is_over and self.pacer.idle:
            deadline = room.turn_deadline()
        who = room.waiting_for if deadline is not None else None
        if who is not None and self._timed_out not in (None, who):
            self._timed_out = None  # the next team's count: the last time-out is old news
        if self._timed_out is not None and not self.timer_seconds:
            self._timed_out = None  # the teacher switched the timer off
        note = self._timer_out_text(self._timed_out) if self._timed_out is not None else ""
        if who is not None:
            label = seat_label(seat_infos(room), who, self.lang)
            template = i18n.t("classplay.attention.timer_left", self.lang, player=label, n="{n}")
            self.timer_note.show((room.seq, who, deadline), deadline - now, template, note)
        else:
            self.timer_note.say(note)
        if who is None or not expired(deadline, now):
            return False
        try:
            update = room.play_for_time(now=now)
        except StaleWrite:
            return False  # the team decided at the last moment: their move stands
        if not update:
            return False
        self.revealed = None
        self._timed_out = who
        self.timer_note.say(self._timer_out_text(who))
        self._take(update)  # said by the note above the count (kept until another team's count starts)
        return True

    def _timer_out_text(self, region: str) -> str:
        return i18n.t("classplay.attention.timer_out", self.lang,
                      player=seat_label(seat_infos(self.room), region, self.lang))

    #: True while the speed buttons change without the teacher choosing (relabelled, or showing the room's speed).
    _speed_quiet = False
    #: The room's speed as this page last took it (another projector's change is taken once, as the turn timer is).
    _room_speed = 1.0

    def set_speed(self, speed: float) -> None:
        """The class's animation speed (the teacher's speed buttons): this page's, and the room's, so every team's
        phone animates at it too (:meth:`Room.set_speed`, a teacher's action; a refusal is said)."""
        if self._speed_quiet:
            return
        self._show_speed(speed)
        room = self.room
        if room is None or not room.is_open or room.speed == self.speed:
            return
        try:
            self._take(room.set_speed(self.speed))
        except ClassroomError as exc:
            if getattr(exc, "kind", "") == "game_over":
                return  # the game ended while this page still plays its last moves: they play at this speed, no more
            self._refused(exc, "speed")
            self._show_speed(room.speed)  # the class's speed is still the one before (the phones' too)

    def _show_speed(self, speed: float) -> None:
        """Animate at ``speed`` here and show it on the speed buttons; nothing is written."""
        self.speed = float(speed)
        shown = self._played and self.speed in [v for _, v in self.game.speed.options]  # (8: set by a script)
        if shown and self.game.speed.value != self.speed:
            self._speed_quiet = True
            try:
                self.game.speed.value = self.speed
            finally:
                self._speed_quiet = False

    # ------------------------------------------------------------------ rooms
    def refresh_rooms(self) -> list[Any]:
        """Import old JSON saves once, then list this teacher's rooms (a bad room or file is listed with its reason).

        A store that cannot be read or written is said on the setup screen, in the teacher's language.
        """
        from ...classroom.records import import_problems, import_saves
        from ...classroom.rooms import list_rooms

        problems: list[tuple[str, str]] = []
        rooms: list[Any] = []
        if self.check_teacher(ask=True) is not None:
            return rooms
        try:
            if self.teacher is not None and self.teacher.is_local:  # the computer user's own save folder
                import_saves(self.store)
                problems = [(p.name, _save_problem_text(p.kind, p.error, self.lang))
                            for p in import_problems(self.store)]
            rooms = list_rooms(self.store, teacher=self.teacher)
            self.store.check_writable()  # a read-only file or database is said now, not at Start
        except ClassroomError as exc:  # the store cannot be read or written: say so, list what there is
            self.setup.show_error(lambda lang, exc=exc: _error_text(exc, lang))
            log.warning("the room store has a problem: %s", exc)
        self.setup.show_rooms(rooms, problems)
        return rooms

    def _start_clicked(self, choices: SetupChoices | None = None) -> Any:
        return self._said(lambda: self.start(choices))

    def _open_clicked(self, code: str) -> Any:
        return self._said(lambda: self.open(code))

    def _said(self, act: Any) -> Any:
        """Run a setup screen's button: a refusal (no teacher, a store that cannot be written) is said there."""
        try:
            return act()
        except ClassroomError as exc:
            log.warning("the setup screen's action was refused: %s", exc)
            if not self._key_refused(exc):
                self.setup.show_error(lambda lang, exc=exc: _error_text(exc, lang))
            return None

    def start(self, choices: SetupChoices | None = None, *, after: Any = None) -> Any:
        """Create a room from ``choices`` (default: the setup form) and open it.

        With devices and a person seat, the room waits in the lobby (no team's decision is taken)
        until the teacher starts the game there (:meth:`show_board`). ``after``: the room this is
        a rematch of (its phones are then offered their seats in the new one).
        """
        from ...classroom.rooms import Room

        choices = choices or self.setup.choices()
        try:
            seats, start = choices.resolve()
        except SetupError as exc:
            self.setup.show_error(lambda lang, exc=exc: exc.message(lang))
            return None
        lobby = bool(choices.devices) and any(s.kind == "person" for s in seats)
        room = Room.create(self.store, seats, seed=choices.seed, variant=choices.variant, dice=choices.dice,
                           start=start, lang=self.lang, options={"devices": bool(choices.devices)},
                           teacher=self.teacher, lobby=lobby, after=after, speed=float(choices.speed))
        self.choices = choices
        self.setup.show_error("")
        self._open_room(room, tokens=dict(room.issued_tokens))  # (at the room's speed: the one chosen)
        return room

    def open(self, code: str) -> Any:
        """Reopen one of this teacher's rooms by its code (a reload, another day), with the join links
        it has: nothing is re-issued, so the QR codes already shown keep working."""
        from ...classroom.rooms import Room

        room = Room.open(self.store, code, teacher=self.teacher)
        tokens = room.join_links() if room.is_open else {}
        self.choices = None
        self._open_room(room, tokens=tokens)
        return room

    def take(self, handover: str) -> Any:
        """Open a colleague's room from the hand-over link they shared (it becomes this teacher's)."""
        from ...classroom.rooms import Room

        room = Room.take(self.store, handover, teacher=self.teacher)
        self.choices = None
        self._open_room(room, tokens=room.join_links() if room.is_open else {})
        return room

    def handover_url(self) -> str:
        """The address that hands this room to a colleague (opened in their teacher's browser)."""
        if self.room is None:
            return ""
        base = self.public_url.rstrip("/") + "/" if self.public_url else ""
        return f"{base}?take={self.room.handover_link()}"

    def _open_room(self, room: Any, tokens: dict[str, str]) -> None:
        self._build_play()
        self._stop()
        self.room = room
        self._room_speed = room.speed
        self._show_speed(room.speed)  # the class's speed, kept by the room (a reload, or a colleague's room, too)
        self._tokens = tokens
        self._timed_out = None
        self._lobby_presence, self._lobby_presence_at = {}, float("-inf")  # another room's devices are not these
        self._show_timer_setting()  # the room's turn timer: kept when the projector is reloaded
        self.devices = bool(room.options.get("devices", True)) if hasattr(room, "options") else True
        self.revealed = None
        self.pacer.cancel()
        self.game.die.clear()
        self.game.stage.lines = []
        for e in room.events():
            self.game.stage.add_line(e)
        if room.is_over or not room.is_open:
            self._show_results()
            return
        self._show_code()
        self.redraw(exact=True)
        self._begun_seen = room.begun
        # the room's own record: a reload during the lobby comes back to it; a game that has begun comes back to
        # the join codes while a team has not joined (its teams play meanwhile), as "Show the board now" leaves it
        if not room.begun or (self.devices and any(s.is_person for s in room.seats) and not self._all_joined()):
            self._go("lobby")
            self.lobby.render()
        else:
            self._go("game")
        self._drive()

    def _show_code(self) -> None:
        """The room's code in the header, its label in the page's language; none on one computer (no
        team joins from a device, so a code on the wall would only let a student open a team's hand)."""
        if self.room is None:
            return
        if not self.devices:
            self.game.code.value = ""
            return
        self.game.code.value = (f"<span>{escape(i18n.t('classplay.room', self.lang))} "
                                f"<span class='typhoon-room-chip'>{escape(self.room.code)}</span></span>")

    def _all_joined(self) -> bool:
        return all(s.joined for s in self.room.seats if s.is_person)

    def show_board(self) -> None:
        """From the lobby to the game screen: the teacher starts the game (the room records it, and the teams'
        decisions are taken from now on); the join cards stay in the teacher's drawer."""
        room = self.room
        if room is None:
            return
        if not room.begun:
            self._take(room.begin())  # a store that cannot record it raises: the lobby stays, and its page says why
        self._begun_seen = True
        self._go("game")
        self.redraw(exact=True)

    def join_url(self, region: str) -> str:
        token = self._tokens.get(region, "")
        base = self.public_url.rstrip("/") + "/" if self.public_url else ""
        return f"{base}?seat={token}"

    def join_address(self) -> str:
        """The short address students type (``192.168.1.23:8866/join``), or "this page's address" when not served."""
        host = self.public_url.split("://", 1)[-1].rstrip("/")
        return f"{host}/join" if host else i18n.t("classplay.join.this_address", self.lang)

    def join_cards(self) -> str:
        """The join card of every person seat (QR code, link, room code)."""
        room = self.room
        if room is None:
            return ""
        short = self.join_address()
        cards = []
        for s in room.seats:
            if not s.is_person:
                continue
            label = seat_label(seat_infos(room), s.region, self.lang)
            joined = bool(s.joined)
            presence = self._lobby_presence.get(s.region)
            away = presence_words(presence, self.lang) if presence is not None and presence.state == "away" else ""
            cards.append(join_card_html(region=s.region, label=label, url=self.join_url(s.region), short_url=short,
                                        code=room.code, lang=self.lang, joined=joined,
                                        colour=region_edge(self.rules.regions[s.region]), qr=bool(self.public_url),
                                        no_link=s.region not in self._tokens, away=away))
        return "".join(cards)

    def lobby_presence(self, *, force: bool = False) -> bool:
        """In the lobby, read which joined devices are there (at most every PRESENCE_EVERY s) and redraw the cards
        when what they say changes (a team's phone closed after joining: "device joined · not seen for 2 min");
        whether they were redrawn.

        While the teacher's drawer is open it reads the same thing every PRESENCE_EVERY s for its rows: the cards
        then take the drawer's latest read (:meth:`_drawer_presence`) and the store is read once, not twice.
        ``force``: read the store now."""
        room = self.room
        if room is None or self.screen != "lobby" or room.viewer is not None:
            return False
        now = time.monotonic()
        shared = None if force else self._drawer_presence(room)
        if shared is not None:
            if shared is self._lobby_presence:
                return False  # the drawer has not read again since the cards took its read
            presence = shared
            self._lobby_presence_at = now  # (a drawer closed now: the cards' own next read is one interval away)
        else:
            if not force and now - self._lobby_presence_at < PRESENCE_EVERY:
                return False
            self._lobby_presence_at = now
            try:
                presence = room.presence()
            except ClassroomError:
                return False  # the store is away a moment: the cards keep what they said

        def shown(seen: dict[str, Any]) -> dict[str, str]:  # what the cards say: only a device gone quiet
            return {r: presence_words(p, "en") for r, p in seen.items() if p.state == "away"}

        changed = shown(presence) != shown(self._lobby_presence)
        self._lobby_presence = presence
        if not changed:
            return False
        self.lobby.render()
        return True

    def _drawer_presence(self, room: Any) -> dict[str, Any] | None:
        """The open drawer's latest read of who is there in ``room`` (None: the drawer is closed, has read another
        room or nothing yet, or has not read for two intervals, so its task is not running: the cards read then)."""
        return self.drawer.last_presence(room)

    def leave(self) -> None:
        """Back to the setup screen; the room stays in the store and is offered again."""
        self._stop()
        self.room = None
        self.refresh_rooms()
        self._go("setup")

    def rematch(self) -> Any:
        """The same seats again, with a new shuffle; the teams' phones still on this room are offered their seats in
        the new one (the old room names it as its successor)."""
        choices = self.choices
        if choices is None and self.room is not None:  # a room reopened (a reload of the results): its own seats
            choices = choices_of_room(self.room)
        if choices is not None:  # (at the speed the class watched this game at)
            return self.start(SetupChoices(**{**choices.__dict__, "seed": None, "speed": self.speed}), after=self.room)
        self.leave()
        return None

    def new_game(self) -> None:
        if self.choices is not None:
            self.setup.fill(self.choices)
        self.leave()

    # ------------------------------------------------------------------ drawing the game
    def redraw(self, exact: bool = False, news: str = "") -> None:
        """Banner, HP, decisions (and, with ``exact``, the board and ring) as the room is now.

        ``news``: what was just played, for the map's live region; a pause that has just begun is said after it.
        """
        room = self.room
        if room is None or self.screen not in ("game", "lobby") and not exact:
            return
        seats = seat_infos(room)
        table = public_table(room)
        lang = self.lang
        self.game.show_table(table, seats, lang, exact=False)  # the map and ring: _show_map below, if they changed
        busy = not self.pacer.idle
        who = table.current_player
        # the pause, and the "soon" words while the storms move, decided with the phones' in one place
        b = screen_banner(table, seats, lang, Situation(devices=self.devices, busy=busy, paused=room.paused))
        state = {"seq": room.seq, "phase": table.phase, "who": who or "", "busy": int(busy), "person": int(b.person),
                 "paused": int(room.paused), "devices": int(self.devices), "revealed": self.revealed or "",
                 "view": view_digest(room)}
        key = room_state(room)
        self.status.seen(key)
        # the pause is shown once, in the banner (no second line under it), and said once, when it begins; while
        # the storms still move, with what they did once they stop (a sentence said later would replace it)
        if room.paused and not self._pause_told and not busy:
            news = f"{news} {i18n.t('classplay.paused', lang)}".strip()
            self._pause_told = True
        elif not room.paused:
            self._pause_told = False
        if news:
            self.game.board.access.say(news)
        self._render_decision(table, seats, busy)
        self.drawer.render()
        self._show_map(table, exact)
        self.game.banner.value = banner_html(b, state)  # last, as on a team's device (SeatApp.render)

    def _hand_up(self, up: bool) -> None:
        """One computer, a hand lifted: the side column gives the hand its whole height (ring and log fold away)."""
        if up and "typhoon-hand-up" not in self.root._dom_classes:
            self.root.add_class("typhoon-hand-up")
        elif not up and "typhoon-hand-up" in self.root._dom_classes:
            self.root.remove_class("typhoon-hand-up")

    def _render_decision(self, table: Any, seats: Any, busy: bool) -> None:
        self._up = False  # set below only while a lifted curtain shows a hand
        self._die_shown = False  # set below only while the class's die is awaited
        try:
            self._render_decision_now(table, seats, busy)
        finally:
            self._hand_up(self._up)
            # once per redraw: hidden and shown again at every redraw, the box lost the keyboard's focus to the body
            self.die_entry.show(self._die_shown)

    def _render_decision_now(self, table: Any, seats: Any, busy: bool) -> None:
        room = self.room
        lang = self.lang
        who = table.current_player
        if who in seats and seats[who].is_person and not busy:
            self.die_entry.keep_focus = False  # a person decides before the next roll: the focus is theirs to move
        self.coach.show_for(room, who or "", mine=False)  # offered again below for a person deciding here
        note = ""
        if table.is_over:
            self.curtain.hide()
            self.decisions.render(table, seats, lang, busy=True)
            return
        if who == CHANCE:
            self.curtain.hide()
            self.die_entry.awaiting(room.seq)  # a face the store refused stays typed for this die only
            self._die_shown = not busy and not room.paused  # the box typed in with Enter has the focus again
            self.decisions.render(table, seats, lang, busy=True)
            return
        person = who in seats and seats[who].is_person
        if not person:
            self.curtain.hide()
            label = seat_label(seats, who, lang) if who else ""
            note = d("game.bot_thinking", lang, player=label) if who else ""
            self.decisions.render(table, seats, lang, busy=True, note=note)
            return
        label = seat_label(seats, who, lang)
        if self.devices:
            self.curtain.hide()
            key = "classplay.wait_device" if seats[who].device else "classplay.wait_join"
            self.decisions.render(table, seats, lang, busy=True, note=i18n.t(key, lang, player=label))
            return
        # one computer: public decisions on the screen, hand decisions behind the curtain
        own = seat_table(room, who, cards=True)
        if private_decision(own, seats):
            if self.revealed == who and self._revealed_seq == room.seq:
                self.curtain.hide()
                self._up = True
                self.decisions.render(own, seats, lang, busy=busy)
                self.coach.show_for(room, who, mine=not busy)
            else:
                self.revealed = None
                self.decisions.render(table, seats, lang, busy=True)
                if not busy and not room.paused:
                    self.curtain.drop(who, label, lang)
            return
        self.curtain.hide()
        self.decisions.render(seat_table(room, who, cards=False), seats, lang, busy=busy or room.paused)
        # no hint here: the coach reasons with the hand, and this screen is everyone's

    def _show_map(self, table: Any, exact: bool) -> None:
        """The map's storms and lit cells and the compass ring as ``table`` has them, drawn only where they differ
        from what the page shows; ``exact``: the storms and the ring too, not only the lit cells.

        The poll redraws exactly every 0.2 s while the room is idle: painting the storms' layer anyway (without the
        lit cells, then again with them) sent the page about 9 KB twice a poll and set the map's words for a screen
        reader back and forth. A page that connects, a language and a width of its own are painted by the board
        (:meth:`BoardView.redraw`), not here.
        """
        board = self.game.board
        cells = tuple(tuple(c) for c in ([] if not self.pacer.idle else self.decisions.highlight_cells()))
        if exact:
            board.skip()
            shown = replace(board_state_of(table.typhoons), highlights=cells)
            if board.state != shown:
                board.show(shown)
            ring = self.game.ring
            if ring.player is not None:
                ring.player.skip()
            if ring.stop != table.compass or ring.shown_stop != table.compass:
                ring.set_stop(table.compass)
        elif cells != tuple(board.state.highlights):
            board.highlight(cells)

    def _highlight(self) -> None:
        cells = [] if not self.pacer.idle else self.decisions.highlight_cells()
        if tuple(tuple(c) for c in cells) != tuple(self.game.board.state.highlights):
            self.game.board.highlight(cells)

    def _board_click(self, px: float, py: float) -> None:
        cell = self.game.board.geometry.pixel_to_cell(px, py)
        if cell is None or self.room is None:
            return
        if not self.pacer.idle:
            self._say(lambda lang: i18n.t("classplay.busy", lang))
            return
        action = self.decisions.cell_action(cell)
        if action is None:
            if self.decisions.highlight_cells():
                self._say(lambda lang: d("error.bad_cell", lang, cell=i18n.cell_label(cell, lang)))
            else:
                self._say_why_the_map_is_not_for_now()
            return
        self.decide(action)

    def _say_why_the_map_is_not_for_now(self) -> None:
        """A tap on the map when no cell is to be chosen: say what the class does now instead (the banner's advice)."""
        room = self.room
        if room is None or self.screen != "game":
            return
        if room.paused:
            self._say(lambda lang: i18n.t("classplay.paused", lang))  # as the standing pause message says it
            return
        table, seats, devices = public_table(room), seat_infos(room), self.devices
        if banner(table, seats, self.lang, devices=devices).detail:
            self._say(lambda lang: i18n.t("classplay.map_idle", lang,
                                          why=banner(table, seats, lang, devices=devices).detail), error=False)

    def _say(self, text: str | Words, error: bool = True) -> None:
        """Say ``text`` on the page's message line; words in every language (a function of the language) are said
        again in the language the teacher switches to while they are shown (:meth:`PageStatus.say`)."""
        self.status.say(text, error)

    # ------------------------------------------------------------------ decisions
    def reveal(self, region: str) -> None:
        """One computer: the curtain is lifted by ``region``'s player; show their hand for this decision."""
        if self.room is None:
            return
        self.revealed = region
        self._revealed_seq = self.room.seq
        self.redraw()

    def decide(self, action: Action | str) -> bool:
        """A person's decision made on the projector (one computer), or a typed die; False if refused."""
        room = self.room
        if room is None or self.screen != "game" or not self.pacer.idle:
            self._say(lambda lang: d("error.wait", lang))
            return False
        expected = room.next_seq
        who_decided = room.game.current_player
        try:
            update = room.act(action, expected_seq=expected, teacher=True)
        except StaleWrite:
            self._say(lambda lang: i18n.t("classplay.stale", lang))
            self._take(room.sync(), force_exact=True)
            return False
        except (IllegalActionError, ClassroomError) as exc:
            self._refused(exc, "decide")
            self.redraw()
            return False
        if self.revealed is not None and self.revealed == who_decided:
            # one curtain per player's run of decisions: if the next one is theirs too (six discards),
            # the hand stays up; any other move in between drops the curtain again
            self._revealed_seq = room.seq
        else:
            self.revealed = None
        self.decisions.pending_card = None
        self._say("")
        self._take(update)
        return True

    def _refused(self, exc: BaseException, where: str) -> None:
        """Tell the teacher why ``exc`` stopped what they did (in every language: said again after a switch), and log
        it once (:func:`.runtime.refused`)."""
        words = refused(exc, where)
        if not self._key_refused(exc):
            self._say(words)

    def _after_error(self, exc: BaseException) -> None:
        """After a button, menu or the update loop failed (told by :attr:`problems`): the page as the room is now,
        or only the notice if the teacher's key was taken away."""
        if not self._key_refused(exc):
            self.redraw()

    # ------------------------------------------------------------------ a teacher key taken away
    def _key_refused(self, exc: BaseException) -> bool:
        """Whether ``exc`` refused a teacher's action because this page's teacher key was taken away (the page then
        shows only that)."""
        if not isinstance(exc, ClassroomError) or exc.kind not in ("not_your_room", "teacher_only"):
            return False
        return self.check_teacher(ask=True) is not None

    def check_teacher(self, *, ask: bool = False) -> str | None:
        """Whether this page's teacher key was taken away since the page opened: ``"removed"`` (``typhoon-edu
        teacher remove``) or ``"replaced"`` (``teacher new-key``), else None. If so, the page shows only that, in its
        language, and what to do; no teacher's control, join link or hand stays on it, and nothing is run from it
        any more (the teams' phones play on: their room now belongs to another teacher's key).

        Without ``ask`` it reads what the open room last saw (:attr:`.rooms.Room.teacher_lost`, noticed by the poll:
        no query); ``ask`` asks the store too (a refused action, the rooms list).

        >>> from typhoon_edu.classroom.store import RoomStore
        >>> from typhoon_edu.classroom.teachers import add_teacher, remove_teacher
        >>> store = RoomStore("sqlite://")
        >>> lin, _ = add_teacher(store, "Ms Lin")
        >>> app = ProjectorApp(lang="en", store=store, fullscreen=False, teacher=lin)
        >>> app.check_teacher(ask=True) is None
        True
        >>> _ = remove_teacher(store, lin)
        >>> app.check_teacher(ask=True), app.screen, "This teacher key was removed" in app.key_notice.value
        ('removed', 'key_gone', True)
        """
        if self.key_gone is not None:
            return self.key_gone
        room = self.room
        gone = getattr(room, "teacher_lost", None) if room is not None else None
        if gone is None and ask and self.teacher is not None:
            from ...classroom.teachers import key_withdrawn

            try:
                gone = key_withdrawn(self.store, self.teacher)
            except ClassroomError as exc:  # the store is away a moment: the next action or poll asks again
                log.warning("could not check the page's teacher key: %s", exc)
                return None
        if gone is not None:
            self._show_key_gone(gone)
        return gone

    def _show_key_gone(self, gone: str) -> None:
        log.warning("this page's teacher key was %s: the page shows only that now", gone)
        self._stop()
        self.room = None
        self._tokens = {}
        if self._played:
            self.curtain.hide()
            self.drawer.close()
            self._hand_up(False)
        self.problems.clear()
        self.key_gone = gone
        self.screen = "key_gone"
        self._render_key_gone()
        self.body.children = [self.setup_header, self.key_notice]
        self._sync_address()

    def _render_key_gone(self) -> None:
        gone, lang = self.key_gone, self.lang
        if gone is None:
            return
        title, text, todo = (i18n.t(f"classplay.key_gone.{k}", lang)
                             for k in (f"title_{gone}", gone, f"do_{gone}"))
        self.key_notice.value = (f"<div class='typhoon-key-gone-box' role='alert' style='{_NOTICE_STYLE}'>"
                                 f"<h2 style='margin-top:0;color:#b91c1c'>⚠ {escape(title)}</h2>"
                                 f"<p>{escape(text)}</p><p><b>{escape(todo)}</b></p></div>")

    def enter_die(self, face: int) -> bool:
        """The face of the class's real die (already checked by the entry box)."""
        return self.decide(Action("die", face=int(face)))

    # ------------------------------------------------------------------ teacher
    def _show_teacher(self, shown: bool) -> None:
        if shown:
            self.drawer.open()
        else:
            self.drawer.close()

    def undo(self) -> bool:
        room = self.room
        if room is None:
            return False
        try:
            update = room.undo(expected_seq=room.next_seq)
        except (IllegalActionError, ClassroomError) as exc:
            self._refused(exc, "undo")
            return False
        self._take(update, force_exact=True)
        self.status.say(lambda lang: d("game.undone", lang), error=False, drawn=True)  # cleared by the next move
        return True

    # ------------------------------------------------------------------ keeping in step
    def _take(self, update: Any, force_exact: bool = False) -> None:
        """Show what an update brought: animate new events, or redraw from scratch after an undo."""
        if self.room is None:
            return
        if update.meta_changed and self.check_teacher() is not None:
            return  # the poll saw this page's teacher key taken away: the page shows only that
        if update.rebuilt or force_exact:
            self.pacer.cancel()
            self.game.stage.lines = []
            for e in self.room.events():
                self.game.stage.add_line(e)
            self.redraw(exact=True)
            return
        if update.events:
            # several decisions at once (teams decided on their phones while the ring still turned here): played
            # faster, so the class's screen stays about one decision behind the phones, not one per team
            self.pacer.push(list(update.events), hurry=hurry_for(update.entries))
            self.redraw()  # after the push: the banner says "busy" while the storms move
        if update.meta_changed:
            self._show_timer_setting()  # another projector of the room may have changed it
            if self.room.speed != self._room_speed:  # (this one too)
                self._room_speed = self.room.speed
                self._show_speed(self.room.speed)
            self.drawer.render()
            if self.screen == "lobby":
                self.lobby.render()
        if self.pacer.idle:
            self._after_animation()

    def _after_animation(self) -> None:
        if self.room is None:
            return
        news = self.game.stage.take_told()  # what was played, for a screen reader (the map's live region)
        if self.room.is_over or not self.room.is_open:
            if news:
                self.game.board.access.say(news)
            if _running_loop() is None:
                self._show_results()
            return
        self.redraw(exact=True, news=news)

    def _show_results(self) -> None:
        self._stop()
        self.results.render()
        self._go("results")

    def advance(self, max_steps: int = 100_000) -> int:
        """Without an event loop: read the store and let the bots decide until a person must; returns bot steps."""
        room = self.room
        steps = 0
        if room is None:
            return 0
        self._take(room.sync())
        while steps < max_steps and room.bot_to_move():
            self._take(room.step_bot())
            steps += 1
        if room.is_over or not room.is_open:
            self._show_results()
        else:
            self.redraw(exact=True)
        return steps

    def _drive(self) -> None:
        loop = _running_loop()
        if loop is None or (self._task is not None and not self._task.done()):
            return
        self._task = loop.create_task(self._run(self.room))

    def _stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        if self._played:
            self.pacer.cancel()

    async def _run(self, room: Any) -> None:
        """Poll the store, animate, run the bots, until the room is closed or over."""
        loop = asyncio.get_running_loop()
        while self.room is room:
            try:
                if self.pacer.idle:
                    self._take(room.sync())
                    if self.room is not room:
                        return  # (its teacher key was taken away: check_teacher)
                    if room.is_over or not room.is_open:
                        await asyncio.sleep(RESULTS_PAUSE / self.speed if self.speed > 0 else 0.05)
                        if self.room is room:
                            self._show_results()
                        return
                    if self.screen == "lobby" and (self._all_joined() or (room.begun and not self._begun_seen)):
                        self.show_board()  # (or the teacher started it on another projector of the room)
                    self.lobby_presence()
                    if room.bot_to_move() and self.screen == "game":
                        await self._bot_turn(room, loop)
                        continue
                    self.check_timer()
                await asyncio.sleep(POLL)
            except asyncio.CancelledError:
                raise
            except ClassroomError as exc:  # the store is locked, gone, or the room broke: say so, keep trying
                self.problems.report(exc, "the projector's update loop")
                await asyncio.sleep(2.0)
            except Exception as exc:  # noqa: BLE001 - tell the class instead of freezing silently
                self.problems.report(exc, "the projector's update loop")
                await asyncio.sleep(2.0)

    async def _bot_turn(self, room: Any, loop: asyncio.AbstractEventLoop) -> None:
        job = room.prepare_bot()
        if job is None:
            return
        if job.region != CHANCE:
            self.redraw()
            await asyncio.sleep(self.bot_pause / self.speed if self.speed > 0 else 0.0)
        if self.room is not room or room.next_seq != job.expected_seq:
            return
        if job.kind == "mcts":
            self._thinking = True
            try:
                action = await loop.run_in_executor(None, job.think)  # seconds of thought: not on the loop
            finally:
                self._thinking = False
        else:
            action = job.think()
        if self.room is not room:
            return
        try:
            update = room.apply_bot(job, action)
        except StaleWrite:
            return  # another projector moved first: the next sync shows its move
        self._take(update)
        if self.speed <= 0:
            await asyncio.sleep(0)  # let the page breathe between instant bot moves


#: The notice of a teacher key taken away: large enough to read on the wall, one column of text.
_NOTICE_STYLE = ("max-width:52em;margin:3rem auto;padding:1.5rem 2rem;border:3px solid #b91c1c;border-radius:10px;"
                 "background:#fff;color:#111;font-size:1.35rem;line-height:1.6")


def _save_problem_text(kind: str, error: str, lang: str) -> str:
    """Why an old save file could not be imported, in ``lang`` (the English detail when the kind has no sentence)."""
    key = f"error.save.{kind}"
    return i18n.t(key, lang) if kind and i18n.has(key, lang) else error


__all__ = ["BOT_PAUSE", "POLL", "ProjectorApp"]
