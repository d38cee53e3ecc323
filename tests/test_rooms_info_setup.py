"""The teacher's rooms list reads each room's rules and devices with the rooms themselves.

Before, ``RoomInfo`` did not carry a room's setup, so the projector read the teacher's rooms a second time
(``room_setups``: ``store.rooms`` again) to show each row's rules variant and 'phones or tablets' / 'one computer'.
Now :func:`list_rooms` fills ``RoomInfo.variant`` and ``RoomInfo.devices`` from the rows it already reads, on SQLite
and PostgreSQL: the rooms table is read once per list, and the number of queries does not depend on how many rooms
there are. The rows say what they said before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape

import pytest
import sqlalchemy as sa

from typhoon_edu.classroom.rooms import Room, Seat, list_rooms
from typhoon_edu.classroom.store import ROOMS, RoomStore, devices_allowed
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.ui.classplay.projector import ProjectorApp

#: (rules variant, teams on devices) of the rooms made, in turn.
KINDS = [("standard", True), ("advanced", False), ("advanced", True), ("standard", False)]


def _make(store: RoomStore, n: int) -> list[Room]:
    me = local_teacher(store)
    out = []
    for i in range(n):
        variant, devices = KINDS[i % len(KINDS)]
        out.append(Room.create(store, [Seat("Taiwan", name=f"P{i}"), Seat("Japan", "greedy"), Seat("Korea", "random")],
                               seed=i + 1, variant=variant, options={"devices": devices}, teacher=me))
    return out


@pytest.fixture
def db(db_url: str) -> Iterator[RoomStore]:
    store = RoomStore(db_url)
    yield store
    store.close()


def _statements(store: RoomStore, run: object) -> list[str]:
    """The SQL statements ``run()`` sends to the store's database."""
    sent: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        sent.append(statement)

    sa.event.listen(store._engine, "before_cursor_execute", note)
    try:
        run()  # type: ignore[operator]
    finally:
        sa.event.remove(store._engine, "before_cursor_execute", note)
    return sent


def _reads_of_rooms(sent: list[str]) -> int:
    return sum(1 for s in sent if s.lstrip().upper().startswith("SELECT") and re.search(r"FROM\s+\S*typhoon_rooms\b", s))


def test_list_rooms_carries_each_rooms_rules_and_devices(db: RoomStore) -> None:
    rooms = _make(db, 4)
    infos = {info.id: info for info in list_rooms(db, teacher=local_teacher(db))}
    for room in rooms:
        stored = db.room(room.id).setup_dict()
        info = infos[room.id]
        assert (info.variant, info.devices) == (stored["variant"], devices_allowed(stored))
    assert {(i.variant, i.devices) for i in infos.values()} == set(KINDS)


def test_a_setup_that_cannot_be_read_is_listed_without_rules(db: RoomStore) -> None:
    room = _make(db, 1)[0]
    with db.transaction("damage the setup", write=True) as conn:
        conn.execute(sa.update(ROOMS).where(ROOMS.c.id == room.id).values(setup="{not json"))
    [info] = list_rooms(db, teacher=local_teacher(db))
    assert not info.ok and info.variant == "" and info.devices is True


@pytest.mark.parametrize("n", [2, 7])
def test_the_rooms_list_reads_the_rooms_once_whatever_their_number(db: RoomStore, n: int) -> None:
    me = local_teacher(db)
    app = ProjectorApp(lang="en", store=db, fullscreen=False, teacher=me)
    counts = {}
    for total in (1, n):
        _make(db, total - len(list_rooms(db, teacher=me)))
        app.refresh_rooms()  # the replays are remembered: the second listing below reads, it does not replay
        sent = _statements(db, app.refresh_rooms)
        assert len(list_rooms(db, teacher=me)) == total
        assert _reads_of_rooms(sent) == 1, sent  # before: twice (list_rooms, then room_setups)
        counts[total] = len(sent)
    assert counts[n] == counts[1]  # no query per room


def _rows(app: ProjectorApp) -> dict[str, str]:
    out = {}
    for row in app.setup.rooms_box.children:
        kids = getattr(row, "children", ())
        if len(kids) == 2:
            html = kids[1].value
            code = re.search(r"typhoon-room-chip'>([^<]+)<", html)
            if code:
                out[code.group(1)] = html
    return out


@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"standard": "standard rules", "advanced": "advanced rules", True: "phones or tablets",
            False: "one computer"}),
    ("zh-TW", {"standard": "標準規則", "advanced": "進階規則", True: "手機或平板", False: "一臺電腦"}),
])
def test_each_row_still_shows_its_rooms_rules_and_hands(db: RoomStore, lang: str, words: dict[object, str]) -> None:
    rooms = _make(db, 4)
    app = ProjectorApp(lang=lang, store=db, fullscreen=False, teacher=local_teacher(db))
    app.refresh_rooms()
    rows = _rows(app)
    assert set(rows) == {r.code for r in rooms}
    for room in rooms:
        stored = db.room(room.id).setup_dict()
        html = rows[room.code]
        variant, hands = stored["variant"], devices_allowed(stored)
        css = "typhoon-room-devices" if hands else "typhoon-room-one-computer"
        tags = re.findall(r"<span class='typhoon-room-tag ([^']+)'>([^<]*)</span>", html)
        assert tags == [(f"typhoon-room-{variant}", words[variant]), (css, words[hands])], html
        text = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
        assert f"P{rooms.index(room)}" in text
