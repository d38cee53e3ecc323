"""Typography of the zh-TW catalogs: the mechanical rules of written Traditional Chinese (Taiwan) that a reader
notices at once and that a script can check. Each rule lists every offending key with a little context, so a
failure says what to fix. Half-width marks stay where they belong to something typed or technical (coordinates
``(7, 4)``, ``23.5, 121``, paths such as ``…/join``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from typhoon_edu import i18n

CJK = "\u3400-\u9fff"
#: Placeholders are replaced by names, numbers or cells; the rules read the text around them.
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _offences(pattern: str, text: str) -> list[str]:
    """Each match of ``pattern`` in ``text`` with a few characters either side.

    >>> _offences(r"a", "xxab")
    ['xxab']
    """
    return [text[max(0, m.start() - 6): m.end() + 6] for m in re.finditer(pattern, text)]


#: rule name → (regular expression that must not match a zh-TW text, why)
RULES: dict[str, tuple[str, str]] = {
    "half-width comma between Chinese words": (
        rf"[{CJK}], ?[{CJK}]", "a list or a pause inside Chinese takes ， or 、"),
    "half-width parenthesis after a Chinese word": (
        rf"[{CJK}] ?\((?![\dX])", "（…） around a Chinese word's gloss; only a cell such as (7, 4) or ({x}, {y}) keeps ( )"),
    "space between two Chinese characters": (
        rf"[{CJK}] +[{CJK}]", "Chinese words are not separated by spaces"),
    "single ellipsis after Chinese text": (
        rf"[{CJK}）](?<!…)…(?!…)", "the Chinese ellipsis is …… (two marks)"),
    "space before a percent sign": (
        r"[\d}] +%", "50%, not 50 % (the project's zh-TW numbers write the sign next to the number)"),
    "spaced dash between words": (
        r"[^\d\s] [—–] [^\d\s]", "an English-style spaced dash; Chinese uses ——, a comma or parentheses"),
    "佔 instead of 占": (
        "佔", "占 is the Ministry of Education's standard form (占上風, 占多少); one form throughout"),
    "Japanese middle dot between items": (
        "・", "a list of items takes 、 (the katakana middle dot ・ is Japanese)"),
}


def zh_texts() -> dict[str, str]:
    """Every zh-TW text with its placeholders replaced by a neutral ``X`` (so ``{region}，`` reads as ``X，``)."""
    return {key: PLACEHOLDER.sub("X", text) for key, text in i18n.catalog("zh-TW").items()}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_zh_tw_catalog_follows_the_rule(rule):
    pattern, why = RULES[rule]
    found = {key: hits for key, text in zh_texts().items() if (hits := _offences(pattern, text))}
    assert not found, f"{rule} ({why}): {found}"


@pytest.mark.parametrize(("rule", "bad", "good"), [
    ("half-width comma between Chinese words", "位置（北緯, 東經）", "位置（北緯，東經）"),
    ("half-width parenthesis after a Chinese word", "北北東 (NNE)", "颱風眼在 (11, 8)"),
    ("space between two Chinese characters", "颱風不要來 遊戲面板", "第 3 課"),
    ("single ellipsis after Chinese text", "正在關閉遊戲面板…", "請打開加入頁面（…/join）"),
    ("space before a percent sign", "70 % 機率", "被 50% 的颱風侵襲"),
    ("spaced dash between words", "穩定往西走 — 梵高", "2015–2021 年"),
    ("佔 instead of 占", "通常佔上風", "通常占上風"),
    ("Japanese middle dot between items", "規則 5 分鐘・遊戲 11 分鐘", "規則 5 分鐘、遊戲 11 分鐘"),
])
def test_each_rule_finds_what_it_is_for(rule, bad, good):
    pattern = RULES[rule][0]
    assert _offences(pattern, bad) and not _offences(pattern, good)


def test_every_chinese_text_is_checked():
    texts = zh_texts()
    assert len(texts) > 1000 and "X" in texts["event.CardPlayed"]


#: A game term written another way somewhere → the one word the game, its glossary and the other catalogs use.
#: Each entry: the other word, the word to use, and the keys where the other word is right (real-world classes).
TERMS: list[tuple[str, str, tuple[str, ...]]] = [
    ("血量", "生命值", ()),
    ("颱風警報地圖", "颱風不要來地圖 (the game's name)", ()),
    ("棋盤", "地圖", ()),
    ("方位指示物", "方位羅盤的指針", ()),
    ("損害", "傷害 (damage, as the rulebook says)", ()),
    ("命中", "侵襲 or 掃過 (a storm hits a cell)", ()),
    ("淘汰", "出局 (a region with no HP left)", ("glossary.",)),
    ("撤回", "收回 (undo: the word of every undo message)", ()),
    ("悔棋", "收回 (undo; 悔棋 is chess slang)", ()),
    ("骰出", "擲出 (a die's face: 擲出 3 點, as the lessons say)", ()),
    ("熱帶性低氣壓", "熱帶低壓 (the game's level 1)",
     ("lesson.real.", "lesson.quiz.real.", "lesson.intensity.class_")),
]


@pytest.mark.parametrize(("other", "word", "right_in"), TERMS, ids=[t[0] for t in TERMS])
def test_one_word_for_each_game_term(other, word, right_in):
    found = {key: text for key, text in i18n.catalog("zh-TW").items() if other in text and not key.startswith(right_in)}
    assert not found, f"{other} → {word}: {found}"


def test_the_round_is_one_word():
    """Round is 輪 (第 {round} 輪), turn is 回合: the results' table names its round column as the log does."""
    zh = i18n.catalog("zh-TW")
    assert "輪" in zh["event.RoundStarted"] and zh["classplay.results.facts.rounds"] == "輪"


ROOT = Path(__file__).resolve().parent.parent
#: The rules as they read prose (lessons' markdown, the zh-TW guides): a dash counts only beside Chinese (an English
#: name such as "RSMC Tokyo – Typhoon Center" keeps its own), and a table's empty cell (| — |) is no dash.
PROSE_RULES = {**RULES, "spaced dash between words": (rf"[{CJK}）] [—–] |[—–] [{CJK}（]", RULES["spaced dash between words"][1]),
               "single dash after Chinese text": (rf"[{CJK}）](?<!—)—(?!—)", "the Chinese dash is —— (two marks)")}


def zh_prose() -> dict[str, str]:
    """The zh-TW lessons' markdown cells and the zh-TW documents, tables left out."""
    texts = {}
    for path in sorted((ROOT / "notebooks" / "zh-TW").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        texts[path.name] = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    for path in sorted((ROOT / "docs").glob("*zh-TW*.md")):
        texts[path.name] = path.read_text(encoding="utf-8")
    return {name: "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))
            for name, text in texts.items()}


@pytest.mark.parametrize("rule", sorted(PROSE_RULES))
def test_zh_tw_prose_follows_the_rule(rule):
    pattern, why = PROSE_RULES[rule]
    found = {name: hits for name, text in zh_prose().items() if (hits := _offences(pattern, text))}
    assert not found, f"{rule} ({why}): {found}"


def test_the_prose_rules_find_what_they_are_for():
    prose = zh_prose()
    assert len(prose) >= 7 + 3 and all(prose.values())
    dash, single = PROSE_RULES["spaced dash between words"][0], PROSE_RULES["single dash after Chinese text"][0]
    assert _offences(dash, "穩定往西走 — 梵高") and not _offences(dash, "RSMC Tokyo – Typhoon Center")
    assert _offences(single, "颱風不要來（Typhoon Alert）— 適合") and not _offences(single, "颱風不要來（Typhoon Alert）——適合")
