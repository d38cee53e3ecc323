"""A team's own page on a phone or tablet: its hand, its decisions, the board small, HP, whose turn.

Opened by the seat's link (its device token in the query string) or by typing the room code and
picking a free seat. Everything on the page is built from the seat's own view of the room
(:meth:`~typhoon_edu.classroom.rooms.Room.seat_view`: ``observation(region)`` and the events that
seat may see), so another seat's cards never reach this page. The page polls the store every
0.2 s, so it shows another device's move within a second.

>>> from typhoon_edu.classroom.store import RoomStore
>>> from typhoon_edu.classroom.rooms import Room, Seat
>>> from typhoon_edu.classroom.teachers import local_teacher
>>> store = RoomStore("sqlite://")
>>> room = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea", "random")],
...                    seed=3, lang="en", teacher=local_teacher(store))
>>> phone = SeatApp(lang="en", store=store, token=room.issued_tokens["Taiwan"])
>>> phone.region, phone.screen
('Taiwan', 'seat')
>>> phone.decide(phone.decisions.cell_action((8, 8)))
True
>>> room.sync().entries[0].notation
'place 8,8'
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from html import escape
from typing import Any

import ipywidgets as widgets

from ... import i18n
from ...classroom.errors import ClassroomError, NotAllowed, RoomNotFound, StaleWrite, TokenRejected
from ...classroom.log import UNDO
from ...classroom.rooms import TIMER
from ...engine.actions import Action
from ...engine.game import CHANCE
from ...engine.rules import IllegalActionError, load_rules
from ..buttons import legible
from ..guard import Problems
from ..palette import region_fill
from . import DEFAULT_SPEED
from .bigdie import BigDie
from .decisions import DecisionPanel
from .die_entry import DieEntry
from .hppanel import hp_panel_html
from .model import Situation, nobody_hurt, screen_banner, seat_label
from .pacer import Pacer, Stage, board_state_of, hurry_for
from .pagelink import PageLink
from .runtime import POLL, _error_text, _open_store, _running_loop, refused
from .screens import LANG_OPTIONS, LogBox, banner_html
from .seatmap import SEAT_CELL, SeatBoard
from .status import PageStatus, Words, room_state
from .tables import seat_infos, seat_table, view_digest
from .theme import CSS
from .turntimer import Countdown
from .undoline import UNDONE_KEY, UndoLines
from .viewdata import Banner, d

log = logging.getLogger("typhoon_edu.ui")


def banner_lost(text: str) -> Banner:
    """The banner of a page that can no longer act (revoked, or the game ended): no "Your turn!"."""
    return Banner(text, "", None, False)


def browser_language(tag: str) -> str | None:
    """The page's language for a browser's ``navigator.language`` (``en-US`` → ``en``, ``zh-Hant-TW`` → ``zh-TW``),
    or None for a language the game does not speak.

    >>> browser_language("en-US"), browser_language("zh-Hant-TW"), browser_language("zh-CN"), browser_language("fr-FR")
    ('en', 'zh-TW', 'zh-TW', None)
    """
    primary = str(tag).strip().lower().replace("_", "-").split("-", 1)[0]
    return {"en": "en", "zh": "zh-TW"}.get(primary)


@dataclasses.dataclass(frozen=True)
class Standing:
    """One region's place at the end of a game (1 the best; tied regions share a place)."""

    place: int
    region: str
    hp: int
    winner: bool
    out: bool


def standings(table: Any, events: Any = ()) -> list[Standing]:
    """The regions ranked at the end: the winners first, then by HP, then the later a region was knocked out the
    better (``events``: the game's events, for the order of :class:`~typhoon_edu.engine.events.Eliminated`).

    >>> from types import SimpleNamespace as NS
    >>> from typhoon_edu.engine import events as ev
    >>> t = NS(players=("Taiwan", "Japan", "Korea"), winners=("Korea",), hp={"Taiwan": 0, "Japan": 0, "Korea": 9})
    >>> [(s.place, s.region) for s in standings(t, [ev.Eliminated("Japan"), ev.Eliminated("Taiwan")])]
    [(1, 'Korea'), (2, 'Taiwan'), (3, 'Japan')]
    """
    gone = [e.player for e in events if getattr(e, "kind", "") == "Eliminated"]
    order = {r: i for i, r in enumerate(gone)}

    def key(region: str) -> tuple[bool, int, int]:
        return (region in table.winners, table.hp.get(region, 0), order.get(region, len(gone)))

    ranked = sorted(table.players, key=key, reverse=True)
    out: list[Standing] = []
    for i, region in enumerate(ranked):
        place = out[-1].place if out and key(region) == key(out[-1].region) else i + 1
        out.append(Standing(place, region, table.hp.get(region, 0), region in table.winners,
                            table.hp.get(region, 0) <= 0))
    return out


