"""Benchmarks' own checks: ``benchmarks/mcts.py --report`` (a run split into parts is reported as one, each game
once), ``benchmarks/engine.py --breakdown`` and ``benchmarks/kernel_cpu.py``'s bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _line(game: int, share: float, times: list[float]) -> str:
    return json.dumps({"game": game, "seat": game % 4, "region": "Taiwan", "share": share, "iterations": None,
                       "params": {}, "times": times})


def _report(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mcts.py"), "--report", *map(str, files)],
                          capture_output=True, text=True, timeout=120)


def test_parts_of_a_run_are_reported_together_each_game_once(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(_line(0, 1.0, [0.1, 0.3]) + "\n" + _line(1, 0.0, [0.2]) + "\n", encoding="utf-8")
    b.write_text(_line(1, 0.0, [0.2]) + "\n" + _line(2, 0.5, [0.4, 2.0]) + "\n", encoding="utf-8")  # game 1 twice
    out = _report(a, b)
    assert out.returncode == 0, out.stderr
    assert "3 games (numbers 0-2)" in out.stdout
    assert "MCTS win share: 1.5/3 = 0.500" in out.stdout
    assert "5 searched decisions" in out.stdout and "max 2.000" in out.stdout


def test_a_file_that_is_not_a_run_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": 0}\n', encoding="utf-8")
    out = _report(bad)
    assert out.returncode != 0 and f"{bad}:1: not a line written by --jsonl" in out.stderr
    missing = _report(tmp_path / "nope.jsonl")
    assert missing.returncode == 2 and "no such file" in missing.stderr


def _kernel_cpu(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "kernel_cpu.py"), *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_kernel_cpu_names_a_bad_argument_before_starting_a_server() -> None:
    """``benchmarks/kernel_cpu.py``: a bad count or commit is named and nothing is started."""
    rounds = _kernel_cpu("--rounds", "0")
    assert rounds.returncode == 2 and "--rounds must be at least 1, not 0" in rounds.stderr
    settle = _kernel_cpu("--settle", "-1")
    assert settle.returncode == 2 and "--settle and --timeout must be positive" in settle.stderr
    ref = _kernel_cpu("--baseline", "no-such-ref-xyz", "--rounds", "1")
    assert ref.returncode == 1 and "--baseline no-such-ref-xyz: not a commit of this repository" in ref.stderr


def test_engine_breakdown_names_its_parts_and_refuses_a_bad_count() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "engine.py"), *args],
                              capture_output=True, text=True, timeout=300)

    out = run("--breakdown", "2")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    parts = {line.split("  ")[0].strip(): line for line in lines[:3]}
    assert list(parts) == ["list + apply", "apply alone", "replay loop"], lines
    assert all(" ns/decision" in line for line in parts.values())
    assert lines[3].startswith("listing the legal actions and finding the chosen one: ") and "% of the loop's time" in lines[3]
    bad = run("--breakdown", "0")
    assert bad.returncode == 2 and "'0' is not a number of games; give a whole number from 1 up" in bad.stderr
