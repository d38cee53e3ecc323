"""The results screen's "game in numbers": what a class can talk about after a game, also one in which nobody was
hurt (ended early, or every storm missed), where the screen used to show one line and an empty half."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from test_classplay_teacher_drawer import _class

from typhoon_edu import i18n
from typhoon_edu.ai.bots import GreedyBot, RandomBot
from typhoon_edu.engine import events as ev
from typhoon_edu.engine.game import Game
from typhoon_edu.ui.classplay.model import SeatInfo
from typhoon_edu.ui.classplay.results import GameFacts, facts_html, game_facts

F = "classplay.results.facts"


def test_the_facts_count_the_games_events() -> None:
    game = Game.new(["Taiwan", "Japan", "Korea"], seed=7)
    bots = {p: RandomBot(i) if i else GreedyBot() for i, p in enumerate(game.players)}
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
    events = game.visible_events(None)
    facts = game_facts(events)
    kinds = Counter(e.kind for e in events)
    assert facts.storms == kinds["TyphoonPlaced"] > 0
    assert facts.landfalls == kinds["Landfall"]
    assert facts.off_map == sum(1 for e in events if isinstance(e, ev.TyphoonRemoved) and e.reason == "edge")
    assert sum(facts.cards.values()) == kinds["CardPlayed"] > 0
    assert sum(facts.abilities.values()) == kinds["AbilityUsed"]
    assert sum(facts.placed.values()) == facts.storms and set(facts.placed) <= set(game.players)


def _cells(html: str) -> list[str]:
    return re.findall(r"<td>([^<]*)</td>", html)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_game_ended_before_any_damage_shows_the_game_in_numbers(tmp_path: Path, lang: str) -> None:
    app, phones = _class(tmp_path, lang)
    mei = phones["Taiwan"]
    mei.sync()
    assert mei.decide(mei.decisions.cell_action(mei.decisions.highlight_cells()[0]))  # Mei places a storm
    app.advance()
    app.drawer.ask_end()
    app.drawer.end()
    room = app.room
    assert all(point == room.hp_track[0] for point in room.hp_track), "this test needs a game with no damage"
    assert app.results.chart.value == ""  # no damage: no chart, the numbers take its place
    html = app.results.facts.value
    assert i18n.t(f"{F}.title", lang) in html
    for key in ("rounds", "storms", "landfalls", "off_map", "team", "placed", "cards", "ability"):
        assert i18n.t(f"{F}.{key}", lang) in html, key
    assert "<div class='typhoon-fact-value'>1 / 3</div>" in html  # the round it ended in, of three
    assert "<div class='typhoon-fact-value'>1</div><div class='typhoon-fact-label'>" \
           f"{i18n.t(f'{F}.storms', lang)}</div>" in html
    row = html.split("data-region='Taiwan'>")[1].split("</tr>")[0]
    assert _cells(row) == ["1", "0", i18n.t(f"{F}.ability_not_used", lang)], row
    assert html.count("<tr data-region=") == len(room.players)
    app.set_lang("zh-TW" if lang == "en" else "en")  # the numbers follow a language switch
    other = app.lang
    assert i18n.t(f"{F}.title", other) in app.results.facts.value
    assert i18n.t(f"{F}.title", lang) not in app.results.facts.value


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_game_ended_at_once_says_so_in_a_sentence_not_a_table_of_zeros(lang: str) -> None:
    seats = {"Taiwan": SeatInfo("Taiwan", "person", "Mei"), "Japan": SeatInfo("Japan", "greedy")}
    html = facts_html(GameFacts(), ["Taiwan", "Japan"], seats, lang, round_now=1, rounds=3)
    assert i18n.t(f"{F}.nothing_yet", lang) in html and "<table" not in html
    assert i18n.t(f"{F}.landfalls", lang) not in html  # no storm: where storms went is not asked
    used = game_facts([ev.AbilityUsed("Japan", "x"), ev.TyphoonPlaced(1, (8, 8), 1, "Taiwan")])
    html = facts_html(used, ["Taiwan", "Japan"], seats, lang, round_now=4, rounds=3)
    assert "1 / 3" not in html and "3 / 3" in html  # a finished game's round counter stays at its last round
    assert _cells(html.split("data-region='Japan'>")[1])[:3] == ["0", "0", i18n.t(f"{F}.ability_used", lang)]
