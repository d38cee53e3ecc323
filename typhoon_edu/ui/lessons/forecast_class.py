"""Lesson 07's class round through the room store, when the lesson runs on the class server (``typhoon-edu serve
--notebook …/07_forecast_challenge.ipynb``): the teacher's screen opens a round and shows its code, each team sends
its three guesses from its own device, and the teacher's reveal draws and scores every team's forecast.

The pure part is :class:`TeacherRound` and :class:`TeamRound` (over :class:`~typhoon_edu.classroom.lesson_rounds.
LessonRounds`); :class:`ClassRoundPanel` is the thin widget that replaces the one-screen round of
:class:`~.forecast.ForecastChallenge`. Without the class server the one-screen round stays as it was.

Who may do what is checked in the kernel, never only by a disabled button: the teacher's actions (open, reveal,
next storm) need the teacher's id, which a page has only when the server proved the teacher's key
(:func:`~typhoon_edu.ui.classplay.projector.page_teacher`), and the store refuses them from anyone but the round's
owner; a team's page has no teacher, and while the class's stage is open its own Reveal is refused too.

A teacher page still open after ``typhoon-edu teacher remove`` or ``teacher new-key`` took its key away is refused
every teacher action by the store (checked in the action's own transaction, :func:`~typhoon_edu.classroom.store.
hold_teacher`), and says so in its language, with what to do, in place of its round controls
(:meth:`ClassRoundPanel.check_teacher`); the teams' pages keep working.

>>> from typhoon_edu.classroom.store import RoomStore
>>> from typhoon_edu.classroom.lesson_rounds import LessonRounds
>>> from typhoon_edu.realdata.forecast_cases import find_case
>>> rounds = LessonRounds(RoomStore("sqlite://"))
>>> teacher = TeacherRound(rounds, "t1"); code = teacher.open("steady").code
>>> owls = TeamRound(rounds); _ = owls.join(code.lower(), "Owls")
>>> t = find_case("steady").truth
>>> _ = owls.send(find_case("steady"), {h: (t[h].lat, t[h].lon) for h in LEADS})
>>> [(rank, name, round(m)) for rank, name, _, m in teacher.reveal()]
[(1, 'Owls', 0)]
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any, TypeVar

import ipywidgets as widgets

from ...classroom.errors import ClassroomError, NotAllowed
from ...classroom.lesson_rounds import MAX_TEAM, LessonRounds, RoundRow, team_name
from ...classroom.names import clean_name
from ...classroom.teachers import Teacher, key_withdrawn
from ...realdata.forecast_cases import LEADS, Case, forecast_cases
from ..query import CLASS_SERVER_ENV_VAR, on_class_server
from .common import heading, lt, note

if TYPE_CHECKING:
    from .forecast import ForecastChallenge

LatLon = tuple[float, float]
LESSON = "forecast"
POLL_SECONDS = 1.0
T = TypeVar("T")
log = logging.getLogger(__name__)


def guesses_value(guesses: Mapping[int, LatLon]) -> dict[str, list[float]]:
    """Three guesses as the JSON a team sends: ``{"24": [lat, lon], …}``; ``ValueError`` unless all three are placed.

    >>> guesses_value({24: (15.0, 117.0), 48: (15.5, 113.0), 72: (16.0, 109.5)})["48"]
    [15.5, 113.0]
    """
    missing = [h for h in LEADS if h not in guesses]
    if missing:
        raise ValueError(f"a forecast has guesses for {', '.join(map(str, LEADS))} h; missing {missing}")
    return {str(h): [round(float(guesses[h][0]), 2), round(float(guesses[h][1]), 2)] for h in LEADS}


def read_guesses(value: Any) -> dict[int, LatLon] | None:
    """A team's stored answer as guesses, or None when it is not three positions on the globe (a damaged or foreign
    row is left out of the class's table rather than stopping the teacher's screen).

    >>> read_guesses({"24": [15, 117], "48": [15.5, 113], "72": [16, 109.5]})[72]
    (16.0, 109.5)
    >>> read_guesses({"24": [15, 117]}), read_guesses({"24": [95, 0], "48": [0, 0], "72": [0, 0]}), read_guesses("x")
    (None, None, None)
    """
    if not isinstance(value, Mapping):
        return None
    out: dict[int, LatLon] = {}
    for h in LEADS:
        pair = value.get(str(h))
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return None
        try:
            lat, lon = float(pair[0]), float(pair[1])
        except (TypeError, ValueError):
            return None
        if not (-90 <= lat <= 90 and -180 <= lon <= 360):
            return None
        out[h] = (lat, lon)
    return out


class TeacherRound:
    """The teacher's side of a class round: open it on a storm, read the teams' forecasts, reveal, next storm.
    Every action names the teacher; the store refuses it from anyone but the round's owner.

    ``teacher``: the :class:`~typhoon_edu.classroom.teachers.Teacher` the page's key proved (the store then also
    refuses every action once that key was removed or replaced), or a bare id; :attr:`teacher` is the id."""

    def __init__(self, rounds: LessonRounds, teacher: Teacher | str, cases: Sequence[Case] | None = None) -> None:
        if not (teacher.id if isinstance(teacher, Teacher) else teacher):
            raise NotAllowed("only a teacher may run a class round", kind="teacher_only")
        self.rounds = rounds
        self.who: Teacher | str = teacher  # what each action names (the store checks a Teacher in its transaction)
        self.teacher = teacher.id if isinstance(teacher, Teacher) else teacher
        self.cases = list(cases if cases is not None else forecast_cases())
        self.row: RoundRow | None = None

    def _case(self, key: str) -> Case:
        case = next((c for c in self.cases if c.key == key), None)
        if case is None:
            raise ValueError(f"no forecast case {key!r}; the cases are {', '.join(c.key for c in self.cases)}")
        return case

    @property
    def case(self) -> Case:
        if self.row is None:
            raise ValueError("no class round is open yet")
        return self._case(self.row.stage)

    def open(self, case_key: str) -> RoundRow:
        """A new round, taking forecasts for the storm ``case_key``."""
        self._case(case_key)
        self.row = self.rounds.open_round(LESSON, owner=self.who, stage=case_key)
        return self.row

    def teams(self) -> dict[str, dict[int, LatLon]]:
        """Every team's forecast for the round's storm (the well-formed ones), in the order they were sent."""
        if self.row is None:
            return {}
        out = {}
        for name, entry in self.rounds.entries(self.row.code, self.row.stage).items():
            g = read_guesses(entry.value)
            if g is not None:
                out[name] = g
        return out

    def reveal(self) -> list[tuple[int, str, list[Any], float]]:
        """Stop taking forecasts for this storm and score every team's: ``(rank, team, rows, mean error)``."""
        from .forecast import team_table

        if self.row is None:
            raise ValueError("no class round is open yet")
        self.row = self.rounds.close(self.row.code, owner=self.who)
        return team_table(self.case, self.teams())

    def next(self, case_key: str) -> RoundRow:
        """Move the round on to the storm ``case_key`` (teams' devices follow it)."""
        self._case(case_key)
        if self.row is None:
            return self.open(case_key)
        self.row = self.rounds.set_stage(self.row.code, case_key, owner=self.who)
        return self.row

    def refresh(self) -> bool:
        """Read the round again; True when it changed (a team sent a forecast)."""
        if self.row is None:
            return False
        row = self.rounds.round(self.row.code)
        changed = row.version != self.row.version
        self.row = row
        return changed


