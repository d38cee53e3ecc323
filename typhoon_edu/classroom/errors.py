"""The errors of the room store and of room logic, each with a ``kind`` a view translates.

Every error here is a :class:`ClassroomError`; its English text is the exception's message
(for logs), and :func:`error_text` gives the sentence for a person in their language from the
catalogs ``typhoon_edu/data/i18n/<lang>.classroom.toml`` (key ``classroom.error.<kind>``).

>>> e = StaleWrite(expected_seq=5, current_seq=6)
>>> e.kind, e.current_seq
('stale', 6)
>>> error_text(e, "en")
'Someone else moved first. The board now shows their move; decide again.'
>>> error_text(StoreError("disk full", kind="disk_full", what="save the move"), "zh-TW")
'儲存空間已滿。這一步沒有存下來。請清出空間後再試。'

A store that failed names what was not saved (the ``what`` the store gives its transaction, :data:`UNSAVED`):

>>> error_text(StoreError("database is locked", kind="locked", what="pause the game"), "en")
'The game database is busy (another program has held it too long). The pause was not saved: the game goes on. Try again in a moment.'
"""

from __future__ import annotations

from typing import Any

#: kind → the error class that uses it (tests check every kind has a text in both languages)
KINDS: dict[str, str] = {
    # StoreError: the database refused or failed (nothing was half-written)
    "read_only": "StoreError",
    "locked": "StoreError",
    "disk_full": "StoreError",
    "unavailable": "StoreError",
    "corrupt": "StoreError",
    "io": "StoreError",
    "schema": "StoreError",
    # StaleWrite
    "stale": "StaleWrite",
    # RoomNotFound
    "not_found": "RoomNotFound",
    "bad_code": "RoomNotFound",
    "round_unknown": "RoomNotFound",
    # TokenRejected
    "token_unknown": "TokenRejected",
    "token_revoked": "TokenRejected",
    "token_other_room": "TokenRejected",
    "room_over": "TokenRejected",
    "device_bound": "TokenRejected",
    "handover_unknown": "TokenRejected",
    # NotAllowed
    "not_your_turn": "NotAllowed",
    "hints_off": "NotAllowed",
    "teacher_only": "NotAllowed",
    "bot_seat": "NotAllowed",
    "auto_dice": "NotAllowed",
    "paused": "NotAllowed",
    "game_over": "NotAllowed",
    "seat_changed": "NotAllowed",
    "not_your_room": "NotAllowed",
    "round_closed": "NotAllowed",
    "team_taken": "NotAllowed",
    "not_started": "NotAllowed",
    "no_rematch": "NotAllowed",
    "game_not_over": "NotAllowed",
    # SeatError
    "no_such_seat": "SeatError",
    "seat_taken": "SeatError",
    "bad_kind": "SeatError",
    "bad_seats": "SeatError",
    "no_devices": "SeatError",
    "device_has_seat": "SeatError",
    # RoomBroken
    "setup": "RoomBroken",
    "replay": "RoomBroken",
    "rules": "RoomBroken",
}


#: What a write of the room store was for (the ``what`` of its transaction, :meth:`.store.RoomStore.transaction`)
#: → the catalog key ``classroom.unsaved.<key>`` of the sentence naming what was not saved; any other write (or a
#: read, or opening the store) says that nothing was saved.
UNSAVED: dict[str, str] = {
    "save the move": "move",
    "save the die roll": "die",
    "save the undo": "undo",
    "save the corrected die": "correct_die",
    "pause the game": "pause",
    "resume the game": "resume",
    "start the game": "start",
    "end the game": "end",
    "change the hints": "hints",
    "set the turn timer": "timer",
    "change the speed": "speed",
    "change the language": "language",
    "change the seat": "seat",
    "give the seat to this device": "join",
    "note the device": "join",
    "create the room": "new_game",
    "delete the room": "delete",
    "make a hand-over link": "handover_link",
    "hand the room over": "handover",
    "keep the team's answer": "answer",
    "open a lesson round": "round",
    "close the lesson round's stage": "reveal",
    "move the lesson round on": "stage",
}


