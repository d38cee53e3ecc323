"""A hand-over link taken by a page whose teacher key was taken away (``typhoon-edu teacher remove`` / ``new-key``)
gives it nothing: before, the page still took the colleague's room, which was then owned by an id no teacher has,
shown to no one. The link stays unused, for the colleague to give again (docs/security.md row 41)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from typhoon_edu.classroom.errors import NotAllowed
from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import add_teacher, remove_teacher, replace_key

PEOPLE = [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea", name="Ken")]


@pytest.fixture
def db(db_url: str) -> Iterator[RoomStore]:
    store = RoomStore(db_url)
    yield store
    store.close()


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_withdrawn_key_takes_no_room_by_its_handover_link(db: RoomStore, how: str) -> None:
    lin, _ = add_teacher(db, "Ms Lin")
    chen, _ = add_teacher(db, "Mr Chen")
    room = Room.create(db, PEOPLE, seed=7, teacher=lin)
    link = room.handover_link()
    if how == "removed":
        remove_teacher(db, chen)
    else:
        replace_key(db, chen)
    with pytest.raises(NotAllowed) as refused:
        Room.take(db, link, teacher=chen)  # the page opened with Mr Chen's old key
    assert refused.value.kind == "teacher_only"
    assert db.room(room.id).owner == lin.id  # still Ms Lin's
    wu, _ = add_teacher(db, "Ms Wu")
    assert Room.take(db, link, teacher=wu).store.room(room.id).owner == wu.id  # the link was left unused
