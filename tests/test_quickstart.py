"""The README's quick start on a fresh machine, and the release: one chain of slow tests (a few minutes).

1. The README's first command (its Quick start's first code block), run in a fresh ``git clone`` of
   this repository with Debian's system Python (``/usr/bin/python3``: externally managed, PEP 668)
   and a bare environment (``env -i PATH=/usr/bin:/bin HOME=…``, no pyenv), makes ``.venv``,
   installs the project and starts class play: the page answers on 127.0.0.1, SIGTERM stops it.
   Run again, it reuses ``.venv`` without installing anything.
2. ``python -m build`` makes a wheel and an sdist from that clone with the lessons, the data and the
   credits in them; ``twine check`` passes.
3. The wheel replaces the editable install in that same environment (it holds nothing but the
   project's own dependencies; making a second one would cost CI another minute and a half), and,
   run from outside the clone, ``typhoon-edu serve`` answers, ``typhoon-edu lessons --no-browser``
   answers with its copy made, and nbval runs one copied lesson.

Skipped only where ``/usr/bin/python3`` or git is missing. Everything talks to 127.0.0.1 only.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest
from package_helpers import CommandRun, free_port
from serve_helpers import http_request, port_is_free, wait_until

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = Path("/usr/bin/python3")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SYSTEM_PYTHON.is_file(), reason="no Debian system Python at /usr/bin/python3"),
    pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout"),
]


def quick_start_commands(readme: str) -> list[str]:
    """The commands of the README's Quick start: the first line of each of its code blocks, in order."""
    section = readme.split("\n## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip().split("\n")[0] for block in re.findall(r"```(?:bash|sh|console)?\n(.*?)```", section, re.S)]


def bare_env(**extra: str) -> dict[str, str]:
    """A bare environment as a fresh terminal has it: PATH without pyenv, HOME (for pip's own settings)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("quickstart") / "typhoon-edu"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(where)], check=True, timeout=300)
    return where


def test_the_quick_start_holds_the_start_and_the_test_command():
    commands = quick_start_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    assert commands[:2] == ["python3 scripts/start.py", "bash scripts/test.sh"], commands


@pytest.fixture(scope="module")
def started(clone: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The README's first command, run once in the fresh clone; what it printed and how long it took."""
    first = quick_start_commands((ROOT / "README.md").read_text(encoding="utf-8"))[0]
    python, script = first.split()
    assert python == "python3" and shutil.which("python3", path="/usr/bin:/bin") == str(SYSTEM_PYTHON)
    port = free_port()
    db = tmp_path_factory.mktemp("rooms") / "rooms.db"
    began = time.monotonic()
    run = CommandRun([str(SYSTEM_PYTHON), script, "--no-browser", "--port", str(port), "--lang", "en", "--db", str(db)],
                     env=bare_env(), cwd=clone).start()
    try:
        run.wait_for(rf"dashboard: http://127.0.0.1:{port}/\?teacher=\S+", 900)
        ready = time.monotonic() - began
        status, _, page = http_request(port, "/", timeout=240)
        code = run.terminate(60)
        wait_until(lambda: port_is_free(port), 30, what="the dashboard's port freed")
        left = run.processes()
    finally:
        run.stop()
    return {"output": run.text(), "ready": ready, "status": status, "page": page, "code": code, "left": left}


def test_the_first_command_starts_class_play_from_a_fresh_clone_with_the_system_python(clone, started):
    assert (clone / ".venv" / "bin" / "typhoon-edu").is_file()
    assert "Installing typhoon-edu" in started["output"]
    assert started["status"] == 200 and "voila" in started["page"].lower(), started["output"]
    assert started["code"] == 0 and started["left"] == [], started["output"]
    cfg = (clone / ".venv" / "pyvenv.cfg").read_text()
    assert "home = /usr/bin" in cfg  # made by Debian's python3, not by pyenv's
    sys.stderr.write(f"\nquick start: ready after {started['ready']:.0f} s\n")


def test_the_second_run_reuses_the_environment(clone, started):
    began = time.monotonic()
    out = subprocess.run([str(SYSTEM_PYTHON), "scripts/project_env.py"], cwd=clone, env=bare_env(),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == str(clone / ".venv" / "bin" / "python"), out
    assert "Installing" not in out.stderr and time.monotonic() - began < 30


@pytest.fixture(scope="module")
def dist(clone: Path, started: dict[str, object], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(clone)], check=True,
                   capture_output=True, timeout=600)
    return out


def test_build_makes_a_wheel_and_an_sdist_with_the_lessons_data_and_credits(dist):
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    with zipfile.ZipFile(wheels[0]) as whl:
        names = set(whl.namelist())
    for lang in ("en", "zh-TW"):
        lessons = sorted(n.rsplit("/", 1)[1] for n in names if re.fullmatch(rf"typhoon_edu/notebooks/{lang}/\d\d_\w+\.ipynb", n))
        assert lessons == sorted(p.name for p in (ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb")), lang
        assert len(lessons) >= 6, lang
    assert "typhoon_edu/notebooks/dashboard.ipynb" in names
    for data in ("typhoon_edu/data/cards.toml", "typhoon_edu/data/real/jma_best_tracks_2015_2021.txt",
                 "typhoon_edu/data/real/east_asia_countries_110m.geojson", "typhoon_edu/data/i18n/zh-TW.lessonbook.toml"):
        assert data in names, data
    assert "typhoon_edu/data/real/CREDITS.md" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert any(n.endswith(".dist-info/licenses/typhoon_edu/data/real/CREDITS.md") for n in names)
    assert not any("smoke" in n or n.startswith("tests/") for n in names)
    with tarfile.open(sdists[0]) as sdist:
        members = {m.split("/", 1)[1] for m in sdist.getnames() if "/" in m}
    assert {"notebooks/en/01_compass_rolls.ipynb", "notebooks/zh-TW/06_real_typhoons.ipynb", "notebooks/dashboard.ipynb",
            "setup.py", "CHANGELOG.md", "LICENSE", "typhoon_edu/data/real/CREDITS.md"} <= members


def test_twine_check_passes(dist):
    out = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, sorted(dist.iterdir()))],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.count("PASSED") == 2, out.stdout + out.stderr


@pytest.fixture(scope="module")
def wheel_env(clone: Path, dist: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The clone's .venv with the built wheel installed in place of the editable checkout, plus nbval."""
    python = clone / ".venv" / "bin" / "python"
    wheel = next(dist.glob("*.whl"))
    env = bare_env(PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(wheel)],
                   check=True, env=env, timeout=600)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "pytest", "nbval"], check=True, env=env, timeout=600)
    outside = tmp_path_factory.mktemp("elsewhere")  # not the clone: nothing may come from its files
    return {"python": python, "bin": python.parent, "cwd": outside}


