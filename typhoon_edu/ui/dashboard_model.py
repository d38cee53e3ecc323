"""What the class-play dashboard shows, as plain data: no widgets, so all of it is unit-tested.

The widget classes in :mod:`typhoon_edu.ui.dashboard` only lay out what these functions return:
the setup choices turned into seats, the banner (who decides now and what to do), the legal
actions grouped for buttons, the cards of a hand with their effect text, the narrated log and
the results summary.

>>> import tempfile
>>> from typhoon_edu.ui.dashboard_session import ClassSession, Seat
>>> s = ClassSession.start([Seat("Taiwan", "person", "Mei"), Seat("Japan", "greedy"), Seat("Korea", "random")],
...                        seed=2, save_dir=tempfile.mkdtemp())
>>> banner(s, "en").headline
'Mei (Taiwan): place a tropical depression in a generation zone (one in each zone).'
>>> [g.key for g in action_groups(s, "en")]
['place']
"""

from __future__ import annotations

import base64
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..engine.actions import Action
from ..engine.game import CHANCE

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.rules import Rules
    from .dashboard_session import ClassSession

#: Seat kinds offered on the setup screen; bots by difficulty (see LEVEL_OF_BOT).
SEAT_CHOICES = ("person", "easy", "medium", "hard")
#: Animation speeds offered on the setup screen (0 = no animation).
SPEEDS = (0.5, 1.0, 2.0, 4.0, 0.0)
#: Phases in which a person decides with the cards of their hand (hot-seat privacy applies).
HAND_PHASES = frozenset({"attack", "counter", "discard"})


def d(key: str, lang: str, /, **fmt: Any) -> str:
    """A dashboard string (``[dash]`` table of the catalogs).

    >>> d("setup.start", "en"), d("setup.start", "zh-TW")
    ('Start the game', '開始遊戲')
    """
    return i18n.t(f"dash.{key}", lang, **fmt)


@cache
def hard_bot_available() -> bool:
    """Whether the MCTS bot ("hard") can be imported; it is offered only then."""
    try:
        from ..ai.mcts import MCTSBot  # noqa: F401
    except Exception:  # noqa: BLE001 - any failure means: do not offer it
        return False
    return True


def seat_choices() -> tuple[str, ...]:
    """Seat kinds to offer now (``hard`` only when the MCTS bot exists)."""
    return SEAT_CHOICES if hard_bot_available() else SEAT_CHOICES[:-1]


# --------------------------------------------------------------------------------- setup


class SetupError(ValueError):
    """A setup that cannot start; ``key``/``fmt`` give the message in any language."""

    def __init__(self, key: str, **fmt: Any) -> None:
        super().__init__(d(key, "en", **fmt))
        self.key = key
        self.fmt = fmt

    def message(self, lang: str) -> str:
        """The message in ``lang``."""
        return d(self.key, lang, **self.fmt)


@dataclass
class SeatChoice:
    """One row of the setup screen: a person (with a name) or a bot; a region or ``None`` (random)."""

    kind: str = "person"
    name: str = ""
    region: str | None = None


@dataclass
class SetupChoices:
    """Everything the setup screen asks, in a form tests can fill in directly.

    >>> c = SetupChoices([SeatChoice("person", "Ann"), SeatChoice("easy"), SeatChoice("medium")], seed=5)
    >>> seats, start = c.resolve()
    >>> [(s.kind, s.name) for s in seats], start
    ([('person', 'Ann'), ('random', ''), ('greedy', '')], None)
    """

    seats: list[SeatChoice] = field(default_factory=list)
    regions: str = "random"  # "random" or "chosen"
    start: int | None = None  # seat index, or None = by the rules (Taiwan, else the first seat)
    variant: str = "standard"
    dice: str = "auto"
    speed: float = 1.0
    seed: int | None = None

    def resolve(self, rules: Rules | None = None) -> tuple[list[Any], str | None]:
        """The seats for :meth:`ClassSession.start` and the start player's region; raises :class:`SetupError`."""
        from ..engine.rules import load_rules
        from .dashboard_session import LEVEL_OF_BOT, Seat

        rules = rules or load_rules()
        if not 3 <= len(self.seats) <= 5:
            raise SetupError("error.seat_count", count=len(self.seats))
        keys = list(rules.regions)
        if self.regions == "chosen":
            chosen = [c.region for c in self.seats]
            if any(r is None or r not in keys for r in chosen):
                raise SetupError("error.region_missing")
            if len(set(chosen)) != len(chosen):
                raise SetupError("error.region_twice")
            regions: list[str] = [str(r) for r in chosen]
        else:
            rng = random.Random(self.seed)
            regions = rng.sample(keys, len(self.seats))
        seats = []
        for choice, region in zip(self.seats, regions, strict=True):
            if choice.kind not in SEAT_CHOICES:
                raise SetupError("error.seat_kind", kind=choice.kind)
            if choice.kind == "hard" and not hard_bot_available():
                raise SetupError("error.no_hard")
            kind = "person" if choice.kind == "person" else LEVEL_OF_BOT[choice.kind]
            seats.append(Seat(region, kind, choice.name.strip()[:24] if choice.kind == "person" else ""))
        start = None
        if self.start is not None:
            if not 0 <= self.start < len(seats):
                raise SetupError("error.start_seat")
            start = seats[self.start].region
        return seats, start


