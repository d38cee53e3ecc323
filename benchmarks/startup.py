"""Voilà start-up time: from opening the URL to a selector being visible, per notebook.

Usage (from the repository root)::

    python benchmarks/startup.py                          # the one-button notebook, with and without preheat
    python benchmarks/startup.py --repeat 9 --preheat on
    python benchmarks/startup.py --case notebooks/smoke/one_button.ipynb .smoke-button \\
                                 --case notebooks/dashboard.ipynb .typhoon-setup-start

Each case gets its own Voilà server, started exactly as ``typhoon-edu serve`` starts it
(:class:`typhoon_edu.server.serve.VoilaProcess`). Visits alternate between the cases (A, B, A, B, …)
so that whatever else the machine does weighs on all of them alike, and each visit uses a fresh
browser context, as a new student or a reloaded tab would. The first visit to each server is
reported on its own ("cold": nothing cached yet, and for a preheated server the first pooled
kernel); median and min are over the later ("warm") visits. Between visits the script pauses
(``--pause``) so that a preheated pool can refill, as it would between real visitors.

Needs Debian's Chromium at /usr/bin/chromium (or $TYPHOON_EDU_CHROMIUM) and the playwright package.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from typhoon_edu.server.serve import CHROMIUM_ARGS, CHROMIUM_PATH, VoilaProcess

if TYPE_CHECKING:
    from playwright.sync_api import Browser

REPO_ROOT = Path(__file__).resolve().parent.parent
SMOKE_NOTEBOOK = REPO_ROOT / "notebooks" / "smoke" / "one_button.ipynb"
SMOKE_SELECTOR = ".smoke-button"


@dataclass(frozen=True)
class Case:
    """A notebook and the CSS selector whose visibility means "usable"."""

    notebook: Path
    selector: str

    @property
    def name(self) -> str:
        """Short label for tables."""
        try:
            return str(self.notebook.resolve().relative_to(REPO_ROOT))
        except ValueError:
            return self.notebook.name


@dataclass
class StartupResult:
    """Timings (seconds) of one case under one server setting."""

    case: str
    selector: str
    preheat: bool
    cold: float | None = None
    warm: list[float] = field(default_factory=list)

    @property
    def median(self) -> float | None:
        """Median of the warm visits."""
        return statistics.median(self.warm) if self.warm else None

    @property
    def minimum(self) -> float | None:
        """Fastest warm visit."""
        return min(self.warm) if self.warm else None

    def as_dict(self) -> dict[str, object]:
        """JSON-able summary."""
        return {**asdict(self), "median": self.median, "min": self.minimum}


def launch_browser() -> tuple[object, Browser]:
    """Start Playwright and Debian's Chromium; returns (playwright handle, browser)."""
    from playwright.sync_api import sync_playwright

    handle = sync_playwright().start()
    browser = handle.chromium.launch(executable_path=CHROMIUM_PATH, headless=True, args=CHROMIUM_ARGS)
    return handle, browser


