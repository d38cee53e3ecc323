"""The zh-TW prose of the rules data (card, ability, zone, level and compass names and texts: the fields
``rules.PROSE_FIELDS`` lists) follows the same written-Chinese rules as the i18n catalogs: Traditional characters and
Taiwan's typography. The catalogs' own checks (tests/test_i18n.py, tests/test_i18n_zh_tw_style.py) read only the
catalogs, so a card text in Simplified characters passed them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from test_i18n_zh_tw_style import PLACEHOLDER, RULES, _offences

from typhoon_edu.engine.rules import DATA_DIR, PROSE_FIELDS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

#: a few Simplified forms that must not appear (as tests/test_i18n.py checks for the catalogs)
SIMPLIFIED = "风图区级个动东难这过时变经选锋湾减"


def _values(node: Any, path: tuple[str, ...], where: str) -> Iterator[tuple[str, str]]:
    if not path:
        if isinstance(node, str):
            yield where, node
        return
    head, rest = path[0], path[1:]
    if head == "[]":
        for i, item in enumerate(node if isinstance(node, list) else []):
            yield from _values(item, rest, f"{where}[{i}]")
    elif isinstance(node, dict) and head in node:
        yield from _values(node[head], rest, f"{where}.{head}")


def zh_prose() -> dict[str, str]:
    """``{"cards.toml:cards[3].text_zh": text}`` for every zh-TW prose field of the shipped data."""
    out: dict[str, str] = {}
    for name, paths in PROSE_FIELDS.items():
        data = tomllib.loads((DATA_DIR / name).read_text(encoding="utf-8"))
        for path in paths:
            if path[-1].endswith("_zh"):
                for where, text in _values(data, path, name + ":"):
                    out[where] = PLACEHOLDER.sub("X", text)
    return out


def test_every_kind_of_chinese_prose_is_read() -> None:
    texts = zh_prose()
    files = {where.split(":")[0] for where in texts}
    assert files == {n for n, paths in PROSE_FIELDS.items() if any(p[-1].endswith("_zh") for p in paths)}
    assert sum(1 for w in texts if w.startswith("cards.toml:") and w.endswith("text_zh")) >= 13


def test_the_datas_chinese_is_traditional() -> None:
    found = {where: [c for c in SIMPLIFIED if c in text] for where, text in zh_prose().items()}
    assert not {w: cs for w, cs in found.items() if cs}, "Simplified characters in the data's zh-TW prose"


@pytest.mark.parametrize("rule", sorted(RULES))
def test_the_datas_chinese_follows_the_rule(rule: str) -> None:
    pattern, why = RULES[rule]
    found = {where: hits for where, text in zh_prose().items() if (hits := _offences(pattern, text))}
    assert not found, f"{rule} ({why}): {found}"


def test_a_simplified_card_text_would_be_found() -> None:
    text = "台湾冷锋南下, 选一个台风减弱 1 级"
    assert [c for c in SIMPLIFIED if c in text]
    assert _offences(RULES["half-width comma between Chinese words"][0], text)
