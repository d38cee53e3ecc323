"""Lesson boards on a tablet: a finger's tap (touch events only, no mouse) acts once.

Lesson 02's landing puzzle is answered with one tap, lesson 03's sandbox places a storm with one
tap (a second action from the same tap would remove it again: the map's text would still say
three storms). The page counts mouse events and must see none.
Screenshots: ``artifacts/screenshots/touch-lesson-<nn>-<lang>.png``. On a phone lesson 02's map shows its phone
drawing, every text (the puzzle path's step numbers too) at least 11 CSS px, and the usual drawing again once the
window is a laptop's (``touch-lesson-02-map-<lang>.png``, ``touch-lesson-02-map-laptop-<lang>.png``).

On a phone (390x844, touch) every control of every lesson a finger taps is at least 44x44 CSS px (WCAG 2.5.5):
buttons, menus, text fields, sliders' handles and checkboxes with their labels
(``artifacts/screenshots/touch-targets-<nn>-<lang>.png``); every slider keeps a track to drag along and its whole
label, and every text field shows its whole example (placeholder). Lesson 04 (opened at the teacher's address) then
starts a game: its map shows every text at least 11 CSS px, whole, and the die stays on the screen
(``touch-lesson-04-board-<lang>.png``; JupyterLab at 1366x768 beside the file browser: test_a11y_keyboard.py). In lessons 02, 03, 06 and 07 no line ends between a
number and its unit (``15.1 °N``, ``121 公里``) (``artifacts/screenshots/touch-units-<nn>-<lang>.png``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.server.serve import VoilaProcess

from .harness import REPO_ROOT, assert_canvas_not_blank, save_screenshot
from .langs import flow_langs, lesson_cases
from .teacher_page import teacher_url
from .touch_helpers import FINGER_PX, cut_pictures, mouse_events, small_targets, touch_cell, touch_page, touch_tap

pytestmark = pytest.mark.browser

TABLET = {"width": 1024, "height": 1366}
PHONE = {"width": 390, "height": 844}
#: Each lesson's notebook and what shows once the whole notebook has run (its quiz is near the end).
LESSONS = {
    "01": ("01_compass_rolls.ipynb", ".quiz-option"),
    "02": ("02_grid_pathing.ipynb", ".quiz-option"),
    "03": ("03_typhoon_intensity.ipynb", ".quiz-option"),
    "04": ("04_full_game.ipynb", ".quiz-option"),
    "05": ("05_which_coast_is_most_at_risk.ipynb", ".risk-quiz"),
    "06": ("06_real_typhoons.ipynb", ".quiz-option"),
    "07": ("07_forecast_challenge.ipynb", ".quiz-option"),
}
PUZZLE = {"en": "New puzzle", "zh-TW": "新題目"}
#: The shortest track a slider may keep on a phone, in CSS px: a finger drags its 44 px handle along at least this
#: (lesson 02's and 03's speed sliders had shrunk to their handle beside "Skip", a 0 px track).
MIN_TRACK_PX = 120

# Every visible slider inside ``within`` whose track is shorter than ``min`` px or whose label is cut off, with its
# sizes. The track is noUiSlider's bar (ipywidgets 8); the label is the slider's description.
_SHORT_SLIDERS_JS = """([within, min]) => [...document.querySelectorAll(`${within} .widget-hslider`)]
  .filter(s => s.checkVisibility() && !s.closest('.typhoon-app'))
  .flatMap(s => { const track = s.querySelector('.noUi-target'), label = s.querySelector('.widget-label');
    const width = track ? track.getBoundingClientRect().width : 0;
    const cut = label !== null && label.scrollWidth > label.clientWidth + 1;
    return width < min - 0.5 || cut ? [`slider "${label ? label.textContent : ''}": track ${Math.round(width)} px`
      + (cut ? `, label cut (${label.scrollWidth} px in ${label.clientWidth})` : '')] : []; })"""

# Every visible one-line text field inside ``within`` whose placeholder (its example, shown while it is empty) is wider
# than the box's inside: the browser cuts it at the edge, and an input's scrollWidth does not count it, so the text
# is measured in the placeholder's own font. A textarea wraps its placeholder and is left out.
_CUT_PLACEHOLDERS_JS = """within => [...document.querySelectorAll(`${within} input[placeholder]`)]
  .filter(i => i.checkVisibility() && !i.closest('.typhoon-app') && i.placeholder.trim().replace(/\\u200b/g, ''))
  .flatMap(i => { const st = getComputedStyle(i), ph = getComputedStyle(i, '::placeholder');
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${ph.fontStyle} ${ph.fontWeight} ${ph.fontSize} ${ph.fontFamily}`;
    const text = ctx.measureText(i.placeholder).width;
    const inside = i.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
    return text > inside + 0.5 ? [`text field "${i.placeholder}": ${Math.round(text)} px of text in ${Math.round(inside)} px`]
      : []; })"""

# Every number followed by a space and a unit in the visible text inside ``within`` (°N, °E, °C, km, km/h, hPa, kt, h,
# m/s, m; 度, 公里, 百帕, 節, 小時, 公尺: the units of typhoon_edu.ui.lessons.common.keep_units): how many there are,
# and those whose number ends one line and whose unit starts the next (their tops differ), each with the last class
# of the nearest element around it that has one.
_SPLIT_UNITS_JS = """within => { const split = [],
    units = /(\\d+(?:\\.\\d+)?)\\s(°[NEC]?|km\\/h|km\\b|hPa|kt\\b|knots?\\b|h\\b|m\\/s|mm\\b|min\\b|m\\b|%|度|公里|百帕|節|小時|公尺|毫米|分鐘)/g;
  let pairs = 0;
  for (const root of document.querySelectorAll(within)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.parentElement.checkVisibility()) continue;
      for (const m of n.data.matchAll(units)) {
        const rect = (from, to) => { const r = document.createRange(); r.setStart(n, from); r.setEnd(n, to);
                                     return r.getClientRects()[0]; };
        const end = m.index + m[0].length, number = rect(m.index, m.index + m[1].length), unit = rect(end - m[2].length, end);
        if (!number || !unit) continue;
        pairs += 1;
        if (Math.abs(number.top - unit.top) > 2)
          split.push(`"${m[0]}" in .${[...(n.parentElement.closest('[class]') || root).classList].slice(-1)[0]}: `
            + `number at y ${Math.round(number.top)}, unit at y ${Math.round(unit.top)}`);
      }
    }
  }
  return {pairs, split}; }"""


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_landing_puzzle_by_touch(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    server = voila(REPO_ROOT / "notebooks" / lang / "02_grid_pathing.ipynb", lang=lang, timeout=120)
    page = touch_page(chromium_browser, TABLET)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(".quiz-option").first).to_be_visible(timeout=120_000)
    assert_canvas_not_blank(page, ".lesson-map", timeout=30)
    page.get_by_role("button", name=PUZZLE[lang]).tap()
    scores = [i18n.t("lesson.pathing.puzzle_score", lang, right=r, total=1) for r in (0, 1)]
    answered = page.get_by_text(scores[0]).or_(page.get_by_text(scores[1]))
    expect(answered).to_have_count(0)
    touch_cell(page, ".lesson-map", (9, 6), 44)
    expect(answered.first).to_be_visible(timeout=15_000)  # one puzzle answered, once
    # the map's own text follows: the live region says which cell was chosen
    expect(page.locator(".te-map-live").first).to_contain_text(i18n.cell_label((9, 6), lang), timeout=5_000)
    assert mouse_events(page) == 0, "a mouse event reached the page: the test did not test touch"
    save_screenshot(page, f"touch-lesson-02-{lang}", full_page=False)
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_sandbox_by_touch(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    server = voila(REPO_ROOT / "notebooks" / lang / "03_typhoon_intensity.ipynb", lang=lang, timeout=120)
    page = touch_page(chromium_browser, TABLET)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(".quiz-option").first).to_be_visible(timeout=120_000)
    assert_canvas_not_blank(page, ".sandbox-map", timeout=30)
    sandbox = page.locator("canvas.sandbox-map").first
    expect(sandbox).to_have_attribute("aria-label", _storms(3, lang), timeout=15_000)
    touch_cell(page, ".sandbox-map", (14, 2), 44)
    # said above the map and under it (and in the map's live region, for screen readers only)
    placed = page.get_by_text(i18n.t("lesson.intensity.sandbox_placed", lang, cell=i18n.cell_label((14, 2), lang),
                                     level=_level3(lang)))
    expect(placed.and_(page.locator(":not(.te-sr-only)")).first).to_be_visible(timeout=15_000)
    page.wait_for_timeout(1500)  # a second action from the same tap would remove the storm again
    expect(sandbox).to_have_attribute("aria-label", _storms(4, lang))
    assert mouse_events(page) == 0
    save_screenshot(page, f"touch-lesson-03-{lang}", full_page=False)
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_landing_puzzle_by_the_cell_pad_on_a_phone(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                                   lang: str) -> None:
    """A phone's map cells are about 21 px: the pad under the map (arrows, then "Choose this cell") answers the
    puzzle with fingertip-sized taps; on a laptop the pad is not there (a click on the map does it)."""
    from typhoon_edu.ui.lessons.pathing import landing_puzzles

    server = voila(REPO_ROOT / "notebooks" / lang / "02_grid_pathing.ipynb", lang=lang, timeout=120)
    page = touch_page(chromium_browser, PHONE, locale=lang)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(".quiz-option").first).to_be_visible(timeout=120_000)
    pad = page.locator(".te-cell-pad").first
    expect(pad).to_be_visible()
    touch_tap(page, page.get_by_role("button", name=PUZZLE[lang]))
    puzzle = landing_puzzles(40, 0)[0]  # the lesson's first puzzle (seed 0)
    dx, dy = puzzle.answer[0] - puzzle.start[0], puzzle.answer[1] - puzzle.start[1]
    # the first tap shows the square on the storm's eye; then across, then down or up to the landing cell
    taps = ["right", *(["right" if dx > 0 else "left"] * abs(dx)), *(["down" if dy > 0 else "up"] * abs(dy))]
    for key in taps:
        touch_tap(page, page.get_by_role("button", name=i18n.t(f"board.pad_{key}", lang)))
        page.wait_for_timeout(150)
    expect(pad).to_contain_text(i18n.cell_label(puzzle.answer, lang), timeout=15_000)
    touch_tap(page, page.get_by_role("button", name=i18n.t("board.pad_choose", lang)))
    # the score as shown above the map and under it, beside the pad (the map's live region, for screen readers
    # only, says it too)
    shown = page.get_by_text(i18n.t("lesson.pathing.puzzle_score", lang, right=1, total=1)).and_(
        page.locator(":not(.te-sr-only)"))
    expect(shown).to_have_count(2, timeout=15_000)
    under_map = page.locator(".te-map-area").filter(has=page.locator(".lesson-map"))
    expect(under_map.locator(":not(.te-sr-only)", has_text=i18n.t(
        "lesson.pathing.puzzle_score", lang, right=1, total=1)).last).to_be_in_viewport()
    save_screenshot(page, f"touch-lesson-02-pad-{lang}", full_page=False)
    # the map shows its phone drawing: every text, the path's step numbers too, at least 11 CSS px
    _lesson02_map_drawing(page, "phone", f"touch-lesson-02-map-{lang}")
    page.set_viewport_size({"width": 1366, "height": 768})
    expect(pad).to_be_hidden()
    _lesson02_map_drawing(page, "wide", f"touch-lesson-02-map-laptop-{lang}")  # a laptop: the usual drawing again
    page.context.close()


def _lesson02_map_drawing(page: Page, drawing: str, shot: str) -> None:
    """Lesson 02's map shows ``drawing`` ("phone" or "wide"); on a phone its smallest text (pathing's phone_text px
    of canvas, tests/test_lesson02_phone_board.py) is at least 11 CSS px at the width the canvas is shown."""
    from typhoon_edu.ui.board import PHONE_BOARD_PX as PHONE_MAP_PX
    from typhoon_edu.ui.board import phone_text
    from typhoon_edu.ui.lessons.intensity import MAP_CELL
    from typhoon_edu.ui.map_text import LEGIBLE_PX

    canvas = page.locator("canvas.lesson-map").first
    expect(canvas).to_have_attribute("data-te-drawing", drawing, timeout=15_000)
    canvas.scroll_into_view_if_needed()
    save_screenshot(page, shot, full_page=False)
    if drawing == "phone":
        shown, drawn = canvas.evaluate("c => [c.getBoundingClientRect().width, c.width]")
        assert shown >= PHONE_MAP_PX - 1 and phone_text(MAP_CELL) * shown / drawn >= LEGIBLE_PX, (
            f"lesson 02's map on a 390 px phone: {shown:.0f} CSS px wide, smallest text "
            f"{phone_text(MAP_CELL) * shown / drawn:.1f} CSS px")


def _phone_lesson(voila: Callable[..., VoilaProcess], browser: Browser, lesson: str, lang: str) -> Page:
    """Lesson ``lesson`` served in ``lang`` and open on a touch phone, its widgets drawn."""
    notebook, ready = LESSONS[lesson]
    server = voila(REPO_ROOT / "notebooks" / lang / notebook, lang=lang, timeout=120)
    page = touch_page(browser, PHONE, locale=lang)
    # lesson 04's game: the class-play setup, as the teacher's address shows it (a student's has no Start)
    page.goto(teacher_url(server) if lesson == "04" else server.url, timeout=120_000)
    expect(page.locator(ready).first).to_be_visible(timeout=120_000)
    page.wait_for_timeout(1500)  # the widgets drawn after the browser connected (maps, charts) settle
    return page


@pytest.mark.parametrize(("lesson", "lang"), lesson_cases(sorted(LESSONS)))
def test_every_control_is_fingertip_sized_on_a_phone(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                                     lesson: str, lang: str) -> None:
    """Every control a finger taps in the lesson's output is at least 44x44 px on a phone (WCAG 2.5.5); every
    slider keeps a track of at least :data:`MIN_TRACK_PX` and its whole label; every text field shows its whole
    placeholder."""
    page = _phone_lesson(voila, chromium_browser, lesson, lang)
    small, cut = small_targets(page), cut_pictures(page)
    squeezed = short_sliders(page) + cut_placeholders(page)
    save_screenshot(page, f"touch-targets-{lesson}-{lang}")
    assert not small and not cut and not squeezed, (
        f"lesson {lesson} ({lang}) on a {PHONE['width']}x{PHONE['height']} phone: {len(small)} controls smaller than "
        f"{FINGER_PX}x{FINGER_PX} px:\n" + "\n".join(small) + f"\n{len(cut)} maps, charts or map keys cut off:\n"
        + "\n".join(cut) + f"\n{len(squeezed)} sliders (track under {MIN_TRACK_PX} px or label cut) and text fields "
        "whose placeholder is cut:\n" + "\n".join(squeezed))
    if lesson == "04":  # the game on this page: its map legible and whole, the die on the screen
        lesson04_board_fits(page, lang, f"touch-lesson-04-board-{lang}", tap=True)
    page.context.close()


# Lesson 04's map once a game runs: where it is on the page, the boxes that cut it off, the drawing it shows, where the
# side column starts and where the die ends.
_LESSON04_BOARD_JS = """() => { const c = document.querySelector('.typhoon-board canvas.te-board'), r = c.getBoundingClientRect();
  const clipped = [];
  for (let p = c.parentElement; p; p = p.parentElement) { const b = p.getBoundingClientRect();
    if (getComputedStyle(p).overflowX !== 'visible' && (b.right < r.right - 1 || b.left > r.left + 1))
      clipped.push(`${p.className.toString().slice(0, 50)} (${Math.round(b.left)}-${Math.round(b.right)})`); }
  const side = document.querySelector('.typhoon-side').getBoundingClientRect(), die = document.querySelector('.typhoon-bigdie');
  return {left: r.left, right: r.right, bottom: r.bottom, shown: r.width, drawn: c.width, drawing: c.dataset.teDrawing,
          side_left: side.left, side_top: side.top, die_right: die.checkVisibility() ? die.getBoundingClientRect().right : 0,
          vw: innerWidth, clipped}; }"""


def lesson04_board_fits(page: Page, lang: str, shot: str, *, tap: bool = False) -> None:
    """Lesson 04 (its page open, on the class-play setup): Start a game; its whole map is on the page (no column behind
    the side column or cut off by a box: at 1366x768 beside JupyterLab's file browser columns 13-15 hid), every text of
    the drawing it shows at least 11 CSS px (on a 390 px phone the usual drawing's coordinates were 4 px), and the
    die inside the screen (a phone's went off its right edge)."""
    from typhoon_edu.engine.rules import load_rules
    from typhoon_edu.ui.board import phone_text
    from typhoon_edu.ui.geometry import BoardGeometry
    from typhoon_edu.ui.map_text import LEGIBLE_PX
    from typhoon_edu.ui.scene import Text, static_scene

    start = page.locator(".typhoon-setup-start").first
    start.scroll_into_view_if_needed()
    if tap:
        touch_tap(page, start)
    else:
        start.click()
    canvas = page.locator(".typhoon-board canvas.te-board").first
    expect(canvas).to_have_attribute("data-te-drawing", re.compile("^(phone|wide)$"), timeout=30_000)
    canvas.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    m = page.evaluate(_LESSON04_BOARD_JS)
    rules = load_rules()
    cell = next(c for c in range(8, 200) if BoardGeometry.for_rules(rules, c).pixel_size[0] == m["drawn"])
    shown_text = phone_text(cell, rules) if m["drawing"] == "phone" else 0.0
    smallest = min(t.size for t in static_scene(rules, lang, cell, min_text=shown_text) if isinstance(t, Text))
    save_screenshot(page, shot, full_page=False)
    where = f"lesson 04 ({lang}) at {m['vw']} px: the map {m['shown']:.0f} CSS px wide, {m['drawing']} drawing"
    assert smallest * m["shown"] / m["drawn"] >= LEGIBLE_PX, (
        f"{where}: its smallest text {smallest * m['shown'] / m['drawn']:.1f} CSS px")
    assert not m["clipped"], f"{where}, cut off by {m['clipped']}"
    beside = m["side_top"] < m["bottom"] - 1
    assert not beside or m["right"] <= m["side_left"] + 1, f"{where}: columns behind the side column at x={m['side_left']:.0f}"
    assert m["die_right"] <= m["vw"] + 0.5, f"{where}: the die ends at x={m['die_right']:.0f}"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_forecast_numbers_keep_their_units_on_a_phone(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                                      lang: str) -> None:
    """Lesson 07 on a phone, once a guess is placed: in the briefing, the forecast's status, the sources and every
    other text of the challenge, no line ends between a number and its unit ("15.1" then "°N" on the next line)."""
    notebook, ready = LESSONS["07"]
    server = voila(REPO_ROOT / "notebooks" / lang / notebook, lang=lang, timeout=120)
    page = touch_page(chromium_browser, PHONE, locale=lang)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(ready).first).to_be_visible(timeout=120_000)
    typed = page.locator(".forecast-typed input").first
    typed.fill("15.1, 117.3")
    typed.press("Enter")
    status = page.locator(".forecast-status").first
    expect(status).to_contain_text("15.1", timeout=15_000)
    status.scroll_into_view_if_needed()
    found = page.evaluate(_SPLIT_UNITS_JS, ".forecast-challenge")
    save_screenshot(page, f"touch-units-07-{lang}", full_page=False)
    # the briefing (centre, pressure, wind, motion), the status (24 h: 15.1 °N, 117.3 °E) and the sources
    assert found["pairs"] >= 10, f"only {found['pairs']} numbers with a unit found: the check did not look"
    assert not found["split"], (f"lesson 07 ({lang}) on a {PHONE['width']} px phone: {len(found['split'])} numbers "
                                "split from their unit:\n" + "\n".join(found["split"]))
    page.context.close()


#: The lessons besides 07 whose texts, tables and quizzes show numbers with units, each with how many such numbers
#: the check must at least find once its predictions are locked in and its quiz answered (so that it looked).
UNIT_LESSONS: dict[str, int] = {"02": 15, "03": 10, "06": 25}


@pytest.mark.parametrize(("lesson", "lang"), [(lesson, lang) for lang in ("en", "zh-TW") for lesson in UNIT_LESSONS])
def test_lesson_numbers_keep_their_units_on_a_phone(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                                    lesson: str, lang: str) -> None:
    """Lessons 02, 03 and 06 on a phone: in every text, table cell, quiz option and feedback their notebooks show, and in
    the notebooks' own text (their markdown), no line ends between a number and its unit ("358" then "km", "41" then
    "公里", "62" then "km/h" on the next line). Each prediction is locked in first (lesson 06's reach table and its
    caption only show then) and each quiz question with options answered (its feedback says why, with numbers)."""
    page = _phone_lesson(voila, chromium_browser, lesson, lang)
    predictions = page.locator(".prediction")
    for k in range(predictions.count()):
        touch_tap(page, predictions.nth(k).locator(".prediction-choice button").first)
        lock = predictions.nth(k).locator(".prediction-lock")
        expect(lock).to_be_enabled(timeout=15_000)
        touch_tap(page, lock)
        expect(predictions.nth(k).locator(".prediction-status")).not_to_be_empty(timeout=15_000)
    firsts = page.locator(".widget-hbox > .quiz-option:first-child")  # one option of each question
    for k in range(firsts.count()):
        touch_tap(page, firsts.nth(k))
    expect(page.locator(".quiz-feedback .widget-html-content:has(div)")).to_have_count(firsts.count(), timeout=15_000)
    page.wait_for_timeout(500)
    found = page.evaluate(_SPLIT_UNITS_JS, ".jp-OutputArea-output")
    # the notebook's own text too (its markdown cells: "below 62 km/h", "34 kt", "每小時 62 公里")
    texts = page.evaluate(_SPLIT_UNITS_JS, ".jp-RenderedMarkdown")
    save_screenshot(page, f"touch-units-{lesson}-{lang}")
    assert texts["pairs"] >= 10, f"only {texts['pairs']} numbers with a unit found in the notebook's text: the check did not look"
    assert not texts["split"], (f"lesson {lesson} ({lang}) on a {PHONE['width']} px phone: {len(texts['split'])} of "
                                f"{texts['pairs']} numbers in its text split from their unit:\n" + "\n".join(texts["split"]))
    assert found["pairs"] >= UNIT_LESSONS[lesson], f"only {found['pairs']} numbers with a unit found: the check did not look"
    assert not found["split"], (f"lesson {lesson} ({lang}) on a {PHONE['width']} px phone: {len(found['split'])} of "
                                f"{found['pairs']} numbers split from their unit:\n" + "\n".join(found["split"]))
    page.context.close()


def short_sliders(page: Page, within: str = ".jp-OutputArea-output", minimum: int = MIN_TRACK_PX) -> list[str]:
    """The visible sliders inside ``within`` whose track is shorter than ``minimum`` CSS px or whose label is cut
    off, each described with its track's width; empty when every slider can be read and dragged."""
    return list(page.evaluate(_SHORT_SLIDERS_JS, [within, minimum]))


def cut_placeholders(page: Page, within: str = ".jp-OutputArea-output") -> list[str]:
    """The visible one-line text fields inside ``within`` too narrow for their placeholder, each with both widths."""
    return list(page.evaluate(_CUT_PLACEHOLDERS_JS, within))


def _storms(n: int, lang: str) -> object:
    import re

    return re.compile(re.escape(i18n.t("maptext.storms", lang, count=n, list="@@")).split("@@")[0])


def _level3(lang: str) -> str:
    from typhoon_edu.engine.rules import load_rules

    return i18n.level_name(load_rules(), 3, lang)
