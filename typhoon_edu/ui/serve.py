"""Start the class-play dashboard in Voilà: the path a teacher takes (``typhoon-edu serve``).

Voilà runs as a child process (``python -m voila``) so that the teacher's terminal shows its log,
Ctrl+C stops it cleanly, and the browser tests and the start-up benchmark can run *exactly* the
same command line (:func:`build_voila_command`) through :class:`VoilaProcess`.

Settings and why:

* **Preheated kernels** (``--preheat_kernel=True --pool_size=1``): Voilà starts a kernel and runs
  the dashboard notebook *before* anyone opens the page, so opening the URL only has to send the
  already-rendered page and connect the widgets. Measured with ``benchmarks/startup.py`` on the
  one-button notebook (2 cores, shared with other work), the median time from opening the URL
  to a visible button fell from 4.1 s to 2.7 s (first visit: 4.4 s to 1.8-2.0 s). One spare
  kernel is enough for one projector; the pool refills itself about a second after each use.
  Canvases must (and do, per DESIGN.md §3) draw in ``on_client_ready``, because with a
  preheated kernel the notebook ran before the browser connected.
* **Kernel culling**: a kernel whose tab crashed or lost its network is shut down after
  :data:`CULL_IDLE_TIMEOUT` seconds of inactivity; a connected (projected, idle) page is never
  culled (``cull_connected=False``), so a class that pauses to discuss loses nothing. Closing
  the tab shuts its kernel down at once (Voilà does that on ``beforeunload``); games are
  autosaved anyway.
* The language goes to the notebook through the environment variable ``TYPHOON_EDU_LANG``
  (inherited by every kernel, preheated ones included).
* A free port is chosen when none is given, and ``port_retries=0`` so the printed URL is the
  one actually served.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import webbrowser
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from ..i18n import t

__all__ = [
    "CULL_IDLE_TIMEOUT",
    "CULL_INTERVAL",
    "LANG_ENV_VAR",
    "SUPPORTED_LANGS",
    "VoilaProcess",
    "build_voila_command",
    "build_voila_env",
    "default_notebook",
    "find_free_port",
    "main",
    "serve",
]

#: Environment variable through which the dashboard notebook learns the start-up language.
LANG_ENV_VAR = "TYPHOON_EDU_LANG"

#: Languages the dashboard speaks.
SUPPORTED_LANGS: tuple[str, ...] = ("zh-TW", "en")

#: Seconds a kernel may stay idle *with no browser connected* before Voilà shuts it down.
CULL_IDLE_TIMEOUT = 900

#: Seconds between two culling checks.
CULL_INTERVAL = 60

#: Pool of preheated kernels kept ready for the dashboard (one projector needs one).
DEFAULT_POOL_SIZE = 1

#: A cheap URL path that Voilà answers once it listens, without running the notebook.
READY_PROBE_PATH = "voila/static/extension.js"

_PACKAGE_DIR = Path(__file__).resolve().parent.parent
_DASHBOARD_NAME = "dashboard.ipynb"

#: Debian's chromium, for the browser tests and benchmarks (Playwright's own download does not work here).
CHROMIUM_PATH = os.environ.get("TYPHOON_EDU_CHROMIUM", "/usr/bin/chromium")
#: Flags needed as root, without a GPU, on a machine whose network is closed.
CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)


def default_notebook() -> Path:
    """Return the dashboard notebook to serve.

    The copy shipped inside the package (``typhoon_edu/notebooks/dashboard.ipynb``) wins, so an
    installed wheel works anywhere; in a source checkout without it, the repository's
    ``notebooks/dashboard.ipynb`` is used. If neither exists the packaged path is returned, and
    :func:`serve` reports it as missing.

    >>> default_notebook().name
    'dashboard.ipynb'
    """
    packaged = _PACKAGE_DIR / "notebooks" / _DASHBOARD_NAME
    in_repo = _PACKAGE_DIR.parent / "notebooks" / _DASHBOARD_NAME
    if not packaged.is_file() and in_repo.is_file():
        return in_repo
    if not packaged.is_file():
        return written_dashboard_notebook()
    return packaged


DASHBOARD_CODE = """# 颱風不要來 · Typhoon Alert: the class-play dashboard (served by `typhoon-edu serve`).
# The start-up language comes from TYPHOON_EDU_LANG; it can be switched on the page.
import os

from typhoon_edu.ui.dashboard import ClassPlayApp

