"""The page may set only the traits each of the project's anywidgets names (typhoon_edu/ui/page_writes.py)."""

from __future__ import annotations

import logging

import pytest

from typhoon_edu.ui.canvas_input import MapAccess
from typhoon_edu.ui.classplay.address import PageAddress
from typhoon_edu.ui.classplay.pagelink import PageLink
from typhoon_edu.ui.classplay.turntimer import Countdown


def _other(value: object) -> object:
    """A value of the same type as ``value`` that differs from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 7
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, dict):
        return {**value, "x": "y"}
    raise AssertionError(type(value))


@pytest.mark.parametrize("make", [PageLink, Countdown, PageAddress, MapAccess])
def test_a_page_sets_only_what_it_may(make, caplog: pytest.LogCaptureFixture) -> None:
    widget = make()
    names = [n for n in widget.keys if not n.startswith("_") and n not in ("layout", "tabbable", "tooltip", "comm")]
    before = {n: getattr(widget, n) for n in names}
    wanted = {n: _other(v) for n, v in before.items() if isinstance(v, (bool, int, float, str, dict))}
    assert wanted, "nothing to try"
    with caplog.at_level(logging.WARNING, logger="typhoon_edu.ui"):
        widget.set_state(dict(wanted))  # what a comm "update" from the page does
    for name, value in wanted.items():
        if name in widget.page_may_set:
            assert getattr(widget, name) == value, name
        else:
            assert getattr(widget, name) == before[name], f"the page changed {type(widget).__name__}.{name}"
    refused = sorted(set(wanted) - widget.page_may_set)
    assert not refused or "may not set" in caplog.text


def test_the_heartbeat_lets_the_page_set_its_language_and_sound_only() -> None:
    """The page may say the device's chosen language, its mute switch and the browser's language (the join
    page's first guess); nothing of the heartbeat's timing or texts."""
    assert PageLink.page_may_set == {"chosen_lang", "muted", "browser_lang"}
    link = PageLink()
    link.set_state({"interval": 0.0, "lost_after": 0.0, "muted": True, "chosen_lang": "en", "browser_lang": "en-US"})
    assert (link.interval, link.muted, link.chosen_lang, link.browser_lang) == (0.5, True, "en", "en-US")
    assert link.lost_after > 0
