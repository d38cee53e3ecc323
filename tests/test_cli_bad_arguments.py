"""Bad arguments a teacher could type, for every ``typhoon-edu`` command, in en and zh-TW: each is a clear
message in the chosen language saying what was wrong and what is allowed, a non-zero exit code, no
traceback, and nothing changed (no game played, no file or folder made)."""

from __future__ import annotations

import io
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import typhoon_edu.cli as cli
from typhoon_edu.cli import main

REPO_ROOT = Path(__file__).resolve().parent.parent
SMOKE_NOTEBOOK = REPO_ROOT / "notebooks" / "smoke" / "one_button.ipynb"
OS_ENGLISH = ("No such file", "Permission denied", "Is a directory", "Not a directory", "Operation not permitted")
THREE = ["--players", "Taiwan,Japan,Korea"]


def run(argv: list[str], answers: tuple[str, ...] = ()) -> tuple[int, str, list[str]]:
    """``typhoon-edu argv``: its exit code (argparse's SystemExit too), what it printed and the prompts it asked."""
    out, asked, it = io.StringIO(), [], iter(answers)

    def ask(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    try:
        code = main(argv, out=out, ask=ask)
    except SystemExit as stop:
        code = stop.code  # type: ignore[assignment]
    return code, out.getvalue(), asked


def english_words(text: str, *allowed: str) -> list[str]:
    for part in sorted(allowed, key=len, reverse=True):
        text = text.replace(part, "")
    return re.findall(r"[A-Za-z]{3,}", text)


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """Records any tournament started (none may be, for a refused simulate)."""
    played: list[object] = []
    monkeypatch.setattr(cli, "run_tournament", lambda *a, **k: played.append(a))
    yield played


# ------------------------------------------------------------------------------------------------ numbers
NUMBER_ARGS = [
    ["simulate", "{}"], ["simulate", "3", "--jobs", "{}"], ["simulate", "3", "--seats", "{}"],
    ["simulate", "3", "--seed", "{}"], ["play", "--seed", "{}"], ["serve", "--no-browser", "--port", "{}"],
    ["serve", "--no-browser", "--pool-size", "{}"], ["lessons", "--no-browser", "--port", "{}"],
]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("value", ["abc", "²", "", "3.5"])
@pytest.mark.parametrize("argv", NUMBER_ARGS, ids=lambda a: " ".join(a))
def test_a_number_that_is_not_a_whole_number_is_said_so(argv: list[str], value: str, lang: str,
                                                        capsys: pytest.CaptureFixture[str], no_games: list) -> None:
    code, out, _ = run([a.format(value) for a in argv] + ["--lang", lang])
    err = capsys.readouterr().err
    assert code == 2 and not no_games and out == ""
    assert (f"'{value}' is not a whole number" if lang == "en" else f"「{value}」不是整數") in err, err
    assert not re.search(r"\bint\b", err), err  # not Python's name of the type


@pytest.mark.parametrize(("argv", "en", "zh"), [
    (["simulate", "10000000000000"], "at most 1,000,000", "最多 1,000,000"),
    (["simulate", "3", "--jobs", "100000"], "--jobs can be at most 64", "--jobs 最多 64"),
    (["simulate", "3", "--seed", "9223372036854775807"], "--seed: game i uses the seed + i", "--seed：第 i 局用種子 + i"),
    (["simulate", "3", "--seed", "-99999999999999999999"], "from -9223372036854775808 to 9223372036854775805",
     "-9223372036854775808 到 9223372036854775805"),
    (["play", "--bots", "greedy", *THREE, "--seed", "99999999999999999999999"],
     "--seed: give a whole number from -9223372036854775808 to 9223372036854775807",
     "--seed：請給 -9223372036854775808 到 9223372036854775807 之間的整數"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "_")
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_number_out_of_range_is_refused_before_any_game(argv: list[str], en: str, zh: str, lang: str,
                                                          capsys: pytest.CaptureFixture[str], no_games: list) -> None:
    code, out, _ = run([*argv, "--lang", lang])
    err = capsys.readouterr().err
    assert code == 2 and not no_games and out == ""
    assert (en if lang == "en" else zh) in err, err


# ------------------------------------------------------------------------------------------------ languages
@pytest.mark.parametrize("value", ["fr", "", "zh-CN-x"])
@pytest.mark.parametrize("argv", [["play", "--bots", "greedy", *THREE], ["simulate", "3"],
                                  ["serve", "--no-browser"], ["teacher", "list"]], ids=lambda a: a[0])
def test_an_unknown_language_names_the_languages_there_are(argv: list[str], value: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str], no_games: list) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # no default store is touched
    monkeypatch.delenv("TYPHOON_EDU_DB", raising=False)
    code, out, _ = run([*argv, "--lang", value])
    err = capsys.readouterr().err
    assert code == 2 and out == "" and not no_games
    assert f"'{value}' is not a language of typhoon-edu; use en or zh-TW" in err, err


def test_the_servers_own_command_line_says_bad_arguments_without_a_traceback() -> None:
    for argv, words in ((["--lang", "fr"], "is not a language of typhoon-edu"),
                        (["--port", "-5"], "--port: give a port from 1 to 65535"),
                        (["--lang", "zh-TW", "--port", "70000"], "--port：請給 1 到 65535 之間的連接埠")):
        done = subprocess.run([sys.executable, "-m", "typhoon_edu.server.serve", "--no-browser", *argv],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("variable", ["LANG", "LC_ALL"])
def test_without_lang_a_chinese_locale_gets_chinese_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str], variable: str) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, "zh_TW.UTF-8")
    (tmp_path / "rooms.db").mkdir()
    assert run(["serve", "--no-browser", "--notebook", str(SMOKE_NOTEBOOK), "--db", str(tmp_path / "rooms.db")])[0] == 1
    err = capsys.readouterr().err
    assert err.startswith("typhoon-edu：錯誤：無法開啟房間資料庫") and "這是資料夾，不是檔案" in err, err
    assert run(["simulate", "0"])[0] == 2 and "局數至少要 1" in capsys.readouterr().err
    assert run(["simulate", "0", "--lang", "en"])[0] == 2 and "at least 1" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------------ empty values
