"""``typhoon-edu answers`` and how a handed-in file is encoded: Big5 (a spreadsheet in Taiwan re-saved the download)
is read whole even when its first Chinese characters are UTF-8 too (簡, 羅, 蘇 are ``C2 B2``, ``C3 B9``, ``C4 AC`` in
Big5), while a UTF-8 file broken off inside a character or with a stray byte in the middle keeps its rows before the
damage and is named with the line it stops at. A folder whose one answers file (``.txt``/``.tsv`` as well as
``.csv``/``.json``) holds no readable answer is named once, by that file, not also as a folder without answers files."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from test_answers_cmd import sheet_of

from typhoon_edu.answers_cmd import read_paths, read_roster
from typhoon_edu.cli import main

GOOD = [("first_roll", "c"), ("rulebook_last", "b"), ("same_stop", "c"), ("reachable", "6")]
FOLDER_LINE = {"en": "no answers files (.csv, .json, .txt or .tsv) in this folder", "zh-TW": "這個資料夾和裡面的資料夾都沒有作答檔"}


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["answers", *argv], out=out), out.getvalue()


def class_text(names: list[str], rows: int = len(GOOD), lang: str = "en") -> str:
    """One file of the class's answers, as a teacher makes it from the downloads: the first download's header, then
    every student's ``rows`` rows."""
    text = ""
    for k, name in enumerate(names):
        download = sheet_of(lang, name, GOOD[:rows]).csv()
        text += download if k == 0 else download.split("\n", 1)[1]
    return text


def excel_resave(text: str, encoding: str = "cp950") -> bytes:
    """``text`` as Excel in Taiwan saves a CSV: Big5 (cp950), CRLF, no byte-order mark."""
    rows = list(csv.reader(io.StringIO(text)))
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue().encode(encoding)


# ------------------------------------------------------------------------------------------------ Big5
BIG5_CLASSES = {
    "簡 first": ["簡小明", "王小華"],
    "羅 after an English name": ["Ann", "羅小明", "王小華"],
    "蘇 first": ["蘇美玲", "陳大同"],
    "two such characters in a name": ["簡羅婷", "Tom"],
    "a two-character name": ["羅婷"],
}


@pytest.mark.parametrize(("names", "rows"), [
    *((names, rows) for names in BIG5_CLASSES.values() for rows in (1, len(GOOD))),
    # three characters that are UTF-8 too in one name: on more than one line, else as a UTF-8 file's three accented
    # letters and a stray byte
    (["Ann", "蘇羅文豪"], len(GOOD)), (["蘇羅文豪", "Tom"], 2)], ids=lambda v: f"{len(v)}names" if isinstance(v, list) else f"{v}rows")
def test_a_big5_file_whose_first_chinese_character_is_utf8_too_is_read_whole(tmp_path: Path, names: list[str],
                                                                           rows: int) -> None:
    first = next(name for name in names if not name.isascii())
    assert first.encode("cp950")[:2].decode("utf-8")  # the file's first Chinese character is UTF-8 too
    path = tmp_path / "class-compass-answers.csv"
    path.write_bytes(excel_resave(class_text(names, rows)))
    reading = read_paths([path])
    assert reading.problems == [] and reading.files == [str(path)]
    assert sorted(a.student for a in reading.answers) == sorted(names * rows)
    code, text = run([str(path), "--lang", "en"])
    students = f"{len(names)} student{'s' if len(names) > 1 else ''}"
    assert code == 0 and f"1 file read, {students}" in text and "damaged" not in text


