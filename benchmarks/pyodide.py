"""The engine in Pyodide (WebAssembly, as JupyterLite runs it) against this CPython, side by side.

    python benchmarks/pyodide.py [--seconds 3] [--slice 0.25] [--bot-positions 4]

Needs ``node`` and the pinned ``pyodide`` npm package (``npm ci --prefix tests/pyodide``).

The same code runs in both interpreters: random play-outs of a 4-player game with manual dice,
``benchmarks/engine.py``'s own loop (one decision = one applied action, chance outcomes included),
with the event log on and in search mode. The rows take turns in slices of ``--slice`` seconds
(one Pyodide interpreter is kept running between its slices) until each has had ``--seconds``;
time is the wall clock inside each interpreter, while the other one waits. Then clones/s of a
mid-game position, and the hard bot's decision time (``MCTSBot``, its default 120 play-outs) at
``--bot-positions`` positions of a GreedyBot game (``tests/golden_games.py``), each position
searched in CPython and in Pyodide in turn.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pyodide_runner import PyodideSession, pyodide_problem  # noqa: E402

#: Run in both interpreters (CPython by exec, Pyodide in its session).
SETUP = '''
import json, random, time
from typhoon_edu.engine.game import Game
from typhoon_edu.ai.mcts import MCTSBot
from engine import PLAYERS, typhoon_playouts
from golden_games import choice_positions

# benchmarks/engine.py's own play-out loop, so both benchmarks time the very same thing
_streams = {True: typhoon_playouts(True), False: typhoon_playouts(False)}

def playout_slice(log, seconds):
    """Decisions made in about ``seconds`` of play-outs, and the seconds taken."""
    stream, n, t0 = _streams[log], 0, time.perf_counter()
    while True:
        for _ in range(20):
            next(stream)
        n += 20
        t = time.perf_counter() - t0
        if t >= seconds:
            return [n, t]

def _mid_game():
    g = Game.new(PLAYERS, seed=3, dice="manual")
    g._log = False
    rng = random.Random(1)
    for _ in range(60):
        acts = g.legal_actions()
        g.apply(acts[int(rng.random() * len(acts))])
    return g

def clone_slice(seconds):
    g, n, t0 = _mid_game(), 0, time.perf_counter()
    while True:
        for _ in range(200):
            g.clone()
        n += 200
        t = time.perf_counter() - t0
        if t >= seconds:
            return [n, t]

def bot_decision(save):
    """Seconds the hard bot takes to choose at a saved position (its default play-outs, seed 1)."""
    g = Game.from_json(save)
    t0 = time.perf_counter()
    MCTSBot(seed=1).choose(g)
    return time.perf_counter() - t0
'''


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds of play-outs per row, and of clones")
    ap.add_argument("--slice", type=float, default=0.25, help="seconds per row per turn")
    ap.add_argument("--bot-positions", type=int, default=4, help="positions the hard bot searches in both")
    args = ap.parse_args(argv)
    for name in ("seconds", "slice"):
        if getattr(args, name) <= 0:
            ap.error(f"--{name} must be a positive number of seconds, not {getattr(args, name)}")
    if args.bot_positions < 0:
        ap.error(f"--bot-positions must be 0 or more, not {args.bot_positions}")
    problem = pyodide_problem()
    if problem:
        ap.exit(2, f"benchmarks/pyodide.py: Pyodide cannot run here: {problem}\n")

    here: dict[str, Any] = {}
    exec(SETUP, here)  # noqa: S102 - the benchmark's own code, the same text Pyodide runs
    there = PyodideSession()
    try:
        there_version = there.run(SETUP + "\nimport sys\nRESULT = sys.version.split()[0]")

        def remote(call: str) -> Any:
            return json.loads(there.run(f"RESULT = json.dumps({call})"))

        # play-outs: four rows in turn, slice by slice
        rows = {(where, log): [0, 0.0] for where in ("cpython", "pyodide") for log in (True, False)}
        for log in (True, False):  # warm up, not counted
            here["playout_slice"](log, 0.1)
            remote(f"playout_slice({log}, 0.1)")
        while min(t for _, t in rows.values()) < args.seconds:
            for (where, log), acc in rows.items():
                if acc[1] >= args.seconds:
                    continue
                n, t = here["playout_slice"](log, args.slice) if where == "cpython" else \
                    remote(f"playout_slice({log}, {args.slice})")
                acc[0] += n
                acc[1] += t
        clones = {"cpython": [0, 0.0], "pyodide": [0, 0.0]}
        while min(t for _, t in clones.values()) < args.seconds:
            for where, acc in clones.items():
                n, t = here["clone_slice"](args.slice) if where == "cpython" else remote(f"clone_slice({args.slice})")
                acc[0] += n
                acc[1] += t
        bot: dict[str, list[float]] = {"cpython": [], "pyodide": []}
        for save in [g.to_json() for g in here["choice_positions"](args.bot_positions, every=8)]:
            bot["cpython"].append(here["bot_decision"](save))
            bot["pyodide"].append(remote(f"bot_decision({save!r})"))
    finally:
        there.close()

    here_label = f"CPython {platform.python_version()}"
    there_label = f"Pyodide (Python {there_version}, Node.js)"
    rate = {key: n / t for key, (n, t) in rows.items()}
    print(f"{'row':52} {'decisions/s':>12} {'x CPython':>10}")
    for log, mode in ((True, "event log on"), (False, "search mode, no log")):
        print(f"{here_label + ', ' + mode:52} {rate['cpython', log]:12,.0f} {1.0:10.2f}")
        print(f"{there_label + ', ' + mode:52} {rate['pyodide', log]:12,.0f} "
              f"{rate['pyodide', log] / rate['cpython', log]:10.2f}")
    crate = {where: n / t for where, (n, t) in clones.items()}
    print(f"clones/s (mid-game, 4 players): {here_label} {crate['cpython']:,.0f}, {there_label} "
          f"{crate['pyodide']:,.0f} ({crate['pyodide'] / crate['cpython']:.2f}x)")
    if bot["cpython"]:
        print(f"hard bot, seconds per decision at {len(bot['cpython'])} positions (median, max): "
              f"{here_label} {statistics.median(bot['cpython']):.3f}, {max(bot['cpython']):.3f}; "
              f"{there_label} {statistics.median(bot['pyodide']):.3f}, {max(bot['pyodide']):.3f} "
              f"({sum(bot['pyodide']) / sum(bot['cpython']):.2f}x the time in all)")
    print(f"each play-out row {args.seconds} s and clones {args.seconds} s, in turns of {args.slice} s (wall clock)")


if __name__ == "__main__":
    main()
