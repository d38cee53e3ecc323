"""The browser tests' layout checks (``harness.unreadable`` and its parts) find what they are meant to find.

Each check runs on small static pages in a phone-sized window: once with the defect a lesson really had, where
it must report it, and once as the lessons now draw the same table, where it must report nothing.
"""

from __future__ import annotations

from html import escape

import pytest
from playwright.sync_api import Page

from typhoon_edu.ui.lessons.intensity import level_rows, levels_table_html

from .harness import cut_short_controls, shortened_text, squeezed_text, unreadable

pytestmark = pytest.mark.browser

# A lesson's output area clips what is wider than it, as JupyterLab's and Voilà's do.
FRAME = "<div style='overflow:hidden;width:100%'>{}</div>"


def _bare_table(lang: str) -> str:
    """The levels table as lessons drew it before 6 December: no smallest column width, no scroll box."""
    cell = "border:1px solid #94a3b8;padding:.25em .6em;text-align:left"
    head = ["level", "name", "class", "ms", "kmh", "damage", "cells"]
    from typhoon_edu.ui.lessons.common import lt

    rows = ["<tr>" + "".join(f"<th style='{cell}'>{escape(lt(f'intensity.col_{k}', lang))}</th>" for k in head) + "</tr>"]
    rows += ["<tr>" + "".join(f"<td style='{cell}'>{escape(str(v))}</td>" for v in row) + "</tr>" for row in level_rows(lang)]
    return f"<table style='border-collapse:collapse;font-size:1.05em'>{''.join(rows)}</table>"


def _show(page: Page, body: str, lang: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_content(f"<!doctype html><html lang='{lang}'><body style='margin:0;padding:0 16px;font-size:14px'>{body}</body></html>")


@pytest.mark.parametrize("viewport", ["phone"])
def test_a_column_one_chinese_character_wide_is_found(page: Page) -> None:
    _show(page, FRAME.format(_bare_table("zh-TW")), "zh-TW")
    found = squeezed_text(page)
    assert any("熱帶低壓" in f and "lines in" in f for f in found), found


@pytest.mark.parametrize("viewport", ["phone"])
def test_a_table_wider_than_its_box_is_found(page: Page) -> None:
    _show(page, FRAME.format(_bare_table("en")), "en")
    found = squeezed_text(page)
    assert any(f.startswith('table "Level') and "wide in" in f for f in found), found


@pytest.mark.parametrize("viewport", ["phone"])
def test_a_table_cut_off_further_out_is_found(page: Page) -> None:
    # as in a lesson: the widget's own box grows with the table, and the output area around it clips it
    _show(page, FRAME.format(f"<div style='width:max-content'>{_bare_table('en')}</div>"), "en")
    found = squeezed_text(page)
    assert any(f.startswith('table "Level') and "cut off" in f for f in found), found


@pytest.mark.parametrize("viewport", ["phone"])
def test_a_scroll_box_the_keyboard_cannot_reach_is_still_a_cut(page: Page) -> None:
    _show(page, FRAME.format(f"<div style='overflow-x:auto'>{_bare_table('en')}</div>"), "en")
    found = squeezed_text(page)
    assert any("table" in f for f in found), found


@pytest.mark.parametrize("viewport", ["phone"])
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_lessons_tables_pass_on_a_phone(page: Page, lang: str) -> None:
    _show(page, FRAME.format(levels_table_html(lang)), lang)
    assert unreadable(page) == []
    # the scroll box really scrolls: the table is wider than a phone in both languages, and the keyboard reaches it
    box = page.locator(".typhoon-table-scroll")
    assert box.evaluate("e => e.scrollWidth > e.clientWidth"), "the table fits: this test no longer tests a scroll box"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "typhoon-table-scroll"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('.typhoon-table-scroll').scrollLeft > 0")


@pytest.mark.parametrize("viewport", ["phone"])
def test_a_scroll_box_cut_off_itself_and_a_cut_paragraph_are_found(page: Page) -> None:
    # as lesson 05 was: the widget's box grew to the table's width, so the scroll box never scrolled and the
    # paragraph under it ran past the output area's edge
    wide = f"<div style='width:max-content'>{levels_table_html('en')}<p>{'a long note, ' * 30}</p></div>"
    _show(page, FRAME.format(wide), "en")
    found = squeezed_text(page)
    assert any(f.startswith('table "Level') and "cut off" in f for f in found), found
    assert any(f.startswith('p "a long note') and "cut off" in f for f in found), found


@pytest.mark.parametrize("viewport", ["phone"])
def test_a_button_one_character_a_line_is_found(page: Page) -> None:
    row = ("<div style='display:flex;width:200px'><button style='flex:1 1 0;min-width:0'>暫停</button>"
           "<button style='flex:4 1 auto'>收回上一個決定收回上一個決定</button></div>")
    _show(page, row, "zh-TW")
    found = cut_short_controls(page)
    assert any(f.startswith('button "暫') and "a character or so each" in f for f in found), found
    _show(page, "<div style='display:flex;flex-wrap:wrap;width:200px'><button>暫停</button></div>", "zh-TW")
    assert cut_short_controls(page) == []
    # an icon beside a short word sits a few pixels higher; it is not a second line
    icon = "<i style='display:inline-block;width:14px;height:18px;vertical-align:-6px'>&#x2022;</i>"
    _show(page, f"<div style='display:flex;width:300px'><button style='flex:0 0 auto'>{icon} 提示</button></div>", "zh-TW")
    assert cut_short_controls(page) == []


def test_a_name_shortened_with_an_ellipsis_is_found(page: Page) -> None:
    name = "<span style='display:block;width:{w};white-space:nowrap;overflow:hidden;text-overflow:ellipsis'>{t}</span>"
    _show(page, name.format(w="120px", t="Korea (computer, hard)"), "en")
    found = shortened_text(page)
    assert len(found) == 1 and found[0].startswith('"Korea (computer, hard)" is shortened'), found
    clamp = ("<span style='display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden;"
             "width:60px'>Korea (computer, hard) and more words</span>")
    _show(page, clamp, "en")
    assert len(shortened_text(page)) == 1
    _show(page, name.format(w="300px", t="Korea (computer, hard)"), "en")  # room enough: whole
    assert shortened_text(page) == []
