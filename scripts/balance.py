"""Balance the edition (docs/rules.md §12): search for the starting HP (and, if needed, the deck and abilities), then confirm.

    python scripts/balance.py --search  [--decks 0,9,14] [--ability-stages 2] [--rounds 8] [--radius 3]
                                        [--games 2000,3000,2000] [--jobs 2] [--out docs/balance_search.md]
    python scripts/balance.py --confirm [--hp 'Taiwan=42,...'] [--deck K | --counts key=N,...]
                                        [--abilities 'Central China=1'] [--games 4000,10000,4000] [--jobs 2]
                                        [--out docs/balance_run.md]
    python scripts/balance.py --compare 'TW+1=abilities:Taiwan=1' 'PH 43=hp:Philippines=43;abilities:Taiwan=1' ...
                                        [--seats 3,4,5] [--games 4000] [--out docs/balance_compare.md]
    python scripts/balance.py --probe   [--hp ...] [--deck K] [--abilities ...] [--seats 4] [--games 1000]
    python scripts/balance.py --games 10000 [--seats 4]          # one table, the edition as it is

``--search`` plays GreedyBot in every seat with regions dealt at random, for 3, 4 and 5 players.
Its first stage keeps the edition's deck and abilities and searches the starting HP alone
(typhoon_edu.ai.balance.search: each round plays the best HP so far and a few candidates near it on
the same fresh games, the candidates coming from a surrogate that replays the recorded damage
against other HP and from single-region moves toward the fair share). Each later stage changes
the deck by the next steps of ``DECK_STEPS`` (a card that keeps storms off the land becomes one
that brings them to land) and starts from the HP found so far; after the deck stages, each
ability stage makes one region's ability one step stronger (the region farthest below its fair
share). The search stops at the first stage whose answer meets the targets. Seeds are fixed, so
a rerun plays the same games and finds the same numbers. ``--compare`` plays a few named
variants of the edition (HP, card counts, ability steps) on the same games (seeds 3,000,000
upward, other games than the search's and the confirmation's), one row each. ``--confirm`` plays the full runs (seeds
0 upward, other games than the search's) for one edition and reports every region and seat
against the targets.

The reports' numbers come only from these runs. Run it under ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typhoon_edu.ai.balance import (  # noqa: E402
    CONFIRM_GAMES,
    PRE_BALANCE_COUNTS,
    PRE_BALANCE_HP,
    PRE_BALANCE_STRENGTHS,
    REGION_TOLERANCE,
    SEAT_TOLERANCE,
    Measured,
    Step,
    Surrogate,
    ability_strength,
    ability_to_strengthen,
    best_step,
    deck_counts,
    edition_counts,
    edition_hp,
    edition_variant,
    evenness,
    fit_hp,
    measure,
    pre_balance_abilities,
    search,
)
from typhoon_edu.ai.tournament import TournamentResult  # noqa: E402
from typhoon_edu.engine.rules import load_rules  # noqa: E402

RULES = load_rules()
SHORT = {"Taiwan": "TW", "Philippines": "PH", "Korea": "KR", "CentralChina": "CC", "Central China": "CC",
         "SouthChina": "SC", "South China": "SC", "Japan": "JP"}


def _short(key: str) -> str:
    return SHORT.get(key, key[:2].upper())


def _hp_text(hp: dict[str, int]) -> str:
    return " ".join(f"{_short(k)} {v}" for k, v in hp.items())


def _counts_text(counts: dict[str, int]) -> str:
    """The deck's changes from the pre-balance deck (where the search starts)."""
    base = PRE_BALANCE_COUNTS
    return (", ".join(f"{k} {base[k]}→{v}" for k, v in counts.items() if v != base[k])
            or "the pre-balance deck")


def _games_arg(text: str) -> dict[int, int]:
    parts = [int(x) for x in text.split(",")]
    if len(parts) != 3 or min(parts) < 1:
        raise argparse.ArgumentTypeError("give three numbers of games, for 3, 4 and 5 players: e.g. 800,1200,800")
    return dict(zip((3, 4, 5), parts, strict=True))


def _pairs_arg(text: str) -> dict[str, int]:
    out = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        try:
            out[key.strip()] = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r}: write NAME=NUMBER, e.g. Taiwan=47") from None
    return out


