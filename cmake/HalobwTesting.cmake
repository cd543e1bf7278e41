# halobw_add_mpi_test(NAME name COMMAND exe [args...] RANKS n1 n2 ...)
# registers name/<n> for each rank count, run under the MPIEXEC_EXECUTABLE
# CMake found, with the flags its kind needs (Open MPI: --oversubscribe, as CI
# has 2 cores; MPICH's hydra places any number of ranks as is), and PROCESSORS
# set, so ctest -j does not pile up more ranks than it should.
# KOKKOS_DISABLE_WARNINGS: Kokkos 4 OpenMP warns on stderr when ranks outnumber cores,
# which the tests do on purpose (and which tests that read stderr would take for ours).

# The launcher's kind, from `mpiexec --version`: openmpi (Open MPI 4's orterun, 5's
# PRRTE prterun), mpich (hydra: MPICH's, and Intel MPI's, which says "Intel(R) MPI
# Library") or other.
set(HALOBW_MPI_KIND other)
if(MPIEXEC_EXECUTABLE)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _mpiexec_version
                  ERROR_VARIABLE _mpiexec_version TIMEOUT 30)
  if(_mpiexec_version MATCHES "Open MPI|OpenRTE|PRRTE")
    set(HALOBW_MPI_KIND openmpi)
  elseif(_mpiexec_version MATCHES "HYDRA|Intel\\(R\\) MPI Library")
    set(HALOBW_MPI_KIND mpich)
  endif()
endif()
# The library's kind, from the mpi.h it compiles against (a wheel's paths name
# its virtual environment, not the library): Open MPI defines OMPI_MAJOR_VERSION,
# MPICH and Intel MPI (MPICH-derived, hydra-launched) MPICH_VERSION. A launcher of
# the other kind starts every rank as a job of one (setting only
# MPIEXEC_EXECUTABLE, or only MPI_CXX_COMPILER, mixes the two): name every
# wrapper and the launcher, as the mpich and ompi5 presets do.
set(_mpi_library_kind other)
find_file(_mpi_header mpi.h PATHS ${MPI_CXX_INCLUDE_DIRS} ${MPI_CXX_ADDITIONAL_INCLUDE_DIRS} NO_DEFAULT_PATH
          NO_CACHE)
if(_mpi_header)
  file(STRINGS "${_mpi_header}" _mpi_defines REGEX "^#define (OMPI_MAJOR_VERSION|MPICH_VERSION) ")
  if(_mpi_defines MATCHES "OMPI_MAJOR_VERSION")
    set(_mpi_library_kind openmpi)
  elseif(_mpi_defines MATCHES "MPICH_VERSION")
    set(_mpi_library_kind mpich)
  endif()
endif()
if(NOT HALOBW_MPI_KIND STREQUAL "other" AND NOT _mpi_library_kind STREQUAL "other"
   AND NOT HALOBW_MPI_KIND STREQUAL _mpi_library_kind)
  message(FATAL_ERROR "MPIEXEC_EXECUTABLE ${MPIEXEC_EXECUTABLE} is ${HALOBW_MPI_KIND}'s launcher, but the "
                      "build compiles against ${_mpi_library_kind}'s ${_mpi_header}: set MPI_C_COMPILER, "
                      "MPI_CXX_COMPILER and MPIEXEC_EXECUTABLE together (see the mpich preset)")
endif()
message(STATUS "halo-bandwidth tests: ${HALOBW_MPI_KIND} launcher ${MPIEXEC_EXECUTABLE}, ${_mpi_library_kind} library")

set(HALOBW_MPI_TEST_ENV "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;KOKKOS_DISABLE_WARNINGS=1")
set(HALOBW_MPIEXEC_OVERSUBSCRIBE "")
if(HALOBW_MPI_KIND STREQUAL "openmpi")
  set(HALOBW_MPIEXEC_OVERSUBSCRIBE --oversubscribe)
  # Open MPI 4's ORTE reads it; Open MPI 5's PRRTE does not, and its own
  # (PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe) maps every rank of a
  # --host list onto the first host: PRRTE gets --oversubscribe where it needs it.
  list(APPEND HALOBW_MPI_TEST_ENV "OMPI_MCA_rmaps_base_oversubscribe=1")
  # Open MPI refuses to run as root (CI runs as root) unless told it may.
  list(APPEND HALOBW_MPI_TEST_ENV "OMPI_ALLOW_RUN_AS_ROOT=1" "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
endif()
# Sanitized builds: any report fails the test; Open MPI's own leaks are
# suppressed by tests/sanitizers/lsan.supp, matched on full stacks.
# use_tls=0: GCC 12's LeakSanitizer (Debian 12) reads a bogus dynamic-TLS range
# of a dynamically loaded library on some ranks ("DTLS 7 at 0x000000004237-0x000400005339"
# with log_threads=1) and its tracer dies on it ("Tracer caught signal 11",
# exit 86 with no report): every time for README's 16-rank --placement example
# on one machine, never on another. Without the thread-local roots LeakSanitizer
# can only report more, not less: a block held only from thread-local storage
# would show as a leak and fail the test.
set(HALOBW_SANITIZER_ENV
    "ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0:exitcode=86"
    "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/sanitizers/lsan.supp:print_suppressions=0:use_tls=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
if(HALOBW_SANITIZE)
  list(APPEND HALOBW_MPI_TEST_ENV ${HALOBW_SANITIZER_ENV})
endif()

set(HALOBW_MPIEXEC_FLAGS "" CACHE STRING "Extra flags for mpiexec in tests")

function(halobw_add_mpi_test)
  cmake_parse_arguments(T "" "NAME" "COMMAND;RANKS" ${ARGN})
  foreach(np IN LISTS T_RANKS)
    add_test(NAME ${T_NAME}/${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${HALOBW_MPIEXEC_OVERSUBSCRIBE}
                     ${HALOBW_MPIEXEC_FLAGS} ${T_COMMAND})
    set_tests_properties(${T_NAME}/${np} PROPERTIES PROCESSORS ${np} ENVIRONMENT "${HALOBW_MPI_TEST_ENV}"
                                                    TIMEOUT 300)
  endforeach()
endfunction()
