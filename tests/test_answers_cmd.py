"""``typhoon-edu answers``: a class summary of handed-in answers (CSV downloads in either language, old and new
headers, the class server's JSON files), each answer handed in twice counted once, bad input named and left out."""

from __future__ import annotations

import base64
import csv
import io
import json
import os
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from typhoon_edu import answers_cmd
from typhoon_edu.answers_cmd import merge, parse_csv, read_paths, summarise
from typhoon_edu.cli import main
from typhoon_edu.ui.lessons.bank import bank
from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore, Prediction, check

START = datetime(2026, 5, 4, 9, 0, 0)
COMPASS = {q.id: q for q in bank("compass")}


def sheet_of(lang: str, name: str, answers: list[tuple[str, str]], *, store: AnswerStore | None = None,
             predict: str | None = None, observe: bool = False, start: datetime = START) -> AnswerSheet:
    """A student's lesson-01 sheet made as the lesson makes it: the prediction widget, then the quiz's answers
    (question id, value) in order, a minute apart."""
    sheet = AnswerSheet(lang, filename="compass", lesson="compass", store=store)
    sheet.set_student(name)
    if predict is not None:
        p = Prediction("compass", "long_run", lang, sheet=sheet)
        p.lock_in(predict)
        if observe:
            p.record_observation(("a",), "14.3%")
    for k, (qid, value) in enumerate(answers):
        q = COMPASS[qid]
        given = q.option_text(value, lang) if q.kind == "choice" else value
        correct = None if q.kind == "text" else check(q, value, lang).correct
        sheet.add(q.prompt(lang), given, correct, when=start + timedelta(minutes=k + 1), key=f"quiz.compass.{qid}",
                  value=value)
    return sheet


def download(sheet: AnswerSheet, folder: Path, name: str | None = None) -> Path:
    """The sheet's "Download my answers (CSV)" file, as the browser saves it."""
    payload = sheet.data_url().split("base64,")[1]
    path = folder / (name or sheet.filename)
    path.write_bytes(base64.b64decode(payload))
    return path


def old_download(sheet: AnswerSheet, folder: Path) -> Path:
    """The file as lessons made it before the prediction's two columns (five columns)."""
    rows = list(csv.reader(io.StringIO(sheet.csv())))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(row[:5] for row in rows)
    path = folder / sheet.filename
    path.write_text("\ufeff" + out.getvalue(), encoding="utf-8")
    return path


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["answers", *argv], out=out), out.getvalue()


def stats(answers, key: str, lang: str = "en"):
    (lesson,) = summarise(answers, lang)
    return next(q for q in lesson.questions if q.key == key), lesson


# ------------------------------------------------------------------------------------------------ reading
def test_english_chinese_and_old_five_column_files_add_up_per_question(tmp_path: Path) -> None:
    download(sheet_of("en", "Mei", [("first_roll", "c"), ("reachable", "6")], predict="a", observe=True), tmp_path)
    download(sheet_of("zh-TW", "陳小美", [("first_roll", "d"), ("first_roll", "c"), ("reachable", "６")],
                      predict="b", observe=True), tmp_path)
    old_download(sheet_of("en", "Kai", [("first_roll", "d"), ("reachable", "7")]), tmp_path)
    reading = read_paths([tmp_path])
    assert reading.problems == [] and len(reading.files) == 3
    answers, repeats = merge(reading.answers)
    assert repeats == 0 and {a.lesson for a in answers} == {"compass"}
    first, lesson = stats(answers, "quiz.compass.first_roll")
    assert (first.answered, first.right_first) == (3, 1)  # 陳小美's right answer came on a second try
    assert first.wrong_shown[max(first.wrong, key=first.wrong.get)] == COMPASS["first_roll"].option_text("d", "en")
    assert first.wrong.most_common(1)[0][1] == 2  # an English and a Chinese "d" are one wrong answer
    reach, _ = stats(answers, "quiz.compass.reachable")
    assert (reach.answered, reach.right_first) == (3, 2)  # "６" (full-width) is 6
    predict, _ = stats(answers, "predict.compass.long_run")
    assert dict(predict.spread) == {"o:a": 1, "o:b": 1} and (predict.matched, predict.observed) == (1, 2)
    assert [(s.name, s.right_first, s.graded) for s in lesson.students] == [("Kai", 0, 2), ("Mei", 2, 2), ("陳小美", 1, 2)]


