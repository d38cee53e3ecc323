"""The class-play banner, decided in one place (H3): what the projector and each team's phone show while the storms
still move, while the teacher has paused the game, after a time-out, before a typed die, in the lobby, when a team is
out and when the game has ended.

The table of situations below is walked twice. :func:`test_every_screen_shows_the_table` drives the real pages
(:class:`ProjectorApp`, :class:`SeatApp`) into each situation and reads the banner they draw; it passed on the code
before the banner was moved into :func:`~typhoon_edu.ui.classplay.model.screen_banner` (the pages then laid the pause
and the "soon" texts over ``banner()`` themselves), so the expected texts are what the screens showed then.
:func:`test_the_one_function_gives_the_table` asks the one function, with the same situation, for the same banner.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from classplay_helpers import SEAT_CHOICES

import typhoon_edu.ui.classplay.projector as projector_module
import typhoon_edu.ui.classplay.seat as seat_module
from typhoon_edu import i18n
from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.engine.game import CHANCE
from typhoon_edu.ui.classplay.model import seat_label
from typhoon_edu.ui.classplay.pacer import Pacer
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.table import Table
from typhoon_edu.ui.classplay.tables import public_table, seat_infos, seat_table
from typhoon_edu.ui.classplay.viewdata import Banner, d

LANGS = ("en", "zh-TW")


@dataclasses.dataclass
class Row:
    """One situation: the banner a screen drew, the banner expected, and what the one function is given."""

    name: str
    shown: Banner
    expected: Banner
    table: Table
    seats: Any
    situation: dict[str, Any]  # the keyword arguments of model.Situation


@contextmanager
def storms_moving(moving: bool) -> Iterator[None]:
    """Every page's animation still playing (``moving``) or played out, for the drawing made inside."""
    real = Pacer.idle
    Pacer.idle = property(lambda self: not moving)  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        Pacer.idle = real  # type: ignore[method-assign]


class Walk:
    """Drives the pages into each situation and keeps, per situation, what was drawn and what was expected."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
        self.lang = lang
        self.rows: list[Row] = []
        self.drawn: list[Banner] = []
        self.change: dict[str, Any] = {}  # laid over the phones' tables (hp, phase, winners)
        for module in (projector_module, seat_module):
            real = module.banner_html

            def record(b: Banner, state: dict[str, Any], real: Callable[..., str] = real) -> str:
                self.drawn.append(b)
                return real(b, state)

            monkeypatch.setattr(module, "banner_html", record)
        real_table = seat_module.seat_table

        def changed(room: Any, region: str, **kw: Any) -> Table:
            return dataclasses.replace(real_table(room, region, **kw), **self.change)

        monkeypatch.setattr(seat_module, "seat_table", changed)

    def projector(self, name: str, app: ProjectorApp, expected: Banner, *, busy: bool = False) -> None:
        with storms_moving(busy):
            app.redraw()
        room = app.room
        self.rows.append(Row(name, self.drawn[-1], expected, public_table(room), seat_infos(room),
                             {"devices": app.devices, "busy": busy, "paused": room.paused}))

    def phone(self, name: str, app: SeatApp, expected: Banner, *, busy: bool = False) -> None:
        app.sync()
        with storms_moving(busy):
            app.render()
        room, region = app.room, app.region
        assert room is not None and region is not None
        table = dataclasses.replace(seat_table(room, region), **self.change)
        ended = not room.is_open and not table.is_over
        view = room.seat_view()
        self.rows.append(Row(name, self.drawn[-1], expected, table, seat_infos(room),
                             {"viewer": region, "busy": busy, "paused": view.paused,
                              "may_type_die": view.may_type_die, "lobby": room.is_open and not room.begun,
                              "ended": ended}))


def _until(room: Any, stop: Callable[[Any], bool], act: Callable[[Any], None]) -> None:
    for _ in range(200):
        if stop(room.game):
            return
        act(room.game)
    raise AssertionError("the situation was never reached")


def _one_computer(walk: Walk, store: RoomStore) -> None:
    """One computer, typed dice: Mei's cell, a medium bot's turn, the class's die."""
    lang = walk.lang
    app = ProjectorApp(lang=lang, store=store, fullscreen=False)
    room = app.start(SetupChoices(SEAT_CHOICES, regions="chosen", seed=11, speed=0, devices=False, dice="manual"))
    seats = seat_infos(room)
    mei = seat_label(seats, "Taiwan", lang)
    paused = i18n.t("classplay.paused", lang)
    head = i18n.t("prompt.setup_place", lang, player=mei)
    walk.projector("one computer, Mei places", app, Banner(head, d("banner.click_detail", lang), "Taiwan", True))
    walk.projector("one computer, Mei places, storms moving", app,
                   Banner(head, i18n.t("classplay.banner.soon", lang, player=mei), "Taiwan", True), busy=True)
    app._timed_out = "Japan"  # the note under the count says it; the banner is the same
    walk.projector("one computer, after a time-out", app, Banner(head, d("banner.click_detail", lang), "Taiwan", True))
    app._timed_out = None
    app.drawer.toggle_pause()
    walk.projector("one computer, paused", app, Banner(paused, head, "Taiwan", False))
    walk.projector("one computer, paused, storms moving", app, Banner(paused, head, "Taiwan", False), busy=True)
    app.drawer.toggle_pause()

    def people(g: Any) -> None:
        assert app.decide(g.legal_actions()[0])

    _until(room, lambda g: g.current_player == "Korea", people)
    korea = seat_label(seats, "Korea", lang)
    bot = Banner(i18n.t(f"prompt.{room.game.phase}", lang, player=korea), d("banner.bot_detail", lang, player=korea),
                 "Korea", False)
    walk.projector("one computer, a bot's turn, storms moving", app, bot, busy=True)

    def anyone(g: Any) -> None:
        if g.current_player in ("Taiwan", "Japan"):
            people(g)
        else:
            app.advance(1)

    _until(room, lambda g: g.current_player == CHANCE, anyone)
    active = seat_label(seats, room.game.active, lang)
    die = i18n.t("prompt.die", lang, player=active)
    walk.projector("one computer, typed die", app, Banner(die, d("banner.die_detail", lang), CHANCE, True))
    walk.projector("one computer, typed die, storms moving", app,
                   Banner(die, i18n.t("classplay.banner.die_soon", lang), CHANCE, True), busy=True)
    app.drawer.toggle_pause()
    walk.projector("one computer, typed die, paused, storms moving", app, Banner(paused, die, CHANCE, False),
                   busy=True)


