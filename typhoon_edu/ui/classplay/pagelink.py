"""The page's own small front end (an anywidget): the connection, the device's choices, attention.

A class-play page is drawn by its kernel; what only the browser can do lives here, in a few lines
of JavaScript:

- **Connection.** The kernel ticks ``beat`` every ``interval`` seconds while the page answers (every
  :data:`ACK_EVERY`-th tick; a kernel that hears nothing for :data:`SILENT_AFTER` s stops ticking, so the
  kernel of a page that vanished is culled as idle). A kernel that is alive but slow (a busy server: gaps
  of 1.7 s were seen at a load of 11) is not called lost: after ``slow_after`` seconds without a tick the
  page says, softly and without a button, "slow connection — waiting for the server…"; only after
  ``lost_after`` seconds does it say "connection lost — reconnecting…" in red, with a *Reload* button
  (the ``<body data-typhoon-connection>`` attribute says ``ok``/``slow``/``lost`` for tests). Both notices
  sit at the bottom of the window, never over the page's header (the team's name, its language switch),
  and go away by themselves when ticks come back. With ``reload_after`` > 0 (a seat's page, whose link
  opens the seat again) the page reloads itself once the server answers again.
- **The device's own language.** A switch made on this device (``chosen_lang``) is kept in the
  browser's ``localStorage`` and given back to the kernel when the page opens again. The browser's own
  language (``navigator.language``) is sent too (``browser_lang``): the join page's best guess before a
  room's language is known.
- **Attention.** Each increase of ``alert`` plays a short sound and vibrates the device
  (``navigator.vibrate``), unless ``muted``; the mute switch is kept in ``localStorage`` too.
- **The turn in view.** Each increase of ``turn`` (this device's new decision, muted or not): when the decision's
  first button (or, for a decision on the map, the map) is out of the window, as after a tap on the map with the
  buttons above it, the page scrolls its banner to the top. Not while a finger moved the page in the last
  :data:`STILL_MS` ms, nor while the team's hand fills the middle of the window with the map scrolled away (a
  student reading it is not jumped away from it).

>>> link = PageLink(mode="seat")
>>> link.alert
0
>>> link.ring(); link.alert
1
>>> link.muted = True; link.ring(); link.alert   # muted: nothing to play
1
>>> link.tick(); link.beat
1
>>> link.listened_to   # just made: the page has SILENT_AFTER seconds to say it is there
True
>>> link.clock = lambda: link.heard + SILENT_AFTER + 1; link.listened_to
False
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import anywidget
import traitlets

from ... import i18n
from ..page_writes import PageMaySet

log = logging.getLogger("typhoon_edu.ui")

#: Seconds between two ticks of the kernel; without one for ``SLOW_AFTER`` seconds the page says the connection is slow
#: (a soft notice), for ``LOST_AFTER`` seconds that it is lost (the red bar with its *Reload* button). A kernel under a
#: heavy load missed ticks for 1.7 s while it was well (issue: false alarms), so the red bar waits longer than that.
INTERVAL = 0.5
SLOW_AFTER = 2.5
LOST_AFTER = 5.0
#: Seconds a seat's page waits, connection lost, before it reloads itself (its link reopens the seat).
RELOAD_AFTER = 8.0
#: The page answers every ``ACK_EVERY``-th tick (and, while it hears none, says it is there every second); a kernel
#: that hears nothing for ``SILENT_AFTER`` seconds stops ticking until it does. A tick is activity to the server, so a
#: page that vanished without a word (a phone off the network) would otherwise keep its kernel from ever being culled.
ACK_EVERY = 4
SILENT_AFTER = 10.0
#: Milliseconds after a person scrolled the page (a finger's move, a wheel) in which a new turn leaves the page as it is.
STILL_MS = 2000

ESM = r"""
function store(key, value) {
  try { if (value === undefined) return localStorage.getItem(key); localStorage.setItem(key, value); }
  catch (e) { return null; }  // a private window without storage: the choice lasts for this page only
}