def test_a_right_answer_the_file_calls_a_later_try_is_not_a_first_try(tmp_path: Path) -> None:
    text = ("name,question,answer,right or wrong,when\n"
            f"Mei,{COMPASS['first_roll'].prompt('en')},E (east),right on a later try,2026-05-04 09:00:00\n")
    answers, bad = parse_csv(text, "Mei-compass-answers.csv")
    first, _ = stats(answers, "quiz.compass.first_roll")
    assert bad == 0 and (first.answered, first.right_first) == (1, 0)


def test_a_download_and_the_servers_file_and_a_second_download_count_once(tmp_path: Path) -> None:
    store = AnswerStore(tmp_path / "answers")
    early = sheet_of("en", "Mei", [("first_roll", "d")], store=store, predict="a")
    hand_in = tmp_path / "handed_in"
    hand_in.mkdir()
    download(early, hand_in)  # downloaded before the observation and the rest of the quiz
    later = sheet_of("en", "Mei", [("first_roll", "c"), ("same_stop", "c")], store=store,
                     start=START + timedelta(minutes=5))
    Prediction("compass", "long_run", "en", sheet=later).record_observation(("a",), "14.3%")
    download(later, hand_in, "Mei-compass-answers (1).csv")
    reading = read_paths([hand_in, tmp_path / "answers"])
    assert len(reading.files) == 3
    answers, repeats = merge(reading.answers)
    assert len(answers) == 4 and repeats == 2 + 4  # the first download repeats two, the JSON file all four
    first, lesson = stats(answers, "quiz.compass.first_roll")
    assert (first.answered, first.right_first) == (1, 0)
    predict, _ = stats(answers, "predict.compass.long_run")
    assert (predict.answered, predict.observed, predict.matched) == (1, 1, 1)  # the copy that saw the result is kept
    assert [(s.name, s.right_first, s.graded) for s in lesson.students] == [("Mei", 1, 2)]  # same_stop at once
    code, text = run([str(hand_in), str(tmp_path / "answers")])
    assert code == 0 and "counted once: 6." in text


def test_a_spreadsheet_saved_big5_file_is_read(tmp_path: Path) -> None:
    sheet = sheet_of("zh-TW", "陳小美", [("first_roll", "c")])
    (tmp_path / "big5.csv").write_bytes(sheet.csv().encode("cp950"))
    reading = read_paths([tmp_path / "big5.csv"])
    assert reading.problems == [] and [a.student for a in reading.answers] == ["陳小美"]


def test_one_name_on_two_devices_of_the_class_server_is_said(tmp_path: Path) -> None:
    """The class server keeps them apart: two students, named apart (tests/test_answers_cmd_miscounts.py)."""
    for device in ("a" * 22, "b" * 22):
        sheet_of("en", "Mei", [("first_roll", "c")], store=AnswerStore(tmp_path, device=device),
                 start=START + timedelta(minutes=len(device) + ord(device[0])))
    code, text = run([str(tmp_path)])
    assert code == 0 and "“Mei” was typed on 2 devices" in text and "2 students, Mei (1) and Mei (2)" in text


# ------------------------------------------------------------------------------------------------ bad input
def good_file(folder: Path) -> Path:
    return download(sheet_of("en", "Mei", [("first_roll", "c")]), folder)


def _fifo(path: Path) -> None:
    os.mkfifo(path)


