"""A kernel websocket frame over the size limit: a close frame the client receives (1009) and one log line.

Tornado refuses a frame larger than ``websocket_max_message_size`` (10 MiB) as soon as it has read
the frame's length: it writes a close frame (1009, "message too big") and at once tears the
connection down, with the rest of the frame still arriving. The client then meets a reset instead
of the close frame (the red team's 20 MB widget update: "no close frame received or sent"), and
the server logs nothing. :class:`SizeLimitedProtocol` keeps tornado's limit and its close frame, says
it in one log line, and reads and drops what the client still sends (the rest of the frame and
its own close frame) for at most :data:`DRAIN_SECONDS` and :data:`DRAIN_BYTES`, until the client has
been quiet for :data:`DRAIN_IDLE` s, so the close frame reaches the client before the connection
ends. Nothing of the oversized frame is kept.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from tornado.iostream import StreamClosedError
from tornado.websocket import WebSocketHandler, WebSocketProtocol13

__all__ = ["DRAIN_BYTES", "DRAIN_CHUNK", "DRAIN_IDLE", "DRAIN_SECONDS", "TOO_BIG", "SizeLimitedProtocol",
           "size_limited"]

log = logging.getLogger(__name__)

#: The close code of a message too big to take (RFC 6455 §7.4.1).
TOO_BIG = 1009

#: The most bytes read and dropped after the close frame (the rest of an oversized frame, then the client's close).
DRAIN_BYTES = 64 * 1024 * 1024

#: Bytes read at a time while dropping.
DRAIN_CHUNK = 64 * 1024

#: The longest the server reads and drops after the close frame (tornado's own wait for the client's close is 5 s).
DRAIN_SECONDS = 5.0

#: Seconds without a byte from the client after which it has sent all it will (its close frame, then it waits for ours).
DRAIN_IDLE = 1.0


class SizeLimitedProtocol(WebSocketProtocol13):
    """Tornado's websocket protocol, but a frame over the size limit ends the connection with a close frame that
    arrives (see the module's docstring)."""

    _too_big = False
    _draining = False
    _drain_task: asyncio.Future[None] | None = None

    def close(self, code: int | None = None, reason: str | None = None) -> None:
        if code == TOO_BIG and not self.server_terminated and not self._too_big:
            self._too_big = True
            handler: Any = self.handler
            request = getattr(handler, "request", None)
            log.warning("Closed a kernel websocket from %s: a message over the %s-byte limit (%s)",
                        getattr(request, "remote_ip", "?"), self.params.max_message_size, TOO_BIG)
        super().close(code, reason)

    def _abort(self) -> None:
        if self._too_big and self.stream is not None and not self.stream.closed():
            # Every abort meanwhile (tornado's own right after the close frame, the handler's on_close) waits for the
            # drain, which ends the connection within DRAIN_SECONDS.
            if not self._draining:
                self._draining = True
                self.client_terminated = True  # no more frames are read: the receive loop ends, on_close runs
                self._drain_task = asyncio.ensure_future(self._drain())
            return
        super()._abort()

    async def _drain(self) -> None:
        """Read and drop what the client still sends, within bounds, then end the connection."""
        stream = self.stream
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DRAIN_SECONDS
        dropped = 0
        try:
            while stream is not None and dropped < DRAIN_BYTES and (left := deadline - loop.time()) > 0:
                chunk = await asyncio.wait_for(stream.read_bytes(DRAIN_CHUNK, partial=True), timeout=min(left, DRAIN_IDLE))
                dropped += len(chunk)
        except (StreamClosedError, asyncio.TimeoutError):
            pass
        finally:
            self._too_big = False
            super()._abort()


def size_limited(handler: WebSocketHandler, protocol: Any) -> Any:
    """``protocol`` (what tornado's ``get_websocket_protocol`` made for ``handler``) as a :class:`SizeLimitedProtocol`
    with the same settings; any other protocol as it is."""
    if type(protocol) is WebSocketProtocol13:
        return SizeLimitedProtocol(handler, protocol.mask_outgoing, protocol.params)
    return protocol
