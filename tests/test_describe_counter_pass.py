"""The words of a counter window's "pass" button, before and after a counter card was played in it.

A rehearsal: after a team played Recurve, its phone offered only "Take the hit (no counter card)", which read as if
the card had failed. Once a counter card was played in the window now open, passing says "go on" instead.
"""

from __future__ import annotations

import random

import pytest

from typhoon_edu import i18n
from typhoon_edu.describe import describe_action
from typhoon_edu.engine.game import Game


def _counter_window_after_a_card(seed: int = 1) -> tuple[Game, Game]:
    """A counter window just opened, and the same window after one counter card was played in it (random play)."""
    g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=seed)
    rng = random.Random(seed)
    for _ in range(5_000):  # bounded: a game is a few hundred decisions
        assert not g.is_over, "no counter window with two cards in this game"
        acts = g.legal_actions()
        plays = [a for a in acts if a.kind == "play"]
        if g.phase == "counter" and plays:
            opened = g.clone(keep_log=True)
            g.apply(plays[0])
            if g.phase == "counter":
                return opened, g
            continue
        g.apply(rng.choice(acts))
    raise AssertionError("bounded loop ended")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_passing_after_a_counter_card_says_go_on_not_take_the_hit(lang: str) -> None:
    opened, after = _counter_window_after_a_card()
    pass_now = next(a for a in opened.legal_actions() if a.kind == "pass")
    assert describe_action(pass_now, opened, lang) == i18n.t("action.pass_counter", lang)
    pass_after = next(a for a in after.legal_actions() if a.kind == "pass")
    assert describe_action(pass_after, after, lang) == i18n.t("action.pass_counter_more", lang)
