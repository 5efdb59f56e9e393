#!/usr/bin/env bash
# Install the server into a virtual environment and start it (SQLite under data/).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet -e .
# Per-browser settings go with the rest of the runtime data, as in the unit and the image.
export NICEGUI_STORAGE_PATH="${NICEGUI_STORAGE_PATH:-${PARCHEESI_DATA_DIR:-$PWD/data}/nicegui}"
exec .venv/bin/python app.py "$@"
