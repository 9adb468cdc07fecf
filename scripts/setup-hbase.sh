#!/usr/bin/env bash
# Build the HBase binding (its schema tool creates the table) and lay out Hadoop and HBase from Maven Central like
# their tarballs (scripts/setup-hbase-artifacts.sh, about 180 MB), so the first `ycsb-lab local up --engine hbase`
# need not download. A second run is a no-op. Prints the binding's classpath folder and the artifacts folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build-bindings.sh" hbase
"$root/scripts/setup-hbase-artifacts.sh"
