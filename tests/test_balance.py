"""The balance tools: edition variants, the tournament on them, the surrogate and the fit."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from typhoon_edu.ai.balance import (
    DECK_STEPS,
    Measured,
    Step,
    Surrogate,
    best_step,
    deck_counts,
    deviation,
    edition_counts,
    edition_hp,
    edition_variant,
    evenness,
    fit_hp,
    measure,
    moves,
    pre_balance_counts,
    region_shares,
    rules_with_hp,
    search,
)
from typhoon_edu.ai.tournament import GameRow, run_tournament
from typhoon_edu.engine.game import Game
from typhoon_edu.engine.rules import load_rules


def test_a_variant_changes_only_what_it_is_given() -> None:
    base = load_rules()
    now = edition_counts(base)
    fewer = max(now, key=now.__getitem__)  # the largest kind gives one card to evacuation: still 54
    counts = {"evacuation": now["evacuation"] + 1, fewer: now[fewer] - 1}  # the edition's: 2 and warm_ocean 11
    v = edition_variant(hp={"Taiwan": 47, "japan": 43}, counts=counts)
    assert v.regions["Taiwan"].hp == 47 and v.regions["Japan"].hp == 43
    assert v.regions["Korea"] == base.regions["Korea"]
    assert {k: v.cards[k].count for k in counts} == counts
    assert sum(c.count for c in v.cards.values()) == 54
    assert v.digest != base.digest and base.regions["Taiwan"].hp == edition_hp()["Taiwan"]
    assert edition_variant(hp={"Taiwan": 47, "Japan": 43}, counts=dict(counts)) is v
    assert edition_variant(hp=edition_hp()) is base  # nothing changed: the edition itself


def test_a_game_on_a_variant_starts_with_its_hp() -> None:
    v = rules_with_hp({"Taiwan": 52})
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=1, rules=v)
    assert g.hp["Taiwan"] == 52 and g._max_hp[0] == 52
    assert len(g.deck) + sum(len(h) for h in g.hands) == 54


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hp": {"Taiwan": 24}}, "25 to 60"),
    ({"hp": {"Taiwan": 61}}, "25 to 60"),
    ({"hp": {"Taiwan": 40.5}}, "whole number"),
    ({"hp": {"Atlantis": 40}}, "Atlantis"),
    ({"counts": {"evacuation": 0, "warm_ocean": 12}}, "at least 1"),
    ({"counts": {"evacuation": 60}}, "54"),  # more than the whole deck, whatever the other counts
    ({"counts": {"tea_break": 1}}, "no card kind"),
])
def test_a_bad_variant_is_refused_with_the_rule(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        edition_variant(**kwargs)


def test_deck_steps_keep_54_cards_and_every_kind() -> None:
    base = edition_counts()
    for k in range(len(DECK_STEPS) + 1):
        counts = {**base, **deck_counts(k)}
        assert sum(counts.values()) == 54 and min(counts.values()) >= 1
        edition_variant(counts=deck_counts(k))  # loads
    with pytest.raises(ValueError):
        deck_counts(len(DECK_STEPS) + 1)


def test_the_tournament_plays_the_variant() -> None:
    hp = {k: 55 for k in edition_hp()}
    res = run_tournament(4, ["greedy"] * 3, seed=3, hp=hp, counts=deck_counts(2))
    assert all(h <= 55 for g in res.games for h in g.hp)
    assert any(h == 55 for g in res.games for h in g.hp)  # a region untouched keeps the variant's 55
    with pytest.raises(ValueError, match="25 to 60"):
        run_tournament(2, ["greedy"] * 3, hp={"Taiwan": 10})


@pytest.fixture(scope="module")
def measured():
    m = measure(edition_hp(), 3, 40, seed=11, jobs=1)
    # The surrogate models games that run their three rounds; one that ends early (a region at 0 HP)
    # is left out here.
    m.rows = [g for g in m.rows if g.reason == "rounds"]
    assert len(m.rows) >= 35
    return m


def test_the_surrogate_reproduces_the_games_it_was_given(measured) -> None:
    s = Surrogate([(measured.rows, edition_hp())])
    predicted = s.shares(edition_hp())[3]
    actual = region_shares(measured.rows)
    assert predicted == pytest.approx(actual)


def test_the_surrogate_follows_an_hp_change(measured) -> None:
    s = Surrogate([(measured.rows, edition_hp())])
    hp = edition_hp()
    korea = [s.shares({**hp, "Korea": v})[3]["Korea"] for v in range(25, 61)]
    assert korea == sorted(korea) and korea[0] < korea[-1]  # more HP never wins less, and here wins more
    assert korea[0] <= s.shares(hp)[3]["Korea"] <= korea[-1]


def test_the_fit_improves_the_surrogate_and_stays_in_range(measured) -> None:
    s = Surrogate([(measured.rows, edition_hp())])
    start = edition_hp()
    fit = fit_hp(s, start, radius=3)
    assert s.objective(fit) <= s.objective(start)
    assert all(abs(fit[k] - start[k]) <= 3 and 25 <= fit[k] <= 60 for k in start)


def test_deviation_is_in_units_of_the_tolerance() -> None:
    assert deviation({"a": 0.25, "b": 0.28}, 4) == 1.0
    assert deviation({"a": 1 / 3, "b": 1 / 3 + 0.02}, 3) == 0.5
    assert deviation({1: 0.23}, 5, 0.03) == 1.0


def test_turn_order_counts_from_the_start_player() -> None:
    res = run_tournament(6, ["greedy"] * 3, seed=21)
    for g in res.games:
        assert g.start == (g.players.index("Taiwan") if "Taiwan" in g.players else 0)
        assert sorted(g.turn(i) for i in range(3)) == [1, 2, 3]
        assert g.turn(g.start) == 1
    turns = {name: games for name, games, *_ in res.table("turn")}
    assert turns == {"turn 1": 6, "turn 2": 6, "turn 3": 6}


def test_evenness_prefers_the_fairer_result() -> None:
    def result(winners: list[tuple[str, ...]]) -> Measured:
        rows = [GameRow(i, ("Taiwan", "Japan", "Korea"), ("greedy",) * 3, w, (30, 30, 30), 3, 99, "rounds", 0)
                for i, w in enumerate(winners)]
        return Measured(3, {}, 0, rows, 1.0)

    fair = result([("Taiwan",), ("Japan",), ("Korea",)])
    unfair = result([("Taiwan",), ("Taiwan",), ("Korea",)])
    assert evenness({3: fair}) < evenness({3: unfair})
    assert fair.regions == pytest.approx({"Taiwan": 1 / 3, "Japan": 1 / 3, "Korea": 1 / 3})


def test_moves_go_toward_the_fair_share_and_stay_in_range() -> None:
    rows = [GameRow(0, ("Taiwan", "Japan", "Korea"), ("greedy",) * 3, ("Korea",), (30, 38, 60), 3, 99, "rounds")]
    m = Measured(3, {"Taiwan": 25, "Japan": 40, "Korea": 60}, 0, rows, 1.0)
    got = {how: hp for hp, how in moves(Step(1, m.hp, {}, {3: m}))}
    assert got == {"Korea -1": {"Taiwan": 25, "Japan": 40, "Korea": 59}, "Korea -2": {"Taiwan": 25, "Japan": 40, "Korea": 58},
                   "Japan +1": {"Taiwan": 25, "Japan": 41, "Korea": 60}}
    low = Measured(3, {"Taiwan": 25, "Japan": 40, "Korea": 40}, 0, [
        GameRow(0, ("Taiwan", "Japan", "Korea"), ("greedy",) * 3, ("Japan",), (20, 38, 30), 3, 99, "rounds")], 1.0)
    assert all(hp["Taiwan"] >= 25 for hp, _ in moves(Step(1, low.hp, {}, {3: low}), regions=3))


def test_a_search_plays_every_candidate_of_a_round_on_the_same_games() -> None:
    seen: list[Step] = []
    steps = search(edition_hp(), games={3: 6, 4: 4, 5: 4}, steps=2, seed=3, jobs=1, report=seen.append)
    assert steps == seen and steps[0].how == "start"
    for rnd in {s.round for s in steps}:
        seeds = {tuple(g.seed for m in s.measured.values() for g in m.rows) for s in steps if s.round == rnd}
        assert len(seeds) == 1  # the same block of seeds for every candidate of the round
    assert best_step(steps).round == max(s.round for s in steps)
    assert all(25 <= v <= 60 for s in steps for v in s.hp.values())


# the data files of 2026-12-07 (tests/rules_digest/): their deck is the balanced edition's, whatever cards.toml says now
EDITION_OF_THEN = Path(__file__).resolve().parent / "rules_digest" / "edition-847cb17671e4ccc1"


def test_the_pre_balance_deck_is_the_data_with_the_deck_steps_undone() -> None:
    then = load_rules(EDITION_OF_THEN)
    assert list(pre_balance_counts(then).items()) == [  # the first tuned deck, as docs/balance*.md report it
        ("warm_ocean", 9), ("cool_upwelling", 4), ("tropical_disturbance", 4), ("dry_air", 2), ("steering_flow", 6),
        ("blocking_high", 4), ("tailwind", 3), ("headwind", 3), ("disaster_relief", 4), ("evacuation", 3),
        ("flood_defences", 5), ("recurve", 4), ("wind_shear", 3)]
    assert deck_counts(0, then) == pre_balance_counts(then) and deck_counts(len(DECK_STEPS), then) == edition_counts(then)


def test_a_new_card_in_the_data_needs_no_change_in_the_balance_tools() -> None:
    """A card added to cards.toml (another card's count lowered to keep 54) is in every deck of the search."""
    base = load_rules()
    cards = dict(base.cards)
    big = max(cards, key=lambda k: cards[k].count)
    cards[big] = replace(cards[big], count=cards[big].count - 1)
    cards["new_card"] = replace(cards["headwind"], key="new_card", count=1)
    rules = replace(base, cards=MappingProxyType(cards), digest=base.digest + "+new_card")
    before = pre_balance_counts(rules)
    assert before["new_card"] == 1 and sum(before.values()) == 54 and list(before) == list(cards)
    for k in range(len(DECK_STEPS) + 1):
        counts = deck_counts(k, rules)
        assert counts["new_card"] == 1 and sum(counts.values()) == 54
        assert edition_variant(counts=counts, rules=rules).cards["new_card"].count == 1
    assert deck_counts(len(DECK_STEPS), rules) == edition_counts(rules)
