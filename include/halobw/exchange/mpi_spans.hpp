// The MPI methods' view of a message: a span as an address, a count and a
// datatype (packed doubles, one field's subarray, or a struct of the
// subarrays of every block, placed from the first block's field so that an
// MPI that tells device memory by the pointer sees a field's), and a wall
// as MPI_PROC_NULL. The datatypes are made once per row and owned here.
#pragma once

#include <mpi.h>

#include <vector>

#include "halobw/exchange/method.hpp"
#include "halobw/platform/mpi.hpp"

namespace halobw {

// One side of one message as MPI sees it.
struct MpiSpan {
  void* address = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

// A peer as MPI names it: a wall (kNoRank) is MPI_PROC_NULL, with which
// sends and receives complete at once.
[[nodiscard]] int mpi_peer(int peer);

// MPI_Get_address.
[[nodiscard]] MPI_Aint mpi_address(const void* p);

class MpiTypes {
 public:
  // The whole span: packed values, one subarray, or a struct of the blocks.
  [[nodiscard]] MpiSpan span(const Span& s);
  // One block alone (a one-sided put per block).
  [[nodiscard]] MpiSpan block(const FieldBox& b);

 private:
  std::vector<Datatype> owned_;
};

}  // namespace halobw
