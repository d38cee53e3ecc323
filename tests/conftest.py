"""Generic test configuration: markers and the rule for tests that need a real browser.

Tests marked ``@pytest.mark.browser`` need Debian's Chromium (``/usr/bin/chromium``) and the
``playwright`` package. Without them they are *skipped* on a developer machine, but *fail* under
CI (``CI=true``), where ``.ci/run`` installs Chromium: a CI run must never go green by skipping
its browser tests. Deselect them locally with ``-m "not browser"``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from typhoon_edu.classroom.store import RoomStore

# ``--hypothesis-profile=long``: a longer local run. Tests that name their own example counts
# (tests/test_properties.py) keep them; the record fuzz suite (tests/test_fuzz_records.py)
# multiplies its counts by 25 under this profile and draws fresh random inputs.
settings.register_profile("long", max_examples=2_500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

REPO_ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_PATH = Path(os.environ.get("TYPHOON_EDU_CHROMIUM", "/usr/bin/chromium"))


def _under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _browser_problem() -> str | None:
    if not CHROMIUM_PATH.is_file():
        return f"{CHROMIUM_PATH} is missing (apt-get install -y chromium fonts-noto-cjk)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install -e '.[test]')"
    return None


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers (also declared in pyproject.toml, repeated so any config works)."""
    config.addinivalue_line("markers", "browser: real headless Chromium tests (Playwright driving Debian's chromium)")
    config.addinivalue_line("markers", "slow: long property or simulation tests")
    config.addinivalue_line("markers", "pyodide: the engine in Pyodide under Node.js (tests/pyodide_runner.py)")


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (locally) or fail (under CI) a browser or Pyodide test when what it needs is missing."""
    for marker, find_problem in (("browser", _browser_problem), ("pyodide", _pyodide_problem)):
        if item.get_closest_marker(marker) is None:
            continue
        problem = find_problem()
        if problem is None:
            continue
        if _under_ci():
            pytest.fail(f"{marker} test cannot run under CI: {problem}", pytrace=False)
        pytest.skip(f"{marker} test skipped: {problem}")


def _pyodide_problem() -> str | None:
    if str(REPO_ROOT / "tests") not in sys.path:
        sys.path.insert(0, str(REPO_ROOT / "tests"))
    from pyodide_runner import pyodide_problem

    return pyodide_problem()


@pytest.fixture(scope="session", autouse=True)
def _saves_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Games the tests save go to a temporary folder, never the user's own saves.

    Set for the whole session, so the notebooks, Voilà and Jupyter servers the tests start
    inherit it too (a test that gives a server its own ``TYPHOON_EDU_SAVES`` still wins).
    """
    saves = tmp_path_factory.mktemp("saves")
    before = os.environ.get("TYPHOON_EDU_SAVES")
    os.environ["TYPHOON_EDU_SAVES"] = str(saves)
    yield saves
    if before is None:
        del os.environ["TYPHOON_EDU_SAVES"]
    else:
        os.environ["TYPHOON_EDU_SAVES"] = before


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """``artifacts/`` at the repository root (gitignored): screenshots, logs, reports."""
    path = REPO_ROOT / "artifacts"
    path.mkdir(exist_ok=True)
    return path


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last.

    Playwright's sync API keeps an asyncio loop marked as running in the main thread for as
    long as its session-scoped browser lives; widgets that check for a running loop (the
    dashboard's bot pacing, animations) would then schedule work that never runs in the other
    tests. Running every other test first keeps them independent of the browser.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


# ---------------------------------------------------------------------- the room store's databases
@pytest.fixture(scope="session", autouse=True)
def _room_database_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Rooms the tests create go to a temporary SQLite file, never the user's own database.

    Set for the whole session, so servers and kernels the tests start inherit it too.
    """
    db = tmp_path_factory.mktemp("rooms") / "rooms.sqlite3"
    before = os.environ.get("TYPHOON_EDU_DB")
    os.environ["TYPHOON_EDU_DB"] = str(db)
    yield db
    if before is None:
        del os.environ["TYPHOON_EDU_DB"]
    else:
        os.environ["TYPHOON_EDU_DB"] = before


def _postgres_problem() -> str | None:
    from typhoon_edu.classroom.pgserver import find_pg_bin

    if find_pg_bin() is None:
        return "PostgreSQL's binaries are not installed (apt-get install -y postgresql; scripts/test.sh does it)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the psycopg package is missing (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[object]:
    """A real PostgreSQL server in a temporary folder (as an unprivileged user under root), for the session.

    Skipped with the reason when PostgreSQL is not installed locally; under CI (``CI=true``),
    where scripts/test.sh installs it, a missing or failing server fails the tests instead.
    """
    from typhoon_edu.classroom.pgserver import TempPostgres

    problem = _postgres_problem()
    server = None
    if problem is None:
        try:
            server = TempPostgres().start()
        except Exception as exc:  # noqa: BLE001 - reported as the reason below
            problem = f"PostgreSQL did not start: {exc}"
    if problem is not None:
        if _under_ci():
            pytest.fail(f"PostgreSQL tests cannot run under CI: {problem}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {problem}")
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty room database: a SQLite file, or a new schema on the PostgreSQL server."""
    if request.param == "sqlite":
        from typhoon_edu.classroom.store import sqlite_url

        return sqlite_url(tmp_path / "rooms.sqlite3")
    import uuid

    server = request.getfixturevalue("postgres_server")
    return server.create_schema(f"t_{uuid.uuid4().hex[:12]}")


@pytest.fixture
def store(tmp_path: Path) -> RoomStore:
    """A class-play room store in a fresh SQLite file (a test file that needs another database defines its own)."""
    from typhoon_edu.classroom.store import RoomStore, sqlite_url

    return RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))


@pytest.fixture
def canvas_batches() -> Iterator[list[Any]]:
    """The drawing batches every ipycanvas canvas sends its page from now on (each a list of commands, or one
    command), caught instead of sent."""
    from ipycanvas.canvas import _CANVAS_MANAGER

    sent: list[Any] = []
    _CANVAS_MANAGER._send_custom = lambda command, buffers=(): sent.append(command)
    try:
        yield sent
    finally:
        del _CANVAS_MANAGER._send_custom


@pytest.fixture(scope="session", autouse=True)
def _answers_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Students' answers the tests keep (typhoon_edu.ui.quiz.AnswerStore) go to a temporary folder,
    never beside the notebooks of the checkout. Set for the session, so kernels the tests start inherit it."""
    answers = tmp_path_factory.mktemp("answers")
    before = os.environ.get("TYPHOON_EDU_ANSWERS")
    os.environ["TYPHOON_EDU_ANSWERS"] = str(answers)
    yield answers
    if before is None:
        del os.environ["TYPHOON_EDU_ANSWERS"]
    else:
        os.environ["TYPHOON_EDU_ANSWERS"] = before


@pytest.fixture(autouse=True)
def _fresh_answer_sheets() -> Iterator[None]:
    """Each test starts with no lesson answer sheets: one test's answers never show up in another's."""
    yield
    try:
        from typhoon_edu.ui.quiz import forget_sheets
    except ImportError:  # pragma: no cover - a checkout without the lessons
        return
    forget_sheets()
