"""``typhoon-edu answers`` and what a class actually hands in: a learning platform's download (one folder per
student), files a spreadsheet re-saved (Excel's own file, "Unicode Text", semicolons), a file damaged half-way,
and two students who typed the same name. Nothing a student handed in is left out without being named."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from pathlib import Path

import pytest
from test_answers_cmd import START, download, sheet_of

from typhoon_edu import answers_cmd
from typhoon_edu.answers_cmd import merge, read_paths, summarise, summary_lines
from typhoon_edu.cli import main

GOOD = [("first_roll", "c"), ("rulebook_last", "b"), ("same_stop", "c"), ("reachable", "6")]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["answers", *argv], out=out), out.getvalue()


# ------------------------------------------------------------------------------------------------ folders in folders
def test_a_learning_platforms_download_with_a_folder_per_student_is_read_whole(tmp_path: Path) -> None:
    lms = tmp_path / "lms"
    lms.mkdir()
    download(sheet_of("en", "Ann", GOOD), lms, "ANN-COMPASS-ANSWERS.CSV")
    for name, sub in (("Mei Chen", "Mei Chen_1234_assignsubmission_file"), ("Tom", "Tom_5678_assignsubmission_file")):
        (lms / sub).mkdir()
        download(sheet_of("en", name, GOOD), lms / sub)
    deep = lms / "Assignment 3" / "Kai_9_assignsubmission_file"  # a zip's own folder around the students' folders
    deep.mkdir(parents=True)
    download(sheet_of("zh-TW", "Kai", GOOD), deep)
    code, text = run([str(lms)])
    assert code == 0 and "4 files read, 4 students" in text and "Left out" not in text
    code, text = run([str(lms), "--lang", "zh-TW"])
    assert "讀了 4 個檔案，4 位學生" in text


def test_hidden_folders_and_files_are_not_looked_at(tmp_path: Path) -> None:
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    for hidden in (".ipynb_checkpoints", "__MACOSX", ".git"):
        (tmp_path / hidden).mkdir()
        download(sheet_of("en", "Ghost", GOOD), tmp_path / hidden)
    (tmp_path / ".~lock.Mei-compass-answers.csv#").write_text("x")
    (tmp_path / "~$Mei.xlsx").write_text("x")
    code, text = run([str(tmp_path)])
    assert code == 0 and "1 file read, 1 student" in text and "Left out" not in text and "Ghost" not in text


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["a spreadsheet's own file", "“CSV UTF-8 (comma delimited)”", "unzip it", "a notebook",
            "not read: only answers files are"]),
    ("zh-TW", ["試算表（Excel 等）本身的檔案", "「CSV UTF-8（逗號分隔）」", "請先解壓縮", "筆記本檔案", "只讀作答檔"])])
def test_every_file_of_a_folder_that_is_not_read_is_named_with_what_to_do(tmp_path: Path, lang: str,
                                                                          words: list[str]) -> None:
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    sub = tmp_path / "Ann_1_assignsubmission_file"
    sub.mkdir()
    names = [sub / "Ann-compass-answers.xlsx", tmp_path / "Kai.zip", tmp_path / "01_compass_rolls.ipynb",
             tmp_path / "Lee-answers.pdf"]
    for path in names:
        path.write_bytes(b"PK\x03\x04 not text \x00")
    code, text = run([str(tmp_path), "--lang", lang])
    assert code == 0 and ("1 student" in text or "1 位學生" in text)
    left_out = text.split("\n\n")[1]
    for path, word in zip(names, words[:1] + words[2:], strict=True):
        assert f"{path}" in left_out and word in left_out.split(f"{path}")[1].splitlines()[0]
    assert words[1] in left_out


def test_an_excel_file_renamed_csv_is_named_as_a_spreadsheets_file(tmp_path: Path) -> None:
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    (tmp_path / "Ann-compass-answers.csv").write_bytes(b"PK\x03\x04\x14\x00\x06\x00")
    code, text = run([str(tmp_path)])
    assert code == 0 and f"{tmp_path / 'Ann-compass-answers.csv'}: a spreadsheet's own file" in text


def test_folders_too_deep_and_files_too_many_are_named_not_dropped(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    download(sheet_of("en", "Mei", GOOD), tmp_path / "a")
    download(sheet_of("en", "Deep", GOOD), deep)
    monkeypatch.setattr(answers_cmd, "MAX_DEPTH", 1)
    reading = read_paths([tmp_path])
    assert [(Path(p.path), p.key) for p in reading.problems] == [(tmp_path / "a" / "b", "too_deep")]
    assert {a.student for a in reading.answers} == {"Mei"}
    monkeypatch.setattr(answers_cmd, "MAX_DEPTH", 4)
    monkeypatch.setattr(answers_cmd, "MAX_FILES", 1)
    reading = read_paths([tmp_path])
    assert [p.text("en") for p in reading.problems] == [
        f"{tmp_path}: more than 1 files in this folder and the folders in it: 1 were not looked at; "
        "give the folder the answers are in"]


# ------------------------------------------------------------------------------------------------ spreadsheets' saves
def resaved(path: Path, delimiter: str, encoding: str) -> Path:
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    target = path.with_name(path.stem + f"-{encoding}{'.txt' if delimiter == chr(9) else '.csv'}")
    target.write_bytes(out.getvalue().encode(encoding))
    return target


@pytest.mark.parametrize(("delimiter", "encoding"), [("\t", "utf-16"), (";", "utf-8-sig"), ("\t", "utf-8"),
                                                     (";", "cp950")])
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_spreadsheets_unicode_text_and_semicolon_saves_are_read(tmp_path: Path, delimiter: str, encoding: str,
                                                                  lang: str) -> None:
    """Excel's "Unicode Text" (UTF-16, tabs, .txt) and a European Excel's CSV (semicolons) hold the same answers."""
    path = download(sheet_of(lang, "Mei", [*GOOD, ("explain", "Because; each\tstop, is 1 of 7")], predict="a"),
                    tmp_path)
    copy = resaved(path, delimiter, encoding)
    path.unlink()
    reading = read_paths([tmp_path])
    assert reading.problems == [] and len(reading.answers) == 6
    assert next(a.answer for a in reading.answers if a.key.endswith("explain")) == "Because; each\tstop, is 1 of 7"
    assert read_paths([copy]).problems == []


# ------------------------------------------------------------------------------------------------ damaged half-way
@pytest.mark.parametrize(("lang", "words"), [
    ("en", "damaged from line 4 on (it is not text there: a download broken off, or a bad copy); the answers before "
           "that line are counted"),
    ("zh-TW", "從第 4 行起損壞（那裡開始不是文字：下載中斷或複製壞了）；那一行之前的作答照常統計")])
def test_a_file_damaged_half_way_keeps_its_rows_before_the_damage(tmp_path: Path, lang: str, words: str) -> None:
    path = download(sheet_of("zh-TW", "王大明", GOOD), tmp_path)
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    cut = len(b"\n".join(lines[:3])) + 1 + 10  # 10 bytes into line 4 (inside a Chinese character)
    path.write_bytes(raw[:cut] + b"\x00\x00garbage")
    code, text = run([str(tmp_path), "--lang", lang])
    assert code == 0 and f"{path}{'：' if lang == 'zh-TW' else ': '}{words}" in text
    answers = read_paths([path]).answers
    assert len(answers) == 2 and {a.student for a in answers} == {"王大明"}


def test_nul_bytes_in_a_valid_utf8_file_cut_it_there_too(tmp_path: Path) -> None:
    path = download(sheet_of("en", "Mei", GOOD), tmp_path)
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([*lines[:3], b"\x00" * 40, *lines[3:]]))
    reading = read_paths([path])
    assert len(reading.answers) == 2 and [(p.key, p.fields["line"]) for p in reading.problems] == [("cut", 4)]


def test_a_file_damaged_before_any_answer_is_named_so(tmp_path: Path) -> None:
    path = tmp_path / "Mei-compass-answers.csv"
    path.write_bytes("\ufeff姓名,題目,回答,對或錯,時間\n".encode() + b"\xe5\x00\x00")
    code, text = run([str(path), "--lang", "en"])
    assert code == 2 and f"{path}: damaged from line 2 on" in text and "no answers could be read before it" in text


def test_a_big5_file_is_still_read_as_big5(tmp_path: Path) -> None:
    path = download(sheet_of("zh-TW", "陳小美", GOOD), tmp_path)
    path.write_bytes(path.read_text(encoding="utf-8-sig").encode("cp950"))
    reading = read_paths([path])
    assert reading.problems == [] and {a.student for a in reading.answers} == {"陳小美"} and len(reading.answers) == 4


# ------------------------------------------------------------------------------------------------ one row
@pytest.mark.parametrize(("lang", "words"), [
    ("en", "1 of its answers could not be read and is left out; its other answers are counted"),
    ("zh-TW", "有 1 筆作答讀不懂，沒有計入；其他作答照常統計")])
def test_one_unreadable_row_is_said_in_the_singular(tmp_path: Path, lang: str, words: str) -> None:
    path = download(sheet_of("en", "Mei", GOOD), tmp_path)
    path.write_text(path.read_text(encoding="utf-8-sig") + "Mei,Q?,E,maybe,2026-05-04 09:30:00\n", encoding="utf-8")
    code, text = run([str(path), "--lang", lang])
    assert code == 0 and words in text and "are left out" not in text


def test_a_file_whose_one_answer_cannot_be_read_says_so(tmp_path: Path) -> None:
    path = tmp_path / "Mei-compass-answers.csv"
    path.write_text("name,question,answer,right or wrong,when\nMei,Q?,E,maybe,2026-05-04 09:30:00\n")
    code, text = run([str(path)])
    assert code == 2 and "its one answer could not be read" in text and "none of its 1" not in text


# ------------------------------------------------------------------------------------------------ the same name
def test_a_name_two_students_typed_counts_as_one_student_whose_first_try_is_the_earliest(tmp_path: Path) -> None:
    """Two "Ann" downloads from two computers that share no answer are one student: her first try at a question is
    the earliest answer of either file, and the wrong answers counted are those before her first right one, so a
    question every student got right at the first try has no most common wrong answer."""
    one, two = tmp_path / "pc3", tmp_path / "pc4"
    one.mkdir(), two.mkdir()
    download(sheet_of("en", "Ann", GOOD), one)
    download(sheet_of("en", "Ann", [("first_roll", "a"), ("rulebook_last", "b"), ("same_stop", "a")],
                      start=START + timedelta(minutes=3)), two, "Ann-compass-answers (1).csv")
    download(sheet_of("en", "Mei", [("same_stop", "a"), ("same_stop", "c")]), one)
    answers, _ = merge(read_paths([one, two]).answers)
    (lesson,) = summarise(answers)
    same = next(q for q in lesson.questions if q.key == "quiz.compass.same_stop")
    assert (same.answered, same.right_first, sum(same.wrong.values())) == (2, 1, 1)  # Mei's wrong first try only
    for q in lesson.questions:
        assert sum(1 for _ in q.wrong.values()) <= q.answered - q.right_first or not q.wrong
        assert max(q.wrong.values(), default=0) <= q.answered - q.right_first
    code, text = run([str(one), str(two)])
    block = text.split("Can one roll leave the indicator")[1].split("\n  4.")[0]
    assert "2 students answered · 1 right at the first try (50%)" in block and "(1 student)" in block


def test_a_right_first_try_with_a_wrong_answer_after_it_has_no_wrong_answer_counted() -> None:
    """One student who was right and then tried a wrong option is right at the first try, and the summary does
    not also count the wrong option as the class's most common wrong answer."""
    sheet = sheet_of("en", "Mei", [("same_stop", "c"), ("same_stop", "a")])
    answers, _ = answers_cmd.parse_csv(sheet.csv(), "Mei-compass-answers.csv")
    (lesson,) = summarise(answers)
    (q,) = lesson.questions
    assert (q.answered, q.right_first, dict(q.wrong)) == (1, 1, {})
    lines = summary_lines([lesson], answers_cmd.Reading(answers, ["x"]), 0)
    assert not any("Most common wrong answer" in line for line in lines)
