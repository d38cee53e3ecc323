"""The card and ability reference (docs/cards.md), written from the edition's data files.

``python -m typhoon_edu.reference > docs/cards.md`` rewrites it; a test checks it is current.

>>> text = cards_markdown()
>>> "Warm Ocean" in text and "暖洋加溫" in text
True
>>> f"| Taiwan / 臺灣 | 3 | {load_rules().regions['Taiwan'].hp} |" in text
True
"""

from __future__ import annotations

import sys

from .engine.rules import Rules, load_rules

KIND_EN = {
    "level": "change one typhoon's level",
    "add_depression": "add a tropical depression in a generation zone",
    "remove": "remove a weak typhoon",
    "steer": "give a typhoon a new direction",
    "hold": "hold a typhoon in place this turn (it grows at sea)",
    "roll": "change a typhoon's roll this turn",
    "heal": "heal your region (never above its maximum)",
    "push": "blow a typhoon along at once (no damage)",
    "level_all": "change every typhoon's level",
    "cancel_damage": "counter: cancel this move's damage to your region",
    "halve_damage": "counter: halve this move's damage to your region",
    "turn_away": "counter: turn the storm away (讓颱風離開)",
    "weaken": "counter: weaken the storm from this step on",
    "shield_weaken": "shield this turn: storms weaken on reaching you",
    "shield_halve": "shield this turn: damage to you is halved",
    "shield_cancel_first": "shield this turn: the first storm to reach you does no damage",
}


def _params(effect_params: object) -> str:
    items = dict(effect_params)  # type: ignore[call-overload]
    return ", ".join(f"{k} = {v}" for k, v in items.items()) or "–"


def cards_markdown(rules: Rules | None = None) -> str:
    """The whole reference as Markdown, both languages side by side."""
    rules = rules or load_rules()
    out = [
        "# Function cards and region abilities / 功能卡與地區能力",
        "",
        "Written from `typhoon_edu/data/cards.toml` and `regions.toml` by `python -m typhoon_edu.reference`;",
        "do not edit by hand. **Everything on this page is this edition's own design** (本版自行設計): the",
        "printed card texts are not in the original rule texts, which only say that cards can strengthen",
        "or weaken storms, add or remove them, and let a player counter a storm that reaches their region",
        "or make it leave. The README's *Rules edition* section lists how the engine plays them.",
        "",
        f"The deck holds **{sum(c.count for c in rules.cards.values())} cards** in {len(rules.cards)} kinds. "
        "Timing: *attack* = the attack phase (打出卡牌攻擊); *counter* = when a moving storm reaches your "
        "region (反制). Each player plays at most 2 function cards per turn, each card name at most once per "
        "turn for the whole table, and when two alike effects (same kind, same typhoon) meet, the later "
        "replaces the earlier.",
        "",
        "| card 卡名 | count 張數 | timing 時機 | what it does (engine effect) |",
        "|---|---|---|---|",
    ]
    for c in rules.cards.values():
        timing = "attack 攻擊" if c.timing == "attack" else "counter 反制"
        out.append(f"| {c.name_en} / {c.name_zh} (`{c.key}`) | {c.count} | {timing} | "
                   f"{KIND_EN[c.effect.kind]} ({_params(c.effect.params)}) |")
    out += ["", "## Card texts / 卡片文字", ""]
    for c in rules.cards.values():
        out.append(f"### {c.name_en} / {c.name_zh}")
        out.append("")
        out.append(f"- EN: {c.text_en}")
        out.append(f"- 中文：{c.text_zh}")
        if c.restricted is not None:
            regions = ", ".join(rules.regions[r].name for r in c.restricted.regions)
            zh_regions = "、".join(rules.regions[r].name_zh for r in c.restricted.regions)
            out.append(f"- Restricted effect (限定效能) for {regions} / {zh_regions}: "
                       f"{KIND_EN[c.restricted.effect.kind]} ({_params(c.restricted.effect.params)})")
            out.append(f"  - EN: {c.restricted.text_en}")
            out.append(f"  - 中文：{c.restricted.text_zh}")
        out.append("")
    out += ["## Regions / 地區", "",
            "Size (cells on the map) = starting hand = hand limit; starting HP = maximum HP. The HP are this "
            "edition's, set so that every region can win (docs/balance.md); the original rule "
            "texts do not give them. 大小＝地圖上的格數＝起始手牌＝手牌上限；起始生命值＝生命值上限。", "",
            "| region 地區 | size 大小 | HP 生命值 |", "|---|---|---|"]
    for r in rules.regions.values():
        out.append(f"| {r.name} / {r.name_zh} | {r.size} | {r.hp} |")
    out += ["", "## Region abilities / 地區能力", "",
            "Each region card (地區卡) can be used once per game, in the attack phase, instead of function "
            "cards. Each ability rests on a real geographic fact.", ""]
    for r in rules.regions.values():
        a = r.ability
        out.append(f"### {r.name} / {r.name_zh}: {a.name_en} / {a.name_zh}")
        out.append("")
        out.append(f"- Effect: {KIND_EN[a.effect.kind]} ({_params(a.effect.params)})")
        out.append(f"- EN: {a.text_en}")
        out.append(f"- 中文：{a.text_zh}")
        out.append(f"- Why / 依據: {a.basis_en} {a.basis_zh}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(cards_markdown())
