"""The lessons for a screen reader and the keyboard, as headless Chromium's accessibility tree sees them.

An accessibility review (keyboard only, both languages) found, and these tests check, in Voilà:

* every tab stop of lessons 01-07 (the class-play app that lesson 04 embeds has its own tests) has a role and a
  non-empty accessible name: the quiz's answer boxes had none (ipywidgets renders an empty hidden ``<label for>``, so
  the name was "" and the placeholder did not count), lesson 02's slider readouts were unnamed editable text with no
  role; no name holds Font Awesome's private-use icon character ("\\uf522 Roll the die");
* what a lesson answers is said in a live region (``role="status"``) that was in the page before: lesson 01's roll,
  a quiz's verdict (lesson 05's radio choices too), lesson 02's puzzle and its verdict;
* the keyboard's focus is seen: a 3 px ring on buttons, fields and slider handles (ipywidgets' own is 1 px light
  blue), and the maps keep their own inset ring;
* "Show the path" (lesson 02), which disables itself, does not drop the focus on the page's body.

Screenshots: ``artifacts/screenshots/a11y-<what>-<lang>.png``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.server.serve import VoilaProcess

from .harness import save_screenshot
from .keyboard_helpers import mark_focusables
from .langs import flow_langs, lesson_cases
from .test_a11y_keyboard import ALL_LESSONS as LESSONS
from .test_a11y_keyboard import open_lesson

pytestmark = pytest.mark.browser

#: Roles a tab stop may have; "generic" or none is an element a screen reader cannot say what it is.
NO_ROLE = {"", "generic", "none", "presentation", "GenericContainer"}
#: Font Awesome's icons are private-use characters: in a name, a screen reader says nothing useful (or "private use").
ICON_CHAR = re.compile("[\ue000-\uf8ff]")


def lock_predictions(page: Page) -> None:
    """Lock in every prediction on the page (the controls they guard are shown only then)."""
    predictions = page.locator(".prediction")
    for i in range(predictions.count()):
        box = predictions.nth(i)
        lock = box.locator(".prediction-lock")
        if not box.is_visible() or lock.is_disabled() and box.locator(".prediction-choice button").first.is_disabled():
            continue
        box.locator(".prediction-choice button").first.click()
        expect(lock).to_be_enabled()
        lock.click()
        expect(lock).to_be_disabled()
    page.wait_for_timeout(1500)


def tab_stops(page: Page) -> list[dict[str, Any]]:
    """Every visible tab stop of the page (outside the class-play app), with its role and accessible name as
    Chromium computes them (the DevTools protocol's accessibility tree)."""
    mark_focusables(page)
    page.evaluate("() => document.querySelectorAll('.typhoon-app [data-te-walk]').forEach(e => delete e.dataset.teWalk)")
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        ids = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "[data-te-walk]"})["nodeIds"]
        out = []
        for node_id in ids:
            nodes = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node_id, "fetchRelatives": False})["nodes"]
            node = nodes[0] if nodes else {}
            html = cdp.send("DOM.getOuterHTML", {"nodeId": node_id})["outerHTML"]
            out.append({"role": str(node.get("role", {}).get("value", "")),
                        "name": str(node.get("name", {}).get("value", "")),
                        "html": re.sub(r"\s+", " ", html)[:160]})
        return out
    finally:
        cdp.detach()


def unnamed(stops: list[dict[str, Any]]) -> list[str]:
    return [f"{s['role'] or '(no role)'}: {s['html']}" for s in stops if not s["name"].strip()]


def roleless(stops: list[dict[str, Any]]) -> list[str]:
    return [f"{s['name']!r}: {s['html']}" for s in stops if s["role"] in NO_ROLE]


def with_icons(stops: list[dict[str, Any]]) -> list[str]:
    return [repr(s["name"]) for s in stops if ICON_CHAR.search(s["name"])]


@pytest.mark.parametrize(("lesson", "lang"), lesson_cases(sorted(LESSONS)))
def test_every_tab_stop_has_a_role_and_a_name(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                               lesson: str, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, lesson, lang)
    lock_predictions(page)
    stops = tab_stops(page)
    assert len(stops) > 5, f"only {len(stops)} tab stops on lesson {lesson}"
    problems = {"no name": unnamed(stops), "no role": roleless(stops), "an icon in the name": with_icons(stops)}
    problems = {k: v for k, v in problems.items() if v}
    assert not problems, f"lesson {lesson} ({lang}), {len(stops)} tab stops: {problems}"
    if lesson == "07":  # the forecast map: a tab stop the review found unnamed, named with its keys
        maps = [s for s in stops if "forecast-map" in s["html"]]
        assert len(maps) == 1, maps
        assert maps[0]["role"] == "application" and i18n.t("lesson.forecast.map_keys", lang) in maps[0]["name"], maps
        print(f"\n[{lang}] the forecast map: {maps[0]['role']}, {maps[0]['name']!r}")
    if lesson in ("01", "02"):  # the review's answer boxes: named after their question
        boxes = page.locator(".quiz-answer input, .quiz-answer textarea, .quiz-text textarea")
        assert boxes.count() >= 2
        label = i18n.t("lesson.common.answer_label", lang, n=4, prompt="@").split("@")[0]
        names = [s["name"] for s in stops if s["role"] == "textbox"]
        assert any(n.startswith(label) for n in names), names
    page.context.close()


