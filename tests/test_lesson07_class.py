"""Lesson 07's class round through the room store: the rounds' own tables, who may do what (checked in the kernel and
the store, not by buttons), the teams' forecasts sent from their own pages and scored on the teacher's, and the
one-screen round unchanged without the class server."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from race_helpers import race

from typhoon_edu.classroom import store as store_mod
from typhoon_edu.classroom.errors import NotAllowed, RoomNotFound, error_text
from typhoon_edu.classroom.lesson_rounds import LESSON_ENTRIES, LESSON_ROUNDS, LessonRounds
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.realdata import forecast_cases as fc
from typhoon_edu.ui.lessons import forecast as fw
from typhoon_edu.ui.lessons import forecast_class as fcl
from typhoon_edu.ui.lessons.common import lt
from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR
from typhoon_edu.ui.realmap import storm_title

LEADS = fc.LEADS


@pytest.fixture
def rounds(db_url: str) -> LessonRounds:
    """Lesson rounds on a fresh store: SQLite and PostgreSQL alike (the ``db_url`` fixture)."""
    return LessonRounds(RoomStore(db_url))


def _exact(case: fc.Case, dlat: float = 0.0) -> dict[int, tuple[float, float]]:
    return {h: (round(case.truth[h].lat + dlat, 2), round(case.truth[h].lon, 2)) for h in LEADS}


# --- the store's part ---------------------------------------------------------------------------------------


def test_round_tables_are_their_own_and_leave_the_game_schema_alone(tmp_path):
    url = sqlite_url(tmp_path / "rooms.sqlite3")
    store = RoomStore(url)
    rounds = LessonRounds(store)
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    assert LESSON_ROUNDS.name not in store_mod.metadata.tables and LESSON_ENTRIES.name not in store_mod.metadata.tables
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        names = set(sa.inspect(conn).get_table_names())
        schema = conn.execute(sa.text("select value from typhoon_meta where key='schema'")).scalar()
    engine.dispose()
    assert {"typhoon_lesson_rounds", "typhoon_lesson_entries", "typhoon_rooms"} <= names
    assert schema == str(store_mod.SCHEMA_VERSION)
    # opened again (a second kernel): the tables exist already, the round is still there
    again = LessonRounds(RoomStore(url))
    assert again.round(code).stage == "steady"


def test_an_answer_is_kept_once_per_team_and_stage_and_replaced_while_open(rounds):
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    rounds.submit(code, "steady", "  Owls ", {"v": 1})
    rounds.submit(code, "steady", "Bats", {"v": 2})
    rounds.submit(code, "steady", "Owls", {"v": 3})
    got = rounds.entries(code, "steady")
    assert sorted(got) == ["Bats", "Owls"] and got["Owls"].value == {"v": 3}
    assert rounds.entries(code, "recurve") == {}


def test_only_the_rounds_teacher_closes_or_moves_it_on(rounds):
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    for who in (None, "", "t2"):
        with pytest.raises(NotAllowed) as err:
            rounds.close(code, owner=who)
        assert err.value.kind == "teacher_only"
        with pytest.raises(NotAllowed):
            rounds.set_stage(code, "recurve", owner=who)
    row = rounds.round(code)
    assert (row.stage, row.accepting) == ("steady", True)  # nothing changed
    with pytest.raises(NotAllowed):
        rounds.open_round("forecast", owner="", stage="steady")


def test_no_answer_after_the_reveal_or_for_another_storm(rounds):
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    with pytest.raises(NotAllowed) as err:
        rounds.submit(code, "recurve", "Owls", {})
    assert err.value.kind == "round_closed"
    rounds.close(code, owner="t1")
    with pytest.raises(NotAllowed):
        rounds.submit(code, "steady", "Owls", {})
    assert rounds.entries(code, "steady") == {}
    row = rounds.set_stage(code, "recurve", owner="t1")
    assert row.accepting and row.stage == "recurve"
    rounds.submit(code, "recurve", "Owls", {"x": 1})
    assert list(rounds.entries(code, "recurve")) == ["Owls"]


def test_codes_and_names_are_checked_with_words_for_people(rounds):
    with pytest.raises(RoomNotFound) as err:
        rounds.round("ABCDE")
    assert err.value.kind == "round_unknown"
    for lang in ("en", "zh-TW"):
        assert error_text(err.value, lang) != error_text(NotAllowed("x", kind="round_closed"), lang)
        assert "代碼" in error_text(err.value, "zh-TW")
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    with pytest.raises(ValueError, match="name"):
        rounds.submit(code, "steady", "   ", {})
    with pytest.raises(ValueError, match="at most"):
        rounds.submit(code, "steady", "Owls", {"x": "y" * 3000})


# --- the lesson's logic ---------------------------------------------------------------------------------------


def test_teams_send_and_the_teacher_ranks_them(rounds):
    teacher = fcl.TeacherRound(rounds, "t1")
    code = teacher.open("taiwan").code
    case = fc.find_case("taiwan")
    owls, bats = fcl.TeamRound(rounds), fcl.TeamRound(rounds)
    owls.join(code, "Owls")
    bats.join(code.lower(), "Bats")
    bats.send(case, _exact(case, 1.0))
    owls.send(case, _exact(case))
    assert list(teacher.teams()) == ["Bats", "Owls"]  # the order they were sent
    table = teacher.reveal()
    assert [(rank, name) for rank, name, _, _ in table] == [(1, "Owls"), (2, "Bats")]
    assert round(table[1][3]) == round(fc.great_circle_km(0, 0, 1, 0))  # one degree of latitude off
    with pytest.raises(NotAllowed):
        owls.send(case, _exact(case, 2.0))
    assert teacher.teams()["Owls"] == _exact(case)


def test_a_forecast_needs_three_guesses_and_damaged_rows_are_left_out(rounds):
    teacher = fcl.TeacherRound(rounds, "t1")
    code = teacher.open("steady").code
    case = fc.find_case("steady")
    team = fcl.TeamRound(rounds)
    team.join(code, "Owls")
    with pytest.raises(ValueError, match="missing"):
        team.send(case, {24: (15.0, 117.0)})
    rounds.submit(code, "steady", "Broken", {"24": ["x", 1]})
    team.send(case, _exact(case))
    assert list(teacher.teams()) == ["Owls"]


def test_a_team_page_has_no_teacher_actions(rounds):
    with pytest.raises(NotAllowed):
        fcl.TeacherRound(rounds, "")
    ch = fw.ForecastChallenge("en", class_round=lambda c: fcl.ClassRoundPanel(c, rounds, None))
    panel = ch.class_panel
    assert isinstance(panel, fcl.ClassRoundPanel) and panel.teacher_side is None
    for action in (panel.open_round, panel.reveal_class, panel.next_storm):
        with pytest.raises(NotAllowed) as err:
            action()
        assert err.value.kind == "teacher_only"


# --- the pages (widgets, no browser) ----------------------------------------------------------------------------


def _pages(rounds: LessonRounds, lang: str):
    teacher = fw.ForecastChallenge(lang, class_round=lambda c: fcl.ClassRoundPanel(c, rounds, "t1"))
    teams = [fw.ForecastChallenge(lang, class_round=lambda c: fcl.ClassRoundPanel(c, rounds, None)) for _ in range(2)]
    return teacher, teams


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_class_round_from_open_to_next_storm(rounds, lang):
    teacher, (owls, bats) = _pages(rounds, lang)
    tp = teacher.class_panel
    tp.open_round()
    code = tp.teacher_side.row.code
    assert code in tp.code_view.value and tp.class_reveal.disabled is False and tp.next_button.disabled is True
    assert teacher.choose.disabled and teacher.reveal_button.disabled  # only the class reveal shows the truth now
    with pytest.raises(fw.ForecastInputError):
        teacher.reveal()
    case = teacher.rnd.case
    for page, name, dlat in ((owls, "Owls", 0.0), (bats, "Bats", 1.0)):
        page.class_panel.join(code, name)
        for h in LEADS:
            page.rnd.place(*_exact(case, dlat)[h])
        with pytest.raises(fw.ForecastInputError):  # a team's own reveal is refused in the kernel while the round is open
            page.reveal()
        assert page.reveal_button.disabled and not page.rnd.revealed
        page.class_panel.send()
        assert "✔" in page.class_panel.feedback.value and name in page.class_panel.feedback.value
    assert tp.refresh()
    # before the reveal the projector names who sent, never where
    assert "Owls" in tp.view.value and "Bats" in tp.view.value and f"{case.truth[24].lat:g}" not in tp.view.value
    assert not teacher.rnd.revealed and teacher.teams == {}
    table = tp.reveal_class()
    assert [name for _, name, _, _ in table] == ["Owls", "Bats"]
    assert teacher.rnd.revealed and set(teacher.teams) == {"Owls", "Bats"}
    roles = [s.role for s in teacher.dynamic_shapes()]
    assert roles.count("team-guess") == 6 and "truth" in roles
    assert tp.view.value.index("Owls") < tp.view.value.index("Bats") and lt("forecast.col_rank", lang) in tp.view.value
    # the teams' pages follow: the best track and their own errors, recorded on their answer sheets
    for page in (owls, bats):
        assert page.class_panel.refresh()
        assert page.rnd.revealed and "forecast-results" in page.results.value
        assert lt("forecast.csv_forecast", lang, storm=storm_title(case.storm, lang), h=72) in [q for q, *_ in page.sheet.rows]
        assert page.class_panel.send_button.disabled
    # next storm: the teacher's map and the teams' pages move on, with the round open again
    tp.next_storm()
    nxt = teacher.rnd.case
    assert nxt.key != case.key and not teacher.rnd.revealed and teacher.teams == {}
    assert owls.class_panel.refresh() and owls.rnd.case.key == nxt.key and not owls.rnd.revealed
    assert owls.class_lock and not owls.class_panel.send_button.disabled


def test_a_team_that_placed_nothing_still_sees_the_track_after_the_reveal(rounds):
    teacher, (owls, _bats) = _pages(rounds, "en")
    teacher.class_panel.open_round()
    owls.class_panel.join(teacher.class_panel.teacher_side.row.code, "Owls")
    with pytest.raises(fw.ForecastInputError, match="Place all three"):
        owls.class_panel.send()
    teacher.class_panel.reveal_class()
    owls.class_panel.refresh()
    assert owls.rnd.revealed and "truth" in [s.role for s in owls.dynamic_shapes()]
    assert lt("forecast.status_truth", "en") in owls.status.value and lt("forecast.status_truth", "en") in teacher.status.value


def test_joining_needs_a_round_code_and_a_name(rounds):
    _teacher, (owls, _bats) = _pages(rounds, "zh-TW")
    with pytest.raises(fw.ForecastInputError):
        owls.class_panel.join("ABCDE", "")
    with pytest.raises(RoomNotFound):
        owls.class_panel.join("ABCDE", "Owls")
    with pytest.raises(fw.ForecastInputError):
        owls.class_panel.send()
    assert owls.class_panel.team_side.row is None and not owls.class_lock


def test_without_the_class_server_the_one_screen_round_stays(monkeypatch, tmp_path):
    monkeypatch.delenv(CLASS_SERVER_ENV_VAR, raising=False)
    ch = fw.challenge("en")
    assert ch.class_panel is None and not ch.class_lock
    # on the class server (a notebook's kernel: its user is the computer's teacher), the teacher's panel
    monkeypatch.setenv(CLASS_SERVER_ENV_VAR, "1")
    monkeypatch.setenv("TYPHOON_EDU_DB", sqlite_url(tmp_path / "rooms.sqlite3"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    served = fw.challenge("en")
    assert isinstance(served.class_panel, fcl.ClassRoundPanel) and served.class_panel.teacher_side is not None


def test_a_forecast_revealed_alone_never_shows_the_truth_during_a_class_round(tmp_path):
    from typhoon_edu.ui.quiz import AnswerSheet, AnswerStore

    rounds = LessonRounds(RoomStore("sqlite://"))

    def sheet() -> AnswerSheet:
        s = AnswerSheet("en", "forecast", store=AnswerStore(tmp_path))
        s.set_student("Mei")
        return s

    # Mei revealed storms 1 and 2 alone earlier; her sheet keeps them (and would show them again on the map)
    alone = fw.ForecastChallenge("en", sheet=sheet())
    for key in ("steady", "taiwan"):
        alone.select(key)
        for h in LEADS:
            alone.rnd.place(*_exact(alone.rnd.case, 0.5)[h], lead=h)
        alone.reveal()
    teacher = fw.ForecastChallenge("en", sheet=sheet(), class_round=lambda c: fcl.ClassRoundPanel(c, rounds, "t1"))
    assert teacher.rnd.revealed  # shown again, as after a restart
    teacher.class_panel.open_round()
    assert not teacher.rnd.revealed and not teacher.rnd.guesses
    team = fw.ForecastChallenge("en", sheet=sheet(), class_round=lambda c: fcl.ClassRoundPanel(c, rounds, None))
    team.class_panel.join(teacher.class_panel.teacher_side.row.code, "Owls")
    assert not team.rnd.revealed and not team.rnd.guesses
    teacher.class_panel.reveal_class()
    team.class_panel.refresh()
    teacher.class_panel.next_storm()  # storm 2, which Mei also revealed alone
    assert teacher.rnd.case.key == "taiwan" and not teacher.rnd.revealed
    team.class_panel.refresh()
    assert team.rnd.case.key == "taiwan" and not team.rnd.revealed and not team.rnd.guesses


def test_a_store_that_cannot_be_used_leaves_the_one_screen_round_and_says_why():
    from typhoon_edu.classroom.errors import StoreError

    def broken(_challenge):
        raise StoreError("the room database could not be written", kind="read_only")

    ch = fw.ForecastChallenge("zh-TW", class_round=broken)
    assert ch.class_panel is None and not ch.class_lock
    assert error_text(StoreError("x", kind="read_only"), "zh-TW") in ch.problems.widget.value


# --- team names and the devices that send for them ----------------------------------------------------------------


@pytest.mark.parametrize(("typed", "kept"), [("Owls\u200b", "Owls"), ("\u202eslwO", "slwO"), ("O\u2066w\u2069ls", "Owls"),
                                             ("  the\u2028Owls\x00 ", "the Owls"), ("颱風\ufeff隊", "颱風隊")])
def test_team_names_lose_invisible_and_bidi_characters(rounds, typed, kept):
    # the projector's list and the results table show the name: "Owls\u200b" must not pass for a second "Owls"
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    assert rounds.submit(code, "steady", typed, {"v": 1}).team == kept
    assert list(rounds.entries(code, "steady")) == [kept]
    assert fcl.team_name(typed) == kept


def test_a_name_of_invisible_characters_only_is_refused_with_words_for_people(rounds):
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    with pytest.raises(ValueError, match="name"):
        rounds.submit(code, "steady", "\u200b\u202e\u2066", {})
    assert rounds.entries(code, "steady") == {}
    for lang in ("en", "zh-TW"):
        _teacher, (owls, _bats) = _pages(rounds, lang)
        with pytest.raises(fw.ForecastInputError) as err:
            owls.class_panel.join(code, "\u200b\u202e")
        assert str(err.value) == lt("forecast.team_need_name", lang)
        assert owls.class_panel.team_side.row is None


def test_another_device_cannot_replace_a_teams_answer(rounds):
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    rounds.submit(code, "steady", "Owls", {"v": 1}, device="owls-tablet")
    before = rounds.round(code).version
    for name in ("Owls", "Owls\u200b", " Owls "):
        with pytest.raises(NotAllowed) as err:
            rounds.submit(code, "steady", name, {"v": 666}, device="bats-phone")
        assert err.value.kind == "team_taken"
        for lang, word in (("en", "Owls"), ("zh-TW", "Owls")):
            text = error_text(err.value, lang)
            assert word in text and text != str(err.value)
        assert "另一臺裝置" in error_text(err.value, "zh-TW")
    with pytest.raises(NotAllowed):  # a page that says no device is not the Owls' device either
        rounds.submit(code, "steady", "Owls", {"v": 666}, device=None)
    assert rounds.entries(code, "steady")["Owls"].value == {"v": 1} and rounds.round(code).version == before
    # the Owls' own device may still change its answer while the storm is open
    rounds.submit(code, "steady", "Owls", {"v": 2}, device="owls-tablet")
    assert rounds.entries(code, "steady")["Owls"].value == {"v": 2}
    # and the name stays theirs for the next storm of the round
    rounds.set_stage(code, "recurve", owner="t1")
    with pytest.raises(NotAllowed) as err:
        rounds.submit(code, "recurve", "Owls", {"v": 3}, device="bats-phone")
    assert err.value.kind == "team_taken"
    rounds.submit(code, "recurve", "Bats", {"v": 4}, device="bats-phone")
    assert sorted(rounds.entries(code, "recurve")) == ["Bats"]


def test_a_team_page_on_another_device_cannot_send_for_a_team_that_sent(rounds):
    teacher = fw.ForecastChallenge("en", class_round=lambda c: fcl.ClassRoundPanel(c, rounds, "t1"))
    owls, thief = (fw.ForecastChallenge("zh-TW", class_round=lambda c, d=d: fcl.ClassRoundPanel(c, rounds, None, device=d))
                   for d in ("owls-device-0000000000", "thief-device-000000000"))
    teacher.class_panel.open_round()
    code = teacher.class_panel.teacher_side.row.code
    case = teacher.rnd.case
    for page, dlat in ((owls, 0.0), (thief, 3.0)):
        page.class_panel.join(code, "Owls")
        for h in LEADS:
            page.rnd.place(*_exact(case, dlat)[h])
    owls.class_panel.send()
    with pytest.raises(NotAllowed) as err:
        thief.class_panel.send()
    assert err.value.kind == "team_taken" and "Owls" in error_text(err.value, "zh-TW")
    assert teacher.class_panel.teacher_side.teams() == {"Owls": _exact(case)}


def test_a_round_store_from_before_devices_gets_the_device_column(tmp_path):
    url = sqlite_url(tmp_path / "rooms.sqlite3")
    engine = sa.create_engine(url)
    with engine.begin() as conn:  # the entries table as the first release made it (no device)
        conn.execute(sa.text("CREATE TABLE typhoon_lesson_rounds (code VARCHAR(8) PRIMARY KEY, lesson VARCHAR(32) NOT NULL,"
                             " owner VARCHAR(32) NOT NULL, stage VARCHAR(64) NOT NULL, accepting BOOLEAN NOT NULL,"
                             " version INTEGER NOT NULL, created FLOAT NOT NULL, updated FLOAT NOT NULL)"))
        conn.execute(sa.text("CREATE TABLE typhoon_lesson_entries (code VARCHAR(8) NOT NULL, stage VARCHAR(64) NOT NULL,"
                             " team VARCHAR(64) NOT NULL, value TEXT NOT NULL, at FLOAT NOT NULL,"
                             " PRIMARY KEY (code, stage, team))"))
        conn.execute(sa.text("INSERT INTO typhoon_lesson_rounds VALUES ('ABCDE', 'forecast', 't1', 'steady', 1, 1, 0, 0)"))
        conn.execute(sa.text("INSERT INTO typhoon_lesson_entries VALUES ('ABCDE', 'steady', 'Owls', '{\"v\": 1}', 1)"))
    engine.dispose()
    rounds = LessonRounds(RoomStore(url))
    assert rounds.entries("ABCDE", "steady")["Owls"].value == {"v": 1}
    with pytest.raises(NotAllowed) as err:  # an answer kept before devices were: no device may take it over
        rounds.submit("ABCDE", "steady", "Owls", {"v": 2}, device="dev-a")
    assert err.value.kind == "team_taken"
    rounds.submit("ABCDE", "steady", "Bats", {"v": 3}, device="dev-a")
    LessonRounds(RoomStore(url))  # opened again: the column is there already
    assert list(LessonRounds(RoomStore(url)).entries("ABCDE", "steady")) == ["Owls", "Bats"]


# --- races: an answer against the reveal, two answers under one name (SQLite and PostgreSQL) ---------------------------


def test_an_answer_racing_the_reveal_lands_before_it_or_is_refused(db_url):
    """The send reads the round, then the teacher's reveal commits, then the send writes: under PostgreSQL's READ
    COMMITTED a plain read of ``accepting`` let the answer in after the reveal. The hook holds the send for 1.5 s
    right after its first statement on the round's row, long enough for a reveal that does not wait for it."""
    import threading

    from sqlalchemy import event

    store = RoomStore(db_url)
    rounds = LessonRounds(store)
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    read_round, revealed = threading.Event(), threading.Event()
    sender: dict[str, threading.Thread] = {}
    outcome: dict[str, object] = {}

    def hold(_conn, _cursor, statement, *_args):
        if threading.current_thread() is sender.get("thread") and "typhoon_lesson_rounds" in statement \
                and not read_round.is_set():
            read_round.set()
            revealed.wait(1.5)  # the reveal goes now; if it must wait for this answer, the answer goes on first

    def send():
        try:
            rounds.submit(code, "steady", "Owls", {"v": 1}, device="owls-tablet")
            outcome["send"] = "kept"
        except NotAllowed as exc:
            outcome["send"] = exc.kind
        except Exception as exc:  # noqa: BLE001 - a store error is a failure of the test, said below
            outcome["send"] = repr(exc)

    def reveal():
        read_round.wait(20)
        rounds.close(code, owner="t1")
        outcome["at_reveal"] = list(rounds.entries(code, "steady"))
        revealed.set()

    event.listen(store._engine, "after_cursor_execute", hold)
    try:
        threads = [threading.Thread(target=send), threading.Thread(target=reveal)]
        sender["thread"] = threads[0]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        event.remove(store._engine, "after_cursor_execute", hold)
    after = list(rounds.entries(code, "steady"))
    assert after == outcome["at_reveal"], "an answer was kept after the reveal"
    assert outcome["send"] in ("kept", "round_closed")
    assert (outcome["send"] == "kept") == (after == ["Owls"])
    assert not rounds.round(code).accepting


