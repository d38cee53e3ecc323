"""The question banks of the lessons (answers here; texts in ``data/i18n/*.lessons.toml`` and
``*.lesson06.toml``).

Cell and number answers are facts of the rules; ``tests/test_quiz.py`` recomputes each one with
the engine, so a teacher who changes the map or the levels is told which answers to update. The
answers of lesson 04 ("game") are read from the rules data and those of lesson 06 ("real") are
computed from the real tracks, so they follow the data by themselves. Every number and cell question carries what a
typed answer can possibly be (:func:`~typhoon_edu.ui.lessons.limits.with_limits`), in every quiz built from them.

>>> sorted(BANKS), [len(BANKS[k]) >= 6 for k in sorted(BANKS)]
(['compass', 'game', 'intensity', 'pathing', 'real'], [True, True, True, True, True])
>>> all(any(q.kind == "text" for q in questions) for questions in BANKS.values())  # one "explain" each
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..quiz import Question, Quiz
from .common import keep_units_html, keep_widget_units
from .limits import with_limits

if TYPE_CHECKING:
    from ...engine.rules import Rules

def _km_per_cell() -> int:
    from ...engine.rules import load_rules

    return int(load_rules().map.geo["km_per_cell"])


_KM = _km_per_cell()
_SPEED = 20.0  # km/h, a typical forward speed (lesson 02: IBTrACS v04, Knapp et al. 2010)
_ABCD = ("a", "b", "c", "d")
_ABC = ("a", "b", "c")

def _ring_vs_real() -> dict[str, str]:
    """Lesson 01's numbers for quiz 6 and 7: the ring's long-run shares (a stop between two of the 8
    points counted half to each) against the IBTrACS shares of lesson 01.

    >>> f = _ring_vs_real(); f["sw"], f["e"], f["real_e"], f["times"]
    ('7.1%', '14.3%', '7%', '2.0')
    """
    from ...engine.rules import load_rules
    from ...realdata.stats import ring_shares
    from ..quiz import format_percent
    from .compass import REAL_MOTION_SHARES

    game = ring_shares(load_rules().ring)
    real = REAL_MOTION_SHARES
    return {"sw": format_percent(game["SW"]), "e": format_percent(game["E"]), "real_e": format_percent(real["E"]),
            "times": f"{game['E'] / real['E']:.1f}", "west": format_percent(real["W"] + real["NW"])}


_RING = _ring_vs_real()

COMPASS: tuple[Question, ...] = with_limits((
    Question("compass", "first_roll", "choice", answer="c", options=_ABCD),
    Question("compass", "rulebook_last", "choice", answer="b", options=_ABCD),
    Question("compass", "same_stop", "choice", answer="c", options=_ABC),
    Question("compass", "reachable", "number", answer=6),
    Question("compass", "long_run", "number", answer=1 / 7, tolerance=0.005),
    Question("compass", "after_e", "choice", answer="c", options=_ABCD, fmt=_RING),
    Question("compass", "real_motion", "choice", answer="a", options=_ABCD, fmt=_RING),
    Question("compass", "explain", "text", answer=None),
))

PATHING: tuple[Question, ...] = with_limits((
    Question("pathing", "wnw_cycle", "choice", answer="a", options=_ABCD),
    Question("pathing", "sw_first", "choice", answer="a", options=("a", "b")),
    # not the rulebook's three paths: the page opens with the first on its board, and its buttons replay all three
    Question("pathing", "wnw_four", "cell", answer=(6, 8), board=((9, 9), 1, "WNW"), fmt={"pips": 4}),
    Question("pathing", "sw_three", "cell", answer=(12, 11), board=((14, 10), 1, "SW"), fmt={"pips": 3}),
    Question("pathing", "nne_four", "cell", answer=(12, 5), board=((11, 8), 1, "NNE"), fmt={"pips": 4}),
    Question("pathing", "km", "number", answer=5 * _KM, tolerance=1, fmt={"km": _KM, "total": f"{5 * _KM:,}"}),
    Question("pathing", "hours", "number", answer=_KM / _SPEED, tolerance=0.1,
             fmt={"km": _KM, "speed": f"{_SPEED:g}", "hours": f"{_KM / _SPEED:g}"}),
    Question("pathing", "diagonal", "choice", answer="a", options=_ABC),
    Question("pathing", "explain", "text", answer=None, fmt={"km": _KM, "speed": f"{_SPEED:g}", "hours": f"{_KM / _SPEED:g}"}),
))

INTENSITY: tuple[Question, ...] = with_limits((
    Question("intensity", "footprint", "choice", answer="b", options=_ABC),
    Question("intensity", "moderate_five", "number", answer=20),
    Question("intensity", "strong_two", "number", answer=11),
    Question("intensity", "super_three", "number", answer=18),
    Question("intensity", "landfall", "choice", answer="a", options=_ABCD),
    Question("intensity", "merge", "choice", answer="a", options=_ABCD),
    Question("intensity", "cwa_super", "choice", answer="a", options=_ABC),
    Question("intensity", "grow", "choice", answer="a", options=_ABC),
    Question("intensity", "explain", "text", answer=None),
))

def game_bank(rules: Rules | None = None) -> tuple[Question, ...]:
    """Lesson 04's questions; every number in them comes from the rules data (HP, damage per hit, storms on the map).

    >>> qs = game_bank(); [q.id for q in qs][:3]
    ['held', 'counter', 'start_hp']
    """
    from ...engine.rules import MIN_TYPHOONS, load_rules

    r = rules or load_rules()
    moderate = r.level(3)
    taiwan = r.regions["Taiwan"]
    hits = 2 * 2
    return with_limits((
        Question("game", "held", "choice", answer="b", options=_ABC),
        # the storm ends its move with its radius still over the region: +1 (the engine's rule, compass.damage)
        Question("game", "counter", "number", answer=hits * moderate.damage + 1,
                 fmt={"damage": moderate.damage, "hits": hits, "hits_hp": hits * moderate.damage,
                      "total": hits * moderate.damage + 1}),
        Question("game", "start_hp", "number", answer=taiwan.hp, fmt={"size": taiwan.size, "hp": taiwan.hp}),
        Question("game", "refill", "number", answer=MIN_TYPHOONS),
        Question("game", "landfall", "choice", answer="b", options=_ABC),
        Question("game", "merge", "choice", answer="c", options=_ABC),
        Question("game", "strongest", "number", answer=r.level(len(r.levels)).damage,
                 fmt={"top": len(r.levels)}),
        Question("game", "explain", "text", answer=None),
    ))


def real_bank(rules: Rules | None = None) -> tuple[Question, ...]:
    """Lesson 06's questions; their answers are computed from the JMA best tracks.

    >>> qs = real_bank(); qs[0].answer, 0.5 < qs[1].answer < 0.65
    ('c', True)
    """
    from ...realdata import jma, stats
    from ..realmap import geo_fmt

    storms = jma.all_storms()
    shares = stats.motion_shares(storms, tropical=True)  # the fair comparison: the game's storms are all tropical
    top = max(shares, key=shares.__getitem__)
    order = {"N": "a", "E": "b", "W": "c", "S": "d"}
    west = shares["W"] + shares["NW"]
    game = stats.ring_shares(_ring(rules))
    soudelor = jma.find_storm("Soudelor")
    kt = soudelor.max_wind_kt
    nepartak = stats.pressure_change(jma.find_storm("Nepartak"), stats.places()["Taiwan"])
    reach = stats.region_reach(storms, 200)
    first = stats.reach_ranking(reach)[0]
    reach_options = {"Korea": "a", "Central China": "b", "Taiwan": "c", "Philippines": "d"}
    cell = stats.nearest_cell(145.0, 13.1, rules)
    geo = geo_fmt(rules)
    x = (145.0 - float(geo["lon0"])) / float(geo["lon_step"])
    y = (float(geo["lat0"]) - 13.1) / float(geo["lat_step"])
    pct = _pct_text
    return with_limits((
        Question("real", "top_direction", "choice", answer=order.get(top, "c"), options=_ABCD,
                 fmt={"w": pct(shares["W"]), "nw": pct(shares["NW"]), "storms": len(storms)}),
        Question("real", "west_share", "number", answer=round(west, 3), tolerance=0.02, percent=True,
                 fmt={"w": pct(shares["W"]), "nw": pct(shares["NW"]), "both": pct(west), "game": pct(game["W"] + game["NW"])}),
        Question("real", "class", "choice", answer={4: "b", 3: "a", 2: "c", 1: "d"}[stats.cwa_class(kt)], options=_ABCD,
                 fmt={"kt": kt, "ms": f"{kt * stats.MS_PER_KT:.0f}"}),
        Question("real", "cell", "cell", answer=cell, fmt={**geo, "x": f"{x:.1f}", "y": f"{y:.1f}", "cell": f"({cell[0]}, {cell[1]})"}
                 if cell else geo),
        Question("real", "pressure", "choice", answer="c" if nepartak.rise > 0 else "a", options=_ABCD,
                 fmt={"before": nepartak.before.pressure, "after": nepartak.after.pressure, "rise": nepartak.rise}),
        Question("real", "reach", "choice", answer=reach_options.get(first, "d"), options=_ABCD,
                 fmt={"count": reach[first].count, "storms": len(storms)}),
        Question("real", "hsu", "number", answer=49),
        Question("real", "board", "choice", answer="b", options=_ABC, fmt={"km": geo["km"]}),
        Question("real", "explain", "text", answer=None, fmt={"both": pct(west), "game": pct(game["W"] + game["NW"])}),
    ))


def _pct_text(v: float) -> str:
    return f"{v * 100:.1f}%"


def _ring(rules: Rules | None) -> tuple[str, ...]:
    from ...engine.rules import load_rules

    return (rules or load_rules()).ring


BANKS: dict[str, tuple[Question, ...]] = {"compass": COMPASS, "pathing": PATHING, "intensity": INTENSITY,
                                          "game": game_bank(), "real": real_bank()}


def bank(lesson: str) -> tuple[Question, ...]:
    """The questions of ``lesson`` (04's and 06's recomputed, so they follow the data files as they are now).

    >>> len(bank("real")) >= 6
    True
    """
    if lesson == "game":
        return game_bank()
    if lesson == "real":
        return real_bank()
    return BANKS[lesson]


class LessonQuiz(Quiz):
    """A lesson's quiz whose numbers stay on the line of their units, on the page (prompts, option buttons,
    feedback: :func:`~typhoon_edu.ui.lessons.common.keep_widget_units`) and in the saved notebook's picture; the
    answers and the CSV keep the texts as the catalog writes them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        keep_widget_units(self)

    def to_html(self) -> str:
        return keep_units_html(super().to_html())


