"""One input for every map: mouse, touch and pen become one "tap at (x, y)"; the keyboard is added.

Why this module exists (ipycanvas 0.14.3's front end, ``MultiCanvasView`` = ``CanvasView``):

* A touch on the canvas calls ``preventDefault()`` on ``touchstart``/``touchend``, so the browser
  synthesises **no** ``mousedown``: a view that listens only to ``on_mouse_down`` never hears a
  phone. The touch arrives as ``touch_start`` with the touches still down (``touch_end`` carries
  the touches *left*, i.e. none for a one-finger tap), so a tap is taken from ``touch_start``.
  A pen in Chromium sends pointer events and compatibility mouse events: it arrives as a mouse.
* Some browsers may still deliver both a touch and a mouse event for one tap; :class:`TapCanvas`
  drops a mouse press that follows a touch tap within :data:`TOUCH_MOUSE_WINDOW` seconds at the
  same place, so one tap is one action, never two.
* Each canvas is made focusable (``tabindex=0``) and its ``keydown`` listener calls
  ``preventDefault()`` and ``stopPropagation()`` on **every** key, Tab and Esc included: a keyboard
  user who reaches a map can never leave it (WCAG 2.1.2, no keyboard trap). :class:`MapAccess`, a
  small anywidget, listens to ``keydown`` on the window in the capture phase, before the canvas
  does: Tab and Shift+Tab pass through to the browser, Esc moves the focus to the next control,
  and on an interactive map the arrow keys, Enter and Space are sent to Python (a cursor over the
  cells, see :class:`~typhoon_edu.ui.board.BoardView`). It also gives the canvas a role and an
  ``aria-label`` and holds a live region that says what changed.
* A control that disables itself as it is used ("Lock in my prediction", a board's "Skip") would drop the
  keyboard's focus on the page's body; the same helper moves it on, once the page has settled, to the map of
  the control's area (a control with the class ``te-focus-map`` inside a ``te-map-area``), else to the next
  control (:data:`FOCUS_TO_MAP`, :data:`MAP_AREA`).

>>> canvas = TapCanvas(2, width=100, height=80)
>>> taps = []
>>> canvas.on_mouse_down(lambda x, y: taps.append((x, y)))
>>> canvas.tap(10, 20, source="touch", now=5.0)
True
>>> canvas.tap(11, 21, source="mouse", now=5.3)  # the same tap, seen again as a mouse press
False
>>> canvas.tap(60, 20, source="mouse", now=5.4)  # elsewhere: a new tap
True
>>> taps
[(10, 20), (60, 20)]
"""

from __future__ import annotations

import itertools
import json
import logging
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import anywidget
import traitlets
from ipycanvas import Canvas, MultiCanvas

from .page_writes import PageMaySet

log = logging.getLogger(__name__)

#: A mouse press this soon after a touch tap, near it, is the same tap (seconds).
TOUCH_MOUSE_WINDOW = 0.8
#: "Near" for that purpose, in canvas pixels.
TOUCH_MOUSE_SLOP = 24.0
#: A control with this class that disables itself sends the keyboard's focus to the map of its area (:data:`MAP_AREA`).
FOCUS_TO_MAP = "te-focus-map"
#: The class of a widget that holds a map and its controls (a board with its Skip button).
MAP_AREA = "te-map-area"
#: Keys an interactive map takes for itself (everything else, Tab and Esc above all, goes on).
MAP_KEYS = ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Enter", " ", "Home", "End")

_ids = itertools.count(1)

TapCallback = Callable[[float, float], Any]

