#!/usr/bin/env bash
# A cluster of shards on this machine, from Debian's packages (docs/scaling.md):
#
#     scripts/cluster.sh up --shards N --port P     # PostgreSQL, Redis, N shards, nginx on P
#     scripts/cluster.sh down                       # stop all of it (the data stays)
#     scripts/cluster.sh status
#
# Phones open http://<this machine>:P/. Shard i listens on 127.0.0.1:P+1+i behind nginx
# under /s/<i>/; a shard that stops for any reason is started again after a second (its
# supervisor loop, the restart policy). PostgreSQL (127.0.0.1:P+100) and Redis
# (127.0.0.1:P+101) keep their data under the cluster's directory, $PARCHEESI_CLUSTER_DIR
# (default data/cluster). Set PARCHEESI_DATABASE_URL or NICEGUI_REDIS_URL to use servers of
# your own instead.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/debian.sh
. scripts/debian.sh

ROOT=$PWD
DIR=${PARCHEESI_CLUSTER_DIR:-$ROOT/data/cluster}
case "$DIR" in /*) ;; *) DIR="$ROOT/$DIR" ;; esac
COMMAND=${1:-}
[ $# -gt 0 ] && shift
SHARDS=2
PORT=8080
while [ $# -gt 0 ]; do
    case "$1" in
        --shards) SHARDS=$2; shift 2 ;;
        --port) PORT=$2; shift 2 ;;
        *) echo "cluster.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

usage() {
    echo "usage: scripts/cluster.sh up --shards N --port P | down | status" >&2
    exit 2
}

up() {
    case "$SHARDS" in ''|*[!0-9]*) usage ;; esac
    case "$PORT" in ''|*[!0-9]*) usage ;; esac
    if [ "$SHARDS" -lt 1 ] || [ "$SHARDS" -gt 64 ]; then
        echo "cluster.sh: --shards must be 1..64" >&2; exit 2
    fi
    if [ -f "$DIR/running" ]; then
        echo "cluster.sh: a cluster is running from $DIR (scripts/cluster.sh down first)" >&2
        exit 1
    fi
    install_missing nginx:nginx-light redis-server:redis-server
    [ -x .venv/bin/python ] || "${PYTHON:-python3}" -m venv .venv
    # The server's packages (an editable install follows the code; a new dependency needs it)
    .venv/bin/python -c "import parcheesi, nicegui, redis, psycopg" 2>/dev/null \
        || .venv/bin/python -m pip install --quiet -e .
    mkdir -p "$DIR"
    chmod 711 "$DIR"  # PostgreSQL (its own user) reaches its folder; nobody lists the rest
    rm -f "$DIR/stopping"

    local database=${PARCHEESI_DATABASE_URL:-}
    if [ -z "$database" ]; then
        database=$(start_postgres "$DIR/postgres" $((PORT + 100)))
        touch "$DIR/own-postgres"
    fi
    local redis=${NICEGUI_REDIS_URL:-}
    if [ -z "$redis" ]; then
        mkdir -p "$DIR/redis"
        redis-server --port $((PORT + 101)) --bind 127.0.0.1 --dir "$DIR/redis" \
            --appendonly yes --save "" --daemonize yes --pidfile "$DIR/redis/pid" \
            --logfile "$DIR/redis/log"
        wait_for_redis $((PORT + 101))
        redis="redis://127.0.0.1:$((PORT + 101))/0"
    fi
    [ -f "$DIR/secret" ] || (umask 077 && .venv/bin/python -c \
        "import secrets; print(secrets.token_urlsafe(32))" > "$DIR/secret")
    .venv/bin/python -m parcheesi migrate --database-url "$database" >/dev/null

    echo "$SHARDS $PORT" > "$DIR/running"
    local i
    for ((i = 0; i < SHARDS; i++)); do
        start_shard "$i" "$database" "$redis"
    done
    write_proxy
    nginx -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx"
    wait_until_up
    echo "cluster of $SHARDS shards up: http://127.0.0.1:$PORT/ (data in $DIR)"
}

# Until the Redis just started answers on port $1: it forks before it binds its port, and
# a port another program holds stops it there (its log says so).
wait_for_redis() {
    local tries
    for ((tries = 0; tries < 50; tries++)); do
        [ "$(redis-cli -p "$1" ping 2>/dev/null)" = PONG ] && return 0
        sleep 0.1
    done
    echo "cluster.sh: Redis did not start on port $1; see $DIR/redis/log" >&2
    tail -n 3 "$DIR/redis/log" >&2
    exit 1
}

start_shard() {
    local i=$1 database=$2 redis=$3 home="$DIR/shard-$1"
    mkdir -p "$home"
    # The supervisor: starts the shard again a second after it stops, until `down`.
    PARCHEESI_DATABASE_URL="$database" NICEGUI_REDIS_URL="$redis" \
        PARCHEESI_STORAGE_SECRET="$(cat "$DIR/secret")" PARCHEESI_DATA_DIR="$home" \
        NICEGUI_STORAGE_PATH="$home/nicegui" PARCHEESI_SHARD="$i/$SHARDS" \
        PARCHEESI_TRUSTED_PROXIES=127.0.0.1 \
        setsid bash -c '
            while [ ! -f "$0/stopping" ]; do
                .venv/bin/python app.py --host 127.0.0.1 --port "$1" >>"$2/log" 2>&1 &
                echo $! > "$2/pid"
                wait $! || true
                [ -f "$0/stopping" ] && break
                echo "$(date -u +%FT%TZ) shard stopped; starting it again" >>"$2/log"
                sleep 1
            done' "$DIR" $((PORT + 1 + i)) "$home" </dev/null >/dev/null 2>&1 &
    echo $! > "$home/supervisor"
}

write_proxy() {
    mkdir -p "$DIR/nginx/logs" "$DIR/nginx/tmp" "$DIR/nginx/static"
    cp deploy/restarting.html "$DIR/nginx/static/restarting.html"
    local i servers="" locations=""
    for ((i = 0; i < SHARDS; i++)); do
        servers="$servers        server 127.0.0.1:$((PORT + 1 + i)) max_fails=1 fail_timeout=3s;
"
        locations="$locations        location /s/$i/ {
            proxy_pass http://127.0.0.1:$((PORT + 1 + i))/;
            proxy_set_header X-Forwarded-Prefix /s/$i;
            include $DIR/nginx/forward.conf;
        }
"
    done
    cp deploy/nginx-forward.conf "$DIR/nginx/forward.conf"
    awk -v servers="$servers" -v locations="$locations" -v dir="$DIR/nginx" -v port="$PORT" '
        /^@SERVERS@$/ { printf "%s", servers; next }
        /^@LOCATIONS@$/ { printf "%s", locations; next }
        { gsub("@DIR@", dir); gsub("@PORT@", port); print }' deploy/nginx-cluster.conf \
        > "$DIR/nginx/nginx.conf"
}

wait_until_up() {
    local i tries
    for ((i = 0; i < SHARDS; i++)); do
        for ((tries = 0; tries < 120; tries++)); do
            curl -fsS "http://127.0.0.1:$PORT/s/$i/health" >/dev/null 2>&1 && break
            sleep 0.5
        done
        if [ "$tries" -eq 120 ]; then
            echo "cluster.sh: shard $i did not start; see $DIR/shard-$i/log" >&2
            exit 1
        fi
    done
}

down() {
    [ -d "$DIR" ] || return 0
    touch "$DIR/stopping"
    local home pid
    for home in "$DIR"/shard-*; do
        [ -d "$home" ] || continue
        for pid in "$home/supervisor" "$home/pid"; do
            [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
        done
    done
    for home in "$DIR"/shard-*; do
        [ -f "$home/pid" ] || continue
        pid=$(cat "$home/pid")
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$home/pid" "$home/supervisor"
    done
    [ -f "$DIR/nginx/nginx.pid" ] && nginx -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx" -s quit \
        2>/dev/null || true
    [ -f "$DIR/redis/pid" ] && kill "$(cat "$DIR/redis/pid")" 2>/dev/null || true
    if [ -f "$DIR/own-postgres" ]; then
        stop_postgres "$DIR/postgres"
        rm -f "$DIR/own-postgres"
    fi
    rm -f "$DIR/running" "$DIR/stopping"
    echo "cluster stopped (data kept in $DIR)"
}

status() {
    if [ ! -f "$DIR/running" ]; then
        echo "no cluster running from $DIR"
        return 1
    fi
    read -r SHARDS PORT < "$DIR/running"
    local i
    for ((i = 0; i < SHARDS; i++)); do
        printf 'shard %s: ' "$i"
        curl -fsS "http://127.0.0.1:$PORT/s/$i/health" || printf 'down'
        echo
    done
}

case "$COMMAND" in
    up) up ;;
    down) down ;;
    status) status ;;
    *) usage ;;
esac
