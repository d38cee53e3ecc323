"""Fuzzing every reader of game records with hypothesis.

The readers: the save-file reader (``game_from_json``), the command line's ``--load``, and the
dashboard's record import (``read_session_record``, ``ClassSession.resume``, ``list_saves``).
The inputs: random bytes and text, truncations, keys deleted and values retyped at every level
of real records (the ``session`` part included), deep nesting, huge numbers, forged dice and
over-long records. The property: every input ends in a loaded game whose replay matches its
digest, or in a ``SaveFileError`` with a reason and a known kind; never another exception, and
never more than a second or 200 MB (a safety bound checked on every input: CPU time of one run,
so that a busy shared machine does not make it flaky, and peak memory of a second run under
``tracemalloc``; speed itself is measured in benchmarks).

The default profile tries about 2,400 inputs in well under a minute; ``--hypothesis-profile=long``
(registered in ``tests/conftest.py``) tries 25 times as many. Each run writes the number of
inputs per test and how they ended to ``artifacts/fuzz-records.json``.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import io
import json
import random
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from typhoon_edu import Game, SaveFileError
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.cli import main
from typhoon_edu.engine.savefile import MAX_ACTIONS, MAX_DEPTH, MAX_RECORD_BYTES, game_from_json, parse_record
from typhoon_edu.ui.classplay.session import ClassSession, Seat, read_session_record

KINDS = {"unreadable", "not_json", "too_large", "too_deep", "foreign", "version", "rules", "damaged", "session",
         "replay", "forged_dice", "tampered"}
TIME_LIMIT = 1.0  # seconds per read
MEMORY_LIMIT = 200 * 2**20  # bytes of peak allocation per read

LONG = settings.get_current_profile_name() == "long"
SCALE = 25 if LONG else 1
# The long run multiplies every test's inputs by SCALE: its tests get SCALE times the suite's
# per-test timeout (pyproject.toml), or the slowest of them is stopped by the harness, not by a bug.
pytestmark = [pytest.mark.timeout(600 * SCALE)] if LONG else []
COUNTS: dict[str, Counter[str]] = {}


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples * SCALE, deadline=None, database=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# ------------------------------------------------------------------------------------ records
def _play(players: list[str], seed: int, steps: int | None, variant: str = "standard", dice: str = "auto") -> Game:
    g = Game.new(players, seed=seed, variant=variant, dice=dice)
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return g


def _session_record(seed: int, finish: bool) -> str:
    with tempfile.TemporaryDirectory() as folder:
        seats = [Seat("Taiwan", "person", "Ann <b>&"), Seat("Central China", "greedy"), Seat("Japan", "random"),
                 Seat("Philippines", "person", "小明")]
        s = ClassSession.start(seats, seed=seed, save_dir=folder, lang="en")
        rng = random.Random(seed)
        while not s.game.is_over and (finish or len(s.game.history) < 70):
            if s.waiting_for_person:
                s.apply(rng.choice(s.game.legal_actions()))
            else:
                s.step_bot()
        return s.record_json()


ENGINE_RECORDS = [
    _play(["Taiwan", "Japan", "Korea"], 1, 40).to_json(),
    _play(["Korea", "South China", "Japan", "Central China"], 2, None).to_json(),
    _play(["Philippines", "Japan", "Taiwan", "Korea", "South China"], 3, 60, "advanced", "manual").to_json(),
    _play(["Japan", "Taiwan", "Central China"], 4, None, "standard", "manual").to_json(),
]
SESSION_RECORDS = [_session_record(5, False), _session_record(6, True)]
RECORDS = ENGINE_RECORDS + SESSION_RECORDS
AUTO_RECORDS = [r for r in RECORDS if json.loads(r)["setup"]["dice"] == "auto"]


# ----------------------------------------------------------------------------------- the guard
def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except SaveFileError as exc:
        return exc


def cpu_time(call: Callable[[], Any]) -> tuple[Any, float]:
    """``call()``'s result and the CPU seconds it took, with the garbage collector paused.

    A long fuzz run holds millions of objects, and a full collection that happened to start during
    one read cost that read 1.4 s in one run: that is the test process's cost, not the read's. The
    collection runs after the call instead.
    """
    gc.disable()
    try:
        start = time.process_time()
        result = call()
        return result, time.process_time() - start
    finally:
        gc.enable()


def guarded(call: Callable[[], Any]) -> Any:
    """``call()``'s game, or the SaveFileError it raised; any other exception fails the test.

    Checks the safety bounds: CPU time of one run (:func:`cpu_time`), peak memory of a second
    run under ``tracemalloc``, and that both runs end the same way.
    """
    first, elapsed = cpu_time(lambda: _outcome(call))
    tracemalloc.start()
    try:
        second = _outcome(call)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert elapsed < TIME_LIMIT, f"the read took {elapsed:.2f} s"
    assert peak < MEMORY_LIMIT, f"the read allocated {peak / 2**20:.0f} MiB at its peak"
    if isinstance(first, SaveFileError):
        assert isinstance(second, SaveFileError) and str(second) == str(first)
    else:
        assert not isinstance(second, SaveFileError)
    return first


def note(test: str, result: Any) -> None:
    outcome = result.kind if isinstance(result, SaveFileError) else "loaded"
    COUNTS.setdefault(test, Counter())[outcome] += 1


@pytest.fixture(scope="module", autouse=True)
def _write_counts() -> Iterator[None]:
    yield
    out = Path(__file__).resolve().parent.parent / "artifacts"
    out.mkdir(exist_ok=True)
    report = {"profile": settings.get_current_profile_name(),
              "inputs": sum(sum(c.values()) for c in COUNTS.values()),
              "tests": {name: dict(sorted(c.items())) for name, c in sorted(COUNTS.items())}}
    (out / "fuzz-records.json").write_text(json.dumps(report, indent=1), encoding="utf-8")


def check_game_result(result: Any, text: str | bytes) -> None:
    """A load ends in a verified game or a SaveFileError with a reason and a known kind."""
    if isinstance(result, SaveFileError):
        assert result.kind in KINDS, result.kind
        assert len(str(result)) > 10
        return
    assert isinstance(result, Game)
    assert result.digest() == parse_record(text)["state_digest"]
    again = game_from_json(result.to_json())  # its replay matches its digest
    assert again.digest() == result.digest() and again.history == result.history


# --------------------------------------------------------------------------------- strategies
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
# Huge numbers as JSON literals (Python itself will not turn an int of over 4,300 digits into text).
huge_numbers = st.integers(19, 6_000).map(lambda digits: "9" * digits) | st.sampled_from(
    [str(2**63), str(-(2**63) - 1), str(2**64), "1" + "0" * 4_300, "-" + "7" * 5_000, "1e400", "-1e999"])
NUMBER = "\u0000NUMBER\u0000"


def with_numbers(doc: Any, numbers: list[str], ensure_ascii: bool = True) -> str:
    """``json.dumps(doc)`` with each NUMBER placeholder replaced by the next huge literal."""
    text = json.dumps(doc, ensure_ascii=ensure_ascii)
    for literal in numbers:
        text = text.replace(json.dumps(NUMBER), literal, 1)
    return text


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path of a record; of a long list, its first, middle and last few items."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield prefix + (key,)
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        n = len(value)
        for i in sorted({*range(min(n, 3)), *range(max(0, n - 3), n), n // 2} if n else set()):
            yield prefix + (i,)
            yield from _paths(value[i], prefix + (i,))


def _retype(value: Any) -> list[Any]:
    return [str(value), [value], {"value": value}, None, True, 1.5, -1, 0, "", [], {}, json.dumps(value)]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A real record with one or a few fields deleted, retyped or replaced, at any level."""
    doc = json.loads(draw(st.sampled_from(RECORDS)))
    numbers: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(doc))
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        op = draw(st.sampled_from(["delete", "retype", "replace", "huge", "duplicate", "swap"]))
        if op == "delete":
            del parent[key]
        elif op == "retype":
            parent[key] = draw(st.sampled_from(_retype(parent[key])))
        elif op == "replace":
            parent[key] = draw(json_values)
        elif op == "huge":
            parent[key] = NUMBER
            numbers.append(draw(huge_numbers))
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
        elif op in ("duplicate", "swap") and isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = copy.deepcopy(parent[key])
    return with_numbers(doc, numbers, draw(st.booleans()))


