"""The lesson widgets of notebooks 01–06: one module per lesson, each with tested pure helpers.

A notebook calls one function per section, for example::

    from typhoon_edu.ui.lessons import compass_lesson, quiz
    compass_lesson("zh-TW")
    quiz("compass", "zh-TW")

>>> from typhoon_edu.ui.lessons import simulate_rolls, trip, worked_example
>>> simulate_rolls(70, seed=0).repeats, trip((8, 8), "NNW", 5).steps, worked_example("strong_two").total
(0, 5, 11)
"""

from __future__ import annotations

from ..quiz import Quiz
from .bank import quiz  # the quiz of typhoon_edu.ui.quiz, its numbers kept on the line of their units
from .compass import (
    compass_lesson,
    compass_rose,
    game_vs_real,
    long_run_shares,
    one_roll_stops,
    replay_rulebook,
    simulate_rolls,
)
from .glossaries import glossary
from .intensity import SandboxModel, intensity_lesson, intensity_sandbox, levels_table, worked_example
from .pathing import (
    cell_lonlat,
    cycle_bearing,
    landing_cell,
    landing_puzzles,
    pathing_lesson,
    scale_note,
    spell_cycle,
    trip,
)

__all__ = [
    "Quiz", "SandboxModel", "cell_lonlat", "compass_lesson", "compass_rose", "cycle_bearing", "game_vs_real", "glossary", "intensity_lesson",
    "intensity_sandbox", "landing_cell", "landing_puzzles", "levels_table", "long_run_shares", "one_roll_stops", "pathing_lesson",
    "quiz", "replay_rulebook", "scale_note", "simulate_rolls", "spell_cycle", "trip", "worked_example",
]
