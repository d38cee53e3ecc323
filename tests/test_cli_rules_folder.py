"""A teacher's rules folder: ``typhoon-edu rules copy DIR``, then ``play --rules DIR`` and ``simulate --rules DIR``.

The variant of these tests moves one card from Warm Ocean to the next kind in cards.toml (still 54 cards).
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from typhoon_edu.cli import main
from typhoon_edu.engine.rules import DATA_DIR, DATA_FILES, load_rules


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()

    def ask(prompt: str) -> str:
        raise EOFError

    return main(argv, out=out, ask=ask), out.getvalue()


def copy(folder: Path, lang: str = "en") -> str:
    code, text = run(["rules", "copy", str(folder), "--lang", lang])
    assert code == 0, text
    return text


def variant(folder: Path) -> Path:
    """A copy with one Warm Ocean card moved to the second card kind (54 cards still)."""
    copy(folder)
    cards = folder / "cards.toml"
    text = cards.read_text(encoding="utf-8")
    counts = [int(n) for n in re.findall(r"^count = (\d+)$", text, flags=re.M)]
    assert sum(counts) == 54 and counts[0] > 1
    first, second = (m.start(1) for m in list(re.finditer(r"^count = (\d+)$", text, flags=re.M))[:2])
    text = text[:second] + re.sub(r"^\d+", lambda m: str(int(m.group()) + 1), text[second:], count=1)
    text = text[:first] + re.sub(r"^\d+", lambda m: str(int(m.group()) - 1), text[first:], count=1)
    cards.write_text(text, encoding="utf-8")
    return folder


def test_rules_copy_writes_the_five_files_and_a_readme_and_never_overwrites(tmp_path, capsys):
    folder = tmp_path / "my rules"
    said = copy(folder)
    assert sorted(p.name for p in folder.iterdir()) == sorted([*DATA_FILES, "README.txt"])
    for name in DATA_FILES:
        assert (folder / name).read_bytes() == (DATA_DIR / name).read_bytes()
    assert f"play --rules {shlex.quote(str(folder))}" in (folder / "README.txt").read_text(encoding="utf-8")
    assert f"simulate 500 --rules {shlex.quote(str(folder))}" in said and "'" in said  # quoted, to paste in a shell
    assert "cards.toml" in said and "shipped rules" in said
    assert load_rules(folder).digest == load_rules().digest

    (folder / "cards.toml").write_text("# my edits\n", encoding="utf-8")
    code, _ = run(["rules", "copy", str(folder)])
    err = capsys.readouterr().err
    assert code == 2 and "already holds" in err and "nothing was written" in err and "Traceback" not in err
    assert (folder / "cards.toml").read_text(encoding="utf-8") == "# my edits\n"  # the teacher's edit is kept
    code, _ = run(["rules", "copy", str(folder), "--lang", "zh-TW"])
    assert code == 2 and "什麼都沒有寫入" in capsys.readouterr().err

    other = tmp_path / "中文"
    said = copy(other, "zh-TW")
    assert "全班一起玩（serve）和課程一律使用內附的規則" in said
    assert "54 張" in (other / "README.txt").read_text(encoding="utf-8")


def test_play_with_a_variant_says_which_rules_and_plays_a_different_game(tmp_path):
    folder = variant(tmp_path / "v")
    argv = ["play", "--bots", "greedy", "--seed", "3", "--players", "Taiwan,Japan,Korea"]
    code, shipped = run(argv)
    assert code == 0 and not shipped.startswith("Rules:")
    code, mine = run([*argv, "--rules", str(folder)])
    first, rest = mine.split("\n", 1)
    assert code == 0 and "Game over" in rest
    digest = load_rules(folder).digest
    assert first == (f"Rules: {folder.resolve()} (digest {digest}), not the shipped edition "
                     f"(digest {load_rules().digest})")
    assert rest != shipped  # another deck: another game
    code, zh = run([*argv, "--rules", str(folder), "--lang", "zh-TW"])
    assert code == 0 and zh.startswith(f"規則：{folder.resolve()}（規則摘要 {digest}），不是內附的版本")


def test_play_with_an_unchanged_copy_plays_the_shipped_game(tmp_path):
    folder = tmp_path / "same"
    copy(folder)
    argv = ["play", "--bots", "greedy", "--seed", "3", "--players", "Taiwan,Japan,Korea"]
    code, mine = run([*argv, "--rules", str(folder)])
    first, rest = mine.split("\n", 1)
    assert code == 0 and first.endswith("the same rules as the shipped edition") and rest == run(argv)[1]


def test_a_game_saved_with_a_variant_loads_only_with_the_same_rules(tmp_path, capsys):
    folder, save = variant(tmp_path / "v"), tmp_path / "g.json"
    code, _ = run(["play", "--bots", "greedy", "--seed", "3", "--players", "Taiwan,Japan,Korea", "--rules", str(folder),
                   "--save", str(save)])
    assert code == 0
    code, _ = run(["play", "--load", str(save), "--bots", "greedy"])
    err = capsys.readouterr().err
    assert code == 2 and "different rules data" in err and "the same --rules DIR" in err
    assert ".." not in err, err  # the save file's reason ends its own sentence
    code, _ = run(["play", "--load", str(save), "--bots", "greedy", "--lang", "zh-TW"])
    err = capsys.readouterr().err
    assert code == 2 and "同樣的「--rules 資料夾」" in err
    assert "。。" not in err, err
    code, text = run(["play", "--load", str(save), "--bots", "greedy", "--rules", str(folder)])
    assert code == 0 and "Game over" in text


def table(text: str) -> list[str]:
    """The summary lines of one rules folder's block (its ``Rules:`` line left out)."""
    return [line for line in text.splitlines() if line and not line.startswith(("Rules:", "規則："))]


