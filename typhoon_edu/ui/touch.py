"""Fingertip-sized controls in the lessons on a phone (WCAG 2.5.5, target size: 44 x 44 CSS px).

ipywidgets draws every button, menu, text field and slider 28 px high (its slider handles 16 px), right for a mouse,
too small for a finger. :data:`TOUCH_CSS` makes them at least :data:`FINGER_PX` square in a window no wider than
:data:`PHONE_MAX_PX` (a phone), and changes no size on a laptop or projector. It is one ``<style>`` that every lesson
part carries (:func:`touch_style`; a page may hold it many times, which costs nothing): a part shown alone still
gets it. The class-play app that lesson 04 embeds (``.typhoon-app``) has its own sizes and is left alone.

On every screen it also draws the keyboard's focus ring (:data:`FOCUS_CSS`, WCAG 2.4.7, focus visible): 3 px where
ipywidgets draws 1 px of light blue.

It also holds the rules of the phone-only cell pad that stands in for a tap on a map cell (see
:class:`~typhoon_edu.ui.board.CellPad`): shown on a phone only, where a map's cells are about 21 px.

>>> "@media (max-width: 600px)" in TOUCH_CSS and "min-height: 44px" in TOUCH_CSS
True
>>> touch_style().value.startswith("<style>"), ":focus-visible" in TOUCH_CSS, "canvas" in FOCUS_CSS
(True, True, False)
"""

from __future__ import annotations

import ipywidgets as widgets

#: The smallest side of a control a finger taps, in CSS px (WCAG 2.5.5).
FINGER_PX = 44
#: The widest window that counts as a phone, in CSS px (the lessons' other phone rules use the same).
PHONE_MAX_PX = 600

# Every touch selector skips the class-play app (":not(.typhoon-app *)"; its own style sheet sizes its controls); the
# focus ring applies everywhere (classplay/theme.py includes it too). Only min-height and min-width grow a control, so
# a layout's own height (the ring tools' 2.2em) or width (lesson 07's arrows, 3em) gives way without !important; the
# boxes that ipywidgets makes exactly one line high (a menu's, a slider's) are freed to grow with what is in them.
# A button laid out as a flex box (the die's Roll) keeps its words in the middle of its new height.
# A slider's handle gets a 44 px box whose outer 12 px are a transparent border: the dot a person sees is 20 px.
# The answer sheet's name field (22em, in every lesson) takes the whole line, less its margins: beside its label a
# 22em box left its example ("first name and class, e.g. Mei 7B") cut off at the end.
# Where the keyboard is, on every device: ipywidgets' own ring is 1 px of light blue, unseen on a blue button ("Roll
# the die"). A 3 px dark-blue ring with a white band inside it (seen on a dark button too) on buttons, fields, menus,
# links, editable readouts and slider handles, drawn inside the control: a row of buttons clips what is drawn outside
# (a 2 px offset lost the ring's left and top on lesson 02's first button). Not on a map's canvas, which draws its own
# ring inside (canvas_input.py).
FOCUS_CSS = """
:is(button, input, select, textarea, a[href], [contenteditable="true"], .noUi-handle, summary):focus-visible {
  outline: 3px solid #1d4ed8 !important; outline-offset: -3px; box-shadow: inset 0 0 0 5px #ffffff; }
"""

TOUCH_CSS = f"""<style>{FOCUS_CSS}
.jupyter-widgets.te-cell-pad {{ display: none; }}
@media (max-width: {PHONE_MAX_PX}px) {{
  .jupyter-button:not(.typhoon-app *) {{ min-height: {FINGER_PX}px; min-width: {FINGER_PX}px; align-items: center; }}
  :is(.widget-text, .widget-dropdown, .widget-select, .widget-datepicker) :is(input, select):not(.typhoon-app *) {{
    min-height: {FINGER_PX}px; }}
  :is(.widget-dropdown, .widget-hslider, .widget-checkbox, .widget-colorpicker, .widget-datepicker):not(.typhoon-app *) {{
    height: auto; min-height: {FINGER_PX}px; }}
  .widget-checkbox label:not(.typhoon-app *) {{ min-height: {FINGER_PX}px; display: flex; align-items: center; }}
  .widget-play:not(.typhoon-app *) {{ width: auto; }}
  .widget-hslider:not(.typhoon-app *) {{ --jp-widgets-slider-handle-size: {FINGER_PX}px; }}
  .widget-hslider .noUi-handle:not(.typhoon-app *) {{ border-width: 12px !important; border-color: transparent !important;
    background-clip: padding-box; box-shadow: inset 0 0 0 1px #64748b; }}
  .widget-text.quiz-name:not(.typhoon-app *) {{ min-width: calc(100% - 2 * var(--jp-widgets-margin, 2px)); }}
  details.glossary > summary {{ min-height: {FINGER_PX}px; line-height: {FINGER_PX}px; }}
  a.quiz-download-link {{ display: inline-flex !important; align-items: center; min-height: {FINGER_PX}px;
    box-sizing: border-box; }}
  .jupyter-widgets.te-cell-pad {{ display: flex; }}
}}
</style>"""


def touch_style() -> widgets.HTML:
    """A widget holding :data:`TOUCH_CSS` (it shows nothing itself)."""
    return widgets.HTML(TOUCH_CSS)


__all__ = ["FINGER_PX", "FOCUS_CSS", "PHONE_MAX_PX", "TOUCH_CSS", "touch_style"]
