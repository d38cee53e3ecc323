"""Lessons 03 and 05: the sandbox counts every region, the facts of the levels table, the wide tables' hint.

Each test here failed before its fix (see the commit that added it).
"""

from __future__ import annotations

from typhoon_edu.ui.lessons import intensity


def test_the_sandbox_counts_hits_on_every_region_of_the_map():
    """A super typhoon driven across Central China costs Central China HP, as it would in a game that seats it."""
    s = intensity.SandboxModel(seed=1)
    s.clear()
    assert s.place((6, 4), 5, "W") is None
    events = s.run(faces=[2])
    hit = {e.player for e in events if e.kind == "RegionHit"}
    assert {"Central China", "Taiwan", "South China"} <= hit
    assert set(s.hp) == set(s.rules.regions)  # all six regions have HP in the sandbox
    assert s.hp["Central China"] < s.rules.regions["Central China"].hp
    # the others' damage is what the engine deals with the five usual players
    assert s.hp["Taiwan"] == s.rules.regions["Taiwan"].hp - 6


def test_the_sandbox_hp_panel_lists_all_six_regions():
    box = intensity.intensity_sandbox("en")
    assert set(box.hp.hp) == set(box.rules.regions)


def test_the_sandbox_tells_each_region_its_hp_after_several_turns():
    """The log's "now has N HP" is the sandbox's HP, also on the second move (the engine starts each move afresh)."""
    s = intensity.SandboxModel(seed=1)
    s.clear()
    s.place((6, 4), 5, "W")
    s.run(faces=[1])
    s.place((7, 3), 4, "W")
    events = s.run(faces=[1, 1])
    said = [e for e in events if e.kind == "DamageDealt" and e.player == "South China"]
    assert said and said[-1].hp == s.hp["South China"] < s.rules.regions["South China"].hp - 6


def test_a_region_crossed_in_the_sandbox_is_hit_in_the_order_of_the_move():
    """Central China's hits and damage come where the move had them: hits after the step, damage with the others'."""
    s = intensity.SandboxModel(seed=1)
    s.clear()
    s.place((6, 4), 5, "W")
    s.run(faces=[1])
    s.place((7, 3), 4, "W")
    kinds = [(e.kind, getattr(e, "player", "")) for e in s.run(faces=[1, 1])]
    second = kinds[[k for k, (kind, _) in enumerate(kinds) if kind == "MoveStarted"][1]:]
    assert second.index(("RegionHit", "Central China")) < second.index(("DamageDealt", "Korea"))
    assert kinds[-1] == ("Eliminated", "Central China") and s.hp["Central China"] == 0


def test_the_sandbox_holds_a_storm_with_every_region_in_play():
    s = intensity.SandboxModel(seed=1)
    s.place((9, 9), 2, "NNW")
    events = s.run(hold=1)
    assert [e.kind for e in events if e.kind in ("TyphoonHeld", "Intensified")] == ["TyphoonHeld", "Intensified"]
    assert s.typhoons == [((9, 9), 3, "NNW")]