@st.composite
def truncated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(RECORDS))
    return text[: draw(st.integers(0, len(text)))]


@st.composite
def reencoded(draw: st.DrawFn) -> str:
    """A real record written another way (indentation, key order, escapes, a byte-order mark): it loads."""
    doc = json.loads(draw(st.sampled_from(RECORDS)))
    text = json.dumps(doc, indent=draw(st.sampled_from([None, 0, 1, 4])), sort_keys=draw(st.booleans()),
                      ensure_ascii=draw(st.booleans()))
    return ("\ufeff" if draw(st.booleans()) else "") + text


@st.composite
def deeply_nested(draw: st.DrawFn) -> tuple[str, int, bool]:
    """Deep nesting, alone or inside a real record's field: the text, its depth (the record's own
    levels counted) and whether the brackets are closed (if not, the text is not JSON at all)."""
    depth = draw(st.integers(1, 120_000) if draw(st.booleans()) else st.integers(1, 12))
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a": ', "}"), ('[{"k": ', "}]")]))
    levels = depth * (2 if opener.startswith("[{") else 1)
    closed = draw(st.booleans())
    inner = opener * depth + "0" + (closer * depth if closed else "")
    where = draw(st.sampled_from(["alone", "summary", "session", "action"]))
    if where == "alone":
        return inner, levels, closed
    doc = json.loads(draw(st.sampled_from(SESSION_RECORDS if where == "session" else RECORDS)))
    marker = "\u0000MARK\u0000"
    if where == "summary":
        doc["summary"]["note"] = marker  # record → summary → note: 2 levels around it
        around = 2
    elif where == "session":
        doc["session"]["seats"][0]["name"] = marker  # record → session → seats → seat: 4 levels
        around = 4
    else:
        doc["actions"][-1] = marker  # record → actions: 2 levels
        around = 2
    return json.dumps(doc).replace(json.dumps(marker), inner), levels + around, closed