class TeamRefused(NotAllowed):
    """The store's ``team_taken`` refusal of a look-alike name (``why="alike"``) or of a second team on one device
    (``why="device"``), saying itself in the page's language with lesson 07's words (the classroom's own
    ``team_taken`` sentence is for the name itself being taken); still a ``NotAllowed`` of kind ``team_taken``.

    >>> err = TeamRefused.of(NotAllowed("x", kind="team_taken", team="Owls", asked="owls", why="alike"))
    >>> err.kind, err.text("en").startswith("The name owls looks too much like team Owls")
    ('team_taken', True)
    >>> TeamRefused.of(NotAllowed("x", kind="team_taken", team="Owls", asked="Owls", why="same")) is None
    True
    """

    KEYS = {"alike": "forecast.class_team_alike", "device": "forecast.class_one_team"}

    @classmethod
    def of(cls, exc: NotAllowed) -> TeamRefused | None:
        """``exc`` as a TeamRefused, or None when it is another refusal."""
        if exc.kind != "team_taken" or exc.params.get("why") not in cls.KEYS:
            return None
        return cls(str(exc), kind=exc.kind, **exc.params)

    def text(self, lang: str = "en") -> str:
        return lt(self.KEYS[str(self.params["why"])], lang, team=self.params.get("team", ""),
                  asked=self.params.get("asked", ""))


