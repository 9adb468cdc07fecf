#!/usr/bin/env bash
# What the API tests need on a fresh machine (idempotent): moto's S3 server and a local Postgres cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v moto_server >/dev/null; then
  python3 -m pip install --quiet 'moto[server]' >&2 || python3 -m pip install --quiet --break-system-packages 'moto[server]' >&2
fi
scripts/setup-postgres.sh
