"""The projector's first screen: a new room's choices, and the rooms already in the store.

The screen only collects choices (:class:`SetupChoices`) and lists rooms; the
:class:`~typhoon_edu.ui.classplay.projector.ProjectorApp` creates and opens them. The rooms list is
read when the page is shown to a browser (never when a preheated kernel starts), and again
whenever the screen comes back; a room that no longer replays is listed with its reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as widgets

from ... import i18n
from ...engine.rules import load_rules
from ...typed import small_whole
from ..buttons import name_only
from ..guard import Problems
from ..query import on_class_server
from .viewdata import SPEEDS, SeatChoice, d, seat_choices
from .viewdata import SetupChoices as _BaseChoices

MAX_SEATS = 5
BY_RULES = -1  # the start-player choice "by the rules" (a Dropdown cannot hold None as a choice)
ROOMS_SHOWN = 8


def speed_options(lang: str) -> list[tuple[str, float]]:
    """The speed choices, labelled in ``lang``.

    >>> [v for _, v in speed_options("en")]
    [0.5, 1.0, 2.0, 4.0, 0.0]
    """
    names = {0.5: "speed.slow", 1.0: "speed.normal", 2.0: "speed.fast", 4.0: "speed.faster", 0.0: "speed.instant"}
    return [(d(names[s], lang), s) for s in SPEEDS]


@dataclass
class SetupChoices(_BaseChoices):
    """The dashboard's choices plus where the hands are: ``devices`` (each team's phone) or one computer.

    >>> c = SetupChoices([SeatChoice("person", "Ann"), SeatChoice("easy"), SeatChoice("medium")], seed=5)
    >>> c.devices
    True
    """

    devices: bool = True


class Relabel:
    """Texts that depend on the language: ``bind(widget, attr, text)`` now and after every switch."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._items: list[tuple[widgets.Widget, str, Callable[[str], Any]]] = []

    def bind(self, widget: Any, attr: str, text: Callable[[str], Any]) -> Any:
        self._items.append((widget, attr, text))
        self._set(widget, attr, text(self.lang))
        return widget

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        for widget, attr, text in self._items:
            self._set(widget, attr, text(lang))

    @staticmethod
    def _set(widget: Any, attr: str, value: Any) -> None:
        if attr == "options":
            keep = widget.value
            widget.options = value
            values = [v for _, v in value]
            if keep in values:
                widget.value = keep
        else:
            setattr(widget, attr, value)


def _html(value: str = "", css: str = "") -> widgets.HTML:
    w = widgets.HTML(value)
    if css:
        w.add_class(css)
    return w


