#include "halobw/platform/mpi.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace halobw {

namespace {
// The standard name of rc's error class, or nullptr for one not listed.
const char* error_class_name(int rc) {
  struct Name {
    int cls;
    const char* name;
  };
  static const Name names[] = {{MPI_ERR_BUFFER, "MPI_ERR_BUFFER"},
                               {MPI_ERR_COUNT, "MPI_ERR_COUNT"},
                               {MPI_ERR_TYPE, "MPI_ERR_TYPE"},
                               {MPI_ERR_TAG, "MPI_ERR_TAG"},
                               {MPI_ERR_COMM, "MPI_ERR_COMM"},
                               {MPI_ERR_RANK, "MPI_ERR_RANK"},
                               {MPI_ERR_REQUEST, "MPI_ERR_REQUEST"},
                               {MPI_ERR_ROOT, "MPI_ERR_ROOT"},
                               {MPI_ERR_GROUP, "MPI_ERR_GROUP"},
                               {MPI_ERR_OP, "MPI_ERR_OP"},
                               {MPI_ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY"},
                               {MPI_ERR_DIMS, "MPI_ERR_DIMS"},
                               {MPI_ERR_ARG, "MPI_ERR_ARG"},
                               {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE"},
                               {MPI_ERR_OTHER, "MPI_ERR_OTHER"},
                               {MPI_ERR_INTERN, "MPI_ERR_INTERN"},
                               {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS"},
                               {MPI_ERR_PENDING, "MPI_ERR_PENDING"},
                               {MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM"},
                               {MPI_ERR_WIN, "MPI_ERR_WIN"},
                               {MPI_ERR_BASE, "MPI_ERR_BASE"},
                               {MPI_ERR_SIZE, "MPI_ERR_SIZE"},
                               {MPI_ERR_DISP, "MPI_ERR_DISP"},
                               {MPI_ERR_RMA_CONFLICT, "MPI_ERR_RMA_CONFLICT"},
                               {MPI_ERR_RMA_SYNC, "MPI_ERR_RMA_SYNC"},
                               {MPI_ERR_RMA_RANGE, "MPI_ERR_RMA_RANGE"},
                               {MPI_ERR_RMA_ATTACH, "MPI_ERR_RMA_ATTACH"},
                               {MPI_ERR_RMA_SHARED, "MPI_ERR_RMA_SHARED"},
                               {MPI_ERR_RMA_FLAVOR, "MPI_ERR_RMA_FLAVOR"}};
  int cls = 0;
  if (MPI_Error_class(rc, &cls) != MPI_SUCCESS) return nullptr;
  for (const Name& n : names) {
    if (n.cls == cls) return n.name;
  }
  return nullptr;
}

std::string mpi_message(int rc, const char* call, int peer) {
  std::array<char, MPI_MAX_ERROR_STRING> text{};
  int len = 0;
  if (MPI_Error_string(rc, text.data(), &len) != MPI_SUCCESS) len = 0;
  std::string msg = std::string(call) + " failed";
  if (peer >= 0) msg += " (peer rank " + std::to_string(peer) + ")";
  std::string what =
      len > 0 ? std::string(text.data(), static_cast<std::size_t>(len)) : "error " + std::to_string(rc);
  // Open MPI's text starts with the class's name (MPI_ERR_RANK: invalid rank),
  // MPICH's does not (Invalid rank, error stack: ...): name it the same on both.
  const char* cls = error_class_name(rc);
  if (cls != nullptr && what.rfind(cls, 0) != 0) what = std::string(cls) + ": " + what;
  return msg + ": " + what;
}
}  // namespace

void check_mpi(int rc, const char* call, int peer) {
  if (rc != MPI_SUCCESS) throw MpiError(mpi_message(rc, call, peer));
}

bool report_mpi(int rc, const char* call) noexcept {
  if (rc == MPI_SUCCESS) return true;
  try {
    std::fprintf(stderr, "halo-bandwidth: %s\n", mpi_message(rc, call, -1).c_str());
  } catch (...) {
    std::fprintf(stderr, "halo-bandwidth: %s failed\n", call);
  }
  return false;
}

std::string thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
      return "MPI_THREAD_MULTIPLE";
    default:
      return "thread level " + std::to_string(level);
  }
}

Comm::Comm(MPI_Comm parent) {
  check_mpi(MPI_Comm_dup(parent, &comm_), "MPI_Comm_dup");
  check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

Comm::~Comm() {
  if (comm_ != MPI_COMM_NULL) report_mpi(MPI_Comm_free(&comm_), "MPI_Comm_free");
}

void Comm::barrier() const {
  const auto armed = guard("MPI_Barrier");
  check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
}

Datatype::~Datatype() {
  if (type_ != MPI_DATATYPE_NULL) report_mpi(MPI_Type_free(&type_), "MPI_Type_free");
}

Datatype& Datatype::operator=(Datatype&& o) noexcept {
  if (this != &o) {
    if (type_ != MPI_DATATYPE_NULL) report_mpi(MPI_Type_free(&type_), "MPI_Type_free");
    type_ = o.type_;
    o.type_ = MPI_DATATYPE_NULL;
  }
  return *this;
}

Datatype commit(MPI_Datatype t) {
  const int rc = MPI_Type_commit(&t);
  if (rc != MPI_SUCCESS) report_mpi(MPI_Type_free(&t), "MPI_Type_free");
  check_mpi(rc, "MPI_Type_commit");
  return Datatype(t);
}

Datatype subarray_datatype(const Subarray& s) {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  check_mpi(MPI_Type_create_subarray(3, &s[0], &s[3], &s[6], MPI_ORDER_FORTRAN, MPI_DOUBLE, &t),
            "MPI_Type_create_subarray");
  return commit(t);
}

Status agree(const Comm& comm, const Status& mine) {
  const auto armed = comm.guard("MPI_Allreduce");
  const int me = mine ? comm.rank() : comm.size();
  int first = comm.size();
  check_mpi(MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, comm.get()), "MPI_Allreduce");
  if (first == comm.size()) return {};
  const std::string message = mine ? mine->message : std::string();
  std::array<int, 2> head{mine ? exit_status(mine->code) : 0, static_cast<int>(message.size())};
  check_mpi(MPI_Bcast(head.data(), 2, MPI_INT, first, comm.get()), "MPI_Bcast");
  std::string text = comm.rank() == first ? message : std::string(static_cast<std::size_t>(head[1]), ' ');
  check_mpi(MPI_Bcast(text.data(), head[1], MPI_CHAR, first, comm.get()), "MPI_Bcast");
  return Failure{static_cast<ExitCode>(head[0]), text};
}

bool same_on_all_ranks(const Comm& comm, const std::vector<long long>& values) {
  const auto armed = comm.guard("MPI_Allreduce");
  std::vector<long long> lo(values.size());
  std::vector<long long> hi(values.size());
  const int n = static_cast<int>(values.size());
  check_mpi(MPI_Allreduce(values.data(), lo.data(), n, MPI_LONG_LONG, MPI_MIN, comm.get()), "MPI_Allreduce");
  check_mpi(MPI_Allreduce(values.data(), hi.data(), n, MPI_LONG_LONG, MPI_MAX, comm.get()), "MPI_Allreduce");
  return lo == hi;
}

std::vector<std::string> gather_hostnames(const Comm& comm) {
  const auto armed = comm.guard("MPI_Gather");
  std::array<char, MPI_MAX_PROCESSOR_NAME> mine{};
  int len = 0;
  check_mpi(MPI_Get_processor_name(mine.data(), &len), "MPI_Get_processor_name");
  const bool root = comm.rank() == 0;
  std::vector<char> all(root ? static_cast<std::size_t>(MPI_MAX_PROCESSOR_NAME) * comm.size() : 0);
  check_mpi(MPI_Gather(mine.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                       MPI_CHAR, 0, comm.get()),
            "MPI_Gather");
  std::vector<std::string> hosts(static_cast<std::size_t>(comm.size()));
  if (!root) {
    hosts[static_cast<std::size_t>(comm.rank())] =
        std::string(mine.data(), std::find(mine.begin(), mine.end(), '\0'));
    return hosts;
  }
  for (int r = 0; r < comm.size(); ++r) {
    const char* p = all.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME;
    hosts[static_cast<std::size_t>(r)].assign(p, std::find(p, p + MPI_MAX_PROCESSOR_NAME, '\0'));
  }
  return hosts;
}

Comm node_comm(const Comm& comm) {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm.get(), MPI_COMM_TYPE_SHARED, comm.rank(), MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  Comm dup(node);  // Comm owns a duplicate; the split itself is freed here
  check_mpi(MPI_Comm_free(&node), "MPI_Comm_free");
  return dup;
}

NodeRank node_rank(const Comm& comm) {
  const Comm node = node_comm(comm);
  return {node.rank(), node.size()};
}

std::uint64_t sum_over_node(const Comm& comm, std::uint64_t value) {
  return sum_over_node(comm, std::vector<std::uint64_t>{value}).front();
}

std::vector<std::uint64_t> sum_over_node(const Comm& comm, const std::vector<std::uint64_t>& values) {
  const Comm node = node_comm(comm);
  const auto armed = comm.guard("MPI_Allreduce");
  std::vector<unsigned long long> mine(values.begin(), values.end());
  std::vector<unsigned long long> sum(values.size());
  check_mpi(MPI_Allreduce(mine.data(), sum.data(), static_cast<int>(mine.size()), MPI_UNSIGNED_LONG_LONG,
                          MPI_SUM, node.get()),
            "MPI_Allreduce");
  return {sum.begin(), sum.end()};
}

std::vector<int> node_of_ranks(const Comm& comm) {
  const Comm node = node_comm(comm);
  int first = comm.rank();  // the node's lowest rank names it
  {
    const auto armed = comm.guard("MPI_Allreduce");
    const int mine = comm.rank();
    check_mpi(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, node.get()), "MPI_Allreduce");
  }
  std::vector<int> firsts(static_cast<std::size_t>(comm.size()));
  {
    const auto armed = comm.guard("MPI_Allgather");
    check_mpi(MPI_Allgather(&first, 1, MPI_INT, firsts.data(), 1, MPI_INT, comm.get()), "MPI_Allgather");
  }
  std::vector<int> number(static_cast<std::size_t>(comm.size()), -1);  // by first rank
  std::vector<int> ids;
  int next = 0;
  for (const int f : firsts) {
    int& n = number[static_cast<std::size_t>(f)];
    if (n < 0) n = next++;
    ids.push_back(n);
  }
  return ids;
}

std::string mpi_library_version() {
  std::array<char, MPI_MAX_LIBRARY_VERSION_STRING> text{};
  int len = 0;
  check_mpi(MPI_Get_library_version(text.data(), &len), "MPI_Get_library_version");
  std::string s(text.data(), static_cast<std::size_t>(len));
  return s.substr(0, s.find_first_of(std::string("\r\n\0", 3)));  // some libraries count the NUL
}

StructRule struct_rule_of_library() {
#ifdef I_MPI_VERSION
  return kStructRuleIntelMpi;
#else
  return {};
#endif
}

}  // namespace halobw
