"""Save files: versioned JSON holding the setup, the seed and every action (dice included).

Loading replays the actions through the rules and checks the result, so a save file can
never put the game in a state the rules do not allow. Nothing in a file is ever executed.

Every bad input ends in a :class:`SaveFileError` with a reason and a ``kind``, and the cost of
refusing it is bounded. Reading happens in this order, cheapest first:

1. **size**: at most :data:`MAX_RECORD_BYTES` bytes of UTF-8 (``too_large``);
2. **shape**: at most :data:`MAX_DEPTH` levels of nesting (``too_deep``), checked before JSON is
   parsed; numbers of at most :data:`MAX_NUMBER_DIGITS` digits, no ``NaN``/``Infinity``;
3. **fields**: the type and range of every field (``foreign``, ``version``, ``rules``: the
   ``rules_digest`` must be the loaded edition's, :meth:`~typhoon_edu.engine.rules.Rules.accepts`, a hash of
   what its data files say about play, so a comment added to them or a corrected sentence (a card's text,
   an ability's note, a name: :data:`~typhoon_edu.engine.rules.PROSE_FIELDS`) changes nothing, and the
   digests of the same rules under the digest's earlier definitions are accepted too;
   ``damaged``), the action count (at most :data:`MAX_ACTIONS`, ``too_large``) and the notation
   of each action (``replay``);
4. **dice**: with ``"dice": "auto"`` each die face must be the one the seed gives
   (``forged_dice``);
5. **replay** of every action through the rules (``replay``), then the recorded state digest
   and summary (``tampered``).

Unknown top-level fields (a dashboard's ``session`` part, for one) are left to their readers.

>>> from typhoon_edu.engine.game import Game
>>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=3)
>>> _ = g.apply("place 8,8")
>>> loaded = game_from_json(game_to_json(g))
>>> loaded.digest() == g.digest()
True
>>> game_from_json('{"format": "something else"}')
Traceback (most recent call last):
...
typhoon_edu.engine.rules.SaveFileError: this is not a typhoon-edu save file (its 'format' is 'something else')
>>> game_from_json("[" * 100_000)
Traceback (most recent call last):
...
typhoon_edu.engine.rules.SaveFileError: the save file is nested more than 8 levels deep; a save file has at most 4
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .actions import Action, parse_action
from .game import DICE_MODES, SEED_LIMIT, VARIANTS, Game, auto_dice, replay
from .rules import IllegalActionError, Rules, SaveFileError, load_rules

FORMAT = "typhoon-edu-save"
VERSION = 1

#: The largest save file read, in bytes of UTF-8. A real game is far smaller: the longest of 2,000
#: random 3-5 player games had 270 actions and 5.3 KB of JSON; a dashboard save adds its seats and
#: HP track (under 10 KB more). 1 MiB leaves room for 100 times that and parses in milliseconds.
MAX_RECORD_BYTES = 1 << 20
#: The most actions a record may hold (checked before any is parsed). A game has a few hundred
#: decisions and die rolls (at most 270 in 2,000 random games); 5,000 is over 18 times that.
MAX_ACTIONS = 5_000
#: The deepest nesting of objects and lists (a save file has 4: record → session → hp_track → entry).
MAX_DEPTH = 8
#: The most digits of a number (a seed is below 2**63, 19 digits).
MAX_NUMBER_DIGITS = 20
#: The longest text of a region name or edition name in a record.
MAX_NAME_CHARS = 100

_SETUP_KEYS = ("players", "variant", "dice", "start")
_HEX16 = re.compile(r"^[0-9a-f]{16}$")
# Escapes, then JSON strings (with their escapes gone, a string is quote, no quote, quote), runs of
# anything that is not a bracket, a pair of brackets with nothing inside, and a long number. Each is
# one linear pass of the regular-expression engine, without nested repetition (constant memory).
_ESCAPE = re.compile(r"\\.", re.S)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"[\[{][\]}]")
_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_NUMBER_DIGITS + 1},}}")


def game_to_dict(game: Game) -> dict[str, Any]:
    if getattr(game, "_scenario", False):
        raise SaveFileError("a position built by hand (a scenario) has no replayable history, so it cannot be saved",
                            kind="damaged")
    return {
        "format": FORMAT,
        "version": VERSION,
        "edition": game.rules.edition,
        "rules_digest": game.rules.digest,
        "setup": {
            "players": list(game.players),
            "variant": game.variant,
            "dice": game.dice,
            "start": game.players[game.start_seat],
        },
        "seed": game.seed,
        "actions": [a.notation for a in game.history],
        "summary": {"round": game.round, "phase": game.phase, "hp": dict(game.hp), "winners": list(game.winners)},
        "state_digest": game.digest(),
    }


def game_to_json(game: Game) -> str:
    """The game as a save file (JSON text)."""
    return json.dumps(game_to_dict(game), ensure_ascii=False, indent=1)


# ---------------------------------------------------------------------------------- parsing
def _outside_strings(text: str) -> str:
    """The JSON text with every string emptied (brackets and digits in names do not count)."""
    return _STRING.sub('""', _ESCAPE.sub("", text))


def _deeper_than(skeleton: str, depth: int) -> bool:
    """Whether ``skeleton`` (JSON outside its strings) nests brackets more than ``depth`` levels deep.

    Each pass removes the innermost pairs, so a structure ``depth`` levels deep is gone after
    ``depth`` passes; whatever is left is deeper, or brackets that do not pair up. Those count as
    too deep when more than ``depth`` of them open (a truncated save leaves at most 4 open), so
    the JSON parser never recurses deeply whatever the recursion limit. Linear time per pass, no
    recursion, no per-character Python loop.

    >>> _deeper_than(_outside_strings('{"a": [1, {"b": "[[[["}]}'), 3), _deeper_than("[[[[]]]]", 3)
    (False, True)
    >>> _deeper_than("[[", 2), _deeper_than("[[[", 2)  # brackets that never close (truncated text)
    (False, True)
    """
    brackets = _NOT_BRACKET.sub("", skeleton)
    for _ in range(depth):
        if not brackets:
            return False
        brackets, removed = _PAIR.subn("", brackets)
        if not removed:
            break
    opens = [i for i in (brackets.find("["), brackets.find("{")) if i >= 0]
    if not opens:
        return False
    return min(opens) < max(brackets.rfind("]"), brackets.rfind("}")) or (
        brackets.count("[") + brackets.count("{") > depth)


def _constant(name: str) -> Any:
    raise SaveFileError(f"the save file holds {name}, which is not a JSON number", kind="not_json")


def parse_record(text: str | bytes) -> dict[str, Any]:
    """The JSON object of a record, read within the size and depth limits (no field checked yet).

    >>> parse_record('{"format": "x"}')
    {'format': 'x'}
    >>> parse_record(b"\\xff\\xfe")
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.SaveFileError: the save file is not UTF-8 text (byte 0 is 0xff)
    """
    if isinstance(text, (bytes, bytearray, memoryview)):
        raw = bytes(text)
        if len(raw) > MAX_RECORD_BYTES:
            raise _too_large(len(raw))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveFileError(f"the save file is not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x})",
                                kind="not_json") from None
    elif not isinstance(text, str):
        raise SaveFileError(f"a save file is text or bytes, not {type(text).__name__}", kind="not_json")
    elif len(text) > MAX_RECORD_BYTES or (len(text) * 4 > MAX_RECORD_BYTES
                                          and len(text.encode("utf-8", "surrogatepass")) > MAX_RECORD_BYTES):
        raise _too_large(len(text.encode("utf-8", "surrogatepass")) if len(text) <= 4 * MAX_RECORD_BYTES else None)
    if text.startswith("\ufeff"):  # a byte-order mark some editors write
        text = text[1:]
    skeleton = _outside_strings(text)
    if _deeper_than(skeleton, MAX_DEPTH):
        raise _too_deep()
    long_number = _LONG_NUMBER.search(skeleton)
    if long_number:
        raise SaveFileError(f"the save file holds a number of {len(long_number.group())} digits; no field "
                            f"of a save file needs more than {MAX_NUMBER_DIGITS}", kind="damaged")
    try:
        data = json.loads(text, parse_constant=_constant)
    except SaveFileError:
        raise
    except RecursionError:  # pragma: no cover - _deeper_than refuses all that could recurse deeply
        raise _too_deep() from None
    except ValueError as exc:  # json.JSONDecodeError, or a lone surrogate
        raise SaveFileError(f"the save file is not valid JSON ({exc})", kind="not_json") from None
    if not isinstance(data, dict):
        raise SaveFileError(f"the save file must hold a JSON object, not {_type(data)}", kind="not_json")
    return data


def _too_deep() -> SaveFileError:
    return SaveFileError(f"the save file is nested more than {MAX_DEPTH} levels deep; a save file has at most 4",
                         kind="too_deep")


def _too_large(size: int | None) -> SaveFileError:
    told = f"{size:,} bytes" if size is not None else f"more than {4 * MAX_RECORD_BYTES:,} bytes"
    return SaveFileError(f"the save file is {told}; no real game comes near the limit of {MAX_RECORD_BYTES:,} bytes",
                         kind="too_large")


# ------------------------------------------------------------------------------- validation
def _type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false", int: "a whole number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str, where: str = "") -> Any:
    name = f"{where}'{key}'" if where else f"'{key}'"
    if key not in data:
        raise SaveFileError(f"the save file has no {name} ({what})")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise SaveFileError(f"the save file's {name} must be {what}, not {_type(value)} {_shown(value)}")
    return value


def _text(value: Any, what: str, limit: int = MAX_NAME_CHARS) -> str:
    if not isinstance(value, str):
        raise SaveFileError(f"the save file's {what} must be text, not {_type(value)} {_shown(value)}")
    if len(value) > limit:
        raise SaveFileError(f"the save file's {what} is {len(value)} characters long; at most {limit} are allowed")
    return value


def _region(rules: Rules, value: Any, what: str) -> str:
    name = _text(value, what)
    try:
        return rules.region_key(name)
    except ValueError as exc:
        raise SaveFileError(f"the save file's {what}: {exc}") from None


def check_setup(setup: Any, rules: Rules) -> dict[str, Any]:
    """The record's setup with every field checked, its regions as keys (old spellings accepted).

    >>> check_setup({"players": ["taiwan", "Japan", "台灣"], "variant": "standard", "dice": "auto",
    ...              "start": "Japan"}, load_rules())
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.SaveFileError: the save file's players must be different regions; Taiwan is there twice
    """
    if not isinstance(setup, dict):
        raise SaveFileError(f"the save file's 'setup' must be an object, not {_type(setup)} {_shown(setup)}")
    extra = sorted(set(setup) - set(_SETUP_KEYS))
    if extra:
        raise SaveFileError(f"the save file's setup has unknown fields ({', '.join(map(_shown, extra[:5]))}); "
                            f"it holds {', '.join(_SETUP_KEYS)}")
    raw_players = _need(setup, "players", list, "a list of 3 to 5 regions", "setup ")
    if not 3 <= len(raw_players) <= 5:
        raise SaveFileError(f"the save file's players must be 3 to 5 regions, not {len(raw_players)}")
    players = [_region(rules, p, f"player #{i + 1}") for i, p in enumerate(raw_players)]
    for p in players:
        if players.count(p) > 1:
            raise SaveFileError(f"the save file's players must be different regions; {p} is there twice")
    for key, allowed in (("variant", VARIANTS), ("dice", DICE_MODES)):
        value = setup.get(key)
        if value not in allowed:
            raise SaveFileError(f"the save file's setup '{key}' must be one of {', '.join(allowed)}, "
                                f"not {_shown(value)}")
    start = _region(rules, _need(setup, "start", str, "the start player's region", "setup "), "start player")
    if start not in players:
        raise SaveFileError(f"the save file's start player {start} is not one of its players")
    return {"players": players, "variant": setup["variant"], "dice": setup["dice"], "start": start}


def check_actions(actions: Any) -> list[Action]:
    """The record's actions parsed from their notation, within :data:`MAX_ACTIONS`."""
    if not isinstance(actions, list):
        raise SaveFileError(f"the save file's 'actions' must be a list of actions, not {_type(actions)} "
                            f"{_shown(actions)}")
    if len(actions) > MAX_ACTIONS:
        raise SaveFileError(f"the save file holds {len(actions):,} actions; a game has a few hundred, and at most "
                            f"{MAX_ACTIONS:,} are read", kind="too_large")
    parsed = []
    for i, a in enumerate(actions):
        if not isinstance(a, str):
            raise SaveFileError(f"action #{i + 1} must be text like 'move T2', not {_type(a)} {_shown(a)}",
                                kind="replay")
        try:
            parsed.append(parse_action(a))
        except IllegalActionError as exc:
            raise SaveFileError(f"action #{i + 1}: {exc}", kind="replay") from None
    return parsed


