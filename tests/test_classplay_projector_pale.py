"""Japan's near-white colour on the projector and the phones: outlined on bars, cards and swatches."""

from __future__ import annotations

import pytest

from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui import palette
from typhoon_edu.ui.classplay.hppanel import hp_panel_html
from typhoon_edu.ui.classplay.model import SeatInfo
from typhoon_edu.ui.classplay.theme import CSS
from typhoon_edu.ui.colour_vision import contrast_ratio

RULES = load_rules()


@pytest.mark.parametrize("key", sorted(RULES.regions))
def test_every_regions_edge_shows_on_a_white_page(key: str) -> None:
    """A lobby card's border and a swatch's outline: at least 1.5:1 against white (Japan's own #f1f5f9 is 1.1:1)."""
    assert contrast_ratio(palette.region_edge(RULES.regions[key]), "#ffffff") >= 1.5


def test_a_full_pale_hp_bar_is_framed_and_the_others_are_not() -> None:
    seats = {k: SeatInfo(k, "greedy") for k in ("Japan", "Taiwan", "Korea")}
    html = hp_panel_html(RULES, {k: RULES.regions[k].hp for k in seats}, seats, "en")
    rows = {row.split("data-region='")[1].split("'")[0]: row for row in html.split("<div class=")[1:]}
    assert "typhoon-hp-fill-pale" in rows["Japan"]
    assert "typhoon-hp-fill-pale" not in rows["Taiwan"] + rows["Korea"]
    assert ".typhoon-hp-fill.typhoon-hp-fill-pale { box-shadow: inset" in CSS
    assert ".typhoon-seat-swatch::before" in CSS  # the phone's colour square, framed


def test_the_lobby_card_of_a_pale_region_has_a_visible_border(tmp_path) -> None:
    from typhoon_edu.classroom.store import RoomStore, sqlite_url
    from typhoon_edu.classroom.teachers import local_teacher
    from typhoon_edu.ui.classplay.projector import ProjectorApp
    from typhoon_edu.ui.classplay.setup import SetupChoices
    from typhoon_edu.ui.classplay.viewdata import SeatChoice

    store = RoomStore(sqlite_url(tmp_path / "rooms.sqlite3"))
    app = ProjectorApp(lang="en", store=store, fullscreen=False, public_url="http://127.0.0.1:8866/",
                       teacher=local_teacher(store))
    app.start(SetupChoices([SeatChoice("person", "Ana", "Japan"), SeatChoice("person", "Ken", "Taiwan"),
                            SeatChoice("easy", "", "Korea")], regions="chosen", seed=3, speed=0))
    cards = app.join_cards().split('class="typhoon-join-card')
    japan = [c for c in cards if "Japan" in c]
    assert japan and f"border-color:{palette.PALE_EDGE}" in japan[0]
