"""The map as plain text, for the terminal game.

Sea is ``.``, land with no owner ``#``, a region's cells its letter, generation zones ``:``;
a typhoon's eye shows its number (1-9, then a-z) and its storm radius ``*``.

>>> from typhoon_edu.engine.scenario import scenario
>>> g = scenario(["Taiwan", "Japan", "Korea"], typhoons=[((8, 6), 3, "W")])
>>> print(text_map(g).splitlines()[7])
 6 ##SSS.T*1*......
"""

from __future__ import annotations

from .engine.game import Game

_EYES = "123456789abcdefghijklmnopqrstuvwxyz"


def text_map(game: Game) -> str:
    """The board with every typhoon, one text row per map row, with x and y coordinates."""
    m = game.rules.map
    b = game._b
    grid = []
    for row in m.rows:
        line = []
        for ch in row:
            if ch == "~":
                ch = "."
            elif ch.isdigit():
                ch = ":"
            line.append(ch)
        grid.append(line)
    for t in game.typhoons_:
        for c in b.footprint[t.level][t.cell]:
            x, y = b.cells[c]
            grid[y][x] = "*"
    for t in game.typhoons_:
        x, y = t.eye
        grid[y][x] = _EYES[(t.id - 1) % len(_EYES)]
    header = "   " + "".join(str(x % 10) for x in range(m.width))
    return "\n".join([header] + [f"{y:2d} " + "".join(line) for y, line in enumerate(grid)])
