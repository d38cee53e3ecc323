"""The HP track: every region's HP against its maximum, as a coloured, patterned, labelled bar.

>>> from typhoon_edu.engine.rules import load_rules
>>> rows = hp_rows(load_rules(), {"Taiwan": 19, "Japan": 0}, "zh-TW")
>>> [(r.name, r.hp, r.max, r.out) for r in rows]
[('臺灣', 19, 42, False), ('日本', 0, 41, True)]
>>> HPTrack(hp={"Taiwan": 42}).rows[0].fraction
1.0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from .. import i18n
from . import palette

if TYPE_CHECKING:
    from ..engine.rules import Rules

# CSS versions of the map's region patterns, so the bar carries the same non-colour cue.
_INK = "rgba(15,23,42,.35)"
CSS_PATTERNS = {
    "dots": f"radial-gradient({_INK} 22%, transparent 24%) 0 0/10px 10px",
    "stripes": f"repeating-linear-gradient(0deg, {_INK} 0 2px, transparent 2px 8px)",
    "diagonal": f"repeating-linear-gradient(45deg, {_INK} 0 2px, transparent 2px 9px)",
    "crosshatch": f"repeating-linear-gradient(45deg, {_INK} 0 2px, transparent 2px 9px), "
                  f"repeating-linear-gradient(-45deg, {_INK} 0 2px, transparent 2px 9px)",
    "waves": f"repeating-radial-gradient(circle at 0 100%, transparent 0 5px, {_INK} 5px 7px, transparent 7px 10px)",
    "grid": f"linear-gradient({_INK} 2px, transparent 2px) 0 0/10px 10px, linear-gradient(90deg, {_INK} 2px, transparent 2px) 0 0/10px 10px",
}


@dataclass(frozen=True)
class HPRow:
    key: str
    name: str
    hp: int
    max: int
    colour: str
    pattern: str

    @property
    def fraction(self) -> float:
        return max(0.0, min(1.0, self.hp / self.max)) if self.max else 0.0

    @property
    def out(self) -> bool:
        return self.hp <= 0


def hp_rows(rules: Rules, hp: Mapping[str, int], lang: str = "en", regions: Iterable[str] | None = None) -> list[HPRow]:
    """One row per region in ``regions`` (default: the keys of ``hp``, in the edition's order)."""
    keys = list(regions) if regions is not None else [k for k in rules.regions if k in hp]
    rows = []
    for key in keys:
        region = rules.regions[key]
        rows.append(HPRow(key, i18n.region_name(rules, key, lang), int(hp.get(key, region.hp)), region.hp, palette.region_fill(region),
                          region.pattern))
    return rows


def row_html(row: HPRow, lang: str = "en") -> str:
    """One bar as HTML: the name, the bar (colour + pattern) and ``hp / max`` written out."""
    pct = round(row.fraction * 100, 1)
    pattern = CSS_PATTERNS.get(row.pattern, "none")
    value = i18n.t("hp.value", lang, hp=row.hp, max=row.max)
    if row.out:
        value += f" · {i18n.t('hp.out', lang)}"
    name_style = "text-decoration:line-through;color:#64748b" if row.out else ""
    return (
        f"<div style='display:flex;align-items:center;gap:.6em;margin:.15em 0;font-size:1.1em' data-region='{row.key}'>"
        f"<span style='flex:0 0 7em;font-weight:bold;{name_style}'>{escape(row.name)}</span>"
        f"<span style='flex:1 1 auto;height:1.3em;border:2px solid {palette.INK};border-radius:4px;background:#f8fafc;"
        f"position:relative;overflow:hidden'>"
        f"<span style='position:absolute;left:0;top:0;bottom:0;width:{pct}%;background:{pattern},{row.colour}'></span></span>"
        f"<span style='flex:0 0 6.5em;font-variant-numeric:tabular-nums;font-weight:bold'>{escape(value)}</span></div>"
    )


class HPTrack(widgets.VBox):
    """Every region's HP against its maximum. ``update(hp)`` takes a dict or a game (``.hp``)."""

    def __init__(self, rules: Rules | None = None, hp: Mapping[str, int] | None = None, lang: str = "en",
                 regions: Iterable[str] | None = None, **kwargs: Any) -> None:
        if rules is None:
            from ..engine.rules import load_rules

            rules = load_rules()
        title = widgets.HTML()
        body = widgets.HTML()
        super().__init__(children=[title, body], **kwargs)
        self.rules = rules
        self.lang = i18n.normalize_lang(lang)
        self.regions = list(regions) if regions is not None else None
        self.hp: dict[str, int] = dict(hp) if hp is not None else {k: r.hp for k, r in rules.regions.items()}
        self.title = title
        self.body = body
        self._render()

    @property
    def rows(self) -> list[HPRow]:
        return hp_rows(self.rules, self.hp, self.lang, self.regions)

    def update(self, hp_or_game: Any) -> None:  # type: ignore[override]
        """New HP values: a ``{region: hp}`` dict, or a game with ``.hp``."""
        hp = getattr(hp_or_game, "hp", hp_or_game)
        self.hp = {str(k): int(v) for k, v in dict(hp).items()}
        self._render()

    def to_html(self) -> str:
        return f"<div><b>{escape(i18n.t('hp.title', self.lang))}</b>" + "".join(row_html(r, self.lang) for r in self.rows) + "</div>"

    def _render(self) -> None:
        self.title.value = f"<b style='font-size:1.2em'>{escape(i18n.t('hp.title', self.lang))}</b>"
        self.body.value = "".join(row_html(r, self.lang) for r in self.rows)

    def set_lang(self, lang: str) -> None:
        self.lang = i18n.normalize_lang(lang)
        self._render()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self.to_html()
        return data
