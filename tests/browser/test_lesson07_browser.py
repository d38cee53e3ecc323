"""Lesson 07 (the forecast challenge) in Voilà in headless Chromium, in both languages.

On a laptop: the map is drawn after the browser connects; three clicks place the 24, 48 and 72-hour guesses;
a typed position moves one (the keyboard way), each said once, in the map's live region (the status line under the
map shows it but is no live region); the reveal shows the errors and redraws the map; the student's
name shuffles the quiz's options; one quiz answer and the free-text explanation reach the downloaded CSV, named
after the student, with the forecasts. On a touch phone: one tap
places exactly one guess (ipycanvas cancels the browser's emulated click; ``TapFilter`` would drop it otherwise). Screenshots go to
``artifacts/screenshots/lesson-07-<lang>-*.png`` for a person to look at.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.lessons.common import lt
from typhoon_edu.ui.lessons.forecast import localised, questions
from typhoon_edu.ui.quiz import file_stem, option_order

from .harness import REPO_ROOT, assert_canvas_not_blank, canvas_stats, save_screenshot, unreadable
from .test_a11y_lessons import live_region_of

pytestmark = pytest.mark.browser

NOTEBOOK = "07_forecast_challenge.ipynb"
MAP = ".forecast-map"
TEXT = {
    "en": {"placed": "72 h: ", "missing48": "48 h: not placed yet", "reveal": "Reveal the best track",
           "mean": "Your mean error", "forecast": "Forecast ", "wrong": "Not quite.", "start": "no guess placed yet",
           "name": "Mei Lin"},
    "zh-TW": {"placed": "72 小時：北緯", "missing48": "48 小時：還沒放", "reveal": "揭曉最佳路徑",
              "mean": "你的平均誤差", "forecast": "預報", "wrong": "還差一點。", "start": "還沒有放任何預報點",
              "name": "陳小美"},
}


#: The live regions (aria-live, role=status/alert/log, not aria-live=off) whose text has ``needle`` (spaces, no-break
#: ones too, compared as one space): a forecast said by two of them is said twice by some screen readers.
_LIVE_WITH_JS = """needle => {
  const norm = s => s.replace(/\\s+/g, ' ');
  const want = norm(needle);
  return [...document.querySelectorAll('[aria-live], [role=status], [role=alert], [role=log]')]
    .filter(e => e.getAttribute('aria-live') !== 'off' && norm(e.textContent).includes(want))
    .map(e => e.className || e.tagName);
}"""


def _said_once(page: Page, needle: str) -> None:
    """``needle`` is in exactly one live region: the map's (``te-map-live``)."""
    live = page.evaluate(_LIVE_WITH_JS, needle)
    assert len(live) == 1 and "te-map-live" in live[0], f"{needle!r} is in the live regions {live}"


def _no_error_outputs(page: Page) -> None:
    errors = page.locator("[data-mime-type='application/vnd.jupyter.stderr'], .jp-RenderedText[data-mime-type*='error']")
    assert errors.count() == 0, errors.first.inner_text()
    assert "Traceback (most recent call last)" not in page.content()


def _open(voila: Callable[..., VoilaProcess], page: Page, lang: str) -> dict:
    server = voila(REPO_ROOT / "notebooks" / lang / NOTEBOOK, lang=lang, timeout=120)
    page.goto(server.url, timeout=120_000)
    expect(page.locator(".quiz-option").first).to_be_visible(timeout=120_000)
    stats = assert_canvas_not_blank(page, MAP, timeout=30)
    assert stats.colours >= 4, stats
    box = page.locator(MAP).first.bounding_box()
    assert box is not None and 200 < box["width"] <= page.viewport_size["width"], box
    return box


