"""Class play in a real browser: a projector and two team devices, each in its own Chromium context.

What a class does, end to end (in one language, or both with ``TYPHOON_EDU_ALL_LANGS=1``:
see tests/browser/langs.py): the teacher sets up a room with two person
seats and a bot; the projector shows a join card per person seat; each "phone" (390×844)
follows its seat's link; the board opens by itself when both have joined; the devices play
their own decisions (taps on the map, buttons) while the projector animates every move. Checked
on the way:

* the projector fits 1920×1080 and 1366×768 without scrolling (bounding boxes of its parts);
* a move made on a phone shows on the projector and on the other phone within a poll or two;
* the projector never has a card of any hand in its DOM, and a phone only its own seat's cards
  (compared with the game replayed from the store by the test itself);
* the teacher revokes a device and that phone stops, saying why;
* one computer: the curtain hides the screen between players and the hand shows only after a tap.

Screenshots: ``artifacts/screenshots/classroom-<moment>-<size>-<lang>.png``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from typhoon_edu import i18n
from typhoon_edu.classroom.rooms import Room
from typhoon_edu.classroom.store import RoomStore
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.engine.rules import load_rules
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.classplay.model import seat_label
from typhoon_edu.ui.classplay.tables import seat_infos
from typhoon_edu.ui.geometry import BoardGeometry

from .harness import save_screenshot
from .langs import flow_langs
from .teacher_page import teacher_url
from .touch_helpers import seen_box, still_box, touch_page, touch_tap

pytestmark = pytest.mark.browser

RULES = load_rules()
PROJECTOR = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
#: The parts of the projector's game screen that must be on screen, uncut.
PARTS = (".typhoon-header", ".typhoon-banner", ".typhoon-board canvas", ".typhoon-hp-panel", ".typhoon-compass",
         ".typhoon-bigdie", ".typhoon-log-box")


def new_page(browser: Browser, size: dict[str, int]) -> Page:
    page = browser.new_context(viewport=size, device_scale_factor=1).new_page()
    page.set_default_timeout(60_000)
    return page


def shot(page: Page, moment: str, lang: str) -> Path:
    size = page.viewport_size or {"width": 0, "height": 0}
    return save_screenshot(page, f"classroom-{moment}-{size['width']}x{size['height']}-{lang}", full_page=False)


def banner(page: Page) -> dict[str, str]:
    return page.locator(".typhoon-state").first.evaluate("e => Object.assign({}, e.dataset)")


def page_messages(page: Page) -> list[str]:
    """What the page says to its user besides the banner (status line, problems, notes), for a failure's message."""
    return page.locator(".typhoon-message, .typhoon-problem, .typhoon-status, .typhoon-note").evaluate_all(
        "els => els.map(e => e.innerText.trim()).filter(t => t)")


def wait_state(page: Page, ok: Any, timeout: float = 60.0, what: str = "state") -> dict[str, str]:
    deadline = time.monotonic() + timeout
    while True:
        if page.locator(".typhoon-state").count():
            s = banner(page)
            if ok(s):
                return s
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached in {timeout:.0f} s; the page shows "
                                 f"{banner(page) if page.locator('.typhoon-state').count() else 'no banner'}; "
                                 f"its messages: {page_messages(page)}")
        page.wait_for_timeout(100)


def tap_cell(page: Page, cell: tuple[int, int], cell_px: int) -> None:
    """Tap a cell of the page's board, as a finger would (the canvas is scaled by CSS)."""
    canvas = page.locator(".typhoon-board canvas").first
    canvas.scroll_into_view_if_needed()
    box = still_box(page, canvas)
    width = canvas.evaluate("c => c.width")
    cx, cy = BoardGeometry.for_rules(RULES, cell_px).cell_centre(*cell)
    scale = box["width"] / width
    page.mouse.click(box["x"] + cx * scale, box["y"] + cy * scale)


