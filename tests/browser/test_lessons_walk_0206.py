"""Lessons 02-06 walked as a student on a phone (390x844, touch): what a walk found, checked in one page load each.

Lesson 02: the staircase's key keeps each line sample beside its words (on a phone "compass direction" wrapped to
the next line and left its dotted sample at the end of the line above), and the landing puzzle answered with the cell
pad says right or wrong on the screen, not only in the text above the map.

Lesson 05 on a laptop, keyboard only: "Run 20,000 storms" (Enter) disables itself until the next prediction; the focus
went on to the next control of the page, part 2's table, and the page scrolled the verdict off the screen. It goes to
the explorer's heat map instead, and the page stays where it was (the verdict is right under the button).

Lesson 06 on a phone: the directions chart and the regions chart were 5–8 px words (upright bars 640 units wide, shrunk
to the phone); they are at least 11 px now, while the ring is played by taps and the region prediction is locked in.
Lesson 05 on a phone: the heat map's legend (its note was ~5 px on the canvas) is HTML, at least 11 px.

Screenshots: ``artifacts/screenshots/walk-l02-<lang>.png``, ``walk-l05-run-<lang>.png``, ``walk-l06-ring-<lang>.png``,
``walk-l06-reach-<lang>.png``, ``walk-l05-legend-<lang>.png``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.lessons.common import lt

from .harness import REPO_ROOT, save_screenshot
from .keyboard_helpers import focused
from .langs import flow_langs
from .test_a11y_keyboard import open_lesson
from .touch_helpers import RULES, touch_page, touch_tap

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# For each entry of the staircase's key (found by its words): how many lines its text runs to (distinct tops of its
# line boxes).
_KEY_LINES_JS = """words => words.map(w => {
  const b = [...document.querySelectorAll('.jp-OutputArea-output b')].find(e => e.textContent.includes(w));
  if (!b) return [w, 0];
  const range = document.createRange(); range.selectNodeContents(b);
  return [w, new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size];
})"""


def _phone(voila: Callable[..., VoilaProcess], browser: Browser, notebook: str, lang: str) -> Page:
    server = voila(REPO_ROOT / "notebooks" / lang / notebook, lang=lang, timeout=120)
    page = touch_page(browser, PHONE, locale=lang)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(".quiz-option").first).to_be_visible(timeout=120_000)
    return page


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_lesson02_staircase_key_and_puzzle_verdict_on_a_phone(voila: Callable[..., VoilaProcess],
                                                             chromium_browser: Browser, lang: str) -> None:
    page = _phone(voila, chromium_browser, "02_grid_pathing.ipynb", lang)
    page.get_by_text(lt("pathing.legend_bearing", lang)).first.scroll_into_view_if_needed()
    lines = page.evaluate(_KEY_LINES_JS, [lt(f"pathing.legend_{k}", lang) for k in ("stairs", "straight", "bearing")])
    assert len(lines) == 3 and all(n == 1 for _, n in lines), f"the staircase's key on a phone ({lang}): {lines}"
    touch_tap(page, page.get_by_role("button", name=lt("pathing.puzzle_button", lang)))
    page.wait_for_timeout(500)
    choose = page.locator(".te-pad-choose").first
    touch_tap(page, choose)  # the first press shows the square on the storm's eye
    page.wait_for_timeout(500)
    touch_tap(page, choose)  # the second chooses that cell (the eye's own: a wrong answer)
    # the verdict is said under the map, on the screen with the pad the finger is on
    # (the map's live region, for screen readers only, says it too)
    under_map = page.locator(".te-map-area").filter(has=page.locator(".lesson-map"))
    expect(under_map.get_by_text("✘").and_(page.locator(":not(.te-sr-only)"))).to_be_in_viewport(timeout=15_000)
    save_screenshot(page, f"walk-l02-{lang}", full_page=False)
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_lesson05_run_by_keyboard_keeps_the_verdict_in_view(voila: Callable[..., VoilaProcess],
                                                           chromium_browser: Browser, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "05", lang)
    explorer = page.locator(".risk-explorer")
    explorer.get_by_role("button", name=i18n.t("risk.preset.west", lang), exact=True).focus()
    page.keyboard.press("Enter")  # only westward
    explorer.get_by_role("button", name=i18n.region_name(RULES, "Philippines", lang), exact=True).focus()
    page.keyboard.press("Enter")  # the prediction: the Run button is enabled
    run = page.locator(".risk-run")
    expect(run).to_be_enabled()
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('risk-run')"):
            break
    top = run.bounding_box()["y"]
    page.keyboard.press("Enter")
    feedback = page.locator(".risk-feedback")
    expect(feedback).to_contain_text("✔", timeout=60_000)
    page.wait_for_timeout(1500)  # the disabled button has handed the focus on
    save_screenshot(page, f"walk-l05-run-{lang}", full_page=False)
    # the verdict is said once, by the map's live region, before the new map in words
    expect(explorer.locator(".te-map-live")).to_contain_text("✔", timeout=10_000)
    where = focused(page)
    assert page.evaluate("() => !!document.activeElement.closest('.risk-explorer canvas.te-map-canvas')"), \
        f"the focus went to {where}"
    # a laptop shows the map's usual drawing (a number in every reached cell), its texts 11 px or more
    shown = page.evaluate(_SHOWN_MAP_JS, ".risk-explorer")
    assert shown and shown[0] == "wide" and _smallest_map_text(lang, phone=False) * shown[1] >= LEGIBLE_PX, shown
    # the page stays where the student pressed Run: the verdict is right under the button
    assert abs(run.bounding_box()["y"] - top) < 2, "the page scrolled away from the Run button and its verdict"
    page.context.close()


# The smallest text a phone shows in a chart or a map's legend, in CSS px: each SVG text's font size times the SVG's
# drawn scale, and each HTML text's computed font size (what a student reads, at any screen width).
_SMALLEST_TEXT_JS = """sel => {
  const out = [];
  for (const box of document.querySelectorAll(sel)) {
    if (!box.getClientRects().length) continue;
    for (const svg of box.querySelectorAll('svg')) {
      const vb = svg.viewBox.baseVal, scale = svg.getBoundingClientRect().width / (vb && vb.width || 1);
      for (const t of svg.querySelectorAll('text')) out.push([t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale]);
    }
    for (const el of box.querySelectorAll('*:not(svg):not(svg *)')) {
      if ([...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
        out.push([el.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(el).fontSize)]);
    }
  }
  return out.sort((a, b) => a[1] - b[1]).slice(0, 4).map(([t, px]) => [t, Math.round(px * 10) / 10]);
}"""
LEGIBLE_PX = 11.0


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_lesson06_charts_legible_and_played_by_touch_on_a_phone(voila: Callable[..., VoilaProcess],
                                                                chromium_browser: Browser, lang: str) -> None:
    """Lesson 06 on a phone: the directions chart's labels and values were 5–8 px (an upright 640-unit chart shrunk to
    the phone); the fairer ring is played by taps and the chart follows; the region prediction reveals its chart."""
    page = _phone(voila, chromium_browser, "06_real_typhoons.ipynb", lang)
    chart = page.locator(".directions-chart").first
    chart.scroll_into_view_if_needed()
    smallest = page.evaluate(_SMALLEST_TEXT_JS, ".directions-chart")
    assert smallest and smallest[0][1] >= LEGIBLE_PX, f"the directions chart on a 390 px phone ({lang}): {smallest}"
    # two taps on the ring's stops (north off, west on: 7 stops again): the chart shows "your ring"
    for point in ("N", "W"):
        label = i18n.direction_name(RULES, point, lang) if lang == "zh-TW" else point
        touch_tap(page, page.locator(".ring-point", has=page.get_by_text(label, exact=True)).first)
        page.wait_for_timeout(400)
    expect(chart.get_by_text(lt("real.series_yours", lang), exact=True)).to_be_visible(timeout=15_000)
    expect(page.locator(".ring-verdict")).to_contain_text("✔", timeout=15_000)  # nearer nature than the game's
    save_screenshot(page, f"walk-l06-ring-{lang}", full_page=False)
    # the region prediction, tapped and locked in: its chart shows, legible too
    choice = page.locator(".prediction-choice button").first
    choice.scroll_into_view_if_needed()
    touch_tap(page, choice)
    touch_tap(page, page.locator(".prediction-lock").last)
    reach = page.locator(".reach-chart").first
    expect(reach).to_be_visible(timeout=15_000)
    reach.scroll_into_view_if_needed()
    smallest = page.evaluate(_SMALLEST_TEXT_JS, ".reach-chart")
    assert smallest and smallest[0][1] >= LEGIBLE_PX, f"the regions chart on a 390 px phone ({lang}): {smallest}"
    save_screenshot(page, f"walk-l06-reach-{lang}", full_page=False)
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_lesson05_heat_map_legend_legible_on_a_phone(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                                    lang: str) -> None:
    """Lesson 05 on a phone: the heat map's legend (its note 'sea blue or land grey = no storm got there' was ~5 px,
    drawn on the canvas) is HTML under the map, every word at least 11 px."""
    server = voila(REPO_ROOT / "notebooks" / lang / "05_which_coast_is_most_at_risk.ipynb", lang=lang, timeout=120)
    page = touch_page(chromium_browser, PHONE, locale=lang)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(".risk-quiz-choice").first).to_be_visible(timeout=120_000)  # lesson 05's own quiz: the last part
    legend = page.locator(".risk-explorer .heat-legend").first
    legend.scroll_into_view_if_needed()
    expect(legend).to_contain_text(i18n.t("risk.map.legend_blank", lang))
    smallest = page.evaluate(_SMALLEST_TEXT_JS, ".heat-legend")
    assert smallest and smallest[0][1] >= LEGIBLE_PX, f"the heat map's legend on a 390 px phone ({lang}): {smallest}"
    # the map's own numbers, names and coordinates (12.5-14.4 px of an 816 px canvas: ~6 px here): the page shows the
    # phone's drawing, its smallest text times the canvas's drawn scale at least 11 px
    shown = page.evaluate(_SHOWN_MAP_JS, ".risk-explorer")
    assert shown and shown[0] == "phone", f"the heat map drawing shown on a 390 px phone ({lang}): {shown}"
    assert _smallest_map_text(lang, phone=True) * shown[1] >= LEGIBLE_PX, (shown, _smallest_map_text(lang, phone=True))
    page.locator(".risk-explorer .heat-map-phone").first.scroll_into_view_if_needed()
    save_screenshot(page, f"walk-l05-legend-{lang}", full_page=False)
    page.context.close()


# Which of the heat map's drawings the page shows (its canvas is laid out) and its scale, CSS px per canvas px.
_SHOWN_MAP_JS = """sel => {
  const c = [...document.querySelectorAll(`${sel} canvas.risk-map, ${sel} canvas.risk-map-phone`)]
    .find(e => e.getClientRects().length);
  return c && [c.classList.contains('heat-map-phone') ? 'phone' : 'wide', c.getBoundingClientRect().width / c.width];
}"""


def _smallest_map_text(lang: str, *, phone: bool) -> float:
    """The smallest text a heat map drawing has, canvas px (its numbers, names and coordinates)."""
    from typhoon_edu.ui.heatmap import HeatMapView, Text

    view = HeatMapView(RULES, None, lang)
    view.p[:] = 0.3
    return min(s.size for s in view.board_shapes(phone=phone) + view.heat_shapes(phone=phone) if isinstance(s, Text))
