#!/usr/bin/env python3
"""The checkout's own Python environment, ``.venv``: made once, reused, kept up to date.

Used by ``scripts/start.py`` (the README's first command) and ``scripts/test.sh`` (the second), so
both run in the same environment, whatever Python started them: Debian's and Ubuntu's system Python
(externally managed, PEP 668: ``pip install`` outside a virtual environment is refused), Homebrew's,
python.org's on Windows. Standard library only: it runs before anything is installed.

``python3 scripts/project_env.py [--extras test]`` makes or updates ``.venv`` and prints the path
of its Python on standard output (messages go to standard error), which is how ``scripts/test.sh``
finds it.

What it does:

* **Makes** ``.venv`` with ``python -m venv``. Where Debian's ``python3-venv`` is missing (no
  ``ensurepip``), it falls back to ``venv --without-pip`` and the system's own pip
  (``python3 -m pip --python .venv/bin/python install pip``, pip 22.3 or later); with neither, it
  stops and says which package to install (``sudo apt install python3-venv``).
* **Installs** the project into it, editable (``pip install -e .[extras]``): code changes in the
  checkout need no reinstall.
* **Reuses** it: a stamp file in ``.venv`` records what was installed (a digest of
  ``pyproject.toml`` and ``setup.py``, the extras, the checkout's path). The next run installs
  again only when one of them changed, so a second start takes a second, not a minute.
* **Replaces** a ``.venv`` whose Python no longer runs (its base Python was removed or upgraded),
  that was moved from another folder, or that has no pip where something must be installed (a
  ``python3 -m venv .venv`` that failed half-way on Debian without ``python3-venv``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_NAME = ".venv"
STAMP_NAME = "typhoon-edu-install.json"
MIN_PYTHON = (3, 10)
#: The first pip that can install into another environment (``pip --python``).
PIP_WITH_PYTHON_OPTION = (22, 3)
WINDOWS = os.name == "nt"

# Every message in English and Traditional Chinese (as written in Taiwan). This file runs before
# the project is installed, so it cannot read the project's catalogs; tests/test_quickstart.py checks
# that both languages hold the same messages with the same {fields}.
MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "old_python": "typhoon-edu needs Python {need} or later; this is Python {have} ({exe}).\n"
                      "Install a newer Python (https://www.python.org/downloads/) and run this command with it.",
        "making": "Making the project's own Python environment in {venv} …",
        "no_venv": "This Python cannot make a virtual environment: its 'venv' module or 'ensurepip' is missing "
                   "({exe}).\nOn Debian or Ubuntu install it with:\n    sudo apt install python3-venv\n"
                   "(for another Python version, e.g. 3.12: sudo apt install python3.12-venv), then run this "
                   "command again.\nOn other systems, install Python from https://www.python.org/downloads/.",
        "fallback": "No 'ensurepip' here (Debian's python3-venv is not installed): making the environment "
                    "without pip and installing pip into it with this system's pip.",
        "venv_failed": "Could not make the environment {venv}: {error}",
        "broken": "The environment {venv} does not work any more (its Python was removed, upgraded or the "
                  "folder moved): making it again.",
        "installing": "Installing typhoon-edu{extras} and what it needs into {venv} (the first time takes "
                      "about a minute or two; later starts reuse it) …",
        "installed": "Installed in {seconds:.0f} s.",
        "install_failed": "Installing into {venv} failed (pip exit code {code}). Check the network connection "
                          "and the messages above, then run this command again.",
    },
    "zh-TW": {
        "old_python": "typhoon-edu 需要 Python {need} 或更新的版本；這裡是 Python {have}（{exe}）。\n"
                      "請安裝較新的 Python（https://www.python.org/downloads/），再用它執行這個指令。",
        "making": "正在 {venv} 建立這個專案自己的 Python 環境……",
        "no_venv": "這個 Python 無法建立虛擬環境：缺少 venv 模組或 ensurepip（{exe}）。\n"
                   "在 Debian 或 Ubuntu 上請這樣安裝：\n    sudo apt install python3-venv\n"
                   "（其他 Python 版本，例如 3.12：sudo apt install python3.12-venv），然後再執行一次這個指令。\n"
                   "在其他系統上，請從 https://www.python.org/downloads/ 安裝 Python。",
        "fallback": "這裡沒有 ensurepip（沒有安裝 Debian 的 python3-venv）：先建立不含 pip 的環境，"
                    "再用系統的 pip 把 pip 裝進去。",
        "venv_failed": "無法建立環境 {venv}：{error}",
        "broken": "環境 {venv} 已經不能用了（它的 Python 被移除、升級，或資料夾被搬動過）：重新建立。",
        "installing": "正在把 typhoon-edu{extras} 和它需要的套件安裝到 {venv}（第一次大約需要一兩分鐘；"
                      "之後啟動會直接沿用）……",
        "installed": "安裝完成，用了 {seconds:.0f} 秒。",
        "install_failed": "安裝到 {venv} 失敗（pip 結束代碼 {code}）。請檢查網路連線和上面的訊息，"
                          "然後再執行一次這個指令。",
    },
}


class EnvProblem(Exception):
    """Something stops the environment from being made; ``text(lang)`` says what and what to do."""

    def __init__(self, key: str, **fields: object) -> None:
        self.key = key
        self.fields = fields
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        return message(self.key, lang, **self.fields)


def message(key: str, lang: str, **fields: object) -> str:
    """The message ``key`` in ``lang`` (``en`` or ``zh-TW``; anything else is English).

    >>> message("installed", "en", seconds=42.4)
    'Installed in 42 s.'
    """
    return MESSAGES.get(lang, MESSAGES["en"])[key].format(**fields)


def pick_lang(argv: list[str], environ: dict[str, str] | None = None) -> str:
    """The language to talk in: ``--lang`` among the arguments, else a Chinese locale, else English.

    >>> pick_lang(["--no-browser", "--lang", "zh-TW"], {}), pick_lang(["--lang=en"], {"LANG": "zh_TW.UTF-8"})
    ('zh-TW', 'en')
    >>> pick_lang([], {"LANG": "zh_TW.UTF-8"}), pick_lang([], {"LANG": "C.UTF-8"})
    ('zh-TW', 'en')
    """
    env = os.environ if environ is None else environ
    for i, arg in enumerate(argv):
        value = None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        if value is not None:
            return "zh-TW" if value.strip().lower().replace("_", "-").startswith("zh") else "en"
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(name):
            return "zh-TW" if env[name].lower().startswith("zh") else "en"
    return "en"


def say(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def venv_dir(root: Path = ROOT) -> Path:
    return root / VENV_NAME


def venv_executable(venv: Path, name: str = "python", windows: bool = WINDOWS) -> Path:
    """A program of the environment: ``bin/NAME``, or ``Scripts\\NAME.exe`` on Windows.

    >>> venv_executable(Path("/x/.venv"), "typhoon-edu", windows=False).as_posix()
    '/x/.venv/bin/typhoon-edu'
    >>> venv_executable(Path("/x/.venv"), "python", windows=True).as_posix()
    '/x/.venv/Scripts/python.exe'
    """
    return venv / "Scripts" / f"{name}.exe" if windows else venv / "bin" / name


def install_key(root: Path = ROOT) -> str:
    """A digest of what decides the installed dependencies: ``pyproject.toml`` and ``setup.py``."""
    digest = hashlib.sha256()
    for name in ("pyproject.toml", "setup.py"):
        path = root / name
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"") + b"\0")
    return digest.hexdigest()


def read_stamp(venv: Path) -> dict[str, object]:
    try:
        data = json.loads((venv / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def needs_install(stamp: dict[str, object], key: str, extras: list[str], root: Path) -> bool:
    """Whether ``pip install`` must run: the stamp is missing, or records other files, extras or another checkout.

    >>> stamp = {"key": "k", "extras": ["test"], "root": "/r"}
    >>> needs_install(stamp, "k", [], Path("/r")), needs_install(stamp, "k", ["test"], Path("/r"))
    (False, False)
    >>> needs_install(stamp, "new", [], Path("/r")), needs_install({}, "k", [], Path("/r"))
    (True, True)
    """
    if stamp.get("key") != key or stamp.get("root") != str(root):
        return True
    have = stamp.get("extras")
    return not isinstance(have, list) or not set(extras) <= set(have)


def python_runs(python: Path) -> bool:
    """Whether ``python`` starts (a venv whose base Python was removed has a dangling link)."""
    if not python.exists():
        return False
    try:
        return subprocess.run([str(python), "-c", "import sys"], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def pip_runs(python: Path) -> bool:
    """Whether the environment of ``python`` has a working pip."""
    try:
        return subprocess.run([str(python), "-m", "pip", "--version"], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def system_pip_version(python: str) -> tuple[int, ...] | None:
    """The version of the pip that ``python -m pip`` runs, or ``None`` if there is none."""
    try:
        out = subprocess.run([python, "-m", "pip", "--version"], stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0 or not out.stdout.startswith("pip "):
        return None
    parts = []
    for piece in out.stdout.split()[1].split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def make_venv(venv: Path, lang: str, python: str | None = None, has_ensurepip: bool | None = None) -> None:
    """Make ``venv`` with ``python`` (default: this one), with pip; raise :class:`EnvProblem` if impossible."""
    python = python or sys.executable
    if has_ensurepip is None:
        has_ensurepip = importlib.util.find_spec("ensurepip") is not None and importlib.util.find_spec("venv") is not None
    say(message("making", lang, venv=venv))
    if has_ensurepip:
        out = subprocess.run([python, "-m", "venv", str(venv)], stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if out.returncode == 0:
            return
        # Debian's venv without python3-venv fails here with "ensurepip is not available".
        if "ensurepip" not in (out.stdout + out.stderr):
            raise EnvProblem("venv_failed", venv=venv, error=(out.stderr or out.stdout).strip())
        shutil.rmtree(venv, ignore_errors=True)
    pip = system_pip_version(python)
    if importlib.util.find_spec("venv") is None or pip is None or pip < PIP_WITH_PYTHON_OPTION:
        raise EnvProblem("no_venv", exe=python)
    say(message("fallback", lang))
    steps = [[python, "-m", "venv", "--without-pip", str(venv)],
             [python, "-m", "pip", "--python", str(venv_executable(venv)), "install", "-q", "pip"]]
    for step in steps:
        out = subprocess.run(step, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if out.returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            raise EnvProblem("venv_failed", venv=venv, error=(out.stderr or out.stdout).strip())


def pip_environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    # The checkout's own environment is a virtual environment: pip's PEP 668 check does not apply,
    # and a PIP_USER or PIP_TARGET meant for the system must not send the project elsewhere.
    for name in ("PIP_USER", "PIP_TARGET", "PIP_PREFIX", "PYTHONHOME"):
        env.pop(name, None)
    return env


def ensure(extras: list[str] | None = None, lang: str = "en", root: Path = ROOT, python: str | None = None) -> Path:
    """Make or update ``root/.venv`` with the project (and ``extras``) installed; return its Python.

    Raises :class:`EnvProblem` when it cannot.
    """
    if sys.version_info[:2] < MIN_PYTHON:
        raise EnvProblem("old_python", need=".".join(map(str, MIN_PYTHON)), have=sys.version.split()[0],
                         exe=sys.executable)
    extras = sorted(set(extras or []))
    venv = venv_dir(root)
    py = venv_executable(venv)
    stamp = read_stamp(venv)
    if venv.exists() and (not python_runs(py) or stamp.get("venv", str(venv)) != str(venv)):
        say(message("broken", lang, venv=venv))
        shutil.rmtree(venv)
        stamp = {}
    key = install_key(root)
    if venv.exists() and needs_install(stamp, key, extras, root) and not pip_runs(py):
        # e.g. a `python3 -m venv .venv` that failed half-way on Debian without python3-venv
        say(message("broken", lang, venv=venv))
        shutil.rmtree(venv)
        stamp = {}
    if not venv.exists():
        make_venv(venv, lang, python)
    if not needs_install(stamp, key, extras, root):
        return py
    wanted = sorted(set(extras) | set(stamp.get("extras") or []) if stamp.get("key") == key else set(extras))
    target = f"{root}[{','.join(wanted)}]" if wanted else str(root)
    say(message("installing", lang, extras=f"[{','.join(wanted)}]" if wanted else "", venv=venv))
    started = time.monotonic()
    code = subprocess.run([str(py), "-m", "pip", "install", "-q", "-e", target], env=pip_environment(),
                          stdin=subprocess.DEVNULL).returncode
    if code != 0:
        raise EnvProblem("install_failed", venv=venv, code=code)
    say(message("installed", lang, seconds=time.monotonic() - started))
    (venv / STAMP_NAME).write_text(json.dumps({"key": key, "extras": wanted, "root": str(root), "venv": str(venv)},
                                              indent=1) + "\n", encoding="utf-8")
    return py


def main(argv: list[str]) -> int:
    """``project_env.py [--extras a,b] [--lang en|zh-TW]``: make or update ``.venv``, print its Python."""
    extras: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--extras" and i + 1 < len(argv):
            extras += [e for e in argv[i + 1].split(",") if e]
        elif arg.startswith("--extras="):
            extras += [e for e in arg.split("=", 1)[1].split(",") if e]
    lang = pick_lang(argv)
    try:
        python = ensure(extras, lang)
    except EnvProblem as problem:
        say(problem.text(lang))
        return 1
    sys.stdout.write(f"{python}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
