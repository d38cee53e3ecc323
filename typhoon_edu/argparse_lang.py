"""argparse in the command's language: its own texts (usage, errors) from the catalogs, and the
``--lang`` a command line asks for. Shared by ``typhoon-edu`` (:mod:`typhoon_edu.cli`) and
``python -m typhoon_edu.server.serve``, so neither imports the other.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from .i18n import normalize_lang, t

__all__ = ["argparse_in", "cli_lang"]


# argparse's own messages (argparse looks each one up through its module-level ``_``) -> catalog key
_ARGPARSE_KEYS = {
    "usage: ": "usage",
    "positional arguments": "positional",
    "options": "options",
    "show this help message and exit": "help",
    "%(prog)s: error: %(message)s\n": "error",
    "argument %(argument_name)s: %(message)s": "argument",
    "invalid choice: %(value)r (choose from %(choices)s)": "choice",
    "invalid %(type)s value: %(value)r": "type",
    "the following arguments are required: %s": "required",
    "unrecognized arguments: %s": "unrecognized",
    "expected one argument": "one",
    "ambiguous option: %(option)s could match %(matches)s": "ambiguous",
}


@contextmanager
def argparse_in(lang: str) -> Iterator[None]:
    """While inside, argparse writes its own texts (usage, errors) in ``lang``; others stay English.

    >>> import argparse
    >>> with argparse_in("zh-TW"):
    ...     argparse._("usage: ")
    '用法：'
    >>> argparse._("usage: ")
    'usage: '
    """
    plain = argparse._  # type: ignore[attr-defined]

    def translated(message: str) -> str:
        key = _ARGPARSE_KEYS.get(message)
        return t(f"cli.argparse.{key}", lang) if key else plain(message)

    argparse._ = translated  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = plain  # type: ignore[attr-defined]


def cli_lang(argv: Sequence[str]) -> str:
    """The language the command talks in: the value of ``--lang`` if given (and known), else English.

    >>> cli_lang(["simulate", "10", "--lang", "zh-TW"]), cli_lang(["play", "--lang=zh_TW"]), cli_lang(["serve"])
    ('zh-TW', 'zh-TW', 'en')
    """
    early = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    early.add_argument("--lang", default="en")
    try:
        return normalize_lang(early.parse_known_args(argv)[0].lang)
    except (argparse.ArgumentError, ValueError):  # "--lang" without a value, or a language we lack
        return "en"
