"""Fixtures for the real-browser tests (Voilà + Playwright + Debian's Chromium).

Summary (see each fixture's docstring):

* ``voila(notebook, *, lang="zh-TW", preheat=False, fresh=False, env=None) -> VoilaProcess``:
  starts Voilà on a notebook (same command line as ``typhoon-edu serve``), on a free port, waits
  until it answers; servers are shared per arguments within the session and stopped at its end.
  ``server.url`` is the page.
* ``jupyter_server(root_dir=REPO_ROOT) -> JupyterServerProcess``: Jupyter Server with the Voilà
  extension (Binder's path); ``server.voila_url("notebooks/dashboard.ipynb")``.
* ``chromium_browser``: one headless Chromium for the session.
* ``viewport``: ``"laptop"`` (1366x768) by default; parametrize it by name to get
  ``"projector"`` (1920x1080): ``@pytest.mark.parametrize("viewport", ["laptop", "projector"])``.
* ``page``: a fresh browser context + page at that viewport; on failure a screenshot
  ``FAILED-<test>.png`` is saved. ``page_errors`` lists uncaught page errors and console errors.
* ``screenshot(page, name=None) -> Path``: saves ``artifacts/screenshots/<name or test id>.png``.

Mark browser tests with ``pytestmark = pytest.mark.browser`` (tests/conftest.py skips or fails them
when Chromium is missing).
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess

from .binder_build import BINDER
from .harness import (
    LOG_DIR,
    POLICY_VIOLATIONS,
    REPO_ROOT,
    VIEWPORTS,
    JupyterServerProcess,
    chromium_problem,
    launch_chromium,
    leave_pages,
    save_screenshot,
    slugify,
    watch_policy,
)
from .touch_helpers import classroom_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

VoilaFactory = Callable[..., VoilaProcess]
_counter = itertools.count(1)
#: Browser contexts opened and not yet closed: each test's are closed when it ends.
OPEN_CONTEXTS: set[Any] = set()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Remember each phase's report on the item, so fixtures can tell whether the test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def voila() -> Iterator[VoilaFactory]:
    """Factory: ``voila(notebook, *, lang="zh-TW", preheat=False, fresh=False, env=None, timeout=90)``.

    Returns a ready :class:`VoilaProcess`. Calls with the same arguments share one server unless
    ``fresh=True`` (use that for tests that restart kernels or need a pristine server). Preheating
    is off by default so that a test's page load does not race a pool refill on a 2-core machine;
    pass ``preheat=True`` to test exactly what ``typhoon-edu serve`` runs. Tracebacks are shown in
    the page, and each server logs to ``artifacts/logs/``.
    """
    servers: dict[tuple[object, ...], VoilaProcess] = {}
    started: list[VoilaProcess] = []

    def start(
        notebook: str | Path,
        *,
        lang: str = "zh-TW",
        preheat: bool = False,
        fresh: bool = False,
        env: Mapping[str, str] | None = None,
        timeout: float = 90.0,
    ) -> VoilaProcess:
        path = Path(notebook)
        if not path.is_absolute():
            path = REPO_ROOT / path
        path = path.resolve()
        key = (path, lang, preheat, tuple(sorted((env or {}).items())))
        if not fresh and key in servers:
            return servers[key]
        full_env = {**os.environ, **env} if env else None
        server = VoilaProcess(
            notebook=path,
            lang=lang,
            preheat=preheat,
            show_tracebacks=True,
            env=full_env,
            log_path=LOG_DIR / f"voila-{slugify(path.stem)}-{lang}-{os.getpid()}-{next(_counter)}.log",
        )
        started.append(server)
        server.start()
        server.wait_ready(timeout=timeout)
        if not fresh:
            servers[key] = server
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def jupyter_server() -> Iterator[Callable[..., JupyterServerProcess]]:
    """Factory: ``jupyter_server(root_dir=REPO_ROOT, *, python=sys.executable, timeout=90)``.

    Jupyter Server with the Voilà server extension, as Binder serves; ``python`` may be another
    environment's interpreter (e.g. a venv built from ``binder/``). One server per (folder,
    interpreter) for the whole session, however many tests ask for it; stopped at session end.
    """
    started: list[JupyterServerProcess] = []
    servers: dict[tuple[Path, str], JupyterServerProcess] = {}

    def start(root_dir: Path = REPO_ROOT, *, python: str | None = None, timeout: float = 90.0) -> JupyterServerProcess:
        key = (Path(root_dir).resolve(), python or sys.executable)
        if key in servers:
            return servers[key]
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        server = JupyterServerProcess(
            root_dir=Path(root_dir),
            python=python or sys.executable,
            log_path=LOG_DIR / f"jupyter-server-{os.getpid()}-{next(_counter)}.log",
        )
        started.append(server)
        server.start()
        server.wait_ready(timeout=timeout)
        servers[key] = server
        return server

    yield start
    for server in started:
        server.stop()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start building Binder's environment at once when its test is selected (it runs meanwhile; binder_build.py).

    Not when the browser cannot run here: the test is then skipped (or failed under CI) without it.
    """
    if chromium_problem() is None and any(item.path.name == "test_binder_path.py" for item in session.items):
        BINDER.start()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    BINDER.stop()


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[VoilaProcess, RoomStore]]:
    """The class-play app on a fresh room store, in the language the test is parametrized with (``en``
    if not: parametrize ``server`` indirectly); stopped when the test ends.

    One server per test, not one per session: a shared server, its store emptied between tests, failed
    once in CI (a curtain test's setup form never answered its clicks after the real-room test had
    used the same server), and a fresh one costs only its start (about 2 s) and its pool's warm-up.
    """
    with classroom_server(tmp_path, getattr(request, "param", "en")) as started:
        yield started


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    """Playwright's sync API, started once per session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def chromium_browser(playwright_session: Playwright) -> Iterator[Browser]:
    """Headless Debian Chromium (``/usr/bin/chromium``) with root/no-GPU/no-network flags.

    Every context it makes reports Content-Security-Policy violations (see ``_no_policy_violations``).
    """
    browser = launch_chromium(playwright_session)
    new_context, new_page = browser.new_context, browser.new_page

    def tracked(context: Any) -> Any:
        close = context.close

        def close_like_tabs(*args: object, **kwargs: object) -> None:
            leave_pages(context)
            OPEN_CONTEXTS.discard(context)
            close(*args, **kwargs)

        context.close = close_like_tabs
        OPEN_CONTEXTS.add(context)
        return watch_policy(context)

    def watched_context(*args: object, **kwargs: object) -> object:
        return tracked(new_context(*args, **kwargs))

    def watched_page(*args: object, **kwargs: object) -> object:
        page = new_page(*args, **kwargs)
        tracked(page.context)
        return page

    browser.new_context = watched_context  # type: ignore[method-assign,assignment]
    browser.new_page = watched_page  # type: ignore[method-assign,assignment]
    yield browser
    browser.close()


@pytest.fixture(autouse=True)
def _no_policy_violations(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test fails when a page broke the server's Content-Security-Policy (something the
    pages need was refused, or a page tried to reach another host); a test that provokes one on
    purpose clears :data:`~tests.browser.harness.POLICY_VIOLATIONS` itself."""
    POLICY_VIOLATIONS.clear()
    yield
    for context in list(OPEN_CONTEXTS):  # what the test left open is closed like tabs (see leave_pages)
        try:
            context.close()
        except Exception:  # noqa: BLE001 - a context already gone with its browser
            OPEN_CONTEXTS.discard(context)
    found, POLICY_VIOLATIONS[:] = list(POLICY_VIOLATIONS), []
    if found and request.node.get_closest_marker("browser") is not None:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(found[:10]), pytrace=False)