def _worst(m: Measured) -> tuple[float, float]:
    """The worst region's and the worst seat's distance from the fair share, in points."""
    fair = 1 / m.n_players
    return (100 * max(abs(v - fair) for v in m.regions.values()),
            100 * max(abs(v - fair) for v in (*m.seats.values(), *m.deal_seats.values())))


# ---------------------------------------------------------------------------------------- search
def _abilities_text(abilities: dict[str, int]) -> str:
    """The abilities' strengths that differ from the pre-balance ones (``abilities`` are steps from the edition's)."""
    parts = []
    for key, region in RULES.regions.items():
        if ability_strength(region.ability.effect) is None:
            continue
        before = PRE_BALANCE_STRENGTHS[key]
        after = ability_strength(edition_variant(abilities={key: abilities.get(key, 0)}).regions[key].ability.effect)
        if after != before:
            parts.append(f"{region.ability.name_en} ({region.name}) {before}→{after}")
    return ", ".join(parts) or "the pre-balance abilities"


def run_search(args: argparse.Namespace) -> None:
    decks = [int(x) for x in args.decks.split(",")]
    anchor = args.anchor if args.anchor is not None else sum(PRE_BALANCE_HP.values()) / len(PRE_BALANCE_HP)
    hp = {k: round(anchor) for k in edition_hp()}  # the first stage starts with every region equal
    log: list[dict[str, object]] = []
    lines = _search_header(args)
    out_md = args.out or Path("docs/balance_search.md")
    out_json = out_md.with_suffix(".json")
    t_all = time.time()
    first = 1
    count = 0
    best: Step | None = None
    abilities = pre_balance_abilities()  # the search starts from the pre-balance edition
    stages = [(k, None) for k in decks] + [(decks[-1], "ability")] * args.ability_stages
    for number, (k, kind) in enumerate(stages, start=1):
        counts = deck_counts(k)
        if kind == "ability":
            assert best is not None
            region = ability_to_strengthen(best)
            if region is None:
                lines += ["", "No region is below its fair share with an ability that can be made stronger: "
                              "the search ends here."]
                break
            abilities = {**abilities, region: abilities.get(region, 0) + 1}
        lines += ["", f"### Stage {number}: deck step {k} ({_counts_text(counts)}); abilities: "
                      f"{_abilities_text(abilities)}", "",
                  "| # | round | HP from | HP | 3 players: worst region / seat (points) | 4 players | 5 players "
                  "| score | evenness | s |",
                  "|---|---|---|---|---|---|---|---|---|---|"]

        def report(step: Step, k: int = k, lines: list[str] = lines) -> None:
            nonlocal count
            count += 1
            cells = []
            for n in (3, 4, 5):
                r, s = _worst(step.measured[n])
                cells.append(f"{r:.1f} / {s:.1f}")
            secs = sum(m.seconds for m in step.measured.values())
            even = evenness(step.measured)
            lines.append(f"| {count} | {step.round} | {step.how} | {_hp_text(step.hp)} | {' | '.join(cells)} | "
                         f"{step.score:.2f} | {even:.2f} | {secs:.0f} |")
            log.append({"n": count, "round": step.round, "deck": k, "counts": step.counts,
                        "abilities": step.abilities, "hp": step.hp,
                        "score": step.score, "evenness": even, "seconds": secs, "how": step.how,
                        "regions": {n: m.regions for n, m in step.measured.items()},
                        "seats": {n: m.seats for n, m in step.measured.items()},
                        "deal_seats": {n: m.deal_seats for n, m in step.measured.items()}})
            sys.stdout.write(lines[-1] + "\n")
            sys.stdout.flush()
            _write(out_md, out_json, lines, log)

        steps = search(hp, games=args.games, counts=counts, abilities=abilities, steps=args.rounds, seed=args.seed,
                       jobs=args.jobs, radius=args.radius, first=first, report=report, anchor=anchor)
        first = max(s.round for s in steps) + 1
        best = best_step(steps)
        hp = dict(best.hp)  # the next stage starts from this stage's answer
        lines += ["", f"This stage's answer: HP {_hp_text(best.hp)} (score {best.score:.2f} in its last round; "
                      "≤ 1.00 meets the targets)."]
        if best.score <= 1.0:
            break
    assert best is not None
    lines += ["", "## Result of the search", "",
              f"HP {_hp_text(best.hp)}; deck: {_counts_text(best.counts)}; abilities: "
              f"{_abilities_text(best.abilities)}; score {best.score:.2f} in the last round.",
              f"Total time {time.time() - t_all:.0f} s.", "",
              "Confirm it with:", "",
              "    " + _confirm_command(best.hp, {k: v for k, v in best.counts.items() if v != edition_counts()[k]},
                                       {k: v for k, v in best.abilities.items() if v})]
    _write(out_md, out_json, lines, log)
    sys.stdout.write("\n".join(lines[-6:]) + "\n")


