"""Defects found walking lessons 02-06 as a student (phone and laptop, both languages), one test each.

Each test failed on the code before its fix (see the commit that added it).
"""

from __future__ import annotations

import re

import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import pathing

LANGS = i18n.LANGS


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize("lang", LANGS)
def test_landing_puzzle_answers_under_the_map_where_the_cell_pad_is(lang: str) -> None:
    """On a phone the puzzle's verdict above the map is off the screen when "Choose this cell" (under the map) is
    pressed: the line under the map (the board's status, just above the pad) must say it, and a new puzzle must not
    keep the last example's step there (it named another storm's cell)."""
    w = pathing.pathing_lesson(lang)
    w.play_example(1, speed=0)  # SW with a 6: the status tells its last step
    assert w.board.status.value
    p = w.new_puzzle()
    assert _text(w.board.status.value).strip() == ""  # not "Step 6: the eye of T1 moves ..." of the example
    wrong = (p.answer[0] + 1, p.answer[1])
    w.pad.move(0, 0)
    w.board.cursor = wrong
    w.pad.choose()
    status = _text(w.board.status.value)
    assert "✘" in status and i18n.cell_label(p.answer, lang) in status
    assert i18n.t("lesson.pathing.puzzle_score", lang, right=0, total=1) in status
    p = w.new_puzzle()
    w.board.cursor = p.answer
    w.pad.choose()
    status = _text(w.board.status.value)
    assert "✔" in status and i18n.t("lesson.pathing.puzzle_score", lang, right=1, total=2) in status
    p = w.new_puzzle()
    w.reveal()
    assert i18n.cell_label(p.answer, lang) in _text(w.board.status.value)


@pytest.mark.parametrize("lang", LANGS)
def test_sandbox_says_under_the_map_what_choosing_a_cell_did(lang: str) -> None:
    """Lesson 03's sandbox: on a phone a storm is placed with the cell pad under the map, and the sentence that says
    whether it was placed (or why not: land, an eye there already) was only above the map, off the screen. The line
    under the map (the board's status, just above the pad) says it too, and the map's live region with it."""
    from typhoon_edu.ui.lessons import intensity

    s = intensity.intensity_sandbox(lang)
    land = next((x, y) for y in range(s.rules.map.height) for x in range(s.rules.map.width) if s.rules.map.is_land(x, y))
    for cell, key in ((land, "sandbox_land"), ((14, 2), "sandbox_placed"), ((14, 2), "sandbox_removed")):
        s.pad.move(0, 0)
        s.board.cursor = cell
        s.pad.choose()
        said = i18n.t(f"lesson.intensity.{key}", lang, cell=i18n.cell_label(cell, lang),
                      level=i18n.level_name(s.rules, s.level.value, lang))
        assert said in _text(s.board.status.value), (key, s.board.status.value)
        assert said in s.board.access.announce
