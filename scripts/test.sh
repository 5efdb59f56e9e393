#!/usr/bin/env bash
# Install everything the tests need (virtual environment, Python packages, Debian's
# Chromium and its driver, Caddy, systemd-analyze, a throwaway PostgreSQL server) and run
# the whole test suite. Arguments are passed to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

# Debian packages the tests use: the browser and its driver, Caddy (to validate the
# reverse-proxy example) and systemd-analyze (to verify the service unit).
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v chromedriver >/dev/null 2>&1 || missing="$missing chromium-driver"
command -v caddy >/dev/null 2>&1 || missing="$missing caddy"
command -v systemd-analyze >/dev/null 2>&1 || missing="$missing systemd"
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

# A throwaway PostgreSQL server: the storage, room and recovery tests run on it too.
PARCHEESI_TEST_POSTGRES_URL=$(./scripts/test-postgres.sh)
export PARCHEESI_TEST_POSTGRES_URL
trap './scripts/test-postgres.sh stop' EXIT

.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/lint-imports  # the layers: pyproject.toml's [tool.importlinter] contracts
.venv/bin/python scripts/complexity.py  # no function of app.py, parcheesi, components above 15
.venv/bin/python -m pytest "$@"
