"""A class opening the dashboard at once: time to usable, blank pages, kernel memory (issue 10 §4).

Usage (from the repository root; every measurement starts its own server, exactly as
``typhoon-edu serve`` does, and talks to it on 127.0.0.1 only)::

    python benchmarks/classroom.py class              # a projector + 5 seat devices within one second
    python benchmarks/classroom.py crowd              # 20 pages opened at the same moment
    python benchmarks/classroom.py memory --pages 6   # kernel memory with 6 pages open
    python benchmarks/classroom.py import             # what starting the dashboard costs in a kernel
    python benchmarks/classroom.py all --json artifacts/classroom.json
    python benchmarks/classroom.py crowd --pool-size 1 --voila-arg=--VoilaExecutor.iopub_timeout=4   # the old setup

A page is **usable** when its first interactive control is visible *and answers*: for the
dashboard, the setup screen's start button is visible and a click on the language switch comes
back from the kernel as the page's header in the other language (``--check`` picks another
probe). A page that shows nothing usable within ``--timeout`` seconds counts as **blank**.
Times run from the moment each page is opened. p95 is the nearest-rank 95th percentile (with
6 pages, the slowest one). Pages stay open until the last one is usable (a class keeps them
open), then close as tabs do (``beforeunload``, so Voilà shuts their kernels down).

Every loop is bounded: each page has its own deadline, each burst ends when all pages are
usable or out of time, and ``--repeat`` bursts are separated by ``--pause`` seconds.

The room-game measurements of §4 (a whole 5-seat game from scripted devices, a kernel killed in
mid-move) belong next to these as functions of their own (``measure_<name>``) with a
subcommand each; see :data:`MEASUREMENTS`.

Needs Debian's Chromium at /usr/bin/chromium (or $TYPHOON_EDU_CHROMIUM) and the playwright package.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil

from typhoon_edu import i18n
from typhoon_edu.server.serve import (
    CHROMIUM_ARGS,
    CHROMIUM_PATH,
    DEFAULT_POOL_SIZE,
    FILL_DELAY,
    LAN_FILL_DELAY,
    LAN_POOL_SIZE,
    VoilaProcess,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
DASHBOARD = REPO_ROOT / "notebooks" / "dashboard.ipynb"
SMOKE = REPO_ROOT / "notebooks" / "smoke" / "one_button.ipynb"
LOG_DIR = REPO_ROOT / "artifacts" / "logs"

PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


# ------------------------------------------------------------------------------------ usable
@dataclass(frozen=True)
class UsableCheck:
    """What "usable" means for a notebook: ``visible`` shows, then a click on ``click`` makes
    ``answer_selector`` contain ``answer_text`` (a round trip through the kernel)."""

    name: str
    notebook: Path
    visible: str
    click: str | None = None
    answer_selector: str | None = None
    answer_text: str | None = None


def dashboard_check(lang: str = "zh-TW") -> UsableCheck:
    """The class-play dashboard: start button visible; the language switch answers."""
    other = "en" if lang == "zh-TW" else "zh-TW"
    button = {"zh-TW": "中文", "en": "English"}[other]
    return UsableCheck("dashboard", DASHBOARD, ".typhoon-setup-start", f".typhoon-lang button:has-text('{button}')",
                       ".typhoon-app", i18n.t("dash.setup.title", other))


def join_check(lang: str = "zh-TW") -> UsableCheck:
    """A student's phone at ``/join``: the room-code field visible; the language switch answers."""
    other = "en" if lang == "zh-TW" else "zh-TW"
    button = {"zh-TW": "中文", "en": "English"}[other]
    return UsableCheck("join", DASHBOARD, ".typhoon-join-code", f".typhoon-lang button:has-text('{button}')",
                       ".typhoon-app", i18n.t("classplay.seat.join_title", other))


def smoke_check() -> UsableCheck:
    """The one-button notebook: its button visible; a click counts in the kernel."""
    return UsableCheck("smoke", SMOKE, ".smoke-button", ".smoke-button", ".widget-text", "")


CHECKS: dict[str, Callable[[], UsableCheck]] = {"dashboard": dashboard_check, "smoke": smoke_check}


