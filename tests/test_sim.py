"""Tests for typhoon_edu.sim: the vectorised tracks against the one-storm reference and docs/rules.md."""

from __future__ import annotations

import numpy as np
import pytest

from typhoon_edu.engine.compass import path_steps
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.sim import (
    FATES,
    TrackInputs,
    draw_tracks,
    run_tracks,
    simulate_tracks,
    track_reference,
)

RULES = load_rules()
WEST = ["WSW", "W", "WNW"]


def _agree(inputs: TrackInputs, level: int) -> None:
    batch = run_tracks(inputs, level=level)
    for i in range(len(inputs)):
        cell, direction, dice = inputs.track(i)
        expected = track_reference(cell, direction, dice, level=level)
        assert batch.result(i) == expected, f"track {i}: {cell} {direction} {dice} at level {level}"


# ---------------------------------------------------------------- vectorised == reference


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_vectorised_matches_reference_on_drawn_tracks(level: int) -> None:
    _agree(draw_tracks(1500, seed=100 + level, turns=8), level)


@pytest.mark.parametrize("level", [1, 3, 5])
def test_vectorised_matches_reference_anywhere_any_direction(level: int) -> None:
    # Spawns anywhere on the map (land and edges included), all 16 compass points, all faces.
    rng = np.random.default_rng(level)
    n = 2000
    cells = list(zip(rng.integers(0, RULES.map.width, n).tolist(), rng.integers(0, RULES.map.height, n).tolist(), strict=True))
    points = list(RULES.points)
    directions = [points[i] for i in rng.integers(0, len(points), n)]
    dice = rng.integers(1, 7, (n, 6)).tolist()
    _agree(TrackInputs.from_lists(cells, directions, dice), level)


def test_chained_and_custom_rings_match_reference() -> None:
    _agree(draw_tracks(800, seed=9, ring_roll="chained"), 2)
    _agree(draw_tracks(800, seed=10, ring=["S", "SE", "W", "NW"], zones=[1]), 4)


def test_simulate_tracks_aggregates_the_same_tracks() -> None:
    # With n <= chunk_size, simulate_tracks draws exactly the tracks draw_tracks draws.
    n, seed = 4000, 21
    stats = simulate_tracks(n, seed=seed, level=3)
    batch = run_tracks(draw_tracks(n, seed=seed), level=3)
    np.testing.assert_allclose(stats.hit_probability, batch.covered.mean(axis=0))
    for j, region in enumerate(batch.regions):
        assert stats.expected_damage[region] == pytest.approx(batch.damage[:, j].mean())
        se = batch.damage[:, j].std(ddof=1) / np.sqrt(n)
        assert stats.expected_damage_se[region] == pytest.approx(se)
        assert stats.region_hit_probability[region] == pytest.approx(batch.hit[:, j].mean())
    assert stats.mean_lifetime == pytest.approx(batch.lifetime.mean())
    for code, fate in enumerate(FATES):
        assert stats.fate_share[fate] == pytest.approx(np.mean(batch.fate == code))


# ---------------------------------------------------------------- the rules' examples


@pytest.mark.parametrize(("direction", "pips", "steps"), [("NNW", 5, "NNWNN"), ("SW", 6, "WSWSWS"), ("E", 4, "EEEE")])
def test_reference_follows_seed_step_cycles(direction: str, pips: int, steps: str) -> None:
    start = (8, 8) if direction != "E" else (1, 9)
    path = track_reference(start, direction, (pips,), level=2).path
    assert path is not None
    moves = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:], strict=False)]
    letters = {(0, -1): "N", (1, 0): "E", (0, 1): "S", (-1, 0): "W"}
    assert "".join(letters[m] for m in moves) == steps == "".join(path_steps(direction, pips))


def test_seed_damage_example_strong_two_hits_ends_on_region() -> None:
    # Strong typhoon passes Taiwan's coast at sea: 2 hits x 5, ends on Taiwan -> 11 (§8 D).
    for result in (track_reference((7, 4), "S", (2,), level=4), run_tracks(TrackInputs.from_lists([(7, 4)], ["S"], [(2,)]), level=4).result(0)):
        assert result.damage["Taiwan"] == 11
        assert result.fate == "survived" and result.final_level == 4


