"""Binder's environment for test_binder_path.py, built in the background while the other browser tests run.

Building it is a fresh virtual environment and a pip install, exactly as repo2docker does (``binder/requirements.txt``
first, then ``binder/postBuild``): a minute or more of mostly waiting on pip, which would hold up the browser tests,
which run one after another. So ``tests/browser/conftest.py`` starts the build as soon as the session knows the
Binder test is selected, and the test's fixture only waits for it (or starts it, if nothing did).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .harness import LOG_DIR, REPO_ROOT


class BinderBuild:
    """One background build of Binder's environment: :meth:`start`, then :meth:`python` waits and gives its Python."""

    def __init__(self) -> None:
        self.root: Path | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = LOG_DIR / "binder-build.log"

    def start(self) -> None:
        """Start building (once)."""
        if self.proc is not None:
            return
        self.root = Path(tempfile.mkdtemp(prefix="typhoon-binder-"))
        env_dir = self.root / "venv"
        script = "\n".join([
            "set -euo pipefail",
            f"{shlex.quote(sys.executable)} -m venv {shlex.quote(str(env_dir))}",
            "python -m pip install -q -r binder/requirements.txt",
            "bash binder/postBuild",
        ])
        env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PATH": f"{env_dir / 'bin'}:{os.environ['PATH']}",
               "VIRTUAL_ENV": str(env_dir)}
        env.pop("PYTHONPATH", None)
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(["bash", "-c", script], cwd=REPO_ROOT, env=env, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)

    def python(self, timeout: float = 900) -> str:
        """Wait for the build (starting it if need be); the environment's Python, or an error with the build's log."""
        self.start()
        assert self.proc is not None and self.root is not None
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            raise AssertionError(f"building Binder's environment took over {timeout:.0f} s; log: {self.log}") from None
        if code != 0:
            tail = self.log.read_text(encoding="utf-8", errors="replace")[-3000:]
            raise AssertionError(f"building Binder's environment failed (exit code {code}):\n{tail}")
        return str(self.root / "venv" / "bin" / "python")

    def stop(self) -> None:
        """Stop a build still running and remove the environment."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except ProcessLookupError:
                pass
            self.proc.wait()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)


#: The session's build (tests/browser/conftest.py starts it; test_binder_path.py uses it).
BINDER = BinderBuild()
