"""Lesson rounds in the room store: a teacher opens a round, teams send their answers from their own devices,
and the teacher closes it to reveal (lesson 07's class round uses it; nothing here knows a lesson's content).

Two tables of their own, apart from the game tables (``typhoon_rooms``, ``typhoon_actions`` …), created
"if missing" whenever a store is opened for rounds, so adding them needs no schema version of the game
tables (``SCHEMA_VERSION`` of :mod:`.store` is unchanged):

- ``typhoon_lesson_rounds``: one row per round: its code (to type on a device), lesson, owner (the
  teacher's id), its current ``stage`` (for lesson 07 a storm) and whether it still ``accepting`` answers;
  ``version`` changes on every change, so a device polls one row.
- ``typhoon_lesson_entries``: a team's answer to one stage, as JSON text; the ``(round, stage, team)`` key
  keeps one answer per team and stage (sending again replaces it, while the stage is open), with the hash of
  the device that sent it (``device``; a column added "if missing" to a table made before it existed).

A team's name is cleaned as every name is (:func:`~typhoon_edu.classroom.names.clean_name`: no control, bidi,
zero-width or other invisible character reaches the projector, so "Owls\u200b" and "Owls\u3164" are "Owls"), and
a team name belongs to the first device that sent for it in the round. Names are compared by their
:func:`~typhoon_edu.classroom.names.alike` (case, fullwidth forms, Cyrillic or Greek look-alikes and strokes like I, 1, | folded): another
device sending under that name, or under one that looks like it ("owls", "Оwls"), is refused (``NotAllowed``, kind
``team_taken``, ``params["why"]`` ``"same"`` or ``"alike"``, ``params["team"]`` the name as the first device spelled
it), while the team's own device may replace its answer as long as the stage is open, under the first spelling. A
device sends for one team in a round: once it sent as "Owls" it is refused any other name there (kind
``team_taken``, ``why`` ``"device"``, ``team`` its team). Both checks are made in the transaction that writes the
answer, after it claimed the round's row (below), so two sends never both pass them. (A page that cannot say
which device it is, ``device=None``, is not limited to one team: that is a page off the class server, whose pages
always say.)

Every teacher action (:meth:`LessonRounds.open_round`, :meth:`LessonRounds.set_stage`, :meth:`LessonRounds.close`)
names the teacher and is refused (``NotAllowed``, kind ``teacher_only``) unless that teacher owns the round. A page
names its teacher by the :class:`~typhoon_edu.classroom.teachers.Teacher` its key proved: then the action is also
refused, in the same write transaction as its write, once ``typhoon-edu teacher remove`` or ``teacher new-key`` has
taken that key away (:func:`~typhoon_edu.classroom.store.hold_teacher`; the error's ``params["withdrawn"]`` is
True), so a page still open with the old key opens, reveals and moves on nothing. (A plain id string is taken
as given: a label for tests and tools, never what a served page passes.) An answer sent to a
closed stage, or to a stage that is no longer the round's, is refused (kind ``round_closed``); the check and
the write are one transaction that first claims the round's row (an ``UPDATE … WHERE accepting``, which
PostgreSQL locks and checks again against a concurrent reveal), so an answer can never slip in after the
reveal, and sends to one round never interleave.

>>> from typhoon_edu.classroom.store import RoomStore
>>> rounds = LessonRounds(RoomStore("sqlite://"))
>>> r = rounds.open_round("forecast", owner="t1", stage="steady")
>>> rounds.submit(r.code, "steady", "Owls", {"24": [15, 117]}, device="owls-tablet").team
'Owls'
>>> rounds.submit(r.code, "steady", "Owls\u200b", {"24": [0, 0]}, device="bats-phone")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
typhoon_edu.classroom.errors.NotAllowed: another device already sent answers as team 'Owls' in lesson round ...
>>> rounds.submit(r.code, "steady", "\u041ewls", {"24": [0, 0]}, device="bats-phone")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
typhoon_edu.classroom.errors.NotAllowed: team name 'Оwls' looks like team 'Owls', which another device already ...
>>> rounds.submit(r.code, "steady", "Owls II", {"24": [0, 0]}, device="owls-tablet")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
typhoon_edu.classroom.errors.NotAllowed: this device already sent answers as team 'Owls' in lesson round ...
>>> rounds.submit(r.code, "steady", "owls", {"24": [15, 117]}, device="owls-tablet").team
'Owls'
>>> rounds.close(r.code, owner="someone else")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
typhoon_edu.classroom.errors.NotAllowed: only the teacher who opened lesson round ... may do this
>>> rounds.close(r.code, owner="t1").accepting
False
>>> rounds.submit(r.code, "steady", "Bats", {"24": [15, 116]})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
typhoon_edu.classroom.errors.NotAllowed: lesson round ... takes no answers for 'steady' now (its stage is 'steady', closed)
>>> sorted(rounds.entries(r.code, "steady"))
['Owls']
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .codes import new_code, normalize_code
from .errors import NotAllowed, RoomNotFound, StoreError
from .names import alike, clean_name
from .rooms import device_hash
from .store import hold_teacher
from .teachers import Teacher

#: Who a teacher action names: the Teacher a page's key proved (checked against the store in the action's own
#: transaction), or a bare id taken as given.
Owner = Teacher | str | None

#: The rounds' own tables: not in the game tables' metadata, so the game schema's version is not theirs.
round_metadata = sa.MetaData()

LESSON_ROUNDS = sa.Table(
    "typhoon_lesson_rounds", round_metadata,
    sa.Column("code", sa.String(8), primary_key=True),
    sa.Column("lesson", sa.String(32), nullable=False),
    sa.Column("owner", sa.String(32), nullable=False),  # the teacher's id: only they may change the round
    sa.Column("stage", sa.String(64), nullable=False),  # what the teams answer now (lesson 07: a storm's key)
    sa.Column("accepting", sa.Boolean, nullable=False),  # False once the teacher closed the stage (the reveal)
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

LESSON_ENTRIES = sa.Table(
    "typhoon_lesson_entries", round_metadata,
    sa.Column("code", sa.String(8), sa.ForeignKey("typhoon_lesson_rounds.code"), primary_key=True),
    sa.Column("stage", sa.String(64), primary_key=True),
    sa.Column("team", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),  # JSON text, checked by the lesson that reads it
    sa.Column("at", sa.Float, nullable=False),
    # the hash of the device that sent it (rooms.device_hash); NULL: a page that could not say, or a row from before
    sa.Column("device", sa.String(64), nullable=True),
)

MAX_TEAM = 20
MAX_VALUE = 2000  # characters of JSON: an answer is a few numbers, never a document


@dataclass(frozen=True)
class RoundRow:
    """One lesson round."""

    code: str
    lesson: str
    owner: str
    stage: str
    accepting: bool
    version: int


@dataclass(frozen=True)
class EntryRow:
    """One team's answer to one stage (``value`` decoded from JSON)."""

    team: str
    stage: str
    value: Any
    at: float