@pytest.mark.parametrize("viewport", ["laptop"])
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_forecast_click_reveal_and_answers(
    voila: Callable[..., VoilaProcess], page: Page, page_errors: list[str], screenshot: Callable[..., Path],
    lang: str, viewport: str,
) -> None:
    t = TEXT[lang]
    box = _open(voila, page, lang)
    canvas = page.locator(MAP).first
    status = page.locator(".forecast-status").first
    before = canvas_stats(page, MAP)
    # storm 1 moves west: three guesses to the west of it, from the middle of the map
    for fx in (0.42, 0.33, 0.24):
        canvas.click(position={"x": box["width"] * fx, "y": box["height"] * 0.58})
        page.wait_for_timeout(300)
    expect(status).to_contain_text(t["placed"], timeout=15_000)
    # a click's forecast is said too, in the map's live region (in the page from the start), not only a key's
    live = live_region_of(page, MAP)
    expect(live).to_contain_text(t["placed"], timeout=15_000)
    _said_once(page, t["placed"])  # the status line shows it; only the map's live region says it
    page.wait_for_timeout(500)
    assert canvas_stats(page, MAP) != before  # the guesses are drawn
    # the keyboard way: type a position for the 24-hour guess
    page.locator(".forecast-challenge .widget-toggle-buttons button").first.click()
    typed = page.locator(".forecast-typed input").first
    typed.fill("15.5, 117")
    typed.press("Enter")
    expect(status).to_contain_text("15.5", timeout=15_000)
    typed_said = lt("forecast.status_guess", lang, h=24, lat="15.5", lon="117")
    expect(live).to_contain_text(typed_said, timeout=15_000)
    _said_once(page, typed_said)
    print(f"\n[{lang}] the map said: {live.inner_text()!r}")
    # reveal: errors in km, the best track drawn
    guessed = canvas_stats(page, MAP)
    page.get_by_role("button", name=t["reveal"]).click()
    expect(page.locator(".forecast-results").first).to_contain_text(t["mean"], timeout=15_000)
    expect(page.locator(".forecast-results td").first).to_be_visible()
    expect(live).to_contain_text(t["mean"], timeout=15_000)  # the reveal is said too, in the same live region
    page.wait_for_timeout(500)
    assert canvas_stats(page, MAP) != guessed
    canvas.scroll_into_view_if_needed()
    screenshot(page, f"lesson-07-{lang}-{viewport}-revealed", full_page=False)

    # check yourself: the name shuffles the options; one question, the free-text explanation, then the CSV holds
    # all of it, named after the student
    name = page.locator(".forecast-challenge .quiz-name input").first  # the name field comes first, in the challenge too
    name.fill(t["name"])
    name.press("Enter")
    expect(page.locator(".quiz-name-status").last).to_contain_text(t["name"], timeout=15_000)
    q = localised(questions()[1], lang)  # question 2, the first with options
    order = option_order(q, t["name"])
    shown = page.locator(".quiz-option")
    # every option in the name's order (waiting for the whole list: the first option can be first in both orders)
    for k, o in enumerate(order):
        expect(shown.nth(k)).to_have_text(q.option_text(o, lang), timeout=15_000)
    wrong = next(o for o in order if o != q.answer)
    shown.nth(order.index(wrong)).click()
    expect(page.locator(".quiz-feedback").nth(1)).to_contain_text(t["wrong"], timeout=15_000)
    page.locator(".quiz-text textarea").first.fill("It moved west for days, so I kept it going west.")
    page.get_by_role("button", name=i18n.t("lesson.common.save", lang)).click()
    expect(page.locator(".quiz-feedback").last).to_contain_text(i18n.t("lesson.common.saved", lang), timeout=15_000)
    link = page.locator("a.quiz-download-link").first
    expect(link).to_have_attribute("href", re.compile(r"^data:text/csv;charset=utf-8;base64,"), timeout=15_000)
    expect(link).to_have_attribute("download", f"{file_stem(t['name'])}-forecast-answers.csv")
    page.wait_for_timeout(500)
    with page.expect_download(timeout=15_000) as download_info:
        link.click()
    csv_text = Path(download_info.value.path()).read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(csv_text)))
    assert rows[0][0] == i18n.t("lesson.common.csv_name", lang) and all(row[0] == t["name"] for row in rows[1:]), csv_text
    assert sum(1 for row in rows if row[1].startswith(t["forecast"])) == 3, csv_text
    assert [row[3] for row in rows].count(i18n.t("lesson.common.csv_free", lang)) == 1, csv_text
    assert len(rows) == 1 + 3 + 1 + 1, csv_text  # header, three forecasts, one answer, one explanation

    # another storm: the pair (case 4) redraws the map around it, with no guesses and no answers
    revealed = canvas_stats(page, MAP)
    page.locator(".forecast-challenge select").first.select_option(index=3)
    expect(status).to_contain_text(t["start"], timeout=15_000)
    expect(page.locator(".forecast-results")).to_have_count(0)
    page.wait_for_timeout(800)
    assert canvas_stats(page, MAP) != revealed
    canvas.scroll_into_view_if_needed()
    screenshot(page, f"lesson-07-{lang}-{viewport}-pair", full_page=False)

    _no_error_outputs(page)
    page.evaluate("window.scrollTo(0, 0)")
    path = screenshot(page, f"lesson-07-{lang}-{viewport}")
    assert path.stat().st_size > 10_000
    assert not [e for e in page_errors if "pageerror" in e], page_errors


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_one_tap_places_one_guess_on_a_touch_phone(
    voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str,
) -> None:
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, has_touch=True,
                                           is_mobile=True, locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        box = _open(voila, page, lang)
        canvas = page.locator(MAP).first
        canvas.scroll_into_view_if_needed()
        canvas.tap(position={"x": box["width"] * 0.4, "y": box["height"] * 0.58})
        status = page.locator(".forecast-status").first
        expect(status).to_contain_text(TEXT[lang]["missing48"], timeout=15_000)
        page.wait_for_timeout(1500)  # a second (emulated) event would have arrived by now
        expect(status).to_contain_text(TEXT[lang]["missing48"])
        _no_error_outputs(page)
        # the map is painted with its phone drawing (its 11-15 px texts were 5-7 CSS px here): every text at least
        # realmap.PHONE_MIN_TEXT px of canvas, 11 CSS px or more at the width the canvas is shown
        from typhoon_edu.ui.realmap import PHONE_MIN_TEXT

        expect(canvas).to_have_attribute("data-te-drawing", "phone", timeout=15_000)
        shown, drawn = canvas.evaluate("c => [c.getBoundingClientRect().width, c.width]")
        assert PHONE_MIN_TEXT * shown / drawn >= 11.0, f"lesson 07's map on a phone: {shown:.0f} of {drawn} px"
        save_screenshot(page, f"lesson-07-{lang}-phone-tap", full_page=False)
        problems = unreadable(page)
        assert not problems, f"lesson 07 on a phone: cut off or squeezed: {problems}"
        assert not errors, errors
    finally:
        page.goto("about:blank")
        context.close()


