"""JSON game records in and out of the room store, and the one-time import of the old save folder.

A record is today's JSON save file (``typhoon_edu.engine.savefile`` plus the dashboard's
``session`` part: seats, language, HP track), so a room exported here loads in the dashboard,
and a save file the dashboard wrote becomes a room. Reading goes through one place each:
:func:`read_record_text` (``game_from_json``) for text and :func:`read_save` (the dashboard's
``ClassSession.resume``) for files, so a stricter reader there applies here too.

>>> from typhoon_edu.classroom.store import RoomStore
>>> from typhoon_edu.classroom.rooms import Room, Seat
>>> store = RoomStore("sqlite://")
>>> from typhoon_edu.classroom.teachers import local_teacher
>>> me = local_teacher(store)
>>> room = Room.create(store, [Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")], seed=5,
...                    teacher=me)
>>> for _ in range(20):
...     _ = room.step_bot()
>>> copy = import_record(store, room.record_json(), teacher=me)
>>> copy.game.digest() == room.game.digest(), copy.code != room.code
(True, True)
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.game import Game
from ..engine.rules import SaveFileError, load_rules
from ..engine.savefile import game_from_json, game_to_dict
from ..fileio import FileTooLarge, os_reason, read_bounded
from .errors import RoomBroken
from .store import FINISHED, OPEN, SEAT_KINDS, NewSeat, RoomStore

if TYPE_CHECKING:
    from .rooms import Room
    from .teachers import Teacher

MAX_RECORD_BYTES = 5_000_000  # a whole game's record is a few kilobytes


@dataclass(frozen=True)
class ImportProblem:
    """A save file that could not become a room, and why (``kind`` as SaveFileError's)."""

    source: str
    name: str
    kind: str
    error: str


@dataclass(frozen=True)
class ImportReport:
    imported: tuple[tuple[str, str], ...] = ()  # (source path, room code)
    skipped: tuple[str, ...] = ()  # already imported before
    problems: tuple[ImportProblem, ...] = ()


# ---------------------------------------------------------------------- out
def record_of(room: Room) -> dict[str, Any]:
    """The room's game as a save record (format of ``game_to_dict`` + the dashboard's ``session`` part)."""
    g = room._game
    live = g.dice
    g.dice = room.dice  # the room replays with typed dice; the record says how the game rolled them
    try:
        data = game_to_dict(g)
    finally:
        g.dice = live
    data["session"] = {"seats": [{"region": s.region, "kind": s.kind, "name": s.name} for s in room.seats],
                       "lang": room.lang, "hp_track": room.hp_track}
    if room.options:
        data["session"]["options"] = room.options
    return data


def record_json(room: Room) -> str:
    """The record as indented JSON text, for download."""
    return json.dumps(record_of(room), ensure_ascii=False, indent=1)


# ---------------------------------------------------------------------- in
def _seats_and_lang(data: Any, game: Game) -> tuple[list[tuple[str, str, str]], str]:
    meta = data.get("session") if isinstance(data, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    raw = meta.get("seats") or [{"region": p} for p in game.players]
    seats = []
    if not isinstance(raw, list):
        raise SaveFileError("the session part of the record is damaged (its seats are not a list)")
    for s in raw:
        if not isinstance(s, dict) or not isinstance(s.get("region"), str):
            raise SaveFileError("the session part of the record is damaged (a seat has no region)")
        kind, name = s.get("kind", "person"), s.get("name", "")
        if kind not in SEAT_KINDS or not isinstance(name, str):
            raise SaveFileError(f"the session part of the record is damaged (seat kind {kind!r})")
        seats.append((s["region"], kind, name))
    if [s[0] for s in seats] != list(game.players):
        raise SaveFileError("the seats do not match the game's players")
    lang = meta.get("lang", "zh-TW")
    return seats, lang if lang in ("en", "zh-TW") else "zh-TW"


def read_record_text(text: str | bytes) -> tuple[Game, list[tuple[str, str, str]], str]:
    """A record's game (replayed and verified by ``game_from_json``), seats and language; SaveFileError if damaged."""
    if len(text) > MAX_RECORD_BYTES:
        raise SaveFileError("the file is too large to be a game record", kind="damaged")
    try:
        game = game_from_json(text)
        return (game, *_seats_and_lang(json.loads(text), game))
    except SaveFileError:
        raise
    except RecursionError:
        raise SaveFileError("the file is not valid JSON (it is nested too deeply)", kind="not_json") from None
    except (TypeError, ValueError) as exc:
        raise SaveFileError(f"the record is damaged ({exc})") from None


def read_save(path: str | Path) -> tuple[Game, list[tuple[str, str, str]], str]:
    """A save file from the dashboard's folder, read by the dashboard's own reader; SaveFileError if damaged."""
    from ..ui.classplay.session import ClassSession

    path = Path(path)
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise SaveFileError(f"{path.name}: the file is too large to be a save file", kind="damaged")
        session = ClassSession.resume(path)
    except SaveFileError:
        raise
    except RecursionError:
        raise SaveFileError(f"{path.name}: the file is not valid JSON (it is nested too deeply)",
                            kind="not_json") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"{path.name}: cannot be read ({exc})", kind="unreadable") from None
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop the import of the others
        raise SaveFileError(f"{path.name}: the file is damaged ({type(exc).__name__}: {exc})") from None
    seats = [(s.region, s.kind, s.name) for s in session.seats]
    if any(k not in SEAT_KINDS for _, k, _ in seats):
        raise SaveFileError(f"{path.name}: a seat is neither a person nor a bot")
    return session.game, seats, session.lang if session.lang in ("en", "zh-TW") else "zh-TW"


def room_from_game(store: RoomStore, game: Game, seats: list[tuple[str, str, str]], lang: str, *, origin: str = "",
                   import_source: str | None = None, digest: str = "", options: dict[str, Any] | None = None,
                   teacher: Teacher | None = None) -> Room:
    """A new room of ``teacher`` (None: the local teacher's) holding ``game`` (its setup, seed and
    every action); the replay is checked first.

    Person seats get no device token yet (the teacher makes them: ``Room.reissue_token``).
    """
    from .names import clean_name
    from .rooms import SETUP_FORMAT, Room, rebuild

    rules = load_rules()
    setup = {"format": SETUP_FORMAT, "players": list(game.players), "variant": game.variant, "dice": game.dice,
             "start": game.players[game.start_seat], "seed": game.seed, "edition": rules.edition,
             "rules_digest": rules.digest}
    if options:
        setup["options"] = dict(options)
    notations = [a.notation for a in game.history]
    try:
        replayed, _ = rebuild(setup, notations)
    except RoomBroken as exc:
        raise SaveFileError(f"the record cannot be replayed: {exc}", kind="replay") from None
    if replayed.digest() != game.digest():
        raise SaveFileError("the record does not replay to the game it describes", kind="replay")
    row = store.create_room(setup=setup, seats=[NewSeat(r, k, clean_name(n)) for r, k, n in seats], lang=lang,
                            actions=notations, by="import", status=FINISHED if game.is_over else OPEN,
                            origin=origin, import_source=import_source, import_digest=digest,
                            owner=None if teacher is None else teacher.id)
    return Room.open(store, row.id, teacher=teacher)


def import_record(store: RoomStore, record: str | bytes | dict[str, Any], *, teacher: Teacher,
                  origin: str = "upload") -> Room:
    """A JSON game record (text, or the dict of :meth:`Room.record`) as a new room of ``teacher``;
    SaveFileError if damaged, NotAllowed without a teacher."""
    from .errors import NotAllowed
    from .teachers import Teacher as _Teacher

    if not isinstance(teacher, _Teacher):
        raise NotAllowed("only a teacher may import a game record", kind="teacher_only")
    text = json.dumps(record) if isinstance(record, dict) else record
    game, seats, lang = read_record_text(text)
    return room_from_game(store, game, seats, lang, origin=origin, options=_options_of(text), teacher=teacher)


def _options_of(text: str | bytes) -> dict[str, Any]:
    """The session's options of a record already read by :func:`read_record_text` (checked there)."""
    from ..ui.classplay.session import check_options

    data = json.loads(text)
    meta = data.get("session") if isinstance(data, dict) else None
    return check_options(meta.get("options", {})) if isinstance(meta, dict) else {}


def import_saves(store: RoomStore, folder: str | Path | None = None, *, retry_damaged: bool = False) -> ImportReport:
    """Import every JSON save of the dashboard's folder once (idempotent, safe to call from every page).

    A file already imported is skipped; a damaged one is remembered with its reason (listed by
    :func:`import_problems`) and tried again only when its content changes (or ``retry_damaged``).
    Two processes importing at once create each room once (the import is recorded in the room's
    own transaction).
    """
    if folder is None:
        from ..ui.classplay.session import default_save_dir

        folder = default_save_dir()
    folder = Path(folder)
    try:
        paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    except OSError:
        paths = []
    known = {row.source: row for row in store.imports()}
    imported, skipped, problems = [], [], []
    for path in paths:
        source = str(path.absolute())
        prev = known.get(source)
        if prev is not None and prev.ok:
            skipped.append(source)
            continue
        try:  # bounded, and never a FIFO or a link to a device (a plain read blocked or ran out of memory)
            raw, unreadable = read_bounded(path, MAX_RECORD_BYTES, follow_links=False), ""
        except FileTooLarge:
            raw, unreadable = b"\0too large", ""  # read_save says it is too large
        except OSError as exc:
            raw, unreadable = b"", f"{path.name}: cannot be read ({os_reason(exc)})"
        digest = hashlib.sha256(raw).hexdigest()
        if prev is not None and not prev.ok and prev.digest == digest and not retry_damaged:
            problems.append(ImportProblem(source, path.name, prev.kind, prev.error))
            continue
        try:
            if unreadable:
                raise SaveFileError(unreadable, kind="unreadable")
            game, seats, lang = read_save(path)
            room = room_from_game(store, game, seats, lang, origin=f"import:{path.name}", import_source=source,
                                  digest=digest)
        except KeyError:
            skipped.append(source)  # another process imported it a moment ago
            continue
        except SaveFileError as exc:
            store.record_import_problem(source, digest, exc.kind, str(exc))
            problems.append(ImportProblem(source, path.name, exc.kind, str(exc)))
            continue
        imported.append((source, room.code))
    return ImportReport(tuple(imported), tuple(skipped), tuple(problems))


def import_problems(store: RoomStore) -> list[ImportProblem]:
    """The save files that could not be imported, each with its reason."""
    return [ImportProblem(r.source, Path(r.source).name, r.kind, r.error) for r in store.imports() if not r.ok]
