"""The message lines of class play follow a switch of language, and a refusal is logged once.

A team's phone (:class:`~typhoon_edu.ui.classplay.seat.SeatApp`), its join page and the teacher's projector
(:class:`~typhoon_edu.ui.classplay.projector.ProjectorApp`) each say one thing at a time on a message line: a
refusal ("Someone else moved first …"), a note ("The last decision was taken back.", "Keep this page …"). A rehearsal
switched a phone to 中文 after such a refusal and still read it in English. Each test here has a page say one of
them, switches the page's language and reads the line again; the refusals' log lines are counted too (saying a
refusal again in another language is no new refusal: it logged once more per switch, a store failure with its
traceback).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from classplay_helpers import PEOPLE, SEAT_CHOICES, ended_room, open_class, page_text

from typhoon_edu import i18n
from typhoon_edu.classroom.errors import ClassroomError, StaleWrite, StoreError
from typhoon_edu.classroom.rooms import Room
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.ui.classplay.pacer import Pacer
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.runtime import error_text
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import d

#: (the language a message is said in, the language the person switches to)
SWITCHES = [("en", "zh-TW"), ("zh-TW", "en")]


def said(widget: Any) -> str:
    """What a message line shows, as text."""
    return " ".join(page_text(widget.value).split())


def switch(page: SeatApp | ProjectorApp, lang: str) -> None:
    """The person taps the page's language switch."""
    if isinstance(page, SeatApp):
        page._switch_lang(lang)
    else:
        page.set_lang(lang)


def assert_follows(page: SeatApp | ProjectorApp, words: Any, first: str, then: str) -> None:
    """``page``'s message line says ``words(first)``; after a switch to ``then`` it says ``words(then)`` instead."""
    before = said(page.message)
    assert words(first) in before, (words(first), before)
    switch(page, then)
    after = said(page.message)
    assert words(then) in after, f"after a switch to {then}, the message line still says {after!r}"
    assert words(first) not in after


def one_computer(store: RoomStore, lang: str) -> ProjectorApp:
    """A projector whose class plays on it (no phones), at the first decision, its team's hand lifted."""
    projector = ProjectorApp(lang=lang, store=store, fullscreen=False)
    room = projector.start(SetupChoices(list(SEAT_CHOICES), regions="chosen", seed=11, speed=0, devices=False))
    assert projector.screen == "game"
    projector.reveal(room.game.current_player)
    return projector


@pytest.fixture
def busy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every page's storms are moving (its animation not played out)."""
    monkeypatch.setattr(Pacer, "idle", property(lambda _self: False))
    yield


