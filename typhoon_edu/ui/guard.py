"""Widget callbacks that never fail silently.

ipywidgets runs a button's handlers through its ``CallbackDispatcher``, which sends a traceback to
the kernel's output; in Voilà nobody sees it, and an ``observe`` handler's exception only reaches
the server log as "Error in message handler". So every callback of typhoon-edu is registered
through a :class:`Problems` area: it runs the callback, and if the callback raises, the person sees
what went wrong in their language (the area shows it), and the log gets the traceback.

>>> import ipywidgets as widgets
>>> problems = Problems(lambda: "en")
>>> button = widgets.Button()
>>> problems.on_click(button, lambda _b: 1 / 0)
>>> button.click()  # the exception does not escape the callback ...
>>> problems.message  # ... it is shown to the person, in their language
'Something went wrong: division by zero. Please try again; if it happens again, tell your teacher.'
>>> problems.clear(); problems.message
''
"""

from __future__ import annotations

import functools
import html
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets

from .. import i18n

log = logging.getLogger("typhoon_edu.ui")

F = TypeVar("F", bound=Callable[..., Any])

#: Errors the person can act on (an illegal move, a bad save file): told plainly, without "went wrong".
_EXPECTED = ("IllegalActionError", "SaveFileError", "SetupError", "GameInputError", "ClassroomError")


#: Among those, the ones that say the system failed (the room store cannot be reached or written, a room no longer
#: replays), not that the person asked for something not allowed: whoever runs the server must hear of them.
_SYSTEM = ("StoreError", "RoomBroken")


def _expected(exc: BaseException) -> bool:
    return any(c.__name__ in _EXPECTED for c in type(exc).__mro__)


def is_system_failure(exc: BaseException) -> bool:
    """Whether ``exc`` is the system failing (the room store, a broken room) rather than a refused request.

    >>> from typhoon_edu.classroom.errors import StoreError
    >>> from typhoon_edu.engine.rules import IllegalActionError
    >>> is_system_failure(StoreError("disk I/O error")), is_system_failure(IllegalActionError("no storm there"))
    (True, False)
    """
    return any(c.__name__ in _SYSTEM for c in type(exc).__mro__)


def log_refusal(exc: BaseException, where: str) -> None:
    """Log a failure a view has told its person: a refused request at INFO, a system failure as a WARNING with its
    traceback (a read-only database or a full disk is the operator's to mend, not a refused move)."""
    if is_system_failure(exc):
        log.warning("the room store failed in %s: %s", where, exc, exc_info=(type(exc), exc, exc.__traceback__))
    else:
        log.info("refused in %s: %s", where, exc)


def describe(exc: BaseException, lang: str) -> str:
    """The sentence a person reads for ``exc``, in ``lang``.

    Engine errors that carry a ``kind`` use their catalog sentence; an unexpected error says that
    something went wrong, what, and that nothing was changed.

    >>> describe(ZeroDivisionError("division by zero"), "zh-TW")
    '發生錯誤：division by zero。請再試一次；如果又發生，請告訴老師。'
    >>> from typhoon_edu.engine.rules import IllegalActionError
    >>> describe(IllegalActionError("no storm there"), "en")
    'no storm there'
    """
    if _expected(exc):
        text = getattr(exc, "text", None)  # the room store's errors say themselves in any language
        return str(text(lang)) if callable(text) else i18n.error_text(exc, lang)
    detail = str(exc) or type(exc).__name__
    return i18n.t("ui.error.unexpected", lang, detail=detail)


class Problems:
    """A view's place to tell its person that a callback failed; also registers guarded callbacks.

    ``lang`` is a function giving the person's current language (views switch language at run
    time). ``widget`` is the HTML line to put in the view; it is hidden while there is nothing to
    say. ``on_error`` (optional) runs after a failure is shown, so a view can redraw itself from
    the game and stay consistent with it.
    """

    def __init__(self, lang: Callable[[], str], on_error: Callable[[BaseException], None] | None = None) -> None:
        self._lang = lang
        self.on_error = on_error
        self.message = ""
        self.widget = widgets.HTML(layout=widgets.Layout(display="none"))
        self.widget.add_class("typhoon-problem")

    @property
    def lang(self) -> str:
        """The person's language now."""
        return self._lang()

    # ------------------------------------------------------------------ showing
    def report(self, exc: BaseException, where: str = "") -> str:
        """Show ``exc`` to the person and log it with its traceback; returns the sentence shown."""
        text = describe(exc, self._lang())
        if _expected(exc):
            log_refusal(exc, where or "a callback")
        else:
            log.error("a callback failed in %s", where or "a view", exc_info=(type(exc), exc, exc.__traceback__))
        self.show(text)
        if self.on_error is not None:
            try:
                self.on_error(exc)
            except Exception:  # the redraw after a failure must not hide the first failure
                log.exception("redrawing after a failure failed too")
        return text

    def show(self, text: str) -> None:
        """Show a sentence (already in the person's language)."""
        self.message = text
        self.widget.value = f'<div role="alert" class="typhoon-problem-text">⚠ {html.escape(text)}</div>'
        self.widget.layout.display = None

    def clear(self) -> None:
        self.message = ""
        self.widget.value = ""
        self.widget.layout.display = "none"

    # ------------------------------------------------------------------ guarding
    def guard(self, fn: F, where: str = "") -> F:
        """``fn`` wrapped so that an exception is reported here instead of escaping."""
        name = where or getattr(fn, "__qualname__", "a callback")

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                self.report(exc, name)
                return None

        return run  # type: ignore[return-value]

    def on_click(self, button: widgets.Button, fn: Callable[[widgets.Button], Any], where: str = "") -> None:
        """``button.on_click(fn)``, guarded."""
        button.on_click(self.guard(fn, where))

    def observe(self, widget: widgets.Widget, fn: Callable[[dict[str, Any]], Any], names: str = "value",
                where: str = "") -> None:
        """``widget.observe(fn, names)``, guarded."""
        widget.observe(self.guard(fn, where), names=names)

    def on_mouse_down(self, canvas: Any, fn: Callable[[float, float], Any], where: str = "") -> None:
        """``canvas.on_mouse_down(fn)`` (ipycanvas), guarded."""
        canvas.on_mouse_down(self.guard(fn, where))

    def on_client_ready(self, canvas: Any, fn: Callable[[], Any], where: str = "") -> None:
        """``canvas.on_client_ready(fn)`` (ipycanvas), guarded."""
        canvas.on_client_ready(self.guard(fn, where))