@pytest.fixture
def viewport() -> str:
    """Viewport preset name (``"laptop"`` or ``"projector"``); parametrize by name to change it."""
    return "laptop"


@pytest.fixture
def page_errors() -> list[str]:
    """Uncaught page errors and console errors seen by ``page`` during the test."""
    return []


@pytest.fixture
def page(
    chromium_browser: Browser, viewport: str, page_errors: list[str], request: pytest.FixtureRequest
) -> Iterator[Page]:
    """A new page in a fresh context at the ``viewport`` preset; screenshot saved if the test fails."""
    if viewport not in VIEWPORTS:
        raise ValueError(f"unknown viewport {viewport!r}: choose from {', '.join(VIEWPORTS)}")
    context = chromium_browser.new_context(viewport=VIEWPORTS[viewport], device_scale_factor=1, locale="zh-TW")
    new_page = context.new_page()
    new_page.set_default_timeout(30_000)
    new_page.on("pageerror", lambda exc: page_errors.append(f"pageerror: {exc}"))
    new_page.on("console", lambda msg: page_errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    yield new_page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        try:
            save_screenshot(new_page, f"FAILED-{request.node.name}")
        except Exception:  # noqa: BLE001 - a failed screenshot must not hide the real failure
            pass
    context.close()  # leaves its pages first (their beacons shut their kernels down): see leave_pages


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[..., Path]:
    """``screenshot(page, name=None, *, full_page=True) -> Path`` into ``artifacts/screenshots/``.

    ``name`` defaults to the test's id (e.g. ``test_smoke-laptop``).
    """

    def take(page: Page, name: str | None = None, *, full_page: bool = True) -> Path:
        return save_screenshot(page, name or request.node.name, full_page=full_page)

    return take
