"""What the class-play views say, as plain data from a :class:`~typhoon_edu.ui.classplay.table.Table`.

No widgets here, so every text is unit-tested: how a seat is named, the banner (who decides now
and what to do), the legal actions grouped for buttons, the cards of a hand, the status line.
The functions read only the table (the public state, plus one seat's own hand and decisions),
so what they return for a seat's phone can never mention another seat's cards.

>>> from typhoon_edu import Game
>>> from typhoon_edu.ui.classplay.table import Table
>>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
>>> seats = {"Taiwan": SeatInfo("Taiwan", "person", "Mei"), "Japan": SeatInfo("Japan", "greedy"),
...          "Korea": SeatInfo("Korea", "random")}
>>> banner(Table.public(g), seats, "en").headline
'Mei (Taiwan): place a tropical depression in a generation zone (one in each zone).'
>>> [grp.key for grp in action_groups(Table.for_seat(g, "Taiwan"), seats, "en")]
['place']
>>> seat_label(seats, "Japan", "zh-TW")
'日本（電腦，中等）'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from ... import i18n
from ...engine.actions import Action
from ...engine.game import CHANCE
from ...engine.rules import load_rules
from .table import HAND_PHASES, Table
from .viewdata import (
    ActionGroup,
    Banner,
    Choice,
    HandCard,
    card_text,
    d,
    timing_name,
)

#: Bot kinds by the level a teacher chooses (and back).
BOT_LEVEL = {"random": "easy", "greedy": "medium", "mcts": "hard"}


@dataclass(frozen=True)
class SeatInfo:
    """A seat as every view may know it: its region, person or bot kind, a name, and whether a device holds it."""

    region: str
    kind: str = "person"  # person, random, greedy, mcts
    name: str = ""
    device: bool = False  # a phone or tablet has joined this seat

    @property
    def is_person(self) -> bool:
        return self.kind == "person"


Seats = Mapping[str, SeatInfo]


def nobody_hurt(hp_track: list[dict[str, int]], hp: Mapping[str, int]) -> bool:
    """Whether no region has lost HP since the start (``hp_track[0]``): a game ended then has no leader, only the
    HP every region started with.

    >>> nobody_hurt([{"Taiwan": 42, "Japan": 41}], {"Taiwan": 42, "Japan": 41}), nobody_hurt([{"Taiwan": 42}], {"Taiwan": 39})
    (True, False)
    """
    start = hp_track[0] if hp_track else hp
    return not any(hp.get(r, 0) < start.get(r, 0) for r in hp)


def seat_label(seats: Seats, region: str, lang: str) -> str:
    """``Mei (Taiwan)`` for a named person, ``Japan (computer, easy)`` for a bot."""
    rules = load_rules()
    rname = i18n.region_name(rules, region, lang)
    seat = seats.get(region)
    if seat is None or seat.is_person:
        from ...classroom.names import clean_name

        name = clean_name(seat.name) if seat is not None else ""  # no bidi control may turn the label around
        return d("label.person", lang, name=name, region=rname) if name else rname
    return d("label.bot", lang, region=rname, level=d(f"bot.{BOT_LEVEL.get(seat.kind, 'easy')}", lang))


def short_seat_label(seats: Seats, region: str, lang: str) -> str:
    """:func:`seat_label` without a computer player's level: ``Mei (Taiwan)`` for a named person, ``Japan`` for a bot.

    >>> seats = {"Japan": SeatInfo("Japan", "greedy"), "Taiwan": SeatInfo("Taiwan", name="Mei")}
    >>> short_seat_label(seats, "Japan", "en"), seat_label(seats, "Japan", "en"), short_seat_label(seats, "Taiwan", "en")
    ('Japan', 'Japan (computer, medium)', 'Mei (Taiwan)')
    """
    seat = seats.get(region)
    if seat is not None and not seat.is_person:
        return i18n.region_name(load_rules(), region, lang)
    return seat_label(seats, region, lang)


def is_person(seats: Seats, region: str | None) -> bool:
    seat = seats.get(region or "")
    return seat is not None and seat.is_person


def banner(table: Table, seats: Seats, lang: str, *, devices: bool = False, viewer: str | None = None) -> Banner:
    """Who decides now and what to do.

    ``devices``: person seats decide on their own phones (the projector's words); ``viewer``: the
    banner of that seat's own page (what to do when it decides, whom it waits for otherwise).
    """
    if table.is_over:
        names = i18n.join_names((seat_label(seats, w, lang) for w in table.winners), lang)
        key = "banner.over_one" if len(table.winners) == 1 else "banner.over"
        return Banner(d(key, lang, winners=names), d("banner.over_detail", lang), None, False)
    who = table.current_player
    if who == CHANCE:
        label = seat_label(seats, table.active, lang)
        return Banner(i18n.t("prompt.die", lang, player=label), d("banner.die_detail", lang), CHANCE, True)
    if who is None:
        return Banner("", "", None, False)
    label = seat_label(seats, who, lang)
    if table.phase == "counter" and table.move_typhoon is not None:
        head = i18n.t("prompt.counter", lang, player=label, typhoon=i18n.typhoon_label(table.move_typhoon, lang))
    else:
        head = i18n.t(f"prompt.{table.phase}", lang, player=label)
    person = is_person(seats, who)
    if viewer is not None and who == viewer:
        key = "classplay.banner.own_hand" if table.phase in HAND_PHASES else "classplay.banner.own_map" \
            if table.phase in ("setup_place", "refill") else "classplay.banner.own_buttons"
        return Banner(head, i18n.t(key, lang), who, True)
    if viewer is not None:
        devices = True
    if not person:
        detail = d("banner.bot_detail", lang, player=label)
    elif devices:
        detail = i18n.t("classplay.banner.on_device", lang, player=label)
    elif table.phase in HAND_PHASES:
        detail = i18n.t("classplay.banner.curtain", lang, player=label)
    elif table.phase in ("setup_place", "refill"):
        detail = d("banner.click_detail", lang)
    else:
        detail = d("banner.person_detail", lang)
    return Banner(head, detail, who, person)


@dataclass(frozen=True)
class Situation:
    """What a screen is doing as it draws the banner (see :func:`screen_banner`).

    ``viewer``: the region whose phone this is (``None``: the projector); ``devices``: the projector of a class whose
    teams decide on their own phones; ``busy``: the last decision's storms still move on this screen (its cells,
    buttons and die box come after them); ``paused``: the teacher has paused the game. A phone's own:
    ``may_type_die``, it types the class's die now (:attr:`~typhoon_edu.classroom.rooms.SeatView.may_type_die`);
    ``lobby``, the teacher has not started the game; ``ended``, the teacher ended it early.

    A time-out of the teacher's turn timer is no field: the note by the count says it (the projector's timer line,
    the phone's countdown), and the banner is the next decision's, as after any move.
    """

    viewer: str | None = None
    devices: bool = False
    busy: bool = False
    paused: bool = False
    may_type_die: bool = False
    lobby: bool = False
    ended: bool = False

    def over(self, table: Table) -> bool:
        """The game is over or was ended: nothing is left to decide."""
        return self.ended or table.is_over

    def mine(self, table: Table) -> bool:
        """This phone's team decides now."""
        return (self.viewer is not None and table.current_player == self.viewer and not self.over(table)
                and not self.lobby)

    def knocked_out(self, table: Table) -> bool:
        """This phone's team has no HP left in a game that goes on: it plays no more."""
        return (self.viewer is not None and not self.over(table) and not self.mine(table)
                and table.hp.get(self.viewer, 1) <= 0)