def place_name(place: int, lang: str) -> str:
    """``2nd`` / ``第 2 名`` (a place from 1 to 5: at most five teams play)."""
    return i18n.t(f"classplay.rank.ord_{min(max(place, 1), 5)}", lang)


def ranking_html(ranked: list[Standing], seats: Any, lang: str, you: str | None, *, ended: bool = False,
                 no_leader: bool = False) -> str:
    """The final ranking for a team's phone: its own place first, then every region's, the winners marked.

    ``no_leader``: the game was ended before any region lost HP, so nobody is ahead (as the projector's results say):
    no places and no ranking, only every region's HP, headed so, in the seats' order (as the projector's HP panel).
    """
    mine = next((s for s in ranked if s.region == you), None)
    head = ""
    if no_leader:
        head = f"<div class='typhoon-rank-you'><b>{escape(i18n.t('classplay.results.no_leader', lang))}</b></div>"
        order = list(seats)
        ranked = sorted((dataclasses.replace(s, place=0) for s in ranked),
                        key=lambda s: order.index(s.region) if s.region in order else len(order))
    elif mine is not None:
        said = i18n.t("classplay.rank.you", lang, place=place_name(mine.place, lang), count=len(ranked))
        if mine.winner:
            said = i18n.tidy_spaces(i18n.t("classplay.rank.you_won", lang) + " " + said, lang)
        head = f"<div class='typhoon-rank-you'><b>{escape(said)}</b></div>"
    rows = []
    for s in ranked:
        marks = [i18n.t("classplay.rank.hp", lang, hp=s.hp)]
        if s.winner:
            marks.append(i18n.t("classplay.rank.winner", lang))
        elif s.out:
            marks.append(i18n.t("classplay.rank.out", lang))
        cls = "typhoon-rank-row" + (" typhoon-rank-mine" if s.region == you else "") + \
            (" typhoon-rank-winner" if s.winner else "")
        where = f"<b>{escape(place_name(s.place, lang))}</b> " if s.place else ""
        rows.append(f"<li class='{cls}' data-region='{escape(s.region)}'>{where}"
                    f"{escape(seat_label(seats, s.region, lang))} · {escape(' · '.join(marks))}</li>")
    title = i18n.t("classplay.rank.title_hp" if no_leader else "classplay.rank.title_ended" if ended
                   else "classplay.rank.title", lang)
    tag = "ul" if no_leader else "ol"  # a list of HP is no ranking: not ordered for a screen reader either
    return (f"{head}<div class='typhoon-rank-title'><b>{escape(title)}</b></div>"
            f"<{tag} class='typhoon-rank-list'>{''.join(rows)}</{tag}>")


#: The way back to the join page after a device lost its seat: a fingertip's target (at least 44 px tall).
REJOIN_STYLE = ("display:inline-block;min-height:44px;box-sizing:border-box;padding:.6rem 1rem;margin:.3rem 0;"
                "border-radius:8px;background:#1d4ed8;color:#fff;font-weight:bold;text-decoration:none")

#: The look of the ranking on a team's phone (its own row stands out).
RANK_CSS = """<style>
.typhoon-seat-ranking .typhoon-rank-you { font-size: 1.25rem; margin: .3rem 0; }
.typhoon-seat-ranking .typhoon-rank-list { list-style: none; padding: 0; margin: .2rem 0 .5rem; }
.typhoon-seat-ranking .typhoon-rank-row { padding: .3rem .5rem; border-radius: 6px; line-height: 1.4; }
.typhoon-seat-ranking .typhoon-rank-mine { background: #e0f2fe; outline: 2px solid #0369a1; }
</style>"""