_FOCUSED = """() => { const e = document.activeElement; if (!e) return '';
  const box = e.closest('.forecast-map, .forecast-reveal, .quiz-download, .forecast-typed');
  return (box ? box.className.split(' ').find(c => c.startsWith('forecast-') || c.startsWith('quiz-')) : '') + '|' + e.tagName; }"""


@pytest.mark.parametrize("viewport", ["laptop"])
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_tab_from_the_storm_menu_passes_the_map_and_reaches_the_download(
    voila: Callable[..., VoilaProcess], page: Page, lang: str, viewport: str,
) -> None:
    """The keyboard way: Tab from the first control of the challenge leaves the map, reaches the typed position,
    Reveal, and at last the quiz's download link; Esc and Shift+Tab leave the map too (nothing traps the focus)."""
    _open(voila, page, lang)
    page.locator(".forecast-challenge select").first.focus()
    seen: list[str] = []
    for _ in range(120):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(_FOCUSED))
        if seen[-1].startswith("quiz-download"):
            break
    names = [s.split("|")[0] for s in seen]
    assert "forecast-typed" in names and "forecast-reveal" in names, seen
    assert names[-1] == "quiz-download", seen
    assert names.index("forecast-typed") < names.index("forecast-reveal") < len(names) - 1
    # Esc and Shift+Tab leave the map too
    for key in ("Escape", "Shift+Tab"):
        page.locator(".forecast-challenge select").first.focus()
        for _ in range(20):
            page.keyboard.press("Tab")
            if page.evaluate(_FOCUSED).startswith("forecast-map|CANVAS"):
                break
        assert page.evaluate(_FOCUSED).startswith("forecast-map|CANVAS")
        page.keyboard.press(key)
        assert not page.evaluate(_FOCUSED).startswith("forecast-map"), key


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_map_is_named_and_places_guesses_from_the_keyboard(
    voila: Callable[..., VoilaProcess], page: Page, lang: str,
) -> None:
    """The map reached with Tab is an application named after its storm and its keys (an accessibility review found
    it a tab stop with no name or role); its arrow keys move the chosen guess, Enter chooses the next one, and its
    live region says the forecast."""
    _open(voila, page, lang)
    canvas = page.locator(MAP).first
    expect(canvas).to_have_attribute("role", "application", timeout=15_000)
    expect(canvas).to_have_attribute("aria-label", re.compile(re.escape(i18n.t("lesson.forecast.map_keys", lang))))
    live = page.locator(f".te-map-live[data-te-for='{canvas.get_attribute('data-te-map')}']")
    page.locator(".forecast-challenge select").first.focus()
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate(_FOCUSED).startswith("forecast-map|CANVAS"):
            break
    assert page.evaluate(_FOCUSED).startswith("forecast-map|CANVAS")
    status = page.locator(".forecast-status").first
    # "48 h: 15.1 °N", not "48 h: not placed yet" (the shown status joins numbers and units with a no-break space)
    guess = {h: re.compile(re.escape(i18n.t("lesson.forecast.status_guess", lang, h=h, lat="@", lon="@").split("@")[0])
                           .replace("\\ ", r"\s") + r"\d") for h in (24, 48)}
    page.keyboard.press("ArrowLeft")  # the 24-hour guess, half a degree west of the storm now
    expect(status).to_contain_text(guess[24], timeout=15_000)
    expect(live).to_contain_text(guess[24], timeout=10_000)
    page.keyboard.press("Enter")  # the next guess: 48 h
    page.keyboard.press("ArrowLeft")
    expect(status).to_contain_text(guess[48], timeout=15_000)
    expect(live).to_contain_text(guess[48], timeout=10_000)
    assert page.evaluate(_FOCUSED).startswith("forecast-map|CANVAS"), "the keys took the focus off the map"
    expect(canvas).to_have_attribute("aria-label", guess[48])  # the name follows the forecast
    print(f"\n[{lang}] the map said: {live.inner_text()!r}")
    canvas.scroll_into_view_if_needed()
    save_screenshot(page, f"lesson-07-{lang}-keyboard-map", full_page=False)
