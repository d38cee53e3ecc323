"""map.toml's [geo] is checked when the edition loads: the lessons place the grid on a real map with it.

A cell (x, y) lies at longitude lon0 + lon_step * x and latitude lat0 - lat_step * y and measures km_per_cell km
(typhoon_edu/ui/lessons/pathing.py, bank.py, ui/realmap.py, realdata/stats.py). A missing field was a KeyError in a
lesson, and nan or inf (TOML allows both) turned every distance and position into nan; both are refused at load
time, naming map.toml, [geo] and the field."""

from __future__ import annotations

import re
import shutil

import pytest
from test_rules_digest import SHIPPED_RULES_DIGEST

from typhoon_edu import RulesDataError, load_rules
from typhoon_edu.engine.rules import DATA_DIR, GEO_FIELDS

SHIPPED_GEO = {"lon0": 103.0, "lon_step": 3.5, "lat0": 43.0, "lat_step": 3.3, "km_per_cell": 360}


@pytest.fixture
def data(tmp_path):
    folder = tmp_path / "edition"
    shutil.copytree(DATA_DIR, folder)
    return folder


def _set_geo(folder, key: str, value: str | None) -> None:
    """Write ``key = value`` in map.toml's [geo] (``None``: remove the line)."""
    path = folder / "map.toml"
    text = path.read_text(encoding="utf-8")
    line = "" if value is None else rf"{key} = {value}\n"
    new, n = re.subn(rf"(?m)^{key} = [^\n]*\n", line, text, count=1)
    assert n == 1, f"map.toml has no line '{key} = …': the test needs updating"
    path.write_text(new, encoding="utf-8")


def refused(folder) -> RulesDataError:
    with pytest.raises(RulesDataError) as info:
        load_rules(folder)
    assert (info.value.file, info.value.entry) == ("map.toml", "geo"), str(info.value)
    return info.value


def test_the_shipped_geo_loads_unchanged_and_keeps_the_digest(data):
    for rules in (load_rules(), load_rules(data)):
        assert dict(rules.map.geo) == SHIPPED_GEO
        assert rules.digest == SHIPPED_RULES_DIGEST


@pytest.mark.parametrize("key", GEO_FIELDS)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
def test_nan_and_infinity_are_refused(data, key, value):
    _set_geo(data, key, value)
    err = refused(data)
    assert f"'{key}' must be a finite number" in err.rule


@pytest.mark.parametrize("key", GEO_FIELDS)
def test_each_field_the_lessons_read_is_required(data, key):
    _set_geo(data, key, None)
    err = refused(data)
    assert f"[geo] has no {key};" in err.rule
    assert all(field in err.rule for field in GEO_FIELDS)  # and says what the fields are for


def test_every_missing_field_is_named_and_a_misspelt_one_is_pointed_out(data):
    _set_geo(data, "lat_step", None)
    _set_geo(data, "km_per_cell", None)
    _set_geo(data, "lon_step", "3.5\nlat_stpe = 3.3")
    err = refused(data)
    assert err.rule.startswith("[geo] has no lat_step or km_per_cell (is 'lat_stpe' meant to be 'lat_step'?)")


def test_a_map_without_geo_is_refused(data):
    path = data / "map.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("[geo]")
    path.write_text(text[:start] + text[text.index("[[zones]]", start):], encoding="utf-8")
    assert "the table [geo] is missing" in refused(data).rule


@pytest.mark.parametrize(("key", "value"), [
    ("lon_step", "0"), ("lon_step", "-3.5"), ("lat_step", "0.0"), ("lat_step", "-3.3"), ("km_per_cell", "0"),
    ("km_per_cell", "-360"),
])
def test_steps_and_the_scale_must_be_more_than_zero(data, key, value):
    _set_geo(data, key, value)
    assert f"'{key}' must be more than 0" in refused(data).rule


@pytest.mark.parametrize("value", ["0.5", "357.5"])
def test_the_scale_is_whole_kilometres(data, value):
    """The lessons show km_per_cell as whole km (int() in pathing.km_per_cell): 0.5 would be a scale of 0 km."""
    _set_geo(data, "km_per_cell", value)
    assert "'km_per_cell' is a whole number of kilometres, at least 1" in refused(data).rule


def test_a_whole_scale_written_as_a_decimal_is_fine(data):
    _set_geo(data, "km_per_cell", "360.0")
    assert load_rules(data).map.geo["km_per_cell"] == 360


@pytest.mark.parametrize(("key", "value", "words"), [
    ("lat0", "90.5", "'lat0' must be from -90 to 90 (degrees north); got 90.5"),
    ("lat0", "-91", "'lat0' must be from -90 to 90 (degrees north); got -91"),
    ("lat0", "-60.0", "the last row (y = 11) would lie at latitude lat0 - lat_step * 11 = -96.3, south of -90"),
    ("lon0", "-180.5", "'lon0' must be from -180 to 360 (degrees east); got -180.5"),
    ("lon0", "361", "'lon0' must be from -180 to 360 (degrees east); got 361"),
    ("lon0", "320.0", "the last column (x = 15) would lie at longitude lon0 + lon_step * 15 = 372.5, east of 360"),
])
def test_every_cell_centre_lies_on_the_globe(data, key, value, words):
    _set_geo(data, key, value)
    assert words in refused(data).rule


@pytest.mark.parametrize(("key", "value"), [("lat0", "90"), ("lat0", "-53.7"), ("lon0", "-180"), ("lon0", "307.5")])
def test_the_ends_of_the_ranges_are_allowed(data, key, value):
    """lat0 = -53.7 puts the last row at -90.0 exactly, lon0 = 307.5 the last column at 360."""
    _set_geo(data, key, value)
    assert load_rules(data).map.geo[key] == float(value)
