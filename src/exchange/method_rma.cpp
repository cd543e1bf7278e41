// The one-sided method (--method rma): one window per row, an MPI_Put of
// each message into its landing on the peer, general active target or
// fences. How and why: docs/method.md, "The MPI methods".
#include <algorithm>

#include "halobw/exchange/method_registry.hpp"
#include "halobw/exchange/mpi_spans.hpp"
#include "halobw/plan/grid.hpp"

namespace halobw {

namespace {

// Where a message lands on its receiver, told to the sender so that it can
// put it there: per part, the byte displacement in the receiver's window
// (packed values) or the address of a field (a dynamic window over the
// fields) and the subarray of the padded field it fills (none for packed
// values).
struct Landing {
  std::vector<MPI_Aint> where;
  int count = 0;                    // values per part when contiguous
  std::vector<Subarray> subarrays;  // one per part, or none for contiguous values
  [[nodiscard]] bool contiguous() const { return subarrays.empty(); }
};

// This rank's receive of a message as a landing: packed values from the
// start of the window `base`, or each block of the fields.
Landing landing_of(const Span& recv, const void* base) {
  Landing l;
  if (recv.packed()) {
    l.where.push_back(
        static_cast<MPI_Aint>(reinterpret_cast<const char*>(recv.values) - static_cast<const char*>(base)));
    l.count = static_cast<int>(recv.count);
    return l;
  }
  for (const FieldBox& b : recv.blocks) {
    l.where.push_back(mpi_address(b.field));
    l.subarrays.push_back(b.box);
  }
  return l;
}

// The send of a message as one-sided puts: the packed values, or a put per block.
std::vector<MpiSpan> puts_of(const Span& send, MpiTypes& types) {
  if (send.packed()) return {types.span(send)};
  std::vector<MpiSpan> parts;
  for (const FieldBox& b : send.blocks) parts.push_back(types.block(b));
  return parts;
}

// A landing as numbers, for the set-up exchange: count, parts, the subarrays
// (9 numbers each, none when contiguous), then one address per part.
std::vector<long long> encode(const Landing& l) {
  std::vector<long long> v{l.count, static_cast<long long>(l.subarrays.size())};
  for (const Subarray& s : l.subarrays) v.insert(v.end(), s.begin(), s.end());
  for (MPI_Aint a : l.where) v.push_back(static_cast<long long>(a));
  return v;
}
// The longest landing of `parts` parts.
std::size_t encoded_size(std::size_t parts) { return 2 + 10 * parts; }
Landing decode(const std::vector<long long>& v, std::size_t parts) {
  Landing l;
  l.count = static_cast<int>(v[0]);
  const auto subarrays = static_cast<std::size_t>(v[1]);
  std::size_t i = 2;
  for (std::size_t s = 0; s < subarrays; ++s) {
    Subarray a{};
    for (int& x : a) x = static_cast<int>(v[i++]);
    l.subarrays.push_back(a);
  }
  for (std::size_t p = 0; p < parts; ++p) l.where.push_back(static_cast<MPI_Aint>(v[i++]));
  return l;
}

MPI_Group group_of(MPI_Comm comm, std::vector<int> ranks) {
  ranks.erase(std::remove(ranks.begin(), ranks.end(), kNoRank), ranks.end());  // walls
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  MPI_Group all = MPI_GROUP_NULL;
  MPI_Group some = MPI_GROUP_NULL;
  check_mpi(MPI_Comm_group(comm, &all), "MPI_Comm_group");
  check_mpi(MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &some), "MPI_Group_incl");
  report_mpi(MPI_Group_free(&all), "MPI_Group_free");
  return some;
}

class Rma final : public Method {
 public:
  Rma(MethodContext ctx, RmaSync sync)
      : comm_(ctx.comm->get()), wires_(std::move(ctx.wires)), watchdog_(ctx.watchdog), sync_(sync) {
    make_window(ctx);
    for (const Wire& w : wires_) parts_.push_back(puts_of(w.send, types_));
    learn_landings(ctx.exposed.empty() ? nullptr : ctx.exposed.front().base);
    std::vector<int> origins;
    std::vector<int> targets;
    std::vector<std::string> recvs;
    std::vector<std::string> sends;
    for (const Wire& w : wires_) {
      origins.push_back(w.recv_peer);
      targets.push_back(w.send_peer);
      recvs.push_back(w.what_recv);
      sends.push_back(w.what_send);
    }
    origins_ = group_of(comm_, origins);
    targets_ = group_of(comm_, targets);
    receives_ = Awaited(std::move(recvs));
    sends_ = Awaited(std::move(sends));
  }

