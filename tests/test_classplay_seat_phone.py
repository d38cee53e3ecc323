"""A team's phone in the class walk's problem spots: knocked out, the end, a late tap, a long choice, the join page.

Each test drives the kernel side of the pages (:class:`~typhoon_edu.ui.classplay.seat.SeatApp`, the decision panel,
the join screen) the way the browser does; the page's own half (the heartbeat, the tap guard) is tested in
tests/browser/test_classroom_phone_taps.py.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import ipywidgets as widgets
import pytest
from classplay_helpers import open_class

from typhoon_edu import Game, i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.engine.actions import Action
from typhoon_edu.ui.classplay import seat as seat_module
from typhoon_edu.ui.classplay.decisions import STORM_FIRST, DecisionPanel
from typhoon_edu.ui.classplay.model import SeatInfo
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.table import Table
from typhoon_edu.ui.classplay.viewdata import SeatChoice
from typhoon_edu.ui.guard import Problems

LANGS = ("en", "zh-TW")



def patch_table(monkeypatch: pytest.MonkeyPatch, **change: Any) -> None:
    """The phone's table as the room gives it, with ``change`` (hp, winners, phase …) laid over it."""
    real = seat_module.seat_table

    def changed(room: Any, region: str, **kw: Any) -> Table:
        table = real(room, region, **kw)
        fields = {k: (v(table) if callable(v) else v) for k, v in change.items()}
        return dataclasses.replace(table, **fields)

    monkeypatch.setattr(seat_module, "seat_table", changed)


