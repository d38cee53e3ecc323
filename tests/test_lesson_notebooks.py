"""The lesson notebooks (01–06, en and zh-TW) share one structure, one heading style and one word per
section; none types a region's HP or size; the teacher's package and the glossary are current."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from typhoon_edu import i18n, load_rules
from typhoon_edu.ui.lessons import answers, bank
from typhoon_edu.ui.lessons import glossaries as glossary

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for lang in ("en", "zh-TW") for p in (ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb"))
SECTIONS = {"en": ["Goals", "Background", "Try it", "Check yourself", "Teacher notes"],
            "zh-TW": ["學習目標", "背景知識", "動手試試看", "自我檢測", "教師備註"]}
QUIZ = {"01": "compass", "02": "pathing", "03": "intensity", "04": "game", "05": "risk", "06": "real", "07": "forecast"}


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def markdown(path: Path) -> str:
    return "\n".join("".join(c["source"]) for c in cells(path) if c["cell_type"] == "markdown")


def test_six_lessons_in_both_languages():
    for lang in ("en", "zh-TW"):
        found = sorted(p.name for p in NOTEBOOKS if p.parent.name == lang)
        assert found == sorted(f"{stem}.ipynb" for stem in glossary.NOTEBOOKS.values())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_one_heading_style_and_the_same_sections(path):
    lang, number = path.parent.name, path.name[:2]
    text = markdown(path)
    h1 = [line for line in text.split("\n") if line.startswith("# ")]
    pattern = rf"# Lesson {number} · \S" if lang == "en" else rf"# 第 {number} 課 · \S"
    assert len(h1) == 1 and re.match(pattern, h1[0]), h1
    h2 = [line[3:].strip() for line in text.split("\n") if line.startswith("## ")]
    assert h2 == SECTIONS[lang], h2


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.parent.name == "zh-TW"], ids=lambda p: p.stem)
def test_one_word_per_section_in_chinese(path):
    text = "\n".join("".join(c["source"]) for c in cells(path))
    assert "自我檢查" not in text and "教師手冊" not in text


def test_the_same_words_in_the_catalogs():
    for key, text in i18n.catalog("zh-TW").items():
        assert "自我檢查" not in text and "教師手冊" not in text, key


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_sources_a_glossary_and_a_quiz_with_six_questions_or_more(path):
    lang, number = path.parent.name, path.name[:2]
    text = markdown(path)
    assert ("*Sources" in text) if lang == "en" else ("*資料來源：*" in text or "**資料來源。**" in text)
    code = "\n".join("".join(c["source"]) for c in cells(path) if c["cell_type"] == "code")
    assert f'glossary("{QUIZ[number]}"' in code
    if number == "05":
        assert "risk_quiz(" in code
        from typhoon_edu.ui.lessons.risk import QUIZ as RISK

        assert len(RISK) >= 6
    elif number == "07":
        # lesson 07 builds its quiz from its own questions (their numbers come from the forecast cases)
        from typhoon_edu.ui.lessons.forecast import questions

        assert "forecast_quiz(" in code and len(questions()) >= 6
    else:
        assert f'quiz("{QUIZ[number]}"' in code and len(bank.bank(QUIZ[number])) >= 6
    assert "Timing" in text or "時間分配" in text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_region_hp_or_size_is_typed_into_a_notebook(path):
    """Another edition (or a re-tuning) changes HP and sizes in regions.toml: a notebook must read them."""
    rules = load_rules()
    text = markdown(path)
    names = [r.name for r in rules.regions.values()] + [r.name_zh for r in rules.regions.values()] + ["Central China", "South China"]
    for name in names:
        for m in re.finditer(re.escape(name), text):
            after = text[m.end(): m.end() + 14]
            assert not re.match(r"\s*\(?\s*\d+\s*(cells?|HP|格|點)", after), f"{name}{after!r} in {path.name}"
    assert not re.search(r"\d+\s*×\s*(its size|地區大小)", text)
    assert not re.search(r"\b\d+\s*HP\b", text), re.search(r"\b\d+\s*HP\b", text)


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.name.startswith("03_")], ids=lambda p: p.parent.name)
def test_lesson_03_states_the_central_mountain_range_as_the_data_has_it(path):
    """The balance search may tune an ability's strength (docs/rules.md §12): the lesson's sentence must follow it."""
    levels = load_rules().regions["Taiwan"].ability.effect.params["delta"]
    text = markdown(path)
    stated = re.findall(r"by (\d) levels for a turn|颱風減弱 (\d) 級", text)
    assert stated, f"{path.name} no longer states the card's strength: update this test"
    assert all(int(a or b) == levels for a, b in stated), (stated, levels)


def test_the_lesson_modules_read_hp_from_the_data():
    # a number typed next to "hp" in a lesson module would go stale when the regions are re-tuned
    for path in (ROOT / "typhoon_edu" / "ui" / "lessons").glob("*.py"):
        for line in path.read_text(encoding="utf-8").split("\n"):
            assert not re.search(r"hp\W*(==|<=|>=|=)\s*\d{2}\b", line, re.IGNORECASE), (path.name, line)


def test_glossary_doc_and_terms_are_current():
    assert (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8") == glossary.glossary_markdown()
    for lesson in glossary.LESSONS:
        en, zh = glossary.terms(lesson, "en"), glossary.terms(lesson, "zh-TW")
        assert len(en) == len(zh) >= 5
        assert [w for w, _, _ in en] == [o for _, _, o in zh]


@pytest.mark.parametrize(("lang", "name"), sorted(answers.GUIDES.items()))
def test_teachers_guides_hold_current_answer_keys_paths_and_curricula(lang, name):
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert answers.with_keys(text, lang) == text, "run python -m typhoon_edu.ui.lessons.answers"
    for needle in ("MS-ESS2-5", "MS-ESS3-2", "nextgenscience.org", "naer.edu.tw", "10–12", "13–15"):
        assert needle in text, needle
    for number in ("01", "02", "03", "04", "05", "06", "07"):
        assert f"### {number} ·" in text
    assert ("two periods" in text) if lang == "en" else ("兩節課" in text)
    for _number, lesson in answers.LESSON_BANKS:
        for _k, _q, answer, _w in answers.rows(lesson, lang):
            assert answer.replace("|", "\\|") in text


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_no_region_hp_or_size_is_typed_into_a_lesson_text(lang):
    rules = load_rules()
    names = [i18n.region_name(rules, k, lang) for k in rules.regions] + ["Central China", "South China"]
    for key, text in i18n.catalog(lang).items():
        if not key.startswith(("lesson.", "risk.", "glossary.")):
            continue
        for name in names:
            for m in re.finditer(re.escape(name), text):
                after = text[m.end(): m.end() + 14]
                assert not re.match(r"\s*\(?\s*\d+\s*(cells?|HP|格|點)", after), f"{key}: {name}{after!r}"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_lesson_04_names_only_buttons_the_app_has(lang):
    """Every **bold** label in lesson 04's "Try it" is a label of the class-play app in that language."""
    path = ROOT / "notebooks" / lang / "04_full_game.ipynb"
    section = markdown(path).split(f"## {SECTIONS[lang][2]}", 1)[1].split("\n## ", 1)[0]
    labels = set(re.findall(r"\*\*(.+?)\*\*", section))
    assert labels, "the Try it section names the app's buttons"
    known = {v for v in i18n.catalog(lang).values()}
    assert labels <= known, f"lesson 04 ({lang}) names labels the app does not have: {sorted(labels - known)}"


