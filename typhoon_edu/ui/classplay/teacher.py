"""The teacher's drawer on the projector: pause, who plays each seat, devices, undo, hints, end.

It lies over the side column (the board stays where it is) and acts only through the room's
teacher operations, so every change reaches every device on its next poll. While it is open it
reads, every :data:`PRESENCE_EVERY` seconds, which teams' devices are there (their pages' heartbeats,
:meth:`~typhoon_edu.classroom.rooms.Room.presence`) and says it in each seat's row: connected, not
seen for N min (a closed or sleeping phone), or no device yet.

>>> from typhoon_edu.classroom.store import RoomStore
>>> from typhoon_edu.ui.classplay.projector import ProjectorApp
>>> from typhoon_edu.ui.classplay.setup import SetupChoices
>>> from typhoon_edu.ui.classplay.viewdata import SeatChoice
>>> from typhoon_edu.classroom.teachers import local_teacher
>>> store = RoomStore("sqlite://")
>>> app = ProjectorApp(lang="en", store=store, fullscreen=False, teacher=local_teacher(store))
>>> room = app.start(SetupChoices([SeatChoice("person", "Mei"), SeatChoice("medium"), SeatChoice("easy")], seed=4))
>>> app.drawer.pause_button.click(); room.paused
True
>>> app.drawer.set_kind(room.seats[0].region, "greedy"); room.seat(room.seats[0].region).kind
'greedy'
"""

from __future__ import annotations

import asyncio
import time
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ... import i18n
from ...classroom.errors import ClassroomError
from .model import BOT_LEVEL, seat_label
from .runtime import _running_loop
from .tables import seat_infos
from .undoline import UndoLines
from .viewdata import d

if TYPE_CHECKING:
    from .projector import ProjectorApp

#: What a teacher may give a seat to, in the order offered.
KINDS = ("person", "random", "greedy", "mcts")
#: Seconds between two reads of which devices are there, while the drawer is open (one small query each).
PRESENCE_EVERY = 5.0


