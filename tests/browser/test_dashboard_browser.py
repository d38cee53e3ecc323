"""The class-play dashboard in a real browser (Voilà + Debian's Chromium), issue 4 §4 (1)–(5).

Each test starts its own Voilà server with its own save folder (``TYPHOON_EDU_SAVES``) and
saves screenshots at laptop (1366×768) and projector (1920×1080) width in both languages:
``artifacts/screenshots/dashboard-<moment>-<viewport>-<lang>.png``. The language is switched
with the page's own language buttons, which is itself part of what is tested.

The test reads the game's autosave (written by the kernel before it redraws) to know which
action is legal, and then clicks it as a person would: buttons by their ``act-…`` CSS class,
the map by the pixel of a cell.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from typhoon_edu import i18n
from typhoon_edu.engine.actions import Action
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.ui.dashboard_model import action_css
from typhoon_edu.ui.dashboard_session import ClassSession
from typhoon_edu.ui.geometry import BoardGeometry
from typhoon_edu.ui.serve import VoilaProcess

from .harness import REPO_ROOT, VIEWPORTS, assert_canvas_not_blank, save_screenshot

pytestmark = pytest.mark.browser

DASHBOARD = REPO_ROOT / "notebooks" / "dashboard.ipynb"
LANG_BUTTON = {"zh-TW": "中文", "en": "English"}
SEED = "2"  # with the seats of test (2): the person gets a card to play, a counter window and a discard early


# ------------------------------------------------------------------------------ helpers


def open_dashboard(voila: Callable[..., VoilaProcess], page: Page, saves: Path, lang: str = "zh-TW") -> VoilaProcess:
    server = voila(DASHBOARD, lang=lang, env={"TYPHOON_EDU_SAVES": str(saves)})
    page.goto(server.url)
    expect(page.locator(".typhoon-setup-start")).to_be_visible(timeout=90_000)
    return server


def set_lang(page: Page, lang: str) -> None:
    """Switch the language with the page's buttons and wait until the header says so."""
    page.locator(".typhoon-lang button", has_text=LANG_BUTTON[lang]).click()
    expect(page.locator(".typhoon-app").first).to_contain_text(i18n.t("dash.app.language", lang))


def shots(page: Page, moment: str, redo: Callable[[str], None] | None = None) -> list[Path]:
    """Screenshots of this moment at both widths in both languages (the page ends in the language it had)."""
    start_lang = "en" if page.locator(".typhoon-lang button.mod-active", has_text="English").count() else "zh-TW"
    paths = []
    for lang in (start_lang, "en" if start_lang == "zh-TW" else "zh-TW"):
        set_lang(page, lang)
        if redo is not None:
            redo(lang)
        for name, size in VIEWPORTS.items():
            page.set_viewport_size(size)
            page.wait_for_timeout(250)
            paths.append(save_screenshot(page, f"dashboard-{moment}-{name}-{lang}"))
    set_lang(page, start_lang)
    page.set_viewport_size(VIEWPORTS["laptop"])
    return paths


def state(page: Page) -> dict[str, str]:
    """The decision the page shows (data attributes of the banner)."""
    # one read of all five attributes, so that a re-render in between cannot mix two states
    return page.locator(".typhoon-state").first.evaluate(
        "e => Object.fromEntries(['decisions', 'phase', 'who', 'busy', 'person'].map(k => [k, e.dataset[k] || '']))")


def wait_for_person(page: Page, after: int = -1, timeout: float = 90.0) -> dict[str, str]:
    """Wait until the page is idle with a person's (or the typed die's) decision, after ``after`` decisions."""
    deadline = time.monotonic() + timeout
    seen: dict[str, str] | None = None
    while True:
        if page.locator(".typhoon-results").count() and page.locator(".typhoon-results").first.is_visible():
            return {"phase": "over", "decisions": "-1", "who": "", "busy": "0", "person": "0"}
        if page.locator(".typhoon-state").count():
            s = state(page)
            if s["busy"] == "0" and s["person"] == "1" and int(s["decisions"]) > after:
                if s == seen:  # the same on two reads 0.1 s apart: the page has settled
                    return s
                seen = s
            else:
                seen = None
        if time.monotonic() > deadline:
            raise AssertionError(f"no person's decision within {timeout:.0f} s; page shows {state(page)}")
        page.wait_for_timeout(100)


