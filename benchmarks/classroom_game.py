"""A whole class game from scripted devices, two devices racing, kernels killed mid-move (issue 10 §4).

Usage (from the repository root; the server is ``typhoon-edu serve``'s own command line, and every
request goes to 127.0.0.1)::

    python benchmarks/classroom_game.py game            # 5 person seats on 5 "phones" + the projector, to the end
    python benchmarks/classroom_game.py race            # two pages of one seat press at the same moment, 10 times
    python benchmarks/classroom_game.py kill            # kill the projector's kernel and a phone's mid-move; reopen
    python benchmarks/classroom_game.py all --json artifacts/classroom_game.json

``game``: the projector sets up a room with five person seats, each "phone" (a 390×844 Chromium
context) opens its seat's link and makes its own decisions (a pass where it may, else its first
offered button; storms are placed by tapping a legal cell of its map). At the end the test
compares the store's log with the decisions the phones made (nothing lost, nothing twice), and
every page's ``data-view`` (a digest of the public state and the log position) with the store's
own replay. It also reports the time from a phone's tap to the projector showing the move, and
the memory of every kernel (psutil RSS) after the game.

Loops are bounded: a game stops after ``--max-decisions`` or ``--minutes``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil  # noqa: E402

from typhoon_edu.classroom.rooms import Room, list_rooms  # noqa: E402
from typhoon_edu.classroom.store import RoomStore, sqlite_url  # noqa: E402
from typhoon_edu.classroom.teachers import local_teacher  # noqa: E402
from typhoon_edu.engine.rules import load_rules  # noqa: E402
from typhoon_edu.server.serve import CHROMIUM_ARGS, CHROMIUM_PATH, VoilaProcess  # noqa: E402
from typhoon_edu.ui.classplay.tables import view_digest  # noqa: E402
from typhoon_edu.ui.geometry import BoardGeometry  # noqa: E402

DASHBOARD = Path(__file__).resolve().parent.parent / "notebooks" / "dashboard.ipynb"
RULES = load_rules()
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
NAMES = ("Mei", "王小明", "Ana", "Ken", "李華")


# ------------------------------------------------------------------------------------ helpers
def start_server(folder: Path, pool: int) -> tuple[VoilaProcess, RoomStore]:
    db = sqlite_url(folder / "rooms.sqlite3")
    (folder / "saves").mkdir(exist_ok=True)
    proc = VoilaProcess(notebook=DASHBOARD, lang="en", preheat=True, pool_size=pool, db=db,
                        env={**os.environ, "TYPHOON_EDU_SAVES": str(folder / "saves")},
                        log_path=folder / "voila.log")
    proc.start()
    proc.wait_ready(timeout=180)
    return proc, RoomStore(db)


def banner(page: Any) -> dict[str, str]:
    if not page.locator(".typhoon-state").count():
        return {}
    return page.locator(".typhoon-state").first.evaluate("e => Object.assign({}, e.dataset)")


def wait(page: Any, ok: Any, timeout: float, what: str) -> dict[str, str]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = banner(page)
        if s and ok(s):
            return s
        page.wait_for_timeout(50)
    raise TimeoutError(f"{what}: not within {timeout:.0f} s (page shows {banner(page)})")


def tap(page: Any, cell: tuple[int, int], cell_px: int = 40) -> None:
    canvas = page.locator(".typhoon-board canvas").first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    width = canvas.evaluate("c => c.width")
    cx, cy = BoardGeometry.for_rules(RULES, cell_px).cell_centre(*cell)
    page.mouse.click(box["x"] + cx * box["width"] / width, box["y"] + cy * box["width"] / width)


def teacher_address(proc: VoilaProcess) -> str:
    """The projector's address: ``/`` without the teacher's key is the students' join page."""
    from typhoon_edu.classroom.teachers import ensure_local_teacher

    return f"{proc.url}?teacher={ensure_local_teacher(RoomStore(proc.db))}"


