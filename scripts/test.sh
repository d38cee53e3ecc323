#!/usr/bin/env bash
# Install what the tests need, then run every test: unit, property and golden tests, doctests,
# the lesson notebooks (nbval) and the real-browser tests (Debian's chromium via Playwright).
# This is the README's test command; CI runs it from .ci/run.
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

python -m pip install -q -e ".[test]"
mkdir -p artifacts/screenshots artifacts/logs
python -m pytest --durations=20 "$@"
