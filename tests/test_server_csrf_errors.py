"""The teacher's address opened by another site, in a real browser (docs/security.md, row 37).

Two sites on this machine: the class server at ``http://127.0.0.1:PORT`` and a page "elsewhere" at
``http://localhost:OTHER`` (another host name, so another site), which navigates the browser to the
teacher's address. The HTTP-level cases (every ``Sec-Fetch-Site`` value) are in tests/test_server_pages.py.
"""

from __future__ import annotations

import http.server
import secrets
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from serve_helpers import write_probe_notebook

from typhoon_edu.server.serve import CHROMIUM_ARGS, CHROMIUM_PATH, VoilaProcess, find_free_port

KEY = secrets.token_urlsafe(24)
OTHER_KEY = "A" * 32


class _ElsewhereHandler(http.server.BaseHTTPRequestHandler):
    """A page of another site: its script sends the browser to the address in the path (``/go?<address>``)."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        target = self.path.split("?", 1)[1] if "?" in self.path else "/"
        body = f"<!DOCTYPE html><p>cute typhoon pictures</p><script>location.href = {target!r};</script>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture()
def elsewhere() -> Iterator[int]:
    """A server of "another site" on 127.0.0.1 (the browser reaches it as ``localhost``); its port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", find_free_port()), _ElsewhereHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.mark.browser
def test_another_site_cannot_sign_the_teacher_out_or_swap_the_key(tmp_path: Path, elsewhere: int) -> None:
    notebook = write_probe_notebook(tmp_path)
    with VoilaProcess(notebook, lang="en", preheat=False, log_path=tmp_path / "voila.log") as server:
        server.wait_ready(timeout=90)
        # A thread of its own: the browser tests' session may already run Playwright's loop in this one.
        with ThreadPoolExecutor(1) as worker:
            worker.submit(_two_sites, f"http://127.0.0.1:{server.port}/", elsewhere, tmp_path).result(timeout=300)


def _two_sites(base: str, elsewhere: int, tmp_path: Path) -> None:
    """The teacher's browser: the key from the terminal's link, then the other site's two navigations, then the button."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM_PATH), args=list(CHROMIUM_ARGS))
        try:
            context = browser.new_context()
            page = context.new_page()
            page.set_default_timeout(60_000)

            def teacher_cookie() -> str | None:
                values = [c["value"] for c in context.cookies(base) if c["name"] == "typhoon_teacher"]
                return values[0] if values else None

            page.goto(f"{base}?teacher={KEY}")  # typed or opened from the terminal: Sec-Fetch-Site none
            assert page.url == base and teacher_cookie() == KEY
            for target in (f"{base}?teacher=", f"{base}?teacher={OTHER_KEY}"):
                page.goto(f"http://localhost:{elsewhere}/go?{target}")
                page.wait_for_url(lambda url: url.startswith(base))  # the other site has sent the browser here
                page.wait_for_load_state()
                assert teacher_cookie() == KEY, target  # before: signed out (None), or swapped (OTHER_KEY)
                assert page.url == target and "Open the teacher's address yourself" in page.content()
            tmp_path.joinpath("shots").mkdir()
            page.screenshot(path=str(tmp_path / "shots" / "direct_page.png"))
            # The button on that page is this server's own request: the teacher who did open the link gets it.
            page.locator(".typhoon-direct-open").first.click()
            page.wait_for_url(base)
            assert teacher_cookie() == OTHER_KEY
        finally:
            browser.close()
