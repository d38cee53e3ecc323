"""Start the class-play dashboard in Voilà: the path a teacher takes (``typhoon-edu serve``).

Voilà runs as a child process (``python -m typhoon_edu.server.voila_app``: Voilà plus a Host check and
a working closing-tab shutdown, see :mod:`typhoon_edu.server.voila_app`) so that the teacher's
terminal shows its log, Ctrl+C stops it cleanly, and the browser tests and the benchmarks run
*exactly* the same command line (:func:`build_voila_command`) through :class:`VoilaProcess`.

Settings and why:

* **Where it listens.** ``localhost`` only, unless ``--lan``: then every interface (0.0.0.0), and
  the LAN address students type is printed with a warning. Either way a request whose ``Host``
  is not this machine's is refused (403), which defeats DNS rebinding.
* **No page runs code.** Voilà's kernels accept only widget messages, kernel info and shutdown
  from the browser; an ``execute_request`` is dropped (tests/test_serve.py sends one).
* **Preheated kernels** (``--preheat_kernel=True --pool_size=N``): Voilà starts kernels and runs
  the dashboard notebook *before* anyone opens the page, so opening the URL only has to send the
  already-rendered page and connect the widgets. Canvases must (and do, through
  :func:`typhoon_edu.ui.canvas_ready.when_client_ready`) draw in ``on_client_ready``, and a
  view chosen by the URL must read it with :func:`typhoon_edu.ui.query.page_query`, because the
  notebook ran before the request.
  Sized for a class opening at once (``benchmarks/classroom.py``, figures in the README): one
  spare kernel for this computer alone (:data:`DEFAULT_POOL_SIZE`), six with ``--lan``
  (:data:`LAN_POOL_SIZE`: a projector and five devices), refilled only after
  :data:`LAN_FILL_DELAY` s so that starting six kernels does not compete with the pages being
  opened (projector + 5 phones in one second: p95 9.8 s, against 14.3 s with one kernel refilled
  after 1 s). :data:`IOPUB_TIMEOUT` replaces nbclient's 4 s, after which a busy machine's page
  stayed blank for good (19 of 20 pages opened together); :data:`KERNEL_STARTUP_TIMEOUT` gives 20
  kernels starting together time to answer.
* **Kernel lifecycle.** Closing a tab shuts its kernel down at once (Voilà's ``beforeunload``
  beacon, which works now that the page sets its ``_xsrf`` cookie); a kernel whose tab crashed
  or lost its network is culled after :data:`CULL_IDLE_TIMEOUT` seconds of inactivity; a
  connected (projected, idle) page is never culled (``cull_connected=False``), so a class that
  pauses to discuss loses nothing. Ctrl+C, SIGTERM and SIGHUP stop Voilà and every kernel
  (:mod:`typhoon_edu.server.process_tree`).
* The language goes to the notebook through the environment variable ``TYPHOON_EDU_LANG``, the
  room store's URL through ``TYPHOON_EDU_DB`` (``--db``) and the students' address through
  ``TYPHOON_EDU_PUBLIC_URL``: Voilà's environment, inherited by every kernel, preheated ones included.
* A free port is chosen when none is given, and ``port_retries=0`` so the printed URL is the
  one actually served.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import webbrowser
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from ..i18n import t
from ..ui.query import CLASS_SERVER_ENV_VAR, PUBLIC_URL_ENV_VAR
from .network import lan_address
from .process_tree import TAG_ENV_VAR, die_with_parent, stop_process
from .teacher_address import StoreProblem, prepare_teacher, students_url, teacher_url

__all__ = [
    "CULL_IDLE_TIMEOUT",
    "CULL_INTERVAL",
    "DB_ENV_VAR",
    "DEFAULT_POOL_SIZE",
    "LAN_FILL_DELAY",
    "LAN_POOL_SIZE",
    "LANG_ENV_VAR",
    "SUPPORTED_LANGS",
    "ServeError",
    "VoilaProcess",
    "build_voila_command",
    "build_voila_env",
    "check_db_url",
    "cull_settings",
    "db_from_environment",
    "default_notebook",
    "find_free_port",
    "main",
    "port_problem",
    "serve",
    "start_failure",
    "stop_process",
]

#: Environment variable through which the dashboard notebook learns the start-up language.
LANG_ENV_VAR = "TYPHOON_EDU_LANG"

#: Environment variable holding the room store's URL (``--db``); every kernel inherits it.
DB_ENV_VAR = "TYPHOON_EDU_DB"

#: Environment variables overriding the culling timeout and interval (seconds), e.g. for tests.
CULL_IDLE_ENV_VAR = "TYPHOON_EDU_CULL_IDLE"
CULL_INTERVAL_ENV_VAR = "TYPHOON_EDU_CULL_INTERVAL"

#: Languages the dashboard speaks.
SUPPORTED_LANGS: tuple[str, ...] = ("zh-TW", "en")

#: Seconds a kernel may stay idle *with no browser connected* before Voilà shuts it down.
CULL_IDLE_TIMEOUT = 900

#: Seconds between two culling checks.
CULL_INTERVAL = 60

#: Preheated kernels kept ready when only this computer opens the dashboard (the projector).
DEFAULT_POOL_SIZE = 1

#: Preheated kernels kept ready with ``--lan``: one game's devices at once (5 seats) and the projector.
LAN_POOL_SIZE = 6

#: Most preheated kernels ``--pool-size`` accepts (each idle one holds about 75 MB).
MAX_POOL_SIZE = 40

#: Seconds Voilà waits after handing out a preheated kernel before starting its replacement
#: (Voilà's default): a reloaded projector page soon finds a ready kernel again.
FILL_DELAY = 1.0

#: The same with ``--lan``: long enough that refilling six kernels does not compete with the pages
#: of a class that is opening right now (a visitor beyond the pool waits for it, at most this long).
LAN_FILL_DELAY = 10.0

#: Seconds the notebook's executor waits for a cell's output after the kernel said the cell ran
#: (nbclient's default, 4 s, drops the output on a busy machine: the page stays blank).
IOPUB_TIMEOUT = 60

#: Seconds a kernel may take to start and answer (Voilà's default is 60 s).
KERNEL_STARTUP_TIMEOUT = 120

#: A cheap URL path that Voilà answers once it listens, without running the notebook: a 7 KB stylesheet of Voilà's
#: base template, which every template extends. (It was ``extension.js``, which Voilà refuses with a 403 that
#: printed a warning in the teacher's terminal at every start.)
READY_PROBE_PATH = "voila/static/materialcolors.css"

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


DASHBOARD_CODE = """# 颱風不要來 · Typhoon Alert: class play, served by `typhoon-edu serve` (projector, seat and join pages).
# The page is chosen by the URL (?seat=<token>, ?join=<code>); the language comes from TYPHOON_EDU_LANG.
from typhoon_edu.ui.classplay import launch, preload