app = ClassPlayApp(lang=os.environ.get("TYPHOON_EDU_LANG", "zh-TW")).show()"""


def written_dashboard_notebook() -> Path:
    """An installed package has no ``notebooks/`` folder: write the one-cell dashboard notebook
    (the same code as the repository's ``notebooks/dashboard.ipynb``) into the user's cache."""
    import json

    from platformdirs import user_cache_dir

    path = Path(user_cache_dir("typhoon-edu", appauthor=False)) / _DASHBOARD_NAME
    cell = {"cell_type": "code", "execution_count": None, "id": "dashboard", "metadata": {}, "outputs": [],
            "source": DASHBOARD_CODE.splitlines(keepends=True)}
    nb = {"cells": [cell], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                        "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return path


def stop_process(process: subprocess.Popen[bytes] | None, timeout: float = 10.0) -> int | None:
    """Stop a server process: SIGTERM, then SIGKILL after ``timeout`` s; returns its exit code."""
    if process is None:
        return None
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout)
    return process.returncode


def find_free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port that is free on ``host`` right now.

    Another program could take it before Voilà binds it; :func:`build_voila_command` sets
    ``port_retries=0`` so that such a race fails loudly instead of serving on a surprise port.

    >>> 1024 <= find_free_port() <= 65535
    True
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _check_lang(lang: str) -> str:
    if lang not in SUPPORTED_LANGS:
        raise ValueError(f"unknown language {lang!r}: the dashboard speaks {', '.join(SUPPORTED_LANGS)}")
    return lang


def build_voila_command(
    notebook: str | Path,
    *,
    port: int,
    ip: str = "localhost",
    open_browser: bool = False,
    preheat: bool = True,
    pool_size: int = DEFAULT_POOL_SIZE,
    cull_idle_timeout: int = CULL_IDLE_TIMEOUT,
    cull_interval: int = CULL_INTERVAL,
    show_tracebacks: bool = False,
    python: str | None = None,
    extra_args: Sequence[str] = (),
) -> list[str]:
    """Return the command line that starts Voilà on ``notebook`` (a pure function).

    ``open_browser`` defaults to ``False`` here because :func:`serve` opens the browser itself,
    once the server answers, rather than letting Voilà race its own start-up.

    >>> cmd = build_voila_command("dash.ipynb", port=8899, python="python")
    >>> cmd[:4]
    ['python', '-m', 'voila', 'dash.ipynb']
    >>> "--port=8899" in cmd and "--no-browser" in cmd and "--preheat_kernel=True" in cmd
    True
    >>> "--preheat_kernel=True" in build_voila_command("d.ipynb", port=1, preheat=False)
    False
    """
    if not 0 < port < 65536:
        raise ValueError(f"port must be between 1 and 65535, not {port}")
    if preheat and pool_size < 1:
        raise ValueError(f"a preheated kernel pool needs pool_size >= 1, not {pool_size}")
    cmd = [
        python or sys.executable,
        "-m",
        "voila",
        str(notebook),
        f"--port={port}",
        f"--Voila.ip={ip}",
        "--Voila.port_retries=0",
        f"--show_tracebacks={show_tracebacks}",
        # Kernel culling: the manager Voilà builds subclasses MappingKernelManager, so these apply.
        f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
        f"--MappingKernelManager.cull_interval={cull_interval}",
        "--MappingKernelManager.cull_connected=False",
        "--MappingKernelManager.cull_busy=False",
    ]
    if preheat:
        cmd += ["--preheat_kernel=True", f"--pool_size={pool_size}"]
    if not open_browser:
        cmd.append("--no-browser")
    cmd += list(extra_args)
    return cmd


def build_voila_env(lang: str = "zh-TW", base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return the environment for the Voilà process: ``base`` (default ``os.environ``) plus the language.

    >>> build_voila_env("en", base={})[LANG_ENV_VAR]
    'en'
    """
    env = dict(os.environ if base is None else base)
    env[LANG_ENV_VAR] = _check_lang(lang)
    # Kernels must not buffer what they log, or a teacher's terminal shows errors late.
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def _url_for(ip: str, port: int) -> str:
    host = "localhost" if ip in ("", "0.0.0.0", "::") else ip
    return f"http://{host}:{port}/"


@dataclass
class VoilaProcess:
    """A Voilà server running as a child process; a context manager that stops it on exit.

    Used by :func:`serve`, by the browser-test fixtures and by ``benchmarks/startup.py``, so the
    three start Voilà the same way. ``log_path`` receives the server's output when given,
    otherwise it is inherited (shown in the terminal).
    """

    notebook: Path
    port: int = 0
    lang: str = "zh-TW"
    preheat: bool = True
    pool_size: int = DEFAULT_POOL_SIZE
    ip: str = "localhost"
    show_tracebacks: bool = False
    log_path: Path | None = None
    env: Mapping[str, str] | None = None
    extra_args: Sequence[str] = ()
    python: str | None = None
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        """The page that shows the notebook."""
        return _url_for(self.ip, self.port)

    def command(self) -> list[str]:
        """The command line this process runs (see :func:`build_voila_command`)."""
        return build_voila_command(
            self.notebook,
            port=self.port,
            ip=self.ip,
            preheat=self.preheat,
            pool_size=self.pool_size,
            show_tracebacks=self.show_tracebacks,
            python=self.python,
            extra_args=self.extra_args,
        )

    def start(self) -> VoilaProcess:
        """Start the server (without waiting for it); returns ``self``."""
        if self.process is not None:
            raise RuntimeError("this Voilà process was already started")
        if not Path(self.notebook).is_file():
            raise FileNotFoundError(f"dashboard notebook not found: {self.notebook}")
        if not self.port:
            self.port = find_free_port()
        env = build_voila_env(self.lang, base=self.env)
        cwd = Path(self.notebook).resolve().parent
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(
                    self.command(), env=env, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
                )
        else:
            self.process = subprocess.Popen(self.command(), env=env, cwd=cwd, stdin=subprocess.DEVNULL)
        return self

    def wait_ready(self, timeout: float = 60.0, path: str = READY_PROBE_PATH) -> None:
        """Block until the server answers HTTP on ``url + path`` (any status below 500).

        The default probe is a static file: requesting the notebook page itself would run the
        notebook (and, with preheating, use up the preheated kernel meant for the first visitor).
        Raises ``RuntimeError`` if the process dies and ``TimeoutError`` after ``timeout`` s.
        """
        if self.process is None:
            raise RuntimeError("start() the Voilà process before waiting for it")
        deadline = time.monotonic() + timeout
        target = self.url + path.lstrip("/")
        while True:
            code = self.process.poll()
            if code is not None:
                raise RuntimeError(f"Voilà exited with code {code} before it was ready{self._log_hint()}")
            try:
                with urllib.request.urlopen(target, timeout=5) as response:
                    if response.status < 500:
                        return
            except urllib.error.HTTPError as err:
                if err.code < 500:
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"Voilà did not answer on {target} within {timeout:.0f} s{self._log_hint()}")
            time.sleep(0.2)

    def stop(self, timeout: float = 10.0) -> int | None:
        """Stop the server (SIGTERM, then SIGKILL after ``timeout`` s); returns its exit code."""
        return stop_process(self.process, timeout)

    def _log_hint(self) -> str:
        return f" (log: {self.log_path})" if self.log_path is not None else ""

    def __enter__(self) -> VoilaProcess:
        if self.process is None:
            self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def serve(
    port: int | None = None,
    lang: str = "zh-TW",
    open_browser: bool = True,
    notebook: str | Path | None = None,
) -> int:
    """Serve the class-play dashboard with Voilà until Ctrl+C; returns the exit code.

    Writes the URL to standard output as soon as the server answers, then opens it in the
    default browser unless ``open_browser`` is false. ``lang`` (``"zh-TW"`` or ``"en"``) reaches
    the notebook as ``TYPHOON_EDU_LANG``.
    """
    _check_lang(lang)
    path = Path(notebook) if notebook is not None else default_notebook()
    if not path.is_file():
        sys.stderr.write(t("cli.serve.not_found", lang, path=path) + "\n")
        return 2
    server = VoilaProcess(notebook=path.resolve(), port=port or 0, lang=lang)
    try:
        server.start()
        server.wait_ready(timeout=120)
    except (RuntimeError, TimeoutError) as err:
        server.stop()
        sys.stderr.write(t("cli.serve.failed", lang, error=err) + "\n")
        return 1
    sys.stdout.write(f"\n{t('cli.serve.ready', lang, url=server.url)}\n{t('cli.serve.stop_hint', lang)}\n\n")
    sys.stdout.flush()
    if open_browser:
        with contextlib.suppress(webbrowser.Error):
            webbrowser.open(server.url)
    assert server.process is not None
    try:
        return server.process.wait()
    except KeyboardInterrupt:
        sys.stdout.write(t("cli.serve.stopping", lang) + "\n")
        return server.stop() or 0
    finally:
        server.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m typhoon_edu.ui.serve [--port N] [--lang zh-TW|en] [--no-browser] [--notebook PATH]``.

    The same as ``typhoon-edu serve``, whose parser (help and errors in both languages) it uses.
    """
    from ..cli import main as cli_main

    return cli_main(["serve", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