def time_visit(browser: Browser, url: str, selector: str, *, timeout: float = 120.0) -> float:
    """Seconds from ``goto(url)`` until ``selector`` is visible, in a fresh browser context."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(url, wait_until="commit", timeout=timeout * 1000)
        page.locator(selector).first.wait_for(state="visible", timeout=timeout * 1000)
        return time.perf_counter() - start
    finally:
        # Leaving the page fires beforeunload, whose beacon makes Voilà shut the kernel down,
        # as closing a real tab does (closing the context at once could drop the beacon).
        page.goto("about:blank")
        context.close()


def measure(
    cases: Sequence[Case],
    *,
    preheat: bool,
    repeat: int = 5,
    pause: float = 3.0,
    browser: Browser | None = None,
    log_dir: Path | None = None,
) -> list[StartupResult]:
    """Serve every case (one Voilà each), then visit them in turn: 1 cold + ``repeat`` warm visits each."""
    owned = None
    if browser is None:
        owned, browser = launch_browser()
    servers = [
        VoilaProcess(
            notebook=case.notebook.resolve(),
            preheat=preheat,
            log_path=(log_dir / f"startup-{i}-{'preheat' if preheat else 'plain'}.log") if log_dir else None,
        )
        for i, case in enumerate(cases)
    ]
    results = [StartupResult(case=c.name, selector=c.selector, preheat=preheat) for c in cases]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_ready(timeout=120)
        time.sleep(pause)  # let a preheated pool fill, as it does while a teacher reads the URL
        for visit in range(repeat + 1):
            for case, server, result in zip(cases, servers, results, strict=True):
                seconds = time_visit(browser, server.url, case.selector)
                if visit == 0:
                    result.cold = seconds
                else:
                    result.warm.append(seconds)
                time.sleep(pause)
    finally:
        for server in servers:
            server.stop()
        if owned is not None:
            browser.close()
            owned.stop()  # type: ignore[attr-defined]
    return results


def format_table(results: Iterable[StartupResult]) -> str:
    """A plain-text table of the results."""

    def fmt(value: float | None) -> str:
        return f"{value:6.2f}" if value is not None else "     -"

    lines = [f"{'notebook':<40} {'preheat':<8} {'cold':>6} {'median':>6} {'min':>6} {'max':>6}  n"]
    for r in results:
        lines.append(
            f"{r.case:<40} {('on' if r.preheat else 'off'):<8} {fmt(r.cold)} {fmt(r.median)} {fmt(r.minimum)} "
            f"{fmt(max(r.warm) if r.warm else None)}  {len(r.warm)}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--case",
        nargs=2,
        action="append",
        metavar=("NOTEBOOK", "SELECTOR"),
        help=f"a notebook and the selector that means 'usable' (repeatable; default: {SMOKE_NOTEBOOK.name} {SMOKE_SELECTOR})",
    )
    parser.add_argument("--repeat", type=int, default=5, help="warm visits per case (default 5)")
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between visits (default 3)")
    parser.add_argument("--preheat", choices=("on", "off", "both"), default="both", help="Voilà kernel preheating")
    parser.add_argument("--json", type=Path, default=None, help="also write the results to this JSON file")
    parser.add_argument("--log-dir", type=Path, default=REPO_ROOT / "artifacts" / "logs", help="Voilà logs")
    args = parser.parse_args(argv)

    cases = [Case(Path(nb), sel) for nb, sel in args.case] if args.case else [Case(SMOKE_NOTEBOOK, SMOKE_SELECTOR)]
    for case in cases:
        if not case.notebook.is_file():
            parser.error(f"notebook not found: {case.notebook}")
    modes = {"on": [True], "off": [False], "both": [False, True]}[args.preheat]
    args.log_dir.mkdir(parents=True, exist_ok=True)

    handle, browser = launch_browser()
    results: list[StartupResult] = []
    try:
        for preheat in modes:
            print(f"preheat {'on' if preheat else 'off'}: {len(cases)} case(s), 1 cold + {args.repeat} warm visits …")
            results += measure(
                cases, preheat=preheat, repeat=args.repeat, pause=args.pause, browser=browser, log_dir=args.log_dir
            )
    finally:
        browser.close()
        handle.stop()  # type: ignore[attr-defined]
    print()
    print(f"time from opening the URL to the selector visible, seconds ({os.cpu_count()} CPUs, Chromium headless)")
    print(format_table(results))
    if len(cases) > 1:
        base = {r.preheat: r.median for r in results if r.case == cases[0].name}
        for r in results:
            if r.case != cases[0].name and r.median and base.get(r.preheat):
                print(
                    f"{r.case} / {cases[0].name} (preheat {'on' if r.preheat else 'off'}): {r.median / base[r.preheat]:.2f}x"
                )
    if args.json:
        args.json.write_text(json.dumps([r.as_dict() for r in results], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
