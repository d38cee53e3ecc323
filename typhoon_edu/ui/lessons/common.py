"""Shared pieces of the lesson widgets: lesson texts, small SVG charts, and a box that also saves a picture.

Every lesson string lives under ``[lesson]`` in ``data/i18n/<lang>.lessons.toml``; :func:`lt` reads
one. Charts are SVG strings (no matplotlib), so they display live and in saved notebooks alike.

>>> lt("common.right", "zh-TW")
'答對了！'
>>> svg = bar_chart_svg(["N", "E"], [("rolls", [0.5, 0.25], "#2563eb")], title="demo")
>>> svg.count('data-role="bar"')
2
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from ... import i18n
from .. import palette
from ..touch import PHONE_MAX_PX, touch_style


def lt(key: str, lang: str = "en", /, **fmt: Any) -> str:
    """A lesson text: ``lt("compass.title", "en")`` is the catalog entry ``lesson.compass.title``.

    >>> lt("common.wrong", "en")
    'Not quite.'
    """
    return i18n.t(f"lesson.{key}", lang, **fmt)


#: The space between a number and its unit (``15.1 °N``, ``121 km``, ``24 h``, ``51.0 m/s``, ``26.5 °C``, ``130 knots``,
#: ``1,994 mm``, ``5 min``, ``70 %``; ``121 公里``, ``15.1 度``, ``50 公尺``, ``10 分鐘``) and, in Chinese, between
#: 北緯/東經/每秒/每小時 and the number after it. The lesson notebooks' own text follows it too
#: (tests/test_lesson_units.py checks their markdown).
_UNIT_GAP = re.compile(r"(?<=\d) (?=°|km/h|km\b|hPa|kt\b|knots?\b|h\b|m/s|mm\b|min\b|m\b|%|度|公里|百帕|節|小時|公尺|毫米|分鐘)"
                       r"|(?:(?<=北緯|東經|每秒)|(?<=每小時)) (?=\d)")
#: A tag of HTML (its attributes are never text), or a whole style sheet or script; split by them, the text is
#: every other piece.
_TAG = re.compile(r"(<style\b[\s\S]*?</style>|<script\b[\s\S]*?</script>|<[^>]*>)", re.IGNORECASE)


def keep_units(text: str) -> str:
    """``text`` with a no-break space between each number and its unit, so that a narrow screen (a phone) never
    ends a line between them (``15.1`` at the end of one line, ``°N`` at the start of the next).

    Only what is shown gets it: a value that is computed with, saved or compared (an answer, a CSV cell) keeps its
    plain space.

    >>> keep_units("24 h: 15.1 °N, 117 °E · 1005 hPa") == "24\u00a0h: 15.1\u00a0°N, 117\u00a0°E · 1005\u00a0hPa"
    True
    >>> keep_units("北緯 15.1 度、東經 117 度，差 121 公里") == "北緯\u00a015.1\u00a0度、東經\u00a0117\u00a0度，差 121\u00a0公里"
    True
    >>> keep_units("In the last 24 hours it moved 300 km")  # "hours" is a word of the sentence, not a unit
    'In the last 24 hours it moved 300\xa0km'
    >>> keep_units("51.0 m/s (184 km/h), 26.5 °C, 50 m deep, 10 minutes") == "51.0\u00a0m/s (184\u00a0km/h), 26.5\u00a0°C, 50\u00a0m deep, 10 minutes"
    True
    >>> keep_units("每秒 51.0 公尺（每小時 184 公里）") == "每秒\u00a051.0\u00a0公尺（每小時\u00a0184\u00a0公里）"
    True
    """
    return _UNIT_GAP.sub("\u00a0", text)


def keep_units_html(html: str) -> str:
    """:func:`keep_units` on the text of a piece of HTML, never inside its tags (attributes stay as they are).

    >>> keep_units_html("<td title='6 h'>passed 41 km away</td>") == "<td title='6 h'>passed 41\u00a0km away</td>"
    True
    >>> keep_units_html("<style>.a { margin: 0 2 m }</style>50 m") == "<style>.a { margin: 0 2 m }</style>50\u00a0m"
    True
    """
    return "".join(keep_units(part) if k % 2 == 0 else part for k, part in enumerate(_TAG.split(html)))


def _keep_html_units(change: dict[str, Any]) -> None:
    kept = keep_units_html(change["new"])
    if kept != change["new"]:
        change["owner"].value = kept


def keep_widget_units(widget: widgets.Widget) -> widgets.Widget:
    """Keep each number shown by ``widget`` and the widgets inside it on the line of its unit; return ``widget``.

    For widgets whose texts the lessons do not write themselves (the quiz's questions and the predictions of
    :mod:`typhoon_edu.ui.quiz`): every HTML text, now and whenever it changes (a question's feedback), every
    button's label and tooltip and every choice's label get :func:`keep_units`. What the widgets keep as their
    values (an answer, the text that goes into the CSV) is left as it is.

    >>> box = widgets.VBox([widgets.HTML("<b>about 360 km</b>"), widgets.Button(description="184 km/h"),
    ...                     widgets.ToggleButtons(options=[("5 h", "a"), ("6 h", "b")], value="b")])
    >>> html, button, choice = keep_widget_units(box).children
    >>> html.value == "<b>about 360\u00a0km</b>", button.description == "184\u00a0km/h", choice.value
    (True, True, 'b')
    >>> html.value = "then 5 × 360 km"; html.value == "then 5 × 360\u00a0km"
    True
    """
    stack = [widget]
    while stack:
        item = stack.pop()
        if isinstance(item, widgets.HTML):
            item.value = keep_units_html(item.value)
            item.observe(_keep_html_units, "value")
        elif isinstance(item, widgets.Button):
            item.description = keep_units(item.description)
            if item.tooltip:
                item.tooltip = keep_units(item.tooltip)
        elif isinstance(item, widgets.ToggleButtons):  # a prediction's choices
            pairs = list(zip(item._options_labels, item._options_values, strict=True))
            kept = [(keep_units(label), value) for label, value in pairs]
            if kept != pairs:
                chosen = item.value
                item.options = kept  # new options select the first one: the choice made is chosen again
                item.value = chosen
        stack.extend(getattr(item, "children", ()) or ())
    return widget


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def nice_step(raw: float) -> float:
    """A round step for axis ticks, at least ``raw``: 1, 2, 2.5 or 5 times a power of ten.

    >>> nice_step(0.043), nice_step(0.09), nice_step(7)
    (0.05, 0.1, 10.0)
    """
    if raw <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * power >= raw - 1e-12:
            return round(m * power, 12)
    return 10 * power  # pragma: no cover - the loop always returns


def bar_chart_svg(
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float], str]],
    *,
    title: str = "",
    reference: float | None = None,
    reference_label: str = "",
    percent: bool = True,
    width: int = 640,
    height: int = 300,
) -> str:
    """A grouped bar chart as an SVG string.

    ``series`` is ``[(name, values, colour), ...]``, one value per label; values are shares
    (0–1) when ``percent`` is true, and are then written as percentages above the bars.
    ``reference`` draws a dashed line (for example the long-run share 1/7). Each series also gets
    a pattern of its own (solid or striped), so colour is never the only cue.

    >>> svg = bar_chart_svg(["a", "b", "c"], [("x", [0.2, 0.3, 0.5], "#000"), ("y", [0.1, 0.1, 0.8], "#999")],
    ...                     reference=1 / 3)
    >>> svg.count('data-role="bar"'), 'data-role="reference"' in svg
    (6, True)
    """
    left, right, top, bottom = 56, 16, 44 if title else 16, 56
    # the legend row also names the dashed reference line (drawn over a bar, its label would hide a value)
    legend_h = 26 if len(series) > 1 or (reference is not None and reference_label) else 0
    plot_w, plot_h = width - left - right, height - top - bottom - legend_h
    top_value = max([v for _, values, _ in series for v in values] + [reference or 0.0, 1e-9])
    tick = nice_step(top_value * 1.15 / 4)
    ticks = math.ceil(top_value * 1.15 / tick)
    ymax = tick * ticks
    group_w = plot_w / max(len(labels), 1)
    bar_w = group_w * 0.8 / max(len(series), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}"'
        f' style="width:100%;height:auto" font-family="{escape(palette.FONT)}" role="img">',  # fills its box
        "<defs>",
    ]
    for k, (_, _, colour) in enumerate(series):
        if k % 2:
            parts.append(f'<pattern id="stripe{k}" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
                         f'<rect width="8" height="8" fill="{colour}"/><rect width="3" height="8" fill="#ffffff" opacity="0.55"/></pattern>')
    parts.append("</defs>")
    if title:
        parts.append(f'<title>{escape(title)}</title><text x="{width / 2}" y="26" font-size="18" font-weight="bold"'
                     f' text-anchor="middle" fill="{palette.INK}">{escape(title)}</text>')
    base_y = top + plot_h
    # horizontal grid lines with their values
    for g in range(ticks + 1):
        value = tick * g
        y = base_y - plot_h * g / ticks
        text = f"{value * 100:.0f}%" if percent else _n(value)
        parts.append(f'<line x1="{left}" y1="{_n(y)}" x2="{width - right}" y2="{_n(y)}" stroke="#cbd5e1" stroke-width="1"/>'
                     f'<text x="{left - 6}" y="{_n(y)}" font-size="12" text-anchor="end" dominant-baseline="central"'
                     f' fill="{palette.GRID}">{text}</text>')
    for i, label in enumerate(labels):
        gx = left + i * group_w + group_w * 0.1
        for k, (name, values, colour) in enumerate(series):
            value = float(values[i])
            h = plot_h * value / ymax
            x = gx + k * bar_w
            fill = f"url(#stripe{k})" if k % 2 else colour
            parts.append(f'<rect x="{_n(x)}" y="{_n(base_y - h)}" width="{_n(bar_w - 2)}" height="{_n(h)}" fill="{fill}"'
                         f' stroke="{palette.INK}" stroke-width="1" data-role="bar" data-key="{escape(label)}">'
                         f"<title>{escape(name)}: {escape(label)}</title></rect>")
            text = f"{value * 100:.1f}%" if percent else _n(value)
            parts.append(f'<text x="{_n(x + (bar_w - 2) / 2)}" y="{_n(base_y - h - 4)}" font-size="11" text-anchor="middle"'
                         f' fill="{palette.INK}">{text}</text>')
        parts.append(f'<text x="{_n(left + (i + 0.5) * group_w)}" y="{_n(base_y + 18)}" font-size="14" font-weight="bold"'
                     f' text-anchor="middle" fill="{palette.INK}">{escape(label)}</text>')
    parts.append(f'<line x1="{left}" y1="{_n(base_y)}" x2="{width - right}" y2="{_n(base_y)}" stroke="{palette.INK}" stroke-width="2"/>')
    if reference is not None:
        y = base_y - plot_h * reference / ymax
        parts.append(f'<line x1="{left}" y1="{_n(y)}" x2="{width - right}" y2="{_n(y)}" stroke="#b91c1c" stroke-width="2"'
                     f' stroke-dasharray="8 5" data-role="reference"/>')
    if legend_h:
        lx = left
        ly = height - legend_h + 4
        for k, (name, _, colour) in enumerate(series if len(series) > 1 else ()):
            fill = f"url(#stripe{k})" if k % 2 else colour
            parts.append(f'<rect x="{lx}" y="{ly}" width="18" height="14" fill="{fill}" stroke="{palette.INK}"/>'
                         f'<text x="{lx + 24}" y="{ly + 7}" font-size="13" dominant-baseline="central" fill="{palette.INK}">'
                         f"{escape(name)}</text>")
            lx += 34 + 8 * len(name) + (6 * len(name) if any(ord(c) > 0x2E80 for c in name) else 0)
        if reference is not None and reference_label:
            parts.append(f'<line x1="{lx}" y1="{ly + 7}" x2="{lx + 26}" y2="{ly + 7}" stroke="#b91c1c" stroke-width="2"'
                         f' stroke-dasharray="8 5"/><text x="{lx + 32}" y="{ly + 7}" font-size="13" dominant-baseline="central"'
                         f' fill="#b91c1c" font-weight="bold" data-role="reference-label">{escape(reference_label)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def min_width(text: str) -> str:
    """The CSS that keeps a table cell holding ``text`` readable on a phone, where a table is squeezed to fit.

    No column gets narrower than two characters (left to the browser, a phone set 熱帶低壓 one character a
    line), and a cell with a phrase in it (20 characters or more) no narrower than six letters. A table that
    then needs more room than the screen scrolls sideways (:func:`scroll_box`).

    >>> min_width("3"), min_width("tropical depression (CWA)")
    ('min-width:2em', 'min-width:6em')
    """
    return "min-width:6em" if len(text) >= 20 else "min-width:2em"


# An HTML widget's boxes would not get narrower than the table in them (a flex item's smallest width is its
# content's), so the scroll box never scrolled and the page cut the table off; shadows at a side show that
# more of the table lies that way (they scroll with the table: the Lea Verou scrolling-shadows technique).
_SCROLL_BOX_CSS = (
    ".widget-html:has(.typhoon-table-scroll),.widget-html-content:has(.typhoon-table-scroll){min-width:0}"
    ".typhoon-table-scroll{overflow-x:auto;max-width:100%;"
    "background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left/2.5em 100% no-repeat local,"
    "linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right/2.5em 100% no-repeat local,"
    "radial-gradient(farthest-side at 0 50%,rgba(15,23,42,.5),rgba(15,23,42,0)) left/1.2em 100% no-repeat scroll,"
    "radial-gradient(farthest-side at 100% 50%,rgba(15,23,42,.5),rgba(15,23,42,0)) right/1.2em 100% no-repeat scroll}"
    # a table too wide for a phone says so above it (the shadow alone went unnoticed); on a wider screen it fits
    ".typhoon-table-hint{display:none;font-size:.92em;color:#334155;margin:.3em 0 .1em 0}"
    f"@media (max-width:{PHONE_MAX_PX}px){{.typhoon-table-hint{{display:block}}}}"
)


def scroll_box(table: str, label: str, hint: str = "") -> str:
    """``table`` in a box that scrolls sideways when it is wider than the screen (a phone), instead of being cut off.

    The box is a named region in the Tab order, so a keyboard (arrow keys) or a screen reader reaches it too;
    ``label`` names it (the table's caption or its column names). ``hint`` (for a table that never fits a phone)
    is a line above it, shown on a phone only, that tells to swipe it sideways.

    >>> "<div class='typhoon-table-scroll' role='region' tabindex='0' aria-label='Levels'>" in scroll_box("<table></table>", "Levels")
    True
    >>> "<div class='typhoon-table-hint' aria-hidden='true'>swipe →</div>" in scroll_box("<table></table>", "Levels", "swipe →")
    True
    """
    note = f"<div class='typhoon-table-hint' aria-hidden='true'>{escape(hint)}</div>" if hint else ""
    return (f"<style>{_SCROLL_BOX_CSS}</style>{note}<div class='typhoon-table-scroll' role='region' tabindex='0'"
            f" aria-label='{escape(label)}'>{table}</div>")


def html_table(header: Sequence[str], rows: Iterable[Sequence[Any]], *, caption: str = "", hint: str = "") -> str:
    """A plain, readable HTML table (cells are escaped), in a box that scrolls sideways on a narrow screen.

    A number in a cell, a column's name or the caption stays on the line of its unit (:func:`keep_units`). ``hint``:
    see :func:`scroll_box`.

    >>> html_table(["a"], [[1]]).count("<td")
    1
    >>> "41\u00a0km" in html_table(["how"], [["passed 41 km away"]])
    True
    """
    style = "border-collapse:collapse;font-size:1.05em;margin:.3em 0"
    cell = "border:1px solid #94a3b8;padding:.25em .6em;text-align:left"
    out = [f"<table style='{style}'>"]
    if caption:
        out.append(f"<caption style='text-align:left;font-weight:bold;padding:.2em 0'>{escape(keep_units(caption))}</caption>")
    out.append("<tr>" + "".join(f"<th style='{cell};{min_width(str(h))};background:#e2e8f0'>{escape(keep_units(str(h)))}</th>"
                                for h in header) + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td style='{cell};{min_width(str(v))}'>{escape(keep_units(str(v)))}</td>" for v in row)
                   + "</tr>")
    out.append("</table>")
    return scroll_box("".join(out), caption or " · ".join(str(h) for h in header), hint)


class Rendered:
    """A piece of HTML the notebook shows as it is (live, on GitHub and in nbviewer alike: no widget).

    >>> Rendered("<b>hi</b>")._repr_html_()
    '<b>hi</b>'
    """

    def __init__(self, value: str) -> None:
        self.value = value

    def _repr_html_(self) -> str:
        return self.value


def heading(text: str, level: int = 3) -> widgets.HTML:
    """A heading widget (a lesson part's title).

    >>> heading("1. Roll", 3).value
    "<h3 style='margin:.6em 0 .2em 0'>1. Roll</h3>"
    """
    return widgets.HTML(f"<h{level} style='margin:.6em 0 .2em 0'>{escape(text)}</h{level}>")


def note(text: str) -> widgets.HTML:
    """A short instruction under a heading (plain text, escaped; each number kept with its unit, :func:`keep_units`).

    >>> "&lt;b&gt;" in note("<b>").value, "360\u00a0km" in note("one cell is about 360 km").value
    (True, True)
    """
    return widgets.HTML(f"<div style='font-size:1.05em;margin:0 0 .4em 0;max-width:60em'>{escape(keep_units(text))}</div>")


def _forget_current_canvas() -> None:
    from ipycanvas.canvas import _CANVAS_MANAGER

    _CANVAS_MANAGER._current_canvas = None


def reset_canvas_manager_on_ready(widget: Any) -> int:
    """Make every canvas inside ``widget`` re-select itself when a browser connects; return how many.

    ipycanvas sends "switch to canvas X" only when the kernel's idea of the current canvas
    changes. A browser that connects later (Voilà) has no current canvas yet, so if the first
    drawing it is sent targets the canvas the kernel drew last, the switch is skipped and the
    drawing is lost: the map stays blank. Forgetting the current canvas first fixes that.

    >>> from ipycanvas import Canvas
    >>> import ipywidgets as widgets
    >>> box = widgets.VBox([Canvas(width=10, height=10)])
    >>> reset_canvas_manager_on_ready(box), reset_canvas_manager_on_ready(box)  # once per canvas
    (1, 0)
    """
    from ipycanvas import Canvas

    forget = _forget_current_canvas
    count = 0
    stack = [widget]
    while stack:
        item = stack.pop()
        if isinstance(item, Canvas):
            dispatcher = item._client_ready_callbacks
            if forget not in dispatcher.callbacks:
                dispatcher.callbacks.insert(0, forget)
                count += 1
        stack.extend(getattr(item, "_canvases", ()) or ())
        stack.extend(getattr(item, "children", ()) or ())
    return count


#: The widest a lesson's map may get: the whole map fits the screen's height (the map is about
#: 0.77 times as tall as it is wide; 140 px are left for the buttons above and the bar below).
MAP_MAX_WIDTH = "calc((100vh - 140px) * 1.3)"


def fit_map(board: Any) -> Any:
    """Keep a board view small enough that the whole map is seen at once on a laptop or projector.

    >>> from typhoon_edu.ui.board import BoardView
    >>> fit_map(BoardView(cell=20)).layout.max_width == MAP_MAX_WIDTH
    True
    """
    board.layout.max_width = MAP_MAX_WIDTH
    board.layout.min_width = "320px"
    return board


class LessonBox(widgets.VBox):
    """A lesson part: a VBox whose saved output also carries a static HTML/SVG picture.

    ``snapshot()`` returns that picture (HTML, SVG allowed); it is what GitHub and nbviewer show
    in place of the live widgets. Its last child is the phone's fingertip-sized controls' style
    (:data:`~typhoon_edu.ui.touch.TOUCH_CSS`).
    """

    def __init__(self, children: Sequence[widgets.Widget], snapshot: Callable[[], str], svg: Callable[[], str] | None = None,
                 **kwargs: Any) -> None:
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        super().__init__(children=[*children, touch_style()], **kwargs)
        self._snapshot = snapshot
        self._svg = svg
        reset_canvas_manager_on_ready(self)

    def snapshot(self) -> str:
        """The static picture of this part, as HTML."""
        return self._snapshot()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/html"] = self.snapshot()
        if self._svg is not None:
            data["image/svg+xml"] = self._svg()
        return data


#: The players of the lessons' scenarios: five of the six regions (the most a game allows), with
#: empty hands so that no counter card interrupts a demonstration.
PLAYERS: tuple[str, ...] = ("Taiwan", "Philippines", "Japan", "Korea", "South China")

#: Events that belong to a typhoon's move (the rest of a turn, e.g. drawing cards, is left out).
MOVE_EVENTS = frozenset({"DieRolled", "MoveStarted", "TyphoonStepped", "RegionHit", "DamageDealt", "Landfall", "Merged",
                         "TyphoonRemoved", "LevelChanged", "Intensified", "TyphoonHeld", "CardPlayed", "Eliminated"})


def play_moves(typhoons: Sequence[tuple[tuple[int, int], int, str]], faces: Sequence[int], *,
               order: Sequence[int] | None = None, hp: dict[str, int] | None = None, hold: int | None = None,
               rules: Any = None, players: Sequence[str] = PLAYERS) -> tuple[Any, list[Any]]:
    """Run one move phase of the engine on hand-placed typhoons; return the game and the move events.

    ``typhoons`` are ``((x, y), level, direction)`` and get ids 1, 2, …; typhoon ``order[k]`` (default
    1, 2, …) moves ``faces[k]`` cells. ``hold`` plays the Blocking High card on that typhoon first,
    so it stays put, and a storm held over the sea grows 1 level at the end of the turn. ``players``
    (3 to 5 regions, :data:`PLAYERS` unless told) are seated; only they are hit.

    >>> game, events = play_moves([((8, 8), 1, "E")], [4])
    >>> [e.to for e in events if e.kind == "TyphoonStepped"]
    [(9, 8), (10, 8), (11, 8), (12, 8)]
    """
    from ...engine.actions import Action
    from ...engine.scenario import scenario

    hands: dict[str, list[str]] = {p: [] for p in players}
    if hold is not None:
        hands[players[0]] = ["blocking_high"]
    game = scenario(list(players), typhoons=list(typhoons), phase="attack" if hold is not None else "move",
                    hands=hands, hp=hp, active=players[0], rules=rules)
    events: list[Any] = []
    if hold is not None:
        events += game.apply(Action("play", "blocking_high", hold))
        while game.phase == "attack":
            events += game.apply(Action("pass"))
    ids = list(order) if order is not None else [t.id for t in game.typhoons]
    faces = list(faces)
    for tid in ids:
        if not faces:
            break
        if game.phase == "move_choose":
            if tid not in game.unmoved:
                continue
            events += game.apply(Action("move", typhoon=tid))
        if game.phase == "roll_move":  # a lone typhoon is chosen without asking
            events += game.apply(faces.pop(0))
        while game.phase == "counter":  # nobody holds a counter card here: every owner passes
            events += game.apply(Action("pass"))
    return game, [e for e in events if e.kind in MOVE_EVENTS]


__all__ = ["MAP_MAX_WIDTH", "MOVE_EVENTS", "PLAYERS", "LessonBox", "Rendered", "bar_chart_svg", "fit_map", "heading", "html_table", "keep_units", "keep_units_html", "keep_widget_units", "lt", "note", "play_moves", "reset_canvas_manager_on_ready"]
