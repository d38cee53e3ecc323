"""Ending a game from the teacher's drawer (asked, then confirmed) and how the results name who won or led."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.results import summary_lines
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.tables import seat_infos
from typhoon_edu.ui.classplay.viewdata import SeatChoice


def _game(tmp_path: Path, lang: str = "en") -> ProjectorApp:
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    app = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    app.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                            SeatChoice("medium", "", "Korea")], regions="chosen", seed=11, speed=0))
    app.show_board()
    return app


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_end_the_game_now_asks_first_and_a_cancel_keeps_the_game(tmp_path: Path, lang: str) -> None:
    app = _game(tmp_path, lang)
    drawer, room = app.drawer, app.room
    drawer.open()
    drawer.end_button.click()
    assert room.is_open and app.screen == "game", "one click ended the game"
    assert drawer.end_confirm.layout.display is None and drawer.end_button.layout.display == "none"
    assert i18n.t("classplay.teacher.end_question", lang) in drawer.end_question.value
    assert drawer.end_yes.description == i18n.t("classplay.teacher.end_yes", lang)
    assert drawer.end_no.description == i18n.t("classplay.teacher.end_no", lang)
    drawer.end_no.click()
    assert room.is_open and drawer.end_confirm.layout.display == "none" and drawer.end_button.layout.display is None
    drawer.end_button.click()
    drawer.end_yes.click()
    assert not room.is_open and app.screen == "results"


def test_the_kernel_ends_only_a_game_whose_end_was_asked_for_and_not_dropped(tmp_path: Path) -> None:
    app = _game(tmp_path)
    drawer, room = app.drawer, app.room
    assert drawer.end() is False and room.is_open  # the "yes" without the question first: only asks
    assert drawer.end_confirm.layout.display is None
    drawer.close()  # Esc or the Teacher button: the question is dropped with the drawer
    assert drawer.end_confirm.layout.display == "none"
    assert drawer.end() is False and room.is_open
    drawer.ask_end()
    assert drawer.end() is True and not room.is_open and app.screen == "results"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_game_ended_before_any_damage_crowns_no_one(tmp_path: Path, lang: str) -> None:
    app = _game(tmp_path, lang)
    app.drawer.ask_end()
    app.drawer.end()
    head = app.results.headline.value
    assert i18n.t("classplay.results.ended", lang) in head
    assert "class='typhoon-winner'" not in head, "the team with the most starting HP was crowned"
    assert i18n.t("classplay.results.no_leader", lang) in head


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_two_winners_are_winners(tmp_path: Path, lang: str, monkeypatch: Any) -> None:
    app = _game(tmp_path, lang)
    room = app.room
    two = {"winners": ["Taiwan", "Japan"], "biggest_typhoon": None, "most_damaged": None, "damage_taken": {}}
    one = {**two, "winners": ["Japan"]}
    monkeypatch.setattr(type(room), "is_over", property(lambda _self: True))
    monkeypatch.setattr(type(room), "summary", lambda _self: two)
    app.results.render()
    assert (f"<div class='typhoon-winner-label'>{i18n.t('classplay.results.winner_label', lang)}</div>"
            in app.results.headline.value)
    assert i18n.t("classplay.results.winner_label", lang) != i18n.t("classplay.results.winner_label_one", lang)
    seats = seat_infos(room)
    assert summary_lines(two, seats, app.rules, lang)[0].startswith(i18n.t("dash.results.winners", lang, winners=""))
    assert summary_lines(one, seats, app.rules, lang)[0].startswith(
        i18n.t("dash.results.winners_one", lang, winners=""))
    monkeypatch.setattr(type(room), "summary", lambda _self: one)
    app.results.render()
    assert (f"<div class='typhoon-winner-label'>{i18n.t('classplay.results.winner_label_one', lang)}</div>"
            in app.results.headline.value)
