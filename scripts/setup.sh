#!/usr/bin/env bash
# Installs the Debian packages a preset needs (as root), or names the missing
# ones (otherwise). Run by run.sh (building and running) and test.sh (--tests);
# safe to run alone.
# Usage: scripts/setup.sh [--tests] [--list] [PRESET]   (default: host)
#   every preset: what building and running halo-bandwidth need: a compiler, CMake,
#                 Open MPI (the default `mpi` alternative), Kokkos, CLI11, fmt, nlohmann-json
#   mpich:        also MPICH (mpich, libmpich-dev), side by side; Open MPI stays the default
#   --tests:      also what the test suite and the checks need: GoogleTest, Python with
#                 matplotlib, jsonschema and venv, clang 14 and its tools, ReFrame in
#                 .venv-reframe/ (scripts/setup_reframe.sh, from PyPI), and (host, mpich) a
#                 one-node Slurm (scripts/slurm_up.sh) for the srun tests; without Slurm,
#                 those tests report SKIP, so a user who cannot install it can still test
#   --list:       print the packages, one a line, and install nothing
#   smpi:         also SimGrid (libsimgrid-dev: smpicxx, smpirun), for the simulated build and its
#                 tests (scripts/simulate, tests/smpi)
#   ompi5, mpich5, impi: also that MPI library from PyPI (Open MPI 5, MPICH 5, Intel MPI; pinned in
#                 scripts/mpi_wheels.txt), pip-installed into its own virtual environment .mpi/PRESET
#                 of this checkout, never system-wide; nothing is installed when the pins are there
set -euo pipefail
tests=0 list=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tests) tests=1 ;;
    --list) list=1 ;;
    -*) echo "setup: unknown option $1 (usage: scripts/setup.sh [--tests] [--list] [PRESET])" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
preset=${1:-host}

# Building and running: run.sh needs these and nothing more.
HALOBW_PACKAGES=(
  cmake make g++
  libopenmpi-dev openmpi-bin
  libtrilinos-kokkos-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev
)
case "$preset" in
  mpich) HALOBW_PACKAGES+=(mpich libmpich-dev) ;;
  smpi) HALOBW_PACKAGES+=(libsimgrid-dev) ;;
  # Intel MPI's wheel loads libfabric, which it leaves to a `libfabric` wheel that PyPI lacks.
  impi) HALOBW_PACKAGES+=(python3-venv libfabric1) ;;
  ompi5 | mpich5) HALOBW_PACKAGES+=(python3-venv) ;;
esac
# The preset's line of scripts/mpi_wheels.txt: its pip requirements (none: not a wheel's preset).
wheels=$(awk -v p="$preset" '$1 == p { $1 = ""; print substr($0, 2) }' "$(dirname "$0")/mpi_wheels.txt")
# Optional: the launcher tests skip (visibly) without them.
HALOBW_OPTIONAL=()
if [ "$tests" = 1 ]; then
  HALOBW_PACKAGES+=(
    git python3 libgtest-dev
    python3-matplotlib python3-jsonschema python3-venv
    clang-14 libclang-rt-14-dev clang-format-14 clang-tidy-14
  )
  case "$preset" in
    host | mpich | ompi5 | mpich5 | impi)
      # slurm-wlm would pull ~40 recommended plugin packages; these are all srun needs.
      # libpmix-dev: Slurm's mpi_pmix plugin dlopen()s the unversioned libpmix.so it ships.
      HALOBW_OPTIONAL+=(slurmd slurmctld slurm-client munge libpmix-dev) ;;
  esac
fi

if [ "$list" = 1 ]; then
  printf '%s\n' "${HALOBW_PACKAGES[@]}" ${HALOBW_OPTIONAL[@]+"${HALOBW_OPTIONAL[@]}"}
  [ -z "$wheels" ] || printf 'pip: %s\n' $wheels
  exit 0
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=() optional=()
for p in "${HALOBW_PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done
for p in ${HALOBW_OPTIONAL[@]+"${HALOBW_OPTIONAL[@]}"}; do installed "$p" || optional+=("$p"); done
want=(${missing[@]+"${missing[@]}"} ${optional[@]+"${optional[@]}"})

if [ ${#want[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing ${want[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt=(apt-get -o DPkg::Lock::Timeout=600)
    "${apt[@]}" update -qq
    # The `mpi` alternatives stay on Open MPI (priority 50 against MPICH's 40):
    # the host preset builds with it, the mpich preset names MPICH's wrappers.
    "${apt[@]}" install -y -qq --no-install-recommends "${want[@]}" >/dev/null
  else
    if [ ${#missing[@]} -gt 0 ]; then
      echo "setup: missing Debian packages: ${missing[*]}" >&2
      echo "setup: install them with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
      exit 1
    fi
    echo "setup: missing optional packages: ${optional[*]} (the srun tests will SKIP)" >&2
    echo "setup: install them with: sudo apt-get install --no-install-recommends ${optional[*]}" >&2
  fi
fi

if [ "$tests" = 1 ]; then
  "$(dirname "$0")/setup_reframe.sh"
fi

[ -n "$wheels" ] || exit 0
# The MPI wheels: a virtual environment per library, its pins recorded beside it,
# so that a second run with the same pins installs nothing.
venv="$(cd "$(dirname "$0")/.." && pwd)/.mpi/$preset"
if [ "$(cat "$venv/halobw-pins" 2>/dev/null)" != "$wheels" ]; then
  echo "setup: pip install $wheels into $venv"
  python3 -m venv --clear "$venv"
  # impi-rt requires a `libfabric` wheel that PyPI does not carry: no dependencies (they have none else).
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps $wheels
  # Intel's wrappers name their prefix by a placeholder that its installer fills in, and a wheel has
  # no installer: fill it in, so that mpicxx needs no I_MPI_ROOT.
  mapfile -t placeholders < <(grep -l I_MPI_SUBSTITUTE_INSTALLDIR "$venv"/bin/* || true)
  [ ${#placeholders[@]} -eq 0 ] || sed -i "s|I_MPI_SUBSTITUTE_INSTALLDIR|$venv|g" "${placeholders[@]}"
  echo "$wheels" >"$venv/halobw-pins"
fi
