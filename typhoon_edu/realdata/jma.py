"""A reader for the Japan Meteorological Agency's best-track format (RSMC Tokyo – Typhoon Center).

A best-track file is a list of storms. Each storm is a **header line** (whitespace-separated
fields: ``66666``, the international number, the number of data lines that follow, …, the name,
the date of the latest revision) followed by exactly that many **data lines** in fixed columns:
time (YYMMDDHH, UTC), ``002``, grade, latitude and longitude in tenths of a degree, central
pressure (hPa), maximum sustained 10-minute wind (knots, ``000`` = no value), and, when the storm
is of tropical-storm strength, the longest and shortest 50-kt and 30-kt wind radii (nautical
miles) with the direction of the longest.

The data ship with the package (``typhoon_edu/data/real/``; credit: RSMC Tokyo – Typhoon Center
best track data, Japan Meteorological Agency). A malformed file raises :class:`BestTrackError`
naming the file, the line and what was expected, so a wrong data file is never read silently.

>>> storms = read_best_tracks(SELECTED_FILE)
>>> len(storms), storms[0].name, storms[0].number, len(storms[0].fixes)
(13, 'SOUDELOR', '1513', 59)
>>> fix = storms[0].fixes[17]
>>> fix.time.isoformat(), fix.lat, fix.lon, fix.pressure, fix.wind_kt, fix.r30.longest_nm
('2015-08-03T00:00:00', 16.2, 144.0, 940, 90, 150)
>>> parse_data_line("15011300 002 2 087 1429 1006     000").wind_kt is None
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..fileio import os_reason

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "real"
#: Every storm of January 2015 – July 2021 (169 storms).
ALL_FILE = DATA_DIR / "jma_best_tracks_2015_2021.txt"
#: Thirteen landmark storms, each complete (Soudelor 2015, Nepartak, Meranti, Megi 2016, …).
SELECTED_FILE = DATA_DIR / "jma_best_tracks_selected.txt"

CREDIT = "RSMC Tokyo – Typhoon Center best track data, Japan Meteorological Agency (JMA)"

#: JMA's grades (column 14 of a data line).
GRADES: dict[int, str] = {
    2: "tropical depression",
    3: "tropical storm",
    4: "severe tropical storm",
    5: "typhoon",
    6: "extratropical cyclone",
    7: "just entering JMA's area",
    9: "tropical storm or stronger",
}

#: Direction codes of the longest wind radius.
RADIUS_DIRECTIONS: dict[int, str] = {0: "", 1: "NE", 2: "E", 3: "SE", 4: "S", 5: "SW", 6: "W", 7: "NW", 8: "N", 9: "symmetric"}

KM_PER_NM = 1.852
_HEADER = "66666"


class BestTrackError(ValueError):
    """A best-track file that does not follow the format; the message names the file, line and problem."""


@dataclass(frozen=True)
class WindRadius:
    """A wind radius: the longest and shortest distance (nautical miles) at which winds reach a speed."""

    direction: str  # of the longest radius: "NE", …, "N", or "symmetric"
    longest_nm: int
    shortest_nm: int

    @property
    def longest_km(self) -> float:
        """The longest radius in km.

        >>> WindRadius("symmetric", 100, 100).longest_km
        185.2
        """
        return round(self.longest_nm * KM_PER_NM, 3)

    @property
    def shortest_km(self) -> float:
        return round(self.shortest_nm * KM_PER_NM, 3)


@dataclass(frozen=True)
class Fix:
    """One analysis time of a storm (one data line)."""

    time: datetime
    grade: int
    lat: float
    lon: float
    pressure: int
    wind_kt: int | None  # maximum sustained 10-minute wind; None where the file has no value (000)
    r50: WindRadius | None = None
    r30: WindRadius | None = None
    japan_landfall: bool = False  # the file's "#": landfall on or passage over the Japanese islands

    @property
    def synoptic(self) -> bool:
        """Whether this is one of the 6-hourly analyses (00, 06, 12, 18 UTC).

        >>> parse_data_line("15080300 002 5 162 1440  940     090").synoptic
        True
        """
        return self.time.hour % 6 == 0 and self.time.minute == 0

    @property
    def wind_ms(self) -> float | None:
        """The wind in m/s (1 kt = 0.514444 m/s), or None.

        >>> parse_data_line("15080300 002 5 162 1440  940     090").wind_ms
        46.3
        """
        return None if self.wind_kt is None else round(self.wind_kt * 0.514444, 1)


@dataclass(frozen=True)
class Storm:
    """One storm: its header fields and its analyses in time order."""

    number: str  # international number YYNN ("1513")
    name: str
    serial: str
    last_flag: int  # 0 = dissipated, 1 = left JMA's area of responsibility
    hours_to_final: int
    revised: str  # YYYYMMDD
    fixes: tuple[Fix, ...]

    @property
    def year(self) -> int:
        return self.fixes[0].time.year if self.fixes else 2000 + int(self.number[:2])

    @property
    def title(self) -> str:
        """Name and year, as a person says it: ``"Soudelor 2015"``.

        >>> read_best_tracks(SELECTED_FILE)[0].title
        'Soudelor 2015'
        """
        return f"{self.name.title()} {self.year}"

    def lonlat(self) -> np.ndarray:
        """The track as an ``(n, 2)`` array of longitude, latitude."""
        return np.array([(f.lon, f.lat) for f in self.fixes], dtype=float).reshape(-1, 2)

    def six_hourly(self) -> tuple[Fix, ...]:
        """The 6-hourly analyses only (the extra 3-hourly and off-hour lines near land dropped)."""
        return tuple(f for f in self.fixes if f.synoptic)

    @property
    def min_pressure(self) -> int:
        return min(f.pressure for f in self.fixes)

    @property
    def max_wind_kt(self) -> int:
        return max((f.wind_kt or 0) for f in self.fixes)


def _year(yy: int) -> int:
    return 1900 + yy if yy >= 50 else 2000 + yy


def _int(text: str, what: str, where: str) -> int:
    t = text.strip()
    if not t.isdigit():
        raise BestTrackError(f"{where}: {what} should be digits, found {text!r}")
    return int(t)


_DATA_RE = re.compile(r"^\d{8} 002 \d ")


def parse_data_line(line: str, where: str = "data line") -> Fix:
    """One fixed-column data line → :class:`Fix`; :class:`BestTrackError` naming ``where`` if malformed.

    >>> f = parse_data_line("15080300 002 5 162 1440  940     090     90070 0070 90150 0150")
    >>> f.grade, f.r50, f.r30.direction
    (5, WindRadius(direction='symmetric', longest_nm=70, shortest_nm=70), 'symmetric')
    >>> parse_data_line("15080300 002 5 16x 1440  940     090", "line 3")
    Traceback (most recent call last):
    ...
    typhoon_edu.realdata.jma.BestTrackError: line 3: the latitude (columns 16–18) should be digits, found '16x'
    >>> parse_data_line("15080300 002 5 950 1440  940     090", "line 4")
    Traceback (most recent call last):
    ...
    typhoon_edu.realdata.jma.BestTrackError: line 4: a latitude of 95.0°N (columns 16–18) is not on the Earth (0–90°N)
    """
    line = line.rstrip("\r\n").rstrip()
    if len(line) < 36:
        raise BestTrackError(f"{where}: a data line has at least 36 characters (time … wind), this one has {len(line)}: {line!r}")
    if line[9:12] != "002":
        raise BestTrackError(f"{where}: columns 10–12 should be the indicator 002, found {line[9:12]!r}")
    stamp = _int(line[0:8], "the time YYMMDDHH (columns 1–8)", where)
    yy, mm, dd, hh = stamp // 1_000_000, stamp // 10_000 % 100, stamp // 100 % 100, stamp % 100
    try:
        time = datetime(_year(yy), mm, dd, hh)
    except ValueError:
        raise BestTrackError(f"{where}: {line[0:8]!r} is not a valid time YYMMDDHH") from None
    grade = _int(line[13], "the grade (column 14)", where)
    if grade not in GRADES:
        raise BestTrackError(f"{where}: grade {grade} is not one of JMA's grades {', '.join(map(str, GRADES))}")
    lat = _int(line[15:18], "the latitude (columns 16–18)", where) / 10
    lon = _int(line[19:23], "the longitude (columns 20–23)", where) / 10
    if lat > 90:
        raise BestTrackError(f"{where}: a latitude of {lat:.1f}°N (columns 16–18) is not on the Earth (0–90°N)")
    if lon > 360:
        raise BestTrackError(f"{where}: a longitude of {lon:.1f}°E (columns 20–23) is beyond 360°E")
    pressure = _int(line[24:28], "the central pressure (columns 25–28)", where)
    if not 850 <= pressure <= 1030:
        raise BestTrackError(f"{where}: a central pressure of {pressure} hPa is outside 850–1030 hPa")
    wind = _int(line[33:36], "the maximum wind (columns 34–36)", where)
    r50 = r30 = None
    if len(line.rstrip("# ")) > 36:
        if len(line) < 62:
            raise BestTrackError(f"{where}: the wind radii need columns 42–62, the line ends at column {len(line)}")
        r50 = _radius(line[41], line[42:46], line[47:51], "50-kt", where)
        r30 = _radius(line[52], line[53:57], line[58:62], "30-kt", where)
    landfall = len(line) >= 72 and line[71] == "#"
    return Fix(time, grade, lat, lon, pressure, wind or None, r50, r30, landfall)


def _radius(direction: str, longest: str, shortest: str, what: str, where: str) -> WindRadius | None:
    code = _int(direction, f"the direction of the longest {what} radius", where)
    if code not in RADIUS_DIRECTIONS:
        raise BestTrackError(f"{where}: {code} is not a radius direction (1–9)")
    lo, sh = _int(longest, f"the longest {what} radius", where), _int(shortest, f"the shortest {what} radius", where)
    if lo == 0 and sh == 0:
        return None  # winds of that speed nowhere
    if sh > lo:
        raise BestTrackError(f"{where}: the shortest {what} radius ({sh} nm) is longer than the longest ({lo} nm)")
    return WindRadius(RADIUS_DIRECTIONS[code], lo, sh)


def parse_header(line: str, where: str = "header") -> tuple[str, int, str, int, int, str, str]:
    """A header line → (number, data-line count, serial, last flag, hours to final, name, revised).

    >>> parse_header("66666 1513  059 0013 1513 0 6             SOUDELOR              20150925")
    ('1513', 59, '0013', 0, 6, 'SOUDELOR', '20150925')
    """
    fields = line.split()
    if not fields or fields[0] != _HEADER:
        raise BestTrackError(f"{where}: a storm starts with a header line beginning {_HEADER}, found {line.strip()[:40]!r}")
    if len(fields) not in (8, 9):
        raise BestTrackError(f"{where}: a header line has 9 fields (66666, number, line count, serial, number, flag, "
                             f"hours, name, revision date), found {len(fields)}")
    name = fields[7] if len(fields) == 9 else ""
    number = fields[1]
    if not (number.isdigit() and len(number) == 4):
        raise BestTrackError(f"{where}: the international number should be 4 digits YYNN, found {number!r}")
    count = _int(fields[2], "the number of data lines (field 3)", where)
    return (number, count, fields[3], _int(fields[5], "the last-line flag (field 6)", where),
            _int(fields[6], "the hours to the final analysis (field 7)", where), name, fields[-1])


def parse_best_tracks(lines: Iterable[str], source: str = "best-track text") -> list[Storm]:
    """Storms from the lines of a best-track file; each storm's line count must equal its header's.

    >>> text = ["66666 1501  002 0001 1501 0 6   MEKKHALA   20150217", "15011300 002 2 087 1429 1006     000"]
    >>> parse_best_tracks(text, "demo.txt")
    Traceback (most recent call last):
    ...
    typhoon_edu.realdata.jma.BestTrackError: demo.txt, line 1: the header of 1501 says 2 data lines follow, but the file has 1
    """
    storms: list[Storm] = []
    header: tuple[str, int, str, int, int, str, str] | None = None
    header_line = 0
    fixes: list[Fix] = []

    def close() -> None:
        if header is None:
            return
        if len(fixes) != header[1]:
            raise BestTrackError(f"{source}, line {header_line}: the header of {header[0]} says {header[1]} data lines "
                                 f"follow, but the file has {len(fixes)}")
        storms.append(Storm(header[0], header[5], header[2], header[3], header[4], header[6], tuple(fixes)))

    for n, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        where = f"{source}, line {n}"
        if line.lstrip().startswith(_HEADER):
            close()
            header, header_line, fixes = parse_header(line, where), n, []
        elif header is None:
            raise BestTrackError(f"{where}: the file should start with a storm's header line ({_HEADER} …), found {line[:40]!r}")
        elif not _DATA_RE.match(line):
            raise BestTrackError(f"{where}: expected a data line (YYMMDDHH 002 grade …) or a header, found {line[:40]!r}")
        else:
            fix = parse_data_line(line, where)
            if fixes and fix.time <= fixes[-1].time:
                raise BestTrackError(f"{where}: the time {fix.time:%Y-%m-%d %H} UTC is not after the line before it")
            fixes.append(fix)
    close()
    if not storms:
        raise BestTrackError(f"{source}: no storm found (a best-track file is header lines starting {_HEADER}, each "
                             f"followed by its data lines)")
    return storms


def read_best_tracks(path: str | Path) -> list[Storm]:
    """Read a best-track file (UTF-8 or ASCII; CRLF or LF line endings)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise BestTrackError(f"{p.name}: not a text file ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise BestTrackError(f"{p.name}: cannot be read ({os_reason(exc)})") from None
    return parse_best_tracks(text.splitlines(), p.name)


@lru_cache(maxsize=4)
def _cached(path: str) -> tuple[Storm, ...]:
    return tuple(read_best_tracks(path))


def all_storms() -> tuple[Storm, ...]:
    """All 169 storms of January 2015 – July 2021 (read once per process).

    >>> storms = all_storms()
    >>> len(storms), storms[0].number, storms[-1].number, sum(len(s.fixes) for s in storms)
    (169, '1501', '2108', 6154)
    """
    return _cached(str(ALL_FILE))


def selected_storms() -> tuple[Storm, ...]:
    """The 13 landmark storms of the extract."""
    return _cached(str(SELECTED_FILE))


def find_storm(name_or_number: str, storms: Sequence[Storm] | None = None) -> Storm:
    """A storm of the extract by name ("Soudelor"), title ("Megi 2016") or number ("1617").

    >>> find_storm("megi").number, find_storm("1614").name
    ('1617', 'MERANTI')
    """
    pool = selected_storms() if storms is None else storms
    key = name_or_number.strip().upper()
    for s in pool:
        if key in (s.number, s.name, s.title.upper()):
            return s
    raise ValueError(f"no storm {name_or_number!r} here; the storms are {', '.join(s.title for s in pool)}")


__all__ = [
    "ALL_FILE", "CREDIT", "GRADES", "SELECTED_FILE", "BestTrackError", "Fix", "Storm", "WindRadius", "all_storms",
    "find_storm", "parse_best_tracks", "parse_data_line", "parse_header", "read_best_tracks", "selected_storms",
]
