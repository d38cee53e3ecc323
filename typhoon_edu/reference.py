"""The card and ability reference (docs/cards.md), written from the edition's data files.

``python -m typhoon_edu.reference > docs/cards.md`` rewrites it; a test checks it is current.

>>> text = cards_markdown()
>>> "Warm Ocean" in text and "暖洋加溫" in text
True
>>> f"| Taiwan / 臺灣 | 3 | {load_rules().regions['Taiwan'].hp} |" in text
True
>>> "| `shield_halve` |" in text  # every effect kind is listed, used or not
True
"""

from __future__ import annotations

import sys

from .engine.rules import EFFECT_KINDS, Rules, load_rules

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

KIND_ZH = {
    "level": "改變一個颱風的強度等級",
    "add_depression": "在颱風生成區放一個熱帶低壓",
    "remove": "移除一個較弱的颱風",
    "steer": "讓一個颱風換一個新方向",
    "hold": "讓一個颱風這回合留在原地（在海上會增強）",
    "roll": "改變一個颱風這回合擲出的點數",
    "heal": "回復你地區的生命值（不超過上限）",
    "push": "馬上把一個颱風吹往別處（不造成傷害）",
    "level_all": "改變每一個颱風的強度等級",
    "cancel_damage": "反制：取消這次移動對你地區的傷害",
    "halve_damage": "反制：這次移動對你地區的傷害減半",
    "turn_away": "反制：讓颱風離開",
    "weaken": "反制：颱風從這一步起減弱",
    "shield_weaken": "這回合的保護：颱風到達你的地區就減弱",
    "shield_halve": "這回合的保護：你受到的傷害減半",
    "shield_cancel_first": "這回合的保護：第一個到達你地區的颱風不造成傷害",
}

# The targets of rules.EFFECT_KINDS, as cards.toml's header explains them.
TARGET_EN = {
    "typhoon": "one typhoon on the map",
    "zone_cell": "an empty generation-zone cell",
    "none": "no choice to make (your own region, or the storm that reached you)",
}
TARGET_ZH = {
    "typhoon": "地圖上的一個颱風",
    "zone_cell": "生成區裡的一個空格",
    "none": "不必選（自己的地區，或到達的那個颱風）",
}
TIMING_EN = {"attack": "attack", "counter": "counter"}
TIMING_ZH = {"attack": "攻擊", "counter": "反制"}


def _params(effect_params: object) -> str:
    items = dict(effect_params)  # type: ignore[call-overload]
    return ", ".join(f"{k} = {v}" for k, v in items.items()) or "–"


def effect_kinds_markdown(rules: Rules | None = None) -> list[str]:
    """The section "Effect kinds": every kind of ``rules.EFFECT_KINDS``, used in this edition or not.

    Each parameter's allowed values are ``Param.allowed`` in English and in Chinese, for this edition.

    >>> lines = effect_kinds_markdown()
    >>> lines[0], next(line for line in lines if line.startswith("| `heal`")).split(" | ")[2]
    ('## Effect kinds / 效果種類', '`amount`: a whole number from 1 to 60 / 1 到 60 的整數')
    """
    rules = rules or load_rules()
    used: dict[str, list[str]] = {kind: [] for kind in EFFECT_KINDS}
    for c in rules.cards.values():
        used[c.effect.kind].append(f"`{c.key}`")
        if c.restricted is not None and c.restricted.effect.kind != c.effect.kind:
            used[c.restricted.effect.kind].append(f"`{c.key}` (restricted 限定)")
    abilities: dict[str, list[str]] = {kind: [] for kind in EFFECT_KINDS}
    for r in rules.regions.values():
        abilities[r.ability.effect.kind].append(f"`{r.ability.key}`")
    out = [
        "## Effect kinds / 效果種類", "",
        "Every effect kind the engine knows (`EFFECT_KINDS` in `typhoon_edu/engine/rules.py`), whether this "
        "edition uses it or not. A card or ability names one in its `effect` table, with each of the kind's "
        "parameters and no other, e.g. `effect = { kind = \"roll\", delta = 2, min = 1 }`; a missing, unknown "
        "or out-of-range parameter is refused when the edition is loaded. A card's `timing` and `target` must "
        "be its effect's, and a restricted effect keeps them. Region abilities are played in the attack phase, "
        "so they may have any attack kind but no counter kind.",
        "",
        "引擎認得的每一種效果（`typhoon_edu/engine/rules.py` 的 `EFFECT_KINDS`），不論本版有沒有用到。卡牌或"
        "地區能力在 `effect` 表格裡寫出效果種類和它的每一個參數（不能多也不能少），例如 "
        "`effect = { kind = \"roll\", delta = 2, min = 1 }`；少了參數、參數名稱寫錯或數值超出範圍，載入時就會"
        "被拒絕。卡牌的 `timing`（時機）和 `target`（目標）必須和效果的相同，限定效能也一樣。地區能力在攻擊"
        "階段使用，所以可以用任何攻擊效果，但不能用反制效果。",
        "",
        "Targets / 目標:",
        "",
    ]
    for target in dict.fromkeys(spec.target for spec in EFFECT_KINDS.values()):
        out.append(f"- `{target}`: {TARGET_EN[target]} / {TARGET_ZH[target]}")
    out += [
        "",
        "| kind 種類 | what it does 作用 | parameters 參數 | target 目標 | timing 時機 | may be used by 可用於 "
        "| in this edition 本版用於 |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind, spec in EFFECT_KINDS.items():
        params = "<br>".join(f"`{name}`: {p.allowed('en', rules)} / {p.allowed('zh-TW', rules)}"
                             for name, p in spec.params.items()) or "– 無"
        if not spec.cards:
            users = "region abilities only 僅限地區能力"
        elif spec.timing == "attack":
            users = "cards and region abilities 卡牌和地區能力"
        else:
            users = "counter cards only 僅限反制卡"
        in_use = "<br>".join(
            [*([f"cards 卡牌: {', '.join(used[kind])}"] if used[kind] else []),
             *([f"abilities 能力: {', '.join(abilities[kind])}"] if abilities[kind] else [])]) or "– 未使用"
        out.append(f"| `{kind}` | {KIND_EN[kind]}<br>{KIND_ZH[kind]} | {params} | `{spec.target}` | "
                   f"{TIMING_EN[spec.timing]} {TIMING_ZH[spec.timing]} | {users} | {in_use} |")
    return out


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
        "replaces the earlier. Every effect kind, with its parameters and their allowed values, is listed under "
        "*Effect kinds* below (各種效果與參數範圍見下方「效果種類」).",
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
    out += effect_kinds_markdown(rules)
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(cards_markdown())