def _confirm_command(hp: dict[str, int] | None = None, counts: dict[str, int] | None = None,
                     abilities: dict[str, int] | None = None, *, before: bool = False, deck: int | None = None,
                     games: dict[int, int] | None = None) -> str:
    """The ``--confirm`` command line for these options (empty ones left out)."""
    def pairs(d: dict[str, int]) -> str:
        return ",".join(f"{k}={v}" for k, v in d.items())
    return ("python scripts/balance.py --confirm" + (" --before" if before else "")
            + (f" --hp '{pairs(hp)}'" if hp else "") + (f" --deck {deck}" if deck is not None else "")
            + (f" --counts {pairs(counts)}" if counts else "")
            + (f" --abilities '{pairs(abilities)}'" if abilities else "")
            + (f" --games {games[3]},{games[4]},{games[5]}" if games else ""))


def _search_header(args: argparse.Namespace) -> list[str]:
    g = args.games
    return [
        "# Balance search log",
        "",
        "Written by `python scripts/balance.py --search "
        f"--decks {args.decks} --ability-stages {args.ability_stages} --rounds {args.rounds} --games {g[3]},{g[4]},{g[5]} --radius {args.radius} "
        f"--seed {args.seed}`; do not edit by hand.",
        "",
        f"Every round plays fresh GreedyBot games ({g[3]:,} with 3 players, {g[4]:,} with 4, {g[5]:,} with 5; "
        "regions dealt at random) for each of a few candidate HP vectors, all candidates of a round on "
        "the same seeds (so they meet the same deals and dice): the best so far (`incumbent`), the "
        "surrogate's fit (`surrogate`: the recorded damage of the incumbent's last rounds replayed "
        "against other HP, corrected by the difference between its real shares and the surrogate's "
        f"forecast for them, at most {args.radius} points away), and the regions farthest from their fair "
        "share moved one or two HP toward it (`Korea -1`). The most even candidate (the evenness "
        "column: the worst distance plus 0.3 × the root mean square of all, in tolerances) becomes the "
        "incumbent. The columns give the region and the seat farthest from the fair share, in points; "
        "seats are counted both in the order of play (from the start player) and in the deal order, "
        "and the worse is shown. The score is the worst distance divided by its tolerance "
        f"(regions ±{REGION_TOLERANCE[3] * 100:.0f}, ±{REGION_TOLERANCE[4] * 100:.0f}, "
        f"±{REGION_TOLERANCE[5] * 100:.0f} points for 3, 4, 5 players; seats ±{SEAT_TOLERANCE * 100:.0f}): "
        "at most 1.00 meets every target. A round's games are few, so its figures carry about ±2 "
        "points of luck; the full confirmation runs decide. A deck stage ends when a round meets the "
        "targets, after its rounds, or when the incumbent stays best for two rounds running; the next "
        "stage starts from its answer, with more cards moved by `DECK_STEPS`.",
    ]


def _write(out_md: Path, out_json: Path, lines: list[str], log: list[dict[str, object]]) -> None:
    out_md.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out_json.write_text(json.dumps(log, indent=1, sort_keys=True) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------------------- compare
def _variant_arg(text: str) -> tuple[str, dict[str, dict[str, int]]]:
    """``NAME=hp:Taiwan=43,Japan=40;abilities:Taiwan=1;counts:warm_ocean=11,evacuation=2`` (every part optional)."""
    name, sep, spec = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: write NAME=PART;PART, e.g. 'TW+1=abilities:Taiwan=1' "
                                         "(parts: hp:, counts:, abilities:; 'base=' for the edition as it is)")
    parts: dict[str, dict[str, int]] = {"hp": {}, "counts": {}, "abilities": {}}
    for part in filter(None, (x.strip() for x in spec.split(";"))):
        kind, colon, pairs = part.partition(":")
        if not colon or kind not in parts:
            raise argparse.ArgumentTypeError(f"{part!r}: a part starts with hp:, counts: or abilities:")
        parts[kind].update(_pairs_arg(pairs))
    return name.strip(), parts