def open_room(browser: Any, proc: VoilaProcess, store: RoomStore, persons: int, speed: str) -> tuple[Any, dict[str, Any]]:
    """The projector sets up a room of ``persons`` person seats (the rest medium bots); each phone joins."""
    projector = browser.new_context(viewport=PROJECTOR).new_page()
    projector.set_default_timeout(120_000)
    projector.goto(teacher_address(proc))
    projector.locator(".typhoon-setup-start").wait_for()
    projector.locator(".typhoon-seat-count button", has_text="5").click()
    for i in range(5):
        if i < persons:
            projector.locator(f".typhoon-seat-name-{i} input").fill(NAMES[i])
            projector.locator(f".typhoon-seat-name-{i} input").press("Tab")
        else:
            projector.locator(f".typhoon-seat-kind-{i} select").select_option(index=2)
    projector.locator(".typhoon-speed button").nth({"0": 4, "2": 2, "1": 1}.get(speed, 1)).click()
    projector.wait_for_timeout(500)
    projector.locator(".typhoon-setup-start").click()
    links = projector.locator("a.typhoon-join-link")
    end = time.monotonic() + 60
    while links.count() < persons and time.monotonic() < end:
        projector.wait_for_timeout(200)
    phones = {}
    for i in range(links.count()):
        region, href = links.nth(i).get_attribute("data-region"), links.nth(i).get_attribute("href")
        phone = browser.new_context(viewport=PHONE).new_page()
        phone.set_default_timeout(120_000)
        phone.goto(f"{href}&speed={speed}")
        phones[region] = phone
    for phone in phones.values():
        phone.locator(".typhoon-seat-game").wait_for()
    projector.locator(".typhoon-projector-game").wait_for()
    return projector, phones


def the_room(store: RoomStore) -> Room:
    rooms = list_rooms(store, teacher=local_teacher(store))
    return Room.open(store, rooms[0].code, teacher=local_teacher(store))


def decide_on(phone: Any, region: str, store: RoomStore) -> bool:
    """The phone makes its pending decision; False if it had none to make."""
    s = banner(phone)
    if s.get("mine") != "1" or s.get("busy") != "0":
        return False
    room = the_room(store)
    if room.seq != int(s["seq"]):
        return False  # the page is behind the store: let it catch up first
    legal = room.seat_view(region).legal_actions
    if not legal:
        return False
    places = [a for a in legal if a.kind == "place"]
    if places:
        tap(phone, places[0].cell)
    else:
        passes = phone.locator(".typhoon-decisions .typhoon-group-pass button")
        buttons = phone.locator(".typhoon-decisions button.typhoon-act")
        if not buttons.count():
            return False
        (passes.first if passes.count() else buttons.first).click()
    return True


def kernel_pids(proc: VoilaProcess) -> list[psutil.Process]:
    out = []
    for p in psutil.Process(proc.process.pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(p.cmdline()):
                out.append(p)
        except psutil.Error:
            continue
    return out


def kernel_of(page: Any, proc: VoilaProcess) -> psutil.Process:
    match = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page.content())
    assert match, "no kernel id in the page"
    for p in kernel_pids(proc):
        if match.group(1) in " ".join(p.cmdline()):
            return p
    raise LookupError(f"no process for kernel {match.group(1)}")


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[max(0, min(len(values) - 1, round(0.95 * len(values) + 0.5) - 1))] if values else float("nan")