  ~Rma() override {
    for (MPI_Group* g : {&origins_, &targets_}) {
      if (*g != MPI_GROUP_NULL) report_mpi(MPI_Group_free(g), "MPI_Group_free");
    }
    if (win_ != MPI_WIN_NULL) {
      for (const Region& r : attached_) report_mpi(MPI_Win_detach(win_, r.base), "MPI_Win_detach");
      report_mpi(MPI_Win_free(&win_), "MPI_Win_free");
    }
  }
  Rma(const Rma&) = delete;
  Rma& operator=(const Rma&) = delete;

  void post_receives() override {
    exposed_done_ = false;
    started_ = false;
    if (sync_ == RmaSync::fence) {
      const Watchdog::Guard armed(watchdog_, "MPI_Win_fence", nullptr, Watchdog::Kind::collective);
      check_mpi(MPI_Win_fence(0, win_), "MPI_Win_fence");
      return;
    }
    if (!wires_.empty()) check_mpi(MPI_Win_post(origins_, 0, win_), "MPI_Win_post");
  }

  void send(std::size_t m) override {
    if (sync_ == RmaSync::pscw && !started_) {
      const Watchdog::Guard armed(watchdog_, "MPI_Win_start", &sends_, Watchdog::Kind::wait);
      check_mpi(MPI_Win_start(targets_, 0, win_), "MPI_Win_start");
      started_ = true;
    }
    const Wire& w = wires_[m];
    if (w.send_peer == kNoRank) return;  // a wall: nobody to put to
    const Landing& there = landings_[m];
    for (std::size_t p = 0; p < parts_[m].size(); ++p) {
      const MpiSpan& from = parts_[m][p];
      const bool contiguous = there.contiguous();
      check_mpi(
          MPI_Put(from.address, from.count, from.type, w.send_peer, there.where[p],
                  contiguous ? there.count : 1, contiguous ? MPI_DOUBLE : target_types_[m][p].get(), win_),
          "MPI_Put", w.send_peer);
    }
  }

  void send_all() override {
    for (std::size_t m = 0; m < wires_.size(); ++m) send(m);
  }

  int wait_any() override { return -1; }

  void wait_all() override {
    if (sync_ == RmaSync::fence) {
      const Watchdog::Guard armed(watchdog_, "MPI_Win_fence", &receives_, Watchdog::Kind::collective);
      check_mpi(MPI_Win_fence(0, win_), "MPI_Win_fence");
      return;
    }
    if (wires_.empty()) return;
    if (started_) {
      const Watchdog::Guard armed(watchdog_, "MPI_Win_complete", &sends_, Watchdog::Kind::wait);
      check_mpi(MPI_Win_complete(win_), "MPI_Win_complete");
    }
    if (!exposed_done_) {
      const Watchdog::Guard armed(watchdog_, "MPI_Win_wait", &receives_, Watchdog::Kind::wait);
      check_mpi(MPI_Win_wait(win_), "MPI_Win_wait");
    }
  }

  // True once every put into this rank has landed (the exposure epoch is
  // over). Under fences, or with no message, only the closing fence can tell:
  // it drives progress (MPI_Iprobe) and says false.
  bool test() override {
    if (sync_ == RmaSync::fence || wires_.empty()) {
      int flag = 0;
      check_mpi(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE), "MPI_Iprobe");
      return false;
    }
    if (!exposed_done_) {
      int flag = 0;
      check_mpi(MPI_Win_test(win_, &flag), "MPI_Win_test");
      exposed_done_ = flag != 0;
    }
    return exposed_done_;
  }

