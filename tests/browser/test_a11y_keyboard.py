"""The keyboard reaches everything and leaves every map (WCAG 2.1.1 keyboard, 2.1.2 no keyboard trap).

ipycanvas makes every canvas a tab stop whose ``keydown`` handler cancels every key, Tab and Esc
included, so a keyboard user who reached a map could never leave it (typhoon_edu/ui/canvas_input.py
says why and how it is fixed). Checked here, in Voilà, in both languages:

* Tab from the top of lessons 01 to 06 (07: test_lesson07_browser.py) reaches the page's last control, and Shift+Tab
  comes back to the first; axe-core then checks that page (test_a11y_axe.py checks the other language);
* every canvas on the page, once focused (a click focuses it), lets Tab, Shift+Tab and Esc out;
* the mouse-only tasks have a keyboard way: lesson 02's landing puzzle, lesson 03's sandbox and a
  class-play phone's board take arrow keys and Enter, with a visible cursor; the live region says
  where the cursor is; the phone's cell buttons are reached with Tab and pressed with Enter;
* in JupyterLab, every lesson (01–07, both languages) lets Tab, Shift+Tab and Esc out of every map, and Tab from the map (or the first control) reaches the
  lesson's last control; lesson 04 then starts a game, its whole map beside the side column and legible
  (``jupyterlab-lesson-04-board-<lang>.png``).

Screenshots: ``artifacts/screenshots/keyboard-<what>-<lang>.png`` (the cursor on the map).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess

from .harness import REPO_ROOT, assert_canvas_not_blank, save_screenshot
from .keyboard_helpers import focused, focused_index, mark_focusables, tab_until
from .langs import flow_langs, lesson_cases
from .test_a11y_axe import assert_no_violations
from .test_classroom_browser import open_class, room_of, wait_state

pytestmark = pytest.mark.browser


#: Every lesson, and the map whose drawing says the lesson has run (None: lesson 04 opens on the class-play setup,
#: with no map until a game starts).
ALL_LESSONS = {
    "01": ("01_compass_rolls.ipynb", ".lesson-ring"),
    "02": ("02_grid_pathing.ipynb", ".lesson-map"),
    "03": ("03_typhoon_intensity.ipynb", ".sandbox-map"),
    "04": ("04_full_game.ipynb", None),
    "05": ("05_which_coast_is_most_at_risk.ipynb", ".risk-map"),
    "06": ("06_real_typhoons.ipynb", ".real-map"),
    "07": ("07_forecast_challenge.ipynb", ".forecast-map"),
}
#: The lessons whose Tab walk is checked here (lesson 07's own is in test_lesson07_browser.py).
LESSONS = {k: v for k, v in ALL_LESSONS.items() if k != "07"}
LAPTOP = {"width": 1366, "height": 768}


def open_lesson(voila: Callable[..., VoilaProcess], browser: Browser, lesson: str, lang: str) -> Page:
    notebook, canvas = ALL_LESSONS[lesson]
    server = voila(REPO_ROOT / "notebooks" / lang / notebook, lang=lang, timeout=120)
    page = browser.new_context(viewport=LAPTOP, device_scale_factor=1).new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url, timeout=120_000)
    # the quiz is the lesson's last part (lesson 05's is its own, with radio choices)
    expect(page.locator(".quiz-option, .risk-quiz-choice").first).to_be_visible(timeout=120_000)
    if canvas is not None:
        assert_canvas_not_blank(page, canvas, timeout=30)
        if lesson in LESSONS:  # lesson 07's forecast map has a keyboard helper of its own, without a name
            expect(page.locator("canvas.te-map-canvas").first).to_be_attached(timeout=15_000)
    page.wait_for_timeout(1500)  # every map's access helper has named its canvas and the page's controls
    return page


def check_canvases_let_go(page: Page) -> int:
    """Focus each canvas in turn; Tab, Shift+Tab and Esc must each move the focus off it."""
    canvases = page.locator("canvas")
    count = canvases.count()
    for i in range(count):
        canvas = canvases.nth(i)
        if not canvas.is_visible():
            continue
        for key in ("Tab", "Shift+Tab", "Escape"):
            canvas.evaluate("c => c.focus()")
            assert page.evaluate("c => document.activeElement === c", canvas.element_handle()), f"canvas {i} takes no focus"
            page.keyboard.press(key)
            still = page.evaluate("c => document.activeElement === c", canvas.element_handle())
            assert not still, f"{key} does not leave canvas {i} ({canvas.get_attribute('class')})"
    return count


@pytest.mark.parametrize(("lesson", "lang"), lesson_cases(sorted(LESSONS)))
def test_tab_reaches_the_last_control(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lesson: str,
                                      lang: str) -> None:
    page = open_lesson(voila, chromium_browser, lesson, lang)
    n = mark_focusables(page)
    assert n > 5, f"only {n} controls on lesson {lesson}"
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    path = tab_until(page, n - 1, limit=n + 40)
    if lesson in ("02", "03"):  # a map you can choose a cell on is a tab stop of its own
        assert any(p.startswith("canvas") for p in path), f"the map was never focused: {path}"
    tab_until(page, 0, limit=n + 40, shift=True)
    assert check_canvases_let_go(page) >= (0 if LESSONS[lesson][1] is None else 1)
    # axe on the same page: here in this walk's language, in test_a11y_axe.py in the other one
    assert_no_violations(page, LESSONS[lesson][0], lang)
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_landing_puzzle_by_keyboard(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "02", lang)
    page.get_by_role("button", name=i18n.t("lesson.pathing.puzzle_button", lang)).click()
    canvas = page.locator("canvas.lesson-map").first
    expect(canvas).to_have_attribute("tabindex", "0")
    expect(canvas).to_have_attribute("role", "application")
    expect(canvas).to_have_attribute("aria-label", re.compile(re.escape(i18n.t("maptext.keys", lang)[:12])))
    canvas.focus()
    live = page.locator(f".te-map-live[data-te-for='{canvas.get_attribute('data-te-map')}']")
    page.keyboard.press("Enter")  # the first Enter shows the cursor, it does not choose
    expect(live).to_contain_text(i18n.t("maptext.cursor", lang, cell="@", what="@").split("@")[0], timeout=10_000)
    scores = [i18n.t("lesson.pathing.puzzle_score", lang, right=r, total=1) for r in (0, 1)]
    answered = page.get_by_text(scores[0]).or_(page.get_by_text(scores[1]))
    expect(answered).to_have_count(0)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    expect(live).to_contain_text(re.compile(r"\(\d+, \d+\)"))
    save_screenshot(page, f"keyboard-puzzle-cursor-{lang}", full_page=False)
    page.keyboard.press("Enter")
    expect(answered.first).to_be_visible(timeout=15_000)
    assert focused(page).startswith("canvas"), "choosing a cell took the focus off the map"
    page.keyboard.press("Escape")
    assert not focused(page).startswith("canvas")
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_sandbox_by_keyboard(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "03", lang)
    canvas = page.locator("canvas.sandbox-map").first
    canvas.focus()
    live = page.locator(f".te-map-live[data-te-for='{canvas.get_attribute('data-te-map')}']")
    page.keyboard.press("ArrowRight")  # the cursor appears in the middle of the map: (8, 6)
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    for _ in range(4):
        page.keyboard.press("ArrowUp")
    expect(live).to_contain_text(i18n.cell_label((14, 2), lang), timeout=10_000)
    page.keyboard.press(" ")
    from typhoon_edu.engine.rules import load_rules

    placed = i18n.t("lesson.intensity.sandbox_placed", lang, cell=i18n.cell_label((14, 2), lang),
                    level=i18n.level_name(load_rules(), 3, lang))
    # said above the map and under it (and in the map's live region, for screen readers only)
    expect(page.get_by_text(placed).and_(page.locator(":not(.te-sr-only)")).first).to_be_visible(timeout=15_000)
    save_screenshot(page, f"keyboard-sandbox-{lang}", full_page=False)
    page.context.close()


@pytest.mark.parametrize("server", flow_langs("en"), indirect=True)
def test_phone_places_a_storm_by_keyboard(server: tuple[VoilaProcess, RoomStore], chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    projector, phones = open_class(chromium_browser, proc, lang)
    mei = phones["Taiwan"]
    wait_state(mei, lambda s: s.get("mine") == "1" and s.get("busy") == "0", what="Taiwan's phone to decide")
    canvas = mei.locator(".typhoon-board canvas").first
    expect(canvas).to_have_attribute("tabindex", "0", timeout=10_000)
    canvas.focus()
    mei.keyboard.press("Home")  # the first cell a storm may be placed on
    expect(mei.locator(f".te-map-live[data-te-for='{canvas.get_attribute('data-te-map')}']")).to_contain_text(i18n.t("maptext.can_choose", lang), timeout=10_000)
    save_screenshot(mei, f"keyboard-phone-cursor-{lang}", full_page=False)
    mei.keyboard.press("Enter")
    wait_state(projector, lambda s: int(s["seq"]) >= 1, timeout=15, what="the projector to show the placement")
    mei.wait_for_timeout(800)
    assert room_of(store).seq == 1, "one Enter made more than one action"
    # the next storm by a cell's button: Tab from the top of the page reaches it, Enter presses it
    wait_state(mei, lambda s: s.get("mine") == "1" and s.get("busy") == "0" and int(s["seq"]) >= 1,
               what="Taiwan's second placement")
    mei.evaluate("() => document.activeElement && document.activeElement.blur()")
    on_cell = "() => document.activeElement.classList.contains('typhoon-cell-pick')"
    for _ in range(40):
        mei.keyboard.press("Tab")
        if mei.evaluate(on_cell):
            break
    else:
        pytest.fail(f"Tab did not reach a cell's button in 40 presses; the focus is on {focused(mei)}")
    cell = mei.evaluate("() => [...document.activeElement.classList].find(c => /^typhoon-cell-\\d/.test(c))")
    mei.keyboard.press("Enter")
    wait_state(projector, lambda s: int(s["seq"]) >= 2, timeout=15, what="the projector to show the second placement")
    mei.wait_for_timeout(800)
    room = room_of(store)
    assert room.seq == 2, "one Enter on a cell's button made more or less than one action"
    assert cell == "typhoon-cell-{}-{}".format(*room.game.typhoons[-1].eye), (cell, room.game.typhoons[-1].eye)
    for page in (projector, *phones.values()):
        page.context.close()


@pytest.fixture(scope="module")
def lab_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the lessons: JupyterLab autosaves a notebook it ran, and the repository's must not change."""
    import shutil

    root = tmp_path_factory.mktemp("lab")
    shutil.copytree(REPO_ROOT / "notebooks", root / "notebooks")
    return root


