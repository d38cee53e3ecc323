"""Every class-play screen at 1920×1080, 1366×768, 1024×768, 768×1024 and 390×844, in both languages, with screenshots.

Setup, lobby, game and teacher's drawer, results; the join page and a seat page on a phone. At
each size the page must not be wider than the window (nothing cut at the side), every control must be
seen where it lies (scrolled into view, the middle of its box hits it), and the projector's game
screen must fit the window at the three projector sizes (its parts measured).
axe-core runs on each screen too (no serious or critical violations; see test_a11y_axe.py).
Screenshots: ``artifacts/screenshots/screens-<screen>-<size>-<lang>.png``; axe reports:
``artifacts/axe/axe-classplay-<screen>-<lang>.json``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.ui.colour_vision import contrast_ratio

from .harness import save_screenshot, unreadable
from .teacher_page import teacher_url
from .test_a11y_axe import describe, run_axe, save_report
from .test_classroom_browser import check_fit, new_page, setup_room
from .touch_helpers import HIT_JS, small_targets

pytestmark = pytest.mark.browser

#: The projector's two sizes and an older projector's (XGA, still common in classrooms), a tablet held upright (a
#: seat's or the one computer's), a phone.
SIZES = ({"width": 1920, "height": 1080}, {"width": 1366, "height": 768}, {"width": 1024, "height": 768},
         {"width": 768, "height": 1024}, {"width": 390, "height": 844})


#: Every control a person can reach, scrolled into the middle of the window one by one: the middle of its box must
#: hit the control itself (``elementFromPoint``), so a control squeezed to nothing by a shrinking parent, or
#: covered by another part, is found; ``within`` narrows the search to a part laid over the rest on purpose.
HIDDEN_CONTROLS_JS = """within => { const hits = """ + HIT_JS + """;
  return [...document.querySelectorAll(`${within} button, ${within} select, ${within} input, ${within} a`)]
    .filter(e => e.checkVisibility({visibilityProperty: true, opacityProperty: true}) && !e.closest('.typhoon-log'))
    .filter(e => { e.scrollIntoView({block: 'center', inline: 'center'}); return !hits(e); })
    .map(e => `${e.tagName.toLowerCase()} "${(e.innerText || e.value || e.getAttribute('aria-label') || '').trim()
      .slice(0, 40)}" in .${(e.closest('[class*=typhoon-]') || e).className.split(' ')
      .find(c => c.startsWith('typhoon-')) || '?'}`); }"""


def shots(page: Page, screen: str, lang: str, *, fit: bool = False, within: str = ".typhoon-app") -> None:
    for size in SIZES:
        page.set_viewport_size(size)
        page.wait_for_timeout(400)
        save_screenshot(page, f"screens-{screen}-{size['width']}x{size['height']}-{lang}", full_page=False)
        # every control a person must reach lies inside the window (a fixed page hides what sticks out)
        right = page.evaluate("""() => Math.max(0, ...[...document.querySelectorAll(
            '.typhoon-app button, .typhoon-app select, .typhoon-app input, .typhoon-app a')]
            .filter(e => e.offsetParent !== null && !e.closest('.typhoon-log'))
            .map(e => e.getBoundingClientRect().right))""")
        assert right <= size["width"] + 1, f"{screen}: a control reaches {right:.0f} px in a {size['width']} px window"
        if fit and size["width"] >= 1024:
            check_fit(page)
        problems = unreadable(page, ".typhoon-app")
        assert not problems, f"{screen} at {size['width']}x{size['height']}: cut off or squeezed: {problems}"
        if size["width"] <= 600:  # a phone: every control fingertip-sized
            small = small_targets(page, ".typhoon-app", skip="")
            assert not small, f"{screen} at {size['width']}x{size['height']}: smaller than a fingertip: {small}"
        hidden = page.evaluate(HIDDEN_CONTROLS_JS, within)
        assert not hidden, f"{screen} at {size['width']}x{size['height']}: controls no one can see or tap: {hidden}"
    page.set_viewport_size(SIZES[0])
    page.wait_for_timeout(200)


#: Each toggle group's chosen button's background and the background of the others beside it, as #rrggbb.
_TOGGLE_COLOURS_JS = """() => [...document.querySelectorAll('.typhoon-app .widget-toggle-buttons')]
  .filter(g => g.checkVisibility() && g.querySelector('button.mod-active'))
  .map(g => { const hex = e => '#' + getComputedStyle(e).backgroundColor.match(/\\d+/g).slice(0, 3)
      .map(v => (+v).toString(16).padStart(2, '0')).join('');
    return [g.innerText.trim().replace(/\\s+/g, ' ').slice(0, 40), hex(g.querySelector('button.mod-active')),
            [...g.querySelectorAll('button:not(.mod-active)')].map(hex)]; })"""


def check_chosen_stands_out(page: Page) -> None:
    """In every toggle group the chosen button differs from the others in lightness (a 3:1 contrast, WCAG's
    figure for a control's state), so the choice shows without telling greys or colours apart."""
    groups = page.evaluate(_TOGGLE_COLOURS_JS)
    assert len(groups) >= 5, groups  # players, regions, where the hands are, rules, dice, speed, language
    for text, chosen, others in groups:
        for other in others:
            ratio = contrast_ratio(chosen, other)
            assert ratio >= 3, f"toggles {text!r}: the chosen one ({chosen}) against {other}: {ratio:.2f}:1"


@pytest.mark.parametrize("server", ["en", "zh-TW"], indirect=True)
def test_every_screen_at_every_size(server, chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    projector = new_page(chromium_browser, SIZES[0])
    projector.goto(teacher_url(proc))
    expect(projector.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    projector.locator(".typhoon-start-player select").click()  # the start-player menu is not cut
    projector.keyboard.press("Escape")
    box = projector.locator(".typhoon-start-player select").bounding_box()
    full = projector.locator(".typhoon-start-player select").evaluate("s => s.scrollWidth <= s.clientWidth + 1")
    assert box is not None and full, "the start player's menu cuts its text"
    problems = {"setup": run_axe(projector)}
    shots(projector, "setup", lang)
    check_chosen_stands_out(projector)
    setup_room(projector, lang, ("Mei", "Ken"), devices=True)
    expect(projector.locator("a.typhoon-join-link")).to_have_count(2, timeout=60_000)
    projector.wait_for_timeout(500)
    problems["lobby"] = run_axe(projector)
    shots(projector, "lobby", lang)
    href = projector.locator("a.typhoon-join-link").first.get_attribute("href")

    phone = new_page(chromium_browser, SIZES[-1])
    phone.goto(href.split("?")[0] + "?join")
    expect(phone.locator(".typhoon-join-code")).to_be_visible(timeout=120_000)
    phone.wait_for_timeout(500)
    problems["join"] = run_axe(phone)
    code = projector.locator(".typhoon-room-chip").first.inner_text().strip()
    phone.locator(".typhoon-join-code input").fill(code)
    phone.locator(".typhoon-join-code input").press("Enter")
    expect(phone.locator(".typhoon-join-seat").first).to_be_visible(timeout=30_000)
    shots(phone, "join", lang)
    phone.locator(".typhoon-join-seat").first.click()
    expect(phone.locator(".typhoon-seat-game")).to_be_visible(timeout=30_000)
    expect(phone.locator(".typhoon-own-link")).to_be_visible()
    phone.wait_for_timeout(500)
    problems["seat"] = run_axe(phone)
    shots(phone, "seat", lang)

    projector.locator(".typhoon-lobby-go").click()
    expect(projector.locator(".typhoon-projector-game")).to_be_visible(timeout=30_000)
    projector.wait_for_timeout(1500)
    problems["projector"] = run_axe(projector)
    shots(projector, "game", lang, fit=True)
    projector.locator(".typhoon-teacher-button").click()
    expect(projector.locator(".typhoon-teacher")).to_be_visible()
    problems["teacher"] = run_axe(projector)
    shots(projector, "teacher", lang, within=".typhoon-teacher")  # the drawer lies over the side column
    projector.locator(".typhoon-teacher-end").click()
    projector.locator(".typhoon-teacher-end-yes").click()  # the end is asked for, then confirmed
    expect(projector.locator(".typhoon-results-screen")).to_be_visible(timeout=30_000)
    expect(projector.locator(".typhoon-results")).to_contain_text(i18n.t("classplay.results.ended", lang))
    problems["results"] = run_axe(projector)
    shots(projector, "results", lang)
    for where, found in problems.items():
        save_report(f"axe-classplay-{where}-{lang}", found)
    bad = {where: found for where, found in problems.items() if found}
    assert not bad, "\n".join(f"{where} ({lang}):\n{describe(found)}" for where, found in bad.items())
