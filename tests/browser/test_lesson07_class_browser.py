"""Lesson 07's class round on the class server, in headless Chromium: the teacher's page (the projector) and two
teams' pages on touch devices, all on one Voilà serving the lesson with a room store (as ``typhoon-edu serve
--notebook …/07_forecast_challenge.ipynb`` does).

The teacher opens a round; each team types the code and its name, taps its three guesses on the map (touch only)
and sends them; the projector lists who sent, never where; a team's own Reveal stays disabled; the teacher's reveal
draws and ranks both teams, and each team's page shows its own errors; "next storm" moves the teams' pages on.
Screenshots: ``artifacts/screenshots/lesson-07-class-<lang>-*.png``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu.classroom.lesson_rounds import LessonRounds
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.lessons.common import lt
from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR

from .harness import LOG_DIR, REPO_ROOT, assert_canvas_not_blank, save_screenshot
from .langs import flow_langs
from .teacher_page import teacher_url
from .touch_helpers import mouse_events, touch_page

pytestmark = pytest.mark.browser

MAP = ".forecast-map"
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1366, "height": 768}
BACK_ROW_PX = 22  # the smallest type the projector's class round may use (the class-play screens' event log)


@pytest.fixture
def lesson_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[VoilaProcess, RoomStore, str]]:
    lang = getattr(request, "param", "en")
    db = sqlite_url(tmp_path / "rooms.sqlite3")
    proc = VoilaProcess(notebook=REPO_ROOT / "notebooks" / lang / "07_forecast_challenge.ipynb", lang=lang,
                        preheat=True, pool_size=3, show_tracebacks=True, db=db,
                        env={**os.environ, CLASS_SERVER_ENV_VAR: "1"},
                        log_path=LOG_DIR / f"voila-lesson07-class-{lang}-{tmp_path.name}.log")
    proc.start()
    try:
        proc.wait_ready(timeout=120)
        yield proc, RoomStore(db), lang
    finally:
        proc.stop()


def _ready(page: Page) -> None:
    expect(page.locator(".forecast-class-round").first).to_be_visible(timeout=180_000)
    assert_canvas_not_blank(page, MAP, timeout=60)


def _check_projector(page: Page, teams: int) -> None:
    """At 1920×1080 the ranked table stands beside the map, on screen with it, in type the back row can read."""
    board = page.locator(".forecast-class-board table").first
    map_box, table_box = page.locator(MAP).first.bounding_box(), board.bounding_box()
    assert map_box is not None and table_box is not None
    assert table_box["x"] >= map_box["x"] + map_box["width"] - 1, (map_box, table_box)
    assert 0 <= table_box["y"] and table_box["y"] + table_box["height"] <= PROJECTOR["height"], table_box
    sizes = page.evaluate("""() => [...document.querySelectorAll('.forecast-class-board th, .forecast-class-board td,'
        + ' .forecast-class-code-text')].map(e => parseFloat(getComputedStyle(e).fontSize))""")
    cells = 6 * (1 + teams)  # rank, team, +24 h, +48 h, +72 h, mean: a header row and a row per team
    assert len(sizes) == cells + 1 and min(sizes) >= BACK_ROW_PX, f"too small for the back row: {sizes} (need {BACK_ROW_PX} px)"


def _tap(page: Page, selector: str) -> None:
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None, selector
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _tap_map(page: Page, fx: float, fy: float) -> None:
    canvas = page.locator(MAP).first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)


@pytest.mark.parametrize("lesson_server", flow_langs("en"), indirect=True)
def test_teams_send_from_their_devices_and_the_teacher_reveals(
    lesson_server: tuple[VoilaProcess, RoomStore, str], chromium_browser: Browser,
) -> None:
    proc, store, lang = lesson_server
    teacher = chromium_browser.new_context(viewport=PROJECTOR, device_scale_factor=1, locale=lang).new_page()
    teacher.set_default_timeout(60_000)
    teacher.goto(teacher_url(proc), timeout=120_000)
    _ready(teacher)
    expect(teacher.locator(".forecast-class-open")).to_be_visible()
    teacher.locator(".forecast-class-open").click()
    code_text = teacher.locator(".forecast-class-code-text")
    expect(code_text).to_be_visible(timeout=30_000)
    code = code_text.inner_text().split()[-1].split("：")[-1]
    rounds = LessonRounds(store)
    assert rounds.round(code).accepting

    teams = {"Owls" if lang == "en" else "貓頭鷹隊": 0.35, "Bats" if lang == "en" else "蝙蝠隊": 0.65}
    pages: dict[str, Page] = {}
    for name, fy in teams.items():
        page = touch_page(chromium_browser, PHONE, locale=lang)
        page.goto(proc.url, timeout=120_000)
        _ready(page)
        # a team's page has no teacher's buttons, and its own Reveal is off while the round is open
        assert page.locator(".forecast-class-open, .forecast-class-reveal, .forecast-class-next").count() == 0
        page.locator(".forecast-class-code-input input").fill(code.lower())
        page.locator(".forecast-class-team input").fill(name)
        _tap(page, ".forecast-class-join")
        expect(page.locator(".forecast-class-joined")).to_contain_text(code, timeout=30_000)
        expect(page.locator(".forecast-reveal")).to_be_disabled()
        for fx in (0.42, 0.36, 0.30):  # west of the storm, a guess per tap
            _tap_map(page, fx, fy)
            page.wait_for_timeout(400)
        expect(page.locator(".forecast-status").first).to_contain_text("72", timeout=15_000)
        assert mouse_events(page) == 0, "the guesses came from taps, not from synthesised clicks"
        _tap(page, ".forecast-class-send")
        expect(page.locator(".forecast-class-sent-ok")).to_contain_text(name, timeout=30_000)
        pages[name] = page

    view = teacher.locator(".forecast-class-view")
    for name in teams:
        expect(view).to_contain_text(name, timeout=30_000)  # the kernel's poll brought both in
    assert len(rounds.entries(code, rounds.round(code).stage)) == 2
    save_screenshot(teacher, f"lesson-07-class-{lang}-teacher-sent", full_page=False)

    teacher.locator(".forecast-class-reveal").click()
    expect(view.locator("table")).to_be_visible(timeout=30_000)
    expect(view).to_contain_text(lt("forecast.col_rank", lang))
    assert not rounds.round(code).accepting
    teacher.locator(MAP).first.scroll_into_view_if_needed()
    save_screenshot(teacher, f"lesson-07-class-{lang}-teacher-revealed", full_page=False)
    _check_projector(teacher, len(teams))
    teacher.set_viewport_size(LAPTOP)
    teacher.locator(MAP).first.scroll_into_view_if_needed()
    save_screenshot(teacher, f"lesson-07-class-{lang}-teacher-revealed-1366x768", full_page=False)
    assert teacher.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"], "the projector page is wider than the screen"
    for name, page in pages.items():
        expect(page.locator(".forecast-results")).to_be_visible(timeout=30_000)  # each team's own errors
        save_screenshot(page, f"lesson-07-class-{lang}-team-{'a' if name == next(iter(teams)) else 'b'}-revealed",
                        full_page=False)

    before = pages[next(iter(teams))].locator(".forecast-challenge select").first.input_value()
    teacher.locator(".forecast-class-next").click()
    for page in pages.values():
        expect(page.locator(".forecast-challenge select").first).not_to_have_value(before, timeout=30_000)
        expect(page.locator(".forecast-class-send")).to_be_enabled()
    for page in (teacher, *pages.values()):
        assert "Traceback (most recent call last)" not in page.content()
        page.context.close()
