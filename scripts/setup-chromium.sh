#!/usr/bin/env bash
# Installs Debian's chromium for the dashboard's browser tests (playwright-core drives it; it downloads no browser).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo /usr/bin/chromium
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo /usr/bin/chromium
