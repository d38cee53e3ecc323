"""What a keyboard and a screen reader need from a class-play page that ipywidgets does not give (an anywidget).

ipywidgets shows which toggle is chosen only by a class (``mod-active``), draws Font Awesome icons as
characters a screen reader reads out, and removes a pressed button with the rows it redraws, so the
focus falls to the page's body. This tiny front-end piece, one per page, watches the page and:

- **Toggle groups** (players 3/4/5, regions, hands, rules, dice, speed, the language switch):
  ``role="group"`` named by ``names`` (a group's CSS class → its visible label, in the page's
  language), and ``aria-pressed`` on each button, mirrored from ``mod-active``; a single toggle
  button (the sound switch) is ``aria-pressed`` too, and a toggle that shows a part of the page
  (the teacher's drawer, the log) says ``aria-expanded`` instead, with ``aria-controls``.
- **Icons** (``<i class="fa …">``) are hidden from the accessibility tree.
- **Focus after a redraw.** When the focused control is removed (a decision's button, the setup's
  *Start*, the lobby when the board opens) or hidden, and the focus fell to the body, it goes to the
  new decision's first control (the same group's when it is there again), or while there is none to
  the decision panel itself (then to the first control when one appears, unless the person went
  elsewhere); after a change of screen, to the new screen's heading or banner (``tabindex=-1``); on one
  computer, to the curtain's button while it covers the page, and to the hand's decision once it is lifted.
  Focus that is anywhere else is never moved.
- **A second tap.** After a finger's tap on a decision's button, another tap on a decision's button is ignored
  for :data:`TAP_HOLD_MS` ms, counted again from each redraw of the decision panel in the next
  :data:`TAP_REDRAW_MS` ms (a double tap, or a finger still there when another button slid under it, played a
  second decision); a scroll of the page in that time that no finger made (the turn brought into view) holds it back
  too, as a redraw does. A decision drawn more than :data:`TAP_REDRAW_MS` ms after the tap is never held back; one drawn
  sooner (after a short move, or at a fast speed) takes taps :data:`TAP_HOLD_MS` ms after it appears. On a team's
  own page only (a phone or a tablet): the projector's, played on one computer, is tapped by one person who
  watches the board between decisions. An ignored tap is not silent: a note beside its button
  (``tap_held_text``, "Wait a moment, then tap again" in the page's language) stays until the hold is over. The kernel
  ignores a button drawn for a decision that is over (:mod:`.decisions`); ``<body data-typhoon-taps-ignored>``
  counts the taps ignored here (for tests). A mouse and a keyboard are not held back.
- **The teacher's drawer.** Opened from its toggle, the focus moves to its first control; Esc in
  the drawer (or on the toggle) closes it and gives the focus back to the toggle.

>>> a = PageAccess()
>>> a.set_names({"typhoon-lang": "Language"}); a.names
{'typhoon-lang': 'Language'}
>>> sorted(group_names("en"))[:3]
['typhoon-dice-mode', 'typhoon-game-speed', 'typhoon-hands-mode']
>>> group_names("zh-TW")["typhoon-seat-count"]
'玩家人數：'
>>> PageAccess("zh-TW").tap_held_text
'請稍等，再點一次'
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from ... import i18n
from ..page_writes import PageMaySet
from .viewdata import d

__all__ = ["TAP_HOLD_MS", "TAP_REDRAW_MS", "PageAccess", "group_names"]

#: Milliseconds a finger's next tap on a decision's button is ignored, after a tap on one and after each redraw of
#: the decisions that follows it (a double tap is ~100–300 ms; the buttons slid under the finger when redrawn).
TAP_HOLD_MS = 600
#: Milliseconds after a tap in which a redraw of the decisions holds the next tap back again (a slower redraw is
#: the next decision, after its animation: a person reads it before tapping).
TAP_REDRAW_MS = 2500


def group_names(lang: str) -> dict[str, str]:
    """Each toggle group's name in ``lang``, by its CSS class: the label shown beside it (or, for the
    language switch and the game's speed, what it would say)."""
    return {
        "typhoon-seat-count": d("setup.players", lang),
        "typhoon-regions": d("setup.regions", lang),
        "typhoon-hands-mode": i18n.t("classplay.setup.hands", lang),
        "typhoon-variant": d("setup.variant", lang),
        "typhoon-dice-mode": d("setup.dice", lang),
        "typhoon-speed": d("setup.speed", lang),
        "typhoon-game-speed": d("setup.speed", lang),
        "typhoon-lang": i18n.t("classplay.access.language", lang),
    }


