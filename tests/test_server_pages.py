"""The page requests' HTTP layer (issue 20 §1, §3; issue 19 §2): the teacher's and the device's cookies,
the students' ``/join`` address, and the kernel caps. Raw HTTP and websockets on 127.0.0.1 against
``serve``'s own Voilà command line, with the probe notebook (it shows the query its kernel got).
"""

from __future__ import annotations

import html
import re
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from serve_helpers import (
    ServeRun,
    http_request,
    kernel_exists,
    kernel_id_of,
    kernel_info,
    kernel_processes,
    kernel_socket,
    probe_values,
    wait_until,
    write_probe_notebook,
)

from typhoon_edu.server.serve import VoilaProcess
from typhoon_edu.server.voila_app import DEFAULT_CONNECT_GRACE, DEFAULT_MAX_KERNELS_PER_CLIENT

KEY = secrets.token_urlsafe(24)

#: A student's device, as the server sees it: another loopback address (this computer's 127.0.0.1 is the
#: teacher's, not capped per client).
STUDENT = "127.0.0.2"


def _cookies(headers: dict[str, str]) -> str:
    return headers.get("set-cookie", "")


def _cookie_value(headers: dict[str, str], name: str) -> str | None:
    match = re.search(rf"(?:^|[\s,]){name}=([^;,]*)", _cookies(headers))
    return match.group(1) if match else None


def _query(port: int, path: str, cookie: str = "") -> tuple[dict[str, object], dict[str, str]]:
    status, headers, page = http_request(port, path, headers={"Cookie": cookie} if cookie else None)
    assert status == 200, (path, status, page[:300])
    seen = probe_values(page)
    assert seen, "the probe notebook printed nothing"
    return seen[0]["query"], headers  # type: ignore[return-value]


