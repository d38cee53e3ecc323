"""Records refused by name: size and depth limits, forged dice, the session part, odd files, safe writes."""

from __future__ import annotations

import io
import json
import os
import random
import threading
import time

import pytest

from typhoon_edu import Game, SaveFileError
from typhoon_edu.cli import main
from typhoon_edu.engine.game import auto_dice
from typhoon_edu.engine.savefile import (
    MAX_ACTIONS,
    MAX_RECORD_BYTES,
    game_from_json,
    game_to_dict,
    game_to_json,
    parse_record,
)
from typhoon_edu.fileio import FileTooLarge, NotARegularFile, atomic_write_text, read_bounded
from typhoon_edu.i18n import error_text
from typhoon_edu.ui.classplay.session import (
    MAX_NAME_CHARS,
    ClassSession,
    Seat,
    check_session,
    read_session_record,
)

P3 = ["Taiwan", "Japan", "Korea"]


def played(seed: int = 5, steps: int = 60, dice: str = "auto", face: int | None = None) -> Game:
    g = Game.new(P3, seed=seed, dice=dice)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        if face is not None and g.current_player == "chance":
            g.apply(face)
        else:
            g.apply(rng.choice(g.legal_actions()))
    return g


def session(tmp_path, **kw) -> ClassSession:
    seats = [Seat("Taiwan", "person", "Ann"), Seat("Japan", "greedy"), Seat("Korea", "random")]
    s = ClassSession.start(seats, seed=3, save_dir=tmp_path, **kw)
    while not s.game.is_over and len(s.game.history) < 80:
        if s.waiting_for_person:
            s.apply(s.game.legal_actions()[0])
        else:
            s.step_bot()
    return s


# ------------------------------------------------------------------------------- size and shape
@pytest.mark.parametrize("depth", [1_000, 10_000, 100_000])
def test_deep_nesting_is_refused_by_name(depth):
    for text in ("[" * depth + "]" * depth, "[" * depth, '{"a":' * depth + "1" + "}" * depth):
        with pytest.raises(SaveFileError) as info:
            game_from_json(text)
        assert info.value.kind == "too_deep", text[:20]


def test_nesting_inside_a_string_does_not_count():
    g = played(steps=5)
    d = game_to_dict(g)
    d["summary"]["note"] = "[" * 5_000 + "{{{" + "\\\"" * 10
    assert game_from_json(json.dumps(d)).digest() == g.digest()


def test_a_huge_record_is_refused_before_it_is_parsed():
    g = played(steps=5)
    d = game_to_dict(g)
    header = json.dumps({k: v for k, v in d.items() if k != "actions"})[:-1]
    text = header + ', "actions": [' + ", ".join(['"pass"'] * 400_000) + "]}"  # 3.6 MB: the 200 MB case, smaller
    t = time.process_time()
    with pytest.raises(SaveFileError) as info:
        game_from_json(text)
    assert info.value.kind == "too_large" and "bytes" in str(info.value)
    assert time.process_time() - t < 1.0  # a safety bound in CPU seconds, not a benchmark
    with pytest.raises(SaveFileError, match="too_large|bytes"):
        game_from_json(text.encode())


def test_too_many_actions_are_refused_before_any_is_replayed():
    d = game_to_dict(played(steps=5))
    d["actions"] = ["pass"] * (MAX_ACTIONS + 1)
    with pytest.raises(SaveFileError, match="5,001 actions") as info:
        game_from_json(json.dumps(d))
    assert info.value.kind == "too_large"


def test_a_record_of_exactly_the_limit_is_parsed(tmp_path):
    text = json.dumps({"format": "x", "pad": "a" * (MAX_RECORD_BYTES - 30)})
    assert len(text.encode()) <= MAX_RECORD_BYTES
    assert parse_record(text)["format"] == "x"


@pytest.mark.parametrize("number", ["9" * 5_000, "9" * 25, "1" + "0" * 4_400])
def test_huge_numbers_are_refused_by_name(number):
    d = game_to_dict(played(steps=5))
    text = json.dumps(d).replace(f'"seed": {d["seed"]}', f'"seed": {number}')
    with pytest.raises(SaveFileError, match="digits"):
        game_from_json(text)


