"""The page handlers of :class:`~typhoon_edu.server.voila_app.TyphoonVoila`: Voilà's notebook page with
the server's cookies (:mod:`typhoon_edu.server.page_query`) and the kernel caps
(:mod:`typhoon_edu.server.kernel_budget`), at ``/`` and at the students' ``/join`` and ``/join/<CODE>``.

For every page request, before Voilà renders it:

1. ``?teacher=<key>`` in the address: the key goes into the ``typhoon_teacher`` cookie (HttpOnly,
   SameSite=Strict, for this browser session) and the browser is sent (302) to the same address
   without it. A blank ``?teacher=`` removes the cookie (the teacher sees the students' page).
   Only for an address the teacher opened themselves (:func:`opened_directly`: typed, pasted, a
   bookmark, the terminal's link, or a page of this server); one that another site opened (a page
   elsewhere navigating the teacher's browser to ``/?teacher=`` would sign the teacher out, or in
   with a key of its choosing) changes no cookie and gets :func:`direct_page`, whose button opens
   the same address from this server.
2. A ``typhoon_device`` cookie is set if the browser has none.
3. The query Voilà hands to the kernel (``QUERY_STRING`` for a kernel started for the request, and
   the ``voila/query/<kernel>`` message for a preheated one: Voilà builds both from
   ``request.query``) becomes :func:`~typhoon_edu.server.page_query.kernel_query`'s.
4. The request is admitted by the kernel budget, or answered 503 with a page saying the server is
   full (both languages).
5. The HTML sent loads nothing from another host (:func:`~typhoon_edu.server.offline.local_only`),
   and its Content-Security-Policy (:func:`~typhoon_edu.server.offline.page_policy`) has the
   browser refuse any load or connection to another host, and any framing by another site.
"""

from __future__ import annotations

import contextvars
import html
import logging
import os
from typing import Any

from jupyter_core.utils import ensure_async
from tornado.httputil import parse_qs_bytes
from voila.tornado.handler import TornadoVoilaHandler

from ..i18n import LANGS, t
from .kernel_budget import Admission, KernelBudget
from .offline import local_only, page_policy
from .page_query import (
    DEVICE_COOKIE,
    DEVICE_COOKIE_DAYS,
    TEACHER_COOKIE,
    client_query,
    kernel_query,
    masked,
    new_device_id,
    plausible_device,
    plausible_teacher_key,
    teacher_key_in,
)

__all__ = ["BUDGET_SETTING", "CURRENT_ADMISSION", "JoinPageHandler", "PageHandler", "direct_page", "opened_directly",
           "track_page_kernels"]

log = logging.getLogger(__name__)

#: The tornado setting that holds the server's :class:`KernelBudget`.
BUDGET_SETTING = "typhoon_kernel_budget"

#: The admission of the page request being served (read where Voilà starts or takes its kernel).
CURRENT_ADMISSION: contextvars.ContextVar[Admission | None] = contextvars.ContextVar("typhoon_admission", default=None)


def track_page_kernels(kernel_manager: Any) -> None:
    """Make Voilà's kernel manager tell the current page request which kernel it got.

    Voilà's page handler starts a kernel with ``start_kernel`` or takes a preheated one with
    ``get_rendered_notebook``; both run inside the request, where :data:`CURRENT_ADMISSION` is set.
    The pool's own refills call the base class directly and are not counted.
    """
    start_kernel = kernel_manager.start_kernel

    async def start_kernel_for_page(*args: Any, **kwargs: Any) -> str:
        kernel_id: str = await ensure_async(start_kernel(*args, **kwargs))
        admission = CURRENT_ADMISSION.get()
        if admission is not None:
            admission.bind(kernel_id)
        return kernel_id

    kernel_manager.start_kernel = start_kernel_for_page
    rendered = getattr(kernel_manager, "get_rendered_notebook", None)
    if rendered is None:
        return

    async def rendered_for_page(*args: Any, **kwargs: Any) -> Any:
        result = await rendered(*args, **kwargs)
        admission = CURRENT_ADMISSION.get()
        if admission is not None:
            admission.bind(result[2])
        return result

    kernel_manager.get_rendered_notebook = rendered_for_page


def _server_lang() -> str:
    lang = os.environ.get("TYPHOON_EDU_LANG", "zh-TW")
    return lang if lang in LANGS else "zh-TW"