def live_region_of(page: Page, canvas_selector: str) -> Any:
    """The live region (``role="status"``) that speaks for the map ``canvas_selector``."""
    canvas = page.locator(canvas_selector).first
    expect(canvas).to_have_attribute("data-te-map", re.compile(r"."), timeout=15_000)
    return page.locator(f".te-map-live[data-te-for='{canvas.get_attribute('data-te-map')}']")


def press(page: Page, button: Any) -> None:
    """Press ``button`` with the keyboard (focus, Enter), as a keyboard user does."""
    button.focus()
    page.keyboard.press("Enter")


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_lesson_01_says_each_roll(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "01", lang)
    live = live_region_of(page, "canvas.lesson-ring")
    expect(live).to_have_attribute("role", "status")
    press(page, page.get_by_role("button", name=i18n.t("die.roll", lang)))
    log = page.locator("b", has_text="→").last
    expect(log).to_be_visible(timeout=15_000)
    stop = log.inner_text().split()[-1]  # "N →4→ NE": where the indicator went
    expect(live).to_contain_text(re.compile(rf"[1-6].*\b{re.escape(stop)}\b"), timeout=15_000)
    print(f"\n[{lang}] roll said: {live.inner_text()!r}")
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_a_quiz_says_its_verdict(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "01", lang)
    verdicts = re.compile("|".join(re.escape(i18n.t(f"lesson.common.{k}", lang)) for k in ("right", "wrong")))
    status = page.locator("[role=status]").filter(has_text=verdicts)
    expect(status).to_have_count(0)
    press(page, page.locator(".quiz-option").first)
    expect(page.locator(".quiz-feedback").first).to_contain_text(verdicts, timeout=15_000)
    # said in a live region that was in the page before the answer
    expect(status.first).to_be_attached(timeout=10_000)
    said = status.first.inner_text()
    # a typed answer that cannot be read is said too ("Type a number, …")
    box = page.locator(".widget-text input[type=text]").last
    box.fill("many")
    box.press("Enter")
    bad = i18n.t("lesson.common.bad_number", lang)
    expect(page.locator("[role=status]").filter(has_text=bad).first).to_be_attached(timeout=10_000)
    print(f"\n[{lang}] quiz said: {said!r}")
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_lesson_05s_quiz_says_each_choices_verdict(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                                   lang: str) -> None:
    """Lesson 05's quiz (radio choices) showed "✔ Right!" or "✘ Not quite." and why after a choice, and said nothing:
    chosen with the keyboard (Tab to the first question's choices, Space), its verdict is said in a live region
    that was in the page before the answer, in the page's language."""
    page = open_lesson(voila, chromium_browser, "05", lang)
    verdicts = re.compile("|".join(re.escape(i18n.t(f"risk.quiz.{k}", lang)) for k in ("right", "wrong")))
    status = page.locator(".risk-quiz [role=status]")
    expect(status).to_have_count(1)  # the live region, there before any answer
    expect(status).to_have_text("")
    name = page.locator(".risk-quiz .quiz-name input").first
    name.focus()
    radio = page.locator(".risk-quiz-choice input[type=radio]").first
    for _ in range(10):  # Tab from the name box to the first question's choices
        page.keyboard.press("Tab")
        if radio.evaluate("e => e === document.activeElement"):
            break
    assert radio.evaluate("e => e === document.activeElement"), "Tab did not reach the first question's choices"
    page.keyboard.press("Space")  # chooses the focused option
    feedback = page.locator(".risk-quiz .widget-html-content", has_text=verdicts).first
    expect(feedback).to_be_visible(timeout=15_000)
    expect(status).to_contain_text(verdicts, timeout=10_000)
    shown, said = feedback.inner_text(), status.inner_text()
    print(f"\n[{lang}] lesson 05's quiz showed {shown!r}\n[{lang}] and said {said!r}")
    # the words shown, in the page's language (a line break between the verdict and a note below it is no space in
    # Chinese after a full-width mark: tidy_spaces, as the feedback itself is written)
    assert (i18n.tidy_spaces(" ".join(said.split()), lang) == i18n.tidy_spaces(" ".join(shown.split()), lang)), (said, shown)
    feedback.scroll_into_view_if_needed()
    save_screenshot(page, f"a11y-risk-quiz-verdict-{lang}", full_page=False)
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("zh-TW"))
def test_lesson_02_says_its_puzzle_and_verdict(voila: Callable[..., VoilaProcess], chromium_browser: Browser,
                                               lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "02", lang)
    live = live_region_of(page, "canvas.lesson-map")
    prompt = i18n.t("lesson.pathing.puzzle_prompt", lang, start="@", direction="@", name="@", pips="@").split("@")[0]
    press(page, page.get_by_role("button", name=i18n.t("lesson.pathing.puzzle_button", lang)))
    expect(page.get_by_text(prompt).first).to_be_visible(timeout=15_000)
    page.wait_for_timeout(500)  # the live region is emptied, then filled 30 ms later
    said_prompt = live.inner_text()
    # the map is answered by the keyboard, and the verdict is said
    page.locator("canvas.lesson-map").first.focus()
    page.keyboard.press("Enter")  # shows the cursor
    page.keyboard.press("Enter")  # chooses the cell under it
    score = re.escape(i18n.t("lesson.pathing.puzzle_score", lang, right=0, total=1)[:6])
    expect(page.get_by_text(re.compile(score)).first).to_be_visible(timeout=15_000)
    page.wait_for_timeout(500)
    said_verdict = live.inner_text()
    print(f"\n[{lang}] after 'New puzzle': {said_prompt!r}\n[{lang}] after the answer: {said_verdict!r}")
    assert said_prompt.startswith(prompt), said_prompt
    assert re.search(rf"^[✔✘] .*{score}", said_verdict), said_verdict
    page.context.close()


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_show_the_path_keeps_the_focus(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "02", lang)
    live = live_region_of(page, "canvas.lesson-map")
    press(page, page.get_by_role("button", name=i18n.t("lesson.pathing.puzzle_button", lang)))
    reveal = page.get_by_role("button", name=i18n.t("lesson.pathing.reveal_button", lang))
    expect(reveal).to_be_enabled(timeout=15_000)
    press(page, reveal)  # "Show the path" disables itself
    expect(reveal).to_be_disabled(timeout=15_000)
    page.wait_for_timeout(800)
    where = page.evaluate("() => document.activeElement === document.body ? 'body' : "
                          "document.activeElement.tagName.toLowerCase() + '.' + document.activeElement.className")
    print(f"\n[{lang}] after 'Show the path': focus on {where}, said {live.inner_text()!r}")
    assert where != "body", "'Show the path' dropped the focus on the page's body"
    assert where.startswith("canvas") and "lesson-map" in where, where
    expect(live).to_contain_text(re.compile(r"\(\d+, \d+\)"), timeout=10_000)
    save_screenshot(page, f"a11y-show-the-path-{lang}", full_page=False)
    page.context.close()


