"""The HP panel: every region's HP as a patterned bar, named with its player, the active one marked.

>>> from typhoon_edu.engine.rules import load_rules
>>> from typhoon_edu.ui.classplay.model import SeatInfo
>>> rules = load_rules()
>>> seats = {"Taiwan": SeatInfo("Taiwan", "person", "Mei"), "Japan": SeatInfo("Japan", "greedy")}
>>> html = hp_panel_html(rules, {"Taiwan": 12, "Japan": 0}, seats, "en", active="Taiwan")
>>> "Mei (Taiwan)" in html and "typhoon-active" in html and "typhoon-out" in html
True
>>> html.count("typhoon-hp-fill-pale")  # Japan's near-white bar is outlined
1
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING

from ... import i18n
from ..hp_track import CSS_PATTERNS
from ..palette import is_pale, region_fill
from .model import Seats, seat_label

if TYPE_CHECKING:
    from ...engine.rules import Rules


def hp_panel_html(rules: Rules, hp: Mapping[str, int], seats: Seats, lang: str, active: str | None = None) -> str:
    """The panel as HTML: one row per seat in seat order, bar colour + pattern + number (not colour alone)."""
    rows = []
    for key in seats:
        region = rules.regions[key]
        value = int(hp.get(key, region.hp))
        pct = max(0.0, min(100.0, 100.0 * value / region.hp)) if region.hp else 0.0
        fill = f"{CSS_PATTERNS.get(region.pattern, 'none')},{region_fill(region)}"
        text = i18n.t("hp.value", lang, hp=value, max=region.hp)
        if value <= 0:
            text = i18n.t("hp.out", lang)
        cls = "typhoon-hp-row" + (" typhoon-active" if key == active else "") + (" typhoon-out" if value <= 0 else "")
        name = seat_label(seats, key, lang)
        # a pale region (Japan, near white): the filled part outlined, or a full bar looks empty from the back row
        fill_cls = "typhoon-hp-fill typhoon-hp-fill-pale" if is_pale(region_fill(region)) else "typhoon-hp-fill"
        rows.append(f"<div class='{cls}' data-region='{escape(key)}' data-hp='{value}'>"
                    f"<span class='typhoon-hp-name' title='{escape(name)}'>{_name_html(name)}</span>"
                    f"<span class='typhoon-hp-bar'><span class='{fill_cls}' style='width:{pct:.1f}%;background:{fill}'>"
                    f"</span></span><span class='typhoon-hp-value'>{escape(text)}</span></div>")
    return "".join(rows)


def _name_html(label: str) -> str:
    """A seat's label with its bracketed part (the region, or "computer, hard") smaller, so that a long label
    takes two lines at most on a narrow panel.

    >>> _name_html("Korea (computer, hard)")
    "Korea <span class='typhoon-hp-detail'>(computer, hard)</span>"
    >>> _name_html("Mei（臺灣）"), _name_html("Taiwan")
    ("Mei<span class='typhoon-hp-detail'>（臺灣）</span>", 'Taiwan')
    """
    cut = min((i for i in (label.find("("), label.find("（")) if i > 0), default=-1)
    if cut < 0:
        return escape(label)
    return f"{escape(label[:cut])}<span class='typhoon-hp-detail'>{escape(label[cut:])}</span>"
