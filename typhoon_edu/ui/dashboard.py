"""The class-play app: a whole game of Typhoon Alert on a projector (Voilà or a notebook).

``ClassPlayApp`` has three screens: **setup** (seats, regions, rules, dice, language, speed,
saved games; the newest unfinished game is offered first), **game** (board, compass ring, HP,
banner, actions, private hands, counters, undo, narrated log) and **results** (winners, HP chart,
summary, rematch, downloads). Every decision is autosaved by
:class:`~typhoon_edu.ui.dashboard_session.ClassSession`, so a reload, a closed tab or a kernel
restart offers to resume the game where it was.

Bots move from an asyncio task (a hard bot thinks in a worker thread), so the page keeps
answering clicks; without a running event loop (tests, scripts) nothing moves by itself and
:meth:`ClassPlayApp.advance_bots` lets the bots decide.

>>> import tempfile
>>> from typhoon_edu.ui.dashboard_model import SeatChoice, SetupChoices
>>> app = ClassPlayApp(lang="en", save_dir=tempfile.mkdtemp())
>>> app.screen
'setup'
>>> _ = app.start(SetupChoices([SeatChoice("easy"), SeatChoice("medium"), SeatChoice("easy")], seed=4, speed=0))
>>> _ = app.advance_bots()
>>> app.screen, app.session.game.is_over
('results', True)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from .. import i18n
from ..engine.actions import Action
from ..engine.events import DirectionRolled, Event
from ..engine.game import CHANCE
from ..engine.rules import IllegalActionError, SaveFileError
from .dashboard_model import BOT_LEVEL, SeatChoice, SetupChoices, SetupError, d
from .dashboard_session import ClassSession, default_save_dir
from .dashboard_setup import SetupScreen
from .dashboard_widgets import CSS, Labels, html, visible_texts

if TYPE_CHECKING:
    from .dashboard_game import GameScreen
    from .dashboard_results import ResultsScreen

log = logging.getLogger(__name__)

#: Seconds a bot "thinks" before its move shows, at speed 1 (so a class can follow each decision).
BOT_PAUSE = 0.9
#: Seconds the final board stays up before the results screen, at speed 1.
RESULTS_PAUSE = 2.0
#: In instant mode, bots decide for this long between two screen updates.
INSTANT_SLICE = 0.25
LANG_OPTIONS = (("中文", "zh-TW"), ("English", "en"))


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class ClassPlayApp:
    """The dashboard. ``show()`` displays it; everything a button does is also a method (for tests).

    ``save_dir`` defaults to the user's data folder (or ``$TYPHOON_EDU_SAVES``).
    """

    def __init__(self, lang: str = "zh-TW", save_dir: str | Path | None = None, *, bot_pause: float = BOT_PAUSE) -> None:
        self.lang = i18n.normalize_lang(lang)
        self.save_dir = Path(save_dir) if save_dir is not None else default_save_dir()
        self.bot_pause = bot_pause
        self.labels = Labels(self.lang)
        self.session: ClassSession | None = None
        self.choices: SetupChoices | None = None
        self.speed = 1.0
        self.screen = "setup"
        self._task: asyncio.Task[None] | None = None
        self._queue: list[list[Event]] = []
        self._game_screen: GameScreen | None = None
        self._results: ResultsScreen | None = None

        self.title = self.labels.bind(html("typhoon-title"), "value", lambda lang: (
            f"<div style='font-size:1.7em;font-weight:bold'>{d('app.title', lang)}</div>"))
        self.lang_toggle = widgets.ToggleButtons(options=list(LANG_OPTIONS), value=self.lang,
                                                 tooltips=["中文（台灣）", "English"])
        self.lang_toggle.style.button_width = "6em"
        self.lang_toggle.add_class("typhoon-lang")
        self.lang_toggle.observe(lambda c: self.set_lang(c["new"]), "value")
        # not bound to the Labels: set last on a switch, so "the header changed" means "the page has switched"
        self.lang_label = html(value=f"<b>{d('app.language', self.lang)}</b>")
        header = widgets.HBox([self.title, widgets.HBox([self.lang_label, self.lang_toggle],
                                                        layout=widgets.Layout(align_items="center"))],
                              layout=widgets.Layout(justify_content="space-between", align_items="center", width="100%",
                                                    flex_flow="row wrap", border_bottom="3px solid #0ea5e9",
                                                    margin="0 0 .4em 0"))
        self.setup = SetupScreen(self)
        self.body = widgets.VBox([self.setup.box], layout=widgets.Layout(width="100%"))
        self.root = widgets.VBox([html(value=CSS), header, self.body], layout=widgets.Layout(width="100%"))
        self.root.add_class("typhoon-app")
        self.setup.refresh_saves()

    # --- display ------------------------------------------------------------------------------

    def show(self) -> ClassPlayApp:
        """Display the app (in a notebook or Voilà) and return it."""
        from IPython.display import display

        display(self.root)
        return self

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    @property
    def game_screen(self) -> GameScreen:
        """The game screen (built on first use: the setup screen appears faster without it)."""
        if self._game_screen is None:
            from .dashboard_game import GameScreen

            self._game_screen = GameScreen(self)
        return self._game_screen

    @property
    def results(self) -> ResultsScreen:
        """The results screen (built on first use)."""
        if self._results is None:
            from .dashboard_results import ResultsScreen

            self._results = ResultsScreen(self)
        return self._results

    def _go(self, screen: str) -> None:
        self.screen = screen
        box = {"setup": lambda: self.setup.box, "game": lambda: self.game_screen.box, "results": lambda: self.results.box}[screen]()
        self.body.children = [box]

    def visible_texts(self) -> list[str]:
        """Every text shown now (labels, buttons, options, HTML), e.g. to check a language switch."""
        return visible_texts(self.root)

    # --- language and speed -----------------------------------------------------------------

    def set_lang(self, lang: str) -> None:
        """Switch every label of every screen to ``lang`` (at any moment, mid-game too)."""
        lang = i18n.normalize_lang(lang)
        self.lang = lang
        if self.lang_toggle.value != lang:
            self.lang_toggle.value = lang  # calls set_lang again, which then finds nothing to do
            return
        self.setup.set_lang(lang)
        if self.session is not None:
            self.session.lang = lang
        if self._game_screen is not None and self.session is not None:
            self._game_screen.set_lang(lang)
        if self._results is not None and self.screen == "results":
            self._results.set_lang(lang)
        # the bound labels last: the header's "Language" label changing means the whole page has switched
        self.labels.set_lang(lang)
        self.lang_label.value = f"<b>{d('app.language', lang)}</b>"

    def set_speed(self, speed: float) -> None:
        """Animation speed: 1 = normal, 2 = twice as fast, 0 = no animation."""
        self.speed = float(speed)
        if self._game_screen is not None and self._game_screen.speed.value != self.speed:
            self._game_screen.speed.value = self.speed

    def skip_animation(self) -> None:
        """Jump to the end of the running animation."""
        if self._game_screen is not None:
            self._game_screen.board.skip()
            if self._game_screen.ring.player is not None:
                self._game_screen.ring.player.skip()

    # --- starting, resuming, leaving ----------------------------------------------------------

    def start(self, choices: SetupChoices | None = None) -> ClassSession | None:
        """Start a new game from ``choices`` (default: what the setup screen says)."""
        choices = choices or self.setup.choices()
        try:
            seats, start = choices.resolve()
        except SetupError as exc:
            self.setup.show_error(exc.message(self.lang))
            return None
        session = ClassSession.start(seats, seed=choices.seed, variant=choices.variant, dice=choices.dice, start=start,
                                     lang=self.lang, save_dir=self.save_dir)
        self.choices = choices
        self.setup.message.value = ""
        self.set_speed(choices.speed)
        self._open(session)
        return session

    def resume(self, path: str | Path) -> ClassSession | None:
        """Continue a saved game (a finished one opens its results); a damaged file shows why."""
        try:
            session = ClassSession.resume(path)
        except SaveFileError as exc:
            self.setup.show_error(f"{Path(path).name}: {i18n.error_text(exc, self.lang)}")
            self.setup.refresh_saves()
            self._go("setup")
            return None
        session.lang = self.lang
        self.choices = None
        self.setup.message.value = ""
        self._open(session)
        return session

    def _open(self, session: ClassSession) -> None:
        self._stop_driver()
        self.session = session
        self._queue = []
        if session.game.is_over:
            self._show_results()
            return
        screen = self.game_screen
        screen.busy = False
        screen.bind(session)
        screen.show_message("")
        self._go("game")
        self._drive()

    def rematch(self) -> ClassSession | None:
        """The same seats again, with a new shuffle."""
        if self.session is None:
            return None
        if self.choices is not None:
            again = SetupChoices(**{**self.choices.__dict__, "seed": None})
            return self.start(again)
        seats = [SeatChoice("person" if s.is_person else BOT_LEVEL.get(s.kind, "easy"), s.name, s.region)
                 for s in self.session.seats]
        game = self.session.game
        return self.start(SetupChoices(seats, "chosen", None, game.variant, game.dice, self.speed, None))

    def new_game(self) -> None:
        """Back to the setup screen (with the last game's choices filled in)."""
        self._stop_driver()
        if self.choices is not None:
            self.setup.fill(self.choices)
        self.setup.refresh_saves()
        self._go("setup")

    def leave_game(self) -> None:
        """Back to the setup screen; the game stays saved and is offered for resuming."""
        self._stop_driver()
        self.setup.refresh_saves()
        self._go("setup")

    def _show_results(self) -> None:
        self._stop_driver()
        self.results.render()
        self._go("results")

    # --- decisions ------------------------------------------------------------------------------

    def person_decides(self) -> bool:
        """Whether a person (or the class's typed die) makes the pending decision."""
        s = self.session
        return s is not None and not s.game.is_over and s.waiting_for_person

    def decide(self, action: Action | str) -> bool:
        """Make a person's decision (from a button, a map click or a typed die); False if refused."""
        s = self.session
        if s is None or self.screen != "game":
            return False
        screen = self.game_screen
        if screen.busy or not self.person_decides():
            screen.show_message(d("error.wait", self.lang))
            return False
        try:
            events = s.apply(action)
        except IllegalActionError as exc:
            screen.show_message(d("error.illegal", self.lang, error=i18n.error_text(exc, self.lang)))
            return False
        screen.pending_card = None
        screen.show_message("")
        self._changed(events)
        return True

    def click_cell(self, cell: tuple[int, int]) -> bool:
        """A click on the map: places a storm, or gives the chosen card its cell."""
        if self.session is None or self.screen != "game":
            return False
        screen = self.game_screen
        if screen.busy or not self.person_decides():
            return False
        action = screen.cell_action(cell)
        if action is None:
            if any(a.kind == "place" for a in self.session.game.legal_actions()) or screen.pending_card:
                screen.show_message(d("error.bad_cell", self.lang, cell=i18n.cell_label(cell, self.lang)))
            return False
        return self.decide(action)

    def pick_card(self, key: str) -> None:
        """Choose a card whose target is a cell: its cells light up and the next map click plays it."""
        if self._game_screen is None:
            return
        self.game_screen.pending_card = key
        self.game_screen.render()

    def enter_die(self, face: int) -> bool:
        """The face of the class's real die (already checked by the die widget)."""
        return self.decide(Action("die", face=int(face)))

    def type_die(self, text: str) -> bool:
        """Type a die face as a person would (``"0"`` and ``"7"`` are refused with a message)."""
        return self.game_screen.die.enter(text) is not None

    def undo(self) -> bool:
        """Take back the last decision of a person (never across a die roll)."""
        s = self.session
        if s is None or self._game_screen is None or self._game_screen.busy:
            return False
        try:
            s.undo()
        except IllegalActionError as exc:
            self._game_screen.show_message(d("error.illegal", self.lang, error=i18n.error_text(exc, self.lang)))
            return False
        self._game_screen.bind(s)
        self._game_screen.show_message(d("game.undone", self.lang), error=False)
        return True

    def reveal_hand(self) -> None:
        """Show the hand of the person who decides now (the others look away)."""
        s = self.session
        if s is None or self._game_screen is None:
            return
        who = s.game.current_player
        if who is not None and who != CHANCE and s.seat(who).is_person:
            self._game_screen.revealed = who
            self._game_screen._revealed_phase = s.game.phase
            self._game_screen.render()

    def hide_hand(self) -> None:
        """Hide the shown hand again."""
        if self._game_screen is not None:
            self._game_screen.revealed = None
            self._game_screen.render()

    # --- bots and animation -------------------------------------------------------------------

    def advance_bots(self, max_steps: int = 100_000) -> int:
        """Let the bots decide until a person must (or the game ends), at once; returns the number of decisions.

        This is for tests and scripts; in a kernel the bots move by themselves at a watchable pace.
        """
        s = self.session
        if s is None:
            return 0
        steps = 0
        while steps < max_steps and not s.game.is_over and not s.waiting_for_person:
            s.step_bot()
            steps += 1
        self._settle()
        return steps

    def _changed(self, events: Sequence[Event]) -> None:
        screen = self.game_screen
        if _running_loop() is None:
            self._settle()
            return
        self._queue.append(list(events))
        screen.busy = True
        screen.render()
        self._drive()

    def _settle(self) -> None:
        """Show the game as it is now, with no animation (no event loop, or the end of a drive)."""
        s = self.session
        if s is None:
            return
        if s.game.is_over:
            self._show_results()
            return
        screen = self.game_screen
        screen.busy = False
        screen.sync_board()
        screen.render()

    def _drive(self) -> None:
        loop = _running_loop()
        if loop is None or (self._task is not None and not self._task.done()):
            return
        self._task = loop.create_task(self._run(self.session))

    def _stop_driver(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        self._queue = []

    def _pause(self) -> float:
        return self.bot_pause / self.speed if self.speed > 0 else 0.0

    async def _run(self, session: ClassSession | None) -> None:
        """Animate queued events, then let bots decide one at a time, until a person must decide."""
        if session is None:
            return
        loop = asyncio.get_running_loop()
        screen = self.game_screen
        try:
            while self.session is session:
                if self._queue:
                    await self._animate(self._queue.pop(0))
                    continue
                game = session.game
                if game.is_over:
                    screen.busy = False
                    screen.sync_board()
                    screen.render()
                    await asyncio.sleep(RESULTS_PAUSE / self.speed if self.speed > 0 else 0.05)
                    if self.session is session:
                        self._show_results()
                    return
                screen.busy = False
                screen.sync_board()
                screen.render()
                if session.waiting_for_person:
                    return
                if self.speed <= 0:
                    await self._instant_slice(session, loop)
                    continue
                await asyncio.sleep(self._pause())
                if self.session is not session:
                    return
                before = session.decisions
                action = await self._choose(session, loop)
                if self.session is not session or session.decisions != before or action is None:
                    continue
                self._queue.append(session.apply_bot(action))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - show the problem on the page instead of failing silently
            log.exception("the dashboard's game loop stopped")
            screen.busy = False
            screen.show_message(d("error.internal", self.lang, error=f"{type(exc).__name__}: {exc}"))

    async def _choose(self, session: ClassSession, loop: asyncio.AbstractEventLoop) -> Action | None:
        who = session.game.current_player
        if who is not None and who != CHANCE and session.seat(who).kind == "mcts":
            return await loop.run_in_executor(None, session.choose_bot_action)  # seconds of thinking: not on the loop
        return session.choose_bot_action()

    async def _instant_slice(self, session: ClassSession, loop: asyncio.AbstractEventLoop) -> None:
        """No animation: bots decide for a short slice of time, then the page is updated once."""
        t0 = time.monotonic()
        while (self.session is session and not session.game.is_over and not session.waiting_for_person
               and time.monotonic() - t0 < INSTANT_SLICE):
            before = session.decisions
            action = await self._choose(session, loop)
            if action is None or session.decisions != before:
                break
            session.apply_bot(action)
        await asyncio.sleep(0.02)

    async def _animate(self, events: Sequence[Event]) -> None:
        if self.speed <= 0 or not events:
            return
        screen = self.game_screen
        for e in events:
            if isinstance(e, DirectionRolled):
                if screen.ring.stop != e.start:
                    screen.ring.set_stop(e.start)
                screen.ring.roll(e.face, speed=self.speed)
        player = screen.board.animate(events, speed=self.speed)
        while not player.done:
            await asyncio.sleep(0.05)
        ring_player = screen.ring.player
        while ring_player is not None and not ring_player.done:
            await asyncio.sleep(0.05)
        screen.hp.update(self.session.game.hp if self.session is not None else {})


__all__ = ["ClassPlayApp"]