let audio = null;
function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 880; gain.gain.value = 0.15;
    osc.connect(gain); gain.connect(audio.destination);
    osc.start(); osc.stop(audio.currentTime + 0.25);
  } catch (e) { /* no sound on this device */ }
}

function render({ model, el }) {
  el.classList.add("typhoon-pagelink");
  const box = document.createElement("div");
  box.className = "typhoon-connection"; box.setAttribute("role", "alert"); box.hidden = true;
  const text = document.createElement("span");
  const button = document.createElement("button");
  button.className = "typhoon-reload"; button.type = "button";
  button.addEventListener("click", () => location.reload());
  box.append(text, button); el.append(box);
  let state = "ok";  // ok, slow (a soft notice: ticks are late) or lost (the red bar and its button)
  const label = () => {
    text.textContent = model.get(state === "slow" ? "slow_text" : "lost_text");
    button.textContent = model.get("reload_text");
  };
  const show = (s) => {
    if (s === state) return;
    state = s; label();
    box.hidden = s === "ok"; button.hidden = s !== "lost";
    box.classList.toggle("typhoon-connection-slow", s === "slow");
    box.setAttribute("role", s === "lost" ? "alert" : "status");
    document.body.dataset.typhoonConnection = s;
  };
  label();
  model.on("change:lost_text", label); model.on("change:slow_text", label); model.on("change:reload_text", label);

  const mode = model.get("mode");
  const saved = store("typhoon-edu-lang");
  if (saved && saved !== model.get("chosen_lang")) { model.set("chosen_lang", saved); model.save_changes(); }
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "";
  if (nav && nav !== model.get("browser_lang")) { model.set("browser_lang", String(nav).slice(0, 35)); model.save_changes(); }
  model.on("change:chosen_lang", () => { const v = model.get("chosen_lang"); if (v) store("typhoon-edu-lang", v); });
  const muted = store("typhoon-edu-muted");
  if (muted !== null && (muted === "1") !== model.get("muted")) { model.set("muted", muted === "1"); model.save_changes(); }
  model.on("change:muted", () => store("typhoon-edu-muted", model.get("muted") ? "1" : "0"));
  const call = () => {
    if (model.get("muted")) return;
    beep();
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    document.body.dataset.typhoonAlerts = String(model.get("alert"));
  };
  model.on("change:alert", call);
  if (model.get("alert") > 0) call();  // the page opened while this device must decide

  // This device's turn: if its decision (the first button, or the map when there is none) is out of the window, the
  // banner is brought to the top, unless a finger scrolled the page a moment ago (a tap is no scroll: the map's tap
  // is what leaves the buttons above the window) or the team is reading its hand there (the hand across the window's
  // middle, the map scrolled away: a hand under the map just tapped is not being read).
  let touched = 0;
  const moved = () => { touched = Date.now(); };
  for (const kind of ["touchmove", "wheel"]) document.addEventListener(kind, moved, { capture: true, passive: true });
  const within = (e, whole) => {
    if (!e) return false;
    const r = e.getBoundingClientRect(), h = window.innerHeight || document.documentElement.clientHeight;
    if (!r.width && !r.height) return false;
    return whole ? r.top >= 0 && r.bottom <= h : r.bottom > 0 && r.top < h;
  };
  const bring = () => {
    const seat = el.closest(".typhoon-seat") || document.querySelector(".typhoon-seat");
    if (!seat) return;
    const banner = seat.querySelector(".typhoon-banner");
    const button = [...seat.querySelectorAll(".typhoon-decisions button.typhoon-act")].find((b) => b.offsetParent !== null);
    const canvas = seat.querySelector(".typhoon-board canvas");
    const mapInView = () => { if (!within(canvas, false)) return false;
      const r = canvas.getBoundingClientRect(), h = window.innerHeight; return Math.min(r.bottom, h) - Math.max(r.top, 0) >= r.height / 2; };
    let why = "";
    if (button ? within(button, true) : mapInView()) why = "in view";
    else if (Date.now() - touched < model.get("still_ms")) why = "moving";
    else if (!mapInView() && [...seat.querySelectorAll(".typhoon-hand")].some((h) => { const r = h.getBoundingClientRect();
      return h.textContent.trim() && r.top < window.innerHeight / 2 && r.bottom > window.innerHeight / 2; })) why = "hand";
    else if (banner) { banner.scrollIntoView({ block: "start", behavior: "smooth" }); why = "brought"; }
    document.body.dataset.typhoonTurnView = why;  // for tests
  };
  model.on("change:turn", () => setTimeout(bring, 150));  // once the decision just sent is drawn

  let last = Date.now(), lostSince = 0, armed = model.get("beat") > 0, trying = false;
  document.body.dataset.typhoonConnection = "ok";
  let said = 0;  // when this page last told its kernel it is there (Date.now())
  const here = () => { said = Date.now(); try { model.send({ here: model.get("beat") }); } catch (e) { /* closed */ } };
  model.on("change:beat", () => {
    last = Date.now(); armed = true;
    if (model.get("beat") % model.get("ack_every") === 0) here();
    lostSince = 0; show("ok");
  });
  here();
  const timer = setInterval(async () => {
    const quiet = (Date.now() - last) / 1000;
    if (!armed || quiet < Math.min(model.get("slow_after"), model.get("lost_after"))) return;
    if (Date.now() - said > 1000) here();  // a kernel gone quiet (this page was asleep) starts ticking again
    if (quiet < model.get("lost_after")) { show("slow"); return; }
    if (!lostSince) { lostSince = Date.now(); show("lost"); }
    const after = model.get("reload_after");
    if (after > 0 && (Date.now() - lostSince) / 1000 > after && !trying) {
      trying = true;  // reload only once the server answers, so the seat's link opens the seat again
      try {
        const base = document.baseURI.split("?")[0].replace(/[^/]*$/, "");
        const r = await fetch(base + "static/favicon.ico", { cache: "no-store" });
        if (r.status < 500) { location.reload(); return; }
      } catch (e) { /* the server is away too: keep saying so, try again */ }
      trying = false;
    }
  }, 250);
  return () => clearInterval(timer);
}

