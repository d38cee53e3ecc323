"""The maps in words: what a screen reader says for a board, a cell under the keyboard cursor, a path; and the
texts a map draws, sized for a phone.

Built from the same :class:`~typhoon_edu.ui.state.BoardState` the painter draws, in the page's
language (the ``maptext.*`` strings of the catalogs).

A map drawn on a canvas is scaled by CSS to the page: on a 390 px phone a 760–816 px canvas shrinks to less than half,
and its 12–15 px texts to 5–6 px. The maps that a phone shows (lesson 05's heat map, lesson 06's real map) therefore
draw a second time with larger texts, and a CSS container query (:func:`narrow_css`) shows that drawing where the
map's own width is narrow. The measures and helpers they share are here (:data:`LEGIBLE_PX`, :data:`PHONE_MAP_PX`,
:func:`text_box`, :func:`overlaps`, :func:`narrow_css`).

>>> from typhoon_edu.engine.rules import load_rules
>>> from typhoon_edu.ui.state import BoardState, TyphoonView
>>> rules = load_rules()
>>> state = BoardState(typhoons=(TyphoonView(1, (8, 8), 3, "NNW"),), highlights=((8, 8),))
>>> board_text(rules, state, "en")  # doctest: +ELLIPSIS
'Typhoon Alert map, 16 by 12 cells. 1 typhoon: T1, ..., at (8, 8), heading north-northwest. 1 cell can be chosen now.'
>>> cell_text(rules, state, (8, 8), "zh-TW")
'游標在 (8, 8)：生成區 1；T1，中度颱風，在 (8, 8)，往北北西前進 在這裡；可以選。'
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import i18n
from .geometry import Cell
from .state import BoardState, TyphoonView

if TYPE_CHECKING:
    from ..engine.rules import Rules
    from .scene import Text

#: The smallest text a phone may show on a map, CSS px.
LEGIBLE_PX = 11.0
#: How wide a lesson's map is on a 390×844 phone in Voilà, CSS px (the page's and the output area's margins take the
#: rest): lesson 05's heat map 340 (tests/browser/test_lessons_walk_0206.py measures it), lesson 06's real map 360.
#: The narrower one, so a text sized for it is legible on both.
PHONE_MAP_PX = 340.0

#: A box on a canvas: left, top, right, bottom (canvas px).
Box = tuple[float, float, float, float]


def storm_text(rules: Rules, ty: TyphoonView, lang: str = "en") -> str:
    """One storm: its name, level name, cell and heading."""
    fields = {"typhoon": i18n.typhoon_label(ty.id, lang), "level": i18n.level_name(rules, ty.level, lang),
              "cell": i18n.cell_label(ty.eye, lang)}
    if ty.direction:
        return i18n.t("maptext.storm_heading", lang, direction=i18n.direction_name(rules, ty.direction, lang), **fields)
    return i18n.t("maptext.storm", lang, **fields)


def _counted(key: str, count: int, lang: str, **fmt: Any) -> str:
    """``key`` with ``count``, in its singular form (``key_one``) when ``count`` is 1 (English; zh-TW has no plural).

    >>> _counted("maptext.choices", 1, "en"), _counted("maptext.choices", 2, "en")
    ('1 cell can be chosen now.', '2 cells can be chosen now.')
    """
    name = f"{key}_one" if count == 1 and i18n.has(f"{key}_one", lang) else key
    return i18n.t(name, lang, count=count, **fmt)


def board_text(rules: Rules, state: BoardState, lang: str = "en", keys: bool = False) -> str:
    """The whole map in a few sentences (the canvas's ``aria-label``); ``keys`` adds how to use it."""
    if state.typhoons:
        listed = i18n.t("maptext.list_sep", lang).join(storm_text(rules, ty, lang) for ty in state.typhoons)
        storms = _counted("maptext.storms", len(state.typhoons), lang, list=listed)
    else:
        storms = i18n.t("maptext.no_storms", lang)
    parts = [i18n.t("maptext.board", lang, width=rules.map.width, height=rules.map.height, storms=storms)]
    if state.highlights:
        parts.append(_counted("maptext.choices", len(state.highlights), lang))
    if state.path is not None:
        parts.append(path_text(rules, state, lang))
    if keys:
        parts.append(i18n.t("maptext.keys", lang))
    return " ".join(parts)


def path_text(rules: Rules, state: BoardState, lang: str = "en") -> str:
    """Where the drawn path ends (or that it leaves the map); empty without a path."""
    from .scene import path_cells

    if state.path is None:
        return ""
    p = state.path
    cells = path_cells(rules, p.start, p.direction, p.pips)
    end = cells[-1] if cells else p.start
    if not rules.map.on_map(*end) or len(cells) < p.pips:
        return i18n.t("maptext.path_off", lang)
    return i18n.t("maptext.path", lang, cell=i18n.cell_label(end, lang))


def what_is_at(rules: Rules, cell: Cell) -> tuple[str, str | int | None]:
    """``("region", key)``, ``("zone", n)``, ``("land", None)`` or ``("sea", None)`` for ``cell``.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> what_is_at(load_rules(), (0, 0))[0] in {"region", "zone", "land", "sea"}
    True
    """
    for region in rules.regions.values():
        if tuple(cell) in region.cells:
            return "region", region.key
    for zone in rules.map.zones:
        if tuple(cell) in zone.cells:
            return "zone", zone.index + 1  # numbered from 1, as the map labels them
    if rules.map.is_land(*cell):
        return "land", None
    return "sea", None


def cell_text(rules: Rules, state: BoardState, cell: Cell, lang: str = "en") -> str:
    """What is at ``cell``: the terrain, a storm whose eye is there, whether it can be chosen."""
    kind, value = what_is_at(rules, cell)
    if kind == "region":
        what = [i18n.t("maptext.region", lang, region=i18n.region_name(rules, str(value), lang))]
    elif kind == "zone":
        what = [i18n.t("maptext.zone", lang, n=value)]
    else:
        what = [i18n.t(f"maptext.{kind}", lang)]
    for ty in state.typhoons:
        if tuple(ty.eye) == tuple(cell):
            what.append(i18n.t("maptext.storm_here", lang, storm=storm_text(rules, ty, lang)))
    if tuple(cell) in {tuple(c) for c in state.highlights}:
        what.append(i18n.t("maptext.can_choose", lang))
    return i18n.t("maptext.cursor", lang, cell=i18n.cell_label(cell, lang), what=i18n.t("maptext.sep", lang).join(what))


def heat_text(rules: Rules, p: Any, caption: str = "", lang: str = "en", top: int = 3) -> str:
    """A risk map in words: its caption and the ``top`` cells with the highest chance.

    >>> import numpy as np
    >>> from typhoon_edu.engine.rules import load_rules
    >>> p = np.zeros((12, 16)); p[6, 7] = 0.42; p[2, 3] = 0.1
    >>> heat_text(load_rules(), p, "Hits.", "en")
    'Risk map, 16 by 12 cells. Hits. Highest chances: (7, 6) 42%; (3, 2) 10%.'
    """
    cap = caption.strip()
    flat = [(float(p[y][x]), (x, y)) for y in range(rules.map.height) for x in range(rules.map.width) if float(p[y][x]) > 0]
    if not flat:
        return " ".join(i18n.t("maptext.heat_none", lang, width=rules.map.width, height=rules.map.height, caption=cap).split())
    flat.sort(key=lambda item: (-item[0], item[1][1], item[1][0]))
    cells = i18n.t("maptext.list_sep", lang).join(
        i18n.t("maptext.heat_cell", lang, cell=i18n.cell_label(c, lang), percent=f"{v:.0%}") for v, c in flat[:top])
    # an empty caption must not leave a double space
    return " ".join(i18n.t("maptext.heat", lang, width=rules.map.width, height=rules.map.height, caption=cap, cells=cells).split())


def html_text(markup: str) -> str:
    """The words of a bit of HTML (for a label made from a panel that shows HTML).

    >>> html_text("<b>T1</b> at <i>(3,&nbsp;4)</i><br>now")
    'T1 at (3, 4) now'
    """
    text = re.sub(r"<br\s*/?>|</(p|div|li|tr)>", " ", markup)
    text = html.unescape(re.sub(r"<[^>]+>", "", text)).replace("\xa0", " ")
    return re.sub(r"\s+", " ", text).strip()


def text_box(t: Text) -> Box:
    """An estimate of a text's box (left, top, right, bottom): CJK characters 1 em wide, others 0.6 em.

    The box follows the text's alignment: a centred text spreads both ways from ``x``, a left-aligned one (a real
    map's coordinate) to the right of it. A text standing on its line (``baseline="bottom"``, a phone's zone name on
    the zone's border) reaches up from it.

    >>> from typhoon_edu.ui.scene import Text
    >>> text_box(Text(x=50, y=20, text="臺灣", size=10))
    (40.0, 15.5, 60.0, 24.5)
    >>> text_box(Text(x=50, y=20, text="臺灣", size=10, baseline="bottom"))[1:4:2]
    (11.0, 20.0)
    >>> text_box(Text(x=50, y=20, text="臺灣", size=10, align="left"))[0:3:2]
    (50.0, 70.0)
    """
    width = sum(t.size * (1.0 if ord(c) > 0x2E80 else 0.6) for c in t.text)
    if t.max_width is not None:
        width = min(width, t.max_width)
    left = float({"left": t.x, "right": t.x - width}.get(t.align, t.x - width / 2))
    centre = {"bottom": t.y - t.size * 0.45, "top": t.y + t.size * 0.45}.get(t.baseline, t.y)
    return (left, centre - t.size * 0.45, left + width, centre + t.size * 0.45)


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes share some area (touching edges do not).

    >>> overlaps((0, 0, 10, 10), (5, 5, 15, 15)), overlaps((0, 0, 10, 10), (10, 0, 20, 10))
    (True, False)
    """
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def narrow_css(view: str, wide: str, phone: str, narrow_px: float, *, also: Sequence[str] = ()) -> str:
    """A ``<style>`` that shows a map's phone drawing (class ``phone``) instead of its usual one (``wide``) where the
    element of class ``view`` is narrower than ``narrow_px`` CSS px, and the elements of the classes ``also`` there too.

    A container query, so the map's own width decides (beside a lesson's controls or the game board on a laptop, alone
    on a phone); a browser without container queries shows the usual drawing.

    >>> css = narrow_css("m", "m-wide", "m-phone", 700)
    >>> "@container (max-width: 699.98px)" in css, ".m .m-phone { display: none !important; }" in css
    (True, True)
    """
    shown = ", ".join(f".{view} .{name}" for name in (phone, *also))
    return (f"<style>\n.{view} {{ container-type: inline-size; }}\n.{view} .{phone} {{ display: none !important; }}\n"
            f"@container (max-width: {narrow_px - 0.02}px) {{\n  .{view} .{wide} {{ display: none !important; }}\n"
            f"  {shown} {{ display: block !important; }}\n}}\n</style>")


__all__ = ["LEGIBLE_PX", "PHONE_MAP_PX", "Box", "board_text", "cell_text", "heat_text", "html_text", "narrow_css",
           "overlaps", "path_text", "storm_text", "text_box", "what_is_at"]
