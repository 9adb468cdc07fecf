#!/usr/bin/env bash
# Build the HBase binding and the local HBase 2.5 mini cluster (org.apache.hbase:hbase-testing-util from Maven
# Central, about 160 MB, cached in ~/.m2), so the first `ycsb-lab local up --engine hbase` need not download.
# A second run is a no-op (scripts/build-bindings.sh skips fresh modules). Prints the classpath folders.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec "$root/scripts/build-bindings.sh" hbase hbase-minicluster
