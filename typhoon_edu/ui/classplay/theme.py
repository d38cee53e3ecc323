"""The class-play style sheet: a projector page that fits the screen, a phone page, the curtain.

The projector page is fixed to the browser window (``.typhoon-fullscreen``) and laid out as a
board column and a side column, both as tall as the window: the board's canvas is scaled by CSS
to the height left under the header (ipycanvas maps clicks back to canvas pixels, so a scaled
board still answers clicks on the right cell), and only the log scrolls, inside its own box.
Sizes are in ``rem``/``vh`` so that the same page fits 1920×1080 and 1366×768; the browser tests
measure the boxes. The phone page (``.typhoon-seat``) is one column, 390 px wide and up.

In a notebook (lesson 04: no ``.typhoon-fullscreen``) the page is laid out by the width of its output area, a
container query (:data:`NOTEBOOK_CSS`), not by the window's: JupyterLab's file browser takes 300 px of a 1366 px
laptop, and its cell takes 116 px of a 390 px phone. The map is as wide as the side column leaves it and, in an output
area narrower than :data:`STACK_BELOW_PX`, everything stacks: the map the whole width, then the die and the ring, the
HP and the hand.
"""

from __future__ import annotations

from ...engine.rules import load_rules
from ..geometry import BoardGeometry
from ..touch import FOCUS_CSS, PHONE_MAX_PX
from .bigdie import DIE_CSS

#: Projector header + banner height the board leaves room for (the browser tests check the fit).
_TOP = "8.6rem"
#: The side of a cell of the projector's map, canvas px (its canvas is then scaled by CSS).
PROJECTOR_CELL = 56
#: Below this width of a notebook's output area, CSS px, the game screen is one column (as a window below 900 px).
STACK_BELOW_PX = 900
#: Below this width the die goes under the compass ring (beside it, a phone's 274 px left it 40 px).
RING_DIE_BELOW_PX = 520

#: The media query of a phone: the lessons' breakpoint (:data:`typhoon_edu.ui.touch.PHONE_MAX_PX`), one number for both.
PHONE_MEDIA = f"@media (max-width: {PHONE_MAX_PX}px)"


def _notebook_css() -> str:
    """The game screen inside a notebook's output area: sized by that area (a container query; ``cqw``)."""
    width, height = BoardGeometry.for_rules(load_rules(), PROJECTOR_CELL).pixel_size
    cell = ".typhoon-projector:not(.typhoon-fullscreen)"
    return f"""
/* ---- lesson 04: the projector page in a notebook's output area, laid out by that area's width ---- */
{cell} {{ container: typhoon-cell / inline-size; }}
/* beside the side column (20rem and the gap): as tall as the window leaves it, never wider than the area leaves it
   (at 1366x768 beside JupyterLab's file browser columns 13-15 hid behind the hand); its height follows its width */
{cell} .typhoon-board canvas {{ height: auto !important; object-fit: fill;
  width: min(calc((100vh - {_TOP} - 2.6rem) * {width} / {height}), calc(100cqw - 20.8rem)) !important; }}
@media (min-width: 1700px) {{  /* the back row's sizes (HP 30 px): the side keeps 36rem ("K…" in 327 px at 1920) */
  {cell} .typhoon-board canvas {{
    width: min(calc((100vh - {_TOP} - 2.6rem) * {width} / {height}), calc(100cqw - 36.8rem)) !important; }}
}}
@media (min-width: 1500px) and (max-width: 1699.98px) and (min-height: 820px) {{  /* those sizes times .8 (WALL_125) */
  {cell} .typhoon-board canvas {{
    width: min(calc((100vh - {_TOP} - 2.6rem) * {width} / {height}), calc(100cqw - 29.6rem)) !important; }}
}}
@media (min-width: 1240px) and (max-width: 1499.98px) and (min-height: 680px) and (max-height: 740px) {{  /* 2/3 */
  {cell} .typhoon-board canvas {{
    width: min(calc((100vh - {_TOP} - 2.6rem) * {width} / {height}), calc(100cqw - 25rem)) !important; }}
}}
@container typhoon-cell (max-width: {STACK_BELOW_PX - 0.02}px) {{
  /* one column: the map the whole width, then the die and ring, the HP and the hand, each at its own height */
  {cell} .typhoon-stage {{ flex-direction: column; flex: 0 0 auto; }}
  {cell} .typhoon-board-col {{ align-items: stretch; }}
  {cell} .typhoon-board canvas {{ width: 100% !important; max-width: 100% !important; }}
  {cell} .typhoon-side {{ overflow: visible; min-width: 0; flex: 0 0 auto; }}
  {cell} .typhoon-decide-box {{ flex: 0 0 auto !important; overflow-y: visible; }}
  {cell} .typhoon-log-box {{ flex: 0 0 auto !important; }}
  {cell} .typhoon-log {{ min-height: 6rem; max-height: 45vh; }}
  {cell} .typhoon-header {{ flex-wrap: wrap; }}
  {cell} .typhoon-header > .widget-hbox:first-child {{ flex-wrap: wrap !important; min-width: 0; }}
  {cell} .typhoon-title .widget-html-content {{ white-space: normal; }}  /* the title on two lines, not cut */
  {cell} .typhoon-board-controls {{ flex-wrap: wrap; }}
  {cell} .typhoon-skip {{ flex: 0 0 auto; max-width: 100%; }}  /* under the speeds, whole ("Skip ani…" beside them) */
}}
@container typhoon-cell (max-width: {RING_DIE_BELOW_PX - 0.02}px) {{
  /* the die under the ring when both do not fit side by side, each as wide as its words need */
  {cell} .typhoon-instruments {{ flex-wrap: wrap; }}
  {cell} .typhoon-instruments .typhoon-compass {{ width: auto; flex: 1 1 13rem; min-width: 0; max-width: 22rem; }}
  {cell} .typhoon-instruments .typhoon-bigdie {{ flex: 1 0 8rem; min-width: 0; }}
  {cell} .typhoon-hp-name {{ display: block; -webkit-line-clamp: none; }}  /* a long name wraps whole, no "…" */
}}
"""


