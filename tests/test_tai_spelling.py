"""臺 is the project's spelling (as Taiwan's Ministry of Education and school books write 臺灣): no
user-facing zh-TW text may use 台 where 臺 is meant. 颱 (typhoon) is another character and is fine;
so is 台 inside a proper name that is spelt so (香港天文台, the Hong Kong Observatory)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "typhoon_edu" / "data"
#: Words in which 台 is right (official proper names).
ALLOWED = ("天文台",)


def offending(text: str) -> list[str]:
    """Each 台 not inside an allowed word, with a little context.

    >>> offending("颱風到臺灣"), offending("香港天文台"), offending("台灣")
    ([], [], ['台灣'])
    """
    cleaned = text
    for word in ALLOWED:
        cleaned = cleaned.replace(word, "〇" * len(word))
    return [text[max(0, m.start() - 6): m.end() + 6] for m in re.finditer("台", cleaned)]


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def zh_texts() -> dict[str, str]:
    """Every user-facing zh-TW text the project ships: catalogs, the zh fields of the data, notebooks, docs."""
    out: dict[str, str] = {}
    for p in sorted((DATA / "i18n").glob("zh-TW*.toml")):
        with p.open("rb") as fh:
            out[p.name] = "\n".join(_strings(tomllib.load(fh)))
    for name in ("regions.toml", "cards.toml", "levels.toml", "compass.toml", "map.toml"):
        with (DATA / name).open("rb") as fh:
            raw = tomllib.load(fh)
        zh = [s for table in raw.values() for entry in (table if isinstance(table, list) else [table])
              if isinstance(entry, dict) for k, v in entry.items() if k.endswith("_zh") for s in _strings(v)]
        out[name] = "\n".join(zh)
    for p in sorted((ROOT / "notebooks" / "zh-TW").glob("*.ipynb")):
        cells = json.loads(p.read_text(encoding="utf-8"))["cells"]
        out[p.name] = "\n".join("".join(c["source"]) for c in cells)
    for p in sorted((ROOT / "docs").glob("*.md")):
        out[p.name] = p.read_text(encoding="utf-8")
    return out


@pytest.mark.parametrize(("name", "text"), sorted(zh_texts().items()))
def test_no_tai_where_tai_with_the_old_form_is_meant(name, text):
    assert offending(text) == [], f"{name}: write 臺 (臺灣, 臺北 …): {offending(text)[:5]}"


def test_the_check_covers_the_places_that_name_taiwan():
    texts = zh_texts()
    assert "臺灣" in texts["regions.toml"] and "臺灣" in texts["zh-TW.risk.toml"]
    assert "臺灣" in texts["06_real_typhoons.ipynb"] and "臺灣" in texts["teachers.zh-TW.md"]
    assert offending("颱風") == []  # 颱 contains the component but is a different character
