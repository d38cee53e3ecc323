"""The decision panel: one seat's hand and the buttons for its pending decision.

It draws a :class:`~typhoon_edu.ui.classplay.table.Table` (a seat's own view, or the projector's
public one) and reports what the person chose through ``on_action(action)``; a card whose target
is a cell is chosen first (``pending_card``) and then played by a tap on a highlighted map cell, or on that
cell's button (every cell the map offers is also a button, laid out by generation zone as on the map).
Every button goes through the view's :class:`~typhoon_edu.ui.guard.Problems`, so a failure is
told to the person. A button belongs to the decision it was drawn for: a press that reaches the kernel
after the table moved on (a second tap, a message late on a busy server) is ignored, never played on the
decision that came after it. A long choice of a storm and a new direction (Steering Flow: 30 buttons) is made
in two steps, the storm first (:data:`STORM_FIRST`).

>>> from typhoon_edu import Game
>>> from typhoon_edu.ui.guard import Problems
>>> from typhoon_edu.ui.classplay.model import SeatInfo
>>> from typhoon_edu.ui.classplay.table import Table
>>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
>>> seats = {p: SeatInfo(p, "person") for p in g.players}
>>> chosen = []
>>> panel = DecisionPanel(Problems(lambda: "en"), on_action=chosen.append)
>>> panel.render(Table.for_seat(g, "Korea"), seats, "en")  # not Korea's decision: nothing to press
>>> panel.buttons()
[]
>>> panel.render(Table.for_seat(g, "Taiwan"), seats, "en")
>>> panel.cell_action((8, 8)).notation
'place 8,8'
>>> old = panel.buttons()[0]
>>> _ = g.apply(panel.cell_action((8, 8)))
>>> panel.render(Table.for_seat(g, "Taiwan", seq=1), seats, "en")
>>> old.click(); chosen   # a button of the decision before: ignored
[]
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets

from ... import i18n
from ...engine.actions import Action
from ..buttons import legible
from ..guard import Problems
from .model import Seats, action_groups, hand_cards
from .table import Table
from .viewdata import ActionGroup, Choice, d

#: A choice of a storm and its new direction with more buttons than this is made in two steps: the storm, then
#: its direction (Steering Flow offered 30 buttons, and the phone's map started ~2,960 px down the page).
STORM_FIRST = 8


def _close_tree(widget: widgets.Widget) -> None:
    """Close ``widget``, its own layout and style, and every widget inside it (``Widget.close`` closes that one
    alone; closing twice does nothing). Only for widgets made here: their layouts and styles are never shared."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    for part in (getattr(widget, "layout", None), getattr(widget, "style", None)):
        if isinstance(part, widgets.Widget):
            part.close()
    widget.close()


