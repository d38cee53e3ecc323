"""The teacher is in charge, in a real browser: two browser contexts on loopback, as a class has.

* The teacher's address opens the projector; a second browser without the key gets the students'
  join page (a code field, no rooms, no codes), also with a wrong key.
* A crafted widget message: the model id of the teacher's *Pause* button is read from the frames
  the teacher's page receives; the same "click" sent from the student page's own websocket does
  nothing (its kernel has no such widget), while sent on the teacher's socket it pauses the game
  (so the message is a real click, and the refusal is the kernel's doing, not a broken message).
* A seat link opened on a second device is refused while the first device holds it (in zh-TW and
  en); joining by code puts the seat's link in the address, and a reload gets the seat back.
* The lobby's room code is at least 64 px at 1920×1080, and every card shows ``…/join``.

Device ids are given as ``&device=`` so this works with and without the server's cookie layer
(which replaces them with each browser's own cookie).
Screenshots: ``artifacts/screenshots/teacher-<moment>.png``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from typhoon_edu.classroom.links import load_link_secret
from typhoon_edu.classroom.rooms import Room, Seat
from typhoon_edu.classroom.store import RoomStore, sqlite_url
from typhoon_edu.classroom.teachers import local_teacher
from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR

from .harness import LOG_DIR, REPO_ROOT, save_screenshot
from .teacher_page import teacher_url

pytestmark = pytest.mark.browser

DASHBOARD = REPO_ROOT / "notebooks" / "dashboard.ipynb"
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}

#: Wraps the page's WebSocket so a test can send on the page's own kernel connection.
CAPTURE_SOCKETS = """
(() => {
  const Orig = window.WebSocket;
  window.__typhoonSockets = [];
  function Wrapped(url, protocols) {
    const ws = protocols === undefined ? new Orig(url) : new Orig(url, protocols);
    window.__typhoonSockets.push(ws);
    return ws;
  }
  Wrapped.prototype = Orig.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Wrapped[k] = Orig[k];
  window.WebSocket = Wrapped;
})();
"""

#: A widget "click" on model ``commId``, sent as the page's own kernel client would send it.
SEND_CLICK = """
({commId}) => {
  const ws = window.__typhoonSockets.filter(w => w.url.includes("/channels") && w.readyState === 1).pop();
  if (!ws) return "no socket";
  const header = {msg_id: crypto.randomUUID(), username: "student", session: crypto.randomUUID(),
                  date: new Date().toISOString(), msg_type: "comm_msg", version: "5.3"};
  const content = {comm_id: commId, data: {method: "custom", content: {event: "click"}}};
  if (ws.protocol === "v1.kernel.websocket.jupyter.org") {
    const enc = new TextEncoder();
    const parts = ["shell", JSON.stringify(header), "{}", "{}", JSON.stringify(content)].map(s => enc.encode(s));
    const n = parts.length + 1;
    const offsets = [8 * (1 + n)];
    for (const p of parts) offsets.push(offsets[offsets.length - 1] + p.length);
    const buf = new Uint8Array(offsets[offsets.length - 1]);
    const dv = new DataView(buf.buffer);
    dv.setBigUint64(0, BigInt(n), true);
    offsets.forEach((o, i) => dv.setBigUint64(8 * (i + 1), BigInt(o), true));
    let pos = offsets[0];
    for (const p of parts) { buf.set(p, pos); pos += p.length; }
    ws.send(buf.buffer);
  } else {
    ws.send(JSON.stringify({header, parent_header: {}, metadata: {}, content, channel: "shell", buffers: []}));
  }
  return ws.protocol || "json";
}
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[VoilaProcess, RoomStore]]:
    tmp = tmp_path_factory.mktemp("teacher")
    db = sqlite_url(tmp / "rooms.sqlite3")
    saves = tmp / "saves"
    saves.mkdir()
    proc = VoilaProcess(notebook=DASHBOARD, lang="en", preheat=True, pool_size=2, show_tracebacks=True, db=db,
                        env={**os.environ, "TYPHOON_EDU_SAVES": str(saves), CLASS_SERVER_ENV_VAR: "1"},  # as serve runs it
                        log_path=LOG_DIR / f"voila-teacher-{tmp.name}.log")
    proc.start()
    proc.wait_ready(timeout=120)
    store = RoomStore(db)
    store.link_secret = load_link_secret()  # the computer's secret, as the served kernels use it
    yield proc, store
    proc.stop()