# --------------------------------------------------------------------------------- names


BOT_LEVEL = {"random": "easy", "greedy": "medium", "mcts": "hard"}


def seat_label(session: ClassSession, region: str, lang: str) -> str:
    """How a seat is named on screen: ``Mei (Taiwan)`` for a person, ``Japan (computer, easy)`` for a bot.

    >>> import tempfile
    >>> from typhoon_edu.ui.dashboard_session import ClassSession, Seat
    >>> s = ClassSession.start([Seat("Taiwan", "person", "Mei"), Seat("Japan", "random"), Seat("Korea")],
    ...                        seed=1, save_dir=tempfile.mkdtemp())
    >>> seat_label(s, "Japan", "zh-TW"), seat_label(s, "Korea", "en")
    ('日本（電腦・簡單）', 'Korea')
    """
    seat = session.seat(region)
    rname = i18n.region_name(session.game.rules, region, lang)
    if seat.is_person:
        return d("label.person", lang, name=seat.name, region=rname) if seat.name else rname
    return d("label.bot", lang, region=rname, level=d(f"bot.{BOT_LEVEL.get(seat.kind, 'easy')}", lang))


# --------------------------------------------------------------------------------- banner


@dataclass(frozen=True)
class Banner:
    """Who decides now (``who``: a region, ``CHANCE`` or ``None``) and what to do, in plain words."""

    headline: str
    detail: str
    who: str | None
    person: bool


def banner(session: ClassSession, lang: str) -> Banner:
    """The banner for the pending decision.

    Persons are named with their names, bots as computer players; a counter window names the
    player whose region the storm reached.
    """
    game = session.game
    rules = game.rules
    if game.is_over:
        names = i18n.join_names((seat_label(session, w, lang) for w in game.winners), lang)
        return Banner(d("banner.over", lang, winners=names), d("banner.over_detail", lang), None, False)
    who = game.current_player
    if who == CHANCE:
        label = seat_label(session, game.active, lang)
        return Banner(i18n.t("prompt.die", lang, player=label), d("banner.die_detail", lang), CHANCE, True)
    assert who is not None
    label = seat_label(session, who, lang)
    phase = game.phase
    if phase == "counter" and game.move is not None:
        head = i18n.t("prompt.counter", lang, player=label, typhoon=i18n.typhoon_label(game.move.tid, lang))
    else:
        head = i18n.t(f"prompt.{phase}", lang, player=label)
    seat = session.seat(who)
    if not seat.is_person:
        detail = d("banner.bot_detail", lang, player=label)
    elif phase in HAND_PHASES:
        detail = d("banner.private_detail", lang, player=label)
    elif phase in ("setup_place", "refill"):
        detail = d("banner.click_detail", lang)
    else:
        detail = d("banner.person_detail", lang)
    del rules
    return Banner(head, detail, who, seat.is_person)


def status_line(session: ClassSession, lang: str) -> str:
    """Round, whose turn, the variant and the draw pile, in one line."""
    game = session.game
    total = 1 if game.variant == "advanced" else 3
    return d("status", lang, round=min(game.round, total), rounds=total, player=seat_label(session, game.active, lang),
             variant=i18n.t(f"variant.{game.variant}", lang), deck=game.draw_pile_size)


# --------------------------------------------------------------------------------- cards and actions


