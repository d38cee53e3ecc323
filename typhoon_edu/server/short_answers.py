"""Short plain answers where Voilà's handlers answered 500 with a long traceback.

Voilà's application has no ``static_path`` setting, which jupyter_server's HTML error pages need
(``page.html`` calls ``static_url("favicon.ico")``). So every error a jupyter_server handler
rendered as a page failed a second time inside ``write_error``: ~3.6 KB of traceback in the log
and several ms of the event loop per request (measured in docs/security.md, row 38). The red team's
cases, each now a short status and at most one short log line (the access log's):

* ``/api/kernels/<unknown id>/channels``: a kernel websocket for a kernel that is gone (a phone
  reconnecting after its kernel was culled) or never was. :class:`PlainErrors` on the kernel
  websocket handler, which also answers an unknown id 404 itself before jupyter_server looks.
* ``/logout``: jupyter_server's logout page (there is no login in Voilà) failed on the same
  ``static_url``: :class:`NotHereHandler` answers 404.
* ``/voila/templates/<anything but TEMPLATE/static/PATH>``, or such a path with an empty, ``.`` or ``..`` segment
  or a backslash (``lab/static/../x``, ``lab/static/%2e%2e/%2e%2e/x``): Voilà's handler split the path unchecked
  (``ValueError``, ``AssertionError``, 500): :class:`TemplateFiles` answers 404.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from tornado.web import HTTPError, RequestHandler
from voila.static_file_handler import TemplateStaticFileHandler

__all__ = ["NotHereHandler", "PlainErrors", "TemplateFiles", "plain_answer", "template_path_problem"]

#: What Voilà's template files handler can serve: ``TEMPLATE/static/PATH``.
_TEMPLATE_FILE = re.compile(r"^[^/]+/static/.+")


def plain_answer(handler: RequestHandler, status: int, text: str) -> None:
    """Answer ``status`` with one line of plain text (no template, nothing cached)."""
    handler.clear()
    handler.set_status(status)
    handler.set_header("Content-Type", "text/plain; charset=utf-8")
    handler.set_header("Cache-Control", "no-store")
    handler.finish(f"{status}: {text}\n")


class PlainErrors:
    """A handler mixin: errors answered as one line of plain text instead of jupyter_server's HTML page
    (which fails without ``static_path``, see the module's docstring)."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        handler: Any = self
        plain_answer(handler, status_code, handler._reason)


class NotHereHandler(RequestHandler):
    """Answers 404, whatever the method: a path of jupyter_server's that the class server does not offer."""

    SUPPORTED_METHODS = ("GET", "HEAD", "POST", "DELETE", "PATCH", "PUT", "OPTIONS")  # type: ignore[assignment]

    def prepare(self) -> None:
        plain_answer(self, 404, "Not Found")

    def check_xsrf_cookie(self) -> None:  # nothing is done, whatever the method
        return None


def template_path_problem(path: str) -> str | None:
    """Why ``path`` (what follows ``/voila/templates/``, as tornado unquoted it) names no template file, or None.

    A template file is ``TEMPLATE/static/PATH`` whose every segment, unquoted once more, is a name: not empty, not
    ``.`` or ``..``, no backslash (a separator on Windows). Voilà's handler normalised such a path and split it
    unchecked (an ``AssertionError`` or ``ValueError``: a 500 and a traceback in the log).

    >>> template_path_problem("lab/static/index.css") is None
    True
    >>> template_path_problem("lab/static/../x")
    'a template file path has no empty, . or .. segment and no backslash'
    >>> template_path_problem("lab/static/%2e%2e/x")  # a second quoting is read too
    'a template file path has no empty, . or .. segment and no backslash'
    >>> template_path_problem("lab/nostatic/x")
    'a template file path is TEMPLATE/static/PATH'
    """
    if not _TEMPLATE_FILE.match(path):
        return "a template file path is TEMPLATE/static/PATH"
    for form in (path, unquote(path)):
        if "\\" in form or any(segment in ("", ".", "..") for segment in form.split("/")):
            return "a template file path has no empty, . or .. segment and no backslash"
    return None


class TemplateFiles(PlainErrors, TemplateStaticFileHandler):
    """Voilà's template files (``/voila/templates/TEMPLATE/static/PATH``); any other path
    (:func:`template_path_problem`) is a short 404, not a 500 with a traceback."""

    def parse_url_path(self, path: str) -> str:
        if template_path_problem(path) is not None:
            raise HTTPError(404)
        result: str = super().parse_url_path(path)
        return result
