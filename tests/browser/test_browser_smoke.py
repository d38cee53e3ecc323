"""Smoke test of the serving path: Voilà renders a one-button notebook with a canvas in Chromium.

If this fails, every other browser test will too: look here first (and at artifacts/logs/).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from typhoon_edu.server.serve import VoilaProcess

from .harness import REPO_ROOT, JupyterServerProcess, assert_canvas_not_blank, canvas_pixel

pytestmark = pytest.mark.browser

SMOKE_NOTEBOOK = REPO_ROOT / "notebooks" / "smoke" / "one_button.ipynb"


@pytest.mark.parametrize(
    ("viewport", "preheat"),
    [("laptop", False), ("projector", True)],
    ids=["laptop", "projector-preheated"],
)
def test_one_button_notebook_renders_in_voila(
    voila: Callable[..., VoilaProcess],
    page: Page,
    page_errors: list[str],
    screenshot: Callable[..., Path],
    viewport: str,
    preheat: bool,
) -> None:
    server = voila(SMOKE_NOTEBOOK, preheat=preheat)
    page.goto(server.url)

    button = page.locator(".smoke-button")
    expect(button).to_be_visible(timeout=60_000)
    expect(button).to_contain_text("颱風不要來")

    # Drawn in on_client_ready: without that the canvas stays blank in Voilà (preheated or not).
    stats = assert_canvas_not_blank(page, ".smoke-canvas")
    assert (stats.width, stats.height) == (320, 200)
    assert stats.colours >= 3  # sea blue, storm yellow, white label
    centre_r, centre_g, centre_b, _ = canvas_pixel(page, ".smoke-canvas", 160, 70)
    assert (centre_r, centre_g, centre_b) == (0xF2, 0xC1, 0x4E)

    # A click goes to the kernel and back.
    button.click()
    expect(page.locator(".widget-text input")).to_have_value("1")

    path = screenshot(page, f"smoke-one-button-{viewport}")
    assert path.stat().st_size > 0
    assert not [e for e in page_errors if "pageerror" in e], page_errors


def test_one_button_notebook_renders_through_jupyter_server_like_binder(
    jupyter_server: Callable[..., JupyterServerProcess],
    page: Page,
    screenshot: Callable[..., Path],
) -> None:
    """Binder's path: Jupyter Server + the Voilà extension, ``voila/render/<notebook>``."""
    server = jupyter_server(REPO_ROOT)
    page.goto(server.voila_url("notebooks/smoke/one_button.ipynb"))
    expect(page.locator(".smoke-button")).to_be_visible(timeout=60_000)
    assert_canvas_not_blank(page, ".smoke-canvas")
    screenshot(page, "smoke-one-button-jupyter-server")
