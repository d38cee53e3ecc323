"""The decision panel: one seat's hand and the buttons for its pending decision.

It draws a :class:`~typhoon_edu.ui.classplay.table.Table` (a seat's own view, or the projector's
public one) and reports what the person chose through ``on_action(action)``; a card whose target
is a cell is chosen first (``pending_card``) and then played by a tap on a highlighted map cell, or on that
cell's button (every cell the map offers is also a button, laid out by generation zone as on the map).
Every button goes through the view's :class:`~typhoon_edu.ui.guard.Problems`, so a failure is
told to the person.

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
from .viewdata import ActionGroup, d


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
        self.table: Table | None = None
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
        self.table = table
        shape = (table.seq, table.current_player, table.phase, lang, busy, self.pending_card, note, tuple(table.legal),
                 table.hand_cards)
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
    def _button(self, css: list[str], style: str, label: str, fn: Callable[[], Any]) -> widgets.Button:
        b = legible(widgets.Button(description=label, button_style=style, layout=widgets.Layout(width="auto", height="auto")))
        for c in css:
            b.add_class(c)
        self.problems.on_click(b, lambda _b: fn(), where=f"button {label!r}")
        self._buttons.append(b)
        return b

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
        self._shape = None
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
