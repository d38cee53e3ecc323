"""The pieces of packaging that need no fresh clone: the environment script's messages and fallbacks,
every lesson's how-to-run cell, and that the kernels the tests start are this environment's Python.

The whole path (fresh clone, the README's command, the built wheel) is tests/test_quickstart.py.
"""

from __future__ import annotations

import argparse
import doctest
import importlib.util
import json
import string
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from typhoon_edu import lessonbook
from typhoon_edu.i18n import t

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = Path("/usr/bin/python3")


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # start.py imports project_env by name; doctest finds functions through it
    spec.loader.exec_module(module)
    return module


project_env = _load("project_env")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_of_the_environment_script_is_in_both_languages_with_the_same_fields():
    en, zh = project_env.MESSAGES["en"], project_env.MESSAGES["zh-TW"]
    assert set(en) == set(zh) and len(en) >= 8
    for key in en:
        assert _fields(en[key]) == _fields(zh[key]), key
        assert "台" not in zh[key], key  # 臺 as written in Taiwan


def test_the_start_script_passes_every_typhoon_edu_command_through():
    """`python3 scripts/start.py teacher list` runs `typhoon-edu teacher list`, not `serve teacher list`."""
    from typhoon_edu.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(_load("start").COMMANDS) == set(sub.choices)


@pytest.mark.parametrize("name", ["project_env", "start"])
def test_the_scripts_doctests_pass(name):
    module = _load(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0, result


def test_without_venv_support_the_message_says_which_package_to_install(tmp_path):
    # A Python with neither ensurepip nor pip: a venv made without pip stands in for Debian's bare python3.
    bare = tmp_path / "bare"
    venv.EnvBuilder(with_pip=False).create(bare)
    target = tmp_path / "checkout" / ".venv"
    with pytest.raises(project_env.EnvProblem) as problem:
        project_env.make_venv(target, "en", python=str(project_env.venv_executable(bare)), has_ensurepip=False)
    assert problem.value.key == "no_venv"
    assert "sudo apt install python3-venv" in problem.value.text("en")
    assert "sudo apt install python3-venv" in problem.value.text("zh-TW")
    assert not target.exists()


@pytest.mark.slow
@pytest.mark.skipif(not SYSTEM_PYTHON.is_file(), reason="no Debian system Python at /usr/bin/python3")
def test_without_ensurepip_the_system_pip_makes_the_environment(tmp_path):
    pip = project_env.system_pip_version(str(SYSTEM_PYTHON))
    if pip is None or pip < project_env.PIP_WITH_PYTHON_OPTION:
        pytest.skip(f"/usr/bin/python3 has no pip >= 22.3 (found {pip})")
    target = tmp_path / ".venv"
    project_env.make_venv(target, "en", python=str(SYSTEM_PYTHON), has_ensurepip=False)
    python = project_env.venv_executable(target)
    out = subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and str(target) in out.stdout, out


def test_a_venv_whose_python_is_gone_does_not_count_as_working(tmp_path):
    made = tmp_path / "v"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(made)
    python = project_env.venv_executable(made)
    assert project_env.python_runs(python)
    python.unlink()
    python.symlink_to(tmp_path / "removed-python")  # the base Python was uninstalled
    assert not project_env.python_runs(python)


def test_the_install_key_follows_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    before = project_env.install_key(tmp_path)
    assert project_env.install_key(tmp_path) == before
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\ndependencies = ['numpy']\n")
    assert project_env.install_key(tmp_path) != before


# ------------------------------------------------------------------ every lesson's how-to-run cell
LESSONS = [p for lang in lessonbook.LESSON_LANGS for p in sorted((ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb"))]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_lesson_opens_with_how_to_run_it_in_its_language(path):
    first = json.loads(path.read_text(encoding="utf-8"))["cells"][0]
    lang = path.parent.name
    assert first["cell_type"] == "markdown" and first["id"] == lessonbook.RUN_HINT_ID
    text = "".join(first["source"])
    assert text == t("lessonbook.run_hint", lang)
    assert "Run ▸ Run All Cells" in text
    assert ("執行所有儲存格" in text) == (lang == "zh-TW")


def test_the_run_hint_script_has_nothing_left_to_write():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "run_hint.py"), "--check"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_run_hint_script_puts_the_cell_first_once(tmp_path):
    module = _load("run_hint")
    original = (ROOT / "notebooks" / "en" / "04_full_game.ipynb").read_text(encoding="utf-8")
    stripped = json.loads(original)
    stripped["cells"] = stripped["cells"][1:]
    once = module.with_hint(json.dumps(stripped), "en")
    twice = module.with_hint(once, "en")
    assert once == twice
    cells = json.loads(once)["cells"]
    assert [c.get("id") for c in cells].count(lessonbook.RUN_HINT_ID) == 1
    assert cells[0]["id"] == lessonbook.RUN_HINT_ID and cells[1:] == stripped["cells"]


# ------------------------------------------------------------------ the kernels run in this environment
def test_the_kernel_notebooks_and_voila_start_is_this_environments_python():
    """nbval, nbclient and Voilà start the ``python3`` kernel spec; it must be this Python, so a test run in
    ``.venv`` (scripts/test.sh) tests what ``.venv`` holds and not some other installation."""
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", startup_timeout=120)
    seen: list[str] = []
    try:
        kc.execute_interactive("import sys; print(sys.prefix)", timeout=120,
                               output_hook=lambda m: seen.append(m["content"].get("text", ""))
                               if m["msg_type"] == "stream" else None)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert Path("".join(seen).strip()).resolve() == Path(sys.prefix).resolve()


TINY_PROJECT = """[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "tiny-probe"
version = "0.0.1"

[tool.setuptools]
py-modules = ["tiny_probe"]
"""


@pytest.mark.slow
def test_ensure_replaces_a_half_made_venv_installs_once_and_then_reuses_it(tmp_path, capsys):
    """scripts/project_env.ensure on a tiny project: the same code path as the real one, in seconds."""
    (tmp_path / "pyproject.toml").write_text(TINY_PROJECT)
    (tmp_path / "tiny_probe.py").write_text("ANSWER = 42\n")
    venv.EnvBuilder(with_pip=False).create(tmp_path / ".venv")  # what a failed `python3 -m venv .venv` leaves
    python = project_env.ensure([], "en", root=tmp_path)
    said = capsys.readouterr().err
    assert "does not work any more" in said and "Installing typhoon-edu" in said
    out = subprocess.run([str(python), "-c", "import tiny_probe; print(tiny_probe.ANSWER)"], capture_output=True,
                         text=True, cwd="/", timeout=60)
    assert out.stdout.strip() == "42", out.stderr
    stamp = json.loads((tmp_path / ".venv" / project_env.STAMP_NAME).read_text())
    assert stamp["extras"] == [] and stamp["root"] == str(tmp_path)
    assert project_env.ensure([], "en", root=tmp_path) == python
    assert capsys.readouterr().err == ""  # reused: nothing made, nothing installed
    # pyproject changed (a new dependency, say): the next start installs again (not run here: it costs
    # another build of the project, and install_key and needs_install are tested on their own)
    (tmp_path / "pyproject.toml").write_text(TINY_PROJECT.replace("0.0.1", "0.0.2"))
    assert project_env.needs_install(project_env.read_stamp(tmp_path / ".venv"), project_env.install_key(tmp_path),
                                     [], tmp_path)