@pytest.mark.parametrize("same_device", [True, False])
def test_sends_racing_under_one_team_name_never_fail_as_store_errors(db_url, same_device):
    rounds = LessonRounds(RoomStore(db_url))
    code = rounds.open_round("forecast", owner="t1", stage="steady").code
    n = 6

    def send(i: int) -> str:
        try:
            rounds.submit(code, "steady", "Owls", {"v": i}, device="owls" if same_device else f"device-{i}")
            return f"kept {i}"
        except NotAllowed as exc:
            return exc.kind
        except Exception as exc:  # noqa: BLE001 - an IntegrityError surfacing as a StoreError fails the test
            return repr(exc)

    results = race(n, send)
    kept = [r for r in results if r.startswith("kept")]
    assert len(results) == n
    if same_device:  # the team's own device may send again: every send is kept in turn, the last one stays
        assert len(kept) == n
    else:  # the first device to send has the name; every other is refused with words, not a store error
        assert len(kept) == 1 and sorted(results) == sorted(kept + ["team_taken"] * (n - 1)), results
    entry = rounds.entries(code, "steady")["Owls"]
    assert f"kept {entry.value['v']}" in kept


def test_a_team_page_sends_as_its_device_and_is_told_at_once_when_the_name_is_taken(rounds):
    teacher = fcl.TeacherRound(rounds, "t1")
    code = teacher.open("steady").code
    case = fc.find_case("steady")
    owls = fw.ForecastChallenge("en", class_round=lambda c: fcl.class_round_panel(
        c, rounds=rounds, query={"device": "owls-device-0000000000"}))
    assert owls.class_panel.team_side.device == "owls-device-0000000000"
    owls.class_panel.join(code, "Owls")
    for h in LEADS:
        owls.rnd.place(*_exact(case)[h])
    owls.class_panel.send()
    late = fw.ForecastChallenge("zh-TW", class_round=lambda c: fcl.class_round_panel(
        c, rounds=rounds, query={"device": "other-device-000000000"}))
    with pytest.raises(NotAllowed) as err:  # joining under the name, before placing anything
        late.class_panel.join(code, "Owls\u200b")
    assert err.value.kind == "team_taken" and "Owls" in error_text(err.value, "zh-TW")
    assert late.class_panel.team_side.row is None and late.class_panel.send_button.disabled
    assert teacher.teams() == {"Owls": _exact(case)}
