"""Lesson 07's forecast map after the reveal: each guess's error label ("108 km") and the storms' names inside the
map, clear of every marker (the guesses, the truth's diamonds, the teams' guesses, the track's dots, the storm now,
the other storm's) and of each other, in the usual drawing and the phone's, in both languages.

Checked over many generated forecasts: every case of the lesson × guesses on the truth, near it, far from it, at each
edge and corner of the map, and three guesses clustered (on the storm now, on a truth, between the truths).

Before the fix, a label sat beyond the truth on the side away from the guess: with guesses close together it could
sit under another lead's truth diamond (both drawings), and on the phone's drawing a right-aligned label near the
west edge ran past it ("270 km" at x < 0).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from typhoon_edu import i18n
from typhoon_edu.realdata.forecast_cases import LEADS, Case, forecast_cases
from typhoon_edu.ui.lessons import forecast as fw
from typhoon_edu.ui.map_text import Box, overlaps, text_box
from typhoon_edu.ui.realmap import PHONE_MIN_TEXT
from typhoon_edu.ui.scene import Circle, Line, Polygon, Shape, Text

LatLon = tuple[float, float]
#: The drawn marks a label must keep off.
MARKERS = {"guess", "truth-mark", "team-guess", "fix", "now", "now-class", "partner-fix", "partner-now"}
#: The texts placed beside something (the numbers inside the markers belong to them).
LABELS = {"error-km", "storm-name", "partner-name"}
DRAWINGS = {"usual": 0.0, "phone": PHONE_MIN_TEXT}


def _clamp(proj: fw.Projection, lat: float, lon: float) -> LatLon:
    return (round(min(max(lat, proj.south), proj.north), 2), round(min(max(lon, proj.west), proj.east), 2))


def _spreads(case: Case) -> Iterator[tuple[str, dict[int, LatLon], dict[str, dict[int, LatLon]]]]:
    """``(name, guesses, teams)``: the forecasts a class may well make of ``case``, and some it may not."""
    proj = fw.case_projection(case)
    t = {h: (case.truth[h].lat, case.truth[h].lon) for h in LEADS}
    now = (case.now.lat, case.now.lon)

    def off(dlat: float, dlon: float) -> dict[int, LatLon]:
        return {h: _clamp(proj, t[h][0] + dlat, t[h][1] + dlon) for h in LEADS}

    yield "exact", off(0, 0), {}
    for dlat, dlon in ((0.3, 0.3), (-0.4, 0.2), (0.5, -0.5), (-0.2, -0.6)):
        yield f"near{dlat:+}{dlon:+}", off(dlat, dlon), {}
    for dlat, dlon in ((3, 0), (-3, 0), (0, 3), (0, -3), (2.5, 2.5), (-2.5, -2.5)):
        yield f"far{dlat:+}{dlon:+}", off(dlat, dlon), {}
    yield "one-degree-two-teams", off(1, 1), {"Owls": off(1.5, -1), "Bats": off(-1, 1.5)}
    # at each edge (each guess keeps its truth's other coordinate) and in each corner (a little apart)
    for edge, fix in (("west", lambda la, lo: (la, proj.west)), ("east", lambda la, lo: (la, proj.east)),
                      ("north", lambda la, lo: (proj.north, lo)), ("south", lambda la, lo: (proj.south, lo))):
        yield f"edge-{edge}", {h: _clamp(proj, *fix(*t[h])) for h in LEADS}, {}
    for ns in ("north", "south"):
        for ew in ("west", "east"):
            lat, lon = getattr(proj, ns), getattr(proj, ew)
            step_lat, step_lon = (-0.8 if ns == "north" else 0.8), (0.8 if ew == "west" else -0.8)
            yield f"corner-{ns}{ew}", {h: _clamp(proj, lat + k * step_lat, lon + k * step_lon)
                                       for k, h in enumerate(LEADS)}, {}
    # three guesses clustered: on the storm now, on a truth, between the truths
    mid = (sum(p[0] for p in t.values()) / 3, sum(p[1] for p in t.values()) / 3)
    for name, (lat, lon) in (("now", now), ("truth24", t[24]), ("truth48", t[48]), ("truth72", t[72]), ("between", mid)):
        yield f"cluster-{name}", {h: _clamp(proj, lat + 0.15 * k, lon - 0.1 * k) for k, h in enumerate(LEADS)}, {}
    # each guess on the next lead's truth (the guesses close together, each under another's diamond)
    yield "one-lead-late", {24: t[48], 48: t[72], 72: _clamp(proj, 2 * t[72][0] - t[48][0], 2 * t[72][1] - t[48][1])}, {}
    yield "one-lead-early", {24: now, 48: t[24], 72: t[48]}, {}


def _revealed(case: Case, lang: str, guesses: dict[int, LatLon]) -> fw.ForecastRound:
    rnd = fw.ForecastRound(case, lang)
    for h in LEADS:
        rnd.place(*guesses[h], lead=h)
    rnd.reveal()
    return rnd


def _on_marker(box: Box, marker: Shape) -> bool:
    """Whether a text's box covers part of a marker: a circle, or the truth's diamond (exactly, not its bounds)."""
    if isinstance(marker, Circle):
        cx, cy, r, round_ = marker.cx, marker.cy, marker.r, True
    else:
        assert isinstance(marker, Polygon), marker
        xs, ys = [p[0] for p in marker.points], [p[1] for p in marker.points]
        cx, cy, r, round_ = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, (max(xs) - min(xs)) / 2, False
    dx = max(box[0] - cx, 0.0, cx - box[2])
    dy = max(box[1] - cy, 0.0, cy - box[3])
    return (math.hypot(dx, dy) if round_ else dx + dy) < r - 1e-6


def _problems(shapes: list[Shape], width: float, height: float) -> dict[str, list[str]]:
    """What is wrong with the labels of one drawing: ``{"outside": [...], "marker": [...], "labels": [...]}``."""
    labels = [s for s in shapes if isinstance(s, Text) and s.role in LABELS]
    markers = [s for s in shapes if s.role in MARKERS and isinstance(s, (Circle, Polygon))]
    out: dict[str, list[str]] = {"outside": [], "marker": [], "labels": []}
    for t in labels:
        x0, y0, x1, y1 = text_box(t)
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            out["outside"].append(f"{t.role} {t.text!r} at ({x0:.0f}, {y0:.0f}, {x1:.0f}, {y1:.0f})")
        for m in markers:
            if _on_marker(text_box(t), m):
                out["marker"].append(f"{t.role} {t.text!r} on {m.role} {m.key}")
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if overlaps(text_box(a), text_box(b)):
                out["labels"].append(f"{a.role} {a.text!r} on {b.role} {b.text!r}")
    return out


def _situations() -> Iterator[tuple[str, Case, dict[int, LatLon], dict[str, dict[int, LatLon]]]]:
    for case in forecast_cases():
        for name, guesses, teams in _spreads(case):
            yield f"{case.key}/{name}", case, guesses, teams


@pytest.mark.parametrize("drawing", list(DRAWINGS))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_label_is_inside_the_map_and_clear_of_the_markers(lang: str, drawing: str) -> None:
    found: dict[str, list[str]] = {"outside": [], "marker": [], "labels": []}
    count = 0
    for name, case, guesses, teams in _situations():
        rnd = _revealed(case, lang, guesses)
        shapes = fw.forecast_scene(rnd, teams, min_text=DRAWINGS[drawing])
        assert sum(1 for s in shapes if s.role == "error-km") == len(LEADS)
        for kind, problems in _problems(shapes, rnd.proj.width, rnd.proj.height).items():
            found[kind] += [f"{name}: {p}" for p in problems]
        count += 1
    assert count >= 4 * 25
    assert not found["outside"], f"labels past the map's edge ({lang}, {drawing}): {found['outside']}"
    assert not found["marker"], f"labels on a marker ({lang}, {drawing}): {found['marker']}"
    assert not found["labels"], f"labels on each other ({lang}, {drawing}): {found['labels']}"


@pytest.mark.parametrize("drawing", list(DRAWINGS))
def test_a_label_that_moved_away_from_its_guess_is_tied_to_it(drawing: str) -> None:
    """Each error label stays by its own guess: its box is near the guess's circle, or a leader line in the error's
    colour joins them (starting at the circle, ending at the box)."""
    far, ordinary = 0, 0
    for name, case, guesses, teams in _situations():
        rnd = _revealed(case, "en", guesses)
        shapes = fw.forecast_scene(rnd, teams, min_text=DRAWINGS[drawing])
        for h in LEADS:
            label = next(s for s in shapes if s.role == "error-km" and s.key == str(h))
            guess = next(s for s in shapes if s.role == "guess" and s.key == str(h))
            assert isinstance(label, Text) and isinstance(guess, Circle)
            gap = _gap(text_box(label), guess.cx, guess.cy) - guess.r
            leaders = [s for s in shapes if s.role == "error-leader" and s.key == str(h)]
            if gap <= label.size * 0.75:
                assert not leaders, f"{name} {drawing}: a leader line for a label beside its guess"
                continue
            far += 1
            ordinary += name.split("/")[1].startswith(("exact", "near", "far", "one-degree"))
            assert len(leaders) == 1, f"{name} {drawing}: the {h} h label is {gap:.0f} px from its guess, no leader"
            leader = leaders[0]
            assert isinstance(leader, Line) and leader.stroke == fw.ERROR_COLOUR
            (ax, ay), (bx, by) = leader.points[0], leader.points[-1]
            assert math.hypot(ax - guess.cx, ay - guess.cy) == pytest.approx(guess.r, abs=1.0)
            assert _gap(text_box(label), bx, by) <= 2.0, f"{name} {drawing}: the leader stops short of the label"
    # the forecasts a class makes (not the corners and clusters): nearly every label beside its guess
    labels = 3 * sum(1 for name, *_ in _situations() if name.split("/")[1].startswith(("exact", "near", "far", "one-d")))
    assert ordinary <= 0.1 * labels, f"most labels should sit beside their guess: {ordinary} of {labels} moved out"


def _gap(box: Box, x: float, y: float) -> float:
    """How far the point ``(x, y)`` is from ``box`` (0 inside it)."""
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def test_the_labels_follow_the_guesses_only() -> None:
    """The placement is the same for the same forecast (deterministic), and before the reveal the storm's name does not
    move with where the truth will be (no hint)."""
    case = forecast_cases()[0]
    guesses = next(g for n, g, _ in _spreads(case) if n == "cluster-truth48")
    a = fw.forecast_scene(_revealed(case, "en", guesses), min_text=PHONE_MIN_TEXT)
    b = fw.forecast_scene(_revealed(case, "en", guesses), min_text=PHONE_MIN_TEXT)
    assert a == b
    for c in forecast_cases():
        rnd = fw.ForecastRound(c, "en")
        name = next(s for s in fw.forecast_scene(rnd) if s.role == "storm-name")
        moved = replace_truth(c)
        assert next(s for s in fw.forecast_scene(fw.ForecastRound(moved, "en")) if s.role == "storm-name") == name


def replace_truth(case: Case) -> Case:
    """``case`` with its truth put somewhere else (right on the storm now)."""
    from dataclasses import replace

    return replace(case, truth={h: case.now for h in LEADS})
