"""Plain data the class-play pages share (no widgets, so all of it is unit-tested): the setup
choices turned into seats, the shapes of the banner, the action buttons and the hand, the
dashboard catalog's strings (:func:`d`) and a card's effect text.

The pages themselves (:mod:`typhoon_edu.ui.classplay`) build these from a room's table
(:mod:`typhoon_edu.ui.classplay.model`).

>>> c = SetupChoices([SeatChoice("person", "Ann"), SeatChoice("medium"), SeatChoice("hard")], seed=1)
>>> [s.kind for s in c.resolve()[0]]
['person', 'greedy', 'mcts']
"""

from __future__ import annotations

import base64
import random
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from ... import i18n
from ...engine.actions import Action

if TYPE_CHECKING:
    from ...engine.rules import Rules

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
        from ...ai.mcts import MCTSBot  # noqa: F401
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
        from ...engine.rules import load_rules
        from .session import LEVEL_OF_BOT, MAX_NAME_CHARS, Seat

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
            seats.append(Seat(region, kind, choice.name.strip()[:MAX_NAME_CHARS] if choice.kind == "person" else ""))
        start = None
        if self.start is not None:
            if not 0 <= self.start < len(seats):
                raise SetupError("error.start_seat")
            start = seats[self.start].region
        return seats, start


# --------------------------------------------------------------------------------- banner


@dataclass(frozen=True)
class Banner:
    """Who decides now (``who``: a region, ``CHANCE`` or ``None``) and what to do, in plain words."""

    headline: str
    detail: str
    who: str | None
    person: bool


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


@dataclass(frozen=True)
class HandCard:
    """One card kind in a hand: how many, its name, timing and effect text, and whether it can be played now."""

    key: str
    count: int
    name: str
    timing: str
    text: str
    playable: bool


def data_uri(text: str, mime: str) -> str:
    """A ``data:`` URI for a download link.

    >>> data_uri("a,b", "text/csv")
    'data:text/csv;charset=utf-8;base64,YSxi'
    """
    return f"data:{mime};charset=utf-8;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


__all__ = [
    "HAND_PHASES", "SEAT_CHOICES", "SPEEDS", "ActionGroup", "Banner", "Choice", "HandCard", "SeatChoice",
    "SetupChoices", "SetupError", "action_css", "card_text", "d", "data_uri", "hard_bot_available",
    "seat_choices", "timing_name",
]