def full_page(reason: str, lang: str) -> str:
    """The page a refused request gets: what happened and what to do, in ``lang`` and then the other language.

    >>> "Too many pages" in full_page("client", "en") and "頁面" in full_page("client", "en")
    True
    """
    blocks = []
    for each in (lang, *[other for other in LANGS if other != lang]):
        blocks.append(f"<section lang='{each}'><h1>{html.escape(t('serve.full.title', each))}</h1>"
                      f"<p>{html.escape(t(f'serve.full.{reason}', each))}</p></section>")
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(t('serve.full.title', lang))}</title>"
            "<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em;font-size:1.2em}"
            "h1{font-size:1.5em}</style></head><body class='typhoon-server-full'>"
            + "".join(blocks) + "</body></html>")


#: ``Sec-Fetch-Site`` values of a request the teacher made themselves: typed, pasted, a bookmark or the terminal's
#: link (``none``), or a page of this very server (``same-origin``).
DIRECT_FETCH_SITES = frozenset({"none", "same-origin"})


def opened_directly(fetch_site: str | None) -> bool:
    """Whether a request with this ``Sec-Fetch-Site`` header may set or clear the teacher's cookie.

    A browser without the header (before 2020-2023, depending on the browser) is trusted as before.

    >>> [opened_directly(v) for v in ("none", "same-origin", None, "same-site", "cross-site", "")]
    [True, True, True, False, False, False]
    """
    return fetch_site is None or fetch_site.strip().lower() in DIRECT_FETCH_SITES


def key_effect(key: str, cookie: str | None) -> str:
    """What opening a teacher's address with ``key`` would do to a browser whose teacher cookie is ``cookie``:
    ``"sign_out"`` (an empty key clears a key the browser has), ``"replace"`` (another key takes the place of the
    browser's), else ``""`` (a first key, the same key, or nothing the server takes).

    >>> key_effect("", "k" * 32), key_effect("a" * 32, "k" * 32), key_effect("a" * 32, None), key_effect("", None)
    ('sign_out', 'replace', '', '')
    """
    had = plausible_teacher_key(cookie)
    if key == "":
        return "sign_out" if had else ""
    return "replace" if had and plausible_teacher_key(key) and key != cookie else ""


def direct_page(address: str, lang: str, effect: str = "") -> str:
    """The page a teacher's address opened by another site gets: nothing was changed, and a button to ``address``
    (the same address, which pressed on this page is a request of this server's own), in ``lang`` and then the
    other language. ``effect`` (:func:`key_effect`): a button that would sign the browser out, or put another
    teacher's key in place of its own, says so before it, in bold (a student's link is what it may well be).

    >>> page = direct_page("/?teacher=k&lang=en", "en")
    >>> "href='/?teacher=k&amp;lang=en'" in page and "請自己開啟老師的網址" in page
    True
    >>> "signs this browser out" in direct_page("/?teacher=", "en", "sign_out")
    True
    """
    blocks = []
    for each in (lang, *[other for other in LANGS if other != lang]):
        warning = f"<p class='typhoon-direct-effect'><strong>{html.escape(t(f'serve.direct.{effect}', each))}</strong>" \
                  "</p>" if effect else ""
        blocks.append(f"<section lang='{each}'><h1>{html.escape(t('serve.direct.title', each))}</h1>"
                      f"<p>{html.escape(t('serve.direct.body', each))}</p>"
                      f"<p>{html.escape(t('serve.direct.action', each))}</p>{warning}"
                      f"<p><a class='typhoon-direct-open' href='{html.escape(address, quote=True)}'>"
                      f"{html.escape(t('serve.direct.button', each))}</a></p></section>")
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(t('serve.direct.title', lang))}</title>"
            "<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em;font-size:1.2em}"
            "h1{font-size:1.5em}a.typhoon-direct-open{display:inline-block;padding:.6em 1.2em;border-radius:.4em;"
            "background:#1565c0;color:#fff;text-decoration:none}</style></head><body class='typhoon-server-direct'>"
            + "".join(blocks) + "</body></html>")


