"""What the page's URL says, read from inside the notebook's kernel (Voilà, preheated or not, or Jupyter).

The class-play views are chosen by the URL's query string: the projector at ``/``, a seat at
``/?seat=<token>``, a join form at ``/?join=<code>``. Voilà tells the kernel the query string in
two ways:

* a kernel started *for* the request gets it in its environment (``QUERY_STRING``, CGI style);
* a **preheated** kernel ran the notebook *before* anyone asked for the page, so its environment
  cannot hold it. :func:`wait_for_voila_request` makes the notebook wait (a websocket to the
  server's ``voila/query/<kernel id>``) until the request that takes this kernel arrives, then puts
  the request's variables into ``os.environ``, as Voilà's own ``voila.utils.get_query_string``
  does, without importing Voilà in the kernel: its package imports jupyter_server and jsonschema,
  whose format checkers compile a grammar at import. That made every preheated kernel five times as
  costly (10.6 CPU-seconds against 2.1 on a slow day, ``benchmarks/kernel_cpu.py``).

:func:`page_query` does whichever applies, so the notebook does not need to know how it is served.
In a preheated kernel the call **blocks until a browser opens the page**: call it after the
expensive set-up (imports, loading rules) and before building the view that depends on the URL,
so the set-up is still done ahead of time.

>>> parse_query("seat=Ab3_x-9&lang=en&seat=other")
{'seat': 'Ab3_x-9', 'lang': 'en'}
"""

from __future__ import annotations

import json
import logging
import os
import secrets
from collections.abc import Mapping, MutableMapping
from urllib.parse import parse_qsl

__all__ = ["CLASS_SERVER_ENV_VAR", "LESSONS_SERVER_ENV_VAR", "PUBLIC_URL_ENV_VAR", "QUERY_ENV_VAR", "QUERY_KEY_ENV_VAR", "QUERY_KEY_HEADER", "on_class_server", "on_lessons_server", "page_device", "page_query",
           "parse_query", "public_url", "voila_query_url", "wait_for_voila_request"]

#: The CGI variable in which Voilà hands the query string (without ``?``) to the kernel.
QUERY_ENV_VAR = "QUERY_STRING"

#: Set by ``typhoon-edu serve``: the address students type (the LAN address with ``--lan``).
PUBLIC_URL_ENV_VAR = "TYPHOON_EDU_PUBLIC_URL"
#: Set to "1" by ``typhoon-edu serve`` only: a lesson runs on the class server (lesson 07's class round uses the store).
CLASS_SERVER_ENV_VAR = "TYPHOON_EDU_CLASS_SERVER"
#: Set to "1" by ``typhoon-edu lessons --voila`` only: one person's own lessons, served on this computer (localhost).
LESSONS_SERVER_ENV_VAR = "TYPHOON_EDU_LESSONS_SERVER"

#: Set by the class server (:mod:`typhoon_edu.server.query_socket`) and inherited by its kernels: the key a preheated
#: kernel shows (in :data:`QUERY_KEY_HEADER`) to be told its page's request; no page ever sees it.
QUERY_KEY_ENV_VAR = "TYPHOON_EDU_QUERY_KEY"
QUERY_KEY_HEADER = "X-Typhoon-Query-Key"

_PREHEAT_ENV_VAR = "VOILA_PREHEAT"
#: Seconds to open the websocket to Voilà (as Voilà's own helper); the wait for the request itself has no limit.
_OPEN_TIMEOUT = 5.0
_log = logging.getLogger(__name__)

#: This kernel's own id, for a page on the class server whose query has no device id (never the case with
#: ``typhoon-edu serve``, which always adds one): what it keeps is then this kernel's, never another device's.
_KERNEL_DEVICE = "kernel-" + secrets.token_urlsafe(16)


def parse_query(raw: str) -> dict[str, str]:
    """A query string (``a=1&b=2``, with or without the leading ``?``) as ``{name: value}``.

    Values are percent-decoded; a name given twice keeps its first value; a name without ``=``
    maps to ``""``.

    >>> parse_query("?join=K7PM&empty&x=%E9%A2%B1%E9%A2%A8")
    {'join': 'K7PM', 'empty': '', 'x': '颱風'}
    >>> parse_query("")
    {}
    """
    pairs = parse_qsl(raw.lstrip("?"), keep_blank_values=True)
    result: dict[str, str] = {}
    for name, value in pairs:
        result.setdefault(name, value)
    return result


