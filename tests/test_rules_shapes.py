"""A hand-edited data file never crashes the loader: a value of the wrong shape anywhere is refused
with a ``RulesDataError`` that names the file.

The fuzzer takes each of the five shipped files, and for every path in it (every table, every array
item, every field) puts values of the wrong shape in its place one at a time (text, a whole number, a
decimal, a bool, an empty list, a list of whole numbers, an empty table); ``load_rules`` must then
load the folder or refuse it with a ``RulesDataError`` whose message names the file, never raise
another exception, and what it loads has the types the engine expects. The paths are sampled (seeded) to keep the run short.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import shutil
import types
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from typhoon_edu.engine import rules as rules_mod
from typhoon_edu.engine.rules import DATA_DIR, DATA_FILES, RulesDataError, load_rules

tomllib = rules_mod.tomllib

WRONG_SHAPES: tuple[Any, ...] = ("x", 7, 1.5, True, [], [1, 2], {})
SEED = 20261207
PATHS_PER_FILE = 60  # of the 575 paths in all (every table and list, then a seeded sample of the fields)

Path_ = tuple[str | int, ...]


def _toml_value(value: Any) -> str:
    """``value`` as a TOML inline value (arrays may mix types in TOML 1.0)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else ("nan" if value != value else ("inf" if value > 0 else "-inf"))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))  # pragma: no cover - parsed TOML holds nothing else


def _dumps(data: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(k, ensure_ascii=False)} = {_toml_value(v)}\n" for k, v in data.items())


