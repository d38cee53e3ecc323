"""The server's guards (issue 20 §3): kernel websocket frames, kernels per client, never-connected kernels.

The unit tests check the guards' logic; the server tests reproduce each break over raw websockets
and HTTP on 127.0.0.1 against ``serve``'s own Voilà command line, and show it closed.
"""

from __future__ import annotations

import time

import psutil
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1
from serve_helpers import (
    http_request,
    kernel_exists,
    kernel_id_of,
    kernel_info,
    kernel_socket,
    write_probe_notebook,
)
from websockets.exceptions import ConnectionClosed, InvalidStatus

from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.server.websocket_guard import MIN_PARTS, offers_v1, v1_frame, v1_frame_parts, v1_frame_problem

MB = 1024 * 1024


# ------------------------------------------------------------------ the frame guard, alone
def _good(buffers: int = 0) -> bytes:
    parts = [b'{"msg_type": "comm_msg"}', b"{}", b"{}", b'{"data": {}}'] + [b"\x00\x01" * i for i in range(buffers)]
    return serialize_msg_to_ws_v1(parts, "shell")


@pytest.mark.parametrize("buffers", [0, 1, 3])
def test_frames_jupyter_serialises_are_sound(buffers: int) -> None:
    frame = _good(buffers)
    assert v1_frame_problem(frame) is None
    assert v1_frame(v1_frame_parts(frame)[1:], "shell") == frame


def _with_word(frame: bytes, index: int, value: int) -> bytes:
    data = bytearray(frame)
    data[8 * index : 8 * (index + 1)] = value.to_bytes(8, "little")
    return bytes(data)


@pytest.mark.parametrize(("frame", "words"), [
    (b"\xff" * 8, "declares 18446744073709551615 offsets"),  # the 8 bytes
    (b"\xff" * 64, "declares"),
    (b"", "fewer than the 8"),
    ("{}", "text frame"),
    (_with_word(_good(), 0, 10**6), "declares 1000000 offsets"),
    (_with_word(_good(), 3, 10**12), "past the end"),
    (_with_word(_good(), 6, 0), "before offset 4"),
    (_with_word(_good(), 1, 0), "not 56"),
    (serialize_msg_to_ws_v1([b"{}", b"{}"], "shell"), f"fewer than the {MIN_PARTS}"),
])
def test_malformed_frames_are_refused_with_the_reason(frame: bytes | str, words: str) -> None:
    problem = v1_frame_problem(frame)
    assert problem is not None and words in problem, problem


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_frame_the_guard_passes_is_parsed_in_bounded_memory(frame: bytes) -> None:
    """Random bytes: whatever passes the guard, jupyter_server's parser handles without a huge list."""
    if v1_frame_problem(frame) is not None:
        return
    try:
        channel, parts = deserialize_msg_from_ws_v1(frame)
    except UnicodeDecodeError:
        return  # a channel that is not UTF-8: jupyter_server raises, the socket closes
    assert len(parts) <= len(frame) // 8


def test_the_guard_is_fast_on_the_largest_count_a_frame_can_hold() -> None:
    frame = _with_word(b"\x00" * (8 * 200_000), 0, 200_000 - 1)
    started = time.perf_counter()
    problem = v1_frame_problem(frame)
    assert problem is not None and "not 1600000" in problem  # the first offset is checked first
    assert time.perf_counter() - started < 0.5


def test_only_the_v1_subprotocol_is_accepted() -> None:
    assert offers_v1("v1.kernel.websocket.jupyter.org")
    assert offers_v1("x, v1.kernel.websocket.jupyter.org")
    assert not offers_v1(None) and not offers_v1("") and not offers_v1("v2.kernel.websocket.jupyter.org")


