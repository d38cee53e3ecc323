"""Whose turn it is, said so that no two lines seem to disagree, in a turn in which other teams decide.

A rehearsal read the projector's header ("South China's turn") and its banner ("Japan: play up to 2 function cards
…") as disagreeing: in the attack phase every team in turn may play attack cards during one team's turn. The header
names both then. A phone that tapped the map out of turn just as another team decided was told it was the turn of
the team that had just decided, and the notice stayed under the next decision's banner: it is worded from the room
as it is when shown, and goes when the room moves on.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from classplay_helpers import open_class, page_text

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.engine.game import CHANCE
from typhoon_edu.ui.classplay.model import seat_label
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.tables import seat_infos

LANGS = ("en", "zh-TW")



def play_one(phone: SeatApp) -> None:
    """The phone's team decides something: a pass when it may, else a lit cell, else its first choice."""
    table = phone.decisions.table
    assert table is not None
    passes = [a for a in table.legal if a.kind == "pass"]
    cells = phone.decisions.highlight_cells()
    assert phone.decide(passes[0] if passes else phone.decisions.cell_action(cells[0]) if cells else table.legal[0])


def walk(projector: ProjectorApp, phones: dict[str, SeatApp], until: Callable[[], bool], steps: int = 600) -> None:
    """Play the game on (bots on the projector, people on their phones) until ``until()``, every page in step."""
    room = projector.room
    for _ in range(steps):
        projector.advance()
        for p in phones.values():
            p.sync()
        if until():
            return
        who = room.game.current_player
        if who in phones:
            play_one(phones[who])
    pytest.skip("the walk never came to the moment looked for")


def header(projector: ProjectorApp) -> str:
    return page_text(projector.game.status.value)


@pytest.mark.parametrize("lang", LANGS)
def test_the_header_names_the_team_deciding_its_attack_cards_in_another_teams_turn(store: RoomStore,
                                                                                   lang: str) -> None:
    projector, phones = open_class(store, lang)
    room = projector.room

    def others_attack() -> bool:
        game = room.game
        return game.phase == "attack" and game.current_player not in (None, CHANCE, game.active)

    walk(projector, phones, others_attack)
    game = room.game
    seats = seat_infos(room)
    active, decider = seat_label(seats, game.active, lang), seat_label(seats, game.current_player, lang)
    line = header(projector)
    attack = i18n.t("coach.phase.attack", lang).removeprefix("the ")  # the phase's name: "attack phase" / 攻擊階段
    assert active in line and decider in line, line
    assert attack in line, line
    assert line.index(active) < line.index(attack) < line.index(decider), line
    assert decider in page_text(projector.game.banner.value)  # the banner names the same team

    def own_attack() -> bool:
        return room.game.phase == "attack" and room.game.current_player == room.game.active

    walk(projector, phones, own_attack)
    plain = header(projector)  # the turn's own team deciding: the line as before, no second name
    assert attack not in plain, plain
    assert seat_label(seats, room.game.active, lang) in plain, plain


