"""The coach: hints from the hard bot that read nothing hidden, change nothing, and speak both languages."""

from __future__ import annotations

import dataclasses
import random

import pytest

from typhoon_edu import i18n
from typhoon_edu.ai import coach as coach_module
from typhoon_edu.ai.bots import GreedyBot, RandomBot
from typhoon_edu.ai.coach import REASONS, Hint, StormThreat, hint, hint_text, review, review_text, storm_threats
from typhoon_edu.engine.actions import Action
from typhoon_edu.engine.game import Game, replay
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.engine.scenario import scenario

PLAYERS = ["Taiwan", "Japan", "Korea", "Philippines"]
ME = "Taiwan"
HINT_BUDGET = 24  # play-outs per hint in the review tests (the classroom uses coach.HINT_ITERATIONS)
PHASES = ("setup_place", "attack", "counter", "move_choose", "discard")


def _decisions() -> dict[str, list[Game]]:
    """Copies (history kept) of Taiwan's decisions with a real choice, by phase, from greedy games."""
    found: dict[str, list[Game]] = {}
    for seed in range(40):
        g = Game.new(PLAYERS, seed=seed)
        bots = [GreedyBot(seed=i) for i in range(4)]
        while not g.is_over:
            if (g.current_player == ME and len(g.legal_actions()) > 1 and len(found.get(g.phase, [])) < 2
                    and g.phase in PHASES):
                found.setdefault(g.phase, []).append(_with_rng(g.clone(keep_log=True), g))
            g.apply(bots[g.decider].choose(g))
        if all(len(found.get(p, [])) >= 2 for p in PHASES):
            break
    return found


def _with_rng(c: Game, g: Game) -> Game:
    c.dice = g.dice
    c._rng = random.Random(g.seed * 7_919 + g._rolls + 1)  # the real game's future dice
    return c


def _hidden_variant(g: Game, seed: int) -> Game:
    """The same game for Taiwan's seat, with other hands, deck order, shuffle seed and future dice."""
    v = g.clone(keep_log=True)
    me = g.players.index(ME)
    pool = [c for s, h in enumerate(g.hands) if s != me for c in h] + list(g.deck)
    random.Random(seed).shuffle(pool)
    i = 0
    for s in range(len(g.players)):
        if s != me:
            v.hands[s] = pool[i:i + len(g.hands[s])]
            i += len(g.hands[s])
    v.deck = pool[i:]
    v.seed = g.seed + 1_000 + seed
    v.dice = "auto"
    v._rng = random.Random(v.seed)
    return v


@pytest.fixture(scope="module")
def decisions() -> dict[str, list[Game]]:
    return _decisions()


def test_positions_cover_the_phases(decisions: dict[str, list[Game]]) -> None:
    assert set(PHASES) <= set(decisions)


@pytest.mark.parametrize("phase", PHASES)
def test_a_hint_reads_nothing_hidden(decisions: dict[str, list[Game]], phase: str) -> None:
    for g in decisions[phase]:
        v = _hidden_variant(g, 7)
        assert v.hands != g.hands or v.deck != g.deck  # the hidden things really differ
        assert v.observation(ME) == g.observation(ME) and v.history == g.history
        assert hint(g, ME, iterations=24) == hint(v, ME, iterations=24)


@pytest.mark.parametrize("phase", PHASES)
def test_a_hint_never_changes_the_game(decisions: dict[str, list[Game]], phase: str) -> None:
    for g in decisions[phase]:
        before = (g.digest(), list(g.history), list(g.events), g.legal_actions(), g._rng.getstate())
        h = hint(g, ME, iterations=24)
        assert (g.digest(), list(g.history), list(g.events), g.legal_actions(), g._rng.getstate()) == before
        assert h.action in g.legal_actions() and h.reason in REASONS and h.player == ME


def test_a_hint_is_the_hard_bots_move_and_repeats(decisions: dict[str, list[Game]]) -> None:
    g = decisions["attack"][0]
    first = hint(g, ME, iterations=30)
    assert hint(g, ME, iterations=30) == first
    if first.compared_with is not None:
        assert first.compared_with in g.legal_actions() and first.compared_with != first.action


def test_hints_only_for_the_player_who_decides(decisions: dict[str, list[Game]]) -> None:
    g = decisions["attack"][0]
    other = next(p for p in g.players if p != g.current_player)
    with pytest.raises(ValueError, match="decides now"):
        hint(g, other)
    done = Game.new(PLAYERS, seed=3)
    done.phase = "over"
    with pytest.raises(ValueError, match="no player decision"):
        hint(done)


def test_a_counter_hint_names_the_storm_and_the_damage(decisions: dict[str, list[Game]]) -> None:
    for g in decisions["counter"]:
        h = hint(g, ME, iterations=24)
        assert h.reason in ("counter", "keep_card", "no_counter")
        assert h.typhoon == g.move.tid  # type: ignore[union-attr]
        text = hint_text(h, "en")
        assert f"T{h.typhoon}" in text and "{" not in text


