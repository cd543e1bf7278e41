// The registry of methods: one row per method with its maker, what the
// library must have for it, and whether it owns where the fields live. A new
// method is one file (its maker) and one row here, beside its name in
// cli/settings.hpp (Names<MethodKind>), which the CLI, the schema, the docs
// and the tests are checked against.
#pragma once

#include <memory>

#include "halobw/base/failure.hpp"
#include "halobw/cli/settings.hpp"
#include "halobw/exchange/method.hpp"

namespace halobw {

// What a method needs of the MPI library beyond MPI-3.
enum class Needs {
  nothing,
  partitioned,          // MPI-4 partitioned point-to-point
  persistent_neighbor,  // MPI-4 persistent neighbourhood collectives (or Open MPI 4.1's MPIX_ form)
};

// The run's choice of method and its settings.
struct MethodChoice {
  MethodKind kind = MethodKind::p2p;
  RmaSync rma_sync = RmaSync::pscw;
};

// The factory of the chosen method.
[[nodiscard]] MethodFactory method_factory(const MethodChoice& choice);

// The refusal of a method that this MPI library lacks (one line naming the
// library and what it lacks), or of a method and pack that it has but gets
// wrong, else nothing. The same on every rank.
[[nodiscard]] Status method_refusal(MethodKind kind, PackMode pack);

// Where the fields live for this method: its home, made once per row before
// the fields are allocated (collective where the method's is), or null: the
// fields are allocated as any other memory.
[[nodiscard]] std::shared_ptr<FieldHome> field_home(MethodKind kind, const Comm& comm, Backend backend);

}  // namespace halobw
