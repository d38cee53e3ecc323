"""Which of a custom widget's traits the page may set: every other write from the browser is ignored.

A page can send its kernel any widget message, a student's device included, so a trait the
kernel acts on must not be writable from the page unless the page is meant to write it. The
class-play heartbeat (:class:`~typhoon_edu.ui.classplay.pagelink.PageLink`) sleeps ``interval``
seconds between beats: one ``update`` message setting it to 0 made a seat's kernel send about
5,400 messages a second, and the server buffered them for a gone page (hundreds of MB a minute).
Each of the project's anywidgets therefore names the traits its page sets (``page_may_set``,
often none); :class:`PageMaySet` drops the rest and says so in the kernel's log.

>>> import anywidget, traitlets
>>> class Switch(PageMaySet, anywidget.AnyWidget):
...     page_may_set = frozenset({"on"})
...     on = traitlets.Bool(False).tag(sync=True)
...     every = traitlets.Float(1.0).tag(sync=True)
>>> w = Switch()
>>> w.set_state({"on": True, "every": 0.0})  # as a comm "update" from the page
>>> w.on, w.every
(True, 1.0)
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

log = logging.getLogger("typhoon_edu.ui")

__all__ = ["PageMaySet"]


class PageMaySet:
    """A mixin (before the widget class): the page may set only the traits in ``page_may_set``."""

    page_may_set: ClassVar[frozenset[str]] = frozenset()

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """A state update from the page (ipywidgets calls this for the browser's writes only)."""
        refused = sorted(name for name in sync_data if name not in self.page_may_set)
        if refused:
            log.warning("%s: the page may not set %s; ignored", type(self).__name__, ", ".join(refused))
            sync_data = {name: value for name, value in sync_data.items() if name in self.page_may_set}
        if sync_data:
            super().set_state(sync_data)  # type: ignore[misc]
