"""Lesson 06's two other pictures on a phone: the game board beside the real map, and the Taiwan close-up.

Measured in Voilà at 390×844 (tests/browser/test_lessons_browser.py checks it on the page): the board beside the real
map (a 510 px canvas, cell 30) is shown 360 CSS px wide, and its 9–10 px names and coordinates came out at 6.4–7.1 px;
the Taiwan close-up (an SVG 560 units wide) is shown 356 px wide, its 12–15 unit texts 7.6–9.5 px. On a laptop
(1366×768) the board is 439 px wide and the close-up 560 px (1920×1080: 520 and 560): the close-up keeps its usual
drawing there, while the board (7.7–8.6 px texts on that laptop) shows its legible drawing on every screen.

The board asks for BoardView's phone drawing (as lessons 02 and 03 do): what its canvas is sent once the page says it
is narrow is measured here. The close-up carries a second drawing that a container query shows where it is narrow:
the HTML the page gets is read here, as the browser would pick from it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from phone_drawing import LEGIBLE_PX, painted, walk

from typhoon_edu import i18n
from typhoon_edu.realdata.jma import selected_storms
from typhoon_edu.ui.lessons import real
from typhoon_edu.ui.map_text import overlaps, text_box
from typhoon_edu.ui.realmap import RealStormMap, board_state
from typhoon_edu.ui.scene import Shape, Text, dynamic_scene, static_scene

#: Measured in Voilà (see the module's docstring), CSS px.
PHONE_BOARD_PX, LAPTOP_BOARD_PX = 360.0, 439.0
PHONE_CLOSE_UP_PX, LAPTOP_CLOSE_UP_PX = 356.0, 560.0
SVG = "{http://www.w3.org/2000/svg}"






def _small(texts: list[Text], scale: float) -> list[tuple[str, str, float]]:
    return sorted({(t.role, t.text, round(t.size * scale, 1)) for t in texts if t.size * scale < LEGIBLE_PX})


def _texts(shapes: list[Shape]) -> list[Text]:
    return [s for s in shapes if isinstance(s, Text)]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_board_beside_the_real_map_is_legible_on_a_phone(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every storm of the map, replayed: every text the board paints is 11 CSS px or more at the phone's 360 px, from
    the first paint a browser gets (the page need not measure the board first)."""
    view = RealStormMap(lang)
    board = view.board
    scale = PHONE_BOARD_PX / board.geometry.pixel_size[0]
    shapes = painted(monkeypatch, board.redraw)  # what a browser that connects is sent (on_client_ready)
    assert not _small(_texts(shapes), scale), f"the board on a phone ({lang}): {_small(_texts(shapes), scale)}"
    for storm in selected_storms():
        six = storm.six_hourly()
        for index in range(0, len(six), 3):
            board.show(board_state(storm, index, view.rules))
            texts = _texts(board.dynamic_shapes())
            assert not _small(texts, scale), f"{storm.name} at {index} on a phone ({lang}): {_small(texts, scale)}"
    # the map's names and coordinates keep clear of each other (the dynamic layer draws some of them again on top)
    static = _texts(board.static_shapes())
    met = [(a.text, b.text) for i, a in enumerate(static) for b in static[i + 1:] if overlaps(text_box(a), text_box(b))]
    assert not met, f"texts that run into each other on the phone's board ({lang}): {met}"


def test_the_board_is_legible_on_every_screen() -> None:
    """A phone's board (360 px), a laptop's (439 px) and a projector's (520 px, the board's largest) all get the
    legible drawing: its texts at least 11 CSS px at each width (the usual drawing's were 6.4-9 px)."""
    view = RealStormMap("en")
    assert view.board.narrow and view.board.min_text == view.board.phone_text > 0
    canvas = view.board.geometry.pixel_size[0]
    for width in (PHONE_BOARD_PX, LAPTOP_BOARD_PX, 520.0):
        assert view.board.phone_text * width / canvas >= 11.0


def test_the_board_is_painted_once_and_the_saved_svg_keeps_the_usual_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board is never shown wide, so it has no page-side helper: a browser that connects is sent the legible
    drawing once, not the usual one first and then again once the page had measured it (every load painted it
    twice). The saved SVG is the usual drawing, as every board's."""
    view = RealStormMap("zh-TW", "Meranti")
    view.show(30)
    board = view.board
    assert board.map_width is None and "te-drawing-phone" in board.canvas._dom_classes  # the page's browser test reads it
    assert not any(type(w).__name__ == "MapWidth" for w in walk(view)), "a page-side helper would repaint the board"
    calls: list[int] = []
    shapes = painted(monkeypatch, lambda: (calls.append(1), board.redraw()))
    legible = (static_scene(board.rules, "zh-TW", board.cell, min_text=board.phone_text)
               + dynamic_scene(board.rules, board.state, "zh-TW", board.cell, min_text=board.phone_text,
                               level_text=board.phone_text, step_text=board.phone_text))
    assert shapes[:len(legible)] == legible
    usual = static_scene(board.rules, "zh-TW", board.cell) + dynamic_scene(board.rules, board.state, "zh-TW", board.cell)
    assert board.to_svg() != "" and view.to_html().count(board.to_svg()) == 1
    assert shapes != usual


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_boards_words_and_keys_are_the_same_on_a_phone(lang: str) -> None:
    """The board's text description follows the replay; the board takes no taps nor keys (not a tab stop)."""
    view = RealStormMap(lang)
    view.show(40)
    assert "T1" in view.board.access.label and view.board.access.label == view.board.describe()
    assert not view.board.interactive and not view.board.access.interactive