# ------------------------------------------------------------------------------------ results
def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in 0..100) of ``values``; ``None`` if empty.

    >>> percentile([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 95), percentile([3.0], 50), percentile([], 95)
    (6.0, 3.0, None)
    """
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


@dataclass
class PageResult:
    """One page of a burst: seconds from opening it to visible and to usable (``None``: never)."""

    index: int
    role: str
    first_byte: float | None = None
    page_loaded: float | None = None
    visible: float | None = None
    usable: float | None = None
    error: str | None = None
    kernel_id: str | None = None

    @property
    def blank(self) -> bool:
        return self.visible is None


@dataclass
class BurstResult:
    """A burst of pages opened together, on one server setting."""

    name: str
    pages: int
    spread: float
    settings: dict[str, Any]
    results: list[PageResult] = field(default_factory=list)
    iopub_timeouts: int = 0
    memory: dict[str, Any] | None = None
    rounds: list[dict[str, Any]] = field(default_factory=list)

    @property
    def usable_times(self) -> list[float]:
        return [r.usable for r in self.results if r.usable is not None]

    def summary(self) -> dict[str, Any]:
        times = self.usable_times
        return {
            "name": self.name, "pages": len(self.results), "spread_s": self.spread,
            "usable": len(times), "blank": sum(r.blank for r in self.results),
            "visible_not_answering": sum(1 for r in self.results if r.visible is not None and r.usable is None),
            "p50_s": percentile(times, 50), "p95_s": percentile(times, 95), "max_s": max(times) if times else None,
            "iopub_timeouts": self.iopub_timeouts, "settings": self.settings, "memory": self.memory,
            "rounds": self.rounds, "per_page": [asdict(r) for r in self.results],
        }


# ------------------------------------------------------------------------------------ server
def start_server(check: UsableCheck, *, pool_size: int, preheat: bool, voila_args: Sequence[str], lang: str,
                 log_name: str, saves: Path, fill_delay: float = LAN_FILL_DELAY) -> VoilaProcess:
    """Voilà as ``typhoon-edu serve`` starts it (``--lan``'s fill delay unless told), waiting until the pool is full.

    Its room store and the teacher's key file are in ``saves`` (never the user's own).
    """
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "TYPHOON_EDU_SAVES": str(saves), "TYPHOON_EDU_DB": f"sqlite:///{saves / 'rooms.sqlite3'}",
           "XDG_CONFIG_HOME": str(saves / "config")}
    server = VoilaProcess(notebook=check.notebook.resolve(), lang=lang, preheat=preheat, pool_size=pool_size,
                          fill_delay=fill_delay, log_path=LOG_DIR / log_name, extra_args=tuple(voila_args), env=env)
    server.start()
    server.wait_ready(timeout=180)
    if preheat:
        wait_for_pool(server, pool_size, timeout=60 + 30 * pool_size)
    return server


def kernel_processes(server: VoilaProcess) -> dict[str, psutil.Process]:
    """The server's kernels by kernel id (read from each kernel's connection-file argument)."""
    assert server.process is not None
    found: dict[str, psutil.Process] = {}
    try:
        children = psutil.Process(server.process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return found
    for proc in children:
        try:
            match = re.search(r"kernel-([0-9a-f-]{36})\.json", " ".join(proc.cmdline()))
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
        if match:
            found[match.group(1)] = proc
    return found


def wait_for_pool(server: VoilaProcess, pool_size: int, timeout: float) -> None:
    """Until ``pool_size`` kernels exist and sit idle (their notebooks ran), or ``timeout`` s.

    Call it when no page is open: every kernel left is then a preheated one. (The log's "pool is
    filled" line is not enough: a kernel handed out is replaced only after the fill delay.)
    """
    deadline = time.monotonic() + timeout

    def busy_seconds(kernels: Sequence[psutil.Process]) -> float:
        total = 0.0
        for proc in kernels:
            try:
                times = proc.cpu_times()
                total += times.user + times.system
            except psutil.NoSuchProcess:
                pass
        return total

    def known(kernel_id: str) -> bool:  # a closed page's kernel may still be a process for a moment
        try:
            with urllib.request.urlopen(f"{server.url}api/kernels/{kernel_id}", timeout=10):
                return True
        except (urllib.error.URLError, OSError):
            return False

    while time.monotonic() < deadline:
        kernels = [p for k, p in kernel_processes(server).items() if known(k)]
        if len(kernels) >= pool_size:
            before = busy_seconds(kernels)
            time.sleep(1.0)
            if busy_seconds(kernels) - before < 0.05:
                return
        else:
            time.sleep(0.5)


def count_iopub_timeouts(server: VoilaProcess) -> int:
    assert server.log_path is not None
    return server.log_path.read_text(errors="replace").count("Timeout waiting for IOPub output")


def memory_of(server: VoilaProcess, used: Sequence[str]) -> dict[str, Any]:
    """RSS and USS (MB) of Voilà and of its kernels: those serving ``used`` pages and the spare (pool) ones."""
    assert server.process is not None

    def mb(proc: psutil.Process) -> tuple[float, float]:
        try:
            info = proc.memory_full_info()
            return info.rss / 2**20, info.uss / 2**20
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return 0.0, 0.0

    kernels = kernel_processes(server)
    page_k = [mb(p) for k, p in kernels.items() if k in used]
    spare_k = [mb(p) for k, p in kernels.items() if k not in used]
    voila_rss, voila_uss = mb(psutil.Process(server.process.pid))
    return {
        "voila_rss_mb": round(voila_rss, 1), "voila_uss_mb": round(voila_uss, 1),
        "page_kernels": len(page_k), "spare_kernels": len(spare_k),
        "page_kernel_rss_mb_mean": round(statistics.mean(r for r, _ in page_k), 1) if page_k else None,
        "page_kernel_uss_mb_mean": round(statistics.mean(u for _, u in page_k), 1) if page_k else None,
        "all_kernels_rss_mb": round(sum(r for r, _ in page_k + spare_k), 1),
        "all_kernels_uss_mb": round(sum(u for _, u in page_k + spare_k), 1),
        "total_rss_mb": round(voila_rss + sum(r for r, _ in page_k + spare_k), 1),
    }


def cpu_seconds(server: VoilaProcess) -> dict[int, tuple[str, float]]:
    """CPU time (user + system, s) so far of Voilà, its kernels and this process's browser, by pid."""
    assert server.process is not None
    found: dict[int, tuple[str, float]] = {}

    def add(proc: psutil.Process, kind: str) -> None:
        try:
            times = proc.cpu_times()
            found[proc.pid] = (kind, times.user + times.system)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass

    voila = psutil.Process(server.process.pid)
    add(voila, "voila")
    server_tree = {voila.pid}
    for proc in voila.children(recursive=True):
        server_tree.add(proc.pid)
        add(proc, "kernels")
    for proc in psutil.Process().children(recursive=True):
        if proc.pid not in server_tree:
            add(proc, "browser")
    return found


def cpu_used(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]) -> dict[str, float]:
    """CPU seconds spent between two :func:`cpu_seconds` readings, by kind (new processes from zero)."""
    used: dict[str, float] = {}
    for pid, (kind, seconds) in after.items():
        used[kind] = used.get(kind, 0.0) + seconds - before.get(pid, (kind, 0.0))[1]
    return {k: round(v, 1) for k, v in sorted(used.items())}


