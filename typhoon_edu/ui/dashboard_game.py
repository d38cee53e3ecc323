"""The dashboard's game screen: board, compass ring, HP track, banner, actions, private hand, log.

The screen draws what :mod:`typhoon_edu.ui.dashboard_model` computes from the session; every
decision goes back to :class:`~typhoon_edu.ui.dashboard.ClassPlayApp` (``app.decide(action)``),
which applies it, animates it and lets the bots move.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..engine.actions import Action
from ..engine.game import CHANCE
from .board import BoardView
from .compass_ring import CompassRing
from .dashboard_model import (
    ActionGroup,
    action_groups,
    banner,
    d,
    hand_cards,
    log_lines,
    needs_privacy,
    seat_label,
    status_line,
)
from .dashboard_setup import speed_options
from .dashboard_widgets import Labels, button, choice, close_all, html
from .die import DieWidget
from .hp_track import HPTrack

if TYPE_CHECKING:
    from .dashboard import ClassPlayApp
    from .dashboard_session import ClassSession

_LOG_STYLE = {
    "TurnStarted": "font-weight:bold;border-top:1px solid #cbd5e1;padding-top:2px;margin-top:2px",
    "RoundStarted": "font-weight:bold;color:#1d4ed8",
    "DamageDealt": "color:#b91c1c",
    "Eliminated": "color:#b91c1c;font-weight:bold",
    "GameOver": "color:#15803d;font-weight:bold",
    "CounterWindow": "color:#7c2d12;font-weight:bold",
    "CardPlayed": "color:#6d28d9",
    "AbilityUsed": "color:#6d28d9",
}


class GameScreen:
    """The board and everything around it for one session (rebuilt by :meth:`bind` for the next game)."""

    def __init__(self, app: ClassPlayApp) -> None:
        self.app = app
        labels: Labels = app.labels
        lang = app.lang
        self.status = html("typhoon-status")
        self.banner = html("typhoon-banner")
        self.board = BoardView(lang=lang, cell=48, controls=False)
        self.board.add_class("typhoon-board")
        self.board.on_cell_click(self._on_cell)
        self.ring = CompassRing(lang=lang, size=200)
        self.ring.add_class("typhoon-compass")
        self.hp = HPTrack(lang=lang)
        self.hp.add_class("typhoon-hp")
        self.speed = choice(labels, widgets.ToggleButtons, speed_options, app.speed)
        self.speed.add_class("typhoon-game-speed")
        self.speed.style.button_width = "auto"
        self.speed.observe(lambda c: self.app.set_speed(float(c["new"])), "value")
        self.skip = labels.bind(button("typhoon-skip", icon="forward"), "description", lambda lang: d("game.skip", lang))
        self.skip.on_click(lambda _b: self.app.skip_animation())
        self.leave = labels.bind(button("typhoon-leave", icon="sign-out"), "description", lambda lang: d("game.leave", lang))
        self.leave.on_click(lambda _b: self.app.leave_game())

        self.actions_title = labels.bind(html(), "value", lambda lang: f"<h3 style='margin:.2em 0'>{escape(d('game.actions', lang))}</h3>")
        self.actions = widgets.VBox()
        self.actions.add_class("typhoon-actions")
        self._action_widgets: list[widgets.Widget] = []
        self.hand_text = html("typhoon-hand-text")
        self.show_hand = labels.bind(button("typhoon-show-hand", "warning", "eye"), "description",
                                     lambda lang: d("game.show_hand", lang))
        self.show_hand.add_class("typhoon-big-button")
        self.show_hand.on_click(lambda _b: self.app.reveal_hand())
        self.hide_hand = labels.bind(button("typhoon-hide-hand", icon="eye-slash"), "description",
                                     lambda lang: d("game.hide_hand", lang))
        self.hide_hand.on_click(lambda _b: self.app.hide_hand())
        self.hand = widgets.VBox([self.hand_text, widgets.HBox([self.show_hand, self.hide_hand])])
        self.hand.add_class("typhoon-hand")
        self.die = DieWidget(lang=lang, allow_roll=False)
        self.die.add_class("typhoon-die")
        self.die.entry.add_class("typhoon-die-entry")
        self.die.enter_button.add_class("typhoon-die-enter")
        self.die.on_face(self.app.enter_die)
        self.undo = button("typhoon-undo", icon="undo")
        self.undo.on_click(lambda _b: self.app.undo())
        self.message = html("typhoon-message")
        self.log_title = labels.bind(html(), "value", lambda lang: f"<h3 style='margin:.2em 0'>{escape(d('game.log', lang))}</h3>")
        self.log = html("typhoon-log")

        controls = widgets.HBox([self.speed, self.skip, self.leave],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        under_board = widgets.HBox([widgets.VBox([self.hp], layout=widgets.Layout(flex="1 1 20em")),
                                    widgets.VBox([self.ring], layout=widgets.Layout(flex="0 1 22em"))],
                                   layout=widgets.Layout(flex_flow="row wrap"))
        left = widgets.VBox([self.board, controls, under_board], layout=widgets.Layout(flex="3 1 36em", min_width="30em"))
        right = widgets.VBox([self.actions_title, self.message, self.actions, self.die, self.hand, self.undo,
                              self.log_title, self.log], layout=widgets.Layout(flex="2 1 24em", min_width="22em"))
        right.add_class("typhoon-side")
        main = widgets.HBox([left, right], layout=widgets.Layout(flex_flow="row wrap", width="100%"))
        self.box = widgets.VBox([self.status, self.banner, main], layout=widgets.Layout(width="100%"))
        self.box.add_class("typhoon-game")
        self.revealed: str | None = None  # whose hand is shown now (hot-seat privacy)
        self._revealed_phase = ""
        self.pending_card: str | None = None  # a card waiting for a map click (its target is a cell)
        self.busy = False
        self._last_key: tuple[Any, ...] | None = None
        self._actions_shape: tuple[Any, ...] | None = None
        self._group_parts: list[tuple[widgets.HTML, list[Any]]] = []

    # --- binding and language ----------------------------------------------------------------

    @property
    def session(self) -> ClassSession:
        assert self.app.session is not None
        return self.app.session

    def bind(self, session: ClassSession) -> None:
        """Show ``session``'s game from scratch (new game, resume, undo)."""
        game = session.game
        self.hp.regions = list(game.players)
        self.revealed = None
        self.pending_card = None
        self.sync_board()
        self._last_key = None
        self._actions_shape = None
        self.render()

    def sync_board(self) -> None:
        """Board, ring and HP exactly as the game is now (no animation)."""
        game = self.session.game
        self.board.skip()
        self.board.update(game)
        if self.ring.player is not None:
            self.ring.player.skip()
        if self.ring.stop != game.compass or self.ring.shown_stop != game.compass:
            self.ring.set_stop(game.compass)
        self.hp.update(game.hp)

    def set_lang(self, lang: str) -> None:
        """Every label of the screen in ``lang`` (bound labels switch through the app's Labels)."""
        self.board.set_lang(lang)
        self.board.status.value = ""  # the last narrated sentence or clicked cell, in the old language
        self.ring.set_lang(lang)
        self.hp.set_lang(lang)
        self.die.set_lang(lang)
        self.message.value = ""
        self._last_key = None
        self.render()

    # --- drawing the decision ------------------------------------------------------------------

    def render(self, force: bool = False) -> None:
        """Banner, actions, hand, die, undo and log for the pending decision."""
        s = self.session
        game = s.game
        lang = self.app.lang
        who = game.current_player
        if self.revealed is not None and (who != self.revealed or game.phase != self._revealed_phase):
            self.revealed = None  # another decision: the hand hides again
        key = (s.decisions, lang, self.revealed, self.pending_card, self.busy, game.is_over)
        if key == self._last_key and not force:
            return
        self._last_key = key
        self.status.value = f"<div style='font-size:1.1em;color:#334155'>{escape(status_line(s, lang))}</div>"
        b = banner(s, lang)
        colour = "#fde68a" if b.person else "#e2e8f0"
        edge = "#d97706" if b.person else "#64748b"
        css = "typhoon-banner-person" if b.person else "typhoon-banner-bot"
        state = (f"data-decisions='{s.decisions}' data-phase='{game.phase}' data-who='{who or ''}' "
                 f"data-busy='{int(self.busy)}' data-person='{int(b.person)}'")
        self.banner.value = (f"<div class='{css} typhoon-state' {state} style='background:{colour};border-left:10px solid {edge};border-radius:6px;"
                             f"padding:.35em .8em;margin:.2em 0'><div style='font-size:1.55em;font-weight:bold;line-height:1.3'>"
                             f"{escape(b.headline)}</div><div style='font-size:1.05em'>{escape(b.detail)}</div></div>")
        self._render_actions()
        self._render_hand()
        person_die = who == CHANCE and not game.is_over
        self.die.layout.display = "flex" if person_die else "none"
        can_undo = not self.busy and s.can_undo()
        self.undo.layout.display = "flex" if can_undo else "none"
        if can_undo:
            last = s._decider_of_last()
            self.undo.description = d("game.undo", lang, player=seat_label(s, last, lang) if last else "")
        self.log.value = "".join(f"<div style='{_LOG_STYLE.get(kind, '')}'>{escape(text)}</div>"
                                 for kind, text in log_lines(s, lang))
        self._highlight()

    def _highlight(self) -> None:
        game = self.session.game
        cells: list[tuple[int, int]] = []
        if not self.busy and self.app.person_decides():
            for a in game.legal_actions():
                if a.cell is not None and (a.kind == "place" or (a.kind == "play" and a.card == self.pending_card)):
                    cells.append(a.cell)
        if tuple(cells) != self.board.state.highlights:
            self.board.highlight(cells)

    def _render_actions(self) -> None:
        lang = self.app.lang
        s = self.session
        shape = (s.decisions, self.revealed, self.pending_card, self.busy, s.game.is_over)
        if shape == self._actions_shape and self._relabel_actions():
            return  # same decision, new language: relabel the buttons in place (a click on them still counts)
        self._actions_shape = shape
        close_all(self._action_widgets)
        self._action_widgets = []
        self._group_parts = []
        rows: list[widgets.Widget] = []
        if self.busy:
            rows.append(html(value=f"<i style='font-size:1.1em'>{escape(d('game.busy', lang))}</i>"))
        elif s.game.is_over:
            rows.append(html(value=f"<b>{escape(d('game.over', lang))}</b>"))
        elif not self.app.person_decides():
            who = s.game.current_player
            rows.append(html(value=f"<i style='font-size:1.1em'>{escape(d('game.bot_thinking', lang, player=seat_label(s, who, lang)))}</i>"
                             if who not in (None, CHANCE) else ""))
        else:
            hidden = needs_privacy(s) and self.revealed != s.game.current_player
            for group in action_groups(s, lang):
                if group.needs_hand and hidden:
                    continue
                rows.append(self._group_widget(group))
        self._action_widgets = rows
        self.actions.children = rows

    def _group_head(self, group: ActionGroup) -> str:
        head = f"<div style='font-size:1.15em;font-weight:bold'>{escape(group.title)}</div>"
        text = f"<div style='color:#334155'>{escape(group.text)}</div>" if group.text else ""
        return head + text

    def _pick_text(self, group: ActionGroup) -> tuple[bool, str]:
        """Whether the group waits for a map click now, and the text of its hint or button."""
        lang = self.app.lang
        if group.key == "place" or self.pending_card == group.key.removeprefix("card:"):
            return True, f"<b style='color:#15803d'>→ {escape(d('game.click_map', lang))}</b>"
        return False, d("game.pick_cell", lang)

    def _relabel_actions(self) -> bool:
        """Put the current language's texts on the shown action widgets; False if they do not match."""
        s = self.session
        if self.busy or s.game.is_over or not self.app.person_decides():
            return False
        hidden = needs_privacy(s) and self.revealed != s.game.current_player
        groups = [g for g in action_groups(s, self.app.lang) if not (g.needs_hand and hidden)]
        if len(groups) != len(self._group_parts):
            return False
        for group, (head, items) in zip(groups, self._group_parts, strict=True):
            head.value = self._group_head(group)
            if group.map_pick:
                waiting, text = self._pick_text(group)
                if isinstance(items[0], widgets.HTML):
                    items[0].value = text
                else:
                    items[0].description = text
            else:
                for b, choice in zip(items, group.choices, strict=False):
                    b.description = choice.label
        return True

    def _group_widget(self, group: ActionGroup) -> widgets.Widget:
        head = html(value=self._group_head(group))
        parts: list[widgets.Widget] = [head]
        items: list[Any] = []
        if group.map_pick:
            waiting, text = self._pick_text(group)
            if waiting:
                items.append(html(value=text))
            else:
                pick = button(["typhoon-act", f"typhoon-pick-{group.key.replace(':', '-')}"], "info", "map-marker")
                pick.description = text
                card_key = group.key.removeprefix("card:")
                pick.on_click(lambda _b, k=card_key: self.app.pick_card(k))
                items.append(pick)
            parts += items
        else:
            for choice in group.choices:
                b = button(["typhoon-act", choice.css], "primary" if group.key != "pass" else "")
                b.description = choice.label
                b.on_click(lambda _b, a=choice.action: self.app.decide(a))
                items.append(b)
            parts.append(widgets.HBox(items, layout=widgets.Layout(flex_flow="row wrap")))
        self._group_parts.append((head, items))
        box = widgets.VBox(parts)
        box.add_class("typhoon-group")
        box.add_class(f"typhoon-group-{group.key.replace(':', '-')}")
        return box

    def _render_hand(self) -> None:
        s = self.session
        lang = self.app.lang
        game = s.game
        who = game.current_player
        if self.busy or not needs_privacy(s) or who is None:
            self.hand.layout.display = "none"
            return
        self.hand.layout.display = "flex"
        label = seat_label(s, who, lang)
        if self.revealed != who:
            self.hand_text.value = (f"<div style='font-size:1.15em'>{escape(d('game.hand_hidden', lang, player=label, count=len(game.hand(who))))}</div>")
            self.show_hand.layout.display = "flex"
            self.hide_hand.layout.display = "none"
            return
        rows = []
        for c in hand_cards(s, who, lang):
            count = f" ×{c.count}" if c.count > 1 else ""
            mark = "" if c.playable else f" <span style='color:#64748b'>({escape(d('game.not_now', lang))})</span>"
            rows.append(f"<div style='margin:.15em 0;{'' if c.playable else 'opacity:.7'}'><b>{escape(c.name)}</b>{count}"
                        f" · <i>{escape(c.timing)}</i>{mark}<br><span style='color:#334155'>{escape(c.text)}</span></div>")
        self.hand_text.value = (f"<div class='typhoon-hand-cards'><b>{escape(d('game.hand_of', lang, player=label))}</b>"
                                + "".join(rows) + "</div>")
        self.show_hand.layout.display = "none"
        self.hide_hand.layout.display = "flex"

    def show_message(self, text: str, error: bool = True) -> None:
        """A one-line message above the actions (a wrong click, a refused die face)."""
        colour = "#b91c1c" if error else "#15803d"
        self.message.value = f"<div style='color:{colour};font-weight:bold;font-size:1.1em'>{escape(text)}</div>" if text else ""

    # --- map clicks ---------------------------------------------------------------------------

    def _on_cell(self, cell: tuple[int, int]) -> None:
        self.app.click_cell(cell)

    def cell_action(self, cell: tuple[int, int]) -> Action | None:
        """The legal action a click on ``cell`` means now (placing a storm, or the chosen card's cell)."""
        for a in self.session.game.legal_actions():
            if a.cell != tuple(cell):
                continue
            if a.kind == "place" or (a.kind == "play" and a.card == self.pending_card):
                return a
        return None


__all__ = ["GameScreen"]
