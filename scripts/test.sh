#!/usr/bin/env bash
# Install what the tests need, then run every test: unit, property and golden tests, doctests,
# the lesson notebooks (nbval) and the real-browser tests (Debian's chromium via Playwright).
# This is the README's test command; CI runs it from .ci/run.
#
# Everything runs in the checkout's own environment, .venv, the one `python3 scripts/start.py` uses:
# scripts/project_env.py makes it with whatever Python starts this script (Debian's system Python
# included, which refuses `pip install` outside a virtual environment) and installs `.[test]` into it
# (again only when pyproject.toml changed). Its bin/ goes first on PATH, so every program the tests
# start (Voilà, Jupyter, kernels, typhoon-edu) is the environment's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Debian's Chromium and CJK fonts for the browser tests (the Playwright download does not work here), Node.js
# for the Pyodide check,
# and PostgreSQL for the room store's tests (tests/conftest.py starts a throwaway server in a
# temporary folder, as an unprivileged user when run as root; Debian's own cluster is not used).
if command -v apt-get >/dev/null 2>&1; then
    need=()
    [ -x /usr/bin/chromium ] || need+=(chromium)
    command -v node >/dev/null 2>&1 || need+=(nodejs npm)
    dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need+=(fonts-noto-cjk)
    compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null || need+=(postgresql)
    if [ "${#need[@]}" -gt 0 ]; then
        SUDO=""
        [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
        export DEBIAN_FRONTEND=noninteractive
        if ! { $SUDO apt-get update -q && $SUDO apt-get install -y -q "${need[@]}"; }; then
            # CI must have everything; on a contributor's computer without sudo, the tests that need none of these
            # still run (`bash scripts/test.sh tests/test_golden.py`), and the others say what is missing
            if [ -n "${CI:-}" ]; then
                echo "scripts/test.sh: could not install ${need[*]} (above)" >&2
                exit 1
            fi
            echo "scripts/test.sh: could not install ${need[*]} (no sudo?); tests that need them will fail:" \
                 "install them with: sudo apt-get install ${need[*]}" >&2
        fi
    fi
fi

# Pyodide (CPython compiled to WebAssembly, what JupyterLite runs) under Node.js, for
# tests/test_pyodide.py: the pinned npm package, installed once into tests/pyodide/node_modules.
if [ ! -f tests/pyodide/node_modules/pyodide/pyodide.mjs ] && command -v npm >/dev/null 2>&1; then
    npm ci --prefix tests/pyodide --no-audit --no-fund --loglevel=error || {
        [ -z "${CI:-}" ] || exit 1
        echo "scripts/test.sh: npm could not install Pyodide; tests/test_pyodide.py will fail" >&2
    }
fi

boot="${PYTHON:-$(command -v python3 || command -v python || true)}"
if [ -z "$boot" ]; then
    echo "scripts/test.sh: no python3 found; install Python 3.10 or later (sudo apt install python3 python3-venv)" >&2
    exit 1
fi
venv_python="$("$boot" scripts/project_env.py --extras test)"
venv_bin="$(dirname "$venv_python")"
export VIRTUAL_ENV="$(dirname "$venv_bin")"
export PATH="$venv_bin:$PATH"
mkdir -p artifacts/screenshots artifacts/logs
# Byte-code for the package, once: where PYTHONDONTWRITEBYTECODE is set (CI machines, containers), every kernel and
# subprocess of the tests would otherwise compile typhoon_edu from source (about 0.2 CPU-s per page kernel).
"$venv_python" -m compileall -q typhoon_edu \
    || echo "scripts/test.sh: compileall failed (above); the tests run on, compiling from source" >&2

# With arguments, pytest runs just those (`bash scripts/test.sh tests/test_golden.py`).
if [ "$#" -gt 0 ]; then
    exec "$venv_python" -m pytest --durations=20 "$@"
fi

# The whole suite runs as two streams at once, so that it fits in about a quarter of an hour on 2 cores:
# * the real-browser tests, one after another in this process (each keeps Chromium, a Voila server and its
#   kernels busy, and times its pages), all but the LATE files below;
# * every other test, in two pytest-xdist workers (a file's tests stay together, `--dist loadfile`, so a
#   notebook's cells run in order in one kernel), and then the LATE browser files, one after another.
# LATE holds lesson browser tests worth about 9 minutes, which balances the two streams (measure with
# --durations=0 when moving files); each stream's report is printed when both are done.
# PYTEST_ADDOPTS reaches every run: give them no shared output file (say, one --junitxml).
late=(tests/browser/test_a11y_keyboard.py tests/browser/test_lessons_browser.py tests/browser/test_lesson07_browser.py
      tests/browser/test_touch_lessons.py tests/browser/test_lessons_lab_browser.py tests/browser/test_a11y_lessons.py
      tests/browser/test_focus_kept_lessons.py tests/browser/test_lessons_03_05_phone.py)
skip_late=()
for file in "${late[@]}"; do skip_late+=(--ignore="$file"); done
others_log=artifacts/logs/pytest-not-browser.log
late_log=artifacts/logs/pytest-browser-late.log
rm -f artifacts/logs/second-stream.rc
(
    others_rc=0
    "$venv_python" -m pytest -m "not browser" -n 2 --dist loadfile --durations=20 >"$others_log" 2>&1 || others_rc=$?
    late_rc=0
    "$venv_python" -m pytest -m browser --durations=10 "${late[@]}" >"$late_log" 2>&1 || late_rc=$?
    echo "$others_rc $late_rc" >artifacts/logs/second-stream.rc
) &
second=$!
trap 'kill "$second" 2>/dev/null || true' EXIT
browser_rc=0
"$venv_python" -m pytest -m browser --durations=20 "${skip_late[@]}" || browser_rc=$?
wait "$second" || true
trap - EXIT
read -r others_rc late_rc <artifacts/logs/second-stream.rc || { others_rc=1; late_rc=1; }
printf '\n=== every test but the browser tests (%s) ===\n' "$others_log"
cat "$others_log"
printf '\n=== the lesson browser tests run after them (%s) ===\n' "$late_log"
cat "$late_log"
printf '\nbrowser tests: exit code %s; every other test: exit code %s; lesson browser tests: exit code %s\n' \
    "$browser_rc" "$others_rc" "$late_rc"
[ "$browser_rc" -eq 0 ] && [ "$others_rc" -eq 0 ] && [ "$late_rc" -eq 0 ]
