#include "halobw/exchange/transport.hpp"

namespace halobw {

GpuAwareness resolve_gpu_aware(const Options& opt, const GpuQuery& query,
                               const std::optional<std::string>& mpich_gpu_env) {
  if (opt.gpu_aware != GpuAwareMode::automatic) {
    return {opt.gpu_aware == GpuAwareMode::on, opt.gpu_aware_source};
  }
  if (query.supported >= 0) return {query.supported == 1, query.how};
  if (mpich_gpu_env) return {*mpich_gpu_env == "1", env_var::kMpichGpuSupport};
  return {false, "unknown to the MPI library: staged"};
}

Expected<TransportChoice> choose_transport(const Options& opt, const GpuAwareness& aware) {
  TransportChoice c;
  if (opt.backend == Backend::host) {
    // Host memory needs no GPU awareness; an explicit "off" stages packed
    // buffers through a second host buffer, the device path's logic on the host.
    const bool staged = opt.pack == PackMode::kernel && opt.gpu_aware == GpuAwareMode::off;
    c.transport = opt.pack == PackMode::datatype ? Transport::datatype
                  : staged                       ? Transport::staged
                                                 : Transport::direct;
    c.gpu_aware = staged ? "0" : "n/a";
    return c;
  }
  c.gpu_aware = aware.aware ? "1" : "0";
  if (opt.pack == PackMode::datatype) {
    c.transport = Transport::datatype;
    if (!aware.aware) {
      return Failure{ExitCode::bad_input, "--pack datatype on the " + to_string(opt.backend) +
                                              " backend sends device memory: it needs GPU-aware MPI (" +
                                              aware.reason + " says no)"};
    }
    return c;
  }
  c.transport = aware.aware ? Transport::direct : Transport::staged;
  return c;
}

}  // namespace halobw
