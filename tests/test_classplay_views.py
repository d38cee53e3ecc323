"""Class-play view pieces that need no room store: tables, texts, pacing, scene labels, widgets."""

from __future__ import annotations

import asyncio
import itertools

import ipywidgets as widgets
import pytest

from typhoon_edu import Game, i18n
from typhoon_edu.ai.bots import GreedyBot
from typhoon_edu.engine import events as ev
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.classplay.bigdie import BigDie, die_svg
from typhoon_edu.ui.classplay.decisions import DecisionPanel
from typhoon_edu.ui.classplay.hppanel import hp_panel_html
from typhoon_edu.ui.classplay.joincard import join_card_html
from typhoon_edu.ui.classplay.model import SeatInfo, action_groups, banner, hand_cards, private_decision
from typhoon_edu.ui.classplay.pacer import Pacer, Stage
from typhoon_edu.ui.classplay.table import Table
from typhoon_edu.ui.classplay.viewdata import d
from typhoon_edu.ui.guard import Problems
from typhoon_edu.ui.scene import dynamic_scene
from typhoon_edu.ui.state import BoardState, TyphoonView

RULES = load_rules()


def played(seed: int, steps: int) -> Game:
    g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=seed)
    bot = GreedyBot(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(bot.choose(g))
    return g


def people(g: Game) -> dict[str, SeatInfo]:
    return {p: SeatInfo(p, "person", f"n{i}") for i, p in enumerate(g.players)}


def test_public_table_never_holds_a_hand_or_hand_decisions():
    for steps in range(0, 160, 7):
        g = played(5, steps)
        t = Table.public(g, decider=g.current_player)
        assert t.hand_cards == ()
        if g.phase in ("attack", "counter", "discard"):
            assert t.legal == (), (steps, g.phase)  # a list of playable cards would tell the class the hand
        with pytest.raises(PermissionError):
            t.hand(g.players[0])


def test_seat_table_text_mentions_only_its_own_cards():
    g = played(9, 40)
    while g.phase not in ("attack", "counter", "discard") or g.current_player not in g.players:
        g.apply(GreedyBot(1).choose(g))
    who = g.current_player
    seats = people(g)
    mine = Table.for_seat(g, who)
    names = {c.name for c in hand_cards(mine, "en")}
    assert names == {RULES.cards[k].name_en for k in g.hand(who)}
    assert private_decision(mine, seats)
    for other in g.players:
        if other != who:
            theirs = Table.for_seat(g, other)
            assert theirs.legal == ()
            assert {c.key for c in hand_cards(theirs, "en")} == set(g.hand(other))


def test_banner_on_devices_and_curtain():
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    seats = {"Taiwan": SeatInfo("Taiwan", "person", "王小明"), "Japan": SeatInfo("Japan", "greedy"),
             "Korea": SeatInfo("Korea", "person")}
    b = banner(Table.public(g), seats, "zh-TW", devices=True)
    assert "王小明" in b.headline and "自己的裝置" in b.detail and b.person
    assert [grp.key for grp in action_groups(Table.for_seat(g, "Taiwan"), seats, "en")] == ["place"]


def test_pacer_never_lets_the_log_run_ahead_of_the_animation():
    """With an event loop, each sentence appears only after its event is on screen."""
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=4)
    for a in ("place 8,8", "place 11,7", "place 14,9"):
        g.apply(a)
    before = len(g.events)
    g.apply("aim T1")
    events = g.events[before:]
    assert any(isinstance(e, ev.DirectionRolled) for e in events)

    from typhoon_edu.ui.board import BoardView
    from typhoon_edu.ui.compass_ring import CompassRing

    stage = Stage(lang="en", board=BoardView(cell=16, controls=False), ring=CompassRing(size=120), die=BigDie())
    rolled = next(e for e in events if isinstance(e, ev.DirectionRolled))
    sentence = i18n.narrate(rolled, "en", RULES)
    seen: list[tuple[bool, bool, str]] = []  # (its sentence in the log, ring still turning, "now" line)

    async def play() -> None:
        pacer = Pacer(stage, speed=lambda: 4.0)
        pacer.push(events)
        while not pacer.idle:
            ring = stage.ring.player
            seen.append((sentence in stage.log_texts(), ring is not None and not ring.done,
                         stage.now.value if stage.now else ""))
            await asyncio.sleep(0.01)

    stage.now = __import__("ipywidgets").HTML()
    asyncio.run(play())
    narrated = [e for e in events if i18n.in_log(e)]
    assert len(stage.lines) == len(narrated)
    assert any(turning for _, turning, _ in seen), "the ring never animated: the test saw nothing"
    assert not any(logged and turning for logged, turning, _ in seen), "a sentence came before its animation ended"
    assert not any(turning and "moving" in now for _, turning, now in seen)