@pytest.mark.parametrize("action", ["die " + "9" * 5_000, "place 9999999,1", "die ٣", "²", "move T" + "1" * 50])
def test_odd_action_notation_is_refused_as_a_replay_error(action):
    d = game_to_dict(played(steps=5, dice="manual"))
    d["actions"].append(action)
    with pytest.raises(SaveFileError) as info:
        game_from_json(json.dumps(d))
    assert info.value.kind == "replay"


@pytest.mark.parametrize("seed", [2**63, -(2**63) - 1, 10**19])
def test_seeds_out_of_range_are_refused(seed):
    d = game_to_dict(played(steps=5))
    d["seed"] = seed
    with pytest.raises(SaveFileError, match="seed"):
        game_from_json(json.dumps(d))


@pytest.mark.parametrize("const", ["NaN", "Infinity", "-Infinity"])
def test_non_json_constants_are_refused(const):
    with pytest.raises(SaveFileError) as info:
        game_from_json('{"format": "typhoon-edu-save", "version": ' + const + "}")
    assert info.value.kind == "not_json"


def test_a_byte_order_mark_is_accepted():
    g = played(steps=5)
    assert game_from_json("\ufeff" + game_to_json(g)).digest() == g.digest()
    assert game_from_json(b"\xef\xbb\xbf" + game_to_json(g).encode()).digest() == g.digest()


def test_unknown_setup_fields_and_a_summary_that_disagrees_are_refused():
    g = played(steps=30)
    d = game_to_dict(g)
    d["setup"]["cheat"] = True
    with pytest.raises(SaveFileError, match="unknown fields"):
        game_from_json(json.dumps(d))
    for key, value in (("round", 3), ("hp", {"Taiwan": 1, "Japan": 50, "Korea": 40}), ("winners", ["Korea"])):
        d = game_to_dict(g)
        d["summary"][key] = value
        with pytest.raises(SaveFileError, match="summary") as info:
            game_from_json(json.dumps(d))
        assert info.value.kind == "tampered"


# -------------------------------------------------------------------------------- forged dice
def test_all_sixes_marked_auto_with_a_recomputed_digest_is_refused():
    g = played(seed=8, steps=200, dice="manual", face=6)
    d = game_to_dict(g)
    assert d["actions"].count("die 6") > 5
    d["setup"]["dice"] = "auto"  # the digest does not depend on the dice mode: it is the one anyone can recompute
    with pytest.raises(SaveFileError) as info:
        game_from_json(json.dumps(d))
    assert info.value.kind == "forged_dice"
    assert "not rolled by the computer" in str(info.value)
    zh = error_text(info.value, "zh-TW")
    assert "骰子" in zh


def test_the_same_record_with_manual_dice_loads():
    g = played(seed=8, steps=200, dice="manual", face=6)
    assert game_from_json(game_to_json(g)).digest() == g.digest()


def test_genuine_auto_dice_match_the_seed_in_many_games():
    for seed in range(30):
        g = played(seed=seed, steps=400)
        faces = [a.face for a in g.history if a.kind == "die"]
        gen = auto_dice(seed)
        assert faces == [next(gen) for _ in faces]
        assert game_from_json(game_to_json(g)).digest() == g.digest()


def test_undo_and_reload_keep_auto_dice_from_the_seed():
    g = played(seed=11, steps=25)
    for _ in range(40):
        if g.is_over:
            break
        g.apply(g.legal_actions()[-1])
        try:
            g.undo()
        except ValueError:
            pass
        g.apply(g.legal_actions()[0])
        h = Game.from_json(g.to_json())
        assert h.digest() == g.digest()
        g = h


# ----------------------------------------------------------------------------- session part
def _session_doc(tmp_path) -> dict:
    return json.loads(session(tmp_path).record_json())


