"""The banner before a typed die (manual dice: the class rolls its own die and types the face) while the storms of the
last roll still move. The die box is hidden until they stop; the banner said "Roll the class's die and type the number
it shows." over no box, on the projector played on one computer and on the phone of the team whose die it is. It says
the box comes as soon as the storms stop (classplay.banner.die_soon), as a person's turn does since a5fadff.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from classplay_helpers import SEAT_CHOICES, animation_done, page_text

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.engine.actions import Action
from typhoon_edu.engine.game import CHANCE
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import d

LANGS = ("en", "zh-TW")
PEOPLE = SEAT_CHOICES


@pytest.mark.parametrize("lang", LANGS)
def test_one_computer_typed_dice_the_banner_waits_for_the_storms_before_asking_for_the_face(store: RoomStore,
                                                                                           lang: str) -> None:
    """One computer, manual dice: while a die's storms moved and the next die was awaited, the banner said "Roll the
    class's die and type the number it shows." over no die box (hidden until the storms stop). It says the box comes
    as soon as they stop, as a person's turn does (a5fadff); once they stop, the box and the request come back."""
    projector = ProjectorApp(lang=lang, store=store, fullscreen=False)
    room = projector.start(SetupChoices(PEOPLE, regions="chosen", seed=11, speed=4.0, devices=False, dice="manual"))
    ask = d("banner.die_detail", lang)
    soon = i18n.t("classplay.banner.die_soon", lang)
    seen: list[tuple[str, Any]] = []

    async def play() -> None:
        projector.redraw(exact=True)
        for _ in range(80):
            g = room.game
            if g.current_player == CHANCE:
                projector.die_entry.box.value = "3"
                projector.die_entry.button.click()
            elif g.current_player in ("Taiwan", "Japan"):
                if g.phase in ("setup_place", "refill"):
                    assert projector.decide(g.legal_actions()[0])
                else:
                    if not projector.decisions.buttons():
                        projector.curtain.button.click()  # the hand behind the curtain: shown to its team
                    projector.decisions.buttons()[0].click()
            else:
                projector.advance()
            if not projector.pacer.idle and room.game.current_player == CHANCE:
                seen.append((page_text(projector.game.banner.value), projector.die_entry.layout.display))
                await animation_done(projector.pacer)
                banner = page_text(projector.game.banner.value)
                assert ask in banner and soon not in banner and projector.die_entry.layout.display is None, banner
            await animation_done(projector.pacer)
            if len(seen) >= 3:
                return

    asyncio.run(play())
    assert len(seen) >= 3, "no die awaited while storms moved"
    for banner, box in seen:
        assert box == "none", "the die box is offered while the storms move"
        assert ask not in banner, f"asks for the face while the die box is hidden: {banner}"
        assert soon in banner, banner


@pytest.mark.parametrize("lang", LANGS)
def test_the_rolling_teams_phone_waits_for_the_storms_before_asking_for_the_face(store: RoomStore, lang: str) -> None:
    """Phones and manual dice: the team whose die it is may type it on its phone; while the storms of the last die
    still moved, its banner asked to type the number over its hidden box. It says the box comes when they stop."""
    projector = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = projector.start(SetupChoices(PEOPLE, regions="chosen", seed=11, speed=0, devices=True, dice="manual"))
    projector.show_board()
    phones = {r: SeatApp(lang=lang, store=store, token=t, speed=4.0) for r, t in room.issued_tokens.items()}
    ask = d("banner.die_detail", lang)
    soon = i18n.t("classplay.banner.die_soon", lang)
    seen: list[tuple[str, Any]] = []

    async def play() -> None:
        for _ in range(40):
            projector.advance()  # the computer's seat, if it is its turn
            g = room.game
            phone = phones.get(g.active if g.current_player == CHANCE else g.current_player)
            if phone is None:
                continue
            phone.sync()
            await animation_done(phone.pacer)
            assert phone.decide(Action("die", face=3) if g.current_player == CHANCE else phone.decisions.table.legal[0])
            if not phone.pacer.idle and phone.room.seat_view().may_type_die:
                seen.append((page_text(phone.banner.value), phone.die_entry.layout.display))
                await animation_done(phone.pacer)
                banner = page_text(phone.banner.value)
                assert ask in banner and soon not in banner and phone.die_entry.layout.display is None, banner
                if len(seen) >= 2:
                    return
            await animation_done(phone.pacer)

    asyncio.run(play())
    assert len(seen) >= 2, "no die of the phone's awaited while storms moved"
    for banner, box in seen:
        assert box == "none", "the die box is offered while the storms move"
        assert ask not in banner, f"asks for the face while the die box is hidden: {banner}"
        assert soon in banner, banner
