"""The results screen's coach review belongs to one game: never shown for another, never shown unasked."""

from __future__ import annotations

from typhoon_edu.ai.bots import RandomBot
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice


def choices(seed: int, regions: tuple[str, str, str]) -> SetupChoices:
    return SetupChoices([SeatChoice("person", "Mei", regions[0]), SeatChoice("person", "Ken", regions[1]),
                         SeatChoice("medium", "", regions[2])], regions="chosen", seed=seed, speed=0, devices=False)


def play_out(app: ProjectorApp) -> None:
    room, bot = app.room, RandomBot(3)
    while not room.is_over:
        if room.bot_to_move():
            room.step_bot()
        else:
            room.act(bot.choose(room.game.clone()), teacher=True)
    app.advance()
    assert app.screen == "results"


def test_a_review_asked_for_one_game_is_not_shown_on_the_next_games_results(store: RoomStore) -> None:
    app = ProjectorApp(lang="en", store=store, fullscreen=False)
    app.start(choices(11, ("Taiwan", "Japan", "Korea")))
    play_out(app)
    app.results.review(iterations=12, hint_iterations=12)  # short searches: a test
    assert "Mei (Taiwan)" in app.results.review_box.value
    # a new game with other regions, ended by the teacher: its results have no review until asked
    app.new_game()
    app.start(choices(5, ("Philippines", "South China", "Korea")))
    app.room.end()
    app.advance()
    assert app.screen == "results"
    assert app.results.review_box.value == ""
    app.results.render()  # a redraw (a language switch) brings no old review back either
    assert app.results.review_box.value == ""


def test_a_rematch_starts_without_the_last_games_review(store: RoomStore) -> None:
    app = ProjectorApp(lang="en", store=store, fullscreen=False)
    app.start(choices(11, ("Taiwan", "Japan", "Korea")))
    play_out(app)
    app.results.review(iterations=12, hint_iterations=12)  # short searches: a test
    app.rematch()
    play_out(app)
    assert app.results.review_box.value == ""
    app.results.review(iterations=12, hint_iterations=12)  # short searches: a test
    assert "What you could try" in app.results.review_box.value
