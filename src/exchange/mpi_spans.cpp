#include "halobw/exchange/mpi_spans.hpp"

#include "halobw/plan/grid.hpp"

namespace halobw {

int mpi_peer(int peer) { return peer == kNoRank ? MPI_PROC_NULL : peer; }

MPI_Aint mpi_address(const void* p) {
  MPI_Aint a = 0;
  check_mpi(MPI_Get_address(p, &a), "MPI_Get_address");
  return a;
}

MpiSpan MpiTypes::span(const Span& s) {
  if (s.packed()) return {s.values, static_cast<int>(s.count), MPI_DOUBLE};
  if (s.blocks.size() == 1) return block(s.blocks.front());
  std::vector<MPI_Datatype> types;
  std::vector<MPI_Aint> where;  // from the first block's field
  const MPI_Aint first = mpi_address(s.blocks.front().field);
  for (const FieldBox& b : s.blocks) {
    types.push_back(block(b).type);
    where.push_back(mpi_address(b.field) - first);
  }
  std::vector<int> lengths(types.size(), 1);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  check_mpi(
      MPI_Type_create_struct(static_cast<int>(types.size()), lengths.data(), where.data(), types.data(), &t),
      "MPI_Type_create_struct");
  owned_.push_back(commit(t));
  return {s.blocks.front().field, 1, owned_.back().get()};
}

MpiSpan MpiTypes::block(const FieldBox& b) {
  owned_.push_back(subarray_datatype(b.box));
  return {b.field, 1, owned_.back().get()};
}

}  // namespace halobw
