# SimGrid's SMPI (preset smpi): every rank runs in one simulator process, on a
# network modeled by a platform file (scripts/simulate, platforms/).
#
# smpicxx is the MPI compiler wrapper. FindMPI takes SMPI's headers and
# libsimgrid from `smpicxx -show`, but drops the rest of what the wrapper does
# to every file; MPI::MPI_CXX gets it back here:
#  - -include smpi/smpi_helpers.h: exit, sleep, usleep, nanosleep, getpid,
#    gettimeofday and clock_gettime become macros that act on the simulated
#    rank and its simulated clock. The cli layer, which holds CLI11 (whose
#    App::exit the `exit` macro would break), links no MPI and never sees it.
#    SMPI_NO_OVERRIDE_MALLOC keeps malloc/free real functions: their macros
#    would turn std::free into std::smpi_shared_free.
#  - position-independent code, and every program linked with -shared: smpirun
#    loads the program (one copy per rank, for the privatization of its
#    globals) with dlopen, which refuses a position-independent executable.
# Only programs that link MPI::MPI_CXX are affected; the pure layers are not.
find_program(HALOBW_SMPICXX smpicxx)
if(NOT HALOBW_SMPICXX)
  message(FATAL_ERROR "HALOBW_SMPI: smpicxx not found; install SimGrid with: scripts/setup.sh smpi "
                      "(Debian's libsimgrid-dev)")
endif()
set(MPI_CXX_COMPILER ${HALOBW_SMPICXX} CACHE FILEPATH "SMPI's C++ wrapper" FORCE)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
find_package(MPI REQUIRED COMPONENTS CXX)
execute_process(COMMAND ${HALOBW_SMPICXX} --version OUTPUT_VARIABLE HALOBW_SMPI_VERSION
                OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX REPLACE "^SimGrid version " "" HALOBW_SMPI_VERSION "${HALOBW_SMPI_VERSION}")
message(STATUS "SimGrid SMPI ${HALOBW_SMPI_VERSION}: ${HALOBW_SMPICXX}")
target_compile_options(MPI::MPI_CXX INTERFACE "SHELL:-include smpi/smpi_helpers.h")
target_compile_definitions(MPI::MPI_CXX INTERFACE SMPI_NO_OVERRIDE_MALLOC)
# -fPIC after the -fPIE that CMake gives an executable's own objects.
target_compile_options(MPI::MPI_CXX INTERFACE -fPIC)
target_link_options(MPI::MPI_CXX INTERFACE -shared)
