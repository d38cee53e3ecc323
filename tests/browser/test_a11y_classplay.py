"""Class play by keyboard and in Chromium's accessibility tree (the accessibility review of class play).

One class in a real browser (the projector with the teacher's key, two phones at 390×844), in one
language (both with ``TYPHOON_EDU_ALL_LANGS=1``), checking what ipywidgets alone does not give
(typhoon_edu/ui/classplay/access.py):

1. every toggle group (setup: players, regions, hands, rules, dice, speed; the language switch on
   every page; the projector's speed) is a named ``group`` whose chosen button is ``pressed`` (and
   only that one), the state following a press; the sound switch is pressed too;
2. the focus never falls to the page's body: *Start* pressed by keyboard → the lobby's heading; the
   board opening while the focus is in the lobby → the game's banner; a decision on a phone (a
   cell's button pressed with Enter) → the next decision's first button (or the decision panel);
3. the teacher's drawer: Enter on *Teacher* opens it (``aria-expanded``) and moves the focus into it,
   Esc closes it and gives the focus back to the toggle; from the toggle, Tab goes into the open drawer;
4. no Font Awesome character in any button's name, and each lobby link names its team.

Every check is collected and all failures are reported together (so one run on the old code shows
every one of them). Screenshots: ``artifacts/screenshots/a11y-classplay-<moment>-<lang>.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu import i18n
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.classplay.viewdata import d

from .harness import save_screenshot
from .keyboard_helpers import focused
from .langs import flow_langs
from .teacher_page import teacher_url
from .test_classroom_browser import PROJECTOR, RULES, join_phones, new_page, wait_state

pytestmark = pytest.mark.browser

#: Font Awesome draws its icons with characters of the Private Use Area; none may be in an accessible name.
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


class Checks:
    """Checks collected, not stopped at the first failure."""

    def __init__(self) -> None:
        self.failed: list[str] = []

    def check(self, ok: bool, what: str) -> bool:
        if not ok:
            self.failed.append(what)
        return ok

    def expect(self, what: str, fn: object, timeout: float = 5_000) -> bool:
        """``fn(timeout)`` is a Playwright expectation; its failure is collected."""
        try:
            fn(timeout)  # type: ignore[operator]
        except AssertionError as exc:
            self.failed.append(f"{what}: {str(exc).splitlines()[0]}")
            return False
        return True

    def done(self) -> None:
        assert not self.failed, "\n".join(["class play's accessibility:", *self.failed])


def focus_in(page: Page, selector: str) -> bool:
    return bool(page.evaluate("(s) => !!document.activeElement && !!document.activeElement.closest(s)", selector))


def wait_focus_in(page: Page, selector: str, timeout: float = 5.0) -> bool:
    """Whether the focus is (or comes within ``timeout`` s) inside ``selector``."""
    for _ in range(int(timeout * 10)):
        if focus_in(page, selector):
            return True
        page.wait_for_timeout(100)
    return False


def check_groups(c: Checks, page: Page, groups: dict[str, tuple[str, str]], where: str) -> None:
    """Each ``{css class: (name, chosen button's text)}`` is a group of that name with that button pressed alone."""
    for css, (name, chosen) in groups.items():
        group = page.locator(f".{css}.widget-toggle-buttons").first
        if c.check(group.count() == 1, f"{where}: no toggle group .{css}"):
            role, label = group.get_attribute("role"), group.get_attribute("aria-label")
            c.check(role == "group", f"{where}: .{css} is not a group (role {role!r})")
            c.check(label == name, f"{where}: .{css} is not named {name!r} (aria-label {label!r})")
            states = group.locator("button").evaluate_all(
                "bs => bs.map(b => [b.textContent.trim(), b.classList.contains('mod-active'), b.getAttribute('aria-pressed')])")
            wrong = [(text, pressed) for text, active, pressed in states if pressed != ("true" if active else "false")]
            c.check(not wrong, f"{where}: .{css}'s buttons' aria-pressed does not follow the chosen one: {wrong}")
        named = page.get_by_role("group", name=name, exact=True)
        if c.check(named.count() >= 1, f"{where}: no group named {name!r} in the accessibility tree"):
            pressed = named.first.get_by_role("button", pressed=True)
            c.expect(f"{where}: the group {name!r} has not only {chosen!r} pressed",
                     lambda t, p=pressed, ch=chosen: expect(p).to_have_text([ch], timeout=t))


def check_icon_names(c: Checks, page: Page, where: str) -> None:
    """No button's accessible name holds an icon's character (Chromium's tree, via Playwright's ARIA snapshot)."""
    snapshot = page.locator(".typhoon-app").first.aria_snapshot()
    bad = sorted({line.strip() for line in snapshot.splitlines() if PRIVATE_USE.search(line)})
    c.check(not bad, f"{where}: icon characters in accessible names: {[PRIVATE_USE.sub('<icon>', b) for b in bad][:4]}")


def setup_by_keyboard(c: Checks, projector: Page, lang: str) -> None:
    """The setup screen: its groups, a choice's state following a press, then Start by keyboard."""
    expect(projector.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    projector.wait_for_timeout(1000)
    setup = {
        "typhoon-seat-count": (d("setup.players", lang), "4"),
        "typhoon-regions": (d("setup.regions", lang), d("setup.regions_random", lang)),
        "typhoon-hands-mode": (i18n.t("classplay.setup.hands", lang), i18n.t("classplay.setup.devices", lang)),
        "typhoon-variant": (d("setup.variant", lang), d("setup.standard", lang)),
        "typhoon-dice-mode": (d("setup.dice", lang), d("setup.dice_auto", lang)),
        "typhoon-speed": (d("setup.speed", lang), d("speed.normal", lang)),
        "typhoon-lang": (i18n.t("classplay.access.language", lang), dict((v, k) for k, v in
                                                                       (("中文", "zh-TW"), ("English", "en")))[lang]),
    }
    check_groups(c, projector, setup, "setup")
    check_icon_names(c, projector, "setup")
    # the choices a class makes, by keyboard: each button focused and pressed with Enter or Space
    projector.locator(".typhoon-seat-count button", has_text="3").focus()
    projector.keyboard.press("Enter")
    projector.locator(".typhoon-regions button").nth(1).focus()
    projector.keyboard.press("Space")
    projector.wait_for_timeout(600)
    check_groups(c, projector, {"typhoon-seat-count": (d("setup.players", lang), "3"),
                                "typhoon-regions": (d("setup.regions", lang), d("setup.regions_chosen", lang))},
                 "setup after a choice")
    for i, region in enumerate(("Taiwan", "Japan", "Korea")):
        projector.locator(f".typhoon-seat-region-{i} select").select_option(label=i18n.region_name(RULES, region, lang))
    projector.locator(".typhoon-seat-kind-2 select").select_option(index=2)
    for i, name in enumerate(("Mei", "Ken")):
        box = projector.locator(f".typhoon-seat-name-{i} input")
        box.fill(name)
        box.press("Tab")
    projector.wait_for_timeout(400)
    save_screenshot(projector, f"a11y-classplay-setup-{lang}", full_page=False)
    projector.locator(".typhoon-setup-start").focus()
    projector.keyboard.press("Enter")
    expect(projector.locator(".typhoon-lobby")).to_be_visible(timeout=30_000)
    c.check(wait_focus_in(projector, ".typhoon-lobby"),
            f"Start by keyboard: the focus is not in the lobby but on {focused(projector)}")
    if focus_in(projector, ".typhoon-lobby"):
        c.check(focus_in(projector, ".typhoon-lobby-head"), f"Start: the focus is not on the lobby's heading: {focused(projector)}")


def lobby_links(c: Checks, projector: Page, lang: str) -> None:
    open_text = i18n.t("classplay.join.open", lang)
    links = projector.locator("a.typhoon-join-link")
    expect(links).to_have_count(2, timeout=30_000)
    names = links.evaluate_all("ls => ls.map(l => l.getAttribute('aria-label') || l.textContent)")
    for name in ("Mei", "Ken"):
        link = projector.get_by_role("link", name=re.compile(re.escape(open_text) + ".*" + name))
        c.check(link.count() == 1, f"lobby: no link named with {open_text!r} and the team {name!r} (names: {names})")
    save_screenshot(projector, f"a11y-classplay-lobby-focus-{lang}", full_page=False)


def teacher_drawer(c: Checks, projector: Page, lang: str) -> None:
    toggle = projector.locator(".typhoon-teacher-button")
    drawer = projector.locator(".typhoon-teacher")
    c.check(projector.get_by_role("button", name=i18n.t("classplay.teacher.title", lang), exact=True).count() == 1,
            "the Teacher toggle's name is not its word alone")
    c.check(toggle.get_attribute("aria-expanded") == "false", f"Teacher: aria-expanded {toggle.get_attribute('aria-expanded')!r} while closed")
    toggle.focus()
    projector.keyboard.press("Enter")
    expect(drawer).to_be_visible(timeout=10_000)
    c.check(wait_focus_in(projector, ".typhoon-teacher"), f"Teacher opened by Enter: the focus stayed on {focused(projector)}")
    c.expect("Teacher: aria-expanded once open", lambda t: expect(toggle).to_have_attribute("aria-expanded", "true", timeout=t))
    pause = i18n.t("classplay.teacher.pause", lang)
    c.check(projector.get_by_role("button", name=pause, exact=True).count() == 1, f"the drawer's {pause!r} has another name")
    save_screenshot(projector, f"a11y-classplay-drawer-focus-{lang}", full_page=False)
    if focus_in(projector, ".typhoon-teacher"):
        projector.keyboard.press("Escape")
    else:  # the old page: from the toggle, Tab into the drawer as a keyboard user had to
        for _ in range(15):
            projector.keyboard.press("Tab")
            if focus_in(projector, ".typhoon-teacher"):
                break
        projector.keyboard.press("Escape")
    c.expect("Esc in the drawer does not close it", lambda t: expect(drawer).to_be_hidden(timeout=t))
    c.check(wait_focus_in(projector, ".typhoon-teacher-button", 3.0), f"Esc: the focus is not back on the toggle but on {focused(projector)}")
    c.expect("Teacher: aria-expanded once closed", lambda t: expect(toggle).to_have_attribute("aria-expanded", "false", timeout=t))
    # open again; from the toggle, one Tab reaches the drawer (it was the page's last part: 11 Tabs away)
    toggle.focus()
    projector.keyboard.press("Enter")
    expect(drawer).to_be_visible(timeout=10_000)
    projector.wait_for_timeout(500)
    toggle.focus()
    projector.keyboard.press("Tab")
    c.check(focus_in(projector, ".typhoon-teacher"), f"Tab from the open drawer's toggle goes to {focused(projector)}, not into it")
    toggle.click()  # closed again, by a click this time
    expect(drawer).to_be_hidden(timeout=10_000)


def phone_decides_by_keyboard(c: Checks, phone: Page, lang: str) -> None:
    wait_state(phone, lambda s: s.get("mine") == "1" and s.get("busy") == "0", what="Taiwan's phone to decide")
    check_groups(c, phone, {"typhoon-lang": (i18n.t("classplay.access.language", lang),
                                             "English" if lang == "en" else "中文")}, "phone")
    sound = phone.get_by_role("button", name=i18n.t("classplay.attention.sound", lang), exact=True)
    c.check(sound.count() == 1, "phone: the sound switch's name is not its words alone")
    c.check(phone.locator(".typhoon-sound").get_attribute("aria-pressed") == "true", "phone: the sound switch is not pressed")
    check_icon_names(c, phone, "phone")
    first = phone.locator(".typhoon-cell-pick").first
    first.focus()
    phone.keyboard.press("Enter")
    wait_state(phone, lambda s: int(s["seq"]) >= 1 and s.get("mine") == "1" and s.get("busy") == "0",
               what="Taiwan's second placement")
    phone.wait_for_timeout(800)
    c.check(focus_in(phone, ".typhoon-cell-pick"), f"phone, after a decision: the focus is on {focused(phone)}, "
                                                   "not on the next decision's first button")
    save_screenshot(phone, f"a11y-classplay-phone-after-decision-{lang}", full_page=False)
    if not focus_in(phone, ".typhoon-cell-pick"):  # the old page: the focus fell to the body, Tab back to a cell
        phone.locator(".typhoon-cell-pick").first.focus()
    phone.keyboard.press("Enter")  # the second storm, from where the focus now is
    wait_state(phone, lambda s: int(s["seq"]) >= 2 and s.get("busy") == "0", what="the second placement to be shown")
    phone.wait_for_timeout(800)
    c.check(focus_in(phone, ".typhoon-decisions"), f"phone, after its last decision of the turn: the focus is on {focused(phone)}")


@pytest.mark.parametrize("server", flow_langs("zh-TW"), indirect=True)
def test_class_play_by_keyboard_and_screen_reader(server: tuple[VoilaProcess, RoomStore], chromium_browser: Browser) -> None:
    proc, _store = server
    lang = proc.lang
    c = Checks()
    projector = new_page(chromium_browser, PROJECTOR)
    projector.goto(teacher_url(proc), timeout=180_000)
    setup_by_keyboard(c, projector, lang)
    lobby_links(c, projector, lang)
    # the board opens by itself once both teams joined: the focus, in the lobby, goes to the game's banner
    projector.locator(".typhoon-lobby-go").focus()
    phones = join_phones(chromium_browser, projector)
    c.check(wait_focus_in(projector, ".typhoon-projector-game"), f"the board opened: the focus is on {focused(projector)}")
    if focus_in(projector, ".typhoon-projector-game"):
        c.check(focus_in(projector, ".typhoon-banner-box"), f"the board opened: the focus is not on the banner: {focused(projector)}")
    speed = d("setup.speed", lang)
    check_groups(c, projector, {"typhoon-game-speed": (speed, d("speed.normal", lang)),
                                "typhoon-lang": (i18n.t("classplay.access.language", lang),
                                                 "English" if lang == "en" else "中文")}, "game")
    check_icon_names(c, projector, "game")
    save_screenshot(projector, f"a11y-classplay-board-focus-{lang}", full_page=False)
    teacher_drawer(c, projector, lang)
    phone_decides_by_keyboard(c, phones["Taiwan"], lang)
    for page in (projector, *phones.values()):
        page.context.close()
    c.done()

