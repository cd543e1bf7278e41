// What the MPI library's headers offer beyond MPI-3, as macros set once:
// MPI-4 (MPI_VERSION >= 4; Open MPI 5 has the MPI-4 calls under its 3.1
// version number) has partitioned point-to-point and persistent
// neighbourhood collectives; Open MPI 4.1 has the latter as
// MPIX_Neighbor_alltoallw_init (its pcollreq extension in mpi-ext.h).
// SimGrid's SMPI (3.1 headers) has neither.
#pragma once

#include <mpi.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define HALOBW_MPI_PARTITIONED 1
#define HALOBW_MPI_NEIGHBOR_INIT 1
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define HALOBW_MPIX_NEIGHBOR_INIT 1
#endif