def hand_title(lang: str) -> str:
    return i18n.t("classplay.hand.title", lang, count=0, limit=0).split("0")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_a_knocked_out_team_is_told_so_and_its_hand_is_put_away(store: RoomStore, lang: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Philippines at 0 HP said "Waiting for Ken…" and still showed "Your hand: 5 cards" (en62)."""
    _projector, phones = open_class(store, lang)
    ken = phones["Japan"]
    assert hand_title(lang) in ken.decisions.hand_html.value  # its hand, while it plays
    patch_table(monkeypatch, hp=lambda t: {**t.hp, "Japan": 0})
    ken.render(exact=True)
    said = i18n.t("classplay.seat.out", lang, region=i18n.region_name(ken.rules, "Japan", lang))
    assert said in _text(ken.banner.value)
    assert ken.decisions.hand_html.value == "", "a team that is out still sees its hand"
    assert i18n.t("classplay.seat.your_turn", lang) not in _text(ken.banner.value)


def _text(html: str) -> str:
    import html as h
    import re

    return h.unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("lang", LANGS)
def test_the_end_shows_the_teams_place_and_the_ranking_and_no_hand(store: RoomStore, lang: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The end said "See the results below" over a useless hand; the ranking was nowhere (en67, en68, zh40)."""
    _projector, phones = open_class(store, lang)
    mei = phones["Taiwan"]
    patch_table(monkeypatch, winners=("Korea",), hp=lambda t: {"Taiwan": 7, "Japan": 0, "Korea": 12})
    mei.render(exact=True)
    ranking = _text(mei.ranking.value)
    assert i18n.t("classplay.rank.title", lang) in ranking
    assert i18n.t("classplay.rank.you", lang, place=i18n.t("classplay.rank.ord_2", lang), count=3) in ranking
    korea = ranking.index(i18n.region_name(mei.rules, "Korea", lang))
    taiwan = ranking.index(i18n.region_name(mei.rules, "Taiwan", lang))
    japan = ranking.index(i18n.region_name(mei.rules, "Japan", lang))
    assert korea < taiwan < japan, ranking
    assert mei.decisions.hand_html.value == "", "the hand is still shown at the end"
    assert mei.seat_box.children.index(mei.ranking) < mei.seat_box.children.index(mei.board), "the ranking is not on top"
    assert "results below" not in _text(mei.banner.value) and "下面的結果" not in _text(mei.banner.value)


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_ended_before_any_damage_ranks_no_one_on_the_phone_either(store: RoomStore, lang: str) -> None:
    """The projector said "No team had lost any HP" and crowned no one; the phone said "Your team: 1st of 3" and ranked
    the teams by the HP they started with (the walk's 4b-results screenshots)."""
    projector, phones = open_class(store, lang)
    projector.drawer.ask_end()
    projector.drawer.end_yes.click()
    mei = phones["Taiwan"]
    mei.sync()
    ranking = _text(mei.ranking.value)
    assert i18n.t("classplay.results.no_leader", lang) in ranking, ranking
    first = i18n.t("classplay.rank.ord_1", lang)
    assert first not in ranking, ranking
    assert i18n.region_name(mei.rules, "Korea", lang) in ranking  # every region's HP is still listed


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_ended_before_any_damage_calls_its_list_hp_not_a_ranking(store: RoomStore, lang: str) -> None:
    """Under "No team had lost any HP when the game ended." the phone headed its list "Ranking when the game ended",
    and the list, without places, was sorted by the HP each team started with (the walk's 31-mei-results). The list
    is every team's HP, headed so, in the seats' order as on the projector's HP panel."""
    projector = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = projector.start(SetupChoices([SeatChoice("medium", "", "Korea"), SeatChoice("person", "Mei", "Taiwan"),
                                         SeatChoice("person", "Ken", "Japan")], regions="chosen", seed=11, speed=0,
                                        devices=True))
    projector.show_board()
    mei = SeatApp(lang=lang, store=store, token=room.issued_tokens["Taiwan"])
    projector.drawer.ask_end()
    projector.drawer.end_yes.click()
    mei.sync()
    ranking = _text(mei.ranking.value)
    assert i18n.t("classplay.results.no_leader", lang) in ranking, ranking
    assert i18n.t("classplay.rank.title_ended", lang) not in ranking, ranking
    assert i18n.t("classplay.rank.title_hp", lang) in ranking, ranking
    names = [ranking.index(i18n.region_name(mei.rules, r, lang)) for r in ("Korea", "Taiwan", "Japan")]
    assert names == sorted(names), f"not in the seats' order (Korea 40 HP, Taiwan 42, Japan 41): {ranking}"
    assert "<ol" not in mei.ranking.value, "a list of HP is no ordered ranking"


@pytest.mark.parametrize("lang", LANGS)
def test_while_the_storms_move_the_phone_says_wait_then_your_turn_with_its_buttons(store: RoomStore,
                                                                                   lang: str) -> None:
    """For about a second after a decision, while its die rolled and the ring turned, the phone said "Your turn! …
    Choose one of the buttons below." over no button (the walk's probe-mei-after-aim). While the storms move it says
    to wait; "Your turn!" and the instruction come with the buttons, and are said to a screen reader once, then."""
    _projector, phones = open_class(store, lang)
    mei = phones["Taiwan"]
    mei.speed = 4.0  # the animation plays (a loop runs), a little faster than in class
    said: list[str] = []
    say = mei.board.access.say
    mei.board.access.say = lambda sentence: (said.append(sentence), say(sentence))  # type: ignore[method-assign]
    your_turn = i18n.t("classplay.seat.your_turn", lang)
    own_buttons = i18n.t("classplay.banner.own_buttons", lang)

    async def idle() -> None:
        for _ in range(400):
            if mei.pacer.idle:
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the animation never ended")

    async def play() -> None:
        for cell in ((8, 8), (11, 7), (14, 9)):
            assert mei.decide(mei.decisions.cell_action(cell))
            await idle()
        said.clear()
        aim = mei.decisions.buttons()[0]  # aim T1: its direction's die rolls and the ring turns
        aim.click()
        assert not mei.pacer.idle, "no animation to look at"
        while_moving = _text(mei.banner.value)
        assert not mei.decisions.buttons(), "buttons while the storms move"
        assert your_turn not in while_moving and own_buttons not in while_moving, while_moving
        assert i18n.t("classplay.seat.own_soon", lang) in while_moving, while_moving
        assert "data-mine='1'" in mei.banner.value and "data-busy='1'" in mei.banner.value  # the tests' state
        assert not any(your_turn in s for s in said), said
        await idle()
        now = _text(mei.banner.value)
        assert your_turn in now and own_buttons in now and mei.decisions.buttons(), now
        mei.render()  # any redraw after: not said again
        assert sum(your_turn in s for s in said) == 1, said

    asyncio.run(play())


def test_a_press_on_a_button_of_a_decision_that_is_over_plays_nothing(store: RoomStore) -> None:
    """After placing at (8, 8) the (11, 7) button slid under the finger (zh07): a tap drawn for the old decision
    that reaches the kernel after it must not place a second storm."""
    projector, phones = open_class(store)
    mei = phones["Taiwan"]
    old = {b.description: b for b in mei.decisions.buttons()}
    assert mei.decide(mei.decisions.cell_action((8, 8)))
    late = old[i18n.cell_label((11, 7), "en")]
    late.click()  # as the page's message about the old button arrives now
    assert [a.notation for a in store.actions(projector.room.id)] == ["place 8,8"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_decision_is_confirmed_on_the_phone(store: RoomStore, lang: str) -> None:
    _projector, phones = open_class(store, lang)
    mei = phones["Taiwan"]
    assert mei.decide(mei.decisions.cell_action((8, 8)))
    placed = i18n.t("action.place", lang, cell=i18n.cell_label((8, 8), lang))
    assert i18n.t("classplay.seat.chose", lang, action=placed) in _text(mei.message.value)


def test_one_more_card_is_said_after_a_first_card(store: RoomStore) -> None:
    """ "You may play 1 more card." after a first card, when a second one may be played."""
    projector, phones = open_class(store)
    room = projector.room
    for _ in range(600):
        projector.advance()
        for p in phones.values():
            p.sync()
        who = room.game.current_player
        if who not in phones:
            if who is not None and who != "chance":
                room.bot_to_move()
            continue
        phone = phones[who]
        table = phone.decisions.table
        plays = [a for a in table.legal if a.kind == "play"]
        if table.phase == "attack" and plays:
            assert phone.decide(plays[0])
            now = phone.decisions.table
            more = now.current_player == who and now.phase == "attack" and any(a.kind == "play" for a in now.legal)
            assert (i18n.t("classplay.seat.one_more", "en") in _text(phone.message.value)) == more
            if more:
                return
            continue
        passes = [a for a in table.legal if a.kind == "pass"]
        cells = phone.decisions.highlight_cells()
        phone.decide(passes[0] if passes else phone.decisions.cell_action(cells[0]) if cells else table.legal[0])
    pytest.skip("no second card came up in this game")


def steering_table() -> Table:
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    table = Table.for_seat(g, "Taiwan")
    storms = (1, 2, 3, 4, 5)
    dirs = ("N", "NE", "E", "SE", "S", "SW")
    legal = tuple(Action("play", card="steering_flow", typhoon=t, direction=d) for t in storms for d in dirs)
    return dataclasses.replace(table, phase="attack", current_player="Taiwan", legal=(*legal, Action("pass")))


def test_a_long_choice_of_storm_and_direction_is_made_storm_first() -> None:
    """Steering Flow offered 30 direction buttons: the page was 4,179 px tall, its map 2,960 px down (en16)."""
    chosen: list[Action] = []
    panel = DecisionPanel(Problems(lambda: "en"), on_action=chosen.append)
    seats = {p: SeatInfo(p, "person") for p in ("Taiwan", "Japan", "Korea")}
    table = steering_table()
    panel.render(table, seats, "en")
    steering = [b for b in panel.buttons() if "typhoon-storm-pick" in b._dom_classes]
    assert len(steering) == 5 and len(panel.buttons()) <= STORM_FIRST, [b.description for b in panel.buttons()]
    steering[1].click()  # T2
    directions = [b for b in panel.buttons() if "typhoon-act-play" in " ".join(b._dom_classes)
                  or b.description.startswith("T2")]
    assert len(directions) == 6, [b.description for b in panel.buttons()]
    directions[0].click()
    assert chosen == [Action("play", card="steering_flow", typhoon=2, direction="N")]


@pytest.mark.parametrize("lang", LANGS)
def test_a_device_that_lost_its_seat_says_it_once_hides_the_hand_and_links_to_join(store: RoomStore, lang: str) -> None:
    """The tablet said the same sentence twice, kept its hand, and offered no way back (en53)."""
    projector, phones = open_class(store, lang)
    projector.drawer.revoke("Japan")
    ken = phones["Japan"]
    ken.sync()
    said = i18n.t("classroom.error.token_revoked", lang)
    page = _text(ken.banner.value) + _text(ken.message.value)
    assert page.count(said) == 1, page
    assert ken.decisions.hand_html.value == ""
    assert f"href='join/{projector.room.code}'" in ken.message.value
    ken.set_lang("en" if lang == "zh-TW" else "zh-TW")  # a switch of language redraws why, not the game
    assert "href='join/" in ken.message.value


def test_the_join_page_speaks_the_browsers_language_then_the_rooms(store: RoomStore) -> None:
    """An en-US browser on an English room's /join saw Chinese (en05/en07/en11/en49)."""
    projector, _phones = open_class(store, "en")
    page = SeatApp(lang="zh-TW", store=store)  # the server's default language
    page.link.browser_lang = "en-US"  # as the page says
    assert page.lang == "en"
    page.join.code.value = "ZZZZZ"  # a wrong code: said in English
    assert i18n.t("classplay.seat.join_title", "en") in page.join.title.value
    other = SeatApp(lang="en", store=store, code=projector.room.code)
    assert other.lang == "en"
    zh = SeatApp(lang="en", store=store)
    zh.link.chosen_lang = "zh-TW"  # this device's own switch, from an earlier visit
    zh.link.browser_lang = "en-US"
    assert zh.lang == "zh-TW"


def test_the_join_list_uses_the_rooms_language_and_a_refusal_follows_the_language(store: RoomStore) -> None:
    projector, _phones = open_class(store, "en")
    page = SeatApp(lang="zh-TW", store=store, code=projector.room.code)
    assert page.lang == "en", "the seat list is not in the room's language"
    SeatApp(lang="en", store=store, token=projector._tokens["Taiwan"], device="first")
    taken = SeatApp(lang="zh-TW", store=store, token=projector._tokens["Taiwan"], device="another")
    assert taken.screen == "join" and taken.join.message.value
    first = _text(taken.join.message.value)
    taken.link.browser_lang = "en-US"  # the page says its browser's language after the refusal was drawn
    assert taken.lang == "en" and _text(taken.join.message.value) != first


@pytest.mark.parametrize("lang", LANGS)
def test_the_own_banner_of_a_discard_offers_no_pass(store: RoomStore, lang: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The discard screen said "…, or pass" (zh-TW "…或選擇不出牌"), and a discard has no pass."""
    _projector, phones = open_class(store, lang)
    mei = phones["Taiwan"]
    for phase in ("discard",):
        patch_table(monkeypatch, phase=phase, current_player="Taiwan")
        mei.decisions._shape = None
        mei.render(exact=True)
        banner = _text(mei.banner.value)
        assert i18n.t(f"classplay.banner.own_{phase}", lang) in banner, banner
        assert i18n.t("classplay.banner.own_hand", lang) not in banner


@pytest.mark.parametrize("lang", LANGS)
def test_a_counter_window_says_one_word_for_its_button(lang: str) -> None:
    """ "take the hit" (the prompt), "or pass" (the banner) and "Do not counter" (the button) for one button."""
    from typhoon_edu.describe import describe_action

    g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    g.phase = "counter"  # describe_action asks only the phase
    button = describe_action(Action("pass"), g, lang)
    hit = {"en": "take the hit", "zh-TW": "承受侵襲"}[lang]
    assert hit in button.lower()
    assert hit in i18n.t("classplay.banner.own_counter", lang) and hit in i18n.t("prompt.counter", lang, player="P",
                                                                                   typhoon="T1")


def test_no_toggle_of_the_projector_or_a_phone_says_null_when_pointed_at(store: RoomStore) -> None:
    """A ToggleButton without a tooltip is drawn with title="null" (the Teacher button and the log's toggle were)."""
    projector, phones = open_class(store)
    stack: list[Any] = [projector.root, phones["Taiwan"].root]
    nameless = []
    while stack:
        w = stack.pop()
        if isinstance(w, widgets.ToggleButton) and w.tooltip is None:
            nameless.append(w.description or w.icon)
        stack.extend(getattr(w, "children", ()))
    assert not nameless, nameless


def test_the_confirmation_and_a_refusal_follow_a_switch_of_language(store: RoomStore) -> None:
    """A rehearsal switched a phone to 中文 just after deciding: "You chose: Move T1 …" stayed in English. What the
    message line says is said again in the language the team switches to."""
    _projector, phones = open_class(store, "en")
    mei = phones["Taiwan"]
    assert mei.decide(mei.decisions.cell_action((8, 8)))
    mei._switch_lang("zh-TW")
    placed = i18n.t("action.place", "zh-TW", cell=i18n.cell_label((8, 8), "zh-TW"))
    assert i18n.t("classplay.seat.chose", "zh-TW", action=placed) in _text(mei.message.value)
    ken = phones["Japan"]
    ken._board_click(*ken.board.geometry.cell_centre(8, 9))  # not Japan's turn: a tap on the map is explained
    before = _text(ken.message.value)
    assert before, "a tap out of turn says whose turn it is"
    ken._switch_lang("zh-TW")
    after = _text(ken.message.value)
    assert after != before and any("\u4e00" <= ch <= "\u9fff" for ch in after), (before, after)