preload()  # imports and rules data, done while a preheated kernel waits for its page
app = launch()"""


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


class ServeError(ValueError):
    """A bad ``serve`` setting: a catalog key (``serve.err.*``) and its fields; ``str`` is the English text.

    >>> ServeError("db_memory").text("zh-TW").startswith("--db：")
    True
    """

    def __init__(self, key: str, **fields: object) -> None:
        self.key = key
        self.fields = fields
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        """The message in ``lang`` (a system's refusal among the fields in ``lang`` too)."""
        from ..fileio import os_reason

        fields = {"option": "--db", **{k: os_reason(v, lang) if isinstance(v, OSError) else v
                                       for k, v in self.fields.items()}}
        return t(f"serve.err.{self.key}", lang, **fields)


_SQLITE_SCHEME = re.compile(r"^sqlite(\+[a-z0-9_]+)?$")
_POSTGRES_SCHEME = re.compile(r"^postgresql(\+[a-z0-9_]+)?$")


def db_from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The store ``$TYPHOON_EDU_DB`` names, checked as ``--db`` is (:func:`check_db_url`; a problem names
    the variable), or None when it is not set.

    >>> db_from_environment({}), db_from_environment({"TYPHOON_EDU_DB": "sqlite:////srv/rooms.db"})
    (None, 'sqlite:////srv/rooms.db')
    >>> db_from_environment({"TYPHOON_EDU_DB": "sqlite://"})
    Traceback (most recent call last):
    ...
    typhoon_edu.server.serve.ServeError: TYPHOON_EDU_DB: an in-memory SQLite database would be a different one in every kernel; give a file instead
    """
    env = os.environ if environ is None else environ
    value = env.get(DB_ENV_VAR, "")
    return check_db_url(value, option=DB_ENV_VAR) if value.strip() else None


def check_db_url(url: str, cwd: str | Path | None = None, *, option: str = "--db") -> str:
    """Check a ``--db`` value and return it as the URL every kernel gets in ``TYPHOON_EDU_DB``.

    Accepted: ``sqlite:///PATH`` (a relative PATH is made absolute, because kernels run in the
    notebook's folder, not where ``serve`` was started), a plain file path (becomes
    ``sqlite:///ABSOLUTE``), and ``postgresql://…`` (with an optional ``+driver``), passed on as
    given. Anything else raises :class:`ServeError` naming what is allowed (and ``option``, where the
    value came from). The store itself
    (``TYPHOON_EDU_DB``'s reader) decides the rest.

    >>> check_db_url("sqlite:///rooms.db", cwd="/srv/class")
    'sqlite:////srv/class/rooms.db'
    >>> check_db_url("class.sqlite", cwd="/srv")
    'sqlite:////srv/class.sqlite'
    >>> check_db_url("postgresql+psycopg://teacher@db.school/typhoon")
    'postgresql+psycopg://teacher@db.school/typhoon'
    >>> check_db_url("mysql://x")
    Traceback (most recent call last):
    ...
    typhoon_edu.server.serve.ServeError: --db: 'mysql' is not a database this store knows; use sqlite:///PATH, a file path, or postgresql://USER@HOST/DB
    """
    value = url.strip()
    if not value:
        raise ServeError("db_empty", option=option)
    if "\n" in value or "\r" in value:
        raise ServeError("db_line", option=option)
    base = Path(cwd) if cwd is not None else Path.cwd()
    if "://" not in value:
        if value == ":memory:":
            raise ServeError("db_memory", option=option)
        file = Path(value).expanduser()
        return f"sqlite:///{file if file.is_absolute() else os.path.abspath(base / file)}"
    scheme, rest = value.split("://", 1)
    scheme = scheme.lower()
    if _POSTGRES_SCHEME.match(scheme):
        return value
    if not _SQLITE_SCHEME.match(scheme):
        raise ServeError("db_scheme", scheme=scheme, option=option)
    if rest == "" or rest.startswith("?"):  # sqlite:// is SQLAlchemy's in-memory database
        raise ServeError("db_memory", option=option)
    if not rest.startswith("/"):  # sqlite://host/... is not a file URL
        raise ServeError("db_scheme", scheme=f"{scheme}://{rest.split('/', 1)[0]}", option=option)
    path, sep, query = rest[1:].partition("?")
    if path in ("", ":memory:") or "mode=memory" in query:
        raise ServeError("db_memory", option=option)
    if not path.startswith("/"):
        path = os.path.abspath(base / path)
    return f"{scheme}:///{path}{sep}{query}"


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
    fill_delay: float = FILL_DELAY,
    show_tracebacks: bool = False,
    extra_hosts: Sequence[str] = (),
    check_host: bool = True,
    python: str | None = None,
    extra_args: Sequence[str] = (),
) -> list[str]:
    """Return the command line that starts Voilà on ``notebook`` (a pure function).

    The program is :mod:`typhoon_edu.server.voila_app` (Voilà, plus a Host check and the cookie its
    closing-tab shutdown needs), which takes every Voilà option. ``open_browser`` defaults to
    ``False`` here because :func:`serve` opens the browser itself, once the server answers.

    >>> cmd = build_voila_command("dash.ipynb", port=8899, python="python")
    >>> cmd[:4]
    ['python', '-m', 'typhoon_edu.server.voila_app', 'dash.ipynb']
    >>> "--port=8899" in cmd and "--no-browser" in cmd and "--preheat_kernel=True" in cmd
    True
    >>> "--preheat_kernel=True" in build_voila_command("d.ipynb", port=1, preheat=False)
    False
    >>> [a for a in build_voila_command("d.ipynb", port=1, extra_args=["--pool_size=4"]) if "pool_size" in a]
    ['--pool_size=4']
    """
    if not 0 < port < 65536:
        raise ValueError(f"port must be between 1 and 65535, not {port}")
    if preheat and pool_size < 1:
        raise ValueError(f"a preheated kernel pool needs pool_size >= 1, not {pool_size}")
    if fill_delay < 0:
        raise ValueError(f"fill_delay must be >= 0 seconds, not {fill_delay}")
    if cull_idle_timeout < 0 or cull_interval < 1:
        raise ValueError(f"cull_idle_timeout must be >= 0 and cull_interval >= 1, not {cull_idle_timeout}, {cull_interval}")
    cmd = [
        python or sys.executable,
        "-m",
        "typhoon_edu.server.voila_app",
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
        # A class opening at once (see the module docstring for the measurements behind these).
        f"--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}",
        f"--VoilaExecutor.startup_timeout={KERNEL_STARTUP_TIMEOUT}",
        f"--MappingKernelManager.kernel_info_timeout={KERNEL_STARTUP_TIMEOUT}",
        f"--TyphoonVoila.check_host={check_host}",
    ]
    cmd += [f"--TyphoonVoila.extra_hosts={host}" for host in extra_hosts]
    cmd += encryption_args() + ipc_args()
    if preheat:
        cmd += ["--preheat_kernel=True", f"--pool_size={pool_size}", f"--VoilaKernelManager.fill_delay={fill_delay}"]
    if not open_browser:
        cmd.append("--no-browser")
    # An option given again in extra_args replaces ours (traitlets refuses two values for one setting).
    replaced = {arg.split("=", 1)[0] for arg in extra_args if arg.startswith("--") and "=" in arg}
    cmd = [arg for arg in cmd if arg.split("=", 1)[0] not in replaced] + list(extra_args)
    return cmd


def encryption_args() -> list[str]:
    """The option that makes jupyter_server encrypt each kernel's messages (CurveZMQ keys per kernel).

    The server and its kernels talk over loopback TCP; in plain text, ipykernel warns at every start
    that anyone on this computer could listen. Left out where pyzmq was built without CurveZMQ
    (jupyter_client would then refuse to start a kernel).

    >>> import zmq
    >>> encryption_args() == (["--MappingKernelManager.transport_encryption=auto"] if zmq.has("curve") else [])
    True
    """
    try:
        import zmq
    except ImportError:
        return []
    return ["--MappingKernelManager.transport_encryption=auto"] if zmq.has("curve") else []


def ipc_args() -> list[str]:
    """Kernels reached over Unix sockets in Voilà's own private folder, where the system has them (not Windows).

    Over loopback TCP, jupyter_client picks free ports for a kernel and the kernel binds them a moment
    later; another process may take one in between, and the kernel then dies at start
    (``Address already in use``) while its page waits two minutes for it. Sockets in a folder only
    the teacher's account can open have no ports to lose, and nobody else on the computer can reach
    them. The folder is put in ``/tmp`` itself: a Unix socket's path must stay under about 100 bytes,
    which macOS's long per-user temporary folder would exceed.

    >>> import os
    >>> ipc_args() == ([] if os.name == "nt" else ["--KernelManager.transport=ipc", "--Voila.connection_dir_root=/tmp"])
    True
    """
    if os.name == "nt" or not os.path.isdir("/tmp"):
        return []
    return ["--KernelManager.transport=ipc", "--Voila.connection_dir_root=/tmp"]


def build_voila_env(
    lang: str = "zh-TW",
    base: Mapping[str, str] | None = None,
    *,
    db: str | None = None,
    public_url: str | None = None,
) -> dict[str, str]:
    """Return the environment for the Voilà process (and so for every kernel, preheated ones included).

    ``base`` (default ``os.environ``) plus the language, the room store's URL (``db``, as
    :func:`check_db_url` returns it; without it an inherited ``TYPHOON_EDU_DB`` passes through)
    and the address students type (``public_url``). A ``QUERY_STRING`` in ``base`` is dropped:
    in a kernel it must only ever be the page request's (see :mod:`typhoon_edu.ui.query`).

    >>> env = build_voila_env("en", base={"QUERY_STRING": "seat=x"}, db="sqlite:////tmp/r.db")
    >>> env[LANG_ENV_VAR], env[DB_ENV_VAR], "QUERY_STRING" in env
    ('en', 'sqlite:////tmp/r.db', False)
    """
    env = dict(os.environ if base is None else base)
    env[LANG_ENV_VAR] = _check_lang(lang)
    env.pop("QUERY_STRING", None)
    if db is not None:
        env[DB_ENV_VAR] = db
    if public_url is not None:
        env[PUBLIC_URL_ENV_VAR] = public_url
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

    Voilà runs in a session of its own (a terminal's Ctrl+C reaches only ``serve``, which then
    stops it in order) and, on Linux, gets SIGTERM if the process that started it dies. Every
    process it starts carries :data:`~typhoon_edu.server.process_tree.TAG_ENV_VAR` = :attr:`tag`, so
    :meth:`stop` can find and end any kernel that outlived it.
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
    db: str | None = None
    public_url: str | None = None
    extra_hosts: Sequence[str] = ()
    cull_idle_timeout: int = CULL_IDLE_TIMEOUT
    cull_interval: int = CULL_INTERVAL
    fill_delay: float = FILL_DELAY
    tag: str = field(default_factory=lambda: secrets.token_hex(8))
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        """The page that shows the notebook (on this computer)."""
        return _url_for(self.ip, self.port)

    def command(self) -> list[str]:
        """The command line this process runs (see :func:`build_voila_command`)."""
        return build_voila_command(
            self.notebook,
            port=self.port,
            ip=self.ip,
            preheat=self.preheat,
            pool_size=self.pool_size,
            cull_idle_timeout=self.cull_idle_timeout,
            cull_interval=self.cull_interval,
            fill_delay=self.fill_delay,
            show_tracebacks=self.show_tracebacks,
            extra_hosts=self.extra_hosts,
            python=self.python,
            extra_args=self.extra_args,
        )

    def environment(self) -> dict[str, str]:
        """The environment Voilà (and every kernel) gets."""
        env = build_voila_env(self.lang, base=self.env, db=self.db, public_url=self.public_url or self.url)
        env[TAG_ENV_VAR] = self.tag
        return env

    def start(self) -> VoilaProcess:
        """Start the server (without waiting for it); returns ``self``."""
        if self.process is not None:
            raise RuntimeError("this Voilà process was already started")
        if not Path(self.notebook).exists():
            raise FileNotFoundError(f"dashboard notebook not found: {self.notebook}")
        if not self.port:
            self.port = find_free_port("0.0.0.0" if self.ip in ("", "0.0.0.0") else "127.0.0.1")
        env = self.environment()
        # A folder is served as Voilà's tree of notebooks (typhoon-edu lessons --voila), from inside it.
        cwd = Path(self.notebook).resolve() if Path(self.notebook).is_dir() else Path(self.notebook).resolve().parent
        options: dict[str, Any] = {"env": env, "cwd": cwd, "stdin": subprocess.DEVNULL, "start_new_session": True}
        if sys.platform.startswith("linux"):
            options["preexec_fn"] = die_with_parent
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT, **options)
        else:
            self.process = subprocess.Popen(self.command(), **options)
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
        """Stop the server and every kernel it started; returns Voilà's exit code.

        SIGTERM (Voilà shuts its kernels down), SIGKILL after ``timeout`` s, then any process
        still carrying this server's tag is ended (see :func:`~typhoon_edu.server.process_tree.stop_process`).
        """
        return stop_process(self.process, timeout, tag=self.tag)

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


class StopRequested(Exception):  # noqa: N818 - it is a request, not an error
    """Raised in :func:`serve` by the SIGTERM / SIGHUP handler, so that Voilà is stopped on the way out."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


def _raise_stop(signum: int, frame: object) -> None:
    raise StopRequested(signum)


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise :class:`StopRequested` and Ctrl+C (SIGINT) raises KeyboardInterrupt.

    SIGINT gets Python's own handler even where the process started with SIGINT ignored (a
    background job of a shell script inherits that, and Python then leaves it ignored): a signal
    to stop must stop ``serve``, not leave Voilà and its kernels serving.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {sig: signal.signal(sig, _raise_stop) for sig in wanted}
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


