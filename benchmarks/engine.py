"""Engine speed and memory: random playouts, clones, peak memory; OpenSpiel's Python games alongside.

    python benchmarks/engine.py [--seconds 5] [--no-openspiel] [--baseline GIT-REF]
    python benchmarks/engine.py --breakdown 200    # where a decision's time goes: listing, applying, the loop
    python benchmarks/engine.py --by-kind 150 --baseline REF   # ns per decision by kind, against a git ref

Every game is played the same way: at each node take the legal actions (or, at a chance node,
the chance outcomes), pick one uniformly at random, apply it. A "decision" is one applied
action, chance outcomes included, as in OpenSpiel's own random-playout measurements.
OpenSpiel is optional (``pip install open_spiel``); without it only typhoon-edu is measured.

How the rows are timed: on a shared machine the speed changes while a run goes on, so rows
measured one after another, minutes apart, are not comparable. Here every row is an endless
stream of random playouts (a generator that yields after each decision, so it can stop in
the middle of a game and go on later), and the rows take turns: one short slice each
(``SLICE`` CPU seconds), round after round, until every row has had ``--seconds`` CPU seconds
in all. Each row thus samples the same conditions. Time is CPU time of this process
(``time.process_time``). A game counts when its last decision is made; decisions/game is
taken over finished games only. The last column divides each row's decisions/s by the
fastest OpenSpiel game's. Clones/s and peak memory are measured afterwards, on their own.

``--baseline main`` (any git ref of this repository) also measures that commit's engine in
the same run: its ``typhoon_edu/engine`` and ``typhoon_edu/data`` are copied (``git archive``)
into a temporary package, whose rows take their turns with the others, and its clones/s is
measured in alternating slices with this checkout's. That is how "N times faster than before"
is measured on a shared machine: side by side, not against a figure from another day.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import subprocess
import sys
import tarfile
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typhoon_edu import Game  # noqa: E402
from typhoon_edu.engine.actions import Action  # noqa: E402

PLAYERS = ["Taiwan", "Japan", "Korea", "Philippines"]
# OpenSpiel's sequential pure-Python games (the simultaneous-move ones need joint actions).
OPENSPIEL_GAMES = ("python_liars_poker", "python_kuhn_poker", "python_tic_tac_toe", "python_block_dominoes")
SLICE = 0.1  # CPU seconds per row per round
CHECK_EVERY = 20  # decisions between clock readings


def baseline_game_class(ref: str) -> Any:
    """The ``Game`` class of git ref ``ref``'s engine, imported from a temporary copy."""
    root = Path(__file__).resolve().parent.parent
    tar = subprocess.run(["git", "-C", str(root), "archive", ref, "typhoon_edu/engine", "typhoon_edu/data"],
                         check=True, capture_output=True).stdout
    tmp = Path(tempfile.mkdtemp(prefix="typhoon_baseline_"))
    with tarfile.open(fileobj=BytesIO(tar)) as tf:
        tf.extractall(tmp, filter="data")
    # the engine imports only itself (relative imports) and finds data/ next to engine/
    pkg = tmp / "typhoon_edu"
    pkg.rename(tmp / "typhoon_baseline")
    (tmp / "typhoon_baseline" / "__init__.py").write_text("")
    sys.path.insert(0, str(tmp))
    return importlib.import_module("typhoon_baseline.engine.game").Game


def typhoon_playouts(log: bool, game_class: Any = Game) -> Iterator[int]:
    """Random playouts of typhoon-edu, one after another (seeds 1, 2, ...).

    Yields once per decision: the game's number of decisions if that decision ended it, else 0.
    """
    seed = 0
    while True:
        seed += 1
        g = game_class.new(PLAYERS, seed=seed, dice="manual")
        g._log = log
        rng = random.Random(seed)
        n = 0
        while not g.is_over:
            acts = g.legal_actions()
            g.apply(acts[int(rng.random() * len(acts))])
            n += 1
            yield n if g.is_over else 0


def openspiel_playouts(game) -> Iterator[int]:  # type: ignore[no-untyped-def]
    """Random playouts of an OpenSpiel game, yielding as :func:`typhoon_playouts` does."""
    rng = random.Random(0)
    while True:
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
            yield n if state.is_terminal() else 0


