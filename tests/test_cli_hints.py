"""typhoon-edu play --hints: the coach's hint at a person's decisions, and the review after the game."""

from __future__ import annotations

import io
import re

from typhoon_edu.cli import build_parser, main


def run(argv, answers=()):
    out = io.StringIO()
    it = iter(answers)

    def ask(prompt: str) -> str:
        out.write(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return main(argv, out=out, ask=ask), out.getvalue()


GAME = ["play", "--bots", "human,greedy,greedy", "--players", "Taiwan,Japan,Korea", "--seed", "2"]


def test_hints_appear_only_when_asked_for_in_both_languages():
    code, plain = run(GAME, answers=["1", "q"])
    assert code == 0 and "Hint:" not in plain
    code, text = run([*GAME, "--hints"], answers=["1", "q"])
    assert code == 0
    hints = re.findall(r"Hint: choice (\d+)\. (.+)", text)
    assert len(hints) == 2 and all(h[1].endswith(".") for h in hints)
    code, zh = run([*GAME, "--hints", "--lang", "zh-TW"], answers=["1", "q"])
    assert code == 0 and zh.count("提示：選") == 2


def test_following_every_hint_plays_the_coachs_moves_and_ends_with_a_review():
    answers: list[str] = []
    out = io.StringIO()

    def ask(prompt: str) -> str:
        text = out.getvalue()
        last = text.rfind("Hint: choice ")
        answers.append(text[last:].split()[2].rstrip(".") if last >= 0 else "1")
        out.truncate(0)
        out.seek(0)
        return answers[-1]

    code = main([*GAME, "--hints"], out=out, ask=ask)
    assert code == 0 and len(answers) > 10
    tail = out.getvalue()
    assert "The coach is looking back over the game" in tail and "Taiwan — what you could try:" in tail


def test_the_hints_option_is_in_the_help_in_both_languages():
    assert "--hints" in _play_help("en") and "coach's hint" in _play_help("en")
    assert "--hints" in _play_help("zh-TW") and "教練的提示" in _play_help("zh-TW")


def _play_help(lang: str) -> str:
    parser = build_parser(lang)
    sub = next(a for a in parser._actions if a.dest == "command")
    return sub.choices["play"].format_help()  # type: ignore[union-attr]
