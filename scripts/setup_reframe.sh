#!/usr/bin/env bash
# ReFrame (reframe-hpc from PyPI, at the version pinned here) in a virtual
# environment of the checkout, .venv-reframe/ (ignored by git), for the ReFrame
# test (reframe/halo_bandwidth.py) and its CI run; never system-wide. Run by
# scripts/setup.sh --tests; safe to run alone, and quick once it is there.
# Usage: scripts/setup_reframe.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=4.10.4
venv=.venv-reframe
if [ -x "$venv/bin/reframe" ] && [ "$("$venv/bin/reframe" --version 2>/dev/null)" = "$version" ]; then
  exit 0
fi
echo "setup: installing reframe-hpc $version into $venv"
rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "reframe-hpc==$version"
