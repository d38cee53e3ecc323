"""The maps in words: what a screen reader says for a board, a cell under the keyboard cursor, a path.

Built from the same :class:`~typhoon_edu.ui.state.BoardState` the painter draws, in the page's
language (the ``maptext.*`` strings of the catalogs).

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
from typing import TYPE_CHECKING, Any

from .. import i18n
from .geometry import Cell
from .state import BoardState, TyphoonView

if TYPE_CHECKING:
    from ..engine.rules import Rules


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


__all__ = ["board_text", "cell_text", "heat_text", "html_text", "path_text", "storm_text", "what_is_at"]
