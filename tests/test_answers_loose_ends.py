"""``typhoon-edu answers``, three loose ends: the times of a CSV a spreadsheet re-saved with US-style (or day-first)
dates, lesson 07's forecast label written in one place, and one wrong forecast made in two languages counted as one
answer, shown in the summary's language."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from test_answers_cmd import download, sheet_of

from typhoon_edu.answers_cmd import Answer, merge, parse_csv, read_paths, summarise
from typhoon_edu.cli import main
from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore

#: 17 December: a date whose day cannot be a month, so a US (month/day) and a day/month file each say which it is.
DEC_17 = datetime(2026, 12, 17, 9, 5, 37)


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["answers", *argv], out=out), out.getvalue()


def resaved(sheet: AnswerSheet, path: Path, when: Callable[[datetime], str]) -> Path:
    """The download as a spreadsheet re-saves it: each time as ``when`` writes it (the cells' display)."""
    rows = list(csv.reader(io.StringIO(sheet.csv())))
    for row in rows[1:]:
        row[4] = when(datetime.fromisoformat(row[4]))
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def us_12h(d: datetime) -> str:
    """``12/17/2026 9:05 AM``: a US spreadsheet's month/day/year with a 12-hour time and no seconds."""
    return f"{d.month}/{d.day}/{d.year} {(d.hour % 12) or 12}:{d.minute:02d} {'AM' if d.hour < 12 else 'PM'}"


def us_24h(d: datetime) -> str:
    """``12/17/2026 09:05``: month/day/year with two digits and a 24-hour time."""
    return f"{d.month:02d}/{d.day:02d}/{d.year} {d:%H:%M}"


def day_first(d: datetime) -> str:
    """``17/12/2026 09:05``: day/month/year (a British or Australian spreadsheet)."""
    return f"{d.day}/{d.month}/{d.year} {d:%H:%M}"


# ------------------------------------------------------------------------------------------------ 1. re-saved dates
@pytest.mark.parametrize("style", [us_12h, us_24h, day_first])
def test_a_download_re_saved_with_year_last_dates_is_read_and_matched_with_the_servers_copy(tmp_path: Path,
                                                                                           style) -> None:
    server = tmp_path / "answers"
    sheet = sheet_of("en", "Mei", [("first_roll", "d"), ("first_roll", "c"), ("reachable", "6")],
                     store=AnswerStore(server), start=DEC_17)
    table = resaved(sheet, tmp_path / "Mei-compass-answers.csv", style)
    assert "/12/2026" in table.read_text() or "12/17/2026" in table.read_text()
    reading = read_paths([table])
    assert reading.problems == [] and [a.when for a in reading.answers] == [
        DEC_17.replace(second=0) + timedelta(minutes=k) for k in (1, 2, 3)]
    answers, repeats = merge(read_paths([table, server]).answers)
    assert (len(answers), repeats) == (3, 3)  # each re-saved answer is the server's answer again
    code, text = run([str(table), str(server)])
    assert code == 0 and "counted once: 3." in text and "Left out" not in text


def test_twelve_hour_times_and_chinese_morning_and_afternoon_marks() -> None:
    head = "name,question,answer,right or wrong,when\n"
    times = ["12/17/2026 12:05 AM", "12/17/2026 12:05 PM", "12/17/2026 1:05:09 p.m.", "2026/12/17 下午 01:05",
             "2026/12/17 上午 12:05:09", "12/17/2026 9:05"]
    rows, bad = parse_csv(head + "".join(f"Mei,Q?,E,right,{w}\n" for w in times), "Mei-compass-answers.csv")
    assert bad == 0 and [a.when.strftime("%H:%M:%S") for a in rows] == [
        "00:05:00", "12:05:00", "13:05:09", "13:05:00", "00:05:09", "09:05:00"]
    assert [a.seconds for a in rows] == [False, False, True, False, True, False]
    rows, bad = parse_csv(head + "Mei,Q?,E,right,12/17/2026 13:05 PM\nMei,Q?,E,right,12/17/2026 0:05 AM\n", "m.csv")
    assert (rows, bad) == ([], 2)  # no such 12-hour times


def test_one_date_that_can_only_be_day_first_decides_the_files_other_dates(tmp_path: Path) -> None:
    """A day/month file whose answers go past midnight into the 13th: its 12/7 is 12 July, not 7 December."""
    sheet = sheet_of("en", "Mei", [("first_roll", "d"), ("first_roll", "c")], start=datetime(2026, 7, 12, 23, 58, 40))
    table = resaved(sheet, tmp_path / "Mei-compass-answers.csv", day_first)
    assert "12/7/2026 23:59" in table.read_text() and "13/7/2026 00:00" in table.read_text()
    reading = read_paths([table])
    assert reading.problems == []
    assert [a.when for a in reading.answers] == [datetime(2026, 7, 12, 23, 59), datetime(2026, 7, 13, 0, 0)]
    code, text = run([str(table)])
    assert code == 0 and "month/day" not in text  # nothing to say: the file says which comes first


def test_dates_that_can_be_read_both_ways_are_read_as_us_dates_and_the_summary_says_so(tmp_path: Path) -> None:
    """12/7/2026 is 7 December in the US and 12 July elsewhere, and nothing in the file tells which: it is read as
    a US date, and the summary names the file and says how it read it, in the teacher's language."""
    sheet = sheet_of("en", "Mei", [("first_roll", "d"), ("first_roll", "c")], start=datetime(2026, 12, 7, 9, 5, 37))
    table = resaved(sheet, tmp_path / "Mei-compass-answers.csv", us_12h)
    assert "12/7/2026 9:06 AM" in table.read_text()
    reading = read_paths([table])
    assert reading.problems == [] and reading.answers[0].when == datetime(2026, 12, 7, 9, 6)
    code, text = run([str(table)])
    assert code == 0 and "Left out" not in text
    assert "Dates read as month/day, as a US spreadsheet writes them (1;" in text
    assert f"  - {table}: 12/7/2026 = 2026-12-07\n" in text and "day/month (12/7/2026 = 2026-07-12)" in text
    code, text = run([str(table), "--lang", "zh-TW"])
    assert code == 0 and "當成「月/日」讀（1 個；" in text
    assert f"  - {table}：12/7/2026 = 2026-12-07\n" in text and "「日/月」（12/7/2026 = 2026-07-12）" in text
    same_day = sheet_of("en", "Kai", [("first_roll", "c")], start=datetime(2026, 5, 5, 9, 5, 37))
    code, text = run([str(resaved(same_day, tmp_path / "Kai-compass-answers.csv", us_12h))])
    assert code == 0 and "month/day" not in text  # 5/5/2026 is the same day read either way


def test_a_file_whose_dates_contradict_each_other_is_not_guessed(tmp_path: Path) -> None:
    """13/12/2026 is day-first and 12/14/2026 month-first: in one file, nothing says which the others are."""
    head = "name,question,answer,right or wrong,when\n"
    text = head + "Mei,Q?,E,right,13/12/2026 09:05\nMei,Q?,E,right,12/14/2026 09:05\nMei,Q?,E,right,2026-12-14 09:06\n"
    rows, bad = parse_csv(text, "Mei-compass-answers.csv")
    assert [a.when for a in rows] == [datetime(2026, 12, 14, 9, 6)] and bad == 2


# ------------------------------------------------------------------------------------------------ 2. one label
def test_lesson_07s_forecast_rows_are_labelled_by_one_function(tmp_path: Path, monkeypatch) -> None:
    """The forecast's row label is written by one function: the lesson's record and the summary's list of the
    rows a lesson can write both change with it."""
    from typhoon_edu.ui.lessons import forecast as fw
    from typhoon_edu.ui.lessons.answers import forecast_rows

    before = forecast_rows("zh-TW")
    ch = fw.ForecastChallenge("zh-TW", sheet=AnswerSheet("zh-TW", "forecast", lesson="forecast",
                                                         store=AnswerStore(tmp_path)))
    c = ch.rnd.case
    for h in fw.LEADS:
        ch.rnd.place(c.truth[h].lat, c.truth[h].lon + 1.0)
    ch.reveal()
    keys = [e.key for e in ch.sheet.entries]
    assert [(e.key, e.question) for e in ch.sheet.entries] == [r for r in before if r[0] in keys] and len(keys) == 3
    monkeypatch.setattr(fw, "forecast_label", lambda case, h, lang: f"{case.key} {h} {lang}")
    assert forecast_rows("en")[0][1] == f"{fw.forecast_cases()[0].key} 24 en"
    ch.rnd = fw.ForecastRound(c, "zh-TW")
    for h in fw.LEADS:
        ch.rnd.place(c.truth[h].lat, c.truth[h].lon + 1.0)
    ch.record(ch.rnd.reveal())
    assert [e.question for e in ch.sheet.entries[3:]] == [f"{c.key} {h} zh-TW" for h in fw.LEADS]


# ------------------------------------------------------------------------------------------------ 3. wrong forecasts
def forecast_sheet(lang: str, name: str, folder: Path, east: float) -> AnswerSheet:
    """A student's lesson-07 sheet with the first storm's forecast revealed, ``east`` degrees east of the truth at
    every lead, recorded by the lesson."""
    from typhoon_edu.ui.lessons import forecast as fw

    sheet = AnswerSheet(lang, "forecast", lesson="forecast", store=AnswerStore(folder))
    sheet.set_student(name)
    ch = fw.ForecastChallenge(lang, sheet=sheet)
    c = ch.rnd.case
    for h in fw.LEADS:
        ch.rnd.place(c.truth[h].lat, c.truth[h].lon + east)
    ch.reveal()
    return sheet


def test_one_wrong_forecast_in_two_languages_is_one_answer_shown_in_the_summarys_language(tmp_path: Path) -> None:
    handed_in = tmp_path / "handed_in"
    handed_in.mkdir()
    mei = forecast_sheet("en", "Mei", tmp_path / "mei", 1.0)
    xiao = forecast_sheet("zh-TW", "陳小美", tmp_path / "xiao", 1.0)
    kai = forecast_sheet("zh-TW", "Kai", tmp_path / "kai", 2.0)  # a farther forecast, made once
    for sheet in (mei, xiao, kai):
        download(sheet, handed_in)
    lin = forecast_sheet("en", "Lin", tmp_path / "answers", 1.0)  # the class server's file only
    assert mei.entries[0].answer != xiao.entries[0].answer  # the same forecast, written in two languages
    key = mei.entries[0].key
    answers, _ = merge(read_paths([handed_in, tmp_path / "answers"]).answers)
    for lang, sheet in (("en", mei), ("zh-TW", xiao)):
        (lesson,) = summarise(answers, lang)
        q = next(q for q in lesson.questions if q.key == key)
        assert (q.answered, q.right_first) == (4, 0)
        assert sorted(q.wrong.values()) == [1, 3]  # Mei's, 陳小美's and Lin's forecast is one answer
        common = max(q.wrong, key=q.wrong.__getitem__)
        assert q.wrong_shown[common] == sheet.entries[0].answer  # in the summary's language
    code, text = run([str(handed_in), str(tmp_path / "answers"), "--lang", "zh-TW"])
    assert code == 0 and f"最常見的錯誤答案：「{xiao.entries[0].answer[:12]}" in text and "（3 人）" in text
    code, text = run([str(handed_in), str(tmp_path / "answers")])
    assert code == 0 and f"Most common wrong answer: “{lin.entries[0].answer[:20]}" in text and "(3 students)" in text


def test_a_wrong_number_typed_with_full_width_digits_is_shown_as_a_plain_number() -> None:
    # a zh-TW keyboard types ７; the two answers are one wrong answer, and the teacher reads it as 7 in both languages
    first = Answer("陳小美", "compass", "", "７", "wrong", datetime(2026, 5, 1, 9, 30), key="quiz.compass.reachable")
    later = replace(first, student="Mei", answer="7", when=datetime(2026, 5, 1, 9, 31))
    for lang in ("en", "zh-TW"):
        (lesson,) = summarise([first, later], lang)
        q = next(q for q in lesson.questions if q.key == "quiz.compass.reachable")
        assert list(q.wrong.values()) == [2]
        assert list(q.wrong_shown.values()) == ["7"]
