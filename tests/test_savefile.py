"""Save files: versioned JSON replayed and verified on load; bad or tampered files raise SaveFileError."""

from __future__ import annotations

import builtins
import hashlib
import json
import pickle
import random
import re
import shutil

import pytest
from engine_helpers import P3, P4, scn

from typhoon_edu import Game, SaveFileError, load_rules
from typhoon_edu.engine.rules import DATA_DIR, DATA_FILES
from typhoon_edu.engine.savefile import FORMAT, VERSION, game_from_json, game_to_json


def played(players, seed, *, variant="standard", dice="auto", steps=None):
    g = Game.new(players, seed=seed, variant=variant, dice=dice)
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return g


def doc(g):
    return json.loads(game_to_json(g))


def load_doc(d):
    return game_from_json(json.dumps(d))


@pytest.mark.parametrize(
    "players, seed, variant, dice",
    [(P3, 1, "standard", "auto"), (P4, 2, "standard", "manual"), (["Korea", "South China", "Japan", "Central China", "Philippines"], 3, "advanced", "auto"),
     (["Philippines", "Japan", "Taiwan"], 4, "advanced", "manual")],
)
def test_round_trip_at_every_step(players, seed, variant, dice):
    g = Game.new(players, seed=seed, variant=variant, dice=dice)
    rng = random.Random(seed)
    steps = 0
    while True:
        text = g.to_json()
        loaded = Game.from_json(text)
        assert loaded.digest() == g.digest()
        assert loaded.events == g.events
        assert loaded.history == g.history
        assert (loaded.phase, loaded.current_player, loaded.dice) == (g.phase, g.current_player, g.dice)
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
    assert steps > 20


def test_a_loaded_auto_dice_game_rolls_the_same_future():
    g = played(P4, 7, steps=40)
    h = Game.from_json(g.to_json())
    rng = random.Random(99)
    while not g.is_over:
        a = rng.choice(g.legal_actions())
        g.apply(a)
        h.apply(a)
        assert h.digest() == g.digest()


def test_save_file_contents():
    g = played(P3, 5, steps=30)
    d = doc(g)
    assert d["format"] == FORMAT and d["version"] == VERSION
    assert d["rules_digest"] == load_rules().digest
    assert d["setup"] == {"players": P3, "variant": "standard", "dice": "auto", "start": "Taiwan"}
    assert d["seed"] == 5
    assert d["actions"] == [a.notation for a in g.history]
    assert any(a.startswith("die ") for a in d["actions"])  # dice faces are saved too
    assert d["state_digest"] == g.digest()


def test_tampered_action_is_refused():
    g = played(P3, 5, steps=30)
    d = doc(g)
    i = next(i for i, a in enumerate(d["actions"]) if a.startswith("die "))
    face = int(d["actions"][i].split()[1])
    d["actions"][i] = f"die {face % 6 + 1}"  # a different, still legal, face
    with pytest.raises(SaveFileError, match="not rolled by the computer") as info:
        load_doc(d)  # automatic dice: a changed face is not the one the seed rolls
    assert info.value.kind == "forged_dice"
    d = doc(g)
    d["actions"][0] = "place 0,0"
    with pytest.raises(SaveFileError, match=r"cannot be replayed.*action #1"):
        load_doc(d)
    d = doc(g)
    d["actions"][3] = "teleport T1"
    with pytest.raises(SaveFileError, match="action #4"):
        load_doc(d)


def test_wrong_state_digest():
    d = doc(played(P3, 5, steps=10))
    d["state_digest"] = "0123456789abcdef"
    with pytest.raises(SaveFileError, match="does not match"):
        load_doc(d)


@pytest.mark.parametrize("fmt", ["something else", None, 3])
def test_wrong_format(fmt):
    d = doc(played(P3, 5, steps=3))
    d["format"] = fmt
    with pytest.raises(SaveFileError, match="not a typhoon-edu save file"):
        load_doc(d)


@pytest.mark.parametrize("version, needle", [(2, "version 2 is not supported"), (0, "not supported"), ("1", "version"), (None, "version")])
def test_wrong_version(version, needle):
    d = doc(played(P3, 5, steps=3))
    d["version"] = version
    with pytest.raises(SaveFileError, match=needle):
        load_doc(d)


@pytest.mark.parametrize("text", ["", "not json", "{", b"\xff\xfe", "[1, 2]", '"a string"', "null", "42"])
def test_not_a_json_object(text):
    with pytest.raises(SaveFileError):
        game_from_json(text)


