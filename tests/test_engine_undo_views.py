"""Undo, correcting a typed die, and what each player may see (the hidden-information rule: no view or log shows a hand to anyone else)."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import P3, P4, kinds, of, roll, scn, setup_manual

from typhoon_edu import CHANCE, Game, IllegalActionError
from typhoon_edu.engine.events import CardsDrawn, event_to_dict


def first_playable_card(g):
    for a in g.legal_actions():
        if a.kind == "play":
            return a
    return None


def find_manual_game_with_a_card_to_play(players=P3):
    for seed in range(50):
        g = setup_manual(players, seed=seed)
        a = first_playable_card(g)
        if a is not None and a.card != "tropical_disturbance":
            return g, a
    raise AssertionError("no seed gives a playable card")


# ---------------------------------------------------------------- undo
def test_undo_reverts_a_card_play_exactly():
    g, a = find_manual_game_with_a_card_to_play()
    before = g.digest()
    events, history = list(g.events), list(g.history)
    hand = g.hand(g.current_player)
    g.apply(a)
    assert g.digest() != before
    undone = g.undo()
    assert undone == a
    assert g.digest() == before
    assert g.events == events and g.history == history
    assert g.hand(g.current_player) == hand
    g.apply(a)  # and it can be made again
    assert g.history[-1] == a


def test_undo_reverts_a_pass_and_a_move_choice():
    g = scn(P3, typhoons=[((13, 3), 1, "E"), ((13, 5), 1, "E")], phase="move")
    with pytest.raises(IllegalActionError):
        g.undo()  # a scenario has no history to undo
    g = setup_manual(P3, seed=4)
    before = g.digest()
    g.apply("pass")
    g.undo()
    assert g.digest() == before


def test_undo_never_crosses_a_die_roll():
    g = setup_manual(P3, seed=4)
    assert g.history[-1].kind == "die"
    before = g.digest()
    with pytest.raises(IllegalActionError, match="die roll"):
        g.undo()
    assert g.digest() == before and g.history[-1].kind == "die"


def test_undo_with_nothing_to_undo():
    g = Game.new(P3, seed=4, dice="manual")
    with pytest.raises(IllegalActionError, match="no decision to undo"):
        g.undo()


def test_undo_in_auto_mode_keeps_the_same_future_dice():
    seed = 12
    rng_a, rng_b = random.Random(5), random.Random(5)
    a = Game.new(P4, seed=seed)
    b = Game.new(P4, seed=seed)
    undos = 0
    while not a.is_over:
        act = rng_a.choice(a.legal_actions())
        assert rng_b.choice(b.legal_actions()) == act
        a.apply(act)
        b.apply(act)
        if b.history[-1] == act and act.kind != "die":  # nothing was rolled after it: undo, then redo
            b.undo()
            b.apply(act)
            undos += 1
        assert a.digest() == b.digest()
    assert undos > 0


# ---------------------------------------------------------------- correcting a typed die
def test_correct_die_replaces_the_last_roll():
    g = Game.new(P3, seed=1, dice="manual")
    for c in ("8,8", "11,7", "14,9"):
        g.apply(f"place {c}")
    g.apply("aim T1")
    roll(g, 3)
    assert g.typhoon(1).direction == "E"
    g.correct_die(5)
    assert g.typhoon(1).direction == "WNW"
    assert g.history[-1].face == 5
    # the same as if 5 had been typed
    h = Game.new(P3, seed=1, dice="manual")
    for c in ("8,8", "11,7", "14,9"):
        h.apply(f"place {c}")
    h.apply("aim T1")
    roll(h, 5)
    assert g.digest() == h.digest()
    assert [e for e in g.events] == [e for e in h.events]


def test_correct_die_refusals_leave_the_state_unchanged():
    g = setup_manual(P3, seed=1)
    before = g.digest()
    for face in (0, 7, "3", True):
        with pytest.raises(IllegalActionError):
            g.correct_die(face)
        assert g.digest() == before
    g.apply("pass")
    with pytest.raises(IllegalActionError, match="not a die roll"):
        g.correct_die(2)
    auto = Game.new(P3, seed=1)
    auto.apply("place 8,8")
    auto.apply("place 11,7")
    auto.apply("place 14,9")
    auto.apply("aim T1")
    with pytest.raises(IllegalActionError, match="manual"):
        auto.correct_die(2)


# ---------------------------------------------------------------- observation and the event log
def test_observation_hides_other_hands_and_the_deck_order():
    g = setup_manual(P4, seed=6)
    obs = g.observation("Japan")
    json.dumps(obs)  # JSON-able
    assert obs["hand"] == g.hand("Japan")
    assert obs["hand_sizes"] == {p: len(g.hand(p)) for p in P4}
    assert obs["draw_pile_size"] == g.draw_pile_size
    text = json.dumps(obs)
    assert "deck" not in obs and "hands" not in obs
    # change what Japan cannot see: other hands' contents and the deck order
    h = g.clone(keep_log=True)
    h.deck.reverse()
    t = h.players.index("Taiwan")
    other = next(c for c in h.deck if c not in h.hands[t])
    h.deck[h.deck.index(other)], h.hands[t][0] = h.hands[t][0], other
    h._legal = None
    assert h.digest() != g.digest()
    assert h.observation("Japan") == obs
    assert json.dumps(h.observation("Japan")) == text


def test_observation_lists_legal_actions_only_for_the_deciding_player():
    g = setup_manual(P3, seed=6)
    assert g.current_player == "Taiwan"
    assert g.observation("Taiwan")["legal_actions"] == [a.notation for a in g.legal_actions()]
    assert g.observation("Japan")["legal_actions"] == []


def test_visible_events_hide_other_players_drawn_cards():
    g = setup_manual(P4, seed=6)
    for viewer in P4:
        for e in g.visible_events(viewer):
            if isinstance(e, CardsDrawn):
                if e.player == viewer:
                    assert len(e.cards) == e.count
                else:
                    assert e.cards == () and e.count >= 0
    drawn_all = [e for e in g.events if isinstance(e, CardsDrawn)]
    assert all(len(e.cards) == e.count for e in drawn_all)  # the full log keeps them
    assert all(e.cards == () for e in g.visible_events(None) if isinstance(e, CardsDrawn))
    # nothing else differs
    assert kinds(g.visible_events("Korea")) == kinds(g.events)
    for e in g.visible_events("Korea"):
        json.dumps(event_to_dict(e))


def test_public_log_does_not_reveal_whether_a_player_holds_counter_cards():
    """A counter window is the owner's decision (docs/rules.md §6, phase 5: the move pauses for the player whose
    region is reached, if they have not used the region card and played < 2 function cards).
    Pausing only when the owner HOLDS a counter card tells everyone else what is in that hand,
    which the hidden-information rule ('the log never leaks a hand') forbids."""
    logs = []
    for hand in (["evacuation"], ["warm_ocean"]):
        g = scn(P3, active="Japan", typhoons=[((8, 6), 3, "W")], phase="move", hands={"Taiwan": hand})
        roll(g, 4)
        while g.phase == "counter":
            g.apply("pass")
        logs.append([event_to_dict(e) for e in g.visible_events("Japan")])
    assert logs[0] == logs[1]


def test_clone_is_independent_and_never_shares_the_dice():
    g = setup_manual(P3, seed=2)
    c = g.clone()
    assert c.digest() == g.digest()
    c.apply("pass")
    assert c.digest() != g.digest()
    assert of(g.events, "Passed") == []
    assert g.current_player != CHANCE
