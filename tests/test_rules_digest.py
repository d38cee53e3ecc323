"""The rules digest covers what changes play, not prose: a corrected sentence keeps saves and rooms readable.

``tests/rules_digest/`` holds a save file written on 2026-12-07 with the digest of that day
(``847cb17671e4ccc1``, a hash of every word of the data files) and a copy of the data files it was computed
from, so that saves and rooms of that edition are checked to load whatever the data's prose says now.

After a change of play in the data (a count, an HP, a card, the map), those saves are of other rules and are
refused, as they must be: :func:`test_the_shipped_rules_are_the_fixtures_or_the_change_is_recorded` then fails
once and says what to do (record the new digest in ``SHIPPED_RULES_DIGEST``; keep ``FORMER_DIGESTS`` and the
fixtures, which record the earlier rules), and the tests that load the fixtures under the shipped data are skipped.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from typhoon_edu import Game, SaveFileError, load_rules
from typhoon_edu.classroom import Room, RoomBroken, RoomStore, Seat, sqlite_url
from typhoon_edu.classroom.records import import_record
from typhoon_edu.classroom.store import ROOMS
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.engine.rules import DATA_DIR, DATA_FILES, FORMER_DIGESTS, PROSE_FIELDS, _text_digest, data_digest
from typhoon_edu.engine.savefile import game_from_json, game_to_json

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "rules_digest"
OLD_DIGEST = "847cb17671e4ccc1"
OLD_SAVE = FIXTURES / f"save-{OLD_DIGEST}.json"
OLD_EDITION = FIXTURES / f"edition-{OLD_DIGEST}"

#: The rules digest of the shipped data (typhoon_edu/data/*.toml): record a new one here after an intended
#: change of play (see test_the_shipped_rules_are_the_fixtures_or_the_change_is_recorded).
SHIPPED_RULES_DIGEST = "9df22c66022b1588"


def parsed(folder: Path) -> dict[str, Any]:
    return {name: tomllib.loads((folder / name).read_text(encoding="utf-8")) for name in DATA_FILES}


#: the rules (today's definition of the digest) the fixtures' save and data files are of
FIXTURE_RULES_DIGEST = data_digest(parsed(OLD_EDITION))


def same_rules_as_the_fixtures() -> None:
    """Skip, saying why, a test that loads the fixtures under the shipped data once that data's play has changed."""
    now = load_rules().digest
    if now != FIXTURE_RULES_DIGEST:
        pytest.skip(f"the shipped rules data changed play (rules digest {now}; the save and files in tests/rules_digest/ "
                    f"are of {FIXTURE_RULES_DIGEST}), so they are refused: see "
                    "test_the_shipped_rules_are_the_fixtures_or_the_change_is_recorded for what to do")


def test_the_shipped_rules_are_the_fixtures_or_the_change_is_recorded():
    """The guard: the shipped data has the fixtures' rules, or a change of play was recorded and old saves are refused."""
    rules = load_rules()
    now = rules.digest
    if now == FIXTURE_RULES_DIGEST:
        assert SHIPPED_RULES_DIGEST == now, (
            f"SHIPPED_RULES_DIGEST in tests/test_rules_digest.py is {SHIPPED_RULES_DIGEST!r}, but the shipped data "
            f"has the rules of the fixtures in tests/rules_digest/, digest {now!r}: set it to {now!r}")
        return
    assert now == SHIPPED_RULES_DIGEST, (
        f"the rules digest of typhoon_edu/data/*.toml is now {now!r}; SHIPPED_RULES_DIGEST in "
        f"tests/test_rules_digest.py says {SHIPPED_RULES_DIGEST!r}, and the save and data files in "
        f"tests/rules_digest/ and every entry of FORMER_DIGESTS (typhoon_edu/engine/rules.py) are of the rules "
        f"{FIXTURE_RULES_DIGEST!r}. A change to the data changed play: a number, a key, an effect, a card or "
        "the map (names and texts are prose and do not count; PROSE_FIELDS in typhoon_edu/engine/rules.py "
        "lists them).\n"
        "- Not meant to change play? `git diff typhoon_edu/data/` and undo the field that is not prose.\n"
        "- Meant to (a new card, a count, an HP)? Then saves and classroom rooms made before the change are "
        "refused from now on, as they must be: they were played under other rules. Keep FORMER_DIGESTS and "
        "tests/rules_digest/ as they are (they record the earlier rules); set "
        f"SHIPPED_RULES_DIGEST = {now!r} in tests/test_rules_digest.py. The tests that load the fixtures under "
        "the shipped data are then skipped, and this test checks that the shipped data refuses them. Then "
        "regenerate what else a change of play touches (CONTRIBUTING.md, 'Changing the rules data': "
        "scripts/regen_golden.py, docs/cards.md, docs/rules.md and docs/rules.zh-TW.md).")
    accepted = [d for d in (OLD_DIGEST, *FORMER_DIGESTS) if rules.accepts(d)]
    assert not accepted, (f"the shipped rules (digest {now}) differ from the rules of the fixtures "
                          f"({FIXTURE_RULES_DIGEST}), yet accept their former digests {accepted}")
    with pytest.raises(SaveFileError) as info:
        game_from_json(OLD_SAVE.read_text(encoding="utf-8"))
    assert info.value.kind == "rules", f"the fixtures' save is refused for {info.value.kind!r}, not for its rules"