def test_the_wheel_is_what_runs(wheel_env):
    out = subprocess.run([str(wheel_env["python"]), "-c",
                          "import typhoon_edu, typhoon_edu.server.serve as s, typhoon_edu.lessonbook as b;"
                          "print(typhoon_edu.__file__); print(s.default_notebook()); print(b.shipped_lessons_dir('en'))"],
                         cwd=wheel_env["cwd"], env=bare_env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    for line in out.stdout.split():
        assert "site-packages" in line, out.stdout


def test_the_wheel_serves_class_play(wheel_env, tmp_path):
    port = free_port()
    run = CommandRun([str(wheel_env["bin"] / "typhoon-edu"), "serve", "--no-browser", "--port", str(port), "--lang", "en",
                      "--db", str(tmp_path / "rooms.db")], env=bare_env(), cwd=wheel_env["cwd"]).start()
    try:
        run.wait_for(rf"dashboard: http://127.0.0.1:{port}/\?teacher=\S+", 240)
        status, _, page = http_request(port, "/", timeout=240)
        assert status == 200 and "voila" in page.lower()
        assert run.terminate(60) == 0
    finally:
        run.stop()


def test_the_wheel_opens_the_lessons_and_nbval_runs_a_copied_lesson(wheel_env, tmp_path):
    port = free_port()
    folder = tmp_path / "my lessons"
    run = CommandRun([str(wheel_env["bin"] / "typhoon-edu"), "lessons", "--no-browser", "--lang", "en",
                      "--port", str(port), "--dir", str(folder)], env=bare_env(), cwd=wheel_env["cwd"]).start()
    try:
        # the ready line (the address is said once as the server starts, and again when it answers)
        found = run.wait_for(r"Lessons in JupyterLab: http://localhost:\d+/lab/tree/en/00_index\.ipynb\?token=(\S+)", 240)
        status, _, body = http_request(port, f"/api/contents/en/01_compass_rolls.ipynb?token={found.group(1)}",
                                       timeout=60)
        assert status == 200 and "Run All Cells" in body
        assert run.terminate(60) == 0
    finally:
        run.stop()
    lesson = folder / "en" / "01_compass_rolls.ipynb"
    assert lesson.is_file() and (folder / "en" / "00_index.ipynb").is_file()
    out = subprocess.run([str(wheel_env["python"]), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax",
                          str(lesson)], cwd=folder, env=bare_env(), capture_output=True, text=True, timeout=600)
    assert out.returncode == 0 and re.search(r"\d+ passed", out.stdout), out.stdout[-3000:] + out.stderr[-2000:]
