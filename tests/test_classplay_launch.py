"""Which page a URL gets: the teacher's projector only with a teacher's key; the join page otherwise.

Also the join flow's page side: the address becomes the seat's link, a reload on the same
device gets the seat back, another device is told the seat is in use; the lobby's short address;
store problems said on the setup screen in the teacher's language.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.classroom.teachers import add_teacher, local_teacher
from typhoon_edu.ui.classplay import StoreProblemPage, launch
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice

SERVED_ENV = ("QUERY_STRING", "VOILA_PREHEAT", "SERVER_SOFTWARE", "SCRIPT_NAME", "TYPHOON_EDU_PUBLIC_URL")


def all_text(w: Any) -> str:
    out = []
    for attr in ("value", "description", "placeholder"):
        v = getattr(w, attr, None)
        if isinstance(v, str):
            out.append(v)
    for c in getattr(w, "children", ()) or ():
        out.append(all_text(c))
    return "\n".join(out)


@pytest.fixture
def jupyterlab(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SERVED_ENV:
        monkeypatch.delenv(name, raising=False)


def choices() -> SetupChoices:
    return SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                         SeatChoice("medium", "", "Korea")], regions="chosen", seed=11, speed=0)


def test_a_teachers_key_gets_the_projector_with_only_their_rooms(store: RoomStore) -> None:
    lin, key = add_teacher(store, "Ms Lin")
    chen, _ = add_teacher(store, "Mr Chen")
    mine = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=1, teacher=lin)
    his = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=2, teacher=chen)
    app = launch({"teacher": key}, lang="en", store=store, display=False)
    assert isinstance(app, ProjectorApp) and app.teacher == lin
    codes = [r.code for r in app.refresh_rooms()]
    assert codes == [mine.code]
    text = all_text(app.root)
    assert mine.code in text and his.code not in text
    with pytest.raises(Exception, match="another teacher"):
        app.open(his.code)


def test_after_a_room_the_projector_is_still_the_teachers_for_the_next_one(store: RoomStore) -> None:
    """Leaving a room (New game, Leave) lists the teacher's rooms and starts the next room as theirs:
    the teacher's drawer, built with the first room, must not take the credential's place."""
    lin, key = add_teacher(store, "Ms Lin")
    app = launch({"teacher": key}, lang="en", store=store, display=False)
    first = app.start(choices())
    app.new_game()
    assert app.screen == "setup" and app.teacher == lin
    assert [r.code for r in app.refresh_rooms()] == [first.code]
    second = app.start(choices())
    assert second.code != first.code and second.owner == lin.id
    app.drawer.pause_button.click()
    assert Room.open(store, second.code, teacher=lin).paused


@pytest.mark.parametrize("query", [{}, {"teacher": ""}, {"teacher": "not-a-key"}, {"join": ""},
                                   {"join": "ABCDE"}, {"teacher": "x" * 500}])
def test_without_a_valid_key_every_address_is_the_join_page(store: RoomStore, query: dict[str, str]) -> None:
    lin, key = add_teacher(store, "Ms Lin")
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=1, teacher=lin)
    app = launch(query, lang="en", store=store, display=False)
    assert isinstance(app, SeatApp) and app.screen == "join"
    text = all_text(app.root)
    assert room.code not in text and key not in text  # no list of rooms, no codes
    assert "typhoon-join-code" in app.join.code._dom_classes  # the code field


def test_in_jupyterlab_the_notebooks_user_is_the_teacher(store: RoomStore, jupyterlab: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import typhoon_edu.ui.classplay as classplay

    monkeypatch.setattr(classplay, "page_query", lambda: {})
    old = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=1, teacher=local_teacher(store))
    app = launch(lang="en", store=store, display=False)
    assert isinstance(app, ProjectorApp) and app.teacher.is_local
    assert [r.code for r in app.refresh_rooms()] == [old.code]
    from typhoon_edu.ui.dashboard import ClassPlayApp

    lesson = ClassPlayApp(lang="en", store=store)  # lesson 04
    assert lesson.teacher.is_local and lesson.start(choices()) is not None


def test_in_voila_the_notebook_gives_no_one_the_teacher_by_default(store: RoomStore, jupyterlab: None,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import typhoon_edu.ui.classplay as classplay

    monkeypatch.setenv("QUERY_STRING", "")  # a kernel Voilà started for a request without a key
    monkeypatch.setattr(classplay, "page_query", lambda: {})
    assert launch(lang="en", store=store, display=False).screen == "join"
    from typhoon_edu.ui.dashboard import ClassPlayApp

    lesson = ClassPlayApp(lang="zh-TW", store=store)  # lesson 04 served by Voilà, opened by a student
    assert lesson.teacher is None
    assert "typhoon-teacher-needed" in all_text(lesson.body) and lesson.setup.box not in lesson.body.children
    assert lesson._start_clicked(choices()) is None
    assert "只有老師" in lesson.setup.message.value  # refused by the room API, said in the page's language


def test_take_opens_a_colleagues_room_from_the_handover_link(store: RoomStore) -> None:
    lin, _ = add_teacher(store, "Ms Lin")
    chen, chen_key = add_teacher(store, "Mr Chen")
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=1, teacher=lin)
    secret = room.handover_link()
    app = launch({"teacher": chen_key, "take": secret}, lang="en", store=store, display=False)
    assert app.room is not None and app.room.id == room.id and app.room.owner == chen.id
    assert app._tokens == room.issued_tokens  # the same links: the class goes on with the QR codes it has


# ---------------------------------------------------------------------- joining and devices
def test_joining_by_code_puts_the_seats_link_in_the_address_and_a_reload_gets_it_back(store: RoomStore) -> None:
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=1, teacher=local_teacher(store))
    page = launch({"join": room.code.lower(), "device": "tablet-1"}, lang="en", store=store, display=False)
    assert page.join.take("Japan")
    assert page.screen == "seat" and page.address.query == f"seat={page.token}"
    reload = launch({"seat": page.token, "device": "tablet-1"}, lang="en", store=store, display=False)
    assert reload.screen == "seat" and reload.region == "Japan"
    thief = launch({"seat": page.token, "device": "another-phone"}, lang="zh-TW", store=store, display=False)
    assert thief.screen == "join" and thief.room is None
    assert "另一臺裝置" in thief.join.message.value


def test_a_photographed_seat_link_is_refused_on_a_second_device_until_reset(store: RoomStore) -> None:
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=1, teacher=local_teacher(store))
    link = room.issued_tokens["Taiwan"]
    assert SeatApp(lang="en", store=store, token=link, device="phone-a").screen == "seat"
    second = SeatApp(lang="en", store=store, token=link, device="phone-b")
    assert second.screen == "join" and "already open on another device" in second.join.message.value
    projector = ProjectorApp(lang="en", store=store, fullscreen=False)
    projector.open(room.code)
    projector.drawer.render()
    buttons = [w for w in _walk(projector.drawer.seats) if isinstance(w, widgets.Button)
               and "typhoon-teacher-reset-device-Taiwan" in w._dom_classes]
    assert len(buttons) == 1
    buttons[0].click()
    assert SeatApp(lang="en", store=store, token=link, device="phone-b").screen == "seat"


def _walk(w: Any) -> list[Any]:
    out = [w]
    for c in getattr(w, "children", ()) or ():
        out.extend(_walk(c))
    return out


def test_join_cards_show_the_short_join_address_and_the_code_in_large_type(store: RoomStore) -> None:
    app = ProjectorApp(lang="en", store=store, fullscreen=False, public_url="http://192.168.1.23:8866/")
    room = app.start(choices())
    cards = app.join_cards()
    assert cards.count('<div class="typhoon-join-card-address">192.168.1.23:8866/<wbr>join</div>') == 2
    assert cards.count(f'<div class="typhoon-join-card-code">{room.code}</div>') == 2
    assert "max(64px" in app.lobby.head.value  # the room code's size (measured in the browser test)


# ---------------------------------------------------------------------- store problems
@pytest.mark.parametrize("lang,words", [("en", "cannot be written"), ("zh-TW", "無法寫入")])
def test_a_read_only_store_is_said_on_the_setup_screen_and_start_is_not_silent(tmp_path: Path, lang: str,
                                                                              words: str) -> None:
    db = tmp_path / "rooms.sqlite3"
    local_teacher(RoomStore(sqlite_url(db)))
    ro = RoomStore(f"sqlite:///file:{db.as_posix()}?mode=ro&uri=true")
    app = ProjectorApp(lang=lang, store=ro, fullscreen=False)
    app.refresh_rooms()
    assert words in app.setup.message.value
    app.setup.message.value = ""
    assert app._start_clicked(choices()) is None
    assert words in app.setup.message.value and app.screen == "setup"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_store_folder_that_cannot_be_made_gives_a_page_with_the_reason(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Path, lang: str) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("TYPHOON_EDU_DB", str(blocker / "sub" / "rooms.sqlite3"))
    page = launch({}, lang=lang, display=False)
    assert isinstance(page, StoreProblemPage)
    from typhoon_edu.classroom.errors import error_text

    assert error_text(page.error, lang) in page.root.children[0].value


def test_new_join_link_in_the_teachers_drawer_replaces_only_that_seats_link(store: RoomStore) -> None:
    app = ProjectorApp(lang="en", store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = app.start(choices())
    old = dict(room.issued_tokens)
    app.drawer.render()
    buttons = [w for w in _walk(app.drawer.seats) if isinstance(w, widgets.Button)
               and "typhoon-teacher-new-link-Taiwan" in w._dom_classes]
    assert len(buttons) == 1
    buttons[0].click()
    assert app._tokens["Taiwan"] != old["Taiwan"] and app._tokens["Japan"] == old["Japan"]
    assert "?seat=" + app._tokens["Taiwan"] in app.join_cards() and old["Taiwan"] not in app.join_cards()
    assert SeatApp(lang="en", store=store, token=old["Taiwan"], device="p").screen == "join"
    assert SeatApp(lang="en", store=store, token=app._tokens["Taiwan"], device="p").screen == "seat"


def test_voila_inside_a_logged_in_jupyter_server_is_its_users_page(store: RoomStore, jupyterlab: None,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Binder's /voila/render/… (Jupyter's login already names the user); typhoon-edu serve always wants the key."""
    import typhoon_edu.ui.classplay as classplay

    monkeypatch.setattr(classplay, "page_query", lambda: {})
    monkeypatch.setenv("QUERY_STRING", "")
    monkeypatch.setenv("SCRIPT_NAME", "/user/abc/voila/render/notebooks/dashboard.ipynb")
    monkeypatch.delenv("TYPHOON_EDU_PUBLIC_URL", raising=False)
    assert isinstance(launch(lang="en", store=store, display=False), ProjectorApp)
    monkeypatch.setenv("TYPHOON_EDU_PUBLIC_URL", "http://127.0.0.1:8866/")
    assert launch(lang="en", store=store, display=False).screen == "join"