def new_page(browser: Browser, size: dict[str, int], capture: bool = False) -> Page:
    context = browser.new_context(viewport=size, device_scale_factor=1)
    if capture:
        context.add_init_script(CAPTURE_SOCKETS)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page


def shot(page: Page, moment: str) -> Path:
    return save_screenshot(page, f"teacher-{moment}", full_page=False)


def _parts_v1(data: bytes) -> list[bytes]:
    n = int.from_bytes(data[:8], "little")
    offsets = [int.from_bytes(data[8 * (i + 1):8 * (i + 2)], "little") for i in range(n)]
    return [data[offsets[i]:offsets[i + 1]] for i in range(n - 1)]


def _message(payload: Any) -> dict[str, Any] | None:
    """A kernel message received by the page, from a v1 binary frame or a JSON text frame."""
    try:
        if isinstance(payload, (bytes, bytearray)):
            parts = _parts_v1(bytes(payload))
            return {"msg_type": json.loads(parts[1]).get("msg_type"), "content": json.loads(parts[4])}
        msg = json.loads(payload)
        return {"msg_type": msg.get("header", {}).get("msg_type"), "content": msg.get("content", {})}
    except (ValueError, IndexError, UnicodeDecodeError, AttributeError):
        return None


def _model_ids_with_class(messages: list[dict[str, Any]], css: str) -> set[str]:
    """Model ids of widgets whose ``_dom_classes`` include ``css`` (from comm_open, updates and state replies)."""
    found = set()
    for m in messages:
        content = m.get("content") or {}
        data = content.get("data") or {}
        # comm_open with the whole state, or comm_msg "update" (add_class after the widget was made)
        if m.get("msg_type") in ("comm_open", "comm_msg") and isinstance(data, dict) \
                and css in ((data.get("state") or {}).get("_dom_classes") or []):
            found.add(content.get("comm_id"))
        for model_id, entry in ((data.get("states") or {}) if isinstance(data, dict) else {}).items():  # noqa: B007
            if css in ((entry.get("state") or {}).get("_dom_classes") or []):
                found.add(model_id)
    return {f for f in found if f}