class PageHandler(TornadoVoilaHandler):
    """Voilà's notebook page with the server's cookies and the kernel caps (see the module's docstring).

    It also reads ``self.xsrf_token`` before its first byte, which makes tornado set the ``_xsrf``
    cookie that Voilà's closing-tab shutdown beacon needs (voila-dashboards/voila#1458).
    """

    async def get(self, path: str | None = None) -> None:  # type: ignore[override]
        await self.serve_page(path, join=None)

    async def serve_page(self, path: str | None, join: str | None) -> None:
        _ = self.xsrf_token  # tornado sets the _xsrf cookie the first time the token is read
        device = self.rewrite_query(join)
        if device is None:
            return
        budget: KernelBudget | None = self.settings.get(BUDGET_SETTING)
        if budget is None:
            await super().get(path)
            return
        admission = budget.admit(self.request.remote_ip or "", device)
        if admission.refused is not None:
            self.refuse(admission.refused)
            return
        for kernel_id in admission.evict:
            log.info("Stopping kernel %s: its page has gone and %s needs the room", kernel_id, admission.client)
            try:
                await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
            except Exception:  # already gone: the room is free all the same
                log.debug("kernel %s was already stopped", kernel_id, exc_info=True)
        token = CURRENT_ADMISSION.set(admission)
        try:
            await super().get(path)
        finally:
            CURRENT_ADMISSION.reset(token)
            admission.finish()

    def rewrite_query(self, join: str | None) -> str | None:
        """Steps 1–3 of the module's docstring: the browser's device id, or ``None`` when the answer
        (a redirect) is already sent."""
        query = self.request.query
        here = "/" + self.request.path.lstrip("/")  # never "//host": that would redirect off-site
        key = teacher_key_in(query)
        if key is not None:
            fetch_site = self.request.headers.get("Sec-Fetch-Site")
            if not opened_directly(fetch_site):
                self.refuse_key(here + "?" + query, fetch_site or "", key_effect(key, self.get_cookie(TEACHER_COOKIE)))
                return None
            if plausible_teacher_key(key):
                self.set_cookie(TEACHER_COOKIE, key, path="/", httponly=True, samesite="Strict")
            elif key == "":
                self.clear_cookie(TEACHER_COOKIE, path="/")
            clean = client_query(query)
            self.redirect(here + ("?" + clean if clean else ""), status=302)
            return None
        device = self.get_cookie(DEVICE_COOKIE)
        if not plausible_device(device):
            device = new_device_id()
            self.set_cookie(DEVICE_COOKIE, device, path="/", httponly=True, samesite="Lax",
                            expires_days=DEVICE_COOKIE_DAYS)
        assert device is not None
        teacher = self.get_cookie(TEACHER_COOKIE)
        clean = client_query(query, drop=["join"] if join is not None else [])
        self.request.query = kernel_query(query, teacher=teacher if plausible_teacher_key(teacher) else None,
                                          device=device, join=join)
        # What the page itself may know of its address: the browser's, without the server's names.
        self.request.uri = here + ("?" + clean if clean else "")
        self.request.query_arguments = parse_qs_bytes(clean, keep_blank_values=True)
        self.request.arguments = {name: list(values) for name, values in self.request.query_arguments.items()}
        return device

    @property
    def content_security_policy(self) -> str:
        """This server only (see :func:`~typhoon_edu.server.offline.page_policy`)."""
        return page_policy(self.request.host)

    def write(self, chunk: str | bytes | dict[str, Any]) -> None:
        # The page's HTML as Voilà renders it, without what it would fetch from another host.
        if isinstance(chunk, str):
            chunk = local_only(chunk)
        super().write(chunk)

    def refuse_key(self, address: str, fetch_site: str, effect: str = "") -> None:
        """Answer a teacher's address that another site opened (step 1 of the module's docstring): no cookie changes,
        a page with a button to ``address`` that says what it would change (``effect``, :func:`key_effect`); never
        in a frame (a page elsewhere must not get the button pressed)."""
        log.warning("Ignored a teacher's address opened by another site (Sec-Fetch-Site: %s) for %s",
                    fetch_site[:20], self.request.remote_ip)
        self.set_status(403)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Content-Security-Policy",
                        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; "
                        "base-uri 'none'; form-action 'none'")
        self.finish(direct_page(address, _server_lang(), effect))

    def refuse(self, reason: str) -> None:
        """Answer 503 with the "server full" page (``reason``: ``client`` or ``total``)."""
        log.warning("Refused a page for %s: %s kernel cap reached", self.request.remote_ip, reason)
        self.set_status(503)
        self.set_header("Retry-After", "30")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(full_page(reason, _server_lang()))

    def _request_summary(self) -> str:
        # The access log must not hold a teacher's key (the first request carries it in the address).
        return f"{self.request.method} {masked(self.request.uri or '')} ({self.request.remote_ip})"


class JoinPageHandler(PageHandler):
    """``/join`` and ``/join/<CODE>``: the students' page (the kernel sees ``join`` or ``join=<CODE>``)."""

    async def get(self, code: str | None = None) -> None:  # type: ignore[override]
        await self.serve_page(None, join=code or "")
