#!/usr/bin/env bash
# Regenerate test/fixtures/ycsb/ from real YCSB 0.17.0 runs (site.ycsb.Client against site.ycsb.BasicDB,
# plus FlakyDB, a BasicDB compiled here that fails on a schedule). Every fixture is written by this script;
# test/fixtures/ycsb/README.md lists the command line behind each file. Needs java + javac 17 and maven.
#
#   bash scripts/make-ycsb-fixtures.sh            # all fixtures (~1 minute)
#   bash scripts/make-ycsb-fixtures.sh hdr        # only the two-client HDR log runs
#   bash scripts/make-ycsb-fixtures.sh no-hdr     # every fixture but those
#   bash scripts/make-ycsb-fixtures.sh readme     # only rewrite test/fixtures/ycsb/README.md
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
ycsb_dir="$(bash scripts/fetch-ycsb.sh)"
out="$root/test/fixtures/ycsb"
only="${1:-all}"

core_cp="$ycsb_dir/core/*"
# HdrHistogram 2.1.4 (shipped with YCSB core) needs jaxb on Java 17 to write logs, and writes V1 logs.
v1_cp="$core_cp:$ycsb_dir/jaxb/*"
# HdrHistogram 2.1.12 first on the classpath wins over 2.1.4 and writes V2 logs (DESIGN.md).
v2_cp="$ycsb_dir/hdr-2.1.12/*:$core_cp"

# The workload mixes come from the catalogue in model/workloads.ts, not retyped here.
workload() { mapfile -t "$1" < <(npx --no-install tsx scripts/fixtures/workload-props.ts "$2" 2>/dev/null); }
workload WL_A a
workload WL_E e
workload WL_F f
# BasicDB sleeps 0..(simulatedelay-1) ms per operation: gives latencies of 0-2 ms instead of ~0 us.
COMMON=(-db site.ycsb.BasicDB -p basicdb.verbose=false -p basicdb.simulatedelay=3 -p recordcount=20000)

# run <dir> <classpath> <ycsb args...>: runs one client with <dir> as working directory (so relative
# output paths, and the "Command line:" YCSB echoes, name no path of this machine).
run() {
  local dir="$1" cp="$2"; shift 2
  rm -rf "$dir"; mkdir -p "$dir"
  echo "fixture ${dir#"$out"/}: $*" >&2
  (cd "$dir" && java -cp "$cp" site.ycsb.Client "$@" > stdout.txt 2> stderr.txt)
}

# Two clients at once, each on its half of the key space, 1 s status and 1 s HDR intervals, ~12 s.
two_clients() { # <name> <classpath>
  local name="$1" cp="$2" pids=()
  for c in 0 1; do
    run "$out/$name/client-$c" "$cp" -t "${COMMON[@]}" "${WL_A[@]}" -p threadcount=4 -target 3000 \
      -p operationcount=36000 -p insertstart=$((c * 10000)) -p insertcount=10000 \
      -p hdrhistogram.percentiles=50,95,99,99.9 -p hdrhistogram.fileoutput=true -p hdrhistogram.output.path=./ \
      -s -p status.interval=1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
}

# What each fixture is, for test/fixtures/ycsb/README.md (the command lines come from the runs themselves).
declare -A ABOUT=(
  [hdr-v1]="Two clients at once (workload A, insertstart/insertcount halves, -target 3000 each, ~12 s), 1 s status lines, hdrhistogram.percentiles=50,95,99,99.9, HDR interval logs written by HdrHistogram 2.1.4 (what YCSB core ships; jaxb-api on the classpath for Java 17): V1 log encoding."
  [hdr-v2]="The same two-client run with HdrHistogram 2.1.12 first on the classpath: V2 log encoding."
  [histogram]="measurementtype=histogram with measurement.histogram.verbose=true (bucket lines), workload E (SCAN, INSERT)."
  [timeseries]="measurementtype=timeseries, timeseries.granularity=1000, workload F (READ-MODIFY-WRITE). YCSB prints the status lines on stdout too for this type."
  [raw-stdout]="measurementtype=raw with the points printed to stdout before the summary."
  [raw-file]="measurementtype=raw with measurement.raw.output_file=raw.csv (the points are in raw.csv)."
  [json-array]="exporter=site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter with measurement.interval=both."
  [intended]="Text summary with measurement.interval=both (Intended-* groups)."
  [load]="The load phase (-load): INSERT only."
  [failed]="ycsblab.fixtures.FlakyDB (scripts/fixtures/FlakyDB.java, compiled by this script): a BasicDB that returns ERROR on every 20th read and 25th update and NOT_FOUND on every 33rd read, with latencytrackederrors=NOT_FOUND: READ-FAILED, UPDATE-FAILED and READ-NOT_FOUND groups."
)

