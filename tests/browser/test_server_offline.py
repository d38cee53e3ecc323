"""In a real browser (issue 19 §9, issue 20 §1): no request leaves the server, and the teacher's address
turns into a cookie that a second browser does not have.

Every request the page makes to a host other than the server fails the test (and is aborted, so
the machine's closed network cannot hide it as a slow timeout).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from typhoon_edu.server.serve import VoilaProcess

from .harness import POLICY_VIOLATIONS, REPO_ROOT, VIEWPORTS, save_screenshot
from .langs import flow_langs

pytestmark = pytest.mark.browser

DASHBOARD = REPO_ROOT / "notebooks" / "dashboard.ipynb"

ICONS_CODE = """import ipywidgets as widgets
from IPython.display import display
play = widgets.Button(description="play", icon="play")
play.add_class("typhoon-icon-probe")
display(widgets.HBox([play, widgets.Button(description="undo", icon="undo")]))
"""


def _icons_notebook(folder: Path) -> Path:
    cell = {"cell_type": "code", "execution_count": None, "id": "icons", "metadata": {}, "outputs": [],
            "source": ICONS_CODE.splitlines(keepends=True)}
    nb = {"cells": [cell], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                        "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    path = folder / "icons.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def _server(notebook: Path, folder: Path, lang: str = "en") -> VoilaProcess:
    env = {"TYPHOON_EDU_DB": f"sqlite:///{folder / 'rooms.sqlite3'}", "XDG_CONFIG_HOME": str(folder / "config")}
    return VoilaProcess(notebook, lang=lang, preheat=False, env={**os.environ, **env},
                        log_path=folder / "voila.log")


class ForeignRequests:
    """Aborts and records every request a page makes to another host than ``origin``'s."""

    def __init__(self, origin: str) -> None:
        self.netloc = urlsplit(origin).netloc
        self.seen: list[str] = []

    def __call__(self, route) -> None:  # noqa: ANN001
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != self.netloc:
            self.seen.append(url)
            route.abort()
        else:
            route.continue_()


@pytest.fixture
def context(chromium_browser) -> Iterator:  # noqa: ANN001
    ctx = chromium_browser.new_context(viewport=VIEWPORTS["laptop"])
    try:
        yield ctx
    finally:
        ctx.close()


def test_widget_icons_come_from_the_server_and_nothing_else_is_asked(tmp_path: Path, context) -> None:  # noqa: ANN001
    with _server(_icons_notebook(tmp_path), tmp_path) as server:
        server.wait_ready(timeout=90)
        origin = f"http://127.0.0.1:{server.port}/"
        foreign = ForeignRequests(origin)
        context.route("**/*", foreign)
        page = context.new_page()
        page.goto(origin, wait_until="load", timeout=120_000)
        page.locator(".typhoon-icon-probe").wait_for(state="visible", timeout=120_000)
        page.evaluate("document.fonts.ready")
        icon = page.locator(".typhoon-icon-probe i.fa").first
        content = icon.evaluate("i => getComputedStyle(i, '::before').content")
        family = icon.evaluate("i => getComputedStyle(i, '::before').fontFamily")
        loaded = page.evaluate("document.fonts.check('900 16px \"Font Awesome 5 Free\"')")
        width = icon.evaluate("i => i.getBoundingClientRect().width")
        save_screenshot(page, "server-offline-icons")
        assert foreign.seen == [], f"requests to other hosts: {foreign.seen}"
        assert content not in ("none", "normal", '""'), content  # the play glyph, from the local stylesheet
        assert "Font Awesome" in family and loaded and width > 4, (family, loaded, width)
        html = page.content()
        assert "cdn.jsdelivr.net" not in html


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_the_teachers_address_gives_the_setup_page_and_a_second_browser_the_join_page(
        tmp_path: Path, chromium_browser, lang: str) -> None:  # noqa: ANN001
    from typhoon_edu.classroom.store import RoomStore
    from typhoon_edu.classroom.teachers import ensure_local_teacher

    store = RoomStore(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    try:
        key = ensure_local_teacher(store, tmp_path / "config" / "typhoon-edu" / "teacher.key")
    finally:
        store.close()
    with _server(DASHBOARD, tmp_path, lang) as server:
        server.wait_ready(timeout=90)
        origin = f"http://127.0.0.1:{server.port}/"
        teacher = chromium_browser.new_context(viewport=VIEWPORTS["projector"])
        student = chromium_browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
        try:
            recorders = [ForeignRequests(origin), ForeignRequests(origin)]
            teacher.route("**/*", recorders[0])
            student.route("**/*", recorders[1])
            projector = teacher.new_page()
            projector.goto(f"{origin}?teacher={key}", wait_until="load", timeout=180_000)
            assert "teacher=" not in projector.url  # the key left the address bar at once
            projector.locator(".typhoon-setup-start").wait_for(state="visible", timeout=180_000)
            cookies = {c["name"]: c for c in teacher.cookies()}
            assert cookies["typhoon_teacher"]["value"] == key and cookies["typhoon_teacher"]["httpOnly"]
            assert cookies["typhoon_teacher"]["sameSite"] == "Strict"
            assert projector.evaluate("document.cookie").find(key) < 0  # HttpOnly: no script reads it
            save_screenshot(projector, f"server-teacher-setup-{lang}")

            phone = student.new_page()
            answer = phone.goto(origin, wait_until="load", timeout=180_000)  # "/" without the key: the join page
            assert answer is not None
            policy = answer.headers.get("content-security-policy", "")
            assert f"connect-src 'self' ws://127.0.0.1:{server.port} wss://127.0.0.1:{server.port};" in policy, policy
            assert "frame-ancestors 'self'" in policy and "default-src 'self'" in policy, policy
            phone.locator(".typhoon-join-code").first.wait_for(state="visible", timeout=180_000)
            assert phone.locator(".typhoon-setup-start").count() == 0
            phone.goto(f"{origin}join", wait_until="load", timeout=180_000)
            phone.locator(".typhoon-join-code").first.wait_for(state="visible", timeout=180_000)
            save_screenshot(phone, f"server-student-join-{lang}")
            for recorder in recorders:
                assert recorder.seen == [], f"requests to other hosts: {recorder.seen}"
            assert POLICY_VIOLATIONS == [], POLICY_VIOLATIONS  # the policy refused nothing the pages need

            # A script that got into a page cannot send what it reads to another host: the browser
            # refuses the request before it is made (the route recorder never sees it).
            phone.evaluate("fetch('http://127.0.0.2:9/leak', {mode: 'no-cors'}).catch(() => null)")
            phone.wait_for_timeout(300)
            assert any("connect-src" in v and "127.0.0.2" in v for v in POLICY_VIOLATIONS), POLICY_VIOLATIONS
            assert recorders[1].seen == []
            POLICY_VIOLATIONS.clear()
        finally:
            teacher.close()
            student.close()
