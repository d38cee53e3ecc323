"""Lesson 04, a full game: the rules in one minute, with every region's size and HP read from the data.

Another edition (or a re-tuned one) changes ``regions.toml`` and ``levels.toml``; this guide follows,
since no number in it is typed: they come from :func:`~typhoon_edu.engine.rules.load_rules`.

>>> from typhoon_edu.engine.rules import load_rules
>>> html = rules_guide("en")._repr_html_()
>>> all(f"<td>{r.hp}</td>" in html for r in load_rules().regions.values())
True
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ... import i18n
from .common import Rendered, lt

if TYPE_CHECKING:
    from ...engine.rules import Rules


def region_rows(lang: str = "en", rules: Rules | None = None) -> list[tuple[str, int, int]]:
    """``(name, cells on the map, starting HP)`` per region, from the rules data.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> r = load_rules(); region_rows("zh-TW")[0] == ("臺灣", r.regions["Taiwan"].size, r.regions["Taiwan"].hp)
    True
    """
    if rules is None:
        from ...engine.rules import load_rules

        rules = load_rules()
    return [(i18n.region_name(rules, k, lang), reg.size, reg.hp) for k, reg in rules.regions.items()]


def rules_guide(lang: str = "en", rules: Rules | None = None) -> Rendered:
    """The rules in one minute (lesson 04's Background), with the regions' HP and the damage per hit from the data."""
    from ...engine.rules import MIN_TYPHOONS, load_rules

    r = rules or load_rules()
    lang = i18n.normalize_lang(lang)
    damages = [lv.damage for lv in r.levels]
    items = [lt("game.rule_region", lang), lt("game.rule_turn", lang, storms=MIN_TYPHOONS),
             lt("game.rule_damage", lang, low=min(damages), high=max(damages)), lt("game.rule_grow", lang),
             lt("game.rule_end", lang)]
    head = "".join(f"<th>{escape(lt(f'game.col_{c}', lang))}</th>" for c in ("region", "cells", "hp"))
    rows = "".join(f"<tr><td>{escape(name)}</td><td>{size}</td><td>{hp}</td></tr>" for name, size, hp in region_rows(lang, r))
    table = (f"<table class='rules-guide-regions' style='border-collapse:collapse;font-size:1.02em'>"
             f"<style>.rules-guide-regions td, .rules-guide-regions th {{border:1px solid #94a3b8;padding:.2em .6em}}</style>"
             f"<tr>{head}</tr>{rows}</table>")
    levels = ", ".join(f"{lv.level} {i18n.level_name(r, lv.level, lang)}: {lv.damage}" for lv in r.levels)
    return Rendered("<div class='rules-guide' style='font-size:1.05em;max-width:62em'><ul>"
                    + "".join(f"<li>{escape(x)}</li>" for x in items)
                    + f"</ul><p>{escape(lt('game.levels_line', lang, levels=levels))}</p>{table}</div>")


__all__ = ["region_rows", "rules_guide"]
