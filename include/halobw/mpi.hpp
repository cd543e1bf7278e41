// RAII for MPI and the error policy: every return code is checked, a failure
// within a rank throws MpiError, and ranks agree on failure at phase
// boundaries (agree) so that no rank waits in a collective another skipped.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

// MPI_Init_thread / MPI_Finalize.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

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
        timeout_(o.timeout_),
        phase_(std::move(o.phase_)) {}
  Comm& operator=(Comm&&) = delete;

  [[nodiscard]] MPI_Comm get() const { return comm_; }
  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  // MPI_Barrier; with a timeout set, a barrier that does not complete in time aborts with a message.
  void barrier() const;
  void set_timeout(double seconds) { timeout_ = seconds; }
  // What the ranks are doing, named if a barrier times out (diagnostic context only).
  void set_phase(std::string phase) const { phase_ = std::move(phase); }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  double timeout_ = 0;
  mutable std::string phase_ = "a barrier";
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

// The outcome of a phase, agreed by every rank: ok on all ranks, or the
// message of the lowest failing rank with its exit code. Collective.
struct Verdict {
  bool ok = true;
  int code = 0;
  int rank = -1;  // the lowest failing rank
  std::string message;
};
[[nodiscard]] Verdict agree(const Comm& comm, bool ok, const std::string& message = {}, int code = 1);

// Whether every rank holds the same values (e.g. the grid, the transport). Collective.
[[nodiscard]] bool same_on_all_ranks(const Comm& comm, const std::vector<long long>& values);

// Host name of every rank, indexed by rank. Collective.
[[nodiscard]] std::vector<std::string> gather_hostnames(const Comm& comm);

// The rank among the ranks of its node and their count. Collective.
struct NodeRank {
  int local_rank = 0;
  int local_size = 1;
};
[[nodiscard]] NodeRank node_rank(const Comm& comm);
// The sum of `value` over the ranks of this rank's node. Collective.
[[nodiscard]] std::uint64_t sum_over_node(const Comm& comm, std::uint64_t value);

// MPI_Get_library_version, first line.
[[nodiscard]] std::string mpi_library_version();

}  // namespace halobw