class TeamRound:
    """A team's side: join a round by its code with a name, send the three guesses for the round's storm.

    ``device``: this page's device id (the class server's ``device`` in the page's query): the store keeps a team
    name (and its look-alikes) for the first device that sent under it, and refuses it to any other
    (``team_taken``); a device sends for one team in a round. :attr:`team` is the name as kept: a look-alike spelling
    this device typed for its own team ("owls" for "Owls") becomes the first spelling."""

    def __init__(self, rounds: LessonRounds, device: str | None = None) -> None:
        self.rounds = rounds
        self.device = device
        self.row: RoundRow | None = None
        self.team = ""
        self.sent_for: str | None = None  # the storm this team last sent a forecast for

    def join(self, code: str, team: str) -> RoundRow:
        """Join the round ``code`` as ``team`` (``ValueError`` for an empty name, ``RoomNotFound`` for a code that is
        no round's)."""
        name = team_name(team)
        row = self.rounds.round(code)
        if row.lesson != LESSON:
            raise NotAllowed(f"round {row.code} is not a forecast round", kind="round_closed")
        name = self.rounds.check_team(row.code, name, device=self.device)  # said at once, not only on sending
        self.row, self.team, self.sent_for = row, name, None
        return row

    def send(self, case: Case, guesses: Mapping[int, LatLon]) -> RoundRow:
        """Send ``guesses`` for ``case``; the store refuses it once the teacher has revealed that storm."""
        if self.row is None:
            raise ValueError("join a round first")
        self.team = self.rounds.submit(self.row.code, case.key, self.team, guesses_value(guesses), device=self.device).team
        self.sent_for = case.key
        return self.refresh()

    def refresh(self) -> RoundRow:
        if self.row is None:
            raise ValueError("join a round first")
        self.row = self.rounds.round(self.row.code)
        return self.row


def _said(act: Callable[[], T]) -> T:
    """``act()``, its look-alike and one-team-per-device refusals raised as :class:`TeamRefused` (lesson 07's words)."""
    try:
        return act()
    except NotAllowed as exc:
        refused = TeamRefused.of(exc)
        if refused is None:
            raise
        raise refused from exc


#: the style of what the projector shows of a class round (who sent, the ranked table): 24 px at 1920×1080 for the
#: back row, and the same size on the wall whatever the projector's resolution (a share of the screen's width)
PROJECTOR_TEXT = "font-size:max(1rem, 1.25vw);line-height:1.35"


def sent_html(names: Sequence[str], lang: str = "en") -> str:
    """Before the reveal the projector shows only who has sent, never where (no team copies another's).

    >>> sent_html(["Owls", "Bats"]).count("<li")
    2
    """
    if not names:
        return f"<p>{escape(lt('forecast.class_no_teams', lang))}</p>"
    items = "".join(f"<li>✔ {escape(n)}</li>" for n in names)
    return (f"<p><b>{escape(lt('forecast.class_sent_count', lang, count=len(names)))}</b></p>"
            f"<ul class='forecast-class-sent' style='font-size:1.15em'>{items}</ul>")