@st.composite
def forged(draw: st.DrawFn) -> str:
    """An automatic-dice record with one die face changed (its digest as good as anyone can make it)."""
    doc = json.loads(draw(st.sampled_from(AUTO_RECORDS)))
    dice = [i for i, a in enumerate(doc["actions"]) if a.startswith("die ")]
    i = draw(st.sampled_from(dice))
    face = int(doc["actions"][i].split()[1])
    doc["actions"][i] = f"die {draw(st.sampled_from([f for f in range(1, 7) if f != face]))}"
    if draw(st.booleans()):  # replay the changed dice by hand, as a forger would, and record that digest
        setup = dict(doc["setup"], dice="manual")
        try:
            g = Game.new(setup["players"], seed=doc["seed"], variant=setup["variant"], dice="manual",
                         start=setup["start"])
            for a in doc["actions"]:
                g.apply(a)
            doc["state_digest"] = g.digest()
            doc["summary"] = {"round": g.round, "phase": g.phase, "hp": dict(g.hp), "winners": list(g.winners)}
        except ValueError:
            pass  # the changed die made a later action illegal: the record is forged all the same
    return json.dumps(doc)


@st.composite
def overlong(draw: st.DrawFn) -> str:
    """Records past the limits: too many actions, or too many bytes."""
    doc = json.loads(draw(st.sampled_from(RECORDS)))
    if draw(st.booleans()):
        extra = draw(st.integers(MAX_ACTIONS + 1 - len(doc["actions"]), 300_000))
        doc["actions"] = doc["actions"] + [draw(st.sampled_from(["pass", "die 3", "place 8,8"]))] * extra
    else:
        doc[draw(st.sampled_from(["summary", "padding", "edition"]))] = "x" * draw(
            st.integers(MAX_RECORD_BYTES, 3 * MAX_RECORD_BYTES))
    return json.dumps(doc)


any_record = st.one_of(
    st.binary(max_size=3_000), st.text(max_size=3_000), truncated(), mutated(), reencoded(),
    deeply_nested().map(lambda pair: pair[0]), forged(), overlong(),
    st.sampled_from(RECORDS),
)


# --------------------------------------------------------------------------- the save-file reader
@fuzz(300)
@given(data=st.binary(max_size=5_000) | st.text(max_size=5_000))
def test_reader_random_bytes_and_text(data):
    result = guarded(lambda: game_from_json(data))
    note("reader: random bytes and text", result)
    check_game_result(result, data)
    assert isinstance(result, SaveFileError)


@fuzz(200)
@given(text=truncated())
def test_reader_truncations(text):
    result = guarded(lambda: game_from_json(text))
    note("reader: truncations", result)
    check_game_result(result, text)


@fuzz(600)
@given(text=mutated())
def test_reader_deleted_and_retyped_keys_at_every_level(text):
    result = guarded(lambda: game_from_json(text))
    note("reader: deleted, retyped and replaced fields", result)
    check_game_result(result, text)


@fuzz(60)
@given(text=reencoded())
def test_reader_accepts_the_same_record_written_another_way(text):
    result = guarded(lambda: game_from_json(text))
    note("reader: re-encoded records", result)
    check_game_result(result, text)
    assert isinstance(result, Game)