write_readme() {
  {
    echo "# YCSB 0.17.0 output fixtures"
    echo
    echo "Written by \`bash scripts/make-ycsb-fixtures.sh\` from real runs of \`site.ycsb.Client\` (site.ycsb:core:0.17.0"
    echo "from Maven Central, Java 17) against \`site.ycsb.BasicDB\` (\`basicdb.simulatedelay=3\`: 0-2 ms per operation)."
    echo "Each folder holds the client's \`stdout.txt\` and \`stderr.txt\`; the command line below is the one YCSB"
    echo "echoed on stderr, \`<classpath>\` is \`.cache/ycsb/core/*\` (from scripts/fetch-ycsb.sh) plus what the section names."
    echo "Do not edit these files: re-run the script (\`hdr\` or \`no-hdr\` to redo a part)."
    for name in hdr-v1 hdr-v2 histogram timeseries raw-stdout raw-file json-array intended load failed; do
      echo
      echo "## $name"
      echo
      echo "${ABOUT[$name]}"
      for err in $(cd "$out" && find "$name" -name stderr.txt | sort); do
        echo
        echo "- \`$(dirname "$err")\`: $(cd "$out/$(dirname "$err")" && ls | tr '\n' ' ')"
        echo
        echo "  \`\`\`"
        echo "  java -cp <classpath> site.ycsb.Client $(grep -m1 '^Command line: ' "$out/$err" | sed 's/^Command line: //')"
        echo "  \`\`\`"
      done
    done
  } > "$out/README.md"
}

case "$only" in all | hdr | no-hdr) ;; readme) write_readme; exit 0 ;; *) echo "usage: $0 [all|hdr|no-hdr|readme]" >&2; exit 2 ;; esac
if [[ "$only" != no-hdr ]]; then
  two_clients hdr-v1 "$v1_cp"
  two_clients hdr-v2 "$v2_cp"
fi
if [[ "$only" == hdr ]]; then write_readme; exit 0; fi

# measurementtype=histogram: bucket lines per ms (printed only with measurement.histogram.verbose=true); workload E so SCAN and INSERT appear.
run "$out/histogram" "$core_cp" -t "${COMMON[@]}" "${WL_E[@]}" -p threadcount=4 -target 2000 \
  -p operationcount=6000 -p measurementtype=histogram -p histogram.buckets=20 \
  -p measurement.histogram.verbose=true -s -p status.interval=1

# measurementtype=timeseries: one [OP], <ms>, <avg us> line per 1 s window; workload F for READ-MODIFY-WRITE.
run "$out/timeseries" "$core_cp" -t "${COMMON[@]}" "${WL_F[@]}" -p threadcount=4 -target 2000 \
  -p operationcount=6000 -p measurementtype=timeseries -p timeseries.granularity=1000 -s -p status.interval=1

# measurementtype=raw with the points on stdout (no output file): keep it short, one line per operation.
run "$out/raw-stdout" "$core_cp" -t "${COMMON[@]}" "${WL_A[@]}" -p threadcount=2 -target 500 \
  -p operationcount=300 -p measurementtype=raw -s -p status.interval=1

# measurementtype=raw with measurement.raw.output_file: stdout keeps only the summary.
run "$out/raw-file" "$core_cp" -t "${COMMON[@]}" "${WL_A[@]}" -p threadcount=2 -target 500 \
  -p operationcount=1000 -p measurementtype=raw -p measurement.raw.output_file=raw.csv \
  -p measurement.raw.no_summary=false -s -p status.interval=1

# JSON array exporter, with measurement.interval=both so Intended-* groups appear in it too.
run "$out/json-array" "$core_cp" -t "${COMMON[@]}" "${WL_A[@]}" -p threadcount=4 -target 2000 \
  -p operationcount=4000 -p exporter=site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter \
  -p hdrhistogram.percentiles=50,95,99,99.9 -p measurement.interval=both -s -p status.interval=1

# Text summary with measurement.interval=both: Intended-* groups beside the measured ones.
run "$out/intended" "$core_cp" -t "${COMMON[@]}" "${WL_A[@]}" -p threadcount=4 -target 2000 \
  -p operationcount=4000 -p hdrhistogram.percentiles=50,95,99,99.9 -p measurement.interval=both \
  -s -p status.interval=1

# The load phase: INSERT only (CoreWorkload needs operationcount even here, as the workload files set it).
run "$out/load" "$core_cp" -load "${COMMON[@]}" "${WL_A[@]}" -p threadcount=4 -p recordcount=5000 \
  -p operationcount=5000 -s -p status.interval=1

# Failing operations: FlakyDB (scripts/fixtures/FlakyDB.java) fails every 20th read and 25th update with
# ERROR and returns NOT_FOUND on every 33rd read; latencytrackederrors gives NOT_FOUND its own group.
classes="$ycsb_dir/fixtures-classes"
mkdir -p "$classes"
javac -d "$classes" -cp "$core_cp" scripts/fixtures/FlakyDB.java
flaky=("${COMMON[@]}"); flaky[1]=ycsblab.fixtures.FlakyDB
run "$out/failed" "$classes:$core_cp" -t "${flaky[@]}" "${WL_A[@]}" -p threadcount=4 -target 2000 \
  -p operationcount=4000 -p latencytrackederrors=NOT_FOUND -s -p status.interval=1

write_readme
echo "fixtures written to ${out#"$root"/}" >&2