def _px(value: float, scale: float) -> str:
    """``value`` px times ``scale``, in CSS.

    >>> _px(30, 1), _px(30, .8), _px(24, .8)
    ('30px', '24px', '19.2px')
    """
    return f"{round(value * scale, 1):g}px"


def back_row_css(scale: float = 1.0) -> str:
    """The projector's back-row sizes (the game screen at 1920x1080) times ``scale``: :data:`BACK_ROW_CSS` and, for a
    window 0.8 or 2/3 as large in CSS px (the projector's browser zoomed to 125 % or 150 %), the same sizes times 0.8
    or 2/3, so that the wall shows them as large as at 100 %.

    >>> "font-size: 30px; line-height: 1.3" in back_row_css(), "font-size: 24px; line-height: 1.3" in back_row_css(.8)
    (True, True)
    """
    def px(value: float) -> str:
        return _px(value, scale)

    return f"""
  .typhoon-app {{ --jp-widgets-font-size: {_px(18, max(scale, 15 / 18))}; font-size: {_px(18, max(scale, 15 / 18))};
    --jp-widgets-inline-height: {_px(38, max(scale, 32 / 38))}; }}  /* controls never below the laptop's 15 px */
  /* the back row of a class (px: the page's rem is the browser's 16 px): HP and "what happens now" >= 28 px,
     every other text a team reads >= 24 px, the ring's names >= 18 px, the die >= 160 px
     (tests/browser/test_classroom_backrow.py) */
  .typhoon-projector .typhoon-hp-panel .widget-html-content {{ font-size: {px(30)}; line-height: 1.3; }}
  /* a team's name on one line ("▶ Blue Team (Taiwan)" took two in 11em): the name 13em, the bar what is left */
  .typhoon-projector .typhoon-hp-name {{ flex: 0 1 13em; }}
  .typhoon-projector .typhoon-hp-bar {{ flex: 1 1 4em; min-width: 2.5em; }}
  .typhoon-projector .typhoon-hp-value {{ flex-basis: 4.6em; }}
  .typhoon-projector .typhoon-hp-detail {{ font-size: .8em; }}  /* "(computer, medium)": 24 px of the panel's 30 */
  .typhoon-projector .typhoon-now .widget-html-content, .typhoon-projector .typhoon-now-text {{ font-size: {px(30)}; }}
  .typhoon-projector .typhoon-log {{ font-size: {px(24)}; line-height: 1.3; }}
  .typhoon-projector .typhoon-banner-head {{ font-size: {px(30)}; }}
  .typhoon-projector .typhoon-banner-detail {{ font-size: {px(24)}; }}
  .typhoon-projector .typhoon-banner[data-paused='1'] .typhoon-banner-head {{ font-size: {px(44)}; }}
  .typhoon-instruments .typhoon-compass {{ width: {px(520)}; flex-basis: {px(520)}; }}
  .typhoon-instruments .typhoon-compass .widget-html-content {{ font-size: {px(20)}; }}  /* its words in <b> 1.2em */
  .typhoon-bigdie .typhoon-die-svg {{ width: {px(162)}; height: {px(162)}; }}
  .typhoon-projector .typhoon-instruments .typhoon-bigdie {{ flex-basis: {px(188)}; }}  /* the compass keeps its width */
  .typhoon-projector .typhoon-board canvas {{ max-width: 60vw !important; }}
  .typhoon-projector .typhoon-die-caption {{ font-size: {px(24)}; }}
  .typhoon-projector .typhoon-status .widget-html-content {{ font-size: {px(24)}; }}  /* round, turn, rules, pile */
  .typhoon-projector .typhoon-title .widget-html-content, .typhoon-projector .typhoon-room-code .widget-html-content {{
    font-size: {px(24)}; }}  /* the room's code: a team that lost its page joins again with it */
  .typhoon-projector .typhoon-wait, .typhoon-projector .typhoon-message {{ font-size: {px(24)}; }}  /* "waiting for …" */
  .typhoon-projector .typhoon-countdown .typhoon-timer-text, .typhoon-projector .typhoon-countdown .typhoon-timer-out {{
    font-size: {px(30)}; }}
"""


