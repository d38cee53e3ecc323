"""Lesson 07: a forecast is said once. The map's live region (in the page from the start) says each forecast placed or
moved; the status line under the map was a live region too (role=status, aria-live), rendered anew at each change,
so a screen reader that announces an inserted status element said a clicked or typed forecast twice. The status line
is now text to read; what only it said, the reveal's errors, the map's live region says."""

from __future__ import annotations

import re

import pytest

from typhoon_edu import i18n
from typhoon_edu.ui.lessons import forecast as fw

LIVE = re.compile(r"""\b(role\s*=\s*['"]?(status|alert|log)|aria-live)""", re.IGNORECASE)


def _challenge(lang: str) -> fw.ForecastChallenge:
    ch = fw.challenge(lang)
    clock = iter(float(k) for k in range(10, 100, 5))  # taps seconds apart: none is dropped as a tap's echo
    ch._clock = lambda: next(clock)
    return ch


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_status_line_shows_the_forecast_without_saying_it(lang):
    ch = _challenge(lang)
    now = ch.rnd.case.now
    x, y = ch.rnd.proj.xy(now.lon - 3, now.lat)
    ch.tap("mouse", x, y)
    ch.type_position("15.5, 117")
    said = fw.status_text(ch.rnd)
    assert ch.access.announce == said  # the one live announcement
    assert fw.keep_units(said).split()[0] in ch.status.value  # still shown under the map
    assert not LIVE.search(ch.status.value), ch.status.value


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_reveal_is_said_once_in_the_maps_live_region(lang):
    ch = _challenge(lang)
    for lat, lon in ((15.0, 117.0), (16.0, 114.0), (17.0, 111.0)):
        ch.type_position(f"{lat}, {lon}")
    said: list[str] = []
    ch.access.observe(lambda change: said.append(change["new"]), names="announce")
    ch.reveal()
    summary = fw.summary_text(ch.rnd.results(), lang)
    assert said == [fw.status_text(ch.rnd)] and summary in said[0]
    assert not LIVE.search(ch.status.value)
