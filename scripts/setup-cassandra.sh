#!/usr/bin/env bash
# Fetch Apache Cassandra (org.apache.cassandra:cassandra-all) and its runtime dependencies from Maven Central
# into .cache/cassandra/<version>/lib (git-ignored), for the local engine in runner/local/cassandra.ts.
# The version follows model/engine.ts ENGINE_VERSIONS.cassandra. A second run is a no-op (no network).
#
# Prints the lib directory on stdout.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="${CASSANDRA_VERSION:-$(sed -n 's/^ *cassandra: "\([0-9.]*\)",.*/\1/p' "$root/model/engine.ts")}"
[[ -n "$version" ]] || { echo "setup-cassandra: cannot read the Cassandra version from model/engine.ts" >&2; exit 1; }
dest="${CASSANDRA_CACHE:-$root/.cache/cassandra}/$version"
stamp="$dest/.complete"
if [[ -f "$stamp" ]]; then echo "$dest/lib"; exit 0; fi
mkdir -p "$dest"
cat > "$dest/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>local.ycsb-lab</groupId><artifactId>fetch-cassandra</artifactId><version>1</version>
<dependencies><dependency><groupId>org.apache.cassandra</groupId><artifactId>cassandra-all</artifactId>
<version>$version</version></dependency></dependencies></project>
POM
echo "fetching cassandra-all $version ..." >&2
mvn -q -B dependency:copy-dependencies -f "$dest/pom.xml" -DoutputDirectory="$dest/lib" -DincludeScope=runtime >&2
ls "$dest/lib"/jamm-*.jar >/dev/null 2>&1 || { echo "setup-cassandra: no jamm jar in $dest/lib (needed as -javaagent)" >&2; exit 1; }
touch "$stamp"
echo "$dest/lib"