_RING_JS = """
(el) => { const s = getComputedStyle(el);
  return {width: parseFloat(s.outlineWidth) || 0, style: s.outlineStyle, colour: s.outlineColor, offset: s.outlineOffset,
          visible: el.matches(':focus-visible')}; }
"""


def ring_of(page: Page, target: Any) -> dict[str, Any]:
    """The focus ring of ``target`` reached with the keyboard (Tab to it from the control before)."""
    target.scroll_into_view_if_needed()
    target.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    return dict(target.evaluate(_RING_JS))


@pytest.mark.parametrize("lang", flow_langs("en"))
def test_the_focus_ring_is_seen(voila: Callable[..., VoilaProcess], chromium_browser: Browser, lang: str) -> None:
    page = open_lesson(voila, chromium_browser, "02", lang)
    lock_predictions(page)
    targets = {
        "a blue button": page.locator(".jupyter-button.mod-info").first,
        "a menu": page.locator(".widget-dropdown select").first,
        "a slider's handle": page.locator(".noUi-handle[role=slider]").first,
        "a slider's readout": page.locator(".widget-readout[contenteditable=true]").first,
        "a quiz's answer box": page.locator(".widget-text input[type=text]").last,
        "a quiz's option": page.locator(".quiz-option").first,
    }
    rings = {what: ring_of(page, target) for what, target in targets.items()}
    thin = {what: ring for what, ring in rings.items() if not (ring["width"] >= 3 and ring["style"] == "solid")}
    assert not thin, f"a focus ring thinner than 3 px: {thin}"
    for what, name in (("a blue button", "button"), ("a quiz's answer box", "quiz-box")):
        ring_of(page, targets[what])
        targets[what].evaluate("e => e.scrollIntoView({block: 'center'})")
        save_screenshot(page, f"a11y-focus-ring-{name}-{lang}", full_page=False)
    # the map keeps its own ring, drawn inside the canvas (the box around it clips anything outside)
    canvas = page.locator("canvas.lesson-map").first
    map_ring = ring_of(page, canvas)
    assert map_ring["width"] == 4 and map_ring["offset"] == "-4px", map_ring
    page.context.close()
