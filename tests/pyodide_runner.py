"""Run Python code in Pyodide under Node.js, with this checkout's ``typhoon_edu`` on its path.

Pyodide is CPython compiled to WebAssembly: what JupyterLite runs in a browser. The engine must
stay pure Python so that it keeps running there (docs/engine_speed.md); ``tests/test_pyodide.py``
checks it does, and ``benchmarks/pyodide.py`` measures how fast. Both go through
``tests/pyodide/run.mjs``, which needs ``node`` and the pinned ``pyodide`` npm package
(``npm ci --prefix tests/pyodide``; ``scripts/test.sh`` installs both).

Code run this way hands back its answer by setting the global ``RESULT`` to a string.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PYODIDE_DIR = REPO_ROOT / "tests" / "pyodide"
RUNNER = PYODIDE_DIR / "run.mjs"


def pyodide_problem() -> str | None:
    """Why Pyodide cannot run here (None when it can)."""
    if shutil.which("node") is None:
        return "node is missing (apt-get install -y nodejs npm)"
    if not (PYODIDE_DIR / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        return "the pyodide npm package is missing (npm ci --prefix tests/pyodide)"
    return None


class PyodideError(RuntimeError):
    """The Python code failed in Pyodide, or Pyodide did not start; the message holds its traceback."""


def run_in_pyodide(code: str, timeout: float = 600) -> str:
    """Start Pyodide, run ``code``, return the string it set as ``RESULT``."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", encoding="utf-8", delete=False) as f:
        f.write(code)
    try:
        done = subprocess.run(["node", str(RUNNER), str(REPO_ROOT), f.name], capture_output=True, text=True,
                              timeout=timeout, check=False)
    finally:
        Path(f.name).unlink()
    if done.returncode != 0:
        raise PyodideError(f"Pyodide exited with {done.returncode}:\n{done.stderr[-4000:]}")
    return done.stdout.strip()


class PyodideSession:
    """One Pyodide interpreter kept running, for several pieces of code in turn (the benchmark's slices)."""

    def __init__(self) -> None:
        self._proc = subprocess.Popen(["node", str(RUNNER), str(REPO_ROOT), "--serve"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def run(self, code: str) -> str:
        """Run ``code`` in the session's interpreter (its globals stay between calls); return its ``RESULT``."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps({"code": code}) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise PyodideError(f"Pyodide stopped (exit code {self._proc.wait()})")
        reply = json.loads(line)
        if "error" in reply:
            raise PyodideError(reply["error"])
        return str(reply["result"])

    def close(self) -> None:
        """End the interpreter."""
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
