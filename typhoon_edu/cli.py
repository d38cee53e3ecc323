"""The ``typhoon-edu`` command: play in the terminal, simulate bot games, serve the dashboard, open the lessons.

``play`` and ``simulate`` take ``--rules DIR``, a teacher's copy of the data files (``typhoon-edu rules copy DIR``);
``serve`` and ``lessons`` always use the shipped rules.

>>> build_parser().parse_args(["play", "--seed", "3", "--bots", "greedy"]).seed
3
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

from .ai.tournament import BOT_KINDS, TournamentResult, make_bot, run_tournament
from .answers_cmd import add_parser as add_answers_parser
from .argparse_lang import argparse_in, cli_lang, file_path, language, whole_number
from .describe import banner, describe_action
from .engine.game import CHANCE, Game
from .engine.rules import IllegalActionError, Rules, SaveFileError, load_rules
from .engine.savefile import MAX_RECORD_BYTES, game_from_json, game_to_json
from .fileio import FileTooLarge, NotARegularFile, atomic_write_file, atomic_write_text, os_reason, read_bounded
from .i18n import (
    card_name,
    cell_label,
    direction_name,
    error_text,
    in_log,
    level_name,
    narrate,
    normalize_lang,
    region_name,
    t,
    typhoon_label,
)
from .lessons_cmd import add_parser as add_lessons_parser
from .rules_cmd import add_parser as add_rules_parser
from .rules_cmd import rules_from, rules_line, run_tournament_in
from .server.serve_command import add_serve_arguments, run_serve
from .teacher_cmd import add_parser as add_teacher_parser
from .textboard import text_map
from .typed import echo, small_whole

PEOPLE = ("human", "person", "you")
#: The most games one ``simulate`` plays (each takes a few milliseconds; the list of games is held in memory).
MAX_GAMES = 1_000_000
#: The most worker processes ``simulate --jobs`` starts.
MAX_JOBS = 64
#: The seeds a game takes (a signed 64-bit whole number).
SEED_LOW, SEED_HIGH = -(2**63), 2**63 - 1


class CliError(ValueError):
    """A bad command-line argument: a ``cli.err`` catalog key and its fields (told in English by ``str``).

    >>> CliError("jobs", jobs=0).text("zh-TW")
    '--jobs 至少要 1，不能是 0'
    """

    def __init__(self, key: str, **fields: object) -> None:
        self.key = key
        self.fields = fields
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        """The message in ``lang``; an engine error or a system's refusal among the fields is translated too.

        >>> CliError("load_read", path="g.json", reason=FileNotFoundError(2, "No such file or directory")).text("zh-TW")
        '--load：無法讀取 g.json（沒有這個檔案或資料夾）'
        """
        values = {k: _field_text(v, lang) for k, v in self.fields.items()}
        return t(f"cli.err.{self.key}", lang, **values)


class _LangText(dict):
    """A field of a :class:`CliError` that is written differently in each language (its keys)."""


def _field_text(value: object, lang: str) -> object:
    if isinstance(value, _LangText):
        return value.get(lang, value["en"])
    if isinstance(value, OSError):
        return os_reason(value, lang)
    if isinstance(value, BaseException):
        return _engine_text(value, lang)
    return value


def _engine_text(exc: BaseException, lang: str) -> str:
    """An engine error for the terminal: its full English text, or the catalog's sentence in another language."""
    return str(exc) if lang == "en" else error_text(exc, lang)