#: Every lesson notebook, and the map whose drawing says the lesson has run (None: lesson 04 opens on the class-play
#: setup, with no map until a game starts).
LAB_LESSONS = {
    "01": ("01_compass_rolls.ipynb", ".lesson-ring"),
    "02": ("02_grid_pathing.ipynb", ".lesson-map"),
    "03": ("03_typhoon_intensity.ipynb", ".sandbox-map"),
    "04": ("04_full_game.ipynb", None),
    # the heat map's usual drawing, or its phone drawing where the notebook's column is narrower than 720 px (as in
    # JupyterLab beside its file browser): the one on screen
    "05": ("05_which_coast_is_most_at_risk.ipynb", ":is(.risk-map, .risk-map-phone):visible"),
    # the real map's usual drawing, or its phone drawing where the notebook's column is narrower than 700 px
    "06": ("06_real_typhoons.ipynb", ":is(.real-map, .real-map-phone):visible"),
    "07": ("07_forecast_challenge.ipynb", ".forecast-map"),
}


#: Whether a canvas or one of its ancestors is display:none (not on the page at any scroll position).
_HIDDEN_BY_CSS_JS = """
(c) => { for (let e = c; e; e = e.parentElement) { if (getComputedStyle(e).display === 'none') { return true; } }
         return false; }
"""