  [[nodiscard]] bool lands_one_by_one() const override { return false; }

 private:
  void make_window(const MethodContext& ctx) {
    int rc = MPI_SUCCESS;
    const MPI_Comm comm = ctx.comm->get();
    const bool dynamic = !wires_.empty() && !wires_.front().recv.packed();  // the fields, not one buffer
    if (dynamic) {
      rc = MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win_);
      if (rc == MPI_SUCCESS) {
        for (const Region& r : ctx.exposed) {
          rc = MPI_Win_attach(win_, r.base, static_cast<MPI_Aint>(r.bytes));
          if (rc != MPI_SUCCESS) break;
          attached_.push_back(r);
        }
      }
    } else {
      const Region r = ctx.exposed.empty() ? Region{} : ctx.exposed.front();
      rc = MPI_Win_create(r.base, static_cast<MPI_Aint>(r.bytes), 1, MPI_INFO_NULL, comm, &win_);
    }
    if (rc != MPI_SUCCESS) {
      try {
        check_mpi(rc, dynamic ? "MPI_Win_create_dynamic/MPI_Win_attach" : "MPI_Win_create");
      } catch (const MpiError& e) {
        throw MethodUnavailable(std::string(e.what()) +
                                " (the MPI library will not make this window here; with Open MPI try "
                                "OMPI_MCA_osc=pt2pt)");
      }
    }
    check_mpi(MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
  }

  // Each message's landing comes from the rank it is put to (set-up only);
  // `window` is the start of the packed receive buffer's window.
  void learn_landings(const void* window) {
    const std::size_t n = wires_.size();
    std::vector<std::vector<long long>> mine(n);
    std::vector<std::vector<long long>> theirs(n);
    std::vector<MPI_Request> requests(2 * n, MPI_REQUEST_NULL);
    for (std::size_t m = 0; m < n; ++m) {
      const Wire& w = wires_[m];
      const int to = mpi_peer(w.send_peer);
      const int from = mpi_peer(w.recv_peer);
      mine[m] = encode(landing_of(w.recv, window));
      theirs[m].assign(encoded_size(parts_[m].size()), 0);
      check_mpi(MPI_Irecv(theirs[m].data(), static_cast<int>(theirs[m].size()), MPI_LONG_LONG, to, w.tag,
                          comm_, &requests[m]),
                "MPI_Irecv", to);
      check_mpi(MPI_Isend(mine[m].data(), static_cast<int>(mine[m].size()), MPI_LONG_LONG, from, w.tag, comm_,
                          &requests[n + m]),
                "MPI_Isend", from);
    }
    {
      const Watchdog::Guard armed(watchdog_, "MPI_Waitall", nullptr, Watchdog::Kind::collective);
      check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
                "MPI_Waitall");
    }
    for (std::size_t m = 0; m < n; ++m) {
      landings_.push_back(decode(theirs[m], parts_[m].size()));
      std::vector<Datatype> types;
      for (const Subarray& s : landings_.back().subarrays) types.push_back(subarray_datatype(s));
      target_types_.push_back(std::move(types));
    }
  }

  MPI_Comm comm_;
  std::vector<Wire> wires_;
  Watchdog* watchdog_;
  RmaSync sync_;
  MpiTypes types_;
  std::vector<std::vector<MpiSpan>> parts_;  // per message: its puts
  MPI_Win win_ = MPI_WIN_NULL;
  std::vector<Region> attached_;
  std::vector<Landing> landings_;                    // where each message goes on its peer
  std::vector<std::vector<Datatype>> target_types_;  // the peer's subarray of each part (datatype transport)
  MPI_Group origins_ = MPI_GROUP_NULL;               // the ranks that put here
  MPI_Group targets_ = MPI_GROUP_NULL;               // the ranks put to
  Awaited receives_;
  Awaited sends_;
  bool started_ = false;
  bool exposed_done_ = false;
};

}  // namespace

std::unique_ptr<Method> make_rma(MethodContext ctx, const MethodChoice& choice) {
  return std::make_unique<Rma>(std::move(ctx), choice.rma_sync);
}

}  // namespace halobw
