"""The typhoon-edu command: play (people and bots), simulate, bad arguments."""

from __future__ import annotations

import io
import json

import pytest

from typhoon_edu.cli import main
from typhoon_edu.engine.savefile import game_from_json


def run(argv, answers=()):
    out = io.StringIO()
    it = iter(answers)

    def ask(prompt: str) -> str:
        out.write(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    code = main(argv, out=out, ask=ask)
    return code, out.getvalue()


def test_bots_play_a_whole_game_narrated_in_both_languages():
    code, text = run(["play", "--bots", "greedy", "--seed", "4", "--players", "Taiwan,Japan,Korea"])
    assert code == 0
    assert "Game over. Winner" in text
    code, text = run(["play", "--bots", "random", "--seed", "4", "--players", "Taiwan,Japan,Korea", "--lang", "zh-TW"])
    assert code == 0 and "遊戲結束" in text and "颱風" in text


def test_a_person_chooses_from_numbered_actions_and_bad_input_is_explained(tmp_path):
    save = tmp_path / "game.json"
    code, text = run(["play", "--bots", "human,greedy,greedy", "--players", "Taiwan,Japan,Korea", "--seed", "2",
                      "--save", str(save)], answers=["99", "x", "²", "1", "q"])
    assert code == 0
    assert "“99” is not one of the choices" in text and "“x” is not one of the choices" in text
    assert "“²” is not one of the choices" in text  # a digit int() cannot read: asked again, the game goes on
    assert "Taiwan placed T1" in text  # choice 1 was applied
    game = game_from_json(save.read_text())
    assert [a.notation for a in game.history] == ["place 8,8"]


def test_manual_dice_rejects_bad_faces(tmp_path):
    code, text = run(["play", "--bots", "greedy", "--players", "Taiwan,Japan,Korea", "--seed", "1", "--dice", "manual"],
                     answers=["0", "7", "three", "³", "4", "q"])
    assert code == 0
    assert text.count("is not a die face") == 4
    assert "moves 4 stops clockwise" in text


def test_undo_at_the_terminal(tmp_path):
    code, text = run(["play", "--bots", "human,greedy,greedy", "--players", "Taiwan,Japan,Korea", "--seed", "2"],
                     answers=["1", "u", "q"])
    assert code == 0 and "taken back" in text


def test_load_a_saved_game_and_reject_a_damaged_one(tmp_path, capsys):
    save = tmp_path / "g.json"
    run(["play", "--bots", "human,greedy,greedy", "--players", "Taiwan,Japan,Korea", "--seed", "2",
         "--save", str(save)], answers=["1", "q"])
    code, text = run(["play", "--load", str(save), "--bots", "greedy"])
    assert code == 0 and "Game over" in text
    data = json.loads(save.read_text())
    data["actions"][0] = "place 0,0"
    save.write_text(json.dumps(data))
    code, _ = run(["play", "--load", str(save)])
    assert code == 2
    err = capsys.readouterr().err
    assert "g.json" in err and "not legal" in err


def test_save_does_not_replace_another_file_unless_asked(tmp_path, capsys):
    """``--save`` over an existing file that is not the game being continued is refused, the file kept whole."""
    other = tmp_path / "homework.json"
    other.write_text("my other game", encoding="utf-8")
    argv = ["play", "--bots", "greedy", "--players", "Taiwan,Japan,Korea", "--seed", "4", "--save", str(other)]
    for lang, words in (("en", "already exists"), ("zh-TW", "已經存在")):
        code, out = run([*argv, "--lang", lang])
        err = capsys.readouterr().err
        assert code == 2 and out == "", (lang, out)
        assert "homework.json" in err and words in err and "--overwrite" in err, err
        assert other.read_text(encoding="utf-8") == "my other game"
    code, out = run([*argv, "--overwrite"])
    assert code == 0 and "Game over" in out
    assert game_from_json(other.read_text(encoding="utf-8")).is_over


def test_save_does_not_replace_a_dangling_link_unless_asked(tmp_path, capsys):
    link = tmp_path / "game.json"
    link.symlink_to(tmp_path / "gone.json")
    code, _ = run(["play", "--bots", "greedy", "--players", "Taiwan,Japan,Korea", "--seed", "4", "--save", str(link)])
    assert code == 2 and "--overwrite" in capsys.readouterr().err and link.is_symlink()


def test_a_continued_game_is_saved_over_its_own_file(tmp_path):
    save = tmp_path / "g.json"
    run(["play", "--bots", "human,greedy,greedy", "--players", "Taiwan,Japan,Korea", "--seed", "2",
         "--save", str(save)], answers=["1", "q"])
    before = len(json.loads(save.read_text())["actions"])
    code, text = run(["play", "--load", str(save), "--save", str(save), "--bots", "greedy"])
    assert code == 0 and "Game over" in text
    assert len(json.loads(save.read_text())["actions"]) > before


def test_simulate_prints_rates_with_intervals_and_writes_csv(tmp_path):
    csv_path = tmp_path / "games.csv"
    code, text = run(["simulate", "8", "--bots", "random,greedy,random", "--seed", "3", "--csv", str(csv_path)])
    assert code == 0
    assert "Win rate per region" in text and "Win rate per bot" in text and "%" in text
    rows = csv_path.read_text().splitlines()
    assert rows[0].startswith("seed,seat,region,bot") and len(rows) == 1 + 8 * 3


@pytest.mark.parametrize("where", ["folder", "missing"])
def test_simulate_says_at_once_when_its_csv_cannot_be_written(tmp_path, capsys, monkeypatch, where):
    import typhoon_edu.cli as cli

    played = []
    monkeypatch.setattr(cli, "run_tournament", lambda *a, **k: played.append(a))
    target = tmp_path if where == "folder" else tmp_path / "no" / "such" / "games.csv"
    code, _ = run(["simulate", "3", "--csv", str(target)])
    assert code == 2 and not played  # said before any game is played
    err = capsys.readouterr().err
    assert f"--csv: cannot write {target}" in err and "Traceback" not in err


def test_a_csv_write_that_fails_after_the_games_is_a_message_not_a_traceback(tmp_path, capsys, monkeypatch):
    from typhoon_edu.ai.tournament import TournamentResult

    def refuse(self, path):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(TournamentResult, "write_csv", refuse)
    code, _ = run(["simulate", "2", "--seed", "3", "--csv", str(tmp_path / "games.csv")])
    assert code == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "not allowed to read or write it" in err and "Traceback" not in err


@pytest.mark.parametrize("argv, needle", [
    (["simulate", "0"], "at least 1"),
    (["simulate", "5", "--bots", "wizard"], "unknown player kind 'wizard'"),
    (["simulate", "5", "--seats", "7"], "3 to 5 seats"),
    (["play", "--players", "Taiwan,Mars,Japan"], "unknown region 'Mars'"),
    (["play", "--players", "Taiwan,Japan"], "3 to 5 players"),
    (["play", "--bots", "greedy,greedy", "--players", "Taiwan,Japan,Korea"], "one per seat"),
])
def test_bad_arguments_say_what_is_allowed(argv, needle, capsys):
    code, _ = run(argv)
    assert code == 2
    assert needle in capsys.readouterr().err


@pytest.mark.parametrize("argv, needle", [
    (["simulate", "0", "--lang", "zh-TW"], "局數至少要 1"),
    (["simulate", "5", "--bots", "wizard", "--lang", "zh-TW"], "沒有「wizard」這種玩家"),
    (["simulate", "5", "--seats", "7", "--lang=zh_TW"], "3 到 5 個座位"),
])
def test_own_errors_in_traditional_chinese_when_asked(argv, needle, capsys):
    code, _ = run(argv)
    assert code == 2
    err = capsys.readouterr().err
    assert needle in err and err.startswith("typhoon-edu：錯誤：")


@pytest.mark.parametrize("argv, needle", [
    (["simulate", "--lang", "zh-TW"], "缺少這些必要的參數"),
    (["simulate", "five", "--lang", "zh-TW"], "「five」不是整數"),
    (["play", "--variant", "expert", "--lang", "zh-TW"], "無效的選項"),
])
def test_argparse_errors_in_traditional_chinese_when_asked(argv, needle, capsys):
    with pytest.raises(SystemExit) as stop:
        run(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and "用法：" in err and "錯誤：" in err
    assert "usage:" not in err and "error:" not in err


@pytest.mark.parametrize("lang, needles", [
    ("zh-TW", ["用法：", "選項", "顯示這段說明後結束", "讓電腦玩很多局", "同時執行的處理程序數"]),
    ("en", ["usage: ", "options", "show this help message and exit", "play many bot games", "worker processes"]),
])
def test_help_in_both_languages(lang, needles, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--help", "--lang", lang])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert all(n in text for n in needles), text


def test_argparse_texts_are_english_again_afterwards():
    import argparse

    with pytest.raises(SystemExit):
        main(["simulate", "--lang", "zh-TW"])
    assert argparse._("usage: ") == "usage: "  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", ["Taiwan,Central China,South China", "taiwan, CentralChina ,south_china",
                                     "台灣,中國華中,中國華南"])
def test_players_with_a_space_or_an_old_key_give_the_one_spelling(tmp_path, players):
    save = tmp_path / "g.json"
    code, text = run(["play", "--bots", "greedy", "--seed", "5", "--players", players, "--save", str(save)])
    assert code == 0 and "Central China" in text and "CentralChina" not in text
    game = game_from_json(save.read_text(encoding="utf-8"))
    assert game.players == ("Taiwan", "Central China", "South China")
    assert set(json.loads(save.read_text(encoding="utf-8"))["summary"]["hp"]) == set(game.players)


@pytest.mark.parametrize("lang, needle", [("en", "unknown region 'Atlantis'"), ("zh-TW", "沒有叫做「Atlantis」的地區")])
def test_an_unknown_region_is_told_in_the_commands_language(capsys, lang, needle):
    code, _ = run(["play", "--bots", "greedy", "--players", "Taiwan,Atlantis,Japan", "--lang", lang])
    assert code == 2 and needle in capsys.readouterr().err


@pytest.mark.parametrize("lang, needle", [("en", "3 to 5 players"), ("zh-TW", "3 到 5 位玩家")])
def test_a_wrong_number_of_players_is_told_in_the_commands_language(capsys, lang, needle):
    code, _ = run(["play", "--bots", "greedy", "--players", "Taiwan,Japan", "--lang", lang])
    assert code == 2 and needle in capsys.readouterr().err


def test_python_dash_m_runs_the_same_command():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "typhoon_edu", "simulate", "0"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "at least 1" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("lang", "compass", "storm"), [
    ("en", "Compass indicator on north.", "  T6 at (10, 5): super typhoon, heading north"),
    ("zh-TW", "方位羅盤的指針在北。", "  T6在 (10, 5)：超級強颱，往北前進")])
def test_the_compass_and_each_storms_direction_are_named_in_the_commands_language(lang, compass, storm):
    code, text = run(["play", "--bots", "human,greedy,greedy", "--players", "Taiwan,Japan,Korea", "--seed", "2",
                      "--lang", lang], answers=["1"] * 40)
    assert code == 0 and compass in text
    assert storm in text.splitlines()  # a storm's line names its level and where it heads, not a code