#: The largest notebook ``serve --notebook`` reads to check it (the dashboard is a few kilobytes).
MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024


def check_notebook(path: Path) -> None:
    """Raise :class:`ServeError` unless ``path`` reads as a Jupyter notebook (a JSON object with a list of
    cells): a damaged one is said before the server starts, not as a failing page.

    >>> import tempfile
    >>> bad = Path(tempfile.mkdtemp()) / "x.ipynb"
    >>> _ = bad.write_text("{nope")
    >>> check_notebook(bad)
    Traceback (most recent call last):
    ...
    typhoon_edu.server.serve.ServeError: --notebook: ... is not a Jupyter notebook (.ipynb), or it is damaged
    """
    import json

    from ..fileio import read_bounded

    try:
        data = json.loads(read_bounded(path, MAX_NOTEBOOK_BYTES))
    except OSError as exc:
        raise ServeError("notebook_read", path=path, error=exc) from None
    except ValueError:  # not UTF-8, not JSON
        data = None
    if not (isinstance(data, dict) and isinstance(data.get("cells"), list) and isinstance(data.get("nbformat"), int)):
        raise ServeError("notebook_bad", path=path)


def port_problem(port: int, host: str = "127.0.0.1") -> ServeError | None:
    """Why the server could not listen on ``port`` of ``host`` (another program has it, or only an
    administrator may open it), or None. The port is bound for a moment as Tornado binds it
    (``SO_REUSEADDR``, so a port a closed server left waiting is free), then let go.

    >>> import socket
    >>> with socket.socket() as taken:
    ...     taken.bind(("127.0.0.1", 0)); taken.listen()
    ...     port_problem(taken.getsockname()[1]).key
    'port_busy'
    """
    import errno

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        if os.name != "nt":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return ServeError("port_busy", port=port)
            if exc.errno == errno.EACCES:
                return ServeError("port_denied", port=port)
    return None


