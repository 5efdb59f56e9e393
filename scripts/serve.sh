#!/usr/bin/env bash
# Install the server into a virtual environment and start it (SQLite under data/).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet -e .
exec .venv/bin/python app.py "$@"