def test_crowded_board_labels_do_not_overlap_and_zone_labels_stay_on_top():
    storms = tuple(TyphoonView(i + 1, cell, 1 + i % 5, "NNW") for i, cell in
                   enumerate([(11, 7), (12, 7), (11, 8), (12, 8), (14, 9), (15, 9), (8, 8), (9, 9)]))
    shapes = dynamic_scene(RULES, BoardState(typhoons=storms), "en", 48)
    labels = [s for s in shapes if s.role == "level-label"]
    boxes = []
    for s in labels:
        width = len(s.text) * s.size * 0.58
        top = s.y if s.baseline == "top" else s.y - s.size * 1.15
        boxes.append((s.x - width / 2, top, s.x + width / 2, top + s.size * 1.15))
    for a, b in itertools.combinations(boxes, 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
    badges = [s for s in shapes if s.role == "level-badge" and getattr(s, "text", None)]
    assert sorted(int(s.text) for s in badges) == sorted(t.level for t in storms)
    tops = [s for s in shapes if s.role == "zone-label-top"]
    assert len(tops) == 3
    # each zone's name is drawn over every storm, but for a name that would cover a storm's arrow or eye (a storm
    # heading north out of a zone's top row): that one goes under the storms, so the storm stays whole
    last_eye = max(shapes.index(s) for s in shapes if s.role == "eye")
    storm_boxes = [_shape_box(s) for s in shapes if s.role in ("arrow", "eye")]
    for top in tops:
        covers = any(_overlap(_text_box(top), b) for b in storm_boxes)
        assert (shapes.index(top) < min(shapes.index(s) for s in shapes if s.role == "eye")) if covers \
            else shapes.index(top) > last_eye, top.text
    assert any(shapes.index(t) > last_eye for t in tops)


def _text_box(s):
    """A drawn text's box, estimated on its own here (CJK glyphs one em wide, Latin 0.58 em)."""
    width = sum(s.size if ord(ch) > 0x2E80 else s.size * 0.58 for ch in s.text)
    top = {"top": s.y, "bottom": s.y - s.size * 1.15}.get(s.baseline, s.y - s.size * 0.575)
    return (s.x - width / 2, top, s.x + width / 2, top + s.size * 1.15)


def _shape_box(s):
    from typhoon_edu.ui.scene import _shape_box as box

    return box(s)


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_storm_in_a_zone_keeps_its_badge_and_level_name_off_the_zone_name(lang):
    """A storm on any cell of a generation zone (where every storm starts): neither its level badge nor its level
    name lies under the zone's name, which is drawn over everything."""
    for zone in RULES.map.zones:
        for cell in zone.cells:
            for level in (1, 3, 5):
                shapes = dynamic_scene(RULES, BoardState(typhoons=(TyphoonView(1, cell, level, "N"),)), lang, 48)
                names = [_text_box(s) for s in shapes if s.role == "zone-label-top"]
                badge = next(s for s in shapes if s.role == "level-badge" and hasattr(s, "r"))
                box = (badge.cx - badge.r, badge.cy - badge.r, badge.cx + badge.r, badge.cy + badge.r)
                assert not any(_overlap(box, n) for n in names), (zone.index, cell, level, "badge")
                for label in (s for s in shapes if s.role == "level-label"):
                    assert not any(_overlap(_text_box(label), n) for n in names), (zone.index, cell, level, label.text)


def test_zone_labels_are_drawn_over_the_frames_of_the_cells_to_choose():
    zone_cells = tuple(RULES.map.zones[0].cells)
    shapes = dynamic_scene(RULES, BoardState(highlights=zone_cells), "en", 48)
    frames = [i for i, s in enumerate(shapes) if s.role == "highlight"]
    tops = [i for i, s in enumerate(shapes) if s.role == "zone-label-top"]
    assert len(frames) == 2 * len(zone_cells) and len(tops) == 3 and min(tops) > max(frames)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_cell_roll_that_picks_no_cell_says_roll_again_on_the_projector(lang):
    """Advanced setup, four free cells: a 5 is rolled again; the die and the 'now' line say so."""
    g = Game.new(["Japan", "Korea", "Philippines"], seed=3, dice="manual", variant="advanced")
    g.apply(1)  # the first zone: four free cells
    events = g.apply(5)
    assert [(e.face, e.purpose) for e in events if isinstance(e, ev.DieRolled)] == [(5, "cell_again")]
    stage = Stage(lang=lang, die=BigDie(lang=lang))
    stage.now = __import__("ipywidgets").HTML()

    async def play() -> None:
        pacer = Pacer(stage, speed=lambda: 0.0)
        pacer.push(events)
        while not pacer.idle:
            await asyncio.sleep(0.01)

    asyncio.run(play())
    # the 'now' line is set just before the die rolls (a missing catalog key would stop it there)
    assert stage.die.caption == i18n.t("classplay.die.cell_again", lang, face=5)
    assert ("再擲一次" if lang == "zh-TW" else "Roll again") in stage.die.caption


def test_big_die_shows_every_face_and_refuses_others():
    die = BigDie(lang="zh-TW")
    for face in range(1, 7):
        assert die.roll(face, "move", 3) > 0
        assert f'data-face="{face}"' in die.value and die_svg(face).count("<circle") == face
    assert die.caption == "T3 移動：擲出 6 點。"
    with pytest.raises(ValueError, match="1 to 6"):
        die.roll(7)


def test_decision_panel_buttons_act_and_failures_reach_the_person():
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    for a in ("place 8,8", "place 11,7", "place 14,9"):
        g.apply(a)
    problems = Problems(lambda: "en")
    chosen = []
    panel = DecisionPanel(problems, on_action=chosen.append)
    panel.render(Table.for_seat(g, "Taiwan"), people(g), "en")
    buttons = panel.buttons()
    assert [b.description for b in buttons] == ["T1", "T2", "T3"]
    buttons[1].click()
    assert [a.notation for a in chosen] == ["aim T2"]
    panel.on_action = lambda a: 1 / 0
    buttons[0].click()
    assert "division by zero" in problems.message


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_every_cell_the_map_offers_is_also_a_button_laid_out_as_on_the_map(lang):
    """A phone's map cell is about 20 px wide: each cell a tap may choose is also a button, by zone."""
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    chosen = []
    panel = DecisionPanel(Problems(lambda: lang), on_action=chosen.append)
    panel.render(Table.for_seat(g, "Taiwan"), people(g), lang)
    picks = [b for b in panel.buttons() if "typhoon-cell-pick" in b._dom_classes]
    cells = panel.highlight_cells()
    assert len(cells) == 12 and [b.description for b in picks] == [i18n.cell_label(c, lang) for c in cells]
    assert all(f"typhoon-cell-{x}-{y}" in b._dom_classes for b, (x, y) in zip(picks, cells, strict=True))
    blocks = panel.groups.children[0].children[-1].children
    assert len(blocks) == len(RULES.map.zones)  # one block per generation zone, named as on the map
    for block, zone in zip(blocks, RULES.map.zones, strict=True):
        label, grid = block.children
        assert i18n.t("board.zone_short", lang, n=zone.index + 1) in label.value
        x0, y0 = min(x for x, _ in zone.cells), min(y for _, y in zone.cells)
        width = max(x for x, _ in zone.cells) - x0 + 1
        assert grid.layout.grid_template_columns == f"repeat({width}, auto)"
        # each button sits where its cell lies in the zone (a 2 x 2 zone: two rows of two)
        for x, y in zone.cells:
            assert grid.children[(y - y0) * width + x - x0].description == i18n.cell_label((x, y), lang)
    zone = {cell: z.index for z in RULES.map.zones for cell in z.cells}
    assert all(b.tooltip == f"{i18n.t('board.zone_short', lang, n=zone[c] + 1)} {i18n.cell_label(c, lang)}"
               for b, c in zip(picks, cells, strict=True))  # a screen reader hears the zone too
    picks[5].click()
    assert [a.notation for a in chosen] == [f"place {cells[5][0]},{cells[5][1]}"]
    assert d("game.or_cell", lang) in str([w.value for w in panel.groups.children[0].children if hasattr(w, "value")])
    g.apply(chosen[0])  # that zone has its storm: its block goes, the others stay
    panel.render(Table.for_seat(g, "Taiwan"), people(g), lang)
    names = [b.children[0].value for b in panel.groups.children[0].children[-1].children]
    gone = i18n.t("board.zone_short", lang, n=zone[cells[5]] + 1)
    assert len(names) == 2 and not any(gone in n for n in names)


def test_cell_buttons_follow_a_zone_of_any_shape(tmp_path):
    """An L-shaped zone leaves a gap where its bounding box has no cell; scattered cells keep their places."""
    import shutil

    from typhoon_edu.engine.rules import DATA_DIR

    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    text = (data / "map.toml").read_text(encoding="utf-8")
    zones = "".join(f'[[zones]]\nmark = "{i}"\ncells = [{cells}]\nname_en = "z{i}"\nname_zh = "z{i}"\n\n'
                    for i, cells in ((1, "[8, 8], [8, 9], [9, 9]"), (2, "[11, 7], [13, 9]"), (3, "[14, 9]")))
    (data / "map.toml").write_text(text[: text.index("\n[[zones]]") + 1] + zones, encoding="utf-8")
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=2, rules=load_rules(data))
    panel = DecisionPanel(Problems(lambda: "en"), on_action=lambda a: None)
    panel.render(Table.for_seat(g, "Taiwan"), people(g), "en")
    grids = [b.children[1] for b in panel.groups.children[0].children[-1].children]
    labels = [[w.description if isinstance(w, widgets.Button) else None for w in grid.children] for grid in grids]
    assert labels == [["(8, 8)", None, "(8, 9)", "(9, 9)"],  # the L: (9, 8) is no cell of the zone
                      ["(11, 7)", None, None] + [None] * 3 + [None, None, "(13, 9)"],  # a 3 x 3 box, two corners
                      ["(14, 9)"]]
    assert [g.layout.grid_template_columns for g in grids] == ["repeat(2, auto)", "repeat(3, auto)", "repeat(1, auto)"]


