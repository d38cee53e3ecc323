"""The maps in words: what a screen reader says for a board, a cell under the keyboard cursor, a path.

Built from the same :class:`~typhoon_edu.ui.state.BoardState` the painter draws, in the page's
language (the ``maptext.*`` strings of the catalogs).

>>> from typhoon_edu.engine.rules import load_rules
>>> from typhoon_edu.ui.state import BoardState, TyphoonView
>>> rules = load_rules()
>>> state = BoardState(typhoons=(TyphoonView(1, (8, 8), 3, "NNW"),), highlights=((8, 8),))
>>> board_text(rules, state, "en")  # doctest: +ELLIPSIS
'Typhoon Alert map, 16 by 12 cells. 1 typhoons: T1, ..., at (8, 8), heading north-northwest. 1 cells can be chosen now.'
>>> cell_text(rules, state, (8, 8), "zh-TW")
'游標在 (8, 8)：生成區 1；T1，中度颱風，在 (8, 8)，往北北西前進 在這裡；可以選。'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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


def board_text(rules: Rules, state: BoardState, lang: str = "en", keys: bool = False) -> str:
    """The whole map in a few sentences (the canvas's ``aria-label``); ``keys`` adds how to use it."""
    if state.typhoons:
        listed = i18n.t("maptext.list_sep", lang).join(storm_text(rules, ty, lang) for ty in state.typhoons)
        storms = i18n.t("maptext.storms", lang, count=len(state.typhoons), list=listed)
    else:
        storms = i18n.t("maptext.no_storms", lang)
    parts = [i18n.t("maptext.board", lang, width=rules.map.width, height=rules.map.height, storms=storms)]
    if state.highlights:
        parts.append(i18n.t("maptext.choices", lang, count=len(state.highlights)))
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


__all__ = ["board_text", "cell_text", "path_text", "storm_text", "what_is_at"]
