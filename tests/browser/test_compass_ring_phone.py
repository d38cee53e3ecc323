"""The projector's compass ring in a real page, in both languages: its codes inside their circles in the page's own
font, and on a phone a ring without names too small to read.

* at 1920×1080 the ring is the canvas with its names; each three-letter code, measured in the canvas with the font
  the painter uses (``measureText``), fits inside its circle's ring with room to spare (before: "WNW", 19 px bold,
  49 px wide in a circle 40 px across inside its ring), and each name lies inside the canvas;
* at 1366×768 and 768×1024 the canvas is still the one shown;
* at 390×844 (the projector's page on a phone, the "one computer" case) the canvas is hidden and the compact
  drawing shown instead: no names, and every text in it at least 12 px on screen (before: the canvas's names were
  7.6 px).

Screenshots: ``artifacts/screenshots/compass-ring-<size>-<lang>.png`` (the ring scrolled into view).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui import palette
from typhoon_edu.ui.classplay.screens import RING_LABEL_SCALE, RING_RATIO
from typhoon_edu.ui.compass_ring import LEGIBLE_PX, ring_scene, ring_width
from typhoon_edu.ui.scene import Circle, Text

from .harness import save_screenshot
from .test_classroom_browser import PHONE, PROJECTOR, new_page, open_one_computer_game

pytestmark = pytest.mark.browser

RULES = load_rules()

#: Each text of the ring as the painter draws it, measured in the page: advance width and the glyphs' reach above
#: and below the baseline it is drawn on.
MEASURE_JS = """([texts, family]) => { const ctx = document.createElement('canvas').getContext('2d');
  return texts.map(([text, px, bold, baseline]) => { ctx.font = `${bold ? 'bold ' : ''}${px}px ${family}`;
    ctx.textBaseline = baseline; const m = ctx.measureText(text);
    return [m.width, m.actualBoundingBoxAscent, m.actualBoundingBoxDescent]; }); }"""

#: Which of the ring's two drawings is shown, and the compact one's texts with their size on screen.
SHOWN_JS = """() => { const ring = document.querySelector('.typhoon-compass');
  const full = ring.querySelector('.typhoon-ring-full'), compact = ring.querySelector('.typhoon-ring-compact');
  const svg = compact && compact.querySelector('svg');
  const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 0;
  return {full: !!full && full.checkVisibility(), compact: !!compact && compact.checkVisibility(),
          box: ring.getBoundingClientRect().width,
          texts: svg ? [...svg.querySelectorAll('text')].map(t => [t.dataset.role, t.textContent,
                                                                  parseFloat(t.getAttribute('font-size')) * scale]) : []}; }"""


def shot(page: Page, lang: str) -> None:
    page.locator(".typhoon-compass").first.scroll_into_view_if_needed()
    size = page.viewport_size or {"width": 0, "height": 0}
    save_screenshot(page, f"compass-ring-{size['width']}x{size['height']}-{lang}", full_page=False)


def check_codes_and_names_fit(page: Page, lang: str) -> list[str]:
    """Every code inside its circle, every name inside the canvas, in the page's font; returns what was measured."""
    shapes = ring_scene(RULES, "WNW", lang, 260, label_scale=RING_LABEL_SCALE, ratio=RING_RATIO)  # WNW: bold name
    texts = [s for s in shapes if isinstance(s, Text) and s.role in ("stop-key", "stop-name")]
    measured = page.evaluate(MEASURE_JS, [[[t.text, round(t.size), t.bold, t.baseline] for t in texts], palette.FONT])
    circles = {s.key: s for s in shapes if isinstance(s, Circle) and s.role == "stop"}
    width, report, bad = ring_width(260, RING_RATIO), [], []
    for t, (advance, ascent, descent) in zip(texts, measured, strict=True):
        if t.role == "stop-key":
            c = circles[t.key]
            inner = c.r - c.line_width / 2
            corner = ((advance / 2) ** 2 + max(ascent, descent) ** 2) ** 0.5
            report.append(f"{t.text} {advance:.1f} px in {2 * inner:.1f}")
            if advance > 2 * inner - 4 or corner > inner - 1:
                bad.append(f"{t.text}: {advance:.1f} px wide (corner {corner:.1f}) in a circle {2 * inner:.1f} across")
        else:
            x0 = t.x if t.align == "left" else t.x - advance if t.align == "right" else t.x - advance / 2
            if x0 < 0 or x0 + advance > width or t.y - ascent < 0 or t.y + descent > 260:
                bad.append(f"{t.text!r} leaves the canvas: x {x0:.1f}..{x0 + advance:.1f}, ascent {ascent:.1f}")
    assert not bad, f"{lang}: {bad}"
    return report


@pytest.mark.parametrize("server", ["en", "zh-TW"], indirect=True)
def test_ring_codes_fit_and_a_phone_gets_a_readable_ring(server, chromium_browser: Browser) -> None:
    proc, _store = server
    lang = proc.lang
    page = new_page(chromium_browser, PROJECTOR)
    open_one_computer_game(page, proc, lang)
    expect(page.locator(".typhoon-compass .typhoon-ring-full")).to_be_visible(timeout=30_000)
    page.wait_for_timeout(800)
    shown = page.evaluate(SHOWN_JS)
    assert shown["full"] and not shown["compact"], f"1920x1080: {shown}"
    check_codes_and_names_fit(page, lang)
    shot(page, lang)
    for size in ({"width": 1366, "height": 768}, {"width": 768, "height": 1024}):
        page.set_viewport_size(size)
        page.wait_for_timeout(400)
        shown = page.evaluate(SHOWN_JS)
        assert shown["full"] and not shown["compact"], f"{size}: the ring's names are readable here: {shown}"
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(600)
    shown = page.evaluate(SHOWN_JS)
    assert shown["compact"] and not shown["full"], f"390x844: the ring with names too small to read: {shown}"
    roles = {role for role, _text, _px in shown["texts"]}
    assert "stop-name" not in roles and set(RULES.ring) <= {text for _r, text, _px in shown["texts"]}
    small = [(text, round(px, 1)) for _role, text, px in shown["texts"] if px < LEGIBLE_PX]
    assert not small, f"390x844: text in the ring under {LEGIBLE_PX} px: {small} (box {shown['box']:.0f} px)"
    label = page.locator(".typhoon-compass").inner_text()  # the label under the ring still names the stop
    assert any(i18n.direction_name(RULES, k, lang) in label for k in RULES.ring), label
    shot(page, lang)