def test_a_new_decision_closes_the_last_ones_widgets():
    """Each decision's boxes, texts and gaps are closed when the next is drawn: none is left in the kernel."""
    from ipywidgets.widgets.widget import _instances

    g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    panel = DecisionPanel(Problems(lambda: "en"), on_action=lambda a: None)
    panel.render(Table.for_seat(g, "Taiwan"), people(g), "en")

    def tree(w):
        return [w, *[x for c in getattr(w, "children", ()) for x in tree(c)]]

    first = [w for row in panel.groups.children for w in tree(row)]
    assert len(first) > 20 and all(w.comm is not None for w in first)  # 12 cell buttons, their gaps, boxes, texts
    live = len(_instances)
    for a in ("place 8,8", "place 11,7"):
        g.apply(a)
        panel.render(Table.for_seat(g, "Taiwan"), people(g), "en")
    assert all(w.comm is None for w in first)
    assert len(_instances) < live  # fewer cells to choose: fewer widgets, nothing piles up
    live = len(_instances)
    for n in range(5):  # the same decision drawn again and again (a new note each time): the same count
        panel.render(Table.for_seat(g, "Taiwan"), people(g), "en", note=f"note {n}")
        assert len(_instances) == live + 3  # the note's text, its layout and its style


def test_a_cell_card_offers_its_cell_buttons_only_once_it_is_picked():
    g = played(1, 0)
    while not g.is_over and not any(a.kind == "play" and a.cell is not None for a in g.legal_actions()):
        g.apply(GreedyBot(3).choose(g))
    who = g.current_player
    card = next(a.card for a in g.legal_actions() if a.kind == "play" and a.cell is not None)
    chosen = []
    panel = DecisionPanel(Problems(lambda: "en"), on_action=chosen.append)
    panel.render(Table.for_seat(g, who), people(g), "en")
    assert not [b for b in panel.buttons() if "typhoon-cell-pick" in b._dom_classes]
    next(b for b in panel.buttons() if f"typhoon-pick-card-{card}" in b._dom_classes).click()
    panel.render(Table.for_seat(g, who), people(g), "en")
    picks = [b for b in panel.buttons() if "typhoon-cell-pick" in b._dom_classes]
    want = [a for a in g.legal_actions() if a.kind == "play" and a.card == card]
    assert [b.description for b in picks] == [i18n.cell_label(a.cell, "en") for a in want]
    picks[-1].click()
    assert chosen == [want[-1]]


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_a_hand_hidden_on_the_projector_shows_its_size_and_says_it_is_hidden_not_empty(lang):
    """One computer: placing a storm on the projector shows no card, yet the hand is not empty."""
    from dataclasses import replace

    g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
    full = Table.for_seat(g, "Taiwan")
    assert len(full.hand_cards) == 3
    panel = DecisionPanel(Problems(lambda: lang), on_action=lambda a: None)
    panel.render(replace(full, hand_cards=(), hand_hidden=True), people(g), lang)
    html = panel.hand_html.value
    assert i18n.t("classplay.hand.title", lang, count=3, limit=RULES.regions["Taiwan"].size) in html
    assert i18n.t("classplay.hand.hidden", lang) in html and i18n.t("classplay.hand.empty", lang) not in html
    assert not any(RULES.cards[k].name_en in html or RULES.cards[k].name_zh in html for k in full.hand_cards)