@pytest.mark.parametrize(
    "path, value, needle",
    [
        (("seed",), "12", "seed"),
        (("seed",), 1.5, "seed"),
        (("seed",), True, "seed"),
        (("actions",), "pass", "actions"),
        (("actions",), [1, 2], "action #1"),
        (("setup",), [], "setup"),
        (("setup", "players"), "Taiwan", "players"),
        (("setup", "players"), [1, 2, 3], "player #1 must be text"),
        (("setup", "players"), ["Taiwan", "Japan"], "3 to 5 regions"),
        (("setup", "players"), ["Taiwan", "Atlantis", "Japan"], "player #2: unknown region 'Atlantis'"),
        (("setup", "variant"), "expert", "variant"),
        (("setup", "dice"), "loaded", "dice"),
        (("setup", "start"), 3, "start"),
        (("rules_digest",), 5, "rules"),
    ],
)
def test_wrong_types_and_values(path, value, needle):
    d = doc(played(P3, 5, steps=5))
    target = d
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(SaveFileError, match=needle):
        load_doc(d)


@pytest.mark.parametrize("key", ["version", "rules_digest", "setup", "seed", "actions"])
def test_missing_fields(key):
    d = doc(played(P3, 5, steps=5))
    del d[key]
    with pytest.raises(SaveFileError, match=key):
        load_doc(d)


def test_a_save_made_with_different_rules_data(tmp_path):
    g = played(P3, 5, steps=20)
    d = doc(g)
    d["rules_digest"] = "ffffffffffffffff"
    with pytest.raises(SaveFileError, match="different rules data"):
        load_doc(d)
    # and loading a real save under a changed edition (one card fewer of one kind, one more of another)
    other = tmp_path / "edition"
    shutil.copytree(DATA_DIR, other)
    text = (other / "cards.toml").read_text(encoding="utf-8")
    shift = iter((-1, 1))
    text = re.sub(r"(?m)^count = (\d+)$", lambda m: f"count = {int(m.group(1)) + next(shift, 0)}", text)
    (other / "cards.toml").write_text(text, encoding="utf-8")
    rules = load_rules(other)
    assert rules.digest != load_rules().digest
    with pytest.raises(SaveFileError, match="different rules data"):
        game_from_json(g.to_json(), rules=rules)


def test_how_the_rules_files_are_written_does_not_change_their_digest(tmp_path):
    """A comment, a blank line or re-quoted text in the data files changes no rule: saves still load."""
    g = played(P3, 5, steps=20)
    other = tmp_path / "edition"
    shutil.copytree(DATA_DIR, other)
    with open(other / "cards.toml", "a", encoding="utf-8") as f:
        f.write("\n# a teacher's note: nothing here changes a rule\n\n")
    (other / "map.toml").write_text("# first line\n" + (DATA_DIR / "map.toml").read_text(encoding="utf-8"), encoding="utf-8")
    rules = load_rules(other)
    assert rules.digest == load_rules().digest
    assert game_from_json(g.to_json(), rules=rules).digest() == g.digest()


def test_a_save_with_the_digest_of_the_files_bytes_still_loads():
    """Saves made before 0.1.0 carry the digest of the data files' bytes: they are the same rules."""
    g = played(P3, 5, steps=20)
    d = doc(g)
    raw = b"".join((DATA_DIR / name).read_bytes() for name in DATA_FILES)
    d["rules_digest"] = hashlib.sha256(raw).hexdigest()[:16]
    assert d["rules_digest"] != load_rules().digest
    assert load_doc(d).digest() == g.digest()


def test_a_scenario_cannot_be_saved():
    g = scn(P3, typhoons=[((13, 3), 1, "E")])
    with pytest.raises(SaveFileError, match="scenario"):
        g.to_json()


def test_save_file_error_is_a_value_error():
    assert issubclass(SaveFileError, ValueError)


def test_loading_never_executes_anything(tmp_path, monkeypatch):
    marker = tmp_path / "pwned"
    code = f"__import__('os').system('touch {marker}')"

    def forbidden(*args, **kwargs):
        raise AssertionError("a save file must never be executed or unpickled")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    monkeypatch.setattr(pickle, "loads", forbidden)
    monkeypatch.setattr(pickle, "load", forbidden)

    g = played(P3, 5, steps=15)
    assert Game.from_json(g.to_json()).digest() == g.digest()  # a good file loads without eval/exec/pickle
    for path in (("actions",), ("setup", "players"), ("setup", "start"), ("seed",), ("format",), ("state_digest",)):
        d = doc(g)
        target = d
        for key in path[:-1]:
            target = target[key]
        if path == ("actions",):
            target["actions"] = target["actions"] + [code]
        elif path == ("setup", "players"):
            target["players"] = [code, "Japan", "Korea"]
        else:
            target[path[-1]] = code
        with pytest.raises(SaveFileError) as info:
            load_doc(d)
        assert not marker.exists()
        assert isinstance(info.value, ValueError)
    # text fields that are plain data stay data (the summary is informational only)
    d = doc(g)
    d["summary"] = {"note": code}
    assert load_doc(d).digest() == g.digest()
    assert not marker.exists()