@pytest.mark.parametrize("raw", ["nan", "NaN", "inf", "-inf", "1e999", "fast", ""])
def test_a_speed_that_is_no_finite_number_falls_back_to_the_default(store: RoomStore, raw: str) -> None:
    # min(max(nan, 0), 8) is nan: the seat page's pacer would sleep nan seconds between frames
    page = launch({"join": "", "speed": raw}, lang="en", store=store, display=False)
    assert page.speed == 1.0


@pytest.mark.parametrize(("raw", "speed"), [("0", 0.0), ("2", 2.0), ("-3", 0.0), ("99", 8.0), ("0.5", 0.5)])
def test_a_speed_is_kept_between_0_and_8(store: RoomStore, raw: str, speed: float) -> None:
    page = launch({"join": "", "speed": raw}, lang="en", store=store, display=False)
    assert page.speed == speed


def test_an_address_that_asks_for_a_language_keeps_it_over_the_browsers(store: RoomStore) -> None:
    """A seat link with ``&lang=zh-TW`` opened in an English browser stays in Chinese (the browser's language is
    only the guess for an address that asks for none); the final CI saw the refusal turn English under a test."""
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=1, lang="en",
                       teacher=local_teacher(store))
    asked = launch({"join": room.code, "lang": "zh-TW", "device": "p-1"}, store=store, display=False)
    asked._browser_lang("en-US")
    assert asked.lang == "zh-TW"
    guessed = launch({"join": "", "device": "p-2"}, lang="zh-TW", store=store, display=False)
    guessed._browser_lang("en-US")
    assert guessed.lang == "en"


def test_an_address_that_asks_for_a_language_keeps_it_once_the_team_has_joined(store: RoomStore) -> None:
    """``?join=<code>&lang=zh-TW`` on an English room: the join page stays in Chinese, and so does the seat the
    team takes there (the room's language took over on entering the seat, against what the address asked)."""
    room = Room.create(store, [Seat("Taiwan"), Seat("Japan"), Seat("Korea")], seed=1, lang="en",
                       teacher=local_teacher(store))
    page = launch({"join": room.code, "lang": "zh-TW", "device": "p-1"}, store=store, display=False)
    assert page.lang == "zh-TW"
    assert page.join.take("Japan")
    assert page.screen == "seat" and page.region == "Japan"
    assert page.lang == "zh-TW", "joining a seat dropped the language the address asked for"
    plain = launch({"join": room.code, "device": "p-2"}, lang="zh-TW", store=store, display=False)
    assert plain.join.take("Korea")
    assert plain.lang == "en", "a page whose address asks for no language takes the room's"
