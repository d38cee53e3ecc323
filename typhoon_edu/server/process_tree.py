"""Stopping a server *and everything it started*: Voilà and its kernels.

Jupyter starts each kernel in a session of its own (``start_new_session``), so a signal to
Voilà's process group does not reach them, and a Voilà that dies without its ``shutdown_all``
(killed, or stuck) leaves them running. So :func:`stop_process` asks the server to stop
(SIGTERM: Voilà then shuts every kernel down), waits, kills it if it must, and then looks for
what is left: the descendants it saw before stopping, and every process that carries the
server's :data:`TAG_ENV_VAR` value in its environment (kernels inherit Voilà's environment,
preheated ones included, and keep it after they are orphaned). Those get SIGTERM, then SIGKILL.

:func:`die_with_parent` (Linux) makes a child get SIGTERM when the process that started it dies,
even by SIGKILL, so a killed ``typhoon-edu serve`` does not leave Voilà serving on the port.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterable

import psutil

__all__ = ["TAG_ENV_VAR", "descendants", "die_with_parent", "stop_process", "tagged_processes"]

#: Environment variable whose value marks every process of one server (set by VoilaProcess).
TAG_ENV_VAR = "TYPHOON_EDU_SERVE_ID"

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:  # pragma: no cover - runs in the child, between fork and exec
    """``preexec_fn`` for :class:`subprocess.Popen`: on Linux, SIGTERM this child when its parent dies.

    (Linux ties this to the *thread* that started the child: start servers from a thread that
    lives as long as they should.) Elsewhere it does nothing.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def descendants(pid: int) -> list[psutil.Process]:
    """Every living descendant of ``pid`` (children, grandchildren …); ``[]`` if ``pid`` is gone.

    >>> descendants(os.getpid()) == [] or all(isinstance(p, psutil.Process) for p in descendants(os.getpid()))
    True
    """
    try:
        return psutil.Process(pid).children(recursive=True)
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return []


def tagged_processes(tag: str) -> list[psutil.Process]:
    """Every process (but this one) whose environment has ``TAG_ENV_VAR=tag``.

    >>> tagged_processes("no-server-has-this-tag")
    []
    """
    found = []
    me = os.getpid()
    for proc in psutil.process_iter():
        if proc.pid == me:
            continue
        try:
            if proc.environ().get(TAG_ENV_VAR) == tag:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess, OSError):
            continue
    return found


def _finish(procs: Iterable[psutil.Process], grace: float) -> None:
    """Wait ``grace`` s for ``procs`` to exit on their own, then SIGTERM, then SIGKILL what is left."""
    alive = [p for p in {p.pid: p for p in procs}.values() if p.is_running()]
    if not alive:
        return
    _, alive = psutil.wait_procs(alive, timeout=grace)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for proc in alive:
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                proc.send_signal(sig)
        _, alive = psutil.wait_procs(alive, timeout=grace)
        if not alive:
            return


def stop_process(
    process: subprocess.Popen[bytes] | None, timeout: float = 10.0, *, tag: str | None = None, grace: float = 5.0
) -> int | None:
    """Stop a server process and whatever it started; returns its exit code (``None`` if never started).

    SIGTERM, then SIGKILL after ``timeout`` s (to its whole process group if it leads one); then
    its former descendants and the processes tagged ``tag`` get ``grace`` s to exit before they
    are terminated, then killed.
    """
    if process is None:
        return None
    seen = descendants(process.pid) if process.poll() is None else []
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            leads_group = False
            with contextlib.suppress(OSError):
                leads_group = os.getpgid(process.pid) == process.pid and process.pid != os.getpgid(0)
            if leads_group:
                with contextlib.suppress(OSError):
                    os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
            process.wait(timeout=timeout)
    leftovers = list(seen)
    if tag:
        leftovers += tagged_processes(tag)
    _finish(leftovers, grace)
    return process.returncode
