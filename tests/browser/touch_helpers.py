"""Touch devices for the browser tests: contexts with ``has_touch`` and taps with no mouse event.

A page opened by :func:`touch_page` counts every mouse event it receives (``window.__teMouse``),
on a canvas, so a test can prove that what worked was the touch, not a synthesised click.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.geometry import BoardGeometry
from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR

from .harness import LOG_DIR, REPO_ROOT

COUNT_MOUSE_JS = """
window.__teMouse = 0;
for (const kind of ['mousedown', 'mouseup', 'click']) {
  // on a canvas only: a tapped button gets its synthesised click, as it should
  window.addEventListener(kind, (e) => { if (e.target instanceof HTMLCanvasElement) { window.__teMouse += 1; } }, true);
}
"""

RULES = load_rules()


def touch_page(browser: Browser, size: dict[str, int], locale: str = "en-US") -> Page:
    """A page in a fresh touch context (a phone or a touch whiteboard)."""
    context = browser.new_context(viewport=size, device_scale_factor=1, has_touch=True, is_mobile=size["width"] < 600,
                                  locale=locale)
    context.add_init_script(COUNT_MOUSE_JS)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page


def mouse_events(page: Page) -> int:
    """How many mouse events the page has seen since it loaded."""
    return int(page.evaluate("window.__teMouse || 0"))


def still_box(page: Page, element: Any, tries: int = 25) -> dict[str, float]:
    """The element's box once it has stopped moving (the same in two looks 0.2 s apart), as a person looks before
    tapping: the page may still be laying out what came with the state the test waited for."""
    box = element.bounding_box()
    for _ in range(tries):
        page.wait_for_timeout(200)
        again = element.bounding_box()
        if again == box and box is not None:
            return box
        box = again
    raise AssertionError(f"the element kept moving for {tries * 0.2:.0f} s (last box {box})")


#: Whether the middle of element ``e``'s box, as it lies in the window now, hits ``e`` itself (or a part of it, or the
#: label wrapped around a checkbox): a JavaScript function, shared by :func:`seen_box` and the screens test.
HIT_JS = """e => { const r = e.getBoundingClientRect();
  const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return at !== null && (at === e || e.contains(at) || (at.tagName === 'LABEL' && at.contains(e))); }"""


def seen_box(page: Page, element: Any) -> dict[str, float]:
    """The box of ``element`` once scrolled into the window and still, checked to be what a person sees there.

    A bounding box inside the window is not enough: a parent that shrank to nothing, or something laid over
    the element, hides it while its box stays where it was. So the middle of the box must hit the element
    itself (``document.elementFromPoint``), as a finger or an eye would.
    """
    element.scroll_into_view_if_needed()
    box = still_box(page, element)
    size = page.viewport_size or {"width": 0, "height": 0}
    inside = box["x"] >= -1 and box["y"] >= -1 and box["x"] + box["width"] <= size["width"] + 1 \
        and box["y"] + box["height"] <= size["height"] + 1
    assert inside, f"{element} reaches out of the {size['width']}x{size['height']} window: {box}"
    assert element.evaluate(HIT_JS), f"{element} is covered or cut at {size['width']}x{size['height']}: {box}"
    return box


#: WCAG 2.5.5 (target size): a control a finger taps is at least 44x44 CSS px.
FINGER_PX = 44

# Every visible control inside ``within`` a finger taps (buttons, menus, text fields, [role=button], sliders' handles,
# a <details>' summary, a link set apart like a button (a link inside a sentence is exempt); a checkbox or radio
# button counts as the label around it, which a tap on its words ticks too) whose box is narrower or lower than
# ``min`` px, described with its size. The class-play app that lesson 04 embeds (.typhoon-app) has its own checks
# (test_touch_classplay.py, test_classroom_screens.py).
_SMALL_TARGETS_JS = """([within, min, skip]) => {
  const seen = new Set(), out = [];
  const taps = 'button, select, input, textarea, [role=button], [role=slider], summary, a[href]';
  for (const root of document.querySelectorAll(within))
    for (let e of root.querySelectorAll(taps)) {
      if ((skip && e.closest(skip)) || e.type === 'hidden') continue;
      if (e.tagName === 'A' && getComputedStyle(e).display === 'inline') continue;  // WCAG's "inline" exception
      if (e.matches('input[type=checkbox], input[type=radio]') && e.closest('label')) e = e.closest('label');
      if (seen.has(e) || !e.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
      seen.add(e);
      const r = e.getBoundingClientRect();
      if (r.width < min - 0.5 || r.height < min - 0.5) {
        const name = (e.getAttribute('aria-label') || e.innerText || e.value || e.title || '').trim().replace(/\\s+/g, ' ');
        const where = e.closest('[class*="lesson"], [class*="quiz"], [class*="forecast"], [class*="real"], [class*="risk"]');
        out.push(`${e.tagName.toLowerCase()}${e.type ? '[' + e.type + ']' : ''} "${name.slice(0, 30)}" `
          + `${Math.round(r.width)}x${Math.round(r.height)} px` + (where ? ` in .${[...where.classList].slice(-1)[0]}` : ''));
      }
    }
  return out;
}"""


def small_targets(page: Page, within: str = ".jp-OutputArea-output", minimum: int = FINGER_PX,
                  skip: str = ".typhoon-app") -> list[str]:
    """The visible controls inside ``within`` smaller than ``minimum`` x ``minimum`` CSS px (too small for a
    fingertip, WCAG 2.5.5), each described with its size; empty when every one is big enough. Controls inside
    ``skip`` are left out (by default the class-play app a lesson embeds, which test_classroom_screens checks)."""
    return list(page.evaluate(_SMALL_TARGETS_JS, [within, minimum, skip]))


# Every visible map, chart or picture (canvas, svg, img) and every entry of a map's key (.map-key, or any child of
# lesson 06's or 07's key) inside ``within``
# that sticks out sideways past a box that clips it (lesson 06's key ran 120 px past a phone's edge), unless that
# box scrolls sideways and the keyboard reaches it (common.scroll_box), as harness.squeezed_text allows a table.
_CUT_PICTURES_JS = """within => [...document.querySelectorAll(
    ['canvas', 'svg', 'img', '.map-key', '.realmap-legend > *', '.forecast-legend > *'].map(tag => `${within} ${tag}`).join(', '))]
  .filter(e => e.checkVisibility() && !e.closest('.typhoon-app') && !(e.parentElement && e.parentElement.closest('svg')))
  .flatMap(e => { const r = e.getBoundingClientRect();
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX === 'visible') continue;
      if ((st.overflowX === 'auto' || st.overflowX === 'scroll') && a.tabIndex >= 0) return [];
      const b = a.getBoundingClientRect(), left = b.left + a.clientLeft, right = left + a.clientWidth;
      if (r.right > right + 3 || r.left < left - 3)
        return [`${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 2).join('.')} "${(e.textContent || '').trim().slice(0, 30)}" `
          + `[${Math.round(r.left)}, ${Math.round(r.right)}] cut off by .${[...a.classList].slice(-1)[0] || a.tagName} `
          + `[${Math.round(left)}, ${Math.round(right)}]`];
    }
    return []; })"""


def cut_pictures(page: Page, within: str = ".jp-OutputArea-output") -> list[str]:
    """The visible maps, charts, pictures and map-key entries inside ``within`` cut off at a side by a box that does
    not scroll to them with the keyboard, each described with both boxes' edges; empty when all show whole."""
    return list(page.evaluate(_CUT_PICTURES_JS, within))


