"""Lesson 02, grid pathing: step cycles spelled by the Chinese name, the rulebook's three paths,
predict-the-landing-cell puzzles, staircases against diagonals, and cells in kilometres and days.

>>> spell_cycle("北北西"), spell_cycle("西南")
(('N', 'N', 'W'), ('W', 'S'))
>>> [landing_cell(e.start, e.direction, e.pips) for e in RULEBOOK_EXAMPLES]
[(7, 4), (9, 10), (12, 8)]
>>> t = trip((8, 8), "NNW", 5)
>>> t.steps, t.km_scale, t.km_steps > t.km_straight
(5, 1800, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ... import i18n
from .. import palette
from ..buttons import legible
from ..guard import Problems
from ..scene import COMPASS16, path_cells
from ..state import BoardState, TyphoonView
from .common import LessonBox, Rendered, fit_map, heading, html_table, keep_units, lt, note, play_moves
from .intensity import MAP_CELL

if TYPE_CHECKING:
    from ...engine.rules import Rules

Cell = tuple[int, int]

#: Each character of a Chinese direction name is one orthogonal step.
CHAR_LETTER = {"北": "N", "南": "S", "東": "E", "西": "W"}

#: A typical forward speed of a Western Pacific typhoon (IBTrACS v04 median about 18.5 km/h; Knapp et al. 2010).
TYPHOON_SPEED_KMH = 20.0

EARTH_RADIUS_KM = 6371.0


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        from ...engine.rules import load_rules

        return load_rules()
    return rules


def spell_cycle(name_zh: str) -> tuple[str, ...]:
    """The steps a Chinese direction name spells, character by character (北 N, 南 S, 東 E, 西 W).

    >>> spell_cycle("西南西")
    ('W', 'S', 'W')
    >>> spell_cycle("北x")
    Traceback (most recent call last):
    ...
    ValueError: 'x' in '北x' is not one of the direction characters 北, 南, 東, 西
    """
    out = []
    for ch in name_zh:
        if ch not in CHAR_LETTER:
            raise ValueError(f"{ch!r} in {name_zh!r} is not one of the direction characters {', '.join(CHAR_LETTER)}")
        out.append(CHAR_LETTER[ch])
    return tuple(out)


def cycle_rows(rules: Rules | None = None, lang: str = "en") -> list[tuple[str, str, str, str, str]]:
    """One row per compass point: key, Chinese name, the steps it spells, the step cycle, the English name.

    >>> cycle_rows()[10]
    ('SW', '西南', 'W S', 'W → S', 'southwest')
    """
    r = _rules(rules)
    rows = []
    for key in COMPASS16:
        p = r.points[key]
        rows.append((key, p.name_zh, " ".join(spell_cycle(p.name_zh)), " → ".join(p.cycle), p.name_en))
    return rows


def landing_cell(start: Cell, direction: str, pips: int, rules: Rules | None = None) -> Cell | None:
    """Where the eye stops after ``pips`` steps, or ``None`` if it leaves the map on the way.

    >>> landing_cell((1, 3), "W", 4) is None
    True
    """
    cells = path_cells(_rules(rules), start, direction, pips)
    if not cells:
        return tuple(start)  # type: ignore[return-value]
    end = cells[-1]
    return end if _rules(rules).map.on_map(*end) else None


@dataclass(frozen=True)
class Example:
    """A rulebook path: ``direction`` with a roll of ``pips``, shown from ``start`` on this map."""

    direction: str
    pips: int
    start: Cell
    letters: str  # the steps as the rulebook writes them


#: The rulebook's three worked paths (seed 000), each started from a generation-zone cell.
RULEBOOK_EXAMPLES: tuple[Example, ...] = (
    Example("NNW", 5, (8, 8), "NNWNN"),
    Example("SW", 6, (12, 7), "WSWSWS"),
    Example("E", 4, (8, 8), "EEEE"),
)


def example_events(example: Example, rules: Rules | None = None) -> list[Any]:
    """The engine's events for a rulebook example (a tropical depression moving alone).

    >>> [e.letter for e in example_events(RULEBOOK_EXAMPLES[0]) if e.kind == "TyphoonStepped"]
    ['N', 'N', 'W', 'N', 'N']
    """
    _, events = play_moves([(example.start, 1, example.direction)], [example.pips], rules=rules)
    return events


# --- staircase against diagonal --------------------------------------------------------------


def true_bearing(direction: str) -> float:
    """The compass bearing of a point in degrees clockwise from north (NNW = 337.5).

    >>> true_bearing("NNW"), true_bearing("E")
    (337.5, 90.0)
    """
    return COMPASS16.index(direction) * 22.5


def cycle_bearing(direction: str, rules: Rules | None = None) -> float:
    """The bearing of one whole step cycle (where the staircase really heads), in degrees.

    >>> round(cycle_bearing("NNW"), 1), cycle_bearing("NE")
    (333.4, 45.0)
    """
    from ..scene import _STEP

    cycle = _rules(rules).points[direction].cycle
    dx = sum(_STEP[c][0] for c in cycle)
    dy = -sum(_STEP[c][1] for c in cycle)  # north is up
    return round(math.degrees(math.atan2(dx, dy)) % 360, 9)


def staircase_cells(direction: str, pips: int, rules: Rules | None = None) -> list[Cell]:
    """The cells of a move of ``pips`` steps from (0, 0) on an endless grid, the start included.

    >>> staircase_cells("NNW", 4)
    [(0, 0), (0, -1), (0, -2), (-1, -2), (-1, -3)]
    """
    from ..scene import _STEP

    x, y = 0, 0
    cells = [(0, 0)]
    for letter in path_steps_letters(direction, pips, rules):
        x, y = x + _STEP[letter][0], y + _STEP[letter][1]
        cells.append((x, y))
    return cells


def max_offset(direction: str, pips: int, rules: Rules | None = None) -> float:
    """The farthest the staircase's corners get from the straight line start → end, in cells.

    >>> max_offset("E", 6), round(max_offset("NE", 6), 3)
    (0.0, 0.707)
    """
    cells = staircase_cells(direction, pips, rules)
    (x0, y0), (x1, y1) = cells[0], cells[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return 0.0
    return max(abs((x1 - x0) * (y0 - y) - (x0 - x) * (y1 - y0)) / length for x, y in cells)


def staircase_svg(direction: str, pips: int, lang: str = "en", rules: Rules | None = None, cell: int = 40) -> str:
    """The staircase of ``pips`` steps against the straight line to the same end and the true bearing.

    >>> svg = staircase_svg("NE", 4)
    >>> [r in svg for r in ('data-role="staircase"', 'data-role="straight"', 'data-role="bearing"')]
    [True, True, True]
    """
    cells = staircase_cells(direction, pips, rules)
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    minx, maxx, miny, maxy = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    w, h = (maxx - minx + 1) * cell, (maxy - miny + 1) * cell

    def centre(c: Cell) -> tuple[float, float]:
        return (c[0] - minx + 0.5) * cell, (c[1] - miny + 0.5) * cell

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}"'
           f' style="max-width:100%;height:auto" font-family="{escape(palette.FONT)}" role="img">',
           f"<title>{escape(lt('pathing.part_stairs', lang))}</title>",
           f'<rect x="0" y="0" width="{w}" height="{h}" fill="{palette.SEA}"/>']
    for gx in range(maxx - minx + 2):
        out.append(f'<line x1="{gx * cell}" y1="0" x2="{gx * cell}" y2="{h}" stroke="#94a3b8" stroke-width="1"/>')
    for gy in range(maxy - miny + 2):
        out.append(f'<line x1="0" y1="{gy * cell}" x2="{w}" y2="{gy * cell}" stroke="#94a3b8" stroke-width="1"/>')
    sx, sy = centre(cells[0])
    ex, ey = centre(cells[-1])
    a = math.radians(true_bearing(direction))
    reach = math.hypot(ex - sx, ey - sy) or cell
    out.append(f'<line x1="{sx}" y1="{sy}" x2="{sx + math.sin(a) * reach:.1f}" y2="{sy - math.cos(a) * reach:.1f}"'
               f' stroke="#0f766e" stroke-width="3" stroke-dasharray="3 5" data-role="bearing"/>')
    out.append(f'<line x1="{sx}" y1="{sy}" x2="{ex}" y2="{ey}" stroke="#b91c1c" stroke-width="3" stroke-dasharray="10 6"'
               f' data-role="straight"/>')
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in map(centre, cells))
    out.append(f'<polyline points="{pts}" fill="none" stroke="{palette.PATH}" stroke-width="4" stroke-linejoin="round"'
               f' data-role="staircase"/>')
    for k, c in enumerate(cells):
        x, y = centre(c)
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{cell * 0.18:.1f}" fill="{"#f97316" if k == 0 else "#ffffff"}"'
                   f' stroke="{palette.INK}" stroke-width="1.5"/>')
    out.append("</svg>")
    return "\n".join(out)


def staircase_legend_html(lang: str = "en") -> str:
    """The key of :func:`staircase_svg` (line styles, not colour alone, tell the three lines apart).

    >>> "straight line" in staircase_legend_html("en")
    True
    """
    items = ((palette.PATH, "━━", "pathing.legend_stairs"), ("#b91c1c", "╍╍", "pathing.legend_straight"),
             ("#0f766e", "┈┈", "pathing.legend_bearing"))
    # each sample stays on the line of its words (a phone wrapped "compass direction" away from its dotted sample);
    # the key wraps between its entries
    return "<div style='font-size:1.05em'>" + " &nbsp; ".join(
        f"<b style='color:{colour};white-space:nowrap'>{mark} {escape(lt(key, lang))}</b>" for colour, mark, key in items
    ) + "</div>"


# --- kilometres and days ---------------------------------------------------------------------


def cell_lonlat(cell: Cell, rules: Rules | None = None) -> tuple[float, float]:
    """The approximate real longitude (°E) and latitude (°N) of a cell's centre, from the map's geo data.

    >>> cell_lonlat((6, 6))
    (124.0, 23.2)
    """
    geo = _rules(rules).map.geo
    return (round(geo["lon0"] + geo["lon_step"] * cell[0], 6), round(geo["lat0"] - geo["lat_step"] * cell[1], 6))


def great_circle_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance in km between two (longitude, latitude) points on the Earth (haversine formula).

    >>> round(great_circle_km((121.5, 25.0), (121.5, 26.0)))
    111
    """
    lon1, lat1, lon2, lat2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def km_per_cell(rules: Rules | None = None) -> int:
    """The map's scale: kilometres per cell (``map.toml`` → ``[geo] km_per_cell``).

    >>> km_per_cell()
    360
    """
    return int(_rules(rules).map.geo["km_per_cell"])


