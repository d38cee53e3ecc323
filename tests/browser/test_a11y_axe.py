"""axe-core over every lesson (Voilà, both languages) and the class-play pages: no serious or critical
violations.

axe-core is vendored from its npm package (``tests/browser/vendor/``, see its README) and injected
into the page once the lesson has run (every widget drawn). Violations whose impact is "serious" or
"critical" fail the test, with the rule, the help text and the first elements that break it.

Exclusions are listed in :data:`EXCLUDED`, each narrow (one rule, one CSS selector), with its owner
and why; nothing else is left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess

from .harness import REPO_ROOT, save_screenshot
from .teacher_page import teacher_url
from .test_classroom_browser import PHONE, PROJECTOR, setup_room, wait_state
from .touch_helpers import classroom_server

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


@pytest.fixture
def room_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[VoilaProcess, RoomStore]]:
    with classroom_server(tmp_path, getattr(request, "param", "en")) as started:
        yield started


def run_axe(page: Page) -> list[dict[str, Any]]:
    """Inject axe-core and return the serious and critical violations (exclusions removed)."""
    page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})")
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


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("notebook", LESSONS)
def test_lesson_has_no_serious_violations(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                          notebook: str, lang: str) -> None:
    server = voila(REPO_ROOT / "notebooks" / lang / notebook, lang=lang, timeout=120)
    page = chromium_browser.new_context(viewport=LAPTOP, device_scale_factor=1).new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url, timeout=180_000)
    expect(page.locator(".quiz-option, .quiz-feedback, .jupyter-widgets").first).to_be_attached(timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=180_000)
    page.wait_for_timeout(2000)  # the last widgets render and the maps are named
    violations = run_axe(page)
    name = f"axe-{notebook.split('_')[0]}-{lang}"
    save_report(name, violations)
    if violations:
        save_screenshot(page, name)
    page.context.close()
    assert not violations, f"{notebook} ({lang}):\n{describe(violations)}"


@pytest.mark.parametrize("room_server", ["en", "zh-TW"], indirect=True)
def test_class_play_pages_have_no_serious_violations(room_server: tuple[VoilaProcess, RoomStore],
                                                     chromium_browser: Browser) -> None:
    proc, _store = room_server
    lang = proc.lang
    problems: dict[str, list[dict[str, Any]]] = {}
    projector = chromium_browser.new_context(viewport=PROJECTOR).new_page()
    projector.set_default_timeout(60_000)
    projector.goto(teacher_url(proc), timeout=180_000)
    expect(projector.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    projector.wait_for_timeout(1000)
    problems["setup"] = run_axe(projector)
    setup_room(projector, lang, ("Mei", "Ken"), devices=True)
    links = projector.locator("a.typhoon-join-link")
    expect(links).to_have_count(2, timeout=30_000)
    projector.wait_for_timeout(1000)
    problems["lobby"] = run_axe(projector)
    hrefs = [links.nth(i).get_attribute("href") for i in range(2)]

    join = chromium_browser.new_context(viewport=PHONE).new_page()
    join.set_default_timeout(60_000)
    join.goto(proc.url.rstrip("/") + "/?join", timeout=180_000)
    expect(join.locator("input").first).to_be_visible(timeout=120_000)
    join.wait_for_timeout(1000)
    problems["join"] = run_axe(join)

    phones = []
    for href in hrefs:
        phone = chromium_browser.new_context(viewport=PHONE).new_page()
        phone.set_default_timeout(60_000)
        phone.goto(str(href), timeout=180_000)
        expect(phone.locator(".typhoon-seat-game")).to_be_visible(timeout=120_000)
        phones.append(phone)
    wait_state(phones[0], lambda s: s.get("busy") == "0", what="the seat page to settle")
    phones[0].wait_for_timeout(1000)
    problems["seat"] = run_axe(phones[0])
    expect(projector.locator(".typhoon-projector-game")).to_be_visible(timeout=30_000)
    projector.wait_for_timeout(1000)
    problems["projector"] = run_axe(projector)
    for where, found in problems.items():
        save_report(f"axe-classplay-{where}-{lang}", found)
    for page in (projector, join, *phones):
        page.context.close()
    bad = {where: found for where, found in problems.items() if found}
    assert not bad, "\n".join(f"{where} ({lang}):\n{describe(found)}" for where, found in bad.items())
