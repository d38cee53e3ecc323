"""``typhoon-edu answers``: students who typed the same name, a CSV a spreadsheet re-saved without the seconds, and
lesson 07's forecast rows in two languages (each of these was miscounted)."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta
from pathlib import Path

from test_answers_cmd import download, sheet_of

from typhoon_edu.answers_cmd import merge, read_paths, summarise
from typhoon_edu.cli import main
from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore

#: Times with seconds, as the lessons write them (a re-saved file keeps only the minutes).
START = datetime(2026, 12, 3, 9, 14, 37)


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["answers", *argv], out=out), out.getvalue()


def students(answers, lang: str = "en") -> list[tuple[str, int, int]]:
    (lesson,) = summarise(answers, lang)
    return [(s.name, s.right_first, s.graded) for s in lesson.students]


def question(answers, key: str):
    (lesson,) = summarise(answers)
    return next(q for q in lesson.questions if q.key == key)


# ------------------------------------------------------------------------------------------------ the same name
def test_one_name_on_two_devices_of_the_class_server_is_two_students(tmp_path: Path) -> None:
    """The class server keeps the same name typed on two devices in two files (a device tag in the name): two
    sheets, two students, named so the teacher can tell them apart; a download of one of them joins that one."""
    server = tmp_path / "answers"
    first = sheet_of("en", "Ann", [("first_roll", "c")], store=AnswerStore(server, device="a" * 22), start=START)
    sheet_of("en", "ann", [("first_roll", "d"), ("same_stop", "c")], store=AnswerStore(server, device="b" * 22),
             start=START + timedelta(minutes=3))
    handed_in = tmp_path / "handed_in"
    handed_in.mkdir()
    download(first, handed_in)
    reading = read_paths([handed_in, server])
    answers, repeats = merge(reading.answers)
    assert repeats == 1  # the download is the first device's answer again
    assert students(answers) == [("Ann (1)", 1, 1), ("ann (2)", 1, 2)]
    assert question(answers, "quiz.compass.first_roll").answered == 2
    code, text = run([str(handed_in), str(server)])
    assert code == 0 and "Answers handed in: 3 files read, 2 students, 1 lesson." in text
    assert "“Ann” was typed on 2 devices" in text and "Ann (1) and ann (2)" in text
    code, text = run([str(server), "--lang", "zh-TW"])
    assert "2 位學生" in text and "「Ann」在班級伺服器的 2 臺裝置上輸入" in text


def test_two_downloads_with_one_name_that_share_no_answer_are_said_to_be_one_student(tmp_path: Path) -> None:
    """A download carries only the name: two students who typed "Mei" cannot be told apart, and the summary says
    so; a student's second download (which holds the first one's answers again) is not such a case."""
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    mei = sheet_of("en", "Mei", [("first_roll", "c")], start=START)
    download(mei, one)
    mei.add("later?", "x", None, when=START + timedelta(minutes=9))
    download(mei, one, "Mei-compass-answers (1).csv")
    code, text = run([str(one)])
    assert code == 0 and "cannot be told apart" not in text
    download(sheet_of("zh-TW", "mei", [("first_roll", "d")], start=START + timedelta(minutes=30)), two)
    code, text = run([str(one), str(two)])
    assert code == 0 and "1 student," in text
    assert "“Mei”: 2 files that share no answer carry this name" in text and "cannot be told apart" in text
    code, text = run([str(one), str(two), "--lang", "zh-TW"])
    assert "「Mei」：有 2 個檔案" in text


# ------------------------------------------------------------------------------------------------ re-saved times
def resaved(sheet: AnswerSheet, path: Path) -> Path:
    """The download as a spreadsheet in Taiwan re-saves it: Big5, CRLF, no byte-order mark, and the times as the
    cells show them (``2026/12/3 09:14``: no seconds)."""
    rows = list(csv.reader(io.StringIO(sheet.csv())))
    for row in rows[1:]:
        when = datetime.fromisoformat(row[4])
        row[4] = f"{when.year}/{when.month}/{when.day} {when:%H:%M}"
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    path.write_bytes(out.getvalue().encode("cp950"))
    return path


def test_a_download_a_spreadsheet_re_saved_without_seconds_and_the_servers_file_count_once(tmp_path: Path) -> None:
    server = tmp_path / "answers"
    sheet = sheet_of("zh-TW", "陳小美", [("first_roll", "d"), ("first_roll", "c"), ("reachable", "6")],
                     store=AnswerStore(server), predict="a", start=START)
    assert any(e.when.second for e in sheet.entries)
    table = resaved(sheet, tmp_path / "陳小美-compass-answers.csv")
    assert "2026/12/3 09:15" in table.read_bytes().decode("cp950")
    reading = read_paths([table, server])
    assert reading.problems == [] and len(reading.files) == 2
    answers, repeats = merge(reading.answers)
    assert (len(answers), repeats) == (4, 4)
    assert students(answers) == [("陳小美", 1, 2)]
    assert all(a.when.second == START.second for a in answers if a.result != "prediction")  # the server's times
    code, text = run([str(table), str(server)])
    assert code == 0 and "counted once: 4." in text


def test_two_answers_in_one_minute_of_a_re_saved_file_are_not_one_repeat_of_the_other(tmp_path: Path) -> None:
    """Matching on the minute pairs each re-saved answer with one answer of the server's copy: the same wrong
    answer given twice in a minute stays two answers."""
    server = tmp_path / "answers"
    sheet = sheet_of("en", "Mei", [], store=AnswerStore(server))
    for k in range(2):  # 09:14:37 and 09:14:52
        sheet.add("Q?", "W", False, when=START + timedelta(seconds=15 * k), key="quiz.compass.first_roll", value="d")
    table = resaved(sheet, tmp_path / "Mei-compass-answers.csv")
    answers, repeats = merge(read_paths([table, server]).answers)
    assert (len(answers), repeats) == (2, 2)


# ------------------------------------------------------------------------------------------------ lesson 07
def forecast_rows(lang: str, name: str, case: str, when: datetime) -> AnswerSheet:
    """A student's lesson-07 sheet with one forecast revealed, its rows as the lesson writes them."""
    from typhoon_edu.i18n import t
    from typhoon_edu.ui.lessons.forecast import find_case
    from typhoon_edu.ui.realmap import storm_title

    sheet = AnswerSheet(lang, filename="forecast", lesson="forecast")
    sheet.set_student(name)
    storm = storm_title(find_case(case).storm, lang)
    for k, h in enumerate((24, 48, 72)):
        sheet.add(t("lesson.forecast.csv_forecast", lang, storm=storm, h=h), "23, 121", h < 72,
                  when=when + timedelta(minutes=k), key=f"forecast.{case}.{h}", value="23, 121")
    return sheet


def test_an_english_and_a_chinese_forecast_of_one_storm_are_one_question(tmp_path: Path) -> None:
    download(forecast_rows("en", "Mei", "taiwan", START), tmp_path)
    download(forecast_rows("zh-TW", "陳小美", "taiwan", START), tmp_path)
    store = AnswerStore(tmp_path / "answers")
    kai = forecast_rows("zh-TW", "Kai", "taiwan", START)
    store.save("forecast", "Kai", kai.entries)
    answers, _ = merge(read_paths([tmp_path]).answers)
    (lesson,) = summarise(answers, "en")
    forecasts = [q for q in lesson.questions if q.key.startswith("forecast.")]
    assert [(q.key, q.text, q.answered, q.right_first) for q in forecasts] == [
        ("forecast.taiwan.24", "Forecast Dujuan 2015, +24 h", 3, 3),
        ("forecast.taiwan.48", "Forecast Dujuan 2015, +48 h", 3, 3),
        ("forecast.taiwan.72", "Forecast Dujuan 2015, +72 h", 3, 0)]
    code, text = run([str(tmp_path), "--lang", "zh-TW"])
    assert code == 0 and text.count("預報杜鵑（2015），+24 小時") == 1 and "Forecast" not in text
