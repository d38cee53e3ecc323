"""Colours and fonts of the board views, in one place.

Region colours come from the edition's ``regions.toml``; these are the rest. Storm levels are a
light-to-dark red ramp, and every storm also carries its level name, so colour is never the only
cue.

>>> LEVEL_FILL[5], text_colour_on("#4c0519")
('#4c0519', '#ffffff')
"""

from __future__ import annotations

from typing import Any

from .colour_vision import contrast_ratio, luminance

SEA = "#bfdbfe"  # a clearer blue than before: a tropical depression's pale pink vanished on it for red–green CVD
MARGIN = "#ffffff"
LAND = "#c8bfa0"  # darker than #d8d2bf: a tropical depression (#fecdd3) on land stays apart for protanopes
ZONE = "#16a34a"
GRID = "#334155"
INK = "#0f172a"
HALO = "#ffffff"
PATTERN = "#0f172a"
PATH = "#111827"
HIGHLIGHT = "#f59e0b"
TRAIL = "#be123c"
CURSOR = "#1d4ed8"  # the keyboard cursor: blue, unlike every red storm and the amber highlights
FONT = "'Noto Sans TC', 'Noto Sans CJK TC', 'PingFang TC', 'Microsoft JhengHei', 'Noto Serif CJK TC', sans-serif"

# Level 1..5; index 0 unused so LEVEL_FILL[level] reads naturally. Checked against the sea, the land,
# each other and the regions with simulated protanopia, deuteranopia and tritanopia
# (tests/test_ui_colour_vision.py, typhoon_edu/ui/colour_vision.py): the old level 1 (#fbcfe8) was
# 3.2 CIEDE2000 from the sea for protanopes, now 14.
LEVEL_FILL = ("#000000", "#fecdd3", "#f472b6", "#e11d48", "#9f1239", "#4c0519")


#: Backgrounds for the ipywidgets button styles whose own colours (JupyterLab's light theme) are too light
#: for their white text: info #0097a7 is 3.5:1, warning #f57c00 2.7:1, success #388e3c 4.1:1, where WCAG AA
#: asks 4.5:1 for text of a button's size. primary (#1976d2, 4.6:1) and danger (#d32f2f, 5.0:1) pass as they
#: are. Applied by :func:`typhoon_edu.ui.buttons.legible`; tests/test_ui_colour_vision.py checks the ratios
#: (:func:`~typhoon_edu.ui.colour_vision.contrast_ratio`).
BUTTON_FILL = {"info": "#00727d", "warning": "#b45309", "success": "#15803d"}


def text_colour_on(hex_colour: str) -> str:
    """Black or white, whichever reads better on ``hex_colour`` (WCAG relative luminance).

    >>> text_colour_on("#f1f5f9"), text_colour_on("#3b82f6")
    ('#0f172a', '#0f172a')
    """
    return INK if luminance(hex_colour) > 0.18 else "#ffffff"


#: The screen colours of two regions, replacing the card colours in the edition's ``regions.toml``:
#: there, Philippines (violet-500) is 1.8 CIEDE2000 from Taiwan's blue for deuteranopes, and South
#: China (green-500) 10.0 from Central China's yellow for protanopes. The data file's bytes are the
#: rules digest every save and room records, so the view, not the data, owns what a screen shows.
REGION_FILL_OVERRIDE = {"Philippines": "#6d28d9", "South China": "#15803d"}


def region_fill(region: Any) -> str:
    """The colour a view paints ``region`` (a :class:`~typhoon_edu.engine.rules.Region`) with.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> regions = load_rules().regions
    >>> region_fill(regions["Taiwan"]) == regions["Taiwan"].hex, region_fill(regions["Philippines"])
    (True, '#6d28d9')
    """
    return REGION_FILL_OVERRIDE.get(region.key, region.hex)


def level_fill(level: int) -> str:
    """The colour of a storm of ``level`` (clamped to 1..5).

    >>> level_fill(0) == LEVEL_FILL[1], level_fill(9) == LEVEL_FILL[5]
    (True, True)
    """
    return LEVEL_FILL[min(max(int(level), 1), 5)]


#: The outline of a region colour too close to white to be seen on a white page (Japan's #f1f5f9): a full HP bar of
#: it looked empty from the back row, its swatch and its lobby card's border vanished.
PALE_EDGE = "#475569"


def is_pale(hex_colour: str) -> bool:
    """Whether ``hex_colour`` is too close to white to show on a white page without an outline (under 1.3:1).

    >>> is_pale("#f1f5f9"), is_pale("#fde047"), is_pale("#6d28d9")
    (True, False, False)
    """
    return contrast_ratio(hex_colour, "#ffffff") < 1.3


def region_edge(region: Any) -> str:
    """The colour a region's card border or swatch outline takes: its own, or :data:`PALE_EDGE` when it is pale.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> regions = load_rules().regions
    >>> region_edge(regions["Japan"]), region_edge(regions["Philippines"])
    ('#475569', '#6d28d9')
    """
    fill = region_fill(region)
    return PALE_EDGE if is_pale(fill) else fill
