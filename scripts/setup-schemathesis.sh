#!/usr/bin/env bash
# Schemathesis (property-based tests generated from the served OpenAPI document) in its own virtualenv under
# .cache/schemathesis (git-ignored), pinned; prints the path of its CLI. A second run is a no-op.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version=4.32.5
venv="$root/.cache/schemathesis"
if [[ -x "$venv/bin/st" ]] && "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('schemathesis') != '$version')" 2>/dev/null; then
  echo "$venv/bin/st"
  exit 0
fi
# Debian's python3 makes virtualenvs only with python3-venv (ensurepip) installed.
if ! python3 -c "import ensurepip" 2>/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi
rm -rf "$venv"
python3 -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --cache-dir "$root/.cache/pip" "schemathesis==$version" >&2
echo "$venv/bin/st"
