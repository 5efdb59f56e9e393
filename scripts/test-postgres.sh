#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the tests (Debian's packages, installed when
# missing) on 127.0.0.1:$PGPORT with its data in $PGTMP, and print its database URL.
# Stop it with: scripts/test-postgres.sh stop
set -euo pipefail
PGPORT=${PGPORT:-55432}
PGTMP=${PGTMP:-/tmp/parcheesi-test-postgres}

find_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

if [ "${1:-start}" = "stop" ]; then
    BIN=$(find_bin)
    [ -n "$BIN" ] && [ -d "$PGTMP/data" ] && as_postgres "$BIN/pg_ctl" -D "$PGTMP/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$PGTMP"
    exit 0
fi

BIN=$(find_bin)
if [ -z "$BIN" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >&2
    BIN=$(find_bin)
fi

if [ -d "$PGTMP/data" ]; then
    as_postgres "$BIN/pg_ctl" -D "$PGTMP/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$PGTMP"
fi
mkdir -p "$PGTMP"
[ "$(id -u)" -eq 0 ] && chown postgres "$PGTMP"
as_postgres "$BIN/initdb" -D "$PGTMP/data" -A trust -U postgres >/dev/null
as_postgres "$BIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/log" -w \
    -o "-p $PGPORT -k $PGTMP -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
echo "postgresql+psycopg://postgres@127.0.0.1:$PGPORT/postgres"
