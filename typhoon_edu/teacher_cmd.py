"""``typhoon-edu teacher``: the teachers of a school server's room store.

``typhoon-edu teacher add NAME [--db URL]`` makes a colleague's teacher key and prints it once (the
store keeps only its hash, as it does for seat links; a name a teacher already has is refused unless
``--force``); ``typhoon-edu teacher list [--db URL]`` names every teacher of the store with their id;
``typhoon-edu teacher remove ID`` takes a colleague's key away at once (their rooms go to the local
teacher: nothing is deleted); ``typhoon-edu teacher new-key ID`` replaces a leaked key. The local
teacher (the server computer's own) is neither removed nor re-keyed here. ``--db`` (or
``$TYPHOON_EDU_DB``) is the same store ``serve --db`` uses.

>>> parser = build_parser_for_tests()
>>> args = parser.parse_args(["teacher", "add", "Ms Lin", "--db", "sqlite://"])
>>> (args.teacher_command, args.name, args.db, args.force)
('add', 'Ms Lin', 'sqlite://', False)
>>> parser.parse_args(["teacher", "remove", "3f2a9c"]).id
'3f2a9c'
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, TextIO

from .i18n import t

__all__ = ["add_parser", "run"]


def add_parser(sub: Any, help_text: Any, lang: str = "en") -> argparse.ArgumentParser:
    """Add ``teacher add``, ``list``, ``remove`` and ``new-key`` to ``typhoon-edu``'s subparsers
    (``help_text(key)`` gives a text; argument errors are said in ``lang``)."""
    from .argparse_lang import language

    p: argparse.ArgumentParser = sub.add_parser("teacher", help=help_text("teacher"),
                                                description=help_text("teacher_description"))
    inner = p.add_subparsers(dest="teacher_command", required=True, metavar="{add,list,remove,new-key}")
    add = inner.add_parser("add", help=help_text("teacher_add"), description=help_text("teacher_add"))
    add.add_argument("name", help=help_text("teacher_name"))
    add.add_argument("--force", action="store_true", help=help_text("teacher_force"))
    listing = inner.add_parser("list", help=help_text("teacher_list"), description=help_text("teacher_list_about"))
    remove = inner.add_parser("remove", help=help_text("teacher_remove"), description=help_text("teacher_remove_about"))
    renew = inner.add_parser("new-key", help=help_text("teacher_new_key"),
                             description=help_text("teacher_new_key_about"))
    for q in (remove, renew):
        q.add_argument("id", metavar="ID", help=help_text("teacher_id"))
    for q in (add, listing, remove, renew):
        q.add_argument("--db", metavar="URL", default=None, help=help_text("db"))
        q.add_argument("--lang", type=language(lang), default=None, help=help_text("lang_command"))
    return p


def build_parser_for_tests(lang: str = "en") -> argparse.ArgumentParser:
    """A parser holding only ``teacher`` (the doctests' and unit tests' own)."""
    parser = argparse.ArgumentParser(prog="typhoon-edu")
    add_parser(parser.add_subparsers(dest="command"), lambda key: t(f"cli.help.{key}", lang), lang)
    return parser


def run(args: argparse.Namespace, lang: str, out: TextIO) -> int:
    """Carry out ``teacher add``, ``list``, ``remove`` or ``new-key``; a problem is said in ``lang`` (exit code 2).

    A store that cannot be used is named, with why and what to do
    (:class:`~typhoon_edu.server.teacher_address.StoreProblem`); only ``add`` makes a store: for the
    others a SQLite file that is not there is said (with ``--db``), or there are no teachers yet (the
    default store).

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
    from .classroom.teachers import MAX_NAME
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
    command = args.teacher_command
    adding = command == "add"
    if adding and not clean_name(args.name, limit=MAX_NAME):
        return refuse(t("cli.teacher.bad_name", lang, name=args.name, limit=MAX_NAME))
    length = len(clean_name(args.name, limit=len(args.name))) if adding else 0
    if length > MAX_NAME:  # refused, not cut short
        return refuse(t("cli.teacher.long_name", lang, limit=MAX_NAME, length=length))
    file = sqlite_path(where)
    if not adding and file is not None and _missing(file):
        if url is None and command == "list":  # the user data folder's store is made by serve's first start
            out.write(t("cli.teacher.none", lang) + "\n")
            return 0
        if url is None:
            return refuse(t("cli.teacher.unknown_id", lang, id=args.id))
        return refuse(StoreProblem("store_missing", url=shown_url(where)).text(lang))
    try:
        store = RoomStore(url)
    except Exception as exc:  # noqa: BLE001 - whatever the driver says is told with the store's name
        return refuse(store_problem("store_open", where, exc).text(lang))
    try:
        done = _carry_out(store, args, lang, refuse)
    except Exception as exc:  # noqa: BLE001
        return refuse(store_problem("store_read" if command == "list" else "store_write", where, exc).text(lang))
    finally:
        store.close()
    if isinstance(done, int):
        return done
    text, teacher_id = done
    try:  # written after the store's work: a reader that left is not the store's failure
        out.write(text)
        out.flush()
    except OSError as exc:
        if teacher_id is None:  # list, remove: nothing is lost (BrokenPipeError: the command line stops quietly)
            raise
        return refuse(t("cli.teacher.key_not_shown", lang, id=teacher_id, error=exc))
    return 0


def _carry_out(store: Any, args: argparse.Namespace, lang: str, refuse: Any) -> int | tuple[str, str | None]:
    """One ``teacher`` command on an open store (a store's own failure is raised, and named by :func:`run`): the
    exit code of a refusal, or the text to write and, for a new key, its teacher's id (the key is shown only then)."""
    from .classroom.teachers import (
        MIN_ID_PREFIX,
        TeacherNotFound,
        add_teacher,
        default_key_file,
        find_teacher,
        remove_teacher,
        replace_key,
        same_name,
        teachers,
    )

    command = args.teacher_command
    if command == "add":
        if not getattr(args, "force", False):
            named = same_name(store, args.name)
            if named:
                return refuse(t("cli.teacher.same_name", lang, name=named[0].name,
                                ids=", ".join(teacher.id for teacher in named)))
        teacher, key = add_teacher(store, args.name)
        return t("cli.teacher.added", lang, name=teacher.name, key=key) + "\n", teacher.id
    if command == "list":
        found = teachers(store)
        rows = [t(f"cli.teacher.{'row_local' if teacher.is_local else 'row'}", lang, name=teacher.name or "—",
                  id=teacher.id) for teacher in found]
        return "".join(row + "\n" for row in rows or [t("cli.teacher.none", lang)]), None
    try:
        teacher = find_teacher(store, args.id)
    except TeacherNotFound as exc:
        if exc.kind == "local":
            return refuse(t(f"cli.teacher.local_{command.replace('-', '_')}", lang, file=default_key_file()))
        return refuse(t(f"cli.teacher.{exc.kind}_id", lang, id=args.id, ids=", ".join(exc.ids), least=MIN_ID_PREFIX))
    if command == "remove":
        moved = remove_teacher(store, teacher)
        return t("cli.teacher.removed", lang, name=teacher.name, id=teacher.id, rooms=moved) + "\n", None
    renewed, key = replace_key(store, teacher)
    return t("cli.teacher.new_key", lang, name=renewed.name, key=key, id=renewed.id, old=teacher.id) + "\n", renewed.id


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
