"""The game as a state machine: one pending decision at a time, actions in, events out.

A decision belongs to a player (a region key) or to ``CHANCE`` (a die roll). With
``dice="auto"`` the game rolls its own die from a seeded generator kept outside the state; with
``dice="manual"`` each roll is a ``CHANCE`` decision that a person answers with the face of a
real die.

>>> g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=7)
>>> g.current_player, g.phase
('Taiwan', 'setup_place')
>>> [a.notation for a in g.legal_actions()][:3]
['place 8,8', 'place 9,8', 'place 8,9']
>>> _ = g.apply("place 8,8"); _ = g.apply("place 11,7"); _ = g.apply("place 14,9")
>>> _ = g.apply("aim T1"); _ = g.apply("aim T2")
>>> g.phase, g.round, len(g.typhoons)
('attack', 1, 3)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from . import events as ev
from .actions import Action, parse_action
from .board import Board, board_for
from .rules import (
    MAX_TYPHOONS,
    MIN_TYPHOONS,
    TIMINGS,
    Card,
    Effect,
    GameInputError,
    IllegalActionError,
    Rules,
    load_rules,
)

CHANCE = "chance"
VARIANTS = ("standard", "advanced")
DICE_MODES = ("auto", "manual")
FACES = (1, 2, 3, 4, 5, 6)
_DIE_ACTIONS = tuple(Action("die", face=f) for f in FACES)
# builds an Action, or an event (a tuple underneath, see events.py), without a Python-level
# constructor call: the hot path passes every field, defaults included
_new = tuple.__new__
_new_object = object.__new__


def _act(kind: str, card: str | None = None, typhoon: int | None = None, cell: tuple[int, int] | None = None,
         direction: str | None = None) -> Action:
    return _new(Action, (kind, card, typhoon, cell, direction, None))
_PASS = Action("pass")
_NO_KEY = (None,)  # the region ability has no card key
CHANCE_PHASES = frozenset({"roll_direction", "roll_move", "roll_zone", "roll_cell"})
SEED_LIMIT = 2**63  # seeds are whole numbers with -SEED_LIMIT <= seed < SEED_LIMIT
SEED_BITS = 63  # a new game's seed: 0 <= seed < 2**63 (fits every record reader and a signed 64-bit column)


def auto_dice(seed: int) -> Iterator[int]:
    """The faces an automatic-dice game with ``seed`` rolls, in order (what ``Game._run`` draws).

    Every roll of a game played with ``dice="auto"`` (and of its replays, undos and loads) comes
    from one ``random.Random(seed)``, one ``random()`` per roll; a clone rolls from a generator of
    its own. A save file's automatic dice can so be checked against its seed.

    >>> from itertools import islice
    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=4)
    >>> while len([a for a in g.history if a.kind == "die"]) < 5:
    ...     _ = g.apply(g.legal_actions()[0])
    >>> rolled = [a.face for a in g.history if a.kind == "die"]
    >>> rolled == list(islice(auto_dice(4), len(rolled)))
    True
    """
    rng = random.Random(seed)
    draw = rng.random
    while True:
        yield int(draw() * 6) + 1


class _Memo(dict):  # type: ignore[type-arg]
    """A dict that makes a missing value with ``make(key)`` and keeps it (see ``_Templates``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(key)
        return value


# An effect reduced to what listing its actions needs: (kind, main parameter, direction choices,
# action templates or None); see _effect_spec.
_Spec = tuple[str, Any, tuple[str, ...], _Memo | None]


# "move T<id>" and "discard <card>" actions, made once (see _Templates on why templates never go stale)
_MOVE_ACTIONS = _Memo(lambda tid: _new(Action, ("move", None, tid, None, None, None)))
_DISCARD_ACTIONS = _Memo(lambda card: _new(Action, ("discard", card, None, None, None, None)))
_MOVE_ACTION_OF = _MOVE_ACTIONS.__getitem__  # (dict's __getitem__ calls _Memo.__missing__)
_DISCARD_ACTION_OF = _DISCARD_ACTIONS.__getitem__


class _Templates:
    """Read-only tables and legal-action templates derived from one ``Rules``, shared by all its games.

    The tables, per region where cards or abilities differ: card effects and timings, effect specs
    (:func:`_effect_spec`) and direction cycles. The templates, filled as games need them: an effect
    spec's ``_Memo`` maps a typhoon id to the action aimed at it (or, for steering, a typhoon id
    to a ``_Memo`` of its present direction to the tuple of 6 or 15 steering actions: two
    look-ups without building a key tuple); ``zone_mask[level][cell]`` is the set
    of generation-zone cells a storm of that level there covers, as bits (bit i is
    ``Board.zone_cells[i]``); ``free`` maps such a mask of covered cells to the free zone cells and
    ``place`` maps (kind, card key, mask) to the actions placing a depression on them.

    Each template key holds everything its value depends on, and the values are immutable (actions,
    tuples of cells or of actions), so no change of a game's state can make an entry stale:
    nothing invalidates them, and games and clones share them. They stay small: the typhoon ids
    games reach (times 16 directions for steering), and at most 2 ** (number of zone cells) masks.
    """

    __slots__ = ("zone_mask", "free", "place", "ceff", "ctiming", "dirs", "cspec", "aspec", "cycles", "deck", "seats")

    def __init__(self, rules: Rules, board: Board) -> None:
        self.ceff = {p: {key: card.effect_for(p) for key, card in rules.cards.items()} for p in rules.regions}
        self.ctiming = {key: card.timing for key, card in rules.cards.items()}
        self.dirs = {"ring": rules.ring, "all": tuple(rules.points)}
        self.cspec = {p: {timing: {key: _effect_spec(card.effect_for(p), self.dirs, "play", key)
                                   for key, card in rules.cards.items() if card.timing == timing}
                          for timing in TIMINGS} for p in rules.regions}
        self.aspec = {p: {None: _effect_spec(region.ability.effect, self.dirs, "region", None)}
                      for p, region in rules.regions.items()}
        self.cycles = {key: point.cycle for key, point in rules.points.items()}
        bit = {c: 1 << i for i, c in enumerate(board.zone_cells)}
        self.zone_mask: tuple[tuple[int, ...], ...] = tuple(
            tuple(sum(bit.get(c, 0) for c in cells) for cells in level) for level in board.footprint
        )
        self.free: dict[int, tuple[int, ...]] = {}
        self.place: dict[tuple[Any, ...], tuple[Action, ...]] = {}
        self.deck = tuple(key for key, card in rules.cards.items() for _ in range(card.count))  # before shuffling
        self.seats: dict[tuple[str, ...], tuple[Any, ...]] = {}  # per seating: see _seat_tables


def _seat_tables(rules: Rules, board: Board, tpl: _Templates, players: tuple[str, ...]) -> tuple[Any, ...]:
    """The read-only per-seat tables of a game with ``players`` seated so (shared by its games).

    The last item, ``deal[start]``: how many cards the first deal takes, and per seat the
    positions of its cards in the dealing order (one card at a time, clockwise from ``start``,
    up to each hand's limit).

    >>> rules = load_rules()
    >>> t = _seat_tables(rules, board_for(rules), _templates_for(rules), ("Taiwan", "Japan", "Korea"))
    >>> t[3], t[9][1][0], t[9][1][1][1]
    ((3, 5, 4), 12, (0, 3, 6, 9, 11))
    """
    n = len(players)
    seat_of_region = [-1] * len(board.region_keys)
    for s, key in enumerate(players):
        seat_of_region[board.region_keys.index(key)] = s
    hand_limit = tuple(rules.regions[k].size for k in players)
    deal = []
    for start in range(n):
        order = [(start + i) % n for k in range(max(hand_limit)) for i in range(n) if k < hand_limit[(start + i) % n]]
        deal.append((len(order), tuple(tuple(j for j, s in enumerate(order) if s == seat) for seat in range(n))))
    return (tuple(seat_of_region), tuple(board.region_keys.index(k) for k in players),
            tuple(rules.regions[k].hp for k in players), hand_limit, (0,) + tuple(lv.damage for lv in rules.levels),
            tuple(tpl.ceff[p] for p in players), tuple(tpl.cspec[p] for p in players),
            tuple(tpl.aspec[p] for p in players),  # {None: the region ability's spec}
            tuple(tuple((a + i) % n for i in range(n)) for a in range(n)),  # seats from a, clockwise
            tuple(deal),
            tuple(frozenset(tpl.cspec[p]["attack"]) for p in players))  # the attack card keys, per seat


_TEMPLATES: dict[int, tuple[Rules, _Templates]] = {}


def _templates_for(rules: Rules) -> _Templates:
    """The (cached) tables and templates of ``rules``."""
    hit = _TEMPLATES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    templates = _Templates(rules, board_for(rules))
    _TEMPLATES[id(rules)] = (rules, templates)
    return templates


def _effect_spec(eff: Effect, dirs: dict[str, tuple[str, ...]], kind: str, key: str | None) -> _Spec:
    """What listing the ``kind`` actions (``"play"`` card ``key``, or ``"region"``) of ``eff`` needs."""
    k = eff.kind
    if k in ("level", "remove", "hold", "roll", "push"):
        param = eff.params["delta"] if k == "level" else eff.params["max_level"] if k == "remove" else None
        return (k, param, (), _Memo(lambda tid: _new(Action, (kind, key, tid, None, None, None))))
    if k == "steer":
        choices = dirs[eff.params["choices"]]

        def steer(tid: int) -> _Memo:
            # by the typhoon's present direction: the actions steering it to each other choice
            return _Memo(lambda td: tuple(_new(Action, (kind, key, tid, None, d, None)) for d in choices if d != td))

        return (k, eff.params["choices"], choices, _Memo(steer))
    if k == "turn_away":
        return (k, eff.params["choices"], dirs[eff.params["choices"]], None)
    return (k, None, (), None)


def _fair_face(face: int, choices: int) -> bool:
    """Whether a die ``face`` picks one of ``choices`` things fairly, or must be rolled again.

    Faces 1 to the largest multiple of ``choices`` up to 6 count, face ``f`` picking thing
    ``(f - 1) % choices``, so each thing has the same chance; the faces above it are rolled again.

    >>> [f for f in range(1, 7) if _fair_face(f, 4)], [f for f in range(1, 7) if _fair_face(f, 3)]
    ([1, 2, 3, 4], [1, 2, 3, 4, 5, 6])
    """
    return face <= 6 - 6 % choices


def _without(values: tuple[int, ...], value: int) -> tuple[int, ...]:
    """``values`` without its first ``value`` (what ``list.remove`` does, for a tuple).

    >>> _without((3, 1, 2, 1), 1)
    (3, 2, 1)
    """
    i = values.index(value)
    return values[:i] + values[i + 1:]


def _with_true(flags: tuple[bool, ...], i: int) -> tuple[bool, ...]:
    """``flags`` with item ``i`` set to True.

    >>> _with_true((False, False, False), 1)
    (False, True, False)
    """
    return flags[:i] + (True,) + flags[i + 1:]


def _shuffle_like_random(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``, the same draws in the same order, without a method call per card.

    CPython's ``Random.shuffle``: Fisher-Yates from the end, each index drawn by
    ``_randbelow_with_getrandbits`` (tests/test_engine_seeds.py checks the two agree).

    >>> a, b = list(range(54)), list(range(54))
    >>> random.Random(5).shuffle(a); _shuffle_like_random(random.Random(5), b); a == b
    True
    """
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps[len(x)]:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


# the steps of _shuffle_like_random for a list of each length: index, bound, bits (made once per length)
_shuffle_steps = _Memo(lambda size: tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1)))


class Typhoon:
    """A typhoon on the map. ``eye`` is ``(x, y)``; ``cell`` is the board index of the eye.

    ``_g`` is the write token of the game that may change this object in place (see
    ``Game._own``): a game and its clones share their typhoons until one of them changes one.
    """

    __slots__ = ("id", "cell", "level", "direction", "moved", "_w", "_g")

    def __init__(self, id: int, cell: int, level: int, direction: str | None, width: int) -> None:
        self.id, self.cell, self.level, self.direction, self.moved, self._w = id, cell, level, direction, False, width
        self._g: object = None

    @property
    def eye(self) -> tuple[int, int]:
        return (self.cell % self._w, self.cell // self._w)

    def copy(self) -> Typhoon:
        t = _new_object(Typhoon)  # no __init__ call: every slot is set here
        t.id, t.cell, t.level, t.direction, t.moved, t._w = self.id, self.cell, self.level, self.direction, self.moved, self._w
        t._g = None
        return t

    def __repr__(self) -> str:
        return f"Typhoon(T{self.id}, eye={self.eye}, level={self.level}, direction={self.direction!r})"


_EMPTY: frozenset[Any] = frozenset()
_NO_HALVE: Mapping[int, str] = MappingProxyType({})


class Move:
    """A typhoon's move in progress (it may pause for counter windows)."""

    __slots__ = ("tid", "face", "steps", "done", "pos", "dmg", "hits", "reached", "land", "cancel", "halve",
                 "windows", "step_open", "shielded")

    def __init__(self, tid: int, face: int, steps: int) -> None:
        # Game._on_die makes a move's Move without this call: a slot added or changed here changes there
        # too (tests/test_engine_inline_copies.py compares the two)
        self.tid, self.face, self.steps, self.done, self.pos = tid, face, steps, 0, 0
        self.dmg: dict[int, int] = {}
        self.hits: dict[int, int] = {}
        self.reached: set[int] = set()
        # never changed in place, replaced when they change (rare): copies share them
        self.shielded: frozenset[int] = _EMPTY
        self.land = False
        self.cancel: frozenset[int] = _EMPTY
        self.halve: Mapping[int, str] = _NO_HALVE
        self.windows: tuple[int, ...] = ()
        self.step_open = False

    def copy(self) -> Move:
        m = Move(self.tid, self.face, self.steps)
        m.done, m.pos, m.land, m.step_open = self.done, self.pos, self.land, self.step_open
        m.dmg, m.hits, m.reached, m.shielded = dict(self.dmg), dict(self.hits), set(self.reached), self.shielded
        m.cancel, m.halve, m.windows = self.cancel, self.halve, self.windows
        return m


class Game:
    """One game of Typhoon Alert. Build it with :meth:`Game.new` or :meth:`Game.from_json`."""

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(
        cls,
        regions: Sequence[str],
        *,
        seed: int | None = None,
        variant: str = "standard",
        dice: str = "auto",
        start: str | None = None,
        rules: Rules | None = None,
    ) -> Game:
        """Seat the players in the given (clockwise) order, shuffle and deal, and start setup.

        >>> Game.new(["Taiwan", "Japan"])
        Traceback (most recent call last):
        ...
        typhoon_edu.engine.rules.GameInputError: Typhoon Alert is for 3 to 5 players; got 2 (Taiwan, Japan)
        """
        rules = rules or load_rules()
        if isinstance(regions, str):
            raise GameInputError(f"the players are a list of regions, not the text {regions!r}", kind="players_list")
        keys = [rules.region_key(r) for r in regions]
        if not 3 <= len(keys) <= 5:
            raise GameInputError(f"Typhoon Alert is for 3 to 5 players; got {len(keys)} ({', '.join(keys)})",
                                 kind="player_count", count=len(keys))
        if len(set(keys)) != len(keys):
            twice = next(k for k in keys if keys.count(k) > 1)
            raise GameInputError(f"each player has a different region; got {', '.join(keys)}", kind="region_twice",
                                 region=twice)
        if variant not in VARIANTS:
            raise GameInputError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}", kind="variant",
                                 value=str(variant)[:40])
        if dice not in DICE_MODES:
            raise GameInputError(f"dice must be 'auto' (the computer rolls) or 'manual' (type a real die's face), "
                                 f"not {dice!r}", kind="dice", value=str(dice)[:40])
        if start is not None:
            start_key = rules.region_key(start)
            if start_key not in keys:
                raise GameInputError(f"the start player {start_key} is not playing; players: {', '.join(keys)}",
                                     kind="not_playing", region=start_key)
        else:
            start_key = "Taiwan" if "Taiwan" in keys else keys[0]
        if seed is None:
            # 63 bits from the OS (secrets): the public die faces of a game cannot single out its seed
            # (31 bits could be brute-forced from about 14 faces, and every later roll known)
            seed = secrets.randbits(SEED_BITS)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise GameInputError(f"the seed is a whole number, not {seed!r}", kind="seed")
        if not -SEED_LIMIT <= seed < SEED_LIMIT:
            raise GameInputError(f"the seed must be at least -2**63 and below 2**63; {seed} is out of range",
                                 kind="seed_range")
        g = cls.__new__(cls)
        g._init(rules, tuple(keys), seed, variant, dice, keys.index(start_key))
        return g

    def _init(self, rules: Rules, players: tuple[str, ...], seed: int, variant: str, dice: str, start: int) -> None:
        self.rules = rules
        self._b: Board = board_for(rules)
        self.players = players
        self.seed = seed
        self.variant = variant
        self.dice = dice
        self.start_seat = start
        self._rng: random.Random | None = random.Random(seed)
        self._rolls = 0
        self.history: list[Action] = []
        self.events: list[ev.Event] = []
        self._log = True
        self._legal: Sequence[Action] | None = None  # the legal actions, computed on demand; None when stale
        self._tok = object()  # write token: this game may change in place the typhoons that carry it
        # Derived once per rules and seating and shared by every game and clone (read-only, never
        # state): what listing legal actions, playing cards and stepping need, so the hot paths do
        # no rules look-ups, and a new game (a play-out) does not rebuild them.
        tpl = self._tpl = _templates_for(rules)
        seats = tpl.seats.get(players)
        if seats is None:
            seats = tpl.seats[players] = _seat_tables(rules, self._b, tpl, players)
        (self._seat_of_region, self._region_of_seat, self._max_hp, self._hand_limit, self._dmg, self._ceff,
         self._cspec, self._aspec, self._clockwise, deal, self._akeys) = seats
        self._ctiming = tpl.ctiming
        self._dirs = tpl.dirs
        self._cycles = tpl.cycles
        n = len(players)
        # --- state (everything below is copied by clone())
        self.hp = dict(zip(players, self._max_hp, strict=True))
        self._hp = list(self._max_hp)
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.deck: list[str] = list(tpl.deck)
        self.discard: list[str] = []
        self.typhoons_: list[Typhoon] = []
        self.next_id = 1
        self.compass_i = rules.ring.index(rules.ring_start)
        self.round = 1
        self.active_seat = start
        self.phase = "setup_place"
        self.decider = start
        self.shuffles = 0
        self.region_spent: tuple[bool, ...] = (False,) * n
        self.winners_: tuple[str, ...] = ()
        self.over_reason: str | None = None
        self._turn_reset()
        self.attack_queue: tuple[int, ...] = ()
        self.unmoved: tuple[int, ...] = ()
        self.move: Move | None = None
        self.pending_dir: tuple[int, ...] = ()  # typhoons waiting for a direction roll (setup aims)
        self.resume = ""  # phase to return to after a direction roll
        self.roll_for = 0  # typhoon whose direction/move is being rolled
        self.setup_zones: tuple[int, ...] = tuple(range(len(self._b.zones)))
        self.adv_levels: tuple[int, ...] = ()
        self.adv_zone = -1
        # --- setup
        if self._log:
            self.events.append(ev.GameStarted(players, self.variant, players[start]))
        self._shuffle(self.deck)
        # Deal one card at a time clockwise from the start player, each from the top of the deck
        # (the end of the list), up to every hand's limit; deal[start][s] holds the positions in
        # that dealing order of seat s's cards, so the hands are filled with slices.
        deck = self.deck
        order = deal[start]
        dealt = deck[:-order[0] - 1:-1]  # the cards in the order they are dealt
        del deck[-order[0]:]
        for s in range(n):
            self.hands[s] = [dealt[i] for i in order[1][s]]
        for s in range(n):
            if self._log:
                self.events.append(ev.CardsDrawn(players[s], len(self.hands[s]), tuple(self.hands[s])))
        if variant == "advanced":
            self.adv_levels = (5, 4, 3, 2, 1)
            self._begin_advanced_placement()
        self._run()

    def _turn_reset(self) -> None:
        n = len(self.players)
        self.fn_played = [0] * n
        # The rest never changes in place: a change replaces the value (a new tuple, frozenset or
        # dict), so clone() shares them instead of copying ~15 containers (most of them empty).
        self.region_turn: tuple[bool, ...] = (False,) * n
        self.names_played: frozenset[str] = _EMPTY
        self.holds: frozenset[int] = _EMPTY
        self.roll_mods: dict[int, tuple[int, int]] = {}
        self.level_base: dict[int, int] = {}  # level before this turn's first level card, per typhoon
        self.shields: dict[int, tuple[str, ...]] = {}
        self.shield_delta: dict[int, int] = {}
        self.cancel_first: frozenset[int] = _EMPTY

    def clone(self, keep_log: bool = False) -> Game:
        """A copy for search: shares the immutable rules, copies the state (hand-written, not deepcopy).

        The clone rolls its own dice from a fresh generator (it never sees this game's future
        dice); without ``keep_log`` it records no events or history, which makes it faster.
        """
        g = Game.__new__(Game)
        # one C-level dict copy, assigned whole: on CPython 3.13 (Pyodide 0.28's) filling the new
        # instance's own __dict__ with update() costs three times as much (benchmarks/engine.py)
        g.__dict__ = d = self.__dict__.copy()
        # item assignment on the new instance dict: the same as setting the attributes, a little faster
        d["hp"] = self.hp.copy()
        d["_hp"] = self._hp.copy()
        d["hands"] = [h.copy() for h in self.hands]
        d["deck"] = self.deck.copy()
        d["discard"] = self.discard.copy()
        # The typhoons are shared, copy-on-write: both games get a new write token, so neither
        # changes a shared Typhoon in place any more; the first change copies it (see _own).
        d["typhoons_"] = self.typhoons_.copy()
        self._tok = object()
        d["_tok"] = object()
        d["fn_played"] = self.fn_played.copy()
        # region_spent, region_turn, names_played, holds, roll_mods, level_base, shields,
        # shield_delta, cancel_first, attack_queue, unmoved, pending_dir, setup_zones and
        # adv_levels are shared: the engine never changes them in place (see _turn_reset)
        if self.move is not None:
            d["move"] = self.move.copy()
        d["_legal"] = None
        d["_rng"] = None  # made on first use, from the seed and the rolls so far (never this game's generator)
        if keep_log:
            d["history"] = self.history.copy()
            d["events"] = self.events.copy()
        else:
            d["history"], d["events"], d["_log"] = [], [], False
        return g

    # ------------------------------------------------------------------ public view
    @property
    def current_player(self) -> str | None:
        """The region key of whoever decides now, ``CHANCE`` for a die roll, None when over."""
        if self.phase == "over":
            return None
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.players[self.decider]

    @property
    def active(self) -> str:
        """The region key of the active player (whose turn it is)."""
        return self.players[self.active_seat]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def winners(self) -> tuple[str, ...]:
        return self.winners_

    @property
    def compass(self) -> str:
        """The stop of the compass ring the indicator is on."""
        return self.rules.ring[self.compass_i]

    @property
    def typhoons(self) -> list[Typhoon]:
        return list(self.typhoons_)

    @property
    def draw_pile_size(self) -> int:
        return len(self.deck)

    @property
    def discard_pile(self) -> list[str]:
        return list(self.discard)

    @property
    def alive(self) -> list[str]:
        return [p for s, p in enumerate(self.players) if self._hp[s] > 0]

    def hand(self, region: str) -> list[str]:
        """The card keys in ``region``'s hand (sorted)."""
        return sorted(self.hands[self._seat(region)])

    def typhoon(self, tid: int) -> Typhoon:
        for t in self.typhoons_:
            if t.id == tid:
                return t
        raise KeyError(f"there is no typhoon T{tid} on the map")

    def footprint(self, t: Typhoon) -> list[tuple[int, int]]:
        """The cells ``t``'s storm radius covers now."""
        return [self._b.cell(c) for c in self._b.footprint[t.level][t.cell]]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a die roll: the six faces, each with probability 1/6."""
        if self.phase not in CHANCE_PHASES:
            raise IllegalActionError("no die is being rolled now; chance outcomes exist only at a die roll")
        return [(f, 1 / 6) for f in FACES]

    def _seat(self, region: str) -> int:
        try:
            return self.players.index(region)
        except ValueError:
            key = self.rules.region_key(region)
            if key not in self.players:
                raise GameInputError(f"{key} is not playing; players: {', '.join(self.players)}", kind="not_playing",
                                     region=key) from None
            return self.players.index(key)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """The actions allowed now (die faces at a die roll; empty when the game is over)."""
        legal = self._legal  # cached until the next apply (or until someone sets _legal = None)
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> Sequence[Action]:
        ph = self.phase
        if ph == "attack":
            return self._attack_actions(self.decider)
        if ph in CHANCE_PHASES:
            return _DIE_ACTIONS  # immutable, so it can be shared; legal_actions() hands out a list copy
        if ph == "move_choose":
            return list(map(_MOVE_ACTION_OF, self.unmoved))  # map: no comprehension frame
        if ph == "discard":
            return list(map(_DISCARD_ACTION_OF, sorted(set(self.hands[self.active_seat]))))
        if ph == "counter":
            return self._counter_actions(self.decider)
        cells = self._b.cells
        if ph == "setup_place":
            return [_new(Action, ("place", None, None, cells[c], None, None)) for c in self._free_cells(self.setup_zones)]
        if ph == "refill":
            return list(self._place_actions("place", None))
        if ph == "setup_aim":
            return [_new(Action, ("aim", None, tid, None, None, None)) for tid in self.pending_dir]
        return []

    def _covered_mask(self) -> int:
        """The generation-zone cells some typhoon's storm radius covers, as bits (see ``_Templates``)."""
        zone_mask = self._tpl.zone_mask
        mask = 0
        for t in self.typhoons_:
            mask |= zone_mask[t.level][t.cell]
        return mask

    def _free_cells(self, zones: Sequence[int] | None = None) -> list[int]:
        """Generation-zone cells that no typhoon's storm radius covers (in zone order)."""
        if zones is None:
            mask = self._covered_mask()
            free = self._tpl.free.get(mask)
            if free is None:
                free = self._tpl.free[mask] = tuple(c for i, c in enumerate(self._b.zone_cells) if not mask >> i & 1)
            return list(free)
        fp = self._b.footprint
        covered = {c for t in self.typhoons_ for c in fp[t.level][t.cell]}
        zs = self._b.zones
        return [c for z in zones for c in zs[z] if c not in covered]

    def _place_actions(self, kind: str, key: str | None) -> tuple[Action, ...]:
        """The actions placing a depression on each free generation-zone cell (templates: see ``_Templates``)."""
        tkey = (kind, key, self._covered_mask())
        acts = self._tpl.place.get(tkey)
        if acts is None:
            cells = self._b.cells
            acts = self._tpl.place[tkey] = tuple(_new(Action, (kind, key, None, cells[c], None, None))
                                                 for c in self._free_cells())
        return acts

    def _card_actions(self, seat: int, timing: str, out: list[Action]) -> list[Action]:
        """Append to ``out`` the plays of ``seat``'s cards of ``timing`` (card keys in sorted order)."""
        specs = self._cspec[seat][timing]
        playable = specs.keys() & self.hands[seat]  # a new set: the hand's distinct cards of this timing
        if self.names_played:
            playable -= self.names_played
        self._effect_actions(sorted(playable), specs, seat, "play", out)
        return out

    def _effect_actions(self, keys: Iterable[str | None], specs: Mapping[Any, _Spec], seat: int, kind: str,
                        out: list[Action]) -> None:
        """Append to ``out`` the ways to use the effect ``specs[key]`` (see :func:`_effect_spec`) of each key.

        One call lists a whole hand (a loop here rather than a call per card). The attack listing
        (:meth:`_attack_actions`, the hottest) has its own copy of the level, steer, roll/hold, heal and
        remove branches and of the region ability's push and lowering: change them together
        (tests/test_engine_inline_copies.py compares the two).
        """
        ts = self.typhoons_
        for key in keys:
            k, param, dirs, memo = specs[key]
            # memo: the action templates of this effect (see _Templates)
            if k == "steer":
                for t in ts:
                    out += memo[t.id][t.direction]  # type: ignore[index]
            elif k == "level":
                if param < 0:
                    out += [memo[t.id] for t in ts]  # type: ignore[index]
                else:
                    out += [memo[t.id] for t in ts if t.level < 5]  # type: ignore[index]
            elif k == "remove":
                out += [memo[t.id] for t in ts if t.level <= param]  # type: ignore[index]
            elif k == "hold" or k == "roll":
                holds = self.holds
                if holds:
                    out += [memo[t.id] for t in ts if t.id not in holds]  # type: ignore[index]
                else:
                    out += [memo[t.id] for t in ts]  # type: ignore[index]
            elif k == "push":
                out += [memo[t.id] for t in ts]  # type: ignore[index]
            elif k == "add_depression":
                if len(ts) < MAX_TYPHOONS:
                    out += self._place_actions(kind, key)
            elif k == "heal":
                if self._hp[seat] < self._max_hp[seat]:
                    out.append(_new(Action, (kind, key, None, None, None, None)))
            elif k == "level_all":
                if ts:
                    out.append(_new(Action, (kind, key, None, None, None, None)))
            elif k in ("cancel_damage", "halve_damage", "weaken") or k.startswith("shield"):
                out.append(_new(Action, (kind, key, None, None, None, None)))
            elif k == "turn_away":
                t = self._moving()
                if t is not None:
                    td = t.direction
                    out += [_new(Action, (kind, key, None, None, d, None)) for d in dirs if d != td]
            else:  # pragma: no cover - validated at load
                raise AssertionError(f"unknown effect kind {k}")

    def _attack_actions(self, seat: int) -> list[Action]:
        out: list[Action] = []
        fn = self.fn_played[seat]
        if fn < 2 and not self.region_turn[seat]:
            # _card_actions(seat, "attack", out) and _effect_actions, inline and specialised to the
            # attack cards' kinds (the hottest listing): a frozenset's intersection with the hand
            # (faster than dict keys & list), the kinds tested in the order of how often they come
            # up, plain loops (no comprehension frame per card)
            playable = self._akeys[seat].intersection(self.hands[seat])
            names = self.names_played
            if names:
                playable -= names
            if playable:
                specs = self._cspec[seat]["attack"]
                ts = self.typhoons_
                append = out.append
                for key in sorted(playable) if len(playable) > 1 else playable:
                    k, param, dirs, memo = specs[key]
                    # memo: the action templates of this effect (see _Templates)
                    if k == "level":
                        if param < 0:
                            for t in ts:
                                append(memo[t.id])  # type: ignore[index]
                        else:
                            for t in ts:
                                if t.level < 5:
                                    append(memo[t.id])  # type: ignore[index]
                    elif k == "steer":
                        for t in ts:
                            out += memo[t.id][t.direction]  # type: ignore[index]
                    elif k == "roll" or k == "hold":
                        holds = self.holds
                        for t in ts:
                            if t.id not in holds:
                                append(memo[t.id])  # type: ignore[index]
                    elif k == "heal":
                        if self._hp[seat] < self._max_hp[seat]:
                            append(_new(Action, ("play", key, None, None, None, None)))
                    elif k == "remove":
                        for t in ts:
                            if t.level <= param:
                                append(memo[t.id])  # type: ignore[index]
                    else:  # any other kind (add_depression, or one a rules file gives an attack card)
                        self._effect_actions((key,), specs, seat, "play", out)
        if fn == 0 and not self.region_spent[seat]:
            spec = self._aspec[seat][None]
            k = spec[0]
            if k == "push" or k == "level" and spec[1] < 0:  # an action per storm, in a plain loop
                memo = spec[3]
                append = out.append
                for t in self.typhoons_:
                    append(memo[t.id])  # type: ignore[index]
            else:
                self._effect_actions(_NO_KEY, self._aspec[seat], seat, "region", out)
        out.append(_PASS)
        return out

    def _counter_actions(self, seat: int) -> list[Action]:
        if self.fn_played[seat] >= 2 or self.region_turn[seat] or self._hp[seat] <= 0:
            return [_PASS]
        out = self._card_actions(seat, "counter", [])
        out.append(_PASS)
        return out

    def _may_counter(self, seat: int) -> bool:
        """Whether ``seat`` is entitled to a counter window (docs/rules.md §6.5).

        It does not depend on the cards held, so a window (or its absence) never tells the
        table whether a player holds a counter card.
        """
        return self.fn_played[seat] < 2 and not self.region_turn[seat] and self._hp[seat] > 0

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action | str | int) -> list[ev.Event]:
        """Make the pending decision and run the game on to the next one; return the new events.

        An illegal action raises :class:`IllegalActionError` and changes nothing.
        """
        if self.phase == "over":
            raise IllegalActionError("the game is over; no more actions can be made")
        if isinstance(action, Action):
            act = action
        elif isinstance(action, bool):
            raise IllegalActionError(f"{action!r} is not an action")
        elif isinstance(action, int):
            act = self._die_action(action)
        elif isinstance(action, str):
            act = parse_action(action)
        else:
            raise IllegalActionError(f"{action!r} is not an action; give an Action, its notation or a die face 1-6")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        # An action taken from legal_actions() is usually the very object in this list, which
        # ``in`` finds by identity; any other Action is compared by value.
        if act not in legal:
            raise IllegalActionError(self._explain(act))
        self.history.append(act)
        self._legal = None
        n0 = len(self.events)
        # make the decision (inline rather than a method of its own: this is the hottest path)
        k = act.kind  # the kinds in the order of how often they come up
        if k == "play":
            self._play_card(self.decider, act)
        elif k == "die":
            self._on_die(act.face)  # type: ignore[arg-type]
        elif k == "pass":
            if self.phase == "counter":
                if self._log:
                    self.events.append(_new(ev.Passed, (self.players[self.decider], True)))
                self._close_window()
            else:
                if self._log:
                    self.events.append(_new(ev.Passed, (self.players[self.decider], False)))
                self._next_attacker()
        elif k == "move":
            self._start_move(act.typhoon)  # type: ignore[arg-type]
        elif k == "discard":
            seat = self.active_seat
            hand = self.hands[seat]
            hand.remove(act.card)  # type: ignore[arg-type]
            self.discard.append(act.card)  # type: ignore[arg-type]
            if self._log:
                self.events.append(_new(ev.Discarded, (self.players[seat], act.card)))  # type: ignore[arg-type]
            if len(hand) <= self._hand_limit[seat]:
                self._end_turn()
        elif k == "region":
            self._play_region(self.decider, act)
        elif k == "place":
            cell = self._b.index(act.cell)  # type: ignore[arg-type]
            t = self._place(cell, 1, self.players[self.decider])
            if self.phase == "setup_place":
                zone = self._b.zone_of[cell]
                self.setup_zones = tuple(z for z in self.setup_zones if z != zone)
                self.pending_dir += (t.id,)
                if not self.setup_zones or not self._free_cells(self.setup_zones):
                    self.phase = "setup_aim"
            else:
                self._ask_direction(t.id, "refill")
        elif k == "aim":
            self.pending_dir = _without(self.pending_dir, act.typhoon)  # type: ignore[arg-type]
            self._ask_direction(act.typhoon, "setup_aim")  # type: ignore[arg-type]
        if self.phase != "attack":  # in the attack phase _run() has nothing to do
            self._run()
        return self.events[n0:] if self._log else []

    def _die_action(self, face: int) -> Action:
        if self.phase not in CHANCE_PHASES:
            raise IllegalActionError(
                f"no die is being rolled now; {self.current_player} must choose an action ({self._phase_hint()})"
            )
        if not 1 <= face <= 6:
            raise IllegalActionError(f"a die shows 1 to 6; {face} is not a face of the die")
        return _DIE_ACTIONS[face - 1]

    def _phase_hint(self) -> str:
        return {
            "setup_place": "place a tropical depression in a generation zone",
            "setup_aim": "choose which typhoon gets its direction next",
            "refill": "place a tropical depression on an empty generation-zone cell",
            "attack": "play up to 2 function cards, or the region card, or pass",
            "counter": "play a counter card, or pass",
            "move_choose": "choose the next typhoon to move",
            "discard": "discard down to the hand limit",
        }.get(self.phase, self.phase)

    def _explain(self, act: Action) -> str:
        """A teacher-readable reason why ``act`` is not allowed now."""
        who = self.current_player
        if self.phase in CHANCE_PHASES:
            if act.kind == "die":
                return f"a die shows 1 to 6; {act.face} is not a face of the die"
            return f"a die is being rolled now; answer with a face from 1 to 6, not {act.notation!r}"
        if act.kind == "die":
            return f"no die is being rolled now; {who} must {self._phase_hint()}"
        if act.kind == "play" and act.card is not None:
            seat = self.decider
            card = self.rules.cards.get(act.card)
            if card is None:
                return f"there is no card called {act.card!r}; cards: {', '.join(self.rules.cards)}"
            if act.card not in self.hands[seat]:
                return f"{who} has no {card.name_en} card in hand"
            if act.card in self.names_played:
                return f"{card.name_en} was already played this turn; each card name may be played once per turn"
            if self.region_turn[seat]:
                return f"{who} used the region card this turn, so no function cards may follow"
            if self.fn_played[seat] >= 2:
                return f"{who} already played 2 function cards this turn (the limit is 2)"
            want = "counter" if self.phase == "counter" else "attack"
            if card.timing != want:
                when = "when a typhoon reaches your region" if card.timing == "counter" else "in the attack phase"
                return f"{card.name_en} is played {when}, not now"
            if act.typhoon is not None and all(t.id != act.typhoon for t in self.typhoons_):
                return f"there is no typhoon T{act.typhoon} on the map"
            return f"{card.name_en} cannot be played like {act.notation!r} now; its rule: {card.text_en}"
        if act.kind == "region":
            seat = self.decider
            if self.phase != "attack":
                return "a region card is played in the attack phase only"
            if self.region_spent[seat]:
                return f"{who} has already used the region card; it works once per game"
            if self.fn_played[seat]:
                return f"{who} played a function card this turn, so the region card must wait"
            return f"the region card cannot be used like {act.notation!r}; {self.rules.regions[who].ability.text_en}"
        allowed_now = {"place": ("setup_place", "refill"), "aim": ("setup_aim",), "move": ("move_choose",),
                       "discard": ("discard",), "region": ("attack",)}
        if act.kind in allowed_now and self.phase not in allowed_now[act.kind]:
            return f"{act.notation!r} is not possible now: {who} must {self._phase_hint()}"
        if act.kind == "place" and act.cell is not None:
            x, y = act.cell
            if not self.rules.map.on_map(x, y):
                return f"({x}, {y}) is off the map"
            if self._b.zone_of[self._b.index(act.cell)] < 0:
                return f"({x}, {y}) is not in a generation zone; typhoons are placed in the green zones"
            return f"({x}, {y}) is not free: a new typhoon may not overlap another typhoon (or that zone already has its storm)"
        if act.kind == "move" and act.typhoon is not None:
            return f"T{act.typhoon} cannot move now (it has moved, is held, or is not on the map)"
        if act.kind == "discard":
            return f"{who} has no {act.card!r} card to discard" if self.phase == "discard" else "no one discards now"
        return f"{act.notation!r} is not allowed now: {who} must {self._phase_hint()}"

    # ------------------------------------------------------------------ doing actions
    def _place(self, cell: int, level: int, by: str) -> Typhoon:
        t = Typhoon(self.next_id, cell, level, None, self._b.width)
        t._g = self._tok
        self.next_id += 1
        self.typhoons_.append(t)
        if self._log:
            self.events.append(_new(ev.TyphoonPlaced, (t.id, self._b.cells[cell], level, by)))
        return t

    def _ask_direction(self, tid: int, resume: str) -> None:
        self.roll_for = tid
        self.resume = resume
        self.phase = "roll_direction"

    def _on_die(self, face: int) -> None:
        ph = self.phase
        if ph == "roll_move":  # the most frequent roll first
            if self._log:
                self.events.append(_new(ev.DieRolled, (face, "move", self.roll_for)))
            tid = self.roll_for
            mod = self.roll_mods.get(tid)
            steps = face if mod is None else max(mod[1], face + mod[0])
            # Move(tid, face, steps) without the __init__ call (every slot is set here)
            m = self.move = _new_object(Move)
            m.tid, m.face, m.steps, m.done, m.pos, m.land, m.step_open = tid, face, steps, 0, 0, False, False
            m.dmg, m.hits, m.reached = {}, {}, set()
            m.shielded, m.cancel, m.halve, m.windows = _EMPTY, _EMPTY, _NO_HALVE, ()
            if self.shields:
                for s in self._seat_with_shield("shield_halve"):
                    m.halve = {**m.halve, s: "down"}
            if self._log:
                self.events.append(_new(ev.MoveStarted, (tid, face, steps, False)))
            self.phase = "stepping"
            self._step_on()  # what _run() would do next
        elif ph == "roll_direction":
            ring = self.rules.ring
            t = self._find(self.roll_for)
            start = ring[self.compass_i]
            self.compass_i = (self.compass_i + face) % len(ring)
            if self._log:
                self.events.append(_new(ev.DieRolled, (face, "direction", self.roll_for)))
            if t is not None:
                t = self._own(t)
                t.direction = ring[self.compass_i]
                if self._log:
                    self.events.append(_new(ev.DirectionRolled, (t.id, start, face, t.direction)))
            self.phase = self.resume
        elif ph == "roll_zone":
            # a fair pick among the zones with a free cell (docs/rules.md §10: a random zone)
            open_zones = self._open_zones()
            if not _fair_face(face, len(open_zones)):
                if self._log:
                    self.events.append(ev.DieRolled(face, "zone_again"))
                return
            if self._log:
                self.events.append(ev.DieRolled(face, "zone"))
            self._pick_zone(open_zones[(face - 1) % len(open_zones)])
        elif ph == "roll_cell":
            free = self._free_cells([self.adv_zone])
            if not _fair_face(face, len(free)):  # e.g. 5 or 6 with four free cells: roll again
                if self._log:
                    self.events.append(ev.DieRolled(face, "cell_again"))
                return
            if self._log:
                self.events.append(ev.DieRolled(face, "cell"))
            self._advanced_place(free[(face - 1) % len(free)])

    def _seat_with_shield(self, kind: str) -> list[int]:
        return [s for s, kinds in self.shields.items() if kind in kinds]

    def _begin_advanced_placement(self) -> None:
        while self.adv_levels and not self._free_cells():
            self.adv_levels = self.adv_levels[1:]
        if not self.adv_levels:
            self.phase = "turn_start"
            return
        open_zones = self._open_zones()
        if len(open_zones) == 1:  # nothing to roll for
            self._pick_zone(open_zones[0])
        else:
            self.phase = "roll_zone"

    def _open_zones(self) -> list[int]:
        """The generation zones with at least one free cell, in zone order."""
        return [z for z in range(len(self._b.zones)) if self._free_cells([z])]

    def _pick_zone(self, zone: int) -> None:
        self.adv_zone = zone
        free = self._free_cells([zone])
        if len(free) == 1:
            self._advanced_place(free[0])
        else:
            self.phase = "roll_cell"

    def _advanced_place(self, cell: int) -> None:
        level = self.adv_levels[0]
        self.adv_levels = self.adv_levels[1:]
        t = self._place(cell, level, self.players[self.start_seat])
        self._ask_direction(t.id, "adv_next")

    # ------------------------------------------------------------------ cards and abilities
    def _play_card(self, seat: int, act: Action) -> None:
        key: str = act.card  # type: ignore[assignment]
        self.hands[seat].remove(key)
        self.discard.append(key)
        self.names_played = self.names_played | {key}
        self.fn_played[seat] += 1
        eff = self._ceff[seat][key]
        counter = self.phase == "counter"
        if self._log:
            card: Card = self.rules.cards[key]
            self.events.append(_new(ev.CardPlayed, (self.players[seat], key, eff is not card.effect, act.typhoon, act.cell,
                                                  act.direction, counter)))
        self._apply_effect(eff, seat, act, key)
        if self.fn_played[seat] >= 2:
            ph = self.phase
            if counter:
                if ph == "counter":
                    self._close_window()
            elif ph == "attack":
                self._next_attacker()
            elif ph == "roll_direction":
                self.resume = "attack_next"

    def _play_region(self, seat: int, act: Action) -> None:
        region = self.players[seat]
        ability = self.rules.regions[region].ability
        self.region_spent = _with_true(self.region_spent, seat)
        self.region_turn = _with_true(self.region_turn, seat)
        if self._log:
            self.events.append(ev.AbilityUsed(region, ability.key, act.typhoon))
        self._apply_effect(ability.effect, seat, act, ability.key)
        if self.phase == "attack":
            self._next_attacker()
        elif self.phase == "roll_direction":
            self.resume = "attack_next"

    def _apply_effect(self, eff: Effect, seat: int, act: Action, cause: str) -> None:
        k = eff.kind
        p = eff.params
        t = self._find(act.typhoon) if act.typhoon is not None else None
        if t is not None and (k == "level" or k == "steer" or k == "push"):  # these change t
            t = self._own(t)
        if k == "level":
            # Alike effects (same kind, same typhoon, this turn): the later replaces the earlier.
            base = self.level_base.get(t.id)  # type: ignore[union-attr]
            if base is None:
                self.level_base = {**self.level_base, t.id: t.level}  # type: ignore[union-attr]
                self._change_level(t, p["delta"], cause)  # type: ignore[arg-type]
            else:
                target = min(5, base + p["delta"])
                self._change_level(t, target - t.level, cause) if target != t.level or target < 1 else None  # type: ignore[union-attr,arg-type]
        elif k == "level_all":
            for ty in list(self.typhoons_):
                self._change_level(self._own(ty), p["delta"], cause)
        elif k == "remove":
            self._remove(t, "card")  # type: ignore[arg-type]
        elif k == "steer":
            self._set_direction(t, act.direction, cause)  # type: ignore[arg-type]
        elif k == "hold":
            self.holds = self.holds | {t.id}  # type: ignore[union-attr]
            if t.id in self.unmoved:  # type: ignore[union-attr]
                self.unmoved = _without(self.unmoved, t.id)  # type: ignore[union-attr]
            if self._log:
                self.events.append(ev.TyphoonHeld(t.id))  # type: ignore[union-attr]
        elif k == "roll":
            replaced = t.id in self.roll_mods  # type: ignore[union-attr]
            self.roll_mods = {**self.roll_mods, t.id: (p["delta"], p.get("min", 1))}  # type: ignore[union-attr]
            if self._log:
                self.events.append(ev.RollModified(t.id, p["delta"], replaced))  # type: ignore[union-attr]
        elif k == "heal":
            before = self._hp[seat]
            self._set_hp(seat, min(self._max_hp[seat], before + p["amount"]))
            if self._log:
                self.events.append(ev.Healed(self.players[seat], self._hp[seat] - before, self._hp[seat]))
        elif k == "add_depression":
            nt = self._place(self._b.index(act.cell), 1, self.players[seat])  # type: ignore[arg-type]
            self._ask_direction(nt.id, "attack")
        elif k == "push":
            self._push(t, p["direction"], p["cells"], cause)  # type: ignore[arg-type]
        elif k.startswith("shield"):
            self.shields = {**self.shields, seat: (*self.shields.get(seat, ()), k)}
            if k == "shield_weaken":
                self.shield_delta = {**self.shield_delta, seat: p["delta"]}
            elif k == "shield_cancel_first":
                self.cancel_first = self.cancel_first | {seat}
            if self._log:
                self.events.append(ev.ShieldRaised(self.players[seat], k))
        elif k == "cancel_damage":
            self.move.cancel = self.move.cancel | {seat}  # type: ignore[union-attr]
        elif k == "halve_damage":
            self.move.halve = {**self.move.halve, seat: "up"}  # type: ignore[union-attr]
        elif k == "turn_away":
            mt = self._own(self._moving())  # type: ignore[arg-type]
            self._set_direction(mt, act.direction, cause)  # type: ignore[arg-type]
            self.move.pos = 0  # type: ignore[union-attr]
        elif k == "weaken":
            mt = self._own(self._moving())  # type: ignore[arg-type]
            self._change_level(mt, -p["delta"], cause)  # type: ignore[arg-type]

    def _find(self, tid: int | None) -> Typhoon | None:
        for t in self.typhoons_:
            if t.id == tid:
                return t
        return None

    def _own(self, t: Typhoon) -> Typhoon:
        """``t``, or a copy of it put in its place, that this game may change in place (copy-on-write)."""
        if t._g is self._tok:
            return t
        c = t.copy()
        c._g = self._tok
        ts = self.typhoons_
        ts[ts.index(t)] = c
        return c

    def _moving(self) -> Typhoon | None:
        return self._find(self.move.tid) if self.move is not None else None

    def _change_level(self, t: Typhoon, delta: int, cause: str) -> None:
        assert t._g is self._tok, "change only an owned typhoon (see _own)"
        old = t.level
        new = min(5, old + delta)
        if new < 1:
            if self._log:
                self.events.append(_new(ev.LevelChanged, (t.id, old, 0, cause)))
            self._remove(t, "weakened")
        elif new != old:
            t.level = new
            if self._log:
                self.events.append(_new(ev.LevelChanged, (t.id, old, new, cause)))

    def _set_direction(self, t: Typhoon, d: str, cause: str) -> None:
        assert t._g is self._tok, "change only an owned typhoon (see _own)"
        old = t.direction
        t.direction = d
        if self._log:
            self.events.append(_new(ev.DirectionChanged, (t.id, old or "", d, cause)))

    def _remove(self, t: Typhoon, reason: str) -> None:
        self.typhoons_.remove(t)
        if t.id in self.holds:
            self.holds = self.holds - {t.id}
        if t.id in self.unmoved:
            self.unmoved = _without(self.unmoved, t.id)
        if self._log:
            self.events.append(_new(ev.TyphoonRemoved, (t.id, reason, self._b.cells[t.cell])))

    def _push(self, t: Typhoon, direction: str, cells: int, cause: str) -> None:
        self._set_direction(t, direction, cause)
        cycle = self.rules.points[direction].cycle
        frm = t.cell
        for i in range(cells):
            nxt = self._b.step[cycle[i % len(cycle)]][t.cell]
            if nxt < 0:
                if self._log:
                    self.events.append(ev.TyphoonPushed(t.id, self._b.cell(frm), None))
                self._remove(t, "edge")
                return
            t.cell = nxt
        if self._log:
            self.events.append(ev.TyphoonPushed(t.id, self._b.cell(frm), self._b.cell(t.cell)))
        self._merge_if_met(t)

    def _merge_if_met(self, t: Typhoon) -> None:
        # _finish_move tests this meeting (another storm on t's cell) before calling: change both together
        for u in self.typhoons_:
            if u is not t and u.cell == t.cell:
                if u.level > t.level:
                    survivor, absorbed = self._own(u), t
                else:
                    survivor, absorbed = t, u
                level = min(5, survivor.level + 1)
                old = survivor.level
                survivor.level = level
                survivor.moved = True
                if survivor.id in self.holds:
                    self.holds = self.holds - {survivor.id}
                if survivor.id in self.unmoved:
                    self.unmoved = _without(self.unmoved, survivor.id)
                if self._log:
                    self.events.append(ev.Merged(survivor.id, absorbed.id, level, survivor.direction or ""))
                if level != old:
                    if self._log:
                        self.events.append(ev.LevelChanged(survivor.id, old, level, "merge"))
                self._remove(absorbed, "merged")
                return

    def _set_hp(self, seat: int, value: int) -> None:
        self._hp[seat] = value
        self.hp[self.players[seat]] = value

    # ------------------------------------------------------------------ the flow
    def _run(self) -> None:
        """Advance through automatic steps until a decision is pending (auto dice are rolled here)."""
        while True:  # the phases in the order of how often they come up here
            ph = self.phase
            if ph == "attack":
                return
            if ph in CHANCE_PHASES:
                if self.dice == "manual":
                    return
                if self._rng is None:
                    self._rng = random.Random(self.seed * 7_919 + self._rolls + 1)
                self._rolls += 1
                face = int(self._rng.random() * 6) + 1  # the formula of auto_dice(), which save files are checked with
                act = _DIE_ACTIONS[face - 1]
                self.history.append(act)
                self._on_die(face)
            elif ph == "move_choose":
                if not self.unmoved:
                    self._after_moves()
                elif len(self.unmoved) == 1 or self._hp[self.active_seat] <= 0:
                    # _start_move(self.unmoved[0]), inline
                    unmoved = self.unmoved
                    self.roll_for = unmoved[0]
                    self.unmoved = unmoved[1:]
                    self.phase = "roll_move"
                else:
                    self.decider = self.active_seat
                    return
            elif ph == "stepping":
                self._step_on()
            elif ph == "refill":
                if len(self.typhoons_) < MIN_TYPHOONS and self._free_cells():
                    self.decider = self.active_seat
                    return
                self._draw_phase()
            elif ph == "discard":
                if len(self.hands[self.active_seat]) <= self._hand_limit[self.active_seat]:
                    self._end_turn()
                else:
                    self.decider = self.active_seat
                    return
            elif ph == "turn_start":
                self._turn_start()
            elif ph == "counter":
                if self._may_counter(self.decider):
                    return
                self._close_window()
            elif ph == "setup_aim":
                if len(self.pending_dir) == 1:
                    tid = self.pending_dir[0]
                    self.pending_dir = ()
                    self._ask_direction(tid, "setup_aim")
                elif not self.pending_dir:
                    self.phase = "turn_start"
                else:
                    self.decider = self.start_seat
                    return
            elif ph == "attack_next":
                self.phase = "attack"
                self._next_attacker()
            elif ph == "adv_next":
                self._begin_advanced_placement()
            else:  # setup_place, over
                return

    def _turn_start(self) -> None:
        # the per-turn state is already reset: by _end_turn, or by _init before the setup (whose
        # phases play no cards and hold no storms)
        if self._log:
            self.events.append(_new(ev.TurnStarted, (self.active, self.round)))
        if len(self.deck) == 1 and self.discard:
            pile = self.discard
            self.discard = []
            self._shuffle(pile)
            self.deck[:0] = pile
            if self._log:
                self.events.append(ev.DeckReshuffled(len(pile), True))
        self.phase = "refill"

    def _shuffle(self, cards: list[str]) -> None:
        _shuffle_like_random(random.Random(self.seed * 1_000_003 + self.shuffles), cards)
        self.shuffles += 1

    def _draw(self, seat: int, count: int) -> None:
        deck = self.deck
        if len(deck) >= count:  # fast path, no reshuffle: the same cards in the same order as popping one by one
            got = deck[:-count - 1:-1]
            del deck[-count:]
            self.hands[seat].extend(got)
            if self._log:
                self.events.append(_new(ev.CardsDrawn, (self.players[seat], count, tuple(got), 0)))
            return
        got = []
        lost = 0
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    lost += 1
                    continue
                pile = self.discard
                self.discard = []
                self._shuffle(pile)
                self.deck = pile
                if self._log:
                    self.events.append(ev.DeckReshuffled(len(pile), False))
            got.append(self.deck.pop())
        self.hands[seat].extend(got)
        if self._log:
            self.events.append(ev.CardsDrawn(self.players[seat], len(got), tuple(got), lost))

    def _draw_phase(self) -> None:
        a = self.active_seat
        order = self._clockwise[a]  # a, then the seats after it
        hp = self._hp
        self._draw(a, 3)
        deck, hands, log = self.deck, self.hands, self._log
        for s in order[1:]:
            if hp[s] > 0:
                if deck:  # _draw(s, 1)'s fast path, inline
                    card = deck.pop()
                    hands[s].append(card)
                    if log:
                        self.events.append(_new(ev.CardsDrawn, (self.players[s], 1, (card,), 0)))
                else:
                    self._draw(s, 1)
                    deck = self.deck  # a reshuffle puts a new list in its place
        queue = tuple(s for s in order if hp[s] > 0)
        self.phase = "attack"
        self.decider = queue[0]
        self.attack_queue = queue[1:]

    def _next_attacker(self) -> None:
        queue = self.attack_queue
        if queue:
            self.decider = queue[0]
            self.attack_queue = queue[1:]
            self.phase = "attack"
        else:
            self._begin_moves()

    def _begin_moves(self) -> None:
        holds = self.holds
        self.unmoved = tuple(t.id for t in self.typhoons_ if t.id not in holds)
        tok = self._tok
        ts = self.typhoons_
        for i, t in enumerate(ts):
            if t.moved:
                if t._g is not tok:
                    t = ts[i] = t.copy()
                    t._g = tok
                t.moved = False
        self.phase = "move_choose"
        self.decider = self.active_seat

    def _start_move(self, tid: int) -> None:
        self.unmoved = _without(self.unmoved, tid)
        self.roll_for = tid
        self.phase = "roll_move"

    def _step_on(self) -> None:
        """Take the moving typhoon's remaining steps, pausing when a counter window opens."""
        m = self.move
        assert m is not None
        b = self._b
        tid = m.tid
        for t in self.typhoons_:  # _find, inline
            if t.id == tid:
                if t._g is not self._tok:
                    t = self._own(t)  # it moves (or at least is marked as moved): this game's own copy
                break
        else:
            t = None
        if m.step_open:
            m.step_open = False
            if t is not None:
                self._count_hits(t, m)
        done, steps = m.done, m.steps
        if t is not None and done < steps:
            # Nothing in this loop changes the typhoon's direction (only a counter card does, and
            # that is played in a window, after this method has returned), so its cycle is fixed.
            # The step counters live in locals and are written back to the move before anything
            # else can look at it (a window, a removal, the end of the move).
            cycle = self._cycles[t.direction]  # type: ignore[index]
            ncycle = len(cycle)
            pos = m.pos
            step, land, hits = b.step, b.land, b.hits
            seat_of, hp, reached = self._seat_of_region, self._hp, m.reached
            log = self._log
            events = self.events
            mhits, mdmg, dmg_of = m.hits, m.dmg, self._dmg
            while done < steps:
                letter = cycle[pos % ncycle]
                pos += 1
                done += 1
                here = t.cell
                nxt = step[letter][here]
                if log:
                    events.append(_new(ev.TyphoonStepped, (t.id, done, letter, b.cells[here],
                                                           b.cells[nxt] if nxt >= 0 else None, t.level)))
                if nxt < 0:
                    m.done, m.pos = done, pos
                    self._remove(t, "edge")
                    t = None
                    break
                t.cell = nxt
                if land[nxt]:
                    m.land = True
                covered = hits[t.level][nxt]
                if not covered:
                    continue
                # shields of region abilities act the moment a storm reaches the region
                if self.shields:
                    m.done, m.pos = done, pos
                    for r, _ in covered:
                        s = seat_of[r]
                        if s < 0 or r in m.shielded or r in reached:
                            continue
                        m.shielded = m.shielded | {r}
                        if s in self.cancel_first:
                            self.cancel_first = self.cancel_first - {s}
                            m.cancel = m.cancel | {s}
                        if s in self.shield_delta and hp[s] > 0:
                            self._change_level(t, -self.shield_delta[s], self.rules.regions[self.players[s]].ability.key)
                            if t not in self.typhoons_:
                                t = None
                                break
                    if t is None:
                        break
                    covered = hits[t.level][t.cell]
                windows = None
                for r, _ in covered:
                    if r not in reached:
                        reached.add(r)
                        s = seat_of[r]
                        if s >= 0 and self._may_counter(s):
                            if windows is None:
                                windows = [s]
                            else:
                                windows.append(s)
                if windows:
                    if len(windows) > 1:
                        n = len(self.players)
                        a = self.active_seat
                        windows.sort(key=lambda s: (s - a) % n)
                    m.done, m.pos = done, pos
                    m.windows = tuple(windows)
                    m.step_open = True
                    self._open_window()
                    return
                # _count_hits, inline (covered is the footprint's hits where t is now)
                level = t.level
                d = dmg_of[level]
                for r, c in covered:
                    s = seat_of[r]
                    if s >= 0:
                        mhits[s] = mhits.get(s, 0) + c
                        mdmg[s] = mdmg.get(s, 0) + c * d
                        if log:
                            events.append(_new(ev.RegionHit, (self.players[s], t.id, c, level)))
            else:
                m.done, m.pos = done, pos
        self._finish_move(t, m)

    def _count_hits(self, t: Typhoon, m: Move) -> None:
        d = self._dmg[t.level]
        seat_of = self._seat_of_region
        hits, dmg = m.hits, m.dmg
        for r, c in self._b.hits[t.level][t.cell]:
            s = seat_of[r]
            if s >= 0:
                hits[s] = hits.get(s, 0) + c
                dmg[s] = dmg.get(s, 0) + c * d
                if self._log:
                    self.events.append(_new(ev.RegionHit, (self.players[s], t.id, c, t.level)))

    def _open_window(self) -> None:
        m = self.move
        assert m is not None
        s = m.windows[0]
        m.windows = m.windows[1:]
        self.decider = s
        self.phase = "counter"
        if self._log:
            self.events.append(_new(ev.CounterWindow, (self.players[s], m.tid)))

    def _close_window(self) -> None:
        m = self.move
        assert m is not None
        if self._moving() is None:
            m.windows = ()
        while m.windows:
            s = m.windows[0]
            if self._may_counter(s):
                self._open_window()
                return
            m.windows = m.windows[1:]
        self.phase = "stepping"

    def _finish_move(self, t: Typhoon | None, m: Move) -> None:
        b = self._b
        log = self._log
        if t is not None and m.land:
            old = t.level
            if old <= 1:
                if log:
                    self.events.append(_new(ev.Landfall, (t.id, old, 0)))
                self._remove(t, "landfall")
                t = None
            else:
                t.level = old - 1
                if log:
                    self.events.append(_new(ev.Landfall, (t.id, old, old - 1)))
        hp = self._hp
        losses = []
        if m.dmg:
            end_hits = b.hits[t.level][t.cell] if t is not None else ()  # (region, cells) where the storm ends
            region_of_seat = self._region_of_seat
            for s, dmg in m.dmg.items():
                if hp[s] <= 0:
                    continue
                bonus = 0  # 1 if the storm ends over the seat's region, which it hit (a loop, no set built)
                if m.hits[s] > 0:
                    rs = region_of_seat[s]
                    for r, _ in end_hits:
                        if r == rs:
                            bonus = 1
                            break
                loss = dmg + bonus
                modifier = None
                if s in m.cancel:
                    loss, modifier = 0, "cancelled"
                elif s in m.halve:
                    loss = (loss + 1) // 2 if m.halve[s] == "up" else loss // 2
                    modifier = "halved"
                losses.append((s, m.hits[s], loss, bonus, modifier))
        if t is not None:
            t.moved = True
            cell = t.cell
            for u in self.typhoons_:  # _merge_if_met(t), called only when another storm is there
                if u.cell == cell and u is not t:
                    self._merge_if_met(t)
                    break
        self.move = None
        if not losses:  # nobody was damaged, so nobody was eliminated and the game goes on
            self.phase = "move_choose"
            return
        # every seat in losses was alive before (see above), so the seats it leaves at 0 HP are the eliminated ones
        zeroed = []
        for s, hits, loss, bonus, modifier in losses:
            left = hp[s] - loss
            if left <= 0:
                left = 0
                zeroed.append(s)
            self._set_hp(s, left)
            if log:
                self.events.append(_new(ev.DamageDealt, (self.players[s], m.tid, hits, loss, bonus, left, modifier)))
        if not zeroed:  # nobody eliminated, so the game goes on
            self.phase = "move_choose"
            return
        if log:
            for s in zeroed:
                self.events.append(ev.Eliminated(self.players[s]))
        seats = range(len(self.players))
        alive_before = [s for s in seats if hp[s] > 0 or s in zeroed]
        alive = [s for s in seats if hp[s] > 0]
        if len(alive) == 1 and len(alive_before) > 1:
            self._game_over((self.players[alive[0]],), "last_standing")
        elif not alive:
            self._game_over(tuple(self.players[s] for s in alive_before), "all_out")
        else:
            self.phase = "move_choose"

    def _after_moves(self) -> None:
        if self._hp[self.active_seat] <= 0:
            self._end_turn()
        else:
            self.phase = "discard"

    def _end_turn(self) -> None:
        b = self._b
        for tid in sorted(self.holds) if self.holds else ():
            t = self._find(tid)
            if t is not None and not b.land[t.cell] and t.level < 5:
                t = self._own(t)
                old = t.level
                t.level += 1
                if self._log:
                    self.events.append(ev.Intensified(t.id, t.level))
                    self.events.append(ev.LevelChanged(t.id, old, t.level, "growth"))
        if self._log:
            self.events.append(_new(ev.TurnEnded, (self.active,)))
        self._turn_reset()
        n = len(self.players)
        pos = (self.active_seat - self.start_seat) % n
        for i in range(1, n + 1):
            s = (self.active_seat + i) % n
            if self._hp[s] > 0:
                break
        if (s - self.start_seat) % n <= pos:
            self.round += 1
            if self.round > (1 if self.variant == "advanced" else 3):
                self.round -= 1
                top = max(self._hp)
                self._game_over(tuple(p for i, p in enumerate(self.players) if self._hp[i] == top), "rounds")
                return
            if self._log:
                self.events.append(ev.RoundStarted(self.round))
        self.active_seat = s
        self.phase = "turn_start"
        self._turn_start()  # what _run() would do next

    def _game_over(self, winners: tuple[str, ...], reason: str) -> None:
        self.winners_ = winners
        self.over_reason = reason
        self.phase = "over"
        if self._log:
            self.events.append(ev.GameOver(winners, reason))

    # ------------------------------------------------------------------ views for players
    def observation(self, region: str) -> dict[str, Any]:
        """What ``region``'s player may see, as JSON-able data (no other hands, no deck order)."""
        seat = self._seat(region)
        return {
            "you": self.players[seat],
            "players": list(self.players),
            "variant": self.variant,
            "round": self.round,
            "active": self.active,
            "phase": self.phase,
            "current_player": self.current_player,
            "compass": self.compass,
            "hp": dict(self.hp),
            "hand": self.hand(region),
            "hand_sizes": {p: len(self.hands[i]) for i, p in enumerate(self.players)},
            "region_card_used": {p: self.region_spent[i] for i, p in enumerate(self.players)},
            "draw_pile_size": len(self.deck),
            "discard_pile": list(self.discard),
            "cards_played_this_turn": sorted(self.names_played),
            "typhoons": [
                {"id": t.id, "eye": list(t.eye), "level": t.level, "direction": t.direction, "held": t.id in self.holds}
                for t in self.typhoons_
            ],
            "winners": list(self.winners_),
            "legal_actions": [a.notation for a in self.legal_actions()] if self.current_player == region else [],
        }

    def visible_events(self, region: str | None) -> list[ev.Event]:
        """The event log as ``region`` may see it (other players' drawn cards hidden)."""
        return ev.filter_events(self.events, region)

    def digest(self) -> str:
        """A short hash of the whole state (hands and deck order included), for replays and tests."""
        import hashlib
        import json

        return hashlib.sha256(json.dumps(self.state_dict(), sort_keys=True).encode()).hexdigest()[:16]

    def state_dict(self) -> dict[str, Any]:
        """The full state as plain data (hidden information included)."""
        m = self.move
        return {
            "players": list(self.players),
            "hp": list(self._hp),
            "hands": [sorted(h) for h in self.hands],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "typhoons": [[t.id, t.cell, t.level, t.direction, t.moved] for t in self.typhoons_],
            "next_id": self.next_id,
            "compass": self.compass_i,
            "round": self.round,
            "active": self.active_seat,
            "phase": self.phase,
            "decider": self.decider,
            "shuffles": self.shuffles,
            "region_spent": list(self.region_spent),
            "fn_played": list(self.fn_played),
            "region_turn": list(self.region_turn),
            "names_played": sorted(self.names_played),
            "holds": sorted(self.holds),
            "roll_mods": sorted([k, *v] for k, v in self.roll_mods.items()),
            "level_base": sorted(self.level_base.items()),
            "shields": sorted([k, sorted(v)] for k, v in self.shields.items()),
            "cancel_first": sorted(self.cancel_first),
            "attack_queue": list(self.attack_queue),
            "unmoved": list(self.unmoved),
            "pending_dir": list(self.pending_dir),
            "resume": self.resume,
            "roll_for": self.roll_for,
            "setup_zones": list(self.setup_zones),
            "adv_levels": list(self.adv_levels),
            "winners": list(self.winners_),
            "move": None if m is None else [m.tid, m.face, m.steps, m.done, m.pos, sorted(m.dmg.items()),
                                            sorted(m.hits.items()), sorted(m.reached), m.land, sorted(m.cancel),
                                            sorted(m.halve.items()), m.windows, m.step_open, sorted(m.shielded)],
        }

    # ------------------------------------------------------------------ undo and save files
    def undo(self) -> Action:
        """Take back the last player decision (never across a die roll); return the undone action."""
        return undo(self)

    def correct_die(self, face: int) -> None:
        """Replace the face of the most recent (typed) die roll, if no decision followed it."""
        correct_die(self, face)

    def to_json(self) -> str:
        """The game as a save file: versioned JSON with the setup, the seed and every action."""
        from .savefile import game_to_json

        return game_to_json(self)

    @staticmethod
    def from_json(text: str | bytes, rules: Rules | None = None) -> Game:
        """Load a save file: replay every action and verify the result (SaveFileError if anything is wrong)."""
        from .savefile import game_from_json

        return game_from_json(text, rules)

    def __repr__(self) -> str:
        return (f"<Game {self.variant} round {self.round}, {self.phase}, active {self.active}, "
                f"{len(self.typhoons_)} typhoons, hp {self.hp}>")


