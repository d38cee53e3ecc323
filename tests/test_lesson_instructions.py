"""Instructions students can follow where they are: a touch screen taps (lesson 02), the page a student sees in the
app view (Voilà) has no code to read, and numbers are shown as a sentence or a table, not a raw Python dict."""

from __future__ import annotations

import re

import pytest

from typhoon_edu import i18n


def test_lesson_02_asks_to_tap_or_click_a_cell():
    for key in ("part_board_note", "puzzle_prompt"):
        text = i18n.t(f"lesson.pathing.{key}", "en", start="(1, 1)", direction="N", name="北", pips=1)
        assert "Tap or click" in text and not re.search(r"(?<!or )\bClick the cell", text)
    assert "clicked" not in i18n.t("lesson.pathing.puzzle_wrong", "en", cell="(1, 1)", answer="(2, 2)", letters="N")