#: The most fingers a touch event may carry (a hand has five; two hands on a whiteboard, ten).
MAX_TOUCHES = 10
_POINTER_EVENTS = frozenset({"mouse_down", "mouse_up", "mouse_move", "mouse_out", "mouse_wheel"})
_TOUCH_EVENTS = frozenset({"touch_start", "touch_end", "touch_move", "touch_cancel"})
_KEY_FIELDS = ("key", "shift_key", "ctrl_key", "meta_key")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def canvas_event_problem(content: Any) -> str | None:
    """What is wrong with a canvas event a page sent (ipycanvas's ``mouse_down``, ``touch_start``, ``key_down`` …),
    or None when it has the shape a browser sends: a mouse event's ``x`` and ``y`` finite numbers, a touch event's
    ``touches`` a list of at most :data:`MAX_TOUCHES` such points, a key event's key a string and its modifiers
    booleans. ipycanvas reads the fields without a check, so a crafted frame (``"x": "nan"``, no ``touches``)
    failed inside it or in the view's callback with Python's own words on the page.

    >>> canvas_event_problem({"event": "mouse_down", "x": 3, "y": 4.5}) is None
    True
    >>> canvas_event_problem({"event": "mouse_down", "x": "nan", "y": 4})
    'mouse_down needs finite numbers x and y'
    >>> canvas_event_problem({"event": "touch_start", "touches": [{"x": 1, "y": 2}] * 11})
    'touch_start needs a list of at most 10 touches, each with finite numbers x and y'
    """
    if not isinstance(content, dict):
        return "a canvas event is a JSON object"
    event = content.get("event", "")
    if not isinstance(event, str):
        return "a canvas event's name is a string"
    if event in _POINTER_EVENTS:
        if not (_number(content.get("x")) and _number(content.get("y"))):
            return f"{event} needs finite numbers x and y"
    elif event in _TOUCH_EVENTS:
        touches = content.get("touches")
        if not (isinstance(touches, list) and len(touches) <= MAX_TOUCHES
                and all(isinstance(t, dict) and _number(t.get("x")) and _number(t.get("y")) for t in touches)):
            return f"{event} needs a list of at most {MAX_TOUCHES} touches, each with finite numbers x and y"
    elif event == "key_down":
        if not (isinstance(content.get("key"), str) and len(content["key"]) <= 32
                and all(isinstance(content.get(k), bool) for k in _KEY_FIELDS[1:])):
            return "key_down needs a key name and true/false modifiers"
    return None


def _checked(handler: Callable[[Any, Any, Any], Any]) -> Callable[[Any, Any, Any], None]:
    """``handler`` (an ipycanvas ``_handle_frontend_event``) behind :func:`canvas_event_problem`."""

    def checked(widget: Any, content: Any, buffers: Any) -> None:
        problem = canvas_event_problem(content)
        if problem is not None:
            log.warning("a canvas event was ignored: %s", problem)
            return
        handler(widget, content, buffers)

    return checked


def check_canvas_events(canvas: Canvas | MultiCanvas) -> None:
    """Put :func:`canvas_event_problem` before ipycanvas's handler of ``canvas``'s events: a malformed one is left
    out, with one line in the kernel's log (a browser never sends one: it is a crafted frame, not a person's tap).

    Every comm that reaches a handler is checked: a ``MultiCanvas``'s own (it hands its events to the top layer's
    handler) and each layer's, since each layer ``Canvas`` is a widget of its own whose model id the page knows
    (``_canvases``) and which reads the events sent to it, the taps the ``MultiCanvas`` registered on its top layer
    among them. Checking a canvas twice changes nothing.

    >>> canvas, taps = MultiCanvas(2, width=10, height=10), []
    >>> check_canvas_events(canvas); check_canvas_events(canvas)
    >>> canvas.on_mouse_down(lambda x, y: taps.append((x, y)))
    >>> canvas._canvases[-1]._handle_custom_msg({"event": "mouse_down", "x": "nan", "y": 1}, [])  # left out
    >>> canvas._canvases[-1]._handle_custom_msg({"event": "mouse_down", "x": 2, "y": 1}, [])
    >>> taps
    [(2, 1)]
    """
    if getattr(canvas, "_te_events_checked", False):
        return
    layers: list[Canvas] = list(canvas._canvases) if isinstance(canvas, MultiCanvas) else [canvas]
    if isinstance(canvas, MultiCanvas):
        handler = layers[-1]._handle_frontend_event  # the top layer's: MultiCanvas routes its events there
        canvas.on_msg(handler, remove=True)
        canvas.on_msg(_checked(handler))
    for layer in layers:
        own = layer._handle_frontend_event
        layer.on_msg(own, remove=True)
        layer.on_msg(_checked(own))
    canvas._te_events_checked = True


