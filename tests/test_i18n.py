"""The i18n layer: both catalogs complete and consistent, and every event narrated in both languages."""

from __future__ import annotations

import pytest

from typhoon_edu import i18n
from typhoon_edu.engine import events as ev
from typhoon_edu.engine.rules import load_rules

RULES = load_rules()

# At least one sample of every event class, and one per wording variant.
SAMPLES: list[ev.Event] = [
    ev.GameStarted(players=("Taiwan", "Japan", "Korea", "Philippines"), variant="standard", start="Taiwan"),
    ev.GameStarted(players=("Taiwan", "Japan", "Korea"), variant="advanced", start="Japan"),
    ev.TurnStarted(player="Korea", round=2),
    ev.RoundStarted(round=3),
    ev.DeckReshuffled(cards=17, under=True),
    ev.DeckReshuffled(cards=30, under=False),
    ev.CardsDrawn(player="Japan", count=3, cards=("warm_ocean", "recurve", "dry_air")),
    ev.CardsDrawn(player="Japan", count=1, cards=(), lost=2),
    ev.CardsDrawn(player="Japan", count=0, cards=(), lost=1),
    ev.TyphoonPlaced(typhoon=1, cell=(8, 9), level=1, by="Taiwan"),
    ev.DieRolled(face=4, purpose="direction", typhoon=1),
    ev.DieRolled(face=2, purpose="move", typhoon=3),
    ev.DieRolled(face=6, purpose="zone"),
    ev.DieRolled(face=1, purpose="cell"),
    ev.DirectionRolled(typhoon=1, start="N", face=3, stop="E"),
    ev.CardPlayed(player="Philippines", card="warm_ocean", restricted=True, typhoon=2),
    ev.CardPlayed(player="Korea", card="tropical_disturbance", restricted=False, cell=(11, 7)),
    ev.CardPlayed(player="Korea", card="steering_flow", restricted=False, typhoon=2, direction="NNW"),
    ev.CardPlayed(player="Taiwan", card="evacuation", restricted=False, counter=True),
    ev.CardPlayed(player="Japan", card="recurve", restricted=False, counter=True, direction="E"),
    ev.CardPlayed(player="Taiwan", card="disaster_relief", restricted=False),
    ev.AbilityUsed(player="Japan", ability="westerlies", typhoon=4),
    ev.AbilityUsed(player="Central China", ability="cold_surge"),
    ev.Passed(player="Korea"),
    ev.Passed(player="Korea", counter=True),
    ev.LevelChanged(typhoon=1, old=2, new=3, cause="warm_ocean"),
    ev.LevelChanged(typhoon=1, old=3, new=2, cause="landfall"),
    ev.LevelChanged(typhoon=1, old=1, new=0, cause="cold_surge"),
    ev.LevelChanged(typhoon=1, old=4, new=5, cause="growth"),
    ev.DirectionChanged(typhoon=2, old="NNW", new="NE", cause="recurve"),
    ev.TyphoonHeld(typhoon=3),
    ev.RollModified(typhoon=3, delta=2, replaced=False),
    ev.RollModified(typhoon=3, delta=-1, replaced=True),
    ev.Healed(player="Taiwan", amount=5, hp=27),
    ev.ShieldRaised(player="Taiwan", shield="central_mountains"),
    ev.TyphoonPushed(typhoon=4, frm=(10, 4), to=(13, 4)),
    ev.TyphoonPushed(typhoon=4, frm=(14, 4), to=None),
    ev.MoveStarted(typhoon=2, face=5, steps=5),
    ev.MoveStarted(typhoon=2, face=1, steps=1),
    ev.MoveStarted(typhoon=2, face=3, steps=0, held=True),
    ev.TyphoonStepped(typhoon=2, step=1, letter="N", frm=(8, 8), to=(8, 7), level=1),
    ev.TyphoonStepped(typhoon=2, step=3, letter="W", frm=(0, 4), to=None, level=1),
    ev.CounterWindow(player="Taiwan", typhoon=2),
    ev.RegionHit(player="Taiwan", typhoon=2, hits=3, level=3),
    ev.RegionHit(player="Taiwan", typhoon=2, hits=1, level=3),
    ev.DamageDealt(player="Taiwan", typhoon=2, hits=5, amount=20, bonus=0, hp=10),
    ev.DamageDealt(player="Taiwan", typhoon=2, hits=2, amount=11, bonus=1, hp=19),
    ev.DamageDealt(player="Taiwan", typhoon=2, hits=1, amount=0, bonus=0, hp=30, modifier="cancelled"),
    ev.DamageDealt(player="Taiwan", typhoon=2, hits=2, amount=4, bonus=0, hp=26, modifier="halved"),
    ev.DamageDealt(player="Taiwan", typhoon=2, hits=2, amount=4, bonus=0, hp=26, modifier="sierra_madre"),
    ev.Landfall(typhoon=2, old=3, new=2),
    ev.Landfall(typhoon=2, old=1, new=0),
    ev.Merged(survivor=1, absorbed=3, level=4, direction="WNW"),
    ev.Intensified(typhoon=1, level=3),
    *(ev.TyphoonRemoved(typhoon=1, reason=r, cell=(0, 0)) for r in ("edge", "landfall", "weakened", "merged", "card", "other")),
    ev.Discarded(player="Japan", card="dry_air"),
    ev.Eliminated(player="Korea"),
    ev.TurnEnded(player="Korea"),
    ev.GameOver(winners=("Japan",), reason="rounds"),
    ev.GameOver(winners=("Japan", "Korea"), reason="rounds"),
    ev.GameOver(winners=("Japan",), reason="last_standing"),
    ev.GameOver(winners=("Japan", "Korea"), reason="all_out"),
]