@pytest.fixture(scope="module")
def page_server(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("pages")
    notebook = write_probe_notebook(folder)
    with VoilaProcess(notebook, lang="en", preheat=False, log_path=folder / "voila.log") as server:
        server.wait_ready(timeout=90)
        yield server


# ------------------------------------------------------------------ the teacher's key: once in the address, then a cookie
def test_the_teachers_key_becomes_a_strict_cookie_and_leaves_the_address(page_server: VoilaProcess) -> None:
    status, headers, _ = http_request(page_server.port, f"/?seat=abc&teacher={KEY}&lang=en")
    assert status == 302
    assert headers["location"] == "/?seat=abc&lang=en"  # the key is not left in the address bar
    cookie = _cookies(headers)
    assert _cookie_value(headers, "typhoon_teacher") == KEY
    attributes = cookie.lower()
    assert "httponly" in attributes and "samesite=strict" in attributes and "path=/" in attributes


def test_the_kernel_sees_the_teacher_and_the_device_from_the_cookies(page_server: VoilaProcess) -> None:
    query, headers = _query(page_server.port, "/", cookie=f"typhoon_teacher={KEY}")
    device = _cookie_value(headers, "typhoon_device")
    assert device is not None and len(device) >= 22
    assert query == {"teacher": KEY, "device": device}
    lowered = _cookies(headers).lower()
    assert "samesite=lax" in lowered and "httponly" in lowered and "expires=" in lowered
    # The same browser next time: the same device, no new cookie.
    again, headers = _query(page_server.port, "/?seat=s1", cookie=f"typhoon_device={device}")
    assert again == {"seat": "s1", "device": device}
    assert _cookie_value(headers, "typhoon_device") is None


@pytest.mark.parametrize("path", ["/?device=forged_forged_forged_1&seat=s", "/?seat=s&device=", "/?seat=s&teacher"])
def test_a_browser_cannot_set_the_teacher_or_the_device_itself(page_server: VoilaProcess, path: str) -> None:
    status, headers, _ = http_request(page_server.port, path)
    if status == 302:  # a teacher= in the address: dropped, and the browser sent back without it
        assert "teacher" not in headers["location"]
        assert _cookie_value(headers, "typhoon_teacher") in (None, "", "\"\"")  # none, or cleared
        path = headers["location"]
    query, headers = _query(page_server.port, path)
    assert "teacher" not in query
    assert query["device"] == _cookie_value(headers, "typhoon_device") != "forged_forged_forged_1"


def test_a_blank_teacher_in_the_address_removes_the_cookie(page_server: VoilaProcess) -> None:
    status, headers, _ = http_request(page_server.port, "/?teacher=", headers={"Cookie": f"typhoon_teacher={KEY}"})
    assert status == 302 and headers["location"] == "/"
    assert re.search(r"typhoon_teacher=;|typhoon_teacher=\"\"", _cookies(headers)), _cookies(headers)


# ------------------------------------------------------------------ /join: the students' short address
@pytest.mark.parametrize(("path", "expected"), [
    ("/join", {"join": ""}),
    ("/join/", {"join": ""}),
    ("/join/K7PM2", {"join": "K7PM2"}),
    ("/join/K7PM2?join=EVIL&lang=en", {"join": "K7PM2", "lang": "en"}),
])
def test_join_gives_the_join_page_with_its_code(page_server: VoilaProcess, path: str, expected: dict[str, str]) -> None:
    query, headers = _query(page_server.port, path)
    assert query == {**expected, "device": _cookie_value(headers, "typhoon_device")}


def test_join_with_something_that_is_not_a_code_is_not_a_page(page_server: VoilaProcess) -> None:
    status, _, _ = http_request(page_server.port, "/join/../../etc/passwd")
    assert status in (302, 403, 404)
    status, _, body = http_request(page_server.port, "/join/K7PM2/extra")
    assert status != 200 or not probe_values(body)


def test_a_preheated_kernel_gets_the_cookies_too(tmp_path: Path) -> None:
    """Voilà sends a preheated kernel its request over voila/query/<kernel>: the same rewritten query."""
    notebook = write_probe_notebook(tmp_path)
    with ServeRun(["--lang", "en", "--notebook", str(notebook)]) as run:
        run.wait_for_pool()
        status, headers, page = http_request(run.port, "/?seat=x&device=forged_forged_forged_1",
                                             headers={"Cookie": f"typhoon_teacher={KEY}"})
        assert status == 200
        seen = probe_values(page)
        assert seen[0]["preheated"] == "True"
        assert seen[0]["query"] == {"seat": "x", "teacher": KEY, "device": _cookie_value(headers, "typhoon_device")}
        run.wait_for_pool()
        seen = probe_values(http_request(run.port, "/join/ABCDE")[2])
        assert seen[0]["preheated"] == "True" and seen[0]["query"]["join"] == "ABCDE"
        assert "teacher" not in seen[0]["query"]


# ------------------------------------------------------------------ kernels within bounds
def test_fifty_requests_without_a_credential_start_at_most_the_cap_and_are_stopped_within_a_minute(
        tmp_path: Path) -> None:
    notebook = write_probe_notebook(tmp_path)
    with VoilaProcess(notebook, lang="zh-TW", preheat=False, log_path=tmp_path / "voila.log") as server:
        server.wait_ready(timeout=90)
        assert server.process is not None

        def fetch(_: int) -> tuple[int, str]:
            status, _, body = http_request(server.port, "/", timeout=180, source=STUDENT)
            return status, body

        with ThreadPoolExecutor(max_workers=10) as pool:
            answers = list(pool.map(fetch, range(50)))
        last_sent = time.monotonic()
        served = [body for status, body in answers if status == 200]
        refused = [body for status, body in answers if status == 503]
        assert len(served) + len(refused) == 50
        assert 1 <= len(served) <= DEFAULT_MAX_KERNELS_PER_CLIENT
        assert "課堂伺服器已滿" in refused[0] and "The class server is full" in refused[0]
        assert len(kernel_processes(server.process.pid)) <= DEFAULT_MAX_KERNELS_PER_CLIENT
        # None of those pages connected: every kernel is stopped within a minute of its page.
        wait_until(lambda: not kernel_processes(server.process.pid), 60, interval=1, what="kernels stopped")
        assert time.monotonic() - last_sent < 60
        assert DEFAULT_CONNECT_GRACE < 60
        # ... and the room is there again.
        status, _, _ = http_request(server.port, "/", source=STUDENT)
        assert status == 200


def test_a_connected_page_keeps_its_kernel_and_a_gone_one_makes_room(tmp_path: Path) -> None:
    notebook = write_probe_notebook(tmp_path)
    args = ["--TyphoonVoila.max_kernels_per_client=2", "--TyphoonVoila.connect_grace=15"]
    with VoilaProcess(notebook, lang="en", preheat=False, extra_args=args, log_path=tmp_path / "voila.log") as server:
        server.wait_ready(timeout=90)
        kept = kernel_id_of(http_request(server.port, "/", source=STUDENT)[2])
        gone = kernel_id_of(http_request(server.port, "/", source=STUDENT)[2])
        with kernel_socket(server.port, kept, timeout=150) as open_page:
            kernel_info(open_page)
            with kernel_socket(server.port, gone, timeout=150) as closing:
                kernel_info(closing)
            time.sleep(22)  # past the grace and a check: connected pages are not "never connected"
            assert kernel_exists(server.port, kept) and kernel_exists(server.port, gone)
            # At the cap of 2: the page that has gone makes room, the open one stays.
            status, _, page = http_request(server.port, "/", source=STUDENT)
            assert status == 200
            assert kernel_exists(server.port, kept) and not kernel_exists(server.port, gone)
            newest = kernel_id_of(page)
            with kernel_socket(server.port, newest, timeout=150) as third:
                kernel_info(third)
                # Both connected: nothing to take, the next page is refused.
                status, _, body = http_request(server.port, "/", source=STUDENT)
                assert status == 503 and "Too many pages are open from this device" in body
            kernel_info(open_page)  # the open page's kernel still answers


def test_a_page_still_loading_keeps_its_kernel_and_one_that_left_does_not(tmp_path: Path) -> None:
    """On a busy machine a page may take a minute to connect; while its browser keeps fetching (scripts,
    styles: its device cookie), its kernel stays. A script that fetched the page and left loses it."""
    notebook = write_probe_notebook(tmp_path)
    args = ["--TyphoonVoila.connect_grace=4"]
    with VoilaProcess(notebook, lang="en", preheat=False, extra_args=args, log_path=tmp_path / "voila.log") as server:
        server.wait_ready(timeout=90)
        status, headers, page = http_request(server.port, "/", source=STUDENT)
        loading, device = kernel_id_of(page), _cookie_value(headers, "typhoon_device")
        left = kernel_id_of(http_request(server.port, "/", source=STUDENT)[2])
        started = time.monotonic()
        while time.monotonic() - started < 14:  # past the grace and two checks
            http_request(server.port, "/voila/static/favicon.ico", headers={"Cookie": f"typhoon_device={device}"})
            time.sleep(1)
        assert kernel_exists(server.port, loading)
        assert not kernel_exists(server.port, left)
        wait_until(lambda: not kernel_exists(server.port, loading), 20, what="stopped once its browser went quiet")


def test_devices_filling_the_server_do_not_lock_out_the_teachers_computer(tmp_path: Path) -> None:
    """Students' devices hold every page kernel the server allows, their pages open: another device is refused,
    but this computer (the teacher's projector) still gets its page."""
    notebook = write_probe_notebook(tmp_path)
    args = ["--TyphoonVoila.max_kernels=2", "--TyphoonVoila.max_kernels_per_client=2"]
    with VoilaProcess(notebook, lang="en", preheat=False, extra_args=args, log_path=tmp_path / "voila.log") as server:
        server.wait_ready(timeout=90)
        first = kernel_id_of(http_request(server.port, "/", source=STUDENT)[2])
        second = kernel_id_of(http_request(server.port, "/", source="127.0.0.3")[2])
        with kernel_socket(server.port, first, timeout=150) as a, kernel_socket(server.port, second, timeout=150) as b:
            kernel_info(a)
            kernel_info(b)
            status, _, _ = http_request(server.port, "/", source="127.0.0.4")
            assert status == 503  # the room's devices are at the cap
            status, _, page = http_request(server.port, "/")  # from 127.0.0.1: the teacher's computer
            assert status == 200 and probe_values(page)


# ------------------------------------------------------------------ the teacher's address, opened by another site
OTHER_KEY = secrets.token_urlsafe(24)


def _teacher_cookie_set(headers: dict[str, str]) -> str | None:
    """The ``typhoon_teacher`` value a response sets (``""`` when it clears it), or None when it leaves it alone."""
    value = _cookie_value(headers, "typhoon_teacher")
    return None if value is None else value.strip('"')


@pytest.mark.parametrize("fetch_site", ["none", "same-origin", None, "same-site", "cross-site"])
@pytest.mark.parametrize("change", ["set", "swap", "clear"])
def test_only_an_address_the_teacher_opened_sets_or_clears_the_teachers_cookie(
        page_server: VoilaProcess, change: str, fetch_site: str | None) -> None:
    """Another site navigating the teacher's browser to ``/?teacher=`` (cross-site: localhost vs 127.0.0.1; same-site:
    another port of 127.0.0.1) signed the teacher out, or in with a key of its choosing (found by a red-team pass).
    Now only a request the teacher made (Sec-Fetch-Site none or same-origin, or a browser without the header) changes
    the cookie; another gets a page, in both languages, whose button opens the same address from this server."""
    path, cookie, wanted = {
        "set": (f"/?teacher={KEY}&lang=en", "", KEY),
        "swap": (f"/?teacher={OTHER_KEY}", f"typhoon_teacher={KEY}", OTHER_KEY),
        "clear": ("/?teacher=", f"typhoon_teacher={KEY}", ""),
    }[change]
    headers = {"Cookie": cookie} if cookie else {}
    if fetch_site is not None:
        headers["Sec-Fetch-Site"] = fetch_site
    status, answer, body = http_request(page_server.port, path, headers=headers, source=STUDENT)
    if fetch_site in ("none", "same-origin", None):
        assert status == 302 and "teacher" not in answer["location"], (status, answer)
        assert _teacher_cookie_set(answer) == wanted
        return
    assert status == 403, (status, body[:300])
    assert _teacher_cookie_set(answer) is None, _cookies(answer)  # the teacher's cookie is left as it was
    assert "Open the teacher's address yourself" in html.unescape(body) and "請自己開啟老師的網址" in body
    # the button's effect, said before it where it is one a student's link would want: out, or another teacher's key
    said = html.unescape(body)
    assert ("signs this browser out" in said and "登出老師身分" in said) == (change == "clear"), said
    assert ("in place of the one this browser has" in said and "取代這個瀏覽器原有的金鑰" in said) == (change == "swap")
    assert answer["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in answer["content-security-policy"]
    assert answer["cache-control"] == "no-store"
    links = re.findall(r"class='typhoon-direct-open' href='([^']*)'", body)
    assert links and set(links) == {path.replace("&", "&amp;")}
    # The button, pressed on that page: a request of this server's own, which is accepted.
    status, answer, _ = http_request(page_server.port, links[0].replace("&amp;", "&"),
                                     headers={**headers, "Sec-Fetch-Site": "same-origin"}, source=STUDENT)
    assert status == 302 and _teacher_cookie_set(answer) == wanted
