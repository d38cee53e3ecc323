"""``--bots``' error names the player kinds as a list in the command's language: ``random, greedy, mcts`` in English,
``random、greedy、mcts`` in Chinese (full-width 、 between items, as the zh-TW catalogs list things: ``lang.list_sep``).
The per-seat example ``human,greedy,greedy,random`` in the help is the argument as typed and stays ASCII."""

from __future__ import annotations

import io

import pytest

from typhoon_edu.ai.tournament import BOT_KINDS
from typhoon_edu.cli import build_parser, main


def error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv, out=io.StringIO())
    return code, capsys.readouterr().err


@pytest.mark.parametrize("command", [["simulate", "5"], ["play", "--players", "Taiwan,Japan,Korea"]])
def test_the_zh_tw_error_lists_the_kinds_with_the_chinese_list_mark(command: list[str],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, err = error([*command, "--bots", "wizard", "--lang", "zh-TW"], capsys)
    assert code == 2
    assert "請用 random、greedy、mcts 或 human" in err
    assert "random, greedy" not in err and ", " not in err.split("請用")[1]


def test_the_english_error_keeps_the_comma_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = error(["simulate", "5", "--bots", "wizard"], capsys)
    assert code == 2 and "use random, greedy, mcts or human" in err and "、" not in err
    assert BOT_KINDS == ("random", "greedy", "mcts")  # what both sentences above list


def test_the_per_seat_example_stays_the_argument_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    """The help's example is what the person types after --bots: ASCII commas in both languages (a guard: the fix
    above must not reach it)."""
    with pytest.raises(SystemExit):
        build_parser("zh-TW").parse_args(["play", "--help"])
    assert "human,greedy,greedy,random" in "".join(capsys.readouterr().out.split())