def _players(text: str | None, n: int | None, seed: int, lang: str = "en", rules: Rules | None = None) -> list[str]:
    """The regions of ``rules`` (default: the shipped ones) ``--players`` names (``n`` of them dealt with ``seed``
    when it names none); a name that is no region is refused naming the regions there are, in ``lang``.

    >>> _players("台灣, japan,Korea", None, 0)
    ['Taiwan', 'Japan', 'Korea']
    >>> _players("Taiwan,Mars,Korea", None, 0, "zh-TW")
    Traceback (most recent call last):
    ...
    typhoon_edu.cli.CliError: --players: unknown region 'Mars'; the regions are: Taiwan, Philippines, Korea, \
Central China, South China, Japan (English or Chinese names)
    """
    rules = rules or load_rules()
    sep = "、" if lang == "zh-TW" else ", "
    if text is not None:
        names = [p.strip() for p in text.split(",") if p.strip()]
        if not names:  # "" or "," (an empty shell variable): not a deal at random
            raise CliError("players_empty", regions=sep.join(region_name(rules, r, lang) for r in rules.regions))
        try:
            return [rules.region_key(p) for p in names]
        except ValueError as exc:
            fields = getattr(exc, "fields", {})
            if getattr(exc, "kind", None) == "unknown_region" and "name" in fields:
                # told in the command's language with the regions there are (the engine's own zh-TW sentence names none)
                regions = {"en": ", ".join(rules.regions), "zh-TW": "、".join(region_name(rules, r, "zh-TW")
                                                                               for r in rules.regions)}
                raise CliError("players_region", name=fields["name"], regions=_LangText(regions)) from None
            raise CliError("players", error=exc) from None
    import random

    return random.Random(seed).sample(list(rules.regions), n or 4)


