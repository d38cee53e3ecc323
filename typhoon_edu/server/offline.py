"""Pages that ask nothing of another host: no request leaves the server (issue 19 §9).

Voilà's ``lab`` template links FontAwesome's stylesheets from a public CDN
(``cdn.jsdelivr.net``), twice per page load. A school without internet logs errors, and a school
with it tells a third party every time a student opens a page. The same FontAwesome 5 (CSS
and fonts, with the v4 names ipywidgets' ``icon=`` uses) is already in Voilà's own
``voila-style.js`` and ``/voila/static/`` files, which the page loads from this server, so the
CDN links only duplicate it: :func:`local_only` takes every tag that would *load* something from
another host (a stylesheet, preload or icon ``<link>``, a ``<script src>``) out of the page
as it is sent. Links a person clicks (``<a href>``) are left alone.

>>> local_only('<link rel="stylesheet" href="https://cdn.jsdelivr.net/x.css" type="text/css" />\\n<p>ok</p>')
'\\n<p>ok</p>'
>>> local_only('<script src="//cdn.example/a.js"></script><script src="/voila/static/a.js"></script>')
'<script src="/voila/static/a.js"></script>'
>>> local_only('<a href="https://www.cwa.gov.tw/">CWA</a>')
'<a href="https://www.cwa.gov.tw/">CWA</a>'
"""

from __future__ import annotations

import re

__all__ = ["local_only"]

_FOREIGN = r"""(?:https?:)?//[^"'\s>]+"""
_LINK = re.compile(rf"""<link\b[^>]*\bhref\s*=\s*["']{_FOREIGN}["'][^>]*>""", re.IGNORECASE)
_SCRIPT = re.compile(rf"""<script\b[^>]*\bsrc\s*=\s*["']{_FOREIGN}["'][^>]*>\s*</script\s*>""", re.IGNORECASE)


def local_only(html: str) -> str:
    """``html`` without the tags that would load something from another host."""
    if "//" not in html:
        return html
    return _SCRIPT.sub("", _LINK.sub("", html))
