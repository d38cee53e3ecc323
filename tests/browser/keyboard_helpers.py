"""Walking a page with the keyboard: what has the focus, the last control, Tab until there."""

from __future__ import annotations

from playwright.sync_api import Page

#: What a keyboard user can reach with Tab (the same list the map's Esc uses to find the next control).
FOCUSABLE = ('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), '
             'textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]')

_DESCRIBE_JS = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) { return 'body'; }
  const cls = (el.getAttribute('class') || '').split(/\\s+/).filter(Boolean).slice(0, 4).join('.');
  return el.tagName.toLowerCase() + (cls ? '.' + cls : '') + '#' + (el.dataset.teWalk || '');
}
"""

_MARK_JS = """
(selector) => {
  // number every visible focusable element in page order, and say which one is last
  const visible = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const all = Array.from(document.querySelectorAll(selector)).filter(visible);
  all.forEach((el, i) => { el.dataset.teWalk = String(i); });
  return all.length;
}
"""


def mark_focusables(page: Page) -> int:
    """Number the page's visible focusable elements (``data-te-walk``); returns how many there are."""
    return int(page.evaluate(_MARK_JS, FOCUSABLE))


def focused(page: Page) -> str:
    """A short name of the focused element (tag, classes, walk number)."""
    return str(page.evaluate(_DESCRIBE_JS))


def focused_index(page: Page) -> int | None:
    """The walk number of the focused element, or ``None``."""
    value = page.evaluate("() => document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.teWalk : null")
    return int(value) if value not in (None, "") else None


def tab_until(page: Page, index: int, limit: int, shift: bool = False) -> list[str]:
    """Press Tab (or Shift+Tab) until the element numbered ``index`` has the focus; returns the path.

    Raises ``AssertionError`` if it is not reached within ``limit`` presses, naming where the focus
    stayed (a keyboard trap shows as the same element over and over).
    """
    path: list[str] = []
    key = "Shift+Tab" if shift else "Tab"
    for _ in range(limit):
        page.keyboard.press(key)
        path.append(focused(page))
        if focused_index(page) == index:
            return path
    tail = ", ".join(path[-6:])
    raise AssertionError(f"{key} did not reach control #{index} in {limit} presses; the last ones: {tail}")