class TapCanvas(MultiCanvas):
    """A ``MultiCanvas`` whose ``on_mouse_down`` hears mouse, pen, touch and keyboard alike.

    ``on_mouse_down`` (and its alias :meth:`on_tap`) registers a callback ``f(x, y)`` in canvas
    pixels; it is called once per tap, whatever made it. Code written for the mouse (the class-play
    seat page and projector) gets touch without a change.
    """

    def __init__(self, n_canvases: int = 2, **kwargs: Any) -> None:
        super().__init__(n_canvases, **kwargs)
        self._tap_callbacks: list[TapCallback] = []
        self._last_touch: tuple[float, float, float] | None = None  # (time, x, y)
        self.on_listeners_change: Callable[[], Any] | None = None
        super().on_mouse_down(self._from_mouse)
        super().on_touch_start(self._from_touch)
        check_canvas_events(self)

    def on_mouse_down(self, callback: TapCallback, remove: bool = False) -> None:
        """Register ``callback(x, y)`` for every tap (mouse, pen, touch, or Enter on the keyboard)."""
        if remove:
            self._tap_callbacks.remove(callback)
        else:
            self._tap_callbacks.append(callback)
        if self.on_listeners_change is not None:
            self.on_listeners_change()

    on_tap = on_mouse_down

    @property
    def listeners(self) -> int:
        """How many tap callbacks are registered."""
        return len(self._tap_callbacks)

    def _from_mouse(self, x: float, y: float) -> None:
        self.tap(x, y, source="mouse")

    def _from_touch(self, touches: Sequence[tuple[float, float]]) -> None:
        # Only the first finger makes a tap; a second finger (a pinch) is not another tap.
        if len(touches) == 1:
            x, y = touches[0]
            self.tap(x, y, source="touch")

    def tap(self, x: float, y: float, source: str = "mouse", now: float | None = None) -> bool:
        """Handle one tap at canvas pixel ``(x, y)``; ``False`` if it repeats the last touch tap.

        ``source`` is ``"mouse"`` (a mouse or a pen), ``"touch"`` or ``"keyboard"``.
        """
        if source not in ("mouse", "touch", "keyboard"):
            raise ValueError(f"a tap comes from 'mouse', 'touch' or 'keyboard', not {source!r}")
        now = time.monotonic() if now is None else now
        if source == "mouse" and self._last_touch is not None:
            t0, x0, y0 = self._last_touch
            if now - t0 <= TOUCH_MOUSE_WINDOW and abs(x - x0) <= TOUCH_MOUSE_SLOP and abs(y - y0) <= TOUCH_MOUSE_SLOP:
                return False
        if source == "touch":
            self._last_touch = (now, float(x), float(y))
        for callback in list(self._tap_callbacks):
            callback(x, y)
        return True


