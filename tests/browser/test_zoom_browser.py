"""Class play with the browser zoomed in: a teacher's Ctrl + on the projector, a student's zoom on a phone.

A zoomed Chromium window is a viewport of (window size / zoom) CSS px whose device pixel ratio is the zoom:
1920×1080 at 125 % is 1536×864 CSS px, at 150 % 1280×720, at 200 % 960×540; 1366×768 at 125 % is 1093×614;
a 390×844 phone at 125 % is 312×675 (under the 320 CSS px at which WCAG 1.4.10 asks a page to reflow), at 150 %
260×563. Each language takes half of these sizes (both together cover them all, the run stays short): setup,
lobby, game, teacher's drawer and results on the projector, the join page and a seat's page on the phone.

At every size: the page is no wider than the window, nothing is cut off at a side or shortened with "…"
(:func:`~tests.browser.harness.unreadable`), every control can be scrolled to and tapped
(:data:`~tests.browser.test_classroom_screens.HIDDEN_CONTROLS_JS`), and no box scrolls on its own that should not
(the teacher's drawer squeezed its rows over one another at 200 %). On the projector's game screen: its parts fit the
window (:func:`~tests.browser.test_classroom_browser.check_fit`), the side column either holds all it has or scrolls
to it (it cut its foot off: the log 6 px tall), the log shows two lines, and the HP, the banner and the log are on the
wall at least as large as at 100 % (at 125 % and 150 % the HP had become smaller: the window fell under the
projector's 1700 px and got the laptop's sizes).

Screenshots: ``artifacts/screenshots/zoom-<screen>-<size>-<lang>.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .harness import save_screenshot, unreadable
from .teacher_page import teacher_url
from .test_classroom_browser import check_fit, setup_room
from .test_classroom_screens import HIDDEN_CONTROLS_JS

pytestmark = pytest.mark.browser

#: Per language: the projector's zoom (the context's device pixel ratio) and its windows in CSS px, each with the
#: zoom it stands for and the text sizes (CSS px) the same screen shows at 100 % (HP, banner, log); then the phone's.
ZOOMS = {
    "en": (1.25, [({"width": 1536, "height": 864}, 1.25, (30, 30, 24)),    # 1920×1080 at 125 %
                  ({"width": 960, "height": 540}, 2.0, (30, 30, 24))],     # 1920×1080 at 200 %
           (1.25, {"width": 312, "height": 675})),                         # 390×844 at 125 %
    "zh-TW": (1.5, [({"width": 1280, "height": 720}, 1.5, (30, 30, 24)),   # 1920×1080 at 150 %
                    ({"width": 1093, "height": 614}, 1.25, (15.68, 23.2, 15.2))],  # 1366×768 at 125 %
              (1.5, {"width": 260, "height": 563})),                       # 390×844 at 150 %
}

#: Every box inside ``within`` that scrolls on its own (its content taller or wider than it, by more than a widget's
#: 2 px margins on each side) and is not one of the boxes meant to scroll.
_STRAY_SCROLLERS_JS = """([within, allowed]) => [...document.querySelectorAll(`${within} *`)]
  .filter(e => e.checkVisibility() && !allowed.some(sel => e.matches(sel)))
  .filter(e => { const st = getComputedStyle(e);
    return ['auto', 'scroll'].includes(st.overflowY) && e.scrollHeight > e.clientHeight + 4 && e.clientHeight > 0
      || ['auto', 'scroll'].includes(st.overflowX) && e.scrollWidth > e.clientWidth + 4 && e.clientWidth > 0; })
  .map(e => `.${[...e.classList].filter(c => !c.startsWith('lm-') && !c.startsWith('jupyter')).join('.')}`
    + ` ${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight}`
    + ` "${(e.innerText || '').trim().replace(/\\s+/g, ' ').slice(0, 40)}"`)"""

#: The boxes meant to scroll: a screen's page (setup, lobby, results, a phone's page), the drawer, the projector's
#: side column and log, the decisions.
SCROLLERS = [".typhoon-setup", ".typhoon-lobby", ".typhoon-results-screen", ".typhoon-teacher", ".typhoon-side",
             ".typhoon-log", ".typhoon-decide-box", ".typhoon-fullscreen", ".lm-BoxPanel-child", "#rendered_cells"]

#: Every visible text or control inside the app whose box lies past the window's left or right edge.
_PAST_EDGE_JS = """() => { const vw = document.documentElement.clientWidth;
  return [...document.querySelectorAll('.typhoon-app *')]
    .filter(e => e.checkVisibility() && !e.children.length && (e.innerText || e.value || '').trim())
    .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.right > vw + 3 || r.left < -3); })
    .map(e => `${e.tagName.toLowerCase()} "${(e.innerText || e.value).trim().slice(0, 30)}"`
      + ` [${Math.round(e.getBoundingClientRect().left)}, ${Math.round(e.getBoundingClientRect().right)}]`); }"""

#: The projector's side column: what it holds and shows, whether it scrolls; the log's height and line height; the
#: HP panel's, banner's and log's text sizes.
_SIDE_JS = """() => { const side = document.querySelector('.typhoon-side'), log = document.querySelector('.typhoon-log');
  const size = s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
  const st = getComputedStyle(log);
  return {held: side.scrollHeight, shown: side.clientHeight, scrolls: ['auto', 'scroll'].includes(getComputedStyle(side).overflowY),
    log: log.clientHeight - parseFloat(st.paddingTop) - parseFloat(st.paddingBottom),
    line: parseFloat(st.lineHeight) || 1.2 * parseFloat(st.fontSize),
    hp: size('.typhoon-hp-panel .widget-html-content'), banner: size('.typhoon-banner-head'), text: size('.typhoon-log')}; }"""


def new_zoomed_page(browser: Browser, size: dict[str, int], zoom: float) -> Page:
    """A page in a window zoomed to ``zoom``: ``size`` CSS px at ``zoom`` device px each."""
    page = browser.new_context(viewport=size, device_scale_factor=zoom).new_page()
    page.set_default_timeout(60_000)
    return page


def check(page: Page, screen: str, lang: str, size: dict[str, int], *, within: str = ".typhoon-app") -> None:
    """``page`` at ``size``: screenshot, then no overflow, nothing cut, every control reachable, no stray scroll box."""
    where = f"{screen} at {size['width']}x{size['height']} ({lang})"
    page.set_viewport_size(size)
    page.wait_for_timeout(400)
    page.evaluate("() => document.querySelectorAll('*').forEach(e => { if (e.scrollTop) e.scrollTop = 0; })")
    save_screenshot(page, f"zoom-{screen}-{size['width']}x{size['height']}-{lang}", full_page=False)
    wide = page.evaluate("document.scrollingElement.scrollWidth")
    assert wide <= size["width"] + 1, f"{where}: the page is {wide} px wide"
    past = page.evaluate(_PAST_EDGE_JS)
    assert not past, f"{where}: past the window's edge: {past}"
    problems = unreadable(page, ".typhoon-app")
    assert not problems, f"{where}: cut off or squeezed: {problems}"
    stray = page.evaluate(_STRAY_SCROLLERS_JS, [".typhoon-app", SCROLLERS])
    assert not stray, f"{where}: boxes squeezed into scrolling on their own: {stray}"
    hidden = page.evaluate(HIDDEN_CONTROLS_JS, within)
    assert not hidden, f"{where}: controls no one can see or tap: {hidden}"


def check_game(page: Page, lang: str, size: dict[str, int], zoom: float, at_100: tuple[float, float, float]) -> None:
    """The projector's game screen at ``size`` (the window at ``zoom``): it fits, its side column holds or scrolls to
    all it has, its log shows two lines, and its HP, banner and log are on the wall no smaller than at 100 %."""
    where = f"game at {size['width']}x{size['height']} ({lang})"
    check(page, "game", lang, size)
    check_fit(page)
    side = page.evaluate(_SIDE_JS)
    assert side["held"] <= side["shown"] + 1 or side["scrolls"], \
        f"{where}: the side column holds {side['held']} px in {side['shown']} px and its foot is cut off"
    assert side["log"] >= 2 * side["line"] - 1, \
        f"{where}: the log is {side['log']:.0f} px tall, less than two lines of {side['line']:.0f} px"
    for name, css_px, wall_px in zip(("HP", "banner", "log"), (side["hp"], side["banner"], side["text"]), at_100, strict=True):
        assert css_px * zoom >= wall_px - 0.5, \
            f"{where}: the {name} is {css_px} CSS px, {css_px * zoom:.1f} px on the wall at {zoom:.0%}: at 100 % {wall_px}"


@pytest.mark.parametrize("server", ["en", "zh-TW"], indirect=True)
def test_every_screen_zoomed(server, chromium_browser: Browser) -> None:
    proc, _store = server
    lang = proc.lang
    projector_zoom, windows, (phone_zoom, phone_size) = ZOOMS[lang]
    sizes = [size for size, _zoom, _at in windows]
    projector = new_zoomed_page(chromium_browser, sizes[0], projector_zoom)
    projector.goto(teacher_url(proc))
    expect(projector.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    for size in sizes:
        check(projector, "setup", lang, size)
    setup_room(projector, lang, ("Mei", "Ken"), devices=True)
    expect(projector.locator("a.typhoon-join-link")).to_have_count(2, timeout=60_000)
    projector.wait_for_timeout(500)
    for size in sizes:
        check(projector, "lobby", lang, size)
    href = projector.locator("a.typhoon-join-link").first.get_attribute("href")
    assert href is not None

    phone = new_zoomed_page(chromium_browser, phone_size, phone_zoom)
    phone.goto(href.split("?")[0] + "?join")
    expect(phone.locator(".typhoon-join-code")).to_be_visible(timeout=120_000)
    check(phone, "join-code", lang, phone_size)
    code = projector.locator(".typhoon-room-chip").first.inner_text().strip()
    phone.locator(".typhoon-join-code input").fill(code)
    phone.locator(".typhoon-join-code input").press("Enter")
    expect(phone.locator(".typhoon-join-seat").first).to_be_visible(timeout=30_000)
    check(phone, "join", lang, phone_size)
    phone.locator(".typhoon-join-seat").first.click()
    expect(phone.locator(".typhoon-seat-game")).to_be_visible(timeout=30_000)
    expect(phone.locator(".typhoon-hp-row").first).to_be_visible()
    phone.wait_for_timeout(500)
    check(phone, "seat", lang, phone_size)

    projector.locator(".typhoon-lobby-go").click()
    expect(projector.locator(".typhoon-projector-game")).to_be_visible(timeout=30_000)
    expect(projector.locator(".typhoon-hp-row").first).to_be_visible()
    projector.wait_for_timeout(1000)
    for size, zoom, at_100 in windows:
        check_game(projector, lang, size, zoom, at_100)
    projector.locator(".typhoon-teacher-button").click()
    expect(projector.locator(".typhoon-teacher")).to_be_visible()
    for size in sizes:
        check(projector, "teacher", lang, size, within=".typhoon-teacher")  # the drawer lies over the side column
    projector.locator(".typhoon-teacher-end").click()
    projector.locator(".typhoon-teacher-end-yes").click()
    expect(projector.locator(".typhoon-results-screen")).to_be_visible(timeout=30_000)
    projector.wait_for_timeout(500)
    for size in sizes:
        check(projector, "results", lang, size)
