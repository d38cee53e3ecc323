"""Lesson 04's board (class play's projector page in a notebook) on a phone and beside a laptop's file browser.

Measured in JupyterLab before this fix: on a 390x844 phone the map (a 952 px canvas) was shown 274 px wide, its
coordinates 4.2 CSS px; at 1366x768 beside the file browser it was 770 px wide in a 607 px column, columns 13-15 hidden
behind the hand. The board now has the lessons' phone drawing (BoardView's ``phone_text``), asked for by the page
where the map is narrower than :data:`~typhoon_edu.ui.board.NARROW_BOARD_PX`; in a notebook the page is laid out by its
output area's width (theme.NOTEBOOK_CSS, a container query). tests/browser/test_touch_lessons.py measures the page.
"""

from __future__ import annotations

import re

import pytest
from phone_drawing import LEGIBLE_PX, page_says, painted, smallest_css_px

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.ui.board import NARROW_BOARD_PX, PHONE_BOARD_PX
from typhoon_edu.ui.classplay import theme
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice
from typhoon_edu.ui.dashboard import ClassPlayApp
from typhoon_edu.ui.scene import Text, dynamic_scene, static_scene

#: The projector's map at 1366x768 (the smallest projector the class-play browser tests use), CSS px: its wide drawing.
PROJECTOR_1366_MAP_PX = 770.0


def _game(lang: str) -> object:
    """Lesson 04's app on one computer, a game started and its three storms placed."""
    app = ClassPlayApp(lang=lang, store=RoomStore("sqlite://"))
    app.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("medium", "", "Japan"),
                            SeatChoice("medium", "", "Korea")], regions="chosen", seed=11, speed=0, devices=False))
    for cell in ((8, 8), (11, 7), (14, 9)):
        assert app.decide(app.decisions.cell_action(cell))
    return app


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_narrow_lesson04_map_is_painted_legible(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _game(lang)
    board = app.game.board
    assert len(board.state.typhoons) == 3
    width = board.geometry.pixel_size[0]
    shapes = painted(monkeypatch, lambda: page_says(board.map_width, True, "lesson 04's board"))
    smallest, which = smallest_css_px(shapes, width, PHONE_BOARD_PX)
    assert smallest >= LEGIBLE_PX, f"lesson 04 ({lang}) on a phone: {which} is {smallest:.1f} CSS px"
    names = {s.text for s in shapes if isinstance(s, Text) and s.role == "typhoon-label"}
    badges = [s for s in shapes if isinstance(s, Text) and s.role == "level-badge"]
    assert len(names) == 3 and len(badges) == 3, (names, badges)
    # a storm moved while the map is narrow is painted at the phone's sizes too
    moved = painted(monkeypatch, lambda: board.show(board.state))
    assert smallest_css_px(moved, width, PHONE_BOARD_PX)[0] >= LEGIBLE_PX


def test_a_projectors_map_gets_the_back_rows_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A projector (1366x768 and up) shows the map wider than the line: the back row's drawing (every text
    ``wide_text`` canvas px, 18 CSS px at 720 px and more on a wider map), not the phone's and no longer the usual one
    (its level names were 9.1 CSS px at 1366x768; tests/test_classplay_projector_map_text.py)."""
    app = _game("en")
    board = app.game.board
    assert board.map_width is not None and board.map_width.narrow_below == NARROW_BOARD_PX < PROJECTOR_1366_MAP_PX
    page_says(board.map_width, True, "lesson 04's board")
    shapes = painted(monkeypatch, lambda: page_says(board.map_width, False, "lesson 04's board"))
    size = board.wide_text
    assert 0 < size < board.phone_text and not board.narrow
    wide = static_scene(board.rules, "en", board.cell, min_text=size) + dynamic_scene(
        board.rules, board.state, "en", board.cell, min_text=size, level_text=size, step_text=size)
    assert shapes == wide
    assert min(s.size for s in shapes if isinstance(s, Text)) * PROJECTOR_1366_MAP_PX / board.geometry.pixel_size[0] >= 18


def _rules(css: str, query: str) -> str:
    """The rules of ``css`` inside the block that starts with ``query``."""
    start = css.index(query)
    depth, i = 0, css.index("{", start)
    for j in range(i, len(css)):
        depth += {"{": 1, "}": -1}.get(css[j], 0)
        if depth == 0:
            return css[i:j]
    raise AssertionError(f"{query} is not closed")


def test_in_a_notebook_the_layout_follows_the_output_areas_width() -> None:
    """The page in a notebook (no .typhoon-fullscreen) is a size container; the map beside the side column leaves it its
    20rem and the gap, and below STACK_BELOW_PX of output area the stage is one column; the projector's own page
    (.typhoon-fullscreen) gets none of it."""
    css = theme.CSS
    cell = ".typhoon-projector:not(.typhoon-fullscreen)"
    assert re.search(re.escape(cell) + r" \{ container: typhoon-cell / inline-size; \}", css)
    beside = re.search(re.escape(cell) + r" \.typhoon-board canvas \{[^}]*\}", css)
    assert beside and "calc(100cqw - 20.8rem)" in beside.group(0) and "height: auto" in beside.group(0)
    stacked = _rules(css, f"@container typhoon-cell (max-width: {theme.STACK_BELOW_PX - 0.02}px)")
    assert "flex-direction: column" in stacked and "width: 100% !important" in stacked
    small = _rules(css, f"@container typhoon-cell (max-width: {theme.RING_DIE_BELOW_PX - 0.02}px)")
    assert ".typhoon-instruments { flex-wrap: wrap; }" in small
    for block in re.findall(r"@container typhoon-cell[^{]*\{(.*?)\n\}", css, flags=re.S):
        selectors = [line.split("{")[0] for line in block.splitlines() if "{" in line]
        assert all(s.strip().startswith(cell) for s in selectors), selectors
