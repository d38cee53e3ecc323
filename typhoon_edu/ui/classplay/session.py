"""The class-play session behind the dashboard: seats, bots, autosave, resume, records.

Pure Python (no widgets), so everything the dashboard does to a game is tested here.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> s = ClassSession.start([Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")],
...                        seed=3, save_dir=folder)
>>> while not s.game.is_over:
...     _ = s.step_bot()
>>> s.game.winners == ClassSession.resume(s.save_path).game.winners
True
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ...ai.tournament import make_bot
from ...classroom.names import clean_name
from ...engine.actions import Action
from ...engine.events import DamageDealt, Event
from ...engine.game import CHANCE, Game
from ...engine.rules import GameInputError, IllegalActionError, Rules, SaveFileError, load_rules
from ...engine.savefile import MAX_ACTIONS, MAX_RECORD_BYTES, game_from_record, game_to_dict, parse_record
from ...fileio import FileTooLarge, NotARegularFile, atomic_write_text, os_reason, read_bounded
from ...i18n import LANGS, normalize_lang

SEAT_KINDS = ("person", "random", "greedy", "mcts")
LEVEL_OF_BOT = {"easy": "random", "medium": "greedy", "hard": "mcts"}
#: The longest name a person's seat may have (a projector shows a few words, not a paragraph).
MAX_NAME_CHARS = 60
_SESSION_KEYS = ("seats", "lang", "hp_track", "options")
_SEAT_KEYS = ("region", "kind", "name")
log = logging.getLogger(__name__)


def default_save_dir() -> Path:
    """Where games are saved unless a folder is given: the user's data folder."""
    env = os.environ.get("TYPHOON_EDU_SAVES")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("typhoon-edu", appauthor=False)) / "saves"


@dataclass(frozen=True)
class Seat:
    region: str
    kind: str = "person"  # person, random, greedy, mcts
    name: str = ""

    @property
    def is_person(self) -> bool:
        return self.kind == "person"


@dataclass(frozen=True)
class SaveInfo:
    """One file in the save folder: either a summary of the game or the reason it cannot be read."""

    path: Path
    ok: bool
    error: str = ""
    players: tuple[str, ...] = ()
    round: int = 0
    over: bool = False
    saved_at: float = 0.0
    kind: str = ""  # why it cannot be read, for a translated message (SaveFileError.kind)


@dataclass(frozen=True)
class SessionRecord:
    """A class-play record read and checked whole: the verified game and its session part.

    What :func:`read_session_record` returns; ``seats`` are in the game's seat order, ``lang`` is
    ``en`` or ``zh-TW``, and each ``hp_track`` entry gives every player's HP (0 to its maximum).
    """

    game: Game
    seats: tuple[Seat, ...]
    lang: str
    hp_track: tuple[Mapping[str, int], ...]


def _damaged(message: str) -> SaveFileError:
    return SaveFileError(f"the session part of the file is damaged: {message}", kind="session")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_options(options: Any) -> dict[str, bool | int | str]:
    """The session's ``options`` (how the class played it, e.g. ``devices``), checked; SaveFileError if damaged.

    >>> check_options({"devices": True})
    {'devices': True}
    >>> check_options({"devices": [1, 2]})
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.SaveFileError: the session part of the file is damaged: 'options' must be a few named settings (true/false, numbers, short words), not {'devices': [1, 2]}
    """
    if not isinstance(options, dict) or len(options) > 8 or not all(
            isinstance(k, str) and len(k) <= 20 and isinstance(v, bool | int | str) and len(str(v)) <= 40
            for k, v in options.items()):
        raise _damaged(f"'options' must be a few named settings (true/false, numbers, short words), not {_shown(options)}")
    return dict(options)


