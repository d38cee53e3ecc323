"""``typhoon-edu answers`` pointed at a folder of the lessons (the copy ``typhoon-edu lessons`` makes, with its
``answers/`` folder) or at a folder holding the table an earlier run wrote: the lessons' own notebooks are said in one
line, not one "left out" line each; the table is skipped in one quiet line and never read as answers; anything else
that is not read is still named with what to do."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from test_answers_cmd import download, sheet_of

from typhoon_edu.answers_cmd import read_paths
from typhoon_edu.cli import main
from typhoon_edu.lessonbook import prepare_copy, shipped_lessons
from typhoon_edu.ui.quiz import AnswerStore

GOOD = [("first_roll", "c"), ("reachable", "6")]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["answers", *argv], out=out), out.getvalue()


def lesson_copy(base: Path, lang: str = "en") -> Path:
    """A copy of the lessons as ``typhoon-edu lessons`` makes it, in which two students answered lesson 01 (the
    lesson keeps their answers in ``answers/`` beside the notebooks)."""
    folder = prepare_copy(lang, base).folder
    store = AnswerStore(folder / "answers")
    sheet_of(lang, "Mei", GOOD, store=store)
    sheet_of(lang, "Kai", GOOD, store=store)
    return folder


def left_out(text: str) -> list[str]:
    """The "Left out" lines of a summary in either language."""
    return [line for line in text.splitlines() if line.startswith("  - ")]


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "8 lesson notebooks skipped (the lessons themselves, which keep no answers"),
    ("zh-TW", "略過 8 個課程筆記本（課程本身沒有存作答")])
def test_a_lesson_folders_notebooks_are_one_line_and_other_files_are_still_named(tmp_path: Path, lang: str,
                                                                                line: str) -> None:
    folder = lesson_copy(tmp_path, lang)
    (folder / "notes.docx").write_bytes(b"PK\x03\x04")
    code, text = run([str(folder), "--lang", lang])
    assert code == 0 and ("2 students" in text or "2 位學生" in text)
    assert [x for x in text.splitlines() if x.startswith(line)] and text.count(".ipynb") == 0
    assert left_out(text) == [x for x in left_out(text) if "notes.docx" in x] and len(left_out(text)) == 1


def test_the_lessons_base_folder_with_two_languages_and_a_newer_version_is_one_line(tmp_path: Path) -> None:
    lesson_copy(tmp_path, "en")
    lesson_copy(tmp_path, "zh-TW")
    newer = tmp_path / "en-9.9"  # a newer version copied beside the copy: its notebooks, no answers yet
    newer.mkdir()
    for p in shipped_lessons("en"):
        (newer / p.name).write_bytes(p.read_bytes())
    reading = read_paths([tmp_path])
    assert len(reading.lesson_notebooks) == 8 + 8 + 7 and not reading.problems
    code, text = run([str(tmp_path)])
    assert code == 0 and "23 lesson notebooks skipped" in text and "Left out" not in text


def test_a_notebook_a_student_handed_in_is_still_named_with_what_to_ask_for(tmp_path: Path) -> None:
    """Outside a folder of the lessons a notebook is what a student handed in instead of the download."""
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    sub = tmp_path / "Ann_1_assignsubmission_file"
    sub.mkdir()
    handed = sub / "01_compass_rolls.ipynb"
    handed.write_bytes((shipped_lessons("en")[0]).read_bytes())
    code, text = run([str(tmp_path)])
    assert code == 0 and "skipped" not in text
    assert left_out(text) == [f"  - {handed}: a notebook, which does not keep the answers: ask for the lesson's "
                              "“Download my answers (CSV)” file, or give the answers folder beside the notebook"]


@pytest.mark.parametrize("written_in", ["en", "zh-TW"])
@pytest.mark.parametrize("read_in", ["en", "zh-TW"])
def test_the_table_of_an_earlier_run_is_skipped_in_one_line_and_not_read(tmp_path: Path, written_in: str,
                                                                         read_in: str) -> None:
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    download(sheet_of("zh-TW", "陳小美", GOOD), tmp_path)
    table = tmp_path / "class.csv"
    assert run([str(tmp_path), "--csv", str(table), "--lang", written_in])[0] == 0
    code, text = run([str(tmp_path), "--lang", read_in])  # the next lesson: no --csv this time
    assert code == 0
    assert ("2 files read, 2 students" in text) or ("讀了 2 個檔案，2 位學生" in text)
    skipped = [x for x in text.splitlines() if str(table) in x]
    assert len(skipped) == 1 and ("a table this command wrote (--csv)" in skipped[0] or "這個指令寫的總表" in skipped[0])
    assert not left_out(text)
    assert "(class.csv)" not in text  # its rows are not read as answers of a student without a name


def test_a_table_a_spreadsheet_re_saved_with_semicolons_is_still_recognised(tmp_path: Path) -> None:
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    table = tmp_path / "class.csv"
    assert run([str(tmp_path), "--csv", str(table)])[0] == 0
    rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8-sig"))))
    out = io.StringIO()
    csv.writer(out, delimiter=";", lineterminator="\r\n").writerows(rows)
    table.write_text(out.getvalue(), encoding="utf-8")
    reading = read_paths([tmp_path])
    assert reading.tables == [str(table)] and not reading.problems and len(reading.files) == 1


@pytest.mark.parametrize(("name", "words"), [("01_compass_rolls.ipynb", "a notebook, which does not keep the answers"),
                                             ("Ann-answers.xlsx", "a spreadsheet's own file"),
                                             ("Kai.zip", "a compressed file (.zip)")])
def test_a_notebook_or_spreadsheet_named_on_the_command_line_is_named_with_what_to_do(tmp_path: Path, name: str,
                                                                                      words: str) -> None:
    """Given by name rather than in a folder, such a file gets the same advice (it was "a JSON file that is not an
    answers file" for a notebook, "not a text file" for a spreadsheet's)."""
    good = download(sheet_of("en", "Mei", GOOD), tmp_path)
    other = tmp_path / name
    if name.endswith(".ipynb"):
        other.write_bytes(shipped_lessons("en")[0].read_bytes())
    else:
        other.write_bytes(b"PK\x03\x04\x14\x00\x06\x00 not text \x00")
    code, text = run([str(good), str(other)])
    assert code == 0 and left_out(text) == [x for x in left_out(text) if x.startswith(f"  - {other}: {words}")] != []


def test_notebooks_students_ran_and_handed_in_are_named_even_two_lessons_of_them(tmp_path: Path) -> None:
    """A hand-in folder with two lessons' notebooks (run, so holding outputs) and a browser's second download of one
    (``(1)``) is not a copy of the lessons: each notebook is named with what to ask for (review: all three were
    "3 lesson notebooks skipped (the lessons themselves …)")."""
    download(sheet_of("en", "Mei", GOOD), tmp_path)
    for name, source in (("01_compass_rolls.ipynb", 0), ("01_compass_rolls (1).ipynb", 0),
                         ("02_grid_pathing.ipynb", 1)):
        notebook = json.loads(shipped_lessons("en")[source].read_text(encoding="utf-8"))
        notebook["metadata"]["widgets"] = {"state": {}}  # as JupyterLab saves a notebook the student ran
        (tmp_path / name).write_text(json.dumps(notebook), encoding="utf-8")
    code, text = run([str(tmp_path)])
    assert code == 0 and "skipped" not in text
    named = left_out(text)
    assert len(named) == 3 and all("a notebook, which does not keep the answers" in line for line in named), named
    # unchanged copies of two lessons (a newer version copied beside a copy) are still the lessons themselves
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    for p in shipped_lessons("en")[:2]:
        (shipped / p.name).write_bytes(p.read_bytes())
    (shipped / "01_compass_rolls (1).ipynb").write_bytes(shipped_lessons("en")[0].read_bytes())
    reading = read_paths([shipped])
    assert len(reading.lesson_notebooks) == 2
    named = [p.path for p in reading.problems if p.path.endswith(".ipynb")]
    assert named == [str(shipped / "01_compass_rolls (1).ipynb")]
