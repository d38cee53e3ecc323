"""scripts/balance.py, the command that balances the edition: its arguments and its reports."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("balance_script", ROOT / "scripts" / "balance.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_variant_is_named_and_given_as_changes(script) -> None:
    name, parts = script._variant_arg("TW+1=hp:Philippines=42;abilities:Taiwan=1,Central China=-1")
    assert name == "TW+1"
    assert parts == {"hp": {"Philippines": 42}, "counts": {}, "abilities": {"Taiwan": 1, "Central China": -1}}
    assert script._variant_arg("the edition=") == ("the edition", {"hp": {}, "counts": {}, "abilities": {}})


@pytest.mark.parametrize(("argv", "message"), [
    (["--compare", "nothing"], "write NAME=PART"),
    (["--compare", "x=speed:Taiwan=1"], "hp:, counts: or abilities:"),
    (["--compare", "x=hp:Taiwan=lots"], "NAME=NUMBER"),
    (["--compare", "x=", "--seats", "2"], "3, 4 or 5"),
    (["--confirm", "--games", "10,20"], "three numbers"),
    (["--seats", "four"], "one number of players"),
])
def test_a_bad_argument_says_what_is_allowed(script, capsys, argv, message) -> None:
    with pytest.raises(SystemExit) as info:
        script.main(argv)
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_compare_plays_each_variant_on_the_same_games(script, tmp_path) -> None:
    out = tmp_path / "compare.md"
    script.main(["--compare", "the edition=", "Taiwan 60=hp:Taiwan=60", "--seats", "3", "--games", "12",
                 "--jobs", "1", "--out", str(out)])
    rows = [line for line in out.read_text(encoding="utf-8").splitlines() if line.startswith("| the edition") or
            line.startswith("| Taiwan 60")]
    assert len(rows) == 2
    shares = [[float(x) for x in row.split("|")[2:8]] for row in rows]
    assert shares[1][0] >= shares[0][0]  # the same games: 60 HP never makes Taiwan win less
    assert "seeds 3,000,000 upward" in out.read_text(encoding="utf-8")


def test_confirm_before_replays_the_pre_balance_edition(script, tmp_path) -> None:
    out = tmp_path / "before.md"
    script.main(["--confirm", "--before", "--games", "3,3,3", "--jobs", "1", "--out", str(out)])
    text = out.read_text(encoding="utf-8")
    assert "`python scripts/balance.py --confirm --before --games 3,3,3`" in text
    assert re.search(r"HP: TW 30 PH 40 KR 40 CC 40 SC 40 JP 50; deck: the pre-balance deck; abilities: the pre-balance", text)