def cell_size_km(cell: Cell, rules: Rules | None = None) -> tuple[float, float]:
    """How many km one step north–south and one step east–west measure at ``cell`` (from the geo data).

    The east–west step shrinks towards the north, since lines of longitude meet at the pole:
    that is why the map's single scale (360 km) is only an average.

    >>> ns, ew = cell_size_km((6, 6))
    >>> round(ns), round(ew)
    (367, 358)
    """
    lon, lat = cell_lonlat(cell, rules)
    geo = _rules(rules).map.geo
    ns = great_circle_km((lon, lat - geo["lat_step"] / 2), (lon, lat + geo["lat_step"] / 2))
    ew = great_circle_km((lon - geo["lon_step"] / 2, lat), (lon + geo["lon_step"] / 2, lat))
    return ns, ew


@dataclass(frozen=True)
class Trip:
    """A path in real units, both lengths measured the same way (great circles between cell centres):
    along the steps, and in a straight line between the first and last cell; and the time they take.

    ``km_scale`` is the quick estimate steps × the map's average scale (``km_per_cell``).
    """

    start: Cell
    end: Cell | None
    steps: int
    km_steps: float
    km_straight: float
    speed_kmh: float
    km_scale: int = 0

    @property
    def hours_steps(self) -> float:
        return self.km_steps / self.speed_kmh

    @property
    def days_steps(self) -> float:
        return self.hours_steps / 24

    @property
    def days_straight(self) -> float:
        return self.km_straight / self.speed_kmh / 24


