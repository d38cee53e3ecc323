"""The teacher's drawer by keyboard: *End the game now* asks first, a freed seat keeps the focus in its row, and
the results of a game ended before any damage crown no one and show the game in numbers. Both languages with ``TYPHOON_EDU_ALL_LANGS=1``.

Screenshots: ``artifacts/screenshots/classroom-end-*.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess

from .langs import flow_langs
from .teacher_page import teacher_url
from .test_classroom_browser import (
    LAPTOP,
    PHONE,
    PROJECTOR,
    join_links,
    new_page,
    setup_room,
    shot,
    tap_cell,
    wait_state,
)

pytestmark = pytest.mark.browser

FOCUSED_CLASSES = "() => { const e = document.activeElement; const w = e && e.closest('.jupyter-widgets');" \
    " return ((w && w.className) || '') + ' ' + ((e && e.className) || ''); }"


@pytest.mark.parametrize("server", flow_langs("en"), indirect=True)
def test_end_asks_first_and_a_freed_seat_keeps_the_focus(server: tuple[VoilaProcess, RoomStore],
                                                        chromium_browser: Browser) -> None:
    proc, _store = server
    lang = proc.lang
    projector = new_page(chromium_browser, PROJECTOR)
    projector.goto(teacher_url(proc))
    setup_room(projector, lang, ("Mei", "Ken"), devices=True)
    hrefs = join_links(projector)
    phones = {}
    for region, href in hrefs.items():
        phone = new_page(chromium_browser, PHONE)
        phone.goto(href)
        expect(phone.locator(".typhoon-seat-game")).to_be_visible(timeout=120_000)
        phones[region] = phone
    expect(projector.locator(".typhoon-projector-game")).to_be_visible(timeout=30_000)
    # Mei places one storm (no damage: a placed storm has not moved), so the results have a team's row to show
    mei = phones["Taiwan"]
    wait_state(mei, lambda s: s.get("mine") == "1" and s.get("busy") == "0", what="Taiwan's phone to decide")
    tap_cell(mei, (8, 8), 40)
    wait_state(projector, lambda s: int(s["seq"]) >= 1 and s.get("busy") == "0", what="the projector to show it")

    teacher = projector.locator(".typhoon-teacher-button")
    teacher.focus()
    projector.keyboard.press("Enter")
    drawer = projector.locator(".typhoon-teacher")
    expect(drawer).to_be_visible()
    # the seat rows: a joined seat says so and offers Free/Revoke; Free keeps the keyboard in that seat's row
    free = projector.locator(".typhoon-teacher-reset-device-Japan")
    expect(free).to_be_visible()
    free.focus()
    projector.keyboard.press("Enter")
    expect(free).to_be_hidden(timeout=10_000)
    expect(drawer).to_contain_text(i18n.t("classplay.teacher.freed", lang))
    projector.wait_for_function("() => document.activeElement && document.activeElement !== document.body",
                                timeout=5_000)
    focused = projector.evaluate(FOCUSED_CLASSES)
    assert "typhoon-teacher-revoke-Japan" in focused, f"the focus left Japan's row: {focused}"

    # End: one press asks; the focus lands on "No, keep playing"; Esc drops the question with the drawer
    end = projector.locator(".typhoon-teacher-end")
    end.focus()
    projector.keyboard.press("Enter")
    question = projector.locator(".typhoon-teacher-end-question")
    expect(question).to_have_text(i18n.t("classplay.teacher.end_question", lang))
    expect(projector.locator(".typhoon-projector-game")).to_be_visible()
    projector.wait_for_function(f"() => ({FOCUSED_CLASSES})().includes('typhoon-teacher-end-no')", timeout=5_000)
    shot(projector, "end-asked", lang)
    projector.keyboard.press("Escape")
    expect(drawer).to_be_hidden()
    projector.keyboard.press("Enter")  # the focus went back to "Teacher": open it again, the question is gone
    expect(drawer).to_be_visible()
    expect(question).to_be_hidden()
    end.focus()
    projector.keyboard.press("Enter")
    projector.wait_for_function(f"() => ({FOCUSED_CLASSES})().includes('typhoon-teacher-end-no')", timeout=5_000)
    projector.keyboard.press("Tab")  # from "No, keep playing" to "Yes, end the game"
    assert "typhoon-teacher-end-yes" in projector.evaluate(FOCUSED_CLASSES)
    projector.keyboard.press("Enter")
    expect(projector.locator(".typhoon-results-screen")).to_be_visible(timeout=30_000)
    head = projector.locator(".typhoon-results")
    expect(head).to_contain_text(i18n.t("classplay.results.ended", lang))
    expect(head).to_contain_text(i18n.t("classplay.results.no_leader", lang))
    expect(projector.locator(".typhoon-winner")).to_have_count(0)
    expect(projector.locator(".typhoon-review")).to_have_text("")
    # no damage, so no chart: the game in numbers fills its place (the round it ended in, the storms so far, what
    # each team did)
    facts = projector.locator(".typhoon-results-screen .typhoon-facts")
    expect(facts.locator(".typhoon-facts-title")).to_have_text(i18n.t("classplay.results.facts.title", lang))
    expect(facts.locator("[data-fact='rounds'] .typhoon-fact-value")).to_have_text("1 / 3")
    expect(facts.locator("[data-fact='storms'] .typhoon-fact-value")).to_have_text("1")
    expect(facts.locator("tr[data-region='Taiwan'] td").first).to_have_text("1")  # the storm Mei placed
    for part, least in ((".typhoon-fact-value", 48), (".typhoon-fact-label", 24), (".typhoon-facts-table td", 24)):
        size = float(facts.locator(part).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
        assert size >= least, f"the game in numbers: {part} is {size} px at 1920x1080, under {least} px"
    shot(projector, "end-results", lang)
    for view in (LAPTOP, PHONE):
        projector.set_viewport_size(view)
        projector.wait_for_timeout(400)
        box = facts.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 1, box
        wide = projector.evaluate("document.scrollingElement.scrollWidth")
        assert wide <= view["width"] + 1, f"the results are {wide} px wide at {view}"
        shot(projector, "end-results", lang)