#: A line break between two Chinese characters or marks inside a paragraph: a browser shows it as a space
#: ("造成多少損害、 為什麼"), which Chinese text does not have. Lists, quotes, headings and tables start their own lines.
_CJK = r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]"
_BROKEN_CHINESE = re.compile(rf"(?<={_CJK})\n(?![ \t]*(?:[-*+>#|]|\d+\.|\n))[ \t]*(?={_CJK})")


def chinese_breaks(markdown: str) -> list[str]:
    """The places in ``markdown`` (outside fenced code) where a line break splits Chinese text."""
    out = []
    for i, part in enumerate(markdown.split("```")):
        if i % 2 == 0:
            out += [f"{part[max(0, m.start() - 2):m.start()]}⏎{part[m.end():m.end() + 2]}" for m in _BROKEN_CHINESE.finditer(part)]
    return out


ZH_TEXTS = sorted((ROOT / "notebooks" / "zh-TW").glob("*.ipynb")) + sorted((ROOT / "docs").glob("*.zh-TW.md"))


@pytest.mark.parametrize("path", ZH_TEXTS, ids=lambda p: p.name)
def test_no_line_break_splits_chinese_text(path):
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    assert chinese_breaks(text) == [], f"{path.name}: join these lines (a browser shows each break as a space)"


def test_the_chinese_line_break_check_finds_one():
    assert chinese_breaks("新颱風往哪裡走、\n造成多少損害\n\n```\n程式\n碼\n```") == ["走、⏎造成"]
