#!/usr/bin/env bash
# Starts (or finds running) a throwaway Postgres cluster in .cache/pg on a free loopback port and prints its
# DATABASE_URL on stdout. Idempotent: a second call prints the URL of the cluster already running.
# Installs Debian's postgresql package when no server binaries exist.
#   --install-only   install the server binaries, start nothing (the test setup step)
#   --stop           stop the cluster if it runs (the integration tests' teardown)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD/.cache/pg
data=$root/data

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
bin=$(find_bin || true)
if [[ -z "$bin" || ! -x "$bin/pg_ctl" ]]; then
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  bin=$(find_bin)
fi

[[ "${1:-}" == --install-only ]] && exit 0

# Postgres refuses to run as root: run it as the package's "postgres" user then.
as_owner() { if [[ $EUID -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }

if [[ "${1:-}" == --stop ]]; then
  [[ -f "$data/PG_VERSION" ]] && as_owner "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1 &&
    as_owner "$bin/pg_ctl" stop -D "$data" -m fast -w -t 60 >&2
  exit 0
fi

mkdir -p "$root"
[[ $EUID -eq 0 ]] && chown postgres "$root"
# Test lanes run side by side (scripts/test-lanes.ts): one of them starts the cluster, the other waits and finds it.
# The server must not inherit the lock's descriptor (9>&- below), or it would hold the lock for its lifetime.
exec 9>"$root/.start.lock"
flock 9

if [[ -f "$root/port" ]] && as_owner "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1; then
  echo "postgresql://ycsb@127.0.0.1:$(cat "$root/port")/ycsb_lab"
  exit 0
fi

if [[ ! -f "$data/PG_VERSION" ]]; then
  as_owner "$bin/initdb" -D "$data" -U ycsb --auth=trust -E UTF8 --no-locale >"$root/initdb.log" 2>&1
fi

port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
# fsync off: a test cluster trades crash safety for speed (never do this with data you keep).
as_owner "$bin/pg_ctl" start -D "$data" -w -t 60 -l "$root/server.log" \
  -o "-p $port -k $root -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2 9>&-
echo "$port" >"$root/port"
"$bin/createdb" -h 127.0.0.1 -p "$port" -U ycsb ycsb_lab 2>/dev/null || true
echo "postgresql://ycsb@127.0.0.1:$port/ycsb_lab"