_ESM = r"""
const KEYS = new Set(@KEYS@);
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function registry() {
  if (!globalThis.__teMaps) { globalThis.__teMaps = new Map(); }
  return globalThis.__teMaps;
}

function visible(el) {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
}

// Esc leaves the map: the focus goes to the next control after it (or away, if there is none).
function leave(canvas) {
  const all = Array.from(document.querySelectorAll(FOCUSABLE)).filter(visible);
  const next = all.find((el) => el !== canvas && !canvas.contains(el) &&
    (canvas.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
  if (next) { next.focus(); } else { canvas.blur(); }
}

// ipywidgets' sliders (noUiSlider) give their handle role="slider" but never link it to the
// slider's description label, so a screen reader hears an unnamed slider (axe:
// aria-input-field-name). Every page with a map gets them named after their own label.
let labelCount = 0;
function nameSliders() {
  for (const handle of document.querySelectorAll('.noUi-handle[role="slider"]:not([aria-label]):not([aria-labelledby])')) {
    const box = handle.closest('.widget-slider');
    const label = box && box.querySelector('label.widget-label');
    if (label && label.textContent.trim()) {
      if (!label.id) { labelCount += 1; label.id = 'te-slider-label-' + labelCount; }
      handle.setAttribute('aria-labelledby', label.id);
    }
  }
}

// ipywidgets' slider shows its value in a readout the keyboard can edit (contenteditable): a tab stop that is
// "generic" with no name. It is a text box named after the slider's label, like its handle.
function nameReadouts() {
  for (const readout of document.querySelectorAll('.widget-readout[contenteditable="true"]:not([aria-labelledby]):not([aria-label])')) {
    const box = readout.closest('.widget-slider');
    const label = box && box.querySelector('label.widget-label');
    if (label && label.textContent.trim()) {
      if (!label.id) { labelCount += 1; label.id = 'te-slider-label-' + labelCount; }
      readout.setAttribute('role', 'textbox');
      readout.setAttribute('aria-labelledby', label.id);
    }
  }
}

// A button's Font Awesome icon is a private-use character that Chromium puts into the button's name
// ("\uf522 Roll the die"): the icon is hidden from the accessibility tree (the lessons' buttons; the
// class-play app has its own).
function hideIcons() {
  for (const icon of document.querySelectorAll('button > i.fa:not([aria-hidden])')) {
    if (!icon.closest('.typhoon-app')) { icon.setAttribute('aria-hidden', 'true'); }
  }
}

function fixPage() { nameSliders(); nameReadouts(); hideIcons(); }

// A control that disables itself, hides or goes away as it is used ("Lock in my prediction", a board's "Skip") would
// drop the keyboard's focus on the page's body, and a keyboard user would start again from the top. Once the page has
// settled (the widgets' messages that show or enable what comes next have arrived), the focus goes instead to the map
// of the control's area (a control with the class te-focus-map, inside a .te-map-area), else to a control the same
// action enabled ("Lock in" enables "Two storms meet"), else to the next control after it, else to the one before.
// Focus that went anywhere else is never moved; the class-play app has its own.
const SETTLE_MS = 250;
const fresh = (el, chain) => ({ el, chain, timer: 0, since: 0, enabled: [] });
let keep = fresh(null, []);

function lostFocus(el) {
  return !el.isConnected || el.disabled || !visible(el);
}

function successor(el, chain, enabled) {
  if (el.isConnected) {
    const area = el.classList.contains('te-focus-map') && el.closest('.te-map-area');
    const map = area && Array.from(area.querySelectorAll('canvas.te-map-canvas')).find(visible);
    if (map) { return { target: map, scroll: false }; }
    const usable = (c) => c !== el && visible(c) && !c.closest('.typhoon-app');
    const woken = enabled.filter((c) => c.isConnected && c.matches(FOCUSABLE) && usable(c));
    if (woken.length) { return { target: woken[0], scroll: true }; }
    const all = Array.from(document.querySelectorAll(FOCUSABLE)).filter(usable);
    const after = all.find((c) => el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING);
    const before = all.filter((c) => el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_PRECEDING).pop();
    return { target: after || before || null, scroll: true };
  }
  // gone with the part of the page it was in: the first control of the nearest part still there
  const home = chain.find((a) => a.isConnected && a !== document.body);
  const first = home && Array.from(home.querySelectorAll(FOCUSABLE)).find(visible);
  return { target: first || null, scroll: true };
}

function keepFocus(mutations) {
  const el = keep.el;
  if (!el) { return; }
  for (const m of mutations) {  // the controls enabled since the focus came to el, in the order they were
    if (m.attributeName === 'disabled' && m.target !== el && !m.target.disabled && !keep.enabled.includes(m.target)) {
      keep.enabled.push(m.target);
    }
  }
  const active = document.activeElement;
  if (active && active !== document.body && active !== el) { keep.el = null; return; }  // the person went elsewhere
  if (!lostFocus(el)) { return; }
  // wait until the page has settled (each change starts the wait again, for at most 2 s)
  clearTimeout(keep.timer);
  if (!keep.since) { keep.since = Date.now(); }
  const wait = Math.max(0, Math.min(SETTLE_MS, keep.since + 2000 - Date.now()));
  keep.timer = setTimeout(() => {
    const now = document.activeElement;
    if (keep.el !== el || (now && now !== document.body && now !== el)) { return; }
    const { target, scroll } = successor(el, keep.chain, keep.enabled);
    keep.el = null;
    // a finger or a mouse made the change: the focus moves without moving the page (the person is looking where
    // they tapped); a keyboard user is taken to the control that has the focus now
    if (target) { target.focus({ preventScroll: !scroll || byPointer }); }
  }, wait);
}

let byPointer = false;  // whether the last thing the person did was a tap or a click (not a key)

function watchFocus() {
  document.addEventListener('pointerdown', () => { byPointer = true; }, true);
  document.addEventListener('keydown', () => { byPointer = false; }, true);
  document.addEventListener('focusin', (e) => {
    const el = e.target;
    clearTimeout(keep.timer);
    if (!(el instanceof Element) || el.closest('.typhoon-app')) { keep = fresh(null, []); return; }
    const chain = [];
    for (let a = el.parentElement; a; a = a.parentElement) { chain.push(a); }
    keep = fresh(el, chain);
  }, true);
  // a click elsewhere than on the focused control (on the page's background) is the person's own choice
  document.addEventListener('pointerdown', (e) => {
    if (keep.el && !(e.target instanceof Node && keep.el.contains(e.target))) { clearTimeout(keep.timer); keep.el = null; }
  }, true);
  new MutationObserver(keepFocus).observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'style', 'class', 'hidden'],
  });
}

function install() {
  if (globalThis.__teMapKeys) { return; }
  globalThis.__teMapKeys = true;
  let queued = false;
  new MutationObserver(() => {
    if (queued) { return; }
    queued = true;
    requestAnimationFrame(() => { queued = false; fixPage(); });
  }).observe(document.body, { childList: true, subtree: true });
  fixPage();
  watchFocus();
  // Capture phase on the window: this runs before ipycanvas's own keydown listener on the canvas,
  // which cancels every key (Tab and Esc included) and so traps the keyboard.
  window.addEventListener('keydown', (e) => {
    const canvas = e.target;
    if (!(canvas instanceof HTMLCanvasElement)) { return; }
    if (e.key === 'Tab') { e.stopPropagation(); return; }  // the browser moves the focus
    if (e.key === 'Escape') { e.stopPropagation(); e.preventDefault(); leave(canvas); return; }
    const entry = registry().get(canvas.dataset.teMap || '');
    if (!entry) { return; }  // another canvas: only Tab and Esc are ours to let through
    e.stopPropagation();
    if (entry.get('interactive') && KEYS.has(e.key) && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      entry.send({ key: e.key, shift: e.shiftKey });
    }
  }, true);
}

function render({ model, el }) {
  install();
  const target = model.get('target');
  registry().set(target, model);
  el.classList.add('te-map-access');
  const live = document.createElement('div');
  live.className = 'te-sr-only te-map-live';
  live.setAttribute('role', 'status');
  live.setAttribute('aria-live', 'polite');
  live.dataset.teFor = target;  // which map this live region speaks for
  el.appendChild(live);
  const say = () => {
    // emptied first, so that the same sentence twice is read twice
    live.textContent = '';
    setTimeout(() => { live.textContent = model.get('announce'); }, 30);
  };
  const apply = () => {
    for (const canvas of document.querySelectorAll('canvas.' + CSS.escape(target))) {
      const interactive = model.get('interactive');
      canvas.dataset.teMap = target;
      canvas.setAttribute('role', interactive ? 'application' : 'img');
      canvas.setAttribute('aria-roledescription', model.get('roledescription'));
      canvas.setAttribute('aria-label', model.get('label'));
      canvas.setAttribute('tabindex', interactive ? '0' : '-1');
      canvas.classList.add('te-map-canvas');
    }
  };
  // ipywidgets' Play shows four icon-only buttons with no name (axe: button-name): name them in
  // the page's language, by their icon; other icon-only buttons after their tooltip
  const namePlayButtons = () => {
    const names = model.get('button_names') || {};
    for (const button of document.querySelectorAll('.widget-play button:not([aria-label])')) {
      const icon = button.querySelector('i');
      const kind = icon && ['play', 'pause', 'stop', 'retweet', 'repeat'].find((k) => icon.classList.contains('fa-' + k));
      const name = kind && names[kind === 'retweet' ? 'repeat' : kind];
      if (name) { button.setAttribute('aria-label', name); button.title = name; }
    }
    // an icon-only button (the cell pad's arrows, lesson 07's) is named by its icon's glyph, a private-use
    // character no screen reader can say: it is named after its tooltip instead
    for (const button of document.querySelectorAll('button[title]:not([aria-label])')) {
      if (!button.closest('.typhoon-app') && !button.textContent.trim() && button.title.trim()) {
        button.setAttribute('aria-label', button.title);
      }
    }
  };
  // the focus goes to the map (a button that disables itself must not drop it on the page's body)
  model.on('msg:custom', (msg) => {
    if (!msg || !msg.focus) { return; }
    const canvas = Array.from(document.querySelectorAll('canvas.' + CSS.escape(target))).find(visible);
    if (canvas) { canvas.focus(); }
  });
  model.on('change:announce', say);
  model.on('change:label', apply);
  model.on('change:interactive', apply);
  model.on('change:roledescription', apply);
  apply();
  namePlayButtons();
  // the canvas may be shown after this widget, or again (a second view): look for it a while
  const timer = setInterval(() => { apply(); namePlayButtons(); }, 800);
  return () => { clearInterval(timer); };
}

export default { render };
""".replace("@KEYS@", json.dumps(list(MAP_KEYS)))