def touch_tap(page: Page, element: Any) -> None:
    """Tap the middle of ``element`` with a finger, once a person could see it (:func:`seen_box`)."""
    box = seen_box(page, element)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def cell_point(page: Page, selector: str, cell: tuple[int, int], cell_px: int) -> tuple[float, float]:
    """The page coordinates of the centre of ``cell`` on the board canvas ``selector`` (scaled by CSS)."""
    canvas = page.locator(selector).first
    canvas.scroll_into_view_if_needed()
    box = still_box(page, canvas)
    width = canvas.evaluate("c => c.width")
    cx, cy = BoardGeometry.for_rules(RULES, cell_px).cell_centre(*cell)
    scale = box["width"] / width
    return box["x"] + cx * scale, box["y"] + cy * scale


def touch_cell(page: Page, selector: str, cell: tuple[int, int], cell_px: int) -> None:
    """Tap ``cell`` with a finger: touchstart/touchend only (ipycanvas cancels them, so no mouse event)."""
    x, y = cell_point(page, selector, cell, cell_px)
    page.touchscreen.tap(x, y)


@contextmanager
def classroom_server(tmp_path: Path, lang: str) -> Iterator[tuple[VoilaProcess, RoomStore]]:
    """The class-play app on a fresh SQLite room store, as tests/browser/test_classroom_browser.py starts it."""
    db = sqlite_url(tmp_path / "rooms.sqlite3")
    saves = tmp_path / "saves"
    saves.mkdir()
    proc = VoilaProcess(notebook=REPO_ROOT / "notebooks" / "dashboard.ipynb", lang=lang, preheat=True, pool_size=2,
                        show_tracebacks=True, db=db,
                        # as `typhoon-edu serve` runs it: the class server, where teams join on their own devices
                        env={**os.environ, "TYPHOON_EDU_SAVES": str(saves), CLASS_SERVER_ENV_VAR: "1"},
                        log_path=LOG_DIR / f"voila-classroom-{lang}-{tmp_path.name}.log")
    proc.start()
    try:
        proc.wait_ready(timeout=120)
        yield proc, RoomStore(db)
    finally:
        proc.stop()

