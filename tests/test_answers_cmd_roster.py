"""``typhoon-edu answers --roster FILE``: the class list, as a teacher has it (a text file, a spreadsheet's CSV or
"Unicode Text", Big5, a header row, seat numbers, blank lines, spaces, the same name twice), says per lesson who
handed nothing in and which names handed in are not on it (a misspelling, with the name it may be); a roster that
cannot be used stops the command before anything is read or written."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from pathlib import Path

import pytest
from test_answers_cmd import START, download, sheet_of

from typhoon_edu.answers_cmd import read_paths, read_roster
from typhoon_edu.cli import main
from typhoon_edu.ui.quiz import AnswerStore

GOOD = [("first_roll", "c"), ("reachable", "6")]
CLASS = ["Mei Chen", "陳小美", "Tom", "王大明", "林美玲"]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["answers", *argv], out=out), out.getvalue()


def roster_line(text: str, *starts: str) -> str:
    """The one line of ``text`` (stripped) that starts with one of ``starts``."""
    (line,) = [x.strip() for x in text.splitlines() if x.strip().startswith(starts)]
    return line


# ------------------------------------------------------------------------------------------------ reading the roster
ROSTERS = {
    "one per line": ("class.txt", "Mei Chen\n陳小美\nTom\n王大明\n林美玲\n".encode()),
    "header, byte-order mark, CRLF": ("class.txt", "\ufeffname\r\nMei Chen\r\n陳小美\r\nTom\r\n王大明\r\n林美玲\r\n"
                                      .encode()),
    "blank lines, spaces, duplicates": ("class.txt", "\n  Mei Chen  \n\n陳小美\nmei  chen\n Tom\n王大明\n\n林美玲\n"
                                        "陳小美 \n".encode()),
    "csv: 座號,姓名 from a spreadsheet": ("class.csv", "\ufeff座號,姓名,性別\n1,Mei Chen,女\n2,陳小美,女\n3,Tom,男\n"
                                           "4,王大明,男\n5,林美玲,女\n".encode()),
    "csv: names first, no header": ("class.csv", "Mei Chen,7A\n陳小美,7A\nTom,7A\n王大明,7A\n林美玲,7A\n".encode()),
    "csv: a quoted name with a comma": ("class.csv", 'name,class\n"Mei Chen",7A\n陳小美,7A\nTom,7A\n王大明,7A\n林美玲,7A\n'
                                        .encode()),
    "csv: semicolons": ("class.csv", "Name;Class\nMei Chen;7A\n陳小美;7A\nTom;7A\n王大明;7A\n林美玲;7A\n".encode()),
    "UTF-16 Unicode Text with tabs": ("class.txt", "姓名\t座號\nMei Chen\t1\n陳小美\t2\nTom\t3\n王大明\t4\n林美玲\t5\n"
                                      .encode("utf-16")),
    "Big5 csv": ("class.csv", "姓名\nMei Chen\n陳小美\nTom\n王大明\n林美玲\n".encode("cp950")),
    "seat numbers, no header": ("class.csv", "1,Mei Chen\n2,陳小美\n3,Tom\n4,王大明\n5,林美玲\n".encode()),
}


@pytest.mark.parametrize("case", sorted(ROSTERS))
def test_a_roster_as_teachers_have_it_gives_its_names(tmp_path: Path, case: str) -> None:
    name, data = ROSTERS[case]
    path = tmp_path / name
    path.write_bytes(data)
    assert list(read_roster(path).names) == CLASS


# ------------------------------------------------------------------------------------------------ the summary
def handed_in(folder: Path) -> Path:
    """Four students of :data:`CLASS` hand lesson 01 in, two of them with a name typed otherwise than the roster
    writes it: a capital and spaces (the same name), and a character of a Chinese name (another name)."""
    download(sheet_of("en", "mei  CHEN", GOOD), folder)
    download(sheet_of("zh-TW", "陳小美", GOOD), folder)
    download(sheet_of("en", "Tomm", GOOD), folder)
    download(sheet_of("zh-TW", "王大名", GOOD), folder)
    roster = folder / "class.txt"
    roster.write_text("\n".join(CLASS) + "\n", encoding="utf-8")
    return roster


def test_who_handed_nothing_in_and_names_not_on_the_roster_are_said(tmp_path: Path) -> None:
    roster = handed_in(tmp_path)
    code, text = run([str(tmp_path), "--roster", str(roster)])
    assert code == 0
    assert f"Roster {roster}: 5 names." in text
    assert roster_line(text, "No answers") == "No answers from 3 of the 5 on the roster: Tom, 王大明 and 林美玲"
    assert roster_line(text, "Not on the roster") == \
        "Not on the roster (2; a misspelt name?): “Tomm” (perhaps Tom), “王大名” (perhaps 王大明)"
    assert "not an answers file" not in text and "4 files read" in text  # the roster beside the answers is not read


def test_the_roster_lines_in_chinese(tmp_path: Path) -> None:
    roster = handed_in(tmp_path)
    code, text = run([str(tmp_path), "--roster", str(roster), "--lang", "zh-TW"])
    assert code == 0 and f"名單 {roster}：5 個姓名。" in text
    assert roster_line(text, "名單上") == "名單上 5 人中，3 人沒有交作答：Tom、王大明和林美玲"
    assert roster_line(text, "不在名單上") == "不在名單上（2 人；名字打錯了嗎？）：「Tomm」（是不是「Tom」？）、「王大名」（是不是「王大明」？）"


@pytest.mark.parametrize(("typed", "matches"), [
    ("MEI CHEN", "Mei Chen"), ("ＭＥＩ　Ｃｈｅｎ", "Mei Chen"), ("mei   chen", "Mei Chen"), ("MeiChen", "Mei Chen"),
    ("Mei Chan", ""), (" 陳小美 ", "陳小美"), ("陳 小美", ""), ("陳小美美", "")])
def test_latin_names_match_whatever_their_case_width_and_spaces_and_chinese_names_as_written(
        tmp_path: Path, typed: str, matches: str) -> None:
    download(sheet_of("en", typed, GOOD), tmp_path, "handed-in.csv")
    roster = tmp_path / "class.txt"
    roster.write_text("Mei Chen\n陳小美\n", encoding="utf-8")
    code, text = run([str(tmp_path), "--roster", str(roster)])
    assert code == 0
    missing = [name for name in ("Mei Chen", "陳小美") if name != matches]
    assert roster_line(text, "No answers").endswith(": " + " and ".join(missing))
    assert ("Not on the roster" in text) is not bool(matches)


def test_each_lesson_has_its_own_list_and_everyone_is_said_when_everyone_handed_in(tmp_path: Path) -> None:
    from test_answers_cmd import forecast_sheet

    download(sheet_of("en", "Mei", GOOD), tmp_path)
    download(sheet_of("en", "Kai", GOOD), tmp_path)
    download(forecast_sheet("en", "Kai", "Haiyan"), tmp_path)
    roster = tmp_path / "class.csv"
    roster.write_text("name\nMei\nKai\n", encoding="utf-8")
    code, text = run([str(tmp_path), "--roster", str(roster)])
    assert code == 0
    compass, forecast = text.split("Lesson 01")[1].split("Lesson 07")
    assert "Everyone on the roster (2) handed answers in." in compass and "No answers" not in compass
    assert "No answers from 1 of the 2 on the roster: Mei" in forecast


def test_a_name_the_class_server_kept_apart_on_two_devices_is_the_roster_name(tmp_path: Path) -> None:
    server = tmp_path / "answers"
    sheet_of("en", "Ann", [("first_roll", "c")], store=AnswerStore(server, device="a" * 22), start=START)
    sheet_of("en", "ann", [("first_roll", "d")], store=AnswerStore(server, device="b" * 22),
             start=START + timedelta(minutes=3))
    roster = tmp_path / "class.txt"
    roster.write_text("Ann\nBo\n", encoding="utf-8")
    code, text = run([str(server), "--roster", str(roster)])
    assert code == 0 and "Ann (1)" in text
    assert "Not on the roster" not in text and "No answers from 1 of the 2 on the roster: Bo" in text


def test_the_table_says_who_is_on_the_roster_and_who_handed_nothing_in(tmp_path: Path) -> None:
    roster = handed_in(tmp_path)
    table = tmp_path / "out" / "class.csv"
    table.parent.mkdir()
    code, _ = run([str(tmp_path), "--roster", str(roster), "--csv", str(table)])
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(table.read_text(encoding="utf-8-sig"))))
    on = {(r["student"], r["roster"]) for r in rows}
    assert on == {("mei CHEN", "on the roster"), ("陳小美", "on the roster"), ("Tomm", "not on the roster"),
                  ("王大名", "not on the roster"), ("Tom", "no answers"), ("王大明", "no answers"), ("林美玲", "no answers")}
    missing = [r for r in rows if r["roster"] == "no answers"]
    assert rows[-3:] == missing and all(r["lesson"] == "Lesson 01 · Compass rolls" and not r["answer"] for r in missing)
    assert sum(1 for r in rows if r["answer"]) == 8
    code, text = run([str(tmp_path), str(table.parent), "--roster", str(roster)])  # the table read again: skipped
    assert code == 0 and "4 files read" in text and f"Skipped {table}" in text
    code, _ = run([str(tmp_path), "--roster", str(roster), "--csv", str(table), "--overwrite", "--lang", "zh-TW"])
    zh = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8-sig"))))
    assert zh[0][-1] == "名單" and zh[-1][-1] == "沒有交"


# ------------------------------------------------------------------------------------------------ a bad roster
BAD = {
    "missing": (lambda p: None, "cannot read", "there is no such file or folder"),
    "a folder": (lambda p: p.mkdir(), "cannot read", "is a folder"),
    "Excel's own file": (lambda p: p.write_bytes(b"PK\x03\x04\x14\x00\x06\x00"), "is not a text file", "CSV UTF-8"),
    "binary": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xff\x00\x80"), "is not a text file", ""),
    "no names": (lambda p: p.write_text("姓名\n\n  \n", encoding="utf-8"), "holds no names", ""),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_roster_that_cannot_be_used_is_an_error_naming_it_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    make, what, why = BAD[case]
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    roster = tmp_path / "lists" / "class.csv"
    roster.parent.mkdir()
    make(roster)
    table = tmp_path / "summary.csv"
    code, text = run([str(tmp_path), "--roster", str(roster), "--csv", str(table)])
    err = capsys.readouterr().err
    assert code == 2 and text == "" and not table.exists()
    assert err.startswith("typhoon-edu: error: --roster: ") and str(roster) in err and what in err and why in err
    assert "one student's name per line, or a CSV file with the names in the first column" in err


def test_the_roster_error_in_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    code, _ = run([str(tmp_path), "--roster", str(tmp_path / "名單.txt"), "--lang", "zh-TW"])
    err = capsys.readouterr().err
    assert code == 2 and f"--roster：無法讀取 {tmp_path / '名單.txt'}（沒有這個檔案或資料夾）" in err
    assert "請給每行一位學生姓名的文字檔，或姓名在第一欄的 CSV 檔" in err


def test_without_a_roster_nothing_is_said_of_one(tmp_path: Path) -> None:
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    code, text = run([str(tmp_path)])
    assert code == 0 and "roster" not in text.lower()
    assert read_paths([tmp_path]).answers
