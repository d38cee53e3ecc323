"""The JMA best-track reader, the GeoJSON outline reader, and the statistics lesson 06 runs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from typhoon_edu.realdata import jma, outlines, stats

SOUDELOR_HEADER = "66666 1513  059 0013 1513 0 6             SOUDELOR              20150925"
LINE = "15080300 002 5 162 1440  940     090     90070 0070 90150 0150"


def test_the_shipped_files_are_the_shared_extracts_with_their_counts():
    storms = jma.all_storms()
    assert len(storms) == 169
    assert sum(len(s.fixes) for s in storms) == 6154
    assert storms[0].name == "MEKKHALA" and storms[-1].number == "2108"
    selected = jma.selected_storms()
    assert [s.number for s in selected] == ["1513", "1601", "1614", "1617", "1713", "1821", "1822", "1909", "1919",
                                            "2009", "2010", "2019", "2106"]
    assert sum(len(s.fixes) for s in selected) == 619
    # the extract holds the very same lines as the full file
    full = {s.number: s for s in storms}
    for s in selected:
        assert s.fixes == full[s.number].fixes


def test_peaks_match_the_data_readme():
    peaks = {s.name: (s.min_pressure, s.max_wind_kt) for s in jma.selected_storms()}
    assert peaks["SOUDELOR"] == (900, 115) and peaks["MERANTI"] == (890, 120) and peaks["MEGI"] == (945, 85)
    assert peaks["IN-FA"] == (950, 85)


def test_data_line_columns_grades_radii_and_missing_values():
    f = jma.parse_data_line(LINE)
    assert (f.time.year, f.time.month, f.time.day, f.time.hour) == (2015, 8, 3, 0)
    assert (f.grade, f.lat, f.lon, f.pressure, f.wind_kt) == (5, 16.2, 144.0, 940, 90)
    assert f.r50 == jma.WindRadius("symmetric", 70, 70) and f.r30.longest_nm == 150
    assert f.r30.longest_km == pytest.approx(277.8)
    depression = jma.parse_data_line("15011300 002 2 087 1429 1006     000")
    assert depression.wind_kt is None and depression.r30 is None and depression.r50 is None
    no_gale = jma.parse_data_line("15011312 002 3 086 1417 1002     035     00000 0000 80210 0150")
    assert no_gale.r50 is None and no_gale.r30 == jma.WindRadius("N", 210, 150)
    landfall = jma.parse_data_line("15071614 002 5 334 1341  965     065     90100 0100 90300 0300         #")
    assert landfall.japan_landfall and not landfall.synoptic
    past_dateline = jma.parse_data_line("15071218 002 7 126 1807  990     050     00000 0000 90070 0070")
    assert past_dateline.lon == 180.7 and past_dateline.grade == 7


@pytest.mark.parametrize(("line", "says"), [
    ("15080300 002 5 162 1440  940", "at least 36 characters"),
    ("15080300 003 5 162 1440  940     090", "indicator 002"),
    ("15080300 002 8 162 1440  940     090", "grade 8 is not one of JMA's grades"),
    ("15083200 002 5 162 1440  940     090", "not a valid time"),
    ("15080300 002 5 162 14a0  940     090", "longitude (columns 20–23)"),
    ("15080300 002 5 162 1440  240     090", "outside 850–1030 hPa"),
    ("15080300 002 5 950 1440  940     090", "latitude of 95.0°N (columns 16–18) is not on the Earth"),
    ("15080300 002 5 162 9999  940     090", "longitude of 999.9°E (columns 20–23) is beyond 360°E"),
    ("15080300 002 5 162 1440  940     090     90070 0080 90150 0150", "shortest 50-kt radius (80 nm) is longer"),
    ("15080300 002 5 162 1440  940     090     90070 0070 9015", "need columns 42–62"),
])
def test_malformed_data_lines_are_named(line, says):
    with pytest.raises(jma.BestTrackError, match="line 7") as info:
        jma.parse_data_line(line, "x.txt, line 7")
    assert says in str(info.value)


def test_a_storm_whose_line_count_differs_from_its_header_is_refused(tmp_path: Path):
    text = jma.SELECTED_FILE.read_text().splitlines()
    del text[5]  # a data line of Soudelor
    bad = tmp_path / "short.txt"
    bad.write_text("\n".join(text))
    with pytest.raises(jma.BestTrackError, match=r"short.txt, line 1: the header of 1513 says 59 data lines follow, but the file has 58"):
        jma.read_best_tracks(bad)


@pytest.mark.parametrize(("content", "says"), [
    ("", "no storm found"),
    ("hello world\n", "line 1: the file should start with a storm's header"),
    (SOUDELOR_HEADER.replace("1513  059", "15x3  059") + "\n", "4 digits YYNN"),
    ("66666 1513 059\n", "a header line has 9 fields"),
    (SOUDELOR_HEADER.replace("059", "001") + "\n" + LINE + "\nnot a line\n", "line 3: expected a data line"),
    (SOUDELOR_HEADER.replace("059", "002") + "\n" + LINE + "\n" + LINE + "\n", "line 3: the time 2015-08-03 00 UTC is not after"),
])
def test_a_wrong_file_gets_a_clear_error(tmp_path: Path, content, says):
    path = tmp_path / "wrong.txt"
    path.write_text(content)
    with pytest.raises(jma.BestTrackError) as info:
        jma.read_best_tracks(path)
    assert says in str(info.value) and "wrong.txt" in str(info.value)


def test_a_binary_or_json_file_is_not_read_as_tracks(tmp_path: Path):
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(jma.BestTrackError, match="not a text file"):
        jma.read_best_tracks(path)
    with pytest.raises(jma.BestTrackError, match="header"):
        jma.read_best_tracks(outlines.OUTLINES_FILE)


@pytest.mark.parametrize("where", ["folder", "missing"])
def test_a_folder_or_a_missing_file_is_a_best_track_error(tmp_path: Path, where: str):
    path = tmp_path if where == "folder" else tmp_path / "nowhere.txt"
    with pytest.raises(jma.BestTrackError, match="cannot be read"):
        jma.read_best_tracks(path)


def test_crlf_line_endings_read_the_same(tmp_path: Path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(jma.SELECTED_FILE.read_bytes().replace(b"\n", b"\r\n"))
    assert [s.fixes for s in jma.read_best_tracks(path)] == [s.fixes for s in jma.selected_storms()]


def test_find_storm():
    assert jma.find_storm("Nepartak").number == "1601"  # the extract's Nepartak, not 2108
    assert jma.find_storm("Megi 2016").title == "Megi 2016"
    with pytest.raises(ValueError, match="Soudelor 2015"):
        jma.find_storm("Morakot")


# --- outlines ----------------------------------------------------------------------------------


def test_outline_file_has_the_regions_countries():
    c = outlines.countries()
    for name in ("China", "Taiwan", "Japan", "South Korea", "North Korea", "Philippines", "Vietnam"):
        assert name in c
    west, south, east, north = c["Japan"].bounds
    assert 128 < west < 131 and 30 < south < 32 and 144 < east < 147 and 44 < north < 46


@pytest.mark.parametrize(("data", "says"), [
    ({"type": "Feature"}, "FeatureCollection"),
    ({"type": "FeatureCollection", "features": [{"properties": {"name": "X"}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1]]]}}]},
     "at least 3"),
    ({"type": "FeatureCollection", "features": [{"properties": {"name": "X"}, "geometry": {"type": "Polygon", "coordinates": [[[0, 100], [1, 1], [2, 2]]]}}]},
     "swapped"),
    ({"type": "FeatureCollection", "features": [{"properties": {"name": "X"}, "geometry": {"type": "LineString", "coordinates": []}}]},
     "not a Polygon"),
])
def test_bad_geojson_is_named(tmp_path: Path, data, says):
    path = tmp_path / "bad.geojson"
    path.write_text(json.dumps(data))
    with pytest.raises(outlines.OutlineError, match="bad.geojson") as info:
        outlines.read_outlines(path)
    assert says in str(info.value)
    path.write_text("{not json")
    with pytest.raises(outlines.OutlineError, match="not valid JSON"):
        outlines.read_outlines(path)


# --- statistics ---------------------------------------------------------------------------------


def test_bearings_and_points():
    assert stats.bearing_point(np.array([0, 44, 46, 90, 180, 269, 316])).tolist() == [0, 1, 1, 2, 4, 6, 7]
    one = jma.Storm("9901", "T", "0001", 0, 0, "", (
        jma.parse_data_line("99010100 002 2 100 1400 1000     000"),
        jma.parse_data_line("99010106 002 2 100 1390 1000     000"),  # 1 degree west
        jma.parse_data_line("99010109 002 2 100 1390 1000     000"),  # a 3-hourly line: not a 6-hour step
        jma.parse_data_line("99010112 002 2 110 1390 1000     000"),  # 1 degree north
        jma.parse_data_line("99010118 002 2 110 1390 1000     000"),  # no motion: left out
    ))
    assert stats.motion_bearings([one]).round(6).tolist() == [270.0, 0.0]
    assert stats.motion_counts([one]) == {"N": 1, "NE": 0, "E": 0, "SE": 0, "S": 0, "SW": 0, "W": 1, "NW": 0}


def test_real_motion_shares_over_all_169_storms():
    shares = stats.motion_shares(jma.all_storms())
    assert sum(shares.values()) == pytest.approx(1.0)
    # like the 1980–2025 IBTrACS figures of lessons 01 and 05: about 6 in 10 steps go west or north-west
    assert 0.5 < shares["W"] + shares["NW"] < 0.65
    assert shares["W"] > shares["N"] > shares["E"] > shares["S"]
    assert sum(stats.motion_counts(jma.all_storms()).values()) > 5000


def test_ring_shares_and_distance():
    game = stats.ring_shares(("N", "NNE", "NE", "E", "WSW", "WNW", "NNW"))
    assert sum(game.values()) == pytest.approx(1.0) and game["N"] == pytest.approx(2 / 7)
    assert stats.share_distance(game, game) == 0
    with pytest.raises(ValueError, match="16 compass points"):
        stats.ring_shares(("X",))
    with pytest.raises(ValueError, match="at least one"):
        stats.ring_shares(())


def test_cwa_classes_from_the_ten_minute_wind():
    # the lesson 03 classes: <= 17.1 m/s, 17.2-32.6, 32.7-50.9, >= 51.0
    assert [stats.cwa_class(k) for k in (None, 30, 35, 60, 65, 95, 100, 120)] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert stats.cwa_class(50, grade=6) == 0


def test_cells_follow_map_md():
    assert stats.nearest_cell(103.0, 43.0) == (0, 0)
    assert stats.nearest_cell(103 + 3.5 * 6, 43 - 3.3 * 6) == (6, 6)
    assert stats.nearest_cell(90.0, 20.0) is None
    cells = stats.storm_cells(jma.find_storm("Meranti").six_hourly())
    assert all(a != b for a, b in zip(cells, cells[1:], strict=False))


def test_distances_to_places():
    p = stats.places()
    taipei = stats.distance_km(np.array([121.5]), np.array([25.0]), p["Taiwan"])
    assert taipei[0] == 0.0
    manila_from_taiwan = stats.distance_km(np.array([121.0]), np.array([14.6]), p["Taiwan"])
    assert 800 < manila_from_taiwan[0] < 1000
    assert stats.distance_km(np.array([121.0]), np.array([14.6]), p["Philippines"])[0] == 0.0
    # Hainan (19 °N) is not South China's place, Guangzhou (23.1 °N) is
    assert stats.distance_km(np.array([113.3]), np.array([23.1]), p["South China"])[0] == 0.0


def test_region_reach_grows_with_distance_and_ranks():
    storms = jma.all_storms()
    near, far = stats.region_reach(storms, 100), stats.region_reach(storms, 300)
    for key in near:
        assert set(near[key].storms) <= set(far[key].storms)
    assert "1513" in near["Taiwan"].storms  # Soudelor crossed Taiwan
    ranking = stats.reach_ranking(stats.region_reach(storms, 200))
    assert ranking[0] == "Philippines" and set(ranking) == set(stats.places())
    with pytest.raises(ValueError, match="0 km or more"):
        stats.region_reach(storms, -5)


def test_taiwan_storms_weakened_across_the_mountains():
    taiwan = stats.places()["Taiwan"]
    for name in ("Soudelor", "Nepartak", "Meranti", "Megi"):
        c = stats.pressure_change(jma.find_storm(name), taiwan)
        assert c.rise > 0 and c.closest_km < 60, (name, c)
        assert (c.after.time - c.before.time).total_seconds() == 24 * 3600