_CSS = """
.te-sr-only { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
.te-map-access { height: 0; overflow: visible; }
canvas.te-map-canvas:focus { outline: none; }
canvas.te-map-canvas:focus-visible { outline: 4px solid #1d4ed8; outline-offset: -4px; }  /* inside: the box around clips outside */
"""


class MapAccess(PageMaySet, anywidget.AnyWidget):
    """The keyboard, the name and the live region of one map canvas (shown beside it, invisible).

    ``target`` is a CSS class given to the canvas (see :func:`new_map_class`); ``label`` its text
    description, ``announce`` a sentence for screen readers when something changed; with
    ``interactive`` the map is a tab stop and its arrow keys, Enter and Space reach
    :meth:`on_key` callbacks.

    >>> access = MapAccess(target="te-map-1", label="Map")
    >>> keys = []
    >>> access.on_key(keys.append)
    >>> access.receive({"key": "ArrowUp"}); access.receive({"key": "q"}); keys
    ['ArrowUp']
    """

    _esm = _ESM
    _css = _CSS
    target = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)
    roledescription = traitlets.Unicode("map").tag(sync=True)
    announce = traitlets.Unicode("").tag(sync=True)
    interactive = traitlets.Bool(False).tag(sync=True)
    #: names for ipywidgets' icon-only Play buttons on the page (``play``, ``pause``, ``stop``, ``repeat``)
    button_names = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._key_callbacks: list[Callable[[str], Any]] = []
        self.on_msg(lambda _widget, content, _buffers: self.receive(content))

    def on_key(self, callback: Callable[[str], Any]) -> None:
        """Call ``callback(key)`` for each map key (``MAP_KEYS``) pressed on the focused map."""
        self._key_callbacks.append(callback)

    def receive(self, content: Any) -> None:
        """Handle a message from the page (``{"key": ...}``); other keys and messages are ignored."""
        key = content.get("key") if isinstance(content, dict) else None
        if key not in MAP_KEYS:
            return
        for callback in list(self._key_callbacks):
            callback(key)

    def say(self, sentence: str) -> None:
        """Announce ``sentence`` in the live region (again, even if it is the same as the last)."""
        if sentence == self.announce:
            self.announce = ""
        self.announce = sentence

    def focus_map(self) -> None:
        """Move the keyboard's focus to the map (its first visible canvas on the page)."""
        self.send({"focus": True})


