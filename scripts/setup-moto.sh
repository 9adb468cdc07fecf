#!/usr/bin/env bash
# moto's S3 server (moto_server) for the runner's and API's results-store tests; a second run is a no-op.
# pip's downloads are cached in .cache/pip (git-ignored).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if command -v moto_server >/dev/null && python3 -c "import moto.server, flask" 2>/dev/null; then
  command -v moto_server
  exit 0
fi
python3 -m pip install --quiet --cache-dir "$root/.cache/pip" 'moto[server]' >&2
command -v moto_server