def load_average() -> float:
    """The 1-minute load average (other work on this shared machine weighs on every figure)."""
    return round(os.getloadavg()[0], 1)


# ------------------------------------------------------------------------------------ browser
async def _open_page(browser: Any, url: str, check: UsableCheck, index: int, role: str, delay: float,
                     timeout: float, teacher_key: str | None = None) -> tuple[PageResult, Any]:
    from playwright.async_api import TimeoutError as PlaywrightTimeout
    from playwright.async_api import expect

    await asyncio.sleep(delay)
    result = PageResult(index=index, role=role)
    context = await browser.new_context(viewport=PROJECTOR if role == "projector" else PHONE)
    if teacher_key is not None:  # the teacher's browser has the cookie its first visit of serve's address left
        await context.add_cookies([{"name": "typhoon_teacher", "value": teacher_key, "url": url}])
    page = await context.new_page()
    start = time.perf_counter()
    deadline = start + timeout

    def left_ms() -> float:
        return max(1.0, (deadline - time.perf_counter()) * 1000)

    try:
        await page.goto(url, wait_until="commit", timeout=left_ms())
        result.first_byte = time.perf_counter() - start
        await page.wait_for_load_state("load", timeout=left_ms())
        result.page_loaded = time.perf_counter() - start
        await page.locator(check.visible).first.wait_for(state="visible", timeout=left_ms())
        result.visible = time.perf_counter() - start
        if check.click:
            await page.locator(check.click).first.click(timeout=left_ms())
        if check.answer_selector is not None:
            target = page.locator(check.answer_selector).first
            if check.answer_text:
                await expect(target).to_contain_text(check.answer_text, timeout=left_ms())
            else:  # the smoke notebook: the click counter leaves 0
                await expect(target.locator("input")).not_to_have_value("0", timeout=left_ms())
        result.usable = time.perf_counter() - start
        result.kernel_id = await page.evaluate(
            "(() => { const c = document.getElementById('jupyter-config-data');"
            " return c ? JSON.parse(c.textContent).kernelId : null; })()")
    except PlaywrightTimeout as err:
        result.error = f"timeout: {str(err).splitlines()[0][:160]}"
    except Exception as err:  # noqa: BLE001 - a benchmark reports what went wrong and goes on
        result.error = f"{type(err).__name__}: {str(err).splitlines()[0][:160]}"
    return result, page


#: CPU used and load average of each burst round (filled by :func:`_burst_round`).
CPU_LOG: list[dict[str, Any]] = []


