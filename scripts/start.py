#!/usr/bin/env python3
"""Start class play from a checkout in one command, on any computer with Python 3.10 or later.

    python3 scripts/start.py                           # Linux, macOS
    py scripts\\start.py                                # Windows (PowerShell)
    python3 scripts/start.py --no-browser --port 8870  # extra arguments go to `typhoon-edu serve`
    python3 scripts/start.py lessons --lang en         # or name another typhoon-edu command

It makes (once) and reuses the checkout's own environment ``.venv`` with the project installed
(see ``scripts/project_env.py``: no ``pip install`` into the system's Python, which Debian, Ubuntu
and Homebrew refuse), then runs ``typhoon-edu serve`` from it with the arguments given. Standard
library only.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import project_env  # noqa: E402 - found next to this file, after the line above

#: First arguments that name a typhoon-edu command; anything else is an option of ``serve``.
COMMANDS = ("serve", "lessons", "play", "simulate", "teacher", "answers", "rules")


def command_line(program: Path, argv: list[str]) -> list[str]:
    """The ``typhoon-edu`` command to run for ``argv``: ``serve`` unless a command is named.

    >>> command_line(Path("typhoon-edu"), ["--no-browser", "--port", "8870"])
    ['typhoon-edu', 'serve', '--no-browser', '--port', '8870']
    >>> command_line(Path("typhoon-edu"), ["lessons", "--lang", "en"])
    ['typhoon-edu', 'lessons', '--lang', 'en']
    >>> command_line(Path("typhoon-edu"), ["teacher", "list"])
    ['typhoon-edu', 'teacher', 'list']
    """
    if argv and argv[0] in COMMANDS:
        return [str(program), *argv]
    return [str(program), "serve", *argv]


def main(argv: list[str]) -> int:
    lang = project_env.pick_lang(argv)
    try:
        venv_python = project_env.ensure([], lang)
    except project_env.EnvProblem as problem:
        project_env.say(problem.text(lang))
        return 1
    program = project_env.venv_executable(venv_python.parent.parent, "typhoon-edu")
    cmd = command_line(program, argv)
    sys.stdout.flush()
    sys.stderr.flush()
    if project_env.WINDOWS:
        # os.exec* on Windows starts a new process and returns at once, which leaves the console
        # to two programs: wait for the command instead, and let Ctrl+C reach it.
        try:
            return subprocess.call(cmd)
        except KeyboardInterrupt:
            return 130
    # Replace this process: Ctrl+C and SIGTERM then go straight to typhoon-edu, which stops Voilà.
    os.execv(cmd[0], cmd)
    return 0  # pragma: no cover - execv does not return


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