# ------------------------------------------------------------------ the frame guard, on a running server
@pytest.fixture(scope="module")
def guarded_server(tmp_path_factory: pytest.TempPathFactory):
    """``serve``'s Voilà command line on the probe notebook, a kernel per request."""
    folder = tmp_path_factory.mktemp("guarded")
    notebook = write_probe_notebook(folder)
    with VoilaProcess(notebook, lang="en", preheat=False, log_path=folder / "voila.log") as server:
        server.wait_ready(timeout=90)
        yield server


def _rss(server: VoilaProcess) -> int:
    assert server.process is not None
    return psutil.Process(server.process.pid).memory_info().rss


def _answers_http_within(server: VoilaProcess, seconds: float) -> float:
    started = time.monotonic()
    status, _, _ = http_request(server.port, "/voila/static/favicon.ico", timeout=seconds)
    elapsed = time.monotonic() - started
    assert status == 200
    return elapsed


def _close_code_after(port: int, kernel: str, frame: bytes | str) -> int | None:
    """Send ``frame`` on a fresh socket to ``kernel``'s channels; the close code the server answers with."""
    with kernel_socket(port, kernel) as ws:
        kernel_info(ws)
        ws.send(frame)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(100):  # replies already on their way may come first
                ws.recv(timeout=5)
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


@pytest.mark.parametrize("frame", [b"\xff" * 8, _with_word(_good(), 3, 10**12), "{}"], ids=["ff8", "offset", "text"])
def test_one_malformed_frame_closes_its_socket_and_the_server_stays_well(guarded_server: VoilaProcess,
                                                                         frame: bytes | str) -> None:
    _, _, page = http_request(guarded_server.port, "/?join")
    kernel = kernel_id_of(page)
    before = _rss(guarded_server)
    assert _close_code_after(guarded_server.port, kernel, frame) == 1008
    assert _answers_http_within(guarded_server, 1.0) < 1.0
    time.sleep(1.0)  # the unguarded parser grew by ~200 MB a second: give it time to show
    assert _answers_http_within(guarded_server, 1.0) < 1.0
    assert _rss(guarded_server) - before < 50 * MB
    assert kernel_exists(guarded_server.port, kernel)  # the page's kernel lives on: a reload reconnects
    with kernel_socket(guarded_server.port, kernel) as ws:
        kernel_info(ws)


def test_a_kernel_websocket_without_the_v1_subprotocol_is_refused(guarded_server: VoilaProcess) -> None:
    _, _, page = http_request(guarded_server.port, "/?join")
    kernel = kernel_id_of(page)
    with pytest.raises(InvalidStatus) as refused, kernel_socket(guarded_server.port, kernel, subprotocol=False):
        pass
    assert refused.value.response.status_code == 400
    assert b"v1.kernel.websocket.jupyter.org" in refused.value.response.body


def _log_after(server: VoilaProcess, start: int, settle: float = 0.5) -> str:
    """What the server logged from byte ``start`` on, once it has had ``settle`` s to write it."""
    assert server.log_path is not None
    time.sleep(settle)
    return server.log_path.read_bytes()[start:].decode("utf-8", "replace")


def _log_size(server: VoilaProcess) -> int:
    assert server.log_path is not None
    return server.log_path.stat().st_size


def _header_frame(header: bytes) -> bytes:
    return v1_frame([header, b"{}", b"{}", b"{}"], "shell")


_NESTED = b"[" * 30_000 + b"]" * 30_000
_BAD_CHANNEL = _header_frame(b'{"msg_type": "comm_msg"}').replace(b"shell", b"\xff\xfe\xfd\xfc\xfb", 1)