class DecisionPanel(widgets.VBox):
    """The hand (when the table has one) and the pending decision's buttons."""

    def __init__(self, problems: Problems, on_action: Callable[[Action], Any],
                 on_pick: Callable[[str | None], Any] | None = None, show_hand: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("typhoon-decisions")
        self.problems = problems
        self.on_action = on_action
        self.on_pick = on_pick
        self.show_hand = show_hand
        self.pending_card: str | None = None
        self.pending_storm: dict[str, int] = {}  # a group's chosen storm, when its directions come second
        self.table: Table | None = None
        self._drawn: tuple[Any, ...] = ()  # the last render's seats, language, busy and note (to draw again)
        self.hand_html = widgets.HTML()
        self.hand_html.add_class("typhoon-hand")
        self.groups = widgets.VBox()
        self.groups.add_class("typhoon-actions")
        self.children = [self.groups, self.hand_html]
        self._shape: tuple[Any, ...] | None = None
        self._buttons: list[widgets.Button] = []

    # ------------------------------------------------------------------ drawing
    def render(self, table: Table, seats: Seats, lang: str, *, busy: bool = False, note: str = "") -> None:
        """Show ``table``'s decision (nothing while ``busy``: the storms are still moving)."""
        if self.table is None or table.seq != self.table.seq or table.current_player != self.table.current_player:
            if self.pending_card is not None and not any(a.card == self.pending_card for a in table.legal):
                self.pending_card = None
            self.pending_storm = {}
        self.table = table
        self._drawn = (seats, lang, busy, note)
        shape = (table.seq, table.current_player, table.phase, lang, busy, self.pending_card, note, tuple(table.legal),
                 table.hand_cards, self.show_hand, tuple(sorted(self.pending_storm.items())))
        if shape == self._shape:
            return
        self._shape = shape
        self._buttons = []  # the old ones are closed with their rows, below
        rows: list[widgets.Widget] = []
        if note:
            rows.append(widgets.HTML(f"<div class='typhoon-wait'><i>{escape(note)}</i></div>"))
        if not busy:
            for group in action_groups(table, seats, lang):
                rows.append(self._group_widget(group, lang))
        old, self.groups.children = self.groups.children, tuple(rows)
        for w in old:  # the last decision's boxes, texts and gaps: closed, not left in the kernel and the page
            _close_tree(w)
        self.hand_html.value = self._hand_html(table, lang) if self.show_hand else ""

    def buttons(self) -> list[widgets.Button]:
        """The buttons shown now (for tests)."""
        return list(self._buttons)

    def cell_action(self, cell: tuple[int, int]) -> Action | None:
        """The legal action a tap on ``cell`` means now: placing a storm, or the chosen card's cell."""
        if self.table is None:
            return None
        for a in self.table.legal:
            if a.cell == tuple(cell) and (a.kind == "place" or (a.kind == "play" and a.card == self.pending_card)):
                return a
        return None

    def highlight_cells(self) -> list[tuple[int, int]]:
        """The cells a tap may choose now."""
        if self.table is None:
            return []
        return [a.cell for a in self.table.legal if a.cell is not None
                and (a.kind == "place" or (a.kind == "play" and a.card == self.pending_card))]

    # ------------------------------------------------------------------ parts
    def _moment(self) -> tuple[Any, ...]:
        """The decision shown now: a button is pressed for this one only."""
        t = self.table
        return () if t is None else (t.seq, t.current_player, t.phase)

    def _button(self, css: list[str], style: str, label: str, fn: Callable[[], Any]) -> widgets.Button:
        b = legible(widgets.Button(description=label, button_style=style, layout=widgets.Layout(width="auto", height="auto")))
        for c in css:
            b.add_class(c)
        drawn_for = self._moment()

        def press(_b: widgets.Button) -> None:
            if self._moment() != drawn_for:  # drawn for a decision that is over: a late or second tap
                return
            fn()

        self.problems.on_click(b, press, where=f"button {label!r}")
        self._buttons.append(b)
        return b

    def _redraw(self) -> None:
        """Draw the same decision again (a step of it was chosen: a storm, a card for the map)."""
        self._shape = None
        if self.table is not None and self._drawn:
            seats, lang, busy, note = self._drawn
            self.render(self.table, seats, lang, busy=busy, note=note)

    def _storm_steps(self, group: ActionGroup, lang: str) -> list[widgets.Widget] | None:
        """A long choice of a storm and a new direction, in two steps: the storms, then the chosen one's directions
        (None: the group is short, or not such a choice)."""
        choices = group.choices
        if len(choices) <= STORM_FIRST or not all(c.action.typhoon is not None and c.action.direction is not None
                                                    for c in choices):
            return None
        storms = list(dict.fromkeys(c.action.typhoon for c in choices))
        chosen = self.pending_storm.get(group.key)
        slug = group.key.replace(":", "-")
        if chosen not in storms:
            note = widgets.HTML(f"<div class='typhoon-group-text'>{escape(i18n.t('classplay.storm_first', lang))}</div>")
            row = [self._button(["typhoon-act", "typhoon-storm-pick", f"typhoon-storm-pick-{tid}"], "info",
                                self._storm_label(tid, lang), lambda k=group.key, t=tid: self._pick_storm(k, t))
                   for tid in storms]
            return [note, widgets.HBox(row, layout=widgets.Layout(flex_flow="row wrap"))]
        picked: list[Choice] = [c for c in choices if c.action.typhoon == chosen]
        row = [self._button(["typhoon-act", c.css], "primary", c.label, lambda a=c.action: self.on_action(a))
               for c in picked]
        row.append(self._button(["typhoon-act", "typhoon-storm-back", f"typhoon-storm-back-{slug}"], "",
                                i18n.t("classplay.other_storm", lang), lambda k=group.key: self._pick_storm(k, None)))
        return [widgets.HBox(row, layout=widgets.Layout(flex_flow="row wrap"))]

    def _storm_label(self, tid: int, lang: str) -> str:
        """``T2 (strong typhoon)``: the storm as the map names it, with its level."""
        from .model import target_label

        assert self.table is not None
        return target_label(Action("play", typhoon=tid), self.table, lang)

    def _pick_storm(self, key: str, tid: int | None) -> None:
        if tid is None:
            self.pending_storm.pop(key, None)
        else:
            self.pending_storm[key] = tid
        self._redraw()

    def _group_widget(self, group: ActionGroup, lang: str) -> widgets.Widget:
        head = f"<div class='typhoon-group-title'><b>{escape(group.title)}</b></div>"
        if group.text:
            head += f"<div class='typhoon-group-text'>{escape(group.text)}</div>"
        parts: list[widgets.Widget] = [widgets.HTML(head)]
        if group.map_pick:
            card = group.key.removeprefix("card:")
            if group.key == "place" or self.pending_card == card:
                parts.append(widgets.HTML(f"<b class='typhoon-tap-map'>→ {escape(d('game.click_map', lang))}</b>"))
                parts.extend(self._cell_rows(group, lang))
            else:
                parts.append(self._button(["typhoon-act", f"typhoon-pick-{group.key.replace(':', '-')}"], "info",
                                          d("game.pick_cell", lang), lambda k=card: self._pick(k)))
        elif (steps := self._storm_steps(group, lang)) is not None:
            parts.extend(steps)
        else:
            row = [self._button(["typhoon-act", c.css], "primary" if group.key != "pass" else "", c.label,
                                lambda a=c.action: self.on_action(a)) for c in group.choices]
            parts.append(widgets.HBox(row, layout=widgets.Layout(flex_flow="row wrap")))
        box = widgets.VBox(parts)
        box.add_class("typhoon-group")
        box.add_class(f"typhoon-group-{group.key.replace(':', '-')}")
        return box

    def _cell_rows(self, group: ActionGroup, lang: str) -> list[widgets.Widget]:
        """The map's choices again as buttons: a fingertip-sized target on a phone (a cell of the map is
        about 20 px wide there) and a short way for a keyboard. Each generation zone's buttons are laid
        out as its cells lie on the map (a cell that cannot be chosen leaves a gap), under its name."""
        assert self.table is not None
        zones = self.table.rules.map.zones
        zone_of = {cell: z.index for z in zones for cell in z.cells}
        picks: dict[int, dict[tuple[int, int], widgets.Button]] = {}
        for c in group.choices:
            if c.action.cell is None:  # not a cell's choice (a map-pick group holds none today)
                continue
            x, y = c.action.cell
            z = zone_of.get((x, y), len(zones))
            b = self._button(["typhoon-act", "typhoon-cell-pick", f"typhoon-cell-{x}-{y}"], "", c.label,
                             lambda a=c.action: self.on_action(a))
            # a screen reader hears the zone with the cell (the zone's name is a separate line on the screen)
            b.tooltip = f"{self._zone_name(z, len(zones), lang)} {c.label}".strip()
            picks.setdefault(z, {})[(x, y)] = b
        blocks: list[widgets.Widget] = []
        for z, buttons in sorted(picks.items()):
            cells = zones[z].cells if z < len(zones) else tuple(buttons)
            x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
            width = max(x for x, _ in cells) - x0 + 1
            slots: list[widgets.Widget] = []
            for y in range(y0, max(y for _, y in cells) + 1):
                slots += [buttons.get((x, y)) or widgets.HTML("") for x in range(x0, x0 + width)]
            grid = widgets.GridBox(slots, layout=widgets.Layout(grid_template_columns=f"repeat({width}, auto)",
                                                                grid_gap="4px"))
            name = self._zone_name(z, len(zones), lang)
            block = widgets.VBox([widgets.HTML(f"<span class='typhoon-cell-zone'>{escape(name)}</span>"), grid])
            block.add_class("typhoon-cell-block")
            blocks.append(block)
        return [widgets.HTML(f"<div class='typhoon-cell-or'>{escape(d('game.or_cell', lang))}</div>"),
                widgets.HBox(blocks, layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))]

    @staticmethod
    def _zone_name(z: int, zones: int, lang: str) -> str:
        """Zone ``z``'s short name ("Zone 2"), or nothing for the cells in no zone (index ``zones``)."""
        return i18n.t("board.zone_short", lang, n=z + 1) if z < zones else ""

    def _pick(self, card: str) -> None:
        self.pending_card = card
        self._redraw()  # the card's cells as buttons, now (not at the page's next update)
        if self.on_pick is not None:
            self.on_pick(card)

    def _hand_html(self, table: Table, lang: str) -> str:
        cards = hand_cards(table, lang)
        if table.you is None:
            return ""
        rules = table.rules
        limit = rules.regions[table.you].size
        if table.hand_hidden:  # the class can see this screen: the size of the hand, never its cards
            title = i18n.t("classplay.hand.title", lang, count=table.hand_sizes.get(table.you, 0), limit=limit)
            return f"<div class='typhoon-hand-title'><b>{escape(title)}</b></div>" \
                   f"<div><i>{escape(i18n.t('classplay.hand.hidden', lang))}</i></div>"
        title = i18n.t("classplay.hand.title", lang, count=len(table.hand_cards), limit=limit)
        if not cards:
            return f"<div class='typhoon-hand-title'><b>{escape(title)}</b></div>" \
                   f"<div><i>{escape(i18n.t('classplay.hand.empty', lang))}</i></div>"
        rows = []
        for c in cards:
            count = f" ×{c.count}" if c.count > 1 else ""
            cls = "typhoon-card" + ("" if c.playable else " typhoon-card-off")
            rows.append(f"<div class='{cls}' data-card='{escape(c.key)}'><b>{escape(c.name)}</b>{count} · "
                        f"<i>{escape(c.timing)}</i><br><span>{escape(c.text)}</span></div>")
        return f"<div class='typhoon-hand-title'><b>{escape(title)}</b></div>" + "".join(rows)