export default { render };
"""

CSS = """
.typhoon-connection { position: fixed; bottom: 0; left: 0; right: 0; z-index: 200; background: #b91c1c; color: #fff;
  font-weight: bold; font-size: 1.3rem; padding: .5rem 1rem; display: flex; gap: 1rem; align-items: center;
  justify-content: center; flex-wrap: wrap; box-shadow: 0 -2px 8px rgba(15, 23, 42, .35); }
.typhoon-connection.typhoon-connection-slow { background: #fef3c7; color: #78350f; font-size: 1rem; font-weight: 600;
  padding: .3rem 1rem; box-shadow: 0 -1px 4px rgba(15, 23, 42, .2); }
.typhoon-connection[hidden], .typhoon-connection .typhoon-reload[hidden] { display: none; }
.typhoon-connection .typhoon-reload { font-size: 1.1rem; padding: .3rem 1rem; border-radius: 6px; border: 0;
  background: #fff; color: #7f1d1d; font-weight: bold; cursor: pointer; }
"""


def served_by_voila(environ: Any = None) -> bool:
    """Whether this kernel serves a Voilà page (Voilà gives its kernels the request's CGI variables).

    >>> served_by_voila({"QUERY_STRING": "seat=abc"}), served_by_voila({"VOILA_PREHEAT": "True"}), served_by_voila({})
    (True, True, False)
    """
    import os

    env = os.environ if environ is None else environ
    return "QUERY_STRING" in env or "VOILA_PREHEAT" in env


class PageLink(PageMaySet, anywidget.AnyWidget):
    """The connection watch, the device's language and mute switch, and the attention signal."""

    #: the device's own choices and language; the beat, its interval and the texts are the kernel's (module page_writes)
    page_may_set = frozenset({"chosen_lang", "muted", "browser_lang"})

    _esm = ESM
    _css = CSS
    mode = traitlets.Unicode("seat").tag(sync=True)
    beat = traitlets.Int(0).tag(sync=True)
    interval = traitlets.Float(INTERVAL).tag(sync=True)
    slow_after = traitlets.Float(SLOW_AFTER).tag(sync=True)
    lost_after = traitlets.Float(LOST_AFTER).tag(sync=True)
    reload_after = traitlets.Float(0.0).tag(sync=True)
    lost_text = traitlets.Unicode("").tag(sync=True)
    slow_text = traitlets.Unicode("").tag(sync=True)
    reload_text = traitlets.Unicode("").tag(sync=True)
    chosen_lang = traitlets.Unicode("").tag(sync=True)
    browser_lang = traitlets.Unicode("").tag(sync=True)  # navigator.language, as the page says it
    muted = traitlets.Bool(False).tag(sync=True)
    alert = traitlets.Int(0).tag(sync=True)
    #: Each new decision of this device (also when muted): the page brings its banner into view if needed.
    turn = traitlets.Int(0).tag(sync=True)
    #: Milliseconds after a person scrolled the page in which a new turn does not move it (``turn``).
    still_ms = traitlets.Int(STILL_MS).tag(sync=True)
    ack_every = traitlets.Int(ACK_EVERY).tag(sync=True)

    def __init__(self, mode: str = "seat", lang: str = "zh-TW", **kwargs: Any) -> None:
        super().__init__(mode=mode, reload_after=RELOAD_AFTER if mode == "seat" else 0.0, **kwargs)
        self._task: asyncio.Task[None] | None = None
        self.clock = time.monotonic
        self.heard = self.clock()  # when the page last said it is there (module constant SILENT_AFTER)
        self.on_msg(lambda _w, _content, _buffers: self._hear())
        self.set_lang(lang)

    def _hear(self) -> None:
        self.heard = self.clock()

    @property
    def listened_to(self) -> bool:
        """Whether a page has said it is there within :data:`SILENT_AFTER` seconds (else the kernel stops ticking)."""
        return self.clock() - self.heard <= SILENT_AFTER

    def set_lang(self, lang: str) -> None:
        self.lost_text = i18n.t("classplay.connection.lost", lang)
        self.slow_text = i18n.t("classplay.connection.slow", lang)
        self.reload_text = i18n.t("classplay.connection.reload", lang)

    def ring(self) -> None:
        """Ask the device for attention (a sound and a vibration), unless muted."""
        if not self.muted:
            self.alert += 1

    def your_turn(self) -> None:
        """This device must decide now: the page shows its banner and buttons if they are out of the window."""
        self.turn += 1

    def tick(self) -> None:
        self.beat += 1

    def start(self, *, always: bool = False) -> None:
        """Tick from the kernel's event loop, on a page Voilà serves (``always``: anywhere, for tests).

        Not in JupyterLab (lesson 04): there a long cell holds the kernel for seconds, and the page
        would call that a lost connection. Without an event loop (a script) nothing ticks.
        """
        if not (always or served_by_voila()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                if self.listened_to:  # a page that went silent gets no ticks until it speaks again
                    self.tick()
            except Exception:  # noqa: BLE001 - a closed comm: the page is gone, stop ticking
                log.info("the page's heartbeat stopped", exc_info=True)
                return
            await asyncio.sleep(self.interval)


__all__ = ["ACK_EVERY", "INTERVAL", "LOST_AFTER", "RELOAD_AFTER", "SILENT_AFTER", "SLOW_AFTER", "STILL_MS", "PageLink"]
