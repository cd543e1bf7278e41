# Finds MPI through the wrapper the user or the preset names, and the launcher
# beside it: `cmake -DMPI_CXX_COMPILER=/path/to/bin/mpicxx` builds and tests
# against that library alone, whichever launcher comes first on PATH.

# The presets of PyPI's MPIs (ompi5, mpich5, impi) build through the wrapper in
# .mpi/PRESET, which scripts/setup.sh installs with the pins of scripts/mpi_wheels.txt.
if(HALOBW_MPI_WHEEL AND NOT EXISTS "${MPI_CXX_COMPILER}")
  file(STRINGS ${PROJECT_SOURCE_DIR}/scripts/mpi_wheels.txt _wheels REGEX "^${HALOBW_MPI_WHEEL} ")
  string(REGEX REPLACE "^[^ ]+ " "" _wheels "${_wheels}")
  message(FATAL_ERROR "${MPI_CXX_COMPILER} is missing: scripts/setup.sh ${HALOBW_MPI_WHEEL} installs it "
                      "(pip install ${_wheels} into .mpi/${HALOBW_MPI_WHEEL})")
endif()
# A wrapper named by its path: its library's launcher is the mpiexec beside it.
if(IS_ABSOLUTE "${MPI_CXX_COMPILER}" AND NOT MPIEXEC_EXECUTABLE)
  get_filename_component(_mpi_bin "${MPI_CXX_COMPILER}" DIRECTORY)
  find_program(MPIEXEC_EXECUTABLE NAMES mpiexec mpirun PATHS "${_mpi_bin}" NO_DEFAULT_PATH)
endif()
find_package(MPI REQUIRED COMPONENTS CXX)
# An MPI outside the loader's path (a wheel, a module, your own): the build tree's
# programs hold its lib/ in their RPATH, and the installed ones keep it.
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)