def screen_banner(table: Table, seats: Seats, lang: str, at: Situation) -> Banner:
    """The banner a screen shows now: :func:`banner` with the screen's situation laid over it, for the projector and
    every phone in this one place.

    While the teacher has paused the game, the pause is the headline and what comes when it ends the detail. While
    the storms still move, the screen whose decision it is says it comes when they stop, not "choose" over buttons
    not yet shown; a phone says "Your turn!" only when it may act.

    >>> from typhoon_edu import Game
    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    >>> seats = {"Taiwan": SeatInfo("Taiwan", "person", "Mei"), "Japan": SeatInfo("Japan", "greedy"),
    ...          "Korea": SeatInfo("Korea", "random")}
    >>> screen_banner(Table.public(g), seats, "en", Situation(busy=True)).detail
    "Mei (Taiwan)'s turn comes as soon as the storms stop moving."
    >>> screen_banner(Table.for_seat(g, "Taiwan"), seats, "en", Situation(viewer="Taiwan", paused=True)).headline
    'The teacher has paused the game.'
    """
    b = banner(table, seats, lang, devices=at.devices, viewer=at.viewer)
    phone = at.viewer is not None
    who = table.current_player
    over = at.over(table)
    mine = at.mine(table)
    if at.ended:
        b = Banner(i18n.t("classplay.results.ended", lang), "", None, False)
    elif at.lobby:  # the teacher has not started the game: nothing to press yet
        b = Banner(i18n.t("classplay.seat.lobby_wait", lang), i18n.t("classplay.seat.lobby_detail", lang), None,
                   False)
    elif at.knocked_out(table):  # said plainly: this team plays no more
        region = i18n.region_name(table.rules, at.viewer or "", lang)
        b = Banner(i18n.t("classplay.seat.out", lang, region=region), i18n.t("classplay.seat.out_detail", lang),
                   b.who, False)
    elif at.paused and (phone or not over):  # not "your turn" while nobody may play; then what comes when it ends
        b = Banner(i18n.t("classplay.paused", lang), b.headline, b.who, False)
    elif at.busy and (at.may_type_die if phone else who == CHANCE and not over):
        # the class's typed die: its box waits for the storms, so not "type the number it shows" over no box (the
        # projector's box with phones too; on a phone, only the box of the team whose die it is)
        b = Banner(b.headline, i18n.t("classplay.banner.die_soon", lang), b.who, b.person)
    elif at.busy and mine:  # the last decision's storms still move, its buttons hidden: not "your turn" yet
        b = Banner(b.headline, i18n.t("classplay.seat.own_soon", lang), b.who, False)
    elif at.busy and not phone and not at.devices and is_person(seats, who) and not over:
        # one computer: its cells, buttons and curtain come after the storms (as a phone says it)
        b = Banner(b.headline, i18n.t("classplay.banner.soon", lang, player=seat_label(seats, who or "", lang)),
                   b.who, b.person)
    elif mine:
        said = i18n.tidy_spaces(i18n.t("classplay.seat.your_turn", lang) + " " + b.headline, lang)
        detail = i18n.t(f"classplay.banner.own_{table.phase}", lang) if table.phase in ("discard", "counter") \
            else b.detail  # a discard has no pass; a counter's "take the hit" is its button's word
        b = Banner(said, detail, b.who, True)
    if phone and over and at.viewer in table.players:  # the phone's ranking is right above: no "see the results"
        b = Banner(b.headline, "", b.who, False)
    return b