def new_map_class() -> str:
    """A fresh CSS class that names one map canvas on the page.

    >>> new_map_class() != new_map_class()
    True
    """
    return f"te-map-{next(_ids)}"


def announcer() -> MapAccess:
    """A live region with no map: what a part of a lesson without a map (a quiz) says to a screen reader.

    It is a :class:`MapAccess` whose target names no canvas, so it also names the page's sliders, their readouts
    and icon-only buttons, and hides the buttons' icons from the accessibility tree, as a map's helper does.

    >>> live = announcer(); live.say("Right!"); live.announce, live.interactive
    ('Right!', False)
    """
    return MapAccess(target=new_map_class())


def make_accessible(canvas: Any, label: str, roledescription: str = "map", interactive: bool = False) -> MapAccess:
    """Give ``canvas`` (any ipycanvas widget) a name, a live region and a way out for the keyboard; its events are
    checked (:func:`check_canvas_events`).

    Show the returned widget next to the canvas (it takes no room).

    >>> from ipycanvas import Canvas
    >>> access = make_accessible(Canvas(width=10, height=10), "A ring")
    >>> access.label, access.interactive
    ('A ring', False)
    """
    target = new_map_class()
    canvas.add_class(target)
    if isinstance(canvas, (Canvas, MultiCanvas)):  # a crafted event sent to a map is left out, whatever the map
        check_canvas_events(canvas)
    return MapAccess(target=target, label=label, roledescription=roledescription, interactive=interactive)


__all__ = ["FOCUS_TO_MAP", "MAP_AREA", "MAP_KEYS", "MAX_TOUCHES", "MapAccess", "TapCanvas", "announcer", "canvas_event_problem",
           "check_canvas_events", "make_accessible", "new_map_class"]