def start_failure(process: Any, err: BaseException, lang: str, timeout: float = 120) -> str:
    """Why a server (Voilà or JupyterLab) did not start, in ``lang``: it ended (its exit code; its own
    messages are above in the terminal), it did not answer in time, or the system refused.

    >>> start_failure(None, TimeoutError("no answer"), "en")
    'it did not answer within 120 seconds'
    """
    from ..fileio import os_reason

    code = process.poll() if process is not None else None
    if code is not None:
        return t("cli.serve.exited", lang, code=code)
    if isinstance(err, TimeoutError):
        return t("cli.serve.timeout", lang, seconds=f"{timeout:.0f}")
    if isinstance(err, OSError):
        return os_reason(err, lang)
    return str(err)


def cull_settings(environ: Mapping[str, str] | None = None) -> tuple[int, int]:
    """Kernel culling ``(idle timeout, interval)`` in seconds: the defaults, or the environment's.

    ``TYPHOON_EDU_CULL_IDLE`` overrides :data:`CULL_IDLE_TIMEOUT` (0 turns culling off) and
    ``TYPHOON_EDU_CULL_INTERVAL`` overrides :data:`CULL_INTERVAL` (at least 1); anything else
    raises :class:`ServeError`.

    >>> cull_settings({})
    (900, 60)
    >>> cull_settings({"TYPHOON_EDU_CULL_IDLE": "5", "TYPHOON_EDU_CULL_INTERVAL": "1"})
    (5, 1)
    """
    env = os.environ if environ is None else environ

    def number(name: str, default: int, least: int) -> int:
        raw = env.get(name, "").strip()
        if not raw:
            return default
        try:
            value = int(raw)
        except ValueError:
            raise ServeError("cull_number", name=name, value=raw) from None
        if value < least:
            raise ServeError("cull_least", name=name, least=least, value=value)
        return value

    return number(CULL_IDLE_ENV_VAR, CULL_IDLE_TIMEOUT, 0), number(CULL_INTERVAL_ENV_VAR, CULL_INTERVAL, 1)


