// MPI communicators and datatypes, owned, and the error policy: every return code is checked, a failure
// within a rank throws MpiError, and ranks agree on failure at phase
// boundaries (agree) so that no rank waits in a collective another skipped.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/base/failure.hpp"
#include "halobw/cli/settings.hpp"
#include "halobw/platform/watchdog.hpp"

namespace halobw {

class MpiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws MpiError naming the call, the MPI error string and the peer when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* call, int peer = -1);
// The same message on stderr, for places that must not throw (destructors,
// the abort path); returns whether the call succeeded.
bool report_mpi(int rc, const char* call) noexcept;

// "MPI_THREAD_FUNNELED", ...
[[nodiscard]] std::string thread_level_name(int level);

// A duplicate of a communicator with MPI_ERRORS_RETURN, freed on destruction.
class Comm {
 public:
  explicit Comm(MPI_Comm parent);
  ~Comm();
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  Comm(Comm&& o) noexcept
      : comm_(std::exchange(o.comm_, MPI_COMM_NULL)),
        rank_(o.rank_),
        size_(o.size_),
        watchdog_(o.watchdog_) {}
  Comm& operator=(Comm&&) = delete;

  [[nodiscard]] MPI_Comm get() const { return comm_; }
  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  // The watchdog that guards this communicator's blocking calls; null: none.
  void set_watchdog(Watchdog* w) { watchdog_ = w; }
  [[nodiscard]] Watchdog* watchdog() const { return watchdog_; }
  // Armed for one collective call on this communicator.
  [[nodiscard]] Watchdog::Guard guard(const char* call) const {
    return {watchdog_, call, nullptr, Watchdog::Kind::collective};
  }
  // MPI_Barrier, under the watchdog.
  void barrier() const;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  Watchdog* watchdog_ = nullptr;
};

// An owned, committed MPI datatype.
class Datatype {
 public:
  Datatype() = default;
  explicit Datatype(MPI_Datatype t) : type_(t) {}
  ~Datatype();
  Datatype(Datatype&& o) noexcept : type_(o.type_) { o.type_ = MPI_DATATYPE_NULL; }
  Datatype& operator=(Datatype&& o) noexcept;
  Datatype(const Datatype&) = delete;
  Datatype& operator=(const Datatype&) = delete;
  [[nodiscard]] MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// Commits t and owns it; frees t and throws MpiError if the commit fails.
[[nodiscard]] Datatype commit(MPI_Datatype t);
// A committed MPI subarray of doubles, x fastest (Fortran order).
[[nodiscard]] Datatype subarray_datatype(const Subarray& s);
// Box b of a field with the padded extents: how --pack datatype describes every face.
[[nodiscard]] inline Datatype box_datatype(const Index3& padded, const Box& b) {
  return subarray_datatype(subarray_of(padded, b));
}

// The outcome of a phase, agreed by every rank: nothing when every rank is
// well, else the failure of the lowest failing rank. Collective.
[[nodiscard]] Status agree(const Comm& comm, const Status& mine);

// Whether every rank holds the same values (e.g. the grid, the transport). Collective.
[[nodiscard]] bool same_on_all_ranks(const Comm& comm, const std::vector<long long>& values);

// Host names indexed by rank: every rank's on rank 0 (the header, the slowest
// rank, --per-rank), only its own elsewhere (the others empty), so that no
// rank but 0 receives P names: P ranks each holding P would cost the job
// O(P^2) memory and copies (at 4,096 ranks of 256-byte names, 4 GiB). Collective.
[[nodiscard]] std::vector<std::string> gather_hostnames(const Comm& comm);

// The ranks sharing this rank's node (MPI_COMM_TYPE_SHARED), ordered as in
// `comm`, with the error policy of Comm. Collective.
[[nodiscard]] Comm node_comm(const Comm& comm);
// The rank among the ranks of its node and their count. Collective.
struct NodeRank {
  int local_rank = 0;
  int local_size = 1;
};
[[nodiscard]] NodeRank node_rank(const Comm& comm);
// The sum of `value` over the ranks of this rank's node. Collective.
[[nodiscard]] std::uint64_t sum_over_node(const Comm& comm, std::uint64_t value);
// The same for each of `values` (the same count on every rank). Collective.
[[nodiscard]] std::vector<std::uint64_t> sum_over_node(const Comm& comm,
                                                       const std::vector<std::uint64_t>& values);
// The node of every rank, as MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups
// them: nodes numbered 0, 1, ... in the order of their first rank. Collective.
[[nodiscard]] std::vector<int> node_of_ranks(const Comm& comm);

// MPI_Get_library_version, first line.
[[nodiscard]] std::string mpi_library_version();

// --messages auto's rule for the MPI library this build's headers are (cli/settings.hpp).
[[nodiscard]] StructRule struct_rule_of_library();

}  // namespace halobw
