#!/usr/bin/env bash
# Install everything the tests need (virtual environment, Python packages, Debian's
# Chromium and its driver for the browser tests) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

if ! command -v chromedriver >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# A throwaway PostgreSQL server: the storage, room and recovery tests run on it too.
PARCHEESI_TEST_POSTGRES_URL=$(./scripts/test-postgres.sh)
export PARCHEESI_TEST_POSTGRES_URL
trap './scripts/test-postgres.sh stop' EXIT

.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
