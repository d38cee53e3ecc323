"""The third class walk's loose ends: what the projector's banner says while the storms move on one computer, where a
phone's page stands when its turn comes, and an ended game's HP said once on a phone."""

from __future__ import annotations

import asyncio

import pytest
from classplay_helpers import SEAT_CHOICES, animation_done, open_class, page_text

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.ui.classplay.model import seat_label
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.tables import seat_infos
from typhoon_edu.ui.classplay.viewdata import d

LANGS = ("en", "zh-TW")
PEOPLE = SEAT_CHOICES


@pytest.mark.parametrize("lang", LANGS)
def test_one_computer_the_banner_says_wait_while_the_storms_move_not_choose(store: RoomStore, lang: str) -> None:
    """One computer, no phones: for the second or so a decision's storms moved, the banner said "Tap or click a
    highlighted green cell on the map." (or "Choose one of the buttons for this step.") while the animation hid the
    lit cells and the buttons. It says whose turn comes when the storms stop, as a phone does (7636a63)."""
    projector = ProjectorApp(lang=lang, store=store, fullscreen=False)
    projector.start(SetupChoices(PEOPLE, regions="chosen", seed=11, speed=4.0, devices=False))
    mei = seat_label(seat_infos(projector.room), "Taiwan", lang)
    soon = i18n.t("classplay.banner.soon", lang, player=mei)
    asked = (d("banner.click_detail", lang), d("banner.person_detail", lang))
    seen: list[tuple[str, bool]] = []

    async def play() -> None:
        projector.redraw(exact=True)
        for cell in ((8, 8), (11, 7), (14, 9)):
            assert any(a in page_text(projector.game.banner.value) for a in asked)
            assert projector.decide(projector.decisions.cell_action(cell))
            assert not projector.pacer.idle, "no animation to look at"
            seen.append((page_text(projector.game.banner.value), bool(projector.game.board.state.highlights)))
            await animation_done(projector.pacer)
        now = page_text(projector.game.banner.value)
        assert d("banner.person_detail", lang) in now and projector.decisions.buttons(), now  # her aim's buttons
        aim = projector.decisions.buttons()[0]
        aim.click()
        assert not projector.pacer.idle
        seen.append((page_text(projector.game.banner.value), bool(projector.decisions.buttons())))
        await animation_done(projector.pacer)

    asyncio.run(play())
    for banner, offered in seen:
        assert not offered, "a cell or a button offered while the storms move"
        assert not any(a in banner for a in asked), f"asks for what the animation hides: {banner}"
        assert soon in banner, banner



def _hp_shown(phone: SeatApp) -> str:
    """What a phone shows of the teams' HP: its ranking, and its HP panel unless that is hidden."""
    panel = phone.hp.value if phone.hp.layout.display != "none" else ""
    return page_text(phone.ranking.value + panel)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("hurt", [False, True], ids=["nobody_hurt", "after_damage"])
def test_an_ended_game_shows_each_teams_hp_once_on_a_phone(store: RoomStore, lang: str, hurt: bool) -> None:
    """After the teacher's End the phone listed every team with its HP ("HP when the game ended", or the ranking), and
    the HP panel under the map said each team's HP again (the walk's mei-results). Each team's HP is shown once."""
    projector, phones = open_class(store, lang, PEOPLE)
    room = projector.room
    if hurt:  # a game with a landfall before the end: a ranking by HP
        while room.is_open and min(room.game.hp.values()) == max(room.game.hp.values()) and room.seq < 400:
            room.act(room.game.legal_actions()[0], expected_seq=room.next_seq, teacher=True)
        assert len(set(room.game.hp.values())) > 1, "no damage to rank by"
    projector.drawer.ask_end()
    projector.drawer.end_yes.click()
    for region, phone in phones.items():
        phone.sync()
        shown = _hp_shown(phone)
        for other in ("Taiwan", "Japan", "Korea"):
            hp = room.game.hp[other]
            name = i18n.region_name(phone.rules, other, lang)
            assert shown.count(name) == 1, f"{region}'s phone names {other} {shown.count(name)} times: {shown}"
            assert str(hp) in shown, shown


@pytest.mark.parametrize("lang", LANGS)
def test_each_new_decision_of_a_phone_asks_its_page_to_show_the_turn_muted_or_not(store: RoomStore, lang: str) -> None:
    """After a tap on the map the phone stayed scrolled down at the map: the next decision's buttons and "Your turn!"
    were above the window (the walk). Each new decision of this device, and only that, tells the page (PageLink.turn,
    whose script brings the banner into view unless the team scrolled a moment ago or reads its hand); a muted device
    too (muting is about the sound)."""
    _projector, phones = open_class(store, lang, PEOPLE)
    mei, ken = phones["Taiwan"], phones["Japan"]
    mei.link.muted = True
    mei.speed = 4.0

    async def play() -> list[tuple[int, bool]]:
        seen = [(mei.link.turn, mei.pacer.idle)]
        for cell in ((8, 8), (11, 7), (14, 9)):  # three storms on the map, then her aim with buttons
            assert mei.decide(mei.decisions.cell_action(cell))
            seen.append((mei.link.turn, mei.pacer.idle))
            await animation_done(mei.pacer)
            seen.append((mei.link.turn, mei.pacer.idle))
        mei.render()  # drawn again, same decision: not a new turn
        seen.append((mei.link.turn, mei.pacer.idle))
        return seen

    seen = asyncio.run(play())
    assert mei.decisions.buttons(), "her aim's buttons"
    assert seen[0][0] == 1, "the first decision, as the page opened"
    assert [t for t, idle in seen if not idle] == [1, 2, 3], f"a turn while the storms still move: {seen}"
    assert seen[-1][0] == 4, seen  # one per decision: three placements and the aim
    assert mei.link.alert == 1, "called after it was muted"  # once, as the page opened, before the mute
    assert ken.link.turn == 0, "another team's decisions are not this device's turn"
