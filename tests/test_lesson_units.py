"""Lessons 02, 03 and 06 keep every number they show on the line of its unit (a no-break space between them, so a
phone never ends a line between ``358`` and ``km``), in their texts, tables, glossaries, predictions and quizzes,
feedback included; what is saved or computed with (an answer in the CSV) keeps the catalog's plain space. The lesson
notebooks' own text (the markdown cells of lessons 01–07, both languages) does too.
The browser check on a phone is ``tests/browser/test_touch_lessons.py::test_lesson_numbers_keep_their_units_on_a_phone``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import common, forecast, glossary, intensity, pathing, quiz, real
from typhoon_edu.ui.lessons.bank import LessonQuiz

LANGS = i18n.LANGS
SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)


def shown_texts(widget: widgets.Widget) -> Iterator[str]:
    """Every text ``widget`` and the widgets inside it show: HTML (outside its tags), labels and choices."""
    stack = [widget]
    while stack:
        item = stack.pop()
        if isinstance(item, widgets.HTML):
            yield from html_texts(item.value)
        elif isinstance(item, widgets.Button):
            yield item.description
            yield item.tooltip or ""
        elif isinstance(item, widgets.ToggleButtons | widgets.Dropdown):
            yield from item._options_labels
        stack.extend(getattr(item, "children", ()) or ())


def html_texts(html: str) -> list[str]:
    """The texts of a piece of HTML, without its tags and its pictures (an SVG's text never wraps)."""
    return common._TAG.split(SVG.sub("", html))[::2]


def split_units(texts: Iterator[str] | list[str]) -> list[str]:
    """The number-and-unit pairs among ``texts`` that a line could still end between."""
    return [text[max(0, m.start() - 20):m.end() + 8] for text in texts for m in common._UNIT_GAP.finditer(text)]


def answer_every_choice(q: LessonQuiz) -> None:
    for item in q.items:
        if item.question.kind == "choice":
            item.answer(item.question.options[0])


def test_keep_units_is_one_function_for_every_lesson():
    assert forecast.keep_units is common.keep_units
    assert common.keep_units("north 24 h later") == "north 24\u00a0h later"


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_02_shows_every_number_with_its_unit(lang):
    w = pathing.pathing_lesson(lang)
    texts = [*html_texts(pathing.scale_note(lang)._repr_html_()), *html_texts(glossary("pathing", lang)._repr_html_())]
    for k in range(len(pathing.RULEBOOK_EXAMPLES)):  # each trip's km and hours
        w.play_example(k, speed=0)
        texts += [*shown_texts(w), *html_texts(w.snapshot())]
    assert not split_units(texts)
    assert "360\u00a0km" in pathing.scale_note("en")._repr_html_()


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_03_shows_every_number_with_its_unit(lang):
    table, lesson = intensity.levels_table(lang), intensity.intensity_lesson(lang)
    texts = [*shown_texts(table), *html_texts(table.snapshot()), *html_texts(glossary("intensity", lang)._repr_html_())]
    for key in intensity.DEMOS:  # each worked example and its "why" (1,400 km, 26.5 °C)
        lesson.play(key, speed=0)
        texts += [*shown_texts(lesson), *html_texts(lesson.snapshot())]
    assert not split_units(texts)


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_06_shows_every_number_with_its_unit(lang):
    reach = real.region_reach(lang)
    reach.prediction.lock_in("a")  # the table and its caption ("within 200 km") show once a prediction is locked in
    parts = [real.facts("data", lang), real.facts("directions", lang), glossary("real", lang)]
    texts = [t for p in parts for t in html_texts(p._repr_html_())]
    for box in (real.fairer_ring(lang), reach, real.mountains(lang)):
        texts += [*shown_texts(box), *html_texts(box.snapshot())]
    assert not split_units(texts)
    assert any("\u00a0公里" in t or "\u00a0km" in t for t in shown_texts(real.mountains(lang)))  # "passed 41 km away"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson", ["pathing", "intensity", "real"])
def test_quizzes_show_numbers_with_their_units_and_save_the_plain_text(lesson, lang):
    q = quiz(lesson, lang)
    assert isinstance(q, LessonQuiz)
    answer_every_choice(q)  # every choice question's feedback ("why") shows too
    assert not split_units(shown_texts(q))
    assert not split_units(html_texts(q.to_html()))
    assert all("\u00a0" not in e.question + e.answer for e in q.sheet.entries)  # the CSV keeps the catalog's texts
    assert len(q.sheet.entries) == sum(item.question.kind == "choice" for item in q.items)


def test_a_restored_prediction_keeps_its_choice_when_its_labels_change():
    box = real.region_reach("zh-TW")
    box.prediction.lock_in("c")
    again = real.region_reach("zh-TW")  # the same lesson sheet: the prediction comes back
    assert again.prediction.choice.value == "c" and again.prediction.locked
    assert "200\u00a0公里" in again.prediction.children[1].value


# --- the notebooks' own texts (their markdown cells) ---------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
LESSON_NOTEBOOKS = sorted(p for lang in LANGS for p in (ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb"))
#: Code in a markdown cell (a fenced block or `a span`) is typed as it is: a no-break space there would be copied.
_UNIT_WORD = re.compile(r"km/h|m/s|knots?|°[NEC]?|[a-zA-Z]+|%|度|公里|百帕|節|小時|公尺|毫米|分鐘|\d[\d.,]*")
_MARKDOWN_CODE = re.compile(r"```[\s\S]*?```|`[^`\n]*`")


def markdown_split_units(text: str) -> list[str]:
    """The number-and-unit pairs of a markdown text (outside its code) that an ordinary space separates, so that a
    phone may end a line between them.

    >>> markdown_split_units("below 62 km/h, 34 kt, `23.5 km` and 5 min")
    ['62 km/h', '34 kt', '5 min']
    >>> markdown_split_units("每小時 62 公里、30 節") == ["每小時 62", "62 公里", "30 節"]
    True
    >>> markdown_split_units("below 62\u00a0km/h, 24 hours, 10–15 years")
    []
    """
    prose = _MARKDOWN_CODE.sub(lambda m: "\0" * len(m.group()), text)
    out = []
    for m in common._UNIT_GAP.finditer(prose):
        number = re.search(r"(?:每小時|每秒|北緯|東經|[\d.,]+)$", prose[:m.start()])
        unit = _UNIT_WORD.match(prose[m.end():])
        out.append(f"{number.group() if number else ''} {unit.group() if unit else ''}")
    return out


@pytest.mark.parametrize("path", LESSON_NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_notebooks_own_text_keeps_every_number_with_its_unit(path):
    """Lessons 01–07's markdown cells, in both languages: a no-break space (U+00A0) joins each number to its unit
    ("62 km/h", "34 kt", "每小時 62 公里"), as the lessons' outputs do, so a phone never ends a line between them."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    split = [pair for c in cells if c["cell_type"] == "markdown" for pair in markdown_split_units("".join(c["source"]))]
    assert not split, f"{path.parent.name}/{path.name}: {len(split)} numbers an ordinary space splits from their unit: {split}"
