"""A room store that cannot be used, told by ``serve`` and ``teacher``: which store, why (in the reader's
language, the operating system's English reason only as a fallback) and what to do; no traceback,
nothing made."""

from __future__ import annotations

import errno
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.cli import main
from typhoon_edu.fileio import FileTooLarge, NotARegularFile, os_reason
from typhoon_edu.server.serve import find_free_port

REPO_ROOT = Path(__file__).resolve().parent.parent
SMOKE_NOTEBOOK = REPO_ROOT / "notebooks" / "smoke" / "one_button.ipynb"

#: the operating system's and SQLite's English reasons, none of which may reach a Chinese message
OS_ENGLISH = ("No such file", "Permission denied", "Operation not permitted", "Is a directory", "Not a directory",
              "Read-only file system", "No space left", "File exists", "unable to open", "not a database")


def english_words(text: str, *allowed: str) -> list[str]:
    """Runs of three or more Latin letters in ``text`` once the ``allowed`` parts (paths, option names) are out."""
    for part in sorted(allowed, key=len, reverse=True):
        text = text.replace(part, "")
    return re.findall(r"[A-Za-z]{3,}", text)


def _immutable(path: Path, on: bool) -> None:
    """Make ``path`` unwritable even for root (file modes do not stop root); skip where chattr cannot."""
    done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True, check=False)
    if done.returncode != 0 and on:
        pytest.skip(f"chattr +i is not possible here: {done.stderr.decode().strip()}")


#: case -> (English words of the reason, Chinese words of the reason, English advice, Chinese advice)
REASONS = {
    "folder": ("is a folder, not a file", "是資料夾，不是檔案", "Check the path", "請檢查路徑"),
    "file in the path": ("part of the path is a file", "路徑中有一段是檔案", "Check the path", "請檢查路徑"),
    "locked folder": ("not allowed", "沒有權限", "may write the file and its folder", "可以寫入這個檔案和它的資料夾"),
    "not a store": ("not a room store", "不是房間資料庫", "give another store with --db", "用 --db 指定另一個資料庫"),
}


def _bad_store(tmp_path: Path, case: str) -> tuple[Path, Path | None]:
    """A store path that cannot be used, and a folder to make immutable for the test (or None)."""
    if case == "folder":
        (tmp_path / "rooms.db").mkdir()
        return tmp_path / "rooms.db", None
    if case == "file in the path":
        (tmp_path / "notes.txt").write_text("a teacher's notes\n")
        return tmp_path / "notes.txt" / "rooms.db", None
    if case == "locked folder":  # a store made earlier, in a folder this user may no longer write
        (tmp_path / "locked").mkdir()
        RoomStore(f"sqlite:///{tmp_path / 'locked' / 'rooms.db'}").close()
        return tmp_path / "locked" / "rooms.db", tmp_path / "locked"
    (tmp_path / "notes.db").write_text("a teacher's notes, not a database\n" * 40)
    return tmp_path / "notes.db", None


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def _run_bad_store(argv: list[str], tmp_path: Path, case: str, lang: str,
                   capsys: pytest.CaptureFixture[str]) -> tuple[int, str, Path]:
    store, locked = _bad_store(tmp_path, case)
    before = _snapshot(tmp_path)
    if locked is not None:
        _immutable(locked, True)
    try:
        code = main([*argv, "--db", str(store), "--lang", lang])
    finally:
        if locked is not None:
            _immutable(locked, False)
    assert _snapshot(tmp_path) == before  # nothing made, nothing changed
    return code, capsys.readouterr().err, store


def _check_message(err: str, store: Path, case: str, lang: str) -> None:
    en_reason, zh_reason, en_advice, zh_advice = REASONS[case]
    assert "Traceback" not in err
    assert str(store) in err, err  # which store
    if lang == "en":
        assert en_reason in err and en_advice in err, err
    else:
        assert zh_reason in err and zh_advice in err, err
        assert not any(words in err for words in OS_ENGLISH), err
        assert english_words(err, f"sqlite:///{store}", "typhoon-edu", "--db", "SQLite") == [], err


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("case", list(REASONS))
def test_serve_says_which_store_why_and_what_to_do_in_the_readers_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: str,
        lang: str) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path.parent / f"{tmp_path.name}-config"))
    code, err, store = _run_bad_store(["serve", "--no-browser", "--notebook", str(SMOKE_NOTEBOOK)], tmp_path, case,
                                      lang, capsys)
    assert code == 1
    _check_message(err, store, case, lang)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("command", [["teacher", "list"], ["teacher", "add", "Ms Lin"]])