# --- the Taiwan close-up --------------------------------------------------------------------------------------------

_ALIGN = {"start": "left", "middle": "center", "end": "right"}
_BASELINE = {"hanging": "top", "central": "middle", "text-after-edge": "bottom", "alphabetic": "alphabetic"}


def _close_up_html(lang: str) -> str:
    """The HTML the page gets for the close-up (the widget beside the table that holds an SVG)."""
    box = real.mountains(lang)
    found = [w.value for w in walk(box) if hasattr(w, "value") and isinstance(w.value, str) and "<svg" in w.value]
    assert len(found) == 1, len(found)
    return found[0]




def _shown_svg(html: str, width: float) -> str:
    """The SVG a page shows where the close-up is ``width`` CSS px wide: the phone's drawing (class
    ``mountains-phone``) below the container query's width, else the other one."""
    svgs = re.findall(r"<svg\b.*?</svg>", html, flags=re.S)
    query = re.search(r"@container \(max-width: ([\d.]+)px\)", html)
    phone = [s for s in svgs if "mountains-phone" in s.split(">", 1)[0]]
    if phone and query and width <= float(query.group(1)):
        return phone[0]
    others = [s for s in svgs if s not in phone]
    assert len(others) == 1, len(others)
    return others[0]


def _svg_texts(svg: str) -> tuple[list[Text], float]:
    """The texts of an SVG as scene texts (for their boxes), and its drawing width."""
    root = ET.fromstring(svg)
    texts = [Text(x=float(e.get("x", 0)), y=float(e.get("y", 0)), text=e.text or "", size=float(e.get("font-size", 0)),
                  align=_ALIGN[e.get("text-anchor", "middle")], baseline=_BASELINE[e.get("dominant-baseline", "central")],
                  bold=e.get("font-weight") == "bold", role=e.get("data-role", ""))
             for e in root.iter(f"{SVG}text")]
    return texts, float(root.get("viewBox", "0 0 0 0").split()[2])


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_taiwan_close_up_is_legible_on_a_phone(lang: str) -> None:
    """At the phone's 356 px every text of the close-up is 11 px or more, inside the picture, none on another; the four
    storms keep their tags and their names."""
    svg = _shown_svg(_close_up_html(lang), PHONE_CLOSE_UP_PX)
    texts, width = _svg_texts(svg)
    scale = PHONE_CLOSE_UP_PX / width
    assert not _small(texts, scale), f"the Taiwan close-up on a phone ({lang}): {_small(texts, scale)}"
    assert sorted(t.text for t in texts if t.role == "storm-tag") == ["1", "2", "3", "4"]
    names = [t.text for t in texts if t.role == "storm-name"]
    assert len(names) == 4 and all(n.startswith(f"{k + 1} ") for k, n in enumerate(names)), names
    assert sum(t.role == "graticule-label" for t in texts) >= 4
    root = ET.fromstring(svg)
    height = float(root.get("viewBox", "").split()[3])
    boxes = [(t.text, t.role, text_box(t)) for t in texts]
    off = [t for t, _, b in boxes if b[0] < 0 or b[1] < 0 or b[2] > width or b[3] > height]
    assert not off, f"texts past the close-up's edge ({lang}): {off}"
    met = [(a, b) for i, (a, _, ba) in enumerate(boxes) for b, _, bb in boxes[i + 1:] if overlaps(ba, bb)]
    assert not met, f"texts that run into each other on the phone's close-up ({lang}): {met}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_taiwan_close_up_is_unchanged_on_a_laptop(lang: str) -> None:
    """A laptop's close-up (560 px) shows the usual drawing, as the saved picture does."""
    html = _close_up_html(lang)
    usual = real.mountains_svg(lang)
    assert _shown_svg(html, LAPTOP_CLOSE_UP_PX).replace(' class="mountains-wide"', "") == usual
    box = real.mountains(lang)
    assert usual in box.snapshot() and "mountains-phone" not in box.snapshot()
    texts, _ = _svg_texts(usual)
    assert min(t.size for t in texts) == 12.0  # its coordinates: 12 px at 560 px
