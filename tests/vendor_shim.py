#!/usr/bin/env python3
"""The device shim (include/halobw/platform/gpu_runtime.hpp) is the one file
that names the GPU vendor: no other C or C++ file of src/, include/, bench/,
tests/ or tools/ has a preprocessor condition on the vendor
(KOKKOS_ENABLE_CUDA, KOKKOS_ENABLE_HIP, __CUDACC__, __CUDA_ARCH__, __HIPCC__,
__HIP_PLATFORM_*, __HIP_DEVICE_COMPILE__) or includes a vendor's runtime
header. Comments are left out.
--self-test checks that each pattern finds what it is meant to find."""
import argparse
import pathlib
import sys

from source_scan import matches_any, scan

SHIM = "include/halobw/platform/gpu_runtime.hpp"
FOLDERS = ("src", "include", "bench", "tests", "tools")
VENDOR = r"\b(KOKKOS_ENABLE_CUDA|KOKKOS_ENABLE_HIP|__CUDACC__|__CUDA_ARCH__|__HIPCC__|__HIP_PLATFORM_\w*|__HIP_DEVICE_COMPILE__)\b"
PATTERNS = {
    "a vendor #if": r"^\s*#\s*(if|ifdef|ifndef|elif)\b.*" + VENDOR,
    "a vendor runtime header": r"^\s*#\s*include\s*[<\"](cuda\w*\.h|hip/[\w.]+)[>\"]",
}


def findings(root):
    return scan(root, FOLDERS, {SHIM}, PATTERNS)


def self_test():
    must = {
        "a vendor #if": [
            "#if defined(KOKKOS_ENABLE_CUDA)",
            "#elif defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000",
            "#ifdef __CUDACC__",
            "  #  ifndef __HIP_PLATFORM_AMD__",
            "#if defined(__HIPCC__) || defined(__CUDA_ARCH__)",
        ],
        "a vendor runtime header": ["#include <cuda_runtime_api.h>", '#include "hip/hip_runtime.h"'],
    }
    bad = [s for name, lines in must.items() for s in lines if not matches_any(s, [PATTERNS[name]])]
    spared = [
        "// #if defined(KOKKOS_ENABLE_CUDA) in a comment",
        "#if defined(KOKKOS_ENABLE_OPENMP)",
        "#if KOKKOS_VERSION >= 40000",
        "#include <Kokkos_Core.hpp>",
        "if (gpu::kBackend == Backend::cuda) return KOKKOS_ENABLE_CUDA_NAME;",
        "#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT",
    ]
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
    print(f"{len(found)} vendor line(s) outside the device shim ({SHIM})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