# ---------------------------------------------------------------------- replay, undo, save files
def _setup_of(game: Game) -> dict[str, Any]:
    return {
        "players": list(game.players),
        "variant": game.variant,
        "dice": game.dice,
        "start": game.players[game.start_seat],
    }


def replay(setup: dict[str, Any], seed: int, actions: Sequence[Action | str], rules: Rules | None = None) -> Game:
    """Rebuild a game from its setup, seed and every action (die faces included).

    Raises :class:`IllegalActionError` naming the first action that is not legal.
    """
    g = Game.new(setup["players"], seed=seed, variant=setup["variant"], dice="manual", start=setup["start"], rules=rules)
    for i, a in enumerate(actions):
        try:
            g.apply(a)
        except IllegalActionError as exc:
            text = a.notation if isinstance(a, Action) else a
            raise IllegalActionError(f"action #{i + 1} ({text!r}) is not legal at that point: {exc}") from None
    g.dice = setup["dice"]
    if g.dice == "auto":
        rolls = sum(1 for a in g.history if a.kind == "die")
        g._rng = random.Random(seed)
        g._rolls = rolls
        for _ in range(rolls):
            g._rng.random()
        g._run()
    return g


def _undo(game: Game) -> list[Action]:
    hist = game.history
    i = len(hist) - 1
    while i >= 0 and hist[i].kind == "die":
        i -= 1
    if i < 0:
        raise IllegalActionError("there is no decision to undo yet", kind="undo_none")
    if i != len(hist) - 1:
        raise IllegalActionError(
            "the last decision was followed by a die roll, and undo never goes back across a die roll", kind="undo_die"
        )
    return hist[:i]


def _restore(game: Game, other: Game) -> None:
    game.__dict__.clear()
    game.__dict__.update(other.__dict__)


def undo(game: Game) -> Action:
    """Take back the last player decision (not across a die roll); return the undone action."""
    if getattr(game, "_scenario", False):
        raise IllegalActionError("a position built by hand (a scenario) has no history to undo", kind="undo_none")
    keep = _undo(game)
    undone = game.history[len(keep)]
    _restore(game, replay(_setup_of(game), game.seed, keep, game.rules))
    return undone


def correct_die(game: Game, face: int) -> None:
    """Replace the face of the most recent die roll (a mistyped real die), if no decision followed it."""
    if game.dice != "manual":
        raise IllegalActionError("only a typed (manual) die roll can be corrected; this game rolls its own dice")
    if not game.history or game.history[-1].kind != "die":
        raise IllegalActionError("the last action was not a die roll, so there is no roll to correct")
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
        raise IllegalActionError(f"a die shows 1 to 6; {face!r} is not a face of the die")
    actions = game.history[:-1] + [_DIE_ACTIONS[face - 1]]
    _restore(game, replay(_setup_of(game), game.seed, actions, game.rules))

