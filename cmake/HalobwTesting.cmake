# halobw_add_mpi_test(NAME name COMMAND exe [args...] RANKS n1 n2 ...)
# registers name/<n> for each rank count, run under mpiexec with
# --oversubscribe (CI has 2 cores) and PROCESSORS set, so ctest -j does not
# pile up more ranks than it should.
# KOKKOS_DISABLE_WARNINGS: Kokkos 4 OpenMP warns on stderr when ranks outnumber cores,
# which the tests do on purpose (and which tests that read stderr would take for ours).
set(HALOBW_MPI_TEST_ENV "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMPI_MCA_rmaps_base_oversubscribe=1;KOKKOS_DISABLE_WARNINGS=1")
# Open MPI refuses to run as root (CI runs as root) unless told it may.
list(APPEND HALOBW_MPI_TEST_ENV "OMPI_ALLOW_RUN_AS_ROOT=1" "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
# Sanitized builds: any report fails the test; Open MPI's own leaks are
# suppressed by tests/sanitizers/lsan.supp, matched on full stacks.
set(HALOBW_SANITIZER_ENV
    "ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0:exitcode=86"
    "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/sanitizers/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
if(HALOBW_SANITIZE)
  list(APPEND HALOBW_MPI_TEST_ENV ${HALOBW_SANITIZER_ENV})
endif()

set(HALOBW_MPIEXEC_FLAGS "" CACHE STRING "Extra flags for mpiexec in tests")
if(MPIEXEC_EXECUTABLE)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _mpiexec_version ERROR_QUIET)
  if(_mpiexec_version MATCHES "Open MPI|OpenRTE")
    set(HALOBW_MPIEXEC_OVERSUBSCRIBE --oversubscribe)
  endif()
endif()

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