def trip(start: Cell, direction: str, pips: int, rules: Rules | None = None, speed_kmh: float = TYPHOON_SPEED_KMH) -> Trip:
    """How far (km) and how long (days at ``speed_kmh``) a path of the game would be for a real typhoon.

    Both lengths use one geometry: great circles between cell centres (the real positions of the map data's ``[geo]``), so
    the path along the steps is never shorter than the straight line.

    >>> t = trip((8, 8), "E", 4)
    >>> round(t.km_steps), round(t.km_straight), t.km_scale, t.km_steps >= t.km_straight
    (1492, 1492, 1440, True)
    >>> t = trip((8, 8), "NNW", 5)
    >>> round(t.km_steps), round(t.km_straight)
    (1825, 1510)
    """
    r = _rules(rules)
    end = landing_cell(start, direction, pips, r)
    cells = path_cells(r, start, direction, pips)
    steps = len(cells) if end is not None else max(len(cells) - 1, 0)
    visited = [tuple(start), *cells[:steps]]
    along = sum(great_circle_km(cell_lonlat(a, r), cell_lonlat(b, r)) for a, b in zip(visited, visited[1:], strict=False))
    straight = great_circle_km(cell_lonlat(visited[0], r), cell_lonlat(visited[-1], r))
    return Trip(tuple(start), end, steps, along, straight, speed_kmh, steps * km_per_cell(r))  # type: ignore[arg-type]