def card_text(rules: Rules, key: str, region: str | None, lang: str) -> str:
    """A card's effect text; the restricted (限定) effect is added when it applies to ``region``.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> card_text(load_rules(), "warm_ocean", "Philippines", "en").startswith("Warm sea water")
    True
    >>> "★" in card_text(load_rules(), "warm_ocean", "Philippines", "en")
    True
    """
    zh = i18n.normalize_lang(lang) == "zh-TW"
    card = rules.cards.get(key)
    if card is None:
        for r in rules.regions.values():
            if key in (r.ability.key, r.key):
                return r.ability.text_zh if zh else r.ability.text_en
        return key
    text = card.text_zh if zh else card.text_en
    if card.restricted is not None and region in card.restricted.regions:
        text += " ★ " + (card.restricted.text_zh if zh else card.restricted.text_en)
    return text


def timing_name(rules: Rules, key: str, lang: str) -> str:
    """When a card is played: in the attack phase or as a counter."""
    card = rules.cards.get(key)
    return d(f"timing.{card.timing}", lang) if card is not None else d("timing.attack", lang)


@dataclass(frozen=True)
class Choice:
    """One button: the action and its short label."""

    action: Action
    label: str

    @property
    def css(self) -> str:
        """A CSS class naming the action (tests and benchmarks click by it): ``act-play-warm_ocean-T2``."""
        return action_css(self.action)


def action_css(action: Action) -> str:
    """The CSS class of an action's button.

    >>> action_css(Action("play", "steering_flow", 2, None, "NNW"))
    'act-play-steering_flow-T2-NNW'
    >>> action_css(Action("place", cell=(8, 9)))
    'act-place-8_9'
    """
    return "act-" + action.notation.replace(" ", "-").replace(",", "_")


@dataclass(frozen=True)
class ActionGroup:
    """Buttons that belong together: one card with its targets, the moves, the discards, …

    ``map_pick`` groups are answered by clicking a highlighted cell of the map (their choices'
    actions all carry a cell).
    """

    key: str
    title: str
    text: str
    choices: tuple[Choice, ...]
    map_pick: bool = False
    needs_hand: bool = False


def target_label(action: Action, game: Game, lang: str) -> str:
    """The short label of an action's target: ``T2``, ``T2 → NNW``, ``(8, 9)`` or "Play it"."""
    rules = game.rules
    if action.typhoon is not None and action.direction is not None:
        return d("target.typhoon_dir", lang, typhoon=i18n.typhoon_label(action.typhoon, lang),
                 direction=i18n.direction_name(rules, action.direction, lang), key=action.direction)
    if action.typhoon is not None:
        try:
            ty = game.typhoon(action.typhoon)
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


def action_groups(session: ClassSession, lang: str) -> list[ActionGroup]:
    """The legal actions of the pending decision, grouped for the action panel (empty for bots)."""
    from ..describe import describe_action

    game = session.game
    who = game.current_player
    if who is None or who == CHANCE or not session.seat(who).is_person:
        return []
    rules = game.rules
    legal = game.legal_actions()
    phase = game.phase
    if phase in ("setup_place", "refill"):
        return [ActionGroup("place", d("group.place", lang), d("group.place_text", lang),
                            tuple(Choice(a, i18n.cell_label(a.cell, lang)) for a in legal), map_pick=True)]
    if phase == "setup_aim":
        return [ActionGroup("aim", d("group.aim", lang), d("group.aim_text", lang),
                            tuple(Choice(a, i18n.typhoon_label(a.typhoon, lang)) for a in legal))]
    if phase == "move_choose":
        return [ActionGroup("move", d("group.move", lang), d("group.move_text", lang),
                            tuple(Choice(a, describe_action(a, game, lang)) for a in legal))]
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
        map_pick = all(a.cell is not None for a in acts)
        groups.append(ActionGroup(f"card:{key}", i18n.card_name(rules, key, lang), card_text(rules, key, who, lang),
                                  tuple(Choice(a, target_label(a, game, lang)) for a in acts), map_pick=map_pick,
                                  needs_hand=True))
    if region_acts:
        ability = rules.regions[who].ability
        groups.append(ActionGroup("region", d("group.region", lang, ability=i18n.ability_name(rules, ability.key, lang)),
                                  card_text(rules, ability.key, who, lang),
                                  tuple(Choice(a, target_label(a, game, lang)) for a in region_acts),
                                  map_pick=all(a.cell is not None for a in region_acts), needs_hand=True))
    if passes:
        groups.append(ActionGroup("pass", d("group.pass", lang), "",
                                  tuple(Choice(a, describe_action(a, game, lang)) for a in passes)))
    return groups


