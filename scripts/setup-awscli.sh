#!/usr/bin/env bash
# The AWS CLI (v1, from PyPI) that instances' user-data calls to fetch the kit, for `ycsb-lab rehearse` on this
# machine, in its own virtualenv under .cache/awscli (git-ignored) so its botocore never meets moto's. It honours
# AWS_ENDPOINT_URL (botocore >= 1.31), which the rehearsal points at the S3 emulator. A second run is a no-op.
# Prints the folder holding the `aws` executable.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.cache/awscli"
if [[ -x "$venv/bin/aws" ]] && "$venv/bin/aws" --version >/dev/null 2>&1; then echo "$venv/bin"; exit 0; fi
python3 -m venv "$venv" >&2
"$venv/bin/pip" install --quiet --cache-dir "$root/.cache/pip" 'awscli>=1.36,<2' >&2
echo "$venv/bin"