def scale_note(lang: str = "en", rules: Rules | None = None) -> Rendered:
    """Lesson 02's sentence on the size of a cell, written from the map data (never typed into the notebook).

    >>> "360" in scale_note("en")._repr_html_()
    True
    """
    r = _rules(rules)
    geo = r.map.geo
    ns, ew = cell_size_km((6, 6), r)
    text = lt("pathing.scale_note", lang, lon0=f"{geo['lon0']:g}", lon_step=f"{geo['lon_step']:g}", lat0=f"{geo['lat0']:g}",
              lat_step=f"{geo['lat_step']:g}", km=km_per_cell(r), ns=f"{ns:.0f}", ew=f"{ew:.0f}")
    return Rendered(f"<p style='font-size:1.05em;max-width:60em'>{escape(keep_units(text))}</p>")


# --- predict the landing cell ----------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    """A typhoon at ``start`` heading ``direction``; the die shows ``pips``; where does the eye stop?"""

    start: Cell
    direction: str
    pips: int
    answer: Cell


def landing_puzzles(count: int = 5, seed: int = 0, rules: Rules | None = None) -> list[Puzzle]:
    """``count`` puzzles from sea cells, every direction of the ring, ending on the map.

    >>> ps = landing_puzzles(3, seed=1)
    >>> all(landing_cell(p.start, p.direction, p.pips) == p.answer for p in ps)
    True
    """
    r = _rules(rules)
    rng = random.Random(seed)
    sea = [(x, y) for y in range(r.map.height) for x in range(r.map.width) if not r.map.is_land(x, y)]
    out: list[Puzzle] = []
    while len(out) < count:
        start = rng.choice(sea)
        direction = rng.choice(r.ring)
        pips = rng.randint(2, 6)
        end = landing_cell(start, direction, pips, r)
        mixed = len(set(r.points[direction].cycle)) > 1  # straight paths (N, E) are too easy: keep a few
        if end is not None and (mixed or rng.random() < 0.25):
            out.append(Puzzle(start, direction, pips, end))  # type: ignore[arg-type]
    return out


# --- the lesson widget -------------------------------------------------------------------------


def cycles_table_html(lang: str = "en", rules: Rules | None = None) -> str:
    """The 16 step cycles as a table (the ring's stops first).

    >>> "西南西" in cycles_table_html("en"), cycles_table_html("zh-TW").count("<tr>")
    (True, 17)
    """
    r = _rules(rules)
    rows = sorted(cycle_rows(r, lang), key=lambda row: (row[0] not in r.ring, COMPASS16.index(row[0])))
    yes = lt("pathing.on_ring", lang)
    header = [lt("pathing.col_key", lang), lt("pathing.col_zh", lang), lt("pathing.col_spells", lang),
              lt("pathing.col_cycle", lang), lt("pathing.col_en", lang), lt("pathing.col_ring", lang)]
    return html_table(header, [(*row, yes if row[0] in r.ring else "") for row in rows])