class Row:
    """One benchmark row: a playout stream and what it has done so far."""

    def __init__(self, label: str, playouts: Iterator[int]) -> None:
        self.label, self.playouts = label, playouts
        self.cpu = 0.0  # CPU seconds spent in this row's slices
        self.decisions = 0  # all decisions, the unfinished game's included
        self.games = 0  # finished games
        self.game_decisions = 0  # decisions of the finished games

    def run(self, seconds: float) -> None:
        """Play on for about ``seconds`` of CPU time, carrying an unfinished game over to the next slice."""
        playouts = self.playouts
        t0 = t = time.process_time()
        while t - t0 < seconds:
            for _ in range(CHECK_EVERY):
                n = next(playouts)
                if n:
                    self.games += 1
                    self.game_decisions += n
            self.decisions += CHECK_EVERY
            t = time.process_time()
        self.cpu += t - t0


def measure(rows: list[Row], seconds: float) -> None:
    """Give every row ``seconds`` of CPU time in interleaved slices of ``SLICE`` seconds."""
    for row in rows:  # warm up (not counted)
        for _ in range(200):
            next(row.playouts)
    while any(row.cpu < seconds for row in rows):
        for row in rows:
            if row.cpu < seconds:
                row.run(min(SLICE, seconds - row.cpu))


def clone_rates(seconds: float, classes: list[Any]) -> list[float]:
    """Clones/s of a mid-game position for each game class, in alternating slices of ``SLICE`` s."""
    games = []
    for cls in classes:
        g = cls.new(PLAYERS, seed=1, dice="manual")
        rng = random.Random(1)
        for _ in range(60):  # a mid-game position (the same one for every class)
            acts = g.legal_actions()
            g.apply(acts[int(rng.random() * len(acts))])
        games.append(g)
    counts = [0] * len(games)
    cpu = [0.0] * len(games)
    while min(cpu) < seconds:
        for i, g in enumerate(games):
            t0 = t = time.process_time()
            while t - t0 < SLICE:
                for _ in range(100):
                    g.clone()
                counts[i] += 100
                t = time.process_time()
            cpu[i] += t - t0
    return [n / c for n, c in zip(counts, cpu, strict=True)]


def peak_memory_kib() -> float:
    gc.collect()
    tracemalloc.start()
    g = Game.new(PLAYERS, seed=3, dice="manual")
    rng = random.Random(3)
    while not g.is_over:
        acts = g.legal_actions()
        g.apply(acts[int(rng.random() * len(acts))])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


#: What each part of ``--breakdown`` times, per decision (search mode: no event log).
BREAKDOWN = (
    ("list + apply", "the benchmark's loop: legal_actions(), then apply() of the recorded choice"),
    ("apply alone", "apply() with its legality list already made (the chosen action only): no listing, no scan"),
    ("replay loop", "the same loop doing neither (a new game per play-out, the recorded actions walked)"),
)


def breakdown(games: int, repeats: int = 5) -> dict[str, float]:
    """Nanoseconds per decision of each part of :data:`BREAKDOWN`, the best of ``repeats`` (CPU time).

    The play-outs are recorded first (seeds 1..games, random choices as in :func:`typhoon_playouts`) and
    then replayed; "list + apply" minus "apply alone" is what listing the legal actions and finding the
    chosen one among them cost.
    """
    recorded: list[tuple[int, list[Action]]] = []
    for seed in range(1, games + 1):
        g = Game.new(PLAYERS, seed=seed, dice="manual")
        g._log = False
        rng = random.Random(seed)
        chosen: list[Action] = []
        while not g.is_over:
            acts = g.legal_actions()
            chosen.append(acts[int(rng.random() * len(acts))])
            g.apply(chosen[-1])
        recorded.append((seed, chosen))
    decisions = sum(len(c) for _, c in recorded)

    def run(part: str) -> None:
        for seed, chosen in recorded:
            g = Game.new(PLAYERS, seed=seed, dice="manual")
            g._log = False
            for a in chosen:
                if part == "list + apply":
                    g.legal_actions()
                    g.apply(a)
                elif part == "apply alone":
                    g._legal = (a,)
                    g.apply(a)
                else:
                    g._legal = (a,)

    best = {name: float("inf") for name, _ in BREAKDOWN}
    for _ in range(repeats):
        for name, _ in BREAKDOWN:  # interleaved, so every part samples the same conditions
            t0 = time.process_time()
            run(name)
            best[name] = min(best[name], time.process_time() - t0)
    return {name: best[name] / decisions * 1e9 for name in best}