def test_catalogs_have_the_same_keys():
    en, zh = i18n.catalog("en"), i18n.catalog("zh-TW")
    assert set(en) - set(zh) == set(), "keys missing in zh-TW"
    assert set(zh) - set(en) == set(), "keys missing in en"
    assert len(en) > 50


@pytest.mark.parametrize("key", sorted(i18n.catalog("en")))
def test_catalogs_have_the_same_placeholders(key):
    assert i18n.placeholders(i18n.catalog("en")[key]) == i18n.placeholders(i18n.catalog("zh-TW")[key])


def test_zh_catalog_is_traditional_chinese():
    text = "".join(i18n.catalog("zh-TW").values())
    # a few simplified forms that must not appear (臺 is the project's spelling: tests/test_tai_spelling.py)
    for simplified in "风图区级个动东难这过时变经":
        assert simplified not in text, simplified


def test_missing_key_names_key_and_language():
    with pytest.raises(KeyError) as info:
        i18n.t("board.nothing_here", "zh-TW")
    assert "board.nothing_here" in str(info.value) and "zh-TW" in str(info.value)


def test_unknown_language_is_rejected():
    with pytest.raises(ValueError, match="en, zh-TW"):
        i18n.t("die.roll", "fr")


def test_t_formats_and_aliases():
    assert i18n.t("die.result", "zh_TW", face=6) == "骰子擲出 6 點。"
    assert i18n.t("hp.value", hp=3, max=40) == "3 / 40"


def test_samples_cover_every_event_type():
    assert {type(e).__name__ for e in SAMPLES} == set(ev.EVENT_TYPES)


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_narrate_every_event(event, lang):
    text = i18n.narrate(event, lang, RULES)
    assert text and "{" not in text and "}" not in text
    # raw keys and Python reprs must not leak into sentences
    assert "None" not in text and "_" not in text
    if lang == "zh-TW":
        assert any("\u4e00" <= ch <= "\u9fff" for ch in text)
    else:
        assert all(not ("\u4e00" <= ch <= "\u9fff") for ch in text)
        # every sentence begins with a capital (a counter card's turn said "… Recurve. the typhoon now heads east.")
        starts = [part.lstrip()[:1] for part in text.replace("!", ".").split(". ")[1:]]
        assert all(not c.islower() for c in starts), text


def test_narrate_uses_the_games_terms():
    zh = [i18n.narrate(e, "zh-TW", RULES) for e in SAMPLES]
    joined = "".join(zh)
    for term in ("颱風眼", "暴風半徑", "登陸", "合併", "生命值", "方位羅盤"):
        assert term in joined, term


def test_narrate_seed_examples():
    assert i18n.narrate(ev.DamageDealt("Taiwan", 2, hits=5, amount=20, bonus=0, hp=10), "en", RULES) == (
        "T2 hit Taiwan 5 times: Taiwan loses 20 HP and now has 10."
    )
    assert i18n.narrate(ev.DirectionRolled(typhoon=1, start="E", face=3, stop="NNW"), "zh-TW", RULES) == (
        "方位羅盤的指針從東順時針走 3 格，停在北北西，所以T1往北北西前進。"
    )
    assert i18n.narrate(ev.CardsDrawn("Japan", 1, ("x",)), "en", RULES) == "Japan drew 1 card."
    assert i18n.narrate(ev.DirectionRolled(typhoon=1, start="N", face=1, stop="NNE"), "en", RULES) == (
        "The compass indicator moves 1 stop clockwise, from north to north-northeast, so T1 heads north-northeast."
    )


def test_names_from_rules():
    assert i18n.region_name(RULES, "Japan", "zh-TW") == "日本"
    assert i18n.level_name(RULES, 3) == "moderate typhoon"
    assert i18n.direction_name(RULES, "WSW", "zh-TW") == "西南西"
    assert i18n.card_name(RULES, "recurve", "en") == RULES.cards["recurve"].name_en
    assert i18n.ability_name(RULES, "sierra_madre", "zh-TW") == "馬德雷山脈"
    assert i18n.join_names(["A"]) == "A" and i18n.join_names([]) == ""
