"""Lessons 01-03 and 06 in Voilà in headless Chromium, in both languages, on a laptop (1366x768) and a
phone (390x844).

Each test opens one lesson on a laptop, waits until its canvas (the map; the compass ring in lesson 01; the real
map in lesson 06) shows a drawing, answers one quiz question, checks the "download my answers" link,
checks that no error output appeared, and saves a full-page screenshot
``artifacts/screenshots/lesson-<nn>-<lang>-<viewport>.png`` for a person to look at; then the same
page is narrowed to a phone's width, where the map must still fit, and photographed again (one page
load per lesson and language: the phone's layout is CSS, which follows the window).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.lessons import bank
from typhoon_edu.ui.quiz import option_order

from .harness import REPO_ROOT, VIEWPORTS, assert_canvas_not_blank, canvas_stats, unreadable

pytestmark = pytest.mark.browser

LESSONS = {
    # the ring's canvas, or on a phone its compact drawing (an SVG without the names, compass_ring.compact_css)
    "01": ("01_compass_rolls.ipynb", ":is(.lesson-ring, .typhoon-ring-compact):visible"),
    "02": ("02_grid_pathing.ipynb", ".lesson-map"),
    "03": ("03_typhoon_intensity.ipynb", ".lesson-map"),
    # the real map's usual drawing, or its phone drawing where the map is narrower than 700 px: the one on screen
    "06": ("06_real_typhoons.ipynb", ":is(.real-map, .real-map-phone):visible"),
}
QUIZ_BANK = {"01": "compass", "02": "pathing", "03": "intensity", "06": "real"}
QUIZ_TITLE = {"en": "Check yourself", "zh-TW": "自我檢測"}
FEEDBACK_CSV = {"en": "right or wrong", "zh-TW": "對或錯"}
FEEDBACK = {"en": ("Right!", "Not quite."), "zh-TW": ("答對了！", "還差一點。")}


# Which of the real map's drawings the page shows (its canvas is laid out) and its scale, CSS px per canvas px.
_SHOWN_REAL_MAP_JS = """() => {
  const c = [...document.querySelectorAll('canvas.real-map, canvas.real-map-phone')].find(e => e.getClientRects().length);
  return c && [c.classList.contains('real-map-phone') ? 'phone' : 'wide', c.getBoundingClientRect().width / c.width];
}"""


# The drawing the game board beside the real map shows and its scale; the Taiwan close-up's SVG on screen and its
# smallest text, CSS px.
_SHOWN_PICTURES_JS = """() => {
  const b = [...document.querySelectorAll('canvas.real-board')].find(e => e.getClientRects().length);
  const s = [...document.querySelectorAll('.mountains-map svg')].find(e => e.getClientRects().length);
  const scale = s && s.getBoundingClientRect().width / s.viewBox.baseVal.width;
  const drawing = b && (b.dataset.teDrawing || (b.classList.contains('te-drawing-phone') ? 'phone' : undefined));
  return [drawing, b && b.getBoundingClientRect().width / b.width, s && s.getAttribute('class'),
          s && scale * Math.min(...[...s.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size'))))];
}"""


def _check_real_map_texts(page: Page, lang: str, viewport: str) -> None:
    """Lesson 06's real map: on a phone its coordinates and names were 5.4-6.7 px (12-15 px of a 760 px canvas); the
    page shows the phone's drawing there, drawn (it was hidden when the browser connected), every text 11 px or more,
    and the usual drawing on a laptop. The same for the game board beside it and the Taiwan close-up (6.4-7.1 and
    7.6-9.5 px on a phone)."""
    from typhoon_edu.ui.realmap import RealStormMap
    from typhoon_edu.ui.scene import Text

    shown = page.evaluate(_SHOWN_REAL_MAP_JS)
    assert shown and shown[0] == ("phone" if viewport == "phone" else "wide"), (viewport, shown)
    view = RealStormMap(lang)
    smallest = min(s.size for s in view.static_shapes(phone=shown[0] == "phone") if isinstance(s, Text))
    assert smallest * shown[1] >= 11.0, f"the real map's smallest text on a {viewport} ({lang}): {smallest * shown[1]:.1f}"
    assert_canvas_not_blank(page, LESSONS["06"][1], timeout=10)
    drawing = "phone" if viewport == "phone" else "wide"
    # the board (never wider than 520 px) has its legible drawing on every screen, from its first paint (no page-side
    # helper: its canvas says so by a class); the close-up its phone one on a phone
    board, scale, close_up, close_up_px = page.evaluate(_SHOWN_PICTURES_JS)
    assert (board, close_up) == ("phone", f"mountains-{drawing}"), (viewport, board, close_up)
    assert view.board.phone_text * scale >= 11.0, (viewport, lang, view.board.phone_text * scale)
    if viewport == "phone":
        assert close_up_px >= 11.0, (lang, close_up_px)


# Lesson 01's pictures: which drawings the page shows (the ring's canvas or its compact SVG, the rose's and the charts'
# usual or phone drawings) and the smallest SVG text on screen, CSS px (font size times the SVG's scale).
_COMPASS_PICTURES_JS = """() => {
  const shown = sel => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length).length;
  let smallest = 1e9;
  for (const t of document.querySelectorAll('.compass-rose text, .compass-chart text, .typhoon-ring-compact text')) {
    if (!t.getClientRects().length || !t.textContent.trim()) continue;
    const ctm = t.getScreenCTM();
    smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(ctm.a, ctm.b));
  }
  return {ring: shown('canvas.lesson-ring'), compact: shown('.typhoon-ring-compact'), rosePhone: shown('.compass-rose-phone'),
          chartsPhone: shown('.compass-hist-phone') + shown('.compass-motion-phone'), smallest};
}"""


def _check_compass_pictures(page: Page, lang: str, viewport: str) -> None:
    """Lesson 01 on a phone: the rose (690 units), the charts (640) and the ring (a 510 px canvas) were 6.1-10.6 px;
    the page shows their phone drawings there, every text at least 11 px; a laptop shows the usual ones."""
    seen = page.evaluate(_COMPASS_PICTURES_JS)
    phone = viewport == "phone"
    assert (seen["ring"], seen["compact"], seen["rosePhone"], seen["chartsPhone"]) == (
        (0, 1, 1, 1) if phone else (1, 0, 0, 0)), (viewport, lang, seen)  # (the histogram shows after the prediction)
    if phone:
        assert seen["smallest"] >= 11.0, f"lesson 01's pictures on a phone ({lang}): smallest text {seen['smallest']:.1f} px"


def _no_error_outputs(page: Page) -> None:
    """Voilà (run with tracebacks shown) puts a failing cell's error in the page: there must be none."""
    errors = page.locator("[data-mime-type='application/vnd.jupyter.stderr'], .jp-RenderedText[data-mime-type*='error']")
    assert errors.count() == 0, errors.first.inner_text()
    assert "Traceback (most recent call last)" not in page.content()


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_lesson_renders_in_voila(
    voila: Callable[..., VoilaProcess],
    page: Page,
    page_errors: list[str],
    screenshot: Callable[..., Path],
    lesson: str,
    lang: str,
) -> None:
    notebook, canvas_selector = LESSONS[lesson]
    server = voila(REPO_ROOT / "notebooks" / lang / notebook, lang=lang, timeout=120)
    page.goto(server.url, timeout=120_000)

    # The page has run the whole notebook: the quiz near its end is there, in the lesson's language.
    expect(page.locator(".quiz-option").first).to_be_visible(timeout=120_000)
    expect(page.get_by_role("heading", name=QUIZ_TITLE[lang]).first).to_be_visible()

    # The canvas is drawn after the browser connected (on_client_ready): sample its pixels.
    stats = assert_canvas_not_blank(page, canvas_selector, timeout=30)
    assert stats.colours >= 4, stats
    if lesson == "03":
        sandbox = assert_canvas_not_blank(page, ".sandbox-map", timeout=30)
        assert sandbox.colours >= 4, sandbox
    # The canvas fits the page width (scaled by CSS), at laptop and projector widths alike.
    box = page.locator(canvas_selector).first.bounding_box()
    assert box is not None and 200 < box["width"] <= page.viewport_size["width"], box

    # One check-yourself answer gives instant feedback in the lesson's language.
    page.locator(".quiz-option").first.click()
    feedback = page.locator(".quiz-feedback").first
    # the options are shuffled per student; before a name is typed, everyone sees the same order
    first = bank.bank(QUIZ_BANK[lesson])[0]
    first_is_right = option_order(first, "")[0] == first.answer
    expect(feedback).to_contain_text(FEEDBACK[lang][0 if first_is_right else 1], timeout=15_000)
    # The answer is on the sheet to hand in: a data: URL link that downloads a CSV.
    link = page.locator("a.quiz-download-link").first
    expect(link).to_have_attribute("href", re.compile(r"^data:text/csv;charset=utf-8;base64,"), timeout=15_000)
    assert (link.get_attribute("download") or "").endswith("-answers.csv")
    with page.expect_download(timeout=15_000) as download_info:
        link.click()
    csv_text = Path(download_info.value.path()).read_text(encoding="utf-8-sig")
    assert len(csv_text.strip().splitlines()) == 2 and FEEDBACK_CSV[lang] in csv_text.splitlines()[0]

    if lesson == "06":
        # The board beside the real map is drawn too, and the time slider replays the storm.
        board = assert_canvas_not_blank(page, ".real-board", timeout=30)
        assert board.colours >= 4, board
        info = page.locator(".realmap-info").first
        before_info = info.inner_text()
        before = canvas_stats(page, canvas_selector)
        handle = page.locator(".real-storm-map .widget-slider .noUi-handle, .real-storm-map .slider-container .noUi-handle").first
        handle.focus()
        for _ in range(12):
            page.keyboard.press("ArrowRight")
        expect(info).not_to_have_text(before_info, timeout=15_000)
        page.wait_for_timeout(500)
        assert canvas_stats(page, canvas_selector) != before  # the track grew on the map
        # the fairer-ring tool answers a change of stops
        verdict = page.locator(".ring-verdict").first
        before_verdict = verdict.inner_text()
        page.locator(".ring-point").filter(has_text="ESE" if lang == "en" else "東南東").first.click()
        expect(verdict).not_to_have_text(before_verdict, timeout=15_000)  # 8 stops now: it asks for exactly 7

    if lesson == "02":
        # A landing-cell puzzle answered by clicking the map.
        page.get_by_role("button", name="New puzzle" if lang == "en" else "新題目").click()
        canvas = page.locator(canvas_selector).first
        before = canvas_stats(page, canvas_selector)
        canvas.click(position={"x": box["width"] * 0.55, "y": box["height"] * 0.5})
        expect(page.get_by_text("✘").or_(page.get_by_text("✔")).first).to_be_visible(timeout=15_000)
        page.wait_for_timeout(500)
        after = canvas_stats(page, canvas_selector)
        assert after != before  # the answer drew the path on the map

    _no_error_outputs(page)
    for viewport in ("laptop", "phone"):
        page.set_viewport_size(VIEWPORTS[viewport])
        page.wait_for_timeout(500)
        width = VIEWPORTS[viewport]["width"]
        box = page.locator(canvas_selector).first.bounding_box()
        assert box is not None and min(200, width - 60) < box["width"] <= width, (viewport, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1, f"the page is wider than a {viewport}"
        problems = unreadable(page)
        assert not problems, f"lesson {lesson} on a {viewport}: cut off or squeezed: {problems}"
        if lesson == "06":
            _check_real_map_texts(page, lang, viewport)
        if lesson == "01":
            _check_compass_pictures(page, lang, viewport)
        page.mouse.move(0, 0)
        page.evaluate("window.scrollTo(0, 0)")
        path = screenshot(page, f"lesson-{lesson}-{lang}-{viewport}")
        assert path.stat().st_size > 10_000
        # What the class sees with the map (or ring) on screen: a full-page capture stretches the
        # viewport, so CSS that fits the map to the screen's height only shows in this one.
        page.locator(canvas_selector).first.scroll_into_view_if_needed()
        screenshot(page, f"lesson-{lesson}-{lang}-{viewport}-screen", full_page=False)
    assert not [e for e in page_errors if "pageerror" in e], page_errors
