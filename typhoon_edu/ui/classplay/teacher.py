"""The teacher's drawer on the projector: pause, who plays each seat, devices, undo, hints, end.

It lies over the side column (the board stays where it is) and acts only through the room's
teacher operations, so every change reaches every device on its next poll.

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

from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ... import i18n
from .model import BOT_LEVEL, seat_label
from .tables import seat_infos
from .viewdata import d

if TYPE_CHECKING:
    from .projector import ProjectorApp

#: What a teacher may give a seat to, in the order offered.
KINDS = ("person", "random", "greedy", "mcts")


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
        g.on_click(self.undo_button, lambda _b: self.app.undo(), where="undo")
        self.hints = widgets.Checkbox(value=True, indent=False)
        self.hints.add_class("typhoon-teacher-hints")
        g.observe(self.hints, lambda c: self._set_hints(bool(c["new"])), where="hints switch")
        self.end_button = widgets.Button(icon="stop", button_style="danger", layout=widgets.Layout(width="auto"))
        self.end_button.add_class("typhoon-teacher-end")
        g.on_click(self.end_button, lambda _b: self.end(), where="end game")
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
        self.box = widgets.VBox([self.title, widgets.HBox([self.pause_button, self.undo_button, self.joins_button]),
                                 self.seats, self.hints, widgets.HBox([self.end_button, self.leave_button]),
                                 self.handover_button, self.handover_link])
        self.box.add_class("typhoon-teacher")
        self.box.layout.display = "none"
        self._shape: tuple[Any, ...] | None = None

    # ------------------------------------------------------------------ showing
    def open(self) -> None:
        self.box.layout.display = None
        self.render()

    def close(self) -> None:
        self.box.layout.display = "none"
        if self.app.game.teacher_button.value:
            self.app.game.teacher_button.value = False

    @property
    def shown(self) -> bool:
        return self.box.layout.display != "none"

    def set_lang(self, lang: str) -> None:
        self._shape = None
        self.render()

    def render(self) -> None:
        app, room, lang = self.app, self.app.room, self.app.lang
        self.title.value = f"<h3>{escape(i18n.t('classplay.teacher.title', lang))}</h3>"
        self.undo_button.description = i18n.t("classplay.teacher.undo", lang)
        self.end_button.description = i18n.t("classplay.teacher.end", lang)
        self.joins_button.description = i18n.t("classplay.teacher.joins", lang)
        self.leave_button.description = d("game.leave", lang)
        self.hints.description = i18n.t("classplay.teacher.hints", lang)
        self.handover_button.description = i18n.t("classplay.teacher.handover", lang)
        if room is None:
            return
        self.pause_button.description = i18n.t("classplay.teacher.resume" if room.paused else "classplay.teacher.pause",
                                                lang)
        self.pause_button.icon = "play" if room.paused else "pause"
        self.undo_button.disabled = not room.can_undo()
        if self.hints.value != room.hints_enabled:
            self.hints.value = room.hints_enabled
        infos = seat_infos(room)
        shape = (lang, room.version, tuple((s.region, s.kind, s.name, s.joined, s.revoked, s.bound)
                                           for s in room.seats))
        if shape == self._shape:
            return
        self._shape = shape
        for w in self.seats.children:
            w.close()
        rows = []
        for s in room.seats:
            # The seat's name is the menu's own label, so a screen reader names the menu (axe: select-name).
            kind = widgets.Dropdown(options=[(self._kind_name(k, lang), k) for k in KINDS], value=s.kind,
                                    description=f"<b>{escape(seat_label(infos, s.region, lang))}</b>",
                                    description_allow_html=True, style={"description_width": "13em"},
                                    layout=widgets.Layout(width="24em", max_width="100%"))  # a phone: no wider than the drawer
            kind.add_class("typhoon-teacher-kind")
            kind.add_class(f"typhoon-teacher-kind-{s.region.replace(' ', '_')}")
            app.problems.observe(kind, lambda c, r=s.region: self.set_kind(r, c["new"]), where="seat kind")
            head: list[widgets.Widget] = [kind]
            parts: list[widgets.Widget] = []  # the seat's buttons, on their own line under its name and state
            if s.is_person and getattr(room, "devices", True):  # one computer: no device, no join link
                state = "classplay.teacher.joined" if s.joined else "classplay.teacher.not_joined"
                if s.revoked:
                    state = "classplay.teacher.revoked"
                said = escape(i18n.t(state, lang))
                if s.bound and not s.revoked:
                    bound = escape(i18n.t("classplay.teacher.bound", lang))
                    said += f"（{bound}）" if i18n.normalize_lang(lang) == "zh-TW" else f" ({bound})"
                head.append(widgets.HTML(f"<i>{said}</i>"))
                if s.bound and not s.revoked:
                    free = widgets.Button(icon="unlock", layout=widgets.Layout(width="auto"),
                                          description=i18n.t("classplay.teacher.reset_device", lang))
                    free.add_class(f"typhoon-teacher-reset-device-{s.region.replace(' ', '_')}")
                    app.problems.on_click(free, lambda _b, r=s.region: self.reset_device(r), where="reset device")
                    parts.append(free)
                revoke = widgets.Button(icon="ban", layout=widgets.Layout(width="auto"),
                                        description=i18n.t("classplay.teacher.revoke", lang))
                revoke.add_class(f"typhoon-teacher-revoke-{s.region.replace(' ', '_')}")
                revoke.disabled = s.revoked or not (s.joined or s.has_device)
                app.problems.on_click(revoke, lambda _b, r=s.region: self.revoke(r), where="revoke device")
                parts.append(revoke)
                # the teacher's explicit New join link (for every person seat): the only way a seat's link changes
                fresh = widgets.Button(icon="qrcode", layout=widgets.Layout(width="auto"),
                                       description=i18n.t("classplay.teacher.new_link", lang))
                fresh.add_class(f"typhoon-teacher-new-link-{s.region.replace(' ', '_')}")
                app.problems.on_click(fresh, lambda _b, r=s.region: self.new_link(r), where="new join link")
                parts.append(fresh)
            row = widgets.VBox([widgets.HBox(head, layout=widgets.Layout(align_items="center", flex_flow="row wrap")),
                                widgets.HBox(parts, layout=widgets.Layout(flex_flow="row wrap"))])
            row.add_class("typhoon-teacher-seat")
            rows.append(row)
        self.seats.children = rows

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

    def end(self) -> None:
        room = self.app.room
        if room is None:
            return
        room.end()
        self.close()
        self.app._show_results()

    def show_joins(self) -> None:
        self.close()
        self.app._go("lobby")
        self.app.lobby.render()