class ClassroomError(Exception):
    """Base of every room-store and room error. ``kind`` names the case for a translated message."""

    default_kind = "io"

    def __init__(self, message: str, *, kind: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.kind = kind or self.default_kind
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:  # survives pickling (errors cross process boundaries in tests)
        return (_rebuild, (type(self), str(self), self.kind, self.params))

    def text(self, lang: str = "en") -> str:
        """This error as a sentence for a person, in ``lang``."""
        return error_text(self, lang)


def _rebuild(cls: type, message: str, kind: str, params: dict[str, Any]) -> ClassroomError:
    err = cls.__new__(cls)
    ClassroomError.__init__(err, message, kind=kind, **params)
    for key, value in params.items():
        setattr(err, key, value)
    return err


class StoreError(ClassroomError):
    """The database failed or refused a read or write; a failed write changed nothing.

    ``kind``: ``read_only`` (file or database is read-only, or no permission), ``locked`` (another
    writer held the database past the busy timeout), ``disk_full``, ``unavailable`` (cannot open or
    reach the database), ``corrupt`` (not a database / damaged file), ``schema`` (made by a newer
    version of this program), ``io`` (any other failure).
    """


class StaleWrite(ClassroomError):
    """Someone else moved first: the writer expected ``expected_seq`` but the log is at ``current_seq``.

    Nothing was written; the room has caught up, so the view shows the other move and the person
    decides again.
    """

    default_kind = "stale"

    def __init__(self, message: str = "", *, expected_seq: int, current_seq: int, kind: str | None = None) -> None:
        super().__init__(message or f"someone else moved first: this was to be entry #{expected_seq} of the log, "
                         f"which already holds entries up to #{current_seq}",
                         kind=kind, expected_seq=expected_seq, current_seq=current_seq)
        self.expected_seq = expected_seq
        self.current_seq = current_seq


class RoomNotFound(ClassroomError):
    """No room has this code or id (``not_found``), or the code is not a room code at all (``bad_code``);
    no lesson round has this code (``round_unknown``, :mod:`.lesson_rounds`)."""

    default_kind = "not_found"


class TokenRejected(ClassroomError):
    """A device token does not (or no longer) open a seat.

    ``token_unknown``: never issued or replaced; ``token_revoked``: the teacher revoked it;
    ``token_other_room``: it belongs to another room; ``room_over``: the game has ended;
    ``device_bound``: the seat's link is already open on another device; ``handover_unknown``: a
    hand-over link that was used already or replaced.
    """

    default_kind = "token_unknown"


class NotAllowed(ClassroomError):
    """The caller may not make this decision now.

    ``not_your_turn``: the pending decision is another seat's; ``teacher_only``: only the teacher
    (the projector) may do this; ``bot_seat``: a bot plays this seat; ``auto_dice``: the computer
    rolls in this game; ``paused``: the teacher paused the game; ``game_over``: the game has ended;
    ``seat_changed``: the teacher gave the seat to someone else while its bot was thinking;
    ``not_your_room``: the room belongs to another teacher; ``round_closed``: a lesson round takes no answers
    for that stage now (the teacher revealed it, or moved on); ``team_taken``: another device already sent answers under
    that team name in the lesson round (a team name belongs to the first device that sends for it);
    ``not_started``: the room waits in the lobby (the teacher has not started the game); ``no_rematch``: the teacher
    has made no new game after this one (or this device did not play in it); ``game_not_over``: a device asked to
    move to the teacher's new game from a room whose game is still being played.
    """

    default_kind = "not_your_turn"


class SeatError(ClassroomError):
    """A seat change that cannot be made: ``no_such_seat``, ``seat_taken``, ``bad_kind``, ``bad_seats``;
    ``no_devices``: the room is played on one computer, so no device may join or open a seat;
    ``device_has_seat``: this device already plays another seat of the room (one seat per device)."""

    default_kind = "no_such_seat"


class RoomBroken(ClassroomError):
    """A stored room cannot be rebuilt: bad setup (``setup``), an action the rules refuse
    (``replay``), or made with different rules data (``rules``)."""

    default_kind = "replay"


def error_text(exc: BaseException, lang: str = "en") -> str:
    """A translated sentence for ``exc``: a classroom error by its kind, an engine error via
    :func:`typhoon_edu.i18n.error_text`, anything else as its own text.

    >>> error_text(NotAllowed("x", kind="paused"), "en")
    'The teacher has paused the game.'
    >>> error_text(ValueError("plain"), "en")
    'plain'
    """
    from .. import i18n

    if isinstance(exc, ClassroomError):
        key = f"classroom.error.{exc.kind}"
        if i18n.has(key, lang):
            unsaved = i18n.t(f"classroom.unsaved.{UNSAVED.get(str(exc.params.get('what', '')), 'nothing')}", lang)
            try:
                return i18n.t(key, lang, **{**exc.params, "unsaved": unsaved})
            except (KeyError, IndexError, ValueError):
                return i18n.template(key, lang)  # values missing: the sentence with its {names}, not a second error
        return str(exc)
    return i18n.error_text(exc, lang)