def test_every_lesson_has_a_lab_case() -> None:
    """The JupyterLab check below covers every lesson notebook there is, in both languages."""
    for lang in ("en", "zh-TW"):
        found = sorted(p.name for p in (REPO_ROOT / "notebooks" / lang).glob("0[1-9]_*.ipynb"))
        assert found == sorted(n for n, _ in LAB_LESSONS.values()), lang


_KERNELS_JS = """
async (shutDown) => {
  const m = document.cookie.match(/_xsrf=([^;]+)/);
  const headers = m ? {'X-XSRFToken': decodeURIComponent(m[1])} : {};
  const answer = await fetch('/api/kernels', {headers});
  const kernels = answer.ok ? await answer.json() : [];
  if (!Array.isArray(kernels)) { return []; }  // a server busy starting a kernel may answer otherwise: ask again
  if (shutDown) { for (const k of kernels) { await fetch('/api/kernels/' + k.id, {method: 'DELETE', headers}); } }
  return kernels.map((k) => k.execution_state);
}
"""


# One JupyterLab server (the ``jupyter_server`` factory is per session, ``lab_root`` per module) and one browser for
# all 14 cases: each case costs only its notebook's run, not a server start. Each case shuts its kernel down, so
# fourteen lessons' kernels never run side by side on the server.
@pytest.mark.parametrize(("lesson", "lang"), lesson_cases(sorted(LAB_LESSONS), first="zh-TW"))
def test_jupyterlab_maps_let_go(jupyter_server: Callable[..., object], lab_root: Path, chromium_browser: Browser,
                                lesson: str, lang: str) -> None:
    notebook, selector = LAB_LESSONS[lesson]
    server = jupyter_server(lab_root)
    page = chromium_browser.new_context(viewport=LAPTOP, device_scale_factor=1).new_page()
    page.set_default_timeout(60_000)
    try:
        _run_lab_case(page, server, lesson, lang, notebook, selector)
    finally:
        page.evaluate(_KERNELS_JS, True)
        page.context.close()


