"""Lesson 07's class round on a teacher page still open after ``typhoon-edu teacher remove`` or ``teacher new-key``
took its key away: the store refuses every teacher action of the round (open, reveal, next storm) for that key, in
the action's own transaction, and the page says so in its language, with what to do, in place of its round
controls; the teams' pages keep working (docs/security.md row 41).

Before, the page kept the teacher it had when it opened and the store took any owner: a removed teacher's open
lesson page still opened rounds (the reviewer's "round opened: Z26HJ"), owned by an id no teacher has.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from test_teacher_revoked_page import WORDS, take_away

from typhoon_edu.classroom.errors import NotAllowed
from typhoon_edu.classroom.lesson_rounds import LESSON_ROUNDS, LessonRounds
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import add_teacher, local_teacher, remove_teacher
from typhoon_edu.realdata import forecast_cases as fc
from typhoon_edu.ui.lessons import forecast as fw
from typhoon_edu.ui.lessons import forecast_class as fcl


@pytest.fixture
def db(db_url: str) -> Iterator[RoomStore]:
    store = RoomStore(db_url)
    yield store
    store.close()


def round_rows(store: RoomStore) -> list[tuple[str, str, str, bool]]:
    with store.transaction("read the rounds") as conn:
        return sorted((r.code, r.owner, r.stage, bool(r.accepting)) for r in conn.execute(sa.select(LESSON_ROUNDS)))


def _exact(case: fc.Case) -> dict[int, tuple[float, float]]:
    return {h: (round(case.truth[h].lat, 2), round(case.truth[h].lon, 2)) for h in fc.LEADS}


def pages(db: RoomStore, key: str, lang: str) -> tuple[fw.ForecastChallenge, fw.ForecastChallenge]:
    """The teacher's page (its query carries the key, as the server puts it there) and a team's page."""
    rounds = LessonRounds(db)
    teacher = fw.ForecastChallenge(lang, class_round=lambda c: fcl.class_round_panel(
        c, query={"teacher": key}, rounds=rounds))
    team = fw.ForecastChallenge(lang, class_round=lambda c: fcl.class_round_panel(
        c, query={"device": "owls-tablet"}, rounds=rounds))
    assert teacher.class_panel.teacher_side is not None and team.class_panel.team_side is not None
    return teacher, team


# ---------------------------------------------------------------------- the kernel (the store)
@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_the_store_refuses_every_round_action_of_a_key_taken_away(db: RoomStore, how: str) -> None:
    rounds = LessonRounds(db)
    lin, _ = add_teacher(db, "Ms Lin")
    row = rounds.open_round("forecast", owner=lin, stage="steady")
    assert row.owner == lin.id
    take_away(db, how, lin)
    before = round_rows(db)
    for action in (lambda: rounds.open_round("forecast", owner=lin, stage="steady"),
                   lambda: rounds.close(row.code, owner=lin),
                   lambda: rounds.set_stage(row.code, "recurve", owner=lin)):
        with pytest.raises(NotAllowed) as err:
            action()
        assert err.value.kind == "teacher_only"
    assert round_rows(db) == before  # no new round, the open one neither revealed nor moved on
    assert all(owner != lin.id for _, owner, _, _ in before)  # it went to the local teacher / the new id


def test_the_local_teacher_and_a_teacher_still_here_keep_their_rounds(db: RoomStore) -> None:
    rounds = LessonRounds(db)
    me, (chen, _) = local_teacher(db), add_teacher(db, "Mr Chen")
    lin, _ = add_teacher(db, "Ms Lin")
    remove_teacher(db, lin)  # a colleague's removal changes nothing for the others
    for who in (me, chen):
        row = rounds.open_round("forecast", owner=who, stage="steady")
        assert rounds.close(row.code, owner=who).accepting is False
        assert rounds.set_stage(row.code, "recurve", owner=who).stage == "recurve"


# ---------------------------------------------------------------------- the teacher's page
@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_page_with_a_key_taken_away_opens_no_round_and_says_why(db: RoomStore, how: str, lang: str) -> None:
    lin, key = add_teacher(db, "Ms Lin")
    teacher, _team = pages(db, key, lang)
    panel = teacher.class_panel
    take_away(db, how, lin)

    assert panel.open_round() is None  # before: "round opened", owned by an id no teacher has
    assert round_rows(db) == []
    assert panel.key_gone == how
    title, todo = WORDS[(how, lang)]
    assert title in panel.key_notice.value and todo in panel.key_notice.value
    assert list(panel.children) == [panel.title, panel.key_notice]  # no open / reveal / next, no code
    assert teacher.problems.message == ""  # the notice says it, not an error line
    # a click that still reaches the kernel (a stale button) tries nothing
    assert panel.open_round() is None and panel.reveal_class() is None and panel.next_storm() is None
    assert round_rows(db) == []


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_an_open_round_page_notices_at_its_next_poll_and_the_teams_play_on(db: RoomStore, how: str) -> None:
    lin, key = add_teacher(db, "Ms Lin")
    teacher, team = pages(db, key, "en")
    tp = teacher.class_panel
    tp.open_round()
    code = tp.teacher_side.row.code
    team.class_panel.join(code, "Owls")
    case = team.rnd.case
    for lat, lon in _exact(case).values():
        team.rnd.place(lat, lon)
    team.class_panel.send()
    take_away(db, how, lin)

    assert tp.refresh()  # the poll: the round changed owner
    assert tp.key_gone == how and "This teacher key was" in tp.key_notice.value
    assert list(tp.children) == [tp.title, tp.key_notice]
    assert tp.reveal_class() is None and tp.next_storm() is None
    (_, _, stage, accepting), = round_rows(db)
    assert stage == case.key and accepting  # neither revealed nor moved on by this page
    assert not tp.refresh()  # it reads the round no more

    # the team's page keeps working: it sends again, and follows the round
    team.class_panel.send()
    assert "✔" in team.class_panel.feedback.value
    assert set(LessonRounds(db).entries(code, case.key)) == {"Owls"}


def test_a_reveal_refused_for_a_key_taken_away_shows_the_notice(db: RoomStore) -> None:
    lin, key = add_teacher(db, "Ms Lin")
    teacher, _team = pages(db, key, "zh-TW")
    tp = teacher.class_panel
    tp.open_round()
    remove_teacher(db, lin)
    assert tp.reveal_class() is None  # the refusal, before the poll saw anything
    assert tp.key_gone == "removed" and "這把老師金鑰已被收回" in tp.key_notice.value
    assert not teacher.rnd.revealed and round_rows(db)[0][3]  # the round still takes the teams' forecasts


def test_a_refusal_for_another_reason_is_still_said(db: RoomStore) -> None:
    lin, key = add_teacher(db, "Ms Lin")
    teacher, _team = pages(db, key, "en")
    tp = teacher.class_panel
    tp.open_round()
    tp.teacher_side.row = LessonRounds(db).open_round("forecast", owner=local_teacher(db), stage="steady")
    with pytest.raises(NotAllowed):  # another teacher's round: not a key taken away, so no notice
        tp.reveal_class()
    assert tp.key_gone is None and tp.open_button in tp.children[2].children
