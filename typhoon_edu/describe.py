"""Plain-language text for actions and for "who decides now, and what to do" (both languages).

Used by the terminal game and the class-play dashboard alike.

>>> from typhoon_edu import Game
>>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=2)
>>> banner(g)
'Taiwan: place a tropical depression in a generation zone (one in each zone).'
>>> describe_action(g.legal_actions()[0], g)
'Place a tropical depression at (8, 8)'
>>> describe_action(g.legal_actions()[0], g, "zh-TW")
'在 (8, 8) 放一個熱帶低壓'
"""

from __future__ import annotations

from .engine.actions import Action
from .engine.events import CardPlayed, CounterWindow
from .engine.game import CHANCE, Game
from .i18n import ability_name, card_name, cell_label, direction_name, level_name, normalize_lang, region_name, t


def _countered_in_window(game: Game) -> bool:
    """Whether a counter card was played since the counter window now open was opened (from the event log)."""
    for e in reversed(game.events):
        if isinstance(e, CounterWindow):
            return False
        if isinstance(e, CardPlayed) and e.counter:
            return True
    return False


def describe_action(action: Action, game: Game, lang: str = "en") -> str:
    """One short imperative line for a legal action, e.g. ``Play Warm Ocean on T2``."""
    lang = normalize_lang(lang)
    rules = game.rules
    k = action.kind
    if k == "die":
        return t("action.die", lang, face=action.face)
    if k == "pass":
        if game.phase != "counter":
            return t("action.pass", lang)
        # after a counter card ("Recurve" turned the storm), "Take the hit" read as if the card had failed
        return t("action.pass_counter_more" if _countered_in_window(game) else "action.pass_counter", lang)
    if k == "place":
        return t("action.place", lang, cell=cell_label(action.cell, lang))
    if k == "aim":
        return t("action.aim", lang, typhoon=f"T{action.typhoon}")
    if k == "move":
        ty = game.typhoon(action.typhoon) if action.typhoon is not None else None
        if ty is None:
            return t("action.move_plain", lang, typhoon=f"T{action.typhoon}")
        return t("action.move", lang, typhoon=f"T{ty.id}", level=level_name(rules, ty.level, lang),
                 direction=direction_name(rules, ty.direction or "N", lang))
    if k == "discard":
        return t("action.discard", lang, card=card_name(rules, action.card or "", lang))
    if k == "play":
        name = card_name(rules, action.card or "", lang)
        what = _target(action, lang, game)
        return t("action.play_target" if what else "action.play", lang, card=name, target=what)
    if k == "region":
        region = game.current_player or ""
        ability = rules.regions[region].ability.key if region in rules.regions else ""
        name = ability_name(rules, ability, lang)
        what = _target(action, lang, game)
        return t("action.region_target" if what else "action.region", lang, ability=name, target=what)
    return action.notation


def _target(action: Action, lang: str, game: Game) -> str:
    rules = game.rules
    if action.typhoon is not None and action.direction is not None:
        return t("action.on_typhoon_dir", lang, typhoon=f"T{action.typhoon}",
                 direction=direction_name(rules, action.direction, lang))
    if action.typhoon is not None:
        return t("action.on_typhoon", lang, typhoon=f"T{action.typhoon}")
    if action.cell is not None:
        return t("action.at_cell", lang, cell=cell_label(action.cell, lang))
    if action.direction is not None:
        return t("action.to_direction", lang, direction=direction_name(rules, action.direction, lang))
    return ""


def banner(game: Game, lang: str = "en") -> str:
    """Who decides now and what to do, in one sentence."""
    lang = normalize_lang(lang)
    rules = game.rules
    if game.is_over:
        names = [region_name(rules, w, lang) for w in game.winners]
        return t("prompt.over", lang, winners=t("lang.list_sep", lang).join(names))
    who = game.current_player
    if who == CHANCE:
        return t("prompt.die", lang, player=region_name(rules, game.active, lang))
    assert who is not None
    name = region_name(rules, who, lang)
    phase = game.phase
    if phase == "counter" and game.move is not None:
        return t("prompt.counter", lang, player=name, typhoon=f"T{game.move.tid}")
    return t(f"prompt.{phase}", lang, player=name)