class ClassRoundPanel(widgets.VBox):
    """The class round's controls: the teacher's (open, code, who sent, reveal, next storm), beside the map on the
    projector, or a team's (code and name, send), under the map on its device; ``refresh()`` reads the store (polled
    every second in a served kernel). ``device``: a team's page's device id (see :class:`TeamRound`).

    ``teacher``: the Teacher the page's key proved (or a bare id), None on a team's page. Once that key is taken
    away (``typhoon-edu teacher remove`` / ``teacher new-key``), the store refuses the page's next round action (or
    the poll sees the round change owner) and the panel shows only why, and what to do (:meth:`check_teacher`)."""

    def __init__(self, challenge: ForecastChallenge, rounds: LessonRounds, teacher: Teacher | str | None,
                 device: str | None = None) -> None:
        lang = challenge.lang
        self.ch = challenge
        self.lang = lang
        self.rounds = rounds
        self.teacher_side = TeacherRound(rounds, teacher, challenge.cases) if teacher else None
        self.team_side = None if teacher else TeamRound(rounds, device)
        self.view = widgets.HTML()
        self.view.add_class("forecast-class-view")
        self.feedback = widgets.HTML()
        self._task: Any = None
        #: Why this page's teacher key no longer works ("removed" / "replaced", :func:`.teachers.key_withdrawn`), or None
        self.key_gone: str | None = None
        self.key_notice = widgets.HTML()
        self.key_notice.add_class("forecast-class-key-gone")
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        p = challenge.problems
        if self.teacher_side is not None:
            self.open_button = widgets.Button(description=lt("forecast.class_open", lang), icon="users",
                                              layout=widgets.Layout(width="auto"))
            self.open_button.add_class("forecast-class-open")
            self.code_view = widgets.HTML()
            self.code_view.add_class("forecast-class-code")
            self.class_reveal = widgets.Button(description=lt("forecast.class_reveal", lang), icon="eye",
                                               button_style="primary", disabled=True, layout=widgets.Layout(width="auto"))
            self.class_reveal.add_class("forecast-class-reveal")
            self.next_button = widgets.Button(description=lt("forecast.class_next", lang), icon="forward", disabled=True,
                                              layout=widgets.Layout(width="auto"))
            self.next_button.add_class("forecast-class-next")
            p.on_click(self.open_button, lambda _b: self.open_round(), where="forecast: class open")
            p.on_click(self.class_reveal, lambda _b: self.reveal_class(), where="forecast: class reveal")
            p.on_click(self.next_button, lambda _b: self.next_storm(), where="forecast: class next")
            body: list[widgets.Widget] = [note(lt("forecast.class_teacher_note", lang)),
                                          widgets.HBox([self.open_button, self.class_reveal, self.next_button], layout=row),
                                          self.code_view]
        else:
            self.code = widgets.Text(description=lt("forecast.class_code_label", lang), style={"description_width": "initial"},
                                     layout=widgets.Layout(width="14em"))
            self.code.add_class("forecast-class-code-input")
            self.team = widgets.Text(description=lt("forecast.team", lang), style={"description_width": "initial"},
                                     layout=widgets.Layout(width="18em"))
            self.team.add_class("forecast-class-team")
            self.join_button = widgets.Button(description=lt("forecast.class_join", lang), icon="sign-in",
                                              layout=widgets.Layout(width="auto"))
            self.join_button.add_class("forecast-class-join")
            self.send_button = widgets.Button(description=lt("forecast.class_send", lang), icon="paper-plane",
                                              button_style="primary", disabled=True, layout=widgets.Layout(width="auto"))
            self.send_button.add_class("forecast-class-send")
            p.on_click(self.join_button, lambda _b: self.join(self.code.value, self.team.value), where="forecast: class join")
            p.on_click(self.send_button, lambda _b: self.send(), where="forecast: class send")
            body = [note(lt("forecast.class_team_note", lang)),
                    widgets.HBox([self.code, self.team, self.join_button], layout=row),
                    widgets.HBox([self.send_button], layout=row)]
        self.title = heading(lt("forecast.class_server_round", lang), 4)
        super().__init__([self.title, *body, self.feedback, self.view])
        self.add_class("forecast-class-round")

    # --- the teacher's actions -------------------------------------------------------------------------

    def _teacher(self) -> TeacherRound:
        if self.teacher_side is None:  # a team's page: the kernel refuses, whatever its buttons say
            raise NotAllowed("only the teacher may do this", kind="teacher_only")
        return self.teacher_side

    def _as_teacher(self, act: Callable[[TeacherRound], T]) -> T | None:
        """``act`` on the teacher's side; None, with the notice shown instead of an error, when the store refused it
        because this page's teacher key was taken away (or the page already knows it was: then nothing is tried)."""
        side = self._teacher()
        if self.key_gone is None:
            try:
                return act(side)
            except NotAllowed:
                if self.check_teacher(ask=True) is None:
                    raise
        self.ch.problems.clear()
        return None

    def check_teacher(self, *, ask: bool = False) -> str | None:
        """Whether this teacher page's key has been taken away (``"removed"`` / ``"replaced"``); if so the panel
        shows that, in the page's language, with what to do, in place of its round controls (open, code, who sent,
        reveal, next storm) and stops reading the round. ``ask``: ask the store (after a refused action); without
        it only the open round's owner, read by the poll, is looked at (no query while it is still this teacher's).

        >>> from typhoon_edu.classroom.store import RoomStore
        >>> from typhoon_edu.classroom.teachers import add_teacher, remove_teacher
        >>> from typhoon_edu.ui.lessons.forecast import challenge
        >>> store = RoomStore("sqlite://")
        >>> lin, _ = add_teacher(store, "Ms Lin")
        >>> panel = ClassRoundPanel(challenge("en"), LessonRounds(store), lin)
        >>> _ = remove_teacher(store, lin)
        >>> panel.open_round() is None, panel.key_gone, "This teacher key was removed" in panel.key_notice.value
        (True, 'removed', True)
        """
        if self.key_gone is not None or self.teacher_side is None:
            return self.key_gone
        side = self.teacher_side
        who = side.who
        if not isinstance(who, Teacher):  # a bare id (tests, tools): the store's owner check is all there is
            return None
        if not ask and (side.row is None or side.row.owner == side.teacher):
            return None
        try:
            gone = key_withdrawn(self.rounds.store, who)
        except ClassroomError as exc:  # the store is away a moment: the next action or poll asks again
            log.warning("could not check the class round page's teacher key: %s", exc)
            return None
        if gone is not None:
            self._show_key_gone(gone)
        return gone

    def _show_key_gone(self, gone: str) -> None:
        log.warning("this lesson 07 page's teacher key was %s: its class round controls are gone", gone)
        self.key_gone = gone
        if self._task is not None:
            self._task.cancel()
            self._task = None
        lang = self.lang
        title, text, todo = (lt(f"forecast.class_key_{k}", lang) for k in (f"title_{gone}", gone, f"do_{gone}"))
        self.key_notice.value = (f"<div class='forecast-class-key-gone-box' role='alert' style='border:2px solid #b91c1c;"
                                 f"border-radius:8px;padding:.8em 1em;background:#fef2f2;color:#1f2937;{PROJECTOR_TEXT}'>"
                                 f"<h3 style='margin-top:0;color:#b91c1c'>⚠ {escape(title)}</h3>"
                                 f"<p>{escape(text)}</p><p><b>{escape(todo)}</b></p></div>")
        self.feedback.value = self.view.value = ""
        self.children = [self.title, self.key_notice]
        self.ch.problems.clear()

    def open_round(self) -> RoundRow | None:
        """Open a round on the storm shown (the teacher's page only); None when this page's key was taken away."""
        return self._as_teacher(self._open_round)

    def _open_round(self, side: TeacherRound) -> RoundRow:
        if self.ch.rnd.revealed:  # the truth must not be on the projector while teams forecast
            self.ch.again()
        row = side.open(self.ch.rnd.case.key)
        self.ch.class_lock = True
        self._after_teacher()
        self.start_polling()
        return row

    def reveal_class(self) -> list[tuple[int, str, list[Any], float]] | None:
        """Close the storm's forecasts and draw and score every team's (the teacher's page only); None when this
        page's key was taken away."""
        return self._as_teacher(self._reveal_class)

    def _reveal_class(self, side: TeacherRound) -> list[tuple[int, str, list[Any], float]]:
        table = side.reveal()
        teams = side.teams()
        self.ch.class_lock = False
        self.ch.show_class(teams)
        self._after_teacher()
        return table

    def next_storm(self) -> RoundRow | None:
        """Move the round and this map on to the next storm (the teacher's page only); None when this page's key was
        taken away."""
        return self._as_teacher(self._next_storm)

    def _next_storm(self, side: TeacherRound) -> RoundRow:
        keys = [c.key for c in self.ch.cases]
        now = side.row.stage if side.row is not None else self.ch.rnd.case.key
        following = keys[(keys.index(now) + 1) % len(keys)]
        row = side.next(following)
        self.ch.class_lock = True  # first, so a forecast saved on this page's answer sheet is not shown for it
        self.ch.select(following)
        self._after_teacher()
        return row

    def _after_teacher(self) -> None:
        side = self._teacher()
        r = side.row
        opened = r is not None
        self.open_button.disabled = opened
        self.class_reveal.disabled = not (opened and r.accepting)
        self.next_button.disabled = not opened or bool(r and r.accepting)
        self.ch.choose.disabled = opened  # the storm changes with "next storm", so teams' devices follow
        if r is not None:
            self.code_view.value = (f"<div class='forecast-class-code-text' style='font-size:2rem;font-weight:bold;"
                                    f"letter-spacing:.15em;margin:.3em 0'>{escape(lt('forecast.class_code', self.lang, code=r.code))}"
                                    f"</div>")
        self.ch._update()
        self._show()

    # --- a team's actions ----------------------------------------------------------------------------------

    def _team(self) -> TeamRound:
        if self.team_side is None:
            raise NotAllowed("the teacher's screen sends no team forecast", kind="teacher_only")
        return self.team_side

    def join(self, code: str, team: str) -> RoundRow:
        side = self._team()
        if not clean_name(team, limit=MAX_TEAM):  # nothing visible: no name (zero-width and bidi characters are dropped)
            from .forecast import ForecastInputError

            raise ForecastInputError(lt("forecast.team_need_name", self.lang))
        row = _said(lambda: side.join(code, team))
        if self.ch.rnd.revealed:  # a storm this team already revealed alone: start it afresh for the class
            self.ch.class_lock = False
            self.ch.again()
        self.code.value, self.team.value = row.code, side.team
        self.send_button.disabled = False
        self.ch.choose.disabled = True
        self._follow(row)
        self.start_polling()
        return row

    def send(self) -> RoundRow:
        from .forecast import ForecastInputError

        side = self._team()
        if side.row is None:
            raise ForecastInputError(lt("forecast.class_need_join", self.lang))
        if self.ch.rnd.missing():
            raise ForecastInputError(lt("forecast.team_need_guesses", self.lang, team=side.team, missing=", ".join(
                f"{h} h" for h in self.ch.rnd.missing())))
        row = _said(lambda: side.send(self.ch.rnd.case, self.ch.rnd.guesses))
        self.team.value = side.team
        self.feedback.value = (f"<div role='status' class='forecast-class-sent-ok' style='color:#166534;font-size:1.1em'>"
                               f"✔ {escape(lt('forecast.class_sent', self.lang, team=side.team, time=time.strftime('%H:%M:%S')))}"
                               f"</div>")
        self._follow(row)
        return row

    def _follow(self, row: RoundRow) -> None:
        """Bring a team's page in line with the round: its storm, and the reveal once the teacher revealed."""
        side = self._team()
        ch = self.ch
        ch.class_lock = row.accepting  # first, so select() shows no forecast this page revealed before
        if row.stage != ch.rnd.case.key:  # the teacher moved on to the next storm
            ch.select(row.stage)
            side.sent_for = None
            self.feedback.value = ""
        if not row.accepting and not ch.rnd.revealed:
            if not ch.rnd.missing():
                ch.reveal()
            else:  # nothing (or not everything) placed: show the best track all the same
                ch.show_class({})
            self.feedback.value = (f"<div role='status' style='font-size:1.1em'>"
                                   f"{escape(lt('forecast.class_revealed', self.lang))}</div>")
        self.send_button.disabled = not row.accepting
        ch._update()
        self._show()

    # --- both ---------------------------------------------------------------------------------------------

    def _show(self) -> None:
        if self.teacher_side is not None:
            side = self.teacher_side
            if side.row is None:
                self.view.value = ""
            else:
                from .forecast import teams_html

                inner = (sent_html(list(side.teams()), self.lang) if side.row.accepting
                         else teams_html(side.case, side.teams(), True, self.lang))
                # the projector's text, read from the back of the room (the code above is 2rem)
                self.view.value = f"<div class='forecast-class-board' style='{PROJECTOR_TEXT}'>{inner}</div>"
        else:
            side = self.team_side
            r = side.row if side is not None else None
            self.view.value = "" if r is None else (
                f"<p class='forecast-class-joined'>{escape(lt('forecast.class_joined', self.lang, team=side.team, code=r.code))}</p>")

    def refresh(self) -> bool:
        """Read the round from the store and update the page; True when something changed."""
        if self.teacher_side is not None:
            if self.key_gone is not None:
                return False
            changed = self.teacher_side.refresh()
            if self.check_teacher() is not None:  # the round changed owner: was this page's key taken away?
                return True
            if changed:
                self._show()
            return changed
        side = self._team()
        if side.row is None:
            return False
        before = side.row.version
        row = side.refresh()
        if row.version != before:
            self._follow(row)
            return True
        return False

    def start_polling(self, every: float = POLL_SECONDS) -> None:
        """Read the store every ``every`` seconds in the kernel's event loop (Voilà's); nothing without a loop."""
        from ..classplay.runtime import running_loop

        loop = running_loop()
        if loop is None or self._task is not None:
            return

        async def poll() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    self.refresh()
                except Exception as exc:  # said to the person and logged; the poll goes on
                    self.ch.problems.report(exc, "forecast: class round")

        self._task = loop.create_task(poll())


def class_round_panel(challenge: ForecastChallenge, *, store: Any = None, query: Mapping[str, str] | None = None,
                      rounds: LessonRounds | None = None) -> ClassRoundPanel:
    """The panel for this page: the teacher's when the page proves the teacher's key (the server puts it in the
    query from the teacher's cookie or address), a team's otherwise, sending as the page's device (the server's
    ``device`` in the query, from the browser's HttpOnly cookie; a browser cannot set it)."""
    from ..classplay.projector import page_teacher, served_by_voila
    from ..classplay.runtime import open_store

    if rounds is None:
        store = open_store(store)
        rounds = LessonRounds(store)
    if query is None and served_by_voila():
        from ..query import page_query

        query = page_query()
    teacher = page_teacher(rounds.store, query)
    device = query.get("device") or None if query is not None else None
    return ClassRoundPanel(challenge, rounds, teacher, device)

__all__ = ["CLASS_SERVER_ENV_VAR", "ClassRoundPanel", "TeacherRound", "TeamRefused", "TeamRound", "class_round_panel",
           "guesses_value", "on_class_server", "read_guesses", "sent_html"]
