"""Helpers for the ``typhoon-edu serve`` tests (tests/test_serve.py and tests/browser/test_serve_*.py).

Everything here talks to 127.0.0.1 only, also for a server that listens on every interface: a
forged ``Host`` header stands in for a request that came by another name.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import psutil

REPO_ROOT = Path(__file__).resolve().parent.parent
SMOKE_NOTEBOOK = REPO_ROOT / "notebooks" / "smoke" / "one_button.ipynb"

#: What the probe notebook prints (one JSON line) and shows (an HTML widget with this class).
PROBE_PREFIX = "TYPHOON-PROBE "
PROBE_CLASS = "typhoon-probe"

PROBE_CODE = f"""import html, json, os
import ipywidgets as widgets
from IPython.display import display
from typhoon_edu.ui.query import page_query, public_url

query = page_query()
seen = {{
    "query": query,
    "db": os.environ.get("TYPHOON_EDU_DB"),
    "lang": os.environ.get("TYPHOON_EDU_LANG"),
    "public_url": public_url(),
    "preheated": os.environ.get("VOILA_PREHEAT"),
    "pid": os.getpid(),
}}
print({PROBE_PREFIX!r} + json.dumps(seen, sort_keys=True))
box = widgets.HTML("<pre class='{PROBE_CLASS}'>" + html.escape(json.dumps(seen, sort_keys=True)) + "</pre>")
button = widgets.Button(description="ping")
button.add_class("typhoon-probe-button")
display(widgets.VBox([box, button]))
"""


def write_probe_notebook(folder: Path, name: str = "probe.ipynb") -> Path:
    """A one-cell notebook that prints and shows its query string and the serve environment."""
    cell = {"cell_type": "code", "execution_count": None, "id": "probe", "metadata": {}, "outputs": [],
            "source": PROBE_CODE.splitlines(keepends=True)}
    nb = {"cells": [cell], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                        "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    path = Path(folder) / name
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return path


def probe_values(page: str) -> list[dict[str, object]]:
    """The probe notebook's JSON lines found in a served page (its printed output)."""
    found = []
    for match in re.finditer(re.escape(PROBE_PREFIX) + r"(\{[^\n<]*\})", page):
        found.append(json.loads(match.group(1).replace("&quot;", '"').replace("&#34;", '"')))
    return found


def http_request(port: int, path: str = "/", *, host: str | None = None, method: str = "GET",
                 headers: Mapping[str, str] | None = None, body: bytes | None = None,
                 timeout: float = 120.0, source: str | None = None) -> tuple[int, dict[str, str], str]:
    """One HTTP request to 127.0.0.1:``port`` with the given ``Host`` header; (status, headers, body).

    ``source`` (another loopback address, ``127.0.0.2``…) makes the request come from there: to the
    server it is another client, as a student's phone would be.
    """
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        headers: dict[str, str] = {}
        for name, value in response.getheaders():  # several Set-Cookie headers: one per line
            headers[name.lower()] = f"{headers[name.lower()]}\n{value}" if name.lower() in headers else value
        return response.status, headers, text
    finally:
        conn.close()


def kernel_id_of(page: str) -> str:
    """The kernel id Voilà wrote into a served page."""
    match = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
    assert match, "no kernelId in the page"
    return match.group(1)


def kernel_exists(port: int, kernel_id: str) -> bool:
    """Whether Voilà still has this kernel (its kernels API answers 200, not 404)."""
    status, _, _ = http_request(port, f"/api/kernels/{kernel_id}", timeout=30)
    assert status in (200, 404), status
    return status == 200


def v1_message(msg_type: str, content: Mapping[str, object], channel: str = "shell",
               metadata: Mapping[str, object] | None = None) -> tuple[bytes, str]:
    """A kernel message as the page's v1 websocket sends it (one binary frame), and its msg_id."""
    from typhoon_edu.server.websocket_guard import v1_frame

    msg_id = uuid.uuid4().hex
    header = {"msg_id": msg_id, "msg_type": msg_type, "username": "test", "session": uuid.uuid4().hex,
              "date": "2026-01-01T00:00:00.000000Z", "version": "5.3"}
    parts = [json.dumps(part).encode() for part in (header, {}, dict(metadata or {}), dict(content))]
    return v1_frame(parts, channel), msg_id


def v1_reply(frame: bytes | str) -> tuple[str, dict[str, object], dict[str, object]]:
    """A frame the server sent on a v1 kernel websocket: (channel, header, parent header)."""
    from typhoon_edu.server.websocket_guard import v1_frame_parts

    assert isinstance(frame, bytes), f"a text frame on a v1 socket: {frame!r}"
    parts = v1_frame_parts(frame)
    return parts[0].decode(), json.loads(parts[1]), json.loads(parts[2])


def kernel_socket(port: int, kernel_id: str, *, subprotocol: bool = True, timeout: float = 60.0):  # noqa: ANN201
    """A websocket to a kernel's channels on 127.0.0.1, with the v1 subprotocol as Voilà's page opens it."""
    from websockets.sync.client import connect

    from typhoon_edu.server.websocket_guard import KERNEL_WS_PROTOCOL

    url = f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4()}"
    protocols = [KERNEL_WS_PROTOCOL] if subprotocol else None
    return connect(url, open_timeout=timeout, subprotocols=protocols, max_size=None)  # type: ignore[arg-type]


