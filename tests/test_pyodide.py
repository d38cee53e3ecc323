"""The engine in Pyodide (CPython compiled to WebAssembly, as JupyterLite runs it) plays exactly as here.

The engine is kept pure Python so that it runs wherever the lessons might run, a browser's
Pyodide included (docs/engine_speed.md). These tests start Pyodide under Node.js once
(``tests/pyodide/run.mjs``, through ``tests/pyodide_runner.py``) and check there:

* the golden games (``tests/golden_games.py``) give the very digests, events and results of
  ``tests/test_golden.py``'s table: same rules, same random streams, same bots;
* the engine and the bots import nothing beyond the standard library (no NumPy, no widgets);
* a game saved here loads there with the same digest and legal actions, plays on there, and the
  save it makes there loads here and matches the same game played on here;
* bad input is refused there with the same messages as here, and changes nothing;
* the hard bot (a seeded flat Monte Carlo search, floating-point scores) makes the same choices.

Like the browser tests, they are skipped on a machine without ``node`` and the pinned ``pyodide``
npm package, and fail under CI (``CI=true``), where ``scripts/test.sh`` installs both.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden_games import generate  # noqa: E402
from pyodide_runner import run_in_pyodide  # noqa: E402
from test_golden import GOLDEN  # noqa: E402

from typhoon_edu import Game  # noqa: E402

pytestmark = pytest.mark.pyodide
ROOT = Path(__file__).resolve().parent.parent

# Run in both interpreters: from a saved game (SAVE), the legal actions, what bad input is told,
# and the game played on to its end with seeded random choices; the hard bot's choices.
CROSS = '''
import json, random
from typhoon_edu import Game, IllegalActionError

def cross(save):
    g = Game.from_json(save)
    out = {"loaded": g.digest(), "legal": [a.notation for a in g.legal_actions()], "refused": []}
    for bad in ("bogus!", 7, "play:Nope", "discard:Nope"):
        before = g.digest()
        try:
            g.apply(bad)
        except IllegalActionError as e:
            out["refused"].append([repr(bad), str(e), g.digest() == before])
        else:
            out["refused"].append([repr(bad), "accepted", g.digest() == before])
    rng = random.Random(5)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    out["end"] = g.digest()
    out["save"] = g.to_json()
    return out

def hard_bot_choices():
    # the hard bot (60 play-outs, seed 1) at six fixed positions of a GreedyBot game
    from golden_games import choice_positions
    from typhoon_edu.ai.mcts import MCTSBot
    return [MCTSBot(seed=1, iterations=60).choose(g).notation for g in choice_positions(6, every=6)]
'''

IN_PYODIDE = CROSS + '''
import sys
from golden_games import generate

RESULT = json.dumps({
    "platform": sys.platform,
    "version": sys.version.split()[0],
    "golden": generate(),
    "cross": cross(SAVE),
    "hard_bot": hard_bot_choices(),
    "heavy": sorted(m for m in ("numpy", "ipywidgets", "ipycanvas", "pytest") if m in sys.modules),
})
'''


def _saved_game() -> str:
    """A manual-dice game saved in its attack phase, 70 actions in."""
    import random

    g = Game.new(["Taiwan", "Japan", "Korea", "Philippines"], seed=8, dice="manual")
    rng = random.Random(3)
    for _ in range(70):
        g.apply(rng.choice(g.legal_actions()))
    assert g.phase == "attack"
    return g.to_json()


def _here(name: str, *args: Any) -> Any:
    space: dict[str, Any] = {}
    exec(CROSS, space)  # the very code the Pyodide side runs
    return space[name](*args)


def _cross_here(save: str) -> dict[str, Any]:
    return _here("cross", save)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def save() -> str:
    return _saved_game()


@pytest.fixture(scope="module")
def pyodide(save: str) -> dict[str, Any]:
    """Everything the Pyodide side computes, in one start of the interpreter (a few seconds)."""
    return json.loads(run_in_pyodide(f"SAVE = {save!r}\n" + IN_PYODIDE))  # type: ignore[no-any-return]


def test_it_really_is_pyodide(pyodide: dict[str, Any]) -> None:
    assert pyodide["platform"] == "emscripten", pyodide["platform"]
    assert pyodide["version"] != sys.version.split()[0] or sys.platform != "emscripten"


def test_the_golden_games_play_the_same_in_pyodide(pyodide: dict[str, Any]) -> None:
    assert pyodide["golden"].keys() == GOLDEN.keys()
    for name, row in GOLDEN.items():
        assert pyodide["golden"][name] == row, f"{name} plays differently in Pyodide"
    assert pyodide["golden"] == generate()  # and here, in the same run


def test_the_engine_and_bots_need_only_the_standard_library(pyodide: dict[str, Any]) -> None:
    assert pyodide["heavy"] == [], f"imported in Pyodide: {pyodide['heavy']}"


def test_a_save_file_crosses_between_cpython_and_pyodide(pyodide: dict[str, Any], save: str) -> None:
    here = _cross_here(save)
    there = pyodide["cross"]
    assert there["loaded"] == here["loaded"] == Game.from_json(save).digest()
    assert there["legal"] == here["legal"] and len(here["legal"]) > 1
    assert there["end"] == here["end"]
    # the save Pyodide made loads here, at the same end, with the same history
    back = Game.from_json(there["save"])
    assert back.digest() == here["end"] and back.is_over
    assert back.history == Game.from_json(here["save"]).history


def test_the_hard_bot_chooses_the_same_in_pyodide(pyodide: dict[str, Any]) -> None:
    here = _here("hard_bot_choices")
    assert len(here) == 6 and len(set(here)) > 1
    assert pyodide["hard_bot"] == here


def test_bad_input_is_refused_the_same_way_and_changes_nothing(pyodide: dict[str, Any], save: str) -> None:
    here = _cross_here(save)["refused"]
    assert pyodide["cross"]["refused"] == here
    for bad, message, unchanged in here:
        assert message != "accepted" and unchanged, (bad, message)


def _benchmark(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pyodide.py"), *args], capture_output=True,
                          text=True, timeout=600)


def test_the_side_by_side_benchmark_reports_every_row() -> None:
    out = _benchmark("--seconds", "0.3", "--slice", "0.1", "--bot-positions", "1")
    assert out.returncode == 0, out.stderr
    rows = re.findall(r"^(CPython|Pyodide) .*?, (event log on|search mode, no log) +([\d,]+) +([\d.]+)$",
                      out.stdout, re.M)
    assert [(r[0], r[1]) for r in rows] == [("CPython", "event log on"), ("Pyodide", "event log on"),
                                            ("CPython", "search mode, no log"), ("Pyodide", "search mode, no log")]
    assert all(int(r[2].replace(",", "")) > 0 and float(r[3]) > 0 for r in rows)
    assert re.search(r"^clones/s .* \([\d.]+x\)$", out.stdout, re.M), out.stdout
    assert re.search(r"^hard bot, seconds per decision at 1 positions", out.stdout, re.M), out.stdout


@pytest.mark.parametrize("args, told", [
    (("--seconds", "0"), "--seconds must be a positive number of seconds, not 0.0"),
    (("--slice", "-1"), "--slice must be a positive number of seconds, not -1.0"),
    (("--bot-positions", "-2"), "--bot-positions must be 0 or more, not -2"),
    (("--seconds", "fast"), "invalid float value: 'fast'"),
])
def test_the_benchmark_names_a_bad_argument(args: tuple[str, ...], told: str) -> None:
    out = _benchmark(*args)
    assert out.returncode == 2 and told in out.stderr, out.stderr
