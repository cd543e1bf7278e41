// The run's choices as enums, each spelled once in its name table
// (base/names.hpp), which serves to_string (header, CSV, JSON) and the
// command line (options.cpp). Pure.
#pragma once

#include <array>
#include <cstdint>

#include "halobw/base/names.hpp"
#include "halobw/cli/environment.hpp"

namespace halobw {

// What the rates count, as the header and --help say it.
constexpr const char* kRateDefinition =
    "Uni_GBps = remote send bytes / time / 1e9; Duplex_GBps = 2 * Uni_GBps";

enum class Backend { host, cuda, hip };
enum class PackMode { datatype, kernel };
enum class SelfMode { copy, mpi };
enum class GpuAwareMode { automatic, on, off };
enum class GridSource { automatic, flag, environment };
enum class Format { table, csv, json };

enum class Toggle { off, on };
// The pieces exchanged: the faces only, or faces, edges and corners (26 neighbours).
enum class StencilKind { star, box };
// What one message carries: chosen by the pack (automatic: plan/messages.hpp),
// every piece (and field) for one peer rank, every field of one piece, or one
// field of one piece.
enum class Messages { automatic, peer, aggregated, separate };
// With automatic on the datatype path, the pieces (all fields, bytes) that go
// as messages of their own: over `alone_above` and up to `alone_up_to`; the
// others share their peer's struct (plan/messages.hpp says why). The rule is
// the MPI library's, measured (docs/method.md, "The messages").
struct StructRule {
  std::uint64_t alone_above = std::uint64_t{64} * 1024;
  std::uint64_t alone_up_to = UINT64_MAX;
  [[nodiscard]] constexpr bool alone(std::uint64_t bytes) const {
    return bytes > alone_above && bytes <= alone_up_to;
  }
};
// Intel MPI's: its struct of 128 KiB or 2 MiB pieces was as fast as their
// messages or faster (up to 1.29x), and slower with ±z's 512 KiB (1.7x).
inline constexpr StructRule kStructRuleIntelMpi{std::uint64_t{128} * 1024, std::uint64_t{1024} * 1024};
// How the messages move (exchange/method_registry.hpp builds each); shm, the direct
// method, copies the pieces from neighbours on the node out of their fields and sends the rest as p2p.
enum class MethodKind { p2p, persistent, partitioned, neighbor, neighbor_persistent, rma, shm };
// Whether a method sends every message in one call (a collective): nothing
// can go as soon as it is packed, so its schedule is bulk.
[[nodiscard]] constexpr bool sends_at_once(MethodKind k) {
  switch (k) {
    case MethodKind::neighbor:
    case MethodKind::neighbor_persistent:
      return true;
    case MethodKind::p2p:
    case MethodKind::persistent:
    case MethodKind::partitioned:
    case MethodKind::rma:
    case MethodKind::shm:
      return false;
  }
  return false;
}
// --method rma: the synchronisation.
enum class RmaSync { pscw, fence };
// How the host drives MPI while the interior runs (--overlap).
enum class ProgressMode { wait, poll };
// How grid coordinates follow the ranks (--placement): rank order, x fastest
// (linear); a sub-block per node, the one that sends the fewest bytes off
// the nodes (nodes, plan/rank_map.hpp); as MPI_Cart_create with reorder
// returns them (cart).
enum class RankPlacement { linear, nodes, cart };

// When packed faces are sent and unpacked (packing transports only).
enum class Schedule {
  bulk,       // pack every face, send all, wait for all, unpack every face
  pipelined,  // send each face as soon as it is packed, unpack each once it has landed (on the
              // host, faces whose boxes share rows are packed and unpacked together)
};

// How faces travel, chosen once per run from --pack, the backend and GPU-awareness.
enum class Transport {
  datatype,  // MPI subarray datatypes straight from the field (contiguous 0)
  direct,    // packed contiguous buffers in the field's memory given to MPI (contiguous 1)
  staged,    // packed buffers copied to host memory for MPI and back (contiguous 1)
};

// What a transport does, answered once: whether it packs into contiguous
// buffers, and whether it stages them through host memory.
[[nodiscard]] constexpr bool packs(Transport t) { return t != Transport::datatype; }
[[nodiscard]] constexpr bool stages(Transport t) { return t == Transport::staged; }

// The name table of each enum (base/names.hpp).
template <>
struct Names<Backend> {
  static constexpr std::array<Spelling<Backend>, 3> list{
      {{"host", Backend::host}, {"cuda", Backend::cuda}, {"hip", Backend::hip}}};
};
template <>
struct Names<PackMode> {
  static constexpr std::array<Spelling<PackMode>, 2> list{
      {{"datatype", PackMode::datatype}, {"kernel", PackMode::kernel}}};
};
template <>
struct Names<SelfMode> {
  static constexpr std::array<Spelling<SelfMode>, 2> list{{{"copy", SelfMode::copy}, {"mpi", SelfMode::mpi}}};
};
template <>
struct Names<GpuAwareMode> {
  static constexpr std::array<Spelling<GpuAwareMode>, 3> list{
      {{"auto", GpuAwareMode::automatic}, {"on", GpuAwareMode::on}, {"off", GpuAwareMode::off}}};
};
template <>
struct Names<GridSource> {
  static constexpr std::array<Spelling<GridSource>, 3> list{{{"auto", GridSource::automatic},
                                                             {"--grid", GridSource::flag},
                                                             {env_var::kProcGrid, GridSource::environment}}};
};
template <>
struct Names<Format> {
  static constexpr std::array<Spelling<Format>, 3> list{
      {{"table", Format::table}, {"csv", Format::csv}, {"json", Format::json}}};
};
template <>
struct Names<Toggle> {
  static constexpr std::array<Spelling<Toggle>, 2> list{{{"off", Toggle::off}, {"on", Toggle::on}}};
};
template <>
struct Names<MethodKind> {
  static constexpr std::array<Spelling<MethodKind>, 7> list{
      {{"p2p", MethodKind::p2p},
       {"persistent", MethodKind::persistent},
       {"partitioned", MethodKind::partitioned},
       {"neighbor", MethodKind::neighbor},
       {"neighbor-persistent", MethodKind::neighbor_persistent},
       {"rma", MethodKind::rma},
       {"shm", MethodKind::shm}}};
};
template <>
struct Names<RmaSync> {
  static constexpr std::array<Spelling<RmaSync>, 2> list{
      {{"pscw", RmaSync::pscw}, {"fence", RmaSync::fence}}};
};
template <>
struct Names<Messages> {
  static constexpr std::array<Spelling<Messages>, 4> list{{{"auto", Messages::automatic},
                                                           {"peer", Messages::peer},
                                                           {"aggregated", Messages::aggregated},
                                                           {"separate", Messages::separate}}};
};
template <>
struct Names<StencilKind> {
  static constexpr std::array<Spelling<StencilKind>, 2> list{
      {{"star", StencilKind::star}, {"box", StencilKind::box}}};
};
template <>
struct Names<ProgressMode> {
  static constexpr std::array<Spelling<ProgressMode>, 2> list{
      {{"wait", ProgressMode::wait}, {"poll", ProgressMode::poll}}};
};
template <>
struct Names<RankPlacement> {
  static constexpr std::array<Spelling<RankPlacement>, 3> list{
      {{"linear", RankPlacement::linear}, {"nodes", RankPlacement::nodes}, {"cart", RankPlacement::cart}}};
};
template <>
struct Names<Schedule> {
  static constexpr std::array<Spelling<Schedule>, 2> list{
      {{"bulk", Schedule::bulk}, {"pipelined", Schedule::pipelined}}};
};
template <>
struct Names<Transport> {
  static constexpr std::array<Spelling<Transport>, 3> list{
      {{"datatype", Transport::datatype}, {"direct", Transport::direct}, {"staged", Transport::staged}}};
};

}  // namespace halobw