def run_compare(args: argparse.Namespace) -> None:
    """Named variants of the edition on the same games: each region's win share, per number of players."""
    seats = args.compare_seats
    games = int(args.games) if args.games else 4_000
    keys = list(edition_hp())
    lines = ["# Variants of the edition on the same games", "",
             "`python scripts/balance.py --compare " + " ".join(f"'{v}'" for v in args.variant_specs)
             + f" --seats {args.seats} --games {games}`: {games:,} GreedyBot games per row (seeds {args.seed:,} "
             "upward, the same games in every row), regions dealt at random. Win shares in %; the last "
             "columns give the region and the seat farthest from the fair share, in points.", ""]
    for n in seats:
        lines += [f"## {n} players", "", "| variant | " + " | ".join(_short(k) for k in keys) + " | worst region | worst seat |",
                  "|---|" + "---|" * (len(keys) + 2)]
        for name, parts in args.compare_variants:
            hp = {**edition_hp(), **{RULES.region_key(k): v for k, v in parts["hp"].items()}}
            counts = {**edition_counts(), **parts["counts"]}
            abilities = {RULES.region_key(k): v for k, v in parts["abilities"].items()}
            m = measure(hp, n, games, seed=args.seed, jobs=args.jobs, counts=counts, abilities=abilities)
            region, seat = _worst(m)
            lines.append(f"| {name} | " + " | ".join(f"{100 * m.regions[k]:.1f}" if k in m.regions else "–" for k in keys)
                         + f" | {region:.1f} | {seat:.1f} |")
            sys.stdout.write(lines[-1] + "\n")
            sys.stdout.flush()
        lines.append("")
    if args.out:
        args.out.write_text("\n".join(lines), encoding="utf-8")


# ----------------------------------------------------------------------------------------- probe
def run_probe(args: argparse.Namespace) -> None:
    """How far one more HP moves a region: the same games with each region given +1 in turn."""
    hp = {k: 40 for k in edition_hp()} if args.hp is None else {**edition_hp(), **{RULES.region_key(k): v
                                                                                   for k, v in args.hp.items()}}
    counts = deck_counts(args.deck) if args.deck is not None else dict(args.counts or {})
    abilities = {RULES.region_key(k): v for k, v in (args.abilities or {}).items()}
    n = args.seats
    games = int(args.games) if args.games else 1_000
    keys = list(hp)
    lines = ["# One more HP: how far it moves a region", "",
             f"`python scripts/balance.py --probe --seats {n} --games {games}"
             + (f" --deck {args.deck}" if args.deck is not None else "") + "`: "
             f"{games:,} GreedyBot games with {n} players (seeds {args.seed} upward, the same games in every row), "
             f"first with HP {_hp_text(hp)}, deck: {_counts_text(counts)} and abilities: "
             f"{_abilities_text(abilities)}; then with one region given one HP "
             "more. Win shares in %.", "",
             "| HP | " + " | ".join(_short(k) for k in keys) + " | shared wins |",
             "|---|" + "---|" * (len(keys) + 1)]
    for label, trial in [("as given", hp)] + [(f"{_short(k)} +1", {**hp, k: hp[k] + 1}) for k in keys]:
        m = measure(trial, n, games, seed=args.seed, jobs=args.jobs, counts=counts, abilities=abilities)
        shares = m.regions
        shared = sum(len(g.winners) > 1 for g in m.rows) / m.games
        lines.append(f"| {label} | " + " | ".join(f"{100 * shares[k]:.1f}" for k in keys) + f" | {shared:.0%} |")
        sys.stdout.write(lines[-1] + "\n")
        sys.stdout.flush()
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")


