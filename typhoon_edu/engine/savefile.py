"""Save files: versioned JSON holding the setup, the seed and every action (dice included).

Loading replays the actions through the rules and checks the result, so a save file can
never put the game in a state the rules do not allow. Nothing in a file is ever executed.

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
"""

from __future__ import annotations

import json
from typing import Any

from .actions import parse_action
from .game import Game, replay
from .rules import IllegalActionError, Rules, SaveFileError, load_rules

FORMAT = "typhoon-edu-save"
VERSION = 1


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


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in data:
        raise SaveFileError(f"the save file has no '{key}' ({what})")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SaveFileError(f"the save file's '{key}' must be {what}, not {value!r}")
    return value


def game_from_json(text: str | bytes, rules: Rules | None = None) -> Game:
    """Load a save file: check its format, replay every action, and verify the final state."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"the save file is not valid JSON ({exc})", kind="not_json") from None
    if not isinstance(data, dict):
        raise SaveFileError("the save file must hold a JSON object", kind="not_json")
    if data.get("format") != FORMAT:
        raise SaveFileError(f"this is not a typhoon-edu save file (its 'format' is {data.get('format')!r})", kind="foreign")
    version = _need(data, "version", int, "a version number")
    if version != VERSION:
        raise SaveFileError(f"save file version {version} is not supported; this program reads version {VERSION}",
                            kind="version")
    rules = rules or load_rules()
    digest = _need(data, "rules_digest", str, "the rules data digest")
    if digest != rules.digest:
        raise SaveFileError(
            f"the game was saved with different rules data (digest {digest}); these rules have digest {rules.digest}",
            kind="rules",
        )
    setup = _need(data, "setup", dict, "the game setup")
    players = _need(setup, "players", list, "a list of regions")
    if not all(isinstance(p, str) for p in players):
        raise SaveFileError("the save file's players must be region names")
    for key, allowed in (("variant", ("standard", "advanced")), ("dice", ("auto", "manual"))):
        if setup.get(key) not in allowed:
            raise SaveFileError(f"the save file's setup '{key}' must be one of {', '.join(allowed)}")
    _need(setup, "start", str, "the start player's region")
    seed = _need(data, "seed", int, "a whole-number seed")
    actions = _need(data, "actions", list, "a list of actions")
    parsed = []
    for i, a in enumerate(actions):
        if not isinstance(a, str):
            raise SaveFileError(f"action #{i + 1} must be text like 'move T2', not {a!r}")
        try:
            parsed.append(parse_action(a))
        except IllegalActionError as exc:
            raise SaveFileError(f"action #{i + 1}: {exc}", kind="replay") from None
    try:
        game = replay(setup, seed, parsed, rules)
    except (IllegalActionError, ValueError) as exc:
        raise SaveFileError(f"the save file cannot be replayed: {exc}", kind="replay") from None
    want = _need(data, "state_digest", str, "the digest of the saved state")
    if want != game.digest():
        raise SaveFileError("the replayed game does not match the state recorded in the file; it was edited or damaged",
                            kind="tampered")
    return game