@dataclass(frozen=True)
class HandCard:
    """One card kind in a hand: how many, its name, timing and effect text, and whether it can be played now."""

    key: str
    count: int
    name: str
    timing: str
    text: str
    playable: bool


def hand_cards(session: ClassSession, region: str, lang: str) -> list[HandCard]:
    """The cards of ``region``'s hand, for the private hand view."""
    game = session.game
    rules = game.rules
    playable = {a.card for a in game.legal_actions() if a.kind == "play"} if game.current_player == region else set()
    counts = Counter(game.hand(region))
    return [HandCard(k, n, i18n.card_name(rules, k, lang), timing_name(rules, k, lang), card_text(rules, k, region, lang),
                     k in playable) for k, n in sorted(counts.items())]


def needs_privacy(session: ClassSession) -> bool:
    """Whether the pending decision is a person's choice among the cards of their own hand."""
    game = session.game
    who = game.current_player
    return (who is not None and who != CHANCE and session.seat(who).is_person and game.phase in HAND_PHASES
            and any(a.kind in ("play", "discard") for a in game.legal_actions()))


# --------------------------------------------------------------------------------- log and results

def log_lines(session: ClassSession, lang: str, limit: int = 60) -> list[tuple[str, str]]:
    """The last ``limit`` public events narrated in ``lang``, newest first, as ``(kind, sentence)``.

    Drawn cards stay hidden (the public view); die rolls and region hits are left out because the
    next sentence says the same in plainer words.
    """
    rules = session.game.rules
    out: list[tuple[str, str]] = []
    for e in reversed(session.game.visible_events(None)):
        if not i18n.in_log(e):
            continue
        try:
            out.append((e.kind, i18n.narrate(e, lang, rules)))
        except KeyError:  # an event kind this catalog has no sentence for
            continue
        if len(out) >= limit:
            break
    return out


def summary_lines(session: ClassSession, lang: str) -> list[str]:
    """The results summary: winners, the biggest storm, the region that took the most damage."""
    s = session.summary()
    rules = session.game.rules
    lines = [d("results.winners", lang, winners=i18n.join_names((seat_label(session, w, lang) for w in s["winners"]), lang))]
    if s["biggest_typhoon"] is not None:
        lines.append(d("results.biggest", lang, typhoon=i18n.typhoon_label(s["biggest_typhoon"], lang),
                       level=i18n.level_name(rules, s["biggest_level"], lang)))
    worst = s["most_damaged"]
    if worst is not None and s["damage_taken"].get(worst, 0) > 0:
        lines.append(d("results.most_damage", lang, player=seat_label(session, worst, lang), amount=s["damage_taken"][worst]))
    else:
        lines.append(d("results.no_damage", lang))
    return lines


def data_uri(text: str, mime: str) -> str:
    """A ``data:`` URI for a download link.

    >>> data_uri("a,b", "text/csv")
    'data:text/csv;charset=utf-8;base64,YSxi'
    """
    return f"data:{mime};charset=utf-8;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


def save_title(info: Any, rules: Rules, lang: str) -> str:
    """One line describing a save file for the resume list."""
    import time

    names = i18n.join_names((i18n.region_name(rules, p, lang) for p in info.players), lang)
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.saved_at))
    key = "saves.finished" if info.over else "saves.unfinished"
    return d(key, lang, players=names, round=info.round, when=when)


def latest_unfinished(saves: Sequence[Any]) -> Any | None:
    """The newest readable save of a game that is not over (``list_saves`` is newest first)."""
    return next((s for s in saves if s.ok and not s.over), None)


__all__ = [
    "HAND_PHASES", "SEAT_CHOICES", "SPEEDS", "ActionGroup", "Banner", "Choice", "HandCard", "SeatChoice",
    "SetupChoices", "SetupError", "action_css", "action_groups", "banner", "card_text", "d", "data_uri",
    "hand_cards", "hard_bot_available", "latest_unfinished", "log_lines", "needs_privacy", "save_title",
    "seat_choices", "seat_label", "status_line", "summary_lines", "target_label",
]