def room_about(info: Any, lang: str) -> str:
    """A room of the teacher's rooms list as HTML: its code and teams, then its rules, where the hands are, and
    whether the game is over (else its round), and when it last moved; what tells a teacher's classes apart.

    ``info``: a :class:`~typhoon_edu.classroom.rooms.RoomInfo`, which carries the room's rules ``variant`` and its
    ``devices`` (read with the list, no other query); a ``variant`` of "" (a stored setup that cannot be read)
    leaves the rules and the hands out.

    >>> from types import SimpleNamespace as N
    >>> seat = lambda region, kind="person", name="": N(region=region, kind=kind, name=name, is_person=kind == "person")
    >>> info = N(code="AB2CD", seats=(seat("Taiwan", name="Mei"), seat("Japan"), seat("Korea", "greedy")),
    ...          players=("Taiwan", "Japan", "Korea"), round=2, over=False, status="open", updated=0.0,
    ...          variant="advanced", devices=False)
    >>> html = room_about(info, "en")
    >>> "<b>Mei</b> (Taiwan), Japan and Korea (computer)" in html, "advanced rules" in html, "one computer" in html
    (True, True, True)
    >>> html = room_about(N(**{**vars(info), "over": True, "variant": ""}), "en")
    >>> "game over" in html, "rules" in html
    (True, False)
    """
    from ...classroom.names import clean_name

    rules = load_rules()
    seats = {s.region: s for s in getattr(info, "seats", ())}

    def team(region: str) -> str:  # the catalog's words are ours; a person's name is escaped, and in bold
        rname = escape(i18n.region_name(rules, region, lang))
        seat = seats.get(region)
        if seat is not None and not seat.is_person:
            return i18n.t("classplay.rooms.team_bot", lang, region=rname)
        name = clean_name(seat.name) if seat is not None else ""
        return d("label.person", lang, name=f"<b>{escape(name)}</b>", region=rname) if name else rname

    teams = i18n.join_names((team(p) for p in info.players), lang)
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.updated))
    over = bool(info.over or info.status != "open")
    tags = []
    if over:
        tags.append(("typhoon-room-tag typhoon-room-over", i18n.t("classplay.rooms.over", lang)))
    variant = str(getattr(info, "variant", ""))
    if variant:
        if i18n.has(f"variant.{variant}", lang):
            tags.append((f"typhoon-room-tag typhoon-room-{variant}", i18n.t(f"variant.{variant}", lang)))
        hands = "devices" if getattr(info, "devices", True) else "one_computer"
        tags.append((f"typhoon-room-tag typhoon-room-{hands.replace('_', '-')}", i18n.t(f"classplay.rooms.{hands}", lang)))
    key = "classplay.rooms.finished" if over else "classplay.rooms.open"
    tail = escape(i18n.t(key, lang, round=info.round, when="\0")).replace(  # the date and time never split
        "\0", f"<span class='typhoon-room-date'>{escape(when)}</span>")
    spans = "".join(f"<span class='{css}'>{escape(text)}</span> " for css, text in tags)
    return (f"<div class='typhoon-room-teams'><span class='typhoon-room-chip'>{escape(info.code)}</span> {teams}</div>"
            f"<div class='typhoon-room-facts'>{spans}<span class='typhoon-room-when'>{tail}</span></div>")


class SeatRow:
    """One seat of the setup screen: person (with a name) or bot level, and a region when chosen."""

    def __init__(self, index: int, labels: Relabel, problems: Problems) -> None:
        rules = load_rules()
        self.index = index
        self.title = labels.bind(_html(), "value", lambda lang: f"<b>{escape(d('setup.seat', lang, n=index + 1))}</b>")
        self.title.layout.min_width = "5.5em"
        kinds = seat_choices()
        self.kind = labels.bind(widgets.Dropdown(layout=widgets.Layout(width="12em")), "options",
                                lambda lang: [(d(f"kind.{k}", lang), k) for k in kinds])
        self.kind.value = "person"
        self.kind.add_class(f"typhoon-seat-kind-{index}")
        # The seat's title stands beside the dropdowns for the eye; a screen reader needs each one's own name
        # (ipywidgets links a description to its <select>): a description of zero width, read but not shown.
        name_only(labels.bind(self.kind, "description", lambda lang: d("setup.seat_kind", lang, n=index + 1)))
        self.name = labels.bind(widgets.Text(layout=widgets.Layout(width="11em")), "placeholder",
                                lambda lang: d("setup.name", lang))
        self.name.add_class(f"typhoon-seat-name-{index}")
        # a placeholder is no name (a screen reader read none): the description, not shown, names the box
        name_only(labels.bind(self.name, "description", lambda lang: d("setup.seat_name", lang, n=index + 1)))
        keys = list(rules.regions)
        self.region = labels.bind(widgets.Dropdown(layout=widgets.Layout(width="10em")), "options",
                                  lambda lang: [(i18n.region_name(rules, k, lang), k) for k in keys])
        self.region.value = keys[index % len(keys)]
        self.region.add_class(f"typhoon-seat-region-{index}")
        name_only(labels.bind(self.region, "description", lambda lang: d("setup.seat_region", lang, n=index + 1)))
        self.box = widgets.HBox([self.title, self.kind, self.name, self.region],
                                layout=widgets.Layout(align_items="center", margin="2px 0"))
        self.box.add_class("typhoon-seat-row")  # its fields line up when they wrap (theme.py)
        problems.observe(self.kind, lambda _c: self._sync(), where="seat kind")
        self._sync()

    def _sync(self) -> None:
        self.name.layout.visibility = "visible" if self.kind.value == "person" else "hidden"

    def choice(self, chosen_regions: bool) -> SeatChoice:
        return SeatChoice(self.kind.value, self.name.value if self.kind.value == "person" else "",
                          self.region.value if chosen_regions else None)