def _seat_kinds(text: str | None, n: int, default: Sequence[str]) -> list[str]:
    if text is None:
        return list(default)[:n] + [default[-1]] * max(0, n - len(default))
    kinds = [k.strip().lower() for k in text.split(",") if k.strip()]
    if not kinds:
        raise CliError("bots_empty")
    allowed = BOT_KINDS + PEOPLE
    for k in kinds:
        if k not in allowed:
            # a list in a sentence: ``random, greedy, mcts`` / ``random、greedy、mcts`` (the catalogs' list separator)
            raise CliError("bots_kind", kind=k, kinds=_LangText({code: t("lang.list_sep", code).join(BOT_KINDS)
                                                                 for code in ("en", "zh-TW")}))
    if len(kinds) == 1:
        return kinds * n
    if len(kinds) != n:
        raise CliError("bots_count", seats=n, got=len(kinds))
    return kinds


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command's parser, its help in ``lang`` (en or zh-TW).

    >>> "在終端機裡玩一局" in build_parser("zh-TW").format_help()
    True
    >>> args = build_parser().parse_args(["--lang", "zh-TW", "play"])
    >>> args.command_lang, args.lang
    ('zh-TW', None)
    """
    def h(key: str) -> str:
        return t(f"cli.help.{key}", lang)

    number, path, code = whole_number(lang), file_path(lang), language(lang)
    p = argparse.ArgumentParser(prog="typhoon-edu", description=h("description"))
    # Before the command (typhoon-edu --lang zh-TW play): its own dest, so a command's --lang default cannot hide it.
    p.add_argument("--lang", dest="command_lang", type=code, default=None, metavar="LANG", help=h("lang_top"))
    sub = p.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help=h("play"), description=h("play"))
    play.add_argument("--players", help=h("players"))
    play.add_argument("--bots", help=h("bots_play"))
    play.add_argument("--seed", type=number, default=None, help=h("seed_play"))
    play.add_argument("--lang", type=code, default=None, help=h("lang"))
    play.add_argument("--variant", default="standard", choices=("standard", "advanced"), help=h("variant"))
    play.add_argument("--dice", default="auto", choices=("auto", "manual"), help=h("dice"))
    play.add_argument("--save", type=path, help=h("save"))
    play.add_argument("--load", type=path, help=h("load"))
    play.add_argument("--overwrite", action="store_true", help=h("overwrite"))
    play.add_argument("--hints", action="store_true", help=t("coach.cli.help", lang))
    play.add_argument("--rules", type=path, metavar="DIR", help=h("rules_play"))

    sim = sub.add_parser("simulate", help=h("simulate"), description=h("simulate"))
    sim.add_argument("games", type=number, help=h("games"))
    sim.add_argument("--bots", default="greedy", help=h("bots_sim"))
    sim.add_argument("--players", help=h("players_sim"))
    sim.add_argument("--seats", type=number, default=4, help=h("seats"))
    sim.add_argument("--seed", type=number, default=0, help=h("seed_sim"))
    sim.add_argument("--variant", default="standard", choices=("standard", "advanced"), help=h("variant"))
    sim.add_argument("--jobs", type=number, default=1, help=h("jobs"))
    sim.add_argument("--csv", type=path, help=h("csv"))
    sim.add_argument("--lang", type=code, default=None, help=h("lang"))
    sim.add_argument("--rules", type=path, metavar="DIR", action="append", help=h("rules_sim"))

    add_serve_arguments(sub.add_parser("serve", help=h("serve"), description=h("serve")), lang)

    add_lessons_parser(sub, h, lang)
    add_teacher_parser(sub, h, lang)
    add_answers_parser(sub, h, lang)
    add_rules_parser(sub, h, lang)
    return p


# ---------------------------------------------------------------------------------------- play
class TerminalGame:
    """Runs a game at the terminal: bots move, people choose from numbered actions."""

    def __init__(self, game: Game, kinds: Sequence[str], lang: str, *, out: TextIO, ask: Callable[[str], str],
                 save: Path | None = None, seed: int = 0, hints: bool = False) -> None:
        self.game = game
        self.hints = hints
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
                   compass=direction_name(rules, g.compass, lang)))
        self.say("  " + "  ".join(f"{region_name(rules, p, lang)} {g.hp[p]}/{rules.regions[p].hp}" for p in g.players))
        for ty in g.typhoons_:
            where = {"typhoon": typhoon_label(ty.id, lang), "cell": cell_label(ty.eye, lang),
                     "level": level_name(rules, ty.level, lang)}
            if ty.direction:
                self.say("  " + t("cli.storm_heading", lang, direction=direction_name(rules, ty.direction, lang), **where))
            else:
                self.say("  " + t("cli.storm", lang, **where))
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
        if self.hints:
            from .ai.coach import hint, hint_text

            h = hint(g, player)
            self.say(t("coach.cli.hint", lang, n=actions.index(h.action) + 1, text=hint_text(h, lang, g.rules)))
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
            choice = small_whole(answer)  # not isdigit: "²" is a digit int() refuses; nor 5,000 digits
            if choice is not None and 1 <= choice <= len(actions):
                self.narrate(g.apply(actions[choice - 1]))
                return True
            self.say(t("cli.bad_choice", lang, text=echo(answer), n=len(actions)))

    def die_turn(self) -> bool:
        g, lang = self.game, self.lang
        while True:
            try:
                answer = self.ask(banner(g, lang) + " ").strip()
            except EOFError:
                return False
            if answer in ("q", "quit"):
                return False
            face = small_whole(answer)
            if face is not None and 1 <= face <= 6:
                self.narrate(g.apply(face))
                return True
            self.say(t("cli.bad_face", lang, text=echo(answer)))

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
                try:
                    atomic_write_text(self.save, game_to_json(g))
                except OSError as exc:
                    raise CliError("save_write", path=self.save, reason=exc) from None
            if not ok:
                self.say(t("cli.stopped", self.lang))
                return 0
        rules = g.rules
        self.say()
        self.say(banner(g, self.lang))
        for p in sorted(g.players, key=lambda p: -g.hp[p]):
            self.say(f"  {region_name(rules, p, self.lang)}: {g.hp[p]}")
        people = [p for p, k in self.kinds.items() if k in PEOPLE]
        if self.hints and people:
            self.say_review(people)
        return 0

    def say_review(self, people: Sequence[str]) -> None:
        """After the game: each person's "what you could try" list from the coach."""
        from .ai.coach import review, review_text

        g, lang = self.game, self.lang
        self.say()
        self.say(t("coach.cli.reviewing", lang))
        for p, items in review(g, people).items():
            self.say(t("coach.cli.review_head", lang, player=region_name(g.rules, p, lang)))
            for item in items:
                self.say("  - " + review_text(item, lang, g.rules))
            if not items:
                self.say("  " + t("coach.none", lang))


def load_game_file(path: Path, rules: Rules | None = None) -> Game:
    """The game saved in ``path`` (``--load``) with ``rules`` (default: the shipped ones), every error naming the
    file (:class:`CliError`).

    The file must be a regular file within the save-file size limit; it is read once, then
    checked and replayed by :func:`~typhoon_edu.engine.savefile.game_from_json`.
    """
    try:
        raw = read_bounded(path, MAX_RECORD_BYTES)
    except FileTooLarge as exc:
        raise CliError("load_bad", path=path, error=SaveFileError(str(exc), kind="too_large")) from None
    except OSError as exc:  # missing, a folder, a device, no permission …: said in the reader's language
        raise CliError("load_read", path=path, reason=exc) from None
    try:
        return game_from_json(raw, rules)
    except SaveFileError as exc:
        if exc.kind == "rules":  # played with other rules: say how to load it with them (or without them)
            raise CliError("load_rules", path=path, error=exc) from None
        raise CliError("load_bad", path=path, error=exc) from None