def test_hp_panel_and_join_card_escape_names():
    seats = {"Taiwan": SeatInfo("Taiwan", "person", "<b>x</b>")}
    assert "<b>x</b>" not in hp_panel_html(RULES, {"Taiwan": 3}, seats, "en")
    card = join_card_html(region="Taiwan", label="<i>", url="http://127.0.0.1:1/?seat=a'b", short_url="h",
                          code="K7Q2M", lang="en", joined=True)
    assert "<i>" not in card and "a'b" not in card and "<svg" not in card  # joined: no QR code


def test_pacer_is_idle_when_it_calls_on_idle():
    """A view redraws from on_idle; it must then see the pacer idle, or it would show "busy" for good."""
    seen = []
    stage = Stage(lang="en")

    async def play() -> None:
        pacer = Pacer(stage, speed=lambda: 50.0, on_idle=lambda: seen.append(pacer.idle))
        pacer.push([ev.TyphoonPlaced(typhoon=1, cell=(8, 8), level=1, by="Taiwan")])
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)

    asyncio.run(play())
    assert seen == [True]


def test_a_long_team_name_is_kept_whole_for_the_screens_to_shorten() -> None:
    """The setup keeps a team's whole name (up to the room's limit); the pages shorten it with "…" and
    show it whole on hover. Cutting it at setup left "Ana & Bo with a very lon" with no "…" anywhere."""
    from typhoon_edu.ui.classplay.session import MAX_NAME_CHARS
    from typhoon_edu.ui.classplay.viewdata import SeatChoice, SetupChoices

    long = "Ana & Bo with a very long team name indeed"
    seats, _ = SetupChoices([SeatChoice("person", long), SeatChoice("easy"), SeatChoice("person", "x" * 99)],
                            seed=1).resolve()
    assert seats[0].name == long
    assert seats[2].name == "x" * MAX_NAME_CHARS
