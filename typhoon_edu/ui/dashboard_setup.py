"""The dashboard's setup screen: seats, regions, start player, rules, dice, speed, saved games.

The screen only collects choices (:class:`~typhoon_edu.ui.dashboard_model.SetupChoices`) and
lists the save folder; :class:`~typhoon_edu.ui.dashboard.ClassPlayApp` starts or resumes games.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from .. import i18n
from ..engine.rules import load_rules
from .dashboard_model import SPEEDS, SeatChoice, SetupChoices, d, latest_unfinished, save_title, seat_choices
from .dashboard_session import ClassSession, SaveInfo
from .dashboard_widgets import Labels, button, choice, close_all, html

if TYPE_CHECKING:
    from .dashboard import ClassPlayApp

MAX_SEATS = 5
BY_RULES = -1  # the start-player choice "by the rules" (a Dropdown cannot hold None as a choice)
SAVES_SHOWN = 8


def speed_options(lang: str) -> list[tuple[str, float]]:
    """The speed choices, labelled in ``lang``."""
    names = {0.5: "speed.slow", 1.0: "speed.normal", 2.0: "speed.fast", 4.0: "speed.faster", 0.0: "speed.instant"}
    return [(d(names[s], lang), s) for s in SPEEDS]


def save_reason(info: SaveInfo, lang: str) -> str:
    """Why a save file cannot be used, in ``lang`` (the English detail when the case has no text)."""
    key = f"error.save.{info.kind}"
    return i18n.t(key, lang) if info.kind and i18n.has(key, lang) else info.error


class SeatRow:
    """One seat of the setup screen: kind (person or bot level), name, region."""

    def __init__(self, index: int, labels: Labels, rules: Any) -> None:
        self.index = index
        self.title = labels.bind(html(), "value", lambda lang: f"<b>{escape(d('setup.seat', lang, n=index + 1))}</b>")
        self.title.layout.width = "6em"
        kinds = seat_choices()
        self.kind = choice(labels, widgets.Dropdown, lambda lang: [(d(f"kind.{k}", lang), k) for k in kinds], "person",
                           layout=widgets.Layout(width="13em"))
        self.kind.add_class(f"typhoon-seat-kind-{index}")
        self.name = labels.bind(widgets.Text(layout=widgets.Layout(width="11em")), "placeholder",
                                lambda lang: d("setup.name", lang))
        self.name.add_class(f"typhoon-seat-name-{index}")
        keys = list(rules.regions)
        self.region = choice(labels, widgets.Dropdown, lambda lang: [(i18n.region_name(rules, k, lang), k) for k in keys],
                             keys[index % len(keys)], layout=widgets.Layout(width="10em"))
        self.region.add_class(f"typhoon-seat-region-{index}")
        self.box = widgets.HBox([self.title, self.kind, self.name, self.region],
                                layout=widgets.Layout(align_items="center", margin="2px 0"))
        self.kind.observe(lambda _c: self._sync(), "value")
        self._sync()

    def _sync(self) -> None:
        self.name.layout.visibility = "visible" if self.kind.value == "person" else "hidden"

    def choice(self, chosen_regions: bool) -> SeatChoice:
        """What this row says."""
        return SeatChoice(self.kind.value, self.name.value if self.kind.value == "person" else "",
                          self.region.value if chosen_regions else None)


class SetupScreen:
    """The first screen: a new game's choices, and the saved games (the latest unfinished one first)."""

    def __init__(self, app: ClassPlayApp) -> None:
        self.app = app
        labels = app.labels
        rules = load_rules()
        self.rules = rules
        self.title = labels.bind(html("typhoon-setup-title"), "value",
                                 lambda lang: f"<h2 style='margin:.2em 0'>{escape(d('setup.title', lang))}</h2>")
        # resume: the newest unfinished game, offered first and large
        self.resume_text = html()
        self.resume_button = labels.bind(button("typhoon-resume-latest", "success", "play"), "description",
                                         lambda lang: d("setup.resume", lang))
        self.resume_button.add_class("typhoon-big-button")
        self.resume_button.on_click(lambda _b: self._resume_latest())
        self.resume_box = widgets.VBox([self.resume_text, self.resume_button], layout=widgets.Layout(display="none"))
        self.resume_box.add_class("typhoon-resume-box")
        self._latest: SaveInfo | None = None

        # seats
        self.count = labels.bind(widgets.ToggleButtons(options=[("3", 3), ("4", 4), ("5", 5)], value=4), "description",
                                 lambda lang: d("setup.players", lang))
        self.count.style.description_width = "initial"
        self.count.add_class("typhoon-seat-count")
        self.rows = [SeatRow(i, labels, rules) for i in range(MAX_SEATS)]
        self.regions = choice(labels, widgets.ToggleButtons, lambda lang: [(d("setup.regions_random", lang), "random"),
                                                                           (d("setup.regions_chosen", lang), "chosen")], "random")
        self.regions.add_class("typhoon-regions")
        self.regions_label = labels.bind(html(), "value", lambda lang: f"<b>{escape(d('setup.regions', lang))}</b>")
        self.start = choice(labels, widgets.Dropdown, self._start_options, BY_RULES, layout=widgets.Layout(width="16em"))
        self.start.add_class("typhoon-start-player")
        self.start_label = labels.bind(html(), "value", lambda lang: f"<b>{escape(d('setup.start_player', lang))}</b>")
        # rules, dice, speed
        self.variant = choice(labels, widgets.ToggleButtons, lambda lang: [(d("setup.standard", lang), "standard"),
                                                                           (d("setup.advanced", lang), "advanced")], "standard")
        self.variant_label = labels.bind(html(), "value", lambda lang: f"<b>{escape(d('setup.variant', lang))}</b>")
        self.dice = choice(labels, widgets.ToggleButtons, lambda lang: [(d("setup.dice_auto", lang), "auto"),
                                                                        (d("setup.dice_manual", lang), "manual")], "auto")
        self.dice.add_class("typhoon-dice-mode")
        self.dice_label = labels.bind(html(), "value", lambda lang: f"<b>{escape(d('setup.dice', lang))}</b>")
        self.speed = choice(labels, widgets.ToggleButtons, speed_options, 1.0)
        self.speed.add_class("typhoon-speed")
        self.speed_label = labels.bind(html(), "value", lambda lang: f"<b>{escape(d('setup.speed', lang))}</b>")
        self.seed = labels.bind(widgets.Text(layout=widgets.Layout(width="10em")), "placeholder",
                                lambda lang: d("setup.seed_placeholder", lang))
        self.seed.add_class("typhoon-seed")
        self.seed_label = labels.bind(html(), "value", lambda lang: f"<b>{escape(d('setup.seed', lang))}</b>")
        self.start_button = labels.bind(button("typhoon-setup-start", "primary", "play"), "description",
                                        lambda lang: d("setup.start", lang))
        self.start_button.add_class("typhoon-big-button")
        self.start_button.on_click(lambda _b: self._start())
        self.message = html("typhoon-setup-message")

        # saved games
        self.saves_title = labels.bind(html(), "value", lambda lang: f"<h3 style='margin:.3em 0'>{escape(d('saves.title', lang))}</h3>")
        self.saves_box = widgets.VBox()
        self.saves_box.add_class("typhoon-saves")
        self._save_widgets: list[widgets.Widget] = []

        self.count.observe(lambda _c: self._sync_rows(), "value")
        self.regions.observe(lambda _c: self._sync_rows(), "value")
        for row in self.rows:
            row.region.observe(lambda _c: self._refresh_start(), "value")
        self.seats_title = labels.bind(html(), "value", lambda lang: f"<h3 style='margin:.3em 0'>{escape(d('setup.seats', lang))}</h3>")
        left = widgets.VBox([self.seats_title, self.count, *[r.box for r in self.rows], self.regions_label, self.regions,
                             self.start_label, self.start], layout=widgets.Layout(flex="1 1 32em", min_width="26em"))
        right = widgets.VBox([self.variant_label, self.variant, self.dice_label, self.dice, self.speed_label, self.speed,
                              widgets.HBox([self.seed_label, self.seed], layout=widgets.Layout(align_items="center"))],
                             layout=widgets.Layout(flex="1 1 26em", min_width="22em"))
        form = widgets.HBox([left, right], layout=widgets.Layout(flex_flow="row wrap", width="100%"))
        self.box = widgets.VBox([self.title, self.resume_box, form, self.start_button, self.message, self.saves_title,
                                 self.saves_box], layout=widgets.Layout(width="100%", padding="0 .5em"))
        self.box.add_class("typhoon-setup")
        self._sync_rows()

    # --- reading the form ------------------------------------------------------------------

    def _start_options(self, lang: str) -> list[tuple[str, int]]:
        n = self.count.value if hasattr(self, "count") else 4
        chosen = hasattr(self, "regions") and self.regions.value == "chosen"
        opts: list[tuple[str, int]] = [(d("setup.start_rules", lang), BY_RULES)]
        for i in range(n):
            label = d("setup.seat", lang, n=i + 1)
            if chosen and hasattr(self, "rows"):
                label += f" · {i18n.region_name(self.rules, self.rows[i].region.value, lang)}"
            opts.append((label, i))
        return opts

    def _refresh_start(self) -> None:
        keep = self.start.value
        self.start.options = self._start_options(self.app.lang)
        self.start.value = keep if keep < self.count.value else BY_RULES

    def _sync_rows(self) -> None:
        for i, row in enumerate(self.rows):
            row.box.layout.display = "flex" if i < self.count.value else "none"
            row.region.layout.visibility = "visible" if self.regions.value == "chosen" else "hidden"
        self._refresh_start()

    def choices(self) -> SetupChoices:
        """What the form says now."""
        chosen = self.regions.value == "chosen"
        seed_text = self.seed.value.strip()
        seed = int(seed_text) if seed_text.isdecimal() else None
        start = None if self.start.value == BY_RULES else int(self.start.value)
        return SetupChoices([r.choice(chosen) for r in self.rows[: self.count.value]], self.regions.value, start,
                            self.variant.value, self.dice.value, float(self.speed.value), seed)

    def fill(self, choices: SetupChoices) -> None:
        """Put ``choices`` into the form (for a rematch, and for tests)."""
        self.count.value = len(choices.seats)
        self.regions.value = choices.regions
        for row, c in zip(self.rows, choices.seats, strict=False):
            row.kind.value = c.kind
            row.name.value = c.name
            if c.region is not None:
                row.region.value = c.region
        self._refresh_start()
        self.start.value = BY_RULES if choices.start is None else choices.start
        self.variant.value = choices.variant
        self.dice.value = choices.dice
        self.speed.value = choices.speed
        self.seed.value = "" if choices.seed is None else str(choices.seed)

    def _start(self) -> None:
        if self.seed.value.strip() and not self.seed.value.strip().isdecimal():
            self.show_error(d("error.seed", self.app.lang))
            return
        self.app.start(self.choices())

    def show_error(self, text: str) -> None:
        """Show a message under the start button."""
        self.message.value = f"<span style='color:#b91c1c;font-weight:bold;font-size:1.1em'>{escape(text)}</span>"

    # --- saved games ----------------------------------------------------------------------

    def refresh_saves(self) -> list[SaveInfo]:
        """Read the save folder again and show it (damaged files are listed with their reason)."""
        saves = ClassSession.list_saves(self.app.save_dir)
        self._saves = saves
        self._latest = latest_unfinished(saves)
        self._render_saves()
        return saves

    def _render_saves(self) -> None:
        lang = self.app.lang
        close_all(self._save_widgets)
        self._save_widgets = []
        latest = self._latest
        if latest is not None:
            self.resume_text.value = (f"<div style='font-size:1.25em'><b>{escape(d('setup.resume_title', lang))}</b><br>"
                                      f"{escape(save_title(latest, self.rules, lang))}</div>")
            self.resume_box.layout.display = "flex"
        else:
            self.resume_box.layout.display = "none"
        rows: list[widgets.Widget] = []
        saves = getattr(self, "_saves", [])
        if not saves:
            rows.append(html(value=f"<i>{escape(d('saves.none', lang))}</i>"))
        for info in saves[:SAVES_SHOWN]:
            if not info.ok:
                rows.append(html("typhoon-save-damaged", value=(
                    f"<span style='color:#b91c1c'>⚠ <b>{escape(info.path.name)}</b>: "
                    f"{escape(d('saves.damaged', lang, reason=save_reason(info, lang)))}</span>")))
                continue
            label = html(value=f"<b>{escape(info.path.stem)}</b> · {escape(save_title(info, self.rules, lang))}")
            b = button(["typhoon-save-open", f"typhoon-save-{info.path.stem}"], icon="folder-open")
            b.description = d("saves.results" if info.over else "saves.open", lang)
            b.on_click(lambda _b, p=info.path: self.app.resume(p))
            rows.append(widgets.HBox([b, label], layout=widgets.Layout(align_items="center")))
        if len(saves) > SAVES_SHOWN:
            rows.append(html(value=f"<i>{escape(d('saves.more', lang, count=len(saves) - SAVES_SHOWN))}</i>"))
        self._save_widgets = rows
        self.saves_box.children = rows

    def _resume_latest(self) -> None:
        if self._latest is not None:
            self.app.resume(self._latest.path)

    @property
    def latest(self) -> Path | None:
        """The newest unfinished game's file, offered by the big Resume button."""
        return self._latest.path if self._latest is not None else None

    def set_lang(self, lang: str) -> None:
        """Texts bound through the app's labels switch by themselves; the save list is rebuilt."""
        self._refresh_start()
        self._render_saves()


__all__ = ["SeatRow", "SetupScreen", "speed_options"]
