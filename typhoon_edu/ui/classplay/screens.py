"""The widgets of the class-play pages, laid out but not wired: projector game screen, seat screen.

The controllers (:mod:`.projector`, :mod:`.seat`) fill them from a
:class:`~typhoon_edu.ui.classplay.table.Table` and react to their buttons. The layout is in
:mod:`.theme`; every box that tests measure has a ``typhoon-…`` class.
"""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ... import i18n
from ..board import NARROW_BOARD_PX, BoardView, phone_text
from ..canvas_input import make_accessible
from ..compass_ring import LEGIBLE_PX, CompassRing
from ..geometry import BoardGeometry
from ..map_text import html_text
from .bigdie import BigDie
from .hppanel import hp_panel_html
from .model import Seats, status_line
from .pacer import Stage
from .table import Table
from .theme import PROJECTOR_CELL
from .viewdata import Banner

if TYPE_CHECKING:
    from ...engine.rules import Rules
    from ..guard import Problems

LANG_OPTIONS = (("中文", "zh-TW"), ("English", "en"))
#: The projector's compass ring: stop names 1.45× the lessons' size, in a box 2.05× as wide as high.
RING_LABEL_SCALE = 1.45
RING_RATIO = 2.05
#: The smallest text of the projector's map read from the back row, CSS px (the page's own texts are 24 px at
#: 1920x1080, tests/browser/test_classroom_backrow.py; a map's names may be a little smaller than a sentence).
BACKROW_MAP_PX = 18.0


def projector_text(cell: int, rules: Rules, shown_px: float = NARROW_BOARD_PX) -> float:
    """The smallest text of the projector's wide drawing, canvas px: :data:`BACKROW_MAP_PX` CSS px where the map is
    shown ``shown_px`` wide (the narrowest map that gets the wide drawing; wider maps show it larger).

    >>> from typhoon_edu.engine.rules import load_rules
    >>> projector_text(56, load_rules())  # 18 CSS px at 720 px, 19.4 at 1366x768's 770 px, 29 at 1920x1080's 1152
    24.0
    """
    width = BoardGeometry.for_rules(rules, cell).pixel_size[0]
    return float(math.ceil(BACKROW_MAP_PX * width / shown_px))


def html(css: str = "", value: str = "") -> widgets.HTML:
    w = widgets.HTML(value=value)
    if css:
        w.add_class(css)
    return w


def banner_html(b: Banner, state: dict[str, Any]) -> str:
    """The banner, with the page's state in ``data-`` attributes (the browser tests read them)."""
    attrs = " ".join(f"data-{k}='{escape(str(v))}'" for k, v in state.items())
    cls = "typhoon-banner typhoon-state " + ("typhoon-banner-person" if b.person else "typhoon-banner-bot")
    return (f"<div class='{cls}' {attrs}><div class='typhoon-banner-head'>{escape(b.headline)}</div>"
            f"<div class='typhoon-banner-detail'>{escape(b.detail)}</div></div>")


class LogBox(widgets.VBox):
    """The narrated log with a button that folds it away (the projector keeps the board in view).

    ``problems`` reports a failure of the fold button to the person (a guarded callback).
    """

    def __init__(self, problems: Problems, **kwargs: Any) -> None:
        self.toggle = widgets.ToggleButton(value=True, icon="list", tooltip="", layout=widgets.Layout(width="auto"))
        self.toggle.add_class("typhoon-log-toggle")
        self.body = html("typhoon-log")
        super().__init__([self.toggle, self.body], **kwargs)
        self.add_class("typhoon-log-box")
        problems.observe(self.toggle, lambda c: self._fold(bool(c["new"])), where="log fold")

    def _fold(self, shown: bool) -> None:
        self.body.layout.display = None if shown else "none"

    def relabel(self, lang: str) -> None:
        self.toggle.description = i18n.t("dash.game.log", lang)


