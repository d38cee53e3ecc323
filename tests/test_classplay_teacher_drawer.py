"""The teacher's drawer says each seat's device as it is, offers only the buttons that do something, and keeps
what the page said (an undo, a refusal) in sight while it covers the side column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice, d


def _class(tmp_path: Path, lang: str) -> tuple[ProjectorApp, dict[str, SeatApp]]:
    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    app = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = app.start(SetupChoices([SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "Ken", "Japan"),
                                   SeatChoice("medium", "", "Korea")], regions="chosen", seed=11, speed=0))
    phones = {r: SeatApp(lang=lang, store=store, token=t, device=f"phone-{r}") for r, t in room.issued_tokens.items()}
    app.show_board()  # the teacher starts the game: the phones read it at their next poll
    for phone in phones.values():
        phone.sync()
    app.advance()
    app.drawer.open()
    return app, phones


def _widgets(root: Any) -> list[Any]:
    out, stack = [], [root]
    while stack:
        w = stack.pop()
        out.append(w)
        stack.extend(getattr(w, "children", ()))
    return out


def _row(app: ProjectorApp, region: str) -> Any:
    """The drawer's row of ``region``'s seat."""
    return next(w for w in app.drawer.seats.children
                if any(f"typhoon-teacher-kind-{region}" in getattr(x, "_dom_classes", ()) for x in _widgets(w)))


def _said(row: Any) -> str:
    return " ".join(w.value for w in _widgets(row) if isinstance(w, widgets.HTML))


def _offered(row: Any) -> set[str]:
    """The buttons the row shows (a hidden one offers nothing)."""
    return {w.description for w in _widgets(row) if isinstance(w, widgets.Button)
            and w.layout.display != "none" and not w.disabled
            and all(getattr(p, "layout", None) is None or p.layout.display != "none"
                    for p in _widgets(row) if w in getattr(p, "children", ()))}


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_freed_seat_no_longer_says_its_device_is_joined_and_keeps_its_row(tmp_path: Path, lang: str) -> None:
    app, _phones = _class(tmp_path, lang)
    row = _row(app, "Japan")
    assert i18n.t("classplay.teacher.bound", lang) in _said(row)
    app.drawer.reset_device("Japan")
    row_after = _row(app, "Japan")
    assert row_after is row, "the row was rebuilt: the keyboard's focus on its button is lost"
    assert i18n.t("classplay.teacher.freed", lang) in _said(row)
    assert i18n.t("classplay.teacher.reset_device", lang) not in _offered(row)
    assert i18n.t("classplay.teacher.revoke", lang) in _offered(row)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_seat_given_back_to_a_person_offers_no_revoke_before_a_device_joins(tmp_path: Path, lang: str) -> None:
    app, _phones = _class(tmp_path, lang)
    app.drawer.set_kind("Japan", "greedy")
    app.drawer.set_kind("Japan", "person")
    row = _row(app, "Japan")
    assert i18n.t("classplay.teacher.not_joined", lang) in _said(row)
    offered = _offered(row)
    assert i18n.t("classplay.teacher.revoke", lang) not in offered, "Revoke device beside 'no device yet'"
    assert i18n.t("classplay.teacher.new_link", lang) in offered


def _mei_places_a_storm_and_the_teacher_takes_it_back(tmp_path: Path, lang: str) -> tuple[Any, dict[str, Any]]:
    app, phones = _class(tmp_path, lang)
    mei = phones["Taiwan"]
    mei.sync()
    cells = mei.decisions.highlight_cells()
    assert mei.decide(mei.decisions.cell_action(cells[0]))
    app.advance()
    assert app.room.can_undo()
    app.drawer.undo_button.click()
    return app, phones


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_an_undo_is_said_in_the_open_drawer_and_in_the_log(tmp_path: Path, lang: str) -> None:
    app, _phones = _mei_places_a_storm_and_the_teacher_takes_it_back(tmp_path, lang)
    undone = d("game.undone", lang)
    assert undone in app.message.value  # the side column, under the drawer
    assert undone in app.drawer.note.value, "the drawer covers the only place that says the undo worked"
    assert app.game.stage.log_texts()[0] == undone, "the log does not say a decision was taken back"
    app.drawer.close()
    assert app.drawer.note.value == ""


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_team_whose_decision_was_taken_back_is_told_on_its_phone(tmp_path: Path, lang: str) -> None:
    """The phone rebuilt its view after the undo with no word: the team's storm vanished unexplained."""
    _app, phones = _mei_places_a_storm_and_the_teacher_takes_it_back(tmp_path, lang)
    mei = phones["Taiwan"]
    mei.sync()
    undone = d("game.undone", lang)
    assert mei.stage.log_texts()[0] == undone, mei.stage.log_texts()[:2]
    assert undone in mei.message.value  # the page's status line (a live region) says it
    other = phones["Japan"]
    other.sync()
    assert other.stage.log_texts()[0] == undone  # every team's log tells the same story
    # the next move clears the message (it stayed on the projector and the phones for the rest of the game)
    assert mei.decide(mei.decisions.cell_action(mei.decisions.highlight_cells()[0]))
    _app.advance()
    mei.sync()
    other.sync()
    assert undone not in mei.message.value and undone not in other.message.value
    assert undone not in _app.message.value and undone not in _app.drawer.note.value


def test_a_problem_is_repeated_in_the_open_drawer(tmp_path: Path, monkeypatch: Any) -> None:
    from typhoon_edu.classroom.errors import StoreError

    app, _phones = _class(tmp_path, "en")

    def fail(*_a: Any, **_k: Any) -> None:
        raise StoreError("disk I/O error")

    monkeypatch.setattr(app.room, "pause", fail)
    app.drawer.pause_button.click()
    problem = app.problems.widget.value
    assert app.problems.widget.layout.display != "none" and "⚠" in problem
    assert problem.split("⚠")[1] in app.drawer.note.value, "the drawer covers the page's problem"
    assert 'role="alert"' not in app.drawer.note.value  # a screen reader heard it once already


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_greyed_undo_says_why(tmp_path: Path, lang: str) -> None:
    """The walk found Undo greyed after the placements and aims of round 1, with no word why. It was right: every aim
    of a game with automatic dice is followed by its direction's die, and undo never goes back across a die roll (the
    class has seen the face). The greyed button says so (its tooltip, read as its description); an enabled one does
    not."""
    app, phones = _class(tmp_path, lang)
    mei = phones["Taiwan"]
    app.drawer.open()
    app.redraw()
    assert app.drawer.undo_button.disabled  # nothing played yet
    assert app.drawer.undo_button.tooltip == i18n.t("error.action.undo_none", lang)
    for cell in ((8, 8), (11, 7), (14, 9)):
        assert mei.decide(mei.decisions.cell_action(cell))
    app._take(app.room.sync())
    assert not app.drawer.undo_button.disabled and not app.drawer.undo_button.tooltip
    mei.sync()
    mei.decisions.buttons()[0].click()  # aim T1: its direction's die is rolled at once
    app._take(app.room.sync())
    assert app.drawer.undo_button.disabled
    assert app.drawer.undo_button.tooltip == i18n.t("error.action.undo_die", lang)
