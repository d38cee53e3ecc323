"""Storm-track simulation speed: vectorised numpy vs one storm at a time, on the same tracks.

    python benchmarks/sim.py [--compare 20000] [--engine 300] [--tracks 1000000] [--seed 2024]
                             [--level 1] [--jobs 2]

1. ``--compare`` tracks are drawn once (``draw_tracks``, one seed) and played three ways:
   the pure-Python reference (``track_reference``, one storm at a time), the vectorised
   ``run_tracks`` (all at once), and -- for the first ``--engine`` of them -- the rules engine
   itself (``engine_one_at_a_time``: the real ``Game``, one storm and one turn at a time). Every
   vectorised track must equal its reference track; engine disagreements are counted and shown.
2. ``simulate_tracks(--tracks)`` end to end (drawing included), on 1 thread and on ``--jobs``
   threads, with its peak traced memory.

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typhoon_edu.engine.rules import Rules, load_rules  # noqa: E402
from typhoon_edu.sim import TrackInputs, draw_tracks, run_tracks, simulate_tracks, track_reference  # noqa: E402


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def reference_one_at_a_time(inputs: TrackInputs, level: int, rules: Rules) -> list[Any]:
    """The pure-Python reference, one storm after another."""
    return [track_reference(*inputs.track(i), level=level, rules=rules) for i in range(len(inputs))]


# Five players (the engine's maximum): damage to the sixth region, which has no owner, is not
# tracked by the engine, so engine comparisons skip it.
ENGINE_PLAYERS = ("Taiwan", "Philippines", "Japan", "Central China", "South China")


def engine_one_at_a_time(inputs: TrackInputs, level: int, rules: Rules) -> list[dict[str, Any]] | None:
    """Play each track through the rules engine (``typhoon_edu.engine``), one storm at a time.

    THE PLUG-IN POINT for the engine comparison. Each turn of a track is one move phase of a
    real ``Game`` built by ``scenario`` (the storm alone on the board, empty hands so nobody can
    counter, manual dice fed from the track's dice); the storm's eye and level carry over to
    the next turn's scenario. Returns one ``{"damage", "fate", "final_level", "lifetime"}`` per
    track, or ``None`` when the engine is not importable.
    """
    try:
        from typhoon_edu.engine import events as ev
        from typhoon_edu.engine.scenario import scenario
    except ImportError:
        return None
    results = []
    for i in range(len(inputs)):
        eye, direction, dice = inputs.track(i)
        lvl, fate, lifetime = level, "survived", 0
        damage = dict.fromkeys(ENGINE_PLAYERS, 0)
        for face in dice:
            lifetime += 1
            g = scenario(
                ENGINE_PLAYERS, typhoons=[(eye, lvl, direction)], phase="move", dice="manual",
                hands={p: [] for p in ENGINE_PLAYERS}, rules=rules,
            )
            removed = None
            for e in g.apply(face):
                if isinstance(e, ev.DamageDealt):
                    damage[e.player] += e.amount
                elif isinstance(e, ev.TyphoonRemoved):
                    removed = e.reason
            if removed is not None:
                fate, lvl = removed, (0 if removed == "landfall" else lvl)
                break
            (storm,) = g.typhoons
            eye, lvl = storm.eye, storm.level
        capped = {r: min(v, rules.regions[r].hp) for r, v in damage.items()}
        results.append({"damage": capped, "fate": fate, "final_level": lvl, "lifetime": lifetime})
    return results


def engine_disagreements(engine: list[dict[str, Any]], reference: list[Any]) -> list[int]:
    bad = []
    for i, (e, r) in enumerate(zip(engine, reference, strict=False)):
        same_damage = all(e["damage"][k] == r.damage[k] for k in ENGINE_PLAYERS)
        same_end = (e["fate"], e["lifetime"]) == (r.fate, r.lifetime)
        same_level = e["final_level"] == r.final_level or r.fate == "edge"
        if not (same_damage and same_end and same_level):
            bad.append(i)
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", type=int, default=20_000, help="tracks for the same-track comparison")
    parser.add_argument("--engine", type=int, default=300, help="of those, tracks also played by the engine")
    parser.add_argument("--tracks", type=int, default=1_000_000, help="tracks for simulate_tracks end to end")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--level", type=int, default=1, help="spawn level 1-5")
    parser.add_argument("--jobs", type=int, default=2, help="threads for the end-to-end run")
    args = parser.parse_args(argv)
    rules = load_rules()
    ok = True

    inputs = draw_tracks(args.compare, seed=args.seed, rules=rules)
    print(f"same {len(inputs):,} tracks (seed {args.seed}, level {args.level}, {inputs.turns} turns)")
    reference, t_ref = timed(lambda: reference_one_at_a_time(inputs, args.level, rules))
    batch, t_vec = timed(lambda: run_tracks(inputs, level=args.level, rules=rules))
    mismatched = [i for i in range(len(inputs)) if batch.result(i) != reference[i]]
    ok &= not mismatched
    rate_ref, rate_vec = len(inputs) / t_ref, len(inputs) / t_vec
    print(f"  reference, one at a time : {t_ref:8.3f} s  {rate_ref:>14,.0f} tracks/s")
    print(f"  vectorised run_tracks    : {t_vec:8.3f} s  {rate_vec:>14,.0f} tracks/s  "
          f"speedup x{rate_vec / rate_ref:,.0f}  (disagreements: {len(mismatched)})")

    engine_inputs = TrackInputs(
        inputs.x[: args.engine], inputs.y[: args.engine], inputs.direction[: args.engine], inputs.stops,
        inputs.dice[: args.engine],
    )
    engine, t_eng = timed(lambda: engine_one_at_a_time(engine_inputs, args.level, rules))
    rate_eng = 0.0
    if engine is None:
        print("  engine, one at a time    : not available (typhoon_edu.engine.scenario missing)")
    else:
        bad = engine_disagreements(engine, reference)
        rate_eng = len(engine) / t_eng
        print(f"  engine, one at a time    : {t_eng:8.3f} s  {rate_eng:>14,.0f} tracks/s  "
              f"vectorised is x{rate_vec / rate_eng:,.0f} faster  (disagreements: {len(bad)} of {len(engine)})")
        for i in bad[:5]:
            print(f"    track {i} {inputs.track(i)}: engine {engine[i]} reference {reference[i]}")

    simulate_tracks(1_000, seed=args.seed, level=args.level, rules=rules)  # warm up
    print(f"simulate_tracks({args.tracks:,}) end to end, drawing included")
    for jobs in sorted({1, args.jobs}):
        stats, t_sim = timed(lambda j=jobs: simulate_tracks(args.tracks, seed=args.seed, level=args.level, jobs=j, rules=rules))
        rate = args.tracks / t_sim
        versus = f"x{rate / rate_ref:,.0f} the reference"
        if engine is not None:
            versus += f", x{rate / rate_eng:,.0f} the engine"
        print(f"  jobs={jobs}: {t_sim:8.3f} s  {rate:>14,.0f} tracks/s  ({versus})")
    tracemalloc.start()
    simulate_tracks(args.tracks, seed=args.seed, level=args.level, rules=rules)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"  peak traced memory (jobs=1): {peak / 2**20:,.1f} MiB")
    ranking = ", ".join(f"{r} {v:.3f}±{stats.expected_damage_se[r]:.3f}" for r, v in stats.ranking())
    print(f"  expected HP loss per track: {ranking}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