def _wait(page: Page, check: Any, timeout: float, what: str) -> Any:
    """Wait for ``check()``; through the page, so Playwright delivers its events meanwhile."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        page.wait_for_timeout(200)


def test_only_the_teachers_browser_gets_the_projector_and_crafted_clicks_do_nothing(
        served: tuple[VoilaProcess, RoomStore], chromium_browser: Browser) -> None:
    proc, store = served
    teacher = local_teacher(store)
    room = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea", name="Ken")],
                       seed=5, lang="en", teacher=teacher)

    received: list[dict[str, Any]] = []
    projector = new_page(chromium_browser, PROJECTOR, capture=True)
    projector.on("websocket", lambda ws: ws.on("framereceived", lambda p: received.append(_message(p) or {})))
    projector.goto(teacher_url(proc))
    expect(projector.locator(f".typhoon-room-{room.code}")).to_be_visible(timeout=120_000)
    shot(projector, "setup-with-key")

    # a second browser, no key (and a wrong key): the students' join page, no rooms, no codes
    for address in (proc.url, proc.url + "?teacher=not-the-key"):
        student = new_page(chromium_browser, PHONE, capture=True)
        student.goto(address)
        expect(student.locator(".typhoon-join-code input")).to_be_visible(timeout=120_000)
        text = student.locator("body").inner_text()
        assert room.code not in text
        assert student.locator(".typhoon-setup-start, .typhoon-room-open, .typhoon-teacher").count() == 0
    shot(student, "join-page-without-key")

    # the teacher resumes the room: the drawer (with Pause) is built in the teacher's kernel
    projector.locator(f".typhoon-room-{room.code}").click()
    expect(projector.locator(".typhoon-lobby-head .typhoon-room-chip")).to_be_visible(timeout=60_000)
    ids = _wait(projector, lambda: _model_ids_with_class(received, "typhoon-teacher-pause"), 30, "the Pause button's model id")
    assert len(ids) == 1
    (pause_id,) = ids

    # a crafted click from the student's page, on its own kernel connection: nothing happens
    protocol = student.evaluate(SEND_CLICK, {"commId": pause_id})
    assert protocol != "no socket"
    student.wait_for_timeout(3000)
    assert not store.room(room.id).paused
    # the same message on the teacher's own connection is a real click: it pauses the game
    assert projector.evaluate(SEND_CLICK, {"commId": pause_id}) == protocol
    _wait(projector, lambda: store.room(room.id).paused, 30, "the teacher's crafted click pausing the game")
    assert not store.room(room.id).problem


def test_seat_links_stay_with_their_device_and_the_lobby_is_readable(
        served: tuple[VoilaProcess, RoomStore], chromium_browser: Browser) -> None:
    proc, store = served
    room = Room.create(store, [Seat("Taiwan", name="Mei"), Seat("Japan", "greedy"), Seat("Korea", name="Ken")],
                       seed=6, lang="en", teacher=local_teacher(store))
    projector = new_page(chromium_browser, PROJECTOR)
    projector.goto(teacher_url(proc))
    expect(projector.locator(f".typhoon-room-{room.code}")).to_be_visible(timeout=120_000)
    projector.locator(f".typhoon-room-{room.code}").click()
    chip = projector.locator(".typhoon-lobby-head .typhoon-room-chip")
    expect(chip).to_be_visible(timeout=60_000)
    size = float(chip.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 64, f"the room code is {size} px"
    addresses = projector.locator(".typhoon-join-card-address")
    expect(addresses).to_have_count(2)
    for i in range(2):
        assert addresses.nth(i).inner_text().strip().endswith("/join")
        assert float(addresses.nth(i).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 24
    shot(projector, "lobby-1920x1080")
    href = projector.locator("a.typhoon-join-link[data-region='Taiwan']").get_attribute("href")
    assert href and room.issued_tokens["Taiwan"] in href  # reopening showed the link made at set-up

    first = new_page(chromium_browser, PHONE)
    first.goto(href + "&device=phone-a")
    expect(first.locator(".typhoon-seat-game")).to_be_visible(timeout=120_000)
    for lang, words in (("zh-TW", "另一臺裝置"), ("en", "another device")):
        second = new_page(chromium_browser, PHONE)
        second.goto(href + f"&device=phone-b&lang={lang}")
        expect(second.locator(".typhoon-join .typhoon-message-error")).to_contain_text(words, timeout=120_000)
        assert second.locator(".typhoon-seat-game").count() == 0 or not second.locator(".typhoon-seat-game").is_visible()
        shot(second, f"photographed-link-refused-{lang}")

    # joining by code: the address becomes the seat's link, and a reload gets the seat back
    tablet = new_page(chromium_browser, PHONE)
    tablet.goto(proc.url + "?join&device=tablet-c")
    expect(tablet.locator(".typhoon-join-code input")).to_be_visible(timeout=120_000)
    tablet.locator(".typhoon-join-code input").fill(room.code.lower())
    tablet.locator(".typhoon-join-code input").press("Enter")
    tablet.locator(".typhoon-join-seat-Korea").click()
    expect(tablet.locator(".typhoon-seat-game")).to_be_visible(timeout=60_000)
    _wait(tablet, lambda: "seat=" in tablet.url, 10, "the seat's link in the address")
    tablet.reload()
    expect(tablet.locator(".typhoon-seat-game")).to_be_visible(timeout=120_000)
    assert "seat=" in tablet.url
    shot(tablet, "joined-by-code-after-reload")
    store_room = Room.open(store, room.id, teacher=local_teacher(store))
    assert store_room.seat("Korea").joined and store_room.seat("Korea").bound
