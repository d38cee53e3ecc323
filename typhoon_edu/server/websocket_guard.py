"""A guard in front of the kernel websocket's frame parsers (jupyter_server 2.x and Voilà 0.5).

The v1 kernel websocket protocol (``v1.kernel.websocket.jupyter.org``) sends one binary frame per
message: an 8-byte little-endian count ``n``, then ``n`` 8-byte little-endian offsets, then the
parts (channel, header, parent header, metadata, content, buffers) that the offsets delimit.

Both parsers trust the count. jupyter_server's ``deserialize_msg_from_ws_v1`` builds a Python list
of ``n`` offsets before it looks at anything else, so the 8 bytes ``ff ff ff ff ff ff ff ff``
from any browser that can open a page make the server build a list of 2**64 integers: it grows
by about 1 GB in 5 s and answers nothing else (measured, see docs/security.md). Voilà's
``read_header_from_binary_message`` (which reads every frame the server *sends*) has the same
loop; without the v1 subprotocol the kernel's binary replies reach it in the legacy format,
whose first bytes it then misreads as a huge count.

:func:`v1_frame_problem` checks a frame in O(1) memory and time proportional to the count it
accepts (the count can be at most ``len(frame) / 8``), so a frame the parsers could choke on is
refused before they see it. :func:`v1_message_problem` also reads what the server itself parses
of a sound frame, its channel and header (jupyter_server's ``handle_incoming_message``: a header
nested 100,000 levels deep raised ``RecursionError`` there, offsets that cut the JSON in the
wrong place ``JSONDecodeError``, both uncaught: a traceback and a connection dropped without a
close code). :class:`GuardedKernelWebsocketHandler` (in :mod:`typhoon_edu.server.voila_app`)
uses it: a kernel websocket that does not offer the v1 subprotocol is refused at the handshake, a
text frame or a frame either check refuses closes the socket (1008) with one log line.

>>> frame = v1_frame([b'{"msg_type": "comm_msg"}', b"{}", b"{}", b"{}"], "shell")
>>> v1_frame_problem(frame) is None
True
>>> v1_frame_problem(b"\\xff" * 8)
'the frame declares 18446744073709551615 offsets but its 8 bytes hold at most 0'
"""

from __future__ import annotations

import json
from collections.abc import Sequence

__all__ = ["KERNEL_WS_PROTOCOL", "MAX_HEADER_BYTES", "MIN_PARTS", "offers_v1", "v1_frame", "v1_frame_parts",
           "v1_frame_problem", "v1_message_problem"]

#: The only kernel websocket subprotocol the server accepts.
KERNEL_WS_PROTOCOL = "v1.kernel.websocket.jupyter.org"

#: Parts a Jupyter message has at least: channel, header, parent header, metadata, content.
MIN_PARTS = 5

#: The most bytes a message's header may have (the page's are about 200): the server parses it on its event loop.
MAX_HEADER_BYTES = 64 * 1024

_WORD = 8


def _word(frame: bytes, index: int) -> int:
    return int.from_bytes(frame[_WORD * index : _WORD * (index + 1)], "little")


def v1_frame_problem(frame: bytes | bytearray | memoryview | str) -> str | None:
    """What is wrong with a v1 kernel websocket frame, or ``None`` if its layout is sound.

    Sound means: binary; the declared count of offsets fits in the frame (8 bytes each); there
    are at least :data:`MIN_PARTS` parts (``count - 1``); the first offset points just past the
    offset table, every offset is at most the frame's length and none goes backwards. The parts'
    *contents* (JSON, UTF-8) are left to jupyter_server, which reports those errors itself.

    >>> v1_frame_problem("{}")
    'a text frame on a v1 kernel websocket (only binary frames are allowed)'
    >>> v1_frame_problem(b"\\x01")
    'the frame has 1 bytes, fewer than the 8 of its count'
    >>> bad = bytearray(v1_frame([b"{}"] * 4, "shell")); bad[16:24] = (10**9).to_bytes(8, "little")
    >>> v1_frame_problem(bytes(bad))
    'offset 1 is 1000000000, past the end of the 69-byte frame'
    """
    if isinstance(frame, str):
        return "a text frame on a v1 kernel websocket (only binary frames are allowed)"
    data = bytes(frame) if isinstance(frame, memoryview) else frame
    size = len(data)
    if size < _WORD:
        return f"the frame has {size} bytes, fewer than the {_WORD} of its count"
    count = _word(data, 0)
    room = size // _WORD - 1
    if count > room:
        return f"the frame declares {count} offsets but its {size} bytes hold at most {room}"
    if count - 1 < MIN_PARTS:
        return f"the frame has {max(count - 1, 0)} parts, fewer than the {MIN_PARTS} of a message"
    table_end = _WORD * (count + 1)
    previous = table_end
    for index in range(count):
        offset = _word(data, index + 1)
        if offset > size:
            return f"offset {index} is {offset}, past the end of the {size}-byte frame"
        if index == 0 and offset != table_end:
            return f"offset 0 is {offset}, not {table_end} (the end of the offset table)"
        if offset < previous:
            return f"offset {index} is {offset}, before offset {index - 1} ({previous})"
        previous = offset
    return None


