"""The ``typhoon-edu`` command: play in the terminal, simulate bot games, serve the dashboard.

>>> build_parser().parse_args(["play", "--seed", "3", "--bots", "greedy"]).seed
3
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

from .ai.tournament import BOT_KINDS, TournamentResult, make_bot, run_tournament
from .describe import banner, describe_action
from .engine.game import CHANCE, Game
from .engine.rules import IllegalActionError, SaveFileError, load_rules
from .engine.savefile import game_from_json, game_to_json
from .i18n import card_name, error_text, in_log, level_name, narrate, normalize_lang, region_name, t
from .textboard import text_map

PEOPLE = ("human", "person", "you")


class CliError(ValueError):
    """A bad command-line argument."""


def _players(text: str | None, n: int | None, seed: int) -> list[str]:
    rules = load_rules()
    if text:
        try:
            return [rules.region_key(p.strip()) for p in text.split(",") if p.strip()]
        except ValueError as exc:
            raise CliError(f"--players: {exc}") from None
    import random

    return random.Random(seed).sample(list(rules.regions), n or 4)


def _seat_kinds(text: str | None, n: int, default: Sequence[str]) -> list[str]:
    if not text:
        return list(default)[:n] + [default[-1]] * max(0, n - len(default))
    kinds = [k.strip().lower() for k in text.split(",") if k.strip()]
    allowed = BOT_KINDS + PEOPLE
    for k in kinds:
        if k not in allowed:
            raise CliError(f"--bots: unknown player kind {k!r}; use {', '.join(BOT_KINDS)} or human")
    if len(kinds) == 1:
        return kinds * n
    if len(kinds) != n:
        raise CliError(f"--bots: give one kind for all seats or one per seat ({n} seats); got {len(kinds)}")
    return kinds


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="typhoon-edu", description="Typhoon Alert (颱風不要來) for the classroom.")
    sub = p.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a game in the terminal (you and bots, or bots only)")
    play.add_argument("--players", help="regions in seat order, e.g. Taiwan,Japan,Korea,Philippines (3 to 5)")
    play.add_argument("--bots", help="random, greedy or mcts for all bot seats, or one kind per seat "
                                     "(human for a person), e.g. human,greedy,greedy,random")
    play.add_argument("--seed", type=int, default=None, help="seed for dice and shuffles (a whole number)")
    play.add_argument("--lang", default="en", help="en or zh-TW")
    play.add_argument("--variant", default="standard", choices=("standard", "advanced"))
    play.add_argument("--dice", default="auto", choices=("auto", "manual"),
                      help="manual: type the face of a real die for every roll")
    play.add_argument("--save", type=Path, help="save the game to this file after every action")
    play.add_argument("--load", type=Path, help="continue a saved game")

    sim = sub.add_parser("simulate", help="play many bot games and print win rates")
    sim.add_argument("games", type=int, help="how many games")
    sim.add_argument("--bots", default="greedy", help="bot kind for every seat, or one per seat: random,greedy,mcts")
    sim.add_argument("--players", help="fixed regions (default: dealt at random each game)")
    sim.add_argument("--seats", type=int, default=4, help="number of seats when --bots names one kind (3 to 5)")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--variant", default="standard", choices=("standard", "advanced"))
    sim.add_argument("--jobs", type=int, default=1, help="worker processes (use 2 for both cores)")
    sim.add_argument("--csv", type=Path, help="write one row per player per game to this CSV file")
    sim.add_argument("--lang", default="en", help="en or zh-TW")

    serve = sub.add_parser("serve", help="start the class-play dashboard in Voilà")
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument("--lang", default="zh-TW", help="zh-TW or en")
    serve.add_argument("--no-browser", action="store_true", help="do not open a browser")
    return p


# ---------------------------------------------------------------------------------------- play
class TerminalGame:
    """Runs a game at the terminal: bots move, people choose from numbered actions."""

    def __init__(self, game: Game, kinds: Sequence[str], lang: str, *, out: TextIO, ask: Callable[[str], str],
                 save: Path | None = None, seed: int = 0) -> None:
        self.game = game
        self.lang = lang
        self.out = out
        self.ask = ask
        self.save = save
        self.kinds = dict(zip(game.players, kinds, strict=True))
        self.bots = {p: make_bot(k, seed * 17 + i) for i, (p, k) in enumerate(self.kinds.items()) if k not in PEOPLE}
        people = [p for p, k in self.kinds.items() if k in PEOPLE]
        self.viewer = people[0] if len(people) == 1 else None

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def narrate(self, events: Iterable) -> None:
        from .engine.events import filter_events

        for e in filter_events(list(events), self.viewer):
            if not in_log(e) or e.kind == "TyphoonStepped":
                continue
            self.say("  " + narrate(e, self.lang, self.game.rules))

    def show(self, player: str) -> None:
        g, lang, rules = self.game, self.lang, self.game.rules
        self.say()
        self.say(text_map(g))
        self.say(t("cli.round", lang, round=g.round, player=region_name(rules, g.active, lang),
                   compass=g.compass))
        self.say("  " + "  ".join(f"{region_name(rules, p, lang)} {g.hp[p]}/{rules.regions[p].hp}" for p in g.players))
        for ty in g.typhoons_:
            self.say(f"  T{ty.id} {ty.eye} {level_name(rules, ty.level, lang)} {ty.direction}")
        self.say(t("cli.hand", lang, player=region_name(rules, player, lang)))
        for key in g.hand(player):
            card = rules.cards[key]
            text = card.text_zh if lang == "zh-TW" else card.text_en
            self.say(f"  - {card_name(rules, key, lang)}: {text}")

    def human_turn(self, player: str) -> bool:
        g, lang = self.game, self.lang
        self.show(player)
        actions = g.legal_actions()
        self.say(banner(g, lang))
        for i, a in enumerate(actions, 1):
            self.say(f"  {i:2d}. {describe_action(a, g, lang)}")
        while True:
            try:
                answer = self.ask(t("cli.choose", lang, n=len(actions))).strip().lower()
            except EOFError:
                return False
            if answer in ("q", "quit"):
                return False
            if answer in ("u", "undo"):
                try:
                    g.undo()
                    self.say(t("cli.undone", lang))
                    return True
                except IllegalActionError as exc:
                    self.say(t("cli.error", lang, error=error_text(exc, lang)))
                    continue
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                self.narrate(g.apply(actions[int(answer) - 1]))
                return True
            self.say(t("cli.bad_choice", lang, text=answer, n=len(actions)))

    def die_turn(self) -> bool:
        g, lang = self.game, self.lang
        while True:
            try:
                answer = self.ask(banner(g, lang) + " ").strip()
            except EOFError:
                return False
            if answer in ("q", "quit"):
                return False
            if answer.isdigit() and 1 <= int(answer) <= 6:
                self.narrate(g.apply(int(answer)))
                return True
            self.say(t("cli.bad_face", lang, text=answer))

    def run(self) -> int:
        g = self.game
        self.narrate(g.events)
        while not g.is_over:
            who = g.current_player
            if who == CHANCE:
                ok = self.die_turn()
            elif self.kinds.get(who) in PEOPLE:
                ok = self.human_turn(who)  # type: ignore[arg-type]
            else:
                self.narrate(g.apply(self.bots[who].choose(g)))  # type: ignore[index]
                ok = True
            if self.save is not None:
                self.save.write_text(game_to_json(g), encoding="utf-8")
            if not ok:
                self.say(t("cli.stopped", self.lang))
                return 0
        rules = g.rules
        self.say()
        self.say(banner(g, self.lang))
        for p in sorted(g.players, key=lambda p: -g.hp[p]):
            self.say(f"  {region_name(rules, p, self.lang)}: {g.hp[p]}")
        return 0


def cmd_play(args: argparse.Namespace, out: TextIO, ask: Callable[[str], str]) -> int:
    lang = normalize_lang(args.lang)
    if args.load:
        try:
            game = game_from_json(args.load.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CliError(f"--load: cannot read {args.load} ({exc.strerror})") from None
        except SaveFileError as exc:
            raise CliError(f"--load: {args.load}: {exc}") from None
        seed = game.seed
    else:
        import random

        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        players = _players(args.players, None, seed)
        try:
            game = Game.new(players, seed=seed, variant=args.variant, dice=args.dice)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    n = len(game.players)
    default = ["human", "greedy"] if sys.stdin.isatty() else ["greedy"]
    kinds = _seat_kinds(args.bots, n, default)
    return TerminalGame(game, kinds, lang, out=out, ask=ask, save=args.save, seed=seed).run()


# ------------------------------------------------------------------------------------ simulate
def _progress(it: Iterable, total: int) -> Iterable:
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return it
    return tqdm(it, total=total, unit="game", file=sys.stderr, mininterval=0.5)


def _pad(text: str, width: int) -> str:
    """Pad to ``width`` terminal columns (Chinese characters take two)."""
    import unicodedata

    cols = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - cols)


def summary_lines(res: TournamentResult, lang: str = "en") -> list[str]:
    rules = load_rules()
    lines = [t("cli.sim_head", lang, games=len(res.games))]
    for name, games, rate, lo, hi in res.table("region"):
        lines.append(f"  {_pad(region_name(rules, name, lang), 16)} {games:6d}  {rate:6.1%}  [{lo:.1%}, {hi:.1%}]")
    kinds = {b for g in res.games for b in g.bots}
    if len(kinds) > 1:
        lines.append(t("cli.sim_bots", lang))
        for name, games, rate, lo, hi in res.table("bot"):
            lines.append(f"  {_pad(name, 16)} {games:6d}  {rate:6.1%}  [{lo:.1%}, {hi:.1%}]")
    lines.append(t("cli.sim_length", lang, rounds=f"{res.mean_rounds:.2f}", decisions=f"{res.mean_decisions:.1f}"))
    lines.append(t("cli.sim_early", lang, share=f"{res.early_share:.1%}"))
    return lines


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    lang = normalize_lang(args.lang)
    if args.games < 1:
        raise CliError(f"the number of games must be at least 1, not {args.games}")
    if args.jobs < 1:
        raise CliError(f"--jobs must be at least 1, not {args.jobs}")
    players = _players(args.players, None, 0) if args.players else None
    listed = [k for k in (args.bots or "").split(",") if k.strip()]
    seats = len(players) if players else (len(listed) if len(listed) > 1 else args.seats)
    if not 3 <= seats <= 5:
        raise CliError(f"a game has 3 to 5 seats, not {seats}")
    kinds = _seat_kinds(args.bots, seats, ["greedy"])
    if any(k in PEOPLE for k in kinds):
        raise CliError("simulate plays bots only; use random, greedy or mcts")
    res = run_tournament(args.games, kinds, seed=args.seed, players=players, variant=args.variant, jobs=args.jobs,
                         progress=_progress)
    for line in summary_lines(res, lang):
        out.write(line + "\n")
    if args.csv:
        res.write_csv(args.csv)
        out.write(t("cli.sim_csv", lang, path=str(args.csv)) + "\n")
    return 0


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None,
         ask: Callable[[str], str] | None = None) -> int:
    """Entry point of the ``typhoon-edu`` command; returns the exit code."""
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "play":
            return cmd_play(args, out, ask or input)
        if args.command == "simulate":
            return cmd_simulate(args, out)
        if args.command == "serve":
            from .ui.serve import serve

            return serve(port=args.port, lang=normalize_lang(args.lang), open_browser=not args.no_browser)
    except (CliError, ValueError) as exc:
        sys.stderr.write(f"typhoon-edu: error: {exc}\n")
        return 2
    return 1  # pragma: no cover - argparse requires a command


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