async def _burst_round(server: VoilaProcess, check: UsableCheck, pages: int, spread: float, timeout: float,
                       projector: bool, with_memory: bool, teacher_key: str | None = None,
                       seat_check: UsableCheck | None = None) -> tuple[list[PageResult], dict[str, Any] | None]:
    """One burst in one browser: open every page, wait for all, read memory with them open, close them."""
    from playwright.async_api import async_playwright

    async with async_playwright() as handle:
        browser = await handle.chromium.launch(executable_path=CHROMIUM_PATH, headless=True, args=list(CHROMIUM_ARGS))
        delays = [spread * i / (pages - 1) if pages > 1 else 0.0 for i in range(pages)]
        roles = ["projector" if (projector and i == 0) else "seat" for i in range(pages)]
        before, load = cpu_seconds(server), load_average()

        def target(role: str) -> tuple[str, UsableCheck, str | None]:
            if seat_check is None:  # every page the same (the smoke notebook, or the old setup)
                return server.url, check, None
            if role == "projector":
                return server.url, check, teacher_key
            return server.url + "join", seat_check, None

        outcome = await asyncio.gather(*[
            _open_page(browser, *target(roles[i])[:2], i, roles[i], delays[i], timeout, target(roles[i])[2])
            for i in range(pages)
        ])
        results = [r for r, _ in outcome]
        CPU_LOG.append({"cpu_s": cpu_used(before, cpu_seconds(server)), "load_before": load,
                        "load_after": load_average()})
        memory = memory_of(server, [r.kernel_id for r in results if r.kernel_id]) if with_memory else None
        for _, page in outcome:
            try:
                await page.close(run_before_unload=True)
            except Exception:  # noqa: BLE001 - closing what is already gone
                pass
        await asyncio.sleep(2.0)  # let the shutdown beacons reach the server before the browser goes
        await browser.close()
    return results, memory


def measure_burst(name: str, *, pages: int, spread: float, check: UsableCheck, pool_size: int = LAN_POOL_SIZE,
                  preheat: bool = True, voila_args: Sequence[str] = (), timeout: float = 120.0, repeat: int = 1,
                  pause: float = 10.0, lang: str = "zh-TW", projector: bool = True,
                  with_memory: bool = True, fill_delay: float = LAN_FILL_DELAY, room_lead: float | None = None,
                  ) -> BurstResult:
    """Open ``pages`` pages within ``spread`` seconds, ``repeat`` times on one server; time each to usable.

    Memory (:func:`memory_of`) is read in the last round, with its pages still open.

    ``room_lead`` (the class as it really arrives, on the dashboard): before each round the
    teacher creates a room with a device seat per page but the projector, and the pages open
    ``room_lead`` seconds later (the codes being read out); the projector opens with the teacher's
    cookie, the devices open ``/join``.
    """
    settings = {"notebook": check.name, "preheat": preheat, "pool_size": pool_size if preheat else 0,
                "fill_delay_s": fill_delay, "voila_args": list(voila_args), "cpus": os.cpu_count(),
                "timeout_s": timeout, "repeat": repeat, "room_lead_s": room_lead}
    burst = BurstResult(name=name, pages=pages, spread=spread, settings=settings)
    with tempfile.TemporaryDirectory(prefix="typhoon-bench-saves-") as saves:
        key = _teacher_key(Path(saves)) if room_lead is not None else None
        server = start_server(check, pool_size=pool_size, preheat=preheat, voila_args=voila_args, lang=lang,
                              log_name=f"classroom-{name}.log", saves=Path(saves), fill_delay=fill_delay)
        try:
            for round_no in range(repeat):
                if round_no:
                    time.sleep(pause)
                    if preheat:
                        wait_for_pool(server, pool_size, timeout=60 + 30 * pool_size)
                room = None
                if room_lead is not None:
                    room = _create_room(Path(saves), devices=pages - (1 if projector else 0), lang=lang)
                    time.sleep(room_lead)
                last = round_no == repeat - 1
                results, memory = asyncio.run(_burst_round(
                    server, check, pages, spread, timeout, projector, with_memory and last, teacher_key=key,
                    seat_check=join_check(lang) if room_lead is not None else None))
                if room is not None:  # the next round's class is another one
                    _delete_room(Path(saves), room)
                for r in results:
                    r.index += round_no * pages
                burst.results += results
                burst.rounds.append({**CPU_LOG.pop(), "usable_p95_s": percentile(
                    [r.usable for r in results if r.usable is not None], 95)})
                if memory is not None:
                    burst.memory = memory
            burst.iopub_timeouts = count_iopub_timeouts(server)
        finally:
            server.stop()
    return burst


def _teacher_key(saves: Path) -> str:
    """The local teacher's key, as ``serve`` makes it (store and key file in ``saves``)."""
    from typhoon_edu.classroom.store import RoomStore
    from typhoon_edu.classroom.teachers import ensure_local_teacher

    store = RoomStore(f"sqlite:///{saves / 'rooms.sqlite3'}")
    try:
        return ensure_local_teacher(store, saves / "config" / "typhoon-edu" / "teacher.key")
    finally:
        store.close()


def _create_room(saves: Path, devices: int, lang: str) -> str:
    """A room with ``devices`` device seats (and bots for the rest), as the teacher's Start makes it."""
    import secrets as _secrets

    from typhoon_edu.classroom.codes import token_hash
    from typhoon_edu.classroom.store import LOCAL_TEACHER, NewSeat, RoomStore

    regions = ["Taiwan", "Japan", "Korea", "Philippines", "Central China"][:max(3, min(devices, 5))]
    seats = [NewSeat(r, token_hash=token_hash(_secrets.token_urlsafe(16))) if i < devices else NewSeat(r, "greedy")
             for i, r in enumerate(regions)]
    store = RoomStore(f"sqlite:///{saves / 'rooms.sqlite3'}")
    try:
        return store.create_room(setup={"players": regions}, seats=seats, lang=lang, owner=LOCAL_TEACHER).id
    finally:
        store.close()


