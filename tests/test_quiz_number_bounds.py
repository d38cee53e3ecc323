"""A typed number with a huge exponent is refused at once, in a lesson and in ``typhoon-edu answers``.

``Fraction("1e99999999")`` works out 10**99999999 exactly before it can overflow: ten characters in a lesson's
number box kept the student's kernel at full CPU for minutes (on a class server, one student's 8 pages could hold
both cores), and the same answer in a handed-in CSV hung the teacher's ``typhoon-edu answers``. The timeouts below
stop a hang; they are not speed measurements.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from test_answers_cmd import sheet_of

from typhoon_edu import i18n
from typhoon_edu.cli import main
from typhoon_edu.ui.quiz import Question, check, parse_number, parse_percent

HUGE = ["1e99999999", "1e-99999999", "-1E99999999", "9" * 5000, "1/" + "7" * 5000, "1e9999999%"]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("text", HUGE)
def test_a_huge_number_is_refused_with_what_to_type(text: str, lang: str) -> None:
    q = Question("compass", "demo", "number", answer=20)
    feedback = check(q, text, lang)
    assert feedback.problem == i18n.t("lesson.common.bad_number", lang) and not feedback.correct
    with pytest.raises(ValueError):
        parse_percent(text, lang)


@pytest.mark.parametrize(("text", "value"), [("12", 12.0), ("-3.5", -3.5), ("+2", 2.0), (".5", 0.5), ("5.", 5.0),
                                              ("1/7", 1 / 7), ("12e2", 1200.0), ("1E3", 1000.0), ("1,800 km", 1800.0),
                                              ("14%", 0.14), ("１８", 18.0), ("1 in 7", 1 / 7), ("2.5e-3", 0.0025)])
def test_the_numbers_students_type_are_still_read(text: str, value: float) -> None:
    assert parse_number(text) == pytest.approx(value)


@pytest.mark.timeout(60)
def test_answers_reads_a_hand_in_with_a_huge_number(tmp_path: Path, capsys) -> None:
    sheet = sheet_of("en", "Ken", [("reachable", "3")])
    path = tmp_path / sheet.filename
    path.write_text(sheet.csv().replace(",3,wrong,", ",1e99999999,wrong,"), encoding="utf-8")
    assert "1e99999999" in path.read_text(encoding="utf-8")
    out = io.StringIO()
    code = main(["answers", str(path), "--lang", "en"], out=out)
    assert code == 0, capsys.readouterr().err
    assert "1 student" in out.getvalue()
