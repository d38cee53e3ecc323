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

"$venv_python" -m pytest --durations=20 "$@"
