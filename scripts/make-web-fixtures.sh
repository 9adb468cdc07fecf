#!/usr/bin/env bash
# Regenerate test/fixtures/web/ from real YCSB 0.17.0 runs against site.ycsb.BasicDB (simulated 0-2 ms per
# operation): a thread sweep of workload A at a fixed operation count (seed 003's shape: runtime for 1..512
# threads), and one run with measurementtype=histogram for the latency histogram. The dashboard's browser
# tests ingest these outputs through the API. Needs java 17; ~40 s.
#
#   bash scripts/make-web-fixtures.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
ycsb_dir="$(bash scripts/fetch-ycsb.sh)"
out="$root/test/fixtures/web"
# HdrHistogram 2.1.12 first on the classpath (DESIGN.md: writes V2, no jaxb needed).
cp="$ycsb_dir/hdr-2.1.12/*:$ycsb_dir/core/*"
# Workload mixes from the catalogue in model/workloads.ts, not retyped here.
mapfile -t WL_A < <(npx --no-install tsx scripts/fixtures/workload-props.ts a 2>/dev/null)
COMMON=(-db site.ycsb.BasicDB -p basicdb.verbose=false -p basicdb.simulatedelay=3 -p recordcount=20000)

run() { # <dir> <ycsb args...>: working directory = <dir>, so nothing printed names a path of this machine
  local dir="$1"; shift
  rm -rf "$dir"; mkdir -p "$dir"
  echo "fixture ${dir#"$out"/}: $*" >&2
  (cd "$dir" && java -cp "$cp" site.ycsb.Client "$@" > stdout.txt 2> stderr.txt)
}

for t in 1 2 4 8 16 32 64 128 256 512; do
  run "$out/sweep-a/t$t" -t "${COMMON[@]}" "${WL_A[@]}" -p threadcount=$t -p operationcount=10000 \
    -p hdrhistogram.percentiles=50,90,95,99,99.9,99.99 -s -p status.interval=1
done

run "$out/histogram-a" -t "${COMMON[@]}" "${WL_A[@]}" -p threadcount=8 -p operationcount=20000 \
  -p measurementtype=histogram -p histogram.buckets=20 -p measurement.histogram.verbose=true -s -p status.interval=1

echo "fixtures written to ${out#"$root"/}" >&2
