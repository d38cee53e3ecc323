"""The page's own address, changed without a reload: after joining by code, the seat's link.

A team that joined by typing the room code has a device token the page's address does not hold;
a reload (a phone locking, a tab restored) would open the join page again. This tiny front-end
piece (an anywidget: an ES module in a string, no build step) puts the seat's link into the
address bar with ``history.replaceState``, so a reload opens the seat, and the device binding
(:meth:`~typhoon_edu.classroom.rooms.Room.open_seat`) gives it back to this device only.

>>> a = PageAddress()
>>> a.show_seat("Ab3_x-9")
>>> a.query
'seat=Ab3_x-9'
"""

from __future__ import annotations

from urllib.parse import urlencode

import anywidget
import traitlets

from ..page_writes import PageMaySet

__all__ = ["PageAddress"]

_ESM = r"""
function apply(model) {
  const q = model.get("query");
  if (!q) return;
  // /join and /join/<CODE> become the server's root: the seat's link is "<root>?seat=<token>".
  const path = window.location.pathname.replace(/\/join(\/[^/]*)?\/?$/, "/");
  const params = new URLSearchParams(q);
  const now = new URLSearchParams(window.location.search);
  for (const keep of ["lang", "device", "speed"]) {  // what else the page was opened with stays
    if (now.has(keep) && !params.has(keep)) params.set(keep, now.get(keep));
  }
  const want = path + "?" + params.toString();
  if (window.location.pathname + window.location.search !== want) {
    window.history.replaceState(window.history.state, "", want);
  }
}
function render({ model, el }) {
  el.style.display = "none";
  el.classList.add("typhoon-page-address");
  apply(model);
  model.on("change:query", () => apply(model));
}
export default { render };
"""


class PageAddress(PageMaySet, anywidget.AnyWidget):
    """An invisible widget that sets the query of the page's address (``query``: ``seat=…``)."""

    _esm = _ESM
    query = traitlets.Unicode("").tag(sync=True)

    def show_seat(self, token: str) -> None:
        """Make the address the seat's own link (``?seat=<token>``)."""
        self.query = urlencode({"seat": token})
