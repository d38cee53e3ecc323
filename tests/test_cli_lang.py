"""The command's language: ``--lang`` before the command (as well as after it), the help saying the default, and
the texts that name what the option changes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from typhoon_edu.cli import main


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("lang", "words", "default"), [
    ("zh-TW", "在終端機裡玩一局", "預設：跟著系統語系 LANG"),
    ("en", "play a game in the terminal", "default: your locale's")])
def test_lang_before_the_command_gives_the_help_in_that_language_and_says_the_default(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, words: str,
        default: str) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")  # not the language asked for: --lang decides
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    text = help_of(["--lang", lang], capsys)
    assert words in text and default in " ".join(text.split())


@pytest.mark.parametrize(("lang", "words"), [("zh-TW", "還沒有老師"), ("en", "No teachers yet")])
def test_lang_before_the_command_is_the_commands_language(tmp_path: Path, lang: str, words: str) -> None:
    from typhoon_edu.classroom.store import RoomStore

    db = f"sqlite:///{tmp_path}/rooms.db"
    RoomStore(db).close()
    assert run(["--lang", lang, "teacher", "list", "--db", db])[1].startswith(words)


def test_lang_before_play_is_the_games_language() -> None:
    code, text = run(["--lang", "zh-TW", "play", "--bots", "greedy", "--seed", "5"])
    assert code == 0 and "遊戲結束" in text and "Game over" not in text


def test_a_language_we_lack_before_the_command_is_refused_naming_the_ones_there_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--lang", "fr", "--help"])
    assert done.value.code == 2 and "use en or zh-TW" in capsys.readouterr().err


@pytest.mark.parametrize(("lang", "game"), [("en", "game's text"), ("zh-TW", "遊戲文字")])
@pytest.mark.parametrize("command", ["add", "list", "remove", "new-key"])
def test_the_teacher_commands_lang_help_is_about_its_messages_not_a_game(
        capsys: pytest.CaptureFixture[str], lang: str, game: str, command: str) -> None:
    text = help_of(["teacher", command, "--lang", lang], capsys)
    assert "--lang" in text and game not in text


@pytest.mark.parametrize(("lang", "default"), [("en", "(default: zh-TW)"), ("zh-TW", "（預設：zh-TW）")])
def test_the_lessons_help_says_its_default_language(capsys: pytest.CaptureFixture[str], lang: str,
                                                    default: str) -> None:
    assert default in help_of(["lessons", "--lang", lang], capsys)


@pytest.mark.parametrize(("lang", "regions"), [
    ("zh-TW", "臺灣、菲律賓、韓國、中國華中、中國華南、日本"),
    ("en", "Taiwan, Philippines, Korea, Central China, South China, Japan")])
def test_an_unknown_region_names_the_regions_there_are_in_both_languages(
        capsys: pytest.CaptureFixture[str], lang: str, regions: str) -> None:
    code, _ = run(["play", "--bots", "greedy", "--players", "Taiwan,Mars,Korea", "--lang", lang])
    assert code == 2 and regions in capsys.readouterr().err
