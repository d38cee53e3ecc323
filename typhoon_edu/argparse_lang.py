"""argparse in the command's language: its own texts (usage, errors) from the catalogs, the
``--lang`` a command line asks for (else the locale's), and argument types whose errors say what
is allowed in that language. Shared by ``typhoon-edu`` (:mod:`typhoon_edu.cli`) and
``python -m typhoon_edu.server.serve``, so neither imports the other.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from .i18n import normalize_lang, t

__all__ = ["argparse_in", "cli_lang", "file_path", "language", "locale_lang", "whole_number"]


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


def locale_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language of the person's locale: zh-TW for a Chinese one (``LC_ALL``, ``LC_MESSAGES``, then
    ``LANG``, the first one set), else English (as ``scripts/start.py`` chooses).

    >>> locale_lang({"LANG": "zh_TW.UTF-8"}), locale_lang({"LC_ALL": "C.UTF-8", "LANG": "zh_TW.UTF-8"}), locale_lang({})
    ('zh-TW', 'en', 'en')
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(name):
            return "zh-TW" if env[name].strip().lower().startswith("zh") else "en"
    return "en"


def cli_lang(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language the command talks in: the value of ``--lang`` if given (and known), else the
    locale's (:func:`locale_lang`).

    >>> cli_lang(["simulate", "10", "--lang", "zh-TW"]), cli_lang(["play", "--lang=zh_TW"]), cli_lang(["serve"], {})
    ('zh-TW', 'zh-TW', 'en')
    >>> cli_lang(["serve"], {"LANG": "zh_TW.UTF-8"}), cli_lang(["serve", "--lang", "fr"], {"LANG": "zh_TW.UTF-8"})
    ('zh-TW', 'zh-TW')
    """
    early = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    early.add_argument("--lang", default=None)
    try:
        asked = early.parse_known_args(argv)[0].lang
        if asked is not None:
            return normalize_lang(asked)
    except (argparse.ArgumentError, ValueError):  # "--lang" without a value, or a language we lack
        pass
    return locale_lang(environ)


def whole_number(lang: str) -> Callable[[str], int]:
    """An argparse ``type``: a whole number, else an error saying so in ``lang`` (argparse's own says "invalid int value").

    >>> whole_number("en")("12"), whole_number("en")("-3")
    (12, -3)
    >>> whole_number("zh-TW")("²")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 「²」不是整數（請用 0 到 9 的數字寫，例如 3）
    """

    def number(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(t("cli.argparse.whole_number", lang, value=text)) from None

    return number


def file_path(lang: str) -> Callable[[str], Path]:
    """An argparse ``type``: a file or folder name, not an empty one (``Path("")`` is the current folder).

    >>> file_path("en")("games/one.json").as_posix()
    'games/one.json'
    >>> file_path("en")(" ")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: give a file or folder name, not an empty value
    """

    def path(text: str) -> Path:
        if not text.strip():
            raise argparse.ArgumentTypeError(t("cli.argparse.empty_path", lang))
        return Path(text)

    return path


def language(lang: str) -> Callable[[str], str]:
    """An argparse ``type``: a language of typhoon-edu, as its code; else an error naming the ones there are.

    >>> language("en")("zh_tw")
    'zh-TW'
    >>> language("en")("fr")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'fr' is not a language of typhoon-edu; use en or zh-TW
    """

    def code(text: str) -> str:
        try:
            return normalize_lang(text)
        except ValueError:
            raise argparse.ArgumentTypeError(t("cli.argparse.language", lang, value=text)) from None

    return code