@pytest.mark.parametrize(("frame", "says"), [
    (_header_frame(b'{"msg_type": "comm_msg", "x": ' + _NESTED + b"}"), "nested too deeply"),  # RecursionError before
    (_header_frame(b'{"msg_type": "comm_msg", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"), "more than"),
    (v1_frame([b'{"msg_type": "comm_msg", ', b'"x": 1}', b"{}", b"{}"], "shell"), "not JSON"),  # JSONDecodeError before
    (_header_frame(b'["comm_msg"]'), "msg_type"),
    (_BAD_CHANNEL, "not UTF-8"),
], ids=["nested", "nested-100k", "cut", "not-object", "channel"])
def test_a_frame_the_server_cannot_read_closes_its_socket_with_one_log_line(
        guarded_server: VoilaProcess, frame: bytes, says: str) -> None:
    """A header nested 100,000 levels deep, offsets that cut the header's JSON (found by a red-team pass): an
    uncaught RecursionError or JSONDecodeError in the server's handler, a traceback and the connection dropped without
    a close code. Now 1008 and one line, as the guard's other refusals; the kernel lives on."""
    _, _, page = http_request(guarded_server.port, "/?join")
    kernel = kernel_id_of(page)
    start = _log_size(guarded_server)
    assert _close_code_after(guarded_server.port, kernel, frame) == 1008
    logged = _log_after(guarded_server, start)
    assert "Traceback" not in logged and "Uncaught" not in logged, logged[-3000:]
    refusals = [line for line in logged.splitlines() if "Closed a kernel websocket" in line]
    assert len(refusals) == 1 and says in refusals[0] and len(refusals[0]) < 300, refusals
    assert kernel_exists(guarded_server.port, kernel)
    with kernel_socket(guarded_server.port, kernel) as ws:
        kernel_info(ws)


def test_a_frame_over_the_size_limit_gets_1009_and_one_log_line(guarded_server: VoilaProcess) -> None:
    """A 20 MB widget update (the limit is 10 MiB) dropped the connection with no close frame and no log line."""
    _, _, page = http_request(guarded_server.port, "/?join")
    kernel = kernel_id_of(page)
    start = _log_size(guarded_server)
    big = v1_frame([b'{"msg_type": "comm_msg"}', b"{}", b"{}", b'{"x": "' + b"6" * (20 * MB) + b'"}'], "shell")
    with kernel_socket(guarded_server.port, kernel) as ws:
        kernel_info(ws)
        with pytest.raises(ConnectionClosed) as closed:
            ws.send(big)
            for _ in range(100):
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009, closed.value
    logged = _log_after(guarded_server, start)
    assert "Traceback" not in logged, logged[-3000:]
    refusals = [line for line in logged.splitlines() if "Closed a kernel websocket" in line]
    assert len(refusals) == 1 and "limit" in refusals[0], refusals
    assert _answers_http_within(guarded_server, 1.0) < 1.0
    with kernel_socket(guarded_server.port, kernel) as ws:
        kernel_info(ws)


_UPGRADE = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": "v1.kernel.websocket.jupyter.org"}


@pytest.mark.parametrize(("path", "headers"), [
    ("/api/kernels/00000000-0000-4000-8000-000000000000/channels?session_id=s", _UPGRADE),
    ("/logout", None),
    ("/voila/templates/", None),
    ("/voila/templates/lab/nostatic/x", None),
    # a template file path that climbs out, however it is written (a 500 and ~1 KB of traceback each before)
    ("/voila/templates/lab/static/../x", None),
    ("/voila/templates/lab/static/%2e%2e/%2e%2e/x", None),
    ("/voila/templates/lab/static/..%2f..%2fx", None),
    ("/voila/templates/lab/static/../static/index.css", None),
    ("/voila/templates/lab/static/..\\..\\x", None),
    ("/voila/templates/lab/static/..%5c..%5cx", None),
    ("/voila/templates/../static/x", None),
    ("/voila/templates/lab/static/./index.css", None),
    ("/voila/templates/lab/static//index.css", None),
], ids=["unknown-kernel", "logout", "templates", "templates-path", "templates-up", "templates-up-quoted",
        "templates-up-slash-quoted", "templates-up-and-back", "templates-backslash", "templates-backslash-quoted",
        "templates-up-template", "templates-dot", "templates-empty"])
def test_an_unknown_kernel_and_odd_paths_get_a_short_status_and_one_log_line(
        guarded_server: VoilaProcess, path: str, headers: dict[str, str] | None) -> None:
    """Each such request was a 500 or a 404 whose error page failed (no static_path): ~3.6 KB of traceback in the log
    and ~20 ms of the event loop each; 1,500 from one address slowed every other client (docs/security.md, row 38)."""
    start = _log_size(guarded_server)
    for _ in range(20):
        status, _, body = http_request(guarded_server.port, path, headers=headers, source="127.0.0.7", timeout=30)
        assert status == 404 and len(body) < 200, (status, body[:300])
    logged = _log_after(guarded_server, start)
    assert "Traceback" not in logged and "Uncaught" not in logged, logged[-3000:]
    mine = [line for line in logged.splitlines() if path.split("?")[0] in line]
    assert len(mine) == 20 and all(len(line) < 200 for line in mine), mine[:3]
    assert len(logged) < 20 * 200


def test_a_template_file_is_still_served(guarded_server: VoilaProcess) -> None:
    """The pages' own template files (``TEMPLATE/static/FILE``) pass the path check above."""
    status, headers, body = http_request(guarded_server.port, "/voila/templates/lab/static/index.css", timeout=30)
    assert status == 200 and "css" in headers.get("content-type", "") and len(body) > 1000, (status, body[:300])


# ------------------------------------------------------------------ issue 19 §7: the pool grows for a class arriving
def test_the_pool_grows_when_a_room_with_device_seats_is_created(tmp_path_factory: pytest.TempPathFactory) -> None:
    import os

    from serve_helpers import kernel_processes, wait_until

    from typhoon_edu.classroom.codes import token_hash
    from typhoon_edu.classroom.store import NewSeat, RoomStore
    from typhoon_edu.server.pool_growth import pool_target

    folder = tmp_path_factory.mktemp("pool")
    notebook = write_probe_notebook(folder)
    url = f"sqlite:///{folder / 'rooms.sqlite3'}"
    store = RoomStore(url)
    env = {**os.environ, "TYPHOON_EDU_DB": url}
    try:
        with VoilaProcess(notebook, lang="en", preheat=True, pool_size=1, env=env, log_path=folder / "voila.log") as server:
            server.wait_ready(timeout=90)
            assert server.process is not None
            wait_until(lambda: len(kernel_processes(server.process.pid)) == 1, 90, what="a pool of 1")
            time.sleep(5)
            assert len(kernel_processes(server.process.pid)) == 1  # no room yet: the pool stays as serve set it
            seats = [NewSeat(region, token_hash=token_hash(f"tok-{region}-xxxxxxxxxxxx"))
                     for region in ("Taiwan", "Japan", "Korea")] + [NewSeat("Philippines", kind="greedy")]
            store.create_room(setup={"players": ["Taiwan", "Japan", "Korea", "Philippines"]}, seats=seats, lang="en")
            expected = pool_target(1, 3)
            assert expected == 4
            wait_until(lambda: len(kernel_processes(server.process.pid)) == expected, 120, interval=1,
                       what=f"a pool of {expected} (3 device seats waiting + the projector)")
            log = (folder / "voila.log").read_text(encoding="utf-8", errors="replace")
            assert "Preheated pool: 4 kernels (3 device seats waiting to join)" in log
    finally:
        store.close()


# ------------------------------------------------------------------ the preheated kernels' query socket
#: The query key given to the test server (``ensure_query_key`` keeps one already in the environment).
_KEY = "test-query-key-" + "k" * 32


@pytest.fixture(scope="module")
def preheated_server(tmp_path_factory: pytest.TempPathFactory):
    """serve's Voilà with a pool of 2 preheated kernels on the probe notebook, whose page shows the query it got."""
    import os

    from typhoon_edu.ui.query import QUERY_KEY_ENV_VAR

    folder = tmp_path_factory.mktemp("preheated")
    notebook = write_probe_notebook(folder)
    env = {**os.environ, QUERY_KEY_ENV_VAR: _KEY}
    with VoilaProcess(notebook, lang="en", preheat=True, pool_size=2, env=env, log_path=folder / "voila.log") as server:
        server.wait_ready(timeout=90)
        yield server


def _query_socket(port: int, kernel: str, key: str | None, source: str = "127.0.0.2"):  # noqa: ANN202
    from websockets.sync.client import connect

    from typhoon_edu.ui.query import QUERY_KEY_HEADER

    return connect(f"ws://127.0.0.1:{port}/voila/query/{kernel}", open_timeout=30, source_address=(source, 0),
                   additional_headers={QUERY_KEY_HEADER: key} if key is not None else None)


def test_the_query_socket_answers_only_the_servers_own_kernels(preheated_server: VoilaProcess) -> None:
    """A student's device cannot open a preheated kernel's query socket (which carried the teacher's key), nor make
    the pool's kernels miss their pages by opening and closing sockets under their ids (Voilà 0.5's handler let any
    client replace a waiter, and a close removed another kernel's)."""
    import uuid

    from serve_helpers import probe_values

    port = preheated_server.port
    for key in (None, "guess", _KEY[:-1]):
        with pytest.raises(InvalidStatus) as refused, _query_socket(port, str(uuid.uuid4()), key):
            pass
        assert refused.value.response.status_code == 403, key
    # the review's attack, as a device without the key would make it: open, open again, close both, per kernel
    for _ in range(2):
        kernel = str(uuid.uuid4())
        for _ in range(2):
            with pytest.raises(InvalidStatus), _query_socket(port, kernel, None):
                pass
    # one of this server's kernels (it has the key) waits under its id: a second socket for that id is refused, and
    # closing either leaves the others' waiters alone
    kernel = str(uuid.uuid4())
    with _query_socket(port, kernel, _KEY, source="127.0.0.1"):
        with pytest.raises(InvalidStatus) as twice, _query_socket(port, kernel, _KEY, source="127.0.0.1"):
            pass
        assert twice.value.response.status_code == 409
    # the pool's kernels still get their pages' requests: each page shows the query it was opened with
    for code in ("ABCDE", "FGHJK"):
        status, _, page = http_request(port, f"/?join={code}", timeout=60)
        assert status == 200
        seen = probe_values(page)
        assert seen and seen[0]["preheated"] == "True" and seen[0]["query"].get("join") == code, seen  # type: ignore[union-attr]
        assert _KEY not in page


# ------------------------------------------------------------------ a page's writes to its own widgets
@pytest.fixture(scope="module")
def class_server(tmp_path_factory: pytest.TempPathFactory):
    """serve's Voilà on the class-play dashboard (kernels started per request), with a store of its own; a kernel
    idle for 6 s with no page connected is culled."""
    from pathlib import Path

    folder = tmp_path_factory.mktemp("classpage")
    dashboard = Path(__file__).resolve().parent.parent / "notebooks" / "dashboard.ipynb"
    with VoilaProcess(dashboard, lang="en", preheat=False, db=f"sqlite:///{folder / 'rooms.sqlite3'}",
                      log_path=folder / "voila.log", cull_idle_timeout=6, cull_interval=1) as server:
        server.wait_ready(timeout=120)
        yield server


def _comm_messages(ws, seconds: float) -> list[dict[str, object]]:  # noqa: ANN001
    """The comm messages (their content) the kernel sends on ``ws`` within ``seconds`` (bounded in time)."""
    import json

    from typhoon_edu.server.websocket_guard import v1_frame_parts

    out: list[dict[str, object]] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = ws.recv(timeout=left)
        except TimeoutError:
            break
        parts = v1_frame_parts(frame)
        if json.loads(parts[1]).get("msg_type") in ("comm_msg", "comm_open"):
            out.append(json.loads(parts[4]))
    return out


def _heartbeat(ws) -> str:  # noqa: ANN001
    """The model id of the page's heartbeat (PageLink), asked of the kernel as a page's widget manager asks."""
    import uuid

    from serve_helpers import v1_message

    control = uuid.uuid4().hex
    ws.send(v1_message("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
                       metadata={"version": "1.0.0"})[0])
    ws.send(v1_message("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})[0])
    states: dict[str, dict[str, object]] = {}
    for content in _comm_messages(ws, 20):
        data = content.get("data") or {}
        if isinstance(data, dict) and data.get("method") == "update_states":
            states = {k: v.get("state", {}) for k, v in data["states"].items()}
            break
    found = [k for k, state in states.items() if "interval" in state and "beat" in state]
    assert len(found) == 1, sorted(states)[:10]
    return found[0]


def _say_here(ws, link: str) -> None:  # noqa: ANN001
    """What the page's heartbeat sends its kernel: "I am here"."""
    from serve_helpers import v1_message

    ws.send(v1_message("comm_msg", {"comm_id": link, "data": {"method": "custom", "content": {"here": 0}}})[0])


def test_a_page_cannot_make_its_kernel_beat_without_pause(class_server: VoilaProcess) -> None:
    """A student's page sets the heartbeat's ``interval`` to 0 over its own kernel websocket: the kernel ignores it
    (it had sent ~5,400 messages a second, and the server buffered them for a gone page)."""
    from serve_helpers import v1_message

    status, _, page = http_request(class_server.port, "/join", source="127.0.0.5", timeout=120)
    assert status == 200
    with kernel_socket(class_server.port, kernel_id_of(page)) as ws:
        heartbeat = _heartbeat(ws)
        _say_here(ws, heartbeat)
        before = sum(1 for c in _comm_messages(ws, 3) if c.get("comm_id") == heartbeat)
        _say_here(ws, heartbeat)
        ws.send(v1_message("comm_msg", {"comm_id": heartbeat, "data": {
            "method": "update", "state": {"interval": 0, "lost_after": 0, "muted": True}, "buffer_paths": []}})[0])
        after = sum(1 for c in _comm_messages(ws, 3) if c.get("comm_id") == heartbeat)
    assert 2 <= before <= 12, before  # a beat every 0.5 s
    assert after <= 12, f"{after} heartbeat messages in 3 s after the page set interval=0"


def test_the_kernel_of_a_page_that_vanished_is_culled(class_server: VoilaProcess) -> None:
    """A phone that leaves without a word (off the network: no closing beacon): its kernel stops ticking once the page
    has been silent for SILENT_AFTER s, so the server culls it as idle (the ticks had kept it alive for ever). While
    the page is there, it answers, and a silent kernel ticks again as soon as the page speaks."""
    from serve_helpers import kernel_exists, wait_until

    from typhoon_edu.ui.classplay.pagelink import SILENT_AFTER

    status, _, page = http_request(class_server.port, "/join", source="127.0.0.6", timeout=120)
    assert status == 200
    kernel = kernel_id_of(page)
    with kernel_socket(class_server.port, kernel) as ws:  # a raw socket: it answers the ticks only when told here
        link = _heartbeat(ws)
        _say_here(ws, link)
        assert [c for c in _comm_messages(ws, 2) if c.get("comm_id") == link], "no tick while the page is there"
        time.sleep(SILENT_AFTER)
        _comm_messages(ws, 1)  # what was on its way
        beats = [c for c in _comm_messages(ws, 2) if c.get("comm_id") == link]
        assert not beats, f"{len(beats)} ticks after {SILENT_AFTER:.0f} s of silence"
        _say_here(ws, link)
        beats = [c for c in _comm_messages(ws, 2) if c.get("comm_id") == link]
        assert beats, "the kernel did not tick again when the page spoke"
    # the socket is gone without a word: after SILENT_AFTER s of silence and 6 s idle, the kernel is culled
    assert kernel_exists(class_server.port, kernel)
    wait_until(lambda: not kernel_exists(class_server.port, kernel), SILENT_AFTER + 40, interval=1,
               what="the vanished page's kernel culled")