class TeacherDrawer:
    """The drawer's widgets; :meth:`render` fills them from the projector's room."""

    def __init__(self, app: ProjectorApp) -> None:
        self.app = app
        g = app.problems
        self.title = widgets.HTML()
        self.pause_button = widgets.Button(icon="pause", layout=widgets.Layout(width="auto"))
        self.pause_button.add_class("typhoon-teacher-pause")
        g.on_click(self.pause_button, lambda _b: self.toggle_pause(), where="pause")
        self.undo_button = widgets.Button(icon="undo", layout=widgets.Layout(width="auto"))
        self.undo_button.add_class("typhoon-undo")
        g.on_click(self.undo_button, lambda _b: self.undo(), where="undo")
        self.hints = widgets.Checkbox(value=True, indent=False)
        self.hints.add_class("typhoon-teacher-hints")
        g.observe(self.hints, lambda c: self._set_hints(bool(c["new"])), where="hints switch")
        self.end_button = widgets.Button(icon="stop", button_style="danger", layout=widgets.Layout(width="auto"))
        self.end_button.add_class("typhoon-teacher-end")
        g.on_click(self.end_button, lambda _b: self.ask_end(), where="end game")
        # "End the game now" asks first, here in the drawer: the question, "No, keep playing" (which takes the
        # keyboard's focus) and "Yes, end the game"; the kernel ends only a game whose end was asked for
        self.end_question = widgets.HTML()
        self.end_no = widgets.Button(icon="times", layout=widgets.Layout(width="auto"))
        self.end_no.add_class("typhoon-teacher-end-no")
        g.on_click(self.end_no, lambda _b: self._keep_playing(), where="end game")
        self.end_yes = widgets.Button(icon="stop", button_style="danger", layout=widgets.Layout(width="auto"))
        self.end_yes.add_class("typhoon-teacher-end-yes")
        g.on_click(self.end_yes, lambda _b: self.end(), where="end game")
        self.end_confirm = widgets.VBox([self.end_question, widgets.HBox([self.end_no, self.end_yes])])
        self.end_confirm.add_class("typhoon-teacher-end-confirm")
        self.end_confirm.layout.display = "none"
        self._end_asked: Any = None  # the room whose end the teacher asked for (the very object), until answered
        self.joins_button = widgets.Button(icon="qrcode", layout=widgets.Layout(width="auto"))
        self.joins_button.add_class("typhoon-teacher-joins")
        g.on_click(self.joins_button, lambda _b: self.show_joins(), where="join codes")
        self.leave_button = widgets.Button(icon="sign-out", layout=widgets.Layout(width="auto"))
        self.leave_button.add_class("typhoon-leave")
        g.on_click(self.leave_button, lambda _b: self.app.leave(), where="leave")
        self.seats = widgets.VBox()
        self.seats.add_class("typhoon-teacher-seats")
        self.handover_button = widgets.Button(icon="share", layout=widgets.Layout(width="auto"))
        self.handover_button.add_class("typhoon-teacher-handover")
        g.on_click(self.handover_button, lambda _b: self.handover(), where="hand the room over")
        self.handover_link = widgets.HTML()
        self.handover_link.add_class("typhoon-teacher-handover-link")
        # what the teacher's last action here gave (an undo, a refusal, a problem): the page says it in the side
        # column, which this drawer covers, so it is repeated here (for the eyes only: a screen reader heard it)
        self.note = widgets.HTML()
        self.note.add_class("typhoon-teacher-note")
        for said in (app.message, app.problems.widget):
            said.observe(lambda _c: self._show_note(), names="value")
            said.layout.observe(lambda _c: self._show_note(), names="display")
        self.box = widgets.VBox([self.title, self.note,
                                 widgets.HBox([self.pause_button, self.undo_button, self.joins_button]),
                                 self.seats, self.hints,
                                 widgets.HBox([self.end_button, self.end_confirm, self.leave_button]),
                                 self.handover_button, self.handover_link])
        self.box.add_class("typhoon-teacher")
        self.box.layout.display = "none"
        self._shape: tuple[Any, ...] | None = None
        self._rows: dict[str, _SeatRow] = {}
        self._rows_of: Any = None  # the room (the very object) whose seats the rows are
        #: Where the projector's log says an undo of this drawer took a decision back (kept across its rebuilds)
        self.undo_lines = UndoLines()
        #: The clock that paces the reads of who is there (this kernel's; replaceable, for tests).
        self.clock: Any = time.monotonic
        self._presence: dict[str, Any] = {}  # region: Presence, of the room _presence_of, read at _presence_at
        self._presence_of: Any = None
        self._presence_at: float | None = None
        self._watch: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ showing
    def open(self) -> None:
        self.box.layout.display = None
        self._show_note()
        self._presence_at = None  # who is there now, not when the drawer was last open
        self.render()
        self._watch_presence()

    def _show_note(self) -> None:
        """The page's message and problem, repeated at the top of the drawer while it is open."""
        app = self.app
        parts = [app.message.value]
        if app.problems.widget.layout.display != "none":
            parts.append(app.problems.widget.value.replace('role="alert"', ""))
        text = "".join(p for p in parts if p)
        value = f"<div aria-hidden='true'>{text}</div>" if text and self.shown else ""
        if self.note.value != value:
            self.note.value = value

    def close(self) -> None:
        self.box.layout.display = "none"
        self._show_note()
        self.cancel_end()  # a question left open in a closed drawer must not be answered later by surprise
        if self.app.game.teacher_button.value:
            self.app.game.teacher_button.value = False

    @property
    def shown(self) -> bool:
        return self.box.layout.display != "none"

    def set_lang(self, lang: str) -> None:
        self._shape = None
        self.render()

    def render(self) -> None:
        room, lang = self.app.room, self.app.lang
        self.title.value = f"<h3>{escape(i18n.t('classplay.teacher.title', lang))}</h3>"
        self.undo_button.description = i18n.t("classplay.teacher.undo", lang)
        self.end_button.description = i18n.t("classplay.teacher.end", lang)
        self.joins_button.description = i18n.t("classplay.teacher.joins", lang)
        self.leave_button.description = d("game.leave", lang)
        self.hints.description = i18n.t("classplay.teacher.hints", lang)
        self.handover_button.description = i18n.t("classplay.teacher.handover", lang)
        self.end_question.value = (f"<div role='alert' class='typhoon-teacher-end-question' "
                                   f"style='font-weight:bold;color:#991b1b;line-height:1.35'>"
                                   f"{escape(i18n.t('classplay.teacher.end_question', lang))}</div>")
        self.end_no.description = i18n.t("classplay.teacher.end_no", lang)
        self.end_yes.description = i18n.t("classplay.teacher.end_yes", lang)
        if room is None:
            return
        # after every redraw: a log rebuilt (a language switch, a resync) gets its undo lines back, in its language
        self.undo_lines.draw(self.app.game.stage, room)
        self._show_end_question()
        self.pause_button.description = i18n.t("classplay.teacher.resume" if room.paused else "classplay.teacher.pause",
                                                lang)
        self.pause_button.icon = "play" if room.paused else "pause"
        # greyed, it says why (most often a die was rolled after the last decision: never undone across a roll)
        why = room.why_no_undo()
        self.undo_button.disabled = why is not None
        self.undo_button.tooltip = i18n.t(f"error.action.{why}", lang) if why else ""
        if self.hints.value != room.hints_enabled:
            self.hints.value = room.hints_enabled
        self._read_presence(room)
        shape = (lang, room.version, tuple((s.region, s.kind, s.name, s.joined, s.revoked, s.bound, s.has_device)
                                           for s in room.seats), self._presence_key(room))
        if shape == self._shape and self._rows_of is room:
            return
        self._shape = shape
        self._render_seats(room, lang)

    # ------------------------------------------------------------------ who is there
    def _read_presence(self, room: Any, *, force: bool = False) -> None:
        """Read which devices are there (at most every PRESENCE_EVERY s, and only while the drawer is open)."""
        if not self.shown:
            return
        now = self.clock()
        if not force and self._presence_of is room and self._presence_at is not None \
                and now - self._presence_at < PRESENCE_EVERY:
            return
        self._presence_at = now
        try:
            self._presence, self._presence_of = room.presence(), room
        except ClassroomError:
            return  # the store is away a moment: the rows keep what they said (the page's loop reports the store)

    def last_presence(self, room: Any, *, within: float = 2 * PRESENCE_EVERY) -> dict[str, Any] | None:
        """Who is there in ``room``, as this drawer last read it (region -> Presence), without reading the store.

        None when the drawer is closed, has read another room or nothing yet since it opened, or read more than
        ``within`` seconds ago by its clock (its task of reads is then not running): the caller reads for itself.
        The dict returned is the drawer's own (the same object until its next read), not a copy."""
        at = self._presence_at
        if not self.shown or self._presence_of is not room or at is None or self.clock() - at > within:
            return None
        return self._presence

    def _presence_key(self, room: Any) -> tuple[Any, ...]:
        """What the rows say of who is there (the same key: nothing to change)."""
        if self._presence_of is not room:
            return ()
        return tuple((r, presence_words(p, "en")) for r, p in sorted(self._presence.items()))

    def refresh_presence(self) -> None:
        """Read which devices are there now and say it in the rows, in place (no row is rebuilt, the focus stays)."""
        room = self.app.room
        if room is None or not self.shown:
            return
        self._read_presence(room, force=True)
        key = self._presence_key(room)
        if self._rows_of is not room or self._shape is None:
            self.render()
        elif self._shape[-1] != key:
            self._shape = (*self._shape[:-1], key)
            self._render_seats(room, self.app.lang)

    def _watch_presence(self) -> None:
        """While the drawer is open, read who is there every PRESENCE_EVERY s (on the page's event loop)."""
        loop = _running_loop()
        if loop is None or (self._watch is not None and not self._watch.done()):
            return
        self._watch = loop.create_task(self._run_presence())

    async def _run_presence(self) -> None:
        while self.shown and self.app.room is not None:
            await asyncio.sleep(PRESENCE_EVERY)
            try:
                self.refresh_presence()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - tell the teacher instead of stopping silently
                self.app.problems.report(exc, "the teacher's drawer")

    def _render_seats(self, room: Any, lang: str) -> None:
        """One row per seat, made once per room and then changed in place: a button pressed in a row keeps
        its place (a row rebuilt would drop the keyboard's focus, which then fell to another team's menu)."""
        regions = [s.region for s in room.seats]
        if self._rows_of is not room or list(self._rows) != regions:
            for w in self.seats.children:
                w.close()
            self._rows = {r: _SeatRow(self, r) for r in regions}
            self._rows_of = room
            self.seats.children = [row.box for row in self._rows.values()]
        infos = seat_infos(room)
        devices = bool(getattr(room, "devices", True))
        presence = self._presence if self._presence_of is room else {}
        for s in room.seats:
            self._rows[s.region].show(s, seat_label(infos, s.region, lang), lang, devices=devices,
                                      presence=presence.get(s.region))

    @staticmethod
    def _kind_name(kind: str, lang: str) -> str:
        if kind == "person":
            return d("kind.person", lang)
        return d(f"kind.{BOT_LEVEL[kind]}", lang)

    # ------------------------------------------------------------------ acting
    def toggle_pause(self) -> None:
        room = self.app.room
        if room is None:
            return
        self.app._take(room.resume() if room.paused else room.pause())
        self.app.redraw()

    def set_kind(self, region: str, kind: str) -> None:
        """Give ``region``'s seat to a bot level or back to a person (who gets a new join link)."""
        room = self.app.room
        if room is None or room.seat(region).kind == kind:
            return
        try:
            token = room.set_seat(region, kind)
        except Exception:
            self._shape = None  # the menu goes back to the seat's kind: the page shows the room as it is
            self.app.redraw()
            raise  # told and logged by the menu's guard
        if token is not None:
            self.app._tokens[region] = token
        else:
            self.app._tokens.pop(region, None)
        self._shape = None
        self.app._take(room.sync())
        self.app.redraw()

    def revoke(self, region: str) -> None:
        """The seat's device stops working at once; a new join link is shown for it."""
        room = self.app.room
        if room is None:
            return
        room.revoke(region)
        self.app._tokens.pop(region, None)
        self._shape = None
        self.app._take(room.sync())
        self.app.redraw()

    def new_link(self, region: str) -> None:
        """A new join link for the seat (after a revoke, or for a seat given back to a person); shown in the lobby."""
        room = self.app.room
        if room is None:
            return
        self.app._tokens[region] = room.reissue_token(region)
        self._shape = None
        self.app._take(room.sync())
        self.show_joins()

    def reset_device(self, region: str) -> None:
        """Free the seat's link from the device that opened it first (a broken phone: the team takes another)."""
        room = self.app.room
        if room is None:
            return
        room.reset_device(region)
        self._shape = None
        self.app._take(room.sync())
        self.render()

    def handover(self) -> None:
        """Show a link that hands this room to a colleague (the teacher chooses whom to send it to)."""
        url = self.app.handover_url()
        lang = self.app.lang
        self.handover_link.value = (f"<div>{escape(i18n.t('classplay.teacher.handover_how', lang))}</div>"
                                    f"<code class='typhoon-handover-url'>{escape(url)}</code>")

    def _set_hints(self, enabled: bool) -> None:
        room = self.app.room
        if room is not None and room.hints_enabled != enabled:
            self.app._take(room.set_hints(enabled))

    def undo(self) -> bool:
        """Take back the last person's decision; the log says so (the rebuilt log no longer shows the decision)."""
        done = bool(self.app.undo())
        if done and self.app._played and self.app.room is not None:
            self.undo_lines.note(self.app.game.stage, self.app.room)
        return done

    def ask_end(self) -> None:
        """*End the game now*: ask first (the game ends only on *Yes, end the game*)."""
        room = self.app.room
        if room is None or not room.is_open:
            return
        self._end_asked = room
        self._show_end_question()
        self.end_no.focus()  # the button pressed is gone: the keyboard goes on from the safe answer

    def cancel_end(self) -> None:
        """*No, keep playing* (or the drawer closed, or another room opened): the question goes away."""
        self._end_asked = None
        self._show_end_question()

    def _keep_playing(self) -> None:
        self.cancel_end()
        self.end_button.focus()  # back where the teacher was

    def _show_end_question(self) -> None:
        asking = self._end_asked is not None and self._end_asked is self.app.room
        if not asking:
            self._end_asked = None
        self.end_confirm.layout.display = None if asking else "none"
        self.end_button.layout.display = "none" if asking else None

    def end(self) -> bool:
        """*Yes, end the game*: ends the game the teacher asked to end (and only then; else it asks); True if ended."""
        room = self.app.room
        if room is None:
            return False
        if self._end_asked is not room:
            self.ask_end()
            return False
        self._end_asked = None
        room.end()
        self.close()
        self.app._show_results()
        return True

    def show_joins(self) -> None:
        self.close()
        self.app._go("lobby")
        self.app.lobby.render()