def _run_lab_case(page: Page, server: object, lesson: str, lang: str, notebook: str, selector: str | None) -> None:
    # ?reset: JupyterLab would otherwise restore the tabs of an earlier session (its workspace is per user)
    page.goto(f"{server.url}lab/tree/notebooks/{lang}/{notebook}?reset", timeout=120_000)  # type: ignore[attr-defined]
    expect(page.locator(".jp-Notebook:visible").first).to_be_visible(timeout=120_000)
    # Run All before the kernel is up may be lost on a busy machine: wait until it answers
    for _ in range(240):
        if "idle" in page.evaluate(_KERNELS_JS, False):
            break
        page.wait_for_timeout(500)
    page.wait_for_timeout(1000)
    page.get_by_role("menuitem", name="Run").click()
    page.get_by_role("menuitem", name=re.compile("^Run All Cells")).click()
    if selector is not None:
        expect(page.locator(f"canvas{selector}").first).to_be_visible(timeout=180_000)
        assert_canvas_not_blank(page, f"canvas{selector}", timeout=60)
    # the quiz is the lesson's last part (lesson 05's is its own, with radio choices)
    expect(page.locator(".jp-Notebook .quiz-option, .jp-Notebook .risk-quiz-choice").first).to_be_attached(timeout=180_000)
    page.wait_for_timeout(1000)
    # every map the lesson drew lets Tab, Shift+Tab and Esc out
    canvases = page.locator(".jp-Notebook canvas")
    checked = 0
    for i in range(canvases.count()):
        canvas = canvases.nth(i)
        if canvas.evaluate(_HIDDEN_BY_CSS_JS):  # e.g. the heat map's drawing for the other width
            continue
        canvas.scroll_into_view_if_needed()
        if not canvas.is_visible():
            continue
        for key in ("Tab", "Shift+Tab", "Escape"):
            canvas.evaluate("c => c.focus()")
            if not page.evaluate("c => document.activeElement === c", canvas.element_handle()):
                break  # a canvas that takes no focus cannot trap it
            page.keyboard.press(key)
            still = page.evaluate("c => document.activeElement === c", canvas.element_handle())
            assert not still, f"{key} does not leave map {i} ({canvas.get_attribute('class')}) in JupyterLab"
            checked += 1
    if selector is not None:
        assert checked >= 3, f"lesson {lesson}'s map {selector} was never focused"
    # from the first map (or the lesson's first control), Tab reaches the lesson's last control
    n = mark_focusables(page)
    outputs = page.locator(".jp-Notebook .jp-OutputArea-output [data-te-walk]")
    target = int(outputs.last.get_attribute("data-te-walk") or -1)
    assert target >= 0, "the lesson's outputs have no control"
    start_at = page.locator(f"canvas{selector}").first if selector is not None else outputs.first
    start_at.scroll_into_view_if_needed()
    start_at.evaluate("c => c.focus()")
    start = focused_index(page)
    if start is None:  # a map that is not a tab stop: start from the control before it
        start_at.evaluate("c => c.blur()")
        start = -1
    assert start < target
    tab_until(page, target, limit=n + 40)
    save_screenshot(page, f"keyboard-jupyterlab-{lesson}-{lang}", full_page=False)
    if lesson == "04":  # a game beside the file browser: the whole map in view, legible
        from .test_touch_lessons import lesson04_board_fits

        lesson04_board_fits(page, lang, f"jupyterlab-lesson-04-board-{lang}")
