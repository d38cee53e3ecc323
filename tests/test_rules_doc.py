"""docs/rules.md and docs/rules.zh-TW.md state the edition's numbers as the data and the engine have them."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from typhoon_edu import Game, load_rules
from typhoon_edu.engine.rules import DECK_SIZE, FOOTPRINT_SHAPES, MAX_TYPHOONS, MIN_TYPHOONS, GameInputError
from typhoon_edu.engine.scenario import scenario

DOCS = Path(__file__).resolve().parent.parent / "docs"
EN = DOCS / "rules.md"
ZH = DOCS / "rules.zh-TW.md"
LANGS = {"en": EN, "zh": ZH}

SIMPLIFIED = ("台风", "风", "这", "们", "么", "气", "级", "东", "门", "问", "应", "开", "关", "发", "点", "图",
              "时", "动", "块", "过", "台灣")
PRIVATE = ("RULES.md", "MAP.md", "FACTS.md", "DESIGN.md", "shared/")

# the rows of §1's "numbers at a glance" table: key -> (English label, Chinese label)
GLANCE = {
    "players": ("players", "玩家人數"),
    "map": ("map size (columns × rows)", "地圖大小（欄 × 列）"),
    "zones": ("generation zones", "颱風生成區"),
    "zone_cells": ("cells in each generation zone", "每個生成區的格數"),
    "ring": ("stops on the compass ring", "方位羅盤的方位格"),
    "levels": ("intensity levels", "強度等級"),
    "deck": ("function cards in the deck", "牌堆裡的功能卡"),
    "kinds": ("kinds of function card", "功能卡種類"),
    "rounds": ("rounds in a standard game", "標準規則的輪數"),
    "rounds_advanced": ("rounds in the advanced variant", "進階規則的輪數"),
    "draw_active": ("cards the active player draws", "行動玩家抽的牌"),
    "draw_other": ("cards each other living player draws", "其他每位還在遊戲中的玩家抽的牌"),
    "cards_per_turn": ("function cards a player may play per turn", "每位玩家每回合最多打出的功能卡"),
    "max_typhoons": ("most typhoons on the map", "地圖上最多的颱風數"),
    "refill": ("typhoons the refill tops up to", "補足階段把颱風補到幾個"),
}


def text(lang: str) -> str:
    return LANGS[lang].read_text(encoding="utf-8")


def rows(doc: str) -> list[list[str]]:
    """The cells of every Markdown table row of ``doc``."""
    return [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in doc.splitlines() if line.startswith("|") and not line.startswith("|---")]


def row_for(doc: str, first: str) -> list[str]:
    found = [r for r in rows(doc) if r[0] == first]
    assert len(found) == 1, f"expected one table row starting with {first!r}, found {len(found)}"
    return found[0]


def glance(lang: str) -> dict[str, str]:
    i = 0 if lang == "en" else 1
    return {key: row_for(section(text(lang), 1), labels[i])[1] for key, labels in GLANCE.items()}


def section(doc: str, n: int) -> str:
    m = re.search(rf"^## §{n} .*?(?=^## |\Z)", doc, re.M | re.S)
    assert m, f"no section §{n}"
    return m.group(0)


def play_out(variant: str) -> Game:
    """A game played to its end by passing whenever possible (so it runs its full rounds)."""
    for seed in range(50):
        g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=seed, variant=variant)
        rng = random.Random(seed)
        while not g.is_over:
            acts = g.legal_actions()
            passes = [a for a in acts if a.kind == "pass"]
            g.apply(passes[0] if passes else rng.choice(acts))
        if g.over_reason == "rounds":
            return g
    raise AssertionError("no game reached the round limit")


# (a) the two files exist and number their sections alike
def test_both_files_have_the_same_sections():
    assert EN.is_file() and ZH.is_file()
    heads = {lang: re.findall(r"^## §(\d+) ", text(lang), re.M) for lang in LANGS}
    assert heads["en"] == heads["zh"], heads
    assert heads["en"] == [str(n) for n in range(1, len(heads["en"]) + 1)], "sections are §1 … §N in order"
    assert len(heads["en"]) >= 12


# (b) the numbers, read from the docs, against the data and the engine
@pytest.mark.parametrize("lang", LANGS)
def test_region_table(lang):
    rules = load_rules()
    doc = section(text(lang), 1)
    for key, region in rules.regions.items():
        row = row_for(doc, region.name if lang == "en" else region.name_zh)
        assert (key if lang == "zh" else region.name_zh) in row, row
        size, hp = int(row[-2]), int(row[-1])
        assert size == region.size == len(region.cells), (key, size)
        assert hp == region.hp, f"{LANGS[lang].name}: {key} HP {hp}, data {region.hp}"


@pytest.mark.parametrize("lang", LANGS)
def test_hand_limit_and_deal_are_the_size(lang):
    """The table's 'cells = hand = hand limit' column: the engine deals and limits hands by size."""
    rules = load_rules()
    players = ["Taiwan", "Japan", "Korea", "Philippines", "South China"]
    g = Game.new(players, seed=1)
    for p in players:
        size = int(row_for(section(text(lang), 1), rules.regions[p].name if lang == "en" else rules.regions[p].name_zh)[-2])
        assert len(g.hand(p)) == size
    assert list(g._hand_limit) == [rules.regions[p].size for p in players]


