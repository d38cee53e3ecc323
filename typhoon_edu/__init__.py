"""typhoon-edu: the board game Typhoon Alert (颱風不要來) as a Jupyter learning app.

>>> from typhoon_edu import Game, advance, path_steps
>>> advance("N", 3)
'E'
>>> path_steps("SW", 6) == list("WSWSWS")
True
>>> g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=1)
>>> g.current_player
'Taiwan'
"""

from __future__ import annotations

from .engine.actions import Action, parse_action
from .engine.compass import advance, damage, path_steps, step_cycle
from .engine.events import Event
from .engine.game import CHANCE, Game, Typhoon
from .engine.rules import GameInputError, IllegalActionError, Rules, RulesDataError, SaveFileError, load_rules

__all__ = [
    "CHANCE", "Action", "Event", "Game", "GameInputError", "IllegalActionError", "Rules", "RulesDataError",
    "SaveFileError",
    "Typhoon", "advance", "damage", "load_rules", "parse_action", "path_steps", "step_cycle",
]
__version__ = "0.1.0"
