"""Country outlines from a GeoJSON file (Natural Earth 1:110m, clipped to East Asia).

Only what the lessons need: a ``FeatureCollection`` of ``Polygon`` / ``MultiPolygon`` features with a
``name`` property; each polygon's rings become ``(n, 2)`` numpy arrays of longitude, latitude.
A file that is not of that form raises :class:`OutlineError` saying which feature and what is wrong.

Credit: "Made with Natural Earth" (naturalearthdata.com; public domain).

>>> c = countries()
>>> sorted(c)[:3], len(c)
(['Brunei', 'Cambodia', 'China'], 16)
>>> taiwan = c["Taiwan"]
>>> len(taiwan.rings) >= 1, 119 < taiwan.bounds[0] < 121, 21 < taiwan.bounds[1] < 23
(True, True, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .jma import DATA_DIR

OUTLINES_FILE = DATA_DIR / "east_asia_countries_110m.geojson"
CREDIT = "Made with Natural Earth (naturalearthdata.com), 1:110m admin-0 countries, public domain"


class OutlineError(ValueError):
    """A GeoJSON file that is not a FeatureCollection of named (Multi)Polygons."""


@dataclass(frozen=True)
class Country:
    """A country's outline: outer rings of its polygons (holes are not needed at this scale and are dropped)."""

    name: str
    iso_a3: str
    rings: tuple[np.ndarray, ...]

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(west, south, east, north) in degrees."""
        pts = np.concatenate(self.rings)
        return float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())


def _ring(raw: Any, where: str) -> np.ndarray:
    try:
        arr = np.asarray(raw, dtype=float)
    except (TypeError, ValueError):
        raise OutlineError(f"{where}: a ring is a list of [longitude, latitude] pairs") from None
    if arr.ndim != 2 or arr.shape[1] < 2 or arr.shape[0] < 3:
        raise OutlineError(f"{where}: a ring needs at least 3 [longitude, latitude] points, found shape {arr.shape}")
    arr = arr[:, :2]
    if not (np.all(np.abs(arr[:, 1]) <= 90) and np.all(np.abs(arr[:, 0]) <= 360)):
        raise OutlineError(f"{where}: a coordinate is outside longitude ±360 / latitude ±90 (are they swapped?)")
    return arr


def parse_outlines(data: Mapping[str, Any], source: str = "GeoJSON") -> dict[str, Country]:
    """Countries from a parsed GeoJSON ``FeatureCollection``.

    >>> parse_outlines({"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {},
    ...     "geometry": {"type": "Point", "coordinates": [0, 0]}}]}, "x.geojson")
    Traceback (most recent call last):
    ...
    typhoon_edu.realdata.outlines.OutlineError: x.geojson, feature 1: no "name" property
    """
    if not isinstance(data, Mapping) or data.get("type") != "FeatureCollection" or not isinstance(data.get("features"), list):
        raise OutlineError(f"{source}: expected a GeoJSON FeatureCollection with a list of features")
    out: dict[str, Country] = {}
    for i, feature in enumerate(data["features"], start=1):
        where = f"{source}, feature {i}"
        if not isinstance(feature, Mapping):
            raise OutlineError(f"{where}: a feature is a JSON object")
        props = feature.get("properties") or {}
        name = props.get("name")
        if not name:
            raise OutlineError(f'{where}: no "name" property')
        geom = feature.get("geometry") or {}
        kind, coords = geom.get("type"), geom.get("coordinates")
        if kind == "Polygon":
            polygons = [coords]
        elif kind == "MultiPolygon":
            polygons = coords
        else:
            raise OutlineError(f"{where} ({name}): geometry {kind!r} is not a Polygon or MultiPolygon")
        if not isinstance(polygons, list) or not polygons:
            raise OutlineError(f"{where} ({name}): no coordinates")
        rings = tuple(_ring(poly[0], f"{where} ({name})") for poly in polygons if poly)
        out[str(name)] = Country(str(name), str(props.get("iso_a3", "")), rings)
    return out


def read_outlines(path: str | Path) -> dict[str, Country]:
    """Read a GeoJSON file of country outlines."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise OutlineError(f"{p.name}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    return parse_outlines(data, p.name)


@lru_cache(maxsize=1)
def countries() -> dict[str, Country]:
    """The 16 countries of the shipped outline file (read once)."""
    return read_outlines(OUTLINES_FILE)


__all__ = ["CREDIT", "OUTLINES_FILE", "Country", "OutlineError", "countries", "parse_outlines", "read_outlines"]