def _delete_room(saves: Path, room_id: str) -> None:
    from typhoon_edu.classroom.store import RoomStore

    store = RoomStore(f"sqlite:///{saves / 'rooms.sqlite3'}")
    try:
        store.delete(room_id)
    finally:
        store.close()


def measure_class(args: argparse.Namespace) -> dict[str, Any]:
    """§4, issue 19 §7: a projector and 5 devices opening within the same second.

    With ``--check dashboard`` (the default): as a class arrives with ``serve``'s own defaults
    (``--pool-size`` and ``--lan`` change them): the teacher creates a room with 5 device seats,
    ``--room-lead`` seconds later the projector (teacher's cookie) and 5 phones (``/join``) open.
    """
    options = _server_options(args)
    if args.check != "dashboard":
        return measure_burst("class", pages=6, spread=1.0, check=CHECKS[args.check](), **options).summary()
    if args.pool_size is None:
        options["pool_size"] = LAN_POOL_SIZE if args.lan else DEFAULT_POOL_SIZE
    return measure_burst("class", pages=6, spread=1.0, check=dashboard_check(args.lang), room_lead=args.room_lead,
                         fill_delay=LAN_FILL_DELAY if args.lan else FILL_DELAY, **options).summary()


def measure_crowd(args: argparse.Namespace) -> dict[str, Any]:
    """§4: 20 pages opening at the same moment."""
    return measure_burst("crowd", pages=args.pages or 20, spread=0.0, check=CHECKS[args.check](),
                         **_server_options(args)).summary()


def measure_memory(args: argparse.Namespace) -> dict[str, Any]:
    """Kernel memory with N pages open (opened over a few seconds, as a class trickles in)."""
    pages = args.pages or 6
    result = measure_burst("memory", pages=pages, spread=max(3.0, pages * 0.5), check=CHECKS[args.check](),
                           **{**_server_options(args), "repeat": 1})
    return result.summary()


# ------------------------------------------------------------------------------------ wire
# The same "usable" without a browser: what the page's JavaScript says to the server, sent by a
# small client (page request, kernel websocket, widget states, one click). It measures what the
# *server* can do for a class whose browsers run on their own devices, not on these two cores.


def _wire_message(msg_type: str, content: dict[str, Any], session: str, metadata: dict[str, Any] | None = None) -> str:
    import uuid

    return json.dumps({
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "bench", "session": session,
                   "date": "2026-01-01T00:00:00.000000Z", "version": "5.3"},
        "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell", "buffers": [],
    })


def _wire_decode(frame: str | bytes) -> dict[str, Any]:
    if isinstance(frame, bytes):
        from jupyter_server.services.kernels.connection.base import deserialize_binary_message

        return deserialize_binary_message(frame)
    return json.loads(frame)