def test_landfall_weakens_and_removes() -> None:
    # 1 hit at sea, then the eye lands on Taiwan: 4 hits x 5 = 20, +1 still there = 21; 4 -> 3.
    strong = track_reference((8, 6), "W", (2,), level=4)
    assert strong.damage["Taiwan"] == 21 and strong.final_level == 3 and strong.fate == "survived"
    # the same move at level 1 (eye only): 1 hit x 2 when the eye lands, removed, no +1.
    weak = track_reference((8, 6), "W", (2,), level=1)
    assert weak.damage["Taiwan"] == 2 and weak.final_level == 0 and weak.fate == "landfall"
    batch = run_tracks(TrackInputs.from_lists([(8, 6)] * 2, ["W", "W"], [(2, 1), (1, 1)]), level=1)
    assert [FATES[f] for f in batch.fate] == ["landfall", "landfall"]
    assert batch.lifetime.tolist() == [1, 2]  # the second one reaches Taiwan on its 2nd move
    mild = run_tracks(TrackInputs.from_lists([(8, 6)], ["W"], [(2, 1)]), level=2).result(0)
    assert mild.fate == "survived" and mild.final_level == 1  # 2 -> 1, then the next move is at sea
    assert mild == track_reference((8, 6), "W", (2, 1), level=2)


def test_stay_bonus_uses_footprint_after_landfall() -> None:
    # Moderate (plus) storm crosses South China's coast onto other land at (3, 5): 4 hits x 4 on
    # South China, 1 x 4 on Central China. Landfall makes it mild (eye only) on a cell of no
    # region, so no +1 -- as in the engine's Game._finish_move, which checks after landfall.
    for result in (
        track_reference((5, 5), "W", (2,), level=3),
        run_tracks(TrackInputs.from_lists([(5, 5)], ["W"], [(2,)]), level=3).result(0),
    ):
        assert result.damage["South China"] == 16 and result.damage["Central China"] == 4
        assert result.final_level == 2 and result.fate == "survived"


def test_off_map_removal_keeps_earlier_hits() -> None:
    # Moderate storm steps next to the Philippines (1 hit x 4), then off the south edge.
    inputs = TrackInputs.from_lists([(8, 10), (15, 9)], ["S", "E"], [(2, 3), (1, 1)])
    batch = run_tracks(inputs, level=3)
    first, second = batch.result(0), batch.result(1)
    assert first.damage["Philippines"] == 4 and first.fate == "edge" and first.lifetime == 1
    assert second.fate == "edge" and second.lifetime == 1 and sum(second.damage.values()) == 0
    assert first == track_reference((8, 10), "S", (2, 3), level=3)


def test_damage_is_capped_at_region_hp() -> None:
    rng = np.random.default_rng(0)
    batch = run_tracks(draw_tracks(20_000, seed=rng, turns=12), level=5)
    hp = np.array([RULES.regions[r].hp for r in batch.regions])
    assert (batch.damage <= hp).all()


# ---------------------------------------------------------------- statistics and lessons


def test_probabilities_are_probabilities() -> None:
    stats = simulate_tracks(30_000, seed=4, level=4)
    assert stats.hit_probability.shape == (RULES.map.height, RULES.map.width)
    assert ((stats.hit_probability >= 0) & (stats.hit_probability <= 1)).all()
    assert all(0 <= p <= 1 for p in stats.region_hit_probability.values())
    assert sum(stats.fate_share.values()) == pytest.approx(1.0)
    assert stats.alive_fraction[0] == 1.0 and (np.diff(stats.alive_fraction) <= 0).all()
    assert 1 <= stats.mean_lifetime <= stats.turns
    with pytest.raises(ValueError):
        stats.hit_probability[0, 0] = 2.0
    with pytest.raises(TypeError):
        stats.expected_damage["Taiwan"] = 0.0  # type: ignore[index]


def test_spawn_cell_counts_as_covered() -> None:
    cells = [c for zone in RULES.map.zones for c in zone.cells]
    inputs = TrackInputs.from_lists(cells, ["E"] * len(cells), [(6, 6)] * len(cells))
    batch = run_tracks(inputs)
    for i, (x, y) in enumerate(cells):
        assert batch.covered[i, y, x]
    stats = simulate_tracks(20_000, seed=8, zones=[0])
    for x, y in RULES.map.zones[0].cells:  # each zone-0 cell is the spawn of 1/4 of the tracks
        assert stats.hit_probability[y, x] >= 0.23
    zone2 = RULES.map.zones[2].cells
    assert all(stats.hit_probability[y, x] < 0.23 for x, y in zone2)


def test_westward_ring_moves_risk_west() -> None:
    default = simulate_tracks(100_000, seed=11)
    west = simulate_tracks(100_000, seed=11, ring=WEST)
    for region in ("South China", "Central China", "Philippines"):
        gap = west.expected_damage[region] - default.expected_damage[region]
        assert gap > 5 * (west.expected_damage_se[region] + default.expected_damage_se[region]), region
    for region in ("Japan", "Korea"):
        assert west.expected_damage[region] < default.expected_damage[region], region
    # the risk map's centre of mass moves west
    cols = np.arange(RULES.map.width)
    assert (west.hit_probability.sum(0) @ cols) / west.hit_probability.sum() < (
        default.hit_probability.sum(0) @ cols
    ) / default.hit_probability.sum()


