"""The results name the region hit hardest with its share: "Korea lost 29 of 40 HP", not "Most damage: Korea lost
29 HP" beside a Philippines that lost 30 of its 43 (the ranking is by the share of HP lost; the line said HP alone)."""

from __future__ import annotations

import pytest

from typhoon_edu.classroom.results import summary
from typhoon_edu.engine.events import DamageDealt, Healed
from typhoon_edu.engine.game import Game
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.classplay.results import summary_lines


@pytest.mark.parametrize(("lang", "line"), [("en", "Hardest hit: Korea lost 29 of 40 HP"),
                                            ("zh-TW", "受災最嚴重：韓國失去 40 點生命值中的 29 點")])
def test_the_hardest_hit_region_is_said_with_its_share(lang: str, line: str) -> None:
    rules = load_rules()
    g = Game.new(["Philippines", "Japan", "Korea"], seed=3)
    assert rules.regions["Philippines"].hp == 43 and rules.regions["Korea"].hp == 40
    g.events.append(DamageDealt(player="Philippines", typhoon=1, hits=3, amount=30, bonus=0, hp=13))
    g.events.append(DamageDealt(player="Korea", typhoon=1, hits=3, amount=29, bonus=0, hp=11))
    s = summary(g)
    assert s["damage_taken"] == {"Philippines": 30, "Japan": 0, "Korea": 29} and s["most_damaged"] == "Korea"
    assert summary_lines(s, {}, rules, lang)[-1] == line


@pytest.mark.parametrize(("lang", "line"), [("en", "Hardest hit: Korea lost 52 HP in all, healed on the way (it started "
                                                   "with 40)"),
                                            ("zh-TW", "受災最嚴重：韓國一共失去 52 點生命值，途中有回復（開始時有 40 點）")])
def test_a_region_healed_on_the_way_is_not_said_to_lose_more_than_it_had(lang: str, line: str) -> None:
    """Healed between two blows, a region can lose more in all than its HP at the start (review: "Philippines lost
    52 of 43 HP")."""
    rules = load_rules()
    g = Game.new(["Philippines", "Japan", "Korea"], seed=3)
    g.events.append(DamageDealt(player="Korea", typhoon=1, hits=3, amount=30, bonus=0, hp=10))
    g.events.append(Healed(player="Korea", amount=25, hp=35))
    g.events.append(DamageDealt(player="Korea", typhoon=2, hits=3, amount=22, bonus=0, hp=13))
    s = summary(g)
    assert s["damage_taken"]["Korea"] == 52 and s["most_damaged"] == "Korea"
    assert summary_lines(s, {}, rules, lang)[-1] == line