#: Phases in which a team other than the one whose turn it is may decide (the attack cards go round the table; a
#: counter card is played by the team whose region a storm reached): the header names both teams then.
OTHERS_DECIDE = ("attack", "counter")


def status_line(table: Table, seats: Seats, lang: str) -> str:
    """Round, whose turn, the variant and the draw pile, in one line. While another team decides in that turn (its
    attack cards, a counter card), who decides and what, in place of the variant and the pile (still one line at
    1920x1080): the banner names that team, and the header no longer seems to contradict it.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> from typhoon_edu.ui.classplay.table import Table
    >>> t = Table(load_rules(), ("Taiwan", "Japan"), "standard", 1, "Taiwan", "attack", "Japan", "N",
    ...           {}, {}, {}, 40, (), (), ())
    >>> status_line(t, {}, "en")
    "Round 1 of 3 · Taiwan's turn · attack phase: Japan deciding"
    >>> status_line(t, {}, "zh-TW")
    '第 1 / 3 輪 · 臺灣的回合 · 攻擊階段：輪到日本決定'
    """
    total = 1 if table.variant == "advanced" else 3
    turn = {"round": min(table.round, total), "rounds": total, "player": seat_label(seats, table.active, lang)}
    who = table.current_player
    if table.phase in OTHERS_DECIDE and who not in (None, CHANCE, table.active) and not table.is_over:
        # two teams in one line: a computer player by its region alone ("Korea", not "Korea (computer, medium)"),
        # so the line stays one line at 1920x1080 (the side column names the computer players' levels)
        short = {"player": short_seat_label(seats, table.active, lang),
                 "decider": short_seat_label(seats, who or "", lang)}
        return i18n.t(f"classplay.status.{table.phase}", lang, **{**turn, **short})
    return d("status", lang, variant=i18n.t(f"variant.{table.variant}", lang), deck=table.draw_pile_size, **turn)


