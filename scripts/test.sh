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

# Debian's Chromium and CJK fonts for the browser tests (the Playwright download does not work here),
# and PostgreSQL for the room store's tests (tests/conftest.py starts a throwaway server in a
# temporary folder, as an unprivileged user when run as root; Debian's own cluster is not used).
if command -v apt-get >/dev/null 2>&1; then
    need=()
    [ -x /usr/bin/chromium ] || need+=(chromium)
    dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need+=(fonts-noto-cjk)
    compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null || need+=(postgresql)
    if [ "${#need[@]}" -gt 0 ]; then
        SUDO=""
        [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
        export DEBIAN_FRONTEND=noninteractive
        $SUDO apt-get update -q
        $SUDO apt-get install -y -q "${need[@]}"
    fi
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

# With arguments (a file, -k, -m …): one pytest run with them.
if [ "$#" -gt 0 ]; then
    exec "$venv_python" -m pytest --durations=20 "$@"
fi

# Without: the real-browser tests and all the others run as two pytest processes at once. The
# browser tests spend most of their time waiting (for Chromium, kernels, a page's answer) and the
# others on one core, so on a 2-core machine the two together take little more than the browser
# tests alone. They stay two processes, not pytest-xdist workers, because the browser tests must
# not share a process with the others (Playwright keeps an asyncio loop running in its thread;
# see tests/conftest.py). The browser run's output goes to a log, printed when both are done.
browser_log=artifacts/logs/browser-tests.log
echo "scripts/test.sh: the browser tests run beside the others; their output: $browser_log"
"$venv_python" -m pytest -m browser --durations=20 >"$browser_log" 2>&1 &
browser_pid=$!
trap 'kill "$browser_pid" 2>/dev/null || true' EXIT INT TERM
set +e
"$venv_python" -m pytest -m "not browser" --durations=20
others=$?
wait "$browser_pid"
browser=$?
set -e
trap - EXIT INT TERM
printf '\n=== the browser tests (%s) ===\n' "$browser_log"
cat "$browser_log"
echo "scripts/test.sh: browser tests exit $browser, the others exit $others"
[ "$others" -eq 0 ] && [ "$browser" -eq 0 ]