def _phones(walk: Walk, store: RoomStore) -> None:
    """Phones, typed dice: the projector, the phone of the team deciding, another team's phone."""
    lang = walk.lang
    app = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = app.start(SetupChoices(SEAT_CHOICES, regions="chosen", seed=11, speed=0, devices=True, dice="manual"))
    app.show_board()
    phones = {r: SeatApp(lang=lang, store=store, token=t) for r, t in room.issued_tokens.items()}
    seats = seat_infos(room)
    mei = seat_label(seats, "Taiwan", lang)
    paused = i18n.t("classplay.paused", lang)
    head = i18n.t("prompt.setup_place", lang, player=mei)
    on_device = i18n.t("classplay.banner.on_device", lang, player=mei)
    own_map = i18n.t("classplay.banner.own_map", lang)
    your_turn = i18n.tidy_spaces(i18n.t("classplay.seat.your_turn", lang) + " " + head, lang)
    walk.projector("phones: projector, storms moving", app, Banner(head, on_device, "Taiwan", True), busy=True)
    walk.phone("phone of the team deciding", phones["Taiwan"], Banner(your_turn, own_map, "Taiwan", True))
    walk.phone("phone of the team deciding, storms moving", phones["Taiwan"],
               Banner(head, i18n.t("classplay.seat.own_soon", lang), "Taiwan", False), busy=True)
    phones["Taiwan"]._timed_out = True  # said by the countdown line; the banner is the same
    walk.phone("phone of the team deciding, after a time-out", phones["Taiwan"],
               Banner(your_turn, own_map, "Taiwan", True))
    phones["Taiwan"]._timed_out = False
    walk.phone("another team's phone, storms moving", phones["Japan"], Banner(head, on_device, "Taiwan", True),
               busy=True)
    walk.change = {"phase": "discard"}  # a discard has no pass: the phone says so, not banner()'s words
    discard = i18n.t("prompt.discard", lang, player=mei)
    walk.phone("phone of the team discarding", phones["Taiwan"],
               Banner(i18n.tidy_spaces(i18n.t("classplay.seat.your_turn", lang) + " " + discard, lang),
                      i18n.t("classplay.banner.own_discard", lang), "Taiwan", True))
    walk.change = {"hp": {"Taiwan": 42, "Japan": 0, "Korea": 40}}
    japan = i18n.region_name(room.game.rules, "Japan", lang)
    out = Banner(i18n.t("classplay.seat.out", lang, region=japan), i18n.t("classplay.seat.out_detail", lang),
                 "Taiwan", False)
    walk.phone("phone of a team knocked out", phones["Japan"], out)
    app.drawer.toggle_pause()
    walk.phone("phone of a team knocked out, paused", phones["Japan"], out)
    walk.change = {}
    walk.projector("phones: projector, paused", app, Banner(paused, head, "Taiwan", False))
    walk.phone("phone of the team deciding, paused", phones["Taiwan"], Banner(paused, head, "Taiwan", False))
    walk.phone("phone of the team deciding, paused, storms moving", phones["Taiwan"],
               Banner(paused, head, "Taiwan", False), busy=True)
    walk.phone("another team's phone, paused", phones["Japan"], Banner(paused, head, "Taiwan", False))
    app.drawer.toggle_pause()

    def anyone(g: Any) -> None:
        who = g.current_player
        if who in phones:
            phones[who].sync()
            assert phones[who].decide(phones[who].room.seat_view().legal_actions[0])
            app.advance(0)  # the projector reads the store
        elif who == CHANCE:
            assert app.decide(g.legal_actions()[0])  # the bot's die, typed on the projector
        else:
            app.advance(1)

    _until(room, lambda g: g.current_player == CHANCE and g.active in phones, anyone)
    rolling = room.game.active
    other = next(r for r in phones if r != rolling)
    die = i18n.t("prompt.die", lang, player=seat_label(seats, rolling, lang))
    asked = Banner(die, d("banner.die_detail", lang), CHANCE, True)
    soon = Banner(die, i18n.t("classplay.banner.die_soon", lang), CHANCE, True)
    walk.projector("phones: projector, typed die, storms moving", app, soon, busy=True)
    walk.phone("phone of the team rolling", phones[rolling], asked)
    walk.phone("phone of the team rolling, storms moving", phones[rolling], soon, busy=True)
    walk.phone("another team's phone, typed die, storms moving", phones[other], asked, busy=True)
    app.drawer.toggle_pause()
    walk.phone("phone of the team rolling, paused, storms moving", phones[rolling], Banner(paused, die, CHANCE, False),
               busy=True)
    app.drawer.toggle_pause()
    walk.change = {"winners": ("Korea",)}  # the game over: the ranking is above, "see the results below" is not said
    over = i18n.t("dash.banner.over_one", lang, winners=seat_label(seats, "Korea", lang))
    walk.phone("phone, the game over", phones[other], Banner(over, "", None, False))
    walk.change = {}
    room.end()
    ended = Banner(i18n.t("classplay.results.ended", lang), "", None, False)
    walk.phone("phone, the game ended by the teacher", phones[rolling], ended)
    walk.phone("phone, the game ended by the teacher, storms moving", phones[other], ended, busy=True)