async def _wire_client(port: int, index: int, delay: float, timeout: float, lang: str,
                       assets: Sequence[str] = ()) -> tuple[PageResult, str | None]:
    """One emulated page on the dashboard: visible = widget states received; usable = the language click answered."""
    import uuid

    from websockets.asyncio.client import connect

    await asyncio.sleep(delay)
    result = PageResult(index=index, role="projector" if index == 0 else "seat")
    other = "en" if lang == "zh-TW" else "zh-TW"
    answer = i18n.t("dash.setup.title", other)
    start = time.perf_counter()
    xsrf = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            first = await reader.read(1)
            result.first_byte = time.perf_counter() - start
            page = (first + await reader.read()).decode("utf-8", "replace")
            writer.close()
            cookie = re.search(r"Set-Cookie: _xsrf=([^;\s]+)", page, re.IGNORECASE)
            xsrf = cookie.group(1) if cookie else None
            await _wire_assets(port, assets)
            result.page_loaded = time.perf_counter() - start
            match = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
            if not match:
                raise RuntimeError("no kernel id in the page")
            result.kernel_id = match.group(1)
            session = uuid.uuid4().hex
            url = f"ws://127.0.0.1:{port}/api/kernels/{result.kernel_id}/channels?session_id={session}"
            async with connect(url, max_size=None, open_timeout=timeout) as ws:
                control = uuid.uuid4().hex
                await ws.send(_wire_message("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                                          "data": {}}, session, {"version": "1.0.0"}))
                await ws.send(_wire_message("comm_msg", {"comm_id": control, "data": {"method": "request_states"}},
                                            session))
                toggle = None
                while toggle is None:
                    msg = _wire_decode(await ws.recv())
                    data = msg.get("content", {}).get("data", {})
                    if msg["header"]["msg_type"] == "comm_msg" and data.get("method") == "update_states":
                        for model_id, model in data["states"].items():
                            if "typhoon-lang" in model.get("state", {}).get("_dom_classes", []):
                                toggle = model_id
                        if toggle is None:
                            raise RuntimeError("no language switch among the widget states")
                result.visible = time.perf_counter() - start
                await ws.send(_wire_message("comm_msg", {"comm_id": toggle, "data": {
                    "method": "update", "state": {"index": 1 if other == "en" else 0}, "buffer_paths": []}}, session))
                while True:
                    msg = _wire_decode(await ws.recv())
                    state = msg.get("content", {}).get("data", {}).get("state", {})
                    if msg["header"]["msg_type"] == "comm_msg" and answer in str(state.get("value", "")):
                        break
                result.usable = time.perf_counter() - start
    except TimeoutError:
        result.error = "timeout"
    except Exception as err:  # noqa: BLE001 - a benchmark reports what went wrong and goes on
        result.error = f"{type(err).__name__}: {str(err).splitlines()[0][:160] if str(err) else ''}"
    return result, xsrf


def record_assets(server: VoilaProcess, check: UsableCheck) -> list[str]:
    """The static files (paths) a real page fetches, seen once in Chromium, for the emulated pages to fetch too."""
    from playwright.sync_api import sync_playwright

    paths: list[str] = []
    prefix = server.url.rstrip("/")
    with sync_playwright() as handle:
        browser = handle.chromium.launch(executable_path=CHROMIUM_PATH, headless=True, args=list(CHROMIUM_ARGS))
        page = browser.new_page()
        page.on("requestfinished", lambda r: paths.append(r.url[len(prefix):]) if r.url.startswith(prefix) else None)
        page.goto(server.url)
        page.locator(check.visible).first.wait_for(state="visible", timeout=180_000)
        kernel_id = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
        page.close(run_before_unload=True)
        deadline = time.monotonic() + 30  # until the beacon has shut its kernel down
        while kernel_id in kernel_processes(server) and time.monotonic() < deadline:
            time.sleep(0.2)
        browser.close()
    return [p for p in dict.fromkeys(paths) if p.startswith(("/voila/static/", "/voila/templates/", "/voila/labextensions/"))]


async def _wire_get(port: int, path: str) -> int:
    """GET one path (a new connection, as a cold browser opens several); returns the bytes received."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read()
    writer.close()
    return len(data)


async def _wire_assets(port: int, assets: Sequence[str], connections: int = 6) -> None:
    """Fetch ``assets`` over ``connections`` parallel connections at a time, as a browser does per host."""
    queue: asyncio.Queue[str] = asyncio.Queue()
    for path in assets:
        queue.put_nowait(path)

    async def worker() -> None:
        while not queue.empty():
            await _wire_get(port, queue.get_nowait())

    await asyncio.gather(*[worker() for _ in range(connections)])


async def _wire_shutdown(port: int, kernel_id: str, token: str) -> None:
    body = f"_xsrf={token}".encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"POST /voila/api/shutdown/{kernel_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Cookie: _xsrf={token}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                  f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body)
    await writer.drain()
    await reader.read()
    writer.close()


async def _wire_round(server: VoilaProcess, pages: int, spread: float, timeout: float, lang: str,
                      assets: Sequence[str]) -> tuple[list[PageResult], dict[str, float], dict[str, Any]]:
    """Emulate ``pages`` pages; returns their results, the CPU used, and memory while they are open.

    Then they leave as closing tabs do (the shutdown beacon, with each page's ``_xsrf`` cookie).
    """
    delays = [spread * i / (pages - 1) if pages > 1 else 0.0 for i in range(pages)]
    before = cpu_seconds(server)
    outcome = await asyncio.gather(*[_wire_client(server.port, i, delays[i], timeout, lang, assets)
                                     for i in range(pages)])
    used = cpu_used(before, cpu_seconds(server))
    results = [r for r, _ in outcome]
    memory = memory_of(server, [r.kernel_id for r in results if r.kernel_id])
    for r, token in outcome:
        if r.kernel_id and token:
            await _wire_shutdown(server.port, r.kernel_id, token)
    return results, used, memory


def measure_wire_burst(name: str, *, pages: int, spread: float, pool_size: int = LAN_POOL_SIZE,
                       preheat: bool = True, voila_args: Sequence[str] = (), timeout: float = 120.0, repeat: int = 1,
                       pause: float = 10.0, lang: str = "zh-TW") -> BurstResult:
    """Like :func:`measure_burst` on the dashboard, with emulated pages instead of Chromium."""
    check = dashboard_check(lang)
    settings = {"notebook": check.name, "preheat": preheat, "pool_size": pool_size if preheat else 0, "client": "wire",
                "voila_args": list(voila_args), "cpus": os.cpu_count(), "timeout_s": timeout, "repeat": repeat}
    burst = BurstResult(name=name, pages=pages, spread=spread, settings=settings)
    with tempfile.TemporaryDirectory(prefix="typhoon-bench-saves-") as saves:
        server = start_server(check, pool_size=pool_size, preheat=preheat, voila_args=voila_args, lang=lang,
                              log_name=f"classroom-{name}.log", saves=Path(saves))
        try:
            assets = record_assets(server, check)  # uses one preheated kernel: wait for its replacement
            settings["assets_per_page"] = len(assets)
            for round_no in range(repeat):
                time.sleep(pause if round_no else 0.0)
                if preheat:
                    wait_for_pool(server, pool_size, timeout=60 + 30 * pool_size)
                load = load_average()
                results, used, memory = asyncio.run(_wire_round(server, pages, spread, timeout, lang, assets))
                if round_no == repeat - 1:
                    burst.memory = memory
                for r in results:
                    r.index += round_no * pages
                burst.results += results
                burst.rounds.append({"cpu_s": used, "load_before": load, "load_after": load_average(),
                                     "usable_p95_s": percentile([r.usable for r in results if r.usable is not None],
                                                                95)})
            burst.iopub_timeouts = count_iopub_timeouts(server)
        finally:
            server.stop()
    return burst


def measure_class_wire(args: argparse.Namespace) -> dict[str, Any]:
    """The class of :func:`measure_class`, with emulated pages: the server's share of the time."""
    return measure_wire_burst("class-wire", pages=6, spread=1.0, **_server_options(args)).summary()


def measure_crowd_wire(args: argparse.Namespace) -> dict[str, Any]:
    """The crowd of :func:`measure_crowd`, with emulated pages."""
    return measure_wire_burst("crowd-wire", pages=args.pages or 20, spread=0.0, **_server_options(args)).summary()


# ------------------------------------------------------------------------------------ imports
_IMPORT_SNIPPET = "import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"


def _import_seconds(module: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _IMPORT_SNIPPET.format(module=module)], capture_output=True,
                             text=True, check=True, cwd=REPO_ROOT, timeout=120)
        times.append(float(out.stdout.strip()))
    return statistics.median(times)


def import_hot_spots(module: str = "typhoon_edu.ui.dashboard", top: int = 12) -> dict[str, list[tuple[str, float]]]:
    """``python -X importtime``: the modules with the largest own import time, and the project's by total (ms)."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], capture_output=True,
                         text=True, check=True, cwd=REPO_ROOT, timeout=120)
    rows = []
    for line in out.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if match:
            rows.append((match.group(4), int(match.group(1)) / 1000, int(match.group(2)) / 1000))
    by_self = sorted(rows, key=lambda r: -r[1])[:top]
    ours = sorted((r for r in rows if r[0].startswith("typhoon_edu")), key=lambda r: -r[2])[:top]
    return {"self_ms": [(n, round(s, 1)) for n, s, _ in by_self], "ours_cumulative_ms": [(n, round(c, 1)) for n, _, c in ours]}


def kernel_cell_times(lang: str = "zh-TW") -> dict[str, float]:
    """Run the dashboard's cell in a fresh kernel, split in three (imports, building the app, displaying it)."""
    import nbformat
    from nbclient import NotebookClient

    cells = [
        "import os\nimport typhoon_edu.ui.dashboard",
        f"from typhoon_edu.ui.dashboard import ClassPlayApp\napp = ClassPlayApp(lang={lang!r})",
        "app.show();",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    with tempfile.TemporaryDirectory(prefix="typhoon-bench-saves-") as saves:
        os.environ.setdefault("TYPHOON_EDU_SAVES", saves)
        client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(REPO_ROOT)}})
        start = time.perf_counter()
        client.execute()
        total = time.perf_counter() - start

    def seconds(cell: Any) -> float:
        from datetime import datetime

        ex = cell.metadata["execution"]
        begin = datetime.fromisoformat(ex["iopub.execute_input"].replace("Z", "+00:00"))
        end = datetime.fromisoformat(ex["shell.execute_reply"].replace("Z", "+00:00"))
        return (end - begin).total_seconds()

    parts = [seconds(c) for c in nb.cells]
    return {"imports_s": round(parts[0], 3), "build_app_s": round(parts[1], 3), "display_s": round(parts[2], 3),
            "kernel_start_and_overhead_s": round(total - sum(parts), 3), "total_s": round(total, 3)}


