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
    assert len(found) == 1, (f"expected one table row starting with {first!r} (a name the data gives), "
                             f"found {len(found)}: add or rename the row in docs/rules.md and docs/rules.zh-TW.md")
    return found[0]


def glance(lang: str) -> dict[str, str]:
    i = 0 if lang == "en" else 1
    return {key: row_for(section(text(lang), 1), labels[i])[1] for key, labels in GLANCE.items()}


def section(doc: str, n: int) -> str:
    m = re.search(rf"^## §{n} .*?(?=^## |\Z)", doc, re.M | re.S)
    assert m, f"no section '## §{n} …' in the document (docs/rules.md and docs/rules.zh-TW.md number them alike)"
    return m.group(0)


def doc_name(lang: str) -> str:
    return f"docs/{LANGS[lang].name}"


def line_of(lang: str, needle: str) -> str:
    """``docs/rules.md:47``: where ``needle`` first stands in the document (or just the document)."""
    for n, line in enumerate(text(lang).splitlines(), start=1):
        if needle in line:
            return f"{doc_name(lang)}:{n}"
    return doc_name(lang)


def glance_at(lang: str, key: str) -> str:
    label = GLANCE[key][0 if lang == "en" else 1]
    return f"{line_of(lang, f'| {label} |')} (§1 table, row {label!r})"


def row_at(lang: str, row: list[str], what: str) -> str:
    return f"{line_of(lang, '| ' + ' | '.join(row[:2]))} ({what}, row {row[0]!r})"


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
    assert EN.is_file() and ZH.is_file(), f"docs/rules.md and docs/rules.zh-TW.md must both exist in {DOCS}"
    heads = {lang: re.findall(r"^## §(\d+) ", text(lang), re.M) for lang in LANGS}
    assert heads["en"] == heads["zh"], (f"docs/rules.md has the sections §{', §'.join(heads['en'])}; "
                                        f"docs/rules.zh-TW.md has §{', §'.join(heads['zh'])}: they must be the same")
    assert heads["en"] == [str(n) for n in range(1, len(heads["en"]) + 1)], \
        f"docs/rules.md numbers its sections §{', §'.join(heads['en'])}; they must be §1 … §N in order"
    assert len(heads["en"]) >= 12, f"docs/rules.md has {len(heads['en'])} sections (## §N); §1 to §12 at least"


# (b) the numbers, read from the docs, against the data and the engine
@pytest.mark.parametrize("lang", LANGS)
def test_region_table(lang):
    rules = load_rules()
    doc = section(text(lang), 1)
    for key, region in rules.regions.items():
        row = row_for(doc, region.name if lang == "en" else region.name_zh)
        at = row_at(lang, row, "§1 region table")
        other = key if lang == "zh" else region.name_zh
        assert other in row, f"{at} does not name {other!r} (regions.toml); the row is {row}"
        size, hp = int(row[-2]), int(row[-1])
        assert size == region.size == len(region.cells), \
            f"{at} gives size {size}; regions.toml and map.toml give {key} {len(region.cells)} cells"
        assert hp == region.hp, f"{at} gives {key} HP {hp}; regions.toml gives {region.hp}"


@pytest.mark.parametrize("lang", LANGS)
def test_hand_limit_and_deal_are_the_size(lang):
    """The table's 'cells = hand = hand limit' column: the engine deals and limits hands by size."""
    rules = load_rules()
    players = ["Taiwan", "Japan", "Korea", "Philippines", "South China"]
    g = Game.new(players, seed=1)
    for p in players:
        row = row_for(section(text(lang), 1), rules.regions[p].name if lang == "en" else rules.regions[p].name_zh)
        size = int(row[-2])
        assert len(g.hand(p)) == size, (f"{row_at(lang, row, '§1 region table')} gives {p} size {size} (= the hand "
                                        f"dealt); the engine dealt {len(g.hand(p))} cards")
    limits = [rules.regions[p].size for p in players]
    assert list(g._hand_limit) == limits, \
        f"the engine's hand limits {list(g._hand_limit)} are not the regions' sizes {limits} ({doc_name(lang)} §1)"


