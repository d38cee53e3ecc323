"""How long each lesson notebook takes to run top to bottom in a fresh kernel (the "well under 30 s" promise).

Usage (from the repository root)::

    PYTHONPATH=$PWD python benchmarks/lessons.py            # every lesson, en and zh-TW, once
    PYTHONPATH=$PWD python benchmarks/lessons.py --repeat 3 --only 06

For each notebook a new kernel is started (nbclient, like nbval and ``jupyter nbconvert --execute``);
the kernel's start-up and the cells' run time are reported apart, with the machine's load average at
the start, since on a shared 2-core machine the load moves the figures. Nothing is written to the
notebooks.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def run(path: Path) -> tuple[float, float]:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    t0 = time.perf_counter()
    with client.setup_kernel():
        t1 = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", default="", help="lesson number, e.g. 06")
    args = parser.parse_args(argv)
    paths = sorted(p for lang in ("en", "zh-TW") for p in (ROOT / "notebooks" / lang).glob(f"{args.only or '[0-9][0-9]'}_*.ipynb"))
    print(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores); repeat {args.repeat}")
    print(f"{'notebook':<46} {'kernel s':>9} {'cells s':>8} {'total s':>8}")
    for p in paths:
        times = [run(p) for _ in range(args.repeat)]
        k = statistics.median(t[0] for t in times)
        c = statistics.median(t[1] for t in times)
        print(f"{p.parent.name + '/' + p.name:<46} {k:>9.2f} {c:>8.2f} {k + c:>8.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
