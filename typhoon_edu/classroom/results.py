"""The results screen's numbers, derived from a replayed game: summary and the public events CSV.

(The HP track comes from the replay itself: :attr:`typhoon_edu.classroom.rooms.Room.hp_track`.)

>>> from typhoon_edu.engine.game import Game
>>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=3)
>>> summary(g)["rounds"], events_csv(g).splitlines()[0]
(1, 'index,kind,player,typhoon,level,cell,amount,hp,details')
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..engine.events import DamageDealt, Healed, LevelChanged, TyphoonPlaced, event_to_dict
from ..engine.game import Game


def summary(game: Game) -> dict[str, Any]:
    """Winners, HP, the biggest storm, the region that took the most damage, rounds played.

    ``damage_taken`` is the HP each region lost (a blow past 0 HP counts only what was left: a rehearsal's results
    said "Korea lost 67 HP" of its 40), and the region that took the most damage is the one that lost the largest
    share of its HP (a 43-HP region that lost 4 was named over 40-HP regions that lost none).

    >>> from typhoon_edu.engine.events import DamageDealt
    >>> g = Game.new(["Taiwan", "Japan", "Korea"], seed=3)
    >>> g.events.append(DamageDealt(player="Korea", typhoon=1, hits=9, amount=67, bonus=0, hp=0))
    >>> summary(g)["damage_taken"]["Korea"], summary(g)["most_damaged"]
    (40, 'Korea')
    """
    biggest = 0
    biggest_id = None
    full = {p: game.rules.regions[p].hp for p in game.players}
    hp = dict(full)  # each region's HP as the events go
    taken: dict[str, int] = {p: 0 for p in game.players}
    for e in game.events:
        if isinstance(e, (LevelChanged, TyphoonPlaced)):
            lv = e.new if isinstance(e, LevelChanged) else e.level
            if lv > biggest:
                biggest, biggest_id = lv, e.typhoon
        elif isinstance(e, DamageDealt):
            taken[e.player] += max(0, hp[e.player] - e.hp)
            hp[e.player] = e.hp
        elif isinstance(e, Healed):
            hp[e.player] = e.hp
    worst = max(taken, key=lambda p: (taken[p] / full[p] if full[p] else 0.0, taken[p])) if taken else None
    return {"winners": list(game.winners), "hp": dict(game.hp), "biggest_level": biggest,
            "biggest_typhoon": biggest_id, "most_damaged": worst, "damage_taken": taken, "rounds": game.round}


def events_csv(game: Game) -> str:
    """The public event log (nobody's drawn cards) as CSV, one row per event."""
    buf = io.StringIO()
    w = csv.writer(buf)
    fields = ["index", "kind", "player", "typhoon", "level", "cell", "amount", "hp", "details"]
    w.writerow(fields)
    for i, e in enumerate(game.visible_events(None)):
        d = event_to_dict(e)
        kind = d.pop("kind")
        row: list[Any] = [i, kind]
        for name in fields[2:-1]:
            value = d.pop(name, "")
            row.append(" ".join(map(str, value)) if isinstance(value, list) else value)
        row.append(json.dumps(d, ensure_ascii=False) if d else "")
        w.writerow(row)
    return buf.getvalue()
