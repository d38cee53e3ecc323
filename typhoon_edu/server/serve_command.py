"""The ``serve`` command line: its options (help in en and zh-TW) and running it.

Both ``typhoon-edu serve`` (:mod:`typhoon_edu.cli`) and ``python -m typhoon_edu.server.serve`` use
these, so the server does not import the command (and the command imports the server only when
``serve`` runs: starting ``typhoon-edu play`` loads nothing of Voilà).

>>> parser = build_serve_parser("en")
>>> args = parser.parse_args(["--lan", "--pool-size", "3"])
>>> args.lan, args.pool_size, args.lang
(True, 3, 'zh-TW')
"""

from __future__ import annotations

import argparse
import sys

from ..i18n import normalize_lang, t

__all__ = ["add_serve_arguments", "build_serve_parser", "run_serve"]


def add_serve_arguments(parser: argparse.ArgumentParser, lang: str) -> argparse.ArgumentParser:
    """Add ``serve``'s options to ``parser`` (their help in ``lang``); returns the parser."""

    from ..argparse_lang import file_path, language, whole_number

    def h(key: str) -> str:
        return t(f"cli.help.{key}", lang)

    number = whole_number(lang)
    parser.add_argument("--port", type=number, default=None, help=h("port"))
    parser.add_argument("--lang", type=language(lang), default="zh-TW", help=h("lang_serve"))
    parser.add_argument("--no-browser", action="store_true", help=h("no_browser"))
    parser.add_argument("--notebook", type=file_path(lang), default=None, help=h("notebook"))
    parser.add_argument("--lan", action="store_true", help=h("lan"))
    parser.add_argument("--db", metavar="URL", default=None, help=h("db"))
    parser.add_argument("--pool-size", type=number, default=None, metavar="N", help=h("pool_size"))
    return parser


def build_serve_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The parser of ``python -m typhoon_edu.server.serve`` (the same options as ``typhoon-edu serve``)."""
    parser = argparse.ArgumentParser(prog="typhoon-edu serve", description=t("cli.help.serve", lang))
    return add_serve_arguments(parser, lang)


def run_serve(args: argparse.Namespace, lang: str) -> int:
    """Run ``serve`` with parsed ``args``; a bad setting is said in ``lang`` (exit code 2)."""
    from .serve import ServeError, serve

    try:
        return serve(port=args.port, lang=normalize_lang(args.lang), open_browser=not args.no_browser,
                     notebook=args.notebook, lan=args.lan, db=args.db, pool_size=args.pool_size)
    except ServeError as exc:
        sys.stderr.write(t("cli.err.prefix", lang, error=exc.text(lang)) + "\n")
        return 2
