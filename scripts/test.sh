#!/usr/bin/env bash
# Install everything the tests need (virtual environment, Python packages, Debian's
# Chromium and its driver, Caddy, systemd-analyze, nginx, Redis, axe-core, a throwaway
# PostgreSQL server) and run the whole test suite. Arguments are passed to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

# Debian packages the tests use: the browser and its driver, Caddy (to validate the
# reverse-proxy example), systemd-analyze (to verify the service unit), npm (for axe-core),
# and nginx and Redis (the cluster's drill brings up a cluster of shards).
# shellcheck source=scripts/debian.sh
. scripts/debian.sh
install_missing chromium:chromium chromedriver:chromium-driver caddy:caddy \
    systemd-analyze:systemd npm:npm nginx:nginx-light redis-server:redis-server

# axe-core, the accessibility checker tests/test_browser_axe.py runs in the pages: from the
# npm registry into .axe/ (git-ignored), its major version pinned.
if [ ! -f .axe/node_modules/axe-core/axe.min.js ]; then
    npm install --no-save --no-audit --no-fund --prefix .axe axe-core@4 >/dev/null
fi

# A throwaway PostgreSQL server: the storage, room and recovery tests run on it too.
PARCHEESI_TEST_POSTGRES_URL=$(./scripts/test-postgres.sh)
export PARCHEESI_TEST_POSTGRES_URL
trap './scripts/test-postgres.sh stop' EXIT

.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/lint-imports  # the layers: pyproject.toml's [tool.importlinter] contracts
.venv/bin/python scripts/complexity.py  # no function of app.py, parcheesi, components above 15
.venv/bin/python -m pytest --durations=15 "$@"  # the slowest tests listed: the suite stays near 15 min