def leaves(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every field of parsed TOML with its path (``[]`` for an entry of a list of tables)."""
    if isinstance(value, dict):
        for key, sub in value.items():
            yield from leaves(sub, (*path, key))
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for sub in value:
            yield from leaves(sub, (*path, "[]"))
    else:
        yield path, value


def changed(value: Any) -> Any:
    """A different value of the same type."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + " (changed)"
    assert isinstance(value, list), f"a field of an unexpected type: {value!r}"
    return [*value, value[0]] if value else ["x"]


def with_changed(data: Any, path: tuple[str, ...]) -> Any:
    """A copy of ``data`` with the field at ``path`` changed in the first entry that has it."""
    data = copy.deepcopy(data)

    def visit(node: Any, rest: tuple[str, ...]) -> bool:
        if rest[0] == "[]":
            return any(visit(entry, rest[1:]) for entry in node)
        if rest[0] not in node:
            return False
        if len(rest) == 1:
            node[rest[0]] = changed(node[rest[0]])
            return True
        return visit(node[rest[0]], rest[1:])

    assert visit(data, path), f"no field at {path}"
    return data


FIELDS = sorted({(name, path) for name, data in parsed(DATA_DIR).items() for path, _ in leaves(data)})


#: The words of a field's name that make it prose: what the field holds is only shown to people.
TEXTS = {"name_en", "name_zh", "text_en", "text_zh", "basis_en", "basis_zh"}


def is_prose(name: str, path: tuple[str, ...]) -> bool:
    """This test's own reading of which fields are prose, independent of ``PROSE_FIELDS``.

    Names and texts are, and the map's name; a region's names are not (its English name is its key,
    and a save, a room or the command line may name it in Chinese)."""
    if name == "regions.toml" and path[0] == "regions":
        return False
    return path[-1] in TEXTS or (name, path) == ("map.toml", ("name",))


def test_every_prose_field_is_a_text_of_the_edition():
    """PROSE_FIELDS names fields the data files have (no misspelt path that leaves a sentence counted)."""
    texts = {(name, path) for name, data in parsed(DATA_DIR).items() for path, v in leaves(data) if isinstance(v, str)}
    listed = {(name, path) for name, paths in PROSE_FIELDS.items() for path in paths}
    assert listed <= texts, sorted(listed - texts)
    assert ("regions.toml", ("abilities", "[]", "basis_en")) in listed


@pytest.mark.parametrize(("name", "path"), FIELDS, ids=lambda v: v if isinstance(v, str) else ".".join(v))
def test_a_prose_field_leaves_the_digest_and_any_other_field_changes_it(name, path):
    files = parsed(DATA_DIR)
    before = data_digest(files)
    after = data_digest({**files, name: with_changed(files[name], path)})
    if is_prose(name, path):
        assert after == before, f"{name}: {'.'.join(path)} is prose, yet changing it changes the rules digest"
    else:
        assert after != before, f"{name}: {'.'.join(path)} is not prose, yet changing it keeps the rules digest"


@pytest.fixture
def edition(tmp_path: Path) -> Path:
    folder = tmp_path / "edition"
    shutil.copytree(DATA_DIR, folder)
    return folder


def edit(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {name}: the test needs updating"
    path.write_text(text.replace(old, new), encoding="utf-8")


def edit_field(folder: Path, name: str, key: str, field: str, value: int) -> None:
    """Set ``field = value`` in the entry ``key = "<key>"`` of ``name`` (whatever the value was)."""
    path = folder / name
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(rf'(key = "{re.escape(key)}"\n(?:[^\[]*?\n)?{field} = )[^\n]*', rf"\g<1>{value}", text, count=1)
    assert n == 1, f"{name}: no entry key = {key!r} with a line '{field} = …' (the test reads the data's layout)"
    path.write_text(new, encoding="utf-8")


def test_a_corrected_sentence_keeps_saves_readable_and_a_changed_rule_does_not(edition: Path):
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=11)
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    text = (edition / "regions.toml").read_text(encoding="utf-8")
    (edition / "regions.toml").write_text(
        text.replace('basis_en = "Taiwan', 'basis_en = "A corrected note: Taiwan', 1)
            .replace('basis_zh = "臺灣', 'basis_zh = "更正後的說明：臺灣', 1), encoding="utf-8")
    edit(edition, "cards.toml", 'text_en = "Warm sea water feeds a typhoon', 'text_en = "Warm water feeds a typhoon')
    edit(edition, "cards.toml", 'name_zh = "暖洋加溫"', 'name_zh = "溫暖海洋"')
    corrected = load_rules(edition)
    assert corrected.regions["Taiwan"].ability.basis_en.startswith("A corrected note")
    assert corrected.regions["Taiwan"].ability.basis_zh.startswith("更正後的說明")
    assert corrected.digest == load_rules().digest
    assert game_from_json(g.to_json(), rules=corrected).digest() == g.digest()
    same = load_rules().digest == FIXTURE_RULES_DIGEST  # else the fixtures' save is of other rules (see the guard)
    if same:
        assert game_from_json(OLD_SAVE.read_text(encoding="utf-8"), rules=corrected).is_over is False

    other = edition.parent / "changed"  # another folder: the loader caches an edition per folder
    shutil.copytree(edition, other)
    hp = load_rules().regions["Taiwan"].hp
    edit_field(other, "regions.toml", "Taiwan", "hp", hp + 1 if hp < 60 else hp - 1)  # Taiwan's HP: a rule
    changed_rule = load_rules(other)
    assert changed_rule.digest != load_rules().digest
    for record in (g.to_json(), OLD_SAVE.read_text(encoding="utf-8")):
        with pytest.raises(SaveFileError) as info:
            game_from_json(record, rules=changed_rule)
        assert info.value.kind == "rules"
    assert not changed_rule.accepts(OLD_DIGEST)


def test_a_save_written_before_prose_left_the_digest_still_loads():
    """The save of 2026-12-07 loads under today's data (the Taiwan note corrected since) and plays on."""
    same_rules_as_the_fixtures()
    record = json.loads(OLD_SAVE.read_text(encoding="utf-8"))
    assert record["rules_digest"] == OLD_DIGEST != load_rules().digest
    game = game_from_json(OLD_SAVE.read_text(encoding="utf-8"))
    assert game.digest() == record["state_digest"] and dict(game.hp) == record["summary"]["hp"]
    game.apply(game.legal_actions()[0])
    again = game_from_json(game_to_json(game))  # saved again, it carries today's digest
    assert json.loads(game_to_json(again))["rules_digest"] == load_rules().digest and again.digest() == game.digest()


def test_the_former_digest_is_the_whole_text_of_the_files_of_that_day_and_their_rules_are_todays():
    files = parsed(OLD_EDITION)
    assert _text_digest(files) == OLD_DIGEST  # the copy is the files the save was made with
    assert FORMER_DIGESTS[OLD_DIGEST] == data_digest(files)
    same_rules_as_the_fixtures()
    assert data_digest(files) == load_rules().digest
    assert load_rules(OLD_EDITION).digest == load_rules().digest
    # only the prose differs from today's files: the rules part of every file is the same
    assert files != parsed(DATA_DIR)


def test_former_digests_are_those_of_the_package_files_at_the_commits_named():
    """Each entry of FORMER_DIGESTS is the 0.1.0 whole-text digest or the older bytes digest of the data files at
    a commit of this repository, and maps to the rules digest of the same files (checked where git history is)."""
    import hashlib

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    commits = ("bc1ce94", "3cad248", "eaaf5be", "3388a16", "bfe71f9", "ad6f05f", "1853b6f")
    found: dict[str, str] = {}
    for commit in commits:
        raw = {}
        for name in DATA_FILES:
            shown = subprocess.run(["git", "show", f"{commit}:typhoon_edu/data/{name}"], cwd=HERE, capture_output=True)
            if shown.returncode != 0:
                pytest.skip("the repository's history is not here (a shallow clone or a package)")
            raw[name] = shown.stdout
        files = {name: tomllib.loads(raw[name].decode("utf-8")) for name in DATA_FILES}
        rules = data_digest(files)
        found[_text_digest(files)] = rules
        found[hashlib.sha256(b"".join(raw[name] for name in DATA_FILES)).hexdigest()[:16]] = rules
    for digest, rules in FORMER_DIGESTS.items():
        assert found.get(digest) == rules, f"{digest} is not a digest of the data files at {commits} for {rules}"


@pytest.mark.parametrize("digest", sorted(FORMER_DIGESTS))
def test_a_save_with_any_former_digest_of_these_rules_loads(digest: str):
    """Saves of 0.1.0 before 2026-12-07, of the day the Taiwan note was first corrected (ad6f05f), and from before
    0.1.0 (the files' bytes, when only comments differed from today's) carry digests of the same rules."""
    same_rules_as_the_fixtures()
    record = json.loads(OLD_SAVE.read_text(encoding="utf-8"))
    record["rules_digest"] = digest
    assert game_from_json(json.dumps(record)).digest() == record["state_digest"]


def test_a_former_digest_is_accepted_only_for_the_rules_it_was_computed_from(edition: Path):
    counts = {k: c.count for k, c in load_rules().cards.items()}
    more, fewer = sorted(counts, key=counts.__getitem__)[0], max(counts, key=counts.__getitem__)
    edit_field(edition, "cards.toml", fewer, "count", counts[fewer] - 1)  # one card moves: still 54
    edit_field(edition, "cards.toml", more, "count", counts[more] + 1)
    other = load_rules(edition)
    assert other.digest != load_rules().digest
    assert [d for d in FORMER_DIGESTS if other.accepts(d)] == []
    same_rules_as_the_fixtures()
    assert all(load_rules().accepts(d) for d in FORMER_DIGESTS)


@pytest.fixture
def lite(tmp_path: Path) -> RoomStore:
    return RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))