def test_storm_threats_match_the_rulebook_example() -> None:
    g = scenario(["Taiwan", "Japan", "Korea"], typhoons=[((8, 6), 3, "WSW")])
    (th,) = storm_threats(g, "Taiwan")
    # a moderate typhoon one cell east of Taiwan, heading WSW: every face reaches Taiwan; 4 pips make 5 hits x 4
    assert th.chance == 1.0 and th.typhoon == 1 and th.level == 3
    assert th.damage > 0 and storm_threats(g, "Korea") == []


SAMPLE_HINTS = [
    Hint(ME, Action("place", cell=(9, 9)), "place", compared_with=Action("place", cell=(8, 8)), hp_saved=2.2),
    Hint(ME, Action("place", cell=(9, 9)), "place", compared_with=Action("place", cell=(8, 8)), hp_saved=0.1),
    Hint(ME, Action("aim", typhoon=2), "aim", typhoon=2),
    Hint(ME, Action("pass"), "only"),
    Hint(ME, Action("play", card="evacuation"), "counter", card="evacuation", typhoon=2, level=3, target=ME,
         chance=1.0, damage=12.0, hp_saved=11.6),
    Hint(ME, Action("play", card="flood_defences"), "counter", card="flood_defences", typhoon=2, level=1, target=ME,
         chance=1.0, damage=2.0, hp_saved=0.2),
    Hint(ME, Action("pass"), "keep_card", typhoon=2, level=1, target=ME, chance=1.0, damage=2.0),
    Hint(ME, Action("pass"), "no_counter", typhoon=2, level=4, target=ME, chance=1.0, damage=10.0),
    Hint(ME, Action("play", card="cool_upwelling", typhoon=1), "defend", card="cool_upwelling", typhoon=1, level=3,
         target=ME, chance=0.5, damage=6.0, hp_saved=3.4),
    Hint(ME, Action("play", card="cool_upwelling", typhoon=1), "defend", card="cool_upwelling", typhoon=1, level=3,
         target=ME, chance=0.5, damage=6.0, hp_saved=0.3),
    Hint(ME, Action("play", card="headwind", typhoon=1), "play", card="headwind"),
    Hint(ME, Action("play", card="warm_ocean", typhoon=3), "attack", card="warm_ocean", typhoon=3, level=2,
         target="Japan", chance=0.33, damage=3.0, target_hp_change=-4.2, leader=True),
    Hint(ME, Action("region"), "attack", card="central_mountains", target="Japan", target_hp_change=-2.0),
    Hint(ME, Action("play", card="disaster_relief"), "heal", card="disaster_relief", hp_saved=5.0),
    Hint(ME, Action("play", card="disaster_relief"), "heal", card="disaster_relief", hp_saved=0.0),
    Hint(ME, Action("pass"), "pass", typhoon=4, level=2, target=ME, chance=0.67, damage=4.0),
    Hint(ME, Action("pass"), "pass"),
    Hint(ME, Action("move", typhoon=2), "move", typhoon=2, level=2, compared_with=Action("move", typhoon=1),
         hp_saved=3.0),
    Hint(ME, Action("move", typhoon=2), "move", typhoon=2, level=2, compared_with=Action("move", typhoon=1)),
    Hint(ME, Action("discard", card="dry_air"), "discard", card="dry_air"),
]


def test_samples_cover_every_reason() -> None:
    assert {h.reason for h in SAMPLE_HINTS} == set(REASONS)


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("h", SAMPLE_HINTS, ids=lambda h: h.reason)
def test_every_hint_reads_in_both_languages(h: Hint, lang: str) -> None:
    text = hint_text(h, lang)
    assert text and "{" not in text and "None" not in text and "_" not in text
    cjk = any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert cjk == (lang == "zh-TW")
    assert text.count("。" if lang == "zh-TW" else ". ") <= 2  # one or two sentences


def test_hint_numbers_reach_the_text() -> None:
    h = SAMPLE_HINTS[4]
    assert "about 12 HP" in hint_text(h) and i18n.card_name(load_rules(), "evacuation") in hint_text(h)
    attack = SAMPLE_HINTS[11]
    en, zh = hint_text(attack, "en"), hint_text(attack, "zh-TW")
    assert "2 of the 6 die faces" in en and "about 4 HP" in en and "most HP" in en
    assert "6 面中有 2 面" in zh and "大約 4 點生命值" in zh and "日本" in zh


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("h", SAMPLE_HINTS, ids=lambda h: h.reason)
def test_no_percentages_and_never_a_threat_that_cannot_reach(h: Hint, lang: str) -> None:
    """Ages 10-15: chances as die faces; a storm with no face reaching a region is not called a threat."""
    text = hint_text(h, lang)
    assert "%" not in text
    unreachable = dataclasses.replace(h, chance=0.0)
    zero = hint_text(unreachable, lang)
    assert "%" not in zero and "0 of the 6" not in zero and "6 面中有 0 面" not in zero
    if h.typhoon is not None and h.reason in ("defend", "attack"):
        assert "could reach" not in zero and "will reach" not in zero and "可能碰到" not in zero