@pytest.mark.parametrize("lang", LANGS)
def test_level_table(lang):
    rules = load_rules()
    doc = text(lang)
    for lv in rules.levels:
        row = row_for(section(doc, 2), str(lv.level))
        at = row_at(lang, row, "§2 level table")
        assert lv.name_en in row and lv.name_zh in row, \
            f"{at} does not name {lv.name_en!r} and {lv.name_zh!r} (levels.toml); the row is {row}"
        assert int(row[3]) == lv.damage, f"{at} gives damage {row[3]}; levels.toml gives {lv.damage}"
        cells = len(FOOTPRINT_SHAPES[lv.footprint])
        assert int(row[-1]) == cells, f"{at} gives {row[-1]} cells; the footprint {lv.footprint!r} covers {cells}"
    damages = "、".join(str(lv.damage) for lv in rules.levels) if lang == "zh" else \
        ", ".join(str(lv.damage) for lv in rules.levels[:-1]) + f" or {rules.levels[-1].damage}"
    assert damages in section(doc, 8), \
        f"{doc_name(lang)} §8 (damage per hit) should list the damages {damages!r} as levels.toml gives them"


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_at_a_glance(lang):
    rules = load_rules()
    got = glance(lang)
    zones = rules.map.zones
    def says(key: str, found: object, expected: object, source: str) -> None:
        assert found == expected, f"{glance_at(lang, key)} says {found}; {source} gives {expected}: update the table"

    says("map", got["map"], f"{rules.map.width} × {rules.map.height}", "map.toml")
    says("zones", int(got["zones"]), len(zones), "map.toml (its generation zones)")
    cells = sorted({len(z.cells) for z in zones})
    says("zone_cells", [int(got["zone_cells"])], cells, "map.toml (cells of each zone)")
    says("ring", int(got["ring"]), len(rules.ring), "compass.toml (its ring)")
    says("levels", int(got["levels"]), len(rules.levels), "levels.toml")
    total = sum(c.count for c in rules.cards.values())
    says("deck", int(got["deck"]), total, "cards.toml (the counts added up)")
    assert total == DECK_SIZE, f"cards.toml's counts add up to {total}; the deck holds {DECK_SIZE} (rules.DECK_SIZE)"
    says("kinds", int(got["kinds"]), len(rules.cards), "cards.toml (its [[cards]] entries)")
    says("max_typhoons", int(got["max_typhoons"]), MAX_TYPHOONS, "the engine (rules.MAX_TYPHOONS)")
    says("refill", int(got["refill"]), MIN_TYPHOONS, "the engine (rules.MIN_TYPHOONS)")
    low, high = (int(n) for n in got["players"].split("–"))
    for n in (low, high):
        Game.new(list(rules.regions)[:n], seed=0)
    for n in (low - 1, high + 1):
        with pytest.raises(GameInputError):
            Game.new(list(rules.regions)[:n], seed=0)
            pytest.fail(f"{glance_at(lang, 'players')} says {low}–{high} players; the engine lets {n} play")
    # the map drawing is map.toml's rows
    drawing = re.findall(r"^ y=\s*\d+ +(\S+)$", text(lang), re.M)
    assert tuple(drawing) == rules.map.rows, (
        f"{line_of(lang, ' y= 0 ')} (§1 map drawing) differs from map.toml's rows: "
        f"found {drawing}, map.toml has {list(rules.map.rows)}")


@pytest.mark.parametrize("lang", LANGS)
def test_rounds(lang):
    got = glance(lang)
    standard, advanced = play_out("standard"), play_out("advanced")
    assert standard.round == int(got["rounds"]), \
        f"{glance_at(lang, 'rounds')} says {got['rounds']}; the engine played {standard.round} rounds"
    assert advanced.round == int(got["rounds_advanced"]), \
        f"{glance_at(lang, 'rounds_advanced')} says {got['rounds_advanced']}; the engine played {advanced.round} rounds"


@pytest.mark.parametrize("lang", LANGS)
def test_draws_and_cards_per_turn(lang):
    got = glance(lang)
    rules = load_rules()
    players = ["Taiwan", "Japan", "Korea"]
    g = Game.new(players, seed=2, variant="advanced")  # set up by the die: the first turn has drawn
    assert g.phase == "attack" and g.current_player == "Taiwan", \
        f"the advanced game should begin in Taiwan's attack phase; it is {g.current_player}'s {g.phase}"
    drawn = len(g.hand("Taiwan")) - rules.regions["Taiwan"].size
    assert drawn == int(got["draw_active"]), \
        f"{glance_at(lang, 'draw_active')} says {got['draw_active']}; the engine drew {drawn} for the active player"
    for p in players[1:]:
        drawn = len(g.hand(p)) - rules.regions[p].size
        assert drawn == int(got["draw_other"]), \
            f"{glance_at(lang, 'draw_other')} says {got['draw_other']}; the engine drew {drawn} for {p}"
    # a player may play this many function cards in a turn, and no more
    limit = int(got["cards_per_turn"])
    hand = ["warm_ocean", "steering_flow", "tailwind"][: limit + 1]
    g = scenario(players, typhoons=[((12, 8), 1, "W")], hands={"Taiwan": hand})
    for n in range(limit):
        assert g.current_player == "Taiwan", (f"{glance_at(lang, 'cards_per_turn')} says {limit}; the engine moved on "
                                              f"to {g.current_player} after Taiwan played {n}")
        g.apply(next(a for a in g.legal_actions() if a.kind == "play"))
        while g.phase == "roll_direction":
            g.apply(1)
    assert g.current_player != "Taiwan" or not [a for a in g.legal_actions() if a.kind == "play"], \
        f"{glance_at(lang, 'cards_per_turn')} says {limit}; the engine lets Taiwan play one more"


