"""Engine errors for bad input carry a kind (and fields), so an interface tells them in either language."""

from __future__ import annotations

import pickle

import pytest

from typhoon_edu import Game, advance, damage, load_rules, path_steps
from typhoon_edu.engine.rules import GameInputError
from typhoon_edu.engine.scenario import scenario
from typhoon_edu.i18n import catalog, error_text, placeholders

P3 = ["Taiwan", "Japan", "Korea"]


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize("call, kind", [
    (lambda: Game.new(["Taiwan", "Japan"]), "player_count"),
    (lambda: Game.new(P3 + ["Philippines", "Central China", "South China"]), "player_count"),
    (lambda: Game.new(["Taiwan", "Taiwan", "Japan"]), "region_twice"),
    (lambda: Game.new(["Taiwan", "Atlantis", "Japan"]), "unknown_region"),
    (lambda: Game.new(["Taiwan", 3, "Japan"]), "unknown_region"),
    (lambda: Game.new("Taiwan,Japan,Korea"), "players_list"),
    (lambda: Game.new(P3, variant="expert"), "variant"),
    (lambda: Game.new(P3, dice="loaded"), "dice"),
    (lambda: Game.new(P3, start="Philippines"), "not_playing"),
    (lambda: Game.new(P3, seed="7"), "seed"),
    (lambda: Game.new(P3, seed=2**63), "seed_range"),
    (lambda: Game.new(P3, seed=-(2**63) - 1), "seed_range"),
    (lambda: Game.new(P3, seed=1).hand("Philippines"), "not_playing"),
    (lambda: load_rules().region_key("Narnia"), "unknown_region"),
    (lambda: advance("WNW", 1, ring=("N", "E", "S", "W")), "ring_stop"),
    (lambda: advance("N", -1), "pips"),
    (lambda: path_steps("NX", 3), "direction"),
    (lambda: path_steps("N", 1.5), "pips"),
    (lambda: damage(6, 1, False), "level"),
    (lambda: damage(3, -1, False), "hits"),
    (lambda: scenario(P3, typhoons=[], phase="setup"), "scenario_phase"),
    (lambda: scenario(P3, typhoons=[((99, 0), 1, "N")]), "off_map"),
    (lambda: scenario(P3, typhoons=[((10, 5), 9, "N")]), "scenario_typhoon"),
    (lambda: scenario(P3, typhoons=[], hands={"Taiwan": ["no_such_card"]}), "scenario_card"),
])
def test_bad_input_has_a_kind_and_text_in_both_languages(call, kind):
    with pytest.raises(GameInputError) as info:
        call()
    exc = info.value
    assert exc.kind == kind and isinstance(exc, ValueError)
    en, zh = error_text(exc, "en"), error_text(exc, "zh-TW")
    assert en and zh and en != zh and _cjk(zh)
    assert not _cjk(en)
    assert pickle.loads(pickle.dumps(exc)).fields == exc.fields  # crosses process pools intact


def test_region_names_in_messages_are_translated():
    with pytest.raises(GameInputError) as info:
        Game.new(P3, start="Philippines")
    assert "菲律賓" in error_text(info.value, "zh-TW")
    assert "Philippines" in error_text(info.value, "en")
    with pytest.raises(GameInputError) as info:
        Game.new(["Taiwan", "Atlantis", "Japan"])
    assert "Atlantis" in error_text(info.value, "zh-TW")


def test_every_input_kind_has_both_languages_and_matching_placeholders():
    en, zh = catalog("en"), catalog("zh-TW")
    keys = sorted(k for k in en if k.startswith("error.input."))
    assert len(keys) >= 15
    for key in keys:
        assert key in zh, key
        assert placeholders(en[key]) == placeholders(zh[key]), key


def test_an_overlong_unknown_region_is_shortened_in_the_message():
    with pytest.raises(GameInputError) as info:
        load_rules().region_key("x" * 100_000)
    assert len(str(info.value)) < 300
