"""The projector's big die: every roll is shown and animated, the computer's rolls too.

The die is an SVG drawn from its face (pips, not a font glyph, so it is crisp at any size and
looks the same in every browser). A roll re-creates the element with a CSS tumble animation, so
the browser plays it without any frames sent from the kernel; :attr:`BigDie.seconds` says how
long it lasts, so the caller waits that long before narrating the result.

>>> die = BigDie(lang="en")
>>> die.roll(4, purpose="move", typhoon=2)
0.9
>>> die.face, die.caption
(4, 'T2 moves: the die shows 4.')
>>> 'data-face="4"' in die.value and "typhoon-die-tumble" in die.value
True
>>> die.roll(3, purpose="direction", typhoon=1, speed=0)  # no animation: the face at once
0.0
"""

from __future__ import annotations

import itertools
from html import escape
from typing import Any

import ipywidgets as widgets

from ... import i18n

#: Seconds a roll tumbles at speed 1.
ROLL_SECONDS = 0.9

# Pip centres on a 100 x 100 die, per face.
#: Purposes of a roll (DieRolled.purpose) with a caption of their own (classplay.die.<purpose>)
_CAPTIONED = frozenset({"move", "direction", "zone", "cell", "zone_again", "cell_again"})
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((50, 50),),
    2: ((28, 28), (72, 72)),
    3: ((28, 28), (50, 50), (72, 72)),
    4: ((28, 28), (72, 28), (28, 72), (72, 72)),
    5: ((28, 28), (72, 28), (50, 50), (28, 72), (72, 72)),
    6: ((28, 26), (72, 26), (28, 50), (72, 50), (28, 74), (72, 74)),
}
_nonce = itertools.count(1)


def die_svg(face: int | None, size: int = 120, title: str = "") -> str:
    """An SVG die showing ``face`` (1–6), or a blank die for ``None``.

    >>> svg = die_svg(5, 64, "five")
    >>> svg.count("<circle"), 'width="64"' in svg, "<title>five</title>" in svg
    (5, True, True)
    """
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="9" fill="#0f172a"/>' for x, y in _PIPS.get(face or 0, ()))
    colour = "#ffffff" if face else "#f1f5f9"
    label = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg class="typhoon-die-svg" viewBox="0 0 100 100" width="{size}" height="{size}" role="img" '
            f'aria-label="{escape(title)}">{label}<rect x="4" y="4" width="92" height="92" rx="16" fill="{colour}" '
            f'stroke="#0f172a" stroke-width="5"/>{pips}</svg>')


class BigDie(widgets.HTML):
    """A large die with a caption (``T2 moves: the die shows 4.``) for the projector and the seats."""

    def __init__(self, lang: str = "en", size: int = 120, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("typhoon-bigdie")
        self.lang = i18n.normalize_lang(lang)
        self.size = size
        self.face: int | None = None
        self.purpose = ""
        self.typhoon: int | None = None
        self._render(animate=0.0)

    @property
    def caption(self) -> str:
        """What the die was rolled for, and its face, in the die's language."""
        if self.face is None:
            return i18n.t("classplay.die.waiting", self.lang)
        key = f"classplay.die.{self.purpose}" if self.purpose in _CAPTIONED else "die.result"
        return i18n.t(key, self.lang, face=self.face, typhoon=i18n.typhoon_label(self.typhoon, self.lang))

    def roll(self, face: int, purpose: str = "", typhoon: int | None = None, speed: float = 1.0) -> float:
        """Show a roll of ``face``; returns how many seconds its animation takes (0 at speed 0)."""
        if face not in _PIPS:
            raise ValueError(f"a die face is a whole number from 1 to 6, not {face!r}")
        self.face, self.purpose, self.typhoon = face, purpose, typhoon
        seconds = round(ROLL_SECONDS / speed, 3) if speed > 0 else 0.0
        self._render(animate=seconds)
        return seconds

    def clear(self) -> None:
        """Back to a blank die (a new game)."""
        self.face, self.purpose, self.typhoon = None, "", None
        self._render(animate=0.0)

    def set_lang(self, lang: str) -> None:
        self.lang = i18n.normalize_lang(lang)
        self._render(animate=0.0)

    def _render(self, animate: float) -> None:
        # A fresh id on every roll makes the browser build a new element, so the CSS animation replays.
        style = f' style="animation-duration:{animate}s"' if animate else ""
        cls = "typhoon-die-face typhoon-die-tumble" if animate else "typhoon-die-face"
        face = "" if self.face is None else str(self.face)
        self.value = (f'<div class="typhoon-bigdie-box" id="typhoon-die-{next(_nonce)}" data-face="{face}">'
                      f'<div class="{cls}"{style}>{die_svg(self.face, self.size, self.caption)}</div>'
                      f'<div class="typhoon-die-caption">{escape(self.caption)}</div></div>')


#: The tumble: a spin, a bounce and a settle; the layout CSS in theme.py sizes the box.
DIE_CSS = """
@keyframes typhoon-die-tumble {
  0% { transform: translateY(-30%) rotate(-320deg) scale(.55); filter: blur(2px); }
  55% { transform: translateY(6%) rotate(25deg) scale(1.08); filter: blur(0); }
  75% { transform: translateY(-3%) rotate(-8deg) scale(.98); }
  100% { transform: none; }
}
.typhoon-die-tumble { animation-name: typhoon-die-tumble; animation-timing-function: ease-out; animation-fill-mode: both; }
.typhoon-bigdie-box { display: flex; flex-direction: column; align-items: center; gap: .3em; }
.typhoon-die-caption { font-weight: bold; text-align: center; min-height: 2.6em; }
"""
