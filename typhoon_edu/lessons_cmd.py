"""``typhoon-edu lessons``: the person's own copy of the lessons, opened in JupyterLab (or shown in Voilà).

``typhoon-edu lessons [--lang zh-TW|en] [--dir FOLDER] [--port N] [--no-browser] [--voila] [--verbose]``

1. :func:`typhoon_edu.lessonbook.prepare_copy` makes (or keeps) the copy in ``FOLDER/<lang>`` and
   says where it is, what it restored and where a newer version went.
2. JupyterLab starts as a child process, serving ``FOLDER`` (so a newer version beside the copy
   shows in its file browser), on ``localhost`` only, with a fresh random token; once it answers,
   the URL of the copy's index page is printed and opened in the browser. The URL is said as soon as the
   server starts and again, last, once it answers; the server's routine INFO lines are left out (its
   warnings and errors are shown), ``--verbose`` shows them. The tabs JupyterLab reopens next time are kept
   inside the copy (``FOLDER/<lang>/.jupyter-workspaces``), not in the person's own JupyterLab settings,
   so a run in another language or folder does not reopen that copy's tabs (as "file not found" warnings).
   With ``--voila`` the copy is served read-only by Voilà instead, through the class-play server
   machinery (:class:`typhoon_edu.server.serve.VoilaProcess`: the same Host check, no page may
   run code), as a tree of notebooks with their code shown (lesson 06 asks its readers to read
   code); the URL printed is the index page's.
3. Ctrl+C, SIGTERM or SIGHUP stop the server and every kernel it started.

>>> parser = build_parser_for_tests()
>>> args = parser.parse_args(["lessons", "--lang", "en", "--no-browser", "--port", "8871"])
>>> (args.lang, args.no_browser, args.port, args.voila, args.verbose)
('en', True, 8871, False, False)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import webbrowser
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .i18n import t
from .lessonbook import LessonCopy, LessonsError, check_lang, prepare_copy
from .ui.query import LESSONS_SERVER_ENV_VAR

__all__ = ["JupyterLabProcess", "add_parser", "build_lab_command", "lessons", "lessons_error_text", "run"]

#: Seconds JupyterLab (or Voilà) may take to answer after it started.
START_TIMEOUT = 120.0
#: Seconds JupyterLab may take to shut its kernels down after SIGTERM before it is killed.
STOP_TIMEOUT = 30.0
#: The folder inside a copy where JupyterLab keeps its open tabs and layout (hidden in its file browser).
WORKSPACES_NAME = ".jupyter-workspaces"


def stopped_exit_code(result: int | None) -> int:
    """The command's exit code once the person asked it to stop and the server is gone.

    The server was stopped on request, so its ending by our SIGTERM, or by SIGKILL when it
    did not finish shutting down its kernels in time, is a clean stop; any other code is
    the server's own failure and is passed on.

    >>> [stopped_exit_code(code) for code in (0, None, -signal.SIGTERM, -signal.SIGKILL)]
    [0, 0, 0, 0]
    >>> stopped_exit_code(3)
    3
    """
    return 0 if result is None or result in (0, -signal.SIGTERM, -signal.SIGKILL) else result


def add_parser(sub: Any, help_text: Any, lang: str = "en") -> argparse.ArgumentParser:
    """Add the ``lessons`` command to ``typhoon-edu``'s subparsers; ``help_text(key)`` gives a ``cli.help`` text
    (argument errors are said in ``lang``)."""
    from .argparse_lang import file_path, whole_number

    p: argparse.ArgumentParser = sub.add_parser("lessons", help=help_text("lessons"),
                                                description=help_text("lessons_description"))
    p.add_argument("--lang", default="zh-TW", help=help_text("lang_lessons") + help_text("default_note"))
    p.add_argument("--dir", type=file_path(lang), default=None, metavar="FOLDER", help=help_text("dir"))
    p.add_argument("--port", type=whole_number(lang), default=None, help=help_text("port_lessons"))
    p.add_argument("--no-browser", action="store_true", help=help_text("no_browser"))
    p.add_argument("--voila", action="store_true", help=help_text("voila"))
    p.add_argument("--verbose", action="store_true", help=help_text("verbose_lessons"))
    return p


def build_parser_for_tests(lang: str = "en") -> argparse.ArgumentParser:
    """A parser holding only ``lessons`` (the doctests' and unit tests' own)."""
    parser = argparse.ArgumentParser(prog="typhoon-edu")
    add_parser(parser.add_subparsers(dest="command"), lambda key: t(f"cli.help.{key}", lang), lang)
    return parser


def build_lab_command(root: Path, *, port: int, token: str, python: str | None = None,
                      as_root: bool | None = None, verbose: bool = False, workspaces: Path | None = None) -> list[str]:
    """The command line that starts JupyterLab on ``root`` (a pure function); ``workspaces`` is where it keeps
    its open tabs (else in the person's ``~/.jupyter/lab/workspaces``).

    >>> cmd = build_lab_command(Path("/l"), port=8871, token="abc", python="python", as_root=False)
    >>> cmd[:3], "--ServerApp.ip=localhost" in cmd, "--IdentityProvider.token=abc" in cmd
    (['python', '-m', 'typhoon_edu.server.lab_app'], True, True)
    >>> "--ServerApp.log_level=WARN" in cmd, "--ServerApp.log_level=WARN" in build_lab_command(
    ...     Path("/l"), port=1, token="x", verbose=True)
    (True, False)
    >>> "--ServerApp.allow_root=True" in build_lab_command(Path("/l"), port=1, token="x", as_root=True)
    True
    >>> build_lab_command(Path("/l"), port=1, token="x", workspaces=Path("/l/en/.jupyter-workspaces"))[-1]
    '--LabApp.workspaces_dir=/l/en/.jupyter-workspaces'
    """
    if not 0 < port < 65536:
        raise LessonsError("port", value=port)
    from .server.serve import encryption_args

    if as_root is None:
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    cmd = [
        python or sys.executable, "-m", "typhoon_edu.server.lab_app",  # JupyterLab, lean (see that module)
        f"--ServerApp.root_dir={root}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",  # the printed URL is the one served
        "--ServerApp.ip=localhost",  # this computer only
        "--ServerApp.open_browser=False",  # opened by us, once it answers, on the index page
        f"--IdentityProvider.token={token}",
        # No prompt about news and no calls out to the internet: a class's screen shows the lesson only.
        # The prompt comes from JupyterLab's announcements plugin, which lab_app (a server extension of this
        # server only) leaves out of the page; the two options keep the server from fetching news or versions.
        "--ServerApp.jpserver_extensions=typhoon_edu.server.lab_app=True",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        # notebook_shim (installed with JupyterLab, for the classic notebook's server extensions, which these
        # lessons do not use) reads every attribute of the server, ServerApp.token's deprecated default among them,
        # and so printed "ServerApp.token config is deprecated" about a token nobody set (ours is IdentityProvider's)
        "--ServerApp.jpserver_extensions=notebook_shim=False",
        *encryption_args(),  # kernels talk to JupyterLab encrypted, as the class server's do
    ]
    if not verbose:  # the lesson's URL, printed by the command, is not buried under each request and kernel
        cmd += ["--ServerApp.log_level=WARN", "--LabApp.log_level=WARN"]
    if as_root:  # JupyterLab refuses root without it (CI machines and containers run as root)
        cmd.append("--ServerApp.allow_root=True")
    if workspaces is not None:  # the tabs reopened next time: this copy's, not another language's or folder's
        cmd.append(f"--LabApp.workspaces_dir={workspaces}")
    return cmd


@dataclass
class JupyterLabProcess:
    """JupyterLab as a child process serving ``root``; stopped with every kernel it started."""

    root: Path
    port: int = 0
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    python: str | None = None
    env: Mapping[str, str] | None = None
    log_path: Path | None = None
    tag: str = field(default_factory=lambda: secrets.token_hex(8))
    verbose: bool = False
    workspaces: Path | None = None
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def base_url(self) -> str:
        return f"http://localhost:{self.port}/"

    def page_url(self, relative: str) -> str:
        """The URL that opens ``relative`` (a path inside ``root``) in JupyterLab, token included."""
        return f"{self.base_url}lab/tree/{urllib.request.pathname2url(relative).lstrip('/')}?token={self.token}"

    def start(self) -> JupyterLabProcess:
        from .server.process_tree import TAG_ENV_VAR, die_with_parent
        from .server.serve import find_free_port

        if not self.port:
            self.port = find_free_port()
        env = dict(os.environ if self.env is None else self.env)
        env[TAG_ENV_VAR] = self.tag
        options: dict[str, Any] = {"env": env, "cwd": self.root, "stdin": subprocess.DEVNULL, "start_new_session": True}
        if sys.platform.startswith("linux"):
            options["preexec_fn"] = die_with_parent
        command = build_lab_command(self.root, port=self.port, token=self.token, python=self.python,
                                    verbose=self.verbose, workspaces=self.workspaces)
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, **options)
        else:
            self.process = subprocess.Popen(command, **options)
        return self

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Block until JupyterLab answers ``/api`` (its version, no token needed)."""
        if self.process is None:
            raise RuntimeError("start() JupyterLab before waiting for it")
        deadline = time.monotonic() + timeout
        while True:
            code = self.process.poll()
            if code is not None:
                raise RuntimeError(f"JupyterLab exited with code {code} before it was ready")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api", timeout=5) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"JupyterLab did not answer on port {self.port} within {timeout:.0f} s")
            time.sleep(0.2)

    def stop(self, timeout: float = STOP_TIMEOUT) -> int | None:
        from .server.process_tree import stop_process

        return stop_process(self.process, timeout, tag=self.tag)


def _report_copy(copy: LessonCopy, lang: str, out: TextIO) -> None:
    out.write(t("lessonbook.cli.copied" if copy.created else "lessonbook.cli.kept", lang, folder=copy.folder) + "\n")
    if copy.restored:
        out.write(t("lessonbook.cli.restored", lang, names=", ".join(copy.restored)) + "\n")
    if copy.newer is not None:
        out.write(t("lessonbook.cli.newer", lang, folder=copy.newer) + "\n")


def lessons(lang: str = "zh-TW", *, folder: Path | None = None, port: int | None = None, open_browser: bool = True,
            voila: bool = False, out: TextIO | None = None, verbose: bool = False) -> int:
    """Copy (or keep) the lessons and serve them until Ctrl+C or SIGTERM; returns the exit code."""
    from .server.serve import StopRequested, VoilaProcess, _stop_on_signals, port_problem, start_failure

    out = out or sys.stdout
    code = check_lang(lang)
    if port is not None and not 0 < port < 65536:
        raise LessonsError("port", value=port)
    busy = port_problem(port) if port is not None else None
    if busy is not None:  # said before the copy is made
        raise busy
    copy = prepare_copy(code, folder)
    _report_copy(copy, code, out)
    server: JupyterLabProcess | VoilaProcess
    if voila:
        # one person's lessons on this computer: lesson 04's game is theirs, as in JupyterLab (no teacher's key)
        server = VoilaProcess(notebook=copy.folder, port=port or 0, lang=code, preheat=False,
                              extra_args=["--strip_sources=False"], env={**os.environ, LESSONS_SERVER_ENV_VAR: "1"})
    else:
        server = JupyterLabProcess(root=copy.folder.parent, port=port or 0, verbose=verbose,
                                   workspaces=copy.folder / WORKSPACES_NAME)
    with _stop_on_signals():
        try:
            try:
                server.start()
                url = _lessons_url(server, copy)
                out.write(t("lessonbook.cli.starting", code, url=url) + "\n")  # before anything the server says
                out.flush()
                server.wait_ready(timeout=START_TIMEOUT)
            except (RuntimeError, TimeoutError, OSError) as err:
                error = start_failure(server.process, err, code, timeout=START_TIMEOUT)
                sys.stderr.write(t("lessonbook.cli.failed", code, error=error) + "\n")
                return 1
            ready = t("lessonbook.cli.voila_ready" if isinstance(server, VoilaProcess) else "lessonbook.cli.ready", code,
                      url=url)
            out.write("\n" + t("lessonbook.cli.stop_hint", code) + "\n" + ready + "\n\n")  # the URL last
            out.flush()
            if open_browser:
                with contextlib.suppress(webbrowser.Error):
                    webbrowser.open(url)
            assert server.process is not None
            return server.process.wait()
        except (KeyboardInterrupt, StopRequested):
            out.write(t("lessonbook.cli.stopping", code) + "\n")
            out.flush()
            return stopped_exit_code(server.stop())
        finally:
            server.stop()


def _lessons_url(server: Any, copy: LessonCopy) -> str:
    """The URL of the copy's index page on ``server`` (started: its port is known)."""
    from .server.serve import VoilaProcess

    if isinstance(server, VoilaProcess):
        return f"{server.url}voila/render/{copy.index.name}"
    return str(server.page_url(f"{copy.folder.name}/{copy.index.name}"))


def run(args: argparse.Namespace, lang: str, out: TextIO | None = None) -> int:
    """Run the parsed ``lessons`` command; a :class:`LessonsError` (or a port in use) is told in ``lang`` (exit code 2)."""
    from .server.serve import ServeError

    try:
        return lessons(args.lang, folder=args.dir, port=args.port, open_browser=not args.no_browser,
                       voila=args.voila, out=out, verbose=args.verbose)
    except LessonsError as exc:
        sys.stderr.write(t("cli.err.prefix", lang, error=lessons_error_text(exc, lang)) + "\n")
        return 2
    except ServeError as exc:
        sys.stderr.write(t("cli.err.prefix", lang, error=exc.text(lang)) + "\n")
        return 2


def lessons_error_text(exc: LessonsError, lang: str) -> str:
    """``exc`` in ``lang``; when the system refused the copy, its reason in ``lang`` too (the error keeps
    the system's English text; the system's error is the one it was raised from).

    >>> try:
    ...     try:
    ...         raise NotADirectoryError(20, "Not a directory")
    ...     except OSError as err:
    ...         raise LessonsError("copy", path="notes.txt/en", reason=err.strerror) from None
    ... except LessonsError as exc:
    ...     lessons_error_text(exc, "zh-TW")
    '無法把課程複製到 notes.txt/en（路徑中有一段是檔案，不是資料夾）；請用 --dir 指定別的資料夾'
    """
    from .fileio import os_reason

    system = exc.__context__
    if exc.key == "copy" and isinstance(system, OSError):
        return LessonsError(exc.key, **{**exc.fields, "reason": os_reason(system, lang)}).text(lang)
    return exc.text(lang)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m typhoon_edu.lessons_cmd [options]``: the same as ``typhoon-edu lessons``."""
    from .cli import main as cli_main

    return cli_main(["lessons", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