def check_session(meta: Any, game: Game) -> tuple[tuple[Seat, ...], str, tuple[dict[str, int], ...]]:
    """The ``session`` part of a record checked against its game: seats, language, HP track.

    A record without one (a plain engine save) gets a person in every seat, zh-TW and the game's
    HP as its track. Regions may be spelled as the engine accepts them (old keys too); the result
    uses the engine's keys. Raises :class:`SaveFileError` (kind ``session``) naming the field.

    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=1)
    >>> seats, lang, track = check_session({"seats": [{"region": "Taiwan", "kind": "person", "name": "Ann"},
    ...     {"region": "Japan", "kind": "greedy"}, {"region": "Korea", "kind": "random"}], "lang": "en"}, g)
    >>> [s.kind for s in seats], lang, track == (g.hp,)
    (['person', 'greedy', 'random'], 'en', True)
    >>> check_session({"seats": [], "lang": "fr"}, g)
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.SaveFileError: the session part of the file is damaged: 'lang' must be one of en, zh-TW, not 'fr'
    """
    rules = game.rules
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise _damaged(f"'session' must be an object, not {_shown(meta)}")
    extra = sorted(set(meta) - set(_SESSION_KEYS))
    if extra:
        raise _damaged(f"unknown fields {', '.join(map(_shown, extra[:5]))}; it holds {', '.join(_SESSION_KEYS)}")
    check_options(meta.get("options", {}))
    raw_seats = meta.get("seats", [])
    if not isinstance(raw_seats, list):
        raise _damaged(f"'seats' must be a list of seats, not {_shown(raw_seats)}")
    if raw_seats:
        if len(raw_seats) != len(game.players):
            raise _damaged(f"it has {len(raw_seats)} seats for {len(game.players)} players")
        seats = tuple(_check_seat(raw, i, game.players[i], rules) for i, raw in enumerate(raw_seats))
    else:
        seats = tuple(Seat(p) for p in game.players)
    lang = meta.get("lang", "zh-TW")
    try:
        lang = normalize_lang(lang) if isinstance(lang, str) and len(lang) <= 20 else None
    except ValueError:
        lang = None
    if lang is None:
        raise _damaged(f"'lang' must be one of {', '.join(LANGS)}, not {_shown(meta.get('lang'))}")
    raw_track = meta.get("hp_track", [])
    if not isinstance(raw_track, list):
        raise _damaged(f"'hp_track' must be a list of HP per region, not {_shown(raw_track)}")
    if len(raw_track) > MAX_ACTIONS + 2:
        raise SaveFileError(f"the session's HP track has {len(raw_track):,} entries; a game has at most one per "
                            f"action ({MAX_ACTIONS:,})", kind="too_large")
    track = tuple(_check_hp(raw, i, game, rules) for i, raw in enumerate(raw_track)) or (dict(game.hp),)
    return seats, lang, track


def _check_seat(raw: Any, i: int, player: str, rules: Rules) -> Seat:
    where = f"seat #{i + 1}"
    if not isinstance(raw, dict):
        raise _damaged(f"{where} must be an object with region, kind and name, not {_shown(raw)}")
    extra = sorted(set(raw) - set(_SEAT_KEYS))
    if extra:
        raise _damaged(f"{where} has unknown fields {', '.join(map(_shown, extra[:5]))}")
    region = raw.get("region")
    try:
        key = rules.region_key(region) if isinstance(region, str) and len(region) <= 100 else None
    except ValueError:
        key = None
    if key != player:
        raise _damaged(f"{where} is for {_shown(region)}, but the game's player #{i + 1} is {player}")
    kind = raw.get("kind", "person")
    if kind not in SEAT_KINDS:
        raise _damaged(f"{where}'s kind must be one of {', '.join(SEAT_KINDS)}, not {_shown(kind)}")
    name = raw.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME_CHARS:
        raise _damaged(f"{where}'s name must be text of at most {MAX_NAME_CHARS} characters, not {_shown(name)}")
    return Seat(player, kind, clean_name(name, MAX_NAME_CHARS))


def _check_hp(raw: Any, i: int, game: Game, rules: Rules) -> dict[str, int]:
    where = f"HP track entry #{i + 1}"
    if not isinstance(raw, dict):
        raise _damaged(f"{where} must be an object of HP per region, not {_shown(raw)}")
    out: dict[str, int] = {}
    for region, hp in raw.items():
        try:
            key = rules.region_key(region) if len(region) <= 100 else None
        except ValueError:
            key = None
        if key not in game.players or key in out:
            raise _damaged(f"{where} names {_shown(region)}, which is not a player (or is there twice)")
        top = rules.regions[key].hp
        if isinstance(hp, bool) or not isinstance(hp, int) or not 0 <= hp <= top:
            raise _damaged(f"{where}: {key}'s HP must be a whole number from 0 to {top}, not {_shown(hp)}")
        out[key] = hp
    if len(out) != len(game.players):
        missing = [p for p in game.players if p not in out]
        raise _damaged(f"{where} has no HP for {', '.join(missing)}")
    return {p: out[p] for p in game.players}


def read_session_record(text: str | bytes, rules: Rules | None = None) -> SessionRecord:
    """Read a class-play record (a dashboard save, or a plain engine save) and check all of it.

    The game is replayed and verified (see :mod:`typhoon_edu.engine.savefile`), then the session
    part is checked against it (:func:`check_session`). Every bad input ends in a
    :class:`SaveFileError` with a reason and a ``kind``; the size limits of save files apply.

    >>> s = ClassSession.start([Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")], seed=2,
    ...                        save_dir=__import__("tempfile").mkdtemp())
    >>> record = read_session_record(s.record_json())
    >>> record.game.digest() == s.game.digest(), [seat.kind for seat in record.seats], record.lang
    (True, ['person', 'greedy', 'random'], 'zh-TW')
    """
    data = parse_record(text)
    game = game_from_record(data, rules)
    seats, lang, track = check_session(data.get("session"), game)
    return SessionRecord(game, seats, lang, track)


