#!/usr/bin/env python3
"""Run the lesson notebooks top to bottom in fresh kernels and store their outputs in the repository.

The lessons (``notebooks/<lang>/NN_*.ipynb``) are kept WITH their outputs (HTML fallbacks, SVG pictures
and the ipywidgets state in ``metadata.widgets``) so GitHub, nbviewer and Binder show the pictures before
anyone runs a cell. After a change to what a lesson draws, run this script and commit the notebooks.

Usage::

    python scripts/refresh_outputs.py                      # every lesson, both languages
    python scripts/refresh_outputs.py notebooks/en/01_compass_rolls.ipynb notebooks/zh-TW/04_full_game.ipynb
    python scripts/refresh_outputs.py --check              # run them all, write nothing, exit 1 on any error
    python scripts/refresh_outputs.py --timeout 900        # seconds one cell may take (default 600)

How a lesson is run:

* in a temporary COPY of ``notebooks/`` (a lesson writes answer files beside itself: nothing is left in the
  repository), with games and rooms saved in that temporary folder too (``TYPHOON_EDU_SAVES``,
  ``TYPHOON_EDU_DB``), and ``PYTHONPATH`` starting with this checkout, so the kernel imports this
  checkout's ``typhoon_edu``;
* by nbclient with ``store_widget_state=True``, in a fresh ``python3`` kernel per notebook;
* a cell that makes the class-play app (``ClassPlayApp(``, lesson 04) keeps no output, and its notebook
  keeps no widget state and no widget views: the app is a live page of rooms, not a picture;
* the notebook's own metadata (``typhoon_edu``) is kept; ``kernelspec`` becomes the ``python3`` kernel's, as
  JupyterLab writes it when the notebook's kernel starts (:func:`kernelspec_metadata`), so that an unchanged
  lesson does not open as modified; cell ids and sources are untouched.

A cell that raises, or an output that shows a traceback (an error printed to stderr, an error caught in an
Output widget), is reported with its notebook, cell number and id; that notebook is not written and the
script exits 1. ``--check`` writes nothing at all.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

ROOT = Path(__file__).resolve().parents[1]
#: The languages a lesson exists in (typhoon_edu.lessonbook.LESSON_LANGS; read without importing the package,
#: so the script runs with any Python that has nbclient).
LESSON_LANGS = ("en", "zh-TW")
LESSON_GLOB = "[0-9][0-9]_*.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: A cell whose source makes the class-play app (``app = ClassPlayApp(lang=LANG).show()``).
APP_CALL = re.compile(r"\bClassPlayApp\s*\(")
TRACEBACK = "Traceback (most recent call last)"
#: An error's name on stderr ("ValueError: …", "KeyError"), not a warning.
ERROR_NAME = re.compile(r"\b[A-Z]\w*(Error|Exception)\b")


def lesson_notebooks(root: Path = ROOT) -> list[Path]:
    """Every lesson notebook, ``notebooks/<lang>/NN_*.ipynb`` for each language, sorted."""
    return sorted(p for lang in LESSON_LANGS for p in (root / "notebooks" / lang).glob(LESSON_GLOB))


def chosen_notebooks(args: Sequence[str], root: Path = ROOT) -> list[Path]:
    """The lesson notebooks ``args`` name (all of them when none); a path that is not one raises ValueError.

    >>> [p.name for p in chosen_notebooks(["notebooks/en/04_full_game.ipynb"])]
    ['04_full_game.ipynb']
    >>> chosen_notebooks(["notebooks/dashboard.ipynb"])
    Traceback (most recent call last):
    ...
    ValueError: notebooks/dashboard.ipynb is not a lesson notebook; allowed: notebooks/<lang>/NN_*.ipynb with <lang> one of en, zh-TW (14 lessons, e.g. notebooks/en/01_compass_rolls.ipynb), or no path for all of them
    """
    lessons = lesson_notebooks(root)
    if not args:
        return lessons
    known = {p.resolve(): p for p in lessons}
    chosen: list[Path] = []
    for arg in args:
        path = Path(arg)
        found = known.get((path if path.is_absolute() else Path.cwd() / path).resolve())
        if found is None:
            found = known.get((root / path).resolve()) if not path.is_absolute() else None
        if found is None:
            example = lessons[0].relative_to(root).as_posix() if lessons else "notebooks/en/01_….ipynb"
            raise ValueError(f"{arg} is not a lesson notebook; allowed: notebooks/<lang>/NN_*.ipynb with <lang> one of "
                             f"{', '.join(LESSON_LANGS)} ({len(lessons)} lessons, e.g. {example}), or no path for all of them")
        if found not in chosen:
            chosen.append(found)
    return chosen


def makes_app(cell: dict[str, Any]) -> bool:
    """Whether ``cell`` is a code cell that makes the class-play app.

    >>> makes_app({"cell_type": "code", "source": "app = ClassPlayApp(lang=LANG).show()"})
    True
    >>> makes_app({"cell_type": "code", "source": ["from typhoon_edu.ui.dashboard import ClassPlayApp\\n"]})
    False
    """
    source = cell.get("source", "")
    text = source if isinstance(source, str) else "".join(source)
    return cell.get("cell_type") == "code" and APP_CALL.search(text) is not None


def without_app_outputs(nb: dict[str, Any]) -> dict[str, Any]:
    """``nb`` with the class-play app's rule applied (in place, and returned).

    A notebook with a cell that makes the app keeps no output of that cell, no widget views in its other
    outputs (their ``text/html`` and ``text/plain`` stay) and no ``metadata.widgets``. Any other notebook is
    unchanged.
    """
    cells = nb.get("cells", [])
    if not any(makes_app(c) for c in cells):
        return nb
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        if makes_app(cell):
            cell["outputs"] = []
            continue
        kept = []
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data is not None:
                data.pop(WIDGET_VIEW, None)
                if not data:
                    continue  # a widget view and nothing else: nothing left to show
            kept.append(output)
        cell["outputs"] = kept
    nb.get("metadata", {}).pop("widgets", None)
    return nb


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _widget_errors(state: Any) -> Iterator[dict[str, Any]]:
    """The error outputs an Output widget caught (they live in the saved widget state)."""
    if isinstance(state, dict):
        if state.get("output_type") == "error":
            yield state
        for value in state.values():
            yield from _widget_errors(value)
    elif isinstance(state, list):
        for value in state:
            yield from _widget_errors(value)


def problems(nb: dict[str, Any]) -> list[str]:
    """What went wrong while ``nb`` ran: one line per cell that raised or shows a traceback or an error.

    >>> nb = {"cells": [{"cell_type": "code", "id": "c1", "source": "1/0", "outputs": [
    ...     {"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero", "traceback": []}]}]}
    >>> problems(nb)
    ['cell 1 (id c1, `1/0`): ZeroDivisionError: division by zero']
    """
    found = []
    for number, cell in enumerate(nb.get("cells", []), start=1):
        if cell.get("cell_type") != "code":
            continue
        source = _text(cell.get("source", "")).strip().split("\n")
        where = f"cell {number} (id {cell.get('id', '?')}, `{source[-1][:60] if source else ''}`)"
        for output in cell.get("outputs", []):
            kind = output.get("output_type")
            if kind == "error":
                found.append(f"{where}: {output.get('ename')}: {output.get('evalue')}")
            elif kind == "stream":
                text = _text(output.get("text", ""))
                if TRACEBACK in text or (output.get("name") == "stderr" and ERROR_NAME.search(text)):
                    found.append(f"{where}: printed an error on {output.get('name')}: {text.strip()[:200]}")
            elif any(TRACEBACK in _text(v) for v in output.get("data", {}).values()):
                found.append(f"{where}: shows a traceback")
    for error in _widget_errors(nb.get("metadata", {}).get("widgets", {})):
        found.append(f"an Output widget caught {error.get('ename')}: {error.get('evalue')}")
    return found


def kernelspec_metadata(name: str = "python3") -> dict[str, str]:
    """The ``kernelspec`` metadata JupyterLab writes into a notebook whose kernel ``name`` starts.

    JupyterLab sets a notebook's ``kernelspec`` to the running kernel's ``name``, ``display_name`` and ``language``;
    a notebook whose stored one differs (``Python 3`` where ipykernel says ``Python 3 (ipykernel)``) opens already
    marked as modified.

    >>> kernelspec_metadata()
    {'display_name': 'Python 3 (ipykernel)', 'language': 'python', 'name': 'python3'}
    """
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(name)
    return {"display_name": spec.display_name, "language": spec.language, "name": name}


def kernel_env(scratch: Path, root: Path = ROOT) -> dict[str, str]:
    """The kernel's environment: this one, this checkout first on ``PYTHONPATH``, saves and rooms in ``scratch``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                                                       if p and Path(p).resolve() != root.resolve()])
    env["TYPHOON_EDU_SAVES"] = str(scratch / "saves")
    env["TYPHOON_EDU_DB"] = str(scratch / "rooms.sqlite3")
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ left beside this checkout's modules
    env.pop("TYPHOON_EDU_ANSWERS", None)  # answer files go beside the (copied) notebook, as a student's do
    return env


