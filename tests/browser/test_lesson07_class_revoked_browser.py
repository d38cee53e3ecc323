"""Lesson 07's class round on a teacher page open with a colleague's key that ``typhoon-edu teacher remove`` /
``teacher new-key`` takes away: the page says so in its language, with what to do, in place of its round controls
(open, code, reveal, next storm), and a team's page keeps working (docs/security.md row 41).

Real browser, real server (the lesson served with a room store, as ``typhoon-edu serve --notebook …`` does) and the
real command, the teacher's page at 1920x1080:

- ``remove``: the round is open and a team has joined; the command runs; the page notices at its next poll (the
  round changed owner), and the team still sends its forecast;
- ``new-key``: the command runs before any round; the page's "open a class round" is refused by the store and the
  page shows the notice instead of an error (before: it opened a round, "round opened: Z26HJ").

Screenshots: ``artifacts/screenshots/lesson-07-class-revoked-<how>-<lang>.png``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu.classroom.lesson_rounds import LessonRounds
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.classroom.teachers import add_teacher
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR

from .harness import LOG_DIR, REPO_ROOT, save_screenshot
from .test_lesson07_class_browser import _ready, _tap, _tap_map
from .touch_helpers import touch_page

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
NOTICE = {
    ("remove", "en"): ("This teacher key was removed", "ask the local teacher"),
    ("new-key", "en"): ("This teacher key was replaced", "sign in again with your new key"),
    ("remove", "zh-TW"): ("這把老師金鑰已被收回", "請本機老師"),
    ("new-key", "zh-TW"): ("這把老師金鑰已換成新的", "請用新金鑰重新登入"),
}
CONTROLS = (".forecast-class-open", ".forecast-class-reveal", ".forecast-class-next", ".forecast-class-code-text")


@pytest.fixture(scope="module", params=["en", "zh-TW"])
def lesson_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                  ) -> Iterator[tuple[VoilaProcess, RoomStore, str]]:
    lang = request.param
    tmp: Path = tmp_path_factory.mktemp(f"lesson07-revoked-{lang}")
    db = sqlite_url(tmp / "rooms.sqlite3")
    proc = VoilaProcess(notebook=REPO_ROOT / "notebooks" / lang / "07_forecast_challenge.ipynb", lang=lang,
                        preheat=True, pool_size=2, show_tracebacks=True, db=db,
                        env={**os.environ, CLASS_SERVER_ENV_VAR: "1"},
                        log_path=LOG_DIR / f"voila-lesson07-revoked-{lang}-{tmp.name}.log")
    proc.start()
    try:
        proc.wait_ready(timeout=120)
        yield proc, RoomStore(db), lang
    finally:
        proc.stop()


def take_away(proc: VoilaProcess, how: str, teacher_id: str, lang: str) -> None:
    """The real command, in a process of its own, while the server serves."""
    done = subprocess.run([sys.executable, "-m", "typhoon_edu", "teacher", how, teacher_id, "--db", proc.db,
                           "--lang", lang], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


def _no_error(page: Page) -> None:
    text = page.locator("body").inner_text()
    assert "Traceback" not in text and "only the teacher" not in text, text[-2000:]
    assert page.locator(".typhoon-problem-text:visible").count() == 0, page.locator(".typhoon-problem-text").all_inner_texts()


@pytest.mark.parametrize("how", ["remove", "new-key"])
def test_the_lesson_page_says_its_key_was_taken_away_and_hides_the_round_controls(
        lesson_server: tuple[VoilaProcess, RoomStore, str], chromium_browser: Browser, how: str) -> None:
    proc, store, lang = lesson_server
    lin, key = add_teacher(store, f"Ms Lin {how}")
    rounds = LessonRounds(store)
    teacher = chromium_browser.new_context(viewport=PROJECTOR, device_scale_factor=1, locale=lang).new_page()
    teacher.set_default_timeout(60_000)
    teacher.goto(f"{proc.url}?teacher={quote(key)}", timeout=120_000)
    _ready(teacher)
    expect(teacher.locator(".forecast-class-open")).to_be_visible()

    team: Page | None = None
    code = ""
    if how == "remove":  # a round open, a team in it; then the command: the page's poll notices
        teacher.locator(".forecast-class-open").click()
        code_text = teacher.locator(".forecast-class-code-text")
        expect(code_text).to_be_visible(timeout=30_000)
        code = code_text.inner_text().split()[-1].split("：")[-1]
        team = touch_page(chromium_browser, PHONE, locale=lang)
        team.goto(proc.url, timeout=120_000)
        _ready(team)
        team.locator(".forecast-class-code-input input").fill(code.lower())
        team.locator(".forecast-class-team input").fill("Owls" if lang == "en" else "貓頭鷹隊")
        _tap(team, ".forecast-class-join")
        expect(team.locator(".forecast-class-joined")).to_contain_text(code, timeout=30_000)
        take_away(proc, how, lin.id, lang)
    else:  # the command first; the page's next action is refused by the store
        take_away(proc, how, lin.id, lang)
        before = _round_owners(store)
        teacher.locator(".forecast-class-open").click()

    title, todo = NOTICE[(how, lang)]
    notice = teacher.locator(".forecast-class-key-gone")
    expect(notice).to_contain_text(title, timeout=30_000)
    expect(notice).to_contain_text(todo)
    for control in CONTROLS:
        assert teacher.locator(f"{control}:visible").count() == 0, control
    _no_error(teacher)
    box = notice.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PROJECTOR["height"], box  # on the wall
    save_screenshot(teacher, f"lesson-07-class-revoked-{how}-{lang}", full_page=False)
    if how == "new-key":
        assert _round_owners(store) == before  # no round was opened for the old key (nor for any other)

    if team is not None:  # the team's page keeps working: it places its guesses and sends them
        for fx in (0.42, 0.36, 0.30):
            _tap_map(team, fx, 0.4)
            team.wait_for_timeout(400)
        expect(team.locator(".forecast-status").first).to_contain_text("72", timeout=15_000)
        _tap(team, ".forecast-class-send")
        expect(team.locator(".forecast-class-sent-ok")).to_be_visible(timeout=30_000)
        assert len(rounds.entries(code, rounds.round(code).stage)) == 1 and rounds.round(code).accepting
        _no_error(team)
        team.context.close()
    teacher.context.close()


def _round_owners(store: RoomStore) -> list[str]:
    import sqlalchemy as sa

    from typhoon_edu.classroom.lesson_rounds import LESSON_ROUNDS

    with store.transaction("read the rounds") as conn:
        if not sa.inspect(conn).has_table(LESSON_ROUNDS.name):
            return []
        return [r.owner for r in conn.execute(sa.select(LESSON_ROUNDS.c.owner))]
