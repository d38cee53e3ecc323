"""``typhoon-edu play --bots random | head -1``: the command stops quietly when its reader leaves, with no traceback
(it ended in ``BrokenPipeError`` from the game's narration)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not hasattr(fcntl, "F_SETPIPE_SZ"), reason="needs Linux's pipe size control")
def test_a_reader_that_leaves_gets_no_traceback() -> None:
    read_end, write_end = os.pipe()
    # a pipe of one page: the game (16 KB of narration) is still writing when the reader leaves, whatever the load
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    game = subprocess.Popen([sys.executable, "-m", "typhoon_edu", "play", "--bots", "random", "--seed", "1",
                             "--lang", "en"], stdout=write_end, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        first = reader.readline()  # what `head -1` reads, then it leaves
    assert game.stderr is not None
    err = game.stderr.read().decode("utf-8", "replace")
    code = game.wait(timeout=120)
    assert first.strip(), "the game said nothing"
    assert "Traceback" not in err and "BrokenPipeError" not in err, err[-2000:]
    assert code == 141