BAD = {
    "foreign_csv": (lambda p: p.write_text("date,temperature\n2026-05-01,31\n"), "not an answers file"),
    "cut_short_csv": (lambda p: p.write_text('name,question,answer,right or wrong,when\nMei,"Q?'), "damaged CSV"),
    "binary": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xff\x00\x80"), "not a text file"),
    "damaged_json": (lambda p: p.write_text('{"format": 1, "entries": ['), "damaged JSON"),
    "foreign_json": (lambda p: p.write_text('{"cells": []}'), "not an answers file"),
    "empty_answers": (lambda p: p.write_text("name,question,answer,right or wrong,when\n"), "no answers in it"),
    "unreadable_rows": (lambda p: p.write_text("name,question,answer,right or wrong,when\nMei,Q?,E,maybe,yesterday\n"),
                        "its one answer could not be read"),
    "fifo": (_fifo, "a device, a pipe or a socket"),
    "dangling_link": (lambda p: p.symlink_to(p.parent / "gone.csv"), "there is no such file or folder"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_file_is_named_with_the_reason_and_the_good_ones_are_summarised(tmp_path: Path, case: str) -> None:
    make, reason = BAD[case]
    good = good_file(tmp_path)
    bad = tmp_path / f"{case}.csv"
    make(bad)
    code, text = run([str(good), str(bad)])
    assert code == 0
    assert f"{bad}: " in text and reason in text
    assert "Lesson 01 · Compass rolls: 1 student" in text


def test_a_too_large_file_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = good_file(tmp_path)
    big = tmp_path / "big.csv"
    big.write_text("x" * 2000)
    monkeypatch.setattr(answers_cmd, "MAX_FILE_BYTES", 1000)
    code, text = run([str(good), str(big)])
    assert code == 0 and f"{big}: it is too large" in text and "1 student" in text


def test_some_unreadable_rows_are_said_and_the_rest_counted(tmp_path: Path) -> None:
    path = good_file(tmp_path)
    path.write_text(path.read_text(encoding="utf-8-sig") + "Mei,Q?,E,maybe,2026-05-04 09:30:00\n", encoding="utf-8")
    code, text = run([str(path)])
    assert code == 0 and "1 of its answers could not be read" in text and "1 right at the first try (100%)" in text


def test_empty_and_missing_folders_are_named(tmp_path: Path) -> None:
    (tmp_path / "class").mkdir()
    good_file(tmp_path / "class")
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("not answers")
    code, text = run([str(tmp_path / "class"), str(tmp_path / "empty"), str(tmp_path / "nowhere")])
    assert code == 0
    assert f"{tmp_path / 'empty'}: no answers files (.csv, .json, .txt or .tsv) in this folder" in text
    assert f"{tmp_path / 'nowhere'}: there is no such file or folder" in text


@pytest.mark.parametrize(("lang", "words"), [("en", "no answers could be read"), ("zh-TW", "沒有讀得到的作答")])
def test_nothing_readable_exits_2_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str,
                                              words: str) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "x.json").write_text("[1, 2]")
    code, text = run([str(tmp_path / "empty"), str(tmp_path / "x.json"), "--lang", lang])
    assert code == 2
    assert str(tmp_path / "x.json") in text and str(tmp_path / "empty") in text
    assert words in capsys.readouterr().err