# --------------------------------------------------------------------------------------- confirm
def run_confirm(args: argparse.Namespace) -> None:
    hp = dict(PRE_BALANCE_HP) if args.before else edition_hp()
    hp.update({RULES.region_key(k): v for k, v in (args.hp or {}).items()})
    counts = dict(PRE_BALANCE_COUNTS) if args.before else edition_counts()
    counts.update(deck_counts(args.deck) if args.deck is not None else dict(args.counts or {}))
    abilities = pre_balance_abilities() if args.before else {}
    abilities.update({RULES.region_key(k): v for k, v in (args.abilities or {}).items()})
    games = args.games or CONFIRM_GAMES
    command = _confirm_command(args.hp, args.counts, args.abilities, before=args.before, deck=args.deck, games=games)
    lines = [
        "# Balance confirmation run" + (" (the pre-balance edition)" if args.before else ""),
        "",
        f"Written by `{command}`; do not edit by hand.",
        "",
        f"HP: {_hp_text(hp)}; deck: {_counts_text(counts)}; abilities: {_abilities_text(abilities)}. "
        "GreedyBot in every seat, regions dealt at random, "
        f"seeds 0 upward ({args.jobs} processes).",
    ]
    ok = True
    measured: dict[int, Measured] = {}
    for n in (3, 4, 5):
        m = measure(hp, n, games[n], seed=args.seed, jobs=args.jobs, counts=counts, abilities=abilities)
        measured[n] = m
        fair = 1 / n
        tol = REGION_TOLERANCE[n]
        lines += ["", f"## {n} players: {m.games:,} games, {m.seconds:.0f} s", "",
                  f"Fair share {fair:.1%}; target: every region within ±{tol * 100:.0f} points, every seat within "
                  f"±{SEAT_TOLERANCE * 100:.0f}.", "",
                  "| region | HP | games | win share | 95 % interval | off by (points) | target |",
                  "|---|---|---|---|---|---|---|"]
        for key, (g, rate, lo, hi) in sorted(m.intervals().items(), key=lambda kv: -kv[1][1]):
            off = 100 * (rate - fair)
            good = abs(rate - fair) <= tol
            ok &= good
            lines.append(f"| {RULES.regions[key].name} | {hp[key]} | {g:,} | {rate:.1%} | {lo:.1%} – {hi:.1%} | "
                         f"{off:+.1f} | {'met' if good else '**not met**'} |")
        res = TournamentResult(m.rows)
        lines += ["", "| seat (deal order) or turn (order of play) | win share | 95 % interval | off by (points) | target |",
                  "|---|---|---|---|---|"]
        for name, _g, rate, lo, hi in [*res.table("seat"), *res.table("turn")]:
            good = abs(rate - fair) <= SEAT_TOLERANCE
            ok &= good
            lines.append(f"| {name} | {rate:.1%} | {lo:.1%} – {hi:.1%} | {100 * (rate - fair):+.1f} | "
                         f"{'met' if good else '**not met**'} |")
        shared = sum(len(g.winners) > 1 for g in m.rows) / m.games
        lines += ["", f"Mean length {res.mean_rounds:.2f} rounds, {res.mean_decisions:.1f} decisions; "
                      f"games ending early {res.early_share:.1%}; games with a shared win {shared:.1%}."]
        sys.stdout.write("\n".join(lines[-12:]) + "\n")
        sys.stdout.flush()
    lines += ["", f"**Every target {'met' if ok else 'NOT met'}.**"]
    if not ok:
        surrogate = Surrogate([(m.rows, hp) for m in measured.values()])
        proposal = fit_hp(surrogate, hp, radius=2)
        lines += ["", "The surrogate, fitted on these games, proposes (within 2 points): "
                  + ",".join(f"{k}={v}" for k, v in proposal.items())]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(lines[-1] + "\n")
    if args.out:
        args.out.write_text(text, encoding="utf-8")