def results_back_row_css(scale: float = 1.0) -> str:
    """The results' back-row sizes (1920x1080) times ``scale`` (see :func:`back_row_css`).

    >>> ".typhoon-fact-value { font-size: 44.8px; }" in results_back_row_css(.8)
    True
    """
    def px(value: float) -> str:
        return _px(value, scale)

    return f"""
  .typhoon-fact-value {{ font-size: {px(56)}; }}
  .typhoon-facts-title {{ font-size: {px(28)}; }}
  .typhoon-fact-label, .typhoon-facts-table, .typhoon-facts-none,
  .typhoon-results-screen .typhoon-summary li {{ font-size: {px(24)}; }}
  .typhoon-facts-table thead th {{ font-size: {px(24)}; }}
"""


#: The projector's window at 1920x1080 and wider (the back row's sizes), and windows 0.8 and 2/3 as large (1536x864 and
#: 1280x720 CSS px: the same projector with its browser zoomed to 125 % and 150 %; also a laptop at 125 % scaling
#: shown on it, a 720p projector), which get those sizes times 0.8 and 2/3, so the wall shows them as large as at
#: 100 %: before, such a window fell under 1700 px and got the laptop's sizes, so a teacher's Ctrl + made the HP on
#: the wall smaller (30 px became 15.7 CSS px: 19.6 px on the wall at 125 %, 23.5 px at 150 %) instead of larger.
WALL_MEDIA = "@media (min-width: 1700px)"
WALL_125_MEDIA = "@media (min-width: 1500px) and (max-width: 1699.98px) and (min-height: 820px)"
WALL_150_MEDIA = "@media (min-width: 1240px) and (max-width: 1499.98px) and (min-height: 680px) and (max-height: 740px)"
BACK_ROW_CSS = "\n".join([f"{WALL_MEDIA} {{{back_row_css()}}}", f"{WALL_125_MEDIA} {{{back_row_css(.8)}}}",
                          f"{WALL_150_MEDIA} {{{back_row_css(2 / 3)}}}"])
RESULTS_BACK_ROW_CSS = "\n".join([
    f"{WALL_MEDIA} {{  /* the projector: read from the back row */{results_back_row_css()}}}",
    f"{WALL_125_MEDIA} {{{results_back_row_css(.8)}}}", f"{WALL_150_MEDIA} {{{results_back_row_css(2 / 3)}}}"])

#: The game screen in a notebook (lesson 04); part of :data:`CSS`.
NOTEBOOK_CSS = _notebook_css()

