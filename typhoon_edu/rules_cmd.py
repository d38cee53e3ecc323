"""A teacher's own rules: ``typhoon-edu rules copy DIR`` and the ``--rules DIR`` of ``play`` and ``simulate``.

A rules folder holds the five data files of an edition (:data:`~typhoon_edu.engine.rules.DATA_FILES`), all
five: :func:`~typhoon_edu.engine.rules.load_rules` reads every one from the folder and none from the package.
Class play (``serve``) and the lessons always use the shipped rules.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp()) / "my-rules"
>>> [p.name for p in copy_rules(folder, "en")]
['map.toml', 'compass.toml', 'levels.toml', 'regions.toml', 'cards.toml', 'README.txt']
>>> rules_from(folder).digest == load_rules().digest
True
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from .ai.tournament import GameRow, TournamentResult
from .engine.rules import DATA_DIR, DATA_FILES, Rules, RulesDataError, load_rules
from .i18n import t

#: The note written beside the data files of a copy.
README_NAME = "README.txt"


def _error(key: str, **fields: object) -> Exception:
    from .cli import CliError  # the command's error (cli imports this module)

    return CliError(key, **fields)


def add_parser(sub: Any, help_text: Callable[[str], str], lang: str = "en") -> argparse.ArgumentParser:
    """Add ``rules copy DIR`` to ``typhoon-edu``'s subparsers (``help_text(key)`` gives a text)."""
    from .argparse_lang import file_path, language

    p: argparse.ArgumentParser = sub.add_parser("rules", help=help_text("rules"), description=help_text("rules"))
    inner = p.add_subparsers(dest="rules_command", required=True, metavar="{copy}")
    copy = inner.add_parser("copy", help=help_text("rules_copy"), description=help_text("rules_copy"))
    copy.add_argument("folder", metavar="DIR", type=file_path(lang), help=help_text("rules_copy_dir"))
    copy.add_argument("--lang", type=language(lang), default=None, help=help_text("lang_command"))
    return p


def copy_rules(folder: Path, lang: str) -> list[Path]:
    """Write the shipped data files and a short README (in ``lang``) into ``folder`` (made if need be); the
    files written. Nothing is written when one of them is there already (``CliError("rules_copy_exists")``).
    """
    targets = [folder / name for name in (*DATA_FILES, README_NAME)]
    there = [p.name for p in targets if p.exists() or p.is_symlink()]
    if there:
        raise _error("rules_copy_exists", path=folder, files=_names(there, lang))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in DATA_FILES:
            with open(folder / name, "xb") as fh:  # "x": never over a file made meanwhile
                fh.write((DATA_DIR / name).read_bytes())
        readme = t("cli.rules.readme", lang, path=shlex.quote(str(folder)), files=_names(DATA_FILES, lang))
        with open(folder / README_NAME, "x", encoding="utf-8") as fh:
            fh.write(readme.rstrip("\n") + "\n")
    except OSError as exc:
        raise _error("rules_copy_write", path=folder, reason=exc) from None
    return targets


def _names(names: Iterable[str], lang: str) -> str:
    """File names listed in ``lang``.

    >>> _names(["map.toml", "cards.toml"], "zh-TW")
    'map.toml、cards.toml'
    """
    return ("、" if lang == "zh-TW" else ", ").join(names)


def rules_from(folder: Path, lang: str = "en") -> Rules:
    """The rules in ``folder``, checked by :func:`~typhoon_edu.engine.rules.load_rules`; a folder that is not
    there, lacks a data file or breaks a rule is refused naming the file, the entry and what is allowed.

    >>> rules_from(Path("/no/such/folder"))
    Traceback (most recent call last):
    ...
    typhoon_edu.cli.CliError: --rules: /no/such/folder is not a folder; make one to edit with: typhoon-edu rules \
copy /no/such/folder
    """
    if not folder.is_dir():
        raise _error("rules_folder", path=folder)
    missing = [name for name in DATA_FILES if not (folder / name).is_file()]
    if missing:
        raise _error("rules_missing", path=folder, missing=_names(missing, lang),
                     files=_names(DATA_FILES, lang))
    try:
        return load_rules(folder)
    except RulesDataError as exc:
        raise _error("rules_bad", path=folder, file=exc.file, entry=exc.entry, rule=exc.rule) from None
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:  # a shape the loader did not expect
        raise _error("rules_unreadable", path=folder, error=f"{type(exc).__name__}: {exc}") from None


def rules_line(rules: Rules, folder: Path, lang: str) -> str:
    """Which rules are in play, for the output of ``play`` and ``simulate`` with ``--rules``.

    >>> rules_line(load_rules(), Path("/tmp/x"), "en").replace(load_rules().digest, "…")
    'Rules: /tmp/x (digest …), the same rules as the shipped edition'
    """
    shipped = load_rules().digest
    key = "cli.rules.same" if rules.digest == shipped else "cli.rules.other"
    return t(key, lang, path=str(folder.resolve()), digest=rules.digest, shipped=shipped)


def run_tournament_in(folder: Path, n: int, bots: Sequence[str], *, seed: int = 0,
                      players: Sequence[str] | None = None, variant: str = "standard", jobs: int = 1,
                      progress: Callable[[Iterable[GameRow], int], Iterable[GameRow]] | None = None,
                      ) -> TournamentResult:
    """:func:`~typhoon_edu.ai.tournament.run_tournament` (seats rotated) with the rules in ``folder``
    (checked first with :func:`rules_from`); ``players`` are region keys of those rules.

    >>> from typhoon_edu.ai.tournament import run_tournament
    >>> run_tournament_in(DATA_DIR, 4, ["random"] * 3, seed=5).games == run_tournament(4, ["random"] * 3, seed=5).games
    True
    """
    from .ai.tournament import run_tournament

    return run_tournament(n, bots, seed=seed, players=players, variant=variant, jobs=jobs, progress=progress,
                          folder=folder)


def run(args: argparse.Namespace, lang: str, out: TextIO) -> int:
    """Carry out ``rules copy DIR``: the copy, then what to edit and how to try it (in ``lang``)."""
    folder: Path = args.folder
    copy_rules(folder, lang)
    out.write(t("cli.rules.copied", lang, path=shlex.quote(str(folder)), files=_names((*DATA_FILES, README_NAME), lang),
                digest=load_rules().digest) + "\n")
    return 0
