"""Class play's accessibility helpers, without a browser (tests/browser/test_a11y_classplay.py checks them in one)."""

from __future__ import annotations

from html import escape

import ipywidgets as widgets
import pytest

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.ui.classplay.access import PageAccess, group_names
from typhoon_edu.ui.classplay.joincard import join_card_html
from typhoon_edu.ui.classplay.projector import ProjectorApp
from typhoon_edu.ui.classplay.seat import SeatApp
from typhoon_edu.ui.classplay.setup import SetupChoices
from typhoon_edu.ui.classplay.viewdata import SeatChoice


def toggle_groups(widget: widgets.Widget) -> list[widgets.ToggleButtons]:
    found = [widget] if isinstance(widget, widgets.ToggleButtons) else []
    for child in getattr(widget, "children", ()):
        found += toggle_groups(child)
    return found


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_toggle_group_of_class_play_has_a_name(lang: str) -> None:
    store = RoomStore("sqlite://")
    app = ProjectorApp(lang=lang, store=store, fullscreen=False, teacher=local_teacher(store))
    app.start(SetupChoices([SeatChoice("person", "Mei"), SeatChoice("easy"), SeatChoice("easy")], seed=3))
    names = group_names(lang)
    groups = toggle_groups(app.setup.box) + toggle_groups(app.setup_header) + toggle_groups(app.game.box)
    assert len(groups) >= 9
    for group in groups:
        named = [c for c in group._dom_classes if c in names]
        assert len(named) == 1, (group.options, group._dom_classes)
        assert names[named[0]].strip()
    assert app.access.names == names
    other = "en" if lang == "zh-TW" else "zh-TW"
    app.set_lang(other)
    assert app.access.names == group_names(other)


def test_the_pages_carry_the_helper_and_the_drawer_follows_its_toggle() -> None:
    store = RoomStore("sqlite://")
    app = ProjectorApp(lang="en", store=store, fullscreen=False, teacher=local_teacher(store))
    assert app.access in app.root.children
    room = app.start(SetupChoices([SeatChoice("person", "Mei"), SeatChoice("easy"), SeatChoice("easy")], seed=3))
    # the drawer comes right after the header holding "Teacher" (Tab goes from the toggle into it), once
    assert list(app.game.box.children[:2]) == [app.game.header, app.drawer.box]
    assert sum(app.drawer.box in w.children for w in (app.root, app.game.box)) == 1
    phone = SeatApp(lang="zh-TW", store=store, token=room.issued_tokens[room.seats[0].region])
    assert phone.access in phone.root.children
    assert phone.lang == "en"  # the room's language: the helper's names follow it
    assert phone.access.names["typhoon-lang"] == "Language"
    phone.lang_toggle.value = "zh-TW"
    assert phone.access.names["typhoon-lang"] == i18n.t("classplay.access.language", "zh-TW")


def test_the_page_may_set_none_of_the_helpers_traits() -> None:
    a = PageAccess(lang="en")
    a.set_state({"names": {"typhoon-lang": "x"}})
    assert a.names == group_names("en")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_each_join_link_names_its_team(lang: str) -> None:
    card = join_card_html(region="Taiwan", label="Mei · Taiwan", url="http://h/?seat=a", short_url="h/join",
                          code="K7Q2M", lang=lang, joined=False)
    named = i18n.t("classplay.join.open_named", lang, team="Mei · Taiwan")
    assert f'aria-label="{escape(named)}"' in card
    assert named.startswith(i18n.t("classplay.join.open", lang))  # the visible words begin the name (WCAG 2.5.3)