def _trip_html(t: Trip, direction: str, pips: int, lang: str, rules: Rules) -> str:
    letters = " ".join(path_steps_letters(direction, pips, rules))
    end = i18n.cell_label(t.end, lang)
    return (f"<div style='font-size:1.1em;line-height:1.5'>"
            f"<b>{escape(lt('pathing.trip_path', lang, direction=direction, name=i18n.direction_name(rules, direction, lang), pips=pips, letters=letters, end=end))}</b><br>"
            f"{escape(keep_units(lt('pathing.trip_km', lang, steps=t.steps, km_cell=km_per_cell(rules), scale=f'{t.km_scale:,}', km=f'{t.km_steps:,.0f}', straight=f'{t.km_straight:,.0f}')))}<br>"
            f"{escape(keep_units(lt('pathing.trip_days', lang, speed=f'{t.speed_kmh:.0f}', hours=f'{t.hours_steps:.0f}', days=f'{t.days_steps:.1f}', days_straight=f'{t.days_straight:.1f}')))}"
            f"</div>")


def path_steps_letters(direction: str, pips: int, rules: Rules | None = None) -> list[str]:
    """The letters of a move (the cycle restarts on every move).

    >>> "".join(path_steps_letters("SW", 6))
    'WSWSWS'
    """
    cycle = _rules(rules).points[direction].cycle
    return [cycle[i % len(cycle)] for i in range(pips)]


