"""Lesson 07: a forecast is said once, in the map's live region (in the page from the start). A forecast placed by a
click or a tap (or typed, or moved by an arrow button) is said there, as one moved by a key is; the status line under
the map is rendered anew at each change, so a screen reader never heard it, and one that announces an inserted status
element said a forecast twice while the line was a live region too (role=status, aria-live). The status line is now
text to read; what only it said, the reveal's errors, the map's live region says."""

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
def test_a_click_or_a_tap_says_the_forecast(lang):
    ch = _challenge(lang)
    now = ch.rnd.case.now
    assert ch.access.announce == ""
    x, y = ch.rnd.proj.xy(now.lon - 3, now.lat)
    assert ch.tap("mouse", x, y) == 24
    assert ch.access.announce == fw.status_text(ch.rnd)
    assert fw.lt("forecast.status_guess", lang, h=24, lat=f"{ch.rnd.guesses[24][0]:g}",
                 lon=f"{ch.rnd.guesses[24][1]:g}") in ch.access.announce
    assert ch.tap("touch", x - 40, y) == 48
    assert ch.access.announce == fw.status_text(ch.rnd)
    assert fw.lt("forecast.status_next", lang, h=72) in ch.access.announce


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_typed_position_and_an_arrow_button_say_the_forecast(lang):
    ch = _challenge(lang)
    ch.type_position("15.5, 117")
    assert ch.access.announce == fw.status_text(ch.rnd) and "15.5" in ch.access.announce
    ch.access.announce = ""
    ch.arrows["north"].click()
    assert ch.rnd.guesses[48] == (16.0, 117.0)  # the next guess, from the typed one, half a degree north
    assert ch.access.announce == fw.status_text(ch.rnd) and "16" in ch.access.announce


def test_the_same_forecast_twice_is_said_twice():
    """A second click that lands on the same rounded position says it again (the live region is emptied first)."""
    ch = _challenge("en")
    now = ch.rnd.case.now
    x, y = ch.rnd.proj.xy(now.lon - 3, now.lat)
    ch.tap("mouse", x, y)
    said: list[str] = []
    ch.access.observe(lambda change: said.append(change["new"]), names="announce")
    ch._choose_lead(24)
    ch.tap("mouse", x, y)
    assert said[-1] == fw.status_text(ch.rnd) and len(said) == 2  # emptied, then said


def test_a_key_says_the_forecast_once():
    """The keys said the forecast before; moving the saying into the actions they share does not say it twice."""
    ch = _challenge("en")
    said: list[str] = []
    ch.access.observe(lambda change: said.append(change["new"]), names="announce")
    ch.access.receive({"key": "ArrowLeft"})
    moved = fw.status_text(ch.rnd)
    ch.access.receive({"key": "Enter"})
    assert said == [moved, fw.status_text(ch.rnd)]


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
