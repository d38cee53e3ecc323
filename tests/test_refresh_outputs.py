"""scripts/refresh_outputs.py, which stores the lesson notebooks' outputs: which notebooks it takes, the rule
that keeps no output of the class-play app, how it finds errors, and that the stored lessons follow them."""

from __future__ import annotations

import copy
import doctest
import importlib.util
import json
import os
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
VIEW = "application/vnd.jupyter.widget-view+json"


def _load():
    spec = importlib.util.spec_from_file_location("refresh_outputs", ROOT / "scripts" / "refresh_outputs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["refresh_outputs"] = module  # doctest finds the functions through it
    spec.loader.exec_module(module)
    return module


script = _load()
LESSONS = script.lesson_notebooks()


def code(source: str, *outputs: dict) -> dict:
    return {"cell_type": "code", "id": f"c{abs(hash(source)) % 1000}", "metadata": {}, "source": source,
            "execution_count": 1, "outputs": list(outputs)}


def result(*mimes: str) -> dict:
    return {"output_type": "execute_result", "execution_count": 1, "metadata": {},
            "data": {m: {"model_id": "abc"} if m == VIEW else "x" for m in mimes}}


# ------------------------------------------------------------------ which notebooks
def test_the_lessons_are_both_languages_numbered_notebooks_and_nothing_else():
    names = [p.relative_to(ROOT).as_posix() for p in LESSONS]
    assert len(names) == 14 and sum(n.startswith("notebooks/en/") for n in names) == 7
    assert "notebooks/zh-TW/07_forecast_challenge.ipynb" in names
    assert not any("smoke" in n or "dashboard" in n for n in names)


def test_paths_name_lessons_from_here_or_the_checkout_once_each(monkeypatch):
    assert script.chosen_notebooks([]) == LESSONS
    lesson = ROOT / "notebooks" / "zh-TW" / "04_full_game.ipynb"
    monkeypatch.chdir(ROOT / "notebooks")
    assert script.chosen_notebooks(["zh-TW/04_full_game.ipynb", str(lesson), "notebooks/zh-TW/04_full_game.ipynb"]) == [lesson]


@pytest.mark.parametrize("arg", ["notebooks/dashboard.ipynb", "notebooks/smoke/one_button.ipynb", "README.md",
                                 "notebooks/en/99_nothing.ipynb", "notebooks/en"])
def test_a_path_that_is_not_a_lesson_is_refused_naming_what_is_allowed(arg):
    with pytest.raises(ValueError) as caught:
        script.chosen_notebooks(["notebooks/en/01_compass_rolls.ipynb", arg])
    message = str(caught.value)
    assert message.startswith(f"{arg} is not a lesson notebook")
    assert "notebooks/<lang>/NN_*.ipynb" in message and "en, zh-TW" in message and "14 lessons" in message


def test_the_command_refuses_a_bad_path_or_timeout_before_running_anything(capsys, monkeypatch):
    def no_run(*args, **kwargs):
        raise AssertionError("a notebook ran (and would have been written) after a bad argument")

    monkeypatch.setattr(script, "run", no_run)
    before = {p: p.read_bytes() for p in LESSONS}
    with pytest.raises(SystemExit) as caught:
        script.main(["notebooks/dashboard.ipynb"])
    assert caught.value.code == 2 and "notebooks/dashboard.ipynb is not a lesson notebook" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        script.main(["--timeout", "0"])
    assert "--timeout must be a positive number of seconds, not 0" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in before} == before


# ------------------------------------------------------------------ the class-play app's rule
def test_the_app_cell_keeps_no_output_and_its_notebook_no_widget_state_or_views():
    nb = {"metadata": {"typhoon_edu": {"lang": "en"}, "widgets": {"state": {}}},
          "cells": [{"cell_type": "markdown", "id": "m", "metadata": {}, "source": "ClassPlayApp( in prose"},
                    code("guide()", result("text/html", "text/plain")),
                    code("from typhoon_edu.ui.dashboard import ClassPlayApp\n\napp = ClassPlayApp(lang=LANG).show()",
                         {"output_type": "display_data", "metadata": {}, "data": {VIEW: {}, "text/plain": "App"}}),
                    code("quiz()", result(VIEW, "text/html", "text/plain")),
                    code("box()", result(VIEW))]}
    out = script.without_app_outputs(nb)
    assert out["metadata"] == {"typhoon_edu": {"lang": "en"}}
    assert [c.get("outputs") for c in out["cells"][1:]] == [
        [result("text/html", "text/plain")], [], [result("text/html", "text/plain")], []]
    assert out["cells"][0] == {"cell_type": "markdown", "id": "m", "metadata": {}, "source": "ClassPlayApp( in prose"}