@pytest.mark.parametrize("lang", LANGS)
def test_level_table(lang):
    rules = load_rules()
    doc = text(lang)
    for lv in rules.levels:
        row = row_for(section(doc, 2), str(lv.level))
        assert lv.name_en in row and lv.name_zh in row, row
        assert int(row[3]) == lv.damage, (lv.level, row)
        assert int(row[-1]) == len(FOOTPRINT_SHAPES[lv.footprint]), (lv.level, row)
    damages = "、".join(str(lv.damage) for lv in rules.levels) if lang == "zh" else \
        ", ".join(str(lv.damage) for lv in rules.levels[:-1]) + f" or {rules.levels[-1].damage}"
    assert damages in section(doc, 8)


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_at_a_glance(lang):
    rules = load_rules()
    got = glance(lang)
    zones = rules.map.zones
    assert got["map"] == f"{rules.map.width} × {rules.map.height}"
    assert int(got["zones"]) == len(zones)
    assert {int(got["zone_cells"])} == {len(z.cells) for z in zones}
    assert int(got["ring"]) == len(rules.ring)
    assert int(got["levels"]) == len(rules.levels)
    assert int(got["deck"]) == DECK_SIZE == sum(c.count for c in rules.cards.values())
    assert int(got["kinds"]) == len(rules.cards)
    assert int(got["max_typhoons"]) == MAX_TYPHOONS
    assert int(got["refill"]) == MIN_TYPHOONS
    low, high = (int(n) for n in got["players"].split("–"))
    for n in (low, high):
        Game.new(list(rules.regions)[:n], seed=0)
    for n in (low - 1, high + 1):
        with pytest.raises(GameInputError):
            Game.new(list(rules.regions)[:n], seed=0)
    # the map drawing is map.toml's rows
    drawing = re.findall(r"^ y=\s*\d+ +(\S+)$", text(lang), re.M)
    assert tuple(drawing) == rules.map.rows


@pytest.mark.parametrize("lang", LANGS)
def test_rounds(lang):
    got = glance(lang)
    standard, advanced = play_out("standard"), play_out("advanced")
    assert standard.round == int(got["rounds"])
    assert advanced.round == int(got["rounds_advanced"])


@pytest.mark.parametrize("lang", LANGS)
def test_draws_and_cards_per_turn(lang):
    got = glance(lang)
    rules = load_rules()
    players = ["Taiwan", "Japan", "Korea"]
    g = Game.new(players, seed=2, variant="advanced")  # set up by the die: the first turn has drawn
    assert g.phase == "attack" and g.current_player == "Taiwan"
    assert len(g.hand("Taiwan")) == rules.regions["Taiwan"].size + int(got["draw_active"])
    for p in players[1:]:
        assert len(g.hand(p)) == rules.regions[p].size + int(got["draw_other"])
    # a player may play this many function cards in a turn, and no more
    limit = int(got["cards_per_turn"])
    hand = ["warm_ocean", "steering_flow", "tailwind"][: limit + 1]
    g = scenario(players, typhoons=[((12, 8), 1, "W")], hands={"Taiwan": hand})
    for _ in range(limit):
        assert g.current_player == "Taiwan"
        g.apply(next(a for a in g.legal_actions() if a.kind == "play"))
        while g.phase == "roll_direction":
            g.apply(1)
    assert g.current_player != "Taiwan" or not [a for a in g.legal_actions() if a.kind == "play"]


