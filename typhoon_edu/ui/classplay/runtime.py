"""What every class-play page shares at run time: the poll interval, the event loop, the store, error text.

The pages (:mod:`.projector`, :mod:`.seat`, :mod:`.join`) and the screens import these from here,
not from each other, so no screen needs the projector's app to run.

>>> POLL
0.2
>>> _running_loop() is None  # a plain call, outside any event loop
True
>>> _error_text(ValueError("no such seat"), "en")
'no such seat'
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from ... import i18n

log = logging.getLogger(__name__)

#: Seconds between two reads of the store (every open view shows a change within a second).
POLL = 0.2


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop (Voilà's kernel), or None in a script or test."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _open_store(store: Any) -> Any:
    """``store``, or the computer's own store (``$TYPHOON_EDU_DB`` or the SQLite file), whose seat links
    are derived from the computer's secret."""
    if store is not None:
        return store
    from ...classroom.links import load_link_secret
    from ...classroom.store import RoomStore

    opened = RoomStore()
    try:
        opened.link_secret = load_link_secret()
    except OSError as exc:  # an unwritable config folder: links then last as long as this kernel
        log.warning("the seat links' secret cannot be kept (%s); a reopened projector will need new join links", exc)
    return opened


def _error_text(exc: BaseException, lang: str) -> str:
    """An exception as a sentence in ``lang`` (a classroom error's own text, else the catalog's)."""
    text = getattr(exc, "text", None)
    if callable(text):
        return str(text(lang))
    return i18n.error_text(exc, lang)


def refusal_words(exc: BaseException) -> Callable[[str], str]:
    """What a page says when ``exc`` stopped a person's move, undo or setting, in every language (a function of the
    language; nothing is logged, so a page may say it again after a switch of language): a refused request is
    "Not possible: …", a store that failed says so itself.

    >>> words = refusal_words(ValueError("no storm there"))
    >>> words("en")
    'Not possible: no storm there'
    >>> from typhoon_edu.classroom.errors import StoreError
    >>> refusal_words(StoreError("disk I/O error"))("en").startswith("Not possible")
    False
    """
    from ..guard import is_system_failure
    from .viewdata import d

    failed = is_system_failure(exc)

    def words(lang: str) -> str:
        text = _error_text(exc, lang)
        return text if failed else d("error.illegal", lang, error=text)

    return words


def refused(exc: BaseException, where: str) -> Callable[[str], str]:
    """A refusal as it happens: logged once (a store failure as a warning with its traceback), and its words in every
    language (:func:`refusal_words`) for the page's message line.

    >>> refused(ValueError("no storm there"), "decide")("zh-TW").startswith("不能這樣做")
    True
    """
    from ..guard import log_refusal

    log_refusal(exc, where)
    return refusal_words(exc)


def refusal(exc: BaseException, lang: str, where: str) -> str:
    """:func:`refused`, said in ``lang`` (logged once per call: a page that says it again in another language uses
    :func:`refusal_words`).

    >>> refusal(ValueError("no storm there"), "en", "decide")
    'Not possible: no storm there'
    """
    return refused(exc, where)(lang)


running_loop, open_store, error_text = _running_loop, _open_store, _error_text

__all__ = ["POLL", "error_text", "open_store", "refusal", "refusal_words", "refused", "running_loop"]
