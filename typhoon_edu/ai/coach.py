"""A coach for students: the hard bot's move for a person's seat, and why, from its own search.

:func:`hint` asks the hard bot (:class:`~typhoon_edu.ai.mcts.MCTSBot`, its flat search) what it
would do in the pending decision of ``region`` and returns a :class:`Hint`: the action and the
numbers of the reason, as data (which storm threatens which region, the chance its next move
reaches it, the HP the suggestion is expected to save or cost compared with passing, or with the
search's next idea). :func:`hint_text` renders it in the seat's language from the catalog part
``coach`` (``typhoon_edu/data/i18n/<lang>.coach.toml``).

A hint uses only what the seat may see. The search deals every hidden card at random and rolls
its own dice; its generator is seeded from the seat's observation and the public history, so
two games that differ only in hidden things (the other hands, the deck order, the dice to come)
get the same hint. A hint never changes the game: the search works on copies.

:func:`review` goes through a finished game (or one in progress) and lists, for a seat, the
decisions where the coach's choice was expected to be much better than the one made: a short
"what you could try" list (:class:`ReviewItem`, rendered by :func:`review_text`).

>>> from typhoon_edu import Game
>>> g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=11)
>>> for a in ["place 8,8", "place 11,7", "place 14,9", "aim T1", "aim T2"]:
...     _ = g.apply(a)
>>> h = hint(g, "Taiwan", iterations=24)
>>> h.action in g.legal_actions(), h.player, h.reason in REASONS
(True, 'Taiwan', True)
>>> hint_text(h, "en") != hint_text(h, "zh-TW")
True
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..engine.actions import Action
from ..engine.game import CHANCE, Game, replay
from ..engine.rules import Rules
from ..i18n import (
    ability_name,
    card_name,
    cell_label,
    direction_name,
    join_sentences,
    level_name,
    normalize_lang,
    region_name,
    t,
)
from .beliefs import HandBeliefs
from .bots import region_move_damage
from .mcts import Analysis, Candidate, MCTSBot

#: Play-outs per hint (the hard bot's own budget); a hint takes about a tenth of a second.
HINT_ITERATIONS = 120
#: Play-outs per decision in a review (a whole game's decisions are searched).
REVIEW_ITERATIONS = 60
#: A decision goes into the review when the coach's choice was worth at least this much more (the
#: search's value, in HP of lead over the rivals).
REVIEW_THRESHOLD = 3.0

REASONS = ("only", "counter", "keep_card", "no_counter", "defend", "attack", "heal", "play", "pass", "move", "discard",
           "place", "aim")


@dataclass(frozen=True)
class StormThreat:
    """How much one storm's next move threatens one region (before any counter card).

    ``chance`` is the share of the die's six faces whose move reaches the region (1.0 for the
    rest of a move in progress) and ``damage`` the damage expected from that move.
    """

    typhoon: int
    level: int
    region: str
    chance: float
    damage: float


@dataclass(frozen=True)
class Hint:
    """The coach's suggestion for ``player``'s pending decision, and the numbers of its reason.

    ``reason`` is one of ``REASONS`` (the catalog text ``coach.<reason>`` says it in words);
    ``card`` is a card key (or the region ability's key for a region card), ``typhoon`` and
    ``level`` the storm the reason is about, ``target`` the region it threatens, with ``chance``
    and ``damage`` for its next move. ``hp_saved`` is the player's expected HP at the end of the
    turn with the suggestion minus with ``compared_with`` (passing where that is allowed, else
    the search's next idea); ``target_hp_change`` the same for ``target``. ``value_gain`` is the
    search's own value difference (HP of lead over the rivals). ``threats`` are the storms that
    can reach the player's region on their next move, the worst first.
    """

    player: str
    action: Action
    reason: str
    card: str | None = None
    typhoon: int | None = None
    level: int | None = None
    target: str | None = None
    chance: float | None = None
    damage: float | None = None
    hp_saved: float = 0.0
    target_hp_change: float = 0.0
    compared_with: Action | None = None
    leader: bool = False
    value_gain: float = 0.0
    threats: tuple[StormThreat, ...] = field(default=())

    @property
    def notation(self) -> str:
        return self.action.notation


@dataclass(frozen=True)
class ReviewItem:
    """One decision of a finished game where the coach would have done clearly better.

    ``index`` is the decision's position in the game's history, ``gain`` the search's value of
    the coach's choice minus that of ``played`` (HP of lead), ``hp_gain`` the player's expected HP
    difference, and ``hint`` the coach's hint at that moment.
    """

    player: str
    index: int
    round: int
    phase: str
    played: Action
    suggested: Action
    gain: float
    hp_gain: float
    hint: Hint


# ------------------------------------------------------------------------------ the threats
def storm_threats(game: Game, region: str) -> list[StormThreat]:
    """Every storm whose next move can reach ``region``, the most damaging first (public data only).

    >>> from typhoon_edu.engine.scenario import scenario
    >>> g = scenario(["Taiwan", "Japan", "Korea"], typhoons=[((8, 6), 3, "WSW")])
    >>> [(s.typhoon, s.region, round(s.chance, 2)) for s in storm_threats(g, "Taiwan")]
    [(1, 'Taiwan', 1.0)]
    """
    r = game._b.region_keys.index(region)
    out = []
    m = game.move
    for ty in game.typhoons_:
        if ty.direction is None or ty.id in game.holds:
            continue
        if m is not None and m.tid == ty.id:
            d = dict(region_move_damage(game, ty.cell, ty.level, ty.direction, m.steps - m.done, m.pos)).get(r, 0.0)
            if d > 0:
                out.append(StormThreat(ty.id, ty.level, region, 1.0, d))
            continue
        if game.phase in ("move_choose", "roll_move") and ty.id not in game.unmoved and ty.id != game.roll_for:
            continue  # it has moved this turn
        mod = game.roll_mods.get(ty.id)
        hits, total = 0, 0.0
        for face in range(1, 7):
            steps = face if mod is None else max(mod[1], face + mod[0])
            d = dict(region_move_damage(game, ty.cell, ty.level, ty.direction, steps)).get(r, 0.0)
            if d > 0:
                hits += 1
                total += d / 6
        if hits:
            out.append(StormThreat(ty.id, ty.level, region, hits / 6, total))
    out.sort(key=lambda s: (-s.damage, s.typhoon))
    return out


# ----------------------------------------------------------------------------------- a hint
def public_seed(game: Game, region: str) -> int:
    """A seed made only of what ``region`` may see (its observation and the public history)."""
    obs = json.dumps(game.observation(region), sort_keys=True, ensure_ascii=False)
    hist = " ".join(a.notation for a in game.history)
    return zlib.crc32(f"{obs}|{hist}".encode())


def _pass_action(actions: Sequence[Action]) -> Action | None:
    return next((a for a in actions if a.kind == "pass"), None)


def analyse_for(game: Game, region: str, *, iterations: int = HINT_ITERATIONS,
                include: Sequence[Action] = ()) -> Analysis:
    """The hard bot's analysis of ``region``'s pending decision (passing always included when allowed)."""
    actions = game.legal_actions()
    extra = list(include)
    p = _pass_action(actions)
    if p is not None and p not in extra:
        extra.append(p)
    bot = MCTSBot(iterations=iterations, seed=public_seed(game, region))
    bot._beliefs = _beliefs_for(game, region)
    return bot.analyse(game, include=extra)


# The beliefs about rivals' hands, kept between hints (they follow the public history, so a
# game that is not the one followed simply starts them over): (players, variant, start, seat).
_BELIEFS: dict[tuple[object, ...], HandBeliefs] = {}


def _beliefs_for(game: Game, region: str) -> HandBeliefs:
    seat = game.players.index(region)
    key = (game.players, game.variant, game.start_seat, seat)
    found = _BELIEFS.get(key)
    if found is None:
        if len(_BELIEFS) > 64:
            _BELIEFS.clear()
        found = _BELIEFS[key] = HandBeliefs(seat)
    return found


def hint(game: Game, region: str | None = None, *, iterations: int = HINT_ITERATIONS) -> Hint:
    """The coach's hint for ``region``'s pending decision (``region`` defaults to whoever decides now).

    Raises ``ValueError`` when ``region`` has no decision pending (another player's turn, a die
    roll, or the end of the game); the game is never changed.
    """
    who = game.current_player
    if who is None or who == CHANCE:
        raise ValueError("there is no player decision now (a die roll, or the game is over), so no hint")
    region = who if region is None else game.rules.region_key(region)
    if region != who:
        raise ValueError(f"a hint is for the player who decides now, which is {who}, not {region}")
    actions = game.legal_actions()
    threats = tuple(storm_threats(game, region))
    if len(actions) == 1:
        return Hint(region, actions[0], "only", threats=threats)
    analysis = analyse_for(game, region, iterations=iterations)
    return _explain(game, region, analysis, analysis.best, threats)


def _compare_with(analysis: Analysis, chosen: Candidate) -> Candidate | None:
    p = next((c for c in analysis.candidates if c.action.kind == "pass"), None)
    if p is not None and p.action != chosen.action:
        return p
    others = sorted((c for c in analysis.candidates if c.action != chosen.action), key=lambda c: -c.value)
    return others[0] if others else None


def _explain(game: Game, region: str, analysis: Analysis, chosen: Candidate, threats: tuple[StormThreat, ...]) -> Hint:
    seat = game.players.index(region)
    a = chosen.action
    other = _compare_with(analysis, chosen)
    base = dict(player=region, action=a, threats=threats, compared_with=other.action if other else None)
    if other is not None and chosen.hp and other.hp:
        base["hp_saved"] = chosen.hp[seat] - other.hp[seat]
        base["value_gain"] = chosen.value - other.value
    phase = game.phase
    card = a.card if a.kind == "play" else game.rules.regions[region].ability.key if a.kind == "region" else None
    by_id = {ty.id: ty for ty in game.typhoons_}

    def storm(tid: int | None, target: str) -> dict[str, object]:
        if tid is None or tid not in by_id:
            return {}
        th = next((s for s in storm_threats(game, target) if s.typhoon == tid), None)
        return dict(typhoon=tid, level=by_id[tid].level, target=target,
                    chance=th.chance if th else 0.0, damage=th.damage if th else 0.0)

    if phase == "counter":
        mine = storm(game.move.tid if game.move else None, region)
        if a.kind == "play":
            return Hint(**base, **mine, reason="counter", card=card)  # type: ignore[arg-type]
        counters = [x for x in game.legal_actions() if x.kind == "play"]
        return Hint(**base, **mine, reason="keep_card" if counters else "no_counter")  # type: ignore[arg-type]
    if phase == "attack":
        if a.kind == "pass":
            top = storm(threats[0].typhoon, region) if threats else {}
            return Hint(**base, **top, reason="pass")  # type: ignore[arg-type]
        kind = game._ceff[seat][a.card].kind if a.kind == "play" else game.rules.regions[region].ability.effect.kind
        if kind == "heal":
            return Hint(**base, reason="heal", card=card)  # type: ignore[arg-type]
        saved = base.get("hp_saved", 0.0)
        hurt = _most_hurt(game, seat, chosen, other)
        if saved >= 0.5 or hurt is None:
            tid = a.typhoon if a.typhoon is not None else (threats[0].typhoon if threats else None)
            return Hint(**base, **storm(tid, region), reason="defend" if saved >= 0.5 else "play",  # type: ignore[arg-type]
                        card=card)
        rival, change = hurt
        tid = a.typhoon
        if tid is None:
            worst = storm_threats(game, rival)
            tid = worst[0].typhoon if worst else None
        info = storm(tid, rival) or {"target": rival}
        top = max(game._hp)
        return Hint(**base, **info, reason="attack", card=card, target_hp_change=change,  # type: ignore[arg-type]
                    leader=game.hp[rival] == top)
    if phase == "move_choose":
        return Hint(**base, **storm(a.typhoon, region), reason="move")  # type: ignore[arg-type]
    if phase == "discard":
        return Hint(**base, reason="discard", card=a.card)  # type: ignore[arg-type]
    if phase in ("refill", "setup_place"):
        return Hint(**base, reason="place")  # type: ignore[arg-type]
    return Hint(**base, reason="aim", typhoon=a.typhoon)  # type: ignore[arg-type]


def _most_hurt(game: Game, seat: int, chosen: Candidate, other: Candidate | None) -> tuple[str, float] | None:
    """The rival whose expected HP the suggestion lowers most (compared with ``other``), if by ≥ 0.5."""
    if other is None or not chosen.hp or not other.hp:
        return None
    best = None
    for s, p in enumerate(game.players):
        if s == seat or game._hp[s] <= 0:
            continue
        change = chosen.hp[s] - other.hp[s]
        if change <= -0.5 and (best is None or change < best[1]):
            best = (p, change)
    return best


# --------------------------------------------------------------------------------- as text
def _hp(value: float, lang: str) -> str:
    n = round(abs(value))
    return t("coach.hp_little", lang) if n == 0 else t("coach.hp", lang, n=n)


def _storm(hint: Hint, rules: Rules, lang: str) -> str:
    if hint.typhoon is None:
        return ""
    if hint.level is None:
        return t("coach.storm_plain", lang, typhoon=f"T{hint.typhoon}")
    return t("coach.storm", lang, typhoon=f"T{hint.typhoon}", level=level_name(rules, hint.level, lang))


def _card(hint: Hint, rules: Rules, lang: str) -> str:
    if hint.card is None:
        return ""
    if hint.action.kind == "region":
        return t("coach.region_card", lang, ability=ability_name(rules, hint.card, lang))
    return t("coach.card", lang, card=card_name(rules, hint.card, lang))


def _faces(chance: float | None) -> int:
    """How many of the die's six faces ``chance`` stands for (children count faces, not percentages)."""
    return max(0, min(6, round(6 * (chance or 0.0))))


def _reach(storm: str, target: str, chance: float | None, lang: str) -> str:
    """"T2 will reach Taiwan" or "T2 could reach Taiwan … (2 of the 6 die faces)"; "" when it cannot."""
    n = _faces(chance)
    if n == 0:
        return ""
    if n == 6:
        return t("coach.reach_sure", lang, storm=storm, target=target)
    return t("coach.reach_some", lang, storm=storm, target=target, n=n)


#: Reasons whose sentence names no storm at stake: the worst threat to the player (or "none") is added.
_STAKE_ADDED = ("only", "play", "heal", "discard", "place", "aim", "pass")


def hint_text(hint: Hint, lang: str = "en", rules: Rules | None = None) -> str:
    """The hint in one or two plain sentences, in ``lang``: the storm, the region and the HP at stake.

    Chances are said as die faces ("2 of the 6 die faces"), never as a percentage, and a storm that
    cannot reach a region on its next move is never called a threat to it.

    >>> h = Hint("Taiwan", Action("pass"), "no_counter", typhoon=2, level=3, target="Taiwan", chance=1.0, damage=8.0)
    >>> hint_text(h)
    'T2 (moderate typhoon) will cost Taiwan about 8 HP on this move, and you have no counter card that can be played now.'
    >>> hint_text(Hint("Taiwan", Action("pass"), "only", threats=(StormThreat(1, 2, "Taiwan", 0.5, 4.0),)))
    'There is only one thing to do here. Watch out: T1 (mild typhoon) could reach Taiwan on its next move \
(3 of the 6 die faces), with about 4 HP at stake.'
    """
    from ..engine.rules import load_rules

    lang = normalize_lang(lang)
    rules = rules or load_rules()
    me = region_name(rules, hint.player, lang)
    target = region_name(rules, hint.target, lang) if hint.target else me
    storm = _storm(hint, rules, lang)
    fields = dict(you=me, target=target, storm=storm, card=_card(hint, rules, lang),
                  reach=_reach(storm, target, hint.chance, lang), damage=_hp(hint.damage or 0.0, lang),
                  saved=_hp(hint.hp_saved, lang), hurt=_hp(hint.target_hp_change, lang),
                  cell=cell_label(hint.action.cell, lang) if hint.action.cell else "")
    r = hint.reason
    reachable = bool(fields["reach"])
    if r == "attack" and (hint.typhoon is None or not reachable):
        r = "attack_plain"
    if r == "defend" and hint.typhoon is None:
        r = "play"
    elif r == "defend" and not reachable:
        r = "defend_later"
    if r in ("counter", "heal", "defend") and round(hint.hp_saved) <= 0:
        r = f"{r}_small"
    if hint.reason == "attack" and hint.leader:
        r = f"{r}_leader"
    if hint.reason in ("move", "place") and hint.compared_with is not None and round(hint.hp_saved) <= 0:
        r = f"{hint.reason}_even"
    text = t(f"coach.{r}", lang, **fields)
    if hint.reason in _STAKE_ADDED:
        text += _stake(hint, rules, lang, me)
    return text


def _stake(hint: Hint, rules: Rules, lang: str, me: str) -> str:
    """The storm, region and HP at stake for a hint whose reason names none: the worst threat, or none."""
    if hint.reason == "pass" and hint.typhoon is not None and _faces(hint.chance):
        storm = _storm(hint, rules, lang)
        return t("coach.watch", lang, reach=_reach(storm, me, hint.chance, lang), damage=_hp(hint.damage or 0.0, lang))
    worst = next((s for s in hint.threats if _faces(s.chance)), None)
    if worst is None:
        return t("coach.stake_none", lang, you=me)
    storm = t("coach.storm", lang, typhoon=f"T{worst.typhoon}", level=level_name(rules, worst.level, lang))
    return t("coach.watch", lang, reach=_reach(storm, me, worst.chance, lang), damage=_hp(worst.damage, lang))


# ------------------------------------------------------------------------------------ review
def review(game: Game, regions: Iterable[str] | None = None, *, iterations: int = REVIEW_ITERATIONS,
           threshold: float = REVIEW_THRESHOLD, limit: int = 5,
           hint_iterations: int = HINT_ITERATIONS) -> dict[str, list[ReviewItem]]:
    """For each of ``regions`` (default: every player), the decisions where the coach was clearly better.

    The game is replayed from its history (its own copy; ``game`` is not changed). At each of the
    seat's decisions with a real choice the coach analyses the position as that seat saw it, with
    the action actually played among its candidates; a decision is listed when the coach's choice
    was worth at least ``threshold`` more. The choice named is always the one :func:`hint` gives
    for that position (with ``hint_iterations``, the hints' budget), so a seat that followed the
    coach's hints is never told it erred there. At most ``limit`` per seat, the largest first, then
    in the game's order.
    """
    if getattr(game, "_scenario", False):
        raise ValueError("a position built by hand has no history to review")
    wanted = [game.rules.region_key(r) for r in (regions if regions is not None else game.players)]
    for r in wanted:
        if r not in game.players:
            raise ValueError(f"{r} is not playing; players: {', '.join(game.players)}")
    setup = {"players": list(game.players), "variant": game.variant, "dice": "manual",
             "start": game.players[game.start_seat]}
    g = replay(setup, game.seed, [], game.rules)
    g._log = False
    # First a short search at every decision of the seats asked for; then the few whose gain looks
    # largest are looked at again as a hint would (a longer search), until ``limit`` are confirmed.
    maybe: dict[str, list[tuple[float, int, Game, Action, Analysis]]] = {r: [] for r in wanted}
    for i, played in enumerate(game.history):
        who = g.current_player
        if who in maybe and len(g.legal_actions()) > 1:
            analysis = analyse_for(g, who, iterations=iterations, include=[played])  # type: ignore[arg-type]
            best, mine = analysis.best, analysis.of(played)
            if mine is not None and best.action != played and best.value - mine.value >= threshold:
                maybe[who].append((best.value - mine.value, i, g.clone(keep_log=True), played, analysis))  # type: ignore[index]
        g.apply(played)
    found: dict[str, list[ReviewItem]] = {}
    for r, candidates in maybe.items():
        items: list[ReviewItem] = []
        for _gain, i, at, played, analysis in sorted(candidates, key=lambda c: (-c[0], c[1])):
            if len(items) >= limit:
                break
            item = _confirm(at, r, played, i, analysis, iterations, threshold, hint_iterations)
            if item is not None:
                items.append(item)
        found[r] = sorted(items, key=lambda x: x.index)
    return found


def _confirm(g: Game, region: str, played: Action, index: int, analysis: Analysis, iterations: int, threshold: float,
             hint_iterations: int) -> ReviewItem | None:
    """The review's item for ``played`` at ``g`` (its short search ``analysis`` found a better choice), or None.

    The review never contradicts the coach: what it suggests, and why, is the hint a student could
    have asked for here (:func:`hint` itself, with the hints' budget), and a decision that followed
    that hint is not a mistake, whatever the shorter search thought.
    """
    h = hint(g, region, iterations=hint_iterations)
    suggested = h.action
    if suggested == played:
        return None
    if analysis.of(suggested) is None:
        analysis = analyse_for(g, region, iterations=iterations, include=[played, suggested])
    best, mine = analysis.of(suggested), analysis.of(played)
    if best is None or mine is None or best.value - mine.value < threshold:
        return None
    if _describe(best.action, "en", g.rules) == _describe(played, "en", g.rules):
        return None  # the same choice in words (a detail no student sees): not a lesson to list
    seat = g.players.index(region)
    return ReviewItem(region, index, g.round, g.phase, played, best.action, best.value - mine.value,
                      best.hp[seat] - mine.hp[seat] if best.hp and mine.hp else 0.0, h)


def review_text(item: ReviewItem, lang: str = "en", rules: Rules | None = None) -> str:
    """One "what you could try" line: when, what was played, what the coach suggests, and why."""
    from ..engine.rules import load_rules

    lang = normalize_lang(lang)
    rules = rules or load_rules()
    fields = dict(round=item.round, phase=t(f"coach.phase.{item.phase}", lang),
                  played=_describe(item.played, lang, rules), suggested=_describe(item.suggested, lang, rules))
    if round(item.hp_gain) > 0:
        head = t("coach.review", lang, **fields, gain=_hp(item.hp_gain, lang))
    else:
        head = t("coach.review_lead", lang, **fields)
    return join_sentences(head, hint_text(item.hint, lang, rules), lang=lang)  # no space after 。 in Chinese


def _describe(action: Action, lang: str, rules: Rules) -> str:
    """An action in words without the game it was made in (storms by number only)."""
    k = action.kind
    if k == "play":
        name = card_name(rules, action.card or "", lang)
        if action.typhoon is not None and action.direction is not None:
            return t("coach.act.play_dir", lang, card=name, typhoon=f"T{action.typhoon}",
                     direction=direction_name(rules, action.direction, lang))
        if action.typhoon is not None:
            return t("coach.act.play_on", lang, card=name, typhoon=f"T{action.typhoon}")
        if action.cell is not None:
            return t("coach.act.play_at", lang, card=name, cell=cell_label(action.cell, lang))
        return t("coach.act.play", lang, card=name)
    if k == "region":
        return t("coach.act.region", lang)
    if k == "pass":
        return t("coach.act.pass", lang)
    if k == "move":
        return t("coach.act.move", lang, typhoon=f"T{action.typhoon}")
    if k == "discard":
        return t("coach.act.discard", lang, card=card_name(rules, action.card or "", lang))
    if k == "place":
        return t("coach.act.place", lang, cell=cell_label(action.cell, lang))
    if k == "aim":
        return t("coach.act.aim", lang, typhoon=f"T{action.typhoon}")
    return action.notation


__all__ = ["HINT_ITERATIONS", "REASONS", "REVIEW_ITERATIONS", "REVIEW_THRESHOLD", "Hint", "ReviewItem", "StormThreat",
           "analyse_for", "hint", "hint_text", "public_seed", "review", "review_text", "storm_threats"]
