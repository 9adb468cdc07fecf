#!/usr/bin/env bash
# Build ycsb-lab's YCSB bindings (runner/bindings, Maven) and print one classpath folder per module, one a line:
#   runner/bindings/<module>/target/classpath   (the module's jar + its runtime dependencies; YCSB core excluded)
#
#   scripts/build-bindings.sh                 every module whose folder has a pom.xml
#   scripts/build-bindings.sh cassandra ...   only these (plus common)
#
# A module whose jar is newer than its sources, common's and the parent pom is not rebuilt. Maven runs offline
# first (dependencies cached in ~/.m2) and goes online only when something is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bindings="$root/runner/bindings"
cd "$bindings"

modules=("$@")
if ((${#modules[@]} == 0)); then
  for pom in */pom.xml; do [[ "$pom" == common/pom.xml ]] || modules+=("${pom%/pom.xml}"); done
fi
for m in "${modules[@]}"; do
  [[ -f "$m/pom.xml" ]] || { echo "build-bindings: no module \"$m\" (no runner/bindings/$m/pom.xml)" >&2; exit 2; }
done

fresh() { # module: true when its jar is newer than every input
  local jar
  jar="$(ls "$1"/target/classpath/ycsb-lab-binding-"$1"-*.jar 2>/dev/null | head -n1)"
  [[ -n "$jar" ]] || return 1
  [[ -z "$(find pom.xml common/pom.xml common/src "$1/pom.xml" "$1/src" -newer "$jar" -print -quit 2>/dev/null)" ]]
}

stale=()
for m in "${modules[@]}"; do fresh "$m" || stale+=("$m"); done
if ((${#stale[@]})); then
  list="common,$(IFS=,; echo "${stale[*]}")"
  echo "build-bindings: building $list ..." >&2
  if ! mvn -B -q -o package -DskipTests -pl "$list" -am >/dev/null 2>&1; then
    mvn -B -q package -DskipTests -pl "$list" -am >&2
  fi
fi
for m in "${modules[@]}"; do echo "$bindings/$m/target/classpath"; done
