"""Class play when the room store fails under the teacher: what is said, and what is kept.

The store fails for real here: another program holds the SQLite file's write lock (as a backup tool or a second
server might), so every write waits the store's busy timeout and fails as ``locked``, the way it would in a class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html import escape, unescape
from pathlib import Path

import pytest

from typhoon_edu import i18n
from typhoon_edu.classroom.errors import StoreError, error_text
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.engine.game import CHANCE
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice

REPO = Path(__file__).resolve().parents[1]


@contextmanager
def held(url: str) -> Iterator[None]:
    """Another writer holds the database: every write of the class's store fails as ``locked`` meanwhile."""
    other = RoomStore(url)
    try:
        with other._engine.connect() as conn:
            conn.execution_options(typhoon_write=True)
            conn.begin()  # BEGIN IMMEDIATE
            try:
                yield
            finally:
                conn.rollback()
    finally:
        other.close()


def _projector(tmp_path: Path, lang: str) -> tuple[ProjectorApp, str]:
    """One computer, three computer players and the class's own die: the game waits for the teacher to type a roll."""
    url = sqlite_url(tmp_path / "rooms.sqlite3")
    projector = ProjectorApp(lang=lang, store=RoomStore(url, busy_timeout=0.2), fullscreen=False)
    projector.start(SetupChoices([SeatChoice("easy", "", "Taiwan"), SeatChoice("easy", "", "Japan"),
                                  SeatChoice("easy", "", "Korea")], regions="chosen", seed=11, speed=0,
                                 dice="manual", devices=False))
    assert projector.screen == "game"
    projector.advance()
    return projector, url


def _shown(projector: ProjectorApp) -> str:
    return unescape(projector.message.value + projector.problems.widget.value)


# ---------------------------------------------------------------------- the typed die
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_typed_die_face_stays_in_the_box_until_the_store_has_written_it(tmp_path: Path, lang: str) -> None:
    projector, url = _projector(tmp_path, lang)
    room = projector.room
    assert room.game.current_player == CHANCE and projector.die_entry.layout.display != "none"
    seq = room.seq
    entry = projector.die_entry
    with held(url):
        entry.box.value = "4"  # typed, and Enter pressed
        assert room.seq == seq  # nothing was written ...
        assert entry.box.value == "4"  # ... and the face is still there to send again
        assert i18n.t("classroom.unsaved.die", lang) in _shown(projector)
        kept = i18n.t("classplay.die.kept", lang, face=4, button=i18n.t("die.enter", lang))
        assert escape(kept) in entry.message.value
        projector.redraw(exact=True)  # the page redrawn (a poll) while the same die is awaited keeps it
        assert entry.box.value == "4"
    entry.button.click()  # the store works again: the same face is sent with the button, not typed again
    assert room.seq == seq + 1 and [a.face for a in room.game.history if a.kind == "die"][-1:] == [4]
    assert entry.box.value == "" and entry.message.value == ""


def test_a_kept_face_is_dropped_once_another_die_is_awaited(tmp_path: Path) -> None:
    """Someone else entered the roll (another projector of the room): the kept face was for that roll, not the next."""
    from typhoon_edu.classroom.rooms import Room
    from typhoon_edu.engine.actions import Action

    projector, url = _projector(tmp_path, "en")
    room = projector.room
    with held(url):
        projector.die_entry.box.value = "4"
    assert projector.die_entry.box.value == "4"
    other = Room.open(projector.store, room.code, teacher=room.teacher)
    other.act(Action("die", face=2), expected_seq=room.next_seq, teacher=True)
    projector.advance()  # the next poll: the game went on, to another die or a decision
    assert projector.die_entry.box.value == "" and projector.die_entry.message.value == ""


# ---------------------------------------------------------------------- naming what was not saved
def _pause(p: ProjectorApp) -> None:
    p.drawer.pause_button.click()


def _resume(p: ProjectorApp) -> None:
    p.drawer.pause_button.click()


def _end(p: ProjectorApp) -> None:
    p.drawer.end_button.click()  # asks first
    p.drawer.end_yes.click()