def session(saves: Path) -> ClassSession:
    """The game as the kernel saved it (the newest save)."""
    newest = max(saves.glob("*.json"), key=lambda p: p.stat().st_mtime)
    return ClassSession.resume(newest)


def click_action(page: Page, action: Action) -> None:
    page.locator(f".{action_css(action)}").first.click()


def click_cell(page: Page, cell: tuple[int, int]) -> None:
    """Click the centre of a map cell (the canvas is scaled by CSS, so measure it)."""
    canvas = page.locator(".typhoon-board canvas").last
    box = canvas.bounding_box()
    assert box is not None
    geo = BoardGeometry.for_rules(load_rules(), 48)
    scale = box["width"] / geo.pixel_size[0]
    x, y = geo.cell_centre(*cell)
    page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)


def choose_seats(page: Page, kinds: list[int], regions: list[int] | None = None, name: str = "") -> None:
    """Seat kinds by index (0 person, 1 easy, 2 medium), optional regions by index, seat 1's name."""
    for i, kind in enumerate(kinds):
        page.locator(f".typhoon-seat-kind-{i} select").select_option(index=kind)
    # The kernel hides the name box of a computer seat: waiting for that means it got every choice
    # (a Start click sent earlier could otherwise race the seat changes on a busy machine).
    for i, kind in enumerate(kinds):
        name_box = expect(page.locator(f".typhoon-seat-name-{i}"))
        if kind == 0:
            name_box.to_be_visible(timeout=30_000)
        else:
            name_box.to_be_hidden(timeout=30_000)
    if name:
        page.locator(".typhoon-seat-name-0 input").fill(name)
    if regions is not None:
        page.locator(".typhoon-regions button").nth(1).click()
        for i, region in enumerate(regions):
            page.locator(f".typhoon-seat-region-{i} select").select_option(index=region)


def choose_speed(page: Page, index: int) -> None:
    """0 slow, 1 normal, 2 fast, 3 very fast, 4 no animation."""
    page.locator(".typhoon-speed button").nth(index).click()


def show_hand(page: Page, timeout: float = 20.0) -> None:
    """Press "show my hand" (if the hand is not shown yet) until the cards are shown."""
    cards = page.locator(".typhoon-hand-cards")
    button = page.locator(".typhoon-show-hand")
    deadline = time.monotonic() + timeout
    while not (cards.count() and cards.first.is_visible()):
        if time.monotonic() > deadline:
            raise AssertionError("the hand was not shown after pressing 'show my hand'")
        if button.is_visible():
            try:
                button.click(timeout=3_000)
            except Exception:  # noqa: BLE001 - the panel re-rendered under the pointer: look again
                pass
        page.wait_for_timeout(200)


def page_text(page: Page) -> str:
    return page.locator(".typhoon-app").first.inner_text()


# ------------------------------------------------------------------------------ (1) four bots


def test_four_bot_game_plays_to_the_results_screen(voila: Any, page: Page, page_errors: list[str], tmp_path: Path) -> None:
    open_dashboard(voila, page, tmp_path)
    choose_seats(page, [1, 2, 1, 2])
    choose_speed(page, 4)
    shots(page, "setup")
    page.locator(".typhoon-setup-start").click()
    # With no animation four computers can finish before a board check would even start, so
    # this test waits for the results; tests (2) and (3) sample the board's canvas.
    expect(page.locator(".typhoon-results")).to_be_visible(timeout=150_000)
    expect(page.locator(".typhoon-chart svg")).to_be_visible()
    assert page.locator('.typhoon-chart [data-role="hp-line"]').count() == 4
    for css in ("typhoon-download-json", "typhoon-download-csv"):
        href = page.locator(f".{css}").get_attribute("href") or ""
        assert href.startswith("data:"), href[:40]
    record = session(tmp_path)
    assert record.game.is_over
    expect(page.locator(".typhoon-results")).to_contain_text(i18n.region_name(record.game.rules, record.game.winners[0], "zh-TW"))
    shots(page, "results")
    assert not [e for e in page_errors if "pageerror" in e], page_errors


# ------------------------------------------------------------------------------ (2) a person's seat


