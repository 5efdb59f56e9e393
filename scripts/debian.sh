# Shell functions the scripts share (sourced, not run): Debian's packages and PostgreSQL.

# Install the Debian packages given (package names) whose command is missing: each
# argument is "command:package".
install_missing() {
    local missing="" pair
    for pair in "$@"; do
        command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
    done
    [ -z "$missing" ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >&2
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

# The newest PostgreSQL server's bin directory (installing Debian's postgresql if none).
postgres_bin() {
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$bin" ]; then
        install_missing "/usr/lib/postgresql/none:postgresql"
        bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    fi
    echo "$bin"
}

# Run a command as the postgres user when root (PostgreSQL refuses to run as root).
as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Start a PostgreSQL server with its data in $1/data on 127.0.0.1:$2 (made the first time;
# extra server options after those), and print its database URL.
start_postgres() {
    local dir=$1 port=$2 bin
    shift 2
    bin=$(postgres_bin)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    if [ ! -d "$dir/data" ]; then
        as_postgres "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
    fi
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 $*" start >/dev/null
    echo "postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
}

# Stop the PostgreSQL server whose data is in $1/data, if it runs.
stop_postgres() {
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$bin" ] && [ -d "$1/data" ]; then
        as_postgres "$bin/pg_ctl" -D "$1/data" -m fast stop >/dev/null 2>&1 || true
    fi
}