def test_a_notebook_without_the_app_is_left_as_it_is():
    nb = {"metadata": {"widgets": {"state": {"abc": {}}}},
          "cells": [code("from typhoon_edu.ui.dashboard import ClassPlayApp", result(VIEW, "text/html")),
                    code("quiz()", result(VIEW, "text/plain"))]}
    before = copy.deepcopy(nb)
    assert script.without_app_outputs(nb) == before


def test_only_lesson_04_makes_the_app_and_its_stored_notebooks_follow_the_rule():
    for path in LESSONS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert any(script.makes_app(c) for c in nb["cells"]) == path.name.startswith("04_"), path
        if path.name.startswith("04_"):
            assert script.without_app_outputs(copy.deepcopy(nb)) == nb, f"{path} keeps an app output or widget state"
            assert nb["metadata"].get("widgets") is None


# ------------------------------------------------------------------ errors
def test_errors_printed_tracebacks_and_caught_errors_are_found_and_warnings_are_not():
    nb = {"metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {"m1": {"state": {
              "outputs": [{"output_type": "error", "ename": "KeyError", "evalue": "'N'", "traceback": []}]}}}}}},
          "cells": [code("fine()", result("text/html")),
                    code("warn()", {"output_type": "stream", "name": "stderr", "text": "DeprecationWarning: old\n"}),
                    code("x = 1\nboom()", {"output_type": "error", "ename": "ValueError", "evalue": "no", "traceback": []}),
                    code("log()", {"output_type": "stream", "name": "stderr", "text": ["Oops\n", "TypeError: bad\n"]}),
                    code("shown()", {"output_type": "display_data", "metadata": {},
                                     "data": {"text/plain": "Traceback (most recent call last):\n  ..."}})]}
    found = script.problems(nb)
    ids = [c["id"] for c in nb["cells"]]
    assert found == [f"cell 3 (id {ids[2]}, `boom()`): ValueError: no",
                     f"cell 4 (id {ids[3]}, `log()`): printed an error on stderr: Oops\nTypeError: bad",
                     f"cell 5 (id {ids[4]}, `shown()`): shows a traceback",
                     "an Output widget caught KeyError: 'N'"]
    assert script.problems({"metadata": {}, "cells": nb["cells"][:2]}) == []


def test_a_raising_cell_is_reported_by_number_and_id_and_the_rest_still_runs(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# x"),
                                         nbformat.v4.new_code_cell("import typhoon_edu\ntyphoon_edu.__file__"),
                                         nbformat.v4.new_code_cell("1/0"), nbformat.v4.new_code_cell("2 + 2")])
    nb.metadata["typhoon_edu"] = {"lang": "en"}
    path = tmp_path / "01_x.ipynb"
    nbformat.write(nb, path)
    out, found = script.run(path, 120, script.kernel_env(tmp_path))
    assert found == [f"cell 3 (id {nb.cells[2].id}, `1/0`): ZeroDivisionError: division by zero"]
    # the kernel imports this checkout's package, and the last cell ran after the error
    assert str(ROOT / "typhoon_edu" / "__init__.py") in out.cells[1].outputs[0]["data"]["text/plain"]
    assert out.cells[3].outputs[0]["data"]["text/plain"] == "4"
    assert out.metadata["typhoon_edu"] == {"lang": "en"} and "execution" in out.cells[3].metadata


# ------------------------------------------------------------------ the kernel and the file
def test_the_kernel_imports_this_checkout_and_saves_in_the_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), "/elsewhere"]))
    monkeypatch.setenv("TYPHOON_EDU_ANSWERS", "/somewhere/answers")
    env = script.kernel_env(tmp_path)
    assert env["PYTHONPATH"].split(os.pathsep) == [str(ROOT), "/elsewhere"]
    assert env["TYPHOON_EDU_SAVES"] == str(tmp_path / "saves") and env["TYPHOON_EDU_DB"] == str(tmp_path / "rooms.sqlite3")
    assert "TYPHOON_EDU_ANSWERS" not in env


@pytest.mark.parametrize("path", [LESSONS[0], LESSONS[-1]], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_notebook_is_written_exactly_as_the_stored_ones_are(path):
    """So re-running the script changes outputs and nothing of the file's layout."""
    text = path.read_text(encoding="utf-8")
    assert script.notebook_text(nbformat.reads(text, as_version=4)) == text


def test_the_stored_lessons_show_no_errors_and_keep_every_widget_they_show():
    for path in LESSONS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert script.problems(nb) == [], path
        state = nb["metadata"].get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        shown = [o["data"][VIEW]["model_id"] for c in nb["cells"] for o in c.get("outputs", []) if VIEW in o.get("data", {})]
        assert set(shown) <= set(state), f"{path} shows widgets its saved state lacks"
        assert all(c.get("outputs") or script.makes_app(c) for c in nb["cells"] if c["cell_type"] == "code"), path


def test_the_doctests_of_the_script():
    assert doctest.testmod(script).failed == 0