# ------------------------------------------------------------------------------------------------ output
def test_the_csv_table_has_every_answer_once_and_refuses_to_replace_a_file(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    store = AnswerStore(tmp_path / "answers")
    download(sheet_of("en", "Mei", [("first_roll", "d"), ("first_roll", "c"), ("explain", "Seven stops.")],
                      store=store, predict="a", observe=True), tmp_path)
    out = tmp_path / "class.csv"
    code, text = run([str(tmp_path), "--csv", str(out)])
    assert code == 0 and f"all 4 answers is in {out}" in text
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert sorted((r["no."], r["result"], r["first try"]) for r in rows) == [
        ("1", "right on a later try", "no"), ("1", "wrong", "yes"), ("8", "for the teacher", ""), ("P", "prediction", "")]
    assert [r["result"] for r in rows if r["no."] == "1"] == ["wrong", "right on a later try"]  # in order of time
    (predicted,) = (r for r in rows if r["no."] == "P")
    assert predicted["prediction and observation"] == "matched" and predicted["lesson"] == "Lesson 01 · Compass rolls"
    assert {r["student"] for r in rows} == {"Mei"}
    out.write_text("the teacher's own table")
    code, _ = run([str(tmp_path), "--csv", str(out)])
    assert code == 2 and "already exists" in capsys.readouterr().err
    assert out.read_text() == "the teacher's own table"
    code, _ = run([str(tmp_path), "--csv", str(out), "--overwrite", "--lang", "zh-TW"])
    assert code == 0 and out.read_text(encoding="utf-8-sig").startswith("學生,課程,題號,題目,回答,結果,第一次作答")


def test_a_table_that_cannot_be_written_is_said_after_the_summary(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    good_file(tmp_path)
    code, text = run([str(tmp_path), "--csv", str(tmp_path / "no" / "class.csv")])
    assert code == 2 and "Compass rolls" in text
    assert "cannot write" in capsys.readouterr().err


def test_the_summary_is_in_the_teachers_language_whatever_the_files_are_in(tmp_path: Path) -> None:
    download(sheet_of("en", "Mei", [("first_roll", "d")], predict="a", observe=True), tmp_path)
    code, text = run([str(tmp_path), "--lang", "zh-TW"])
    assert code == 0
    assert text.startswith("收到的作答：讀了 1 個檔案，1 位學生，1 課。")
    assert "第 01 課 · 方位羅盤擲骰：1 位學生" in text
    assert COMPASS["first_roll"].prompt("zh-TW") in text
    assert f"最常見的錯誤答案：「{COMPASS['first_roll'].option_text('d', 'zh-TW')}」（1 人）" in text
    assert "和課堂上看到的結果相符：1 人中有 1 人" in text
    assert not any(word in text for word in ("answered", "right at", "Lesson", "student"))


def test_the_locale_chooses_the_language_without_lang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good_file(tmp_path)
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    assert run([str(tmp_path)])[1].startswith("收到的作答")


def test_a_json_answers_file_from_another_lesson_version_is_still_counted(tmp_path: Path) -> None:
    doc = {"format": 1, "lesson": "tides", "student": "Mei",
           "entries": [{"key": "quiz.tides.when", "question": "When is high tide?", "answer": "6 pm", "result": "wrong",
                        "when": "2026-05-04 09:00:00"}]}
    (tmp_path / "Mei-tides.json").write_text(json.dumps(doc))
    code, text = run([str(tmp_path)])
    assert code == 0 and "Lesson “tides”: 1 student" in text and "When is high tide?" in text


def test_a_file_or_folder_this_user_may_not_read_is_named_in_the_teachers_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(Root reads every file whatever its mode, so the system's refusal is played here.)"""
    good = good_file(tmp_path)
    (tmp_path / "locked").mkdir()
    secret = tmp_path / "secret.csv"
    secret.write_text("x")
    read, listing = answers_cmd.read_bounded, Path.iterdir

    def refuse_secret(path, limit):
        if Path(path) == secret:
            raise PermissionError(13, "Permission denied", str(path))
        return read(path, limit)

    def refuse_locked(self):
        if self == tmp_path / "locked":
            raise PermissionError(13, "Permission denied", str(self))
        return listing(self)

    monkeypatch.setattr(answers_cmd, "read_bounded", refuse_secret)
    monkeypatch.setattr(Path, "iterdir", refuse_locked)
    code, text = run([str(good), str(secret), str(tmp_path / "locked"), "--lang", "zh-TW"])
    assert code == 0 and "1 位學生" in text
    assert f"{secret}：這個使用者沒有權限讀寫它" in text
    assert f"{tmp_path / 'locked'}：這個使用者沒有權限讀寫它" in text


def forecast_sheet(lang: str, name: str, storm: str, *, skip: str = "") -> AnswerSheet:
    """A student's lesson-07 sheet: every marked question of the quiz (but ``skip``), then a forecast of ``storm``
    at three leads (rows the lesson adds as the student reveals them, for the storm the student chose)."""
    from typhoon_edu.i18n import t
    from typhoon_edu.ui.lessons.forecast import localised, questions

    sheet = AnswerSheet(lang, filename="forecast", lesson="forecast")
    sheet.set_student(name)
    when = START
    for q in (localised(q, lang) for q in questions()):
        if q.kind == "text" or q.id == skip:
            continue
        value = q.options[0] if q.kind == "choice" else "100"
        given = q.option_text(value, lang) if q.kind == "choice" else value
        when += timedelta(minutes=1)
        sheet.add(q.prompt(lang), given, check(q, value, lang).correct, when=when, key=q.key, value=value)
    for h in (24, 48, 72):
        when += timedelta(minutes=1)
        sheet.add(t("lesson.forecast.csv_forecast", lang, storm=storm, h=h), "23, 121", h < 72, when=when,
                  key=f"forecast.{storm}.{h}", value="23, 121")
    return sheet


def test_forecast_rows_of_other_storms_are_not_questions_a_student_left_unanswered(tmp_path: Path) -> None:
    """Lesson 07's forecast rows depend on the storm each student chose: a student who answered the whole quiz
    is not told of "questions not answered" because classmates forecast other storms (or in the other language)."""
    download(forecast_sheet("en", "Mei", "Haiyan"), tmp_path)
    download(forecast_sheet("zh-TW", "陳小美", "海燕"), tmp_path)
    download(forecast_sheet("en", "Kai", "Nepartak", skip="pair"), tmp_path)
    code, text = run([str(tmp_path)])
    assert code == 0
    lines = {line.split()[0]: line for line in text.splitlines() if line.startswith("    ")}
    assert lines["Mei"].endswith("of 10") and lines["陳小美"].endswith("of 10")  # 7 quiz questions, 3 forecasts
    assert lines["Kai"].endswith("of 9 (1 not answered)")  # the quiz's question it skipped, only


def test_an_unreadable_answers_folder_is_named_and_the_files_beside_it_are_still_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The downloads in a folder are read though its answers/ folder (the class server's) may not be listed; the
    answers/ folder is the one named. (Root lists every folder whatever its mode, so the refusal is played.)"""
    good_file(tmp_path)
    (tmp_path / "answers").mkdir()
    listing = Path.iterdir

    def refuse_answers(self):
        if self == tmp_path / "answers":
            raise PermissionError(13, "Permission denied", str(self))
        return listing(self)

    monkeypatch.setattr(Path, "iterdir", refuse_answers)
    code, text = run([str(tmp_path)])
    assert code == 0 and "Lesson 01 · Compass rolls: 1 student" in text
    assert f"{tmp_path / 'answers'}: this user is not allowed to read or write it" in text


def test_the_table_of_the_last_run_in_a_folder_read_is_not_named_as_a_bad_file(tmp_path: Path) -> None:
    """Run again after more students hand in, writing the table where it was: the old table is not an answers file
    to complain about."""
    good_file(tmp_path)
    table = tmp_path / "class.csv"
    assert run([str(tmp_path), "--csv", str(table)])[0] == 0
    code, text = run([str(tmp_path), "--csv", str(table), "--overwrite"])
    assert code == 0 and "Left out" not in text and "1 file read" in text


def test_a_table_of_one_answer_says_one_answer(tmp_path: Path) -> None:
    download(sheet_of("en", "Mei", [("first_roll", "d")]), tmp_path)
    out = tmp_path / "out" / "class.csv"
    out.parent.mkdir()
    code, text = run([str(tmp_path), "--csv", str(out)])
    assert code == 0 and f"The table of the one answer is in {out}." in text and "all 1 answers" not in text
