"""The results screen: winners, every region's HP over the game, a summary, downloads, rematch."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

import ipywidgets as widgets

from ... import i18n
from ...engine import events as ev
from ..buttons import legible
from ..palette import region_fill
from .hosts import ResultsHost
from .hpchart import hp_chart_svg
from .hppanel import hp_panel_html
from .model import Seats, nobody_hurt, seat_label
from .tables import seat_infos
from .viewdata import d, data_uri


def summary_lines(summary: dict[str, Any], seats: Seats, rules: Any, lang: str) -> list[str]:
    """Winners, the biggest storm, the region hit hardest: the largest share of its HP lost
    (:func:`~typhoon_edu.classroom.results.summary`), said with its HP at the start, so that a 40-HP region that lost
    29 is not "most damage" beside a 43-HP region that lost 30 without a word of why.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> from typhoon_edu.ui.classplay.model import SeatInfo
    >>> s = {"winners": ["Japan"], "biggest_typhoon": 3, "biggest_level": 4, "most_damaged": "Taiwan",
    ...      "damage_taken": {"Taiwan": 12, "Japan": 0}}
    >>> lines = summary_lines(s, {"Japan": SeatInfo("Japan", "person", "Ann")}, load_rules(), "en")
    >>> lines[0], lines[-1]
    ('Winner: Ann (Japan)', 'Hardest hit: Taiwan lost 12 of 42 HP')
    """
    winners = summary["winners"]
    lines = [d("results.winners_one" if len(winners) == 1 else "results.winners", lang,
               winners=i18n.join_names((seat_label(seats, w, lang) for w in winners), lang))] if winners else []
    if summary.get("biggest_typhoon") is not None:
        lines.append(d("results.biggest", lang, typhoon=i18n.typhoon_label(summary["biggest_typhoon"], lang),
                       level=i18n.level_name(rules, summary["biggest_level"], lang)))
    worst = summary.get("most_damaged")
    if worst is not None and summary["damage_taken"].get(worst, 0) > 0:
        amount, full = summary["damage_taken"][worst], rules.regions[worst].hp
        # healed on the way, a region can lose more in all than it started with: then no "of"
        lines.append(d("results.most_damage" if amount <= full else "results.most_damage_healed", lang,
                       player=seat_label(seats, worst, lang), amount=amount, full=full))
    else:
        lines.append(d("results.no_damage", lang))
    return lines


def rounds_in(variant: str) -> int:
    """Rounds a game of ``variant`` lasts (the engine's rule: one in the advanced game, three otherwise).

    >>> rounds_in("standard"), rounds_in("advanced")
    (3, 1)
    """
    return 1 if variant == "advanced" else 3


@dataclass
class GameFacts:
    """What a class can talk about after a game, counted from its public events (the same for every game, one
    with damage or one in which every storm missed)."""

    #: Storms put on the map (placed), storms' landfalls, storms that left the map over its edge.
    storms: int = 0
    landfalls: int = 0
    off_map: int = 0
    #: Per region: storms it placed, cards it played (counter cards too), region-card abilities it used.
    placed: Counter[str] = field(default_factory=Counter)
    cards: Counter[str] = field(default_factory=Counter)
    abilities: Counter[str] = field(default_factory=Counter)

    @property
    def nothing_done(self) -> bool:
        """No team had placed a storm, played a card or used its region card (a game ended at once)."""
        return not (self.placed or self.cards or self.abilities)


def game_facts(events: Iterable[ev.Event]) -> GameFacts:
    """Count :class:`GameFacts` in ``events`` (a room's public events).

    >>> facts = game_facts([ev.TyphoonPlaced(1, (8, 8), 1, "Taiwan"), ev.CardPlayed("Japan", "sharp_turn", False),
    ...                     ev.Landfall(1, 2, 1), ev.TyphoonRemoved(1, "edge", None)])
    >>> facts.storms, facts.landfalls, facts.off_map, facts.placed["Taiwan"], facts.cards["Japan"], facts.nothing_done
    (1, 1, 1, 1, 1, False)
    """
    facts = GameFacts()
    for e in events:
        if isinstance(e, ev.TyphoonPlaced):
            facts.storms += 1
            facts.placed[e.by] += 1
        elif isinstance(e, ev.CardPlayed):
            facts.cards[e.player] += 1
        elif isinstance(e, ev.AbilityUsed):
            facts.abilities[e.player] += 1
        elif isinstance(e, ev.Landfall):
            facts.landfalls += 1
        elif isinstance(e, ev.TyphoonRemoved) and e.reason == "edge":
            facts.off_map += 1
    return facts


def facts_html(facts: GameFacts, players: Sequence[str], seats: Seats, lang: str, *, round_now: int,
               rounds: int) -> str:
    """The game in numbers: large tiles (rounds, storms, landfalls, storms off the map) and what each team did
    (storms placed, cards played, its region card), as HTML. A game ended before anything happened says so in a
    sentence, not in a table of zeros.

    >>> from typhoon_edu.ui.classplay.model import SeatInfo
    >>> seats = {"Taiwan": SeatInfo("Taiwan", "person", "Mei")}
    >>> html = facts_html(GameFacts(), ["Taiwan"], seats, "en", round_now=1, rounds=3)
    >>> "1 / 3" in html, "No team had placed a storm" in html, "<table" in html
    (True, True, False)
    """
    def tile(value: str, key: str, kind: str) -> str:
        return (f"<div class='typhoon-fact' data-fact='{kind}'><div class='typhoon-fact-value'>{escape(value)}</div>"
                f"<div class='typhoon-fact-label'>{escape(i18n.t(key, lang))}</div></div>")

    t = "classplay.results.facts"
    tiles = [tile(f"{min(round_now, rounds)} / {rounds}", f"{t}.rounds", "rounds"),
             tile(str(facts.storms), f"{t}.storms", "storms")]
    if facts.storms:  # where the storms went: said only of storms there were
        tiles += [tile(str(facts.landfalls), f"{t}.landfalls", "landfalls"),
                  tile(str(facts.off_map), f"{t}.off_map", "off-map")]
    out = [f"<h3 class='typhoon-facts-title'>{escape(i18n.t(f'{t}.title', lang))}</h3>",
           f"<div class='typhoon-facts-tiles'>{''.join(tiles)}</div>"]
    if facts.nothing_done:
        out.append(f"<p class='typhoon-facts-none'>{escape(i18n.t(f'{t}.nothing_yet', lang))}</p>")
    else:
        head = "".join(f"<th scope='col'>{escape(i18n.t(f'{t}.{k}', lang))}</th>"
                       for k in ("team", "placed", "cards", "ability"))
        rows = []
        for p in players:
            used = i18n.t(f"{t}.ability_used" if facts.abilities[p] else f"{t}.ability_not_used", lang)
            rows.append(f"<tr data-region='{escape(p)}'><th scope='row'>{escape(seat_label(seats, p, lang))}</th>"
                        f"<td>{facts.placed[p]}</td><td>{facts.cards[p]}</td><td>{escape(used)}</td></tr>")
        out.append(f"<table class='typhoon-facts-table'><thead><tr>{head}</tr></thead>"
                   f"<tbody>{''.join(rows)}</tbody></table>")
    return f"<div class='typhoon-facts'>{''.join(out)}</div>"


class ResultsScreen:
    """Shown when a room's game is over or ended (or a finished room is opened)."""

    def __init__(self, app: ResultsHost) -> None:
        self.app = app
        g = app.problems
        self.headline = widgets.HTML()
        self.headline.add_class("typhoon-results")
        self.chart = widgets.HTML()
        self.chart.add_class("typhoon-chart")
        self.summary = widgets.HTML()
        self.summary.add_class("typhoon-summary")
        self.hp = widgets.HTML()
        self.hp.add_class("typhoon-hp-panel")
        self.facts = widgets.HTML()  # the game in numbers: what the class can talk about, damage or none
        self.facts.add_class("typhoon-facts-box")
        self.downloads = widgets.HTML()
        self.downloads.add_class("typhoon-downloads")
        self.review_button = widgets.Button(icon="lightbulb-o", layout=widgets.Layout(width="auto"))
        self.review_button.add_class("typhoon-review-button")
        g.on_click(self.review_button, lambda _b: self.review(), where="coach review")
        self.review_box = widgets.HTML()
        self.review_box.add_class("typhoon-review")
        self._reviews: dict[str, list[Any]] | None = None
        #: The room the review above is of (the very object: a new game, a rematch, a reopened room is another)
        self._reviewed: Any = None
        self.extra = widgets.VBox([self.review_button, self.review_box])  # the coach's "what you could try"
        self.extra.add_class("typhoon-results-extra")
        self.rematch = legible(widgets.Button(button_style="success", icon="repeat", layout=widgets.Layout(width="auto")))
        self.rematch.add_class("typhoon-rematch")
        self.rematch.add_class("typhoon-big-button")
        g.on_click(self.rematch, lambda _b: app.rematch(), where="rematch")
        self.new_game = widgets.Button(button_style="primary", icon="plus", layout=widgets.Layout(width="auto"))
        self.new_game.add_class("typhoon-new-game")
        self.new_game.add_class("typhoon-big-button")
        g.on_click(self.new_game, lambda _b: app.new_game(), where="new game")
        buttons = widgets.HBox([self.rematch, self.new_game], layout=widgets.Layout(flex_flow="row wrap"))
        left = widgets.VBox([self.chart, self.facts], layout=widgets.Layout(flex="3 1 36em"))
        right = widgets.VBox([self.summary, self.hp, self.downloads, self.extra], layout=widgets.Layout(flex="2 1 22em"))
        self.box = widgets.VBox([self.headline, app.problems.widget, buttons,
                                 widgets.HBox([left, right], layout=widgets.Layout(flex_flow="row wrap"))],
                                layout=widgets.Layout(width="100%", overflow="auto"))
        self.box.add_class("typhoon-results-screen")

    def render(self) -> None:
        room, lang, rules = self.app.room, self.app.lang, self.app.rules
        if room is None:
            return
        seats = seat_infos(room)
        summary = room.summary()
        names = [seat_label(seats, w, lang) for w in summary["winners"]]
        title = d("results.title", lang) if room.is_over else i18n.t("classplay.results.ended", lang)
        winners = list(summary["winners"])
        label_key = "classplay.results.winner_label_one" if len(winners) == 1 else "classplay.results.winner_label"
        if not winners:  # ended early: no winner by the rules, but the class sees who was ahead
            hp = room.game.hp
            top = max(hp.values()) if hp else 0
            winners = [p for p in room.players if hp.get(p, 0) == top and top > 0]
            label_key = "classplay.results.leader_label"
            if nobody_hurt(room.hp_track, hp):
                # no storm did damage: the most HP is only the most HP to start with, nobody's lead
                winners, label_key = [], "classplay.results.no_leader"
            names = [seat_label(seats, w, lang) for w in winners]
        crowned = "".join(f"<span class='typhoon-winner' data-region='{escape(w)}' title='{escape(n)}' "
                          f"style='border-color:{region_fill(rules.regions[w])}'>★ {escape(n)}</span>"
                          for w, n in zip(winners, names, strict=True))
        label = i18n.t(label_key, lang) if names or label_key == "classplay.results.no_leader" else ""
        self.headline.value = (f"<div class='typhoon-results-head'><div class='typhoon-results-title'>{escape(title)}</div>"
                               f"<div class='typhoon-winner-label'>{escape(label)}</div>"
                               f"<div class='typhoon-results-winners'>{crowned}</div></div>")
        labels = {p: seat_label(seats, p, lang) for p in room.players}
        players = list(room.players)
        # one chart for a screen, one for a phone (its words at their size there); the style sheet shows one.
        # No chart when no storm did damage: one point in an empty plot says nothing the summary does not
        track = room.hp_track
        self.chart.value = "" if all(point == track[0] for point in track) else (
                            f"<h3>{escape(d('results.chart_heading', lang))}</h3>"
                            f"<div class='typhoon-chart-wide'>{hp_chart_svg(rules, players, track, lang, labels)}</div>"
                            f"<div class='typhoon-chart-narrow'>"
                            f"{hp_chart_svg(rules, players, track, lang, labels, narrow=True)}</div>")
        game = room.game
        self.facts.value = facts_html(game_facts(room.events()), players, seats, lang, round_now=game.round,
                                      rounds=rounds_in(game.variant))
        self.summary.value = "<ul>" + "".join(f"<li>{escape(x)}</li>" for x in summary_lines(summary, seats, rules, lang)) \
            + "</ul>"
        self.hp.value = hp_panel_html(rules, room.game.hp, seats, lang)
        stem = f"{room.code}"
        self.downloads.value = (
            f"<div><b>{escape(d('results.downloads', lang))}</b><br>"
            f"<a class='typhoon-download-json' download='typhoon-{escape(stem)}.json' "
            f"href='{data_uri(room.record_json(), 'application/json')}'>↓ {escape(d('results.download_json', lang))}</a><br>"
            f"<a class='typhoon-download-csv' download='typhoon-{escape(stem)}-events.csv' "
            f"href='{data_uri(room.events_csv(), 'text/csv')}'>↓ {escape(d('results.download_csv', lang))}</a></div>")
        self.review_button.description = i18n.t("classplay.coach.review_button", lang)
        persons = any(s.is_person for s in room.seats)
        self.extra.layout.display = None if persons and room.hints_enabled else "none"
        self._render_review()
        self.rematch.description = d("results.rematch", lang)
        self.new_game.description = d("results.new_game", lang)

    # ------------------------------------------------------------------ the coach's review
    def review(self, iterations: int | None = None, hint_iterations: int | None = None) -> None:
        """Ask the coach, for every person, where a clearly better choice was (a worker thread when a loop runs;
        the budgets: :meth:`typhoon_edu.classroom.rooms.Room.review`)."""
        import asyncio

        room = self.app.room
        if room is None:
            return
        self._reviews, self._reviewed = None, room  # what is asked now replaces any older review
        self.review_box.value = f"<i>{escape(i18n.t('classplay.coach.review_working', self.app.lang))}</i>"
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self._reviews = room.review(iterations=iterations, hint_iterations=hint_iterations)
            self._render_review()
            return

        async def run() -> None:
            try:
                reviews = await loop.run_in_executor(
                    None, lambda: room.review(iterations=iterations, hint_iterations=hint_iterations))
            except Exception as exc:  # noqa: BLE001 - told on the page, like any callback failure
                if self._reviewed is room:
                    self.review_box.value = ""
                self.app.problems.report(exc, "coach review")
                return
            if self._reviewed is not room or self.app.room is not room:
                return  # the teacher moved on to another game while the coach looked back: not its review
            self._reviews = reviews
            self._render_review()

        loop.create_task(run())

    def _render_review(self) -> None:
        from ...ai.coach import review_text

        room, lang = self.app.room, self.app.lang
        if room is None or self._reviewed is not room:
            # another game's review (a new game, a rematch, another room opened): forgotten, not shown
            self._reviews, self._reviewed = None, None
            self.review_box.value = ""
            return
        if self._reviews is None:
            return  # asked, still being worked out: "The coach is looking back…" stays
        seats = seat_infos(room)
        parts = [f"<h3>{escape(i18n.t('classplay.coach.review_title', lang))}</h3>"]
        for region, items in self._reviews.items():
            label = seat_label(seats, region, lang)
            if not items:
                parts.append(f"<p>{escape(i18n.t('classplay.coach.review_none', lang, player=label))}</p>")
                continue
            parts.append(f"<p><b>{escape(label)}</b></p><ul>"
                         + "".join(f"<li>{escape(review_text(x, lang, self.app.rules))}</li>" for x in items) + "</ul>")
        self.review_box.value = "".join(parts)
