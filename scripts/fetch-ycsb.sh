#!/usr/bin/env bash
# Fetch YCSB core 0.17.0 (the only YCSB artifact on Maven Central) and the HdrHistogram versions
# the project reads and cross-checks against, into .cache/ycsb (git-ignored). A second run is a no-op.
#
#   .cache/ycsb/core/      site.ycsb:core:0.17.0 and its dependencies (HdrHistogram 2.1.4, jackson)
#   .cache/ycsb/hdr-2.1.12/  HdrHistogram 2.1.12: put it first on the classpath to get V2 logs on Java 17
#   .cache/ycsb/jaxb/      javax.xml.bind:jaxb-api: HdrHistogram 2.1.4 needs it on Java 17 to write logs
#
# Prints the directory on stdout.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${YCSB_CACHE:-$root/.cache/ycsb}"
stamp="$dest/.complete-0.17.0"
if [[ -f "$stamp" ]]; then echo "$dest"; exit 0; fi
mkdir -p "$dest"
fetch() { # name
  mvn -q -B dependency:copy-dependencies -f "$dest/$1.pom.xml" -DoutputDirectory="$dest/$1" -DincludeScope=runtime >&2
}
pom() { # name groupId artifactId version
  cat > "$dest/$1.pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>local.ycsb-lab</groupId><artifactId>fetch-$1</artifactId><version>1</version>
<dependencies><dependency><groupId>$2</groupId><artifactId>$3</artifactId><version>$4</version></dependency></dependencies></project>
POM
}
pom core site.ycsb core 0.17.0
pom hdr-2.1.12 org.hdrhistogram HdrHistogram 2.1.12
pom jaxb javax.xml.bind jaxb-api 2.3.1
for d in core hdr-2.1.12 jaxb; do echo "fetching $d ..." >&2; fetch "$d"; done
touch "$stamp"
echo "$dest"
