"""Colours that must be told apart stay apart with protanopia, deuteranopia and tritanopia.

The simulation is Machado et al. (2009) at severity 1.0 and the difference CIEDE2000
(typhoon_edu/ui/colour_vision.py). Solid fills that carry meaning (the sea, the land, each storm
level, each region, CWA's classes on the real map) must differ by at least ``MIN_SOLID`` for every
vision; a storm's translucent footprint over the sea by at least ``MIN_FOOTPRINT`` (its border is
drawn in the level's full colour, which the solid check covers).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui import palette
from typhoon_edu.ui.colour_vision import KINDS, blend, contrast_ratio, delta_e, delta_e_lab, simulate, worst_difference
from typhoon_edu.ui.realmap import CLASS_COLOUR, LAND_FILL, SEA_FILL

MIN_SOLID = 10.0  # CIEDE2000; about 2.3 is just noticeable, 10 is plainly different at a glance
MIN_FOOTPRINT = 3.0
FOOTPRINT_ALPHA = 0.35  # typhoon_edu/ui/scene.py draws footprints so

RULES = load_rules()
LEVELS = {f"level {lv}": palette.LEVEL_FILL[lv] for lv in range(1, 6)}
REGIONS = {f"region {k}": palette.region_fill(r) for k, r in RULES.regions.items()}


def _pairs(named: dict[str, str]) -> list[tuple[str, str, str, str]]:
    return [(a, named[a], b, named[b]) for a, b in itertools.combinations(named, 2)]


def _mark(pairs: list[tuple[str, str, str, str]]) -> list[Any]:
    return [pytest.param(a, ha, b, hb, id=f"{a}-{b}".replace(" ", "_")) for a, ha, b, hb in pairs]


BOARD = {"sea": palette.SEA, "land": palette.LAND, **LEVELS}
MAP_PAIRS = _pairs(BOARD) + _pairs({"sea": palette.SEA, "land": palette.LAND, **REGIONS})
REAL_PAIRS = _pairs({"sea": SEA_FILL, "land": LAND_FILL, **{f"CWA class {c}": h for c, h in CLASS_COLOUR.items()}})


@pytest.mark.parametrize(("a", "ha", "b", "hb"), _mark(MAP_PAIRS + REAL_PAIRS))
def test_pairs_stay_apart_for_every_vision(a: str, ha: str, b: str, hb: str) -> None:
    if ha == hb:
        pytest.skip(f"{a} and {b} are the same colour on purpose")
    d, kind = worst_difference(ha, hb)
    assert d >= MIN_SOLID, f"{a} {ha} and {b} {hb} are only {d:.1f} apart with {kind} (need {MIN_SOLID})"


def test_the_edition_card_colours_alone_would_fail() -> None:
    """Why the view overrides two region colours: with the data file's card colours, a pair fails."""
    cards = {f"region {k}": r.hex for k, r in RULES.regions.items()}
    worst = min((worst_difference(ha, hb)[0], a, b) for a, ha, b, hb in _pairs(cards))
    assert worst[0] < MIN_SOLID, worst
    assert set(palette.REGION_FILL_OVERRIDE) <= set(RULES.regions)


@pytest.mark.parametrize("level", range(1, 6))
def test_footprints_show_on_the_sea(level: int) -> None:
    fill = blend(palette.LEVEL_FILL[level], palette.SEA, FOOTPRINT_ALPHA)
    d, kind = worst_difference(fill, palette.SEA)
    assert d >= MIN_FOOTPRINT, f"level {level}'s footprint is {d:.1f} from the sea with {kind}"


def test_the_old_depression_colour_fails_the_check() -> None:
    """The check can fail: the palette this issue reported (pale pink on pale blue) does."""
    d, kind = worst_difference("#fbcfe8", "#cfe6f5")
    assert d < MIN_SOLID and kind == "protanopia"


def test_simulation_collapses_red_and_green_but_not_for_normal_vision() -> None:
    red, green = "#d62728", "#2ca02c"
    assert delta_e(red, green) > 40
    for kind in ("protanopia", "deuteranopia"):
        assert delta_e(simulate(red, kind), simulate(green, kind)) < delta_e(red, green) / 2
    assert set(KINDS) == {"normal", "protanopia", "deuteranopia", "tritanopia"}


def test_tritanopia_confuses_blue_and_green_more_than_red_and_green() -> None:
    blue, green, red = "#1f77b4", "#2ca02c", "#d62728"
    tri = delta_e(simulate(blue, "tritanopia"), simulate(green, "tritanopia"))
    assert tri < delta_e(blue, green)
    assert delta_e(simulate(red, "tritanopia"), simulate(green, "tritanopia")) > 20


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),  # Sharma, Wu and Dalal (2005), Table 1, pair 1
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),  # pair 7
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),  # pair 17
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),  # pair 34
])
def test_delta_e_matches_sharma_reference_pairs(lab1: tuple[float, float, float], lab2: tuple[float, float, float],
                                                expected: float) -> None:
    assert round(delta_e_lab(lab1, lab2), 4) == expected
    assert delta_e("#336699", "#336699") == 0


def test_bad_colour_is_named() -> None:
    with pytest.raises(ValueError, match="#rrggbb"):
        simulate("blue", "protanopia")
    with pytest.raises(ValueError, match="protanopia"):
        simulate("#000000", "achromatopsia")


@pytest.mark.parametrize("style", sorted(palette.BUTTON_FILL))
def test_styled_buttons_keep_their_white_text_readable(style: str) -> None:
    """WCAG AA text contrast (4.5:1) for the white label on every button style the views recolour."""
    assert contrast_ratio(palette.BUTTON_FILL[style], "#ffffff") >= 4.5


def test_the_theme_colours_being_replaced_fail_and_every_such_button_is_recoloured() -> None:
    """ipywidgets' info, warning and success colours (JupyterLab's light theme) are below 4.5:1 under white text;
    every button the package makes in one of those styles goes through :func:`~typhoon_edu.ui.buttons.legible`."""
    import ast
    from pathlib import Path

    import ipywidgets as widgets

    from typhoon_edu.ui.buttons import legible

    for old in ("#0097a7", "#f57c00", "#388e3c"):
        assert contrast_ratio(old, "#ffffff") < 4.5
    for style, fill in palette.BUTTON_FILL.items():
        assert legible(widgets.Button(button_style=style)).style.button_color == fill
    root = Path(palette.__file__).resolve().parent.parent
    bare = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        wrapped = {id(node.args[0]) for node in ast.walk(tree)
                   if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "legible" and node.args}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Button" and id(node) not in wrapped:
                styles = [k.value.value for k in node.keywords
                          if k.arg == "button_style" and isinstance(k.value, ast.Constant)]
                if any(style in palette.BUTTON_FILL for style in styles):
                    bare.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not bare, f"buttons of a too-light style not passed through legible(): {bare}"