def measure_import(args: argparse.Namespace) -> dict[str, Any]:
    """What starting the dashboard costs: imports in a fresh interpreter, hot spots, and in a kernel."""
    repeat = max(1, args.repeat)
    third_party = "numpy, ipywidgets, ipycanvas, ipykernel.kernelapp"
    return {
        "name": "import",
        "fresh_interpreter_median_s": {
            "typhoon_edu.ui.dashboard": round(_import_seconds("typhoon_edu.ui.dashboard", repeat), 3),
            third_party: round(_import_seconds(third_party, repeat), 3),
        },
        "hot_spots": import_hot_spots(),
        "in_kernel": kernel_cell_times(args.lang),
    }


# ------------------------------------------------------------------------------------ CLI
#: The measurements, by subcommand. Add a function taking the parsed arguments and returning a
#: JSON-able summary, and name it here (the room-game ones of issue 10 §4 go here too).
MEASUREMENTS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "import": measure_import,
    "class": measure_class,
    "crowd": measure_crowd,
    "memory": measure_memory,
    "class-wire": measure_class_wire,
    "crowd-wire": measure_crowd_wire,
}


def _server_options(args: argparse.Namespace) -> dict[str, Any]:
    return {"pool_size": args.pool_size if args.pool_size is not None else LAN_POOL_SIZE, "preheat": not args.no_preheat, "voila_args": args.voila_arg or (),
            "timeout": args.timeout, "repeat": args.repeat, "pause": args.pause, "lang": args.lang}


