#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the tests (Debian's packages, installed when
# missing) on 127.0.0.1:$PGPORT with its data in $PGTMP, and print its database URL.
# Stop it with: scripts/test-postgres.sh stop
set -euo pipefail
PGPORT=${PGPORT:-55432}
PGTMP=${PGTMP:-/tmp/parcheesi-test-postgres}
# shellcheck source=scripts/debian.sh
. "$(dirname "$0")/debian.sh"

stop_postgres "$PGTMP"
rm -rf "$PGTMP"
[ "${1:-start}" = "stop" ] && exit 0
start_postgres "$PGTMP" "$PGPORT" -c fsync=off
