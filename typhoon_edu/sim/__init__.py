"""Many storms at once (numpy): risk maps and expected damage for lessons and balance reports.

The engine plays one game; this package asks "what happens on average?" by running a million
storm tracks at once. It depends on the engine's data (``Rules``) but the engine never imports it.

>>> from typhoon_edu.sim import simulate_tracks
>>> stats = simulate_tracks(2_000, seed=1)
>>> stats.hit_probability.shape
(12, 16)
"""

from __future__ import annotations

from .tracks import (
    FATES,
    TrackBatch,
    TrackInputs,
    TrackResult,
    TrackStats,
    draw_tracks,
    run_tracks,
    simulate_tracks,
    track_reference,
)

__all__ = [
    "FATES",
    "TrackBatch",
    "TrackInputs",
    "TrackResult",
    "TrackStats",
    "draw_tracks",
    "run_tracks",
    "simulate_tracks",
    "track_reference",
]
