#!/usr/bin/env bash
# Fetch CouchbaseMock (com.couchbase.mock:CouchbaseMock, a self-contained jar on Maven Central) into
# .cache/couchbase-mock: the local stand-in for Couchbase Server, which cannot be installed on a machine
# without internet. It speaks the KV protocol and the cluster map; it has no N1QL and no synchronous
# durability. A second run is a no-op. Prints the jar path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="${COUCHBASE_MOCK_VERSION:-1.5.25}"
dest="$root/.cache/couchbase-mock"
jar="$dest/CouchbaseMock-$version.jar"
if [[ -f "$jar" ]]; then echo "$jar"; exit 0; fi
mkdir -p "$dest"
cat > "$dest/fetch.pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>local.ycsb-lab</groupId><artifactId>fetch-couchbase-mock</artifactId><version>1</version>
<dependencies><dependency><groupId>com.couchbase.mock</groupId><artifactId>CouchbaseMock</artifactId><version>$version</version></dependency></dependencies></project>
POM
echo "fetching CouchbaseMock $version ..." >&2
mvn -q -B dependency:copy-dependencies -f "$dest/fetch.pom.xml" -DoutputDirectory="$dest" -DincludeScope=runtime >&2
[[ -f "$jar" ]] || { echo "setup-couchbase-mock: $jar missing after the fetch" >&2; exit 1; }
echo "$jar"