class _SeatRow:
    """One seat's line in the drawer: who plays it (a menu), its device's state, and its device's buttons."""

    def __init__(self, drawer: TeacherDrawer, region: str) -> None:
        self.drawer, self.region = drawer, region
        g = drawer.app.problems
        slug = region.replace(" ", "_")
        self._quiet = False  # the menu set from the room (new options, the seat's kind): not the teacher choosing
        # The seat's name is the menu's own label, so a screen reader names the menu (axe: select-name).
        self.kind = widgets.Dropdown(options=[], description_allow_html=True, style={"description_width": "13em"},
                                     layout=widgets.Layout(width="24em", max_width="100%"))  # a phone: the drawer's width
        self.kind.add_class("typhoon-teacher-kind")
        self.kind.add_class(f"typhoon-teacher-kind-{slug}")
        g.observe(self.kind, lambda c: None if self._quiet else drawer.set_kind(region, c["new"]), where="seat kind")
        self.state = widgets.HTML()
        self.state.add_class("typhoon-teacher-device-state")
        self.free = widgets.Button(icon="unlock", layout=widgets.Layout(width="auto"))
        self.free.add_class(f"typhoon-teacher-reset-device-{slug}")
        g.on_click(self.free, lambda _b: drawer.reset_device(region), where="reset device")
        self.revoke = widgets.Button(icon="ban", layout=widgets.Layout(width="auto"))
        self.revoke.add_class(f"typhoon-teacher-revoke-{slug}")
        g.on_click(self.revoke, lambda _b: drawer.revoke(region), where="revoke device")
        # the teacher's explicit New join link (for every person seat): the only way a seat's link changes
        self.fresh = widgets.Button(icon="qrcode", layout=widgets.Layout(width="auto"))
        self.fresh.add_class(f"typhoon-teacher-new-link-{slug}")
        g.on_click(self.fresh, lambda _b: drawer.new_link(region), where="new join link")
        self.buttons = widgets.HBox([self.free, self.revoke, self.fresh], layout=widgets.Layout(flex_flow="row wrap"))
        self.box = widgets.VBox([widgets.HBox([self.kind, self.state],
                                              layout=widgets.Layout(align_items="center", flex_flow="row wrap")),
                                 self.buttons])
        self.box.add_class("typhoon-teacher-seat")

    def show(self, s: Any, label: str, lang: str, *, devices: bool, presence: Any = None) -> None:
        """The row as the seat is now (``devices``: the teams play on their own devices; ``presence``: whether its
        device is there, :class:`~typhoon_edu.classroom.rooms.Presence`, None if not read)."""
        options = [(TeacherDrawer._kind_name(k, lang), k) for k in KINDS]
        self._quiet = True
        try:
            if list(self.kind.options) != options:
                self.kind.options = options
            if self.kind.value != s.kind:
                self.kind.value = s.kind
        finally:
            self._quiet = False
        self.kind.description = f"<b>{escape(label)}</b>"
        device = s.is_person and devices  # one computer: no device, no join link
        if device:
            away = presence is not None and presence.state == "away" and s.joined and not s.revoked
            text = escape(self._state_text(s, lang, presence))
            # a team whose device has gone quiet stands out (in words first: the colour only repeats them)
            value = (f"<b data-presence='away' style='color:#991b1b'>{text}</b>" if away
                     else f"<i data-presence='{escape(presence.state) if presence is not None else ''}'>{text}</i>")
            if self.state.value != value:
                self.state.value = value
        elif self.state.value:
            self.state.value = ""
        self.free.description = i18n.t("classplay.teacher.reset_device", lang)
        self.revoke.description = i18n.t("classplay.teacher.revoke", lang)
        self.fresh.description = i18n.t("classplay.teacher.new_link", lang)
        # each button only when it can do something: free a kept link, revoke a device that joined
        self.free.layout.display = None if device and s.bound and not s.revoked else "none"
        self.revoke.layout.display = None if device and s.joined and not s.revoked else "none"
        self.fresh.layout.display = None if device else "none"
        self.buttons.layout.display = None if device else "none"

    @staticmethod
    def _state_text(s: Any, lang: str, presence: Any = None) -> str:
        """The seat's device as the room knows it: none yet, revoked, or joined: connected or not seen for a while
        (``presence``; "device joined" before it is read), and kept by its device or its link freed."""
        if s.revoked:
            return i18n.t("classplay.teacher.revoked", lang)
        if not s.joined:
            return i18n.t("classplay.teacher.not_joined", lang)
        said = presence_words(presence, lang) or i18n.t("classplay.teacher.joined", lang)
        if not s.bound:  # joined once, and its link now opens on the next device that opens it (Free from its device)
            if presence is None:
                return i18n.t("classplay.teacher.freed", lang)
            how = i18n.t("classplay.teacher.freed", lang)
        else:
            how = i18n.t("classplay.teacher.bound", lang)
        return f"{said}（{how}）" if i18n.normalize_lang(lang) == "zh-TW" else f"{said} ({how})"


def presence_words(presence: Any, lang: str) -> str:
    """Whether a joined seat's device is there, in words: connected, not seen for N s (under a minute, in tens) or
    N min; "" when unknown or never seen (the row then says what it said before).

    >>> from typhoon_edu.classroom.rooms import Presence
    >>> [presence_words(Presence("Taiwan", 1.0, ago), "en") for ago in (12.0, 47.0, 200.0)]
    ['connected', 'not seen for 40 s', 'not seen for 3 min']
    """
    if presence is None or presence.state == "never":
        return ""
    if presence.state == "connected":
        return i18n.t("classplay.teacher.connected", lang)
    ago = float(presence.ago)
    if ago < 60:
        return i18n.t("classplay.teacher.away_seconds", lang, n=int(ago // 10 * 10))
    return i18n.t("classplay.teacher.away_minutes", lang, n=int(ago // 60))
