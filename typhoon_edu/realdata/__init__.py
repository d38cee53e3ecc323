"""Real storms for the lessons: JMA best tracks, Natural Earth outlines, and the statistics students run.

>>> from typhoon_edu.realdata import all_storms, motion_shares
>>> round(sum(motion_shares(all_storms()).values()), 6)
1.0
"""

from __future__ import annotations

from .jma import BestTrackError, Fix, Storm, WindRadius, all_storms, find_storm, read_best_tracks, selected_storms
from .outlines import OutlineError, countries, read_outlines
from .stats import (
    EIGHT_POINTS,
    cwa_class,
    motion_bearings,
    motion_shares,
    nearest_cell,
    region_reach,
    storm_cells,
)

__all__ = [
    "EIGHT_POINTS", "BestTrackError", "Fix", "OutlineError", "Storm", "WindRadius", "all_storms", "countries", "cwa_class",
    "find_storm", "motion_bearings", "motion_shares", "nearest_cell", "read_best_tracks", "read_outlines", "region_reach",
    "selected_storms", "storm_cells",
]
