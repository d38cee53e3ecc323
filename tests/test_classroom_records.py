"""JSON records in and out of rooms, and the one-time import of the dashboard's save folder."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from typhoon_edu.classroom import (
    NotAllowed,
    Room,
    RoomStore,
    Seat,
    import_problems,
    import_record,
    import_saves,
    list_rooms,
    sqlite_url,
)
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.engine.rules import SaveFileError
from typhoon_edu.ui.classplay.session import ClassSession
from typhoon_edu.ui.classplay.session import Seat as SessionSeat

BOTS = [SessionSeat("Taiwan", "greedy"), SessionSeat("Japan", "random", "Kenji"), SessionSeat("Korea", "greedy")]


@pytest.fixture
def lite(tmp_path: Path) -> RoomStore:
    return RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))


def saves_folder(folder: Path, games: int = 2, moves: int = 30) -> list[ClassSession]:
    out = []
    for seed in range(games):
        s = ClassSession.start(BOTS, seed=seed + 100, save_dir=folder, lang="en")
        s.game_id = f"game-{seed}"  # distinct file names even within one second
        for _ in range(moves * (seed + 1)):
            if s.game.is_over:
                break
            s.step_bot()
        s.save()
        out.append(s)
    for stray in folder.glob("2*.json"):  # the autosave under the first name
        stray.unlink()
    return out


def test_export_import_round_trip(db_url: str) -> None:
    store = RoomStore(db_url)
    room = Room.create(store, [Seat("Taiwan", "greedy"), Seat("Japan", name="Aiko"), Seat("Korea", "random")],
                       seed=5, lang="en", teacher=local_teacher(store))
    for _ in range(25):
        room.sync()
        if room.bot_to_move():
            room.step_bot()
        else:
            room.act(room.game.legal_actions()[0], teacher=True)
    record = room.record()
    assert record["format"] == "typhoon-edu-save" and record["setup"]["dice"] == "auto"
    assert record["session"]["seats"][1] == {"region": "Japan", "kind": "person", "name": "Aiko"}
    copy = import_record(store, room.record_json(), teacher=local_teacher(store))
    assert copy.game.digest() == room.game.digest() and copy.id != room.id and copy.code != room.code
    assert copy.seat("Japan").name == "Aiko" and copy.seat("Japan").is_person and not copy.seat("Japan").has_device
    assert copy.hp_track == room.hp_track and copy.is_open
    again = import_record(store, record, teacher=local_teacher(store))  # the dict works too
    assert again.game.digest() == room.game.digest()
    # the copy plays on
    update = copy.act(copy.game.legal_actions()[0], teacher=True) if copy.waiting_for_person else copy.step_bot()
    assert update.seq == room.seq + len(update.entries) > room.seq


def test_a_finished_game_imports_as_a_finished_room(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")], seed=8, teacher=local_teacher(lite))
    while room.bot_to_move():
        room.step_bot()
    copy = import_record(lite, room.record_json(), teacher=local_teacher(lite))
    assert copy.status == "finished" and copy.is_over and copy.game.winners == room.game.winners


@pytest.mark.parametrize("damage, kind", [
    (lambda r: "{not json", "not_json"),
    (lambda r: json.dumps({"format": "other"}), "foreign"),
    (lambda r: json.dumps({**r, "state_digest": "0" * 16}), "tampered"),
    (lambda r: json.dumps({**r, "actions": r["actions"][:3] + ["place 0,0"]}), "replay"),
    (lambda r: json.dumps({**r, "session": {"seats": [{"region": "Mars"}]}}), "damaged"),
    (lambda r: "[" * 100_000 + "]" * 100_000, "too_deep"),
])
def test_a_damaged_record_is_refused_with_its_kind(lite: RoomStore, damage, kind: str) -> None:
    room = Room.create(lite, [Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")], seed=9, teacher=local_teacher(lite))
    for _ in range(10):
        room.step_bot()
    with pytest.raises(SaveFileError) as e:
        import_record(lite, damage(room.record()), teacher=local_teacher(lite))
    assert e.value.kind == kind
    assert len(lite.rooms()) == 1


def test_a_device_cannot_export_the_record(lite: RoomStore) -> None:
    room = Room.create(lite, [Seat("Taiwan"), Seat("Japan", "random"), Seat("Korea", "greedy")], seed=9, teacher=local_teacher(lite))
    device = Room.open_seat(lite, room.issued_tokens["Taiwan"])
    with pytest.raises(NotAllowed):
        device.record_json()  # it holds the seed, hence every hand


def test_saves_on_disk_are_imported_once(lite: RoomStore, tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    sessions = saves_folder(folder)
    report = import_saves(lite, folder)
    assert len(report.imported) == 2 and report.problems == ()
    rooms = {r.code: r for r in list_rooms(lite, teacher=local_teacher(lite))}
    for source, code in report.imported:
        session = next(s for s in sessions if s.save_path.name == Path(source).name)
        room = Room.open(lite, code, teacher=local_teacher(lite))
        assert room.game.digest() == session.game.digest()
        assert room.display_name("Japan") == "Kenji" and room.seat("Taiwan").kind == "greedy"
        assert rooms[code].origin == f"import:{Path(source).name}" and rooms[code].ok
    again = import_saves(lite, folder)
    assert again.imported == () and len(again.skipped) == 2
    assert len(lite.rooms()) == 2
    # deleting an imported room does not bring it back
    Room.open(lite, report.imported[0][1], teacher=local_teacher(lite)).delete()
    assert import_saves(lite, folder).imported == () and len(lite.rooms()) == 1


def test_a_damaged_save_is_listed_with_its_reason_and_the_others_stay_usable(lite: RoomStore, tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    saves_folder(folder, games=1)
    (folder / "broken.json").write_text("{ this is not json", encoding="utf-8")
    (folder / "nested.json").write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    (folder / "foreign.json").write_text(json.dumps({"hello": "world"}), encoding="utf-8")
    (folder / "gone.json").symlink_to(tmp_path / "does-not-exist.json")
    (folder / "binary.json").write_bytes(b"\xff\xfe\x00\x01" * 50)
    report = import_saves(lite, folder)
    assert len(report.imported) == 1
    kinds = {p.name: p.kind for p in report.problems}
    assert kinds == {"broken.json": "not_json", "nested.json": "too_deep", "foreign.json": "foreign",
                     "gone.json": "unreadable", "binary.json": "not_json"}
    assert all(p.error for p in report.problems)
    assert {p.name for p in import_problems(lite)} == set(kinds)
    # listed again without being read again, and a repaired file is imported
    assert {p.name for p in import_saves(lite, folder).problems} == set(kinds)
    good = next(folder.glob("game-*.json")).read_text(encoding="utf-8")
    (folder / "broken.json").write_text(good, encoding="utf-8")
    report = import_saves(lite, folder)
    assert [Path(s).name for s, _ in report.imported] == ["broken.json"]
    assert "broken.json" not in {p.name for p in import_problems(lite)}
    assert all(info.ok for info in list_rooms(lite, teacher=local_teacher(lite)))


def test_two_kernels_importing_at_once_make_each_room_once(db_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    saves_folder(folder, games=3, moves=10)
    stores = [RoomStore(db_url) for _ in range(3)]
    barrier = threading.Barrier(len(stores))
    errors: list[BaseException] = []

    def run(store: RoomStore) -> None:
        barrier.wait()
        try:
            import_saves(store, folder)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    assert sorted(r.origin for r in stores[0].rooms()) == sorted(f"import:{p.name}" for p in folder.glob("*.json"))


def test_the_default_folder_is_the_dashboards(lite: RoomStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "elsewhere"
    monkeypatch.setenv("TYPHOON_EDU_SAVES", str(folder))
    assert import_saves(lite).imported == ()  # no folder yet: nothing, no error
    saves_folder(folder, games=1)
    assert len(import_saves(lite).imported) == 1


def test_a_record_keeps_how_the_class_played_it() -> None:
    from typhoon_edu.classroom.records import import_record
    from typhoon_edu.classroom.rooms import Room, Seat
    from typhoon_edu.classroom.store import RoomStore

    store = RoomStore("sqlite://")
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan", "greedy"), Seat("Korea", "random")], seed=8,
                       lang="en", options={"devices": False}, teacher=local_teacher(store))
    record = room.record()
    assert record["session"]["options"] == {"devices": False}
    again = import_record(store, room.record_json(), teacher=local_teacher(store))
    assert again.options == {"devices": False} and again._game.digest() == room._game.digest()
    record["session"]["options"] = {"devices": ["not", "a", "setting"]}
    import json

    import pytest

    from typhoon_edu.engine.rules import SaveFileError

    with pytest.raises(SaveFileError, match="options"):
        import_record(store, json.dumps(record), teacher=local_teacher(store))


def test_a_pipe_or_a_link_to_a_device_in_the_save_folder_is_listed_not_read(lite: RoomStore, tmp_path: Path) -> None:
    """A FIFO named like a save made the import (run when the teacher opens the projector) wait for ever, and a link to
    /dev/zero read until memory ran out; both are now listed as unreadable and the real saves are imported."""
    import os

    folder = tmp_path / "saves"
    saves_folder(folder, games=1)
    os.mkfifo(folder / "stuck.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    done: list[object] = []
    worker = threading.Thread(target=lambda: done.append(import_saves(lite, folder)), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert done, "the import did not finish within 30 s"
    report = done[0]
    assert len(report.imported) == 1  # type: ignore[attr-defined]
    assert {p.name: p.kind for p in report.problems} == {"stuck.json": "unreadable", "zero.json": "unreadable"}  # type: ignore[attr-defined]