def quiz(lesson: str, lang: str = "en") -> LessonQuiz:
    """The check-yourself quiz of a lesson, as :func:`typhoon_edu.ui.quiz.quiz` makes it, with every number kept on
    the line of its unit.

    >>> q = quiz("intensity", "en")
    >>> labels = [b.description for item in q.items for b in item.buttons.values()]
    >>> "No. Its top class is strong typhoon, from 51.0\u00a0m/s (184\u00a0km/h)." in labels
    True
    >>> item = next(i for i in q.items if i.question.id == "cwa_super"); item.answer("a").correct
    True
    >>> "241\u00a0km/h" in item.feedback.value, item.given  # the CSV gets the option's text as it is
    (True, 'No. Its top class is strong typhoon, from 51.0 m/s (184 km/h).')
    """
    if lesson not in BANKS:
        raise ValueError(f"there is no quiz for {lesson!r}; the lessons are {', '.join(BANKS)}")
    return LessonQuiz(bank(lesson), lang, picture=board_picture)


def board_picture(question: Question, lang: str = "en") -> str:
    """The small map drawn beside a cell question: the typhoon and its heading (the path is the puzzle).

    >>> board_picture(PATHING[2]).count('data-role="eye"')
    1
    """
    from ..svg import board_svg

    if question.board is None:
        return ""
    eye, level, direction = question.board
    return board_svg(typhoons=[{"id": 1, "eye": eye, "level": level, "direction": direction}], lang=lang, cell=36)


__all__ = ["BANKS", "COMPASS", "INTENSITY", "PATHING", "LessonQuiz", "bank", "board_picture", "game_bank", "quiz", "real_bank"]
