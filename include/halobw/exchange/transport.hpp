// How pieces travel, chosen once per run: the transports as policy types,
// whether MPI may be handed device memory (GPU-aware), and the choice of
// transport from --pack, the backend and that answer.
#pragma once

#include <optional>
#include <string>

#include "halobw/base/failure.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/cli/settings.hpp"
#include "halobw/platform/device.hpp"
#include "halobw/platform/gpu_aware.hpp"

namespace halobw {

// The transports as policy types, each the trait of its kind (cli/settings.hpp).
template <Transport K>
struct TransportOf {
  static constexpr Transport kind = K;
  static constexpr bool packs = halobw::packs(K);
  static constexpr bool stages = halobw::stages(K);
};
using DatatypeTransport = TransportOf<Transport::datatype>;  // MPI subarrays from the field
using DirectTransport = TransportOf<Transport::direct>;      // packed buffers in the field's memory
using StagedTransport = TransportOf<Transport::staged>;      // packed, copied through host memory

struct GpuAwareness {
  bool aware = false;
  std::string reason;
};
// The flag wins, then OPENPFC_ASSUME_GPU_AWARE_MPI (both arrive in Options),
// then the library's query, then Cray MPICH's MPICH_GPU_SUPPORT_ENABLED; else staged. Pure.
[[nodiscard]] GpuAwareness resolve_gpu_aware(const Options& opt, const GpuQuery& query,
                                             const std::optional<std::string>& mpich_gpu_env);

// The transport for a run (--pack datatype on a device needs GPU-aware MPI).
struct TransportChoice {
  Transport transport = Transport::datatype;
  std::string gpu_aware = "n/a";  // as the header prints it
};
[[nodiscard]] Expected<TransportChoice> choose_transport(const Options& opt, const GpuAwareness& aware);

}  // namespace halobw