def test_person_places_by_click_plays_counters_discards_and_undoes(voila: Any, page: Page, page_errors: list[str],
                                                                  tmp_path: Path) -> None:
    open_dashboard(voila, page, tmp_path)
    # Mei plays Taiwan; computers play Japan, Korea, the Philippines (region indexes in the edition's order)
    choose_seats(page, [0, 2, 1, 2], regions=[0, 5, 2, 1], name="Mei")
    page.locator(".typhoon-seed input").fill(SEED)
    choose_speed(page, 3)
    page.locator(".typhoon-setup-start").click()
    s = wait_for_person(page)
    assert s["phase"] == "setup_place" and s["who"] == "Taiwan"
    assert_canvas_not_blank(page, ".typhoon-board", timeout=60)
    expect(page.locator(".typhoon-banner")).to_contain_text("Mei")
    # place by clicking the map; undo it; place all three
    game = session(tmp_path).game
    click_cell(page, game.legal_actions()[0].cell)
    s = wait_for_person(page, int(s["decisions"]))
    assert len(session(tmp_path).game.typhoons) == 1
    shots(page, "person-placed")
    page.locator(".typhoon-undo").click()
    expect(page.locator(".typhoon-message")).to_contain_text(i18n.t("dash.game.undone", "zh-TW"))
    assert len(session(tmp_path).game.typhoons) == 0
    s = wait_for_person(page, -1)
    while s["phase"] == "setup_place":
        before = int(session(tmp_path).decisions)
        click_cell(page, session(tmp_path).game.legal_actions()[0].cell)
        s = wait_for_person(page, before)
    while s["phase"] == "setup_aim":
        page.locator(".typhoon-act").first.click()
        s = wait_for_person(page, int(s["decisions"]))
    # the attack phase: the hand is hidden until "show my hand"
    assert s["phase"] == "attack" and s["who"] == "Taiwan", s
    assert page.locator("[class*='act-play-']").count() == 0
    shots(page, "person-hand-hidden")
    show_hand(page)
    shots(page, "person-hand-shown", redo=lambda _lang: show_hand(page))
    play = next(a for a in session(tmp_path).game.legal_actions() if a.kind == "play")
    click_action(page, play)
    s = wait_for_person(page, int(s["decisions"]))
    assert any(e.kind == "CardPlayed" and e.player == "Taiwan" for e in session(tmp_path).game.events)
    # pass, move storms, until the storm reaches Taiwan and the counter window opens
    while not (s["phase"] == "counter" and s["who"] == "Taiwan"):
        assert s["phase"] in ("attack", "move_choose"), s
        page.locator(".act-pass" if s["phase"] == "attack" else ".typhoon-act").first.click()
        s = wait_for_person(page, int(s["decisions"]))
    expect(page.locator(".typhoon-banner")).to_contain_text("Mei")
    show_hand(page)
    shots(page, "person-counter", redo=lambda _lang: show_hand(page))
    counter = next(a for a in session(tmp_path).game.legal_actions() if a.kind == "play")
    click_action(page, counter)
    s = wait_for_person(page, int(s["decisions"]))
    assert any(e.kind == "CardPlayed" and e.counter for e in session(tmp_path).game.events)
    while s["phase"] != "discard":
        assert s["phase"] in ("counter", "move_choose"), s
        page.locator(".act-pass" if s["phase"] == "counter" else ".typhoon-act").first.click()
        s = wait_for_person(page, int(s["decisions"]))
    show_hand(page)
    shots(page, "person-discard", redo=lambda _lang: show_hand(page))
    hand = len(session(tmp_path).game.hand("Taiwan"))
    page.locator("[class*='act-discard-']").first.click()
    wait_for_person(page, int(s["decisions"]), timeout=120)
    after = session(tmp_path)
    assert len(after.game.hand("Taiwan")) == hand - 1 or after.game.active != "Taiwan"
    assert not [e for e in page_errors if "pageerror" in e], page_errors


# ------------------------------------------------------------------------------ (3) reload and resume