CSS = """
<style>
.typhoon-app { --jp-widgets-font-size: 15px; --jp-widgets-inline-height: 32px; --jp-widgets-inline-label-width: 9em;
  font-size: 15px; color: #0f172a; box-sizing: border-box; }
.typhoon-app * { box-sizing: border-box; }
.typhoon-app .widget-button, .typhoon-app .jupyter-button { height: auto; min-height: var(--jp-widgets-inline-height);
  white-space: normal; line-height: 1.25; padding: 4px 12px; }
.typhoon-app .widget-toggle-buttons .widget-toggle-button { width: auto; min-width: 5em; }
.typhoon-app .widget-toggle-buttons .widget-toggle-button.mod-active { background: #1e3a8a; color: #fff; font-weight: bold;
  box-shadow: inset 0 -3px 0 #f59e0b; }  /* the chosen one stands out in lightness too, not only in a shade of grey */
.typhoon-app .widget-hbox { gap: .5em; }
/* where the keyboard is: the lessons' ring (ui/touch.py FOCUS_CSS), drawn inside each control so a row or a grid
   of buttons does not clip it */
""" + FOCUS_CSS + """
/* where the focus lands after a redraw (access.py: a new screen's heading or banner, a decision panel between
   two decisions): the same ring, drawn inside (the banner and the panels fill the page's width) */
.typhoon-app [tabindex="-1"]:focus-visible { outline: 3px solid #1d4ed8 !important; outline-offset: -3px; }
.typhoon-app a[href] { color: #1d4ed8; text-decoration: underline; text-underline-offset: 2px; }  /* a link looks like one */
.typhoon-app .typhoon-own-link { display: inline-flex; align-items: center; min-height: 44px; margin-top: .3em;
  padding: .2em .8em; border: 2px solid #1d4ed8; border-radius: 6px; font-weight: bold; }  /* a finger-sized target */
.typhoon-app .typhoon-big-button { font-size: 1.25em; min-height: 2.6em; font-weight: bold; }
.typhoon-app .typhoon-act { margin: 2px 4px 2px 0; }
.typhoon-app .typhoon-cell-or { margin-top: .3em; }
.typhoon-app .typhoon-cell-zone { font-weight: bold; }
.typhoon-app .typhoon-cell-block { margin-right: 1em; }
.typhoon-app .typhoon-cell-pick { min-width: 4.2em; margin: 0; font-variant-numeric: tabular-nums; }
.typhoon-app .typhoon-group { border: 2px solid #cbd5e1; border-radius: 8px; padding: 4px 8px; margin: 3px 0;
  background: #f8fafc; }
.typhoon-app .typhoon-panel { border: 1px solid #e2e8f0; border-radius: 8px; padding: 4px 8px; }
.typhoon-app .widget-dropdown > select { min-width: 0; }
.typhoon-app .typhoon-start-select select { width: auto; min-width: min(22em, 90vw); max-width: 100%; }
/* the menu's name is for a screen reader only (buttons.name_only: a label 0 px wide), and its label's right margin
   went with it: the menu in line with the column's buttons and headings, not 8 px right of them */
.typhoon-app .typhoon-start-select > .widget-label { margin: 0; }
/* a seat row's fields are named so too: without that margin a field that wraps (the team's name, on a phone) starts
   at its row's left edge, under the seat's title; the row's gap keeps the fields of a line apart as the margin did */
.typhoon-setup .typhoon-seat-row { column-gap: 8px; }
.typhoon-setup .typhoon-seat-row > .widget-inline-hbox > .widget-label { margin: 0; }
.typhoon-setup .widget-html-content { white-space: normal; }
.typhoon-setup .widget-hbox { flex-wrap: wrap; }
.typhoon-setup > *, .typhoon-results-screen > *, .typhoon-lobby > * { flex: 0 0 auto !important; }  /* the screen scrolls, not its parts */
/* the teacher's rooms list: code and teams, then tags (game over, rules, where the hands are) and the last move */
.typhoon-setup .typhoon-room-row { column-gap: .6em; row-gap: .2em; margin: 0; padding: .3em 0; align-items: center;
  border-bottom: 1px solid #e2e8f0; }
.typhoon-room-row > .typhoon-room-open { flex: 0 0 auto; min-width: 8.5em; }  /* the rooms' words line up */
.typhoon-room-row > .typhoon-room-about { flex: 1 1 14em; min-width: 0; }
.typhoon-room-about .widget-html-content { white-space: normal; overflow: visible; line-height: 1.4; overflow-wrap: break-word; }
.typhoon-room-date { white-space: nowrap; }
.typhoon-room-facts { display: flex; flex-wrap: wrap; gap: .25em .4em; align-items: center; margin-top: .1em; color: #334155; }
.typhoon-room-tag { border: 1px solid #94a3b8; border-radius: 999px; padding: 0 .55em; background: #f1f5f9; color: #0f172a;
  line-height: 1.5; }
.typhoon-room-tag.typhoon-room-over { background: #334155; border-color: #334155; color: #fff; font-weight: bold; }
.typhoon-room-tag.typhoon-room-advanced { background: #fef3c7; border-color: #b45309; color: #78350f; }
.typhoon-room-tag.typhoon-room-one-computer { background: #ede9fe; border-color: #6d28d9; color: #4c1d95; }
.typhoon-room-tag.typhoon-room-devices { background: #e0f2fe; border-color: #0369a1; color: #0c4a6e; }
.typhoon-problem-text { background: #fef2f2; border: 2px solid #b91c1c; color: #7f1d1d; border-radius: 8px;
  padding: .35em .7em; font-weight: bold; }
.typhoon-message-ok { color: #15803d; font-weight: bold; }
.typhoon-message-error { color: #b91c1c; font-weight: bold; }

/* ---- the projector: fixed to the window, nothing scrolls but the log ---- */
.typhoon-fullscreen { position: fixed; inset: 0; z-index: 50; background: #ffffff; overflow: hidden;
  padding: .4rem .7rem; display: flex; flex-direction: column; }
.typhoon-fullscreen > .widget-html:first-child { display: none; }
.typhoon-header { display: flex; align-items: center; justify-content: space-between; flex-wrap: nowrap; gap: .6rem;
  border-bottom: 3px solid #0ea5e9; padding-bottom: .2rem; flex: 0 0 auto; }
.typhoon-title .widget-html-content { font-size: 1.45rem; font-weight: bold; white-space: nowrap; }
.typhoon-room-code .widget-html-content { font-size: 1.25rem; white-space: nowrap; }
.typhoon-room-chip { background: #0f172a; color: #fff; border-radius: 6px; padding: .05em .5em; letter-spacing: .12em;
  font-family: ui-monospace, monospace; font-weight: bold; }
.typhoon-status { min-width: 0; flex: 1 1 auto; }
.typhoon-status .widget-html-content { color: #1e293b; white-space: normal; line-height: 1.2; }  /* wraps, never "…" */
.typhoon-header > .widget-hbox { flex-wrap: nowrap !important; }
.typhoon-header .typhoon-lang .widget-toggle-button { min-width: 4.5em !important; }
.typhoon-header .widget-toggle-buttons { flex-wrap: nowrap; display: flex; }
.typhoon-banner-box { flex: 0 0 auto; }
.typhoon-fullscreen > .widget-box { flex: 1 1 auto; min-height: 0; }
.typhoon-projector-game { min-height: 0; }
.typhoon-header > .widget-hbox:last-child { flex: 0 0 auto; }
.typhoon-banner { border-radius: 6px; padding: .25em .8em; margin: .25rem 0; border-left: 10px solid #64748b;
  background: #e2e8f0; }
.typhoon-banner.typhoon-banner-person { background: #fde68a; border-left-color: #d97706; }
.typhoon-banner-head { font-size: 1.45rem; font-weight: bold; line-height: 1.25; }
.typhoon-banner-detail { font-size: 1.02rem; }
/* the teacher has paused the game: the banner says so, white on dark red with a pause sign, larger on the projector;
   its detail says what comes when the game resumes */
.typhoon-banner.typhoon-state[data-paused='1'] { background: #991b1b; border-left-color: #450a0a; color: #ffffff; }
.typhoon-banner.typhoon-state[data-paused='1'] .typhoon-banner-head::before { content: ""; display: inline-block;
  width: .62em; height: .78em; border-left: .22em solid currentColor; border-right: .22em solid currentColor;
  margin-right: .45em; vertical-align: -.06em; }  /* a pause sign drawn by borders: no font needed, nothing read out */
.typhoon-projector .typhoon-banner[data-paused='1'] .typhoon-banner-head { font-size: 2.1rem; }
.typhoon-stage { flex: 1 1 auto; min-height: 0; display: flex; flex-wrap: nowrap; gap: .8rem; }
.typhoon-board-col { flex: 0 1 auto; min-width: 0; display: flex; flex-direction: column; align-items: flex-start; }
.typhoon-projector .typhoon-board { width: auto !important; }
.typhoon-projector .typhoon-board canvas { width: auto !important; height: calc(100vh - """ + _TOP + """ - 2.6rem) !important;
  max-width: 62vw !important; max-height: none; object-fit: contain; }
.typhoon-board-controls { flex: 0 0 auto; }
.typhoon-board > .widget-html:not(.typhoon-problem) { display: none; }  /* the board's own status line: the log says it */
.typhoon-side { flex: 1 1 0; min-width: 20rem; display: flex; flex-direction: column; gap: .3rem; min-height: 0;
  overflow: hidden; }
.typhoon-side > * { flex: 0 0 auto; }
.typhoon-hp-panel .widget-html-content { font-size: .98rem; }
.typhoon-hp-row { display: flex; align-items: center; gap: .5em; margin: .1em 0; }
.typhoon-hp-name { flex: 1 1 14em; min-width: 0; font-weight: bold; overflow: hidden; overflow-wrap: anywhere;
  line-height: 1.1; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; }
  /* a long name ("Korea (computer, hard)") takes a second line rather than losing its end to "…"; a name
     longer than two lines ends with "…", whole in its title */
.typhoon-hp-detail { font-size: .72em; font-weight: normal; }
.typhoon-hp-bar { flex: 0 1 12em; min-width: 4em; height: 1.15em; border: 2px solid #0f172a; border-radius: 4px; background: #f8fafc;
  position: relative; overflow: hidden; }
.typhoon-hp-fill { position: absolute; left: 0; top: 0; bottom: 0; }
/* a near-white region (Japan): its filled part framed in slate, so a full bar does not look like an empty one */
.typhoon-hp-fill.typhoon-hp-fill-pale { box-shadow: inset 0 0 0 .2em #475569; }
.typhoon-hp-value { flex: 0 0 5.6em; font-variant-numeric: tabular-nums; font-weight: bold; text-align: right; }
.typhoon-hp-row.typhoon-active .typhoon-hp-name::before { content: "▶ "; color: #d97706; }
.typhoon-hp-row.typhoon-out .typhoon-hp-name { text-decoration: line-through; color: #64748b; }
.typhoon-instruments { display: flex; align-items: center; gap: .6rem; }
/* the compass gives way (down to 10rem) before the die does: at 1024×768 (an older projector) both stay in view */
.typhoon-instruments .typhoon-compass { width: 22rem; flex: 0 1 22rem; min-width: 10rem; }
.typhoon-instruments .typhoon-compass canvas { width: 100% !important; height: auto !important; }
.typhoon-instruments .typhoon-compass .widget-html-content { font-size: .85rem; line-height: 1.2; }
.typhoon-bigdie { flex: 1 0 auto; }
/* the projector's die keeps one width whatever its caption says ("The die is ready." or "T2 moves: the die shows 1."):
   the compass beside it kept changing size between two states; a long caption takes a second line. Both give way
   on a small projector (1024×768), each by its share */
.typhoon-projector .typhoon-instruments .typhoon-bigdie { flex: 0 1 13rem; min-width: 7rem; }
.typhoon-bigdie .typhoon-die-svg { width: 6.5rem; height: 6.5rem; }
.typhoon-now .widget-html-content { min-height: 1.6em; }
.typhoon-now-text { font-size: 1.1rem; font-weight: bold; color: #1d4ed8; }
.typhoon-decide-box { flex: 0 1 auto !important; min-height: 0; overflow-y: auto; }
.typhoon-decide-box > *, .typhoon-decide-box .typhoon-decisions > * { flex: 0 0 auto !important; }
.typhoon-log-box { flex: 1 1 5rem !important; min-height: 3rem; display: flex; flex-direction: column; }
.typhoon-log { flex: 1 1 auto; min-height: 0; overflow-y: auto; border: 1px solid #cbd5e1; border-radius: 6px;
  padding: 2px 8px; background: #ffffff; font-size: .95rem; }
.typhoon-log-turn { font-weight: bold; border-top: 1px solid #cbd5e1; padding-top: 2px; margin-top: 2px; }
.typhoon-log-round { font-weight: bold; color: #1d4ed8; }
.typhoon-log-damage { color: #b91c1c; }
.typhoon-log-over { color: #15803d; font-weight: bold; }
.typhoon-log-counter { color: #7c2d12; font-weight: bold; }
.typhoon-log-card { color: #6d28d9; }
""" + BACK_ROW_CSS + """
/* ---- a narrow window (a phone opening the projector page): one column that scrolls ---- */
@media (max-width: 1500px) {
  /* a smaller projector (1366 or 1024 px): the header's line of round, turn, rules and pile, smaller, on one line
     or two rather than losing its end to "…" */
  .typhoon-status .widget-html-content { font-size: 1em; }  /* 15 px (.85em was 12.75 px) */
}
/* ---- a short window beside the map: the projector's browser zoomed in (Ctrl +: 1920x1080 at 150 % is 1280x720
   CSS px, at 200 % 960x540; 1366x768 at 125 % is 1093x614). The side column held more than its height, cut off
   at its foot (the log squeezed to 6 px, "Waiting for …" cut in half, at 200 % the log out of sight);
   now the compass and the die give way to the height first, the log keeps two lines, and what still does not fit
   the side column scrolls to (tests/browser/test_zoom_browser.py) ---- */
@media (max-height: 740px) and (min-width: 901px) {
  .typhoon-projector .typhoon-side { overflow-y: auto; }
  .typhoon-projector .typhoon-instruments .typhoon-compass { width: min(22rem, 34vh); flex: 0 1 min(22rem, 34vh); }
  .typhoon-projector .typhoon-bigdie .typhoon-die-svg { width: min(6.5rem, 14vh); height: min(6.5rem, 14vh); }
  .typhoon-projector .typhoon-log-box { min-height: 5.6rem; }
  .typhoon-projector .typhoon-log { min-height: 2.9em; }
}
.typhoon-chart-narrow { display: none; }
""" + PHONE_MEDIA + """ {
  .typhoon-chart-wide { display: none; }
  .typhoon-chart-narrow { display: block; }
  /* the teacher's rooms list: a room's words take the whole width, its button under them */
  .typhoon-room-row > .typhoon-room-about { flex-basis: 100%; order: -1; }
}
@media (max-width: 900px) {
  .typhoon-fullscreen { overflow-y: auto; }
  /* every part at its own height, one under the other: a shrinking box would hide the decisions and the
     answers to a tap (tests/browser/test_classplay_portrait.py) */
  .typhoon-stage { flex-direction: column; flex: 0 0 auto; }
  .typhoon-side { overflow: visible; min-width: 0; flex: 0 0 auto; }
  .typhoon-decide-box { flex: 0 0 auto !important; overflow-y: visible; }
  .typhoon-log-box { flex: 0 0 auto !important; }
  .typhoon-log { min-height: 6rem; max-height: 45vh; }
  .typhoon-projector .typhoon-board canvas { width: 100% !important; height: auto !important; max-width: 100% !important; }
  .typhoon-header { flex-wrap: wrap; }
  .typhoon-header > .widget-hbox:first-child { flex-wrap: wrap !important; min-width: 0; }
  .typhoon-status { display: none; }
  .typhoon-hp-name { flex-basis: 9em; }
  .typhoon-hp-bar { flex: 1 1 3em; }  /* a narrow screen: the name keeps its 9em, the bar takes what is left */
  .typhoon-instruments .typhoon-compass { width: min(22rem, 55vw); flex: 0 0 min(22rem, 55vw); }
  /* the compass keeps its width (its words stay readable on a phone); the die takes what is left */
  .typhoon-projector .typhoon-instruments .typhoon-bigdie { flex: 1 1 0; min-width: 0; }
}
""" + PHONE_MEDIA + """ {
  /* a phone: every control at least a fingertip, 44 x 44 px (WCAG 2.5.5; ipywidgets draws them 32 px here) */
  .typhoon-app button, .typhoon-app .jupyter-button, .typhoon-app .widget-text input,
  .typhoon-app .widget-dropdown > select { min-height: 44px; }
  .typhoon-app button, .typhoon-app .jupyter-button { min-width: 44px; }
  .typhoon-app .widget-text, .typhoon-app .widget-dropdown, .typhoon-app .widget-toggle-buttons,
  .typhoon-app .widget-checkbox { height: auto; min-height: 44px; }
  .typhoon-app .widget-checkbox label { min-height: 44px; display: flex; align-items: center; }
  .typhoon-app a.typhoon-join-link { display: inline-flex; align-items: center; min-height: 44px; }
}
@media (max-width: 360px) {
  /* a phone zoomed in (390 px at 125 % is 312 CSS px; WCAG 1.4.10 asks for a page that reflows at 320): a team's
     name on its own line over its bar and HP ("Korea (computer, medium)" ended in "…" at 312 px; at 195 px the HP
     ran past the window's edge) */
  .typhoon-hp-row { flex-wrap: wrap; row-gap: 0; }
  .typhoon-hp-name { flex: 1 1 100%; display: block; -webkit-line-clamp: none; }
  .typhoon-hp-bar { flex: 1 1 3em; }
}
@media (max-width: 480px) {
  /* a phone as the teacher's device: the seat's name gives the menu room for its longest choice */
  .typhoon-teacher .widget-dropdown { height: auto; align-items: center; }
  .typhoon-teacher .widget-dropdown > select { height: 2.75rem; }  /* a fingertip's height, not the line's */
  .typhoon-teacher .widget-dropdown > .widget-label { width: 10em !important; height: auto; white-space: normal;
    line-height: 1.2; overflow-wrap: anywhere; }  /* a long name wraps instead of ending in "…" */
}

/* ---- the results: a winner the back row can read ---- */
.typhoon-results-head { text-align: center; margin: .4rem 0 .8rem; }
.typhoon-results-title { font-size: 2rem; font-weight: bold; color: #334155; }
.typhoon-winner-label { font-size: 1.4rem; color: #92400e; font-weight: bold; margin-top: .3rem; }
.typhoon-results-winners { display: flex; flex-wrap: wrap; justify-content: center; gap: .6rem 1.2rem; }
.typhoon-winner { font-size: clamp(2rem, 5vw, 4.5rem); font-weight: 900; line-height: 1.15; color: #0f172a;
  border: .35rem solid #f59e0b; border-radius: 1rem; background: #fef3c7; padding: .15em .5em; max-width: 96vw;
  overflow-wrap: anywhere; animation: typhoon-winner-in .6s ease-out both; }
@keyframes typhoon-winner-in { from { transform: scale(.4); opacity: 0; } to { transform: scale(1); opacity: 1; } }
/* the game in numbers (results.facts_html): large figures a class can talk about, then what each team did */
.typhoon-facts { margin: 0 0 .8rem; }
.typhoon-facts-title { margin: .3rem 0 .5rem; font-size: 1.3rem; }
.typhoon-facts-tiles { display: flex; flex-wrap: wrap; gap: .6rem; margin-bottom: .8rem; }
.typhoon-fact { flex: 1 1 8.5rem; border: 2px solid #cbd5e1; border-radius: 10px; background: #f8fafc;
  padding: .35rem .7rem; text-align: center; }
.typhoon-fact-value { font-size: 2.4rem; font-weight: 800; line-height: 1.15; color: #0f172a;
  font-variant-numeric: tabular-nums; white-space: nowrap; }
.typhoon-fact-label { font-size: 1.05rem; color: #334155; line-height: 1.25; }
.typhoon-facts-table { border-collapse: collapse; width: 100%; font-size: 1.1rem; line-height: 1.25; }
.typhoon-facts-table th, .typhoon-facts-table td { border-bottom: 1px solid #cbd5e1; padding: .3em .4em; text-align: center;
  overflow-wrap: break-word; }  /* a word is broken only when it is wider than the whole column */
/* a column's heading wraps between its words ("Region / card" on a phone), never inside one */
.typhoon-facts-table thead th { font-size: .85em; color: #334155; vertical-align: bottom; overflow-wrap: normal; }
.typhoon-facts-table tbody th { text-align: left; }
.typhoon-facts-table td { font-variant-numeric: tabular-nums; font-weight: bold; }
.typhoon-facts-none { font-size: 1.15rem; margin: 0; }
.typhoon-results-screen .typhoon-summary li { font-size: 1.1rem; margin: .15em 0; }
""" + RESULTS_BACK_ROW_CSS + """
/* ---- the teacher's drawer (over the side column, so the layout never changes) ---- */
.typhoon-teacher { position: fixed; top: 3.2rem; right: .7rem; width: min(34rem, 96vw); max-height: calc(100vh - 4rem);
  overflow-y: auto; z-index: 70; background: #f8fafc; border: 3px solid #0f172a; border-radius: 10px; padding: .5rem .8rem;
  box-shadow: 0 10px 30px rgba(15,23,42,.35); }
/* a row of buttons wraps whole buttons onto the next line; a button never shrinks below its words (on a phone
   the row squeezed 暫停 into one character a line) and wraps its words only when wider than the drawer */
.typhoon-teacher .widget-hbox { flex-wrap: wrap; row-gap: .3rem; }
/* each row at its own height, the drawer scrolls: in a short window (the projector's browser at 200 %, 960x540)
   its rows shrank instead, over one another, their buttons and menus cut at the top and foot */
.typhoon-teacher > *, .typhoon-teacher .widget-vbox > * { flex: 0 0 auto !important; }
.typhoon-teacher .typhoon-teacher-seat { border-top: 1px solid #cbd5e1; padding: .35rem 0; gap: .25rem; }
.typhoon-teacher .typhoon-teacher-kind { height: auto; align-items: center; }
.typhoon-teacher .typhoon-teacher-kind .widget-label { white-space: normal; overflow: visible; text-overflow: clip;
  height: auto; line-height: 1.2; text-align: left; }  /* "Korea (computer, medium)" on two lines, not cut short */
.typhoon-teacher button { flex: 0 0 auto; max-width: 100%; white-space: normal; height: auto; min-height: 2.4rem; }

/* ---- joining: the lobby's cards: all their styles are joincard.JOIN_CSS ---- */

/* ---- one computer: the curtain between players ---- */
.typhoon-curtain { position: fixed; inset: 0; z-index: 90; background: #0f172a; display: flex; align-items: center;
  justify-content: center; }
.typhoon-curtain .typhoon-curtain-button, .typhoon-curtain .typhoon-curtain-button button { font-size: 2.2rem !important;
  min-height: 6rem; padding: 1rem 2rem; max-width: 90vw; }
/* a lifted curtain: the hand gets the side column's whole height, its cards side by side */
.typhoon-hand-up .typhoon-instruments, .typhoon-hand-up .typhoon-log-box, .typhoon-hand-up .typhoon-now {
  display: none !important; }
.typhoon-hand-up .typhoon-decide-box { flex: 1 1 auto !important; }
/* one computer, a hand lifted, and the page's link to its kernel lost (pagelink: <body data-typhoon-connection>): the
   kernel can no longer lower the hand, so the page hides it (cards, hint, card buttons) until the kernel ticks again */
body[data-typhoon-connection="lost"] .typhoon-projector.typhoon-hand-up .typhoon-decide-box { visibility: hidden; }
.typhoon-hand-up .typhoon-hand .widget-html-content { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr));
  gap: .2rem .4rem; }
.typhoon-hand-up .typhoon-hand-title { grid-column: 1 / -1; }
.typhoon-hand-up .typhoon-card { margin: 0; font-size: .9em; line-height: 1.25; }
.typhoon-hand-up .typhoon-decisions > .typhoon-hand { order: -1; }  /* the hand first, the choices under it */
.typhoon-private { position: fixed; inset: 0; z-index: 80; background: #fffbeb; overflow-y: auto; padding: 1rem 2rem; }

/* ---- a seat's phone or tablet ---- */
.typhoon-seat { max-width: 48rem; margin: 0 auto; padding: .3rem; }
.typhoon-seat .typhoon-seat-head .widget-html-content { font-size: 1.25rem; font-weight: bold; }
/* the team's colour square, framed: Japan's near-white one vanished on the white page */
.typhoon-seat-swatch { position: relative; }
.typhoon-seat-swatch::before { content: ""; position: absolute; left: -1.2rem; top: 0; bottom: 0; width: 1.2rem;
  box-shadow: inset 0 0 0 2px #475569; }
.typhoon-seat .typhoon-board canvas { width: 100% !important; height: auto !important; }
.typhoon-seat .typhoon-act button, .typhoon-seat .typhoon-act { min-height: 2.8rem; font-size: 1.05rem; }
.typhoon-seat .typhoon-cell-pick { min-width: 3.2rem; }  /* a fingertip: 45 x 51 px at least */
.typhoon-seat .widget-hbox { flex-wrap: wrap; }
.typhoon-seat .typhoon-log { max-height: 12rem; }
.typhoon-seat .typhoon-banner-head { font-size: 1.15rem; }
.typhoon-seat .typhoon-banner-detail { font-size: .95rem; }
.typhoon-seat .typhoon-bigdie { flex: 0 0 auto; }
.typhoon-sound, .typhoon-lang { flex: 0 0 auto; }  /* never narrower than their words (聲音 went one character a line) */
.typhoon-seat .typhoon-bigdie .typhoon-die-svg { width: 4rem; height: 4rem; }
.typhoon-seat .typhoon-die-caption { min-height: 0; font-size: .9rem; }
.typhoon-hint { background: #ecfeff; border: 2px solid #0891b2; border-radius: 8px; padding: .3em .6em; }
.typhoon-hint-icon { color: #b45309; vertical-align: -.2em; margin-right: .3em; }  /* the drawn bulb (coachbox.BULB) */
.typhoon-sr-only { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }  /* read by a screen reader, not shown */
.typhoon-review li { margin: .2em 0; }
.typhoon-card { border: 2px solid #cbd5e1; border-radius: 8px; padding: .3em .6em; margin: .2em 0; background: #fff; }
.typhoon-card.typhoon-card-off { opacity: .65; }
""" + DIE_CSS + NOTEBOOK_CSS + """
</style>
"""