STORM_WORDS = {"en": ("T", "HP"), "zh-TW": ("T", "生命值")}


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("h", SAMPLE_HINTS, ids=lambda h: h.reason)
def test_each_hint_names_the_region_and_what_is_at_stake(h: Hint, lang: str) -> None:
    """A threatened player hears which storm, which region and how many HP; a safe one hears it is safe."""
    rules = load_rules()
    threat = StormThreat(5, 2, ME, 0.5, 7.0)
    worried = dataclasses.replace(h, threats=(threat,))
    text = hint_text(worried, lang)
    names = {i18n.region_name(rules, r, lang) for r in (ME, h.target) if r}
    assert any(n in text for n in names), text
    if h.reason in ("only", "play", "heal", "discard", "place", "aim") or (h.reason == "pass" and h.typhoon is None):
        assert "T5" in text and ("about 7 HP" if lang == "en" else "大約 7 點生命值") in text, text
        safe = hint_text(h, lang)
        assert ("No storm can reach" if lang == "en" else "沒有颱風碰得到") in safe, safe


@pytest.fixture(scope="module")
def finished() -> Game:
    """A finished game in which Taiwan played at random (so the coach has things to say)."""
    g = Game.new(PLAYERS, seed=4)
    bots = [RandomBot(1), GreedyBot(2), GreedyBot(3), GreedyBot(4)]
    while not g.is_over:
        g.apply(bots[g.decider].choose(g))
    return g


def test_review_lists_clearly_better_choices_and_changes_nothing(finished: Game) -> None:
    before = (finished.digest(), list(finished.history))
    found = review(finished, ["Taiwan"], iterations=12, threshold=3.0, limit=4)
    assert (finished.digest(), list(finished.history)) == before
    assert set(found) == {"Taiwan"}
    items = found["Taiwan"]
    assert 1 <= len(items) <= 4
    assert [i.index for i in items] == sorted(i.index for i in items)
    for item in items:
        assert item.gain >= 3.0 and item.played != item.suggested and item.player == "Taiwan"
        assert finished.history[item.index] == item.played
        for lang in i18n.LANGS:
            text = review_text(item, lang)
            assert str(item.round) in text and "{" not in text and "None" not in text
            if lang == "zh-TW":  # the sentences run on with no space after a full-width mark
                assert "。 " not in text and "！ " not in text, text


def test_a_review_never_contradicts_the_hints_the_seat_followed() -> None:
    """Taiwan follows every hint; the review after the game names no decision as a mistake, and
    wherever it names one (a game where Taiwan played at random), its suggestion is that hint."""
    g = Game.new(PLAYERS, seed=3)
    greedy = GreedyBot(3)
    hinted: dict[int, Action] = {}
    while not g.is_over:
        if g.current_player == "Taiwan" and len(g.legal_actions()) > 1:
            hinted[len(g.history)] = hint(g, "Taiwan", iterations=HINT_BUDGET).action
            g.apply(hinted[len(g.history)])
        else:
            g.apply(greedy.choose(g))
    assert len(hinted) > 10
    items = review(g, ["Taiwan"], iterations=12, threshold=1.0, hint_iterations=HINT_BUDGET)["Taiwan"]
    assert [i.index for i in items if hinted.get(i.index) == i.played] == []


def test_a_reviews_suggestion_is_the_hint_of_that_position(finished: Game) -> None:
    items = review(finished, ["Taiwan"], iterations=12, threshold=1.0, hint_iterations=HINT_BUDGET)["Taiwan"]
    assert items
    for item in items:
        setup = {"players": list(finished.players), "variant": finished.variant, "dice": "manual",
                 "start": finished.players[finished.start_seat]}
        again = replay(setup, finished.seed, finished.history[:item.index], finished.rules)
        given = hint(again, "Taiwan", iterations=HINT_BUDGET)
        assert given.action == item.suggested, item
        # and its reason, with the numbers, is that hint's: the review says why in the hint's own words
        assert item.hint == given, (item.hint, given)


def test_a_review_never_says_the_coach_agrees() -> None:
    """Two steering cards on one storm differ only in direction: the words say which direction."""
    rules = load_rules()
    a = Action("play", card="steering_flow", typhoon=1, direction="N")
    b = Action("play", card="steering_flow", typhoon=1, direction="W")
    for lang in i18n.LANGS:
        da, db = coach_module._describe(a, lang, rules), coach_module._describe(b, lang, rules)
        assert da != db and i18n.direction_name(rules, "N", lang) in da


def test_review_refuses_a_region_that_is_not_playing(finished: Game) -> None:
    with pytest.raises(ValueError, match="not playing"):
        review(finished, ["SouthChina"])


def test_storm_threat_is_data() -> None:
    s = StormThreat(1, 3, "Taiwan", 0.5, 4.0)
    assert s == StormThreat(1, 3, "Taiwan", 0.5, 4.0) and s.chance == 0.5
