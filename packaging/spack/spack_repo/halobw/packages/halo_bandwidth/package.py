# halo-bandwidth's Spack recipe, modelled on spack-packages' kokkos_comm (a CMake + Kokkos + MPI
# package): the Kokkos backends as variants, and for a device build the compiler Kokkos was built
# for (nvcc_wrapper, hipcc). It reads under Spack 1.x (spack-packages, package API v2: this folder
# in a spack_repo/halobw/ repository, the package named halo-bandwidth) and Spack 0.2x (named
# halo_bandwidth there). docs/centres.md says how to install it from a checkout.

from spack.package import *  # noqa: F403

try:  # Spack 1.x: the build systems live in the builtin package repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage  # noqa: F811
except ImportError:  # Spack 0.2x: spack.package has them
    pass


class HaloBandwidth(CMakePackage):  # noqa: F405
    """A benchmark of the 3D halo exchange (MPI + Kokkos): bandwidth and time per face, pack,
    method and size, with per-phase times, checked ghost cells and result files."""

    # No public release to fetch yet: build a checkout with `spack develop` (docs/centres.md), or
    # add `git = "<your mirror>"` and version("main", branch="main") here.
    version("0.1.0")  # noqa: F405

    variant("openmp", default=False, description="Kokkos's OpenMP backend on the host")  # noqa: F405
    variant("cuda", default=False, description="the CUDA backend: Kokkos with CUDA, its nvcc_wrapper")  # noqa: F405
    variant("rocm", default=False, description="the HIP backend: Kokkos with ROCm, hipcc")  # noqa: F405
    conflicts("+cuda", when="+rocm", msg="one device backend per build")  # noqa: F405

    depends_on("cxx", type="build")  # noqa: F405
    depends_on("cmake@3.20:", type="build")  # noqa: F405
    depends_on("mpi@3:")  # noqa: F405
    depends_on("kokkos@3.4:")  # noqa: F405
    depends_on("kokkos+openmp", when="+openmp")  # noqa: F405
    depends_on("kokkos+cuda+wrapper", when="+cuda")  # noqa: F405
    depends_on("kokkos+rocm", when="+rocm")  # noqa: F405
    depends_on("cli11@2:")  # noqa: F405
    depends_on("fmt@8:")  # noqa: F405
    depends_on("nlohmann-json@3:")  # noqa: F405

    def kokkos_backend(self):
        """HALOBW_KOKKOS_BACKEND: the backend configure requires of the Kokkos found (empty: any)."""
        for name, backend in (("cuda", "CUDA"), ("rocm", "HIP"), ("openmp", "OPENMP")):
            if self.spec.satisfies("+" + name):
                return backend
        return ""

    def kokkos_cxx(self):
        """The compiler Kokkos was built for: nvcc_wrapper for CUDA, else the one Spack gives Kokkos."""
        kokkos = self.spec["kokkos"]
        # Spack 1.x: a property of the Kokkos package; 0.2x: set on its spec by setup_dependent_package.
        return getattr(kokkos.package, "kokkos_cxx", None) or kokkos.kokkos_cxx

    def cmake_args(self):
        args = [
            self.define("HALOBW_KOKKOS_BACKEND", self.kokkos_backend()),
            self.define("HALOBW_BUILD_TESTS", self.run_tests),
        ]
        if self.spec.satisfies("+rocm"):
            args.append(self.define("CMAKE_CXX_COMPILER", self.spec["hip"].hipcc))
        else:
            args.append(self.define("CMAKE_CXX_COMPILER", self.kokkos_cxx()))
        return args
