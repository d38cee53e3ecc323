"""The teacher's rooms list tells a teacher's classes apart: the teams (people's names where given), the rules
variant, one computer or phones, and whether the game is over; in both languages.

Before, a row said only the regions, the round and the last move's time: two classes playing the same five regions
looked the same.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.ui.classplay.projector import ProjectorApp


def rows_text(app: ProjectorApp) -> dict[str, str]:
    """Each room row's words (tags stripped), by room code."""
    out = {}
    for row in app.setup.rooms_box.children:
        kids = getattr(row, "children", ())
        if len(kids) != 2:
            continue
        html = kids[1].value
        code = re.search(r"typhoon-room-chip'>([^<]+)<", html)
        if code:
            out[code.group(1)] = " ".join(unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?b>", "", html))).split())
    return out


@pytest.fixture
def rooms(store: RoomStore) -> tuple[ProjectorApp, Room, Room]:
    me = local_teacher(store)
    phones = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", name="Ken"), Seat("Korea", "greedy")],
                         seed=3, variant="standard", teacher=me)
    one = Room.create(store, [Seat("Taiwan", name="Ann"), Seat("Japan"), Seat("Korea", "greedy")],
                      seed=4, variant="advanced", options={"devices": False}, teacher=me)
    phones.end()
    app = ProjectorApp(lang="en", store=store, fullscreen=False, teacher=me)
    app.refresh_rooms()
    return app, phones, one


def test_rows_name_the_teams_rules_hands_and_end_in_english(rooms: tuple[ProjectorApp, Room, Room]) -> None:
    app, phones, one = rooms
    text = rows_text(app)
    assert set(text) == {phones.code, one.code}
    ended, playing = text[phones.code], text[one.code]
    assert "Mei (Taiwan)" in ended and "Ken (Japan)" in ended and "Korea (computer)" in ended
    assert "Ann (Taiwan)" in playing and "Korea (computer)" in playing
    assert "standard rules" in ended and "advanced rules" in playing
    assert "phones or tablets" in ended and "one computer" in playing
    assert "game over" in ended and "game over" not in playing
    assert "round 1" in playing and "last move" in playing


def test_rows_say_the_same_in_chinese(rooms: tuple[ProjectorApp, Room, Room]) -> None:
    app, phones, one = rooms
    app.set_lang("zh-TW")
    text = rows_text(app)
    ended, playing = text[phones.code], text[one.code]
    assert "Mei（臺灣）" in ended and "Ken（日本）" in ended and "韓國（電腦）" in ended
    assert "Ann（臺灣）" in playing
    assert "標準規則" in ended and "進階規則" in playing
    assert "手機或平板" in ended and "一臺電腦" in playing
    assert "遊戲已結束" in ended and "遊戲已結束" not in playing
    assert "第 1 輪" in playing


def test_a_name_is_escaped_in_the_list(store: RoomStore) -> None:
    me = local_teacher(store)
    room = Room.create(store, [Seat("Taiwan", name="<i>Al</i>"), Seat("Japan"), Seat("Korea", "greedy")],
                       seed=5, teacher=me)
    app = ProjectorApp(lang="en", store=store, fullscreen=False, teacher=me)
    app.refresh_rooms()
    html = next(r.children[1].value for r in app.setup.rooms_box.children if room.code in r.children[1].value)
    assert "<i>Al</i>" not in html and "&lt;i&gt;Al&lt;/i&gt;" in html
