"""Lesson 03, typhoon intensity: five levels and Taiwan's wind classes, footprints, damage worked on the
map, landfall, growth over warm sea, two storms meeting, and a sandbox.

>>> w = worked_example("moderate_five")
>>> w.hits, w.per_hit, w.bonus, w.total
(5, 4, 0, 20)
>>> w = worked_example("strong_two")
>>> w.hits, w.per_hit, w.bonus, w.total
(2, 5, 1, 11)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ... import i18n
from ...engine.events import Eliminated
from .. import palette
from ..buttons import legible
from ..guard import Problems
from ..quiz import Prediction
from ..scene import COMPASS16, footprint_cells
from ..state import BoardState, TyphoonView
from .common import PLAYERS, LessonBox, fit_map, heading, html_table, keep_units, lt, note, play_moves

if TYPE_CHECKING:
    from ...engine.rules import Rules

Cell = tuple[int, int]
Placement = tuple[Cell, int, str]

#: Wind speed near the centre for each game level. Levels 1–4 are Taiwan's Central Weather
#: Administration (CWA) classes (10-minute mean wind); CWA has no class above "strong typhoon",
#: so level 5 uses the US Joint Typhoon Warning Center's "super typhoon" (1-minute wind ≥ 130 kt).
LEVEL_WIND: dict[int, tuple[str, str, str]] = {
    1: ("≤ 17.1", "< 62", "≤ 7"),
    2: ("17.2–32.6", "62–117", "8–11"),
    3: ("32.7–50.9", "118–183", "12–15"),
    4: ("≥ 51.0", "≥ 184", "≥ 16"),
    5: ("≥ 67", "≥ 241", "—"),
}


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        from ...engine.rules import load_rules

        return load_rules()
    return rules


def level_rows(lang: str = "en", rules: Rules | None = None) -> list[tuple[Any, ...]]:
    """One row per level: level, game name, the matching real class, m/s, km/h, damage per hit, cells covered.

    >>> level_rows("zh-TW")[2][:2], level_rows()[2][5:]
    ((3, '中度颱風'), (4, 5))
    """
    r = _rules(rules)
    rows = []
    for lv in r.levels:
        ms, kmh, _ = LEVEL_WIND[lv.level]
        if lv.level == ONE_MINUTE_LEVEL:  # the column's other winds are CWA's 10-minute means: this cell says it is not
            ms = lt("intensity.wind_1min", lang, value=ms)
        cells = len(footprint_cells(r, (5, 5), lv.level))
        rows.append((lv.level, i18n.level_name(r, lv.level, lang), lt(f"intensity.class_{lv.level}", lang), ms, kmh, lv.damage, cells))
    return rows


#: The level whose wind is JTWC's 1-minute mean (CWA, whose 10-minute means the other levels use, has no class for it).
ONE_MINUTE_LEVEL = 5

#: The levels table's columns as shown: the game's own (damage, cells) right after the name, so that a phone shows
#: them without scrolling; the real classes and winds after them. Indexes into a :func:`level_rows` row.
TABLE_COLUMNS: tuple[tuple[str, int], ...] = (("level", 0), ("name", 1), ("damage", 5), ("cells", 6), ("class", 2),
                                               ("ms", 3), ("kmh", 4))


def levels_table_html(lang: str = "en", rules: Rules | None = None) -> str:
    """The five levels as a table (a phone is told to swipe it sideways for the winds).

    >>> levels_table_html("zh-TW").count("<tr>")
    6
    """
    header = [lt(f"intensity.col_{k}", lang) for k, _ in TABLE_COLUMNS]
    rows = [[row[i] for _, i in TABLE_COLUMNS] for row in level_rows(lang, rules)]
    return html_table(header, rows, hint=lt("intensity.table_hint", lang))


def footprints_svg(lang: str = "en", rules: Rules | None = None, cell: int = 26, levels: Sequence[int] | None = None) -> str:
    """The storm radius (暴風半徑) of each level on a small grid, the eye (颱風眼) marked; ``levels`` draws only
    those (one level: a tile with room for its caption, :func:`footprint_tiles_html`).

    >>> svg = footprints_svg()
    >>> svg.count('data-role="covered"'), footprints_svg(levels=[3]).count('data-role="covered"')
    (21, 5)
    """
    r = _rules(rules)
    shown = [lv for lv in r.levels if levels is None or lv.level in levels]
    n = len(shown)
    box = cell * 5
    gap = cell
    pad = gap / 2 if n == 1 else 0
    w, h = n * box + (n - 1) * gap + 2 * pad, box + 3 * cell
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(w)} {h}" width="{_num(w)}" height="{h}"'
           f' style="max-width:100%;height:auto" font-family="{escape(palette.FONT)}" role="img">',
           f"<title>{escape(lt('intensity.footprints_title', lang))}</title>"]
    for k, lv in enumerate(shown):
        ox = pad + k * (box + gap)
        covered = set(footprint_cells(r, (2, 2), lv.level))
        for y in range(5):
            for x in range(5):
                on = (x, y) in covered
                fill = palette.level_fill(lv.level) if on else palette.SEA
                role = ' data-role="covered"' if on else ""
                out.append(f'<rect x="{ox + x * cell}" y="{y * cell}" width="{cell}" height="{cell}" fill="{fill}"'
                           f' stroke="#64748b" stroke-width="1"{role}/>')
        cx, cy = ox + 2.5 * cell, 2.5 * cell
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.3}" fill="#ffffff" stroke="{palette.INK}" stroke-width="2"/>')
        # the name on its own line(s), never wider than its box (long English names take two lines)
        name = f"{lv.level}. {i18n.level_name(r, lv.level, lang)}"
        words = name.split(" ")
        lines = [name] if len(name) <= 13 or len(words) < 3 else [" ".join(words[:2]), " ".join(words[2:])]
        for j, line in enumerate(lines):
            out.append(f'<text x="{ox + box / 2}" y="{box + cell * (0.7 + 0.6 * j)}" font-size="{cell * 0.5}" font-weight="bold"'
                       f' text-anchor="middle" fill="{palette.INK}" data-role="level-name">{escape(line)}</text>')
        caption = lt("intensity.footprint_caption_one" if len(covered) == 1 else "intensity.footprint_caption", lang,
                     cells=len(covered), damage=lv.damage)
        out.append(f'<text x="{ox + box / 2}" y="{box + cell * 2.5}" font-size="{cell * 0.48}" text-anchor="middle"'
                   f' fill="{palette.GRID}">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _num(v: float) -> str:
    return f"{v:g}"


def footprint_tiles_html(lang: str = "en", rules: Rules | None = None) -> str:
    """The footprints one level a tile, the tiles side by side and wrapping: each drawn at its own size, so that a
    phone shows their captions ("5 cells, 4 per hit") as large as a laptop does (one picture of all five was shrunk
    to a phone's width, its captions to 6 px).

    >>> footprint_tiles_html().count("<svg")
    5
    """
    r = _rules(rules)
    tiles = "".join(f"<div style='flex:0 1 auto'>{footprints_svg(lang, r, levels=[lv.level])}</div>" for lv in r.levels)
    return (f"<div class='footprint-tiles' role='group' aria-label='{escape(lt('intensity.footprints_title', lang))}'"
            f" style='display:flex;flex-wrap:wrap;gap:.3em 0;max-width:820px'>{tiles}</div>")


def levels_table(lang: str = "en") -> LessonBox:
    """The Background figure: the levels with real wind classes, and the five footprints.

    >>> "JTWC" in levels_table("en").snapshot()
    True
    """
    lang = i18n.normalize_lang(lang)
    table, svg = levels_table_html(lang), footprints_svg(lang)
    source = keep_units(lt("intensity.class_source", lang))  # "241 km/h" is never split over two lines
    parts = [widgets.HTML(table), widgets.HTML(f"<div style='font-size:.95em;color:#334155;max-width:60em'>{escape(source)}</div>"),
             widgets.HTML(footprint_tiles_html(lang))]
    return LessonBox(parts, snapshot=lambda: f"<div>{table}<p>{escape(source)}</p>{svg}</div>", svg=lambda: svg)


# --- worked examples ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of a move: where the eye went and how many cells of each region the storm radius covered."""

    number: int
    letter: str
    to: Cell | None
    level: int
    hits: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Worked:
    """A move played by the engine, with its damage taken apart."""

    key: str
    typhoons: tuple[Placement, ...]
    faces: tuple[int, ...]
    hold: int | None
    events: tuple[Any, ...]
    steps: tuple[Step, ...]
    region: str | None
    hits: int
    per_hit: int
    bonus: int
    total: int


#: The demonstrations of the lesson: typhoons ``((x, y), level, direction)``, the die faces of the
#: moves (typhoon 1 moves first), and an optional typhoon held in place by Blocking High.
DEMOS: dict[str, tuple[tuple[Placement, ...], tuple[int, ...], int | None]] = {
    # the rulebook's two damage examples (seed 000), placed on this map
    "moderate_five": ((((8, 6), 3, "WSW"),), (4,), None),
    "strong_two": ((((8, 8), 4, "NNW"),), (4,), None),
    # a mild typhoon crosses Luzon and comes out weaker
    "landfall": ((((8, 9), 2, "W"),), (3,), None),
    # a blocking high holds a mild typhoon over the warm Philippine Sea: it grows
    "growth": ((((9, 9), 2, "NNW"),), (), 1),
    # a mild typhoon runs into a moderate one: they merge (Fujiwhara effect, game rule)
    "merge": ((((8, 8), 2, "E"), ((11, 8), 3, "NNW")), (3,), None),
}


def worked_example(key: str, rules: Rules | None = None) -> Worked:
    """Play demonstration ``key`` (see :data:`DEMOS`) with the engine and take its damage apart.

    >>> worked_example("merge").events[-3].kind
    'Merged'
    """
    if key not in DEMOS:
        raise ValueError(f"there is no demonstration {key!r}; choose from {', '.join(DEMOS)}")
    r = _rules(rules)
    typhoons, faces, hold = DEMOS[key]
    _, events = play_moves(typhoons, faces, hold=hold, rules=rules)
    steps: list[Step] = []
    for e in events:
        if e.kind == "TyphoonStepped" and e.typhoon == 1:
            steps.append(Step(e.step, e.letter, e.to, e.level))
        elif e.kind == "RegionHit" and steps and e.typhoon == 1:
            steps[-1].hits[e.player] = steps[-1].hits.get(e.player, 0) + e.hits
    dealt = [e for e in events if e.kind == "DamageDealt" and e.typhoon == 1]
    region = dealt[0].player if dealt else None
    hits = sum(e.hits for e in dealt)
    bonus = sum(e.bonus for e in dealt)
    level = typhoons[0][1]
    return Worked(key, typhoons, faces, hold, tuple(events), tuple(steps), region, hits, r.level(level).damage, bonus,
                  sum(e.amount for e in dealt))


def worked_html(w: Worked, lang: str = "en", rules: Rules | None = None) -> str:
    """The worked calculation of a demonstration, step by step, in ``lang``.

    >>> "5 × 4 = 20" in worked_html(worked_example("moderate_five"), "zh-TW")
    True
    """
    r = _rules(rules)
    lines = [f"<b>{escape(lt(f'intensity.demo_{w.key}', lang))}</b>"]
    for s in w.steps:
        if s.to is None:
            lines.append(escape(lt("intensity.step_off", lang, n=s.number, letter=s.letter)))
            continue
        covered = i18n.join_names([lt("intensity.hits_of", lang, hits=h, region=i18n.region_name(r, p, lang)) for p, h in s.hits.items()], lang)
        text = lt("intensity.step_hits" if s.hits else "intensity.step_none", lang, n=s.number, letter=s.letter,
                  cell=i18n.cell_label(s.to, lang), covered=covered)
        lines.append(escape(text))
    if w.region is not None:
        name = i18n.region_name(r, w.region, lang)
        lines.append("<b style='font-size:1.15em'>" + escape(lt("intensity.formula_bonus" if w.bonus else "intensity.formula", lang,
                     hits=w.hits, per_hit=w.per_hit, bonus=w.bonus, total=w.total, region=name)) + "</b>")
    for e in w.events:
        if e.kind in ("Landfall", "Merged", "Intensified", "TyphoonHeld"):
            lines.append("➜ " + escape(i18n.narrate(e, lang, r)))
    lines.append(f"<i>{escape(keep_units(lt(f'intensity.why_{w.key}', lang)))}</i>")
    return "<div style='font-size:1.08em;line-height:1.55'>" + "<br>".join(lines) + "</div>"


#: The options of the prediction "two storms meet", each named by what the demonstration's events would show.
MERGE_OPTIONS = {"merged_one_above": "a", "both_gone": "c", "shared_cell": "d"}

#: The events that say how two storms met (what the demonstration showed, in words).
_MEETING = ("Merged", "LevelChanged", "TyphoonRemoved", "Landfall")


def merge_outcome(w: Worked, rules: Rules | None = None) -> tuple[str, ...]:
    """The options of lesson 03's prediction that the events of demonstration ``w`` bear out: a ``Merged`` event
    whose storm is one level above the stronger one ("a"), both storms removed ("c"), both eyes ending on one cell
    ("d"); none when the events show something else.

    >>> merge_outcome(worked_example("merge"))
    ('a',)
    """
    r = _rules(rules)
    levels = [level for _eye, level, _direction in w.typhoons]
    merged = next((e for e in w.events if e.kind == "Merged"), None)
    if merged is not None:
        above = min(max(levels) + 1, len(r.levels))
        return (MERGE_OPTIONS["merged_one_above"],) if merged.level == above else ()
    removed = {e.typhoon for e in w.events if e.kind == "TyphoonRemoved"}
    if len(removed) >= len(w.typhoons):
        return (MERGE_OPTIONS["both_gone"],)
    eyes = {k + 1: eye for k, (eye, _level, _direction) in enumerate(w.typhoons)}
    for e in w.events:
        if e.kind == "TyphoonStepped":
            eyes[e.typhoon] = e.to
    still = [eyes[k] for k in eyes if k not in removed and eyes[k] is not None]
    return (MERGE_OPTIONS["shared_cell"],) if len(still) > len(set(still)) else ()


def meeting_text(w: Worked, lang: str = "en", rules: Rules | None = None) -> str:
    """What demonstration ``w`` showed when the storms met, in words (the game's own sentences, without the last
    full stop, to sit inside another sentence).

    >>> meeting_text(worked_example("merge"), "en")
    'T1 merged into T2: now one strong typhoon heading north-northwest'
    """
    r = _rules(rules)
    told = [i18n.narrate(e, lang, r) for e in w.events if e.kind in _MEETING and i18n.in_log(e)]
    return told[0].rstrip(".。") if told else ""


# --- sandbox -----------------------------------------------------------------------------------

#: Events about one region: of the second game (:func:`play_moves_all_regions`) only those of the regions the first
#: game does not seat are kept.
_REGION_EVENTS = frozenset({"RegionHit", "DamageDealt", "Eliminated"})


_ORDER = {"RegionHit": 1, "DamageDealt": 2, "Eliminated": 3}


def _shared(e: Any) -> bool:
    """Whether both games of :func:`play_moves_all_regions` have event ``e`` alike (a step, a roll, a landfall …)."""
    return e.kind not in _REGION_EVENTS and e.kind != "CardPlayed"


def play_moves_all_regions(typhoons: Sequence[Placement], faces: Sequence[int], *, hold: int | None = None,
                           rules: Rules | None = None) -> tuple[Any, list[Any]]:
    """:func:`~.common.play_moves` with every region of the map hit, not only the five that a game seats.

    A game seats 3 to 5 regions, so the map's sixth region (Central China) would be crossed without a hit. The same
    move is played a second time in a game that seats the regions left out; their hits and damage are put in among
    the first game's events, where that game had them. The storms move alike in both games (they take no notice of
    who plays: nobody holds a counter card), which is checked.

    >>> _, events = play_moves_all_regions([((6, 4), 5, "W")], [2])
    >>> sorted({e.player for e in events if e.kind == "DamageDealt"})
    ['Central China', 'South China', 'Taiwan']
    """
    r = _rules(rules)
    game, events = play_moves(typhoons, faces, hold=hold, rules=r)
    rest = tuple(k for k in r.regions if k not in PLAYERS)
    if not rest:
        return game, events
    seated = rest + tuple(k for k in PLAYERS if k not in rest)[: max(0, 3 - len(rest))]
    other, more = play_moves(typhoons, faces, hold=hold, rules=r, players=seated)
    storms = [(t.eye, t.level, t.direction) for t in game.typhoons]
    if storms != [(t.eye, t.level, t.direction) for t in other.typhoons] or \
            [e for e in events if _shared(e)] != [e for e in more if _shared(e)]:
        return game, events  # pragma: no cover - the storms never take notice of who plays
    # the left-out regions' events, by how many shared events came before them
    extra: dict[int, list[Any]] = {}
    seen = 0
    for e in more:
        if _shared(e):
            seen += 1
        elif e.kind in _REGION_EVENTS and e.player in rest:
            extra.setdefault(seen, []).append(e)
    # between two shared events: the hits first, then the damage, then who is out (each game's in its order)
    merged: list[Any] = []
    group: list[Any] = []
    seen = 0
    for e in [*events, None]:
        if e is None or _shared(e):
            merged += sorted(group + extra.pop(seen, []), key=lambda g: _ORDER.get(g.kind, 0))
            group = []
            seen += 1
            if e is not None:
                merged.append(e)
        else:
            group.append(e)
    return game, merged



class SandboxModel:
    """The sandbox without widgets: storms placed by hand, one move phase at a time, HP kept across turns.

    Every region of the map is in play (all six; :func:`play_moves_all_regions`), so a storm hits whatever it covers.

    >>> s = SandboxModel(seed=1)
    >>> s.place((8, 8), 3, "NNW"), s.place((4, 4), 1, "N")
    (None, 'land')
    >>> events = s.run(faces=[4])
    >>> s.typhoons[0][0], s.rules.regions["Taiwan"].hp - s.hp["Taiwan"]  # HP lost: a moderate typhoon, 2 hits + 1
    ((7, 5), 9)
    """

    MAX_STORMS = 8

    def __init__(self, seed: int | None = 0, rules: Rules | None = None) -> None:
        self.rules = _rules(rules)
        self.rng = random.Random(seed)
        self.typhoons: list[Placement] = []
        self.hp: dict[str, int] = {p: region.hp for p, region in self.rules.regions.items()}
        self.last_faces: list[int] = []

    def place(self, cell: Cell, level: int, direction: str) -> str | None:
        """Put a storm on ``cell``; ``None`` if done, else why not (``"land"``, ``"full"``, ``"taken"``)."""
        cell = (int(cell[0]), int(cell[1]))
        if self.rules.map.is_land(*cell):
            return "land"
        if any(eye == cell for eye, _, _ in self.typhoons):
            return "taken"
        if len(self.typhoons) >= self.MAX_STORMS:
            return "full"
        self.typhoons.append((cell, int(level), direction))
        return None

    def remove_at(self, cell: Cell) -> bool:
        """Remove the storm whose eye is on ``cell``; whether there was one."""
        before = len(self.typhoons)
        self.typhoons = [t for t in self.typhoons if t[0] != tuple(cell)]
        return len(self.typhoons) < before

    def clear(self) -> None:
        """No storms, full HP."""
        self.typhoons = []
        self.hp = {p: region.hp for p, region in self.rules.regions.items()}

    def board_state(self) -> BoardState:
        """The storms as the board shows them (ids 1, 2, … in placing order)."""
        return BoardState(typhoons=tuple(TyphoonView(i + 1, eye, lv, d) for i, (eye, lv, d) in enumerate(self.typhoons)))

    def run(self, faces: Sequence[int] | None = None, hold: int | None = None) -> list[Any]:
        """Move every storm once (storm ``hold`` is held instead); the dice are rolled unless ``faces`` are given."""
        if not self.typhoons:
            return []
        movers = len(self.typhoons) - (1 if hold is not None else 0)
        self.last_faces = list(faces) if faces is not None else [self.rng.randint(1, 6) for _ in range(movers)]
        game, played = play_moves_all_regions(self.typhoons, self.last_faces, hold=hold, rules=self.rules)
        # each move starts the engine at full HP: the damage is taken off the HP kept here, and told so
        events: list[Any] = []
        for e in played:
            if e.kind == "DamageDealt":
                before = self.hp[e.player]
                if before == 0:
                    continue  # out already: nothing more to lose
                amount = min(e.amount, before)
                self.hp[e.player] = before - amount
                e = replace(e, amount=amount, hp=self.hp[e.player])
            elif e.kind == "Eliminated":
                continue  # the engine's HP is not the sandbox's: who is out is told below
            events.append(e)
        for p, left in self.hp.items():
            if left == 0 and any(e.kind == "DamageDealt" and e.player == p for e in events):
                events.append(Eliminated(p))  # it lost its last HP in this move
        self.typhoons = [(t.eye, t.level, t.direction) for t in game.typhoons]
        return events


# --- the lesson widgets ------------------------------------------------------------------------

#: The side of a cell of the lesson's boards, canvas px (the canvas is 748 px wide; on a phone it is shown
#: :data:`~typhoon_edu.ui.board.PHONE_BOARD_PX` wide and gets the board's phone drawing).
MAP_CELL = 44


def _lesson_board(rules: Rules, lang: str, cell: int) -> Any:
    """A lesson 03 board: the usual drawing on a laptop or projector, the phone drawing where the map is narrow."""
    from ..board import NARROW_BOARD_PX, BoardView, phone_text

    return BoardView(rules, lang=lang, cell=cell, phone_text=phone_text(cell, rules), narrow_px=NARROW_BOARD_PX)


class IntensityLesson(LessonBox):
    """The damage examples and the other demonstrations, played by the engine on the board."""

    def __init__(self, lang: str = "en", rules: Rules | None = None, cell: int = MAP_CELL) -> None:
        lang = i18n.normalize_lang(lang)
        r = _rules(rules)
        self.rules, self.lang = r, lang
        self.problems = Problems(lambda: self.lang)
        self.board = _lesson_board(r, lang, cell)
        self.board.canvas.add_class("lesson-map")
        fit_map(self.board)
        self.explain = widgets.HTML(layout=widgets.Layout(min_height="8em"))
        buttons = []
        for key in DEMOS:
            b = legible(widgets.Button(description=lt(f"intensity.button_{key}", lang), icon="play", button_style="info",
                                       layout=widgets.Layout(width="auto")))
            self.problems.on_click(b, lambda _b, k=key: self.play(k), where="intensity lesson: demo")
            buttons.append(b)
        # the worked sum sits beside the map on a wide screen (and below it on a narrow one)
        self.explain.layout = widgets.Layout(min_height="8em", flex="1 1 300px", min_width="280px", padding="0 0 0 .8em")
        beside = widgets.HBox([widgets.VBox([self.board], layout=widgets.Layout(flex="3 1 560px")), self.explain],
                              layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"))
        # predict first: "Two storms meet" stays disabled until the prediction is locked in
        self.prediction = Prediction("intensity", "merge", lang, enable=[buttons[list(DEMOS).index("merge")]])
        parts = [self.problems.widget, heading(lt("intensity.part_demos", lang)), note(lt("intensity.part_demos_note", lang)),
                 self.prediction, widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap")), beside]
        super().__init__(parts, snapshot=self._snapshot, svg=self.board.to_svg)
        self.worked: Worked | None = None
        self.play("moderate_five", speed=0)

    def play(self, key: str, speed: float | None = None) -> Worked:
        """Set up demonstration ``key``, animate it, and show the worked calculation."""
        w = worked_example(key, self.rules)
        self.worked = w
        self.board.skip()
        region_cells = tuple(self.rules.regions[w.region].cells) if w.region else ()
        self.board.show(BoardState(typhoons=tuple(TyphoonView(i + 1, eye, lv, d) for i, (eye, lv, d) in enumerate(w.typhoons)),
                                   highlights=region_cells))
        player = self.board.animate(list(w.events), speed=speed)
        self.explain.value = worked_html(w, self.lang, self.rules)
        if key == "merge":  # the prediction's observation: once the storms have met on the board, not before

            def observed() -> None:
                if self.worked is w:  # not when another demonstration took the board over
                    self._observed(w)

            player.then(self.problems.guard(observed, "intensity lesson: merge observed"))
        return w

    def _observed(self, w: Worked) -> None:
        """Tell the prediction what the merge demonstration showed, and which option that bears out."""
        supports = merge_outcome(w, self.rules)
        what = meeting_text(w, self.lang, self.rules)
        if supports:
            observed = lt("predict.intensity.merge.observed", self.lang, what=what,
                          outcome=self.prediction.options_text(supports))
        else:
            observed = lt("predict.intensity.merge.observed_other", self.lang, what=what)
        self.prediction.record_observation(supports, observed)

    def _snapshot(self) -> str:
        return (f"<div><h3>{escape(lt('intensity.part_demos', self.lang))}</h3>{self.explain.value}"
                f"<div style='max-width:760px'>{self.board.to_svg()}</div></div>")


class IntensitySandbox(LessonBox):
    """Place storms on the map by clicking, then move them all and watch damage, landfall, growth and merges."""

    def __init__(self, lang: str = "en", seed: int | None = 0, rules: Rules | None = None, cell: int = MAP_CELL) -> None:
        from ..board import CellPad
        from ..hp_track import HPTrack

        lang = i18n.normalize_lang(lang)
        r = _rules(rules)
        self.rules, self.lang = r, lang
        self.problems = Problems(lambda: self.lang)
        self.model = SandboxModel(seed, r)
        self.board = _lesson_board(r, lang, cell)
        self.board.canvas.add_class("sandbox-map")
        fit_map(self.board)
        self.level = widgets.ToggleButtons(options=[(f"{lv.level} {i18n.level_name(r, lv.level, lang)}", lv.level) for lv in r.levels],
                                           value=3, description=lt("intensity.sandbox_level", lang),
                                           style={"description_width": "initial", "button_width": "auto"})
        self.direction = widgets.Dropdown(options=[(f"{k} {i18n.direction_name(r, k, lang)}", k) for k in COMPASS16], value="NNW",
                                          description=lt("intensity.sandbox_direction", lang), style={"description_width": "initial"},
                                          layout=widgets.Layout(width="auto"))
        # its label is long: on a phone the menu goes under it rather than past the screen's edge
        self.hold = widgets.Dropdown(options=[(lt("intensity.sandbox_no_hold", lang), 0)], value=0,
                                     description=lt("intensity.sandbox_hold", lang), style={"description_width": "initial"},
                                     layout=widgets.Layout(width="auto", max_width="100%", height="auto",
                                                           flex_flow="row wrap"))
        go = widgets.Button(description=lt("intensity.sandbox_move", lang), icon="play", button_style="primary",
                            layout=widgets.Layout(width="auto"))
        self.problems.on_click(go, lambda _b: self.run(), where="sandbox: move")
        clear = widgets.Button(description=lt("intensity.sandbox_clear", lang), icon="trash", layout=widgets.Layout(width="auto"))
        self.problems.on_click(clear, lambda _b: self.clear(), where="sandbox: clear")
        self.message = widgets.HTML(layout=widgets.Layout(min_height="1.6em"))
        self.log_view = widgets.HTML(layout=widgets.Layout(width="100%"))  # every event of the move, none cut off
        self.hp = HPTrack(r, hp=self.model.hp, lang=lang, regions=tuple(r.regions))
        self.board.on_cell_click(self.problems.guard(self.click, "sandbox: click"))
        side = widgets.VBox([self.hp, self.log_view], layout=widgets.Layout(flex="1 1 300px", min_width="280px"))
        self.pad = CellPad(self.board)  # a phone's cells are too small for a finger: arrows and "Choose this cell"
        main = widgets.VBox([self.board, self.pad], layout=widgets.Layout(flex="3 1 560px"))
        parts = [self.problems.widget, heading(lt("intensity.part_sandbox", lang)), note(lt("intensity.part_sandbox_note", lang)),
                 self.level, widgets.HBox([self.direction, self.hold, go, clear], layout=widgets.Layout(flex_flow="row wrap")),
                 self.message, widgets.HBox([main, side], layout=widgets.Layout(flex_flow="row wrap", width="100%"))]
        super().__init__(parts, snapshot=self._snapshot, svg=self.board.to_svg)
        # a starting position worth moving: two storms that may meet, one near Taiwan
        for cell_, level, direction in (((8, 8), 2, "E"), ((11, 8), 3, "NNW"), ((9, 5), 4, "WSW")):
            self.model.place(cell_, level, direction)
        self._refresh()

    def click(self, cell: Cell) -> None:
        """Place a storm of the chosen level and direction on ``cell``, or remove the storm whose eye is there."""
        self.board.skip()
        if self.model.remove_at(cell):
            said = lt("intensity.sandbox_removed", self.lang, cell=i18n.cell_label(cell, self.lang))
        else:
            problem = self.model.place(cell, self.level.value, self.direction.value)
            key = f"intensity.sandbox_{problem}" if problem else "intensity.sandbox_placed"
            said = lt(key, self.lang, cell=i18n.cell_label(cell, self.lang),
                      level=i18n.level_name(self.rules, self.level.value, self.lang))
        self.message.value = escape(said)
        # and under the map, where a phone's cell pad is: the line above the map is off a phone's screen by then
        self.board.status.value = escape(said)
        self.board.access.say(said)
        self._refresh()

    def run(self, faces: Sequence[int] | None = None) -> list[Any]:
        """Move every storm once (the chosen one held), animate it, and update HP and the log."""
        self.board.skip()
        self.board.show(self.model.board_state())
        hold = self.hold.value or None
        events = self.model.run(faces, hold=hold)
        if not events:
            self.message.value = escape(lt("intensity.sandbox_empty", self.lang))
            return events
        self.message.value = escape(lt("intensity.sandbox_rolled", self.lang, faces=", ".join(map(str, self.model.last_faces))))
        self.board.animate(events)
        self.hp.update(self.model.hp)
        lines = [i18n.narrate(e, self.lang, self.rules) for e in events if e.kind not in ("DieRolled", "TyphoonStepped")]
        self.log_view.value = "<ul style='margin:.2em 0;padding-left:1.2em'>" + "".join(f"<li>{escape(x)}</li>" for x in lines) + "</ul>"
        self._refresh(redraw=False)
        return events

    def clear(self) -> None:
        """Remove every storm and give every region its full HP back."""
        self.model.clear()
        self.log_view.value = ""
        self.message.value = ""
        self.hp.update(self.model.hp)
        self._refresh()

    def _refresh(self, redraw: bool = True) -> None:
        options = [(lt("intensity.sandbox_no_hold", self.lang), 0)]
        options += [(f"T{i + 1} {i18n.cell_label(eye, self.lang)}", i + 1) for i, (eye, _, _) in enumerate(self.model.typhoons)]
        self.hold.options = options
        self.hold.value = 0
        if redraw:
            self.board.show(self.model.board_state())

    def _snapshot(self) -> str:
        return (f"<div><h3>{escape(lt('intensity.part_sandbox', self.lang))}</h3><div style='max-width:760px'>{self.board.to_svg()}</div>"
                f"{self.hp.to_html()}</div>")


def intensity_lesson(lang: str = "en") -> IntensityLesson:
    """Lesson 03's demonstrations (the rulebook's damage examples, landfall, growth, merge) on the board.

    >>> w = intensity_lesson("zh-TW")
    >>> w.worked.total, w.play("strong_two").total
    (20, 11)
    """
    return IntensityLesson(lang)


def intensity_sandbox(lang: str = "en", seed: int | None = 0) -> IntensitySandbox:
    """Lesson 03's sandbox: click the map to place storms, then move them all.

    >>> s = intensity_sandbox("en", seed=2)
    >>> s.click((14, 2)); len(s.model.typhoons)
    4
    >>> _ = s.run(faces=[1, 1, 1, 1]); s.hp.hp["Taiwan"] <= s.rules.regions["Taiwan"].hp
    True
    """
    return IntensitySandbox(lang, seed)


__all__ = [
    "DEMOS", "LEVEL_WIND", "MERGE_OPTIONS", "IntensityLesson", "IntensitySandbox", "SandboxModel", "Step", "Worked",
    "footprints_svg", "footprint_tiles_html", "intensity_lesson", "intensity_sandbox", "level_rows", "levels_table",
    "levels_table_html", "meeting_text", "merge_outcome", "play_moves_all_regions", "worked_example", "worked_html",
]