class SeatApp:
    """One seat's page. ``token``: the device token from the link; without it, the join screen.

    ``speed``: this device's own animation speed (its link's ``&speed=``, 0: none); None (what
    :func:`~typhoon_edu.ui.classplay.launch` gives a link without one): the class's speed, as the teacher
    sets it on the projector (:attr:`speed`).
    """

    def __init__(self, lang: str = "zh-TW", store: Any = None, *, token: str | None = None,
                 code: str | None = None, speed: float | None = None, device: str | None = None) -> None:
        self.lang = i18n.normalize_lang(lang)
        self.store = _open_store(store)
        #: This browser's id (the server's device cookie): a seat link stays with the first device that opens it.
        self.device = device
        self.rules = load_rules()
        self.room: Any = None
        self.region: str | None = None
        self.token: str | None = None
        self.screen = "join"
        #: This device's own animation speed (its link's ``&speed=``), or None: the room's (the class's).
        self.own_speed: float | None = None if speed is None else float(speed)
        self._task: asyncio.Task[None] | None = None
        self.problems = Problems(lambda: self.lang, on_error=lambda _exc: self.render())

        self.lang_toggle = widgets.ToggleButtons(options=list(LANG_OPTIONS), value=self.lang)
        self.lang_toggle.style.button_width = "auto"
        self.lang_toggle.add_class("typhoon-lang")
        self.problems.observe(self.lang_toggle, lambda c: self._switch_lang(c["new"]), where="language")
        self.head = widgets.HTML()
        self.head.add_class("typhoon-seat-head")
        self.message = widgets.HTML()
        self.message.add_class("typhoon-message")
        self.status = PageStatus(self.message, self.problems)
        self.link = PageLink(mode="seat", lang=self.lang)
        self.problems.observe(self.link, lambda c: self._device_lang(c["new"]), names="chosen_lang",
                              where="language")
        self.problems.observe(self.link, lambda c: self._browser_lang(c["new"]), names="browser_lang",
                              where="language")
        self.sound = widgets.ToggleButton(value=True, icon="bell", layout=widgets.Layout(width="auto"))
        self.sound.add_class("typhoon-sound")
        self.problems.observe(self.sound, lambda c: setattr(self.link, "muted", not c["new"]), where="sound")
        self.link.observe(lambda c: setattr(self.sound, "value", not c["new"]), "muted")
        self.problems.observe(self.sound, lambda _c: self._label_sound(), where="sound label")
        self._rung = -1  # the seq of the decision the device was last called to
        self._pause_told = False  # the pause now on was said to a screen reader (once, when it began)
        self._lost_exc: BaseException | None = None  # why this device can no longer act (the "lost" screen)
        # this device's seat as last drawn: the lost page's header keeps naming it (not the computer that took it)
        self._own_seat: dict[str, Any] = {}
        # The teacher's rematch: a new game after this device's room; what this device is offered there
        # (read once per new game, by rooms.rematch_for), and the token of a finished room a reload opened.
        self._offer: Any = None
        self._offer_for: str | None = None
        self._old_token: str | None = None
        # why following that rematch was refused, in every language (said with the offer until another comes)
        self._rematch_refused: Words | None = None
        self.rematch_text = widgets.HTML()
        self.rematch_button = legible(widgets.Button(button_style="success", icon="repeat", layout=widgets.Layout(width="auto")))
        self.rematch_button.add_class("typhoon-rematch-go")
        self.rematch_button.add_class("typhoon-big-button")
        self.problems.on_click(self.rematch_button, lambda _b: self.follow_rematch(), where="join the new game")
        self.rematch_box = widgets.VBox([self.rematch_text, self.rematch_button])
        self.rematch_box.add_class("typhoon-rematch-offer")
        self.rematch_box.layout.display = "none"
        self.banner = widgets.HTML()
        self.banner.add_class("typhoon-banner-box")
        self.ranking = widgets.HTML()  # the team's place and the ranking, once the game is over
        self.ranking.add_class("typhoon-seat-ranking")
        # The teacher's turn timer: this team's seconds left, counted by the browser (one message per
        # decision), or "time ran out: the computer played your turn" until the team's next decision.
        self.countdown = Countdown()
        self.countdown.add_class("typhoon-seat-timer")
        self._timed_out = False
        self.clock = time.time
        self.hp = widgets.HTML()
        self.hp.add_class("typhoon-hp-panel")
        self.board = SeatBoard(rules=self.rules, lang=self.lang, cell=SEAT_CELL, controls=False)  # names a phone can read
        self.board.add_class("typhoon-board")
        self.problems.on_mouse_down(self.board.canvas, lambda x, y: self._board_click(x, y), where="map")
        self.die = BigDie(lang=self.lang, size=64)
        self.die_entry = DieEntry(self.problems, lambda face: self.decide(Action("die", face=face)), lambda: self.lang)
        self.die_entry.layout.display = "none"
        self.decisions = DecisionPanel(self.problems, on_action=self.decide, on_pick=lambda _k: self._highlight())
        self.log = LogBox(self.problems)
        self.log.toggle.value = False
        self.now = widgets.HTML()
        self.now.add_class("typhoon-now")
        self.stage = Stage(lang=self.lang, rules=self.rules, board=self.board, die=self.die, now=self.now,
                           log=self.log.body, hp=self._hp_changed)
        self.pacer = Pacer(self.stage, lambda: self.speed, on_idle=self.render, problems=self.problems)
        self.undo_lines = UndoLines()  # where the log says the teacher took a decision back
        self.decisions.children = [self.decisions.groups]  # the hand goes under the board on a phone
        from .coachbox import CoachBox

        self.coach = CoachBox(self.problems, lambda: self.lang)
        # the die and the "what happens now" line: hidden once the game is over (no die is waited for)
        self.instruments = instruments = widgets.HBox([self.die, self.now], layout=widgets.Layout(align_items="center"))
        self.seat_box = widgets.VBox([self.banner, self.rematch_box, self.ranking, self.countdown, self.problems.widget, self.message, self.coach, self.decisions,
                                      self.die_entry,
                                      self.board, instruments, self.decisions.hand_html, self.hp, self.log])
        self.seat_box.add_class("typhoon-seat-game")
        # A device that can no longer act (its seat given away, revoked, its link replaced, the room deleted): why,
        # and the way back, alone. The game under it would be frozen with stale names (a seat the computer now plays).
        self.lost_box = widgets.VBox([self.banner, self.rematch_box, self.problems.widget, self.message])
        self.lost_box.add_class("typhoon-seat-lost")
        from .join import JoinScreen

        self.join = JoinScreen(self)
        self.body = widgets.VBox([self.join.box])
        header = widgets.HBox([self.head, widgets.HBox([self.sound, self.lang_toggle])],
                              layout=widgets.Layout(justify_content="space-between", align_items="center"))
        header.add_class("typhoon-seat-header")
        from .address import PageAddress

        self.address = PageAddress()
        from .access import PageAccess

        self.access = PageAccess()  # toggles' states and groups' names, icons hidden, the focus kept after a decision
        self.root = widgets.VBox([widgets.HTML(CSS), self.link, self.access, header, self.body, self.address])
        self.root.add_class("typhoon-app")
        self.root.add_class("typhoon-seat")
        self.set_lang(self.lang)
        if token:
            self.open_token(token)
        elif code:
            self.join.code.value = code
            self.join.find()

    @property
    def speed(self) -> float:
        """The speed this page animates at (0: none): its own (:attr:`own_speed`), else the class's, which the room
        keeps as the teacher set it on the projector (read again with every change the page reads)."""
        if self.own_speed is not None:
            return self.own_speed
        return float(getattr(self.room, "speed", DEFAULT_SPEED)) if self.room is not None else DEFAULT_SPEED

    @speed.setter
    def speed(self, value: float) -> None:
        self.own_speed = float(value)

    # ------------------------------------------------------------------ display
    def show(self) -> SeatApp:
        from IPython.display import display

        display(self.root)
        self.link.start()
        return self

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    def _switch_lang(self, lang: str) -> None:
        """The person switched the language on this device: kept by the browser for the next visit."""
        if lang == self.lang:
            return  # set_lang moving the toggle, not a person
        self.link.chosen_lang = lang
        self.set_lang(lang)

    def _device_lang(self, lang: str) -> None:
        """The browser gives back this device's own choice from an earlier visit."""
        if lang in i18n.LANGS and lang != self.lang:
            self.set_lang(lang)

    #: Whether the page's address asked for a language (``?lang=``): it then wins over the browser's guess.
    asked_lang = False

    def _browser_lang(self, tag: str) -> None:
        """The browser's own language: the best guess while no room is known (a room's page takes the room's
        language, and a switch made on this device wins over both)."""
        lang = browser_language(tag)
        if lang is None or self.asked_lang or self.link.chosen_lang or self.room is not None \
                or self.join.room_lang is not None:
            return
        if lang != self.lang:
            self.set_lang(lang)

    def _label_sound(self) -> None:
        """The sound switch says what it is now ("Sound on" with a bell, "Sound off" with a struck bell)."""
        on = bool(self.sound.value)
        self.sound.description = i18n.t("classplay.attention.sound" if on else "classplay.attention.sound_off", self.lang)
        self.sound.icon = "bell" if on else "bell-slash"

    def set_lang(self, lang: str) -> None:
        self.lang = i18n.normalize_lang(lang)
        if self.lang_toggle.value != self.lang:
            self.lang_toggle.value = self.lang
        self.link.set_lang(self.lang)
        self.access.set_lang(self.lang)
        self._label_sound()
        self.sound.tooltip = i18n.t("classplay.attention.sound_help", self.lang)
        self.stage.lang = self.lang
        self.board.set_lang(self.lang)
        self.die.set_lang(self.lang)
        self.die_entry.relabel()
        self.log.relabel(self.lang)
        self.status.relabel()
        self.join.render()
        if self.room is not None:
            self._rebuild_log()
        self.render()

    # ------------------------------------------------------------------ joining
    def open_token(self, token: str) -> bool:
        """Open the seat whose link carries ``token``; a bad or revoked one is explained."""
        from ...classroom.rooms import Room

        try:
            room = Room.open_seat(self.store, token, self.device)
        except ClassroomError as exc:
            self.join.show_error(lambda lang, exc=exc: _error_text(exc, lang))  # said again in a language chosen later
            if getattr(exc, "kind", "") == "room_over":  # a reload after the game: the teacher's rematch, if any
                self._offer_rematch_on_join(token)
            return False
        self._enter(room, token)
        return True

    def _offer_rematch_on_join(self, token: str) -> None:
        """The seat link of a finished room: offer this device's seat in the teacher's rematch, over the join page."""
        from ...classroom.rooms import rematch_for

        self._old_token = token
        self._offer, self._rematch_refused = rematch_for(self.store, token, self.device), None
        if self._offer is not None:
            self.body.children = [self.rematch_box, self.join.box]
            self._show_rematch()

    def follow_rematch(self) -> bool:
        """Take this device's seat in the teacher's rematch (one tap on "Join the new game as …").

        The kernel checks that this device held the seat in the old game (:meth:`Room.follow`); a
        refusal is said, and the new game's join page offered instead.
        """
        from ...classroom.rooms import Room

        token = self.token or self._old_token
        offer = self._offer
        if token is None or offer is None:
            return False
        try:
            room, new = Room.follow(self.store, token, self.device)
        except ClassroomError as exc:
            self._offer = dataclasses.replace(offer, seat=False)  # the join page of the new game instead
            # kept with the offer, and said again in the language the team switches to
            self._rematch_refused = lambda lang, exc=exc: _error_text(exc, lang)
            self._show_rematch()
            log.info("a device could not follow the rematch: %s", exc)
            return False
        self._stop()
        self.pacer.cancel()
        self._offer, self._offer_for, self._old_token, self._rematch_refused = None, None, None, None
        self._lost_exc, self._rung, self._timed_out = None, -1, False
        self.rematch_box.layout.display = "none"
        self.status.say("")
        self.message.value = ""
        self._enter(room, new)
        return True

    def _check_rematch(self) -> None:
        """After the game: has the teacher started a new one? (read once per new game)."""
        from ...classroom.rooms import rematch_for

        room = self.room
        successor = room.successor if room is not None and not room.is_open else None
        if successor is None or successor == self._offer_for:
            return
        self._offer_for = successor
        self._offer, self._rematch_refused = rematch_for(self.store, self.token, self.device), None

    def _show_rematch(self) -> None:
        """The offer of the teacher's new game, in this page's language: one tap into this team's own seat, or
        the new game's join page when this team's region does not play in it (or the tap was refused: why, too)."""
        offer, lang = self._offer, self.lang
        refused = self._rematch_refused(lang) if self._rematch_refused is not None else ""
        if offer is None:
            self.rematch_box.layout.display = "none"
            return
        seats = seat_infos(self.room) if self.room is not None else {}
        player = seat_label(seats, offer.region, lang) if offer.region in seats \
            else i18n.region_name(self.rules, offer.region, lang)
        head = f"<div class='typhoon-rematch-title'><b>{escape(i18n.t('classplay.seat.rematch_title', lang))}</b></div>"
        why = f"<div class='typhoon-message-error'>{escape(refused)}</div>" if refused else ""
        if offer.seat:
            said = i18n.t("classplay.seat.rematch_seat", lang, player=player)
            self.rematch_text.value = f"{head}<div>{escape(said)}</div>"
            self.rematch_button.description = i18n.t("classplay.seat.rematch_go", lang, player=player)
            self.rematch_button.layout.display = None
        else:
            said = i18n.t("classplay.seat.rematch_other", lang, player=player, code=offer.code) if not refused else ""
            link = (f"<a class='typhoon-rematch-join' href='join/{escape(offer.code)}' style='{REJOIN_STYLE}'>"
                    f"{escape(i18n.t('classplay.seat.rematch_join', lang, code=offer.code))}</a>")
            self.rematch_text.value = f"{head}{why}<div>{escape(said)}</div>{link}"
            self.rematch_button.layout.display = "none"
        self.rematch_box.layout.display = None

    def _enter(self, room: Any, token: str) -> None:
        self.room, self.token, self.region = room, token, room.viewer
        self.address.show_seat(token)  # a reload of this page opens the seat again
        self.screen = "seat"
        if not (self.link.chosen_lang or self.asked_lang) and room.lang != self.lang:
            self.set_lang(room.lang)  # the room's language, unless this device chose its own or its address asked
        self.body.children = [self.seat_box]
        self.die.clear()  # another room's last roll (a rematch followed in this page) is not this game's
        self._rebuild_log()
        self.render(exact=True)
        self._drive()

    def _rebuild_log(self) -> None:
        """The log from the room's events, in the page's language, with the undo lines where they were."""
        self.stage.lines = []
        for e in self.room.events():
            self.stage.add_line(e)
        self.undo_lines.draw(self.stage, self.room)

    # ------------------------------------------------------------------ drawing
    def _hp_changed(self, hp: dict[str, int]) -> None:
        if self.room is not None:
            seats = seat_infos(self.room)
            self.hp.value = hp_panel_html(self.rules, hp, seats, self.lang)

    def _draw_head(self, seats: Any) -> None:
        """The page's header: this device's seat, in its region's colour."""
        if self.region is None:
            return
        colour = region_fill(self.rules.regions[self.region])
        self.head.value = (f"<span class='typhoon-seat-swatch' style='border-left:1.2rem solid {colour};"
                           f"padding-left:.4rem'>{escape(seat_label(seats, self.region, self.lang))}</span>")

    def render(self, exact: bool = False) -> None:
        room, lang = self.room, self.lang
        if room is None or self.region is None:
            self.head.value = f"<b>{escape(d('app.title', lang))}</b>"
            if self._old_token is not None:  # the join page of a finished room's link: its offer, in this language
                self._show_rematch()
            return
        if self.screen == "lost":  # nothing more is drawn from the room: why, and the way back (in this language)
            self._draw_head(self._own_seat)
            self._tell_lost()
            self._show_rematch()
            return
        self._check_rematch()
        self._show_rematch()
        seats = seat_infos(room)
        table = seat_table(room, self.region)
        view = room.seat_view()
        self._own_seat = {self.region: seats[self.region]} if self.region in seats else {}
        self._draw_head(seats)
        busy = not self.pacer.idle
        key = room_state(room)
        self.status.seen(key)
        ended = not room.is_open and not table.is_over  # the teacher ended the game early
        over = ended or table.is_over
        if over:
            table = dataclasses.replace(table, legal=())  # no button and no lit cell is left to press
        lobby = room.is_open and not room.begun  # the teacher has not started the game: nothing to press yet
        at = Situation(viewer=self.region, busy=busy, paused=view.paused, may_type_die=view.may_type_die,
                       lobby=lobby, ended=ended)
        mine = at.mine(table)
        knocked_out = at.knocked_out(table)  # its hand is put away below
        ranked = standings(table, room.events()) if over else []
        # the pause, "your turn", and the "soon" words while the storms move, decided with the projector's in one place
        b = screen_banner(table, seats, lang, at)
        no_leader = over and ended and nobody_hurt(room.hp_track, table.hp)
        self.ranking.value = RANK_CSS + ranking_html(ranked, seats, lang, self.region, ended=ended,
                                                     no_leader=no_leader) if over else ""
        state = {"seq": table.seq, "phase": table.phase, "who": "" if over else table.current_player or "",
                 "busy": int(busy), "mine": int(mine), "paused": int(view.paused), "open": int(room.is_open),
                 "view": view_digest(room)}
        turn_now = mine and not busy and not view.paused  # the banner says "Your turn!" (screen_banner)
        if not turn_now:
            # First, in the message before the decision's buttons are taken away: the page handles the kernel's
            # messages one at a time, and the ~90 that close the old buttons (each with its layout and style) came
            # between them, so "Your turn!" stayed 0.5-2.5 s over no button on a busy phone.
            self.banner.value = banner_html(b, state)
        if exact or self.pacer.idle:
            self.stage.hp_now = dict(table.hp)
            self.hp.value = hp_panel_html(self.rules, table.hp, seats, lang, None if over else table.active)
        if exact or (self.pacer.idle and not busy):
            self.board.skip()
            self.board.show(board_state_of(table.typhoons))
        # the pause is shown once, in the banner (no second line under it), and said once, when it begins
        told_pause = view.paused and not self._pause_told
        self._pause_told = bool(view.paused)
        if view.may_type_die:
            self.die_entry.awaiting(table.seq)  # a face the store refused stays typed for this die only
        self.die_entry.layout.display = None if (view.may_type_die and not busy and not view.paused
                                                 and not over) else "none"
        self.instruments.layout.display = "none" if over and not busy else None
        # once over, the ranking above names every team with its HP: the panel under the map would say it again
        self.hp.layout.display = "none" if over and not busy else None
        note = ""
        if not over and not lobby and table.current_player not in (self.region, None, CHANCE):
            note = i18n.t("classplay.seat.waiting", lang, player=seat_label(seats, table.current_player, lang))
        self.decisions.show_hand = not (over or knocked_out)  # a hand that can no longer be played is put away
        self.decisions.render(table, seats, lang, busy=busy or view.paused or over or table.current_player == CHANCE,
                              note=note)
        self.coach.show_for(room, self.region, mine=view.my_turn and not busy and not over and not lobby)
        self._show_countdown(mine and not busy and not over)
        self._highlight()
        # "Your turn!" last: once it says so, everything above the map has its new size, so the map stays where it
        # is when the team reaches for it (the widgets' updates reach the page in this order).
        self.banner.value = banner_html(b, state)
        news = self.stage.take_told() if self.pacer.idle else ""  # what was played, for a screen reader
        if mine and not busy and not view.paused and self._rung != table.seq:
            self._rung = table.seq
            self.link.ring()  # this device must decide: a sound and a vibration (unless muted)
            self.link.your_turn()  # ... and its banner and buttons in the window (PageLink's "turn in view")
            news = f"{news} {b.headline}".strip()  # ... and "Your turn! …" after it
        if told_pause:
            news = f"{news} {i18n.t('classplay.paused', lang)}".strip()
        if news:
            self.board.access.say(news)

    def _show_countdown(self, mine: bool) -> None:
        """This team's seconds left while it must decide (the teacher's timer), or why its turn was played."""
        room, lang = self.room, self.lang
        deadline = room.turn_deadline() if mine else None
        # said until this team decides itself (its next decision may follow at once: a place, then a move)
        note = i18n.t("classplay.attention.my_time_out", lang) if self._timed_out else ""
        if deadline is not None:
            self.countdown.show((room.seq, deadline), deadline - self.clock(),
                                i18n.t("classplay.attention.my_time_left", lang, n="{n}"), note)
        else:
            self.countdown.say(note)

    def _highlight(self) -> None:
        cells = [] if not self.pacer.idle else self.decisions.highlight_cells()
        if tuple(tuple(c) for c in cells) != tuple(self.board.state.highlights):
            self.board.highlight(cells)

    def _say(self, text: str | Words, error: bool = True, *, drawn: bool = False, after: Words | None = None) -> None:
        """Say ``text`` on the page's message line; words in every language (a function of the language) are said
        again in the language the team switches to while they are shown. ``drawn``: about the state drawn now;
        ``after``: the page's own HTML after the words (:meth:`PageStatus.say`)."""
        self.status.say(text, error, drawn=drawn, after=after)

    def _board_click(self, px: float, py: float) -> None:
        cell = self.board.geometry.pixel_to_cell(px, py)
        if cell is None:
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
        """A tap on the map when no cell is to be chosen: say whose turn it is, or that this one is for the buttons.

        Said of the room as it is now: the page reads the store first (a team may have decided since its last read,
        up to :data:`POLL` s ago, and the tap named the team that had just decided), and the notice belongs to the
        state it was worded from, gone when the page draws the next one (a notice about the next state would be
        kept through it)."""
        if self.room is None:
            return
        self.sync()
        table, room = self.decisions.table, self.room
        if table is None or room is None or self.screen != "seat" or table.is_over or not room.is_open:
            return
        if not self.pacer.idle:  # the read brought a decision whose storms now move
            self._say(lambda lang: i18n.t("classplay.busy", lang), drawn=True)
            return
        if room.paused:  # no button is there to point at: the pause hides them
            self._say(lambda lang: i18n.t("classplay.paused", lang), drawn=True)
            return
        who = table.current_player
        if who == self.region:
            if not self.decisions.highlight_cells():  # else its turn to tap the map has just come: the banner says so
                self._say(lambda lang: i18n.t("classplay.seat.use_buttons", lang), error=False, drawn=True)
        elif who is not None and who != CHANCE:
            infos = seat_infos(room)
            # another team's part of a turn (its attack cards, its counter window): that team decides, whose turn it
            # is not (the projector's header says both)
            key = "classplay.seat.not_your_turn" if who == table.active else "classplay.seat.others_deciding"
            self._say(lambda lang: i18n.t(key, lang, player=seat_label(infos, who, lang)), error=False, drawn=True)

    # ------------------------------------------------------------------ deciding
    def decide(self, action: Action | str | None) -> bool:
        """This seat's decision; refused ones are explained and change nothing."""
        room = self.room
        if room is None or action is None:
            return False
        if not self.pacer.idle:
            self._say(lambda lang: i18n.t("classplay.busy", lang))
            return False
        before = self.decisions.table
        expected = before.seq + 1 if before is not None else room.next_seq
        try:
            update = room.act(action, expected_seq=expected)
        except StaleWrite:
            self._say(lambda lang: i18n.t("classplay.stale", lang))
            self._take(room.sync())
            return False
        except RoomNotFound as exc:  # the teacher deleted the room
            self._lost(exc)
            return False
        except TokenRejected as exc:
            if exc.kind != "room_over":
                self._lost(exc)
                return False
            # The teacher ended the game as this team tapped: the seat is still this device's (it may follow the
            # teacher's rematch, Room.follow), so the page shows the ended game as the other pages do and keeps
            # reading the room; only the tap is refused, saying why.
            self._take(room.sync())
            self._say(refused(NotAllowed(str(exc), kind="game_over"), "the seat's decision"))
            return False
        except (IllegalActionError, ClassroomError) as exc:
            self._say(refused(exc, "the seat's decision"))  # logged once: a switch of language says it again
            self.render()
            return False
        self.decisions.pending_card = None
        self._timed_out = False
        self._say("")
        self._take(update)
        self._confirm(action, before)
        return True

    def _confirm(self, action: Action | str, before: Any) -> None:
        """Say what this team just did ("You chose: Play Steering Flow on T2 …"), and that one more card may be
        played when it may: the page moved on, so the team sees its tap was taken, and what it was."""
        from ...describe import describe_action
        from ...engine.actions import parse_action

        act = parse_action(action) if isinstance(action, str) else action
        if before is None or act.kind == "die":
            return
        try:
            described = {lang: describe_action(act, before, lang) for lang in i18n.LANGS}
        except Exception:  # noqa: BLE001 - a confirmation is a courtesy: never the reason a decision looks failed
            log.warning("no confirmation for %s", act, exc_info=True)
            return
        now = self.decisions.table
        one_more = (act.kind in ("play", "region") and now is not None and now.current_player == self.region
                    and now.phase == "attack" and any(a.kind == "play" for a in now.legal))

        def said(lang: str) -> str:  # said again in the language the team switches to
            text = i18n.t("classplay.seat.chose", lang, action=described[lang])
            return i18n.tidy_spaces(text + " " + i18n.t("classplay.seat.one_more", lang), lang) if one_more else text

        self._say(said, error=False)

    def _lost(self, exc: BaseException) -> None:
        """This device can no longer act (revoked, its link replaced, its seat given to the computer, the room
        deleted): stop, and say so. Only why and the way back stay on the page (not the ended game's screen: a
        device whose game ended keeps its seat, its map and the ranking)."""
        self._stop()
        self.pacer.cancel()
        if self.decisions.table is not None:  # no button and no lit cell is left to press
            self.decisions.render(dataclasses.replace(self.decisions.table, legal=()), {}, self.lang, busy=True)
            self._highlight()
        self.coach.show_for(None, "", mine=False)
        self.die_entry.layout.display = "none"
        self.instruments.layout.display = "none"
        self.decisions.show_hand = False
        self.decisions.hand_html.value = ""  # a hand this device can no longer play is put away
        self.ranking.value = ""
        self.countdown.hide()  # a count for a decision this device no longer makes
        self._lost_exc = exc
        self.screen = "lost"
        self.body.children = [self.lost_box]  # no frozen map, HP panel or log under "can no longer open a seat"
        self._tell_lost()

    def _tell_lost(self) -> None:
        """Why this device can no longer act (once, in the banner), and the way back: the join page with the code."""
        exc, lang = self._lost_exc, self.lang
        if exc is None:
            return
        text = _error_text(exc, lang)
        seq = self.decisions.table.seq if self.decisions.table is not None else -1
        self.banner.value = banner_html(banner_lost(text), {"seq": seq, "who": "", "mine": 0, "busy": 0, "lost": 1})
        code = getattr(self.room, "code", "") or ""
        if isinstance(exc, RoomNotFound):  # the room was deleted: its code finds nothing any more
            code = ""
        href = f"join/{code}" if code else "join"
        words = i18n.t("classplay.seat.rejoin", lang, code=code) if code else i18n.t("classplay.seat.rejoin_other", lang)
        self.status.say("")
        self.message.value = (f"<a class='typhoon-rejoin' href='{escape(href)}' style='{REJOIN_STYLE}'>"
                              f"{escape(words.strip())}</a>")

    # ------------------------------------------------------------------ keeping in step
    def _take(self, update: Any) -> None:
        if update.rebuilt:
            self.pacer.cancel()
            self._rebuild_log()
            self.render(exact=True)
            if any(entry.notation == UNDO for entry in update.entries):
                # the teacher took a decision back: said here too, or the team sees its move vanish unexplained
                self.undo_lines.note(self.stage, self.room)
                # about the state just drawn: gone at the next one
                self.status.say(lambda lang: d(UNDONE_KEY, lang), error=False, drawn=True)
            return
        if update.events:
            # several decisions at once (the bots played on while this page animated): played faster, so the phone
            # stays about one decision behind the projector instead of falling further behind with every bot
            self.pacer.push(list(update.events), hurry=hurry_for(update.entries))
            self.render()  # after the push: the banner says "busy" until the animation has played
        elif update:
            self.render()

    def sync(self) -> None:
        """Read the store once (what the page's loop does every 0.2 s)."""
        if self.room is None or self.screen != "seat":
            return
        try:
            mine = self.room.waiting_for == self.region
            update = self.room.sync()
            if mine and update.entries and update.entries[0].by == TIMER:
                self._timed_out = True  # the teacher's timer ran out on this team's decision: the easy bot played it
            self._take(update)
        except (TokenRejected, RoomNotFound) as exc:  # RoomNotFound: the teacher deleted the room
            self._lost(exc)

    def _drive(self) -> None:
        loop = _running_loop()
        if loop is None or (self._task is not None and not self._task.done()):
            return
        self._task = loop.create_task(self._run())

    def _stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    async def _run(self) -> None:
        while self.screen == "seat":
            try:
                if self.pacer.idle:
                    self.sync()
                if self.screen == "seat" and self.room is not None and self.link.listened_to:  # the page answers: its device is there
                    self.room.heartbeat()  # a write at most every ~10 s (Room.heartbeat), by the kernel's clock
                await asyncio.sleep(POLL)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - tell the person instead of freezing silently
                self.problems.report(exc, "the seat's update loop")
                await asyncio.sleep(2.0)