def check_dice(actions: list[Action], seed: int) -> None:
    """With automatic dice, every die face must be the one ``seed`` rolls (``forged_dice`` otherwise).

    >>> from itertools import islice
    >>> faces = list(islice(auto_dice(5), 3))
    >>> check_dice([Action("die", face=f) for f in faces], 5)
    >>> check_dice([Action("die", face=7)], 5)
    Traceback (most recent call last):
    ...
    typhoon_edu.engine.rules.SaveFileError: die roll #1 (action #1) shows 7, but seed 5 rolls 4; this game's dice were not rolled by the computer
    """
    faces = auto_dice(seed)
    n = 0
    for i, a in enumerate(actions):
        if a.kind != "die":
            continue
        n += 1
        want = next(faces)
        if a.face != want:
            raise SaveFileError(f"die roll #{n} (action #{i + 1}) shows {a.face}, but seed {seed} rolls {want}; "
                                "this game's dice were not rolled by the computer", kind="forged_dice")


def _check_summary(summary: Any, game: Game) -> None:
    """The informational summary, if there is one: right types, and the same as the replayed game."""
    if not isinstance(summary, dict):
        raise SaveFileError(f"the save file's 'summary' must be an object, not {_type(summary)} {_shown(summary)}")
    rules = game.rules
    checks: list[tuple[str, Any, Any]] = []
    if "round" in summary:
        checks.append(("round", _need(summary, "round", int, "a round number", "summary "), game.round))
    if "phase" in summary:
        checks.append(("phase", _text(summary["phase"], "summary 'phase'"), game.phase))
    if "hp" in summary:
        hp = _need(summary, "hp", dict, "an object of HP per region", "summary ")
        got = {}
        for key, value in hp.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise SaveFileError(f"the save file's summary HP of {_shown(key)} must be a whole number, "
                                    f"not {_shown(value)}")
            got[_region(rules, key, "summary HP region")] = value
        checks.append(("hp", got, dict(game.hp)))
    if "winners" in summary:
        winners = _need(summary, "winners", list, "a list of regions", "summary ")
        checks.append(("winners", [_region(rules, w, "summary winner") for w in winners], list(game.winners)))
    for name, recorded, replayed in checks:
        if recorded != replayed:
            raise SaveFileError(f"the save file's summary says {name} {_shown(recorded)}, but the replayed game has "
                                f"{_shown(replayed)}; it was edited or damaged", kind="tampered")