@fuzz(150)
@given(case=deeply_nested())
def test_reader_deep_nesting(case):
    text, levels, closed = case
    result = guarded(lambda: game_from_json(text))
    note("reader: deep nesting", result)
    check_game_result(result, text)
    if not closed:
        assert isinstance(result, SaveFileError) and result.kind in ("too_deep", "too_large", "not_json"), result
    elif levels > MAX_DEPTH:
        assert isinstance(result, SaveFileError) and result.kind in ("too_deep", "too_large"), result


@fuzz(100)
@given(text=st.sampled_from(RECORDS), number=huge_numbers, field=st.sampled_from(
    ["seed", "version", "round", "hp", "face", "cell", "typhoon"]))
def test_reader_huge_numbers(text, number, field):
    doc = json.loads(text)
    digits = number.lstrip("-")
    if field in ("seed", "version"):
        doc[field] = NUMBER
    elif field in ("round", "hp"):
        doc["summary"][field] = NUMBER
    elif field == "face":
        doc["actions"].append(f"die {digits}")
    elif field == "cell":
        doc["actions"].append(f"place {digits},{digits}")
    else:
        doc["actions"].append(f"move T{digits}")
    text = with_numbers(doc, [number])
    result = guarded(lambda: game_from_json(text))
    note("reader: huge numbers", result)
    check_game_result(result, text)
    assert isinstance(result, SaveFileError)


@fuzz(150)
@given(text=forged())
def test_reader_forged_dice(text):
    result = guarded(lambda: game_from_json(text))
    note("reader: forged dice", result)
    assert isinstance(result, SaveFileError) and result.kind == "forged_dice", result


@fuzz(40)
@given(text=overlong())
def test_reader_overlong_records(text):
    result = guarded(lambda: game_from_json(text))
    note("reader: over-long records", result)
    assert isinstance(result, SaveFileError) and result.kind == "too_large", result


# ---------------------------------------------------------------------------------- the CLI
@fuzz(250)
@given(data=any_record)
def test_cli_load(data):
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed game.json"
        path.write_bytes(raw)
        err, out = io.StringIO(), io.StringIO()
        start = time.process_time()
        with contextlib.redirect_stderr(err):
            code = main(["play", "--load", str(path), "--bots", "random"], out=out,
                        ask=lambda prompt: (_ for _ in ()).throw(EOFError()))
        elapsed = time.process_time() - start
    assert code in (0, 2), code
    assert "Traceback" not in err.getvalue()
    assert elapsed < 5 * TIME_LIMIT  # loading plus, for a good record, a whole game of random bots
    if code == 2:
        assert str(path) in err.getvalue() and "--load" in err.getvalue()
    else:  # played to the end by the bots, or stopped at a typed die (no one types here)
        assert "Game over" in out.getvalue() or "Game stopped" in out.getvalue()
    COUNTS.setdefault("cli: --load", Counter())["exit 0" if code == 0 else "exit 2"] += 1


# ----------------------------------------------------------------------- the dashboard's import
@fuzz(350)
@given(data=any_record | mutated().filter(lambda t: '"session"' in t))
def test_dashboard_record_import(data):
    result = guarded(lambda: read_session_record(data))
    note("dashboard: read_session_record", result)
    if isinstance(result, SaveFileError):
        assert result.kind in KINDS and len(str(result)) > 10
        return
    game = result.game
    assert game.digest() == parse_record(data)["state_digest"]
    assert [s.region for s in result.seats] == list(game.players)
    assert result.lang in ("en", "zh-TW")
    for entry in result.hp_track:
        assert list(entry) == list(game.players)
        assert all(0 <= entry[p] <= game.rules.regions[p].hp for p in game.players)


@fuzz(200)
@given(data=any_record | mutated().filter(lambda t: '"session"' in t))
def test_dashboard_resume_and_list_saves(data):
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    with tempfile.TemporaryDirectory() as folder:
        good = Path(folder) / "good.json"
        good.write_text(SESSION_RECORDS[0], encoding="utf-8")
        path = Path(folder) / "fuzzed.json"
        path.write_bytes(raw)
        result = guarded(lambda: ClassSession.resume(path))
        note("dashboard: ClassSession.resume", result)
        start = time.process_time()
        infos = {i.path.name: i for i in ClassSession.list_saves(folder)}
        assert time.process_time() - start < 2 * TIME_LIMIT
        assert infos["good.json"].ok
        info = infos["fuzzed.json"]
        if isinstance(result, SaveFileError):
            assert result.kind in KINDS and str(result).startswith("fuzzed.json: ")
            assert (info.ok, info.kind, info.error) == (False, result.kind, str(result))
        else:
            assert info.ok and info.players == result.game.players
            assert result.game.digest() == parse_record(raw)["state_digest"]
            result.save()  # a resumed session saves where it came from, and reads back the same
            assert ClassSession.resume(path).game.digest() == result.game.digest()