def by_kind(games: int, classes: dict[str, Any], repeats: int = 7) -> tuple[dict[str, dict[str, float]], dict[str, int]]:
    """Nanoseconds per decision (search mode) of each engine in ``classes``, by kind of decision.

    The play-outs (seeds 1..games, the random choices of :func:`typhoon_playouts`, recorded as positions
    in the legal list) are replayed by every engine in turn, game by game, ``repeats`` times; each
    decision (``legal_actions()`` and ``apply()``) keeps its shortest time, so a slice lost to another
    process on a shared machine is left out. A kind is the phase and the chosen action's kind
    (``attack/play``, ``roll_move/die``, ...). Rows ``log (whole games)`` and ``search (whole games)``
    time whole play-outs (the shortest per game), the log on and off.
    """
    first = next(iter(classes.values()))
    recorded: list[tuple[int, list[int], list[str]]] = []
    for seed in range(1, games + 1):
        g = first.new(PLAYERS, seed=seed, dice="manual")
        g._log = False
        rng = random.Random(seed)
        picks: list[int] = []
        kinds: list[str] = []
        while not g.is_over:
            acts = g.legal_actions()
            i = int(rng.random() * len(acts))
            picks.append(i)
            kinds.append(f"{g.phase}/{acts[i].kind}")
            g.apply(acts[i])
        recorded.append((seed, picks, kinds))
    clock = time.perf_counter_ns
    inf = float("inf")
    best = {name: [[inf] * len(p) for _, p, _ in recorded] for name in classes}
    whole = {(name, log): [inf] * games for name in classes for log in (True, False)}
    names = list(classes)
    for r in range(repeats):
        for gi, (seed, picks, kinds) in enumerate(recorded):
            for name in names if (r + gi) % 2 == 0 else names[::-1]:  # alternate who goes first
                cls = classes[name]
                for log in (True, False):
                    t0 = clock()
                    g = cls.new(PLAYERS, seed=seed, dice="manual")
                    g._log = log
                    for i in picks:
                        g.apply(g.legal_actions()[i])
                    whole[(name, log)][gi] = min(whole[(name, log)][gi], clock() - t0)
                g = cls.new(PLAYERS, seed=seed, dice="manual")
                g._log = False
                mins = best[name][gi]
                for j, i in enumerate(picks):
                    if not kinds[j].startswith(f"{g.phase}/"):
                        raise SystemExit(f"{name} plays another game than {names[0]} (seed {seed}, decision {j + 1}); "
                                         f"its rows cannot be compared")
                    t0 = clock()
                    acts = g.legal_actions()
                    g.apply(acts[i])
                    t = clock() - t0
                    if t < mins[j]:
                        mins[j] = t
    count: dict[str, int] = {}
    for _, _, kinds in recorded:
        for k in kinds:
            count[k] = count.get(k, 0) + 1
    decisions = sum(count.values())
    rows: dict[str, dict[str, float]] = {name: {} for name in classes}
    for name in classes:
        rows[name]["log (whole games)"] = sum(whole[(name, True)]) / decisions
        rows[name]["search (whole games)"] = sum(whole[(name, False)]) / decisions
        for gi, (_, _, kinds) in enumerate(recorded):
            for j, k in enumerate(kinds):
                rows[name][k] = rows[name].get(k, 0.0) + best[name][gi][j]
        for k in count:
            rows[name][k] /= count[k]
    return rows, count


