"""Helpers for the real-browser tests: Chromium, viewports, screenshots, canvas pixels, Jupyter Server.

The fixtures in ``conftest.py`` wrap these; tests in this folder may also import them directly
(``from .harness import assert_canvas_not_blank``).

Voilà itself is started through :class:`typhoon_edu.server.serve.VoilaProcess`, i.e. with the very
command line ``typhoon-edu serve`` uses, so the tests check what a teacher runs.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from typhoon_edu.server.serve import CHROMIUM_ARGS, stop_process
from typhoon_edu.server.serve import CHROMIUM_PATH as _CHROMIUM

if TYPE_CHECKING:  # playwright is imported lazily so that collecting the tests never needs it
    from playwright.sync_api import Browser, Page, Playwright

REPO_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT_DIR = REPO_ROOT / "artifacts" / "screenshots"
LOG_DIR = REPO_ROOT / "artifacts" / "logs"

CHROMIUM_PATH = Path(_CHROMIUM)

#: Viewport presets: a classroom laptop, a 1080p projector and a phone (a student's own device).
VIEWPORTS: dict[str, dict[str, int]] = {
    "laptop": {"width": 1366, "height": 768},
    "projector": {"width": 1920, "height": 1080},
    "phone": {"width": 390, "height": 844},
}


def under_ci() -> bool:
    """True when running in CI (``CI`` set to a true-ish value), where a missing browser is an error."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def chromium_problem() -> str | None:
    """Return why the browser tests cannot run here, or ``None`` if they can."""
    if not CHROMIUM_PATH.is_file():
        return f"{CHROMIUM_PATH} is missing (install Debian's chromium: apt-get install -y chromium fonts-noto-cjk)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is missing (pip install -e '.[test]')"
    return None