def kernel_info(ws, timeout: float = 60.0) -> None:  # noqa: ANN001
    """Ask a kernel for its info over ``ws`` and wait for the reply (proves the socket reaches the kernel)."""
    frame, msg_id = v1_message("kernel_info_request", {})
    ws.send(frame)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _, header, parent = v1_reply(ws.recv(timeout=timeout))
        if header["msg_type"] == "kernel_info_reply" and parent.get("msg_id") == msg_id:
            return
    raise AssertionError("no kernel_info_reply")


def port_is_free(port: int) -> bool:
    """Whether nothing listens on ``port`` (on any interface) any more."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def wait_until(predicate, timeout: float, interval: float = 0.25, what: str = "condition") -> None:  # noqa: ANN001
    """Poll ``predicate`` until true; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not true within {timeout:.0f} s")
        time.sleep(interval)


def kernel_processes(pid: int) -> list[psutil.Process]:
    """The ipykernel processes below ``pid``."""
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    found = []
    for proc in children:
        try:
            if "ipykernel_launcher" in " ".join(proc.cmdline()):
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return found


@dataclass
class ServeRun:
    """``python -m typhoon_edu.server.serve --no-browser …`` as a child process, its output read line by line."""

    args: Sequence[str]
    env: Mapping[str, str] | None = None
    proc: subprocess.Popen[str] | None = None
    lines: list[str] = field(default_factory=list)
    url: str = ""
    teacher_key: str = ""
    _queue: queue.Queue[str | None] = field(default_factory=queue.Queue)

    def start(self, timeout: float = 120.0) -> ServeRun:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **(self.env or {})}
        # serve writes the teacher's key file and the store: never the real user's, and not a store
        # other sessions on this machine share (a schema upgrade there would reach them).
        private = Path(tempfile.mkdtemp(prefix="typhoon-serve-"))
        env.setdefault("XDG_CONFIG_HOME", str(private / "config"))
        env.setdefault("XDG_DATA_HOME", str(private / "data"))
        if "--db" not in self.args and not (self.env or {}).get("TYPHOON_EDU_DB"):
            env["TYPHOON_EDU_DB"] = f"sqlite:///{private / 'rooms.sqlite3'}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "typhoon_edu.server.serve", "--no-browser", *self.args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env=env,
        )
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + timeout
        while True:
            line = self.next_line(deadline - time.monotonic())
            if line is None:
                raise AssertionError("serve ended before printing its URL:\n" + "\n".join(self.lines))
            match = re.search(r"http://(?:localhost|127\.0\.0\.1):(\d+)/", line)
            if match and not self.url:
                self.url = f"http://localhost:{match.group(1)}/"
            key = re.search(r"\?teacher=([A-Za-z0-9_-]+)", line)
            if key and not self.teacher_key:
                self.teacher_key = key.group(1)
            if self.url and ("Ctrl+C" in line):
                return self

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def next_line(self, timeout: float) -> str | None:
        """The next line of output (``None`` at the end); fails after ``timeout`` s."""
        try:
            line = self._queue.get(timeout=max(timeout, 0.01))
        except queue.Empty:
            raise AssertionError("serve printed nothing in time:\n" + "\n".join(self.lines)) from None
        if line is not None:
            self.lines.append(line)
        return line

    def wait_for(self, pattern: str, timeout: float = 120.0) -> str:
        """The first line of output (already read or still to come) matching the regex ``pattern``."""
        for line in self.lines:
            if re.search(pattern, line):
                return line
        deadline = time.monotonic() + timeout
        while True:
            line = self.next_line(deadline - time.monotonic())
            if line is None:
                raise AssertionError(f"serve ended without printing {pattern!r}:\n" + "\n".join(self.lines))
            if re.search(pattern, line):
                return line

    def drain(self) -> list[str]:
        """Read whatever output is waiting (without blocking); returns every line so far."""
        while True:
            try:
                line = self._queue.get_nowait()
            except queue.Empty:
                return self.lines
            if line is None:
                self._queue.put(None)
                return self.lines
            self.lines.append(line)

    def wait_for_pool(self, timeout: float = 120.0) -> None:
        """Wait until Voilà says its preheated kernel pool is full (then a visitor gets a preheated kernel)."""
        self.wait_for(r"Kernel pool of .* is filled", timeout)

    def output_after_exit(self) -> str:
        """Everything printed, once the process has ended."""
        while True:
            try:
                line = self._queue.get(timeout=5)
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
        return "\n".join(self.lines)

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].strip("/"))

    def processes(self) -> list[psutil.Process]:
        """serve's descendants now: Voilà and its kernels."""
        assert self.proc is not None
        try:
            return psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def voila_pid(self) -> int:
        """The Voilà server's process id."""
        for proc in self.processes():
            if "typhoon_edu.server.voila_app" in " ".join(proc.cmdline()):
                return proc.pid
        raise AssertionError("no Voilà process under serve")

    def signal(self, sig: int, timeout: float = 60.0) -> int:
        """Send ``sig`` to serve and wait for it to end; returns its exit code."""
        assert self.proc is not None
        self.proc.send_signal(sig)
        return self.proc.wait(timeout=timeout)

    def stop(self) -> None:
        """Make sure serve and everything under it is gone (cleanup after a failed test)."""
        if self.proc is None:
            return
        left = self.processes()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for proc in left:
            try:
                proc.kill()
            except psutil.NoSuchProcess:
                pass

    def __enter__(self) -> ServeRun:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