def team_name(text: str) -> str:
    """A team's name as kept: :func:`~typhoon_edu.classroom.names.clean_name`'s (no control, bidi or zero-width
    character, spaces collapsed), at most :data:`MAX_TEAM` characters; ``ValueError`` if nothing visible is left.

    >>> team_name("  the   Owls "), team_name("颱風隊"), team_name("Owls\u200b"), team_name("\u202eslwO")
    ('the Owls', '颱風隊', 'Owls', 'slwO')
    >>> team_name("\u200b\u202e")
    Traceback (most recent call last):
    ...
    ValueError: a team needs a name of at least one visible character (letters of any script, digits, signs), up to 20
    """
    name = clean_name(text, limit=MAX_TEAM)
    if not name:
        raise ValueError(f"a team needs a name of at least one visible character (letters of any script, digits, signs), "
                         f"up to {MAX_TEAM}")
    return name


def _round(r: Any) -> RoundRow:
    return RoundRow(r.code, r.lesson, r.owner, r.stage, bool(r.accepting), int(r.version))


class LessonRounds:
    """Lesson rounds on a :class:`~typhoon_edu.classroom.store.RoomStore` (its engine, transactions and
    error translation: a database failure is a ``StoreError`` like any of the store's)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        if getattr(store, "read_only", False):
            raise StoreError("the room database is read-only, so no lesson round can be kept in it", kind="read_only",
                             what="open a lesson round")
        with store.transaction("create the lesson rounds' tables", write=True) as conn:
            round_metadata.create_all(conn, checkfirst=True)
        self._add_device_column()

    def _add_device_column(self) -> None:
        """Add ``device`` to an entries table made before it existed (a kernel that finds it added already by
        another one, racing it, goes on)."""
        def missing() -> bool:
            with self.store.transaction("read the lesson rounds' tables") as conn:
                names = {c["name"] for c in sa.inspect(conn).get_columns(LESSON_ENTRIES.name)}
            return "device" not in names

        if not missing():
            return
        try:
            with self.store.transaction("add the device column to the lesson answers", write=True) as conn:
                conn.execute(sa.text(f"ALTER TABLE {LESSON_ENTRIES.name} ADD COLUMN device VARCHAR(64)"))
        except StoreError:
            if missing():  # not another kernel's doing: a real failure
                raise

    def _row(self, conn: sa.engine.Connection, code: str) -> RoundRow:
        r = conn.execute(sa.select(LESSON_ROUNDS).where(LESSON_ROUNDS.c.code == code)).first()
        if r is None:
            raise RoomNotFound(f"there is no lesson round {code!r}", kind="round_unknown", code=code)
        return _round(r)

    @staticmethod
    def _hold(conn: sa.engine.Connection, owner: Owner, what: str) -> str | None:
        """The id ``owner`` names; a Teacher must still be one of this store's (checked, and on PostgreSQL held,
        in ``conn``'s write transaction: :func:`~typhoon_edu.classroom.store.hold_teacher`)."""
        if isinstance(owner, Teacher):
            hold_teacher(conn, owner.id, what)
            return owner.id
        return owner or None

    def open_round(self, lesson: str, *, owner: Owner, stage: str) -> RoundRow:
        """A new round of ``lesson`` owned by teacher ``owner``, taking answers for ``stage``.

        ``owner``: the Teacher the page's key proved (NotAllowed ``teacher_only``, and no round, once that key was
        removed or replaced: checked in the transaction that inserts the round), or a bare id.

        >>> from typhoon_edu.classroom.store import RoomStore
        >>> from typhoon_edu.classroom.teachers import add_teacher, remove_teacher
        >>> store = RoomStore("sqlite://")
        >>> lin, _ = add_teacher(store, "Ms Lin")
        >>> rounds = LessonRounds(store)
        >>> rounds.open_round("forecast", owner=lin, stage="steady").owner == lin.id
        True
        >>> _ = remove_teacher(store, lin)
        >>> rounds.open_round("forecast", owner=lin, stage="steady")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        typhoon_edu.classroom.errors.NotAllowed: only a teacher may open a lesson round: teacher ... is no longer ...
        """
        if not (owner.id if isinstance(owner, Teacher) else owner):
            raise NotAllowed("only a teacher may open a lesson round", kind="teacher_only")
        now = time.time()
        for _ in range(20):  # a clash of codes is rare; try another
            code = new_code()
            with self.store.transaction("open a lesson round", write=True) as conn:
                who = self._hold(conn, owner, "open a lesson round")  # first, in the transaction that inserts
                if conn.execute(sa.select(LESSON_ROUNDS.c.code).where(LESSON_ROUNDS.c.code == code)).first():
                    continue
                conn.execute(sa.insert(LESSON_ROUNDS).values(code=code, lesson=lesson, owner=who, stage=stage,
                                                             accepting=True, version=1, created=now, updated=now))
                return self._row(conn, code)
        raise StoreError("no free code for a lesson round", kind="io", what="open a lesson round")  # pragma: no cover

    def round(self, code: str) -> RoundRow:
        """The round with ``code`` (typed loosely: lower case, spaces); ``RoomNotFound`` if there is none."""
        code = normalize_code(code)
        with self.store.transaction("read the lesson round", single=True) as conn:
            return self._row(conn, code)

    def _teacher_change(self, code: str, owner: Owner, what: str, **values: Any) -> RoundRow:
        code = normalize_code(code)
        with self.store.transaction(what, write=True) as conn:
            # the teacher first (their row held on PostgreSQL, as a removal locks it before it moves their rounds),
            # then the round, whose owner the write checks again: a removal or new key that moved it meanwhile
            # leaves nothing for the UPDATE to match
            who = self._hold(conn, owner, "change a lesson round")
            row = self._row(conn, code)
            if not who or who != row.owner:
                raise NotAllowed(f"only the teacher who opened lesson round {code} may do this", kind="teacher_only")
            done = conn.execute(sa.update(LESSON_ROUNDS).where((LESSON_ROUNDS.c.code == code)
                                                               & (LESSON_ROUNDS.c.owner == who))
                                .values(version=LESSON_ROUNDS.c.version + 1, updated=time.time(), **values)).rowcount
            if done != 1:
                raise NotAllowed(f"only the teacher who opened lesson round {code} may do this", kind="teacher_only")
            return self._row(conn, code)

    def close(self, code: str, *, owner: Owner) -> RoundRow:
        """Stop taking answers for the current stage (the reveal); only the round's teacher may (a Teacher whose key
        was since removed or replaced may not: see :meth:`open_round`)."""
        return self._teacher_change(code, owner, "close the lesson round's stage", accepting=False)

    def set_stage(self, code: str, stage: str, *, owner: Owner) -> RoundRow:
        """Move the round on to ``stage`` and take answers for it; only the round's teacher may (as :meth:`close`)."""
        return self._teacher_change(code, owner, "move the lesson round on", stage=stage, accepting=True)

    def submit(self, code: str, stage: str, team: str, value: Any, *, device: str | None = None) -> EntryRow:
        """Keep ``team``'s answer to ``stage`` (replacing its earlier one) while that stage takes answers.

        ``device``: the id of the device that sends (the class server's, from the page's query). A team name
        belongs to the first device that sent for it in this round: another device (or a page without a device)
        sending under it, or under a name that looks alike (:func:`~typhoon_edu.classroom.names.alike`), is refused
        (``NotAllowed``, kind ``team_taken``) and nothing changes; so is a device that already sent for another team
        in this round (``why`` ``"device"``). The answer is kept under the team's first spelling (the returned
        ``team``).
        """
        code, team = normalize_code(code), team_name(team)
        mine = device_hash(device)
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        if len(text) > MAX_VALUE:
            raise ValueError(f"an answer is at most {MAX_VALUE} characters of JSON, not {len(text)}")
        now = time.time()
        with self.store.transaction("keep the team's answer", write=True) as conn:
            # First claim the round's row with an UPDATE that matches only while this stage takes answers. A plain
            # read is not enough under PostgreSQL's READ COMMITTED: a send that read "accepting" just before the
            # teacher's reveal committed would still write after it. The UPDATE locks the row until this
            # transaction ends: a reveal that comes later waits for this answer, and one that came first leaves
            # nothing for the UPDATE to match (PostgreSQL checks the WHERE again on the row the reveal wrote).
            # Every send to the round queues on that lock too, so two sends under one team name never both find
            # no entry and insert (no unique-key error), nor both pass the device check. SQLite's BEGIN IMMEDIATE
            # (write=True) already runs one writer at a time.
            claimed = conn.execute(
                sa.update(LESSON_ROUNDS)
                .where((LESSON_ROUNDS.c.code == code) & (LESSON_ROUNDS.c.stage == stage)
                       & (LESSON_ROUNDS.c.accepting == sa.true()))
                .values(version=LESSON_ROUNDS.c.version + 1, updated=now)).rowcount
            if claimed != 1:
                row = self._row(conn, code)  # RoomNotFound when there is no such round
                raise NotAllowed(f"lesson round {code} takes no answers for {stage!r} now (its stage is {row.stage!r}, "
                                 f"{'open' if row.accepting else 'closed'})", kind="round_closed")
            team = self._check_team(conn, code, team, mine)  # in this transaction, after the claim: sends queue
            key = (LESSON_ENTRIES.c.code == code) & (LESSON_ENTRIES.c.stage == stage) & (LESSON_ENTRIES.c.team == team)
            if conn.execute(sa.update(LESSON_ENTRIES).where(key).values(value=text, at=now)).rowcount == 0:
                conn.execute(sa.insert(LESSON_ENTRIES).values(code=code, stage=stage, team=team, value=text, at=now,
                                                              device=mine))
        return EntryRow(team, stage, json.loads(text), now)

    @staticmethod
    def _check_team(conn: sa.engine.Connection, code: str, team: str, mine: str | None) -> str:
        """The name ``team`` is kept under in round ``code`` when device ``mine`` sends for it: the first spelling of
        a name that looks alike (:func:`~typhoon_edu.classroom.names.alike`), or ``team`` for a new one. Refused
        (``team_taken``) when ``mine`` already sent for another team in the round (``why="device"``), or when the
        first device that sent under that key (any stage) is another (``why="same"``, or ``"alike"`` for a
        look-alike spelling)."""
        rows = conn.execute(
            sa.select(LESSON_ENTRIES.c.team, LESSON_ENTRIES.c.device, sa.func.min(LESSON_ENTRIES.c.at).label("first"))
            .where(LESSON_ENTRIES.c.code == code)
            .group_by(LESSON_ENTRIES.c.team, LESSON_ENTRIES.c.device)
            .order_by(sa.func.min(LESSON_ENTRIES.c.at), LESSON_ENTRIES.c.team)).all()
        if mine is not None:  # one team per device: the first it sent for
            own = next((r.team for r in rows if r.device == mine), None)
            if own is not None and not alike(own, team):
                raise NotAllowed(f"this device already sent answers as team {own!r} in lesson round {code}; a device "
                                 f"sends for one team only: send as {own!r}, not {team!r}", kind="team_taken",
                                 team=own, asked=team, why="device", code=code)
        first = next((r for r in rows if alike(r.team, team)), None)
        if first is None:
            return team
        if first.device != mine:  # another device's (or, without a device, any device's) team
            if first.team == team:
                raise NotAllowed(f"another device already sent answers as team {team!r} in lesson round {code}; only "
                                 f"that device may send for it: choose another team name", kind="team_taken",
                                 team=team, asked=team, why="same", code=code)
            raise NotAllowed(f"team name {team!r} looks like team {first.team!r}, which another device already sent "
                             f"answers as in lesson round {code}; choose a name that looks different",
                             kind="team_taken", team=first.team, asked=team, why="alike", code=code)
        return str(first.team)

    def check_team(self, code: str, team: str, *, device: str | None = None) -> str:
        """``team``'s name as kept (the first spelling of a name with its key), when ``device`` may send for it in round
        ``code`` (a team's page asks on joining, to say so at once); ``NotAllowed`` (``team_taken``) when another
        device sent under it or a look-alike, or ``device`` sent for another team. :meth:`submit` checks again in its
        own transaction."""
        code, team = normalize_code(code), team_name(team)
        with self.store.transaction("read the teams of the lesson round", snapshot=True) as conn:
            self._row(conn, code)
            return self._check_team(conn, code, team, device_hash(device))

    def entries(self, code: str, stage: str) -> dict[str, EntryRow]:
        """Every team's answer to ``stage``, in the order they were sent."""
        code = normalize_code(code)
        with self.store.transaction("read the teams' answers", snapshot=True) as conn:
            self._row(conn, code)
            rows = conn.execute(sa.select(LESSON_ENTRIES).where((LESSON_ENTRIES.c.code == code)
                                                                & (LESSON_ENTRIES.c.stage == stage))
                                .order_by(LESSON_ENTRIES.c.at, LESSON_ENTRIES.c.team)).all()
        out: dict[str, EntryRow] = {}
        for r in rows:
            try:
                value = json.loads(r.value)
            except ValueError:  # a damaged row is left out, never a crash of the teacher's screen
                continue
            out[r.team] = EntryRow(r.team, r.stage, value, float(r.at))
        return out


__all__ = ["LESSON_ENTRIES", "LESSON_ROUNDS", "EntryRow", "LessonRounds", "Owner", "RoundRow", "round_metadata",
           "team_name"]
