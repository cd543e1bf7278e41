# Finds Kokkos and makes sure Kokkos::kokkos points at its headers.
#
# Debian's Kokkos 3.4 comes from the Trilinos packaging. Its KokkosConfig.cmake
# creates Kokkos::kokkos with the include directory <prefix>/include, where
# <prefix> is four levels above the config file: /usr/lib, not /usr. The
# headers are in /usr/include/trilinos. Only when the exported directory lacks
# Kokkos_Core.hpp do we look for the real one and put it in its place;
# Kokkos 4.x and later installs are used as they are.
find_package(Kokkos REQUIRED)

# A preset that needs a backend names it (HALOBW_KOKKOS_BACKEND: OPENMP, CUDA or HIP, as Kokkos_DEVICES
# spells them): a Kokkos found without it fails here, rather than building a Serial-only program.
set(HALOBW_KOKKOS_BACKEND "" CACHE STRING "The Kokkos device this build needs (OPENMP, CUDA, HIP; empty: any)")
if(HALOBW_KOKKOS_BACKEND AND NOT HALOBW_KOKKOS_BACKEND IN_LIST Kokkos_DEVICES)
  message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} (${Kokkos_DIR}) has the devices '${Kokkos_DEVICES}', not "
                      "${HALOBW_KOKKOS_BACKEND}, which this preset needs: set Kokkos_ROOT to the install of a Kokkos "
                      "built with it (docs/gpu.md), e.g. Kokkos_ROOT=$(spack location -i kokkos)")
endif()

if(NOT TARGET Kokkos::kokkos)
  message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} was found but provides no Kokkos::kokkos target")
endif()

get_target_property(_halobw_kokkos_includes Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
set(_halobw_kokkos_ok FALSE)
foreach(_dir IN LISTS _halobw_kokkos_includes)
  if(EXISTS "${_dir}/Kokkos_Core.hpp")
    set(_halobw_kokkos_ok TRUE)
  endif()
endforeach()

if(NOT _halobw_kokkos_ok)
  find_path(HALOBW_KOKKOS_INCLUDE_DIR Kokkos_Core.hpp
            HINTS ${Kokkos_INCLUDE_DIRS}
            PATH_SUFFIXES trilinos
            REQUIRED)
  set_property(TARGET Kokkos::kokkos PROPERTY INTERFACE_INCLUDE_DIRECTORIES ${HALOBW_KOKKOS_INCLUDE_DIR})
  message(STATUS "Kokkos ${Kokkos_VERSION}: exported include directory "
                 "'${_halobw_kokkos_includes}' has no Kokkos_Core.hpp; using ${HALOBW_KOKKOS_INCLUDE_DIR}")
endif()