@pytest.mark.parametrize("mutate", [
    lambda m: m.update(seats="all"),
    lambda m: m.update(seats=m["seats"][:2]),
    lambda m: m["seats"].reverse(),
    lambda m: m["seats"][0].update(kind="wizard"),
    lambda m: m["seats"][0].update(kind=None),
    lambda m: m["seats"][0].update(name=5),
    lambda m: m["seats"][0].update(name="x" * (MAX_NAME_CHARS + 1)),
    lambda m: m["seats"][0].update(region=["Taiwan"]),
    lambda m: m["seats"][0].update(extra=1),
    lambda m: m["seats"].__setitem__(1, "Japan"),
    lambda m: m.update(lang="fr"),
    lambda m: m.update(lang=7),
    lambda m: m.update(hp_track={"Taiwan": 30}),
    lambda m: m.update(hp_track=[[30, 50, 40]]),
    lambda m: m["hp_track"][0].update(Taiwan=-1),
    lambda m: m["hp_track"][0].update(Taiwan=10**6),
    lambda m: m["hp_track"][0].update(Taiwan="30"),
    lambda m: m["hp_track"][0].update(Taiwan=True),
    lambda m: m["hp_track"][0].update(Philippines=40),
    lambda m: m["hp_track"][0].pop("Korea"),
    lambda m: m.update(hp_track=[dict(m["hp_track"][0])] * (MAX_ACTIONS + 3)),
    lambda m: m.update(colour="red"),
])
def test_a_damaged_session_part_is_refused_when_read(tmp_path, mutate):
    d = _session_doc(tmp_path)
    mutate(d["session"])
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(SaveFileError) as info:
        ClassSession.resume(path)
    assert info.value.kind in ("session", "too_large")
    assert str(info.value).startswith("damaged.json: ")
    assert error_text(info.value, "zh-TW") != str(info.value)
    infos = {i.path.name: i for i in ClassSession.list_saves(tmp_path)}
    assert not infos["damaged.json"].ok and infos["damaged.json"].kind == info.value.kind


@pytest.mark.parametrize("session_part", [None, {}, {"lang": "en"}, {"seats": []}])
def test_a_missing_or_partial_session_part_gets_defaults(tmp_path, session_part):
    d = _session_doc(tmp_path)
    if session_part is None:
        del d["session"]
    else:
        d["session"] = session_part
    record = read_session_record(json.dumps(d))
    assert [s.kind for s in record.seats] == ["person"] * 3
    assert record.lang == (session_part or {}).get("lang", "zh-TW")
    assert record.hp_track == (record.game.hp,)


def test_old_region_spellings_in_the_session_part_are_read_as_keys(tmp_path):
    g = Game.new(["Taiwan", "South China", "Japan"], seed=2)
    seats = [{"region": "Taiwan"}, {"region": "SouthChina", "kind": "greedy"}, {"region": "日本", "kind": "random"}]
    track = [{"Taiwan": g.hp["Taiwan"], "SouthChina": g.hp["South China"], "Japan": g.hp["Japan"]}]
    seats_out, lang, track_out = check_session({"seats": seats, "lang": "zh_TW", "hp_track": track}, g)
    assert [s.region for s in seats_out] == list(g.players)
    assert lang == "zh-TW" and list(track_out[0]) == list(g.players)


def test_a_resumed_session_plays_on_and_saves(tmp_path):
    s = session(tmp_path, lang="en")
    t = ClassSession.resume(s.save_path)
    assert (t.game.digest(), t.seats, t.lang, t.hp_track) == (s.game.digest(), s.seats, "en", s.hp_track)
    while not t.game.is_over:
        if t.waiting_for_person:
            t.apply(t.game.legal_actions()[0])
        else:
            t.step_bot()
    assert ClassSession.resume(t.save_path).game.is_over


def test_a_long_name_is_refused_when_the_game_starts(tmp_path):
    with pytest.raises(ValueError) as info:
        ClassSession.start([Seat("Taiwan", "person", "x" * 100_000), Seat("Japan", "greedy"), Seat("Korea", "greedy")],
                           save_dir=tmp_path)
    assert info.value.kind == "name_too_long"
    assert "60" in error_text(info.value, "zh-TW")
    assert not list(tmp_path.iterdir())