def game_from_record(data: Mapping[str, Any], rules: Rules | None = None) -> Game:
    """Check every field of a parsed record (see :func:`parse_record`), replay it and verify it."""
    if not isinstance(data, Mapping):
        raise SaveFileError(f"the save file must hold a JSON object, not {_type(data)}", kind="not_json")
    if data.get("format") != FORMAT:
        raise SaveFileError(f"this is not a typhoon-edu save file (its 'format' is {_shown(data.get('format'))})",
                            kind="foreign")
    version = _need(data, "version", int, "a version number")
    if version != VERSION:
        raise SaveFileError(f"save file version {_shown(version)} is not supported; this program reads version "
                            f"{VERSION}", kind="version")
    rules = rules or load_rules()
    digest = _need(data, "rules_digest", str, "the rules data digest")
    if not rules.accepts(digest):
        raise SaveFileError(
            f"the game was saved with different rules data (digest {_shown(digest)}); these rules have digest "
            f"{rules.digest}", kind="rules",
        )
    if "edition" in data and _text(data["edition"], "'edition'") != rules.edition:
        raise SaveFileError(f"the game was saved with the edition {_shown(data['edition'])}; these rules are "
                            f"{rules.edition!r}", kind="rules")
    setup = check_setup(_need(data, "setup", dict, "the game setup"), rules)
    seed = _need(data, "seed", int, "a whole-number seed")
    if not -SEED_LIMIT <= seed < SEED_LIMIT:
        raise SaveFileError(f"the save file's seed {_shown(seed)} is out of range (-2**63 to 2**63)")
    want = _need(data, "state_digest", str, "the digest of the saved state")
    if not _HEX16.match(want):
        raise SaveFileError(f"the save file's 'state_digest' must be 16 hexadecimal digits, not {_shown(want)}")
    actions = check_actions(_need(data, "actions", list, "a list of actions"))
    if setup["dice"] == "auto":
        check_dice(actions, seed)
    try:
        game = replay(setup, seed, actions, rules)
    except (IllegalActionError, ValueError) as exc:
        raise SaveFileError(f"the save file cannot be replayed: {exc}", kind="replay") from None
    if want != game.digest():
        raise SaveFileError("the replayed game does not match the state recorded in the file; it was edited or damaged",
                            kind="tampered")
    if "summary" in data:
        _check_summary(data["summary"], game)
    return game


def game_from_json(text: str | bytes, rules: Rules | None = None) -> Game:
    """Load a save file: check its size, shape and fields, replay every action, and verify the final state."""
    return game_from_record(parse_record(text), rules)
