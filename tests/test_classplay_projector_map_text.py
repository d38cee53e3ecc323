"""The projector's map read from the back row: every text of the drawing it paints at least 18 CSS px where the map is
shown at 1920x1080 (1152 px wide) and 1366x768 (770 px), storms' names and levels included, in both languages.

The usual drawing's level names ("strong typhoon" under a storm) were 11.2 canvas px of a 952 px canvas: 13.6 CSS px at
1920x1080 and 9.1 at 1366x768 (a classroom rehearsal, /tmp qa1 shots 16 and 31).
"""

from __future__ import annotations

import pytest

from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.classplay.screens import BACKROW_MAP_PX, ProjectorGameScreen
from typhoon_edu.ui.guard import Problems
from typhoon_edu.ui.scene import Text
from typhoon_edu.ui.state import BoardState, PathPreview, TyphoonView

RULES = load_rules()
#: The projector's map as the browser measured it, CSS px wide (tests/browser: 1152 at 1920x1080, 770 at 1366x768).
SHOWN = {"1920x1080": 1152.0, "1366x768": 770.0}
STATE = BoardState(typhoons=(TyphoonView(1, (8, 8), 3, "NNW"), TyphoonView(2, (3, 5), 1, "E"),
                             TyphoonView(3, (12, 3), 2, "W")),
                   highlights=((9, 9),), path=PathPreview((8, 8), "NNW", 4, 3))


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("size", list(SHOWN))
def test_every_map_text_reads_from_the_back_row(lang: str, size: str) -> None:
    screen = ProjectorGameScreen(RULES, lang, decisions=Problems(lambda: lang).widget, problems=Problems(lambda: lang))
    board = screen.board
    board.show(STATE)
    assert not board.narrow  # a projector: the page has not said the map is narrow
    texts = [s for s in board.static_shapes() + board.dynamic_shapes() if isinstance(s, Text)]
    assert {t.role for t in texts} >= {"region-label", "zone-label", "coord", "typhoon-label", "level-badge"}
    drawn = board.geometry.pixel_size[0]
    smallest = min(texts, key=lambda t: t.size)
    css = smallest.size * SHOWN[size] / drawn
    assert css >= BACKROW_MAP_PX, (f"at {size} ({lang}) the map's {smallest.role} {smallest.text!r} is "
                                   f"{smallest.size:.1f} canvas px: {css:.1f} CSS px, under {BACKROW_MAP_PX}")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_phone_still_gets_the_phone_drawing(lang: str) -> None:
    screen = ProjectorGameScreen(RULES, lang, decisions=Problems(lambda: lang).widget, problems=Problems(lambda: lang))
    board = screen.board
    assert board.map_width is not None
    board.map_width.narrow = True  # the page: the map is narrower than 720 px
    board.show(STATE)
    texts = [s for s in board.static_shapes() + board.dynamic_shapes() if isinstance(s, Text)]
    assert min(t.size for t in texts) >= board.phone_text == 30
    board.set_lang("zh-TW" if lang == "en" else "en")
    board.map_width.narrow = False
    assert min(t.size for t in board.static_shapes() if isinstance(t, Text)) >= board.min_text > 0