def v1_message_problem(frame: bytes | bytearray | memoryview | str) -> str | None:
    """What the server cannot read in a v1 kernel websocket frame, or ``None``: its layout
    (:func:`v1_frame_problem`), then the two parts the server parses itself: the channel (UTF-8)
    and the header (at most :data:`MAX_HEADER_BYTES`, JSON as jupyter_client's unpacker reads it,
    an object with a string ``msg_type``). Parent header, metadata and content go to the kernel as
    they are; the kernel reports their errors itself.

    >>> v1_message_problem(v1_frame([b'{"msg_type": "comm_msg"}', b"{}", b"{}", b"{}"], "shell")) is None
    True
    >>> v1_message_problem(v1_frame([b"[" * 10_000 + b"]" * 10_000, b"{}", b"{}", b"{}"], "shell"))
    "the header's JSON is nested too deeply"
    >>> v1_message_problem(v1_frame([b'{"msg_type": ', b'"x"}', b"{}", b"{}"], "shell"))
    'the header is not JSON (Expecting value: line 1 column 14 (char 13))'
    >>> v1_message_problem(v1_frame([b'["msg_type"]', b"{}", b"{}", b"{}"], "shell"))
    'the header is not a JSON object with a msg_type'
    """
    problem = v1_frame_problem(frame)
    if problem is not None:
        return problem
    data = bytes(frame)  # a str was refused above
    start, middle, end = _word(data, 1), _word(data, 2), _word(data, 3)
    try:
        data[start:middle].decode("utf-8")
    except UnicodeDecodeError:
        return "the channel is not UTF-8 text"
    header = data[middle:end]
    if len(header) > MAX_HEADER_BYTES:
        return f"the header has {len(header)} bytes, more than {MAX_HEADER_BYTES}"
    try:
        value = json.loads(header)
    except RecursionError:
        return "the header's JSON is nested too deeply"
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        return f"the header is not JSON ({str(exc)[:80]})"
    if not isinstance(value, dict) or not isinstance(value.get("msg_type"), str):
        return "the header is not a JSON object with a msg_type"
    return None


def v1_frame_parts(frame: bytes) -> list[bytes]:
    """The parts of a sound frame (channel first), for tests and for reading a reply's header.

    >>> v1_frame_parts(v1_frame([b"h", b"p", b"m", b"c"], "iopub"))
    [b'iopub', b'h', b'p', b'm', b'c']
    """
    problem = v1_frame_problem(frame)
    if problem is not None:
        raise ValueError(problem)
    count = _word(frame, 0)
    offsets = [_word(frame, i + 1) for i in range(count)]
    return [frame[offsets[i] : offsets[i + 1]] for i in range(count - 1)]


def v1_frame(parts: Sequence[bytes], channel: str) -> bytes:
    """A v1 frame holding ``parts`` (header, parent header, metadata, content, buffers…) on ``channel``.

    The same layout as jupyter_server's ``serialize_msg_to_ws_v1``.

    >>> len(v1_frame([b"{}"] * 4, "shell"))
    69
    """
    pieces = [channel.encode("utf-8"), *parts]
    offsets = [_WORD * (len(pieces) + 2)]
    for piece in pieces:
        offsets.append(offsets[-1] + len(piece))
    head = len(offsets).to_bytes(_WORD, "little") + b"".join(o.to_bytes(_WORD, "little") for o in offsets)
    return head + b"".join(pieces)


def offers_v1(header: str | None) -> bool:
    """Whether a ``Sec-WebSocket-Protocol`` request header offers the v1 kernel protocol.

    >>> offers_v1("v1.kernel.websocket.jupyter.org"), offers_v1("foo, v1.kernel.websocket.jupyter.org")
    (True, True)
    >>> offers_v1(None), offers_v1("")
    (False, False)
    """
    if not header:
        return False
    return KERNEL_WS_PROTOCOL in (item.strip() for item in header.split(","))