@pytest.mark.parametrize("lang", LANGS)
def test_ring_and_abilities(lang):
    rules = load_rules()
    doc = text(lang)
    names = [rules.points[k].name_zh for k in rules.ring]
    ring = "、".join(names) if lang == "zh" else ", ".join(rules.ring)
    assert ring in section(doc, 3), f"{doc_name(lang)} §3 should list the ring {ring!r} as compass.toml gives it"
    for key, region in rules.regions.items():
        ability = region.ability
        row = row_for(section(doc, 11), region.name if lang == "en" else region.name_zh)
        at = row_at(lang, row, "§11 ability table")
        assert ability.name_en in row and ability.name_zh in row, \
            f"{at} does not name {ability.name_en!r} and {ability.name_zh!r} (regions.toml); the row is {row}"
        numbers = [abs(v) for k, v in ability.effect.params.items() if k in ("delta", "cells")]
        said = [int(n) for n in re.findall(r"\d+", row[-1])]
        assert said == numbers, f"{at} gives the numbers {said}; regions.toml's {key} ability has {numbers}"


@pytest.mark.parametrize("lang", LANGS)
def test_worked_example_is_what_the_engine_does(lang):
    rules = load_rules()
    g = scenario(["Taiwan", "Japan", "Korea"], typhoons=[((8, 6), 3, "W")], phase="move")
    events = g.apply(2)
    while g.phase == "counter":
        events += g.apply("pass")
    damage = [e for e in events if e.kind == "DamageDealt"]
    assert len(damage) == 1 and damage[0].player == "Taiwan", \
        f"{doc_name(lang)} §13's first example hurts Taiwan once; the engine dealt {damage}"
    loss, left = damage[0].amount, g.hp["Taiwan"]
    assert left == rules.regions["Taiwan"].hp - loss, f"Taiwan has {left} HP; {rules.regions['Taiwan'].hp} - {loss} expected"
    example = section(text(lang), 13)
    if lang == "en":
        wanted = [f"Taiwan loses {loss} HP and has {left} left", f"4 hits × {rules.level(3).damage} HP + 1 = {loss}"]
    else:
        wanted = [f"臺灣失去 {loss} 點生命值，剩下 {left} 點", f"4 格次 × {rules.level(3).damage} 點 + 1 = {loss}"]
    for sentence in wanted:
        assert sentence in example, (f"{doc_name(lang)} §13 should say {sentence!r} (what the engine does with "
                                     "levels.toml and regions.toml)")


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
    at = f"{doc_name(lang)} §12"
    assert re.search(rf"{HP_MIN} (?:to|到) {HP_MAX}", doc), \
        f"{at} should give the HP range of the search, {HP_MIN} to {HP_MAX} (rules.HP_MIN, HP_MAX)"
    points = "points" if lang == "en" else "個百分點"
    for n in (3, 4):
        assert f"{CONFIRM_GAMES[n]:,}" in doc, f"{at} should say {CONFIRM_GAMES[n]:,} games (balance.CONFIRM_GAMES[{n}])"
    assert CONFIRM_GAMES[3] == CONFIRM_GAMES[5], f"{at} gives one number of games for 3 and 5 players; {CONFIRM_GAMES}"
    share = "25 %" if lang == "en" else "25%"  # zh-TW writes the sign by the number
    assert share in doc, f"{at} should say the fair share of 4 players, {share!r}"
    assert REGION_TOLERANCE[3] == REGION_TOLERANCE[5], f"{at} gives one tolerance for 3 and 5 players; {REGION_TOLERANCE}"
    for name, value in (("REGION_TOLERANCE[4]", REGION_TOLERANCE[4]), ("REGION_TOLERANCE[3]", REGION_TOLERANCE[3]),
                        ("SEAT_TOLERANCE", SEAT_TOLERANCE)):
        said = f"{round(value * 100)} {points}"
        assert said in doc, f"{at} should say {said!r} (balance.{name} = {value})"


# (e) the counts the documents state in their prose, not only in the §1 table
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
         "一": 1, "兩": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


