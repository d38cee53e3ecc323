"""The board widget: an ipycanvas ``MultiCanvas`` with a static map layer and a dynamic storm layer.

The static layer (sea, land, regions, zones, grid, labels) is drawn once per language; the
dynamic layer (typhoons, path preview, highlights, trail) is redrawn per event. Both are drawn
in batches that name their canvas (:func:`~.canvas_ready.canvas_batch`) and drawn again in ``on_client_ready``,
because a canvas has no memory: a browser that connects later (Voilà, a reloaded page) would otherwise see a
blank map.

>>> from typhoon_edu.ui.state import TyphoonView
>>> board = BoardView(lang="en", cell=32)
>>> board.show([TyphoonView(1, (8, 8), 1, "NNW")])
>>> board.preview_path(1, pips=5)
[(8, 7), (8, 6), (7, 6), (7, 5), (7, 4)]
>>> clicked = []
>>> board.on_cell_click(clicked.append)
>>> board.click(16 + 8 * 32 + 5, 16 + 8 * 32 + 5)
(8, 8)
>>> clicked
[(8, 8)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from html import escape
from typing import TYPE_CHECKING, Any

import anywidget
import ipywidgets as widgets
import traitlets

from .. import i18n
from .animation import FramePlayer
from .canvas_input import FOCUS_TO_MAP, MAP_AREA, MapAccess, TapCanvas, new_map_class
from .canvas_ready import canvas_batch, when_client_ready
from .geometry import BoardGeometry, Cell
from .guard import Problems
from .map_text import LEGIBLE_PX, board_text, cell_text
from .page_writes import PageMaySet
from .painter import paint
from .scene import Shape, cursor_scene, dynamic_scene, path_cells, static_scene
from .state import BoardState, PathPreview, TyphoonView, apply_event, typhoon_views
from .svg import board_svg
from .touch import touch_style

if TYPE_CHECKING:
    from ..engine.rules import Rules

SECONDS_PER_FRAME = 0.45  # at speed 1: slow enough to follow each step on a projector
#: The width the animation's speed slider asks for (its label, track and number) before Skip wraps under it.
SPEED_BASIS = "20em"


_WIDTH_ESM = r"""
// Says whether the map's canvas is shown narrower than narrow_below CSS px (a phone): the kernel then paints the
// board's phone drawing on that same canvas. Each canvas is marked with the drawing it shows (data-te-drawing).
function render({ model, el }) {
  const target = model.get('target');
  const watched = new WeakSet();
  const resized = new ResizeObserver(() => check());
  // what this view measured last: it speaks only when that changes, so two views of one map at different widths (a
  // notebook open in two windows) do not set the shared value back and forth, each repainting both
  let mine = null;
  function check() {
    const canvases = Array.from(document.querySelectorAll('canvas.' + CSS.escape(target)));
    const widths = [];
    for (const canvas of canvases) {
      if (!watched.has(canvas)) { watched.add(canvas); resized.observe(canvas); }
      canvas.dataset.teDrawing = model.get('drawing');
      const width = canvas.getBoundingClientRect().width;
      if (width > 0) { widths.push(width); }  // a canvas not shown (a hidden output) says nothing
    }
    if (!widths.length) { return; }
    const narrow = Math.min(...widths) < model.get('narrow_below');
    if (narrow !== mine) { mine = narrow; if (narrow !== model.get('narrow')) { model.set('narrow', narrow); model.save_changes(); } }
  }
  model.on('change:drawing', check);
  check();
  // the canvas may be shown after this widget, or again (a second view): look for it a while
  const timer = setInterval(check, 800);
  return () => { clearInterval(timer); resized.disconnect(); };
}
export default { render };
"""


#: How wide a lesson's board is shown on a 390×844 phone in Voilà, CSS px (the page's and the output area's margins take
#: the rest; lessons 02, 03 and 06 measure it in their browser tests).
PHONE_BOARD_PX = 360.0
#: Below this width of a lesson's board, CSS px, the page shows its phone drawing: the usual drawing's coordinates
#: (11.4 px of a 748 px canvas) would come out under :data:`~typhoon_edu.ui.map_text.LEGIBLE_PX`.
NARROW_BOARD_PX = 720


def phone_text(cell: int, rules: Rules | None = None, shown_px: float = PHONE_BOARD_PX) -> float:
    """The smallest text of a board's phone drawing (:class:`BoardView`'s ``phone_text``), canvas px: every text
    :data:`~typhoon_edu.ui.map_text.LEGIBLE_PX` CSS px where the canvas is shown ``shown_px`` wide.

    Not much larger for the lessons' 44 px cells: at 26 px "South China" finds no place clear of "Taiwan".

    >>> phone_text(44), phone_text(30)
    (23.0, 16.0)
    """
    if rules is None:
        from ..engine.rules import load_rules

        rules = load_rules()
    width = BoardGeometry.for_rules(rules, cell).pixel_size[0]
    return float(math.ceil(LEGIBLE_PX * width / shown_px))


class MapWidth(PageMaySet, anywidget.AnyWidget):
    """The page's word on how wide a map is shown: ``narrow`` when its canvas (the CSS class ``target``) is narrower
    than ``narrow_below`` CSS px. It shows nothing; the page may set ``narrow`` only. ``drawing`` ("wide" or
    "phone") is what the kernel painted, marked on the canvas for the browser tests.

    >>> width = MapWidth(target="te-map-9", narrow_below=720)
    >>> width.set_state({"narrow": True, "narrow_below": 1})  # as the page's message
    >>> width.narrow, width.narrow_below
    (True, 720.0)
    """

    page_may_set = frozenset({"narrow"})
    _esm = _WIDTH_ESM
    target = traitlets.Unicode("").tag(sync=True)
    narrow_below = traitlets.Float(0.0).tag(sync=True)
    narrow = traitlets.Bool(False).tag(sync=True)
    drawing = traitlets.Unicode("wide").tag(sync=True)


class BoardView(widgets.VBox):
    """The map with its storms; reports clicked cells and animates the engine's events.

    ``rules`` defaults to the package's edition; ``cell`` is the side of a cell in canvas pixels
    (the canvas is then scaled by CSS to the width of the page, laptop or projector).

    ``phone_text`` (opt-in; 0 = off, as class play's and most lessons' boards): where the page shows the map
    narrower than ``narrow_px`` CSS px (a phone), the same canvas is painted with the board's phone drawing: every
    name and level digit at least ``phone_text`` canvas px, the coordinates as large as the margins hold them, each
    storm's level a number in a badge and not a name across the map (:func:`~typhoon_edu.ui.scene.static_scene`'s
    ``min_text``), a path preview's step numbers as large (``step_text``). A helper on the page
    (:class:`MapWidth`) says which width the map has; taps, the keyboard and the text description are the same for
    both drawings (the cells do not move), and the saved SVG is the usual drawing. ``narrow_px=math.inf``: a map
    that is never shown wide (lesson 06's board beside the real map) has the phone drawing everywhere, from its
    first paint, with no helper and no second paint once the page has measured it. ``wide_text`` (0 = the usual
    sizes): the smallest text of the drawing where the map is not narrow (the projector's, read from the back row).

    >>> import math
    >>> BoardView(phone_text=16, narrow_px=math.inf).narrow, BoardView(phone_text=16, narrow_px=720).narrow
    (True, False)
    """

    def __init__(self, rules: Rules | None = None, lang: str = "en", cell: int = 48,
                 state: BoardState | None = None, controls: bool = True, problems: Problems | None = None,
                 phone_text: float = 0.0, narrow_px: float = 0.0, wide_text: float = 0.0, **kwargs: Any) -> None:
        if rules is None:
            from ..engine.rules import load_rules

            rules = load_rules()
        geometry = BoardGeometry.for_rules(rules, cell)
        width, height = geometry.pixel_size
        # one input for mouse, pen, touch and the keyboard (see canvas_input.py for why)
        canvas = TapCanvas(2, width=width, height=height,
                           layout=widgets.Layout(width="100%", height="auto", max_width=f"{3 * width}px"))
        canvas.add_class("te-board")
        target = new_map_class()
        canvas.add_class(target)
        access = MapAccess(target=target, roledescription=i18n.t("maptext.roledescription", lang))
        lang = i18n.normalize_lang(lang)
        # the slider asks for SPEED_BASIS of the row: where the row has less room beside Skip (a phone), Skip wraps
        # under it and the slider keeps a track a finger can drag instead of shrinking to its handle
        speed = widgets.FloatSlider(value=1.0, min=0.25, max=4.0, step=0.25, description=i18n.t("anim.speed", lang),
                                    layout=widgets.Layout(width="auto", flex=f"1 1 {SPEED_BASIS}"))
        speed.add_class("te-anim-speed")
        skip = widgets.Button(description=i18n.t("anim.skip", lang), icon="forward", disabled=True)
        # Skip disables itself when the animation ends (pressed or not): the keyboard's focus goes to the map, not to
        # the page's body (canvas_input.py)
        skip.add_class(FOCUS_TO_MAP)
        status = widgets.HTML(layout=widgets.Layout(min_height="1.6em"))
        bar = widgets.HBox([speed, skip], layout=widgets.Layout(width="100%", flex_flow="row wrap", align_items="center",
                                                                display="flex" if controls else "none"))
        kwargs.setdefault("layout", widgets.Layout(width="100%"))
        # a click whose callback fails is told here (or in the view's own area, when it passes one)
        self.problems = problems if problems is not None else Problems(lambda: self.lang)
        own = [self.problems.widget] if problems is None else []
        #: the page's word on the map's width (with ``phone_text`` only)
        self.map_width = MapWidth(target=target, narrow_below=narrow_px,
                                  layout=widgets.Layout(display="none")) if phone_text and narrow_px < math.inf else None
        helper = [self.map_width] if self.map_width is not None else []
        super().__init__(children=[canvas, access, bar, status, *own, *helper], **kwargs)
        self.add_class(MAP_AREA)
        self.rules = rules
        self.lang = lang
        self.cell = cell
        self.geometry = geometry
        self.canvas = canvas
        self.access = access
        self.cursor: Cell | None = None
        self.speed = speed
        self.skip_button = skip
        self.status = status
        self.state = state or BoardState()
        self.player: FramePlayer[tuple[BoardState, Any]] | None = None
        self._click_callbacks: list[Callable[[Cell], Any]] = []
        self._scenes: dict[float, list[Shape]] = {}  # the static layer per smallest text (each drawing), this language
        self.phone_text = float(phone_text)
        self.wide_text = float(wide_text)
        self._always_narrow = bool(phone_text) and narrow_px == math.inf
        if self._always_narrow:
            canvas.add_class("te-drawing-phone")  # what MapWidth's data-te-drawing says of the others
        self.problems.on_click(skip, lambda _button: self.skip(), where="board: skip")
        when_client_ready(canvas, self.redraw)
        self.problems.on_mouse_down(canvas, self.click, where="board: click")
        # the board's own handler above only reports; anyone else listening makes it a control
        canvas.on_listeners_change = self._update_text
        access.on_key(self.problems.guard(self.key, where="board: key"))
        if self.map_width is not None:
            # the page says the map's width crossed narrow_px: paint the drawing that fits it
            self.map_width.observe(self.problems.guard(lambda _change: self.redraw(), where="board: width"), "narrow")
        self.redraw()

    # --- drawing -----------------------------------------------------------------------------

    @property
    def static_layer(self) -> Any:
        return self.canvas[0]

    @property
    def dynamic_layer(self) -> Any:
        return self.canvas[1]

    @property
    def narrow(self) -> bool:
        """Whether the page shows this map narrow (a phone) and so gets the phone drawing (``phone_text``)."""
        return self._always_narrow or (self.map_width is not None and self.map_width.narrow)

    @property
    def min_text(self) -> float:
        """The smallest text of the drawing painted now, canvas px: ``phone_text`` on a narrow map, else
        ``wide_text`` (0: the usual sizes)."""
        return self.phone_text if self.narrow else self.wide_text

    def static_shapes(self) -> list[Shape]:
        """The static layer's scene (cached per language, and per drawing)."""
        size = self.min_text
        if size not in self._scenes:
            self._scenes[size] = static_scene(self.rules, self.lang, self.cell, min_text=size)
        return self._scenes[size]

    def dynamic_shapes(self) -> list[Shape]:
        """The dynamic layer's scene for the current state."""
        if self.min_text:
            # every text at least min_text: the storms' level digits too (class play's are 0.9 of it), and a path's
            # step numbers (lesson 02's puzzles)
            return dynamic_scene(self.rules, self.state, self.lang, self.cell, min_text=self.min_text,
                                 level_text=self.min_text, step_text=self.min_text)
        return dynamic_scene(self.rules, self.state, self.lang, self.cell)

    def redraw(self) -> None:
        """Draw both layers from scratch (also called when a browser connects)."""
        with canvas_batch():
            self.static_layer.clear()
            paint(self.static_layer, self.static_shapes())
            self.dynamic_layer.clear()
            paint(self.dynamic_layer, self.dynamic_shapes() + cursor_scene(self.rules, self.cursor, self.cell))
        if self.map_width is not None:
            self.map_width.drawing = "phone" if self.narrow else "wide"
        self._update_text()

    def _draw_dynamic(self) -> None:
        with canvas_batch():
            self.dynamic_layer.clear()
            paint(self.dynamic_layer, self.dynamic_shapes() + cursor_scene(self.rules, self.cursor, self.cell))
        self._update_text()

    @property
    def interactive(self) -> bool:
        """Whether a tap on this board does something (then it is a tab stop with a keyboard cursor)."""
        return bool(self._click_callbacks) or self.canvas.listeners > 1

    def describe(self) -> str:
        """The map in words, as a screen reader hears it (the canvas's ``aria-label``)."""
        return board_text(self.rules, self.state, self.lang, keys=self.interactive)

    def _update_text(self) -> None:
        label = self.describe()
        if self.access.label != label:
            self.access.label = label
        if self.access.interactive != self.interactive:
            self.access.interactive = self.interactive

    # --- state -------------------------------------------------------------------------------

    def show(self, state: BoardState | Iterable[Any] | Any) -> None:
        """Show a board state, a list of typhoons, or a game (anything with ``.typhoons``)."""
        if isinstance(state, BoardState):
            self.state = state
        elif hasattr(state, "typhoons"):
            self.state = BoardState.from_game(state)
        else:
            self.state = BoardState(typhoons=typhoon_views(state))
        self._draw_dynamic()

    def update(self, game: Any) -> None:  # type: ignore[override]
        """Show a game's typhoons; the path preview and trail are cleared, highlights kept."""
        self.state = replace(BoardState.from_game(game), highlights=self.state.highlights)
        self._draw_dynamic()

    def highlight(self, cells: Iterable[Cell] = ()) -> None:
        """Mark ``cells`` (e.g. the legal cells for a new storm); no cells clears the marks."""
        self.state = replace(self.state, highlights=tuple(tuple(c) for c in cells))  # type: ignore[misc]
        self._draw_dynamic()

    def preview_path(self, typhoon_or_cell: Any, direction: str | None = None, pips: int = 0) -> list[Cell]:
        """Draw the path a typhoon (id, typhoon object or start cell) would take, and return its cells.

        ``direction`` defaults to the typhoon's own; ``pips=0`` clears the preview.
        """
        start, level, own = self._resolve(typhoon_or_cell)
        direction = direction or own
        if direction is None:
            raise ValueError("a path preview needs a direction (this typhoon has none yet)")
        if not pips:
            self.clear_preview()
            return []
        self.state = replace(self.state, path=PathPreview(start, direction, int(pips), level))
        self._draw_dynamic()
        return path_cells(self.rules, start, direction, int(pips))

    def clear_preview(self) -> None:
        """Remove the path preview."""
        self.state = replace(self.state, path=None)
        self._draw_dynamic()

    def _resolve(self, what: Any) -> tuple[Cell, int, str | None]:
        if isinstance(what, int) and not isinstance(what, bool):
            ty = self.state.typhoon(what)
            if ty is None:
                raise ValueError(f"there is no typhoon T{what} on the board")
            return ty.eye, ty.level, ty.direction
        if isinstance(what, (tuple, list)) and len(what) == 2:
            return (int(what[0]), int(what[1])), 1, None
        views = typhoon_views([what])
        if not views:
            raise ValueError(f"cannot preview a path from {what!r}: give a typhoon, its id, or a cell (x, y)")
        return views[0].eye, views[0].level, views[0].direction

    # --- animation ---------------------------------------------------------------------------

    def animate(self, events: Sequence[Any], speed: float | None = None, narrate: bool = True) -> FramePlayer[tuple[BoardState, Any]]:
        """Play the engine's events on the board, one frame per board change (each step of a move).

        ``speed`` sets the speed slider (1 = one frame every 0.45 s, 2 = twice as fast; 0 =
        no animation). The Skip button, or :meth:`skip`, jumps to the end.
        """
        if self.player is not None:
            self.player.skip()
        if speed is not None:
            if speed <= 0:
                frames = self._frames(events)
                self._show_frame(frames[-1], narrate)
                return FramePlayer([frames[-1]], lambda f: None, lambda: 0).start()
            self.speed.value = min(max(float(speed), self.speed.min), self.speed.max)
        frames = self._frames(events)
        self.skip_button.disabled = False
        self.player = FramePlayer(frames, lambda f: self._show_frame(f, narrate),
                                  lambda: SECONDS_PER_FRAME / max(self.speed.value, 0.01), on_done=self._animation_done)
        return self.player.start()

    def _frames(self, events: Sequence[Any]) -> list[tuple[BoardState, Any]]:
        frames: list[tuple[BoardState, Any]] = []
        state = replace(self.state, path=None)
        for event in events:
            nxt = apply_event(state, event)
            if nxt != state or not frames:
                frames.append((nxt, event))
            state = nxt
        return frames or [(state, None)]

    def _show_frame(self, frame: tuple[BoardState, Any], narrate: bool) -> None:
        self.state, event = frame
        if narrate and event is not None:
            try:
                sentence = i18n.narrate(event, self.lang, self.rules)
                self.status.value = f"<span style='font-size:1.1em'>{sentence}</span>"
                self.access.say(sentence)
            except KeyError:
                pass  # an event kind this catalog has no sentence for: keep the last sentence
        self._draw_dynamic()

    def _animation_done(self) -> None:
        self.skip_button.disabled = True

    def skip(self) -> None:
        """Jump to the end of the running animation."""
        if self.player is not None:
            self.player.skip()

    # --- input and language ------------------------------------------------------------------

    def on_cell_click(self, callback: Callable[[Cell], Any], remove: bool = False) -> None:
        """Call ``callback((x, y))`` when a cell is clicked (clicks in the margins are ignored)."""
        if remove:
            self._click_callbacks.remove(callback)
        else:
            self._click_callbacks.append(callback)
        self._update_text()

    def click(self, px: float, py: float) -> Cell | None:
        """Handle a tap at canvas pixel ``(px, py)`` (ipycanvas already undoes CSS scaling)."""
        cell = self.geometry.pixel_to_cell(px, py)
        if cell is None:
            return None
        self.status.value = i18n.t("board.clicked", self.lang, cell=i18n.cell_label(cell, self.lang))
        self.access.say(self.status.value)
        for callback in list(self._click_callbacks):
            callback(cell)
        return cell

    def move_cursor(self, dx: int, dy: int) -> Cell:
        """Move the keyboard cursor by ``(dx, dy)`` cells (it stops at the edge) and say where it is.

        The cursor starts on the first cell that can be chosen, or in the middle of the map.
        """
        gm = self.rules.map
        if self.cursor is None:
            start = self.state.highlights[0] if self.state.highlights else (gm.width // 2, gm.height // 2)
            self.cursor = (int(start[0]), int(start[1]))
        else:
            x, y = self.cursor
            self.cursor = (min(max(x + dx, 0), gm.width - 1), min(max(y + dy, 0), gm.height - 1))
        self._draw_dynamic()
        self.access.say(cell_text(self.rules, self.state, self.cursor, self.lang))
        return self.cursor

    def hide_cursor(self) -> None:
        """Take the keyboard cursor off the map (the next arrow key shows it again where it starts)."""
        if self.cursor is not None:
            self.cursor = None
            self._draw_dynamic()

    def choose_cursor(self) -> Cell | None:
        """Choose the cell under the keyboard cursor: exactly what a tap on it does."""
        if self.cursor is None:
            self.move_cursor(0, 0)
            return None  # the first Enter shows the cursor; choosing needs the student to see it
        x, y = self.geometry.cell_centre(*self.cursor)
        self.canvas.tap(x, y, source="keyboard")
        return self.cursor

    def key(self, key: str) -> None:
        """A key pressed on the focused map: arrows move the cursor, Enter/Space choose, Home/End jump
        to the first/last cell that can be chosen.

        >>> board = BoardView(lang="en", cell=20)
        >>> chosen = []
        >>> board.on_cell_click(chosen.append)
        >>> board.highlight([(2, 3), (9, 9)])
        >>> board.key("Home"); board.key("ArrowRight"); board.key("Enter"); board.cursor, chosen
        ((3, 3), [(3, 3)])
        """
        steps = {"ArrowUp": (0, -1), "ArrowDown": (0, 1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}
        if key in steps:
            self.move_cursor(*steps[key])
        elif key in ("Enter", " "):
            self.choose_cursor()
        elif key in ("Home", "End"):
            cells = list(self.state.highlights) or [(0, 0), (self.rules.map.width - 1, self.rules.map.height - 1)]
            self.cursor = tuple(cells[0] if key == "Home" else cells[-1])  # type: ignore[assignment]
            self.move_cursor(0, 0)

    def set_lang(self, lang: str) -> None:
        """Switch every label of the board to ``lang`` and redraw."""
        self.lang = i18n.normalize_lang(lang)
        self._scenes = {}
        self.speed.description = i18n.t("anim.speed", self.lang)
        self.skip_button.description = i18n.t("anim.skip", self.lang)
        self.access.roledescription = i18n.t("maptext.roledescription", self.lang)
        self.redraw()

    def to_svg(self) -> str:
        """The board as it is now, as SVG (for saved outputs and reports)."""
        return board_svg(self.rules, lang=self.lang, cell=self.cell, state=self.state)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        # The widget view for live kernels, plus an SVG snapshot that GitHub and nbviewer show.
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["image/svg+xml"] = self.to_svg()
        return data


class CellPad(widgets.VBox):
    """A phone's way to choose a cell of ``board``: arrow buttons move the board's keyboard cursor (the square),
    "Choose this cell" does what a tap on that cell does.

    At a phone's width a map's cells are about 21 px, too small for a finger (WCAG 2.5.5 asks for 44 px), and a
    map that scrolled sideways could not be panned by a finger (the canvas takes every touch as a tap). The pad's
    buttons are fingertip-sized; it shows on a phone only (:data:`~typhoon_edu.ui.touch.TOUCH_CSS`). ``start``
    says where the square appears the first time (default: where the board's keyboard cursor starts).

    >>> board = BoardView(lang="en", cell=20)
    >>> chosen = []
    >>> board.on_cell_click(chosen.append)
    >>> pad = CellPad(board, start=lambda: (3, 4))
    >>> pad.move(1, 0), pad.move(1, 0), pad.choose(), chosen
    ((3, 4), (4, 4), (4, 4), [(4, 4)])
    >>> pad.where.value
    'Cursor on (4, 4): Central China.'
    """

    def __init__(self, board: BoardView, start: Callable[[], Cell | None] | None = None) -> None:
        lang = board.lang
        self.board = board
        self.start = start
        self.arrows: dict[str, widgets.Button] = {}
        for key, icon, step in (("left", "arrow-left", (-1, 0)), ("up", "arrow-up", (0, -1)), ("down", "arrow-down", (0, 1)),
                                ("right", "arrow-right", (1, 0))):
            button = widgets.Button(icon=icon, tooltip=i18n.t(f"board.pad_{key}", lang), layout=widgets.Layout(width="3.2em"))
            button.add_class(f"te-pad-{key}")
            board.problems.on_click(button, lambda _b, step=step: self.move(*step), where=f"cell pad: {key}")
            self.arrows[key] = button
        self.choose_button = widgets.Button(description=i18n.t("board.pad_choose", lang), icon="check", button_style="primary",
                                            layout=widgets.Layout(width="auto"))
        self.choose_button.add_class("te-pad-choose")
        board.problems.on_click(self.choose_button, lambda _b: self.choose(), where="cell pad: choose")
        #: where the square is, in words (the map says it to a screen reader already: this one is for the eye)
        self.where = widgets.HTML(layout=widgets.Layout(min_height="1.6em"))
        note = widgets.HTML(f"<span style='font-size:.95em;color:#334155'>{escape(i18n.t('board.pad_note', lang))}</span>")
        row = widgets.HBox([*self.arrows.values(), self.choose_button], layout=widgets.Layout(flex_flow="row wrap",
                                                                                              align_items="center"))
        super().__init__(children=[note, row, self.where, touch_style()], layout=widgets.Layout(width="100%"))
        self.add_class("te-cell-pad")

    def move(self, dx: int, dy: int) -> Cell:
        """Move the square by ``(dx, dy)`` cells; the first press shows it where it starts. Returns its cell."""
        if self.board.cursor is None and self.start is not None:
            first = self.start()
            if first is not None:
                self.board.cursor = (int(first[0]), int(first[1]))
                dx = dy = 0
        cell = self.board.move_cursor(dx, dy)
        self.where.value = escape(cell_text(self.board.rules, self.board.state, cell, self.board.lang))
        return cell

    def choose(self) -> Cell | None:
        """Choose the square's cell, as a tap on it would; the first press only shows the square."""
        if self.board.cursor is None:
            self.move(0, 0)
            return None
        return self.board.choose_cursor()

    def reset(self) -> None:
        """Take the square off the map (a new puzzle): the next press shows it at ``start`` again."""
        self.board.hide_cursor()
        self.where.value = ""


__all__ = ["NARROW_BOARD_PX", "PHONE_BOARD_PX", "BoardView", "CellPad", "MapWidth", "TyphoonView", "phone_text"]
