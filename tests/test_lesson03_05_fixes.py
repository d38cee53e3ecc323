"""Lessons 03 and 05: the sandbox counts every region, the facts of the levels table, the wide tables' hint.

Each test here failed before its fix (see the commit that added it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import ipywidgets as widgets
import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import common, intensity


def test_the_sandbox_counts_hits_on_every_region_of_the_map():
    """A super typhoon driven across Central China costs Central China HP, as it would in a game that seats it."""
    s = intensity.SandboxModel(seed=1)
    s.clear()
    assert s.place((6, 4), 5, "W") is None
    events = s.run(faces=[2])
    hit = {e.player for e in events if e.kind == "RegionHit"}
    assert {"Central China", "Taiwan", "South China"} <= hit
    assert set(s.hp) == set(s.rules.regions)  # all six regions have HP in the sandbox
    assert s.hp["Central China"] < s.rules.regions["Central China"].hp
    # the others' damage is what the engine deals with the five usual players
    assert s.hp["Taiwan"] == s.rules.regions["Taiwan"].hp - 6


def test_the_sandbox_hp_panel_lists_all_six_regions():
    box = intensity.intensity_sandbox("en")
    assert set(box.hp.hp) == set(box.rules.regions)


def test_the_sandbox_tells_each_region_its_hp_after_several_turns():
    """The log's "now has N HP" is the sandbox's HP, also on the second move (the engine starts each move afresh)."""
    s = intensity.SandboxModel(seed=1)
    s.clear()
    s.place((6, 4), 5, "W")
    s.run(faces=[1])
    s.place((7, 3), 4, "W")
    events = s.run(faces=[1, 1])
    said = [e for e in events if e.kind == "DamageDealt" and e.player == "South China"]
    assert said and said[-1].hp == s.hp["South China"] < s.rules.regions["South China"].hp - 6


def test_a_region_crossed_in_the_sandbox_is_hit_in_the_order_of_the_move():
    """Central China's hits and damage come where the move had them: hits after the step, damage with the others'."""
    s = intensity.SandboxModel(seed=1)
    s.clear()
    s.place((6, 4), 5, "W")
    s.run(faces=[1])
    s.place((7, 3), 4, "W")
    kinds = [(e.kind, getattr(e, "player", "")) for e in s.run(faces=[1, 1])]
    second = kinds[[k for k, (kind, _) in enumerate(kinds) if kind == "MoveStarted"][1]:]
    assert second.index(("RegionHit", "Central China")) < second.index(("DamageDealt", "Korea"))
    assert kinds[-1] == ("Eliminated", "Central China") and s.hp["Central China"] == 0


def test_the_sandbox_holds_a_storm_with_every_region_in_play():
    s = intensity.SandboxModel(seed=1)
    s.place((9, 9), 2, "NNW")
    events = s.run(hold=1)
    assert [e.kind for e in events if e.kind in ("TyphoonHeld", "Intensified")] == ["TyphoonHeld", "Intensified"]
    assert s.typhoons == [((9, 9), 3, "NNW")]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_level_5_wind_cell_says_it_is_a_one_minute_wind(lang):
    """The m/s column holds CWA's 10-minute winds for levels 1-4; level 5's cell is JTWC's 1-minute wind and says so."""
    rows = intensity.level_rows(lang)
    assert "JTWC" in rows[4][3] and "1" in rows[4][3].replace("67", "")
    assert all("JTWC" not in row[3] for row in rows[:4])


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_levels_table_shows_the_games_columns_first_and_tells_a_phone_to_swipe(lang):
    html = intensity.levels_table_html(lang)
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", html)
    damage, cells, kmh = (common.keep_units(common.lt(f"intensity.col_{k}", lang)) for k in ("damage", "cells", "kmh"))
    assert heads.index(damage) < 4 and heads.index(cells) < 4 < heads.index(kmh)
    assert "class='typhoon-table-hint'" in html and common.lt("intensity.table_hint", lang) in html


def test_the_real_world_table_tells_a_phone_to_swipe():
    from typhoon_edu.ui.lessons import risk

    html = risk.real_world_html(risk.simulate_stats(n=2_000, seed=5), lang="zh-TW")
    assert "class='typhoon-table-hint'" in html and i18n.t("risk.real.table_hint", "zh-TW") in html


def test_footprints_are_drawn_one_level_a_tile_at_their_own_size():
    """One picture of five footprints was shrunk to a phone's width (captions about 6 px): each level is a tile."""
    box = intensity.levels_table("zh-TW")
    tiles = [c.value for c in box.children if isinstance(c, widgets.HTML) and "footprint-tiles" in c.value]
    assert len(tiles) == 1 and tiles[0].count("<svg") == 5
    for svg in re.findall(r"<svg[^>]*>", tiles[0]):
        assert int(re.search(r'width="(\d+)"', svg).group(1)) <= 160


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_sandbox_hold_menu_says_what_it_does(lang):
    """"Hold (Blocking High): nobody" was jargon: the menu says it keeps one storm still, and that none is."""
    box = intensity.intensity_sandbox(lang)
    assert box.hold.description != {"en": "Hold (Blocking High):", "zh-TW": "擋住（高壓阻擋）："}[lang]
    assert box.hold.options[0][0] != {"en": "nobody", "zh-TW": "不擋"}[lang]


NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _markdown(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown").replace("\u00a0", " ")


@pytest.mark.parametrize(("lang", "peak", "wrong"), [("en", "Xiuguluan", "Central Mountain Range is almost 4,000"),
                                                    ("zh-TW", "秀姑巒山", "中央山脈將近 4,000")])
def test_lesson_03_names_taiwans_highest_peaks_right(lang, peak, wrong):
    """Yushan (3,952 m) is in the Yushan Range; the Central Range's highest peak is Xiuguluan (about 3,825 m)."""
    text = _markdown(NOTEBOOKS / lang / "03_typhoon_intensity.ipynb")
    assert wrong not in text and peak in text and "3,952" in text and "3,825" in text


@pytest.mark.parametrize(("lang", "peak"), [("en", "Xiuguluan"), ("zh-TW", "秀姑巒山")])
def test_lesson_06_gives_the_central_ranges_peak_as_lesson_03_does(lang, peak):
    """Lesson 06 said the Central Range peaks at about 3,800 m, lesson 03 and the rules' note about 3,825 m."""
    text = _markdown(NOTEBOOKS / lang / "06_real_typhoons.ipynb")
    assert peak in text and "3,825" in text and "3,800" not in text


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_many_runs_summary_compares_like_with_like(lang):
    """From 100 to 100,000 storms is 1,000 times as many: the theory it quotes is √1,000 ≈ 32, said as such."""
    from typhoon_edu.ui.lessons import risk

    demo = risk.SpreadDemo(lang, ns=(100, 10_000), repeats=3)
    text = demo.summary.value
    assert "√100 ≈ 10" in text.replace("\u00a0", " ")


def _box(shape) -> tuple[float, float, float, float]:
    from typhoon_edu.ui import scene

    return scene._text_box(shape) if isinstance(shape, scene.Text) else scene._shape_box(shape)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_lesson_03_draws_the_region_name_over_the_hit_highlight(lang):
    """The orange frames of Taiwan's hit cells were drawn over its name ("aiwar"): the name comes after every frame
    it meets, on the live board and in the saved SVG picture alike."""
    from typhoon_edu.ui import scene

    lesson = intensity.intensity_lesson(lang)
    shapes = lesson.board.static_shapes() + lesson.board.dynamic_shapes()  # the static layer is under the other
    name = i18n.region_name(lesson.rules, "Taiwan", lang)
    frames = [k for k, s in enumerate(shapes) if s.role == "highlight"]
    labels = [k for k, s in enumerate(shapes) if s.role == "region-label" and s.key == "Taiwan"]
    assert frames and labels and shapes[labels[-1]].text == name
    label = _box(shapes[labels[-1]])
    met = [k for k in frames if scene._overlaps(_box(shapes[k]), label)]
    assert met and labels[-1] > max(met)
    svg = lesson.board.to_svg()
    assert svg.rindex(f">{name}<") > svg.rindex('data-role="highlight"')


#: The catalog keys of lessons 03 and 05 (their widgets, quizzes and prediction).
HIT_KEYS = ("lesson.intensity.", "lesson.quiz.intensity.", "lesson.predict.intensity.", "risk.")
LESSONS_03_05 = ("03_typhoon_intensity.ipynb", "05_which_coast_is_most_at_risk.ipynb")


@pytest.mark.parametrize("name", LESSONS_03_05)
def test_lessons_03_and_05_say_a_storm_invades_a_cell_as_the_game_does(name):
    """The game's rule ("被颱風侵襲的總格數"), lessons 04 and 06 and class play call a hit 侵襲: lesson 03 said 命中
    and lesson 05 打到, three words for one rule. Prose, stored outputs and the lessons' catalog keys say 侵襲."""
    nb = json.loads((NOTEBOOKS / "zh-TW" / name).read_text(encoding="utf-8"))
    prose = _markdown(NOTEBOOKS / "zh-TW" / name)
    outputs = json.dumps([c.get("outputs", []) for c in nb["cells"]], ensure_ascii=False)
    keys = {k: v for k, v in i18n.catalog("zh-TW").items() if k.startswith(HIT_KEYS)}
    assert len(keys) > 100
    for word in ("命中", "打到"):
        said = [f"{where}: …{text[max(0, k - 12):k + 14]}…" for where, text in (("prose", prose), ("outputs", outputs))
                for k in [m.start() for m in re.finditer(word, text)][:3]]
        said += [f"{key}: {value}" for key, value in keys.items() if word in value]
        assert not said, said
    assert "侵襲" in prose
