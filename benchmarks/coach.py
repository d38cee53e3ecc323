"""How long does the coach take? Hints at a person's decisions, and the review after a game.

    python benchmarks/coach.py [--games 6] [--iterations 120] [--review-iterations 60]

Plays GreedyBot games (4 players, regions dealt at random); at every decision of seat 1 with a
real choice it asks for a hint (typhoon_edu.ai.coach.hint) and times it on one core (CPU time,
``time.process_time``) and on the clock. After each game it times the review of seat 1
(typhoon_edu.ai.coach.review). Prints the distributions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typhoon_edu.ai.bots import GreedyBot  # noqa: E402
from typhoon_edu.ai.coach import hint, review  # noqa: E402
from typhoon_edu.engine.game import Game  # noqa: E402
from typhoon_edu.engine.rules import load_rules  # noqa: E402


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=120)
    ap.add_argument("--review-iterations", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    regions = list(load_rules().regions)
    cpu: list[float] = []
    wall: list[float] = []
    reviews: list[tuple[float, float, int]] = []
    for i in range(args.games):
        seed = args.seed + i
        g = Game.new(random.Random(seed).sample(regions, 4), seed=seed)
        bots = [GreedyBot(seed=seed * 10 + k) for k in range(4)]
        me = g.players[0]
        while not g.is_over:
            if g.current_player == me and len(g.legal_actions()) > 1:
                c0, w0 = time.process_time(), time.perf_counter()
                hint(g, me, iterations=args.iterations)
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
            g.apply(bots[g.decider].choose(g))
        c0, w0 = time.process_time(), time.perf_counter()
        items = review(g, [me], iterations=args.review_iterations)[me]
        reviews.append((time.process_time() - c0, time.perf_counter() - w0, len(items)))
        print(f"game {i + 1}: {len(cpu)} hints so far; review {reviews[-1][0]:.1f} s CPU, {len(items)} items", flush=True)
    print(f"\nhints ({args.iterations} play-outs): {len(cpu)} decisions; CPU s median {statistics.median(cpu):.3f}, "
          f"mean {statistics.fmean(cpu):.3f}, p90 {_pct(cpu, 0.9):.3f}, max {max(cpu):.3f}; "
          f"clock s median {statistics.median(wall):.3f}, p90 {_pct(wall, 0.9):.3f}, max {max(wall):.3f}")
    rc = [r[0] for r in reviews]
    print(f"review of one seat ({args.review_iterations} play-outs per decision): CPU s median "
          f"{statistics.median(rc):.1f}, max {max(rc):.1f}; clock s median {statistics.median(r[1] for r in reviews):.1f}; "
          f"items per game {statistics.fmean(r[2] for r in reviews):.1f}")


if __name__ == "__main__":
    main()