def cards_in(page: Page) -> set[str]:
    return set(page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))


def check_fit(page: Page) -> None:
    size = page.viewport_size
    assert size is not None
    for sel in PARTS:
        box = page.locator(sel).first.bounding_box()
        assert box is not None, f"{sel} is not shown"
        assert box["x"] >= -1 and box["y"] >= -1, (sel, box)
        assert box["x"] + box["width"] <= size["width"] + 1 and box["y"] + box["height"] <= size["height"] + 1, \
            f"{sel} is cut at {size}: {box}"
    scroll = page.evaluate("[document.scrollingElement.scrollHeight, document.scrollingElement.scrollWidth]")
    assert scroll[0] <= size["height"] + 1 and scroll[1] <= size["width"] + 1, f"the page scrolls: {scroll}"


def setup_room(projector: Page, lang: str, names: tuple[str, str], devices: bool) -> None:
    """Three seats: two persons (Taiwan, Japan) and a medium bot (Korea); regions chosen.

    On a touch page (a whiteboard, a tablet) the form is filled as a finger would: every button and box is
    seen, then tapped (:func:`touch_tap`), and names are typed after a tap on their box. A tapped ``<select>``
    opens the device's own picker, which is not part of the page; its choice is then set with ``select_option``.
    """
    expect(projector.locator(".typhoon-setup-start")).to_be_visible(timeout=120_000)
    touch = bool(projector.evaluate("navigator.maxTouchPoints > 0"))

    def press(element: Locator) -> None:
        if touch:
            touch_tap(projector, element)
        else:
            element.click()

    press(projector.locator(".typhoon-seat-count button", has_text="3"))
    press(projector.locator(".typhoon-regions button").nth(1))
    for i, region in enumerate(("Taiwan", "Japan", "Korea")):
        menu = projector.locator(f".typhoon-seat-region-{i} select")
        if touch:
            touch_tap(projector, menu)
        menu.select_option(label=i18n.region_name(RULES, region, lang))
    menu = projector.locator(".typhoon-seat-kind-2 select")
    if touch:
        touch_tap(projector, menu)
    menu.select_option(index=2)  # medium
    for i, name in enumerate(names):
        box = projector.locator(f".typhoon-seat-name-{i} input")
        if touch:
            touch_tap(projector, box)
            expect(box).to_be_focused()
            projector.keyboard.type(name)
        else:
            box.fill(name)
            box.press("Tab")
        expect(box).to_have_value(name)
    press(projector.locator(".typhoon-hands-mode button").nth(0 if devices else 1))
    projector.wait_for_timeout(400)  # the kernel takes the form's values
    press(projector.locator(".typhoon-setup-start"))


def join_links(projector: Page, count: int = 2) -> dict[str, str]:
    """The lobby's join links by region, once its ``count`` join cards are shown."""
    links = projector.locator("a.typhoon-join-link")
    expect(links).to_have_count(count, timeout=30_000)
    return {str(links.nth(i).get_attribute("data-region")): str(links.nth(i).get_attribute("href")) for i in range(count)}


def open_class(browser: Browser, proc: VoilaProcess, lang: str, names: tuple[str, str] = ("Mei", "Ken"), *,
               page_for: Callable[[Browser, dict[str, int]], Page] = new_page) -> tuple[Page, dict[str, Page]]:
    """A class arriving: the teacher's projector sets up a room with a device per team
    (:func:`setup_room`), each team's phone opens its join link, and the board opens on the projector.

    ``page_for(browser, size)`` makes each page (:func:`new_page`; ``touch_page`` for touch devices).
    Returns the projector and the phones by region (``"Taiwan"``, ``"Japan"``).
    """
    projector = page_for(browser, PROJECTOR)
    projector.goto(teacher_url(proc), timeout=180_000)
    setup_room(projector, lang, names, devices=True)
    return projector, join_phones(browser, projector, page_for)


