"""Reading game records: time and peak memory of the reader on real records and on the worst inputs.

    python benchmarks/records.py [--repeat 5]

Each case is read with ``game_from_json`` (``read_session_record`` for the dashboard save):
CPU time is the median of ``--repeat`` runs (``time.process_time``, so other work on a shared
machine does not count), peak memory is from one run under ``tracemalloc``. The cases are real
records (a long finished game, a dashboard save) and inputs built to cost the most within the
limits (1 MiB of brackets, quotes, backslashes, numbers, keys; 5,000 actions) or far past them
(the issue's 200 MB record with 40 million actions, built in memory).

Speed is measured here, never asserted in tests; the tests only keep a generous
safety bound (1 CPU second, 200 MB per read).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typhoon_edu import Game, SaveFileError  # noqa: E402
from typhoon_edu.engine.savefile import MAX_ACTIONS, MAX_RECORD_BYTES, game_from_json, game_to_dict  # noqa: E402
from typhoon_edu.ui.classplay.session import ClassSession, Seat, read_session_record  # noqa: E402


def longest_game(tries: int = 300) -> Game:
    """The game with the most actions among ``tries`` random 5-player games."""
    best = None
    regions = ["Taiwan", "Philippines", "Korea", "Central China", "South China", "Japan"]
    for seed in range(tries):
        rng = random.Random(seed)
        g = Game.new(rng.sample(regions, 5), seed=seed)
        while not g.is_over:
            acts = g.legal_actions()
            busy = [a for a in acts if a.kind != "pass"]
            g.apply(rng.choice(busy or acts))
        if best is None or len(g.history) > len(best.history):
            best = g
    assert best is not None
    return best


def dashboard_save() -> str:
    with tempfile.TemporaryDirectory() as folder:
        seats = [Seat("Taiwan", "person", "Ann"), Seat("Japan", "greedy"), Seat("Korea", "random"),
                 Seat("Philippines", "greedy"), Seat("South China", "random")]
        s = ClassSession.start(seats, seed=9, save_dir=folder)
        rng = random.Random(9)
        while not s.game.is_over:
            if s.waiting_for_person:
                s.apply(rng.choice(s.game.legal_actions()))
            else:
                s.step_bot()
        return s.record_json()


def cases() -> dict[str, tuple[Callable[[Any], Any], Any]]:
    long = longest_game()
    header = game_to_dict(long)
    head = json.dumps({k: v for k, v in header.items() if k != "actions"})[:-1]
    m = MAX_RECORD_BYTES
    return {
        f"real: longest of 300 games ({len(long.history)} actions)": (game_from_json, long.to_json()),
        "real: dashboard save, 5 seats, finished": (read_session_record, dashboard_save()),
        "1 MiB of '['": (game_from_json, "[" * (m - 1)),
        "1 MiB of '{\"a\":' nesting": (game_from_json, '{"a":' * (m // 5)),
        "1 MiB of '[]' pairs": (game_from_json, "[]" * (m // 2)),
        "1 MiB of quotes": (game_from_json, '"' * m),
        "1 MiB string of backslashes": (game_from_json, '"' + "\\\\" * (m // 2 - 2) + '"'),
        "1 MiB list of numbers": (game_from_json, "[" + ",".join(["1.5"] * (m // 4 - 2)) + "]"),
        "1 MiB object of keys": (game_from_json, json.dumps({str(i): i for i in range(m // 16)})),
        f"{MAX_ACTIONS:,} actions (the limit): the long game, then passes": (
            game_from_json, json.dumps({**header, "actions": header["actions"] + ["pass"] * (MAX_ACTIONS - len(
                header["actions"]))})),
        "200 MB, 40 million actions": (game_from_json, head + ', "actions": [' + '"1", ' * 40_000_000 + '"1"]}'),
    }


def measure(read: Callable[[Any], Any], text: Any, repeat: int) -> tuple[float, float, str]:
    def once() -> str:
        try:
            read(text)
            return "loaded"
        except SaveFileError as exc:
            return exc.kind

    times = []
    for _ in range(repeat):
        start = time.process_time()
        outcome = once()
        times.append(time.process_time() - start)
    tracemalloc.start()
    once()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(times), peak, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"| input | size | outcome | CPU ms (median of {args.repeat}) | peak MiB |")
    print("|---|---|---|---|---|")
    worst = 0.0
    for name, (read, text) in cases().items():
        seconds, peak, outcome = measure(read, text, args.repeat)
        worst = max(worst, seconds)
        size = len(text.encode("utf-8")) if isinstance(text, str) else len(text)
        print(f"| {name} | {size:,} B | {outcome} | {seconds * 1000:.1f} | {peak / 2**20:.1f} |")
    print(f"\nslowest read: {worst * 1000:.0f} ms of CPU")


if __name__ == "__main__":
    main()