def cmd_play(args: argparse.Namespace, out: TextIO, ask: Callable[[str], str]) -> int:
    lang = normalize_lang(args.lang)
    rules = rules_from(args.rules, lang) if args.rules is not None else None  # a teacher's folder, checked first
    if args.save is not None:
        _check_save(args.save)  # before the first move: a person's move is not lost to a mistyped folder
        if not args.overwrite and _would_replace_another(args.save, args.load):
            raise CliError("save_exists", path=args.save)
    if args.load:
        game = load_game_file(args.load, rules)
        seed = game.seed
    else:
        import random

        if args.seed is not None and not SEED_LOW <= args.seed <= SEED_HIGH:
            raise CliError("seed", seed=args.seed, low=SEED_LOW, high=SEED_HIGH)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        players = _players(args.players, None, seed, lang, rules)
        game = Game.new(players, seed=seed, variant=args.variant, dice=args.dice,
                        rules=rules)  # its ValueError names the rule
    n = len(game.players)
    default = ["human", "greedy"] if sys.stdin.isatty() else ["greedy"]
    kinds = _seat_kinds(args.bots, n, default)
    if rules is not None:
        out.write(rules_line(rules, args.rules, lang) + "\n")
    return TerminalGame(game, kinds, lang, out=out, ask=ask, save=args.save, seed=seed, hints=args.hints).run()


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


def summary_lines(res: TournamentResult, lang: str = "en", rules: Rules | None = None) -> list[str]:
    """The summary ``simulate`` prints: win rates per region (of ``rules``, default the shipped ones) and bot."""
    rules = rules or load_rules()
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
        raise CliError("games", games=args.games)
    if args.games > MAX_GAMES:
        raise CliError("games_most", games=args.games, most=f"{MAX_GAMES:,}")
    if args.jobs < 1:
        raise CliError("jobs", jobs=args.jobs)
    if args.jobs > MAX_JOBS:
        raise CliError("jobs_most", jobs=args.jobs, most=MAX_JOBS)
    if not SEED_LOW <= args.seed <= SEED_HIGH - (args.games - 1):  # game i uses seed + i
        raise CliError("seed_games", seed=args.seed, games=args.games, low=SEED_LOW, high=SEED_HIGH - (args.games - 1))
    folders: list[Path] = args.rules or []
    editions = [rules_from(f, lang) for f in folders]  # every folder checked before the first game
    if args.csv is not None and len(folders) > 1:
        raise CliError("csv_rules", count=len(folders))
    rules = editions[0] if editions else None
    players = _players(args.players, None, 0, lang, rules) if args.players is not None else None
    for other in editions[1:]:  # the same regions in every folder (the games are played alike)
        if players is not None:
            _players(args.players, None, 0, lang, other)
    listed = [k for k in (args.bots or "").split(",") if k.strip()]
    seats = len(players) if players else (len(listed) if len(listed) > 1 else args.seats)
    if not 3 <= seats <= 5:
        raise CliError("seats", seats=seats)
    kinds = _seat_kinds(args.bots, seats, ["greedy"])
    if any(k in PEOPLE for k in kinds):
        raise CliError("people")
    stream = args.csv is not None and _is_stream(args.csv)  # /dev/stdout, a pipe: written as it is
    if args.csv and not stream:
        _check_writable(args.csv, "csv_write")  # before the games: a long run's table is not lost to a mistyped folder
    if not folders:
        res = run_tournament(args.games, kinds, seed=args.seed, players=players, variant=args.variant,
                             jobs=args.jobs, progress=_progress)
        for line in summary_lines(res, lang):
            out.write(line + "\n")
    for i, (folder, edition) in enumerate(zip(folders, editions, strict=True)):  # the same seeds in each
        res = run_tournament_in(folder, args.games, kinds, seed=args.seed, players=players, variant=args.variant,
                                jobs=args.jobs, progress=_progress)
        if i:
            out.write("\n")
        out.write(rules_line(edition, folder, lang) + "\n")
        for line in summary_lines(res, lang, edition):
            out.write(line + "\n")
    if args.csv:
        try:
            if stream:
                res.write_csv(args.csv)
            else:
                atomic_write_file(args.csv, res.write_csv)  # a disk full half-way leaves the old table, no half file
        except OSError as exc:
            raise CliError("csv_write", path=args.csv, reason=exc) from None
        out.write(t("cli.sim_csv", lang, path=str(args.csv)) + "\n")
    return 0