@pytest.mark.parametrize("lang", LANGS)
def test_ring_and_abilities(lang):
    rules = load_rules()
    doc = text(lang)
    names = [rules.points[k].name_zh for k in rules.ring]
    ring = "、".join(names) if lang == "zh" else ", ".join(rules.ring)
    assert ring in section(doc, 3)
    for key, region in rules.regions.items():
        ability = region.ability
        row = row_for(section(doc, 11), region.name if lang == "en" else region.name_zh)
        assert ability.name_en in row and ability.name_zh in row, row
        numbers = [abs(v) for k, v in ability.effect.params.items() if k in ("delta", "cells")]
        said = [int(n) for n in re.findall(r"\d+", row[-1])]
        assert said == numbers, (key, said, numbers)


@pytest.mark.parametrize("lang", LANGS)
def test_worked_example_is_what_the_engine_does(lang):
    rules = load_rules()
    g = scenario(["Taiwan", "Japan", "Korea"], typhoons=[((8, 6), 3, "W")], phase="move")
    events = g.apply(2)
    while g.phase == "counter":
        events += g.apply("pass")
    damage = [e for e in events if e.kind == "DamageDealt"]
    assert len(damage) == 1 and damage[0].player == "Taiwan"
    loss, left = damage[0].amount, g.hp["Taiwan"]
    assert left == rules.regions["Taiwan"].hp - loss
    example = section(text(lang), 13)
    if lang == "en":
        assert f"Taiwan loses {loss} HP and has {left} left" in example
        assert f"4 hits × {rules.level(3).damage} HP + 1 = {loss}" in example
    else:
        assert f"臺灣失去 {loss} 點生命值，剩下 {left} 點" in example
        assert f"4 格次 × {rules.level(3).damage} 點 + 1 = {loss}" in example


# (c) Traditional Chinese only
def test_zh_has_no_simplified_characters():
    doc = text("zh")
    found = [c for c in SIMPLIFIED if c in doc]
    assert not found, f"Simplified characters (or 台灣) in rules.zh-TW.md: {found}"


# (d) nothing points at the project's private working files
@pytest.mark.parametrize("lang", LANGS)
def test_no_private_files_named(lang):
    doc = text(lang)
    found = [p for p in PRIVATE if p in doc]
    assert not found, f"{LANGS[lang].name} names {found}"


@pytest.mark.parametrize("lang", LANGS)
def test_balance_targets(lang):
    from typhoon_edu.ai.balance import CONFIRM_GAMES, REGION_TOLERANCE, SEAT_TOLERANCE
    from typhoon_edu.engine.rules import HP_MAX, HP_MIN

    doc = section(text(lang), 12)
    assert re.search(rf"{HP_MIN} (?:to|到) {HP_MAX}", doc), "the HP range of the search"
    points = "points" if lang == "en" else "個百分點"
    assert f"{CONFIRM_GAMES[4]:,}" in doc and f"{CONFIRM_GAMES[3]:,}" in doc and CONFIRM_GAMES[3] == CONFIRM_GAMES[5]
    assert ("25 %" if lang == "en" else "25%") in doc and round(100 / 4) == 25  # zh-TW writes the sign by the number
    assert f"{round(REGION_TOLERANCE[4] * 100)} {points}" in doc
    assert REGION_TOLERANCE[3] == REGION_TOLERANCE[5]
    assert f"{round(REGION_TOLERANCE[3] * 100)} {points}" in doc
    assert f"{round(SEAT_TOLERANCE * 100)} {points}" in doc