# ------------------------------------------------------------------ the room store: import and rows
# The class-play store imports records (a JSON save, an uploaded record) and rebuilds every room
# from its rows; a damaged record or row must end in a refusal with a reason, never another error.
_STORE_PATH = Path(tempfile.mkdtemp(prefix="typhoon-fuzz-store-")) / "rooms.sqlite3"


def _store() -> Any:
    from typhoon_edu.classroom.store import RoomStore, sqlite_url

    return RoomStore(sqlite_url(_STORE_PATH))


@fuzz(200)
@given(data=any_record)
def test_store_import_of_any_record(data):
    from typhoon_edu.classroom.errors import ClassroomError
    from typhoon_edu.classroom.records import import_record

    store = _store()
    start = time.process_time()
    try:
        room = import_record(store, data, teacher=local_teacher(store))
    except (SaveFileError, ClassroomError) as exc:
        assert getattr(exc, "kind", ""), exc
        assert len(str(exc)) > 10
        COUNTS.setdefault("store: import", Counter())[exc.kind] += 1
    else:
        text = data.decode("utf-8", "surrogatepass") if isinstance(data, bytes) else data
        want = parse_record(text)["state_digest"]
        assert room._game.digest() == want  # the room replays to the record's state
        from typhoon_edu.classroom.rooms import Room

        again = Room.open(store, room.code, teacher=local_teacher(store))
        assert again._game.digest() == want
        COUNTS.setdefault("store: import", Counter())["loaded"] += 1
    assert time.process_time() - start < 5 * TIME_LIMIT


_ROW_DAMAGE = st.sampled_from(["setup", "notation", "seq", "seat_region", "seat_kind", "head", "lang", "status"])


@fuzz(120)
@given(what=_ROW_DAMAGE, junk=json_values | st.text(max_size=40), seed=st.integers(0, 50))
def test_store_damaged_rows_are_named_not_raised(what, junk, seed):
    """A hand-edited or damaged row: the rooms list names it, opening it says why; nothing else breaks."""
    import sqlalchemy as sa

    from typhoon_edu.classroom.errors import ClassroomError
    from typhoon_edu.classroom.rooms import Room, Seat, list_rooms
    from typhoon_edu.classroom.store import ACTIONS, ROOMS, SEATS

    store = _store()
    room = Room.create(store, [Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")],
                       seed=seed, lang="en", teacher=local_teacher(store))
    for _ in range(12):
        room.step_bot()
    value = junk if isinstance(junk, str) else json.dumps(junk)
    table, column, where = {
        "setup": (ROOMS, "setup", ROOMS.c.id == room.id),
        "notation": (ACTIONS, "notation", sa.and_(ACTIONS.c.room_id == room.id, ACTIONS.c.seq == 3)),
        "seq": (ACTIONS, "seq", sa.and_(ACTIONS.c.room_id == room.id, ACTIONS.c.seq == 5)),
        "seat_region": (SEATS, "region", sa.and_(SEATS.c.room_id == room.id, SEATS.c.idx == 1)),
        "seat_kind": (SEATS, "kind", sa.and_(SEATS.c.room_id == room.id, SEATS.c.idx == 2)),
        "head": (ROOMS, "head", ROOMS.c.id == room.id),
        "lang": (ROOMS, "lang", ROOMS.c.id == room.id),
        "status": (ROOMS, "status", ROOMS.c.id == room.id),
    }[what]
    if column in ("seq", "head"):
        value = len(value) * 7 + 100  # a number that breaks the log's order
    try:
        with store._engine.begin() as conn:
            conn.execute(sa.update(table).where(where).values({column: value[:30] if isinstance(value, str) else value}))
    except sa.exc.SQLAlchemyError:
        return  # the database itself refused the damage (a key or type constraint): nothing to read back
    infos = {i.code: i for i in list_rooms(store, teacher=local_teacher(store))}  # never raises
    info = infos[room.code]
    try:
        opened = Room.open(store, room.code, teacher=local_teacher(store))
    except ClassroomError as exc:
        assert exc.kind and not info.ok and info.error, (exc, info)
        outcome = f"refused: {exc.kind}"
    else:
        outcome = "opened"
        assert opened.seq >= 0
    COUNTS.setdefault("store: damaged rows", Counter())[outcome] += 1