def run(copy: Path, timeout: int, env: dict[str, str]) -> tuple[nbformat.NotebookNode, list[str]]:
    """Run the notebook at ``copy`` (in its folder) and return it with its outputs and its problems."""
    nb = nbformat.read(copy, as_version=4)
    kept_metadata = {k: v for k, v in nb.metadata.items() if k not in ("widgets", "language_info", "kernelspec")}
    kept_metadata["kernelspec"] = kernelspec_metadata()
    for cell in nb.cells:  # a fresh start: no output of an older run survives a cell that fails
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    running: dict[str, int] = {}

    def on_cell_start(cell: Any, cell_index: int) -> None:
        running["index"] = cell_index

    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True, store_widget_state=True,
                            record_timing=True, resources={"metadata": {"path": str(copy.parent)}},
                            on_cell_start=on_cell_start)
    try:
        client.execute(env=env)
    except (CellTimeoutError, DeadKernelError, CellExecutionError) as exc:
        index = running.get("index", -1)
        cell = nb.cells[index] if 0 <= index < len(nb.cells) else {}
        reason = str(exc).strip().split("\n")[0]
        return nb, [f"cell {index + 1} (id {cell.get('id', '?')}) did not finish: {type(exc).__name__}: {reason}"]
    nb.metadata.update(kept_metadata)
    found = problems(nb)  # before the app's rule, which drops that cell's outputs (an error among them too)
    return without_app_outputs(nb), found


