"""How strong and how fast is the hard bot? 1 MCTSBot against 3 GreedyBots.

    python benchmarks/mcts.py [--games 400] [--iterations N | --time-limit S] [--jobs 2] [--seed 0]
                              [--param NAME=VALUE ...] [--bot mcts|greedy|random] [--oracle hands|all]
                              [--jsonl FILE]
    python benchmarks/mcts.py --report FILE [FILE ...]

``--bot greedy`` or ``--bot random`` puts that bot in the measured seat instead, on the same
games, for reference (a GreedyBot there should win about its fair share).

Game ``i`` puts the MCTS bot in seat ``i % 4`` and gives it region ``i // 4 % 6`` of the six
(so every 24 games cover every seat × region pair); the three greedy opponents get three of the
other regions at random. Dice are automatic (the game's own generator; the bots never see it).
``--oracle`` is not a fair bot but a ceiling. With ``--oracle hands`` the MCTS bot sees the other
players' real hands (the deck order and the dice are still unknown to it). With ``--oracle all``
it searches on exact copies of the game: every hand, the deck order and the game's own future
dice (a copy rolls the same dice as the game, in the same order). With ``--param
horizon=game`` its play-outs then run to the end of the game, so it looks for a line that wins
against the opponents' actual cards and dice.
A shared win counts 1/k for each of the k winners. The report gives the MCTS bot's win share
with a 95 % Wilson interval (fair share: 1/4), per seat and per region, and the distribution of
its decision times (only decisions with more than one legal action: the others return at once,
without a search). Each decision is timed on one core (``--jobs`` runs whole games in parallel).
``--jsonl FILE`` appends one line per finished game (game number, seat, region, win share,
decision times), so two runs on the same game numbers (say two iteration counts) can be
compared game by game, and a run cut short still leaves its finished games. ``--report`` plays
nothing and reports the games such files hold, each game number once: a run split into parts
(``--seed 0 --games 200`` and ``--seed 200 --games 200`` on two machines or cores) is reported as one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import get_context
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typhoon_edu.ai.bots import GreedyBot  # noqa: E402
from typhoon_edu.ai.mcts import MCTSBot  # noqa: E402
from typhoon_edu.ai.tournament import make_bot, wilson  # noqa: E402
from typhoon_edu.engine.game import Game  # noqa: E402
from typhoon_edu.engine.rules import load_rules  # noqa: E402

SEATS = 4


def _yes_no(text: str) -> bool:
    if text.lower() in ("1", "yes", "true", "on"):
        return True
    if text.lower() in ("0", "no", "false", "off"):
        return False
    raise ValueError(text)


PARAMS = {"top_k": int, "exploration": float, "prior_weight": float, "horizon": str, "mode": str,
          "beliefs": _yes_no, "endgame": int}


class OracleMCTSBot(MCTSBot):
    """An MCTSBot that cheats, for a ceiling: it sees every hand, and with ``sees="all"`` more.

    ``sees="hands"``: the other players' hands are the real ones; the draw pile is still shuffled
    at random and the dice are still sampled. ``sees="all"``: the copies are exact (hands, the
    deck order, later reshuffles) and, with :func:`_clairvoyant_clones`, roll the game's own
    future dice.
    """

    def __init__(self, *args: object, sees: str = "all", **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.sees = sees

    def determinize(self, game: Game, seat: int, rng: Random) -> Game:
        c = game.clone()
        if self.sees == "all":
            return c
        c.dice = "manual"
        c.seed = rng.randrange(2**31)
        c._rng = None
        deck = c.deck.copy()
        rng.shuffle(deck)
        c.deck = deck
        return c


def _clairvoyant_clones() -> None:
    """From now on, in this process, copies of a game with automatic dice roll that game's future dice."""
    plain = Game.clone

    def clone(self: Game, keep_log: bool = False) -> Game:
        c = plain(self, keep_log)
        if self.dice == "auto" and self._rng is not None:
            c._rng = Random()
            c._rng.setstate(self._rng.getstate())
        return c

    Game.clone = clone  # type: ignore[method-assign]


