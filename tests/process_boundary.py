#!/usr/bin/env python3
"""The process boundary (include/halobw/platform/process.hpp): nothing in src/
or include/ but Process itself starts or ends MPI or Kokkos, aborts, exits,
sleeps, reads /proc or /sys, counts the cores, reads the helper threads'
clock, or tells a simulator from an MPI library (SimGrid's signature in
MPI_Get_library_version, its C API, its headers). Comments are left out; a literal path counts where it starts a string.
--self-test checks that each pattern finds what it is meant to find."""
import argparse
import pathlib
import re
import sys

from source_scan import code_only, matches_any, scan

OWNER = {"include/halobw/platform/process.hpp", "src/platform/process.cpp"}
PATTERNS = {
    "MPI_Init": r"\bMPI_Init(_thread)?\s*\(",
    "MPI_Finalize": r"\bMPI_Finalize\s*\(",
    "Kokkos::initialize": r"\bKokkos::(initialize|finalize|ScopeGuard)\b",
    "MPI_Abort": r"\bMPI_Abort\s*\(",
    "exit": r"(\b_Exit|\bquick_exit|(?<![:\w.>])exit|\babort)\s*\(",
    "sleep": r"\b(sleep_for|sleep_until|usleep|nanosleep|sleep)\s*\(",
    "/proc or /sys": r"\"/(proc|sys)/",
    "cores": r"\bhardware_concurrency\b|\bsysconf\s*\(\s*_SC_NPROCESSORS",
    "the watch clock": r"\bsteady_clock\b",
    "a simulator": r"SMPI Version|\bsg_host_\w+|#\s*include\s*[<\"](simgrid|smpi)/|\bdlsym\s*\(",
}


def findings(root):
    return scan(root, ("src", "include"), OWNER, PATTERNS)


def self_test():
    must = {
        "MPI_Init": "MPI_Init_thread(&argc, &argv, l, &p);",
        "MPI_Finalize": "MPI_Finalize();",
        "Kokkos::initialize": "Kokkos::initialize(settings);",
        "MPI_Abort": "MPI_Abort(MPI_COMM_WORLD, 4);",
        "exit": "std::_Exit(3);",
        "sleep": "std::this_thread::sleep_for(d);",
        "/proc or /sys": 'std::ifstream in("/proc/self/status");',
        "cores": "std::thread::hardware_concurrency()",
        "the watch clock": "std::chrono::steady_clock::now()",
        "a simulator": 'constexpr std::string_view kSmpi = "SMPI Version ";',
    }
    bad = [n for n, line in must.items() if not re.search(PATTERNS[n], code_only(line))]
    also = ['dlsym(RTLD_DEFAULT, "sg_host_self");', "#include <simgrid/host.h>", "sg_host_core_count(h)"]
    bad += [s for s in also if not re.search(PATTERNS["a simulator"], code_only(s))]
    spared = ["// MPI_Abort(x) in a comment", 'x = "of /proc/self/smaps";', "app.exit_code()", "o->exit(e);",
              'fmt::format("simulated by {} on platform {}", sim->name(), p)']
    bad += [s for s in spared if matches_any(s, PATTERNS.values())]
    print("self-test:", "failed: " + ", ".join(bad) if bad else "passed")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test and self_test():
        return 1
    found = findings(pathlib.Path(a.root))
    for f in found:
        print(f)
    print(f"{len(found)} call(s) outside the process boundary (include/halobw/platform/process.hpp)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