def notebook_text(nb: nbformat.NotebookNode) -> str:
    """The notebook as nbformat writes it (indent 1, sorted keys, UTF-8 as is), ending with a newline."""
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="lesson notebooks (default: every lesson, both languages)")
    parser.add_argument("--check", action="store_true", help="run them and report errors; write nothing")
    parser.add_argument("--timeout", type=int, default=600, help="seconds one cell may take (default 600)")
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error(f"--timeout must be a positive number of seconds, not {args.timeout}")
    try:
        chosen = chosen_notebooks(args.notebooks)
    except ValueError as exc:
        parser.error(str(exc))
    failed = 0
    with tempfile.TemporaryDirectory(prefix="typhoon-edu-outputs-") as tmp:
        scratch = Path(tmp)
        shutil.copytree(ROOT / "notebooks", scratch / "notebooks")
        env = kernel_env(scratch)
        for path in chosen:
            name = path.relative_to(ROOT).as_posix()
            start = time.monotonic()
            nb, found = run(scratch / name, args.timeout, env)
            took = f"{time.monotonic() - start:.0f} s"
            if found:
                failed += 1
                sys.stderr.write(f"FAILED {name} ({took}):\n" + "".join(f"  {line}\n" for line in found))
                continue
            if args.check:
                sys.stdout.write(f"ok {name} ({took})\n")
                continue
            text = notebook_text(nb)
            changed = text != path.read_text(encoding="utf-8")
            if changed:
                path.write_text(text, encoding="utf-8")
            sys.stdout.write(f"{'wrote' if changed else 'unchanged'} {name} ({took})\n")
    if failed:
        sys.stderr.write(f"{failed} of {len(chosen)} notebooks had errors" + ("" if args.check else "; those were not written")
                         + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
