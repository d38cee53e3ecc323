"""``typhoon-edu teacher``: output that cannot be written is not the room store's failure.

The commands wrote their lines inside the store's ``try``, so ``teacher new-key ID | head -0`` said "The room store
… cannot be written: Broken pipe" (exit 2) after the key had in fact been replaced, and the new key was never shown.
Now the store's work is done first; a new key that could not be shown says so, with the command that replaces it;
``list`` and ``remove`` stop quietly, as other commands do when their reader leaves.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import teachers
from typhoon_edu.cli import main


class GoneReader(io.StringIO):
    """Standard output whose reader has left (``| head -0``)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def _db(tmp_path: Path) -> str:
    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    assert main(["teacher", "add", "Ms Lin", "--db", db], out=io.StringIO()) == 0
    return db


def _ids(db: str) -> list[str]:
    store = RoomStore(db)
    try:
        return [teacher.id for teacher in teachers(store) if not teacher.is_local]
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_new_key_that_could_not_be_shown_says_so_and_how_to_replace_it(tmp_path: Path, capsys, lang: str) -> None:
    db = _db(tmp_path)
    old = _ids(db)
    code = main(["teacher", "new-key", old[0], "--db", db, "--lang", lang], out=GoneReader())
    err = capsys.readouterr().err
    new = _ids(db)
    assert new != old and len(new) == 1  # the key was replaced in the store
    assert code == 2
    assert f"typhoon-edu teacher new-key {new[0]}" in err, err
    assert ("cannot be written" not in err) and ("無法寫入房間資料庫" not in err), err


def test_add_whose_key_could_not_be_shown_names_the_new_teacher(tmp_path: Path, capsys) -> None:
    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    code = main(["teacher", "add", "Mr Wu", "--db", db], out=GoneReader())
    err = capsys.readouterr().err
    assert code == 2 and f"new-key {_ids(db)[0]}" in err and "room store" not in err, err


@pytest.mark.parametrize("command", ["list", "remove"])
def test_list_and_remove_stop_quietly_when_the_reader_left(tmp_path: Path, capsys, command: str) -> None:
    db = _db(tmp_path)
    argv = ["teacher", command, "--db", db] + ([_ids(db)[0]] if command == "remove" else [])
    code = main(argv, out=GoneReader())
    err = capsys.readouterr().err
    assert code == 141 and err == "", err
    assert (_ids(db) == []) == (command == "remove")