def refusal_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The log lines of refusals told to a person (``guard.log_refusal``)."""
    return [r for r in caplog.records if r.name == "typhoon_edu.ui"
            and (r.getMessage().startswith("refused in") or r.getMessage().startswith("the room store failed in"))]


# ---------------------------------------------------------------------- a team's phone
@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_phones_someone_moved_first_follows_a_switch(store: RoomStore, first: str, then: str) -> None:
    _projector, phones = open_class(store, first)
    mei = phones["Taiwan"]
    twin = SeatApp(lang=first, store=store, token=mei.token)  # the same seat's link opened twice
    assert mei.decide(mei.decisions.cell_action((8, 8)))
    assert not twin.decide(twin.decisions.cell_action((9, 8)))  # it still showed the decision before
    assert_follows(twin, lambda lang: i18n.t("classplay.stale", lang), first, then)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_phones_wait_for_the_storms_follows_a_switch(store: RoomStore, busy: None, first: str,
                                                         then: str) -> None:
    _projector, phones = open_class(store, first)
    mei = phones["Taiwan"]
    assert not mei.decide("place 8,8")
    assert_follows(mei, lambda lang: i18n.t("classplay.busy", lang), first, then)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_phones_undo_note_follows_a_switch(store: RoomStore, first: str, then: str) -> None:
    projector, phones = open_class(store, first)
    mei = phones["Taiwan"]
    assert mei.decide(mei.decisions.cell_action((8, 8)))
    projector.advance()
    assert projector.undo()
    mei.sync()  # the phone reads the teacher's undo
    assert_follows(mei, lambda lang: d("game.undone", lang), first, then)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_join_pages_bookmark_note_and_its_link_follow_a_switch(store: RoomStore, first: str, then: str) -> None:
    room = Room.create(store, PEOPLE, seed=1, lang=first, teacher=local_teacher(store))
    page = SeatApp(lang=first, store=store, device="tablet-1")
    page.join.code.value = room.code
    assert page.join.take("Japan")
    link = f"href='?seat={page.token}'"
    assert link in page.message.value
    assert_follows(page, lambda lang: i18n.t("classplay.seat.bookmark", lang), first, then)
    assert link in page.message.value, "the seat's own link went with the old language"
    assert i18n.t("classplay.seat.own_link", then) in said(page.message)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_a_refused_rematch_keeps_its_reason_through_a_switch(store: RoomStore, first: str, then: str) -> None:
    """The old link reloaded in two tabs of one phone: the second tab's tap on 'Join the new game as …' is refused
    (the first took the seat); a switch of language took the reason away instead of saying it again."""
    old, tokens = ended_room(store, {"Taiwan": "phone-T"})
    Room.create(store, PEOPLE, seed=4, lang=first, teacher=local_teacher(store), lobby=True, after=old)
    tab, other_tab = (SeatApp(lang=first, store=store, token=tokens["Taiwan"], device="phone-T") for _ in range(2))
    assert other_tab.follow_rematch()
    assert not tab.follow_rematch()
    with pytest.raises(ClassroomError) as refused:  # the same tap again: the reason the page was given
        Room.follow(store, tokens["Taiwan"], "phone-T")

    def reason(lang: str) -> str:
        return " ".join(error_text(refused.value, lang).split())

    assert reason(first) in said(tab.rematch_text)
    tab._switch_lang(then)
    assert reason(then) in said(tab.rematch_text), f"the reason is gone after the switch: {said(tab.rematch_text)!r}"
    assert i18n.t("classplay.seat.rematch_title", then) in said(tab.rematch_text)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_a_phones_refusal_is_logged_once_however_often_the_language_switches(
        store: RoomStore, caplog: pytest.LogCaptureFixture, first: str, then: str) -> None:
    caplog.set_level(logging.INFO, logger="typhoon_edu.ui")
    _projector, phones = open_class(store, first)
    ken = phones["Japan"]
    assert not ken.decide("place 8,8")  # not Japan's turn
    assert said(ken.message) and len(refusal_lines(caplog)) == 1
    shown = {first: said(ken.message)}
    for lang in (then, first, then):
        switch(ken, lang)
        shown.setdefault(lang, said(ken.message))
    assert len(refusal_lines(caplog)) == 1, [r.getMessage() for r in refusal_lines(caplog)]
    assert shown[then] != shown[first] and said(ken.message) == shown[then]


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_a_phones_store_failure_logs_its_traceback_once(store: RoomStore, caplog: pytest.LogCaptureFixture,
                                                        monkeypatch: pytest.MonkeyPatch, first: str,
                                                        then: str) -> None:
    caplog.set_level(logging.INFO, logger="typhoon_edu.ui")
    _projector, phones = open_class(store, first)
    mei = phones["Taiwan"]

    def failing(*_a: Any, **_k: Any) -> Any:
        raise StoreError("disk I/O error")

    monkeypatch.setattr(mei.room, "act", failing)
    assert not mei.decide(mei.decisions.cell_action((8, 8)))
    before = said(mei.message)
    for lang in (then, first, then):
        switch(mei, lang)
    lines = refusal_lines(caplog)
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING and lines[0].exc_info, \
        [r.getMessage() for r in lines]
    assert said(mei.message) and said(mei.message) != before


# ---------------------------------------------------------------------- the teacher's projector
@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_projectors_wait_for_the_storms_follows_a_switch(store: RoomStore, busy: None, first: str,
                                                             then: str) -> None:
    projector = one_computer(store, first)
    projector._board_click(*projector.game.board.geometry.cell_centre(8, 8))
    assert_follows(projector, lambda lang: i18n.t("classplay.busy", lang), first, then)
    projector.set_lang(first)
    assert not projector.decide("place 8,8")
    assert_follows(projector, lambda lang: d("error.wait", lang), first, then)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_projectors_not_that_cell_follows_a_switch(store: RoomStore, first: str, then: str) -> None:
    projector = one_computer(store, first)
    projector._board_click(*projector.game.board.geometry.cell_centre(0, 0))
    assert_follows(projector, lambda lang: d("error.bad_cell", lang, cell=i18n.cell_label((0, 0), lang)), first, then)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_projectors_paused_follows_a_switch(store: RoomStore, first: str, then: str) -> None:
    projector, _phones = open_class(store, first)
    projector.room.pause()
    projector._say_why_the_map_is_not_for_now()
    assert_follows(projector, lambda lang: i18n.t("classplay.paused", lang), first, then)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_projectors_what_the_class_does_now_follows_a_switch(store: RoomStore, first: str, then: str) -> None:
    """A tap on the projector's map while the teams decide on their phones: what the class does instead."""
    projector, _phones = open_class(store, first)
    projector._board_click(*projector.game.board.geometry.cell_centre(8, 8))
    before = said(projector.message)
    assert before, "a tap on the map is met with silence"
    switch(projector, then)
    after = said(projector.message)
    head = {lang: i18n.t("classplay.map_idle", lang, why="\x00").split("\x00")[0].strip() for lang in i18n.LANGS}
    assert head[first] in before and head[then] in after and after != before, (before, after)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_projectors_someone_moved_first_follows_a_switch(store: RoomStore, monkeypatch: pytest.MonkeyPatch,
                                                             first: str, then: str) -> None:
    projector = one_computer(store, first)
    room = projector.room

    def stale(*_a: Any, **_k: Any) -> Any:
        raise StaleWrite(expected_seq=room.next_seq, current_seq=room.next_seq + 1)

    monkeypatch.setattr(room, "act", stale)
    assert not projector.decide("place 8,8")
    assert_follows(projector, lambda lang: i18n.t("classplay.stale", lang), first, then)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_projectors_undo_note_follows_a_switch(store: RoomStore, first: str, then: str) -> None:
    projector = one_computer(store, first)
    assert projector.decide("place 8,8")
    assert projector.undo()
    assert_follows(projector, lambda lang: d("game.undone", lang), first, then)


@pytest.mark.parametrize(("first", "then"), SWITCHES)
def test_the_projectors_refusal_follows_a_switch_and_is_logged_once(
        store: RoomStore, caplog: pytest.LogCaptureFixture, first: str, then: str) -> None:
    caplog.set_level(logging.INFO, logger="typhoon_edu.ui")
    projector = one_computer(store, first)
    assert not projector.decide("place 0,0")  # no generation zone there
    before = said(projector.message)
    assert before.startswith(d("error.illegal", first, error="\x00").split("\x00")[0])
    for lang in (then, first, then):
        switch(projector, lang)
    after = said(projector.message)
    assert after.startswith(d("error.illegal", then, error="\x00").split("\x00")[0]), after
    assert len(refusal_lines(caplog)) == 1, [r.getMessage() for r in refusal_lines(caplog)]