def launch_chromium(playwright: Playwright, *, headless: bool = True) -> Browser:
    """Launch Debian's Chromium through Playwright with the flags this environment needs."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM_PATH), headless=headless, args=list(CHROMIUM_ARGS))


def slugify(name: str) -> str:
    """A file-name-safe version of ``name`` (test ids contain brackets and slashes).

    >>> slugify("test_smoke[laptop-zh-TW]")
    'test_smoke-laptop-zh-TW'
    """
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")


_INNER_OVERFLOW_JS = """
() => {
    // Voilà's page does not scroll: its #rendered_cells panel does. Find how much is hidden.
    let extra = 0;
    for (const el of document.querySelectorAll('body *')) {
        const style = getComputedStyle(el);
        if ((style.overflowY === 'auto' || style.overflowY === 'scroll') && el.clientHeight > 0) {
            extra = Math.max(extra, el.scrollHeight - el.clientHeight);
        }
    }
    return extra;
}
"""

#: Tallest screenshot taken by :func:`save_screenshot` (pixels), so a runaway page cannot eat memory.
MAX_SCREENSHOT_HEIGHT = 8000

# Every visible control whose box sticks out sideways past a box that clips it (an ancestor whose ``overflow-x``
# is not ``visible``: the teacher's drawer, a scrolling column; up to the first fixed box, which the boxes around it
# do not clip): its edge, or a menu's arrow, is cut off there. Up to 3 px is let pass: ipywidgets gives every control
# a 2 px margin, so a full-width button lies 2 px past its box, which no one sees (the edge is its flat background).
_CLIPPED_CONTROLS_JS = """within => [...document.querySelectorAll(
    ['button', 'select', 'input', 'a'].map(tag => `${within} ${tag}`).join(', '))]
  .filter(e => e.checkVisibility({visibilityProperty: true, opacityProperty: true}) && !e.closest('.typhoon-log'))
  .flatMap(e => { const r = e.getBoundingClientRect(); const out = [];
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX === 'visible') { if (st.position === 'fixed') break; continue; }
      const b = a.getBoundingClientRect(), left = b.left + a.clientLeft, right = left + a.clientWidth;
      if (r.right > right + 3 || r.left < left - 3)
        out.push(`${e.tagName.toLowerCase()} "${(e.innerText || e.value || '').trim().slice(0, 30)}" `
          + `[${Math.round(r.left)}, ${Math.round(r.right)}] in .${[...a.classList].join('.') || a.tagName} `
          + `[${Math.round(left)}, ${Math.round(right)}]`);
      if (st.position === 'fixed') break;  // the boxes around a fixed one do not clip it
    }
    return out.slice(0, 1); })"""


# How many lines an element's own text runs to (an icon beside the words, a few pixels higher, is no line of its own).
_LINES_JS = """e => {
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), rects = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange(); range.selectNodeContents(node);
      rects.push(...[...range.getClientRects()].filter(r => r.width > 0));
    }
    rects.sort((a, b) => a.top - b.top);
    let n = 0, last = -Infinity;
    for (const r of rects) if (r.top > last + r.height / 2) { n += 1; last = r.top; }
    return n;
  }"""


# Every visible button whose own text is cut short inside it (ipywidgets keeps a button's text on one line and
# ends it with "…"): the text is wider than the button's inside.
# Also every button whose words wrap about one character a line (a teacher's phone showed 暫停 as 暫 over 停).
_CUT_SHORT_JS = """within => {
  const lines = LINES;
  const shown = [...document.querySelectorAll(`${within} button`)]
    .filter(e => e.checkVisibility({visibilityProperty: true, opacityProperty: true}) && !e.closest('.typhoon-log'));
  return [
  ...shown.filter(e => e.scrollWidth > e.clientWidth + 1)
    .map(e => `button "${(e.innerText || '').trim().slice(0, 50)}": text ${e.scrollWidth} px in ${e.clientWidth} px`),
  ...shown.filter(e => { const n = lines(e), text = (e.innerText || '').replace(/\\s+/g, '').length;
      return n >= 2 && text / n < 2; })
    .map(e => `button "${(e.innerText || '').trim().slice(0, 50)}": ${lines(e)} lines, a character or so each`)];
}""".replace("LINES", _LINES_JS)


def cut_short_controls(page: Page, within: str = "body") -> list[str]:
    """The visible buttons inside ``within`` whose text does not fit in them (cut short with "…", or wrapped about
    one character a line), each described; empty when every label shows whole."""
    return list(page.evaluate(_CUT_SHORT_JS, within))


# Every visible table cell, paragraph or list item with a sentence in it (20 characters or more) squeezed into a
# column narrower than six of its letters (the glossary's words, kept on one line, pushed its meanings past a
# phone's edge, a few letters a line); every table cell whose words run one character a line (a phone squeezed
# 熱帶低壓 into a column one Chinese character wide); every table wider than the box it lies in, or cut off
# by a box that clips it, unless that box scrolls sideways, the keyboard reaches it (tabindex) and it shows
# whole itself; and every paragraph or list item cut off at a side.
_SQUEEZED_JS = """within => {
  const scroller = e => { const st = getComputedStyle(e);
    return (st.overflowX === 'auto' || st.overflowX === 'scroll') && e.tabIndex >= 0; };
  const lines = LINES;
  const inner = e => { const st = getComputedStyle(e);
    return e.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight); };
  const cutOff = t => { let r = t.getBoundingClientRect();
    for (let a = t.parentElement; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX === 'visible') continue;
      if (scroller(a)) { r = a.getBoundingClientRect(); continue; }  // what it hides, it scrolls to; it must show whole
      const b = a.getBoundingClientRect(), left = b.left + a.clientLeft, right = left + a.clientWidth;
      if (r.right > right + 3 || r.left < left - 3)  // 3 px: a widget's own margin (see _CLIPPED_CONTROLS_JS)
        return `cut off at [${Math.round(left)}, ${Math.round(right)}] by .${[...a.classList].join('.') || a.tagName}`;
    }
    const vw = document.documentElement.clientWidth;
    return r.right > vw + 3 || r.left < -3 ? `past the window's edges [0, ${vw}]` : null; };
  return [
  ...[...document.querySelectorAll(`${within} td, ${within} p, ${within} li`)]
    .filter(e => e.checkVisibility() && (e.innerText || '').trim().length >= 20)
    .filter(e => e.clientWidth < 6 * parseFloat(getComputedStyle(e).fontSize))
    .map(e => `${e.tagName.toLowerCase()} "${e.innerText.trim().slice(0, 40)}" is ${e.clientWidth} px wide`),
  ...[...document.querySelectorAll(`${within} td, ${within} th`)]
    .filter(e => e.checkVisibility() && (e.innerText || '').replace(/\\s+/g, '').length >= 3)
    .filter(e => inner(e) < 1.8 * parseFloat(getComputedStyle(e).fontSize) && lines(e) >= 3)
    .map(e => `${e.tagName.toLowerCase()} "${e.innerText.trim().slice(0, 40)}" runs ${lines(e)} lines in ${Math.round(inner(e))} px`),
  ...[...document.querySelectorAll(`${within} table`)]
    .filter(e => e.checkVisibility() && e.parentElement)
    .flatMap(e => { const w = Math.round(e.getBoundingClientRect().width), out = [];
      if (w > e.parentElement.clientWidth + 1 && !scroller(e.parentElement))
        out.push(`table "${e.innerText.trim().slice(0, 40)}" is ${w} px wide in ${e.parentElement.clientWidth} px`);
      const cut = cutOff(e);
      if (cut) out.push(`table "${e.innerText.trim().slice(0, 40)}" (${w} px) is ${cut}`);
      return out.slice(0, 1); }),
  ...[...document.querySelectorAll(`${within} p, ${within} li`)]
    .filter(e => e.checkVisibility() && !e.closest('table') && (e.innerText || '').trim().length > 0)
    .flatMap(e => { const cut = cutOff(e);
      return cut ? [`${e.tagName.toLowerCase()} "${e.innerText.trim().slice(0, 40)}" is ${cut}`] : []; })];
}""".replace("LINES", _LINES_JS)


def squeezed_text(page: Page, within: str = "body") -> list[str]:
    """The visible table cells, paragraphs and list items inside ``within`` whose text runs in a column too
    narrow to read (a sentence under six letters wide, a cell's words one character a line), and the tables wider
    than their box or cut off, unless they lie in a sideways scroll box the keyboard reaches, and the paragraphs
    cut off at a side; empty when none is."""
    return list(page.evaluate(_SQUEEZED_JS, within))


def clipped_controls(page: Page, within: str = "body") -> list[str]:
    """The visible controls (buttons, menus, inputs, links) inside ``within`` whose box sticks out sideways past
    a box that clips it, each described with both boxes' left and right edges; empty when every one is whole."""
    return list(page.evaluate(_CLIPPED_CONTROLS_JS, within))



# Every visible text the page shortens on purpose ("…" at its end: text-overflow or a line clamp) that is in fact
# shortened: its words are wider or taller than its box (the projector showed "Korea (computer,…").
_SHORTENED_JS = """within => [...document.querySelectorAll(`${within} *`)]
  .filter(e => { const st = getComputedStyle(e);
    return (st.textOverflow === 'ellipsis' || st.webkitLineClamp !== 'none') && e.checkVisibility()
      && !e.closest('.typhoon-log') && e.tagName !== 'BUTTON'
      && e.clientWidth > 0 && e.clientHeight > 0; })  // a label squeezed to nothing on purpose is for screen readers
  .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map(e => `"${(e.innerText || '').trim().slice(0, 40)}" is shortened with "…" (${e.scrollWidth}×${e.scrollHeight} px `
    + `in ${e.clientWidth}×${e.clientHeight})`)"""


def shortened_text(page: Page, within: str = "body") -> list[str]:
    """The visible texts inside ``within`` (buttons aside: :func:`cut_short_controls`) that the page shortens with
    "…" and that really are shortened; empty when every such text shows whole."""
    return list(page.evaluate(_SHORTENED_JS, within))


def unreadable(page: Page, within: str = "body") -> list[str]:
    """Everything inside ``within`` a person could not read or reach whole: controls cut off at a side
    (:func:`clipped_controls`), buttons whose text is cut short (:func:`cut_short_controls`) and squeezed text or
    too-wide tables (:func:`squeezed_text`) and texts shortened with "…" (:func:`shortened_text`); empty when there
    is none."""
    return (clipped_controls(page, within) + cut_short_controls(page, within) + squeezed_text(page, within)
            + shortened_text(page, within))


def save_screenshot(page: Page, name: str, *, full_page: bool = True, directory: Path | None = None) -> Path:
    """Save a PNG of ``page`` as ``artifacts/screenshots/<name>.png`` and return its path.

    With ``full_page`` the whole app is captured even though, in Voilà, the page itself never
    scrolls (an inner panel does): the viewport is made tall enough for a moment, then restored.
    """
    target_dir = directory or SCREENSHOT_DIR
    target_dir.mkdir(parents=True, exist_ok=True)
    path = target_dir / f"{slugify(name)}.png"
    size = page.viewport_size
    extra = int(page.evaluate(_INNER_OVERFLOW_JS)) if full_page and size else 0
    if extra > 0 and size:
        height = min(size["height"] + extra, MAX_SCREENSHOT_HEIGHT)
        page.set_viewport_size({"width": size["width"], "height": height})
        page.wait_for_timeout(300)  # let widgets re-lay out at the new height
        try:
            page.screenshot(path=str(path), full_page=True)
        finally:
            page.set_viewport_size(size)
    else:
        page.screenshot(path=str(path), full_page=full_page)
    return path


@dataclass(frozen=True)
class CanvasStats:
    """What the pixels of a canvas (or of the stacked layers of a MultiCanvas) look like.

    ``painted_fraction`` counts pixels that are neither transparent nor the most common colour
    (the background); ``colours`` counts distinct colours, quantised to 4 bits per channel.
    """

    width: int
    height: int
    layers: int
    opaque_fraction: float
    painted_fraction: float
    colours: int

    @property
    def blank(self) -> bool:
        """A canvas is blank if nothing is painted on it, or all of it is one colour."""
        return self.layers == 0 or self.opaque_fraction == 0.0 or self.colours < 2


_CANVAS_STATS_JS = """
(element) => {
    const layers = element.tagName === 'CANVAS' ? [element] : Array.from(element.querySelectorAll('canvas'));
    const sized = layers.filter((c) => c.width > 0 && c.height > 0);
    if (sized.length === 0) {
        return {width: 0, height: 0, layers: 0, opaque: 0, painted: 0, colours: 0};
    }
    const width = Math.max(...sized.map((c) => c.width));
    const height = Math.max(...sized.map((c) => c.height));
    // Composite the layers in DOM order (MultiCanvas stacks them so) onto one scratch canvas.
    const scratch = document.createElement('canvas');
    scratch.width = width;
    scratch.height = height;
    const ctx = scratch.getContext('2d');
    for (const layer of sized) { ctx.drawImage(layer, 0, 0); }
    const data = ctx.getImageData(0, 0, width, height).data;
    const counts = new Map();
    let opaque = 0;
    for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] === 0) { continue; }
        opaque += 1;
        const key = ((data[i] >> 4) << 12) | ((data[i + 1] >> 4) << 8) | ((data[i + 2] >> 4) << 4) | (data[i + 3] >> 4);
        counts.set(key, (counts.get(key) || 0) + 1);
    }
    let top = 0;
    for (const n of counts.values()) { if (n > top) { top = n; } }
    const total = width * height;
    return {width, height, layers: sized.length, opaque: opaque / total, painted: (opaque - top) / total, colours: counts.size};
}
"""


def canvas_stats(page: Page, selector: str = "canvas") -> CanvasStats:
    """Sample every pixel of the first element matching ``selector`` (a canvas, or a MultiCanvas container)."""
    raw: dict[str, Any] = page.locator(selector).first.evaluate(_CANVAS_STATS_JS)
    return CanvasStats(
        width=int(raw["width"]),
        height=int(raw["height"]),
        layers=int(raw["layers"]),
        opaque_fraction=float(raw["opaque"]),
        painted_fraction=float(raw["painted"]),
        colours=int(raw["colours"]),
    )


def canvas_pixel(page: Page, selector: str, x: int, y: int) -> tuple[int, int, int, int]:
    """RGBA of canvas pixel (``x``, ``y``) of the top-most layer that is not transparent there."""
    rgba: list[int] = page.locator(selector).first.evaluate(
        """(element, [x, y]) => {
            const layers = element.tagName === 'CANVAS' ? [element] : Array.from(element.querySelectorAll('canvas'));
            for (const layer of layers.reverse()) {
                const px = layer.getContext('2d').getImageData(x, y, 1, 1).data;
                if (px[3] !== 0) { return Array.from(px); }
            }
            return [0, 0, 0, 0];
        }""",
        [x, y],
    )
    return (rgba[0], rgba[1], rgba[2], rgba[3])


def assert_canvas_not_blank(
    page: Page, selector: str = "canvas", *, timeout: float = 15.0, min_painted: float = 0.01
) -> CanvasStats:
    """Wait until the canvas at ``selector`` shows a drawing, and return its stats.

    ipycanvas draws asynchronously after the widget appears (and in Voilà only once the client
    said it is ready), so this polls rather than sampling once. Fails with the last stats seen.
    """
    page.locator(selector).first.wait_for(state="visible", timeout=timeout * 1000)
    deadline = time.monotonic() + timeout
    while True:
        stats = canvas_stats(page, selector)
        if not stats.blank and stats.painted_fraction >= min_painted:
            return stats
        if time.monotonic() > deadline:
            raise AssertionError(f"canvas {selector!r} is still blank after {timeout:.0f} s: {stats}")
        page.wait_for_timeout(200)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class JupyterServerProcess:
    """Jupyter Server with the Voilà extension, serving ``root_dir``: the way Binder serves.

    ``voila_url("notebooks/dashboard.ipynb")`` is the page a ``urlpath=voila/render/…`` badge
    opens. ``python`` may point at another environment (e.g. a fresh venv built from binder/).
    """

    root_dir: Path
    port: int = 0
    python: str = sys.executable
    env: Mapping[str, str] | None = None
    log_path: Path | None = None
    token: str = ""
    extra_args: Sequence[str] = ()
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}/"

    def voila_url(self, notebook: str) -> str:
        """URL of ``notebook`` (relative to ``root_dir``) rendered by the Voilà server extension."""
        return f"{self.url}voila/render/{notebook.lstrip('/')}"

    def command(self) -> list[str]:
        """The ``jupyter server`` command line."""
        return [
            self.python,
            "-m",
            "jupyter",
            "server",
            f"--ServerApp.root_dir={self.root_dir}",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.ip=127.0.0.1",
            "--ServerApp.open_browser=False",
            "--ServerApp.allow_root=True",  # CI and these machines run as root
            f"--IdentityProvider.token={self.token}",
            *self.extra_args,
        ]

    def start(self) -> JupyterServerProcess:
        """Start the server without waiting; returns ``self``."""
        if not self.port:
            self.port = _free_port()
        env = dict(os.environ if self.env is None else self.env)
        log = open(self.log_path, "wb") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                self.command(),
                env=env,
                cwd=self.root_dir,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        finally:
            if self.log_path:
                log.close()  # type: ignore[union-attr]
        return self

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Block until ``/api/status`` answers."""
        assert self.process is not None, "start() first"
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyter server exited with {self.process.returncode} (log: {self.log_path})")
            try:
                with urllib.request.urlopen(self.url + "api/status", timeout=5):
                    return
            except urllib.error.HTTPError as err:
                if err.code < 500:
                    return
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"jupyter server not ready within {timeout:.0f} s (log: {self.log_path})")
            time.sleep(0.2)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server (SIGTERM, then SIGKILL)."""
        stop_process(self.process, timeout)


#: Content-Security-Policy violations reported by any page of the session's browser
#: (``chromium_browser`` in conftest.py); every browser test fails on one it did not expect.
POLICY_VIOLATIONS: list[str] = []


def leave_pages(context: Any) -> None:
    """Leave every page of ``context`` as a closed tab does, before the context is closed: the
    pages' ``beforeunload`` beacons make Voilà shut their kernels down at once (closing a context
    directly can drop the beacon, and the kernels then live until culled, still polling their rooms)."""
    for open_page in list(context.pages):
        try:
            open_page.goto("about:blank", timeout=5_000)
        except Exception:  # noqa: BLE001 - a page that cannot navigate is closed anyway
            pass


def watch_policy(context: Any) -> Any:
    """Record the Content-Security-Policy violations ``context``'s pages report in :data:`POLICY_VIOLATIONS`."""
    def seen(msg: Any) -> None:
        if "Content Security Policy" in msg.text:
            POLICY_VIOLATIONS.append(f"{msg.location.get('url', '')}: {msg.text}")

    context.on("console", seen)
    return context