def _is_stream(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a character device or a pipe (``/dev/stdout``, ``/dev/null``, a FIFO).

    >>> _is_stream("/dev/null"), _is_stream("/"), _is_stream("/no/such/file")
    (True, False, False)
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _not_a_file(path: str | os.PathLike[str], key: str) -> bool:
    """Raise ``CliError(key)`` for a folder, a device, a pipe or a socket at ``path``; whether a file is there."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:  # a file where a folder should be, a folder this user may not enter …
        raise CliError(key, path=path, reason=exc) from None
    if stat.S_ISDIR(info.st_mode):
        raise CliError(key, path=path, reason=NotARegularFile(f"{path} is a folder", "folder"))
    if not stat.S_ISREG(info.st_mode):
        raise CliError(key, path=path, reason=NotARegularFile(f"{path} is not a regular file"))
    return True


def _check_writable(path: str | os.PathLike[str], key: str) -> None:
    """Raise ``CliError(key)`` unless ``path`` can be written (a new file made to find out is removed).

    >>> _check_writable("/", "csv_write")
    Traceback (most recent call last):
    ...
    typhoon_edu.cli.CliError: --csv: cannot write / (it is a folder, not a file)
    """
    existed = _not_a_file(path, key)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o666))
    except OSError as exc:
        raise CliError(key, path=path, reason=exc) from None
    if not existed:
        os.remove(path)


def _would_replace_another(save: Path, load: Path | None) -> bool:
    """Whether ``--save`` names an existing file other than the game being continued (``--load``).

    Saving over the loaded game is how a saved game goes on; saving over any other file would lose it.
    """
    if not save.exists() and not save.is_symlink():  # a link to nothing is still a name someone made
        return False
    try:
        return load is None or not save.samefile(load)
    except OSError:  # the loaded file vanished meanwhile: treat the save as another file
        return True


def _check_save(path: Path) -> None:
    """Raise ``CliError("save_write")`` unless a save can replace ``path``: :func:`atomic_write_text` writes a
    new file in its folder and renames it (one made here to find out is removed)."""
    _not_a_file(path, "save_write")
    import tempfile

    try:
        fd, made = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise CliError("save_write", path=path, reason=exc) from None
    os.close(fd)
    os.remove(made)


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None,
         ask: Callable[[str], str] | None = None) -> int:
    """Entry point of the ``typhoon-edu`` command; returns the exit code."""
    out = out or sys.stdout
    lang = cli_lang(sys.argv[1:] if argv is None else argv)
    with argparse_in(lang):
        args = build_parser(lang).parse_args(argv)
    if args.command in ("play", "simulate") and args.lang is None:  # the game talks as the command does
        args.lang = lang
    try:
        if args.command == "play":
            return cmd_play(args, out, ask or input)
        if args.command == "simulate":
            return cmd_simulate(args, out)
        if args.command == "teacher":
            from .teacher_cmd import run as run_teacher

            return run_teacher(args, lang, out)
        if args.command == "answers":
            from .answers_cmd import run as run_answers

            return run_answers(args, lang, out)
        if args.command == "rules":
            from .rules_cmd import run as run_rules

            return run_rules(args, lang, out)
        if args.command == "lessons":
            from .lessons_cmd import run as run_lessons

            return run_lessons(args, lang, out)
        if args.command == "serve":
            return run_serve(args, lang)
    except CliError as exc:
        sys.stderr.write(t("cli.err.prefix", lang, error=exc.text(lang)) + "\n")
        return 2
    except ValueError as exc:
        sys.stderr.write(t("cli.err.prefix", lang, error=_engine_text(exc, lang)) + "\n")
        return 2
    except BrokenPipeError:
        # the reader left (``typhoon-edu play --bots random | head``): stop quietly, as other command-line tools do;
        # later writes (the interpreter's own flush at exit) go nowhere instead of failing again
        if out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a pipe's writer that stopped
    return 1  # pragma: no cover - argparse requires a command


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