def serve(
    port: int | None = None,
    lang: str = "zh-TW",
    open_browser: bool = True,
    notebook: str | Path | None = None,
    *,
    lan: bool = False,
    db: str | None = None,
    pool_size: int | None = None,
) -> int:
    """Serve the class-play dashboard with Voilà until Ctrl+C or SIGTERM; returns the exit code.

    Checks first that the room store can be written and makes sure the computer's teacher has a
    key (:func:`~typhoon_edu.server.teacher_address.prepare_teacher`; a store that cannot be
    written ends ``serve`` with a message saying which and why, exit code 1). As soon as the
    server answers, writes the teacher's address (``http://127.0.0.1:PORT/?teacher=<key>``) and
    the students' (``…/join``) to standard output, then opens the teacher's in the default
    browser unless ``open_browser`` is false. ``lang`` (``"zh-TW"`` or ``"en"``) reaches
    the notebook as ``TYPHOON_EDU_LANG``, ``db`` (see :func:`check_db_url`) as ``TYPHOON_EDU_DB``.
    Without ``lan`` the server listens on this computer only (``localhost``); with it, on every
    interface, and the address students type is printed with a warning. Ctrl+C, SIGTERM and
    SIGHUP stop Voilà and every kernel. ``pool_size`` preheated kernels are kept ready (default
    :data:`DEFAULT_POOL_SIZE`, or :data:`LAN_POOL_SIZE` with ``lan``).
    """
    _check_lang(lang)
    path = Path(notebook) if notebook is not None else default_notebook()
    if path.is_dir():
        raise ServeError("notebook_folder", path=path)
    if not path.is_file():
        sys.stderr.write(t("cli.serve.not_found", lang, path=path) + "\n")
        return 2
    check_notebook(path)
    if port is not None and not 0 <= port <= 65535:  # 0: a free one, as without --port
        raise ServeError("port", value=port)
    db_url = check_db_url(db) if db is not None else db_from_environment()
    if pool_size is None:
        pool_size = LAN_POOL_SIZE if lan else DEFAULT_POOL_SIZE
    if not 1 <= pool_size <= MAX_POOL_SIZE:
        raise ServeError("pool_size", value=pool_size, most=MAX_POOL_SIZE)
    cull_idle, cull_interval = cull_settings()
    busy = port_problem(port, "0.0.0.0" if lan else "127.0.0.1") if port else None
    if busy is not None:  # said before the store is touched
        raise busy
    try:
        key = prepare_teacher(db_url)  # the store must take a write before anyone is told it is ready
    except StoreProblem as problem:
        sys.stderr.write(t("cli.err.prefix", lang, error=problem.text(lang)) + "\n")
        return 1
    ip = "0.0.0.0" if lan else "localhost"
    # CLASS_SERVER_ENV_VAR: a lesson served here knows it is on the class server (lesson 07's class round then goes
    # through the room store, each team on its own device)
    server = VoilaProcess(notebook=path.resolve(), port=port or 0, lang=lang, ip=ip, db=db_url, pool_size=pool_size,
                          env={**os.environ, CLASS_SERVER_ENV_VAR: "1"},
                          fill_delay=LAN_FILL_DELAY if lan else FILL_DELAY,
                          cull_idle_timeout=cull_idle, cull_interval=cull_interval)
    lines = []
    if lan:
        server.port = server.port or find_free_port("0.0.0.0")
        address = lan_address()
        if address is not None:
            server.extra_hosts = (address,)
            server.public_url = f"http://{address}:{server.port}/"
            lines.append(t("serve.lan.address", lang, url=server.public_url))
        else:
            server.public_url = f"http://{socket.gethostname()}:{server.port}/"
            lines.append(t("serve.lan.no_address", lang, url=server.public_url))
        lines.append(t("serve.lan.warning", lang))
    with _stop_on_signals():
        try:
            try:
                server.start()
                server.wait_ready(timeout=120)
            except (RuntimeError, TimeoutError, OSError) as err:
                sys.stderr.write(t("cli.serve.failed", lang, error=start_failure(server.process, err, lang)) + "\n")
                return 1
            teacher = teacher_url(server.port, key)
            students = students_url(server.public_url or server.url)
            head = [t("cli.serve.ready", lang, url=teacher), t("serve.address.teacher", lang),
                    t("serve.address.students" if lan else "serve.address.students_local", lang, url=students),
                    *lines, t("cli.serve.stop_hint", lang)]
            sys.stdout.write("\n" + "\n".join(head) + "\n\n")
            sys.stdout.flush()
            if open_browser:
                with contextlib.suppress(webbrowser.Error):
                    webbrowser.open(teacher)
            assert server.process is not None
            return server.process.wait()
        except KeyboardInterrupt:
            sys.stdout.write(t("cli.serve.stopping", lang) + "\n")
            sys.stdout.flush()
            code = server.stop()
            return 0 if code in (0, -signal.SIGTERM, None) else code
        except StopRequested as stop:
            sys.stdout.write(t("serve.stop.signal", lang, signal=signal.Signals(stop.signum).name) + "\n")
            sys.stdout.flush()
            code = server.stop()
            return 0 if code in (0, -signal.SIGTERM, None) else code
        finally:
            server.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m typhoon_edu.server.serve [--port N] [--lang zh-TW|en] [--no-browser] [--notebook PATH] [--lan] [--db URL]``.

    The same as ``typhoon-edu serve``: the same options (:mod:`typhoon_edu.server.serve_command`),
    help and errors in the language asked for, without importing the ``typhoon-edu`` command.
    """
    from ..argparse_lang import argparse_in, cli_lang
    from .serve_command import build_serve_parser, run_serve

    arguments = list(sys.argv[1:] if argv is None else argv)
    lang = cli_lang(arguments)
    with argparse_in(lang):
        args = build_serve_parser(lang).parse_args(arguments)
    return run_serve(args, lang)


if __name__ == "__main__":
    sys.exit(main())
