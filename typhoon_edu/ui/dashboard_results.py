"""The dashboard's results screen: winners, HP over the game, summary, rematch, downloads."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

import ipywidgets as widgets

from .dashboard_chart import hp_chart_svg
from .dashboard_model import d, data_uri, seat_label, summary_lines
from .dashboard_widgets import Labels, button, html
from .hp_track import HPTrack

if TYPE_CHECKING:
    from .dashboard import ClassPlayApp


class ResultsScreen:
    """Shown when a game is over (or a finished save is opened)."""

    def __init__(self, app: ClassPlayApp) -> None:
        self.app = app
        labels: Labels = app.labels
        self.headline = html("typhoon-results")
        self.chart_title = labels.bind(html(), "value", lambda lang: f"<h3 style='margin:.3em 0'>{escape(d('results.chart_heading', lang))}</h3>")
        self.chart = html("typhoon-chart")
        self.summary = html("typhoon-summary")
        self.hp = HPTrack(lang=app.lang)
        self.downloads = html("typhoon-downloads")
        self.rematch = labels.bind(button("typhoon-rematch", "success", "repeat"), "description", lambda lang: d("results.rematch", lang))
        self.rematch.add_class("typhoon-big-button")
        self.rematch.on_click(lambda _b: self.app.rematch())
        self.new_game = labels.bind(button("typhoon-new-game", "primary", "plus"), "description", lambda lang: d("results.new_game", lang))
        self.new_game.add_class("typhoon-big-button")
        self.new_game.on_click(lambda _b: self.app.new_game())
        buttons = widgets.HBox([self.rematch, self.new_game], layout=widgets.Layout(flex_flow="row wrap"))
        left = widgets.VBox([self.chart_title, self.chart], layout=widgets.Layout(flex="3 1 36em"))
        right = widgets.VBox([self.summary, self.hp, self.downloads], layout=widgets.Layout(flex="2 1 22em"))
        self.box = widgets.VBox([self.headline, buttons,
                                 widgets.HBox([left, right], layout=widgets.Layout(flex_flow="row wrap"))],
                                layout=widgets.Layout(width="100%"))
        self.box.add_class("typhoon-results-screen")

    def render(self) -> None:
        """Fill the screen from the app's session, in the app's language."""
        s = self.app.session
        if s is None:
            return
        lang = self.app.lang
        game = s.game
        summary = s.summary()
        names = [seat_label(s, w, lang) for w in summary["winners"]]
        self.headline.value = (f"<div style='background:#dcfce7;border-left:10px solid #16a34a;border-radius:6px;padding:.4em .9em'>"
                               f"<div style='font-size:1.9em;font-weight:bold'>{escape(d('results.title', lang))}</div>"
                               f"<div style='font-size:1.5em'>{escape(' · '.join(names))}</div></div>")
        labels = {p: seat_label(s, p, lang) for p in game.players}
        self.chart.value = hp_chart_svg(game.rules, list(game.players), s.hp_track, lang, labels)
        self.summary.value = "<ul style='font-size:1.2em;margin:.2em 0'>" + "".join(
            f"<li>{escape(line)}</li>" for line in summary_lines(s, lang)) + "</ul>"
        self.hp.regions = list(game.players)
        self.hp.set_lang(lang)
        self.hp.update(game.hp)
        stem = s.game_id
        self.downloads.value = (
            f"<div style='font-size:1.1em'><b>{escape(d('results.downloads', lang))}</b><br>"
            f"<a class='typhoon-download-json' download='typhoon-{escape(stem)}.json' "
            f"href='{data_uri(s.record_json(), 'application/json')}'>↓ {escape(d('results.download_json', lang))}</a><br>"
            f"<a class='typhoon-download-csv' download='typhoon-{escape(stem)}-events.csv' "
            f"href='{data_uri(s.events_csv(), 'text/csv')}'>↓ {escape(d('results.download_csv', lang))}</a></div>")

    def set_lang(self, lang: str) -> None:
        """Re-render in ``lang``."""
        self.render()


__all__ = ["ResultsScreen"]