# ---------------------------------------------------------------------------------- one table
def run_table(args: argparse.Namespace) -> None:
    from typhoon_edu.ai.tournament import run_tournament

    t0 = time.time()
    res = run_tournament(args.games_one, ["greedy"] * args.seats, seed=args.seed, jobs=args.jobs)
    secs = time.time() - t0
    rows = res.table("region")
    lines = [
        f"Games: {len(res.games)} (GreedyBot in every seat, {args.seats} players, regions dealt at random, "
        f"seed {args.seed}..{args.seed + args.games_one - 1}); {secs:.0f} s with {args.jobs} processes.",
        "",
        "| region | HP | games | win rate | 95 % interval |",
        "|---|---|---|---|---|",
    ]
    for name, games, rate, lo, hi in sorted(rows, key=lambda r: -r[2]):
        lines.append(f"| {RULES.regions[name].name} | {RULES.regions[name].hp} | {games} | {rate:.1%} | "
                     f"{lo:.1%} – {hi:.1%} |")
    lines += ["", "| seat (clockwise order; Taiwan starts when dealt, else seat 1) | win rate | 95 % interval |",
              "|---|---|---|"]
    for name, _games, rate, lo, hi in res.table("seat"):
        lines.append(f"| {name} | {rate:.1%} | {lo:.1%} – {hi:.1%} |")
    lines += ["", f"Mean length: {res.mean_rounds:.2f} rounds, {res.mean_decisions:.1f} player decisions per game.",
              f"Games ending early (one region left, or all out together): {res.early_share:.1%}."]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--search", action="store_true", help="search for the HP (and deck) that balance the edition")
    mode.add_argument("--confirm", action="store_true", help="the full runs for 3, 4 and 5 players, one HP vector")
    mode.add_argument("--probe", action="store_true", help="the same games with each region given one HP more")
    mode.add_argument("--compare", nargs="+", metavar="NAME=SPEC", dest="variant_specs",
                      help="named variants on the same games, e.g. 'TW+1=abilities:Taiwan=1' 'base='")
    ap.add_argument("--games", default=None,
                    help="--search/--confirm: games for 3,4,5 players (e.g. 800,1200,800); else one number")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=None, help="first seed (search: 1,000,000; confirm and table: 0)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--decks", default="0,3,6,9", help="--search: the deck steps to try, in order")
    ap.add_argument("--rounds", type=int, default=8, help="--search: rounds per deck stage")
    ap.add_argument("--radius", type=int, default=2, help="--search: how far (HP) one round may move a region")
    ap.add_argument("--anchor", type=float, default=None,
                    help="--search: the HP every stage starts from and whose mean it keeps (default: the edition's mean)")
    ap.add_argument("--hp", type=_pairs_arg, default=None, help="--confirm: HP to use, e.g. Taiwan=47,Japan=41")
    ap.add_argument("--deck", type=int, default=None, help="--confirm: a deck step of DECK_STEPS")
    ap.add_argument("--counts", type=_pairs_arg, default=None, help="--confirm: card counts, e.g. evacuation=1")
    ap.add_argument("--abilities", type=_pairs_arg, default=None,
                    help="--confirm/--probe: steps by which region abilities are made stronger, e.g. 'Central China=1'")
    ap.add_argument("--ability-stages", type=int, default=2,
                    help="--search: after the deck stages, at most this many stages that each make one region's "
                         "ability one step stronger (the region farthest below its fair share)")
    ap.add_argument("--seats", default="4", help="one table and --probe: the number of players; --compare: e.g. 3,4,5")
    ap.add_argument("--before", action="store_true",
                    help="--confirm: start from the pre-balance edition (HP 10 × size, its deck and abilities)")
    args = ap.parse_args(argv)
    if not args.variant_specs:
        try:
            args.seats = int(args.seats)
        except ValueError:
            ap.error(f"--seats: one number of players (3, 4 or 5), not {args.seats!r}")
    if args.search or args.confirm:
        try:
            args.games = _games_arg(args.games) if args.games else ({3: 800, 4: 1200, 5: 800} if args.search else None)
        except argparse.ArgumentTypeError as exc:
            ap.error(f"--games: {exc}")
        if args.seed is None:
            args.seed = 1_000_000 if args.search else 0
        (run_search if args.search else run_confirm)(args)
    elif args.variant_specs:
        try:
            args.compare_variants = [_variant_arg(v) for v in args.variant_specs]
            args.compare_seats = seats = [int(x) for x in str(args.seats).split(",")]
        except (argparse.ArgumentTypeError, ValueError) as exc:
            ap.error(f"--compare: {exc}")
        if not seats or any(n not in (3, 4, 5) for n in seats):
            ap.error("--seats: 3, 4 or 5 players, e.g. 3,4,5")
        args.seed = 3_000_000 if args.seed is None else args.seed
        run_compare(args)
    elif args.probe:
        args.seed = 2_000_000 if args.seed is None else args.seed
        run_probe(args)
    else:
        args.games_one = int(args.games) if args.games else 10_000
        args.seed = 0 if args.seed is None else args.seed
        run_table(args)


if __name__ == "__main__":
    main()