def format_summary(summary: dict[str, Any]) -> str:
    """A few readable lines for one measurement."""
    if summary.get("name") == "import":
        fresh = ", ".join(f"{k} {v:.2f} s" for k, v in summary["fresh_interpreter_median_s"].items())
        k = summary["in_kernel"]
        spots = summary["hot_spots"]
        return "\n".join([
            f"import in a fresh interpreter (median): {fresh}",
            f"in a kernel: imports {k['imports_s']:.2f} s, building the app {k['build_app_s']:.2f} s, "
            f"display {k['display_s']:.2f} s, kernel start and overhead {k['kernel_start_and_overhead_s']:.2f} s",
            "largest own import times (ms): " + ", ".join(f"{n} {ms}" for n, ms in spots["self_ms"]),
            "the project's modules, cumulative (ms): " + ", ".join(f"{n} {ms}" for n, ms in spots["ours_cumulative_ms"]),
        ])

    def s(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f} s"

    settings = summary["settings"]
    lines = [
        f"{summary['name']}: {summary['pages']} page(s) opened within {summary['spread_s']:.1f} s "
        f"(pool {settings['pool_size']}, {settings['cpus']} CPUs, {settings['repeat']} round(s)"
        + (f", room created {settings['room_lead_s']:.0f} s before" if settings.get("room_lead_s") is not None else "")
        + ")",
        f"  usable {summary['usable']}/{summary['pages']}, blank {summary['blank']}, "
        f"visible but not answering {summary['visible_not_answering']}, IOPub timeouts {summary['iopub_timeouts']}",
        f"  time to usable: p50 {s(summary['p50_s'])}, p95 {s(summary['p95_s'])}, max {s(summary['max_s'])}",
    ]
    for i, r in enumerate(summary.get("rounds", [])):
        lines.append(f"  round {i + 1}: p95 {s(r['usable_p95_s'])}; CPU s {r['cpu_s']}; "
                     f"load average {r['load_before']} -> {r['load_after']}")
    if summary.get("memory"):
        m = summary["memory"]
        lines.append(f"  memory: Voilà {m['voila_rss_mb']} MB RSS; {m['page_kernels']} page kernel(s) "
                     f"{m['page_kernel_rss_mb_mean']} MB RSS / {m['page_kernel_uss_mb_mean']} MB USS each, "
                     f"{m['spare_kernels']} spare; all kernels {m['all_kernels_rss_mb']} MB RSS "
                     f"({m['all_kernels_uss_mb']} MB USS); total {m['total_rss_mb']} MB RSS")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("measurement", choices=[*MEASUREMENTS, "all"], help="what to measure")
    parser.add_argument("--check", choices=list(CHECKS), default="dashboard", help="notebook and 'usable' probe")
    parser.add_argument("--pages", type=int, default=None, help="pages for crowd (default 20) and memory (default 6)")
    parser.add_argument("--pool-size", type=int, default=None,
                        help=f"preheated kernels (default: serve --lan's, {LAN_POOL_SIZE}; for class: serve's own)")
    parser.add_argument("--lan", action="store_true", help="class: serve --lan's defaults instead of serve's")
    parser.add_argument("--room-lead", type=float, default=15.0,
                        help="class: seconds between the room's creation and the pages opening (default 15)")
    parser.add_argument("--no-preheat", action="store_true", help="no preheated kernels")
    parser.add_argument("--voila-arg", action="append", default=[], help="one more Voilà option (repeatable)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a page counts as blank")
    parser.add_argument("--repeat", type=int, default=1, help="bursts on one server (or import timings)")
    parser.add_argument("--pause", type=float, default=10.0, help="seconds between bursts")
    parser.add_argument("--lang", default="zh-TW", choices=("zh-TW", "en"))
    parser.add_argument("--json", type=Path, default=None, help="also write the summaries to this JSON file")
    args = parser.parse_args(argv)
    if (args.pool_size is not None and args.pool_size < 1) or args.repeat < 1 or args.timeout <= 0 or (args.pages is not None and args.pages < 1):
        parser.error("--pool-size, --repeat and --pages must be at least 1, --timeout positive")
    names = list(MEASUREMENTS) if args.measurement == "all" else [args.measurement]
    summaries = []
    for name in names:
        print(f"measuring {name} …", flush=True)
        summary = MEASUREMENTS[name](args)
        summaries.append(summary)
        print(format_summary(summary), flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summaries, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
