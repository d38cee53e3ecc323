"""Balance report: many GreedyBot games (seats and regions rotated) → docs/balance.md.

    python scripts/balance.py --games 10000 --jobs 2 [--out docs/balance.md]

Prints the table too. The report's numbers come only from this run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typhoon_edu.ai.tournament import run_tournament  # noqa: E402
from typhoon_edu.engine.rules import load_rules  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    t0 = time.time()
    res = run_tournament(args.games, ["greedy"] * args.seats, seed=args.seed, jobs=args.jobs)
    secs = time.time() - t0
    rules = load_rules()
    rows = res.table("region")
    lines = [
        f"Games: {len(res.games)} (GreedyBot in every seat, {args.seats} players, regions dealt at random, "
        f"seed {args.seed}..{args.seed + args.games - 1}); {secs:.0f} s with {args.jobs} processes.",
        "",
        "| region | games | win rate | 95 % interval |",
        "|---|---|---|---|",
    ]
    for name, games, rate, lo, hi in sorted(rows, key=lambda r: -r[2]):
        lines.append(f"| {rules.regions[name].name} | {games} | {rate:.1%} | {lo:.1%} – {hi:.1%} |")
    seat_rows = res.table("seat")
    lines += ["", "| seat (clockwise order; Taiwan starts when dealt, else seat 1) | win rate | 95 % interval |", "|---|---|---|"]
    for name, _games, rate, lo, hi in seat_rows:
        lines.append(f"| {name} | {rate:.1%} | {lo:.1%} – {hi:.1%} |")
    best = max(r[2] for r in rows)
    worst = min(r[2] for r in rows)
    lines += [
        "",
        f"Mean length: {res.mean_rounds:.2f} rounds, {res.mean_decisions:.1f} player decisions per game.",
        f"Games ending early (one region left, or all out together): {res.early_share:.1%}.",
        f"Best / worst region win rate: {best:.1%} / {worst:.1%} (ratio {best / max(worst, 1e-9):.2f}).",
    ]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