def target_label(action: Action, table: Table, lang: str) -> str:
    """The short label of an action's target: ``T2 (moderate typhoon)``, ``T2 → NNW``, ``(8, 9)`` or "Play it"."""
    rules = table.rules
    if action.typhoon is not None and action.direction is not None:
        return d("target.typhoon_dir", lang, typhoon=i18n.typhoon_label(action.typhoon, lang),
                 direction=i18n.direction_name(rules, action.direction, lang), key=action.direction)
    if action.typhoon is not None:
        try:
            ty = table.typhoon(action.typhoon)
        except KeyError:
            return i18n.typhoon_label(action.typhoon, lang)
        return d("target.typhoon", lang, typhoon=i18n.typhoon_label(ty.id, lang),
                 level=i18n.level_name(rules, ty.level, lang))
    if action.cell is not None:
        return i18n.cell_label(action.cell, lang)
    if action.direction is not None:
        return d("target.direction", lang, direction=i18n.direction_name(rules, action.direction, lang),
                 key=action.direction)
    return d("target.none", lang)


def action_groups(table: Table, seats: Seats, lang: str) -> list[ActionGroup]:
    """The table's legal actions, grouped for buttons (empty when this view decides nothing now)."""
    from ...describe import describe_action

    who = table.current_player
    legal = table.legal_actions()
    if who is None or who == CHANCE or not legal or not is_person(seats, who):
        return []
    rules = table.rules
    game = table  # describe_action asks the table the same questions it would ask a game
    phase = table.phase
    if phase in ("setup_place", "refill"):
        return [ActionGroup("place", d("group.place", lang), d("group.place_text", lang),
                            tuple(Choice(a, i18n.cell_label(a.cell, lang)) for a in legal), map_pick=True)]
    if phase == "setup_aim":
        return [ActionGroup("aim", d("group.aim", lang), d("group.aim_text", lang),
                            tuple(Choice(a, i18n.typhoon_label(a.typhoon, lang)) for a in legal))]
    if phase == "move_choose":
        return [ActionGroup("move", d("group.move", lang), d("group.move_text", lang),
                            tuple(Choice(a, describe_action(a, game, lang)) for a in legal))]  # type: ignore[arg-type]
    if phase == "discard":
        limit = rules.regions[who].size
        return [ActionGroup("discard", d("group.discard", lang), d("group.discard_text", lang, limit=limit),
                            tuple(Choice(a, i18n.card_name(rules, a.card or "", lang)) for a in legal), needs_hand=True)]
    groups: list[ActionGroup] = []
    by_card: dict[str, list[Action]] = {}
    region_acts: list[Action] = []
    passes: list[Action] = []
    for a in legal:
        if a.kind == "play":
            by_card.setdefault(a.card or "", []).append(a)
        elif a.kind == "region":
            region_acts.append(a)
        else:
            passes.append(a)
    for key, acts in by_card.items():
        groups.append(ActionGroup(f"card:{key}", i18n.card_name(rules, key, lang), card_text(rules, key, who, lang),
                                  tuple(Choice(a, target_label(a, table, lang)) for a in acts),
                                  map_pick=all(a.cell is not None for a in acts), needs_hand=True))
    if region_acts:
        ability = rules.regions[who].ability
        groups.append(ActionGroup("region", d("group.region", lang, ability=i18n.ability_name(rules, ability.key, lang)),
                                  card_text(rules, ability.key, who, lang),
                                  tuple(Choice(a, target_label(a, table, lang)) for a in region_acts),
                                  map_pick=all(a.cell is not None for a in region_acts), needs_hand=True))
    if passes:
        groups.append(ActionGroup("pass", d("group.pass", lang), "",
                                  tuple(Choice(a, describe_action(a, game, lang)) for a in passes)))  # type: ignore[arg-type]
    return groups


def hand_cards(table: Table, lang: str) -> list[HandCard]:
    """The cards of the table's own hand (a seat's phone, or the curtain on one computer)."""
    if table.you is None:
        return []
    rules = table.rules
    playable = {a.card for a in table.legal if a.kind == "play"}
    counts = Counter(table.hand_cards)
    return [HandCard(k, n, i18n.card_name(rules, k, lang), timing_name(rules, k, lang),
                     card_text(rules, k, table.you, lang), k in playable) for k, n in sorted(counts.items())]


def private_decision(table: Table, seats: Seats) -> bool:
    """Whether the pending decision is a person's choice with their own hand (attack, counter, discard).

    Even a choice with nothing to play is private: a "pass" alone would tell the class that the hand
    holds no counter card.
    """
    return is_person(seats, table.current_player) and table.phase in HAND_PHASES
