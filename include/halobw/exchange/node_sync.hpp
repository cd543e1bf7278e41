// The direct method's synchronisation, point to point through the flags of
// the node's windows (node_home.hpp). Exchange e on one rank:
//   publish_ready(e)   its fields are final: its neighbours may read its boundary;
//   await_sources(e)   every neighbour it reads has published ready >= e;
//   publish_copied(e)  it has read every neighbour's boundary;
//   await_readers(e)   every neighbour that reads it has published copied >= e,
//                      so that the caller may write its boundary again.
// A wait reads the flag a few times, then gives its core away (sched_yield)
// between reads: with more ranks than cores the rank it waits for must run.
// Each wait is armed on the watchdog, which names the rank and the flag.
#pragma once

#include <cstdint>
#include <vector>

#include "halobw/exchange/node_home.hpp"
#include "halobw/platform/watchdog.hpp"

namespace halobw {

class NodeSync {
 public:
  // What the test hooks (exchange/faults.hpp) change: without `waits` it
  // publishes but never waits (the copies race); without `publishes` it never
  // says its boundary is written (its readers wait until the watchdog ends the job).
  struct Hooks {
    bool waits = true;
    bool publishes = true;
  };
  // `sources`: the ranks this rank reads; `readers`: those that read it.
  NodeSync(const NodeHome& home, int rank, const std::vector<int>& sources, const std::vector<int>& readers,
           Watchdog* watchdog, Hooks hooks);

  void publish_ready(std::uint64_t e) const;
  void await_sources(std::uint64_t e);
  void publish_copied(std::uint64_t e) const;
  void await_readers(std::uint64_t e);

 private:
  struct Watched {
    std::vector<const std::uint64_t*> flags;
    Awaited awaited;
  };
  void await(Watched& w, std::uint64_t e);

  NodeFlags* mine_;
  Watched sources_;
  Watched readers_;
  Watchdog* watchdog_;
  Hooks hooks_;
};

}  // namespace halobw
