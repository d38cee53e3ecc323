"""A throwaway PostgreSQL server for tests and benchmarks (Debian's ``postgresql`` binaries).

It runs ``initdb`` into a temporary folder and ``pg_ctl start`` on a free loopback port, with
a Unix socket in the same folder, trust authentication for loopback only, and fsync off (the
data is thrown away). PostgreSQL refuses to run as root, so under root the server runs as an
unprivileged system user (``typhoon-pg``, made with ``useradd`` if missing) through
``runuser``. Nothing listens beyond 127.0.0.1.

>>> find_pg_bin() is None or (find_pg_bin() / "pg_ctl").exists()
True

Use it as a context manager::

    with TempPostgres() as pg:
        store = RoomStore(pg.create_database("test1"))
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

SERVICE_USER = "typhoon-pg"


def find_pg_bin() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: ``TYPHOON_EDU_PG_BIN``, the newest /usr/lib/postgresql/*/bin, or PATH."""
    env = os.environ.get("TYPHOON_EDU_PG_BIN")
    if env:
        return Path(env) if (Path(env) / "pg_ctl").exists() else None

    def version(p: Path) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", p.parent.name)) or (0,)

    found = sorted((p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "pg_ctl").exists()), key=version)
    if found:
        return found[-1]
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ensure_user(name: str) -> None:
    if subprocess.run(["id", "-u", name], capture_output=True).returncode == 0:
        return
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True,
                   capture_output=True)


class TempPostgres:
    """A PostgreSQL server in a temporary folder, stopped and removed by :meth:`stop`."""

    def __init__(self, bindir: Path | None = None) -> None:
        found = bindir or find_pg_bin()
        if found is None:
            raise FileNotFoundError("PostgreSQL's binaries (initdb, pg_ctl) are not installed "
                                    "(Debian: apt-get install -y postgresql)")
        self.bindir = Path(found)
        self.root: Path | None = None
        self.port = 0
        self._as: list[str] = []

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        cmd = [*self._as, *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd="/")
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed ({done.returncode}): {done.stderr.strip() or done.stdout}")
        return done

    def start(self) -> TempPostgres:
        self.root = Path(tempfile.mkdtemp(prefix="typhoon-pg-"))
        if os.geteuid() == 0:
            _ensure_user(SERVICE_USER)
            shutil.chown(self.root, SERVICE_USER, SERVICE_USER)
            self._as = ["runuser", "-u", SERVICE_USER, "--"]
        data, sock = self.root / "data", self.root
        self._run(str(self.bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        for _attempt in range(5):
            self.port = _free_port()
            opts = (f"-p {self.port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off "
                    "-c synchronous_commit=off -c full_page_writes=off -c max_connections=100")
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(self.root / "log"),
                          "-w", "-t", "60", "start")
                return self
            except RuntimeError:
                time.sleep(0.2)  # the port was taken between choosing and binding: choose another
        log = (self.root / "log").read_text(errors="replace")[-2000:] if (self.root / "log").exists() else ""
        self.stop()
        raise RuntimeError(f"PostgreSQL did not start: {log}")

    @property
    def url(self) -> str:
        """The URL of the ``postgres`` database (for administration)."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def create_database(self, name: str) -> str:
        """Make a fresh database and return its URL."""
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", name):
            raise ValueError(f"a test database name is lower-case letters, digits and _, not {name!r}")
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def create_schema(self, name: str) -> str:
        """Make a fresh schema in the ``postgres`` database and return a URL whose tables live there
        (much faster than a database per test)."""
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", name):
            raise ValueError(f"a test schema name is lower-case letters, digits and _, not {name!r}")
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        return f"{self.url}?options=-csearch_path%3D{name}"

    def stop(self) -> None:
        if self.root is None:
            return
        data = self.root / "data"
        if (data / "postmaster.pid").exists():
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop", timeout=60)
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    def __enter__(self) -> TempPostgres:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
