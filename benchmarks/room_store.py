"""Room store benchmarks (issue 10 §1, §4): append, poll, sync and replay costs on SQLite and PostgreSQL.

Usage (from the repository root)::

    nice -n 10 python benchmarks/room_store.py                 # SQLite, and PostgreSQL if installed
    nice -n 10 python benchmarks/room_store.py --repeat 400 --no-postgres

Measured, per dialect (SQLite: a WAL file in a temporary folder; PostgreSQL: a throwaway local
server from ``typhoon_edu.classroom.pgserver``, fsync off):

1. **append**: one ``RoomStore.append`` of one entry (one transaction), and one ``Room.act``
   (token-free teacher decision: the legality check on a clone, the append, the local apply).
2. **poll**: ``Room.sync()`` when nothing changed (the ~0.3 s poll: one indexed row read).
3. **catch-up**: ``Room.sync()`` of a view one decision behind (the usual case), on a game of
   200+ log entries.
4. **open**: ``Room.open`` of a finished 5-seat game (200+ entries): reading the log and replaying it.
5. **replay**: ``rebuild`` of the same log without the database.
6. **list**: ``list_rooms`` over 50 rooms, cold (replays every room) and warm (remembered).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typhoon_edu.classroom import Room, RoomStore, Seat, list_rooms, sqlite_url  # noqa: E402
from typhoon_edu.classroom.rooms import _CHECKED, rebuild  # noqa: E402
from typhoon_edu.classroom.store import NewSeat  # noqa: E402
from typhoon_edu.classroom.teachers import local_teacher  # noqa: E402

FIVE_BOTS = [Seat(r, "greedy") for r in ("Taiwan", "Japan", "Korea", "Philippines", "SouthChina")]


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def stats(name: str, samples: list[float]) -> str:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]
    return f"  {name:<44} median {statistics.median(s) * 1000:8.2f} ms   p95 {p95 * 1000:8.2f} ms   (n={len(s)})"


def whole_game(store: RoomStore, seed: int) -> Room:
    room = Room.create(store, FIVE_BOTS, seed=seed, lang="en", teacher=local_teacher(store))
    while room.bot_to_move():
        room.step_bot()
    return room


def run(url: str, label: str, repeat: int) -> None:
    print(f"\n{label}: {url}")
    store = RoomStore(url)
    # 1. append
    row = store.create_room(setup="{}", seats=[NewSeat("A"), NewSeat("B"), NewSeat("C")], lang="en")
    seq = iter(range(1, 10**9))
    print(stats("RoomStore.append (1 entry, 1 transaction)",
                timed(lambda: store.append(row.id, next(seq), ["pass"], by="A"), repeat)))
    people = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=1, lang="en", teacher=local_teacher(store))
    acts = []
    while len(acts) < min(repeat, 150) and people.is_open:
        action = people.game.legal_actions()[0]
        t0 = time.perf_counter()
        people.act(action, teacher=True)
        acts.append(time.perf_counter() - t0)
    print(stats("Room.act (check on a clone + append + apply)", acts))
    # 2.-5. on a whole game
    game = whole_game(store, seed=7)
    n = game.seq
    print(f"  (a whole 5-seat game: {n} log entries, {len(game.game.events)} events)")
    viewer = Room.open(store, game.code, teacher=local_teacher(store))
    print(stats("Room.sync, nothing changed (the poll)", timed(viewer.sync, repeat)))
    catch = []
    for seed in range(8, 8 + max(3, repeat // 100)):
        live = Room.create(store, FIVE_BOTS, seed=seed, lang="en", teacher=local_teacher(store))
        behind = Room.open(store, live.code, teacher=local_teacher(store))
        while live.bot_to_move() and live.seq < 260:
            before = live.seq
            live.step_bot()
            t0 = time.perf_counter()
            behind.sync()
            catch.append(time.perf_counter() - t0)
            assert behind.seq == live.seq > before
    print(stats("Room.sync, one decision behind (game of 200+)", catch))
    print(stats(f"Room.open of the whole game ({n} entries)", timed(lambda: Room.open(store, game.code, teacher=local_teacher(store)),
                                                                  max(10, repeat // 10))))
    log = [e.notation for e in game.entries]
    setup = game.setup
    print(stats(f"rebuild (replay {n} entries, no database)", timed(lambda: rebuild(setup, log), max(20, repeat // 5))))
    # 6. listing
    for seed in range(100, 150 - len(store.rooms())):
        r = Room.create(store, FIVE_BOTS, seed=seed, teacher=local_teacher(store))
        for _ in range(60):
            r.step_bot()
    rooms = len(store.rooms())
    cold = []
    for _ in range(3):
        _CHECKED.clear()
        t0 = time.perf_counter()
        list_rooms(store, teacher=local_teacher(store))
        cold.append(time.perf_counter() - t0)
    print(stats(f"list_rooms, {rooms} rooms, cold (replays all)", cold))
    print(stats(f"list_rooms, {rooms} rooms, warm", timed(lambda: list_rooms(store, teacher=local_teacher(store)), 10)))
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=300)
    ap.add_argument("--no-postgres", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(sqlite_url(Path(tmp) / "rooms.sqlite3"), "SQLite (WAL, synchronous=NORMAL)", args.repeat)
    if args.no_postgres:
        return
    from typhoon_edu.classroom.pgserver import TempPostgres, find_pg_bin

    if find_pg_bin() is None:
        print("\nPostgreSQL: not installed (apt-get install -y postgresql), skipped")
        return
    with TempPostgres() as pg:
        run(pg.create_database("bench"), "PostgreSQL (local server, fsync off)", args.repeat)


if __name__ == "__main__":
    main()
