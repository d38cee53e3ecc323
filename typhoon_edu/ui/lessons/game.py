"""Lesson 04, a full game: the rules in one minute, with every region's size and HP read from the data,
and a lesson plan from measured game lengths (:func:`measure_game_length`, :func:`lesson_plan`).

``python -m typhoon_edu.ui.lessons.game`` prints the measurement.

Another edition (or a re-tuned one) changes ``regions.toml`` and ``levels.toml``; this guide follows,
since no number in it is typed: they come from :func:`~typhoon_edu.engine.rules.load_rules`.

>>> from typhoon_edu.engine.rules import load_rules
>>> html = rules_guide("en")._repr_html_()
>>> all(f"<td>{r.hp}</td>" in html for r in load_rules().regions.values())
True
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from ... import i18n
from .common import Rendered, keep_units, lt

if TYPE_CHECKING:
    from ...engine.rules import Rules


def region_rows(lang: str = "en", rules: Rules | None = None) -> list[tuple[str, int, int]]:
    """``(name, cells on the map, starting HP)`` per region, from the rules data.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> r = load_rules(); region_rows("zh-TW")[0] == ("臺灣", r.regions["Taiwan"].size, r.regions["Taiwan"].hp)
    True
    """
    if rules is None:
        from ...engine.rules import load_rules

        rules = load_rules()
    return [(i18n.region_name(rules, k, lang), reg.size, reg.hp) for k, reg in rules.regions.items()]


def rules_guide(lang: str = "en", rules: Rules | None = None) -> Rendered:
    """The rules in one minute (lesson 04's Background), with the regions' HP and the damage per hit from the data."""
    from ...engine.rules import MIN_TYPHOONS, load_rules

    r = rules or load_rules()
    lang = i18n.normalize_lang(lang)
    damages = [lv.damage for lv in r.levels]
    items = [lt("game.rule_region", lang), lt("game.rule_turn", lang, storms=MIN_TYPHOONS),
             lt("game.rule_damage", lang, low=min(damages), high=max(damages)), lt("game.rule_grow", lang),
             lt("game.rule_end", lang)]
    head = "".join(f"<th>{escape(lt(f'game.col_{c}', lang))}</th>" for c in ("region", "cells", "hp"))
    rows = "".join(f"<tr><td>{escape(name)}</td><td>{size}</td><td>{hp}</td></tr>" for name, size, hp in region_rows(lang, r))
    table = (f"<table class='rules-guide-regions' style='border-collapse:collapse;font-size:1.02em'>"
             f"<style>.rules-guide-regions td, .rules-guide-regions th {{border:1px solid #94a3b8;padding:.2em .6em;"
             f"text-align:right}}"
             # a region's name reads from the left, on one line (the notebook's CSS right-aligned it: "Central China"
             # wrapped ragged); the numbers stay right-aligned, units under units
             f".rules-guide-regions td:first-child, .rules-guide-regions th:first-child {{text-align:left;"
             f"white-space:nowrap}}</style>"
             f"<tr>{head}</tr>{rows}</table>")
    levels = ", ".join(f"{lv.level} {i18n.level_name(r, lv.level, lang)}: {lv.damage}" for lv in r.levels)
    return Rendered("<div class='rules-guide' style='font-size:1.05em;max-width:62em'><ul>"
                    + "".join(f"<li>{escape(keep_units(x))}</li>" for x in items)
                    + f"</ul><p>{escape(keep_units(lt('game.levels_line', lang, levels=levels)))}</p>{table}</div>")


#: The pace the plan assumes: a group of students reads the banner, talks, and clicks (a die roll and the
#: storm's walk included) in about this many seconds per decision. A teacher can pass another pace.
SECONDS_PER_DECISION = 15
PLAY_PLAYERS = 4
MEASURED_GAMES = 40


@dataclass(frozen=True)
class GameLength:
    """How long games of one variant were, measured with computer players (medium: GreedyBot)."""

    variant: str
    players: int
    games: int
    decisions: tuple[int, ...]  # player decisions per game (die rolls are the computer's)
    rounds: int

    @property
    def median(self) -> float:
        return float(statistics.median(self.decisions))

    @property
    def low(self) -> int:
        """The 10th percentile: 9 games in 10 were at least this long."""
        return int(round(statistics.quantiles(self.decisions, n=10)[0]))

    @property
    def high(self) -> int:
        """The 90th percentile: 9 games in 10 were at most this long."""
        return int(round(statistics.quantiles(self.decisions, n=10)[-1]))

    def minutes(self, seconds_per_decision: float = SECONDS_PER_DECISION) -> int:
        """The median game's playing time at that pace, in whole minutes (rounded up)."""
        return int(-(-self.median * seconds_per_decision // 60))


def measure_game_length(variant: str = "standard", players: int = PLAY_PLAYERS, games: int = MEASURED_GAMES,
                        seed: int = 0, rules: Rules | None = None) -> GameLength:
    """Play ``games`` whole games of ``players`` computer players (medium) and count their decisions.

    Seeded, so the same call gives the same numbers (about 0.03 s a game).

    >>> m = measure_game_length("advanced", games=12)
    >>> m.rounds, 20 < m.median < 80, m.low <= m.median <= m.high
    (1, True, True)
    """
    from ...ai.bots import GreedyBot
    from ...ai.play import play_game

    if games < 2:
        raise ValueError(f"measure at least 2 games (for the spread), not {games}")
    results = [play_game([GreedyBot(seed + 100 * g + i) for i in range(players)], seed=seed + g, variant=variant, rules=rules)
               for g in range(games)]
    return GameLength(variant, players, games, tuple(r.actions for r in results), max(r.rounds for r in results))


def lesson_plan(lang: str = "en", seconds_per_decision: float = SECONDS_PER_DECISION, games: int = MEASURED_GAMES) -> Rendered:
    """Lesson 04's plan (teacher notes), from game lengths measured when it is called (never typed in).

    >>> html = lesson_plan("en", games=10)._repr_html_()
    >>> "advanced" in html and "45" in html
    True
    """
    lang = i18n.normalize_lang(lang)
    std, adv = measure_game_length("standard", games=games), measure_game_length("advanced", games=games)
    fmt = {"games": games, "players": PLAY_PLAYERS, "sec": f"{seconds_per_decision:g}",
           "std": f"{std.median:.0f}", "std_lo": std.low, "std_hi": std.high, "std_rounds": std.rounds,
           "std_min": std.minutes(seconds_per_decision),
           "adv": f"{adv.median:.0f}", "adv_lo": adv.low, "adv_hi": adv.high, "adv_rounds": adv.rounds,
           "adv_min": adv.minutes(seconds_per_decision)}
    items = [lt("game.plan_measured", lang, **fmt), lt("game.plan_one", lang, **fmt), lt("game.plan_two", lang, **fmt)]
    return Rendered("<div class='lesson-plan' style='font-size:1.05em;max-width:62em'><ul>"
                    + "".join(f"<li>{escape(keep_units(x))}</li>" for x in items) + "</ul></div>")  # "37 min" on one line


__all__ = ["GameLength", "lesson_plan", "measure_game_length", "region_rows", "rules_guide"]


if __name__ == "__main__":  # pragma: no cover - a command: print the measurement
    import sys

    for variant in ("standard", "advanced"):
        m = measure_game_length(variant)
        sys.stdout.write(f"{variant}: {m.games} games of {m.players} GreedyBots, {m.rounds} round(s); decisions median "
                         f"{m.median:.0f}, 10th–90th percentile {m.low}–{m.high}; {m.minutes()} min at "
                         f"{SECONDS_PER_DECISION} s a decision\n")