def _count(rules, what: str) -> int:
    """A count the rules data (or, for the refill, the engine) determines."""
    return {
        "cards": sum(c.count for c in rules.cards.values()),
        "kinds": len(rules.cards),
        "regions": len(rules.regions),
        "abilities": sum(1 for r in rules.regions.values() if r.ability is not None),
        "zones": len(rules.map.zones),
        "levels": len(rules.levels),
        "ring": len(rules.ring),
        "points": len(rules.points),
        "points off the ring": len(rules.points) - len(rules.ring),
        "refill": MIN_TYPHOONS,
    }[what]


SOURCE = {"cards": "cards.toml (the counts added up)", "kinds": "cards.toml (its [[cards]] entries)",
          "regions": "regions.toml", "abilities": "regions.toml (one ability a region)",
          "zones": "map.toml (its generation zones)", "levels": "levels.toml", "ring": "compass.toml (its ring)",
          "points": "compass.toml (its points)", "points off the ring": "compass.toml (points not on the ring)",
          "refill": "the engine (rules.MIN_TYPHOONS)"}

# (a sentence of the document with the number as the one group, what the number counts); a space
# in the pattern matches any run of white space, so a sentence may wrap
PROSE_COUNTS: dict[str, list[tuple[str, str]]] = {
    "en": [
        (r"(\w+) region cards \(地區卡\)", "regions"),
        (r"(\d+) function cards \(功能卡\)", "cards"),
        (r"Shuffle the (\d+) function cards", "cards"),
        (r"all (\d+) cards are always in the draw pile", "cards"),
        (r"The deck has (\d+) function cards", "cards"),
        (r"function cards in (\d+) kinds", "kinds"),
        (r"the whole deck and the (\w+) region abilities", "abilities"),
        (r"still (\d+) cards, every kind still there", "cards"),
        (r"The (\w+) generation zones \(颱風生成區", "zones"),
        (r"each of the (\w+) generation zones", "zones"),
        (r"shows one of (\w+) levels", "levels"),
        (r"the (\w+) storms replace", "levels"),
        (r"replace the (\w+) tropical depressions of the standard setup", "zones"),
        (r"The ring only uses (\d+) directions", "ring"),
        (r"any of the (\d+) compass points", "points"),
        (r"the other (\w+) follow the same reading", "points off the ring"),
        (r"lists all (\w+)\)", "points"),
        (r"brings the number back up to (\d+)", "refill"),
    ],
    "zh": [
        (r"(\d+) 張地區卡", "regions"),
        (r"、(\d+) 張功能卡", "cards"),
        (r"把 (\d+) 張功能卡洗勻", "cards"),
        (r"所以 (\d+) 張牌永遠都在", "cards"),
        (r"牌堆有 (\d+) 張功能卡", "cards"),
        (r"分成 (\d+) 種", "kinds"),
        (r"整副牌和(\w)個地區能力", "abilities"),
        (r"仍然是 (\d+) 張", "cards"),
        (r"(\w)個颱風生成區（圖板上", "zones"),
        (r"起始玩家在(\w)個颱風生成區", "zones"),
        (r"是(\w)種強度之一", "levels"),
        (r"這(\w)個颱風取代", "levels"),
        (r"準備時的(\w)個熱帶低壓", "zones"),
        (r"羅盤有 (\d+) 個方位格", "ring"),
        (r"羅盤有 (\d+) 格、", "ring"),
        (r"羅盤只用到 (\d+) 個方向", "ring"),
        (r"轉往 (\d+) 個方位中的任何一個", "points"),
        (r"其他(\w)個方位也用同樣的方法讀", "points off the ring"),
        (r"列出全部 (\d+) 個", "points"),
    ],
}


@pytest.mark.parametrize("lang", LANGS)
def test_counts_in_words(lang):
    """'13 kinds', 「分成 13 種」, 'the six region abilities' …: every count the prose states is the data's."""
    rules = load_rules()
    doc = text(lang)
    wrong = []
    for pattern, what in PROSE_COUNTS[lang]:
        m = re.search(pattern.replace(" ", r"\s+"), doc)
        assert m, (f"{doc_name(lang)}: no sentence matches {pattern!r} (it states the number of {what}); if the "
                   "sentence was reworded, update PROSE_COUNTS in tests/test_rules_doc.py")
        said = m.group(1)
        found = int(said) if said.isdigit() else WORDS.get(said.lower())
        expected = _count(rules, what)
        if found != expected:
            line = doc.count("\n", 0, m.start(1)) + 1
            wrong.append(f"{doc_name(lang)}:{line} says {said!r} ({what}) in {m.group(0)!r}; "
                         f"{SOURCE[what]} gives {expected}")
    assert not wrong, "the prose states counts the data does not give; update the text:\n" + "\n".join(wrong)
