"""The lessons say what is right (issue 22, items 3–10): every checked sentence is read from the
notebooks, the catalogs and the docs, and its numbers are recomputed from the data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from typhoon_edu import i18n, load_rules
from typhoon_edu.realdata.stats import ring_shares
from typhoon_edu.ui.lessons import bank, game
from typhoon_edu.ui.lessons.compass import REAL_MOTION_SHARES
from typhoon_edu.ui.quiz import format_percent

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for lang in ("en", "zh-TW") for p in (ROOT / "notebooks" / lang).glob("0[1-9]_*.ipynb"))
LESSON_CATALOGS = sorted(p for p in (ROOT / "typhoon_edu" / "data" / "i18n").glob("*.toml")
                         if p.name.split(".", 1)[1].startswith(("lesson", "glossary", "risk")))
LESSON_CODE = sorted((ROOT / "typhoon_edu" / "ui" / "lessons").glob("*.py")) + [
    ROOT / "typhoon_edu" / "ui" / "quiz.py", ROOT / "typhoon_edu" / "realdata" / "stats.py"]
LESSON_DOCS = [ROOT / "docs" / n for n in ("teachers.md", "teachers.zh-TW.md", "glossary.md")]
#: Every other page a reader of the repository opens: the README, the changelog and the rest of docs/.
OTHER_DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md"] + sorted(p for p in (ROOT / "docs").glob("*.md")
                                                                   if p not in LESSON_DOCS)


def sources(path: Path) -> str:
    """A notebook's cell sources (what a reader sees; outputs are regenerated), or a file's text."""
    if path.suffix == ".ipynb":
        return "\n".join("".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"])
    return path.read_text(encoding="utf-8")


def notebook(lang: str, number: str) -> str:
    return sources(next(p for p in NOTEBOOKS if p.parent.name == lang and p.name.startswith(number)))


# --- 9: cite only what a reader of the package can open -----------------------------------------------------

#: Files of the project's working notes, which are not in the repository or the package.
UNSHIPPED = re.compile(r"FACTS\.md|MAP\.md|RULES\.md|RULES §|DESIGN\.md|DESIGN §|\.\./shared|\bshared/")
#: The rest of what the package ships and the repository's own tools (their comments and docstrings)
#: (the tests too, but for the two that name these files to look for them).
SHIPPED_CODE = sorted(p for folder in ("typhoon_edu", "scripts", "benchmarks", "binder", "tests") for p in (ROOT / folder).rglob("*")
                      if p.is_file() and p.suffix in (".py", ".toml", ".md", "") and "__pycache__" not in p.parts
                      and "node_modules" not in p.parts
                      and p not in LESSON_CODE + LESSON_CATALOGS
                      and p.name not in ("test_lesson_content.py", "test_rules_doc.py"))


@pytest.mark.parametrize("path", SHIPPED_CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_code_and_its_messages_cite_only_files_in_the_repository(path):
    found = [m.group(0) for m in UNSHIPPED.finditer(path.read_text(encoding="utf-8"))]
    assert not found, f"{path.relative_to(ROOT)} cites files outside the repository: {found}"


@pytest.mark.parametrize("path", NOTEBOOKS + LESSON_CATALOGS + LESSON_CODE + LESSON_DOCS + OTHER_DOCS,
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_lessons_cite_only_files_in_the_repository(path):
    text = sources(path)
    found = [m.group(0) for m in UNSHIPPED.finditer(text)]
    assert not found, f"{path.relative_to(ROOT)} cites files outside the repository: {found}"
    for cited in re.findall(r"`((?:docs|typhoon_edu|notebooks|scripts)/[^`\s]+)`", text):
        pattern = re.sub(r"<[^>]+>", "*", cited)  # notebooks/<lang>/… stands for every language
        assert any(ROOT.glob(pattern)), f"{path.relative_to(ROOT)} cites {cited}, which does not exist"


def test_the_citation_check_catches_a_working_note(tmp_path):
    bad = tmp_path / "x.md"
    bad.write_text("See FACTS.md, DESIGN.md §3 and `../shared/RULES.md`.", encoding="utf-8")
    assert UNSHIPPED.findall(sources(bad)) == ["FACTS.md", "DESIGN.md", "../shared", "RULES.md"]
    assert ROOT / "typhoon_edu" / "server" / "serve.py" in SHIPPED_CODE and ROOT / "binder" / "postBuild" in SHIPPED_CODE


# --- 3: JMA's 30-kt radius is not gale force; CWA's radii in zh-TW ---------------------------------------------


def test_30_kt_is_the_strong_wind_radius_not_gale_force():
    en = notebook("en", "06")
    assert not re.search(r"gale-force \(30", en)
    assert "strong-wind" in en and "34" in en  # gale force starts at 34 kt
    zh = notebook("zh-TW", "06")
    for term in ("暴風半徑", "七級風", "十級風半徑"):
        assert term in zh, term
    assert "七級風" in i18n.t("lesson.real.legend_r30", "zh-TW") and "十級風" in i18n.t("lesson.real.legend_r50", "zh-TW")


# --- 4, 5, 6: the mountain card, extratropical, the colours -------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_mountain_card_only_weakens(lang):
    why = i18n.t("lesson.quiz.real.hsu.why", lang)
    assert "stands for this" not in why and "就是在表現這件事" not in why
    assert ("only weakens" in why) if lang == "en" else ("只會讓" in why and "減弱" in why)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_extratropical_is_a_change_of_structure(lang):
    glossary = i18n.t("glossary.real.t" + next(k.rsplit(".", 2)[-2][1:] for k in i18n.catalog("en")
                                                if k.startswith("glossary.real.") and i18n.t(k, "en") == "extratropical")
                      + ".meaning", lang)
    notes = notebook(lang, "06")
    if lang == "en":
        assert "left the tropics" not in notes and "cold core" in notes and "fronts" in notes
        assert "cold core" in glossary and "fronts" in glossary and "far north" not in glossary
    else:
        assert "離開熱帶" not in notes and "冷心" in notes and "鋒面" in notes
        assert "冷心" in glossary and "鋒面" in glossary and "北方的冷海面" not in glossary


def test_the_colours_are_jma_winds_sorted_by_cwa_thresholds():
    en, zh = notebook("en", "06"), notebook("zh-TW", "06")
    assert "classes exactly" not in en and "JMA's winds sorted by CWA's thresholds" in en
    assert "剛好就是中央氣象署的分級" not in zh and "門檻" in zh


# --- 7: Fujiwhara distances, with sources -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_fujiwhara_begins_far_and_strengthens_near_with_sources(lang):
    text = notebook(lang, "03")
    assert "1,400" in text and "650" in text
    assert "Brand" in text and "Lander" in text and "Holland" in text
    assert ("larger storm" in text) if lang == "en" else ("較大的颱風占上風" in text)
    assert "1,400" in i18n.t("lesson.intensity.why_merge", lang)


# --- 8: lesson 01 quiz 6 with computed numbers ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_01_quiz_6_says_wsw_steps_southwest_and_east_is_twice_nature(lang):
    q = next(q for q in bank.COMPASS if q.id == "after_e")
    assert bank.COMPASS.index(q) == 5  # the sixth question
    game_shares = ring_shares(load_rules().ring)
    why = q.why(lang)
    assert format_percent(game_shares["SW"]) in why and format_percent(game_shares["SW"]) == "7.1%"
    times = game_shares["E"] / REAL_MOTION_SHARES["E"]
    assert 1.8 < times < 2.2 and f"{times:.1f}" in why  # "about twice"
    assert format_percent(game_shares["E"]) in why and format_percent(REAL_MOTION_SHARES["E"]) in why
    assert "no storms heading" not in why and "沒有往東南、南或西南走的颱風" not in why


# --- 10: lesson 04's plan from measured game lengths ---------------------------------------------------------------


def test_game_lengths_are_measured_and_the_standard_game_does_not_fit_one_period():
    std = game.measure_game_length("standard", games=12)
    adv = game.measure_game_length("advanced", games=12)
    assert std.rounds == 3 and adv.rounds == 1
    assert std.median > 2.5 * adv.median
    assert std.minutes() > 30 >= adv.minutes()  # 45 min less rules and quiz leave about 30 min of play
    with pytest.raises(ValueError, match="at least 2"):
        game.measure_game_length(games=1)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_lesson_04_plans_from_the_measurement_and_offers_the_short_variant(lang):
    text = notebook(lang, "04")
    assert "lesson_plan(LANG)" in text and "30 min play" not in text and "玩遊戲 30 分鐘" not in text
    html = game.lesson_plan(lang, games=10)._repr_html_()
    std, adv = game.measure_game_length("standard", games=10), game.measure_game_length("advanced", games=10)
    assert f"{std.median:.0f}" in html and f"{adv.median:.0f}" in html and str(adv.minutes()) in html


def test_the_teachers_guide_states_the_measured_lengths():
    std, adv = game.measure_game_length("standard"), game.measure_game_length("advanced")
    en = (ROOT / "docs" / "teachers.md").read_text(encoding="utf-8")
    assert f"median of {std.median:.0f} decisions" in en and f"an advanced game {adv.median:.0f} ({adv.low}–{adv.high})" in en
    assert f"{std.low}–{std.high}" in en and f"about {std.minutes()} and {adv.minutes()} minutes" in en
    zh = (ROOT / "docs" / "teachers.zh-TW.md").read_text(encoding="utf-8")
    assert f"中位數是 {std.median:.0f} 個" in zh and f"進階遊戲 {adv.median:.0f} 個（{adv.low}–{adv.high}）" in zh
