"""The setup screen's refusals follow a switch of language, as the phones' message lines do (a bad seed, a setup
the rules refuse and a store problem stayed in the language they were said in: noted by the message-line helper)."""

from __future__ import annotations

from html import unescape

import pytest

from typhoon_edu.ui.classplay.setup import SetupScreen
from typhoon_edu.ui.classplay.viewdata import d
from typhoon_edu.ui.guard import Problems


@pytest.mark.parametrize(("first", "then"), [("en", "zh-TW"), ("zh-TW", "en")])
def test_a_bad_seed_is_said_again_in_the_new_language(first: str, then: str) -> None:
    started: list[object] = []
    screen = SetupScreen(first, Problems(lambda: first), started.append, on_open=lambda code: None)
    screen.seed.value = "not a seed"
    screen._start()
    assert not started and d("error.seed", first) in unescape(screen.message.value)
    screen.set_lang(then)
    shown = unescape(screen.message.value)
    assert d("error.seed", then) in shown and d("error.seed", first) not in shown
    screen.show_error("")
    screen.set_lang(first)
    assert screen.message.value == ""
