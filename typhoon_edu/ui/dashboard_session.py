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

import csv
import io
import json
import os
import time
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..ai.tournament import make_bot
from ..engine.actions import Action
from ..engine.events import DamageDealt, Event, LevelChanged, TyphoonPlaced, event_to_dict
from ..engine.game import CHANCE, Game
from ..engine.rules import IllegalActionError, SaveFileError, load_rules
from ..engine.savefile import game_from_json, game_to_dict

SEAT_KINDS = ("person", "random", "greedy", "mcts")
LEVEL_OF_BOT = {"easy": "random", "medium": "greedy", "hard": "mcts"}


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
                raise ValueError(f"a seat is a person or a bot ({', '.join(SEAT_KINDS[1:])}); got {s.kind!r}")
        rules = load_rules()
        fixed = [Seat(rules.region_key(s.region), s.kind, s.name) for s in seats]
        game = Game.new([s.region for s in fixed], seed=seed, variant=variant, dice=dice, start=start)
        folder = Path(save_dir) if save_dir is not None else default_save_dir()
        session = cls(game, fixed, folder, time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6], lang)
        session.hp_track.append(dict(game.hp))
        session._bots = {}
        session.save()
        return session

    @classmethod
    def resume(cls, path: str | Path) -> ClassSession:
        """Load a saved session; a damaged or foreign file raises SaveFileError naming the file."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SaveFileError(f"{path.name}: cannot be read ({exc.strerror})", kind="unreadable") from None
        except UnicodeDecodeError:
            raise SaveFileError(f"{path.name}: is not a text file", kind="unreadable") from None
        try:
            game = game_from_json(text)
            data = json.loads(text)
            meta = data.get("session") or {}
            seats = [Seat(**s) for s in meta.get("seats", [])] or [Seat(p) for p in game.players]
        except SaveFileError as exc:
            raise SaveFileError(f"{path.name}: {exc}", kind=exc.kind) from None
        except (TypeError, ValueError) as exc:
            raise SaveFileError(f"{path.name}: the session part of the file is damaged ({exc})") from None
        if [s.region for s in seats] != list(game.players):
            raise SaveFileError(f"{path.name}: the seats do not match the game's players")
        session = cls(game, seats, path.parent, path.stem, meta.get("lang", "zh-TW"),
                      [dict(h) for h in meta.get("hp_track", [])] or [dict(game.hp)])
        session._bots = {}
        return session

    @staticmethod
    def list_saves(folder: str | Path | None = None) -> list[SaveInfo]:
        """Every save file in ``folder``, newest first; unreadable ones say why, the rest stay usable."""
        folder = Path(folder) if folder is not None else default_save_dir()
        if not folder.is_dir():
            return []
        out = []
        for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                if not isinstance(data, dict) or data.get("format") != "typhoon-edu-save":
                    raise SaveFileError("this is not a typhoon-edu save file", kind="foreign")
                game = game_from_json(json.dumps(data))
            except SaveFileError as exc:
                out.append(SaveInfo(path, False, str(exc), kind=exc.kind))
                continue
            except (OSError, UnicodeDecodeError) as exc:
                out.append(SaveInfo(path, False, str(exc), kind="unreadable"))
                continue
            except ValueError as exc:
                out.append(SaveInfo(path, False, str(exc), kind="not_json"))
                continue
            out.append(SaveInfo(path, True, "", game.players, game.round, game.is_over, path.stat().st_mtime))
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
        return s.name or region

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
        self.game.undo()
        if len(self.hp_track) > 1:
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
        """Write the save file atomically (a crash never leaves half a file)."""
        self.save_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.save_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.to_dict(), ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.save_path)
        return self.save_path

    def summary(self) -> dict[str, Any]:
        """Winners, the biggest storm, and the region that took the most damage (for the results screen)."""
        biggest = 0
        biggest_id = None
        taken: dict[str, int] = {p: 0 for p in self.game.players}
        for e in self.game.events:
            if isinstance(e, (LevelChanged, TyphoonPlaced)):
                lv = e.new if isinstance(e, LevelChanged) else e.level
                if lv > biggest:
                    biggest, biggest_id = lv, e.typhoon
            elif isinstance(e, DamageDealt):
                taken[e.player] += e.amount
        worst = max(taken, key=lambda p: taken[p]) if taken else None
        return {"winners": list(self.game.winners), "hp": dict(self.game.hp), "biggest_level": biggest,
                "biggest_typhoon": biggest_id, "most_damaged": worst, "damage_taken": taken,
                "rounds": self.game.round}

    def record_json(self) -> str:
        """The game record (the save file's content) as indented JSON, for download."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    def events_csv(self) -> str:
        """The public event log as CSV (one row per event), for a data lesson."""
        buf = io.StringIO()
        w = csv.writer(buf)
        fields = ["index", "kind", "player", "typhoon", "level", "cell", "amount", "hp", "details"]
        w.writerow(fields)
        for i, e in enumerate(self.game.visible_events(None)):
            d = event_to_dict(e)
            kind = d.pop("kind")
            row = [i, kind]
            for name in fields[2:-1]:
                value = d.pop(name, "")
                row.append(" ".join(map(str, value)) if isinstance(value, list) else value)
            row.append(json.dumps(d, ensure_ascii=False) if d else "")
            w.writerow(row)
        return buf.getvalue()