def test_a_room_stored_with_the_former_digest_still_opens_and_a_record_of_then_imports(lite: RoomStore):
    same_rules_as_the_fixtures()
    teacher = local_teacher(lite)
    room = Room.create(lite, [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea")], seed=5,
                       teacher=teacher)
    room.act(room.game.legal_actions()[0], teacher=True)
    with lite._engine.begin() as conn:
        setup = json.loads(conn.execute(sa.select(ROOMS.c.setup).where(ROOMS.c.id == room.id)).scalar())
        setup["rules_digest"] = OLD_DIGEST
        conn.execute(sa.update(ROOMS).where(ROOMS.c.id == room.id).values(setup=json.dumps(setup)))
    again = Room.open(lite, room.code, teacher=teacher)
    assert again.seq == 1 and again.game.digest() == room.game.digest()
    with lite._engine.begin() as conn:  # and a digest no rules had is still refused
        setup["rules_digest"] = "0123456789abcdef"
        conn.execute(sa.update(ROOMS).where(ROOMS.c.id == room.id).values(setup=json.dumps(setup)))
    with pytest.raises(RoomBroken) as info:
        Room.open(lite, room.code, teacher=teacher)
    assert info.value.kind == "rules"
    imported = import_record(lite, OLD_SAVE.read_text(encoding="utf-8"), teacher=teacher)
    assert imported.game.digest() == json.loads(OLD_SAVE.read_text(encoding="utf-8"))["state_digest"]
