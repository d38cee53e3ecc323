"""``typhoon-edu teacher``: a school server's colleagues get keys of their own, printed once."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import teacher_for_key, teachers
from typhoon_edu.cli import main


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


def test_add_prints_a_key_that_proves_the_teacher_and_is_stored_only_hashed(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/rooms.db"
    code, text = run(["teacher", "add", "Ms Lin", "--db", db])
    assert code == 0
    key = re.search(r"key (\S+)", text).group(1)  # type: ignore[union-attr]
    assert len(key) >= 32 and f"/?teacher={key}" in text
    store = RoomStore(db)
    found = teacher_for_key(store, key)
    assert found is not None and found.name == "Ms Lin" and not found.is_local
    assert teacher_for_key(store, key[:-1] + ("A" if key[-1] != "A" else "B")) is None
    store.close()
    assert key.encode() not in (tmp_path / "rooms.db").read_bytes()


def test_list_names_every_teacher_in_the_asked_language(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/rooms.db"
    RoomStore(db).close()  # a store serve made, without teachers yet (list itself makes no store)
    assert run(["teacher", "list", "--db", db, "--lang", "zh-TW"])[1].startswith("還沒有老師")
    run(["teacher", "add", "Ms Lin", "--db", db])
    run(["teacher", "add", "Mr\u202e Chen", "--db", db])  # a bidi override never reaches a name
    code, text = run(["teacher", "list", "--db", db])
    assert code == 0
    assert [line.split("  (")[0] for line in text.splitlines()] == ["Ms Lin", "Mr Chen"]
    assert [t.name for t in teachers(RoomStore(db))] == ["Ms Lin", "Mr Chen"]


@pytest.mark.parametrize(("lang", "words"), [("en", "visible text"), ("zh-TW", "看得見的文字")])
def test_a_blank_name_is_refused_in_the_persons_language_and_nothing_is_added(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, words: str) -> None:
    db = f"sqlite:///{tmp_path}/rooms.db"
    code, text = run(["teacher", "add", " \u200f ", "--db", db, "--lang", lang])
    assert code == 2 and text == ""
    assert words in capsys.readouterr().err
    assert teachers(RoomStore(db)) == []


def test_an_in_memory_store_is_refused_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["teacher", "list", "--db", "sqlite://"])[0] == 2
    assert "in-memory" in capsys.readouterr().err