class SetupScreen:
    """Seats, regions, start player, rules, dice, where the hands are, speed; and the rooms list."""

    def __init__(self, lang: str, problems: Problems, on_start: Callable[[SetupChoices], Any],
                 on_open: Callable[[str], Any]) -> None:
        self.labels = Relabel(lang)
        self.problems = problems
        self.on_start = on_start
        self.on_open = on_open
        self.rules = load_rules()
        labels = self.labels
        toggles = widgets.ToggleButtons
        self.title = labels.bind(_html(), "value", lambda lang: f"<h2 class='typhoon-setup-title'>{escape(d('setup.title', lang))}</h2>")
        self.count = labels.bind(toggles(options=[("3", 3), ("4", 4), ("5", 5)], value=4), "description",
                                 lambda lang: d("setup.players", lang))
        self.count.style.description_width = "initial"
        self.count.add_class("typhoon-seat-count")
        self.rows = [SeatRow(i, labels, problems) for i in range(MAX_SEATS)]
        self.regions = labels.bind(toggles(), "options", lambda lang: [(d("setup.regions_random", lang), "random"),
                                                                      (d("setup.regions_chosen", lang), "chosen")])
        self.regions.add_class("typhoon-regions")
        self.start = widgets.Dropdown(layout=widgets.Layout(width="auto"))
        self.start.add_class("typhoon-start-player")
        self.start.add_class("typhoon-start-select")
        name_only(labels.bind(self.start, "description", lambda lang: d("setup.start_player", lang)))
        self.variant = labels.bind(toggles(), "options", lambda lang: [(d("setup.standard", lang), "standard"),
                                                                      (d("setup.advanced", lang), "advanced")])
        self.variant.add_class("typhoon-variant")
        self.dice = labels.bind(toggles(), "options", lambda lang: [(d("setup.dice_auto", lang), "auto"),
                                                                   (d("setup.dice_manual", lang), "manual")])
        self.dice.add_class("typhoon-dice-mode")
        self.hands = labels.bind(toggles(), "options",
                                 lambda lang: [(i18n.t("classplay.setup.devices", lang), True),
                                               (i18n.t("classplay.setup.one_computer", lang), False)])
        self.hands.add_class("typhoon-hands-mode")
        self.hands_note = labels.bind(_html(), "value", lambda lang: f"<i>{escape(i18n.t('classplay.setup.hands_note', lang))}</i>")
        # phones and tablets join through the class server only: anywhere else (a lesson in JupyterLab, Binder, plain
        # Voilà) the lobby's QR code and seat links lead nowhere, so this page says so plainly under the choice
        self.on_server = on_class_server()
        self.hands_warning = labels.bind(_html(css="typhoon-hands-warning"), "value", self._hands_warning)
        self.speed = labels.bind(toggles(), "options", speed_options)
        self.speed.value = 1.0
        self.speed.add_class("typhoon-speed")
        self.seed = labels.bind(widgets.Text(layout=widgets.Layout(width="10em")), "placeholder",
                                lambda lang: d("setup.seed_placeholder", lang))
        self.seed.add_class("typhoon-seed")
        name_only(labels.bind(self.seed, "description", lambda lang: d("setup.seed_name", lang)))
        self.start_button = labels.bind(widgets.Button(button_style="primary", icon="play",
                                                       layout=widgets.Layout(width="100%")), "description",
                                        lambda lang: d("setup.start", lang))
        self.start_button.add_class("typhoon-setup-start")
        self.start_button.add_class("typhoon-big-button")
        self.message = _html(css="typhoon-setup-message")
        self._error: Callable[[str], str] | None = None  # what the message line says, in any language
        self.rooms_title = labels.bind(_html(), "value", lambda lang: f"<h3>{escape(i18n.t('classplay.rooms.title', lang))}</h3>")
        self.rooms_box = widgets.VBox()
        self.rooms_box.add_class("typhoon-rooms")

        def label(key: str, own: bool = False) -> widgets.HTML:
            return labels.bind(_html(), "value", lambda lang: f"<b>{escape(i18n.t(key, lang) if own else d(key, lang))}</b>")

        problems.observe(self.count, lambda _c: self._sync_rows(), where="player count")
        problems.observe(self.regions, lambda _c: self._sync_rows(), where="regions")
        for row in self.rows:
            problems.observe(row.region, lambda _c: self._refresh_start(), where="seat region")
        problems.on_click(self.start_button, lambda _b: self._start(), where="start button")
        left = widgets.VBox([label("setup.seats"), self.count, *[r.box for r in self.rows], label("setup.regions"),
                             self.regions, label("setup.start_player"), self.start],
                            layout=widgets.Layout(flex="1 1 32em", min_width="0"))
        right = widgets.VBox([label("classplay.setup.hands", own=True), self.hands, self.hands_note, self.hands_warning,
                              label("setup.variant"), self.variant, label("setup.dice"), self.dice,
                              label("setup.speed"), self.speed,
                              widgets.HBox([label("setup.seed"), self.seed], layout=widgets.Layout(align_items="center"))],
                             layout=widgets.Layout(flex="1 1 26em", min_width="0"))
        form = widgets.HBox([left, right], layout=widgets.Layout(flex_flow="row wrap", width="100%"))
        self.box = widgets.VBox([self.title, form, self.start_button, self.message, self.rooms_title, self.rooms_box],
                                layout=widgets.Layout(width="100%", padding="0 .5em", overflow="auto"))
        self.box.add_class("typhoon-setup")
        # each team's phone is the default only where phones can join (the class server); elsewhere, one computer
        self.regions.value, self.variant.value, self.dice.value = "random", "standard", "auto"
        self.hands.value = self.on_server
        self.hands_warning.value = self._hands_warning(self.labels.lang)
        problems.observe(self.hands, lambda _c: setattr(self.hands_warning, "value", self._hands_warning(self.labels.lang)),
                         where="hands mode")
        self._rooms: Sequence[Any] = ()
        self._sync_rows()

    # ------------------------------------------------------------------ the form
    def _hands_warning(self, lang: str) -> str:
        """The warning under "where the hands are" when phones are chosen where no phone can join ("" otherwise)."""
        if self.on_server or not self.hands.value:
            return ""
        return (f"<div style='border-left:6px solid #b45309;background:#fffbeb;color:#422006;padding:.3em .6em;"
                f"margin:.3em 0'>⚠ {escape(i18n.t('lesson.game.devices_need_server', lang))}</div>")

    def _start_options(self, lang: str) -> list[tuple[str, int]]:
        chosen = self.regions.value == "chosen"
        opts: list[tuple[str, int]] = [(d("setup.start_rules", lang), BY_RULES)]
        for i in range(self.count.value):
            text = d("setup.seat", lang, n=i + 1)
            if chosen:
                text += f" · {i18n.region_name(self.rules, self.rows[i].region.value, lang)}"
            opts.append((text, i))
        return opts

    def _refresh_start(self) -> None:
        keep = self.start.value if self.start.value is not None else BY_RULES
        self.start.options = self._start_options(self.labels.lang)
        self.start.value = keep if keep < self.count.value else BY_RULES

    def _sync_rows(self) -> None:
        for i, row in enumerate(self.rows):
            row.box.layout.display = "flex" if i < self.count.value else "none"
            row.region.layout.visibility = "visible" if self.regions.value == "chosen" else "hidden"
        self._refresh_start()

    def choices(self) -> SetupChoices:
        chosen = self.regions.value == "chosen"
        seed_text = self.seed.value.strip()
        seed = small_whole(seed_text, digits=18)  # not a number (or 5,000 digits): no seed, as an empty field
        start = None if self.start.value == BY_RULES else int(self.start.value)
        return SetupChoices([r.choice(chosen) for r in self.rows[: self.count.value]], self.regions.value, start,
                            self.variant.value, self.dice.value, float(self.speed.value), seed, bool(self.hands.value))

    def fill(self, choices: SetupChoices) -> None:
        """Put ``choices`` into the form (a rematch, and tests)."""
        self.count.value = len(choices.seats)
        self.regions.value = choices.regions
        for row, c in zip(self.rows, choices.seats, strict=False):
            row.kind.value = c.kind
            row.name.value = c.name
            if c.region is not None:
                row.region.value = c.region
        self._refresh_start()
        self.start.value = BY_RULES if choices.start is None else choices.start
        self.variant.value = choices.variant
        self.dice.value = choices.dice
        self.speed.value = choices.speed
        self.hands.value = choices.devices
        self.seed.value = "" if choices.seed is None else str(choices.seed)

    def _start(self) -> None:
        text = self.seed.value.strip()
        if text and not (text.isdecimal() and len(text) <= 19 and int(text) < 2**63):  # a game's seed is below 2**63
            self.show_error(lambda lang: d("error.seed", lang))
            return
        self.on_start(self.choices())

    def show_error(self, text: str | Callable[[str], str]) -> None:
        """Say ``text``, or ``text(lang)`` (said again in the screen's language if it changes later); "" clears it."""
        self._error = (lambda _lang, said=text: said) if isinstance(text, str) else text
        self._show_error()

    def _show_error(self) -> None:
        text = self._error(self.labels.lang) if self._error is not None else ""
        self.message.value = f"<span class='typhoon-message-error'>{escape(text)}</span>" if text else ""

    # ------------------------------------------------------------------ the rooms list
    def show_rooms(self, rooms: Sequence[Any], problems: Sequence[tuple[str, str]] = ()) -> None:
        """List ``rooms`` (:class:`~typhoon_edu.classroom.rooms.RoomInfo`, newest first, each with its rules and
        devices: see :func:`room_about`) and files that could not be imported.
        """
        self._rooms = rooms
        self._import_problems = list(problems)
        self._render_rooms()

    def _render_rooms(self) -> None:
        lang = self.labels.lang
        for w in self.rooms_box.children:
            w.close()
        rows: list[widgets.Widget] = []
        rooms = list(self._rooms)
        if not rooms:
            rows.append(_html(f"<i>{escape(i18n.t('classplay.rooms.none', lang))}</i>"))
        for info in rooms[:ROOMS_SHOWN]:
            if not info.ok:
                reason = i18n.t(f"classplay.broken.{info.kind}", lang) if i18n.has(f"classplay.broken.{info.kind}", lang) \
                    else info.error
                rows.append(_html(f"<span class='typhoon-room-broken'>⚠ <b>{escape(info.code)}</b>: "
                                  f"{escape(i18n.t('classplay.rooms.broken', lang, reason=reason))}</span>",
                                  "typhoon-room-broken-row"))
                continue
            b = widgets.Button(icon="folder-open", layout=widgets.Layout(width="auto"),
                               description=i18n.t("classplay.rooms.results" if (info.over or info.status != "open")
                                                  else "classplay.rooms.resume", lang))
            b.add_class("typhoon-room-open")
            b.add_class(f"typhoon-room-{info.code}")
            self.problems.on_click(b, lambda _b, c=info.code: self.on_open(c), where="open room")
            about = _html(room_about(info, lang), "typhoon-room-about")
            row = widgets.HBox([b, about], layout=widgets.Layout(align_items="center"))
            row.add_class("typhoon-room-row")
            rows.append(row)
        if len(rooms) > ROOMS_SHOWN:
            rows.append(_html(f"<i>{escape(i18n.t('classplay.rooms.more', lang, count=len(rooms) - ROOMS_SHOWN))}</i>"))
        for name, reason in getattr(self, "_import_problems", []):
            rows.append(_html(f"<span class='typhoon-room-broken'>⚠ <b>{escape(name)}</b>: "
                              f"{escape(i18n.t('classplay.rooms.not_imported', lang, reason=reason))}</span>",
                              "typhoon-import-problem"))
        self.rooms_box.children = rows

    def set_lang(self, lang: str) -> None:
        self.labels.set_lang(lang)
        self._refresh_start()
        self._render_rooms()
        self._show_error()