def _game_count(text: str) -> int:
    """A number of play-outs for ``--breakdown``: a whole number from 1 up."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of games; give a whole number from 1 up, e.g. 200")
    return int(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per row (and for the clone rate)")
    ap.add_argument("--no-openspiel", action="store_true")
    ap.add_argument("--baseline", metavar="GIT-REF", help="also measure this commit's engine (e.g. main), side by side")
    ap.add_argument("--breakdown", type=_game_count, metavar="GAMES",
                    help="only time where a decision's time goes (list + apply, apply alone, the loop) over GAMES play-outs")
    ap.add_argument("--by-kind", type=_game_count, metavar="GAMES",
                    help="only time ns per decision by kind of decision over GAMES play-outs (with --baseline: both, "
                         "alternating, and their ratio)")
    args = ap.parse_args()
    if args.by_kind:
        classes = {"this checkout": Game}
        if args.baseline:
            classes[args.baseline] = baseline_game_class(args.baseline)
        rows, count = by_kind(args.by_kind, classes)
        total = sum(count.values())
        names = list(classes)
        head = f"{'decisions':<24}{'share':>7}" + "".join(f"{n[:14]:>16}" for n in names)
        print(head + (f"{'ratio':>8}" if len(names) > 1 else "") + "  (ns per decision, shortest of 7 replays)")
        order = ["log (whole games)", "search (whole games)"] + sorted(count, key=lambda k: -count[k] * rows[names[0]][k])
        for k in order:
            share = f"{count[k] / total:7.1%}" if k in count else " " * 7
            line = f"{k:<24}{share}" + "".join(f"{rows[n][k]:16,.0f}" for n in names)
            if len(names) > 1:  # baseline time / this checkout's: above 1 when this checkout is faster
                line += f"{rows[names[1]][k] / rows[names[0]][k]:8.3f}"
            print(line)
        print(f"{total:,} decisions of {args.by_kind} play-outs (4 players, manual dice, search mode unless said)")
        return
    if args.breakdown:
        parts = breakdown(args.breakdown)
        for name, what in BREAKDOWN:
            print(f"{name:<14} {parts[name]:8,.0f} ns/decision  ({what})")
        listing = parts["list + apply"] - parts["apply alone"]
        print(f"listing the legal actions and finding the chosen one: {listing:,.0f} ns/decision, "
              f"{listing / parts['list + apply']:.0%} of the loop's time")
        return
    rows = [Row("typhoon-edu (event log on)", typhoon_playouts(log=True)),
            Row("typhoon-edu (search mode, no log)", typhoon_playouts(log=False))]
    classes = [Game]
    if args.baseline:
        old = baseline_game_class(args.baseline)
        classes.append(old)
        rows += [Row(f"{args.baseline} (event log on)", typhoon_playouts(True, old)),
                 Row(f"{args.baseline} (search mode, no log)", typhoon_playouts(False, old))]
    if not args.no_openspiel:
        try:
            import pyspiel
            from open_spiel.python import games as _games  # noqa: F401  (registers the python_* games)
        except ImportError:
            print("OpenSpiel is not installed (pip install open_spiel); skipping the comparison")
        else:
            rows += [Row(f"OpenSpiel {name}", openspiel_playouts(pyspiel.load_game(name))) for name in OPENSPIEL_GAMES]
    measure(rows, args.seconds)
    fastest = max((r.decisions / r.cpu for r in rows if r.label.startswith("OpenSpiel")), default=None)
    print(f"{'game':<40} {'decisions/s':>12} {'games/s':>10} {'decisions/game':>15} {'x fastest OpenSpiel':>20}")
    for r in rows:
        ratio = f"{r.decisions / r.cpu / fastest:20.2f}" if fastest else f"{'-':>20}"
        print(f"{r.label:<40} {r.decisions / r.cpu:12,.0f} {r.games / r.cpu:10,.1f} "
              f"{r.game_decisions / max(r.games, 1):15.1f} {ratio}")
    print(f"{len(rows)} rows, each {args.seconds:g} CPU s in interleaved slices of {SLICE:g} s")
    rates = clone_rates(args.seconds, classes)
    print(f"typhoon-edu clones/s (mid-game, 4 players): {rates[0]:,.0f}")
    if args.baseline:
        print(f"{args.baseline} clones/s (same position, alternating slices): {rates[1]:,.0f} "
              f"(this checkout: {rates[0] / rates[1]:.2f}x)")
        for label in ("event log on", "search mode, no log"):
            new = next(r for r in rows if r.label == f"typhoon-edu ({label})")
            base = next(r for r in rows if r.label == f"{args.baseline} ({label})")
            print(f"decisions/s, {label}: this checkout {new.decisions / new.cpu / (base.decisions / base.cpu):.2f}x "
                  f"{args.baseline}")
    print(f"typhoon-edu peak memory of one 4-player game with its event log: {peak_memory_kib():,.0f} KiB")


if __name__ == "__main__":
    main()
