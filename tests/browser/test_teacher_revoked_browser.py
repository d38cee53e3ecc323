"""A projector open with a teacher key that ``typhoon-edu teacher remove`` / ``teacher new-key`` takes away says so
within a poll, in its language, and keeps no teacher's control; a team's phone in that room keeps its game.

Real browser, real server and the real command: the projector (1920x1080) opens a colleague's room with her key and
starts the game from the lobby, a team's phone joins, the command runs, and the projector shows the notice.
Screenshots: ``artifacts/screenshots/teacher-revoked-<how>-<lang>.png`` (and the phone's).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu.classroom.links import load_link_secret
from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.classroom.teachers import add_teacher
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR

from .harness import LOG_DIR, REPO_ROOT, save_screenshot

pytestmark = pytest.mark.browser

DASHBOARD = REPO_ROOT / "notebooks" / "dashboard.ipynb"
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
NOTICE = {
    ("remove", "en"): ("This teacher key was removed", "ask the local teacher"),
    ("new-key", "en"): ("This teacher key was replaced", "sign in again with your new key"),
    ("remove", "zh-TW"): ("這把老師金鑰已被收回", "請本機老師"),
    ("new-key", "zh-TW"): ("這把老師金鑰已換成新的", "請用新金鑰重新登入"),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[VoilaProcess, RoomStore]]:
    tmp = tmp_path_factory.mktemp("revoked")
    db = sqlite_url(tmp / "rooms.sqlite3")
    saves = tmp / "saves"
    saves.mkdir()
    proc = VoilaProcess(notebook=DASHBOARD, lang="en", preheat=False, show_tracebacks=True, db=db,
                        env={**os.environ, "TYPHOON_EDU_SAVES": str(saves), CLASS_SERVER_ENV_VAR: "1"},
                        log_path=LOG_DIR / f"voila-revoked-{tmp.name}.log")
    proc.start()
    proc.wait_ready(timeout=120)
    store = RoomStore(db)
    store.link_secret = load_link_secret()  # the computer's secret, as the served kernels use it
    yield proc, store
    proc.stop()


def new_page(browser: Browser, size: dict[str, int]) -> Page:
    page = browser.new_context(viewport=size, device_scale_factor=1).new_page()
    page.set_default_timeout(60_000)
    return page


@pytest.mark.parametrize(("how", "lang"), [("remove", "en"), ("remove", "zh-TW"), ("new-key", "en"),
                                           ("new-key", "zh-TW")])
def test_the_projector_says_its_key_was_taken_away_and_hides_the_teachers_controls(
        served: tuple[VoilaProcess, RoomStore], chromium_browser: Browser, how: str, lang: str) -> None:
    proc, store = served
    lin, key = add_teacher(store, f"Ms Lin {how} {lang}")
    room = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea", "random")],
                       seed=5, lang=lang, teacher=lin, start="Japan")

    phone = new_page(chromium_browser, PHONE)  # the team joins first: the projector then opens on the board
    phone.goto(f"{proc.url}?seat={quote(room.issued_tokens['Taiwan'])}&device=phone-{how}-{lang}")
    expect(phone.locator(".typhoon-seat-head")).to_be_visible(timeout=120_000)
    projector = new_page(chromium_browser, PROJECTOR)
    projector.goto(f"{proc.url}?teacher={quote(key)}&room={room.code}&lang={lang}")
    teacher_button = projector.locator(".typhoon-teacher-button")
    expect(teacher_button).to_be_visible(timeout=120_000)
    teacher_button.click()  # the teacher's drawer, open: Pause, Undo, the join links
    expect(projector.locator(".typhoon-teacher-pause")).to_be_visible()
    projector.wait_for_timeout(1000)

    done = subprocess.run([sys.executable, "-m", "typhoon_edu", "teacher", how, lin.id, "--db", proc.db, "--lang", lang],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr

    title, todo = NOTICE[(how, lang)]
    notice = projector.locator(".typhoon-key-gone")
    expect(notice).to_contain_text(title, timeout=30_000)  # within a poll of the projector's update loop
    expect(notice).to_contain_text(todo)
    for control in (".typhoon-teacher-button", ".typhoon-teacher-pause", ".typhoon-join-link", "canvas",
                    ".typhoon-room-open", ".typhoon-setup-start"):
        assert projector.locator(control).count() == 0 or not projector.locator(control).first.is_visible(), control
    body = projector.locator("body").inner_text()
    assert "Traceback" not in body and "another teacher" not in body and "另一位老師" not in body
    box = notice.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PROJECTOR["height"]  # all of it on the wall, no scrolling
    save_screenshot(projector, f"teacher-revoked-{how}-{lang}", full_page=False)

    # the team's phone keeps its game: its seat is there, its page says no error
    phone.wait_for_timeout(1500)
    expect(phone.locator(".typhoon-seat-head")).to_be_visible()
    phone_text = phone.locator("body").inner_text()
    assert "Traceback" not in phone_text and not re.search(r"Something went wrong|出了問題", phone_text)
    save_screenshot(phone, f"teacher-revoked-{how}-{lang}-phone", full_page=False)
    for page in (projector, phone):
        page.context.close()
