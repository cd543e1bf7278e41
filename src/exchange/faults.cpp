#include "halobw/exchange/faults.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "halobw/exchange/mpi_spans.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

FaultPlan FaultPlan::from_environment(const EnvLookup& env) {
  auto read = [&env](const char* name) {
    const auto v = env(name);
    return v ? std::atoi(v->c_str()) : -1;
  };
  FaultPlan f;
  f.skip_sends_rank = read(env_var::kHookSkipSends);
  f.bad_peer_rank = read(env_var::kHookBadPeer);
  f.corrupt_rank = read(env_var::kHookCorrupt);
  f.slow_rank = read(env_var::kHookSlow);
  f.unsynced_rank = read(env_var::kHookUnsynced);
  f.from_row = std::max(1, read(env_var::kHookFromRow));
  return f;
}

FaultPlan FaultPlan::at_row(std::size_t index) const {
  if (index + 1 >= static_cast<std::size_t>(from_row)) return *this;
  FaultPlan none;
  none.from_row = from_row;
  return none;
}

namespace {

// Receives and waits as the real method does; sends never happen, or go to
// a rank that does not exist.
class FaultyMethod final : public Method {
 public:
  FaultyMethod(std::unique_ptr<Method> inner, MPI_Comm comm, const std::vector<Wire>& wires, bool bad_peer,
               int comm_size)
      : inner_(std::move(inner)), comm_(comm), bad_peer_(bad_peer), comm_size_(comm_size) {
    for (const Wire& w : wires) {
      sends_.push_back(types_.span(w.send));
      tags_.push_back(w.tag);
    }
  }

  void begin() override { inner_->begin(); }
  void end() override { inner_->end(); }
  void post_receives() override { inner_->post_receives(); }
  void send(std::size_t m) override {
    if (!bad_peer_) return;
    const MpiSpan& s = sends_[m];
    MPI_Request r = MPI_REQUEST_NULL;
    check_mpi(MPI_Isend(s.address, s.count, s.type, comm_size_, tags_[m], comm_, &r), "MPI_Isend",
              comm_size_);
  }
  void send_all() override {
    for (std::size_t m = 0; m < sends_.size(); ++m) send(m);
  }
  int wait_any() override { return inner_->wait_any(); }
  bool test() override { return inner_->test(); }
  void wait_all() override { inner_->wait_all(); }
  [[nodiscard]] bool lands_one_by_one() const override { return inner_->lands_one_by_one(); }

 private:
  std::unique_ptr<Method> inner_;
  MPI_Comm comm_;
  MpiTypes types_;
  std::vector<MpiSpan> sends_;  // per message
  std::vector<int> tags_;
  bool bad_peer_;
  int comm_size_;
};

// The real method, then a sleep once every message of the exchange has
// completed (wait_all ends each exchange of every schedule and method).
class SlowMethod final : public Method {
 public:
  explicit SlowMethod(std::unique_ptr<Method> inner) : inner_(std::move(inner)) {}

  void begin() override { inner_->begin(); }
  void end() override { inner_->end(); }
  void post_receives() override { inner_->post_receives(); }
  void send(std::size_t m) override { inner_->send(m); }
  void send_all() override { inner_->send_all(); }
  int wait_any() override { return inner_->wait_any(); }
  bool test() override { return inner_->test(); }
  void wait_all() override {
    inner_->wait_all();
    Process::pause(kSlowHookSleep);
  }
  [[nodiscard]] bool lands_one_by_one() const override { return inner_->lands_one_by_one(); }

 private:
  std::unique_ptr<Method> inner_;
};

}  // namespace

MethodFactory with_faults(MethodFactory base, const FaultPlan& plan, int rank, int comm_size) {
  if (plan.slow_rank == rank) {
    base = [inner = std::move(base)](MethodContext ctx) {
      return std::unique_ptr<Method>(std::make_unique<SlowMethod>(inner(std::move(ctx))));
    };
  }
  const bool skip = plan.skip_sends_rank == rank;
  const bool bad = plan.bad_peer_rank == rank;
  if (!skip && !bad) return base;
  return [base = std::move(base), bad, comm_size](MethodContext ctx) {
    const MPI_Comm comm = ctx.comm->get();
    std::vector<Wire> wires = ctx.wires;
    auto inner = base(std::move(ctx));
    return std::unique_ptr<Method>(
        std::make_unique<FaultyMethod>(std::move(inner), comm, wires, bad, comm_size));
  };
}

}  // namespace halobw
