"""A team's phone that can no longer act (its seat given to the computer, the device revoked, its link replaced, the
room deleted) shows why and the way back, not a frozen game: the fourth walk found the map and the HP panel left under
"This device's link no longer opens a seat", naming 王小明（日本） for a seat the computer now played. An ended game and a
paused one are no lost screens: their map stays.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets
import pytest
from classplay_helpers import page_text

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice

LANGS = ("en", "zh-TW")
PEOPLE = [SeatChoice("person", "Mei", "Taiwan"), SeatChoice("person", "王小明", "Japan"), SeatChoice("medium", "", "Korea")]


def _open_class(store: RoomStore, lang: str) -> tuple[ProjectorApp, dict[str, SeatApp]]:
    projector = ProjectorApp(lang=lang, store=store, fullscreen=False, public_url="http://127.0.0.1:8866/")
    room = projector.start(SetupChoices(PEOPLE, regions="chosen", seed=11, speed=0, devices=True))
    projector.show_board()
    phones = {r: SeatApp(lang=lang, store=store, token=t) for r, t in room.issued_tokens.items()}
    for phone in phones.values():
        phone.sync()
    return projector, phones


def displayed(root: widgets.Widget, target: widgets.Widget) -> bool:
    """Whether ``target`` is on the page under ``root``: in the widget tree, and neither it nor a box above it hidden."""
    if root is target:
        return root.layout.display != "none"
    if getattr(root, "layout", None) is not None and root.layout.display == "none":
        return False
    return any(displayed(child, target) for child in getattr(root, "children", ()) if isinstance(child, widgets.Widget))


def shown_text(phone: SeatApp) -> str:
    """The words of every HTML widget the phone shows under its header."""
    out: list[str] = []

    def walk(w: widgets.Widget) -> None:
        if getattr(w, "layout", None) is not None and w.layout.display == "none":
            return
        if isinstance(w, widgets.HTML):
            out.append(page_text(w.value))
        for child in getattr(w, "children", ()):
            if isinstance(child, widgets.Widget):
                walk(child)

    walk(phone.body)
    return " ".join(out)


def _bot(projector: ProjectorApp) -> None:
    projector.drawer.set_kind("Japan", "medium")


def _revoke(projector: ProjectorApp) -> None:
    projector.drawer.revoke("Japan")


def _new_link(projector: ProjectorApp) -> None:
    projector.drawer.new_link("Japan")


def _delete(projector: ProjectorApp) -> None:
    projector.room.delete()


LOSSES: dict[str, Callable[[ProjectorApp], None]] = {
    "seat_to_the_computer": _bot, "revoked": _revoke, "link_replaced": _new_link, "room_deleted": _delete}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("how", list(LOSSES))
def test_a_lost_phone_shows_why_and_the_way_back_not_the_frozen_game(store: RoomStore, lang: str, how: str) -> None:
    projector, phones = _open_class(store, lang)
    ken = phones["Japan"]
    assert displayed(ken.root, ken.board) and displayed(ken.root, ken.hp), "the game's map and HP before"
    assert "王小明" in page_text(ken.hp.value)  # 王小明（日本）, the seat's person
    LOSSES[how](projector)
    ken.sync()
    assert ken.screen == "lost"
    for name in ("board", "hp", "log", "instruments", "countdown", "coach"):
        assert not displayed(ken.root, getattr(ken, name)), f"{how}: the lost page still shows its {name}"
    assert displayed(ken.root, ken.banner) and displayed(ken.root, ken.message), "why, and the way back"
    text = shown_text(ken)
    assert "王小明" not in text, f"{how}: a stale name under the banner: {text}"
    assert "typhoon-rejoin" in ken.message.value
    other = "en" if lang == "zh-TW" else "zh-TW"
    ken.set_lang(other)  # switched afterwards: still the lost page, in the new language
    assert not displayed(ken.root, ken.board) and not displayed(ken.root, ken.hp)
    # the header still names the seat this device had (its person, not the computer now there), in that language
    head = page_text(ken.head.value)
    assert "王小明" in head and i18n.region_name(ken.rules, "Japan", other) in head, head
    # the other team's phone plays on (a deleted room has no game to show: it is lost too)
    mei = phones["Taiwan"]
    mei.sync()
    assert mei.screen == ("lost" if how == "room_deleted" else "seat")


@pytest.mark.parametrize("lang", LANGS)
def test_a_deleted_rooms_phone_says_so_and_offers_the_join_page_without_the_dead_code(store: RoomStore,
                                                                                     lang: str) -> None:
    """A phone whose room was deleted stopped its update loop with a problem report; it now says the room is gone,
    and its way back is the join page (the old code would only say "There is no game with this room code")."""
    projector, phones = _open_class(store, lang)
    code = projector.room.code
    projector.room.delete()
    ken = phones["Japan"]
    ken.sync()
    assert ken.screen == "lost"
    assert i18n.t("classroom.error.not_found", lang) in page_text(ken.banner.value)
    assert "href='join'" in ken.message.value and code not in ken.message.value
    assert ken.problems.widget.layout.display == "none", "a problem report instead of the lost page"


@pytest.mark.parametrize("lang", LANGS)
def test_a_paused_or_ended_game_keeps_its_map_on_the_phone(store: RoomStore, lang: str) -> None:
    """Not lost screens: a paused phone keeps the map and HP; an ended game keeps its map under the ranking."""
    projector, phones = _open_class(store, lang)
    ken = phones["Japan"]
    projector.drawer.toggle_pause()
    ken.sync()
    assert ken.screen == "seat" and displayed(ken.root, ken.board) and displayed(ken.root, ken.hp)
    projector.drawer.toggle_pause()
    projector.drawer.ask_end()
    projector.drawer.end_yes.click()
    ken.sync()
    assert ken.screen == "seat" and displayed(ken.root, ken.board) and displayed(ken.root, ken.ranking)