class ProjectorGameScreen:
    """Header, banner, board and side column (HP, compass ring, big die, now-line, decisions, log)."""

    def __init__(self, rules: Rules, lang: str, decisions: widgets.Widget, problems: Problems,
                 extra_side: list[widgets.Widget] | None = None) -> None:
        self.rules = rules
        self.title = html("typhoon-title")
        self.code = html("typhoon-room-code")
        self.status = html("typhoon-status")
        self.lang_toggle = widgets.ToggleButtons(options=list(LANG_OPTIONS), value=lang)
        self.lang_toggle.style.button_width = "auto"
        self.lang_toggle.add_class("typhoon-lang")
        self.teacher_button = widgets.ToggleButton(icon="cog", tooltip="", layout=widgets.Layout(width="auto"))
        self.teacher_button.add_class("typhoon-teacher-button")
        left_head = widgets.HBox([self.title, self.code, self.status], layout=widgets.Layout(align_items="center",
                                                                                            overflow="hidden"))
        self.header = widgets.HBox([left_head, widgets.HBox([self.lang_toggle, self.teacher_button])])
        self.header.add_class("typhoon-header")
        self.banner = html("typhoon-banner-box")
        # where the page shows the map narrower than NARROW_BOARD_PX (lesson 04 on a phone or beside the file browser
        # of a laptop, this page in a phone's window), its phone drawing: every text 11 CSS px on a 360 px map (an
        # older projector's 635 px map at 1024x768: 20 CSS px); a projector's map (770 px at 1366x768, 1152 px at
        # 1920x1080) the back row's drawing: every text 19.4 and 29 CSS px (the usual drawing's level names were 9 and
        # 13.6 CSS px)
        self.board = BoardView(rules=rules, lang=lang, cell=PROJECTOR_CELL, controls=False,
                               phone_text=phone_text(PROJECTOR_CELL, rules), narrow_px=NARROW_BOARD_PX,
                               wide_text=projector_text(PROJECTOR_CELL, rules))
        self.board.add_class("typhoon-board")
        self.speed = widgets.ToggleButtons(style={"button_width": "auto"})
        self.speed.add_class("typhoon-game-speed")
        self.skip = widgets.Button(icon="forward", layout=widgets.Layout(width="auto"))
        self.skip.add_class("typhoon-skip")
        controls = widgets.HBox([self.speed, self.skip], layout=widgets.Layout(align_items="center"))
        controls.add_class("typhoon-board-controls")
        board_col = widgets.VBox([self.board, controls])
        board_col.add_class("typhoon-board-col")
        self.hp = html("typhoon-hp-panel")
        # big stop names for the back row, in a wider box so "north-northwest" still fits beside the ring; where the
        # ring is drawn small (this page on a phone) the page shows it without the names, which would be unreadable
        self.ring = CompassRing(rules=rules, lang=lang, size=260, label_scale=RING_LABEL_SCALE, ratio=RING_RATIO,
                                min_text_px=LEGIBLE_PX)
        self.ring.add_class("typhoon-compass")
        # the ring in words (its label's text, kept in step) for a screen reader, and not a tab stop of its own
        self.ring_access = make_accessible(self.ring.canvas, html_text(self.ring.label.value),
                                           i18n.t("compass.title", lang))
        problems.observe(self.ring.label, lambda c: setattr(self.ring_access, "label", html_text(c["new"])),
                         names="value", where="compass ring's words")
        self.die = BigDie(lang=lang, size=110)
        instruments = widgets.HBox([self.ring, self.ring_access, self.die])
        instruments.add_class("typhoon-instruments")
        self.now = html("typhoon-now")
        self.log = LogBox(problems)
        side = widgets.VBox([self.hp, instruments, self.now, problems.widget, decisions, *(extra_side or []), self.log])
        side.add_class("typhoon-side")
        self.stage_box = widgets.HBox([board_col, side])
        self.stage_box.add_class("typhoon-stage")
        self.box = widgets.VBox([self.header, self.banner, self.stage_box], layout=widgets.Layout(width="100%",
                                                                                                   height="100%"))
        self.box.add_class("typhoon-projector-game")
        self.stage = Stage(lang=lang, rules=rules, board=self.board, ring=self.ring, die=self.die, now=self.now,
                           log=self.log.body)
        self.seats: Seats = {}
        self.table: Table | None = None
        self.stage.hp = self._hp_changed

    def _hp_changed(self, hp: dict[str, int]) -> None:
        if self.table is not None:
            self.hp.value = hp_panel_html(self.rules, {**self.table.hp, **hp}, self.seats, self.stage.lang,
                                          self.table.active)

    def show_table(self, table: Table, seats: Seats, lang: str, *, exact: bool) -> None:
        """Header, HP and status for ``table``; ``exact`` also puts board and ring exactly where the game is."""
        self.table, self.seats, self.stage.lang = table, seats, lang
        line = escape(status_line(table, seats, lang))
        self.status.value = f"<span title='{line}'>{line}</span>"  # wraps on a small screen (theme.py)
        self.stage.hp_now = dict(table.hp)
        self.hp.value = hp_panel_html(self.rules, table.hp, seats, lang, table.active)
        if exact:
            from .pacer import board_state_of

            self.board.skip()
            self.board.show(board_state_of(table.typhoons))
            if self.ring.player is not None:
                self.ring.player.skip()
            if self.ring.stop != table.compass or self.ring.shown_stop != table.compass:
                self.ring.set_stop(table.compass)

    def set_lang(self, lang: str) -> None:
        self.stage.lang = lang
        self.board.set_lang(lang)
        self.ring.set_lang(lang)
        self.ring_access.roledescription = i18n.t("compass.title", lang)
        self.die.set_lang(lang)
        self.log.relabel(lang)
        self.title.value = f"<span>{escape(i18n.t('dash.app.title', lang))}</span>"
