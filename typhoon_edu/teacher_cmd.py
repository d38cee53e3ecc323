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
import os
from pathlib import Path
from typing import Any, TextIO

from .i18n import t

__all__ = ["add_parser", "run"]


def add_parser(sub: Any, help_text: Any, lang: str = "en") -> argparse.ArgumentParser:
    """Add ``teacher add`` and ``teacher list`` to ``typhoon-edu``'s subparsers (``help_text(key)`` gives a text;
    argument errors are said in ``lang``)."""
    from .argparse_lang import language

    p: argparse.ArgumentParser = sub.add_parser("teacher", help=help_text("teacher"),
                                                description=help_text("teacher_description"))
    inner = p.add_subparsers(dest="teacher_command", required=True, metavar="{add,list}")
    add = inner.add_parser("add", help=help_text("teacher_add"), description=help_text("teacher_add"))
    add.add_argument("name", help=help_text("teacher_name"))
    listing = inner.add_parser("list", help=help_text("teacher_list"), description=help_text("teacher_list"))
    for q in (add, listing):
        q.add_argument("--db", metavar="URL", default=None, help=help_text("db"))
        q.add_argument("--lang", type=language(lang), default=None, help=help_text("lang"))
    return p


def build_parser_for_tests(lang: str = "en") -> argparse.ArgumentParser:
    """A parser holding only ``teacher`` (the doctests' and unit tests' own)."""
    parser = argparse.ArgumentParser(prog="typhoon-edu")
    add_parser(parser.add_subparsers(dest="command"), lambda key: t(f"cli.help.{key}", lang), lang)
    return parser


def run(args: argparse.Namespace, lang: str, out: TextIO) -> int:
    """Carry out ``teacher add`` or ``teacher list``; a problem is said in ``lang`` (exit code 2).

    A store that cannot be used is named, with why and what to do
    (:class:`~typhoon_edu.server.teacher_address.StoreProblem`); ``list`` makes no store: a SQLite
    file that is not there is said (with ``--db``), or there are no teachers yet (the default store).

    >>> import io, tempfile
    >>> db, buf = "sqlite:///" + tempfile.mkdtemp() + "/rooms.db", io.StringIO()
    >>> run(argparse.Namespace(teacher_command="add", name="Ms Lin", db=db), "en", buf), buf.getvalue()[:20]
    (0, 'Teacher Ms Lin: key ')
    >>> buf = io.StringIO()
    >>> run(argparse.Namespace(teacher_command="list", db=db), "zh-TW", buf), buf.getvalue().split("（")[0]
    (0, 'Ms Lin')
    """
    import sys

    from .classroom.names import clean_name
    from .classroom.store import RoomStore, default_url
    from .classroom.teachers import MAX_NAME, add_teacher, teachers
    from .server.serve import ServeError, check_db_url, db_from_environment
    from .server.teacher_address import StoreProblem, shown_url, sqlite_path, store_problem

    def refuse(text: str) -> int:
        sys.stderr.write(t("cli.err.prefix", lang, error=text) + "\n")
        return 2

    try:
        url = check_db_url(args.db) if args.db is not None else db_from_environment()
    except ServeError as exc:
        return refuse(exc.text(lang))
    where = url or default_url()
    adding = args.teacher_command == "add"
    if adding and not clean_name(args.name, limit=MAX_NAME):
        return refuse(t("cli.teacher.bad_name", lang, name=args.name, limit=MAX_NAME))
    length = len(clean_name(args.name, limit=len(args.name))) if adding else 0
    if length > MAX_NAME:  # refused, not cut short
        return refuse(t("cli.teacher.long_name", lang, limit=MAX_NAME, length=length))
    file = sqlite_path(where)
    if not adding and file is not None and _missing(file):
        if url is None:  # the user data folder's store is made by serve's first start
            out.write(t("cli.teacher.none", lang) + "\n")
            return 0
        return refuse(StoreProblem("store_missing", url=shown_url(where)).text(lang))
    try:
        store = RoomStore(url)
    except Exception as exc:  # noqa: BLE001 - whatever the driver says is told with the store's name
        return refuse(store_problem("store_open", where, exc).text(lang))
    try:
        if adding:
            teacher, key = add_teacher(store, args.name)
            out.write(t("cli.teacher.added", lang, name=teacher.name, key=key) + "\n")
            return 0
        found = teachers(store)
    except Exception as exc:  # noqa: BLE001
        return refuse(store_problem("store_write" if adding else "store_read", where, exc).text(lang))
    finally:
        store.close()
    if not found:
        out.write(t("cli.teacher.none", lang) + "\n")
    for teacher in found:
        out.write(t("cli.teacher.row", lang, name=teacher.name or "—", id=teacher.id) + "\n")
    return 0


def _missing(path: Path) -> bool:
    """True when nothing is at ``path`` though its folders are fine (a file in the way is another problem).

    >>> _missing(Path("/no/such/folder/rooms.db")), _missing(Path("/"))
    (True, False)
    """
    try:
        os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False
