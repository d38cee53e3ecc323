"""``typhoon-edu teacher``: the teachers of a school server's room store.

``typhoon-edu teacher add NAME [--db URL]`` makes a colleague's teacher key and prints it once (the
store keeps only its hash, as it does for seat links); ``typhoon-edu teacher list [--db URL]`` names
every teacher of the store. ``--db`` (or ``$TYPHOON_EDU_DB``) is the same store ``serve --db`` uses.

>>> parser = build_parser_for_tests()
>>> args = parser.parse_args(["teacher", "add", "Ms Lin", "--db", "sqlite://"])
>>> (args.teacher_command, args.name, args.db)
('add', 'Ms Lin', 'sqlite://')
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .i18n import t

__all__ = ["add_parser", "run"]


def add_parser(sub: Any, help_text: Any) -> argparse.ArgumentParser:
    """Add ``teacher add`` and ``teacher list`` to ``typhoon-edu``'s subparsers (``help_text(key)`` gives a text)."""
    p: argparse.ArgumentParser = sub.add_parser("teacher", help=help_text("teacher"),
                                                description=help_text("teacher_description"))
    inner = p.add_subparsers(dest="teacher_command", required=True, metavar="{add,list}")
    add = inner.add_parser("add", help=help_text("teacher_add"), description=help_text("teacher_add"))
    add.add_argument("name", help=help_text("teacher_name"))
    listing = inner.add_parser("list", help=help_text("teacher_list"), description=help_text("teacher_list"))
    for q in (add, listing):
        q.add_argument("--db", metavar="URL", default=None, help=help_text("db"))
        q.add_argument("--lang", default="en", help=help_text("lang"))
    return p


def build_parser_for_tests(lang: str = "en") -> argparse.ArgumentParser:
    """A parser holding only ``teacher`` (the doctests' and unit tests' own)."""
    parser = argparse.ArgumentParser(prog="typhoon-edu")
    add_parser(parser.add_subparsers(dest="command"), lambda key: t(f"cli.help.{key}", lang))
    return parser


def run(args: argparse.Namespace, lang: str, out: TextIO) -> int:
    """Carry out ``teacher add`` or ``teacher list``; a store problem is said in ``lang`` (exit code 2).

    >>> import io, tempfile
    >>> db, buf = "sqlite:///" + tempfile.mkdtemp() + "/rooms.db", io.StringIO()
    >>> run(argparse.Namespace(teacher_command="add", name="Ms Lin", db=db), "en", buf), buf.getvalue()[:20]
    (0, 'Teacher Ms Lin: key ')
    >>> buf = io.StringIO()
    >>> run(argparse.Namespace(teacher_command="list", db=db), "zh-TW", buf), buf.getvalue().split("（")[0]
    (0, 'Ms Lin')
    """
    import sys

    from .classroom.errors import ClassroomError
    from .classroom.names import clean_name
    from .classroom.store import RoomStore
    from .classroom.teachers import MAX_NAME, add_teacher, teachers
    from .server.serve import ServeError, check_db_url

    try:
        url = check_db_url(args.db) if args.db else None
        store = RoomStore(url)
        if args.teacher_command == "add":
            if not clean_name(args.name, limit=MAX_NAME):
                sys.stderr.write(t("cli.err.prefix", lang, error=t("cli.teacher.bad_name", lang, name=args.name,
                                                                    limit=MAX_NAME)) + "\n")
                return 2
            teacher, key = add_teacher(store, args.name)
            out.write(t("cli.teacher.added", lang, name=teacher.name, key=key) + "\n")
            return 0
        found = teachers(store)
        if not found:
            out.write(t("cli.teacher.none", lang) + "\n")
        for teacher in found:
            out.write(t("cli.teacher.row", lang, name=teacher.name or "—", id=teacher.id) + "\n")
        return 0
    except ServeError as exc:
        sys.stderr.write(t("cli.err.prefix", lang, error=exc.text(lang)) + "\n")
    except ClassroomError as exc:
        sys.stderr.write(t("cli.err.prefix", lang, error=exc.text(lang)) + "\n")
    return 2
