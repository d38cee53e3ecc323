"""Class-play dashboard benchmarks (issue 4 §5), each in a real Voilà + headless Chromium.

Usage (from the repository root)::

    python benchmarks/dashboard.py                 # all three, default repeats
    python benchmarks/dashboard.py --repeat 5 --preheat on

1. **Start-up**: time from opening the URL to the setup screen's Start button being visible,
   side by side with the one-button notebook in the same run (``benchmarks/startup.py``'s
   alternating visits); target: ≤ 1.5× the one-button page.
2. **Click to board**: time from a mouse click on a generation-zone cell to the board's storm
   layer showing the new storm (pixels of the canvas change), measured in the page.
3. **Kernel memory** after a whole four-bot game (resident set size of the page's kernel process,
   read from /proc); target ≤ 150 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import SMOKE_NOTEBOOK, SMOKE_SELECTOR, Case, format_table, launch_browser, measure  # noqa: E402

from typhoon_edu.engine.rules import load_rules  # noqa: E402
from typhoon_edu.ui.dashboard_session import ClassSession  # noqa: E402
from typhoon_edu.ui.geometry import BoardGeometry  # noqa: E402
from typhoon_edu.ui.serve import VoilaProcess  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
DASHBOARD = REPO_ROOT / "notebooks" / "dashboard.ipynb"
DASHBOARD_SELECTOR = ".typhoon-setup-start"

# Resolves when the storm layer (the last canvas of the board) looks different from now.
_WATCH_JS = """
([selector]) => {
  const canvas = Array.from(document.querySelectorAll(selector)).pop();
  const sig = () => {
    const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let h = 0; for (let i = 0; i < d.length; i += 97) { h = (h * 31 + d[i]) | 0; } return h;
  };
  const before = sig();
  window.__boardChanged = new Promise((resolve) => {
    const t0 = performance.now();
    const tick = () => { if (sig() !== before) { resolve(performance.now() - t0); } else { requestAnimationFrame(tick); } };
    window.__boardWatchStart = () => { const s = performance.now(); window.__clickAt = s; requestAnimationFrame(tick); };
  });
}
"""


def kernel_rss_mb(parent_pid: int) -> list[float]:
    """RSS (MB) of every ipykernel process under ``parent_pid`` (Linux /proc; no psutil needed)."""
    out = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text().split()
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if int(stat[3]) != parent_pid or "ipykernel" not in cmd:
                continue
            for line in (proc / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    out.append(int(line.split()[1]) / 1024)
        except (OSError, ValueError, IndexError):
            continue
    return out


def newest_session(saves: Path) -> ClassSession:
    return ClassSession.resume(max(saves.glob("*.json"), key=lambda p: p.stat().st_mtime))


def wait_idle_person(page: Any, after: int, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        loc = page.locator(".typhoon-state")
        if loc.count():
            n = int(loc.first.get_attribute("data-decisions") or -1)
            if n > after and loc.first.get_attribute("data-busy") == "0" and loc.first.get_attribute("data-person") == "1":
                return n
        page.wait_for_timeout(50)
    raise TimeoutError("the page did not come back to a person's decision")


def click_and_memory(browser: Any, clicks: int = 3) -> dict[str, Any]:
    """Click-to-board times (ms) for a person placing storms, then kernel RSS after a full bot game."""
    saves = Path(tempfile.mkdtemp(prefix="typhoon-bench-"))
    server = VoilaProcess(notebook=DASHBOARD, lang="en", preheat=False, env={**os.environ, "TYPHOON_EDU_SAVES": str(saves)})
    server.start()
    try:
        server.wait_ready(timeout=120)
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        page = context.new_page()
        page.goto(server.url)
        page.locator(DASHBOARD_SELECTOR).wait_for(timeout=120_000)
        before_game = kernel_rss_mb(server.process.pid)  # type: ignore[union-attr]
        for i in (1, 2, 3):
            page.locator(f".typhoon-seat-kind-{i} select").select_option(index=2)
        page.locator(".typhoon-start-player select").select_option(index=1)  # seat 1 (the person) starts
        page.locator(".typhoon-setup-start").click()
        n = wait_idle_person(page, -1)
        geo = BoardGeometry.for_rules(load_rules(), 48)
        times = []
        for _ in range(clicks):
            cell = newest_session(saves).game.legal_actions()[0].cell
            canvas = page.locator(".typhoon-board canvas").last
            box = canvas.bounding_box()
            scale = box["width"] / geo.pixel_size[0]
            x, y = geo.cell_centre(*cell)
            page.evaluate(_WATCH_JS, [".typhoon-board canvas"])
            page.evaluate("window.__boardWatchStart()")
            page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)
            times.append(float(page.evaluate("window.__boardChanged")))
            n = wait_idle_person(page, n)
        # a whole game: leave, four computer players, no animation, to the results screen
        page.locator(".typhoon-leave").click()
        page.locator(".typhoon-seat-kind-0 select").select_option(index=1)
        page.locator(".typhoon-speed button").nth(4).click()
        t0 = time.perf_counter()
        page.locator(".typhoon-setup-start").click()
        page.locator(".typhoon-results").wait_for(timeout=300_000)
        game_seconds = time.perf_counter() - t0
        page.wait_for_timeout(1500)
        after_game = kernel_rss_mb(server.process.pid)  # type: ignore[union-attr]
        decisions = len(newest_session(saves).game.history)
        page.goto("about:blank")
        context.close()
    finally:
        server.stop()
    return {"click_to_board_ms": times, "rss_setup_mb": before_game, "rss_after_game_mb": after_game,
            "full_game_seconds": game_seconds, "full_game_actions": decisions}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="warm visits per start-up case (default 3)")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between start-up visits")
    parser.add_argument("--preheat", choices=("on", "off", "both"), default="off", help="Voilà kernel preheating")
    parser.add_argument("--clicks", type=int, default=3, help="click-to-board samples")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)

    cases = [Case(SMOKE_NOTEBOOK, SMOKE_SELECTOR), Case(DASHBOARD, DASHBOARD_SELECTOR)]
    modes = {"on": [True], "off": [False], "both": [False, True]}[args.preheat]
    handle, browser = launch_browser()
    try:
        startup = []
        for preheat in modes:
            startup += measure(cases, preheat=preheat, repeat=args.repeat, pause=args.pause, browser=browser)
        other = click_and_memory(browser, args.clicks)
    finally:
        browser.close()
        handle.stop()  # type: ignore[attr-defined]

    print(f"1. start-up: opening the URL → the page usable, seconds ({os.cpu_count()} CPUs, Chromium headless)")
    print(format_table(startup))
    for preheat in modes:
        base = next(r for r in startup if r.case == cases[0].name and r.preheat == preheat)
        dash = next(r for r in startup if r.case == cases[1].name and r.preheat == preheat)
        if base.median and dash.median:
            print(f"   dashboard / one-button (preheat {'on' if preheat else 'off'}): median {dash.median / base.median:.2f}x "
                  f"(target ≤ 1.5x)")
    clicks = other["click_to_board_ms"]
    print(f"2. click on a map cell → storm drawn on the board: median {statistics.median(clicks):.0f} ms "
          f"(samples {', '.join(f'{c:.0f}' for c in clicks)})")
    print(f"3. kernel memory: {', '.join(f'{m:.0f}' for m in other['rss_setup_mb'])} MB at the setup screen, "
          f"{', '.join(f'{m:.0f}' for m in other['rss_after_game_mb'])} MB after a whole four-bot game "
          f"({other['full_game_actions']} actions in {other['full_game_seconds']:.1f} s, no animation; target ≤ 150 MB)")
    if args.json:
        args.json.write_text(json.dumps({"startup": [r.as_dict() for r in startup], **other}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