@pytest.mark.parametrize("case", list(REASONS))
def test_teacher_says_which_store_why_and_what_to_do_exit_code_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, command: list[str], lang: str) -> None:
    code, err, store = _run_bad_store(command, tmp_path, case, lang, capsys)
    assert code == 2
    _check_message(err, store, case, lang)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("did not answer or refused the connection", "Check that the database server is running")),
    ("zh-TW", ("資料庫伺服器沒有回應", "請確認資料庫伺服器")),
])
def test_teacher_list_with_a_database_server_that_does_not_answer(capsys: pytest.CaptureFixture[str], lang: str,
                                                                  words: tuple[str, str]) -> None:
    url = f"postgresql+psycopg://nobody@127.0.0.1:{find_free_port()}/typhoon"
    assert main(["teacher", "list", "--db", f"{url}?connect_timeout=3", "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert url in err and all(w in err for w in words) and "Traceback" not in err, err


@pytest.mark.parametrize(("lang", "words"), [("en", "There is no room store at"), ("zh-TW", "沒有房間資料庫")])
def test_teacher_list_of_a_mistyped_store_says_so_and_makes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                    lang: str, words: str) -> None:
    store = tmp_path / "typo" / "rooms.db"
    assert main(["teacher", "list", "--db", str(store), "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert words in err and str(store) in err, err
    assert list(tmp_path.iterdir()) == []  # neither the folder nor an empty store was made


def test_teacher_with_an_empty_db_is_refused_not_the_default_store(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["teacher", "list", "--db", ""]) == 2
    assert "not an empty value" in capsys.readouterr().err
    assert main(["teacher", "add", "Ms Lin", "--db", " ", "--lang", "zh-TW"]) == 2
    assert "不能是空的" in capsys.readouterr().err


@pytest.mark.parametrize(("exc", "en", "zh"), [
    (FileNotFoundError(errno.ENOENT, "No such file or directory"), "there is no such file or folder", "沒有這個檔案或資料夾"),
    (PermissionError(errno.EACCES, "Permission denied"), "not allowed", "沒有權限"),
    (PermissionError(errno.EPERM, "Operation not permitted"), "not allowed", "沒有權限"),
    (OSError(errno.EROFS, "Read-only file system"), "read-only", "唯讀"),
    (OSError(errno.ENOSPC, "No space left on device"), "the disk is full", "磁碟已滿"),
    (IsADirectoryError(errno.EISDIR, "Is a directory"), "is a folder, not a file", "是資料夾，不是檔案"),
    (NotADirectoryError(errno.ENOTDIR, "Not a directory"), "part of the path is a file", "路徑中有一段是檔案"),
    (lambda: NotARegularFile("x is a folder, not a file", kind="folder"), "is a folder, not a file", "是資料夾，不是檔案"),
    (lambda: NotARegularFile("zero is not a regular file", kind="special"), "not a regular file", "不是一般的檔案"),
    (FileTooLarge("big.json is 9 bytes; the limit is 4 bytes"), "too large", "太大"),
])
def test_os_reasons_are_said_in_the_readers_language(exc: OSError | Callable[[], OSError], en: str, zh: str) -> None:
    if callable(exc):
        exc = exc()
    assert en in os_reason(exc, "en")
    said = os_reason(exc, "zh-TW")
    assert zh in said and english_words(said) == [], said


def test_an_os_reason_without_a_phrase_keeps_the_systems_text() -> None:
    assert os_reason(OSError(errno.EIO, "Input/output error"), "zh-TW") == "Input/output error"
    assert os_reason(FileNotFoundError(errno.ENOENT, "No such file or directory")) == "No such file or directory"


@pytest.mark.parametrize(("lang", "words"), [("en", "this user is not allowed"), ("zh-TW", "這個使用者沒有權限")])
def test_serve_says_why_the_teachers_key_file_cannot_be_written_in_the_readers_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str,
        words: str) -> None:
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    _immutable(config, True)
    try:
        code = main(["serve", "--no-browser", "--notebook", str(SMOKE_NOTEBOOK), "--db", str(tmp_path / "rooms.db"),
                     "--lang", lang])
    finally:
        _immutable(config, False)
    err = capsys.readouterr().err
    key_file = config / "typhoon-edu" / "teacher.key"
    assert code == 1 and str(key_file) in err and words in err, err
    if lang == "zh-TW":
        assert english_words(err, str(key_file), "typhoon-edu") == [], err


@pytest.mark.parametrize(("value", "en", "zh"), [
    ("mysql://x/y", "TYPHOON_EDU_DB: 'mysql' is not a database this store knows", "TYPHOON_EDU_DB：不認得「mysql」這種資料庫"),
    ("sqlite://", "TYPHOON_EDU_DB: an in-memory SQLite database", "TYPHOON_EDU_DB：記憶體裡的 SQLite 資料庫"),
])
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("command", [["serve", "--no-browser", "--notebook", str(SMOKE_NOTEBOOK)], ["teacher", "list"]],
                         ids=lambda argv: argv[0])
def test_a_store_from_the_environment_is_checked_as_db_is_and_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str],
        lang: str, value: str, en: str, zh: str) -> None:
    """An in-memory store in TYPHOON_EDU_DB was served (each kernel then had a store of its own); another
    database's URL was said to be a server that does not answer."""
    from typhoon_edu.server import serve as serve_module

    class NoServer(serve_module.VoilaProcess):
        def start(self) -> NoServer:
            raise RuntimeError("the server was started")

    monkeypatch.setattr(serve_module, "VoilaProcess", NoServer)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("TYPHOON_EDU_DB", value)
    assert main([*command, "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert (en if lang == "en" else zh) in err, err
    assert list(tmp_path.iterdir()) == []