def read_session_file(path: str | Path, rules: Rules | None = None) -> SessionRecord:
    """:func:`read_session_record` of a file, which must be a regular file (never a link) within the size limit.

    Errors name the file: ``SaveFileError("game.json: ...")``.
    """
    path = Path(path)
    try:
        raw = read_bounded(path, MAX_RECORD_BYTES, follow_links=False)
    except FileTooLarge as exc:
        raise SaveFileError(f"{path.name}: {exc}; no real game comes near that", kind="too_large") from None
    except NotARegularFile as exc:
        raise SaveFileError(f"{path.name}: cannot be read ({exc})", kind="unreadable") from None
    except OSError as exc:
        raise SaveFileError(f"{path.name}: cannot be read ({os_reason(exc)})", kind="unreadable") from None
    try:
        return read_session_record(raw, rules)
    except SaveFileError as exc:
        raise SaveFileError(f"{path.name}: {exc}", kind=exc.kind) from None


@dataclass
class ClassSession:
    game: Game
    seats: list[Seat]
    save_dir: Path
    game_id: str
    lang: str = "zh-TW"
    hp_track: list[dict[str, int]] = field(default_factory=list)

    # -------------------------------------------------------------- creating and resuming
    @classmethod
    def start(cls, seats: Sequence[Seat], *, seed: int | None = None, variant: str = "standard",
              dice: str = "auto", start: str | None = None, lang: str = "zh-TW",
              save_dir: str | Path | None = None) -> ClassSession:
        """A new game with these seats (3–5, in clockwise order), autosaved from the first moment."""
        for s in seats:
            if s.kind not in SEAT_KINDS:
                raise GameInputError(f"a seat is a person or a bot ({', '.join(SEAT_KINDS[1:])}); got {s.kind!r}",
                                     kind="seat_kind", value=f"{s.kind!s:.20}")
            if not isinstance(s.name, str) or len(s.name) > MAX_NAME_CHARS:
                length = len(s.name) if isinstance(s.name, str) else 0
                raise GameInputError(f"a player's name has at most {MAX_NAME_CHARS} characters; "
                                     f"{s.name!r:.40} has {length}", kind="name_too_long",
                                     limit=MAX_NAME_CHARS, length=length)
        rules = load_rules()
        # bidi and other control characters would reverse or hide what follows a name (results legend: "04" for 40)
        fixed = [Seat(rules.region_key(s.region), s.kind, clean_name(s.name, MAX_NAME_CHARS)) for s in seats]
        game = Game.new([s.region for s in fixed], seed=seed, variant=variant, dice=dice, start=start)
        folder = Path(save_dir) if save_dir is not None else default_save_dir()
        session = cls(game, fixed, folder, time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6], lang)
        session.hp_track.append(dict(game.hp))
        session._bots = {}
        session.save()
        return session

    @classmethod
    def resume(cls, path: str | Path) -> ClassSession:
        """Load a saved session, checked whole; a damaged, foreign or odd file raises SaveFileError naming the file."""
        path = Path(path)
        return cls.from_record(read_session_file(path), path.parent, path.stem)

    @classmethod
    def from_record(cls, record: SessionRecord, save_dir: str | Path, game_id: str) -> ClassSession:
        """A session from a checked record (:func:`read_session_record`), saving as ``<save_dir>/<game_id>.json``."""
        session = cls(record.game, list(record.seats), Path(save_dir), game_id, record.lang,
                      [dict(h) for h in record.hp_track])
        session._bots = {}
        return session

    @staticmethod
    def list_saves(folder: str | Path | None = None) -> list[SaveInfo]:
        """Every save file in ``folder``, newest first; unreadable ones say why, the rest stay usable.

        Never raises: a missing or unreadable folder lists nothing, and each file that cannot be
        used (damaged, too large, a link, a folder named ``x.json``, unreadable) is listed with
        its reason. Temporary files of a save in progress (``.<name>.json.*.tmp``) are not listed.
        """
        try:
            folder = Path(folder) if folder is not None else default_save_dir()
            if not folder.is_dir():
                return []
            entries = [p for p in folder.iterdir() if p.name.endswith(".json") and not p.name.startswith(".")]
        except OSError as exc:
            log.warning("cannot list the saves folder %s: %s", folder, exc)
            return []
        out = []
        for path in entries:
            try:
                mtime = os.lstat(path).st_mtime
            except OSError:
                mtime = 0.0
            try:
                record = read_session_file(path)
            except SaveFileError as exc:
                out.append(SaveInfo(path, False, str(exc), saved_at=mtime, kind=exc.kind))
                continue
            except Exception as exc:  # a bug must not hide the other saves; it is logged with its traceback
                log.exception("reading the save file %s failed", path)
                out.append(SaveInfo(path, False, f"{path.name}: {type(exc).__name__}: {exc}", saved_at=mtime,
                                    kind="internal"))
                continue
            game = record.game
            out.append(SaveInfo(path, True, "", game.players, game.round, game.is_over, mtime))
        out.sort(key=lambda i: (i.saved_at, i.path.name), reverse=True)
        return out

    # -------------------------------------------------------------- playing
    @property
    def save_path(self) -> Path:
        return self.save_dir / f"{self.game_id}.json"

    def seat(self, region: str) -> Seat:
        for s in self.seats:
            if s.region == region:
                return s
        raise KeyError(region)

    def display_name(self, region: str) -> str:
        s = self.seat(region)
        return clean_name(s.name, MAX_NAME_CHARS) or region

    @property
    def waiting_for_person(self) -> bool:
        """True when the pending decision belongs to a person (or a typed die in manual mode)."""
        who = self.game.current_player
        if who is None:
            return False
        if who == CHANCE:
            return True
        return self.seat(who).is_person

    def _bot(self, region: str):  # type: ignore[no-untyped-def]
        bots = self.__dict__.setdefault("_bots", {})
        if region not in bots:
            seat = self.seat(region)
            bots[region] = make_bot(seat.kind, self.game.seed * 13 + self.game.players.index(region))
        return bots[region]

    def step_bot(self) -> list[Event]:
        """Let the bot whose turn it is make one decision; returns its events ([] if a person decides)."""
        action = self.choose_bot_action()
        if action is None:
            return []
        return self.apply_bot(action)

    def choose_bot_action(self) -> Action | None:
        """The decision the bot whose turn it is would make, or ``None`` if a person (or a typed die) decides.

        The bot thinks on a copy of the game, so the dashboard may run this in a worker thread
        (a hard bot thinks for seconds) while the page stays responsive.
        """
        who = self.game.current_player
        if who is None or who == CHANCE or self.seat(who).is_person:
            return None
        return self._bot(who).choose(self.game.clone())

    def apply_bot(self, action: Action) -> list[Event]:
        """Apply a bot's decision (from :meth:`choose_bot_action`), autosaving as for a person."""
        return self._after(self.game.apply(action))

    @property
    def decisions(self) -> int:
        """How many actions (decisions and die rolls) the game has had; a change means the game moved on."""
        return len(self.game.history)

    def apply(self, action: Action | str | int) -> list[Event]:
        """A person's decision (or a typed die face); illegal ones raise and change nothing."""
        return self._after(self.game.apply(action))

    def can_undo(self) -> bool:
        hist = self.game.history
        if not hist or hist[-1].kind == "die" or getattr(self.game, "_scenario", False):
            return False
        who = self._decider_of_last()
        return who is not None and self.seat(who).is_person

    def _decider_of_last(self) -> str | None:
        try:
            probe = self.game.clone(keep_log=True)
            probe.undo()
        except IllegalActionError:
            return None
        return probe.current_player

    def undo(self) -> None:
        """Take back the last decision, if a person made it and no die was rolled after it."""
        if not self.can_undo():
            raise IllegalActionError("only a person's last decision can be taken back, and never across a die roll",
                                     kind="undo_not_person")
        was_over = self.game.is_over
        self.game.undo()
        # A decision a person can take back never deals damage (damage needs a die roll after it), so
        # the track gained an entry from it only if it ended the game.
        if was_over and len(self.hp_track) > 1:
            self.hp_track.pop()
        self.save()

    def _after(self, events: list[Event]) -> list[Event]:
        if any(isinstance(e, DamageDealt) for e in events) or self.game.is_over:
            self.hp_track.append(dict(self.game.hp))
        self.save()
        return events

    # -------------------------------------------------------------- saving and records
    def to_dict(self) -> dict[str, Any]:
        data = game_to_dict(self.game)
        data["session"] = {"seats": [asdict(s) for s in self.seats], "lang": self.lang, "hp_track": self.hp_track}
        return data

    def save(self) -> Path:
        """Write the save file atomically and durably (see :func:`typhoon_edu.fileio.atomic_write_text`).

        A crash never leaves half a file, two writers never share a temporary file, and a link
        planted in the folder is never followed.
        """
        self.save_dir.mkdir(parents=True, exist_ok=True)
        return atomic_write_text(self.save_path, json.dumps(self.to_dict(), ensure_ascii=False))

    def summary(self) -> dict[str, Any]:
        """Winners, the biggest storm, and the region that took the most damage (for the results screen)."""
        from ...classroom.results import summary

        return summary(self.game)

    def record_json(self) -> str:
        """The game record (the save file's content) as indented JSON, for download."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    def events_csv(self) -> str:
        """The public event log as CSV (one row per event), for a data lesson."""
        from ...classroom.results import events_csv

        return events_csv(self.game)