def join_phones(browser: Browser, projector: Page, page_for: Any = None) -> dict[str, Page]:
    """Open every seat's join link on a phone of its own (``page_for(browser, size)``, a plain page by default) and
    wait for the board, which opens by itself once every team has joined."""
    phones = {}
    for region, href in join_links(projector).items():
        phone = (page_for or new_page)(browser, PHONE)
        phone.goto(href, timeout=180_000)
        expect(phone.locator(".typhoon-seat-game")).to_be_visible(timeout=120_000)
        phones[region] = phone
    expect(projector.locator(".typhoon-projector-game")).to_be_visible(timeout=30_000)
    return phones


def room_of(store: RoomStore) -> Room:
    from typhoon_edu.classroom.rooms import list_rooms

    rooms = list_rooms(store, teacher=local_teacher(store))
    assert len(rooms) == 1, rooms
    return Room.open(store, rooms[0].code, teacher=local_teacher(store))


@pytest.mark.parametrize("server", flow_langs("en"), indirect=True)
def test_projector_and_two_devices(server: tuple[VoilaProcess, RoomStore], chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    projector = new_page(chromium_browser, PROJECTOR)
    projector.goto(teacher_url(proc))
    setup_room(projector, lang, ("Mei", "王小明"), devices=True)

    # the lobby: one join card per person seat, with a QR code and a link
    hrefs = join_links(projector)
    expect(projector.locator(".typhoon-join-qr svg")).to_have_count(2)
    assert set(hrefs) == {"Taiwan", "Japan"} and all("?seat=" in h for h in hrefs.values())
    shot(projector, "lobby", lang)

    phones = {}
    for region, href in hrefs.items():
        phone = new_page(chromium_browser, PHONE)
        phone.goto(href)
        expect(phone.locator(".typhoon-seat-game")).to_be_visible(timeout=120_000)
        phones[region] = phone
    # the board opens by itself once both have joined
    expect(projector.locator(".typhoon-projector-game")).to_be_visible(timeout=30_000)
    wait_state(projector, lambda s: s.get("who") == "Taiwan" and s.get("busy") == "0", what="Taiwan to place")
    check_fit(projector)
    shot(projector, "game-start", lang)
    mei, wang = phones["Taiwan"], phones["Japan"]
    wait_state(mei, lambda s: s.get("mine") == "1" and s.get("busy") == "0", what="Taiwan's phone to decide")
    shot(mei, "phone-place", lang)
    assert mei.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the phone page is wider than the phone"
    # a tap on Japan's map while Taiwan decides is answered on Japan's phone, and plays nothing
    wait_state(wang, lambda s: s.get("who") == "Taiwan" and s.get("busy") == "0", what="Japan's phone to wait")
    tap_cell(wang, (8, 8), 40)
    mei_label = seat_label(seat_infos(room_of(store)), "Taiwan", lang)
    expect(wang.locator(".typhoon-message-ok")).to_have_text(
        i18n.t("classplay.seat.not_your_turn", lang, player=mei_label))
    shot(wang, "phone-not-your-turn", lang)
    assert banner(wang)["seq"] == "0"
    # and a tap on the projector's map says where the decision is made
    tap_cell(projector, (8, 8), 40)
    expect(projector.locator(".typhoon-message-ok")).to_have_text(i18n.t(
        "classplay.map_idle", lang, why=i18n.t("classplay.banner.on_device", lang, player=mei_label)))
    shot(projector, "projector-map-idle", lang)
    for size in (LAPTOP, PHONE):  # the answer is seen where it is said, whatever the screen
        projector.set_viewport_size(size)
        seen_box(projector, projector.locator(".typhoon-message-ok"))
        shot(projector, "projector-map-idle", lang)
    projector.set_viewport_size(PROJECTOR)
    assert banner(projector)["seq"] == "0"

    # Taiwan's phone places the three storms by tapping the map; every view follows
    delays = []
    for n, cell in enumerate(((8, 8), (11, 7), (14, 9)), start=1):
        wait_state(mei, lambda s: s.get("busy") == "0", what="the phone to be ready")
        before = time.monotonic()
        tap_cell(mei, cell, 40)
        wait_state(mei, lambda s, n=n: int(s["seq"]) >= n, what=f"the phone's own move {n}")
        wait_state(projector, lambda s, n=n: int(s["seq"]) >= n, timeout=10, what=f"the projector to show move {n}")
        delays.append(time.monotonic() - before)
        wait_state(wang, lambda s, n=n: int(s["seq"]) >= n, timeout=10, what=f"the other phone to show move {n}")
    assert max(delays) < 3.0, f"the projector followed the phone after {delays} s"

    # play on: each phone decides when its banner says so (aim, pass, move, counter, discard …)
    # (eight decisions cover aims, passes, moves and cards; more only made the test longer)
    deadline = time.monotonic() + 90
    played = 0
    last_played = time.monotonic()
    while time.monotonic() < deadline and played < 8:
        if played >= 6 and time.monotonic() - last_played > 10:
            break  # the next decision is a tap on the map (the storms of a new round), not a button
        for region, phone in phones.items():
            s = banner(phone)
            if s.get("mine") != "1" or s.get("busy") != "0":
                continue
            buttons = phone.locator(".typhoon-decisions button.typhoon-act")
            if not buttons.count():
                continue
            seq = int(s["seq"])
            passes = phone.locator(".typhoon-decisions .typhoon-group-pass button")
            (passes.first if passes.count() else buttons.first).click()
            wait_state(phone, lambda s2, seq=seq: int(s2["seq"]) > seq, timeout=30, what=f"{region}'s decision")
            played += 1
            last_played = time.monotonic()
            # privacy, checked against the game as the store replays it
            room = room_of(store)
            for other_region, other in phones.items():
                wait_state(other, lambda s2, q=room.seq: int(s2["seq"]) >= q and s2.get("busy") == "0", timeout=30,
                           what="the phones to settle")
                mine = set(room.game.hand(other_region))
                assert cards_in(other) <= mine, f"{other_region}'s phone shows cards it does not hold"
            assert not cards_in(projector), "the projector shows a hand"
            assert not projector.locator(".typhoon-card").count()
        projector.wait_for_timeout(200)
    assert played >= 6, f"only {played} decisions were made on the phones"
    shot(projector, "game", lang)
    shot(mei, "phone-game", lang)
    projector.set_viewport_size(LAPTOP)
    projector.wait_for_timeout(500)
    check_fit(projector)
    shot(projector, "game", lang)
    projector.set_viewport_size(PROJECTOR)

    # the teacher revokes the Japan phone: it stops and says why
    projector.locator(".typhoon-teacher-button").click()
    expect(projector.locator(".typhoon-teacher")).to_be_visible()
    shot(projector, "teacher", lang)
    projector.locator(".typhoon-teacher-revoke-Japan").click()
    expect(wang.locator(".typhoon-banner")).to_contain_text(
        i18n.t("classroom.error.token_revoked", lang)[:8], timeout=15_000)
    expect(wang.locator("a.typhoon-rejoin")).to_be_visible()  # the way back: the join page with the room's code
    shot(wang, "phone-revoked", lang)
    room = room_of(store)
    assert room.seat("Japan").revoked


def open_one_computer_game(page: Page, proc: VoilaProcess, lang: str) -> None:
    """Open the teacher's address on ``page`` and start a one-computer room of Mei and Ken (no devices)."""
    page.goto(teacher_url(proc), timeout=180_000)
    setup_room(page, lang, ("Mei", "Ken"), devices=False)
    expect(page.locator(".typhoon-projector-game")).to_be_visible(timeout=60_000)


def one_computer_to_first_hand(chromium_browser: Browser, proc: VoilaProcess, lang: str) -> tuple[Page, dict[str, str]]:
    """A laptop page at the teacher's address, a one-computer room of Mei and Ken, played (placements and
    aims) up to the first decision that needs a person's hand; returns the page and that state."""
    page = new_page(chromium_browser, LAPTOP)
    open_one_computer_game(page, proc, lang)
    for n, cell in enumerate(((8, 8), (11, 7), (14, 9)), start=1):
        wait_state(page, lambda s: s.get("busy") == "0" and s.get("who") == "Taiwan", what="Taiwan's placement")
        tap_cell(page, cell, 56)
        wait_state(page, lambda s, n=n: int(s["seq"]) >= n, what=f"placement {n}")
    for _ in range(3):
        s = wait_state(page, lambda s: s.get("busy") == "0" and s.get("phase") != "setup_place", what="aiming")
        if s["phase"] != "setup_aim":
            break
        page.locator(".typhoon-decisions button.typhoon-act").first.click()
        wait_state(page, lambda s2, q=int(s["seq"]): int(s2["seq"]) > q, what="an aim")
    s = wait_state(page, lambda s: s.get("busy") == "0" and s.get("phase") in ("attack", "counter", "discard")
                   and s.get("person") == "1", timeout=90, what="a person's hand decision")
    return page, s


@pytest.mark.parametrize("server", flow_langs("zh-TW"), indirect=True)
def test_one_computer_room_shows_no_code_and_gives_a_phone_no_seat(server: tuple[VoilaProcess, RoomStore],
                                                                     chromium_browser: Browser) -> None:
    """A one-computer game: no room code on the wall, and a phone that types the code anyway (read here from
    the store) is told why no seat is offered, with no seat to tap (the store refuses one as well)."""
    proc, store = server
    lang = proc.lang
    projector = new_page(chromium_browser, PROJECTOR)
    open_one_computer_game(projector, proc, lang)
    expect(projector.locator(".typhoon-room-chip")).to_have_count(0)
    shot(projector, "one-computer-no-code", lang)
    code = room_of(store).code
    phone = touch_page(chromium_browser, PHONE)
    phone.goto(proc.url, timeout=180_000)  # without the teacher's key: the join page
    expect(phone.locator(".typhoon-join-code input")).to_be_visible(timeout=120_000)
    box = phone.locator(".typhoon-join-code input").bounding_box()
    assert box is not None
    phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.keyboard.type(code)
    phone.keyboard.press("Enter")
    expect(phone.locator(".typhoon-message-error")).to_contain_text(i18n.t("classroom.error.no_devices", lang)[:12],
                                                                     timeout=30_000)
    expect(phone.locator(".typhoon-join-seat")).to_have_count(0)
    shot(phone, "phone-one-computer", lang)


def test_one_computer_curtain(server: tuple[VoilaProcess, RoomStore], chromium_browser: Browser) -> None:
    proc, store = server
    lang = proc.lang
    page, s = one_computer_to_first_hand(chromium_browser, proc, lang)
    # the first hand decision: the curtain covers everything, no card in the page until it is lifted
    curtain = page.locator(".typhoon-curtain")
    expect(curtain).to_be_visible()
    assert not cards_in(page)
    shot(page, "curtain", lang)
    curtain.locator("button").click()
    expect(curtain).to_be_hidden()
    room = room_of(store)
    if room.game.hand(s["who"]):
        expect(page.locator("[data-card]").first).to_be_visible()
    assert cards_in(page) == set(room.game.hand(s["who"]))
    shot(page, "hand-shown", lang)
    page.locator(".typhoon-decisions .typhoon-group-pass button").first.click()
    wait_state(page, lambda s2: int(s2["seq"]) > int(s["seq"]), what="the decision")
    page.wait_for_timeout(300)
    assert not cards_in(page), "the hand stayed on screen after the decision"
