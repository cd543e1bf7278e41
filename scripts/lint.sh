#!/usr/bin/env bash
# Static checks on the project's own sources, zero findings allowed:
# clang-format 14 (.clang-format) and clang-tidy 14 (.clang-tidy) over the
# compile commands of the host build (configured here if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then
  for p in clang-format-14 clang-tidy-14; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || {
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq && apt-get install -y -qq --no-install-recommends "$p" >/dev/null
    }
  done
fi
mapfile -t sources < <(git ls-files 'src/*.cpp' 'include/*.hpp' 'tests/*.cpp' 'tests/fuzz/*.cpp' 'bench/*.cpp' 'bench/*.hpp' 'tools/*.cpp')
echo "lint: clang-format-14 on ${#sources[@]} files"
clang-format-14 --dry-run --Werror "${sources[@]}"
[ -f build/compile_commands.json ] || cmake --preset host >/dev/null
mapfile -t units < <(git ls-files 'src/*.cpp' 'bench/*.cpp' 'tools/*.cpp')
echo "lint: clang-tidy-14 on ${#units[@]} translation units (and the headers they include)"
clang-tidy-14 -p build --quiet "${units[@]}"
echo "lint: clean"
