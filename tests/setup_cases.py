#!/usr/bin/env python3
"""The first ten minutes: run.sh is the main job only, test.sh sets up the rest.

- scripts/setup.sh (what run.sh runs) lists what building and running need, and
  none of the tests' packages (Slurm, munge, PMIx, GoogleTest, matplotlib,
  jsonschema, clang); scripts/setup.sh --tests (what test.sh runs) lists them all.
- run.sh builds the halo-bandwidth target alone, with its progress shown.
- The project configures without GoogleTest (as after run.sh's set-up), saying
  that the tests are not configured and which command installs what they need.
- The README says which command installs what.
- Presets say what they need: openmp fails at configure against a Kokkos without OpenMP (Debian's),
  cuda and hip without Kokkos_ROOT say to set it; scripts/gpu_check.sh without its build names the
  missing build and writes nothing.

usage: setup_cases.py --root REPO [--cmake CMAKE]
Prints one line per check; exit status 1 on any failure.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# What building and running need: a compiler, CMake, MPI, Kokkos, CLI11, fmt, nlohmann-json.
RUN_NEEDS = ("g++", "cmake", "make", "libopenmpi-dev", "openmpi-bin", "libtrilinos-kokkos-dev",
             "libcli11-dev", "libfmt-dev", "nlohmann-json3-dev")
# What only the tests and the checks need.
TEST_ONLY = ("slurmd", "slurmctld", "slurm-client", "munge", "libpmix-dev", "libgtest-dev",
             "python3-matplotlib", "python3-jsonschema", "clang-14", "clang-format-14", "clang-tidy-14")


class Checks:
    def __init__(self):
        self.failed = 0

    def check(self, ok, what, detail=""):
        print(("PASS " if ok else "FAIL ") + what + ("" if ok or not detail else f": {detail}"))
        self.failed += not ok


def listed(root, *args):
    out = subprocess.run([os.path.join(root, "scripts", "setup.sh"), "--list", *args],
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def shell_lines(path):
    """The script's commands: its lines without comments and blank lines."""
    with open(path, encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip() and not l.lstrip().startswith("#")]


def configure_without_gtest(root, cmake, c):
    with tempfile.TemporaryDirectory(prefix="halobw-setup-") as build:
        r = subprocess.run([cmake, "-S", root, "-B", build, "-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON"],
                           capture_output=True, text=True)
        c.check(r.returncode == 0, "the project configures without GoogleTest", r.stderr[-2000:])
        c.check("scripts/setup.sh --tests" in r.stdout and "tests: not configured" in r.stdout,
                "configure says the tests are not configured and what installs their packages", r.stdout[-800:])
        with open(os.path.join(build, "Makefile"), encoding="utf-8") as f:
            makefile = f.read()
        c.check("halo-bandwidth" in makefile and "halobw_unit" not in makefile,
                "the build without GoogleTest has the benchmark and no test binary")


def presets(root, cmake, c):
    env = {k: v for k, v in os.environ.items() if k != "Kokkos_ROOT"}
    for preset, want in (("openmp", "not OPENMP, which this preset needs: set Kokkos_ROOT"),
                         ("cuda", "the cuda preset needs Kokkos_ROOT"), ("hip", "the hip preset needs Kokkos_ROOT")):
        with tempfile.TemporaryDirectory(prefix="halobw-preset-") as build:
            r = subprocess.run([cmake, "--preset", preset, "-B", build], cwd=root, capture_output=True, text=True,
                               env=env)
        said = " ".join((r.stdout + r.stderr).split())
        if preset == "openmp" and r.returncode == 0:
            c.check("OPENMP" in said, "openmp configures only against a Kokkos with OpenMP", said[-600:])
            continue
        c.check(r.returncode != 0 and want in said, f"cmake --preset {preset} says what it needs", said[-800:])
    with tempfile.TemporaryDirectory(prefix="halobw-gpu-check-") as tmp:
        out = os.path.join(tmp, "out")
        r = subprocess.run([os.path.join(root, "scripts", "gpu_check.sh"), os.path.join(tmp, "build-cuda"), "cuda",
                            out], capture_output=True, text=True)
        c.check(r.returncode == 2 and "build-cuda/halo-bandwidth: build the cuda preset first" in r.stderr
                and not os.path.exists(out), "gpu_check.sh without its build names it and writes nothing",
                f"exit {r.returncode}: {r.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--cmake", default="cmake")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    c = Checks()

    run_set, test_set, mpich_set = listed(root), listed(root, "--tests"), listed(root, "mpich")
    c.check(all(p in run_set for p in RUN_NEEDS), "setup.sh lists what building and running need",
            f"missing {[p for p in RUN_NEEDS if p not in run_set]}")
    c.check(not [p for p in run_set if p in TEST_ONLY], "setup.sh lists none of the tests' packages",
            f"has {[p for p in run_set if p in TEST_ONLY]}")
    c.check(all(p in test_set for p in RUN_NEEDS + TEST_ONLY), "setup.sh --tests lists the build's and the tests'",
            f"missing {[p for p in RUN_NEEDS + TEST_ONLY if p not in test_set]}")
    c.check("mpich" in mpich_set and "libmpich-dev" in mpich_set and "slurmd" not in mpich_set,
            "setup.sh mpich adds MPICH and no test package")
    with open(os.path.join(root, "scripts", "mpi_wheels.txt"), encoding="utf-8") as f:
        pins = [l.split() for l in f if l.strip() and not l.startswith("#")]
    for preset, *wheels in pins:
        got = listed(root, preset)
        c.check(all(w in got for w in wheels) and "libopenmpi-dev" in got,
                f"setup.sh {preset} lists the build's packages and its pinned wheels {' '.join(wheels)}", str(got))
    bad = subprocess.run([os.path.join(root, "scripts", "setup.sh"), "--bogus"], capture_output=True, text=True)
    c.check(bad.returncode == 2 and "unknown option --bogus" in bad.stderr, "setup.sh refuses an unknown option")

    run = shell_lines(os.path.join(root, "scripts", "run.sh"))
    setups = [l for l in run if "scripts/setup.sh" in l]
    c.check(len(setups) == 1 and "--tests" not in setups[0], "run.sh sets up without --tests", str(setups))
    builds = [l for l in run if l.startswith("cmake --build")]
    c.check(len(builds) == 1 and re.search(r"--target halo-bandwidth\b", builds[0]) is not None,
            "run.sh builds the halo-bandwidth target alone", str(builds))
    c.check(len(builds) == 1 and ">" not in builds[0], "run.sh shows the build's progress", str(builds))
    test = shell_lines(os.path.join(root, "scripts", "test.sh"))
    c.check(any(re.search(r"scripts/setup\.sh --tests\b", l) for l in test), "test.sh sets up with --tests")

    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    quick = readme[readme.index("## Quick start"):readme.index("\n## ", readme.index("## Quick start") + 1)]
    c.check("scripts/setup.sh --tests" in quick and "scripts/setup.sh" in quick.replace("--tests", ""),
            "the README's quick start says which command installs what")

    configure_without_gtest(root, args.cmake, c)
    presets(root, args.cmake, c)
    print(f"{c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
