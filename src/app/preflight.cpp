#include "halobw/app/preflight.hpp"

#include <fmt/format.h>

#include "halobw/plan/memory.hpp"
#include "halobw/platform/device.hpp"
#include "halobw/platform/huge_pages.hpp"
#include "halobw/platform/process.hpp"
#include "halobw/platform/reduce.hpp"

namespace halobw {

namespace {

// This rank's largest row, by where the memory lives.
struct Worst {
  std::uint64_t total = 0;  // everything this rank allocates
  std::uint64_t host = 0;
  std::uint64_t device = 0;
  std::string total_row = "-";
  std::string host_row = "-";
  std::string device_row = "-";
};

Worst worst_row(const PreflightInput& in) {
  MemoryUse use = memory_use(in.opt, in.transport, host_placement(in.opt.hugepages == Toggle::on));
  Worst w;
  for (const RowPlan& row : in.rows) {
    use.send_max = use.limit && use.device ? row.all.send_max : 0;
    const MemoryNeed need = memory_need(row.mine, row.table, use);
    if (need.on_host() > w.host) w.host = need.on_host(), w.host_row = row.label;
    if (need.on_device() > w.device) w.device = need.on_device(), w.device_row = row.label;
    if (need.total() > w.total) w.total = need.total(), w.total_row = row.label;
  }
  return w;
}

// The sum over every rank. Collective.
std::uint64_t sum_over_ranks(const Comm& comm, std::uint64_t value) {
  unsigned long long mine = value;
  unsigned long long sum = 0;
  const auto armed = comm.guard("MPI_Allreduce");
  check_mpi(MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm.get()), "MPI_Allreduce");
  return sum;
}

// The host memory the preflight holds against this machine's: a node's ranks
// together, or under a simulation every rank, all in this one process (the
// simulated nodes' memory is not modeled: n/a). Collective.
struct HostNeed {
  std::uint64_t bytes = 0;
  std::string summary;  // the header's words for it
  std::string where;    // the refusal's
};

HostNeed host_need(const Comm& comm, const PreflightInput& in, std::uint64_t mine,
                   const std::optional<std::uint64_t>& host_free) {
  const std::string available = host_free ? bytes_text(*host_free) : "an unknown amount";
  HostNeed n;
  if (Process::simulation()) {
    n.bytes = sum_over_ranks(comm, mine);
    n.summary = fmt::format(
        "host memory per node n/a (simulated): the simulation's one process holds all {} ranks' {} of {} "
        "available on this machine",
        comm.size(), bytes_text(n.bytes), available);
    n.where = fmt::format("in the simulation's one process (all {} ranks, on this machine)", comm.size());
    return n;
  }
  n.bytes = sum_over_node(comm, mine);
  n.summary = fmt::format("host memory per node {} of {} available", bytes_text(n.bytes), available);
  n.where = fmt::format("on node {} ({} ranks there)", in.host, in.node.local_size);
  return n;
}

}  // namespace

Status memory_preflight(const Comm& comm, const PreflightInput& in, std::string& summary) {
  const Worst w = worst_row(in);
  // Rows run one after another, so the peak is the largest row's need, summed over the node.
  const auto host_free = Process::host_available_bytes();
  const HostNeed need = host_need(comm, in, w.host, host_free);
  const std::uint64_t most = reduce_max_bytes(comm, w.total);
  summary =
      fmt::format("memory per rank at most {} B ({}: field, packed buffers, staging and limit buffers); {}",
                  most, w.total_row, need.summary);
  std::string message;
  if (host_free && need.bytes > *host_free) {
    message = fmt::format("{} needs {} of host memory {}, {} available", w.host_row, bytes_text(need.bytes),
                          need.where, bytes_text(*host_free));
  }
  const auto dev_free = device_free_bytes(in.opt.backend);
  if (message.empty() && dev_free && in.visible_devices > 0) {
    const int sharing = (in.node.local_size + in.visible_devices - 1) / in.visible_devices;
    const std::uint64_t need = w.device * static_cast<std::uint64_t>(sharing);
    if (need > *dev_free) {
      message = fmt::format("{} needs {} of device memory per device ({} ranks share it), {} free",
                            w.device_row, bytes_text(need), sharing, bytes_text(*dev_free));
    }
  }
  return agree(comm, message.empty() ? Status{} : fail(message));
}

}  // namespace halobw