@pytest.mark.parametrize(("argv", "en", "zh"), [
    (["play", "--bots", "greedy", "--players", ""], "--players: name 3 to 5 regions", "--players：請寫 3 到 5 個地區"),
    (["play", "--bots", "greedy", "--players", " , "], "--players: name 3 to 5 regions", "--players：請寫 3 到 5 個地區"),
    (["play", "--bots", "", *THREE], "--bots: give a player kind", "--bots：請寫玩家的種類"),
    (["simulate", "3", "--players", ""], "--players: name 3 to 5 regions", "--players：請寫 3 到 5 個地區"),
    (["simulate", "3", "--bots", ""], "--bots: give a player kind", "--bots：請寫玩家的種類"),
    (["play", "--load", ""], "argument --load: give a file or folder name", "參數 --load：請給檔案或資料夾的名稱"),
    (["play", "--bots", "greedy", *THREE, "--save", " "], "argument --save: give a file or folder name",
     "參數 --save：請給檔案或資料夾的名稱"),
    (["simulate", "3", "--csv", ""], "argument --csv: give a file or folder name", "參數 --csv：請給檔案或資料夾的名稱"),
    (["serve", "--no-browser", "--notebook", ""], "argument --notebook: give a file or folder name",
     "參數 --notebook：請給檔案或資料夾的名稱"),
    (["lessons", "--no-browser", "--dir", ""], "argument --dir: give a file or folder name",
     "參數 --dir：請給檔案或資料夾的名稱"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "_")
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_an_empty_value_is_refused_and_nothing_is_made(argv: list[str], en: str, zh: str, lang: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str], no_games: list) -> None:
    monkeypatch.chdir(tmp_path)  # an empty path was the current folder: the lessons were copied into it
    code, out, asked = run([*argv, "--lang", lang])
    err = capsys.readouterr().err
    assert code == 2 and not no_games and not asked and "placed" not in out
    assert (en if lang == "en" else zh) in err, err
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------------------------ files
def _files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("a teacher's notes\n")
    return {"missing": tmp_path / "missing.json", "folder": tmp_path / "folder",
            "file in the path": tmp_path / "notes.txt" / "g.json", "missing folder": tmp_path / "no" / "g.json"}


#: case -> the reason in en and zh-TW
FILE_REASONS = {
    "missing": ("there is no such file or folder", "沒有這個檔案或資料夾"),
    "folder": ("it is a folder, not a file", "這是資料夾，不是檔案"),
    "file in the path": ("part of the path is a file, not a folder", "路徑中有一段是檔案，不是資料夾"),
    "missing folder": ("there is no such file or folder", "沒有這個檔案或資料夾"),
}


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize(("option", "case"), [(option, case) for option in ("--load", "--save", "--csv")
                                              for case in FILE_REASONS
                                              if (option, case) not in (("--save", "missing"), ("--csv", "missing"))])
def test_a_file_that_cannot_be_used_is_named_with_the_reason_in_the_readers_language(
        option: str, case: str, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        no_games: list) -> None:
    """(A missing file is what --save and --csv make.)"""
    path = _files(tmp_path)[case]
    before = sorted(tmp_path.rglob("*"))
    argv = {"--load": ["play", "--load", str(path)],
            "--save": ["play", "--bots", "human,greedy,greedy", *THREE, "--seed", "2", "--save", str(path)],
            "--csv": ["simulate", "3", "--csv", str(path)]}[option]
    code, out, asked = run([*argv, "--lang", lang], answers=("1", "q"))
    err = capsys.readouterr().err
    assert code == 2 and not asked and not no_games and "Traceback" not in err  # said before any move
    assert f"{option}" in err and str(path) in err, err
    assert FILE_REASONS[case][0 if lang == "en" else 1] in err, err
    if lang == "zh-TW":
        assert not any(words in err for words in OS_ENGLISH), err
        assert english_words(err, str(path), option, "typhoon-edu") == [], err
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize(("lang", "reason"), [("en", "part of the path is a file, not a folder"),
                                              ("zh-TW", "路徑中有一段是檔案，不是資料夾")])
def test_lessons_in_a_place_that_cannot_hold_them_say_why_in_the_readers_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, reason: str) -> None:
    (tmp_path / "notes.txt").write_text("a teacher's notes\n")
    code, _, _ = run(["lessons", "--no-browser", "--dir", str(tmp_path / "notes.txt"), "--lang", lang])
    err = capsys.readouterr().err
    assert code == 2 and str(tmp_path / "notes.txt") in err and reason in err and "Not a directory" not in err, err


