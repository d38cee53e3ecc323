"""Helpers for the packaging tests: a command run as a child process whose output is read line by line.

Used by tests/test_lessons_cmd.py and tests/test_quickstart.py (``typhoon-edu lessons``, the
README's quick-start command, the installed wheel). Talks to 127.0.0.1 only.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import psutil


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class CommandRun:
    """``cmd`` as a child process in a session of its own; its output (stdout and stderr) read line by line."""

    cmd: Sequence[str]
    env: Mapping[str, str] | None = None
    cwd: Path | None = None
    proc: subprocess.Popen[str] | None = None
    lines: list[str] = field(default_factory=list)
    _queue: queue.Queue[str | None] = field(default_factory=queue.Queue)

    def start(self) -> CommandRun:
        env = dict(os.environ if self.env is None else self.env)
        env.setdefault("PYTHONUNBUFFERED", "1")
        self.proc = subprocess.Popen(list(self.cmd), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, text=True, env=env, cwd=self.cwd,
                                     start_new_session=True)
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, pattern: str, timeout: float) -> re.Match[str]:
        """The match of the regex ``pattern`` in the first line (read or still to come) that has it."""
        for line in self.lines:
            if m := re.search(pattern, line):
                return m
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError(f"no {pattern!r} within {timeout:.0f} s:\n" + self.text()) from None
            if line is None:
                self._queue.put(None)
                raise AssertionError(f"ended (code {self.proc.poll() if self.proc else None}) without "
                                     f"{pattern!r}:\n" + self.text())
            self.lines.append(line)
            if m := re.search(pattern, line):
                return m

    def text(self) -> str:
        """Everything printed so far (what was waiting is read first)."""
        while True:
            try:
                line = self._queue.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self._queue.put(None)
                break
            self.lines.append(line)
        return "\n".join(self.lines)

    def processes(self) -> list[psutil.Process]:
        """The process and everything under it now."""
        assert self.proc is not None
        try:
            top = psutil.Process(self.proc.pid)
            return [top, *top.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def terminate(self, timeout: float = 60.0) -> int:
        """SIGTERM to the process (as a service manager or a closed terminal sends); its exit code."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=timeout)

    def stop(self) -> None:
        """Make sure the process and everything under it is gone (cleanup after a failed test)."""
        if self.proc is None:
            return
        left = self.processes()
        for proc in left:
            try:
                proc.kill()
            except psutil.NoSuchProcess:
                pass
        psutil.wait_procs(left, timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