def _lobby(walk: Walk, store: RoomStore) -> None:
    """A phone in the lobby, before the teacher starts the game."""
    lang = walk.lang
    room = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", name="Ken"), Seat("Korea", "greedy")],
                       seed=3, lang=lang, teacher=local_teacher(store), lobby=True)
    phone = SeatApp(lang=lang, store=store, token=room.issued_tokens["Taiwan"])
    wait = Banner(i18n.t("classplay.seat.lobby_wait", lang), i18n.t("classplay.seat.lobby_detail", lang), None, False)
    walk.phone("phone in the lobby", phone, wait)
    walk.phone("phone in the lobby, storms moving", phone, wait, busy=True)


def walk_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> list[Row]:
    walk = Walk(monkeypatch, lang)
    _one_computer(walk, RoomStore(sqlite_url(tmp_path / "one.sqlite3")))
    _phones(walk, RoomStore(sqlite_url(tmp_path / "phones.sqlite3")))
    _lobby(walk, RoomStore(sqlite_url(tmp_path / "lobby.sqlite3")))
    return walk.rows


@pytest.mark.parametrize("lang", LANGS)
def test_every_screen_shows_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    rows = walk_table(tmp_path, monkeypatch, lang)
    wrong = [(r.name, r.shown, r.expected) for r in rows if r.shown != r.expected]
    assert not wrong, "\n".join(f"{name}:\n  shown    {shown}\n  expected {exp}" for name, shown, exp in wrong)
    assert len(rows) == 31 and len({r.name for r in rows}) == 31  # no situation left out


@pytest.mark.parametrize("lang", LANGS)
def test_the_one_function_gives_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    from typhoon_edu.ui.classplay.model import Situation, screen_banner

    rows = walk_table(tmp_path, monkeypatch, lang)
    wrong = [(r.name, got, r.expected) for r in rows
             if (got := screen_banner(r.table, r.seats, lang, Situation(**r.situation))) != r.expected]
    assert not wrong, "\n".join(f"{name}:\n  gives    {got}\n  expected {exp}" for name, got, exp in wrong)