# ------------------------------------------------------------------------------- measurements
def measure_game(browser: Any, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    proc, store = start_server(folder, pool=6)
    try:
        projector, phones = open_room(browser, proc, store, persons=5, speed=args.speed)
        made: dict[str, int] = dict.fromkeys(phones, 0)
        delays: list[float] = []
        t0 = time.monotonic()
        while time.monotonic() - t0 < args.minutes * 60 and sum(made.values()) < args.max_decisions:
            if banner(projector).get("phase") == "" and projector.locator(".typhoon-results").count():
                break
            room = the_room(store)
            if room.is_over or not room.is_open:
                break
            acted = False
            for region, phone in phones.items():
                before = room.seq
                if decide_on(phone, region, store):
                    clicked = time.monotonic()
                    wait(phone, lambda s, b=before: int(s["seq"]) > b, 30, f"{region}'s own decision")
                    wait(projector, lambda s, b=before: int(s["seq"]) > b, 30, "the projector")
                    delays.append(time.monotonic() - clicked)
                    made[region] += 1
                    acted = True
                    break
            if not acted:
                projector.wait_for_timeout(100)
        room = the_room(store)
        entries = store.actions(room.id)
        seqs = [e.seq for e in entries]
        by_seat = {r: sum(1 for e in entries if e.by == r and not e.notation.startswith("die")) for r in phones}
        end = time.monotonic() + 60
        want = view_digest(room)
        views = {}
        while time.monotonic() < end:
            views = {"projector": banner(projector).get("view")} | {r: banner(p).get("view") for r, p in phones.items()}
            if all(v == want for v in views.values()):
                break
            projector.wait_for_timeout(200)
        memory = {f"pid {p.pid}": round(p.memory_info().rss / 2**20, 1) for p in kernel_pids(proc)}
        return {
            "persons": len(phones), "decisions_made_on_phones": made, "log_entries_by_seat": by_seat,
            "lost_or_doubled": sum(abs(made[r] - by_seat[r]) for r in phones),
            "log_contiguous": seqs == list(range(1, len(seqs) + 1)), "entries": len(seqs),
            "game_over": room.is_over, "rounds": room.summary()["rounds"],
            "views_equal_to_store": all(v == want for v in views.values()), "views": views, "store_view": want,
            "tap_to_projector_s": {"median": round(statistics.median(delays), 3), "p95": round(p95(delays), 3),
                                   "max": round(max(delays), 3), "n": len(delays)} if delays else {},
            "minutes": round((time.monotonic() - t0) / 60, 1),
            "kernel_rss_mib": memory, "kernel_rss_total_mib": round(sum(memory.values()), 1),
        }
    finally:
        proc.stop()


def measure_race(browser: Any, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Two pages of one seat press the same decision within a few milliseconds, ``--races`` times."""
    proc, store = start_server(folder, pool=4)
    try:
        projector, phones = open_room(browser, proc, store, persons=1, speed="0")
        region, first = next(iter(phones.items()))
        twin = browser.new_context(viewport=PHONE).new_page()
        twin.goto(first.url)
        twin.locator(".typhoon-seat-game").wait_for()
        outcomes = []
        for _ in range(args.races):
            room = the_room(store)
            if room.is_over:
                break
            for page in (first, twin):
                wait(page, lambda s, q=room.seq: int(s["seq"]) == q and s.get("busy") == "0", 60, "both pages")
            if banner(first).get("mine") != "1":
                projector.wait_for_timeout(300)
                continue
            legal = room.seat_view(region).legal_actions
            places = [a for a in legal if a.kind == "place"]
            before = room.seq
            if places:
                tap(first, places[0].cell)
                tap(twin, places[-1].cell)
            else:
                sel = ".typhoon-decisions button.typhoon-act"
                first.locator(sel).first.click(no_wait_after=True)
                twin.locator(sel).last.click(no_wait_after=True)
            first.wait_for_timeout(1500)
            after = the_room(store).seq
            told = sum(1 for p in (first, twin) if "typhoon-message-error" in p.locator(".typhoon-message").first.inner_html())
            outcomes.append({"decisions_stored": sum(1 for e in store.actions(room.id, after=before)
                                                     if e.by == region and not e.notation.startswith("die")), "told": told,
                             "entries_added": after - before})
        one_winner = all(o["decisions_stored"] == 1 for o in outcomes)
        return {"races": len(outcomes), "exactly_one_won_every_time": one_winner,
                "loser_told": sum(1 for o in outcomes if o["told"] >= 1), "outcomes": outcomes}
    finally:
        proc.stop()


def measure_kill(browser: Any, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Kill the projector's kernel while storms move (and a phone's right after its tap); reopen both."""
    proc, store = start_server(folder, pool=4)
    try:
        projector, phones = open_room(browser, proc, store, persons=2, speed="1")
        results = []
        for _ in range(args.kills):
            # play until the projector animates a move, then kill its kernel
            end = time.monotonic() + 120
            while time.monotonic() < end and banner(projector).get("busy") != "1":
                for region, phone in phones.items():
                    if decide_on(phone, region, store):
                        break
                projector.wait_for_timeout(50)
            kernel_of(projector, proc).kill()
            killed_at = the_room(store).seq
            projector.close()
            projector = browser.new_context(viewport=PROJECTOR).new_page()
            projector.set_default_timeout(120_000)
            projector.goto(teacher_address(proc))
            code = list_rooms(store, teacher=local_teacher(store))[0].code
            projector.locator(f".typhoon-room-{code}").click()
            if projector.locator(".typhoon-lobby-go").count() and projector.locator(".typhoon-lobby-go").is_visible():
                projector.locator(".typhoon-lobby-go").click()
            room = the_room(store)
            s = wait(projector, lambda s, q=room.seq: int(s.get("seq", -1)) >= q and s.get("busy") == "0", 60,
                     "the reopened projector")
            exact = s.get("view") == view_digest(the_room(store))
            # a phone's kernel killed right after its tap: its move is in the log whole, or not at all
            region, phone = next(iter(phones.items()))
            tapped = False
            end = time.monotonic() + 120
            while time.monotonic() < end and not tapped:
                tapped = decide_on(phone, region, store)
                if not tapped:
                    for r, p in phones.items():
                        if r != region:
                            decide_on(p, r, store)
                    phone.wait_for_timeout(100)
            kernel_of(phone, proc).kill()
            href = phone.url
            phone.close()
            phone = browser.new_context(viewport=PHONE).new_page()
            phone.goto(href)
            room = the_room(store)
            try:
                s2 = wait(phone, lambda s, q=room.seq: int(s.get("seq", -1)) == q, 60, "the reopened phone")
                phone_exact = s2.get("view") == view_digest(the_room(store))
            except TimeoutError:
                phone_exact = False  # e.g. the link was used up; reported as not exact
            phones[region] = phone
            entries = [e.seq for e in store.actions(room.id)]
            results.append({"killed_at_entry": killed_at, "projector_exact": exact, "phone_exact": phone_exact,
                            "log_contiguous": entries == list(range(1, len(entries) + 1))})
        return {"kills": results, "all_exact": all(r["projector_exact"] and r["phone_exact"] and r["log_contiguous"]
                                                   for r in results)}
    finally:
        proc.stop()


MEASUREMENTS = {"game": measure_game, "race": measure_race, "kill": measure_kill}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=[*MEASUREMENTS, "all"])
    ap.add_argument("--speed", default="2", choices=["0", "1", "2"], help="animation speed of every page")
    ap.add_argument("--minutes", type=float, default=30.0, help="a game stops after this long")
    ap.add_argument("--max-decisions", type=int, default=2_000)
    ap.add_argument("--races", type=int, default=10)
    ap.add_argument("--kills", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {"load_average_at_start": os.getloadavg()}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        for name, fn in MEASUREMENTS.items():
            if args.what in (name, "all"):
                with tempfile.TemporaryDirectory(prefix=f"typhoon-{name}-") as folder:
                    t0 = time.monotonic()
                    out[name] = fn(browser, Path(folder), args)
                    out[name]["seconds"] = round(time.monotonic() - t0, 1)
                sys.stdout.write(f"{name}: {json.dumps(out[name], ensure_ascii=False)}\n")
                sys.stdout.flush()
        browser.close()
    out["load_average_at_end"] = os.getloadavg()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