def _paths(value: Any, path: Path_ = ()) -> Iterator[Path_]:
    """Every path below ``value`` (not the file itself, which is always a table)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield (*path, key)
        yield from _paths(child, (*path, key))


def _at(data: Any, path: Path_) -> Any:
    for key in path:
        data = data[key]
    return data


def _sample(shipped: dict[str, Any], name: str) -> list[Path_]:
    """Every path to a table or a list, and fields drawn (seeded) up to ``PATHS_PER_FILE`` paths in all."""
    paths = list(_paths(shipped))
    containers = [p for p in paths if isinstance(_at(shipped, p), (dict, list))]
    fields = [p for p in paths if p not in containers]
    rng = random.Random(f"{SEED}:{name}")
    return containers + rng.sample(fields, min(len(fields), max(0, PATHS_PER_FILE - len(containers))))


def _replaced(data: Any, path: Path_, new: Any) -> Any:
    if not path:
        return new
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[path[0]] = _replaced(data[path[0]], path[1:], new)
    return copy


def _load(folder: Path) -> rules_mod.Rules:
    """``load_rules(folder)`` without its cache (the folder's files change between calls)."""
    return rules_mod._load_cached.__wrapped__(folder.resolve())


def _misfits(value: Any, hint: Any, where: str) -> Iterator[str]:
    """Where a loaded value is not of its declared type (``Rules`` and the dataclasses in it)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, hint):
            yield f"{where} is {value!r:.60}"
            return
        hints = typing.get_type_hints(hint)
        for f in dataclasses.fields(hint):
            yield from _misfits(getattr(value, f.name), hints[f.name], f"{where}.{f.name}")
    elif origin in (types.UnionType, typing.Union):
        if not any(not list(_misfits(value, arg, where)) for arg in args):
            yield f"{where} is {value!r:.60}"
    elif origin is tuple:
        if not isinstance(value, tuple):
            yield f"{where} is {value!r:.60}"
        elif len(args) == 2 and args[1] is Ellipsis:
            for i, item in enumerate(value):
                yield from _misfits(item, args[0], f"{where}[{i}]")
        else:
            for i, (item, arg) in enumerate(zip(value, args, strict=True)):
                yield from _misfits(item, arg, f"{where}[{i}]")
    elif origin is Mapping:
        if not isinstance(value, Mapping):
            yield f"{where} is {value!r:.60}"
            return
        for key, item in value.items():
            yield from _misfits(key, args[0], f"{where} key")
            yield from _misfits(item, args[1], f"{where}[{key!r}]")
    elif hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            yield f"{where} is {value!r:.60}"
    elif hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            yield f"{where} is {value!r:.60}"
    elif hint is type(None) or isinstance(hint, type):
        if not isinstance(value, hint):
            yield f"{where} is {value!r:.60}"


@pytest.fixture()
def loaded_digests() -> Iterator[None]:
    """Each folder loaded leaves its digests in the module's table: put the table back afterwards."""
    saved = {k: set(v) for k, v in rules_mod._LOADED_DIGESTS.items()}
    yield
    rules_mod._LOADED_DIGESTS.clear()
    rules_mod._LOADED_DIGESTS.update(saved)


def test_the_round_trip_of_the_shipped_files_loads_the_same_rules(tmp_path: Path, loaded_digests: None) -> None:
    for name in DATA_FILES:
        (tmp_path / name).write_text(_dumps(tomllib.loads((DATA_DIR / name).read_text("utf-8"))), "utf-8")
    assert rules_mod._load_cached.__wrapped__(tmp_path.resolve()).digest == load_rules().digest


def test_the_type_check_of_loaded_rules() -> None:
    rules = load_rules()
    assert list(_misfits(rules, rules_mod.Rules, "rules")) == []
    taiwan = dataclasses.replace(rules.regions["Taiwan"], pattern=[1])
    broken = dataclasses.replace(rules, regions={**rules.regions, "Taiwan": taiwan})
    assert list(_misfits(broken, rules_mod.Rules, "rules")) == ["rules.regions['Taiwan'].pattern is [1]"]


@pytest.mark.parametrize("name", DATA_FILES)
def test_a_value_of_the_wrong_shape_anywhere_is_refused_naming_the_file(
        name: str, tmp_path: Path, loaded_digests: None) -> None:
    for other in DATA_FILES:
        shutil.copy(DATA_DIR / other, tmp_path / other)
    shipped = tomllib.loads((DATA_DIR / name).read_text("utf-8"))
    tried = _sample(shipped, name)
    crashes: list[str] = []
    for path in tried:
        for new in WRONG_SHAPES:
            (tmp_path / name).write_text(_dumps(_replaced(shipped, path, new)), "utf-8")
            where = f"{name} {'.'.join(map(str, path))} = {new!r}"
            try:
                loaded = _load(tmp_path)
            except RulesDataError as exc:
                if name not in str(exc):
                    crashes.append(f"{where}: the message does not name {name}: {exc}")
            except Exception as exc:  # noqa: BLE001 - any other exception is what this test looks for
                crashes.append(f"{where}: {type(exc).__name__}: {exc}")
            else:  # loaded: then every value has the type the engine expects
                crashes.extend(f"{where}: loaded, but {m}" for m in _misfits(loaded, rules_mod.Rules, "rules"))
    assert not crashes, f"{len(crashes)} of {len(tried) * len(WRONG_SHAPES)} cases:\n" + "\n".join(crashes[:60])


@pytest.mark.parametrize(("name", "path", "new"), [
    ("regions.toml", ("regions",), "x"),
    ("regions.toml", ("regions",), [1]),
    ("levels.toml", ("levels",), [1]),
    ("compass.toml", ("points",), [1]),
])
def test_the_cases_found_by_hand(name: str, path: Path_, new: Any, tmp_path: Path, loaded_digests: None) -> None:
    for other in DATA_FILES:
        shutil.copy(DATA_DIR / other, tmp_path / other)
    shipped = tomllib.loads((DATA_DIR / name).read_text("utf-8"))
    (tmp_path / name).write_text(_dumps(_replaced(shipped, path, new)), "utf-8")
    with pytest.raises(RulesDataError) as caught:
        load_rules(tmp_path)
    assert caught.value.file == name