# ------------------------------------------------------------------------------ the saves list
def test_one_bad_file_of_each_kind_is_listed_with_its_reason(tmp_path, monkeypatch):
    good = session(tmp_path)
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    (tmp_path / "linked.json").symlink_to(good.save_path)
    (tmp_path / "folder.json").mkdir()
    (tmp_path / "binary.json").write_bytes(b"\x00\xff" * 10)
    (tmp_path / "empty.json").write_bytes(b"")
    with open(tmp_path / "huge.json", "wb") as fh:  # sparse: 300 MB on paper, nothing on disk
        fh.truncate(300 * 2**20)
    os.mkfifo(tmp_path / "fifo.json")
    locked = tmp_path / "locked.json"
    locked.write_text(good.record_json(), encoding="utf-8")
    real_open = os.open

    def no_access(path, flags, *args, **kwargs):  # the tests run as root, where chmod 000 does not lock a file
        if os.fspath(path) == os.fspath(locked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", no_access)
    t = time.process_time()
    infos = {i.path.name: i for i in ClassSession.list_saves(tmp_path)}
    assert time.process_time() - t < 5.0
    assert infos[good.save_path.name].ok
    want = {"deep.json": "too_deep", "dangling.json": "unreadable", "linked.json": "unreadable",
            "folder.json": "unreadable", "binary.json": "not_json", "empty.json": "not_json",
            "huge.json": "too_large", "fifo.json": "unreadable", "locked.json": "unreadable"}
    for name, kind in want.items():
        assert (infos[name].ok, infos[name].kind) == (False, kind), name
        assert infos[name].error.startswith(name)
    assert "Permission denied" in infos["locked.json"].error
    assert "symbolic link" in infos["linked.json"].error
    assert ClassSession.resume(good.save_path).game.digest() == good.game.digest()


def test_listing_a_missing_or_unreadable_folder_lists_nothing(tmp_path, monkeypatch):
    assert ClassSession.list_saves(tmp_path / "none") == []
    (tmp_path / "file").write_text("x")
    assert ClassSession.list_saves(tmp_path / "file") == []

    def refuse(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(type(tmp_path), "iterdir", refuse)
    assert ClassSession.list_saves(tmp_path) == []


def test_a_bug_while_reading_one_save_is_logged_and_the_others_stay(tmp_path, monkeypatch, caplog):
    good = session(tmp_path)
    (tmp_path / "other.json").write_text(good.record_json(), encoding="utf-8")
    import typhoon_edu.ui.classplay.session as ds

    real = ds.read_session_record

    def flaky(raw, rules=None):
        if b'"Ann"' in raw and flaky.calls == 0:
            flaky.calls += 1
            raise KeyError("a bug")
        return real(raw, rules)

    flaky.calls = 0
    monkeypatch.setattr(ds, "read_session_record", flaky)
    infos = ClassSession.list_saves(tmp_path)
    assert sorted(i.ok for i in infos) == [False, True]
    assert [i.kind for i in infos if not i.ok] == ["internal"]
    assert "reading the save file" in caplog.text


# ---------------------------------------------------------------------------------- safe writes
def test_a_planted_link_is_never_followed(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me", encoding="utf-8")
    saves = tmp_path / "saves"
    saves.mkdir()
    s = ClassSession.start([Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "greedy")], seed=1, save_dir=saves)
    (saves / f"{s.game_id}.json.tmp").symlink_to(outside)  # the old fixed temporary name
    s.save()
    s.save_path.unlink()
    s.save_path.symlink_to(outside)  # a link planted at the save itself
    s.save()
    assert outside.read_text(encoding="utf-8") == "keep me"
    assert not s.save_path.is_symlink() and ClassSession.resume(s.save_path).game.digest() == s.game.digest()
    assert sorted(p.name for p in saves.iterdir()) == sorted([f"{s.game_id}.json.tmp", s.save_path.name])


def test_writers_never_collide_and_a_reader_never_sees_half_a_file(tmp_path):
    path = tmp_path / "g.json"
    texts = [json.dumps({"writer": i, "pad": "x" * 200_000}) for i in range(4)]
    atomic_write_text(path, texts[0])
    errors: list[BaseException] = []
    stop = threading.Event()

    def write(i: int) -> None:
        try:
            for _ in range(15):
                atomic_write_text(path, texts[i])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    def read() -> None:
        while not stop.is_set():
            try:
                assert json.loads(path.read_text(encoding="utf-8"))["writer"] in range(4)
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)
                return

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    stop.set()
    reader.join()
    assert errors == []
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    atomic_write_text(path, "old")
    os.chmod(path, 0o640)

    def broken(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="No space"):
        atomic_write_text(path, "new")
    monkeypatch.undo()
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["g.json"]
    atomic_write_text(path, "new")
    assert path.read_text() == "new" and (path.stat().st_mode & 0o777) == 0o640


def test_bounded_reads_refuse_odd_files(tmp_path):
    (tmp_path / "big").write_bytes(b"x" * 101)
    with pytest.raises(FileTooLarge):
        read_bounded(tmp_path / "big", 100)
    assert read_bounded(tmp_path / "big", 101) == b"x" * 101
    with pytest.raises(NotARegularFile):
        read_bounded(tmp_path, 100)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(NotARegularFile):
        read_bounded(tmp_path / "fifo", 100)
    (tmp_path / "link").symlink_to(tmp_path / "big")
    assert read_bounded(tmp_path / "link", 200) == b"x" * 101
    with pytest.raises(NotARegularFile, match="symbolic link"):
        read_bounded(tmp_path / "link", 200, follow_links=False)
    with pytest.raises(NotARegularFile):
        read_bounded("/dev/zero", 100)


# ------------------------------------------------------------------------------------ the CLI
def _cli(argv):
    out = io.StringIO()
    code = main(argv, out=out, ask=lambda prompt: (_ for _ in ()).throw(EOFError()))
    return code, out.getvalue()


@pytest.mark.parametrize("lang, needle", [("en", "nested more than 8 levels"), ("zh-TW", "巢狀")])
def test_cli_load_of_a_deeply_nested_file_is_a_clean_error(tmp_path, capsys, lang, needle):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, _ = _cli(["play", "--load", str(path), "--lang", lang, "--bots", "greedy"])
    err = capsys.readouterr().err
    assert code == 2 and "deep.json" in err and needle in err and "Traceback" not in err


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("content, needle", [(b"\x89PNG\r\n\x1a\n\x00\x00", "UTF-8"), (b"{nope", "JSON"),
                                             (b"", "JSON")])
def test_cli_load_of_a_file_that_is_not_text_or_not_json_names_the_file(tmp_path, capsys, lang, content, needle):
    path = tmp_path / "notes.json"
    path.write_bytes(content)
    code, _ = _cli(["play", "--load", str(path), "--lang", lang])
    err = capsys.readouterr().err
    assert code == 2 and str(path) in err and "Traceback" not in err
    if lang == "en":
        assert needle in err
    else:
        assert "JSON" in err and "錯誤" in err


def test_cli_load_of_a_folder_or_a_huge_file_is_a_clean_error(tmp_path, capsys):
    code, _ = _cli(["play", "--load", str(tmp_path)])
    assert code == 2 and "folder" in capsys.readouterr().err
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:
        fh.truncate(200 * 2**20)
    code, _ = _cli(["play", "--load", str(huge), "--lang", "zh-TW"])
    err = capsys.readouterr().err
    assert code == 2 and "huge.json" in err and "大得多" in err


def test_cli_save_is_atomic_and_never_follows_a_link(tmp_path, capsys):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    save = tmp_path / "game.json"
    save.symlink_to(outside)
    code, _ = _cli(["play", "--bots", "greedy", "--seed", "3", "--players", "Taiwan,Japan,Korea", "--save", str(save)])
    assert code == 2 and "--overwrite" in capsys.readouterr().err  # an existing name is not replaced unasked
    code, _ = _cli(["play", "--bots", "greedy", "--seed", "3", "--players", "Taiwan,Japan,Korea", "--save", str(save),
                    "--overwrite"])
    assert code == 0 and outside.read_text() == "keep me"
    assert game_from_json(save.read_bytes()).is_over
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "outside.txt"]
    code, _ = _cli(["play", "--bots", "greedy", "--seed", "3", "--save", str(tmp_path)])
    assert code == 2 and "--save" in capsys.readouterr().err