def test_simulate_with_a_variant_and_two_folders_side_by_side(tmp_path):
    mine, same = variant(tmp_path / "v"), tmp_path / "same"
    copy(same)
    argv = ["simulate", "12", "--bots", "greedy", "--seed", "5"]
    code, shipped = run(argv)
    assert code == 0
    code, text = run([*argv, "--rules", str(mine)])
    assert code == 0 and text.startswith(f"Rules: {mine.resolve()} (digest {load_rules(mine).digest}), not the shipped")
    assert table(text) != table(shipped)  # other win rates from the same seeds
    code, both = run([*argv, "--rules", str(same), "--rules", str(mine)])
    blocks = both.split("\n\n")
    assert code == 0 and len(blocks) == 2
    assert blocks[0].startswith(f"Rules: {same.resolve()}") and "the same rules as the shipped edition" in blocks[0]
    assert table(blocks[0]) == table(shipped)  # an unchanged copy plays exactly the shipped games
    assert table(blocks[1]) == table(text)
    code, zh = run([*argv, "--rules", str(mine), "--lang", "zh-TW", "--jobs", "2"])
    assert code == 0 and zh.startswith("規則：") and "不是內附的版本" in zh and len(table(zh)) == len(table(text))


def test_simulate_with_two_folders_refuses_one_csv(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    copy(a), copy(b)
    code, _ = run(["simulate", "3", "--rules", str(a), "--rules", str(b), "--csv", str(tmp_path / "x.csv")])
    assert code == 2 and "--csv writes the games of one set of rules" in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()


def broken(folder: Path) -> Path:
    """A copy whose deck holds 55 cards."""
    copy(folder)
    cards = folder / "cards.toml"
    cards.write_text(re.sub(r"^count = 12$", "count = 13", cards.read_text(encoding="utf-8"), count=1, flags=re.M),
                     encoding="utf-8")
    return folder


@pytest.mark.parametrize("command", [["play", "--bots", "greedy"], ["simulate", "3"]])
def test_a_broken_folder_is_refused_naming_the_file_the_entry_and_the_rule(tmp_path, capsys, command):
    folder = broken(tmp_path / "b")
    code, text = run([*command, "--rules", str(folder)])
    err = capsys.readouterr().err
    assert code == 2 and text == "" and "Traceback" not in err
    assert err.startswith(f"typhoon-edu: error: --rules: {folder}: cards.toml, deck: the deck must hold 54 function cards")
    assert "add up to 55" in err
    code, _ = run([*command, "--rules", str(folder), "--lang", "zh-TW"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"typhoon-edu：錯誤：--rules：{folder}：cards.toml 的 deck 有問題：")


def test_a_folder_missing_a_file_or_not_there_says_what_a_rules_folder_holds(tmp_path, capsys):
    folder = tmp_path / "partial"
    copy(folder)
    (folder / "levels.toml").unlink()
    code, _ = run(["simulate", "3", "--rules", str(folder)])
    err = capsys.readouterr().err
    assert code == 2 and f"{folder} has no levels.toml; a rules folder holds all five data files" in err
    code, _ = run(["play", "--rules", str(folder), "--lang", "zh-TW"])
    assert code == 2 and "裡沒有 levels.toml" in capsys.readouterr().err
    code, _ = run(["play", "--rules", str(tmp_path / "nowhere")])
    err = capsys.readouterr().err
    assert code == 2 and "is not a folder; make one to edit with: typhoon-edu rules copy" in err
    code, _ = run(["simulate", "3", "--rules", str(tmp_path / "nowhere"), "--lang", "zh-TW"])
    assert code == 2 and "不是資料夾" in capsys.readouterr().err


def test_a_folder_the_loader_cannot_read_is_a_message_not_a_traceback(tmp_path, capsys):
    folder = tmp_path / "odd"
    copy(folder)
    (folder / "levels.toml").write_text("levels = [1]\n", encoding="utf-8")  # a shape the loader does not expect
    code, _ = run(["simulate", "3", "--rules", str(folder)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"typhoon-edu: error: --rules: {folder}: ") and "Traceback" not in err
