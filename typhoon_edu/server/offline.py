"""Pages that ask nothing of another host: no request leaves the server (issue 19 §9).

Voilà's ``lab`` template links FontAwesome's stylesheets from a public CDN
(``cdn.jsdelivr.net``), twice per page load. A school without internet logs errors, and a school
with it tells a third party every time a student opens a page. The same FontAwesome 5 (CSS
and fonts, with the v4 names ipywidgets' ``icon=`` uses) is already in Voilà's own
``voila-style.js`` and ``/voila/static/`` files, which the page loads from this server, so the
CDN links only duplicate it: :func:`local_only` takes every tag that would *load* something from
another host (a stylesheet, preload or icon ``<link>``, a ``<script src>``) out of the page
as it is sent. Links a person clicks (``<a href>``) are left alone. An image from another host
(a lesson's Binder badge) becomes its alt text, still inside its link.

>>> local_only('<link rel="stylesheet" href="https://cdn.jsdelivr.net/x.css" type="text/css" />\\n<p>ok</p>')
'\\n<p>ok</p>'
>>> local_only('<script src="//cdn.example/a.js"></script><script src="/voila/static/a.js"></script>')
'<script src="/voila/static/a.js"></script>'
>>> local_only('<a href="https://www.cwa.gov.tw/">CWA</a>')
'<a href="https://www.cwa.gov.tw/">CWA</a>'
>>> local_only('<a href="https://mybinder.org/v2/x"><img src="https://mybinder.org/badge_logo.svg" alt="Binder"/></a>')
'<a href="https://mybinder.org/v2/x"><span class="typhoon-offline-image">Binder</span></a>'
>>> local_only('<img src="https://x.example/a.png" alt="Q &amp; A &lt;3">')   # still escaped text, never markup
'<span class="typhoon-offline-image">Q &amp; A &lt;3</span>'

:func:`page_policy` is the Content-Security-Policy every page is sent with: the browser itself
then refuses any load or connection to another host (a script that got into a page cannot send
what it reads anywhere), and no other site may frame the page (clickjacking a teacher's buttons).
Voilà's pages need inline scripts (their configuration), ``eval`` (JupyterLab's schema
validator), ``blob:`` modules (anywidget's front-end code) and ``data:`` images and fonts.
"""

from __future__ import annotations

import html as html_text
import re

__all__ = ["local_only", "page_policy"]

_FOREIGN = r"""(?:https?:)?//[^"'\s>]+"""
_LINK = re.compile(rf"""<link\b[^>]*\bhref\s*=\s*["']{_FOREIGN}["'][^>]*>""", re.IGNORECASE)
_IMG = re.compile(rf"""<img\b[^>]*\bsrc\s*=\s*["']{_FOREIGN}["'][^>]*>""", re.IGNORECASE)
_ALT = re.compile(r"""\balt\s*=\s*(["'])(.*?)\1""", re.IGNORECASE | re.DOTALL)
_SCRIPT = re.compile(rf"""<script\b[^>]*\bsrc\s*=\s*["']{_FOREIGN}["'][^>]*>\s*</script\s*>""", re.IGNORECASE)


def local_only(html: str) -> str:
    """``html`` without the tags that would load something from another host."""
    if "//" not in html:
        return html
    return _IMG.sub(_alt_text, _SCRIPT.sub("", _LINK.sub("", html)))


def _alt_text(img: re.Match[str]) -> str:
    alt = _ALT.search(img.group(0))
    text = html_text.escape(html_text.unescape(alt.group(2))) if alt else ""  # text, never markup
    return f'<span class="typhoon-offline-image">{text}</span>'


_HOST = re.compile(r"^[A-Za-z0-9.\-]+(?::[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?$")


def page_policy(host: str | None) -> str:
    """The Content-Security-Policy of a page requested with ``Host: host``: this server only.

    The page's kernel websocket is named by the host the browser used (``'self'`` alone did
    not cover ``ws:`` in older browsers); a ``host`` that is not a plain name or address
    is left out, so a forged Host header cannot add anything to the policy.

    >>> policy = page_policy("192.168.1.20:8866")
    >>> "connect-src 'self' ws://192.168.1.20:8866 wss://192.168.1.20:8866;" in policy
    True
    >>> "frame-ancestors 'self'" in policy and "object-src 'none'" in policy
    True
    >>> "evil" in page_policy("a; connect-src https://evil.example")
    False
    >>> "ws://[::1]:80 " in page_policy("[::1]:80")
    True
    """
    sockets = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return "; ".join([
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:",
        "style-src 'self' 'unsafe-inline' blob: data:",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "media-src 'self' data: blob:",
        f"connect-src 'self'{sockets}",
        "worker-src 'self' blob:",
        "frame-src 'self'",
        "frame-ancestors 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ])
