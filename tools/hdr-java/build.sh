#!/usr/bin/env bash
# Compiles the HDR cross-check programs against one HdrHistogram version into .cache/hdr-java/<version>
# and prints the classpath to run them with. Versions: 2.1.12 (V2 logs) or 2.1.4 (V1 logs, YCSB 0.17.0's).
# Needs the jars of scripts/fetch-ycsb.sh. A second run is a no-op unless a source changed.
set -euo pipefail
version="${1:?usage: tools/hdr-java/build.sh 2.1.12|2.1.4}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
ycsb="$("$root/scripts/fetch-ycsb.sh")"
case "$version" in
  2.1.12) jar="$ycsb/hdr-2.1.12/HdrHistogram-2.1.12.jar"; extra="" ;;
  # 2.1.4 decodes base64 with javax.xml.bind, gone from the JDK since 11 (DESIGN.md: HdrHistogram).
  2.1.4) jar="$ycsb/core/HdrHistogram-2.1.4.jar"; extra=":$ycsb/jaxb/jaxb-api-2.3.1.jar:$ycsb/jaxb/javax.activation-api-1.2.0.jar" ;;
  *) echo "build.sh: unknown HdrHistogram version $version (2.1.12 or 2.1.4)" >&2; exit 2 ;;
esac
[[ -f "$jar" ]] || { echo "build.sh: missing $jar" >&2; exit 1; }
out="$root/.cache/hdr-java/$version"
src="$root/tools/hdr-java"
stamp="$out/.built"
if [[ ! -f "$stamp" || -n "$(find "$src" -name '*.java' -newer "$stamp")" ]]; then
  mkdir -p "$out"
  javac -nowarn -d "$out" -cp "$jar" "$src"/*.java >&2
  touch "$stamp"
fi
echo "$out:$jar$extra"
