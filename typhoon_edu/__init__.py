"""typhoon-edu: the board game Typhoon Alert (颱風不要來) as a Jupyter learning app.

>>> from typhoon_edu import advance, path_steps
>>> advance("N", 3)
'E'
>>> path_steps("SW", 6) == list("WSWSWS")
True
"""

from __future__ import annotations

from .engine.compass import advance, damage, path_steps, step_cycle
from .engine.rules import Rules, RulesDataError, load_rules

__all__ = ["Rules", "RulesDataError", "advance", "damage", "load_rules", "path_steps", "step_cycle"]
__version__ = "0.1.0"