def play(job: tuple[int, int | None, float | None, dict[str, float], str, str | None]) -> tuple[int, str, float, list[float], float]:
    """One game; returns (mcts seat, mcts region, its win share, its search times, wall seconds)."""
    i, iterations, time_limit, params, kind, oracle = job
    regions_all = list(load_rules().regions)
    seat = i % SEATS
    mine = regions_all[(i // SEATS) % len(regions_all)]
    rng = Random(1_000 + i)
    others = rng.sample([r for r in regions_all if r != mine], SEATS - 1)
    regions = others[:seat] + [mine] + others[seat:]
    extra = {"sees": oracle} if oracle else {}
    cls = OracleMCTSBot if oracle else MCTSBot
    mcts = (cls(iterations=iterations, time_limit=time_limit, seed=i, **params, **extra) if kind == "mcts"  # type: ignore[arg-type]
            else make_bot(kind, seed=i))
    bots = {r: (mcts if r == mine else GreedyBot(seed=i * 31 + k)) for k, r in enumerate(regions)}
    game = Game.new(regions, seed=i)
    game._log = False
    times: list[float] = []
    t_game = time.perf_counter()
    while not game.is_over:
        bot = bots[game.current_player]  # type: ignore[index]
        if bot is mcts and len(game.legal_actions()) > 1:
            t = time.process_time()
            a = bot.choose(game)
            times.append(time.process_time() - t)
        else:
            a = bot.choose(game)
        game.apply(a)
    share = 1 / len(game.winners) if mine in game.winners else 0.0
    return seat, mine, share, times, time.perf_counter() - t_game


def summary(results: list[tuple[int, str, float, list[float], float]]) -> None:
    """Print the MCTS bot's win share (with its Wilson interval, by seat and by region) and its decision times."""
    n = len(results)
    wins = sum(r[2] for r in results)
    lo, hi = wilson(wins, n)
    print(f"\nMCTS win share: {wins:.1f}/{n} = {wins / n:.3f}  (95 % Wilson CI {lo:.3f}–{hi:.3f}; fair share 0.250)")
    for label, key in (("seat", lambda r: f"seat {r[0] + 1}"), ("region", lambda r: r[1])):
        groups: dict[str, list[float]] = {}
        for r in results:
            groups.setdefault(key(r), []).append(r[2])
        print(f"by {label}: " + ", ".join(f"{g} {sum(v) / len(v):.2f} (n={len(v)})" for g, v in sorted(groups.items())))
    times = sorted(t for r in results for t in r[3])
    if times:
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(f"decision time (CPU s, {len(times)} searched decisions, {len(times) / n:.1f} per game): "
              f"median {statistics.median(times):.3f}, mean {statistics.fmean(times):.3f}, "
              f"p90 {p90:.3f}, max {times[-1]:.3f}")


def from_jsonl(paths: list[Path]) -> dict[int, tuple[int, str, float, list[float], float]]:
    """The games recorded by ``--jsonl`` in ``paths`` (a run cut into parts, say), each game number once."""
    games: dict[int, tuple[int, str, float, list[float], float]] = {}
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                games[int(row["game"])] = (int(row["seat"]), str(row["region"]), float(row["share"]),
                                           [float(t) for t in row["times"]], 0.0)
            except (ValueError, KeyError, TypeError) as exc:
                raise SystemExit(f"{path}:{n}: not a line written by --jsonl ({exc})") from None
    return dict(sorted(games.items()))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400)
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=None, help="search iterations per decision")
    budget.add_argument("--time-limit", type=float, default=None, help="seconds per decision (not reproducible)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bot", choices=("mcts", "greedy", "random"), default="mcts",
                    help="the bot in the measured seat (greedy or random give the reference figures)")
    ap.add_argument("--oracle", choices=("hands", "all"), default=None,
                    help="let the MCTS bot see every hand, or also the deck order and the future dice "
                         "(a ceiling, not a fair bot)")
    ap.add_argument("--seed", type=int, default=0, help="first game number")
    ap.add_argument("--jsonl", type=Path, default=None, help="append one JSON line per finished game to this file")
    ap.add_argument("--report", type=Path, nargs="+", metavar="JSONL",
                    help="play nothing: report the games these --jsonl files hold (parts of one run, say)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="an MCTSBot keyword (" + ", ".join(PARAMS) + ")")
    args = ap.parse_args(argv)
    if args.report:
        missing = [str(p) for p in args.report if not p.is_file()]
        if missing:
            ap.error(f"--report: no such file: {', '.join(missing)}")
        games = from_jsonl(args.report)
        if not games:
            ap.error("--report: the files hold no games")
        print(f"{len(games)} games (numbers {min(games)}-{max(games)}) from {', '.join(str(p) for p in args.report)}")
        summary(list(games.values()))
        return
    params: dict[str, float | str] = {}
    for p in args.param:
        k, _, v = p.partition("=")
        if k not in PARAMS:
            ap.error(f"--param {p!r}: the MCTSBot keywords are {', '.join(PARAMS)}")
        try:
            params[k] = PARAMS[k](v)
        except ValueError:
            ap.error(f"--param {p!r}: {k} takes {PARAMS[k].__name__ if k != 'beliefs' else 'yes or no'}")
    if args.oracle and args.bot != "mcts":
        ap.error("--oracle applies to the MCTS bot only (leave out --bot, or use --bot mcts)")
    if args.oracle == "all":
        _clairvoyant_clones()  # before the worker processes fork
    jobs = [(args.seed + i, args.iterations, args.time_limit, params, args.bot, args.oracle) for i in range(args.games)]
    budget_txt = (f"{args.iterations} iterations" if args.iterations else
                  f"{args.time_limit} s" if args.time_limit else "default budget")
    print(f"{(f'oracle ({args.oracle}) ' if args.oracle else '') + 'MCTSBot' if args.bot == 'mcts' else args.bot} ({budget_txt}{', ' + str(params) if params else ''}) vs 3 GreedyBots, "
          f"{args.games} games, {args.jobs} jobs", flush=True)
    t0 = time.perf_counter()
    results = []
    with get_context("fork").Pool(args.jobs) as pool:
        for k, r in enumerate(pool.imap(play, jobs), 1):
            results.append(r)
            if args.jsonl is not None:
                with args.jsonl.open("a") as f:
                    f.write(json.dumps({"game": args.seed + k - 1, "seat": r[0], "region": r[1], "share": r[2],
                                        "iterations": args.iterations, "params": params, "times": r[3]}) + "\n")
            if k % max(1, args.games // 20) == 0 or k == args.games:
                w = sum(x[2] for x in results)
                lo, hi = wilson(w, k)
                ts = sorted(t for x in results for t in x[3])
                print(f"  {k:4d}/{args.games} games, win share so far {w / k:.3f} (CI {lo:.3f}–{hi:.3f}), "
                      f"decision median {statistics.median(ts) if ts else 0:.3f} s "
                      f"p90 {ts[int(0.9 * len(ts))] if ts else 0:.3f} s, {time.perf_counter() - t0:.0f} s", flush=True)
    summary(results)
    print(f"wall time {time.perf_counter() - t0:.0f} s, mean game {statistics.fmean(r[4] for r in results):.1f} s")


if __name__ == "__main__":
    main()
