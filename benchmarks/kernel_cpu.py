"""CPU time of a class-play page's kernel before any browser asks for it (a preheated kernel), side by side.

Usage (from the repository root)::

    python benchmarks/kernel_cpu.py                      # this checkout: 2 servers, 3 preheated kernels each
    python benchmarks/kernel_cpu.py --baseline HEAD~1    # and that commit, servers alternating
    python benchmarks/kernel_cpu.py --rounds 3 --pool 4

Each server is started as ``typhoon-edu serve`` starts it (:class:`typhoon_edu.server.serve.VoilaProcess`,
preheated pool) on ``notebooks/dashboard.ipynb``. Once its pool is full and every kernel has been
idle for ``--settle`` seconds (each kernel has run the notebook up to the point where it waits for
its page), the CPU seconds (user + system) of each kernel process and of the server are read, and
the server is stopped; also reported are when the server first answered and when its pool was full
and idle. With ``--baseline``, that commit's ``typhoon_edu`` and ``notebooks`` are
extracted (``git archive``) and put first on ``PYTHONPATH`` for its servers and their kernels, and
the two checkouts' servers alternate, so whatever else the machine does weighs on both alike.

Every kernel of a class costs this much CPU: the pool's, and each refill after a page takes one.
On a two-core teacher's laptop that is what bounds how fast a class can arrive.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from typhoon_edu.server.serve import VoilaProcess

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Checkout:
    """Where a measured version's package and notebook are (its folder goes first on the servers' ``PYTHONPATH``,
    so that what is measured is that folder's code, whichever checkout the environment has installed)."""

    label: str
    notebook: Path
    pythonpath: Path
    kernels: list[float] = field(default_factory=list)
    servers: list[float] = field(default_factory=list)
    fills: list[float] = field(default_factory=list)
    readies: list[float] = field(default_factory=list)


def extract(ref: str, into: Path) -> Checkout:
    """``ref``'s package and notebooks, extracted into ``into`` (raises ``SystemExit`` naming a bad ref)."""
    tar = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", ref, "typhoon_edu", "notebooks"],
                         capture_output=True, check=False)
    if tar.returncode != 0:
        raise SystemExit(f"--baseline {ref}: not a commit of this repository ({tar.stderr.decode().strip()})")
    subprocess.run(["tar", "-x", "-C", str(into)], input=tar.stdout, check=True)
    return Checkout(ref, into / "notebooks" / "dashboard.ipynb", into)


def cpu_seconds(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system


def measure(checkout: Checkout, pool: int, settle: float, timeout: float, logs: Path) -> None:
    """Start a server for ``checkout``, wait for a full, idle pool, and add its CPU readings to ``checkout``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(checkout.pythonpath), *filter(None, [env.get("PYTHONPATH")])])
    server = VoilaProcess(notebook=checkout.notebook, lang="en", preheat=True, pool_size=pool, env=env,
                          log_path=logs / f"voila-{len(checkout.servers)}-{checkout.label.replace('/', '_')}.log")
    start = time.monotonic()
    server.start()
    try:
        server.wait_ready(timeout=timeout)
        checkout.readies.append(time.monotonic() - start)
        assert server.process is not None
        main = psutil.Process(server.process.pid)
        last: dict[int, float] = {}
        still_since = time.monotonic()
        while True:
            if time.monotonic() - start > timeout:
                raise SystemExit(f"{checkout.label}: the pool of {pool} was not full and idle after {timeout:.0f} s "
                                 f"(log: {server.log_path})")
            kernels = {p.pid: p for p in main.children(recursive=True) if "ipykernel" in " ".join(p.cmdline())}
            now = {pid: cpu_seconds(p) for pid, p in kernels.items()}
            if len(now) < pool or any(abs(now[pid] - last.get(pid, -1.0)) > 0.02 for pid in now):
                still_since = time.monotonic()
            elif time.monotonic() - still_since >= settle:
                break
            last = now
            time.sleep(0.5)
        checkout.fills.append(still_since - start)
        checkout.kernels.extend(now.values())
        checkout.servers.append(cpu_seconds(main))
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", metavar="GIT-REF", help="also measure this commit, servers alternating")
    ap.add_argument("--rounds", type=int, default=2, help="servers per version (default 2)")
    ap.add_argument("--pool", type=int, default=3, help="preheated kernels per server (default 3)")
    ap.add_argument("--settle", type=float, default=3.0, help="seconds every kernel must be idle (default 3)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for a full pool (default 300)")
    args = ap.parse_args(argv)
    for name in ("rounds", "pool"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, not {getattr(args, name)}")
    if args.settle <= 0 or args.timeout <= 0:
        ap.error("--settle and --timeout must be positive numbers of seconds")
    with tempfile.TemporaryDirectory(prefix="typhoon_kernel_cpu_") as tmp:
        checkouts = [Checkout("this checkout", REPO_ROOT / "notebooks" / "dashboard.ipynb", REPO_ROOT)]
        if args.baseline:
            (Path(tmp) / "baseline").mkdir()
            checkouts.append(extract(args.baseline, Path(tmp) / "baseline"))
        for _ in range(args.rounds):
            for checkout in checkouts:
                measure(checkout, args.pool, args.settle, args.timeout, Path(tmp))
        print(f"{'version':<22}{'kernels':>8}{'kernel CPU s: median':>22}{'min':>7}{'max':>7}"
              f"{'server CPU s':>14}{'answers after s':>17}{'pool full after s':>19}")
        for c in checkouts:
            print(f"{c.label:<22}{len(c.kernels):>8}{statistics.median(c.kernels):>22.2f}{min(c.kernels):>7.2f}"
                  f"{max(c.kernels):>7.2f}{statistics.median(c.servers):>14.2f}{statistics.median(c.readies):>17.1f}"
                  f"{statistics.median(c.fills):>19.1f}")
        if args.baseline:
            new, old = checkouts
            print(f"kernel CPU, this checkout / {args.baseline}: "
                  f"{statistics.median(new.kernels) / statistics.median(old.kernels):.2f}x")
    print(f"{args.rounds} server(s) per version, {args.pool} preheated kernels each, on {os.cpu_count()} CPUs; "
          f"Python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