# ------------------------------------------------------------------------------------------------ serve, lessons
@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


@pytest.mark.parametrize(("lang", "words"), [("en", "is already used by another program"), ("zh-TW", "已經被別的程式使用")])
@pytest.mark.parametrize("command", ["serve", "lessons"])
def test_a_port_in_use_is_said_before_anything_starts(command: str, lang: str, words: str, busy_port: int,
                                                      tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    argv = {"serve": ["serve", "--notebook", str(SMOKE_NOTEBOOK), "--db", str(tmp_path / "rooms.db")],
            "lessons": ["lessons", "--dir", str(tmp_path / "lessons")]}[command]
    code, _, _ = run([*argv, "--no-browser", "--port", str(busy_port), "--lang", lang])
    err = capsys.readouterr().err
    assert code == 2 and "--port" in err and str(busy_port) in err and words in err, err
    assert list(tmp_path.iterdir()) == []  # no store, no key, no copy of the lessons


@pytest.mark.parametrize(("lang", "words"), [("en", "--port: give a port from 1 to 65535"),
                                             ("zh-TW", "--port：請給 1 到 65535 之間的連接埠")])
@pytest.mark.parametrize("port", ["-1", "70000", "99999999999999999999"])
def test_serve_refuses_an_impossible_port_in_the_readers_language(port: str, lang: str, words: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["serve", "--no-browser", "--port", port, "--lang", lang])[0] == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and "must be between" not in err, err


@pytest.mark.parametrize(("lang", "words"), [("en", "--notebook: "), ("zh-TW", "--notebook：")])
def test_serve_with_a_folder_for_its_notebook_says_so(tmp_path: Path, lang: str, words: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["serve", "--no-browser", "--notebook", str(tmp_path), "--lang", lang])[0] == 2
    err = capsys.readouterr().err
    assert words in err and str(tmp_path) in err and {"en": "is a folder", "zh-TW": "是資料夾"}[lang] in err, err


def test_a_server_that_stops_before_it_is_ready_is_told_in_the_readers_language() -> None:
    from typhoon_edu.server.serve import start_failure

    class Ended:
        returncode = 1

        def poll(self) -> int:
            return 1

    said = start_failure(Ended(), RuntimeError("Voilà exited with code 1 before it was ready"), "zh-TW")
    assert "結束代碼 1" in said and "exited" not in said
    assert "120" in start_failure(None, TimeoutError("no answer"), "zh-TW", timeout=120)
    assert "stopped before it was ready (exit code 1)" in start_failure(Ended(), RuntimeError("x"), "en")


# ------------------------------------------------------------------------------------------------ teacher
@pytest.mark.parametrize(("lang", "words"), [("en", "at most 80 characters"), ("zh-TW", "最多 80 個字")])
def test_a_teachers_name_longer_than_the_limit_is_refused_not_cut(tmp_path: Path, lang: str, words: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from typhoon_edu.classroom.store import RoomStore
    from typhoon_edu.classroom.teachers import teachers

    db = f"sqlite:///{tmp_path}/rooms.db"
    RoomStore(db).close()
    code, out, _ = run(["teacher", "add", "Ms " + "L" * 200, "--db", db, "--lang", lang])
    assert code == 2 and out == "" and words in capsys.readouterr().err
    assert teachers(RoomStore(db)) == []


@pytest.mark.parametrize(("lang", "words"), [("en", "(the disk is full)"), ("zh-TW", "（磁碟已滿）")])
def test_a_csv_write_that_fails_half_way_leaves_the_old_table_and_no_half_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str,
        words: str) -> None:
    import errno

    from typhoon_edu.ai.tournament import TournamentResult

    def half_then_full(self: TournamentResult, path: str) -> None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("seed,seat,reg")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(TournamentResult, "write_csv", half_then_full)
    table = tmp_path / "games.csv"
    table.write_text("last week's table\n")
    code, _, _ = run(["simulate", "2", "--seed", "3", "--csv", str(table), "--lang", lang])
    assert code == 2 and words in capsys.readouterr().err
    assert table.read_text() == "last week's table\n"
    assert [p.name for p in tmp_path.iterdir()] == ["games.csv"]


@pytest.mark.parametrize(("lang", "words"), [("en", "is not a Jupyter notebook (.ipynb), or it is damaged"),
                                             ("zh-TW", "不是 Jupyter 筆記本（.ipynb），或已經損壞")])
@pytest.mark.parametrize("content", ["{nope", "[1, 2]", '{"cells": "none"}', ""])
def test_serve_with_a_damaged_notebook_says_so_before_it_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str], content: str,
                                                                lang: str, words: str) -> None:
    from typhoon_edu.server import serve as serve_module

    class NoServer(serve_module.VoilaProcess):  # the code before served it, and its page failed
        def start(self) -> NoServer:
            raise RuntimeError("the server was started")

    monkeypatch.setattr(serve_module, "VoilaProcess", NoServer)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    notebook = tmp_path / "class.ipynb"
    notebook.write_text(content)
    code, _, _ = run(["serve", "--no-browser", "--notebook", str(notebook), "--db", str(tmp_path / "rooms.db"),
                      "--lang", lang])
    err = capsys.readouterr().err
    assert code == 2 and str(notebook) in err and words in err, err
    assert [p.name for p in tmp_path.iterdir()] == ["class.ipynb"]  # no store, no key


def test_simulate_can_still_write_its_table_to_a_stream(capsys: pytest.CaptureFixture[str]) -> None:
    """A device or a pipe (/dev/null, /dev/stdout) is written as it is: nothing to replace atomically."""
    code, out, _ = run(["simulate", "2", "--seed", "3", "--csv", "/dev/null"])
    assert code == 0 and "/dev/null" in out, capsys.readouterr().err
