"""``typhoon-edu serve`` in Chromium: a closed tab's kernel stops, signals stop everything, the URL's
query reaches preheated kernels (issue 10 §3 and the seat view's need from §2).

Each test starts the real command line (``python -m typhoon_edu.server.serve --no-browser …``) on a
small probe notebook that shows its query string, and talks to it on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from playwright.sync_api import Browser, Page, expect
from serve_helpers import (
    PROBE_CLASS,
    ServeRun,
    kernel_exists,
    port_is_free,
    wait_until,
    write_probe_notebook,
)

from typhoon_edu.server.serve import VoilaProcess

from .harness import LOG_DIR, save_screenshot

pytestmark = pytest.mark.browser


@pytest.fixture
def probe(tmp_path: Path) -> Path:
    return write_probe_notebook(tmp_path)


@pytest.fixture
def served(probe: Path) -> Iterator[ServeRun]:
    run = ServeRun(["--lang", "en", "--notebook", str(probe)]).start()
    try:
        run.wait_for_pool()
        yield run
    finally:
        run.stop()


def open_probe(browser: Browser, url: str) -> tuple[Page, dict[str, object]]:
    """Open the probe page in a fresh context; returns the page and what its kernel saw."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url)
    shown = page.locator(f".{PROBE_CLASS}")
    expect(shown).to_be_visible(timeout=90_000)
    expect(page.locator(".typhoon-probe-button")).to_be_visible()
    return page, json.loads(shown.inner_text())


def page_kernel_id(page: Page) -> str:
    return str(page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"))


def test_closing_a_tab_shuts_its_kernel_down(chromium_browser: Browser, served: ServeRun) -> None:
    page, seen = open_probe(chromium_browser, served.url)
    kernel, pid = page_kernel_id(page), int(seen["pid"])  # type: ignore[arg-type]
    assert seen["preheated"] == "True"  # serve's default: this tab got the preheated kernel
    assert kernel_exists(served.port, kernel) and psutil.pid_exists(pid)
    before = {p.pid for p in served.processes()}
    context = page.context
    page.close(run_before_unload=True)  # what closing the tab does: beforeunload, then the beacon
    wait_until(lambda: not kernel_exists(served.port, kernel), 30, what="the closed tab's kernel shut down")
    wait_until(lambda: not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE, 30,
               what="the kernel's process gone")
    assert pid in before
    context.close()
    assert not [line for line in served.drain() if "_xsrf" in line], served.lines


def test_closing_a_tab_without_preheating_shuts_its_kernel_down_too(chromium_browser: Browser, probe: Path) -> None:
    with VoilaProcess(probe, lang="en", preheat=False, log_path=LOG_DIR / "serve-close-tab-plain.log") as server:
        server.wait_ready(timeout=90)
        page, seen = open_probe(chromium_browser, server.url)
        kernel, pid = page_kernel_id(page), int(seen["pid"])  # type: ignore[arg-type]
        assert seen["preheated"] == "False"
        context = page.context
        page.close(run_before_unload=True)
        wait_until(lambda: not kernel_exists(server.port, kernel), 30, what="the closed tab's kernel shut down")
        wait_until(lambda: not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE, 30,
                   what="the kernel's process gone")
        context.close()
    log = (LOG_DIR / "serve-close-tab-plain.log").read_text()
    assert "_xsrf" not in log, log


def test_the_query_string_reaches_preheated_and_fresh_kernels(chromium_browser: Browser, served: ServeRun,
                                                              probe: Path) -> None:
    seat_page, seat = open_probe(chromium_browser, served.url + "?seat=Tok3n_AbC-9")
    assert seat["preheated"] == "True"
    # The server adds the browser's device id (its typhoon_device cookie) to every query.
    device = seat["query"].pop("device")
    assert {c["name"]: c["value"] for c in seat_page.context.cookies()}["typhoon_device"] == device
    assert seat["query"] == {"seat": "Tok3n_AbC-9"}
    save_screenshot(seat_page, "serve-probe-seat-query")
    served.wait_for_pool()  # the replacement kernel, also preheated, gets the next visitor
    join_page, join = open_probe(chromium_browser, served.url + "?join=K7PM&lang=zh-TW")
    assert len(join["query"].pop("device")) >= 22
    assert join["query"] == {"join": "K7PM", "lang": "zh-TW"}
    projector_page, projector = open_probe(chromium_browser, served.url)
    assert len(projector["query"].pop("device")) >= 22
    assert projector["query"] == {}
    for page in (seat_page, join_page, projector_page):
        page.context.close()
    # The same notebook in a kernel started for the request (no preheating): same answer.
    with VoilaProcess(probe, lang="en", preheat=False, log_path=LOG_DIR / "serve-query-plain.log") as server:
        server.wait_ready(timeout=90)
        plain_page, plain = open_probe(chromium_browser, server.url + "?seat=xyz")
        assert len(plain["query"].pop("device")) >= 22
        assert plain["preheated"] == "False" and plain["query"] == {"seat": "xyz"}
        plain_page.context.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_voila_and_every_kernel_with_a_page_open(chromium_browser: Browser, served: ServeRun,
                                                                sig: int) -> None:
    page, seen = open_probe(chromium_browser, served.url)
    def kernels() -> list[psutil.Process]:
        return [p for p in served.processes() if "ipykernel" in " ".join(p.cmdline())]

    wait_until(lambda: len(kernels()) >= 2, 60, what="the page's kernel and the pool's new one")
    below = served.processes()
    assert int(seen["pid"]) in {p.pid for p in kernels()}  # type: ignore[arg-type]
    port = served.port
    assert served.signal(sig, timeout=60) == 0
    survivors = [p for p in below if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not survivors, [p.cmdline() for p in survivors]
    assert port_is_free(port)
    page.context.close()