class PathingLesson(LessonBox):
    """Step cycles, the rulebook paths animated on the board, landing-cell puzzles, staircases, km and days."""

    def __init__(self, lang: str = "en", seed: int = 0, rules: Rules | None = None, cell: int = MAP_CELL) -> None:
        from ..board import NARROW_BOARD_PX, BoardView, CellPad, phone_text

        lang = i18n.normalize_lang(lang)
        r = _rules(rules)
        self.rules, self.lang = r, lang
        self.problems = Problems(lambda: self.lang)
        # 1. cycles
        part1 = [heading(lt("pathing.part_cycles", lang)), note(lt("pathing.part_cycles_note", lang)),
                 widgets.HTML(cycles_table_html(lang, r))]
        # 2. the board: rulebook examples and puzzles; on a phone (the map narrower than NARROW_BOARD_PX) its phone
        # drawing, every text (the path's step numbers too) at least 11 CSS px, as lesson 03's boards
        self.board = BoardView(r, lang=lang, cell=cell, phone_text=phone_text(cell, r), narrow_px=NARROW_BOARD_PX)
        self.board.canvas.add_class("lesson-map")
        fit_map(self.board)
        self.info = widgets.HTML(layout=widgets.Layout(min_height="4.5em"))
        buttons = []
        for k, ex in enumerate(RULEBOOK_EXAMPLES):
            b = legible(widgets.Button(description=lt("pathing.example_button", lang, direction=ex.direction, pips=ex.pips),
                                       icon="play", button_style="info", layout=widgets.Layout(width="auto")))
            self.problems.on_click(b, lambda _b, k=k: self.play_example(k), where="pathing lesson: example")
            buttons.append(b)
        self.puzzle_button = legible(widgets.Button(description=lt("pathing.puzzle_button", lang), icon="question",
                                                    button_style="warning", layout=widgets.Layout(width="auto")))
        self.problems.on_click(self.puzzle_button, lambda _b: self.new_puzzle(), where="pathing lesson: puzzle")
        self.reveal_button = widgets.Button(description=lt("pathing.reveal_button", lang), icon="eye",
                                            layout=widgets.Layout(width="auto"), disabled=True)
        self.problems.on_click(self.reveal_button, lambda _b: self.reveal(), where="pathing lesson: reveal")
        self.puzzles = landing_puzzles(40, seed, r)
        self.puzzle_index = -1
        self.puzzle: Puzzle | None = None
        self.score = [0, 0]
        self.board.on_cell_click(self.problems.guard(self.guess, "pathing lesson: guess"))
        # a phone's cells are about 21 px: arrows and "Choose this cell" answer instead, from the storm's eye
        self.pad = CellPad(self.board, start=lambda: self.puzzle.start if self.puzzle is not None else None)
        part2 = [heading(lt("pathing.part_board", lang)), note(lt("pathing.part_board_note", lang)),
                 widgets.HBox([*buttons, self.puzzle_button, self.reveal_button], layout=widgets.Layout(flex_flow="row wrap")),
                 self.info, self.board, self.pad]
        # 3. staircase against diagonal
        self.stair_dir = widgets.Dropdown(options=[(f"{k} {i18n.direction_name(r, k, lang)}", k) for k in COMPASS16], value="NNW",
                                          description=lt("pathing.direction", lang), style={"description_width": "initial"},
                                          layout=widgets.Layout(width="auto"))
        self.stair_steps = widgets.IntSlider(value=6, min=1, max=12, description=lt("pathing.steps", lang),
                                             style={"description_width": "initial"})
        self.stair_view = widgets.HTML(layout=widgets.Layout(max_width="560px"))
        self.stair_text = widgets.HTML()
        self.problems.observe(self.stair_dir, lambda _c: self.draw_staircase(), where="pathing lesson: staircase")
        self.problems.observe(self.stair_steps, lambda _c: self.draw_staircase(), where="pathing lesson: staircase")
        part3 = [heading(lt("pathing.part_stairs", lang)), note(lt("pathing.part_stairs_note", lang)),
                 widgets.HBox([self.stair_dir, self.stair_steps], layout=widgets.Layout(flex_flow="row wrap")),
                 widgets.HBox([self.stair_view, self.stair_text], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))]
        # 4. a table of the three trips in km and days
        scale = cell_size_km((6, 6), r)
        rows = []
        for ex in RULEBOOK_EXAMPLES:
            t = trip(ex.start, ex.direction, ex.pips, r)
            rows.append((f"{ex.direction} {ex.pips}", t.steps, f"{t.km_steps:,.0f}", f"{t.km_straight:,.0f}", f"{t.days_steps:.1f}",
                         f"{t.days_straight:.1f}"))
        header = [lt(f"pathing.col_trip_{k}", lang) for k in ("path", "steps", "km", "straight", "days", "days_straight")]
        part4 = [heading(lt("pathing.part_km", lang)),
                 note(lt("pathing.part_km_note", lang, km=km_per_cell(r), ns=f"{scale[0]:.0f}", ew=f"{scale[1]:.0f}",
                         speed=f"{TYPHOON_SPEED_KMH:.0f}")),
                 widgets.HTML(html_table(header, rows))]
        self.trips_table = part4[-1].value
        super().__init__([self.problems.widget, *part1, *part2, *part3, *part4], snapshot=self._snapshot, svg=self.board.to_svg)
        self.draw_staircase()
        self.play_example(0, speed=0)

    # --- examples and puzzles ---

    def play_example(self, k: int, speed: float | None = None) -> list[Any]:
        """Show rulebook example ``k`` (0–2) and animate the engine's events on the board."""
        ex = RULEBOOK_EXAMPLES[k]
        self.puzzle = None
        self.reveal_button.disabled = True
        self.board.highlight(())
        self.board.show(BoardState(typhoons=(TyphoonView(1, ex.start, 1, ex.direction),)))
        events = example_events(ex, self.rules)
        self.board.animate(events, speed=speed)
        self.info.value = _trip_html(trip(ex.start, ex.direction, ex.pips, self.rules), ex.direction, ex.pips, self.lang, self.rules)
        return events

    def new_puzzle(self) -> Puzzle:
        """Put a typhoon on the board, say its direction and roll, and wait for a click on the landing cell."""
        self.puzzle_index = (self.puzzle_index + 1) % len(self.puzzles)
        p = self.puzzles[self.puzzle_index]
        self.puzzle = p
        self.reveal_button.disabled = False
        self.board.skip()
        self.pad.reset()
        self.board.highlight(())
        self.board.show(BoardState(typhoons=(TyphoonView(1, p.start, 1, p.direction),)))
        self.board.status.value = ""  # the last example's step ("Step 6: the eye of T1 moves ...") is another storm's
        name = i18n.direction_name(self.rules, p.direction, self.lang)
        cycle = " → ".join(self.rules.points[p.direction].cycle)
        prompt = lt('pathing.puzzle_prompt', self.lang, start=i18n.cell_label(p.start, self.lang), direction=p.direction,
                    name=name, pips=p.pips)
        hint = lt('pathing.puzzle_hint', self.lang, cycle=cycle)
        self.info.value = f"<div style='font-size:1.15em'><b>{escape(prompt)}</b><br>{escape(hint)}</div>"
        # the page's text changes silently: the map's live region says it (no space after a full-width mark in Chinese)
        self.board.access.say(i18n.tidy_spaces(f"{prompt} {hint}", self.lang))
        return p

    def guess(self, cell: Cell) -> bool | None:
        """Answer the current puzzle with ``cell`` (what a click on the board does)."""
        p = self.puzzle
        if p is None:
            return None
        right = tuple(cell) == p.answer
        self.score[0] += int(right)
        self.score[1] += 1
        letters = " ".join(path_steps_letters(p.direction, p.pips, self.rules))
        key = "pathing.puzzle_right" if right else "pathing.puzzle_wrong"
        colour, mark = ("#15803d", "✔") if right else ("#b91c1c", "✘")
        text = lt(key, self.lang, cell=i18n.cell_label(cell, self.lang), answer=i18n.cell_label(p.answer, self.lang), letters=letters)
        score = lt("pathing.puzzle_score", self.lang, right=self.score[0], total=self.score[1])
        self.info.value = (f"<div style='font-size:1.15em;border-left:6px solid {colour};padding-left:.5em'>"
                           f"<b style='color:{colour}'>{mark} {escape(text)}</b><br>{escape(score)}</div>")
        # and under the map, where a phone's cell pad is: the text above the map is off a phone's screen by then
        self.board.status.value = (f"<span style='font-size:1.05em'><b style='color:{colour}'>{mark} {escape(text)}</b> "
                                   f"{escape(score)}</span>")
        self.board.highlight([tuple(cell)])
        self.board.preview_path(p.start, p.direction, p.pips)
        self.board.access.say(i18n.tidy_spaces(f"{mark} {text} {score}", self.lang))
        self.puzzle = None
        self.reveal_button.disabled = True
        return right

    def reveal(self) -> None:
        """Show the current puzzle's path without answering."""
        p = self.puzzle
        if p is None:
            return
        self.board.preview_path(p.start, p.direction, p.pips)
        revealed = lt("pathing.revealed", self.lang, answer=i18n.cell_label(p.answer, self.lang))
        self.info.value += escape(revealed)
        self.board.status.value = escape(revealed.strip())
        self.puzzle = None
        # the button pressed disables itself: the focus goes to the map that shows the path (not to the page's body),
        # and the map's live region says where the path ends
        self.reveal_button.disabled = True
        self.board.access.focus_map()
        self.board.access.say(revealed.strip())

    def draw_staircase(self) -> None:
        """Redraw the staircase picture for the chosen direction and number of steps."""
        d, n = self.stair_dir.value, self.stair_steps.value
        self.stair_view.value = staircase_svg(d, n, self.lang, self.rules) + staircase_legend_html(self.lang)
        self.stair_text.value = (f"<div style='font-size:1.05em;max-width:26em;padding:.5em'>"
                                 f"{escape(lt('pathing.stairs_text', self.lang, direction=d, true=f'{true_bearing(d):.1f}', stairs=f'{cycle_bearing(d, self.rules):.1f}', offset=f'{max_offset(d, n, self.rules):.2f}'))}</div>")

    def _snapshot(self) -> str:
        return (f"<div><h3>{escape(lt('pathing.part_cycles', self.lang))}</h3>{cycles_table_html(self.lang, self.rules)}"
                f"<h3>{escape(lt('pathing.part_board', self.lang))}</h3>{self.info.value}"
                f"<div style='max-width:760px'>{self.board.to_svg()}</div>"
                f"<h3>{escape(lt('pathing.part_stairs', self.lang))}</h3><div style='max-width:420px'>{self.stair_view.value}</div>"
                f"{self.stair_text.value}<h3>{escape(lt('pathing.part_km', self.lang))}</h3>{self.trips_table}</div>")


def pathing_lesson(lang: str = "en", seed: int = 0) -> PathingLesson:
    """Lesson 02's "Try it" widget.

    >>> w = pathing_lesson("en")
    >>> w.board.state.typhoon(1).eye  # the first rulebook example, played to its end
    (7, 4)
    >>> p = w.new_puzzle()
    >>> w.guess(p.answer)
    True
    """
    return PathingLesson(lang, seed)


__all__ = [
    "CHAR_LETTER", "RULEBOOK_EXAMPLES", "TYPHOON_SPEED_KMH", "Example", "PathingLesson", "Puzzle", "Trip", "cell_lonlat",
    "cell_size_km", "cycle_bearing", "cycle_rows", "cycles_table_html", "example_events", "great_circle_km", "km_per_cell",
    "landing_cell", "landing_puzzles", "max_offset", "path_steps_letters", "pathing_lesson", "scale_note", "spell_cycle", "staircase_cells", "staircase_legend_html", "staircase_svg",
    "trip", "true_bearing",
]