def page_query(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The query string of the URL this page was opened with, as ``{name: value}``.

    * Voilà, kernel started for the request: read from the environment at once.
    * Voilà, **preheated** kernel: waits until the page is requested, then returns its query (and
      every later call returns the same at once).
    * Plain Jupyter (or any kernel Voilà did not start): ``{}``.

    ``environ`` replaces ``os.environ`` (tests): a preheated kernel's request is written into it
    when it can be written to, else into ``os.environ``.

    >>> page_query({"QUERY_STRING": "seat=abc"})
    {'seat': 'abc'}
    >>> page_query({})
    {}
    """
    env = os.environ if environ is None else environ
    raw = env.get(QUERY_ENV_VAR)
    if raw is None and env.get(_PREHEAT_ENV_VAR) == "True":
        wait_for_voila_request(env if isinstance(env, MutableMapping) else None)  # blocks until the page's request
        raw = env.get(QUERY_ENV_VAR)
    return parse_query(raw or "")


def voila_query_url(environ: Mapping[str, str]) -> str:
    """The websocket on which Voilà sends a preheated kernel its request (from the variables Voilà gives the kernel).

    >>> voila_query_url({"VOILA_APP_PORT": "8866", "VOILA_KERNEL_ID": "k1"})
    'ws://127.0.0.1:8866/voila/query/k1'
    >>> voila_query_url({"VOILA_APP_IP": "::1", "VOILA_APP_PORT": "9000", "VOILA_SERVER_URL": "/class/",
    ...                  "VOILA_KERNEL_ID": "k2"})
    'ws://[::1]:9000/class/voila/query/k2'
    """
    host = environ.get("VOILA_APP_IP", "127.0.0.1")
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    base = environ.get("VOILA_WS_BASE_URL", environ.get("VOILA_SERVER_URL", "/"))
    return (f"{environ.get('VOILA_WS_PROTOCOL', 'ws')}://{host}:{environ.get('VOILA_APP_PORT', '8866')}{base}"
            f"voila/query/{environ.get('VOILA_KERNEL_ID', '')}")


def wait_for_voila_request(environ: MutableMapping[str, str] | None = None) -> bool:
    """In a preheated Voilà kernel, wait for the page request that takes it and put its variables into ``environ``.

    ``environ`` is ``os.environ`` unless given. Returns whether the request came. Voilà's own helper
    (``voila.utils.wait_for_request``) does the same, but importing it costs a kernel more CPU than
    everything else it does before its page (module docstring). When the server cannot be reached,
    this says so in the log and returns False, as Voilà's helper warns and goes on: the page then
    gets an empty query (the projector page, never a seat).

    >>> wait_for_voila_request({"VOILA_PREHEAT": "False"})  # not a preheated kernel: nothing to wait for
    False
    """
    env = os.environ if environ is None else environ
    if env.get(_PREHEAT_ENV_VAR) != "True":
        return False
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    url = voila_query_url(env)
    key = env.get(QUERY_KEY_ENV_VAR)
    try:
        with connect(url, open_timeout=_OPEN_TIMEOUT,
                     additional_headers={QUERY_KEY_HEADER: key} if key else None) as websocket:
            message = websocket.recv()
        request = json.loads(message)
    except (OSError, TimeoutError, WebSocketException, ValueError) as exc:
        _log.warning("this preheated kernel got no page request from %s (%s: %s)", url, type(exc).__name__, exc)
        return False
    if not isinstance(request, dict):
        _log.warning("this preheated kernel got a page request that is not a JSON object from %s", url)
        return False
    for name, value in request.items():
        env[str(name)] = str(value)
    return True


def public_url(environ: Mapping[str, str] | None = None) -> str | None:
    """The address students type to reach this server (ends with ``/``), if ``typhoon-edu serve`` said.

    With ``serve --lan`` it is this machine's LAN address (``http://192.168.1.23:8866/``); without
    it, the ``localhost`` URL, which only this computer can open. ``None`` when the notebook is not
    served by ``typhoon-edu serve`` (Jupyter, Binder).

    >>> public_url({"TYPHOON_EDU_PUBLIC_URL": "http://10.0.0.7:8866/"})
    'http://10.0.0.7:8866/'
    >>> public_url({}) is None
    True
    """
    env = os.environ if environ is None else environ
    return env.get(PUBLIC_URL_ENV_VAR) or None


def on_class_server(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this kernel runs on the class server (``typhoon-edu serve`` says so in the environment): one server,
    a kernel per page, every student's device a page of it.

    >>> on_class_server({CLASS_SERVER_ENV_VAR: "1"}), on_class_server({})
    (True, False)
    """
    env = os.environ if environ is None else environ
    return env.get(CLASS_SERVER_ENV_VAR) == "1"


def on_lessons_server(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this kernel serves the person's own lessons (``typhoon-edu lessons --voila`` says so): one person on
    this computer, who is its teacher there as in JupyterLab (lesson 04's game needs no teacher's key).

    >>> on_lessons_server({LESSONS_SERVER_ENV_VAR: "1"}), on_lessons_server({CLASS_SERVER_ENV_VAR: "1"})
    (True, False)
    """
    env = os.environ if environ is None else environ
    return env.get(LESSONS_SERVER_ENV_VAR) == "1" and env.get(CLASS_SERVER_ENV_VAR) != "1"


def page_device(environ: Mapping[str, str] | None = None) -> str | None:
    """On the class server, the id of the device (browser) this page was opened on; ``None`` elsewhere.

    The id is the server's ``device`` name in the page's query, from the browser's HttpOnly ``typhoon_device``
    cookie (:mod:`typhoon_edu.server.page_query`): a browser cannot put one of its own there. A page on the class
    server without a well-formed one gets this kernel's own id, so what it keeps is its own. In JupyterLab or
    Binder (``None``) each student has a kernel of their own. In a preheated Voilà kernel this waits for the
    page's request, like :func:`page_query`.

    >>> page_device({CLASS_SERVER_ENV_VAR: "1", "QUERY_STRING": "device=" + "d" * 22})
    'dddddddddddddddddddddd'
    >>> page_device({"QUERY_STRING": "device=" + "d" * 22}) is None
    True
    >>> page_device({CLASS_SERVER_ENV_VAR: "1", "QUERY_STRING": "device=x"}) == page_device({CLASS_SERVER_ENV_VAR: "1"})
    True
    """
    if not on_class_server(environ):
        return None
    from ..server.page_query import plausible_device

    device = page_query(environ).get("device")
    return device if device is not None and plausible_device(device) else _KERNEL_DEVICE
