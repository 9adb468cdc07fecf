#!/usr/bin/env bash
# Build FerretDB v1 (MongoDB wire protocol over SQLite) from the Go module proxy into .cache/ferretdb.
# It is the local stand-in for MongoDB (no mongod can be installed on a development machine without
# internet, DESIGN.md). v1.x still ships the SQLite handler; v2 needs Postgres with DocumentDB.
# `go mod download` + `go build` (not `go install`, which refuses modules with replace directives).
# Idempotent: a second run prints the binary path and touches no network. Prints the binary path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="${FERRETDB_VERSION:-v1.24.0}"
dest="$root/.cache/ferretdb"
bin="$dest/ferretdb-$version"
if [[ -x "$bin" ]]; then echo "$bin"; exit 0; fi
if ! command -v go >/dev/null; then
  # Debian's Go is older than FerretDB's go.mod asks for; GOTOOLCHAIN=auto then fetches that toolchain from the module proxy.
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go >&2
  else
    echo "setup-ferretdb: Go is required (apt-get install golang-go, or https://go.dev/dl)" >&2; exit 1
  fi
fi
mkdir -p "$dest"
export GOMODCACHE="$dest/gomod" GOFLAGS="-buildvcs=false -modcacherw"
echo "downloading github.com/FerretDB/FerretDB@$version ..." >&2
dir="$(go mod download -json "github.com/FerretDB/FerretDB@$version" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')"
[[ -d "$dir" ]] || { echo "setup-ferretdb: go mod download gave no module directory" >&2; exit 1; }
# A release build gets build/version/version.txt from `git describe`; the module zip has none, so write it.
echo "$version" > "$dir/build/version/version.txt"
echo "building $dir/cmd/ferretdb ..." >&2
(cd "$dir" && go mod download && CGO_ENABLED=0 go build -trimpath -o "$bin.tmp" ./cmd/ferretdb)
mv "$bin.tmp" "$bin"
echo "$bin"
