"""axe-core over every lesson (Voilà, both languages): no serious or critical violations. Lessons 01-06
are checked in one language here and in the other by the Tab walk of test_a11y_keyboard.py, on the page
it opens anyway (see :data:`CASES`). The class-play
pages are checked with the same :func:`run_axe` on each screen of test_classroom_screens.py (setup,
lobby, join page, seat page, game, teacher's drawer, results, both languages), which opens them anyway.

axe-core is vendored from its npm package (``tests/browser/vendor/``, see its README) and injected
into the page once the lesson has run (every widget drawn). Violations whose impact is "serious" or
"critical" fail the test, with the rule, the help text and the first elements that break it.

Exclusions are listed in :data:`EXCLUDED`, each narrow (one rule, one CSS selector), with its owner
and why; nothing else is left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu.server.serve import VoilaProcess

from .harness import REPO_ROOT, save_screenshot
from .langs import LANGS, every_language, lesson_cases

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
LESSONS = sorted(p.name for p in (REPO_ROOT / "notebooks" / "en").glob("0*.ipynb"))
LAPTOP = {"width": 1366, "height": 768}
FAILING_IMPACTS = ("serious", "critical")

#: (rule id, CSS selector the reported element or one of its ancestors matches) -> (owner, why).
#: Keep each one narrow: one rule, one part of one page, in a file this test's author does not own.
EXCLUDED: dict[tuple[str, str], tuple[str, str]] = {}

_MATCHES_JS = """
([target, css]) => {
  const el = document.querySelector(target);
  return !!(el && el.closest(css));
}
"""


#: The tallest window axe is run in (CSS pixels): see :func:`run_axe`.
TALLEST = 16_000


def run_axe(page: Page) -> list[dict[str, Any]]:
    """Inject axe-core and return the serious and critical violations (exclusions removed).

    axe finds a text's background by asking what is painted under it, which it cannot learn for text
    outside the window: such text is left "incomplete", not checked. So the window is stretched to the
    page's whole height (up to :data:`TALLEST`) while axe runs, and put back afterwards.
    """
    page.add_script_tag(path=str(AXE))
    size = page.viewport_size
    height = int(page.evaluate("document.documentElement.scrollHeight"))
    if size is not None and height > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": min(height, TALLEST)})
        page.wait_for_timeout(300)
    try:
        result: dict[str, Any] = page.evaluate(
            "async () => await axe.run(document, {resultTypes: ['violations']})")
    finally:
        if size is not None:
            page.set_viewport_size(size)
    found = []
    for violation in result["violations"]:
        if violation.get("impact") not in FAILING_IMPACTS:
            continue
        nodes = [n for n in violation["nodes"] if not _excluded(page, violation["id"], n)]
        if nodes:
            found.append({**violation, "nodes": nodes})
    return found


def _excluded(page: Page, rule: str, node: dict[str, Any]) -> bool:
    targets = _selectors(node)
    if not targets:
        return False
    return any(page.evaluate(_MATCHES_JS, [targets[0], css]) for (r, css) in EXCLUDED if r == rule)


def _selectors(node: dict[str, Any]) -> list[str]:
    return [str(t) for t in node.get("target", [])]


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} element(s)")
        for node in v["nodes"][:4]:
            lines.append(f"    {_selectors(node)}: {node.get('failureSummary', '').splitlines()[-1:]}"
                         f" {node.get('html', '')[:160]}")
    return "\n".join(lines)


def save_report(name: str, violations: list[dict[str, Any]]) -> None:
    out = REPO_ROOT / "artifacts" / "axe"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(violations, indent=1, ensure_ascii=False), encoding="utf-8")


def assert_no_violations(page: Page, notebook: str, lang: str) -> None:
    """Run axe on a lesson's page, keep its report (``artifacts/axe/``) and fail on serious violations."""
    violations = run_axe(page)
    name = f"axe-{notebook.split('_')[0]}-{lang}"
    save_report(name, violations)
    if violations:
        save_screenshot(page, name)
    assert not violations, f"{notebook} ({lang}):\n{describe(violations)}"


#: Lessons 01-06 are also checked by the keyboard test's Tab walk (test_a11y_keyboard.py), on the page it
#: has open, in the language it takes for each lesson; here they take the other language, so every lesson is
#: checked in both without opening it twice in one language. Lesson 07 has no Tab walk there: both here.
WALKED = [n for n in LESSONS if not n.startswith("07")]
CASES = lesson_cases(WALKED, first="zh-TW") + [(n, lang) for n in LESSONS if n.startswith("07") for lang in LANGS]
if every_language():
    CASES = [(n, lang) for lang in LANGS for n in LESSONS]


@pytest.mark.parametrize(("notebook", "lang"), CASES)
def test_lesson_has_no_serious_violations(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                          notebook: str, lang: str) -> None:
    server = voila(REPO_ROOT / "notebooks" / lang / notebook, lang=lang, timeout=120)
    page = chromium_browser.new_context(viewport=LAPTOP, device_scale_factor=1).new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url, timeout=180_000)
    expect(page.locator(".quiz-option, .quiz-feedback, .jupyter-widgets").first).to_be_attached(timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=180_000)
    page.wait_for_timeout(2000)  # the last widgets render and the maps are named
    assert_no_violations(page, notebook, lang)
    page.context.close()