def _hints(p: ProjectorApp) -> None:
    p.drawer.hints.value = not p.drawer.hints.value


def _timer(p: ProjectorApp) -> None:
    p.timer_menu.value = next(v for _, v in p.timer_menu.options if v != p.timer_menu.value)


ACTIONS: dict[str, tuple[Callable[[ProjectorApp], None], str]] = {
    "pause": (_pause, "pause"),
    "resume": (_resume, "resume"),
    "end": (_end, "end"),
    "hints": (_hints, "hints"),
    "timer": (_timer, "timer"),
}


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_teacher_action_the_store_fails_says_that_action_was_not_saved(tmp_path: Path, lang: str,
                                                                         action: str) -> None:
    projector, url = _projector(tmp_path, lang)
    room = projector.room
    projector.drawer.open()
    if action == "resume":
        _pause(projector)
        assert room.paused
    do, unsaved = ACTIONS[action]
    before = projector.store.head(room.id).version
    with held(url):
        do(projector)
    assert projector.store.head(room.id).version == before  # nothing was written
    shown = _shown(projector)
    assert "move was not saved" not in shown and "這一步沒有存下來" not in shown, shown  # it was no move
    assert i18n.t(f"classroom.unsaved.{unsaved}", lang) in shown, shown


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("kind", ["read_only", "locked", "disk_full"])
def test_each_store_failure_names_what_was_not_saved(lang: str, kind: str) -> None:
    said: dict[str, str] = {}
    for what in ("save the move", "save the die roll", "pause the game", "resume the game", "end the game",
                 "change the hints", "check that it can be written"):
        said[what] = error_text(StoreError("x", kind=kind, what=what), lang)
        assert "{" not in said[what], said[what]
    assert i18n.t("classroom.unsaved.move", lang) in said["save the move"]
    assert i18n.t("classroom.unsaved.die", lang) in said["save the die roll"]
    assert i18n.t("classroom.unsaved.pause", lang) in said["pause the game"]
    assert i18n.t("classroom.unsaved.resume", lang) in said["resume the game"]
    assert i18n.t("classroom.unsaved.end", lang) in said["end the game"]
    assert i18n.t("classroom.unsaved.hints", lang) in said["change the hints"]
    assert i18n.t("classroom.unsaved.nothing", lang) in said["check that it can be written"]
    assert len(set(said.values())) == len(said)  # each says its own thing
    bare = error_text(StoreError("x", kind=kind), lang)  # a failure without a what (opening the store)
    assert i18n.t("classroom.unsaved.nothing", lang) in bare and "{" not in bare


def test_every_write_of_the_store_is_named_or_says_nothing_was_saved() -> None:
    """Every write transaction's ``what`` that a person can cause in class has its sentence; the others (schema,
    teachers, imports) say "Nothing was saved"."""
    import re

    from typhoon_edu.classroom.errors import UNSAVED

    source = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "typhoon_edu" / "classroom").glob("*.py"))
    writes = set(re.findall(r'(?:_tx|transaction)\("([^"]+)"(?: if [^)]*)?, write=True', source))
    writes |= set(re.findall(r'else "([^"]+)", write=True', source))
    writes |= set(re.findall(r'"(save the [a-z ]+)"', source))
    writes |= set(re.findall(r'_teacher_change\(code, owner, "([^"]+)"', source))
    machinery = {"create its tables", "bring its tables up to date", "check that it can be written", "add the teacher",
                 "change the teacher's key", "note the damaged file", "create the lesson rounds' tables",
                 "add the device column to the lesson answers",
                 "remove the teacher", "give the teacher a new key"}  # the teacher command's, not class play's
    assert writes - machinery <= set(UNSAVED), (writes - machinery) - set(UNSAVED)
    assert {"save the move", "pause the game", "resume the game", "end the game", "change the hints"} <= writes
    for key in set(UNSAVED.values()) | {"nothing"}:
        for lang in i18n.LANGS:
            assert i18n.has(f"classroom.unsaved.{key}", lang), (key, lang)

