"""How colours look with colour-vision deficiency, and how far apart two colours are.

* :func:`simulate` applies the matrices of Machado, Oliveira and Fernandes (2009), "A
  physiologically-based model for simulation of color vision deficiency", IEEE TVCG 15(6),
  1291–1298, at severity 1.0 (protanopia, deuteranopia, tritanopia), in linear sRGB, as their
  paper prescribes.
* :func:`delta_e` is CIEDE2000 (Sharma, Wu and Dalal 2005, "The CIEDE2000 color-difference
  formula: implementation notes"), on CIELAB D65.
* :func:`contrast_ratio` is WCAG 2's, from :func:`luminance`.
* :func:`blend` composes a translucent fill over its background, as the canvas does (a storm's
  footprint is its level colour at 35 % over the sea).

>>> round(delta_e("#ffffff", "#000000"), 1)
100.0
>>> simulate("#ff0000", "deuteranopia")
'#a39000'
>>> blend("#000000", "#ffffff", 0.5)
'#808080'
"""

from __future__ import annotations

import math

#: Machado et al. (2009), Table 1, severity 1.0: linear RGB -> simulated linear RGB.
MACHADO_2009: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
KINDS = ("normal", *MACHADO_2009)


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.strip().lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6 or any(c not in "0123456789abcdefABCDEF" for c in h):
        raise ValueError(f"a colour is written #rrggbb or #rgb, not {hex_colour!r}")
    return tuple(int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02x}" for c in rgb)


def _to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance, 0 (black) to 1 (white).

    >>> luminance("#000"), luminance("#ffffff")
    (0.0, 1.0)
    """
    r, g, b = (_to_linear(c) for c in _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (the same) to 21 (black on white).

    >>> round(contrast_ratio("#000000", "#ffffff"), 1), round(contrast_ratio("#0097a7", "#fff"), 2)
    (21.0, 3.51)
    """
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def simulate(hex_colour: str, kind: str) -> str:
    """``hex_colour`` as seen with ``kind`` (``"normal"``, ``"protanopia"``, ``"deuteranopia"``, ``"tritanopia"``)."""
    if kind == "normal":
        return _hex(_rgb(hex_colour))
    if kind not in MACHADO_2009:
        raise ValueError(f"unknown colour vision {kind!r}: choose from {', '.join(KINDS)}")
    lin = [_to_linear(c) for c in _rgb(hex_colour)]
    out = tuple(_to_srgb(sum(m * v for m, v in zip(row, lin, strict=True))) for row in MACHADO_2009[kind])
    return _hex(out)  # type: ignore[arg-type]


def blend(fg: str, bg: str, alpha: float) -> str:
    """``fg`` drawn at opacity ``alpha`` over ``bg`` (in sRGB, as a 2-D canvas does)."""
    f, b = _rgb(fg), _rgb(bg)
    return _hex(tuple(alpha * x + (1 - alpha) * y for x, y in zip(f, b, strict=True)))  # type: ignore[arg-type]


def _lab(hex_colour: str) -> tuple[float, float, float]:
    r, g, b = (_to_linear(c) for c in _rgb(hex_colour))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str, b: str) -> float:
    """CIEDE2000 colour difference of two sRGB colours (about 2.3 is "just noticeable")."""
    return delta_e_lab(_lab(a), _lab(b))


def delta_e_lab(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 of two CIELAB colours.

    >>> round(delta_e_lab((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 4)  # Sharma et al., pair 1
    2.0425
    """
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cbar = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    else:
        dhp = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dHp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbarp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbarp = (h1p + h2p) / 2
    else:
        hbarp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbarp - 30)) + 0.24 * math.cos(math.radians(2 * hbarp))
         + 0.32 * math.cos(math.radians(3 * hbarp + 6)) - 0.20 * math.cos(math.radians(4 * hbarp - 63)))
    dtheta = 30 * math.exp(-(((hbarp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp**7 / (cbarp**7 + 25**7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dcp / sc) * (dHp / sh))


def worst_difference(a: str, b: str) -> tuple[float, str]:
    """The smallest CIEDE2000 difference of ``a`` and ``b`` over normal vision and the three
    simulated deficiencies, and the vision where it occurs.

    >>> d, kind = worst_difference("#e11d48", "#16a34a"); kind, d < delta_e("#e11d48", "#16a34a")
    ('deuteranopia', True)
    """
    return min((delta_e(simulate(a, k), simulate(b, k)), k) for k in KINDS)


__all__ = ["KINDS", "MACHADO_2009", "blend", "delta_e", "delta_e_lab", "simulate", "worst_difference"]