_ESM = r"""
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
// a toggle that shows a part of the page: its CSS class -> what it shows (null: nothing to point at)
const DISCLOSES = { "typhoon-teacher-button": ".typhoon-teacher", "typhoon-log-toggle": ".typhoon-log" };
// where the focus lands after a change of screen: the new screen's heading or banner
const LANDING = "h1, h2, h3, .typhoon-banner, .typhoon-results-title";

const shown = (e) => !!e && e.isConnected && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
function set(e, name, value) { if (e.getAttribute(name) !== value) e.setAttribute(name, value); }
function firstControl(box) {
  if (!box) return null;
  for (const e of box.querySelectorAll(FOCUSABLE)) if (shown(e)) return e;
  return null;
}
let ids = 0;
function idOf(e) { if (!e.id) e.id = "typhoon-a11y-" + (++ids); return e.id; }

function start(model, el, app) {
  const names = () => model.get("names") || {};
  let last = null, chain = [];      // the focused control in the page, and its ancestors (nearest first)
  let pending = null;               // the focus fell to the body: {chain, since}
  let holding = null;               // a decision panel holding the focus until its next control appears
  let openedBy = null, opened = 0;  // the teacher's toggle just opened the drawer by a press on it
  let lastChange = Date.now(), timer = null;

  function label() {
    const n = names();
    for (const g of app.querySelectorAll(".widget-toggle-buttons")) {
      set(g, "role", "group");
      const cls = Object.keys(n).find((c) => g.classList.contains(c));
      if (cls) set(g, "aria-label", n[cls]);
      for (const b of g.querySelectorAll("button")) set(b, "aria-pressed", String(b.classList.contains("mod-active")));
    }
    for (const b of app.querySelectorAll("button.widget-toggle-button")) {
      if (b.closest(".widget-toggle-buttons")) continue;
      const on = String(b.classList.contains("mod-active"));
      const kind = Object.keys(DISCLOSES).find((c) => b.classList.contains(c));
      if (kind) {
        set(b, "aria-expanded", on);
        const part = app.querySelector(DISCLOSES[kind]);
        if (part) set(b, "aria-controls", idOf(part));
        if (kind === "typhoon-teacher-button") {
          if (on === "true" && b.dataset.typhoonWas !== "true" && document.activeElement === b) { openedBy = b; opened = Date.now(); }
          b.dataset.typhoonWas = on;
        }
      } else {
        set(b, "aria-pressed", on);
      }
    }
    for (const i of app.querySelectorAll("i.fa, i[class^='fa-'], i[class*=' fa-']")) set(i, "aria-hidden", "true");
    for (const g of app.querySelectorAll(".typhoon-decisions .typhoon-group")) {  // a decision's buttons, under its title
      const title = g.querySelector(".typhoon-group-title");
      set(g, "role", "group");
      if (title) set(g, "aria-labelledby", idOf(title));
    }
    const drawer = app.querySelector(".typhoon-teacher");
    if (drawer) { set(drawer, "role", "region"); const h = drawer.querySelector("h3"); if (h) set(drawer, "aria-labelledby", idOf(h)); }
  }

  function land(p) {
    // one computer: the curtain covers the page between players, and its button is all there is to press
    const curtain = app.querySelector(".typhoon-curtain");
    if (shown(curtain) && firstControl(curtain)) { firstControl(curtain).focus(); return true; }
    if (curtain && p.chain.includes(curtain)) {  // the curtain lifted: the hand's decision, once drawn
      const t = firstControl(app.querySelector(".typhoon-decisions .typhoon-actions"));
      // without scrolling: the hand just shown stays in view (a scroll to the button moved the cards off screen)
      if (t) { t.focus({ preventScroll: true }); return true; }
      if (Date.now() - p.since < 3000) return false;
    }
    const panel = p.chain.find((a) => a.classList && a.classList.contains("typhoon-decisions"));
    if (panel && shown(panel)) {  // a decision was made: the next one's first control, or the panel until there is one
      const group = p.chain.find((a) => a.classList && a.classList.contains("typhoon-group"));
      const key = group && [...group.classList].find((c) => c.startsWith("typhoon-group-") && c !== "typhoon-group-title");
      const same = key ? panel.querySelector(".typhoon-group." + CSS.escape(key)) : null;
      const target = firstControl(same) || firstControl(panel);
      if (target) { target.focus(); return true; }
      if (!panel.hasAttribute("tabindex")) panel.setAttribute("tabindex", "-1");
      holding = panel; panel.focus();
      return true;
    }
    const anchor = p.chain.find((a) => shown(a) && app.contains(a));
    if (!anchor) return false;
    // a new screen: wait until it has been drawn (quiet for a moment), then its heading or banner
    if (Date.now() - lastChange < 250 && Date.now() - p.since < 3000) return false;
    let target = null;
    for (const h of anchor.querySelectorAll(LANDING)) {
      if (!shown(h)) continue;
      target = h.closest(".widget-html") || h;  // the widget's own box outlives a new text
      break;
    }
    if (target) { if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1"); }
    else target = firstControl(anchor);
    if (!target) return false;
    target.focus();
    return true;
  }

  function run() {
    timer = null;
    label();
    const active = document.activeElement;
    const lost = !active || active === document.body;
    if (lost && last && !shown(last)) { pending = { chain, since: Date.now() }; last = null; }
    if (pending) {
      if (!lost || Date.now() - pending.since > 20000) pending = null;
      else if (land(pending)) pending = null;
      else schedule();
    }
    if (holding && document.activeElement === holding) {
      const first = firstControl(holding.querySelector(".typhoon-actions") || holding);
      if (first) { holding = null; first.focus(); }
    }
    if (openedBy) {
      const drawer = app.querySelector(".typhoon-teacher");
      if (Date.now() - opened > 5000 || document.activeElement !== openedBy) openedBy = null;
      else if (shown(drawer) && firstControl(drawer)) { openedBy = null; firstControl(drawer).focus(); }
      else schedule();
    }
  }
  function schedule() { if (!timer) timer = setTimeout(run, 100); }

  // a finger's second tap on a decision's button (see the module's docstring): ignored for a moment
  let touchAt = 0, tapAt = 0, holdUntil = 0;
  const hold = model.get("tap_hold_ms");
  // an ignored tap says so beside its button until the hold is over (outside the app: not a redraw of the decisions)
  let note = null, noteTimer = null;
  const heldNote = (b, left) => {
    const text = model.get("tap_held_text");
    if (!text) return;
    if (!note) {
      note = document.createElement("div");
      note.className = "typhoon-tap-note";
      note.setAttribute("role", "status");
      note.style.cssText = "position: fixed; z-index: 1000; pointer-events: none; max-width: calc(100vw - 16px); "
        + "box-sizing: border-box; padding: 6px 12px; border-radius: 8px; background: #1f2937; color: #fff; "
        + "font: 600 16px/1.3 system-ui, sans-serif; box-shadow: 0 2px 8px rgba(0, 0, 0, .35)";
    }
    note.textContent = text;
    document.body.appendChild(note);
    const r = b.getBoundingClientRect(), h = note.offsetHeight, w = note.offsetWidth;
    const below = r.bottom + 6 + h <= window.innerHeight;
    note.style.top = `${below ? r.bottom + 6 : Math.max(r.top - 6 - h, 0)}px`;
    note.style.left = `${Math.min(Math.max(r.left + (r.width - w) / 2, 8), Math.max(window.innerWidth - w - 8, 8))}px`;
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => { if (note) note.remove(); }, Math.max(left, 900));
  };
  const onDown = (e) => { if (e.pointerType === "touch" || e.pointerType === "pen") touchAt = Date.now(); };
  const onTap = (e) => {
    const b = e.target && e.target.closest ? e.target.closest(".typhoon-decisions button") : null;
    const now = Date.now();
    if (!b || now - touchAt > 1500 || !app.classList.contains("typhoon-seat")) return;  // a team's finger only
    if (now < holdUntil) {
      e.preventDefault(); e.stopImmediatePropagation();
      document.body.dataset.typhoonTapsIgnored = String(Number(document.body.dataset.typhoonTapsIgnored || 0) + 1);
      heldNote(b, Math.max(holdUntil - now, 0));
      return;
    }
    tapAt = now; holdUntil = now + hold;
  };
  // the page scrolled by itself soon after such a tap (its turn brought into view, pagelink.py): what is under the
  // finger moved, so the next tap waits as after a redraw; a finger's own scroll (touchmove) is no such move
  let fingerMovedAt = 0;
  const onFingerMove = () => { fingerMovedAt = Date.now(); };
  const onScroll = () => {
    const now = Date.now();
    if (now - tapAt < model.get("tap_redraw_ms") && now - fingerMovedAt > 500) holdUntil = Math.max(holdUntil, now + hold);
  };
  const inDecisions = (m) => {
    const e = m.target && (m.target.nodeType === 1 ? m.target : m.target.parentElement);
    return !!(e && e.closest && e.closest(".typhoon-decisions"));
  };
  const observer = new MutationObserver((changes) => {
    lastChange = Date.now(); schedule();
    if (lastChange - tapAt < model.get("tap_redraw_ms") && changes.some(inDecisions)) holdUntil = Math.max(holdUntil, lastChange + hold);
  });
  observer.observe(app, { subtree: true, childList: true, attributes: true, attributeFilter: ["class", "style"] });
  const onIn = (e) => {
    last = e.target; pending = null;
    chain = []; for (let a = e.target.parentElement; a && a !== app.parentElement; a = a.parentElement) chain.push(a);
    if (holding && e.target !== holding) holding = null;
  };
  const onOut = (e) => {
    const t = e.target;  // a control left by a click on nothing (still there, still shown): nothing to give back
    setTimeout(() => { if (last === t && shown(t) && document.activeElement !== t) last = null; }, 0);
  };
  const onKey = (e) => {
    if (e.key !== "Escape") return;
    const drawer = app.querySelector(".typhoon-teacher"), toggle = app.querySelector(".typhoon-teacher-button");
    if (!drawer || !toggle || !shown(drawer) || !(drawer.contains(e.target) || e.target === toggle)) return;
    e.preventDefault(); e.stopPropagation();
    if (toggle.classList.contains("mod-active")) toggle.click();
    toggle.focus();
  };
  app.addEventListener("focusin", onIn);
  app.addEventListener("focusout", onOut);
  app.addEventListener("keydown", onKey);
  app.addEventListener("pointerdown", onDown, true);
  app.addEventListener("click", onTap, true);
  document.addEventListener("touchmove", onFingerMove, { capture: true, passive: true });
  document.addEventListener("scroll", onScroll, { capture: true, passive: true });
  model.on("change:names", schedule);
  run();
  return () => {
    observer.disconnect();
    app.removeEventListener("focusin", onIn); app.removeEventListener("focusout", onOut);
    app.removeEventListener("keydown", onKey);
    app.removeEventListener("pointerdown", onDown, true); app.removeEventListener("click", onTap, true);
    document.removeEventListener("touchmove", onFingerMove, { capture: true });
    document.removeEventListener("scroll", onScroll, { capture: true });
    if (timer) clearTimeout(timer);
    clearTimeout(noteTimer); if (note) note.remove();
  };
}

function render({ model, el }) {
  el.style.display = "none";
  el.classList.add("typhoon-page-access");
  let stop = null, tries = 0, wait = null;
  const begin = () => {  // the page's root holds this widget once it is drawn
    const app = el.closest(".typhoon-app");
    if (app) { stop = start(model, el, app); return; }
    if (++tries < 600) wait = setTimeout(begin, 50);
  };
  begin();
  return () => { if (wait) clearTimeout(wait); if (stop) stop(); };
}
export default { render };
"""


class PageAccess(PageMaySet, anywidget.AnyWidget):
    """The page's keyboard and screen-reader helper; ``names``: each toggle group's name by its CSS class."""

    _esm = _ESM
    names = traitlets.Dict(traitlets.Unicode(), default_value={}).tag(sync=True)
    tap_hold_ms = traitlets.Int(TAP_HOLD_MS).tag(sync=True)
    tap_redraw_ms = traitlets.Int(TAP_REDRAW_MS).tag(sync=True)
    tap_held_text = traitlets.Unicode("").tag(sync=True)

    def __init__(self, lang: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if lang is not None:
            self.set_lang(lang)

    def set_names(self, names: dict[str, str]) -> None:
        if names != self.names:
            self.names = dict(names)

    def set_lang(self, lang: str) -> None:
        self.set_names(group_names(lang))
        self.tap_held_text = i18n.t("classplay.access.tap_held", lang)
