#include "halobw/exchange/method_registry.hpp"

#include <fmt/format.h>

#include "halobw/exchange/node_home.hpp"
#include "halobw/platform/mpi_features.hpp"

namespace halobw {

// The makers, one per method file (each in src/exchange/method_NAME.cpp).
std::unique_ptr<Method> make_p2p(MethodContext ctx, const MethodChoice& choice);
std::unique_ptr<Method> make_persistent(MethodContext ctx, const MethodChoice& choice);
std::unique_ptr<Method> make_partitioned(MethodContext ctx, const MethodChoice& choice);
std::unique_ptr<Method> make_neighbor(MethodContext ctx, const MethodChoice& choice);
std::unique_ptr<Method> make_rma(MethodContext ctx, const MethodChoice& choice);

namespace {

using Maker = std::unique_ptr<Method> (*)(MethodContext, const MethodChoice&);
using HomeMaker = std::shared_ptr<FieldHome> (*)(const Comm&, Backend);

struct MethodRow {
  MethodKind kind;
  Maker make;
  Needs needs = Needs::nothing;
  HomeMaker home = nullptr;  // the method owns where the fields live
};

const MethodRow kMethods[] = {
    {MethodKind::p2p, make_p2p},
    {MethodKind::persistent, make_persistent},
    {MethodKind::partitioned, make_partitioned, Needs::partitioned},
    {MethodKind::neighbor, make_neighbor},
    {MethodKind::neighbor_persistent, make_neighbor, Needs::persistent_neighbor},
    {MethodKind::rma, make_rma},
    {MethodKind::shm, make_p2p, Needs::nothing,
     make_node_home},  // p2p between nodes; exchange/direct_copy.hpp within
};

const MethodRow& row_of(MethodKind kind) {
  for (const MethodRow& r : kMethods) {
    if (r.kind == kind) return r;
  }
  throw std::logic_error("method " + to_string(kind) + " is not in the registry");
}

// What a method needs that this build's MPI headers lack; nullptr where they have it.
const char* lacking(Needs needs) {
  switch (needs) {
    case Needs::nothing:
      return nullptr;
    case Needs::partitioned:
#ifdef HALOBW_MPI_PARTITIONED
      return nullptr;
#else
      return "MPI-4 partitioned point-to-point (MPI_Psend_init, MPI_Precv_init, MPI_Pready)";
#endif
    case Needs::persistent_neighbor:
#ifdef HALOBW_MPI_NEIGHBOR_INIT
      return nullptr;
#else
      return "persistent neighbourhood collectives (MPI-4's MPI_Neighbor_alltoallw_init, or Open MPI's "
             "MPIX_ form)";
#endif
  }
  return nullptr;
}

}  // namespace

MethodFactory method_factory(const MethodChoice& choice) {
  const Maker make = row_of(choice.kind).make;
  return [make, choice](MethodContext ctx) { return make(std::move(ctx), choice); };
}

Status method_refusal(MethodKind kind, PackMode pack) {
  // The library's name and version: its version line up to the first comma ("Open MPI v4.1.4").
  const std::string line = mpi_library_version();
  const std::string library = line.substr(0, line.find(','));
  if (const char* lacks = lacking(row_of(kind).needs)) {
    return fail(fmt::format("--method {}: {} lacks {} (its headers say MPI {}.{})", to_string(kind), library,
                            lacks, MPI_VERSION, MPI_SUBVERSION));
  }
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5
  // Open MPI 5.0's part/persist component (5.0.11 checked) completes the
  // partitioned receives of a row's datatype messages without their data
  // from the second row on, at 4 ranks and more; its packed messages arrive.
  if (kind == MethodKind::partitioned && pack == PackMode::datatype) {
    return fail(
        fmt::format("--method partitioned --pack datatype: {}'s partitioned messages of MPI datatypes "
                    "lose their data after the first row; use --pack kernel",
                    library));
  }
#else
  (void)pack;
#endif
  return {};
}

std::shared_ptr<FieldHome> field_home(MethodKind kind, const Comm& comm, Backend backend) {
  const HomeMaker home = row_of(kind).home;
  return home ? home(comm, backend) : nullptr;
}

}  // namespace halobw
