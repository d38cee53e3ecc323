"""Lesson 07: guesses on one place ("it stalls there") each stay readable on the map.

A student who puts the 48 h and 72 h guesses on the same spot used to see one circle, the number drawn last on top:
the map said "72" where the student had placed two guesses. Now markers closer than about a marker apart are spread
on a small ring around their place, each tied to it by a short line from a dot on the place itself.
"""

from __future__ import annotations

import math

import pytest

from typhoon_edu.realdata.forecast_cases import LEADS, Case, forecast_cases
from typhoon_edu.ui.lessons import forecast as fw
from typhoon_edu.ui.realmap import PHONE_MIN_TEXT
from typhoon_edu.ui.scene import Circle, Line, Text

DRAWINGS = {"usual": 0.0, "phone": PHONE_MIN_TEXT}


def _stacks(case: Case) -> dict[str, dict[int, tuple[float, float]]]:
    t = {h: (case.truth[h].lat, case.truth[h].lon) for h in LEADS}
    return {"all-three": {h: t[48] for h in LEADS},
            "last-two": {24: t[24], 48: t[72], 72: t[72]},
            "a-hair-apart": {h: (t[48][0] + 0.01 * k, t[48][1]) for k, h in enumerate(LEADS)},
            # it stalls, then moves a little: the third just outside the first two's group, near their ring
            **{f"stall-then-{px}-px-east": {24: t[48], 48: t[48], 72: _east_of(case, t[48], px)}
               for px in range(20, 68, 4)}}


def _east_of(case: Case, place: tuple[float, float], px: float) -> tuple[float, float]:
    """The place ``px`` canvas pixels east of ``place`` on the case's map."""
    proj = fw.case_projection(case)
    x, y = proj.xy(place[1], place[0])
    lon, lat = proj.lonlat(x + px, y)
    return (lat, lon)


@pytest.mark.parametrize("revealed", [False, True])
@pytest.mark.parametrize("drawing", list(DRAWINGS))
def test_every_guess_number_shows_when_guesses_share_a_place(drawing: str, revealed: bool) -> None:
    checked = 0
    for case in forecast_cases():
        for name, guesses in _stacks(case).items():
            rnd = fw.ForecastRound(case, "en")
            for h in LEADS:
                rnd.place(*guesses[h], lead=h)
            if revealed:
                rnd.reveal()
            shapes = fw.forecast_scene(rnd, min_text=DRAWINGS[drawing])
            circles = {s.key: s for s in shapes if s.role == "guess"}
            assert sorted(circles) == sorted(map(str, LEADS)), (case.key, name)
            where = f"{case.key}/{name} ({drawing}, {'after' if revealed else 'before'} the reveal)"
            keys = sorted(circles)
            for i, a in enumerate(keys):
                for b in keys[i + 1:]:
                    ca, cb = circles[a], circles[b]
                    gap = math.hypot(ca.cx - cb.cx, ca.cy - cb.cy) - ca.r - cb.r
                    assert gap >= 0, f"{where}: the {a} h and {b} h guesses overlap by {-gap:.1f} px"
            for h in LEADS:
                c = circles[str(h)]
                label = next(s for s in shapes if s.role == "guess-label" and s.key == str(h))
                assert isinstance(label, Text) and (label.x, label.y) == (c.cx, c.cy), where
                lat, lon = rnd.guesses[h]  # as placed (rounded)
                px, py = rnd.proj.xy(lon, lat)
                ties = [s for s in shapes if s.role == "guess-tie" and s.key == str(h)]
                dots = [s for s in shapes if s.role == "guess-spot" and s.key == str(h)]
                if math.hypot(px - c.cx, py - c.cy) < 0.5:
                    assert not ties and not dots, f"{where}: a tie for the {h} h guess that did not move"
                    continue
                assert len(ties) == 1 and len(dots) == 1, f"{where}: the {h} h guess moved with no tie to its place"
                tie, dot = ties[0], dots[0]
                assert isinstance(tie, Line) and isinstance(dot, Circle)
                (ax, ay), (bx, by) = tie.points
                assert (round(ax, 3), round(ay, 3)) == (round(px, 3), round(py, 3))
                assert (dot.cx, dot.cy) == tie.points[0]
                assert math.hypot(bx - c.cx, by - c.cy) == pytest.approx(c.r, abs=0.01)
            checked += 1
    assert checked == 15 * len(forecast_cases())


def test_guesses_apart_stay_on_their_places() -> None:
    case = forecast_cases()[0]
    rnd = fw.ForecastRound(case, "en")
    for h in LEADS:
        rnd.place(case.truth[h].lat, case.truth[h].lon, lead=h)  # the truths are 40 px or more apart
    shapes = fw.forecast_scene(rnd)
    for h in LEADS:
        c = next(s for s in shapes if s.role == "guess" and s.key == str(h))
        x, y = rnd.proj.xy(case.truth[h].lon, case.truth[h].lat)
        assert (c.cx, c.cy) == (x, y)
    assert not [s for s in shapes if s.role in ("guess-tie", "guess-spot")]
