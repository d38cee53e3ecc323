"""Class rooms: a durable room store and the room logic every Voilà kernel shares (no widgets).

**The pieces**

- :class:`RoomStore` (``store.py``): rooms, seats and an append-only action log on SQLAlchemy
  Core; SQLite by default (``TYPHOON_EDU_DB`` or a URL overrides it), PostgreSQL by URL
  (``postgresql+psycopg://user:pw@host/db``). The store is the authority on *order*.
- :class:`Room` (``rooms.py``): one kernel's live replay of one room. The engine is the
  authority on *legality*; a room appends a decision only if it is legal, belongs to the
  caller, and nobody moved first.
- ``records.py``: JSON records out (:meth:`Room.record_json`) and in (:func:`import_record`),
  and :func:`import_saves`, the one-time import of the dashboard's save folder.
- ``errors.py``: every failure is a :class:`ClassroomError` with a ``kind``;
  :func:`error_text` says it in the person's language.

**A projector (teacher) kernel** creates or opens a room, shows the join links, runs the bots and
polls (every ~0.2 s; one indexed row read when nothing changed):

>>> store = RoomStore("sqlite://")          # the default is RoomStore(): a file in the user data folder
>>> me = local_teacher(store)              # in a served page: teacher_for_key(store, <the page's key>)
>>> room = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea", "random")],
...                    seed=3, lang="en", teacher=me)
>>> len(room.code), sorted(room.issued_tokens)     # show each token as a join link / QR code
(5, ['Taiwan'])
>>> room.waiting_for, room.seat("Taiwan").is_person
('Taiwan', True)

**A seat's device** opens the room by its token (or :meth:`Room.join` by code and a free seat)
and only ever sees its own seat, built from ``observation(region)`` and
``visible_events(region)``:

>>> phone = Room.open_seat(store, room.issued_tokens["Taiwan"])
>>> view = phone.seat_view()
>>> view.my_turn, view.legal_actions[0].notation, len(view.hand), sorted(view.observation["hand_sizes"])
(True, 'place 8,8', 3, ['Japan', 'Korea', 'Taiwan'])
>>> update = phone.act("place 8,8", expected_seq=view.seq + 1)
>>> update.seq, [e.kind for e in update.events][:1]
(1, ['TyphoonPlaced'])

A writer that is behind is told, and nothing is written twice:

>>> stale = Room.open(store, room.code, teacher=me)        # e.g. a second projector tab
>>> _ = phone.act(phone.seat_view().legal_actions[0])
>>> try:
...     stale.act(stale.seat_view("Taiwan").legal_actions[0], teacher=True)
... except StaleWrite as exc:
...     print(exc.kind, exc.current_seq, "|", error_text(exc, "en"))
stale 2 | Someone else moved first. The board now shows their move; decide again.
>>> [e.notation for e in stale.sync().entries]   # it has caught up; the view redraws from these
['place 11,7']

**Teacher controls** (a room opened with the key of the teacher who owns it, see ``teachers.py``;
every one is checked in the room, whatever the page shows): ``pause()``, ``resume()``,
``set_seat(region, kind)`` (a bot level, or back to a person with a new link),
``revoke(region)`` (the device stops at once), ``reissue_token(region)`` (*New join link*),
``reset_device(region)``, ``join_links()`` (the links as they are: opening a room never re-issues
one), ``handover_link()``, ``end()``, ``undo()``, ``correct_die(face)``, ``set_hints(on)``.
A seat link is bound to the first device that opens it (``Room.open_seat(store, token, device)``).

>>> _ = room.revoke("Taiwan")
>>> try:
...     phone.sync()
... except TokenRejected as exc:
...     print(exc.kind)
token_revoked

**Polling and threads**: call a room from the kernel's event loop only. ``room.sync()`` every
~0.2 s (``room.changed()`` is the bare one-row check); a hard bot thinks for seconds, so the
projector takes ``job = room.prepare_bot()`` in the loop, runs ``job.think()`` in a worker
thread (it works on a copy) and gives the result to ``room.apply_bot(job, action)`` in the loop.
``expected_seq`` is ``room.next_seq`` as it was when the view was drawn (``view.seq + 1``).
Undo is an ``undo`` entry in the log (see :mod:`typhoon_edu.classroom.log`): views get
``Update.rebuilt`` and redraw from the state.

**Lists and records**: :func:`list_rooms` never raises for a broken room (``ok=False`` with a
``kind`` and the reason), :func:`import_saves` imports the old JSON saves once, and
``room.summary()``, ``room.hp_track``, ``room.events_csv()`` feed the results screen.

>>> while room.sync() or room.bot_to_move():
...     _ = room.step_bot()
>>> [(info.code == room.code, info.ok, info.seq == room.seq) for info in list_rooms(store, teacher=me)]
[(True, True, True)]
"""

from __future__ import annotations

from .codes import ALPHABET, new_code, new_token, normalize_code, token_hash
from .errors import (
    ClassroomError,
    NotAllowed,
    RoomBroken,
    RoomNotFound,
    SeatError,
    StaleWrite,
    StoreError,
    TokenRejected,
    error_text,
)
from .records import (
    ImportProblem,
    ImportReport,
    import_problems,
    import_record,
    import_saves,
    read_record_text,
    read_save,
    record_json,
    record_of,
)
from .rooms import (
    DICE,
    TEACHER,
    TIMER,
    BotJob,
    Lobby,
    LogEntry,
    PublicView,
    Room,
    RoomInfo,
    Seat,
    SeatInfo,
    SeatView,
    Update,
    list_rooms,
    lobby,
)
from .store import ENDED, FINISHED, OPEN, SEAT_KINDS, Head, RoomStore, default_db_path, default_url, sqlite_url
from .teachers import Teacher, add_teacher, ensure_local_teacher, local_teacher, teacher_for_key

__all__ = [
    "ALPHABET", "DICE", "ENDED", "FINISHED", "OPEN", "SEAT_KINDS", "TEACHER", "TIMER",
    "BotJob", "ClassroomError", "Head", "ImportProblem", "ImportReport", "Lobby", "LogEntry", "NotAllowed",
    "PublicView", "Room", "RoomBroken", "RoomInfo", "RoomNotFound", "RoomStore", "Seat", "SeatError", "SeatInfo",
    "SeatView", "StaleWrite", "StoreError", "Teacher", "TokenRejected", "Update", "add_teacher", "ensure_local_teacher",
    "local_teacher", "teacher_for_key",
    "default_db_path", "default_url", "error_text", "import_problems", "import_record", "import_saves", "list_rooms",
    "lobby", "new_code", "new_token", "normalize_code", "read_record_text", "read_save", "record_json", "record_of",
    "sqlite_url", "token_hash",
]
