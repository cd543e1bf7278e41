// The clock: warm-up calls, barrier, K calls, barrier, divide by K. It knows
// nothing of faces: the same clock times the whole exchange, the overlapped
// step, the --breakdown reference and the --limit copy. The slowest rank is
// taken by the reducer. The phases inside an exchange are timed by the
// exchanger's own marks (exchange/phases.hpp).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "halobw/cli/options.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/reduce.hpp"

namespace halobw {

// One timed block on this rank, in seconds per call: up to the end of the
// trailing barrier (the clock's figure: every rank reads nearly the slowest
// one's), and up to the end of this rank's own K-th call, before that
// barrier (where a rank that is slow shows itself).
struct BlockTime {
  double total = 0;
  double own = 0;
};

// This rank's block of `iters` calls of `work` after `warmup` untimed ones.
// `begin()` runs after the leading barrier, just before the clock starts.
template <class Work, class Begin>
BlockTime time_block(const Comm& comm, int warmup, int iters, Work&& work, Begin&& begin) {
  for (int w = 0; w < warmup; ++w) work();
  comm.barrier();
  begin();
  const double t0 = MPI_Wtime();
  for (int k = 0; k < iters; ++k) work();
  const double mine = MPI_Wtime();
  comm.barrier();
  const auto k = static_cast<double>(iters);
  return {(MPI_Wtime() - t0) / k, (mine - t0) / k};
}

// This rank's seconds per call of `work`, trailing barrier included.
template <class Work, class Begin>
double time_calls(const Comm& comm, int warmup, int iters, Work&& work, Begin&& begin) {
  return time_block(comm, warmup, iters, work, begin).total;
}
template <class Work>
double time_calls(const Comm& comm, int warmup, int iters, Work&& work) {
  return time_calls(comm, warmup, iters, work, [] {});
}

// `repeats` timed blocks after one warm-up: this rank's times in each.
// `begin(r)` runs as block r starts, `end(r)` as it ends.
template <class Work, class Begin, class End>
std::vector<BlockTime> time_blocks(const Comm& comm, int warmup, int iters, int repeats, Work&& work,
                                   Begin&& begin, End&& end) {
  std::vector<BlockTime> blocks;
  blocks.reserve(static_cast<std::size_t>(repeats));
  for (int r = 0; r < repeats; ++r) {
    blocks.push_back(time_block(comm, r == 0 ? warmup : 0, iters, work, [&] { begin(r); }));
    end(r);
  }
  return blocks;
}
template <class Work>
std::vector<BlockTime> time_blocks(const Comm& comm, int warmup, int iters, int repeats, Work&& work) {
  return time_blocks(
      comm, warmup, iters, repeats, work, [](int) {}, [](int) {});
}

// The K that makes a block of calls of `seconds_per_call` last at least
// `min_time`, within [kAutoItersLeast, kAutoItersMost]. Pure.
[[nodiscard]] inline int auto_iters(double seconds_per_call, double min_time) {
  if (!(seconds_per_call > 0)) return kAutoItersMost;  // faster than the clock's tick
  const double k = std::ceil(min_time / seconds_per_call);
  return static_cast<int>(
      std::clamp(k, static_cast<double>(kAutoItersLeast), static_cast<double>(kAutoItersMost)));
}

// The warm-up call K is chosen from: the median of the calls' times (the
// lower middle one of an even count), not the fastest. Under load the fastest
// call is the exception (a peer that had not yet fallen behind), and a K from
// it made a block last many times `min_time`. Pure.
[[nodiscard]] inline double typical_call(std::vector<double> seconds) {
  if (seconds.empty()) return 0;
  const auto middle =
      seconds.begin() + static_cast<std::vector<double>::difference_type>((seconds.size() - 1) / 2);
  std::nth_element(seconds.begin(), middle, seconds.end());
  return *middle;
}

// --iters auto: the warm-up, each call timed on its own (with `warmup` 0, one
// call, so that there is something to estimate from); this rank's K from its
// typical call (a block of K such calls lasts at least `min_time`), and the
// most over the ranks, so that every rank times the same K. Collective.
template <class Work>
int warm_up_and_choose_iters(const Comm& comm, int warmup, double min_time, Work&& work) {
  std::vector<double> calls;
  for (int w = 0; w < std::max(warmup, 1); ++w) {
    const double t0 = MPI_Wtime();
    work();
    calls.push_back(MPI_Wtime() - t0);
  }
  return static_cast<int>(reduce_max(comm, static_cast<double>(auto_iters(typical_call(calls), min_time))));
}

}  // namespace halobw
