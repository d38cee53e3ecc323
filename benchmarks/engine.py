"""Engine speed and memory: random playouts, clones, peak memory; OpenSpiel's Python games alongside.

    python benchmarks/engine.py [--seconds 5] [--no-openspiel]

Every game is played the same way: at each node take the legal actions (or, at a chance node,
the chance outcomes), pick one uniformly at random, apply it. A "decision" is one applied
action, chance outcomes included, as in OpenSpiel's own random-playout measurements.
OpenSpiel is optional (``pip install open_spiel``); without it only typhoon-edu is measured.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typhoon_edu import Game  # noqa: E402

PLAYERS = ["Taiwan", "Japan", "Korea", "Philippines"]
# OpenSpiel's sequential pure-Python games (the simultaneous-move ones need joint actions).
OPENSPIEL_GAMES = ("python_liars_poker", "python_kuhn_poker", "python_tic_tac_toe", "python_block_dominoes")


def typhoon_playout(seed: int, log: bool) -> int:
    g = Game.new(PLAYERS, seed=seed, dice="manual")
    g._log = log
    rng = random.Random(seed)
    n = 0
    while not g.is_over:
        acts = g.legal_actions()
        g.apply(acts[int(rng.random() * len(acts))])
        n += 1
    return n


def openspiel_playout(game, rng: random.Random) -> int:  # type: ignore[no-untyped-def]
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[int(rng.random() * len(outcomes))][0]
        else:
            acts = state.legal_actions()
            action = acts[int(rng.random() * len(acts))]
        state.apply_action(action)
        n += 1
    return n


def measure(playout: Callable[[int], int], seconds: float) -> tuple[float, float, float]:
    """(decisions per second, games per second, decisions per game) over about ``seconds``.

    Seconds are CPU seconds of this process (``time.process_time``), so other work on the
    machine changes the figures little; every row is measured the same way.
    """
    playout(0)  # warm up caches
    games = decisions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        decisions += playout(games + 1)
        games += 1
    dt = time.process_time() - t0
    return decisions / dt, games / dt, decisions / games


def clone_rate(seconds: float) -> float:
    g = Game.new(PLAYERS, seed=1, dice="manual")
    rng = random.Random(1)
    for _ in range(60):  # a mid-game position
        acts = g.legal_actions()
        g.apply(acts[int(rng.random() * len(acts))])
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in range(100):
            g.clone()
        n += 100
    return n / (time.process_time() - t0)


def peak_memory_kib() -> float:
    gc.collect()
    tracemalloc.start()
    typhoon_playout(3, log=True)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    ap.add_argument("--no-openspiel", action="store_true")
    args = ap.parse_args()
    rows = []
    for label, log in (("typhoon-edu (event log on)", True), ("typhoon-edu (search mode, no log)", False)):
        rows.append((label, *measure(lambda s, log=log: typhoon_playout(s, log), args.seconds)))
    if not args.no_openspiel:
        try:
            import pyspiel
            from open_spiel.python import games as _games  # noqa: F401  (registers the python_* games)
        except ImportError:
            print("OpenSpiel is not installed (pip install open_spiel); skipping the comparison")
        else:
            for name in OPENSPIEL_GAMES:
                game = pyspiel.load_game(name)
                rng = random.Random(0)
                rows.append((f"OpenSpiel {name}", *measure(lambda s, game=game, rng=rng: openspiel_playout(game, rng),
                                                           args.seconds)))
    print(f"{'game':<40} {'decisions/s':>12} {'games/s':>10} {'decisions/game':>15}")
    for label, dps, gps, dpg in rows:
        print(f"{label:<40} {dps:12,.0f} {gps:10,.1f} {dpg:15.1f}")
    print(f"typhoon-edu clones/s (mid-game, 4 players): {clone_rate(args.seconds):,.0f}")
    print(f"typhoon-edu peak memory of one 4-player game with its event log: {peak_memory_kib():,.0f} KiB")


if __name__ == "__main__":
    main()