def test_the_reported_big5_files_are_read_as_before(tmp_path: Path) -> None:
    """The two files of the report: the English header, rows for 簡小明 and 王小華 (was: 'damaged from line 2 on',
    exit 2), and Ann, 羅小明, 王小華 (was: Ann alone counted, 'damaged from line 3 on')."""
    header = "name,question,answer,right or wrong,when\r\n"
    question = "The indicator is on N. You roll a 3. Where does it stop?"
    for folder, names in (("big5", ["簡小明", "王小華"]), ("big5b", ["Ann", "羅小明", "王小華"])):
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "class-compass-answers.csv"
        body = "".join(f"{name},{question},E (east),right,2026-12-07 09:0{k}:00\r\n" for k, name in enumerate(names))
        path.write_bytes((header + body).encode("cp950"))
        code, text = run([str(path), "--lang", "en"])
        assert code == 0 and f"1 file read, {len(names)} students" in text and "damaged" not in text, text
        assert all(name in text for name in names)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_big5_file_with_a_chinese_header_or_semicolons_is_still_read(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "class.csv"
    rows = list(csv.reader(io.StringIO(class_text(["簡小明", "羅美玲"], lang=lang))))
    out = io.StringIO()
    csv.writer(out, delimiter=";", lineterminator="\r\n").writerows(rows)
    path.write_bytes(out.getvalue().encode("cp950"))
    reading = read_paths([path])
    assert reading.problems == [] and {a.student for a in reading.answers} == {"簡小明", "羅美玲"}


@pytest.mark.parametrize("names", [["簡小明", "王小華"], ["羅美玲"], ["Tom", "蘇大同", "陳小美"]])
def test_a_big5_roster_whose_first_chinese_character_is_utf8_too_is_read(tmp_path: Path, names: list[str]) -> None:
    path = tmp_path / "class.txt"
    path.write_bytes("".join(f"{name}\r\n" for name in names).encode("cp950"))
    assert list(read_roster(path).names) == names


# ------------------------------------------------------------------------------------------------ damaged UTF-8
def utf8_lines(names: list[str]) -> list[bytes]:
    """The lines of a class file in UTF-8 without a byte-order mark (as an editor may re-save it)."""
    return class_text(names).encode().split(b"\n")


@pytest.mark.parametrize("bom", [False, True], ids=["no_bom", "bom"])
@pytest.mark.parametrize("last_rows", [1, len(GOOD)])
@pytest.mark.parametrize("before", [["Ann", "Tom"], ["Ann", "美玲"], ["簡小明", "José"]], ids=["ascii", "chinese", "mixed"])
@pytest.mark.parametrize("inside", [1, 2, 4, 5])
def test_a_utf8_file_broken_off_inside_a_character_keeps_its_rows_before(tmp_path: Path, before: list[str],
                                                                        last_rows: int, inside: int, bom: bool) -> None:
    """A download broken off inside the last row's name (美玲: ``E7 BE 8E E7 8E B2``; ``E7 BE`` is Big5 too), ``inside``
    bytes into it: the rows before that line are counted, the file is named with the line."""
    raw = ((b"\xef\xbb\xbf" if bom else b"") + (class_text(before) + class_text(["美玲"], last_rows).split("\n", 1)[1])
           .encode())
    lines = raw.split(b"\n")
    last = len(lines) - 2  # the index of the last row (the file ends with a line break)
    path = tmp_path / "Mei-compass-answers.csv"
    path.write_bytes(b"\n".join(lines[:last]) + b"\n" + lines[last][:inside])
    reading = read_paths([path])
    assert [(p.key, p.fields["line"]) for p in reading.problems] == [("cut", last + 1)]
    assert [a.student for a in reading.answers] == [*(n for n in before for _ in GOOD), *["美玲"] * (last_rows - 1)]
    code, text = run([str(path), "--lang", "en"])
    assert code == 0 and f"damaged from line {last + 1} on" in text


STRAY_CLASSES = {
    "Chinese names after the stray byte": (["Ann", "Tom", "簡小明", "陳小美"], 2),
    "accented names after the stray byte": (["Ann", "José", "Zoë", "Chloé"], 2),
    "accented names before and after it": (["Zoë", "Ann", "José"], 6),
    "Chinese names before and after it": (["王大明", "Tom", "林美玲"], 6),
}


@pytest.mark.parametrize("stray", [b"\xa4", b"\xb2", b"\xc2", b"\xe7", b"\xff", b"\x80"])
@pytest.mark.parametrize("case", sorted(STRAY_CLASSES))
def test_a_utf8_file_with_a_stray_byte_in_the_middle_keeps_its_rows_before(tmp_path: Path, case: str,
                                                                          stray: bytes) -> None:
    """A bad copy: one byte that is not UTF-8 at the start of row ``at`` (a line of the middle) of a UTF-8 file without
    a byte-order mark; the file is UTF-8 damaged there, not Big5 and not 'not a text file'."""
    names, at = STRAY_CLASSES[case]
    lines = utf8_lines(names)
    assert 1 < at < len(lines) - 2
    path = tmp_path / "class-compass-answers.csv"
    path.write_bytes(b"\n".join([*lines[:at], stray + lines[at], *lines[at + 1:]]))
    reading = read_paths([path])
    assert [(p.key, p.fields["line"]) for p in reading.problems] == [("cut", at + 1)]
    assert [a.student for a in reading.answers] == [n for n in names for _ in GOOD][:at - 1]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_chinese_utf8_file_without_a_byte_order_mark_with_a_stray_byte_is_damaged_not_big5(tmp_path: Path,
                                                                                               lang: str) -> None:
    path = tmp_path / "class.csv"
    lines = class_text(["王大明", "林美玲"], lang=lang).encode().split(b"\n")  # no byte-order mark
    path.write_bytes(b"\n".join([*lines[:3], lines[3][:5] + b"\xa4" + lines[3][5:], *lines[4:]]))
    reading = read_paths([path])
    assert [(p.key, p.fields["line"]) for p in reading.problems] == [("cut", 4)] and len(reading.answers) == 2


# ------------------------------------------------------------------------------------------------ folder line
def unicode_text(rows: list[list[str]]) -> bytes:
    """Excel's "Unicode Text": UTF-16 with its byte-order mark, tabs, CRLF."""
    out = io.StringIO()
    csv.writer(out, delimiter="\t", lineterminator="\r\n").writerows(rows)
    return out.getvalue().encode("utf-16")


HEADER = ["name", "question", "answer", "right or wrong", "when"]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize(("name", "content", "said"), [
    ("Mei-compass-answers.txt", unicode_text([HEADER, ["Mei", "Q?", "E", "maybe", "yesterday"]]),
     {"en": "its one answer could not be read", "zh-TW": "裡面只有 1 筆作答，而且讀不懂"}),
    ("Mei-compass-answers.tsv", unicode_text([HEADER, *[["Mei", "Q?", "E", "maybe", "yesterday"]] * 2]),
     {"en": "none of its 2 answers could be read", "zh-TW": "裡面的 2 筆作答都讀不懂"}),
    ("Mei-compass-answers.txt", unicode_text([HEADER]), {"en": "no answers in it", "zh-TW": "裡面沒有作答"}),
], ids=["txt_one_row", "tsv_two_rows", "txt_header_only"])
def test_a_folder_whose_one_answers_file_has_no_readable_answer_is_named_by_that_file_only(
        tmp_path: Path, lang: str, name: str, content: bytes, said: dict[str, str]) -> None:
    folder = tmp_path / "u16"
    folder.mkdir()
    path = folder / name
    path.write_bytes(content)
    code, text = run([str(folder), "--lang", lang])
    assert code == 2 and str(path) in text and said[lang] in text
    assert FOLDER_LINE[lang] not in text, text


@pytest.mark.parametrize("name", ["notes.csv", "notes.tsv", "notes.txt", "notes.json"])
def test_a_folder_whose_files_are_all_not_answers_files_is_still_said_to_hold_none(tmp_path: Path, name: str) -> None:
    """Whatever the suffix of a file read: every file named 'not an answers file', then the folder."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / name).write_text('{"cells": []}' if name.endswith(".json") else "date,temperature\n2026-05-01,31\n")
    code, text = run([str(folder), "--lang", "en"])
    assert code == 2 and f"{folder / name}: " in text and "not an answers file" in text
    assert f"{folder}: {FOLDER_LINE['en']}" in text


@pytest.mark.parametrize("roster", ["class.txt", "class.csv"])
def test_a_folder_holding_only_the_roster_is_said_to_hold_no_answers_files(tmp_path: Path, roster: str) -> None:
    """The roster is not read as answers (nor named): the folder is, as holding none, whatever the roster's suffix."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / roster).write_text("name\nMei\nTom\n")
    code, text = run([str(folder), "--roster", str(folder / roster), "--lang", "en"])
    assert code == 2 and f"{folder}: {FOLDER_LINE['en']}" in text, text


def test_a_folder_whose_file_was_read_already_is_not_said_to_hold_none(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    path = folder / "Mei-compass-answers.txt"
    question = "The indicator is on N. You roll a 3. Where does it stop?"
    path.write_bytes(unicode_text([HEADER, ["Mei", question, "E (east)", "right", "2026-05-04 09:01:00"]]))
    code, text = run([str(path), str(folder), "--lang", "en"])
    assert code == 0 and "1 file read, 1 student" in text and FOLDER_LINE["en"] not in text, text
