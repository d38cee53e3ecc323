"""The projector's banner while the teacher has paused the game: it says so, large, and returns on resume."""

from __future__ import annotations

from html import escape
from pathlib import Path

import pytest
from test_classplay_screens import _class

from typhoon_edu import i18n


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_paused_projector_banner_says_paused_and_returns_on_resume(tmp_path: Path, lang: str) -> None:
    projector, _phones = _class(tmp_path, lang)
    before = projector.game.banner.value
    headline = before.split("typhoon-banner-head'>")[1].split("</div>")[0]
    paused = escape(i18n.t("classplay.paused", lang))
    assert paused not in before
    projector.drawer.toggle_pause()
    banner = projector.game.banner.value
    head = banner.split("typhoon-banner-head'>")[1].split("</div>")[0]
    assert head == paused, f"the banner's headline while paused: {head!r}"
    assert headline in banner, "what comes when the game resumes is no longer said"
    assert "data-paused='1'" in banner  # the style sheet's paused banner
    projector.drawer.toggle_pause()
    assert projector.game.banner.value.split("typhoon-banner-head'>")[1].split("</div>")[0] == headline


def test_the_die_box_typed_in_takes_the_focus_back_for_the_next_roll() -> None:
    """zh12: after a face typed with Enter, the box was hidden while the storms moved and the focus fell to the page's
    body; the next roll's box took 15 Tabs to reach. Shown again, the box asks the browser for the focus, once."""
    from typhoon_edu.classroom.store import RoomStore
    from typhoon_edu.classroom.teachers import local_teacher
    from typhoon_edu.ui.classplay.projector import ProjectorApp
    from typhoon_edu.ui.classplay.setup import SetupChoices
    from typhoon_edu.ui.classplay.viewdata import SeatChoice

    store = RoomStore("sqlite://")
    app = ProjectorApp(lang="en", store=store, fullscreen=False, teacher=local_teacher(store))
    app.start(SetupChoices([SeatChoice("easy"), SeatChoice("easy"), SeatChoice("easy")], seed=4, speed=0,
                           dice="manual", devices=False))
    app.advance()
    entry = app.die_entry
    focused: list[str] = []
    entry.box.focus = lambda: focused.append("box")  # type: ignore[method-assign]
    assert entry.layout.display is None and app.room.game.current_player == "chance"
    entry.button.click()  # nothing typed: the button with an empty box asks for a face
    entry.box.value = "4"  # typed, then Enter
    app.advance()
    assert entry.layout.display is None, "the next roll is not awaited"
    assert focused == ["box"]
    app.redraw()
    assert focused == ["box"], "the focus is asked for again at every redraw"
    changes: list[object] = []
    entry.layout.observe(lambda c: changes.append(c["new"]), names="display")
    app.redraw()
    app.redraw(exact=True)
    assert changes == [], f"a redraw hid and showed the die box again (it lost the focus): {changes}"