def test_reload_mid_game_resumes_the_same_state(voila: Any, page: Page, page_errors: list[str], tmp_path: Path) -> None:
    open_dashboard(voila, page, tmp_path)
    choose_seats(page, [0, 2, 1, 2], regions=[0, 5, 2, 1], name="Mei")
    page.locator(".typhoon-seed input").fill(SEED)
    choose_speed(page, 4)
    page.locator(".typhoon-setup-start").click()
    s = wait_for_person(page)
    for _ in range(2):
        click_cell(page, session(tmp_path).game.legal_actions()[0].cell)
        s = wait_for_person(page, int(s["decisions"]))
    before = session(tmp_path)
    banner = page.locator(".typhoon-banner").inner_text()
    hp = page.locator(".typhoon-hp").inner_text()
    page.reload()
    resume = page.locator(".typhoon-resume-latest")
    expect(resume).to_be_visible(timeout=90_000)
    expect(page.locator(".typhoon-resume-box")).to_contain_text(i18n.region_name(before.game.rules, "Taiwan", "zh-TW"))
    shots(page, "resume-offered")
    resume.click()
    s2 = wait_for_person(page)
    assert s2["decisions"] == s["decisions"] and s2["phase"] == s["phase"]
    assert page.locator(".typhoon-banner").inner_text() == banner
    assert page.locator(".typhoon-hp").inner_text() == hp
    assert session(tmp_path).game.digest() == before.game.digest()
    assert_canvas_not_blank(page, ".typhoon-board", timeout=60)
    shots(page, "resumed")
    assert not [e for e in page_errors if "pageerror" in e], page_errors


# ------------------------------------------------------------------------------ (4) language


def _dash_plain(lang: str) -> set[str]:
    return {v for k, v in i18n.catalog(lang).items() if k.startswith("dash.") and "{" not in v and len(v) >= 4}


def test_switching_language_changes_every_visible_label(voila: Any, page: Page, tmp_path: Path) -> None:
    open_dashboard(voila, page, tmp_path)
    english, chinese = _dash_plain("en") - _dash_plain("zh-TW"), _dash_plain("zh-TW") - _dash_plain("en")

    def check() -> None:
        set_lang(page, "zh-TW")
        zh = page_text(page)
        assert not [t for t in english if t in zh], [t for t in english if t in zh]
        set_lang(page, "en")
        en = page_text(page)
        assert not [t for t in chinese if t in en], ([t for t in chinese if t in en], en)
        # nothing Chinese is left in English, apart from the bilingual title and the language button
        leftover = [line for line in en.splitlines() if any("\u4e00" <= ch <= "\u9fff" for ch in line.replace("中文", ""))
                    and "Typhoon Alert" not in line]
        assert not leftover, leftover
        set_lang(page, "zh-TW")

    check()
    choose_seats(page, [0, 2, 1, 2], regions=[0, 5, 2, 1], name="Mei")
    page.locator(".typhoon-seed input").fill(SEED)
    choose_speed(page, 4)
    page.locator(".typhoon-setup-start").click()
    s = wait_for_person(page)
    click_cell(page, session(tmp_path).game.legal_actions()[0].cell)
    wait_for_person(page, int(s["decisions"]))
    check()
    shots(page, "language-game")


# ------------------------------------------------------------------------------ (5) the class's real die


def test_physical_die_accepts_a_typed_face_and_rejects_0_and_7(voila: Any, page: Page, page_errors: list[str],
                                                                tmp_path: Path) -> None:
    open_dashboard(voila, page, tmp_path)
    choose_seats(page, [1, 2, 1, 2])
    page.locator(".typhoon-dice-mode button").nth(1).click()
    choose_speed(page, 4)
    page.locator(".typhoon-setup-start").click()
    s = wait_for_person(page)
    assert s["who"] == "chance", s
    entry = page.locator(".typhoon-die-entry input")
    message = page.locator(".typhoon-die .widget-html").last

    def type_face(face: str) -> None:
        entry.fill(face)
        page.locator(".typhoon-die-enter").click()

    for bad, lang in (("0", "zh-TW"), ("7", "zh-TW"), ("7", "en")):
        set_lang(page, lang)
        type_face(bad)
        expect(message).to_contain_text(i18n.t("die.invalid", lang, text=bad))
        assert state(page)["decisions"] == s["decisions"]
    shots(page, "die-rejected", redo=lambda _lang: type_face("0"))
    type_face("3")
    s2 = wait_for_person(page, int(s["decisions"]))
    game = session(tmp_path).game
    assert Action("die", face=3) in game.history
    assert json.loads(session(tmp_path).record_json())["actions"]
    shots(page, "die-accepted")
    assert s2["decisions"] != s["decisions"]
    assert not [e for e in page_errors if "pageerror" in e], page_errors
