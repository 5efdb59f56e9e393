#!/usr/bin/env bash
# Install the server into a virtual environment and start it (SQLite under data/).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
# Installed again only when pyproject.toml changed (an editable install follows the code):
# a start takes no pip time and shows no packaging warnings.
if [ ! -f .venv/.serve-installed ] || [ pyproject.toml -nt .venv/.serve-installed ]; then
    .venv/bin/python -m pip install --quiet -e .
    touch .venv/.serve-installed
fi
# Per-browser settings go with the rest of the runtime data, as in the unit and the image.
export NICEGUI_STORAGE_PATH="${NICEGUI_STORAGE_PATH:-${PARCHEESI_DATA_DIR:-$PWD/data}/nicegui}"
# The database, the storage secret and the per-browser storage are the server user's alone
# (the server sets the same umask when it reads its settings; this covers what comes before).
umask 077
exec .venv/bin/python app.py "$@"
