"""A room as one kernel sees it: the game replayed from the store, kept in step, and acted on.

A :class:`Room` is a *client* of the room store (boardgame.io's master/client split, with the
store as the master's storage): it rebuilds the game from setup + seed + log, verifying every
action with the engine, and :meth:`Room.sync` applies only the entries it has not seen yet
(one indexed row read when nothing changed). :meth:`Room.act` checks that the decision belongs
to the caller (a seat's device token, or the teacher) and is legal (on a clone), then appends
it, with the die faces that follow it in an automatic-dice game, in one transaction that
succeeds only if nobody moved first.

Who opens a room how:

- the projector / teacher: :meth:`Room.open` by code or id (sees the whole game, runs the bots,
  has the teacher's controls);
- a seat's device: :meth:`Room.open_seat` with its token, or :meth:`Room.join` with the room
  code and a free seat; it only ever hands out that seat's view (:meth:`Room.seat_view`).

>>> from typhoon_edu.classroom.store import RoomStore
>>> store = RoomStore("sqlite://")
>>> from typhoon_edu.classroom.teachers import local_teacher
>>> room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")], seed=3, lang="en",
...                    teacher=local_teacher(store))
>>> device = Room.open_seat(store, room.issued_tokens["Taiwan"])
>>> device.viewer, device.seat_view().my_turn
('Taiwan', True)
>>> _ = device.act("place 8,8")
>>> room.sync().entries[0].notation                 # the projector sees the move
'place 8,8'
>>> while room.bot_to_move():
...     _ = room.step_bot()
>>> device.sync().seq == room.seq
True
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action
from ..engine.events import DamageDealt, Event, filter_events
from ..engine.game import CHANCE, DICE_MODES, VARIANTS, Game
from ..engine.rules import IllegalActionError, load_rules
from ..i18n import normalize_lang
from . import log as control
from .codes import looks_like_code, new_token, token_hash
from .errors import NotAllowed, RoomBroken, RoomNotFound, SeatError, StaleWrite, StoreError, TokenRejected
from .links import new_nonce, seat_link_token
from .names import clean_name
from .store import (
    ENDED,
    FINISHED,
    LOCAL_TEACHER,
    OPEN,
    SEAT_KINDS,
    ActionRow,
    NewSeat,
    RoomRow,
    RoomStore,
    SeatRow,
    devices_allowed,
    valid_speed,
)
from .teachers import Teacher, key_withdrawn

log = logging.getLogger(__name__)

SETUP_FORMAT = 1
#: The dashboard's bot levels, accepted wherever a seat kind is.
BOT_LEVELS = {"easy": "random", "medium": "greedy", "hard": "mcts"}
TEACHER = "teacher"
DICE = "chance"  # who wrote an automatic die roll that no decision came with
TIMER = "timer"  # who wrote the decision the easy bot made for a team whose time ran out
#: The teacher's turn timer: 0 (off) or this many seconds per person decision.
TURN_SECONDS = (10, 600)
TIMER_BOT = "random"  # the easy bot: a turn played for a slow team should not be a masterstroke
#: A seat's page says it is there at most every HEARTBEAT seconds (:meth:`Room.heartbeat`: one small write each, so
#: five phones make half a write a second); the teacher's drawer calls a seat seen within CONNECTED seconds connected.
HEARTBEAT = 10.0
CONNECTED = 30.0


@dataclass(frozen=True)
class Seat:
    """A seat to create a room with (the same fields as the dashboard's ``Seat``)."""

    region: str
    kind: str = "person"  # person, random, greedy, mcts
    name: str = ""


@dataclass(frozen=True)
class SeatInfo:
    """What anyone may know about a seat (never its token)."""

    region: str
    kind: str
    name: str
    has_device: bool  # a live device token exists for it
    joined: bool  # a device has opened it
    revoked: bool
    bound: bool = False  # its link is kept by the first device that opened it

    @property
    def is_person(self) -> bool:
        return self.kind == "person"


@dataclass(frozen=True)
class Presence:
    """Whether a seat's device is there, as the teacher's drawer says it (:meth:`Room.presence`).

    ``seen``: when its page last said it is there (the store's clock), None if no device has since it
    was (last) joined; ``ago``: seconds since then, by the same clock.

    >>> Presence("Taiwan", 100.0, 12.0).state, Presence("Taiwan", 100.0, 200.0).state, Presence("Taiwan", None, None).state
    ('connected', 'away', 'never')
    """

    region: str
    seen: float | None
    ago: float | None

    @property
    def state(self) -> str:
        """``connected`` (seen within :data:`CONNECTED` s), ``away`` (seen before: a closed or sleeping device) or
        ``never``."""
        if self.seen is None or self.ago is None:
            return "never"
        return "connected" if self.ago <= CONNECTED else "away"


@dataclass(frozen=True)
class LogEntry:
    seq: int
    notation: str
    by: str
    at: float


@dataclass(frozen=True)
class Update:
    """What changed since this view last asked (returned by sync, act, step_bot and the teacher's controls).

    ``events``: the new events this view may see, in order (a seat's own drawn cards only; the
    projector's are public). ``rebuilt``: the game was rebuilt (an undo or a corrected die):
    redraw from the state and re-read the log with :meth:`Room.events`. ``meta_changed``:
    seats, pause, status, hints, language or the class's speed changed.
    """

    events: tuple[Event, ...] = ()
    entries: tuple[LogEntry, ...] = ()
    rebuilt: bool = False
    meta_changed: bool = False
    seq: int = 0
    version: int = 0

    def __bool__(self) -> bool:
        return bool(self.events or self.entries or self.rebuilt or self.meta_changed)


@dataclass(frozen=True)
class SeatView:
    """Everything one seat's device may see, built only from ``observation(region)`` and
    ``visible_events(region)``: its hand, its decisions, the public board; never another hand."""

    region: str
    name: str
    observation: dict[str, Any]
    legal_actions: tuple[Action, ...]  # this seat's decisions now ([] when it is not its turn)
    events: tuple[Event, ...]
    my_turn: bool
    waiting_for: str | None  # region key, "chance" for a die roll, None when over
    may_type_die: bool  # a typed (manual) die roll this seat may enter
    seq: int
    version: int
    paused: bool
    status: str

    @property
    def hand(self) -> list[str]:
        return list(self.observation["hand"])


@dataclass(frozen=True)
class PublicView:
    """The board as everyone may see it (the projector when seats have devices): no hand, no deck order."""

    observation: dict[str, Any]  # observation() without "you", "hand" and "legal_actions"
    names: dict[str, str]
    waiting_for: str | None
    seq: int
    version: int
    paused: bool
    status: str


@dataclass
class BotJob:
    """A bot's decision to think about: :meth:`think` may run in a worker thread (it works on a copy)."""

    region: str  # the seat, or "chance" for an automatic die roll that is due
    kind: str
    expected_seq: int
    game: Game
    bot: Any = None

    def think(self) -> Action | None:
        return None if self.bot is None else self.bot.choose(self.game)


@dataclass
class HintJob:
    """A coach's hint to think about: :meth:`think` may run in a worker thread (it works on a copy
    of the game taken by :meth:`Room.prepare_hint`, never on the room's live game)."""

    region: str
    seq: int  # the room's last entry when the copy was taken
    game: Game
    iterations: int | None = None

    def think(self) -> Any:
        from ..ai import coach

        if self.iterations is None:
            return coach.hint(self.game, self.region)
        return coach.hint(self.game, self.region, iterations=self.iterations)


# ---------------------------------------------------------------------- replay
def setup_of(row: RoomRow) -> dict[str, Any]:
    """The room's setup, checked; RoomBroken(kind="setup" or "rules") if it cannot be played."""
    if row.problem:
        raise RoomBroken(f"room {row.code}: {row.problem}", kind="setup")
    try:
        setup = row.setup_dict()
    except ValueError as exc:
        raise RoomBroken(f"room {row.code}: its stored setup is damaged ({exc})", kind="setup") from None
    players = setup.get("players")
    problems = []
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        problems.append("'players' is not a list of regions")
    if setup.get("variant") not in VARIANTS:
        problems.append(f"'variant' is not one of {', '.join(VARIANTS)}")
    if setup.get("dice") not in DICE_MODES:
        problems.append(f"'dice' is not one of {', '.join(DICE_MODES)}")
    if not isinstance(setup.get("start"), str):
        problems.append("'start' is not a region")
    seed = setup.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        problems.append("'seed' is not a whole number")
    if problems:
        raise RoomBroken(f"room {row.code}: its stored setup is damaged ({'; '.join(problems)})", kind="setup")
    rules = load_rules()
    if not rules.accepts(str(setup.get("rules_digest"))):
        raise RoomBroken(f"room {row.code} was played with different rules data (digest {setup.get('rules_digest')}); "
                         f"these rules have digest {rules.digest}", kind="rules")
    return setup


def _new_game(setup: dict[str, Any], code: str) -> Game:
    try:
        # Always manual: the log holds every die face, so replay applies them like typed ones.
        return Game.new(setup["players"], seed=setup["seed"], variant=setup["variant"], dice="manual",
                        start=setup["start"])
    except ValueError as exc:
        raise RoomBroken(f"room {code}: its stored setup is damaged ({exc})", kind="setup") from None


def _apply_logged(game: Game, notation: str, seq: int, code: str) -> list[Event]:
    try:
        return game.apply(notation)
    except IllegalActionError as exc:
        raise RoomBroken(f"room {code}: log entry #{seq} ({notation!r}) is not legal at that point: {exc}",
                         kind="replay", seq=seq) from None


def _hp_point(game: Game, events: Sequence[Event]) -> bool:
    return game.is_over or any(isinstance(e, DamageDealt) for e in events)


def _what(entries: Sequence[str]) -> str:
    """What writing ``entries`` to the log does, as the store's failure names it (:data:`.errors.UNSAVED`).

    >>> _what(["die 4"]), _what(["undo"]), _what(["correct 2"]), _what(["place 8,8"])
    ('save the die roll', 'save the undo', 'save the corrected die', 'save the move')
    """
    if list(entries) == [control.UNDO]:
        return "save the undo"
    if entries and all(e.startswith(control.CORRECT + " ") for e in entries):
        return "save the corrected die"
    if entries and all(control.is_die(e) for e in entries):
        return "save the die roll"
    return "save the move"


def rebuild(setup: dict[str, Any], notations: Sequence[str], code: str = "") -> tuple[Game, list[dict[str, int]]]:
    """The game of a log (control entries applied) and its HP track; RoomBroken if it does not replay."""
    try:
        actions = control.effective(notations)
    except ValueError as exc:
        raise RoomBroken(f"room {code}: {exc}", kind="replay") from None
    game = _new_game(setup, code)
    track = [dict(game.hp)]
    for i, n in enumerate(actions, 1):
        events = _apply_logged(game, n, i, code)
        if _hp_point(game, events):
            track.append(dict(game.hp))
    return game, track


def seat_kind(kind: str) -> str:
    """A seat kind from a kind or a bot level; SeatError(kind="bad_kind") otherwise.

    >>> seat_kind("hard"), seat_kind("person")
    ('mcts', 'person')
    """
    kind = BOT_LEVELS.get(kind, kind)
    if kind not in SEAT_KINDS:
        raise SeatError(f"a seat is a person or a bot ({', '.join(SEAT_KINDS[1:])}, or easy, medium, hard); "
                        f"got {kind!r}", kind="bad_kind", seat_kind=kind)
    return kind


def check_seats(seats: Sequence[SeatRow], setup: dict[str, Any], code: str) -> None:
    """RoomBroken(kind="setup") unless the seats are the game's players, in order, each a person or a bot."""
    if [s.region for s in seats] != list(setup["players"]):
        raise RoomBroken(f"room {code}: its seats do not match the game's players", kind="setup")
    odd = [f"{s.region}: {s.kind!r}" for s in seats if s.kind not in SEAT_KINDS]
    if odd:
        raise RoomBroken(f"room {code}: a seat is neither a person nor a bot ({', '.join(odd)})", kind="setup")


def _seat_info(s: SeatRow) -> SeatInfo:
    return SeatInfo(s.region, s.kind, clean_name(s.name), s.token_hash is not None and not s.revoked, s.joined is not None,
                    s.revoked, s.device_hash is not None)


def _without_seen(seats: Sequence[SeatRow]) -> tuple[SeatRow, ...]:
    """The seats without their last-seen times (which change every few seconds without changing the room)."""
    return tuple(dataclasses.replace(s, seen=None) for s in seats)


def _entry(a: ActionRow) -> LogEntry:
    return LogEntry(a.seq, a.notation, a.by, a.at)


#: Why an undo is refused (:meth:`Room.why_no_undo`'s kinds), in the words of the rule.
_UNDO_REFUSED = {
    "undo_die": "the last decision was followed by a die roll, and undo never goes back across a die roll",
    "undo_none": "there is no decision to undo yet",
    "undo_not_person": "only a person's last decision can be taken back, and never across a die roll",
}


class Room:
    """One room, replayed in this kernel. Build it with :meth:`create`, :meth:`open`,
    :meth:`open_seat` or :meth:`join`; call it from one thread (the kernel's event loop)."""

    # -------------------------------------------------------------- making and opening
    def __init__(self, store: RoomStore, row: RoomRow, seats: Sequence[SeatRow], actions: Sequence[ActionRow], *,
                 viewer: str | None = None, token: str | None = None, teacher: Teacher | None = None) -> None:
        self.store = store
        self.id = row.id
        self.code = row.code
        self.viewer = viewer
        #: The teacher this room was opened for (a seat's room, or a page without a key: None).
        self.teacher = teacher if viewer is None else None
        self._token = token
        self._token_hash = None if token is None else token_hash(token)
        self.issued_tokens: dict[str, str] = {}
        self._bots: dict[tuple[str, str], Any] = {}
        self._dead: TokenRejected | None = None
        self._lost: str | None = None  # the teacher's key was taken away (teacher_lost)
        self._row = row
        self._seats: tuple[SeatRow, ...] = tuple(seats)
        self._setup = setup_of(row)
        self._check_seats()
        self._entries: list[LogEntry] = [_entry(a) for a in actions]
        self._check_contiguous(self._entries, 1)
        self._head = self._entries[-1].seq if self._entries else 0
        if self._head != row.head:
            raise RoomBroken(f"room {row.code}: its log ends at #{self._head} but the room says #{row.head}",
                             kind="replay")
        self._version = row.version
        self._rebuild()
        self._pending_entries: list[LogEntry] = []
        self._pending_meta = False
        self._pending_rebuilt = False
        #: The clock a seat's page paces its heartbeat by (monotonic, this kernel's; replaceable for tests).
        self.beat_clock: Any = time.monotonic
        self._beat_at: float | None = None  # when this room last tried to note its seat as there (beat_clock)
        self._check_own_seat()

    def _check_seats(self) -> None:
        check_seats(self._seats, self._setup, self.code)

    def _check_contiguous(self, entries: Sequence[LogEntry], first: int) -> None:
        for i, e in enumerate(entries):
            if e.seq != first + i:
                raise RoomBroken(f"room {self.code}: log entry #{first + i} is missing", kind="replay")

    def _rebuild(self) -> None:
        self._game, self._hp_track = rebuild(self._setup, [e.notation for e in self._entries], self.code)
        self._effective = control.effective(e.notation for e in self._entries)
        self._rolls = sum(1 for n in self._effective if control.is_die(n))
        self._cursor = len(self._game.events)

    @classmethod
    def create(cls, store: RoomStore, seats: Sequence[Any], *, teacher: Teacher, seed: int | None = None,
               variant: str = "standard", dice: str = "auto", start: str | None = None, lang: str = "zh-TW",
               hints: bool = True, options: dict[str, Any] | None = None, lobby: bool = False,
               after: Room | None = None, speed: float = 1.0) -> Room:
        """A new room of ``teacher`` with these seats (3–5, clockwise; each a :class:`Seat` or anything
        with ``region``, ``kind``, ``name``). Every person seat gets a seat link's device token, in
        ``room.issued_tokens`` of the returned (teacher's) room, and again from :meth:`join_links`;
        the store keeps their hashes. With ``options={"devices": False}`` (the class plays on one
        computer) no seat gets a link, and no device can join one (SeatError ``no_devices``).

        ``lobby=True``: the room waits in the lobby while the teams join; no decision is taken (a
        team's is refused, NotAllowed ``not_started``; no bot moves) until the teacher's
        :meth:`begin`. ``after``: the teacher's room this one is a rematch of; it then names this
        one as its successor (:attr:`successor`), so the devices still on it are offered their
        seats here (:meth:`follow`). It must be the same teacher's (NotAllowed ``not_your_room``).
        The first rematch of a room wins: if ``after`` already names an open successor (a second
        teacher page, a reload of the results, a double tap), nothing is made and that room is
        returned, opened as :meth:`open` does, its seat links in ``issued_tokens`` (:meth:`join_links`),
        so every page shows the same new game and every phone that follows finds its team there
        (the store decides it atomically, :meth:`RoomStore.create_room`).

        ``speed``: the class's animation speed the teacher chose (:attr:`speed`; ValueError, and nothing
        is made, if it is not a number from 0 to 8).
        """
        if not isinstance(teacher, Teacher):
            raise NotAllowed("only a teacher may set up a room (this page has no teacher's key)", kind="teacher_only")
        if key_withdrawn(store, teacher) is not None:  # a page still open with a key taken away sets up nothing
            raise NotAllowed("only a teacher may set up a room (this page's teacher key was removed or replaced)",
                             kind="teacher_only")
        if after is not None and not owns(store.room(after.id), teacher):
            raise NotAllowed(f"room {after.code} belongs to another teacher", kind="not_your_room")
        rules = load_rules()
        lang = normalize_lang(lang)
        specs = []
        for s in seats:
            kind = seat_kind(getattr(s, "kind", "person"))
            specs.append((rules.region_key(s.region), kind, clean_name(getattr(s, "name", "") or "")))
        game = Game.new([r for r, _, _ in specs], seed=seed, variant=variant, dice=dice, start=start, rules=rules)
        import uuid

        room_id = uuid.uuid4().hex
        with_devices = devices_allowed({"options": options} if options else None)
        nonces = {r: new_nonce() for r, k, _ in specs if k == "person" and with_devices}
        tokens = {r: seat_link_token(store.link_secret, room_id, r, n) for r, n in nonces.items()}
        setup = {"format": SETUP_FORMAT, "players": list(game.players), "variant": game.variant, "dice": game.dice,
                 "start": game.players[game.start_seat], "seed": game.seed, "edition": rules.edition,
                 "rules_digest": rules.digest}
        if options:
            setup["options"] = {str(k): v for k, v in options.items() if isinstance(v, (bool, int, str))}
        row = store.create_room(
            setup=setup, lang=lang, hints_enabled=hints, by=DICE,
            seats=[NewSeat(r, k, n, token_hash(tokens[r]) if r in tokens else None, nonces.get(r))
                   for r, k, n in specs],
            actions=[a.notation for a in game.history],  # dice an advanced setup rolls before the first decision
            owner=teacher.id, room_id=room_id, lobby=lobby, predecessor=None if after is None else after.id,
            speed=speed)
        room = cls.open(store, row.id, teacher=teacher)
        # (another rematch of ``after`` came first: its room, with its links as they are now)
        room.issued_tokens = tokens if row.id == room_id else room.join_links()
        if after is not None:
            after._catch_up()  # the old room's page sees its successor at once
        return room

    @classmethod
    def open(cls, store: RoomStore, code_or_id: str, *, teacher: Teacher | None) -> Room:
        """The teacher's (projector's) view of a room, by its join code or its id.

        ``teacher``: the teacher the page proved it is (:func:`~typhoon_edu.classroom.teachers.teacher_for_key`);
        NotAllowed (``not_your_room``) if the room is another teacher's. With None the room can
        be watched (its public view) but none of the teacher's actions works.
        RoomNotFound if there is none; RoomBroken (with the reason) if its log no longer replays.
        """
        text = str(code_or_id).strip()
        row = store.room_by_code(text) if looks_like_code(text) else store.room(text)
        if teacher is not None and not owns(row, teacher):
            raise NotAllowed(f"room {row.code} belongs to another teacher", kind="not_your_room")
        snap = store.snapshot(row.id)
        return cls(store, snap.room, snap.seats, snap.actions, teacher=teacher)

    @classmethod
    def take(cls, store: RoomStore, handover: str, *, teacher: Teacher) -> Room:
        """Take over a colleague's room by the hand-over link they chose to share (it works once)."""
        if not isinstance(teacher, Teacher):
            raise NotAllowed("only a teacher may take over a room (this page has no teacher's key)",
                             kind="teacher_only")
        row = store.take_room(token_hash(str(handover)), teacher.id, hold=True)  # a key taken away takes nothing
        return cls.open(store, row.id, teacher=teacher)

    @classmethod
    def open_seat(cls, store: RoomStore, token: str, device: str | None = None) -> Room:
        """A seat's device view, by its token; TokenRejected if the token is unknown, revoked or its game over.

        ``device``: the id of the device opening it (a cookie the server gives each browser). The
        first device that opens a seat link keeps it; another device gets TokenRejected
        (``device_bound``) until the teacher resets the seat's device (:meth:`reset_device`).
        """
        h = token_hash(token)
        row, seat = store.seat_by_token(h)
        store.bind_device(h, device_hash(device))
        store.mark_joined(h)
        snap = store.snapshot(row.id)
        return cls(store, snap.room, snap.seats, snap.actions, viewer=seat.region, token=token)

    @classmethod
    def join(cls, store: RoomStore, code: str, region: str, device: str | None = None) -> tuple[Room, str]:
        """Join by typing the room code and picking a free person seat; returns the seat's room and its new token.

        SeatError ``seat_taken`` if a device already joined that seat. The token the projector
        showed for that seat stops working (its QR code is replaced by "joined"); the new one is
        bound to ``device``.
        """
        row = store.room_by_code(code)
        if not row.is_open:
            raise TokenRejected("the game in this room has ended", kind="room_over")
        try:
            key = load_rules().region_key(region)
        except ValueError as exc:
            raise SeatError(str(exc), kind="no_such_seat", region=region) from None
        token = new_token()
        store.claim_seat(row.id, key, token_hash(token), device_hash(device))
        return cls.open_seat(store, token, device), token

    @classmethod
    def follow(cls, store: RoomStore, token: str, device: str | None = None) -> tuple[Room, str]:
        """A device still on a finished room takes its own seat in the teacher's rematch (:attr:`successor`).

        ``token``: the device token of its seat in the old room; ``device``: the device's id. It
        gets the seat of the same region in the new room, by a fresh token bound to this device, as
        joining by the room code does (the seat's QR code on the projector turns to "joined").
        Only from a room whose game is over (finished, or ended by the teacher; NotAllowed
        ``game_not_over`` while it is still played, even if a successor is named).
        Only a device that held the seat may: the old seat must have been opened by a device, be
        neither revoked nor replaced, and, bound to a device, be this device's (TokenRejected
        ``token_unknown``, ``token_revoked``, ``device_bound``; NotAllowed ``no_rematch`` when the old
        seat was never opened or there is no rematch). The new seat must be a free person seat
        (SeatError ``no_such_seat``, ``seat_taken``; NotAllowed ``bot_seat``). Returns the new
        seat's room and its token. The region is the old seat's, never the caller's word.
        """
        old_seat, new_row = _rematch_of(store, token, device)
        token_new = new_token()
        store.claim_seat(new_row.id, old_seat.region, token_hash(token_new), device_hash(device))
        return cls.open_seat(store, token_new, device), token_new

    # -------------------------------------------------------------- what the room is now
    @property
    def seq(self) -> int:
        """The sequence number of the last log entry this room has applied (0: none)."""
        return self._head

    @property
    def next_seq(self) -> int:
        """The number a new action gets: pass it as ``expected_seq`` with the decision the view showed."""
        return self._head + 1

    @property
    def version(self) -> int:
        return self._version

    @property
    def status(self) -> str:
        return self._row.status

    @property
    def is_open(self) -> bool:
        return self._row.status == OPEN

    @property
    def paused(self) -> bool:
        return self._row.paused

    @property
    def begun(self) -> bool:
        """Whether the game has begun: False while the room waits in the lobby for the teacher's :meth:`begin`."""
        return not self._row.lobby

    @property
    def successor(self) -> str | None:
        """The id of the room the teacher's rematch made after this one (None: none yet)."""
        return self._row.successor

    @property
    def hints_enabled(self) -> bool:
        return self._row.hints_enabled

    @property
    def speed(self) -> float:
        """The class's animation speed, as the teacher chose it on the projector (0: no animation; 1: Normal, also for a
        room from before it was kept). Every team's phone animates at it; any page of the room may read it."""
        return self._row.speed

    @property
    def turn_seconds(self) -> int:
        """The teacher's turn timer: seconds per person decision (0: off)."""
        return max(0, self._row.turn_seconds)

    def turn_deadline(self) -> float | None:
        """When (``time.time()``) the time for the person decision now waited on runs out; None without one.

        None when the timer is off, the game is paused, closed or over, or a bot or a die decides
        now. Any page of the room may ask (a phone shows its own countdown).

        >>> from typhoon_edu.classroom.store import RoomStore
        >>> from typhoon_edu.classroom.teachers import local_teacher
        >>> store = RoomStore("sqlite://")
        >>> room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")],
        ...                    seed=3, lang="en", teacher=local_teacher(store))
        >>> room.turn_deadline() is None                      # off until the teacher sets it
        True
        >>> _ = room.set_turn_timer(30)
        >>> 29 < room.turn_deadline() - time.time() <= 30     # Taiwan (a person) decides now
        True
        >>> _ = room.pause(); room.turn_deadline() is None    # a pause stops the clock
        True
        """
        seconds = self.turn_seconds
        if seconds <= 0 or not self.is_open or self.paused or not self.begun or self._row.turn_since is None:
            return None
        who = self._game.current_player
        if who is None or who == CHANCE or self._seat_row(who).kind != "person":
            return None
        return self._row.turn_since + seconds

    @property
    def lang(self) -> str:
        return self._row.lang

    @property
    def dice(self) -> str:
        return str(self._setup["dice"])

    @property
    def setup(self) -> dict[str, Any]:
        """players, variant, dice, start, seed, edition, rules_digest."""
        return dict(self._setup)

    @property
    def options(self) -> dict[str, Any]:
        """How the class plays this room (e.g. ``devices``: hands on phones, or one computer); {} if none."""
        opts = self._setup.get("options")
        return dict(opts) if isinstance(opts, dict) else {}

    @property
    def devices(self) -> bool:
        """Whether teams join this room on their devices (False: one computer; no seat is a device's)."""
        return devices_allowed(self._setup)

    @property
    def players(self) -> tuple[str, ...]:
        return self._game.players

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(_seat_info(s) for s in self._seats)

    def seat(self, region: str) -> SeatInfo:
        return _seat_info(self._seat_row(region))

    def _seat_row(self, region: str) -> SeatRow:
        for s in self._seats:
            if s.region == region:
                return s
        key = load_rules().region_key(region) if region not in (CHANCE, TEACHER) else region
        for s in self._seats:
            if s.region == key:
                return s
        raise SeatError(f"this room has no seat {region}; its seats are {', '.join(self.players)}",
                        kind="no_such_seat", region=region)

    def display_name(self, region: str) -> str:
        s = self._seat_row(region)
        return clean_name(s.name) or region

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def waiting_for(self) -> str | None:
        """Whose decision is pending: a region key, ``"chance"`` for a die roll, None when over."""
        return self._game.current_player

    @property
    def waiting_for_person(self) -> bool:
        """True when a person (or a typed die) decides now."""
        who = self._game.current_player
        if who is None:
            return False
        if who == CHANCE:
            return self.dice == "manual"
        return self._seat_row(who).kind == "person"

    @property
    def game(self) -> Game:
        """The full game (teacher's room only; do not change it: act through :meth:`act`)."""
        self._need_teacher("see the whole game", fresh=False)
        return self._game

    @property
    def entries(self) -> tuple[LogEntry, ...]:
        """The whole log (control entries included), teacher's room only."""
        self._need_teacher("read the log", fresh=False)
        return tuple(self._entries)

    def events(self, since: int = 0) -> list[Event]:
        """The event log as this view may see it (public for the projector, the seat's own for a device)."""
        return filter_events(self._game.events[since:], self.viewer)

    def seat_view(self, region: str | None = None, since: int = 0) -> SeatView:
        """One seat's view: its observation, its legal decisions, its filtered events.

        A device's room gives only its own seat; the teacher's room gives any seat (the
        one-computer curtain: show it only after "tap to see your hand").
        """
        self._alive()
        if region is None:
            if self.viewer is None:
                raise ValueError("the teacher's room needs the region of the seat to show")
            region = self.viewer
        region = self._seat_row(region).region
        if self.viewer is not None and region != self.viewer:
            raise NotAllowed(f"this device plays {self.viewer}; it cannot see {region}'s seat", kind="teacher_only")
        if self.viewer is None:
            self._need_teacher("see a seat's hand", fresh=False)
        g = self._game
        obs = g.observation(region)
        who = g.current_player
        may_die = (who == CHANCE and self.dice == "manual" and g.active == region and self.is_open
                   and not self.paused and self.begun)
        if (who == region and self.begun) or may_die:
            legal = tuple(g.legal_actions())
        else:
            legal = ()
        return SeatView(region, self.display_name(region), obs, legal, tuple(filter_events(g.events[since:], region)),
                        who == region, who, may_die, self._head, self._version, self.paused, self.status)

    def public_view(self) -> PublicView:
        """The board as everyone may see it: no hand, no legal actions (which would name cards)."""
        self._alive()
        g = self._game
        obs = g.observation(g.players[0])
        for key in ("you", "hand", "legal_actions"):
            obs.pop(key, None)
        return PublicView(obs, {p: self.display_name(p) for p in g.players}, g.current_player, self._head,
                          self._version, self.paused, self.status)

    @property
    def hp_track(self) -> list[dict[str, int]]:
        """HP of every region at the start and after each action that dealt damage (and at the end)."""
        return [dict(h) for h in self._hp_track]

    @property
    def teacher_lost(self) -> str | None:
        """Whether the key this (teacher's) room was opened with has been taken away since, as this kernel last saw:
        ``"removed"`` (``typhoon-edu teacher remove``: the room went to the local teacher) or ``"replaced"``
        (``teacher new-key``: the room went to the teacher's new id); None otherwise (a seat's room too).

        Noticed by :meth:`sync` when the room changes owner, and by a teacher action it refuses; from then on every
        teacher action is refused (NotAllowed ``not_your_room``) and no bot is run here. The teams' devices play on.

        >>> from typhoon_edu.classroom.store import RoomStore
        >>> from typhoon_edu.classroom.teachers import add_teacher, remove_teacher
        >>> store = RoomStore("sqlite://")
        >>> lin, _ = add_teacher(store, "Ms Lin")
        >>> room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea")], seed=3, teacher=lin)
        >>> room.teacher_lost is None
        True
        >>> _ = remove_teacher(store, lin)
        >>> room.sync().meta_changed, room.teacher_lost, room.bot_to_move()
        (True, 'removed', None)
        """
        return self._lost

    def _check_owner(self, row: RoomRow) -> bool:
        """Whether this room's teacher owns ``row``; if not, note whether their key was taken away (teacher_lost)."""
        if self.teacher is None or owns(row, self.teacher):
            return True
        if self._lost is None:
            self._lost = key_withdrawn(self.store, self.teacher)
        return False

    def _need_teacher(self, what: str, *, fresh: bool = True) -> None:
        """NotAllowed unless this room was opened with the key of the teacher who owns it.

        ``fresh``: read the owner from the store (a room handed over a moment ago in another
        kernel is no longer this teacher's); reads of what this kernel already has skip it.
        """
        if self.viewer is not None or self.teacher is None:
            raise NotAllowed(f"only the teacher may {what}", kind="teacher_only")
        if self._lost is not None:
            raise NotAllowed(f"only the teacher whose room this is may {what} (this page's teacher key was "
                             f"{self._lost})", kind="not_your_room")
        row = self.store.room(self.id) if fresh else self._row
        if not self._check_owner(row):
            raise NotAllowed(f"only the teacher whose room this is may {what}", kind="not_your_room")

    def _alive(self) -> None:
        if self._dead is not None:
            raise self._dead

    # -------------------------------------------------------------- keeping in step
    def changed(self) -> bool:
        """Whether the store has something this room has not applied (one indexed row read)."""
        h = self.store.head(self.id)
        return h.version != self._version or h.seq != self._head

    def sync(self) -> Update:
        """Read and apply what others wrote since the last call; returns what changed.

        Cheap when nothing changed (one row read). A device whose token was revoked or replaced
        gets TokenRejected and sees nothing more; RoomNotFound if the room was deleted;
        RoomBroken if a new entry does not replay.
        """
        self._alive()
        self._pull()
        self._alive()
        return self._deliver()

    def _pull(self) -> None:
        h = self.store.head(self.id)
        if h.version == self._version and h.seq == self._head:
            return
        snap = self.store.snapshot(self.id, after=self._head)
        self._take_meta(snap.room, snap.seats)
        new = [_entry(a) for a in snap.actions]
        self._check_contiguous(new, self._head + 1)
        self._take_entries(new)
        self._version = snap.room.version

    def _take_meta(self, row: RoomRow, seats: Sequence[SeatRow]) -> None:
        old = (self._row.status, self._row.paused, self._row.hints_enabled, self._row.lang, self._row.lobby,
               self._row.successor, self._row.speed, _without_seen(self._seats))
        # The timer's count restarts with every move too; only a restart without a move (the teacher
        # set it again) is news of its own.
        timer_changed = row.turn_seconds != self._row.turn_seconds or (
            row.turn_seconds > 0 and row.turn_since != self._row.turn_since and row.head == self._row.head)
        self._row = row
        self._seats = tuple(seats)
        self._check_seats()
        if self.viewer is None and self._lost is None and not self._check_owner(row) and self._lost is not None:
            self._pending_meta = True  # the page's teacher key was taken away: news to the teacher's page
        if old != (row.status, row.paused, row.hints_enabled, row.lang, row.lobby, row.successor, row.speed,
                   _without_seen(self._seats)) or timer_changed:  # a page's heartbeat is no news to the views
            self._pending_meta = True
        self._check_own_seat()

    def _check_own_seat(self) -> None:
        if self.viewer is None:
            return
        s = self._seat_row(self.viewer)
        if s.revoked and s.token_hash == self._token_hash:
            self._dead = TokenRejected("the teacher revoked this device's token", kind="token_revoked")
        elif s.token_hash != self._token_hash:
            self._dead = TokenRejected("this device's token was replaced; it no longer opens the seat",
                                       kind="token_unknown")

    def _take_entries(self, new: Sequence[LogEntry]) -> None:
        if not new:
            return
        self._entries.extend(new)
        self._head = new[-1].seq
        self._pending_entries.extend(new)
        if any(control.is_control(e.notation) for e in new):
            self._rebuild()
            self._pending_rebuilt = True
            return
        g = self._game
        for e in new:
            events = _apply_logged(g, e.notation, e.seq, self.code)
            self._effective.append(e.notation)
            if control.is_die(e.notation):
                self._rolls += 1
            if _hp_point(g, events):
                self._hp_track.append(dict(g.hp))

    def _deliver(self) -> Update:
        events = () if self._pending_rebuilt else tuple(filter_events(self._game.events[self._cursor:], self.viewer))
        self._cursor = len(self._game.events)
        out = Update(events, tuple(self._pending_entries), self._pending_rebuilt, self._pending_meta, self._head,
                     self._version)
        self._pending_entries, self._pending_meta, self._pending_rebuilt = [], False, False
        return out

    def _catch_up(self) -> None:
        """After a refused write: apply what the others wrote (delivered by the next sync)."""
        try:
            self._pull()
        except (TokenRejected, RoomBroken):
            raise
        except Exception:  # noqa: BLE001 - the refused write's own error is the one to report
            pass

    # -------------------------------------------------------------- acting
    def _dice_rng(self) -> random.Random:
        # The automatic die of a live game: random.Random(seed), one draw per roll so far (as replay sets it).
        rng = random.Random(self._setup["seed"])
        for _ in range(self._rolls):
            rng.random()
        return rng

    def _entries_for(self, action: Action | str | int | None) -> tuple[list[str], bool]:
        """The log entries ``action`` makes (it, then the automatic dice after it), checked on a clone."""
        c = self._game.clone()
        if self.dice == "auto":
            c.dice = "auto"
            c._rng = self._dice_rng()
        if action is None:
            c._run()  # an automatic die roll that is due
        else:
            c.apply(action)  # IllegalActionError, unchanged, if the rules do not allow it
        return [a.notation for a in c.history], c.is_over

    def _seat_for_token(self, th: str) -> SeatRow:
        seat = next((s for s in self._seats if s.token_hash == th), None)
        if seat is None:
            row, _ = self.store.seat_by_token(th)  # raises the precise reason: unknown, revoked, game over
            if row.id != self.id:
                raise TokenRejected("this device token belongs to another room", kind="token_other_room")
            self._catch_up()  # issued after this room last read its seats
            seat = next((s for s in self._seats if s.token_hash == th), None)
            if seat is None:
                raise TokenRejected("this device token is not (or no longer) a seat's token", kind="token_unknown")
        return seat

    def _check_expected(self, expected_seq: int | None) -> int:
        """``expected_seq`` if it is exactly this room's :attr:`next_seq`; StaleWrite otherwise.

        Behind: someone moved since the view was drawn. Ahead: the view was drawn from a newer game
        than this room has applied (another page of the same seat), so a decision checked against
        this room's game could be illegal where the store would put it; this room catches up first
        (the next sync delivers what it missed) and the person decides again. Nothing is written.
        """
        if expected_seq is None:
            return self.next_seq
        if isinstance(expected_seq, bool) or not isinstance(expected_seq, int):
            raise ValueError(f"expected_seq is a whole number (room.next_seq when the view was drawn), "
                             f"not {expected_seq!r}")
        if expected_seq != self.next_seq:
            if expected_seq > self.next_seq:
                self._catch_up()
            raise StaleWrite(expected_seq=expected_seq, current_seq=self._head)
        return expected_seq

    def _check_can_move(self, with_token: bool) -> None:
        if not self.is_open:
            if with_token:
                raise TokenRejected("the game in this room has ended; its device tokens no longer work",
                                    kind="room_over")
            raise NotAllowed("the game in this room has ended; no more moves can be made", kind="game_over")
        if not self.begun:
            self._catch_up()  # the teacher may have started it a moment ago
            if not self.begun:
                raise NotAllowed("the teacher has not started the game yet", kind="not_started")
        if self.paused:
            raise NotAllowed("the teacher has paused the game", kind="paused")
        if self._game.current_player is None:
            raise NotAllowed("the game is over; no more moves can be made", kind="game_over")

    def act(self, action: Action | str | int, *, expected_seq: int | None = None, token: str | None = None,
            teacher: bool = False) -> Update:
        """Make the pending decision for a seat (its device ``token``) or as the teacher (``teacher=True``).

        ``expected_seq``: :attr:`next_seq` as it was when the view showed the decision (default:
        this room's). A device's room uses its own token. The teacher may decide for a person
        seat (one computer, no devices) and type a manual die; a device may decide for its own
        seat and type the die of its own turn. Illegal decisions raise the engine's
        IllegalActionError; StaleWrite, TokenRejected and NotAllowed after catching up. Returns
        the events not yet delivered (the decision's own, the dice after it, and anything
        caught up before).
        """
        self._alive()
        if action is None:  # _entries_for(None) means "the automatic die that is due", never a person's decision
            raise IllegalActionError("None is not an action; give an Action, its notation or a die face 1-6")
        if self.viewer is not None:
            if teacher:
                raise NotAllowed("only the teacher's room can act as the teacher", kind="teacher_only")
            token = token if token is not None else self._token
        elif token is None and not teacher:
            raise ValueError("say who decides: token=<the seat's device token> or teacher=True")
        elif token is None:
            self._need_teacher("decide for a seat")
        g = self._game
        who = g.current_player
        th = None if token is None else token_hash(token)
        self._check_can_move(th is not None)
        expected = self._check_expected(expected_seq)
        if th is not None:
            seat = self._seat_for_token(th)
            if seat.revoked:
                raise TokenRejected("the teacher revoked this device's token", kind="token_revoked")
            if seat.kind != "person":
                raise NotAllowed(f"a bot plays {seat.region}", kind="bot_seat", region=seat.region)
            if not (who == seat.region or (who == CHANCE and self.dice == "manual" and g.active == seat.region)):
                raise NotAllowed(f"it is not {seat.region}'s decision now", kind="not_your_turn", region=seat.region)
            by = seat.region
        else:
            if who == CHANCE:
                if self.dice != "manual":
                    raise NotAllowed("the computer rolls the dice in this game", kind="auto_dice")
            elif self._seat_row(who).kind != "person":
                raise NotAllowed(f"a bot plays {who}", kind="bot_seat", region=who)
            by = TEACHER
        entries, over = self._entries_for(action)
        return self._write(expected, entries, by, token_hash=th, finish=FINISHED if over else None)

    def _write(self, expected: int, entries: list[str], by: str, *, token_hash: str | None = None,
               bot_kind: str | None = None, allow_paused: bool = False, finish: str | None = None) -> Update:
        try:
            head = self.store.append(self.id, expected, entries, by, token_hash=token_hash, bot_kind=bot_kind,
                                     allow_paused=allow_paused, finish=finish, what=_what(entries))
        except (StaleWrite, TokenRejected, NotAllowed):
            self._catch_up()
            raise
        now = time.time()
        now_entries = [LogEntry(expected + i, n, by, now) for i, n in enumerate(entries)]
        self._take_entries(now_entries)
        if head.version == self._version + 1:
            self._version = head.version
            self._row = dataclasses.replace(self._row, head=head.seq, version=head.version, status=head.status,
                                            paused=head.paused, turn_since=head.turn_since)
            if finish:
                self._pending_meta = True
        else:
            self._version = -1  # something else changed too: the next sync re-reads the room
        return self._deliver()

    # -------------------------------------------------------------- bots (the projector runs them)
    def _bot(self, region: str, kind: str) -> Any:
        from ..ai.tournament import make_bot

        key = (region, kind)
        if key not in self._bots:
            self._bots[key] = make_bot(kind, int(self._setup["seed"]) * 13 + self.players.index(region))
        return self._bots[key]

    def bot_to_move(self) -> str | None:
        """The seat whose bot decides now (or ``"chance"`` for an automatic die that is due); None otherwise."""
        if self.viewer is not None or self.teacher is None or self._lost is not None or not self.is_open \
                or self.paused or not self.begun:
            return None
        who = self._game.current_player
        if who is None:
            return None
        if who == CHANCE:
            return CHANCE if self.dice == "auto" else None
        return who if self._seat_row(who).kind != "person" else None

    def prepare_bot(self) -> BotJob | None:
        """The pending bot decision as a job whose :meth:`BotJob.think` may run in a worker thread."""
        who = self.bot_to_move()
        if who is None:
            return None
        if who == CHANCE:
            return BotJob(CHANCE, "dice", self.next_seq, self._game.clone())
        kind = self._seat_row(who).kind
        c = self._game.clone()
        c.dice = self.dice  # the bot's own search rolls its own dice, never the game's next ones
        return BotJob(who, kind, self.next_seq, c, self._bot(who, kind))

    def apply_bot(self, job: BotJob, action: Action | None) -> Update:
        """Append a bot's decision from :meth:`prepare_bot`; StaleWrite (after catching up) if someone moved first."""
        self._need_teacher("run the bots")
        if job.expected_seq != self.next_seq:
            raise StaleWrite(expected_seq=job.expected_seq, current_seq=self._head)
        if job.region == CHANCE:
            entries, over = self._entries_for(None)
            return self._write(job.expected_seq, entries, DICE, finish=FINISHED if over else None)
        if action is None:
            raise ValueError("the bot made no decision")
        entries, over = self._entries_for(action)
        return self._write(job.expected_seq, entries, job.region, bot_kind=job.kind,
                           finish=FINISHED if over else None)

    def choose_bot_action(self) -> Action | None:
        """The decision the bot whose turn it is would make (None if a person or a typed die decides)."""
        job = self.prepare_bot()
        return None if job is None else job.think()

    def step_bot(self) -> Update:
        """Let the bot whose turn it is decide (or roll a due automatic die), and append it.

        An empty Update if no bot decides now; StaleWrite if another writer (another projector
        kernel) moved first: exactly one of them wins.
        """
        job = self.prepare_bot()
        if job is None:
            return self._deliver()
        return self.apply_bot(job, job.think())

    # -------------------------------------------------------------- the teacher's controls
    def _after_meta(self) -> Update:
        self._pull()
        return self._deliver()

    def begin(self) -> Update:
        """The teacher starts the game from the lobby: teams' decisions are taken (and bots move) from now on.

        Nothing changes for a room whose game has begun already (or was made without a lobby).
        """
        self._need_teacher("start the game")
        if not self.begun:
            self.store.begin(self.id)
        return self._after_meta()

    def pause(self) -> Update:
        """Pause the game: no device, bot or teacher decision is accepted until :meth:`resume`."""
        self._need_teacher("pause the game")
        self.store.set_paused(self.id, True)
        return self._after_meta()

    def resume(self) -> Update:
        self._need_teacher("resume the game")
        self.store.set_paused(self.id, False)
        return self._after_meta()

    def set_turn_timer(self, seconds: int) -> Update:
        """The teacher's turn timer: ``seconds`` per person decision, or 0 to switch it off.

        When a team's time runs out, the projector lets the easy bot play its turn
        (:meth:`play_for_time`). The count for the decision waited on now starts again. A value
        that is not 0 or 10 to 600 raises ValueError naming what is allowed; nothing changes.
        """
        self._need_teacher("set the turn timer")
        low, high = TURN_SECONDS
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not (seconds == 0 or low <= seconds <= high):
            raise ValueError(f"the turn timer is 0 (off) or {low} to {high} seconds, not {seconds!r}")
        self.store.set_turn_timer(self.id, seconds)
        return self._after_meta()

    def play_for_time(self, *, now: float | None = None) -> Update:
        """If the time for the person decision waited on has run out, the easy bot plays it (logged as ``timer``).

        Teacher only (the projector runs it). Written with the ``expected_seq`` of the decision
        whose time ran out, so a team's own move that reached the store first wins: this one
        then raises StaleWrite and writes nothing. An empty Update while time is left or no
        timer runs.
        """
        self._need_teacher("play a turn whose time ran out")
        now = time.time() if now is None else now
        deadline = self.turn_deadline()
        if deadline is None or now < deadline:
            return self._deliver()
        who = self._game.current_player
        assert who is not None  # turn_deadline() is None when nobody decides
        c = self._game.clone()
        c.dice = self.dice  # the bot's own look-ahead (if any) rolls its own dice, never the game's next ones
        action = self._bot(who, TIMER_BOT).choose(c)
        entries, over = self._entries_for(action)
        return self._write(self.next_seq, entries, TIMER, finish=FINISHED if over else None)

    def set_speed(self, speed: float) -> Update:
        """The class's animation speed (teacher only): 0 (no animation) to 8 times Normal; every team's phone
        animates at it from its next read of the room. A value that is no such number raises ValueError; nothing
        changes."""
        self._need_teacher("change the game's speed")
        if not valid_speed(speed):
            raise ValueError(f"the speed is a number from 0 (no animation) to 8, not {speed!r}")
        self.store.set_speed(self.id, float(speed))
        return self._after_meta()

    def set_hints(self, enabled: bool) -> Update:
        self._need_teacher("change the hints")
        self.store.set_hints(self.id, enabled)
        return self._after_meta()

    def set_lang(self, lang: str) -> Update:
        self._need_teacher("change the language")
        self.store.set_lang(self.id, normalize_lang(lang))
        return self._after_meta()

    def set_seat(self, region: str, kind: str, name: str | None = None) -> str | None:
        """Give a seat to a bot (``random``/``easy``, ``greedy``/``medium``, ``mcts``/``hard``) or back to a person.

        To a person: a new device token is issued and returned (also in ``issued_tokens``), unless
        the room is played on one computer (then None: no device may open it).
        To a bot: the seat's device token stops working at once. Returns the new token or None.
        """
        self._need_teacher("change who plays a seat")
        region = self._seat_row(region).region
        kind = seat_kind(kind)
        nonce = new_nonce() if kind == "person" and self.devices else None
        token = None if nonce is None else self._link_token(region, nonce)
        changes: dict[str, Any] = {"kind": kind, "token_hash": None if token is None else token_hash(token),
                                   "revoked": False, "joined": None, "link_nonce": nonce, "device_hash": None}
        if name is not None:
            changes["name"] = clean_name(name)
        self.store.update_seat(self.id, region, **changes)
        if token is not None:
            self.issued_tokens[region] = token
        else:
            self.issued_tokens.pop(region, None)
        self._after_meta()
        return token

    def rename_seat(self, region: str, name: str) -> Update:
        self._need_teacher("rename a seat")
        self.store.update_seat(self.id, self._seat_row(region).region, name=clean_name(name), open_only=False)
        return self._after_meta()

    def revoke(self, region: str) -> Update:
        """Revoke the seat's device token: it stops working at once (give a new one with :meth:`reissue_token`)."""
        self._need_teacher("revoke a device")
        region = self._seat_row(region).region
        self.store.update_seat(self.id, region, revoked=True, open_only=False)
        self.issued_tokens.pop(region, None)
        return self._after_meta()

    def _link_token(self, region: str, nonce: str) -> str:
        return seat_link_token(self.store.link_secret, self.id, region, nonce)

    def reissue_token(self, region: str) -> str:
        """*New join link*: a new seat link for a person seat (the old one stops working, the seat
        is free to join, from any device). The only way a seat's link ever changes.

        SeatError ``no_devices`` in a room played on one computer (no seat is a device's).
        """
        self._need_teacher("issue a new join link")
        if not self.devices:
            raise SeatError("this game is played on one computer: its seats have no join links (only a room set up "
                            "with devices has them)", kind="no_devices")
        s = self._seat_row(region)
        if s.kind != "person":
            raise NotAllowed(f"a bot plays {s.region}; give the seat to a person first", kind="bot_seat",
                             region=s.region)
        nonce = new_nonce()
        token = self._link_token(s.region, nonce)
        self.store.update_seat(self.id, s.region, token_hash=token_hash(token), revoked=False, joined=None,
                               link_nonce=nonce, device_hash=None)
        self.issued_tokens[s.region] = token
        self._after_meta()
        return token

    def join_links(self) -> dict[str, str]:
        """The seat links' tokens as they are now, for the QR codes of a (re)opened projector.

        Nothing is re-issued: a link on the wall keeps working. A seat is left out when a device
        joined it by the room code (its token is that device's), when the teacher revoked it, or
        when its link was made with another secret (another computer): the teacher then makes a
        new one with :meth:`reissue_token`. A room played on one computer shows none (a room made by
        an older version may still hold links: the store refuses them, and they are not shown).
        """
        self._need_teacher("show the join links", fresh=False)
        if not self.devices:
            return {}
        out = {}
        for s in self._seats:
            if s.kind != "person" or s.revoked or s.token_hash is None:
                continue
            token = self.issued_tokens.get(s.region)
            if token is None and s.link_nonce:
                token = self._link_token(s.region, s.link_nonce)
            if token is not None and token_hash(token) == s.token_hash:
                out[s.region] = token
        return out

    def reset_device(self, region: str) -> Update:
        """Free a seat link from the device that first opened it (the next device to open it keeps it)."""
        self._need_teacher("reset a seat's device")
        self.store.update_seat(self.id, self._seat_row(region).region, device_hash=None, open_only=False)
        return self._after_meta()

    def handover_link(self) -> str:
        """A secret for handing this room to a colleague (``/?take=<it>`` opened with their teacher's key).

        It works once; a newer one replaces it. The teacher chooses whom to share it with.
        """
        self._need_teacher("hand the room over")
        secret = new_token()
        self.store.set_handover(self.id, token_hash(secret))
        self._after_meta()
        return secret

    @property
    def owner(self) -> str:
        """The id of the teacher whose room this is."""
        return self._row.owner or LOCAL_TEACHER

    def end(self) -> Update:
        """End the game now (the teacher stops it): every device token stops working."""
        self._need_teacher("end the game")
        self.store.finish(self.id, ENDED)
        return self._after_meta()

    def delete(self) -> None:
        """Remove the room from the store."""
        self._need_teacher("delete the room")
        self.store.delete(self.id)

    def can_undo(self) -> bool:
        """Whether the last action is a person's decision with no die roll after it (and the game is open)."""
        if self.viewer is not None or self.teacher is None or not self.is_open or not self._effective:
            return False
        if control.is_die(self._effective[-1]):
            return False
        probe, _ = rebuild(self._setup, self._effective[:-1], self.code)
        who = probe.current_player
        return who is not None and who != CHANCE and self._seat_row(who).kind == "person"

    def why_no_undo(self) -> str | None:
        """Why :meth:`undo` would be refused now, as the refusal's kind (``undo_die``: a die was rolled after the last
        decision, as after every aim or move of a game with automatic dice; ``undo_none``: nothing was played yet;
        ``undo_not_person``: the last decision was a bot's, or the game is over); None when it may undo."""
        if self.can_undo():
            return None
        if self._effective and control.is_die(self._effective[-1]):
            return "undo_die"
        return "undo_not_person" if self._effective else "undo_none"

    def undo(self, *, expected_seq: int | None = None) -> Update:
        """Take back the last person's decision (teacher only; never across a die roll).

        Stored as an ``undo`` entry in the log (see :mod:`typhoon_edu.classroom.log`); every view
        rebuilds when it syncs (``Update.rebuilt``).
        """
        self._need_teacher("undo")
        why = self.why_no_undo()
        if why is not None:
            raise IllegalActionError(_UNDO_REFUSED[why], kind=why)
        return self._write(self._check_expected(expected_seq), [control.UNDO], TEACHER, allow_paused=True)

    def correct_die(self, face: int, *, expected_seq: int | None = None) -> Update:
        """Replace the face of the last typed die roll, if no decision followed it (manual dice; teacher only)."""
        self._need_teacher("correct a die")
        if self.dice != "manual":
            raise NotAllowed("the computer rolls the dice in this game", kind="auto_dice")
        if not self._effective or not control.is_die(self._effective[-1]):
            raise IllegalActionError("the last action was not a die roll, so there is no roll to correct")
        entry = control.correct_entry(face)
        actions = self._effective[:-1] + [f"die {face}"]
        probe, _ = rebuild(self._setup, actions, self.code)  # the corrected game must replay (and may end)
        return self._write(self._check_expected(expected_seq), [entry], TEACHER, allow_paused=True,
                           finish=FINISHED if probe.is_over else None)

    # -------------------------------------------------------------- who is there
    def heartbeat(self) -> bool:
        """A seat's page is there: note it in the store, at most every :data:`HEARTBEAT` seconds; True if noted now.

        Only a device's room marks, and only its own seat: the store finds the seat by this room's device token
        (:meth:`RoomStore.touch_seat`), so no caller can name another one. The time is the store's clock, never
        a page's. Nothing is noted for the teacher's room, a revoked or replaced token, or a closed room (a phone
        left on it after the game, waiting for a rematch, writes nothing). A failed write is not repeated before
        the next interval (the page's own sync reports the store's state).
        """
        if self.viewer is None or self._token_hash is None or self._dead is not None or not self.is_open:
            return False
        now = self.beat_clock()
        if self._beat_at is not None and now - self._beat_at < HEARTBEAT:
            return False
        self._beat_at = now
        try:
            return self.store.touch_seat(self._token_hash)
        except StoreError as exc:  # not the team's concern; the teacher's drawer will say "not seen" for a while
            log.warning("a seat's heartbeat was not saved (room %s, %s): %s", self.code, self.viewer, exc)
            return False

    def presence(self) -> dict[str, Presence]:
        """Whether each person seat's device is there now (teacher only; one small read of the store)."""
        self._need_teacher("see which devices are there", fresh=False)
        seen = self.store.presence(self.id)
        now = self.store.clock()
        out = {}
        for s in self._seats:
            if s.kind != "person":
                continue
            when = seen.get(s.region)
            out[s.region] = Presence(s.region, when, None if when is None else max(0.0, now - when))
        return out

    # -------------------------------------------------------------- the coach
    def hint(self, region: str | None = None, *, iterations: int | None = None) -> Any:
        """The coach's hint for the seat's pending decision (:func:`typhoon_edu.ai.coach.hint`).

        A device asks for its own seat; the teacher's room for a seat deciding on the projector
        (one computer, after the curtain is lifted). The coach sees only what that seat may see.
        NotAllowed (``hints_off``) when the teacher switched hints off, (``not_your_turn``) when the
        seat has nothing to decide. A page that thinks in a worker thread uses :meth:`prepare_hint`.
        """
        return self.prepare_hint(region, iterations=iterations).think()

    def prepare_hint(self, region: str | None = None, *, iterations: int | None = None) -> HintJob:
        """Check a hint may be given now (as :meth:`hint`) and copy the game for it, on the caller's thread
        (the page's event loop, where :meth:`sync` changes the live game); :meth:`HintJob.think` may
        then run in a worker thread."""
        self._alive()
        region = self._seat_row(region or self.viewer or "").region
        if self.viewer is not None and region != self.viewer:
            raise NotAllowed(f"this device plays {self.viewer}; it cannot ask for {region}'s hint", kind="teacher_only")
        if self.viewer is None:
            self._need_teacher("ask for a seat's hint")
        if not self.hints_enabled:
            raise NotAllowed("the teacher has switched hints off for this game", kind="hints_off")
        if not self.begun:
            self._catch_up()  # the teacher may have started it a moment ago
            if not self.begun:  # nothing is decided in the lobby, so nothing is hinted (a crafted request too)
                raise NotAllowed("the teacher has not started the game yet", kind="not_started")
        if self._game.current_player != region:
            raise NotAllowed(f"it is not {region}'s decision now", kind="not_your_turn", region=region)
        return HintJob(region, self._head, self._game.clone(), iterations)

    def review(self, *, iterations: int | None = None, hint_iterations: int | None = None) -> dict[str, list[Any]]:
        """After the game (teacher only): for each person seat, where the coach's choice was clearly better
        (``iterations``, ``hint_iterations``: the search budgets of :func:`typhoon_edu.ai.coach.review`; None, its
        defaults, which the class's hints used)."""
        from ..ai import coach

        self._need_teacher("review the game")
        persons = [s.region for s in self._seats if s.kind == "person"]
        budgets = {"iterations": iterations, "hint_iterations": hint_iterations}
        kwargs = {k: v for k, v in budgets.items() if v is not None}
        return coach.review(self._game, persons, **kwargs) if persons else {}  # it replays its own copy

    # -------------------------------------------------------------- results and records
    def summary(self) -> dict[str, Any]:
        """Winners, the biggest storm, the most damaged region, rounds (for the results screen)."""
        from .results import summary

        return summary(self._game)

    def events_csv(self) -> str:
        """The public event log as CSV, one row per event (for a data lesson)."""
        from .results import events_csv

        return events_csv(self._game)

    def record(self) -> dict[str, Any]:
        """The game as today's JSON save record (teacher only: it holds the seed, hence every hand)."""
        self._need_teacher("export the game record")
        from .records import record_of

        return record_of(self)

    def record_json(self) -> str:
        from .records import record_json

        self._need_teacher("export the game record")
        return record_json(self)

    def __repr__(self) -> str:
        who = f"seat {self.viewer}" if self.viewer else ("teacher" if self.teacher else "watcher")
        return f"<Room {self.code} ({who}) {self.status}, entry #{self._head}, {self._game!r}>"


# ---------------------------------------------------------------------- owners and devices
def owns(row: RoomRow, teacher: Teacher) -> bool:
    """Whether ``teacher`` owns the room (rooms from before teachers existed are the local teacher's)."""
    return (row.owner or LOCAL_TEACHER) == teacher.id


def device_hash(device: str | None) -> str | None:
    """What the store keeps of a device id (None: the page could not say which device it is)."""
    if not isinstance(device, str) or not device.strip():
        return None
    return token_hash("device/" + device.strip()[:200])


# ---------------------------------------------------------------------- listing and joining
@dataclass(frozen=True)
class RoomInfo:
    """One row of the rooms list. A broken room has ``ok=False`` with ``kind`` and ``error``.

    ``variant`` and ``devices`` are the room's setup as the list shows it (its rules, and whether teams join on
    their phones or play on one computer), read from the same row that lists the room: ``variant`` is "" when the
    stored setup cannot be read (the list then leaves both out).
    """

    id: str
    code: str
    status: str
    paused: bool
    lang: str
    origin: str
    created: float
    updated: float
    finished: float | None
    seq: int
    version: int
    seats: tuple[SeatInfo, ...]
    ok: bool = True
    kind: str = ""
    error: str = ""
    players: tuple[str, ...] = ()
    round: int = 0
    over: bool = False
    winners: tuple[str, ...] = ()
    variant: str = ""
    devices: bool = True


def _listed_setup(row: RoomRow) -> tuple[str, bool]:
    """The rules variant and devices of a listed room's stored setup (``("", True)`` if it cannot be read)."""
    try:
        setup = row.setup_dict()
    except ValueError:
        return "", True
    return str(setup.get("variant", "standard")), devices_allowed(setup)


@dataclass(frozen=True)
class Lobby:
    """What a device may see before joining: the room's seats and which of them are free."""

    room_id: str
    code: str
    status: str
    seats: tuple[SeatInfo, ...]
    free: tuple[str, ...] = field(default=())
    devices: bool = True  # False: the class plays on one computer, so no seat is free for a device


_CHECKED: dict[tuple[Any, ...], tuple[bool, str, str, int, bool, tuple[str, ...]]] = {}
_CHECKED_MAX = 4096


def _check_replay(row: RoomRow, seats: Sequence[SeatRow], actions: Sequence[ActionRow]
                  ) -> tuple[bool, str, str, int, bool, tuple[str, ...]]:
    try:
        setup = setup_of(row)
        check_seats(seats, setup, row.code)
        if [a.seq for a in actions] != list(range(1, len(actions) + 1)) or len(actions) != row.head:
            raise RoomBroken(f"room {row.code}: its log has gaps or does not end at #{row.head}", kind="replay")
        game, _ = rebuild(setup, [a.notation for a in actions], row.code)
    except RoomBroken as exc:
        return (False, exc.kind, str(exc), 0, False, ())
    except Exception as exc:  # noqa: BLE001 - no single bad row may stop the list
        return (False, "replay", f"room {row.code}: {exc}", 0, False, ())
    return (True, "", "", game.round, game.is_over, tuple(game.winners))


def list_rooms(store: RoomStore, *, teacher: Teacher | None, status: str | None = None) -> list[RoomInfo]:
    """The rooms of ``teacher`` (most recent first), each checked by replay; a broken one says why
    instead of raising. ``teacher=None``: no rooms (a page without a teacher's key lists nothing).

    Replays are remembered per (room, last entry), so listing again costs a query, not a replay. Each row carries
    its rules variant and devices too (from the rooms' own rows), so a list needs no other read of the rooms.

    >>> from typhoon_edu.classroom.store import RoomStore
    >>> from typhoon_edu.classroom.teachers import local_teacher
    >>> store = RoomStore("sqlite://"); me = local_teacher(store)
    >>> _ = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")], seed=3,
    ...                 variant="advanced", options={"devices": False}, teacher=me)
    >>> [(info.variant, info.devices) for info in list_rooms(store, teacher=me)]
    [('advanced', False)]
    """
    if not isinstance(teacher, Teacher):
        return []
    rows = store.rooms(status=status, owner=teacher.id)
    all_seats = store.seats_of([r.id for r in rows])

    def key_of(r: RoomRow) -> tuple[Any, ...]:
        return (r.id, r.head, r.setup, r.problem, tuple((s.region, s.kind) for s in all_seats.get(r.id, [])))

    need = [r.id for r in rows if key_of(r) not in _CHECKED]
    logs = store.actions_of(need)
    out = []
    for r in rows:
        seats = all_seats.get(r.id, [])
        key = key_of(r)
        if key not in _CHECKED:
            if len(_CHECKED) >= _CHECKED_MAX:
                _CHECKED.clear()
            _CHECKED[key] = _check_replay(r, seats, logs.get(r.id, []))
        ok, kind, error, rnd, over, winners = _CHECKED[key]
        players: tuple[str, ...] = tuple(s.region for s in seats)
        out.append(RoomInfo(r.id, r.code, r.status, r.paused, r.lang, r.origin, r.created, r.updated, r.finished,
                            r.head, r.version, tuple(_seat_info(s) for s in seats), ok, kind, error, players, rnd,
                            over, winners, *_listed_setup(r)))
    return out


@dataclass(frozen=True)
class Rematch:
    """The teacher's rematch as a device still on the finished room may know it (:func:`rematch_for`)."""

    code: str  # the new room's code (its join page: ``join/<code>``)
    region: str  # the device's region in the old room
    seat: bool  # the new room has a free person seat of that region: Room.follow gives it to this device


def _rematch_of(store: RoomStore, token: str, device: str | None) -> tuple[SeatRow, RoomRow]:
    """The old seat of this device token and the open room the teacher's rematch made after its room, if this
    device held the seat: the one check of :meth:`Room.follow` (which claims) and :func:`rematch_for` (which offers).
    TokenRejected ``token_unknown``, ``token_revoked``, ``device_bound``, ``room_over``; NotAllowed ``game_not_over``
    (the old room's game is still played: a device leaves it only once it has finished or the teacher ended it,
    whatever its page sends), ``no_rematch``.
    """
    old_row, old_seat = store.seat_of_token(token_hash(token))
    if old_seat.revoked:
        raise TokenRejected("the teacher revoked this device's token", kind="token_revoked")
    if old_seat.device_hash is not None and old_seat.device_hash != device_hash(device):
        raise TokenRejected("this seat's link is open on another device", kind="device_bound")
    if old_row.is_open:
        raise NotAllowed("the game in this device's room is still being played: a device moves to the teacher's new "
                         "game only after it has ended", kind="game_not_over")
    if old_seat.joined is None or old_row.successor is None:
        raise NotAllowed("this device did not play this seat, or the teacher has made no new game after this one",
                         kind="no_rematch")
    new_row = store.room(old_row.successor)
    if not new_row.is_open:
        raise TokenRejected("the game in this room has ended", kind="room_over")
    return old_seat, new_row


def rematch_for(store: RoomStore, token: str | None, device: str | None = None) -> Rematch | None:
    """The new game the teacher's rematch made after the room of this seat token, if this device held the seat
    (:meth:`Room.follow`'s checks, :func:`_rematch_of`); None otherwise (no rematch, another device's seat, a revoked or
    replaced token, a new game already over). Reads only: nothing is claimed.
    """
    if not token:
        return None
    try:
        old_seat, new_row = _rematch_of(store, token, device)
        seats = store.seats(new_row.id) if devices_allowed(new_row.setup) else []
    except (TokenRejected, NotAllowed, RoomNotFound):
        return None
    free = any(s.region == old_seat.region and s.kind == "person" and s.joined is None and not s.revoked
               for s in seats)
    return Rematch(new_row.code, old_seat.region, free)


def lobby(store: RoomStore, code: str) -> Lobby:
    """The seats of the room with this code, and the free person seats a device may join (none when the
    class plays on one computer)."""
    row = store.room_by_code(code)
    seats = store.seats(row.id)
    infos = tuple(_seat_info(s) for s in seats)
    devices = devices_allowed(row.setup)
    free = tuple(s.region for s in seats if s.kind == "person" and s.joined is None and not s.revoked) \
        if row.is_open and devices else ()
    return Lobby(row.id, row.code, row.status, infos, free, devices)


__all__ = ["BotJob", "CONNECTED", "HEARTBEAT", "HintJob", "LogEntry", "Lobby", "Presence", "PublicView", "Rematch", "Room", "RoomInfo", "Seat", "SeatInfo",
           "SeatView", "Update", "device_hash", "list_rooms", "lobby", "rematch_for", "owns", "rebuild", "setup_of", "DICE", "TEACHER", "TIMER", "TURN_SECONDS", "FINISHED", "ENDED",
           "OPEN"]
