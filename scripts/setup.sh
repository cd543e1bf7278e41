#!/usr/bin/env bash
# Installs the Debian packages halo-bandwidth needs (as root), or names the
# missing ones (otherwise). Sourced by run.sh and test.sh; safe to run alone.
set -euo pipefail

HALOBW_PACKAGES=(
  cmake make g++ git python3
  libopenmpi-dev openmpi-bin
  libtrilinos-kokkos-dev
  libcli11-dev libfmt-dev libgtest-dev nlohmann-json3-dev
  python3-matplotlib python3-jsonschema
  clang-14 libclang-rt-14-dev clang-format-14 clang-tidy-14
)

missing=()
for p in "${HALOBW_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