def test_spawn_zones_change_who_is_at_risk() -> None:
    near = simulate_tracks(50_000, seed=12, zones=[0])
    far = simulate_tracks(50_000, seed=12, zones=[2])
    assert near.expected_damage["Philippines"] > 2 * far.expected_damage["Philippines"]
    inputs = draw_tracks(5000, seed=3, zones=[1, 2])
    allowed = {c for z in (1, 2) for c in RULES.map.zones[z].cells}
    spawned = set(zip(inputs.x.tolist(), inputs.y.tolist(), strict=True))
    assert spawned == allowed  # every cell of the chosen zones is used, and nothing else


def test_ring_rolls_fresh_and_chained() -> None:
    fresh = draw_tracks(60_000, seed=13)
    share = np.bincount(fresh.direction, minlength=7) / len(fresh)
    assert share[RULES.ring.index("N")] == 0.0  # a die of 1-6 from N never comes back to N
    np.testing.assert_allclose(np.delete(share, 0), 1 / 6, atol=0.01)
    chained = draw_tracks(60_000, seed=13, ring_roll="chained")
    np.testing.assert_allclose(np.bincount(chained.direction, minlength=7) / len(chained), 1 / 7, atol=0.01)
    # chained: each direction is the previous one moved by a die of 1-6
    gaps = np.diff(np.concatenate([[0], chained.direction])) % 7
    assert set(gaps.tolist()) <= {1, 2, 3, 4, 5, 6}


def test_determinism() -> None:
    a = simulate_tracks(30_000, seed=5, chunk_size=7_000)
    b = simulate_tracks(30_000, seed=5, chunk_size=7_000, jobs=2)
    c = simulate_tracks(30_000, seed=6, chunk_size=7_000)
    assert np.array_equal(a.hit_probability, b.hit_probability)
    assert dict(a.expected_damage) == dict(b.expected_damage)
    assert dict(a.expected_damage_se) == dict(b.expected_damage_se)
    assert a.mean_lifetime == b.mean_lifetime and np.array_equal(a.alive_fraction, b.alive_fraction)
    assert not np.array_equal(a.hit_probability, c.hit_probability)
    # chunking changes the random stream, not the answer (beyond sampling noise)
    d = simulate_tracks(30_000, seed=5, chunk_size=30_000)
    for region, value in a.expected_damage.items():
        assert abs(value - d.expected_damage[region]) < 6 * a.expected_damage_se[region] + 1e-9


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 0}, r"n \(the number of tracks\) must be a whole number 1 or more; got 0"),
        ({"n": -5}, r"got -5"),
        ({"n": 2.5}, r"whole number"),
        ({"n": True}, r"whole number"),
        ({"ring": ["N", "XYZ"]}, r"unknown ring stop 'XYZ'; a ring stop is one of the 16 compass points"),
        ({"ring": "WSW"}, r"not the string 'WSW'"),
        ({"ring": []}, r"at least one stop"),
        ({"zones": [3]}, r"unknown zone index 3; zones are 0-based indices into rules.map.zones: 0 to 2"),
        ({"zones": [-1]}, r"unknown zone index -1"),
        ({"zones": []}, r"at least one generation zone"),
        ({"zones": 1}, r"list of zone indices"),
        ({"level": 0}, r"level must be a whole number 1 to 5"),
        ({"level": 6}, r"level must be a whole number 1 to 5"),
        ({"turns": 0}, r"turns must be a whole number 1 or more"),
        ({"ring_roll": "sticky"}, r"ring_roll must be 'fresh' or 'chained'"),
        ({"chunk_size": 0}, r"chunk_size"),
        ({"jobs": 0}, r"jobs"),
    ],
)
def test_bad_input_raises_value_error(kwargs: dict[str, object], message: str) -> None:
    args = {"n": 10, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        simulate_tracks(**args)  # type: ignore[arg-type]


def test_bad_tracks_raise_value_error() -> None:
    with pytest.raises(ValueError, match="dice must be whole numbers 1 to 6"):
        run_tracks(TrackInputs.from_lists([(8, 8)], ["N"], [(0, 3)]))
    with pytest.raises(ValueError, match=r"spawns on \(16, 0\), off the 16 x 12 map"):
        run_tracks(TrackInputs.from_lists([(16, 0)], ["N"], [(3,)]))
    with pytest.raises(ValueError, match="unknown direction 'UP'"):
        run_tracks(TrackInputs.from_lists([(8, 8)], ["UP"], [(3,)]))
    with pytest.raises(ValueError, match="unknown direction 'UP'"):
        track_reference((8, 8), "UP", (3,))
    with pytest.raises(ValueError, match="off the 16 x 12 map"):
        track_reference((-1, 8), "N", (3,))
    with pytest.raises(ValueError, match="dice must be whole numbers 1 to 6"):
        track_reference((8, 8), "N", (7,))
    with pytest.raises(ValueError, match="one of each per track"):
        TrackInputs.from_lists([(8, 8)], ["N", "E"], [(1,)])