@pytest.mark.parametrize("lang", LANGS)
def test_a_tap_out_of_turn_names_the_team_deciding_when_it_is_shown(store: RoomStore, lang: str) -> None:
    """Ken's phone still shows Mei's decision when Mei decides and Ken taps the map: the notice is about the room
    as it is now (read before it is worded), never the turn that just ended, and it goes with that state."""
    projector, phones = open_class(store, lang)
    room = projector.room
    mei, ken = phones["Taiwan"], phones["Japan"]
    # Mei decides, Ken watches; look for a decision of Mei's after which someone else decides
    for _ in range(40):
        walk(projector, phones, lambda: room.game.current_player == "Taiwan")
        before = ken.decisions.table
        assert before is not None and before.current_player == "Taiwan"
        play_one(mei)  # Ken's phone has not read the store since
        if mei.decisions.table.current_player != "Taiwan":
            break
    else:
        pytest.skip("Mei never handed the decision on")
    now = mei.decisions.table.current_player
    seats = seat_infos(room)
    mei_label = seat_label(seats, "Taiwan", lang)
    active = room.game.active

    def notice(who: str) -> str:
        """The turn's own team: 'It is X's turn now'; another team deciding in that turn: 'X is deciding now'."""
        key = "classplay.seat.not_your_turn" if who == active else "classplay.seat.others_deciding"
        return i18n.t(key, lang, player=seat_label(seats, who, lang))

    ken._board_click(*ken.board.geometry.cell_centre(0, 0))  # a tap on the map as the page still shows Mei deciding
    ken.sync()  # the page's next read of the store (0.2 s later in class)
    said = page_text(ken.message.value)
    assert mei_label not in said, f"the notice names the team that has just decided: {said!r}"
    if now == "Japan":
        assert said.strip() in ("", i18n.t("classplay.seat.use_buttons", lang)), said
    elif now not in (None, CHANCE):
        assert said.strip() in ("", notice(now)), said
    ken._board_click(*ken.board.geometry.cell_centre(0, 0))  # a tap now: the notice names who decides now
    said = page_text(ken.message.value).strip()
    if now == "Japan":
        assert said == i18n.t("classplay.seat.use_buttons", lang) or not ken.pacer.idle, said
    elif now not in (None, CHANCE) and ken.pacer.idle:
        assert said == notice(now), said
    # the next decision clears it
    walk(projector, phones, lambda: room.game.current_player != now)
    if room.game.current_player != now:
        assert seat_label(seats, now, lang) not in page_text(ken.message.value), page_text(ken.message.value)


@pytest.mark.parametrize("lang", LANGS)
def test_a_computer_players_turn_keeps_the_two_team_header_short(lang: str) -> None:
    """'Korea (computer, medium)'s turn · counter window: Mei (Taiwan) deciding' wrapped to two lines at 1920x1080 and
    the map jumped each time: a computer player is named by its region alone there (the side column says its level)."""
    from typhoon_edu.engine.rules import load_rules
    from typhoon_edu.ui.classplay.model import SeatInfo, status_line
    from typhoon_edu.ui.classplay.table import Table

    seats = {"Korea": SeatInfo("Korea", "greedy"), "Taiwan": SeatInfo("Taiwan", name="Mei")}
    table = Table(load_rules(), ("Taiwan", "Korea"), "standard", 2, "Korea", "counter", "Taiwan", "N",
                  {}, {}, {}, 40, (), (), ())
    line = status_line(table, seats, lang)
    assert seat_label(seats, "Korea", lang) not in line and i18n.t("classplay.status.counter", lang, round=2, rounds=3,
                                                                   player=i18n.region_name(load_rules(), "Korea", lang),
                                                                   decider=seat_label(seats, "Taiwan", lang)) == line


@pytest.mark.parametrize("lang", LANGS)
def test_a_tap_while_another_team_decides_in_a_turn_not_its_own_says_it_decides(store: RoomStore, lang: str) -> None:
    """Mei plays her attack cards in another team's turn and Ken taps the map: 'Mei (Taiwan) is deciding now', not
    'It is Mei (Taiwan)'s turn now', which the projector's header ('Korea's turn · attack phase: Mei deciding')
    seemed to contradict."""
    projector, phones = open_class(store, lang)
    room = projector.room
    walk(projector, phones, lambda: room.game.phase == "attack" and room.game.current_player == "Taiwan"
         and room.game.active != "Taiwan")
    ken = phones["Japan"]
    ken.sync()
    ken._board_click(*ken.board.geometry.cell_centre(0, 0))
    said = page_text(ken.message.value).strip()
    mei = seat_label(seat_infos(room), "Taiwan", lang)
    assert said == i18n.t("classplay.seat.others_deciding", lang, player=mei), said
