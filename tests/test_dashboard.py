"""The class-play app driven directly (no browser): setup, a whole bot game, a person's seat, language, dice, saves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest

from typhoon_edu import i18n
from typhoon_edu.engine.actions import Action
from typhoon_edu.engine.game import CHANCE
from typhoon_edu.ui.dashboard import ClassPlayApp
from typhoon_edu.ui.dashboard_chart import hp_chart_svg
from typhoon_edu.ui.dashboard_model import (
    SeatChoice,
    SetupChoices,
    SetupError,
    action_groups,
    banner,
    card_text,
    hand_cards,
    needs_privacy,
)
from typhoon_edu.ui.dashboard_session import ClassSession, Seat
from typhoon_edu.ui.dashboard_widgets import walk

# Seed 2 with these seats gives the person (Taiwan, start player) every kind of decision early:
# three placements, a card to play in the first attack phase, a counter window, then a discard.
PERSON_SEATS = [SeatChoice("person", "Mei", "Taiwan"), SeatChoice("medium", region="Japan"),
                SeatChoice("easy", region="Korea"), SeatChoice("medium", region="Philippines")]
PERSON_SEED = 2


def buttons(app: ClassPlayApp) -> Iterator[widgets.Button]:
    for w in walk(app.root):
        if isinstance(w, widgets.Button):
            yield w


def click(app: ClassPlayApp, css: str) -> None:
    """Click the visible button with CSS class ``css`` (as a person would)."""
    found = [b for b in buttons(app) if any(c == css or c.startswith(css + "-") for c in b._dom_classes)]
    assert found, f"no visible button .{css}; buttons: {[b._dom_classes for b in buttons(app)]}"
    found[0].click()


def has_button(app: ClassPlayApp, css: str) -> bool:
    return any(css in b._dom_classes for b in buttons(app))


def text_of(app: ClassPlayApp) -> str:
    return "\n".join(app.visible_texts())


@pytest.fixture
def app(tmp_path: Path) -> ClassPlayApp:
    return ClassPlayApp(lang="en", save_dir=tmp_path)


def person_app(tmp_path: Path, lang: str = "en") -> ClassPlayApp:
    app = ClassPlayApp(lang=lang, save_dir=tmp_path)
    app.start(SetupChoices(list(PERSON_SEATS), regions="chosen", seed=PERSON_SEED, speed=0))
    return app


# ------------------------------------------------------------------------------ a whole game


def test_four_bot_game_runs_to_the_results_screen(app: ClassPlayApp) -> None:
    app.setup.fill(SetupChoices([SeatChoice(k) for k in ("easy", "medium", "easy", "medium")], seed=11, speed=0))
    click(app, "typhoon-setup-start")
    assert app.screen == "game"
    steps = app.advance_bots()
    assert steps > 50
    assert app.screen == "results"
    game = app.session.game
    assert game.is_over and game.winners
    chart = app.results.chart.value
    assert chart.count('data-role="hp-line"') == 4
    downloads = app.results.downloads.value
    assert "typhoon-download-json" in downloads and "data:application/json" in downloads
    assert "data:text/csv" in downloads
    summary = app.results.summary.value
    assert "Winner" in summary and "Biggest storm" in summary
    # the record downloads are the session's own texts
    record = json.loads(app.session.record_json())
    assert record["format"] == "typhoon-edu-save" and record["session"]["seats"][0]["kind"] in ("random", "greedy")
    assert app.session.events_csv().splitlines()[0].startswith("index,kind,player")
    # rematch: the same seats (kinds and names; random regions are dealt again), a new game
    kinds = [seat.kind for seat in app.session.seats]
    old = app.session
    click(app, "typhoon-rematch")
    assert app.screen == "game" and app.session is not old and [seat.kind for seat in app.session.seats] == kinds
    click(app, "typhoon-leave")
    assert app.screen == "setup"


def test_setup_resolves_seats_regions_and_start_player(tmp_path: Path) -> None:
    choices = SetupChoices([SeatChoice("person", "Ann", "Japan"), SeatChoice("easy", region="Korea"),
                            SeatChoice("medium", region="Taiwan")], regions="chosen", start=1, seed=3)
    seats, start = choices.resolve()
    assert [(s.region, s.kind, s.name) for s in seats] == [("Japan", "person", "Ann"), ("Korea", "random", ""),
                                                          ("Taiwan", "greedy", "")]
    assert start == "Korea"
    twice = SetupChoices([SeatChoice(region="Japan"), SeatChoice(region="Japan"), SeatChoice(region="Korea")], regions="chosen")
    with pytest.raises(SetupError) as err:
        twice.resolve()
    assert err.value.message("zh-TW") == "每位玩家的地區必須不同。"
    random_regions = SetupChoices([SeatChoice() for _ in range(5)], seed=9).resolve()[0]
    assert len({s.region for s in random_regions}) == 5
    app = ClassPlayApp(lang="zh-TW", save_dir=tmp_path)
    app.setup.fill(twice)
    click(app, "typhoon-setup-start")
    assert app.screen == "setup" and "每位玩家的地區必須不同" in app.setup.message.value


def test_start_player_and_variant_reach_the_game(app: ClassPlayApp) -> None:
    s = app.start(SetupChoices([SeatChoice("person"), SeatChoice("person"), SeatChoice("person")], regions="random",
                               start=2, variant="advanced", seed=5, speed=0))
    assert s is not None
    assert s.game.variant == "advanced"
    assert s.game.players[s.game.start_seat] == s.seats[2].region


# ------------------------------------------------------------------------------ a person's seat


def test_person_places_by_click_plays_a_card_counters_discards_and_undoes(tmp_path: Path) -> None:
    app = person_app(tmp_path)
    s = app.session
    assert s is not None
    gs = app.game_screen
    # 1. placing: the legal cells light up; a click on another cell is refused with a message
    assert s.game.phase == "setup_place" and s.seat(s.game.current_player).name == "Mei"
    assert "Mei (Taiwan)" in gs.banner.value
    legal = [a.cell for a in s.game.legal_actions()]
    assert set(gs.board.state.highlights) == set(legal)
    assert not app.click_cell((0, 0))
    assert "not a free cell" in gs.message.value
    assert app.click_cell(legal[0])
    assert len(s.game.typhoons) == 1
    # undo the placement, then place again
    assert s.can_undo()
    click(app, "typhoon-undo")
    assert len(s.game.typhoons) == 0 and "taken back" in gs.message.value
    for _ in range(3):
        cells = [a.cell for a in s.game.legal_actions() if a.kind == "place"]
        gs.board.click(*gs.board.geometry.cell_centre(*cells[0]))  # a mouse press on the canvas, at the cell's pixel
    assert len(s.game.typhoons) == 3
    # 2. directions: buttons, one per storm
    while s.game.phase == "setup_aim":
        click(app, "typhoon-act")
    app.advance_bots()
    # 3. the attack phase: the hand is hidden until "show my hand"; cards show their effect text
    assert s.game.phase == "attack" and s.game.current_player == "Taiwan"
    assert needs_privacy(s)
    assert not any(c.startswith("act-play") for b in buttons(app) for c in b._dom_classes)
    assert "hidden from the others" in gs.hand_text.value
    click(app, "typhoon-show-hand")
    hand = hand_cards(s, "Taiwan", "en")
    assert all(card.text and card.text in gs.hand_text.value.replace("&#x27;", "'") for card in hand)
    play = next(a for a in s.game.legal_actions() if a.kind == "play")
    group = next(g for g in action_groups(s, "en") if g.key == f"card:{play.card}")
    assert group.text == card_text(s.game.rules, play.card, "Taiwan", "en")
    click(app, "act-" + play.notation.replace(" ", "-").replace(",", "_"))
    assert any(e.kind == "CardPlayed" and e.player == "Taiwan" for e in s.game.events)
    # after a decision by someone else the hand hides again
    while s.game.current_player == "Taiwan" and s.game.phase == "attack":
        click(app, "act-pass")
    app.advance_bots()
    while s.game.phase == "move_choose" and s.game.current_player == "Taiwan":
        click(app, "act-move")
        app.advance_bots()
    # 4. a counter window opens for Taiwan: the banner says so, and Taiwan may counter
    assert s.game.phase == "counter" and s.game.current_player == "Taiwan"
    assert "has reached your region" in gs.banner.value and "Mei (Taiwan)" in gs.banner.value
    assert gs.revealed is None
    click(app, "typhoon-show-hand")
    counter = next(a for a in s.game.legal_actions() if a.kind == "play")
    click(app, "act-" + counter.notation.replace(" ", "-").replace(",", "_"))
    assert any(e.kind == "CardPlayed" and e.counter for e in s.game.events)
    app.advance_bots()
    while s.game.phase in ("counter", "move_choose") and s.game.current_player == "Taiwan":
        click(app, "act-pass" if s.game.phase == "counter" else "act-move")
        app.advance_bots()
    # 5. too many cards: Taiwan discards (after showing the hand), and may take it back
    assert s.game.phase == "discard" and s.game.current_player == "Taiwan"
    click(app, "typhoon-show-hand")
    discards = sum(1 for e in s.game.events if e.kind == "Discarded")
    click(app, "act-discard")
    assert sum(1 for e in s.game.events if e.kind == "Discarded" and e.player == "Taiwan") == discards + 1
    if s.can_undo():  # only when no die was rolled after the discard (e.g. a second discard is due)
        click(app, "typhoon-undo")
        assert sum(1 for e in s.game.events if e.kind == "Discarded") == discards


def test_bots_leave_no_undo_and_people_cannot_act_for_bots(tmp_path: Path) -> None:
    app = person_app(tmp_path)
    s = app.session
    assert s is not None
    while s.game.phase in ("setup_place", "setup_aim"):
        app.decide(s.game.legal_actions()[0])
    app.advance_bots()
    assert s.game.current_player == "Taiwan"
    # an action that is not legal is refused with the engine's reason, and nothing changes
    digest = s.game.digest()
    assert not app.decide(Action("move", typhoon=99))
    assert s.game.digest() == digest and "Not possible" in app.game_screen.message.value


def test_banner_names_bots_and_people(tmp_path: Path) -> None:
    s = ClassSession.start([Seat("Taiwan", "greedy"), Seat("Japan", "person", "Ken"), Seat("Korea", "random")],
                           seed=1, save_dir=tmp_path)
    b = banner(s, "zh-TW")
    assert b.headline.startswith("臺灣（電腦・中等）") and not b.person
    assert action_groups(s, "en") == []


# ------------------------------------------------------------------------------ language


def _dash_plain_texts(lang: str) -> set[str]:
    cat = i18n.catalog(lang)
    return {v for k, v in cat.items() if k.startswith("dash.") and "{" not in v and len(v) >= 4}


@pytest.mark.parametrize("where", ["setup", "game", "results"])
def test_switching_language_changes_every_label(tmp_path: Path, where: str) -> None:
    app = person_app(tmp_path, lang="zh-TW") if where != "setup" else ClassPlayApp(lang="zh-TW", save_dir=tmp_path)
    if where == "game":
        app.click_cell(app.session.game.legal_actions()[0].cell)
    if where == "results":
        app.start(SetupChoices([SeatChoice("easy") for _ in range(3)], seed=2, speed=0))
        app.advance_bots()
        assert app.screen == "results"
    english = _dash_plain_texts("en") - _dash_plain_texts("zh-TW")
    chinese = _dash_plain_texts("zh-TW") - _dash_plain_texts("en")
    zh_texts = text_of(app)
    assert not [t for t in english if t in app.visible_texts()], "English labels in the Chinese page"
    app.lang_toggle.value = "en"  # the header's language buttons
    en_texts = text_of(app)
    assert app.lang == "en"
    assert not [t for t in chinese if t in app.visible_texts()], "Chinese labels in the English page"
    assert zh_texts != en_texts
    # every visible text with Chinese characters changed (except the bilingual title and language names)
    leftover = [t for t in app.visible_texts() if any("\u4e00" <= ch <= "\u9fff" for ch in t)
                and "Typhoon Alert" not in t and t not in ("中文", "中文（台灣）")]
    assert not leftover, leftover
    app.set_lang("zh-TW")
    assert text_of(app) == zh_texts


def test_language_switch_mid_game_keeps_the_game(tmp_path: Path) -> None:
    app = person_app(tmp_path)
    s = app.session
    digest = s.game.digest()
    app.set_lang("zh-TW")
    assert s.game.digest() == digest and app.session is s
    assert "颱風生成區" in app.game_screen.banner.value
    assert app.game_screen.board.lang == "zh-TW" and app.game_screen.ring.lang == "zh-TW"


# ------------------------------------------------------------------------------ the class's real die


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_typed_die_accepts_1_to_6_and_rejects_0_and_7(tmp_path: Path, lang: str) -> None:
    app = ClassPlayApp(lang=lang, save_dir=tmp_path)
    app.start(SetupChoices([SeatChoice("easy"), SeatChoice("medium"), SeatChoice("easy"), SeatChoice("easy")],
                           dice="manual", seed=4, speed=0))
    app.advance_bots()
    s = app.session
    assert s.game.current_player == CHANCE
    gs = app.game_screen
    assert gs.die.layout.display == "flex"
    assert "typhoon-die-entry" in gs.die.entry._dom_classes
    history = len(s.game.history)
    for bad in ("0", "7", "x", ""):
        assert not app.type_die(bad)
        assert gs.die.message.value
        assert len(s.game.history) == history
    expected = "不是骰子的點數" if lang == "zh-TW" else "is not a die face"
    app.type_die("7")
    assert expected in gs.die.message.value
    assert app.type_die("3")
    assert s.game.history[history] == Action("die", face=3)
    assert gs.die.message.value == ""


# ------------------------------------------------------------------------------ saves


def test_damaged_saves_are_listed_with_their_reason_and_the_others_resume(tmp_path: Path) -> None:
    first = person_app(tmp_path)
    s = first.session
    first.click_cell(s.game.legal_actions()[0].cell)
    digest = s.game.digest()
    (tmp_path / "broken.json").write_text("{ not json", encoding="utf-8")
    (tmp_path / "foreign.json").write_text(json.dumps({"hello": 1}), encoding="utf-8")
    # a reload / restarted kernel: a new app on the same folder
    app = ClassPlayApp(lang="en", save_dir=tmp_path)
    setup = app.setup
    assert setup.resume_box.layout.display == "flex"
    assert setup.latest == s.save_path
    damaged = [w.value for w in walk(setup.saves_box) if "typhoon-save-damaged" in getattr(w, "_dom_classes", ())]
    assert any("broken.json" in v for v in damaged) and any("foreign.json" in v and "not a Typhoon Alert save" in v
                                                            for v in damaged)
    click(app, "typhoon-resume-latest")
    assert app.screen == "game" and app.session.game.digest() == digest
    assert app.session.seat("Taiwan").name == "Mei"
    # a damaged file asked for directly is refused with its name
    app2 = ClassPlayApp(lang="zh-TW", save_dir=tmp_path)
    assert app2.resume(tmp_path / "broken.json") is None
    assert "broken.json" in app2.setup.message.value
    assert "不是有效的 JSON" in app2.setup.message.value  # the reason in the app's language


def test_finished_game_save_opens_its_results(tmp_path: Path) -> None:
    app = ClassPlayApp(lang="en", save_dir=tmp_path)
    app.start(SetupChoices([SeatChoice("easy") for _ in range(3)], seed=8, speed=0))
    app.advance_bots()
    path = app.session.save_path
    again = ClassPlayApp(lang="en", save_dir=tmp_path)
    assert again.setup.latest is None  # nothing unfinished to offer
    click(again, f"typhoon-save-{path.stem}")
    assert again.screen == "results"


def test_hp_chart_is_labelled_without_colour() -> None:
    from typhoon_edu.engine.rules import load_rules

    svg = hp_chart_svg(load_rules(), ["Taiwan", "Japan", "Korea"],
                       [{"Taiwan": 30, "Japan": 50, "Korea": 40}, {"Taiwan": 30, "Japan": 41, "Korea": 40}], "zh-TW")
    assert "日本 41" in svg and "臺灣 30" in svg
    assert svg.count("stroke-dasharray") >= 2 * 2  # dashes tell the lines apart (each line and its underlay)


def test_bot_choice_in_a_worker_is_the_same_as_a_step(tmp_path: Path) -> None:
    a = ClassSession.start([Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")], seed=6,
                           save_dir=tmp_path / "a")
    b = ClassSession.start([Seat("Taiwan", "greedy"), Seat("Japan", "random"), Seat("Korea", "greedy")], seed=6,
                           save_dir=tmp_path / "b")
    for _ in range(40):
        action = a.choose_bot_action()
        if action is None:
            break
        a.apply_bot(action)
        b.step_bot()
    assert a.game.digest() == b.game.digest()


