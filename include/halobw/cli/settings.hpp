// The run's choices as enums, each spelled once: its name table serves
// to_string (header, CSV, JSON) and the command line (options.cpp). Pure.
#pragma once

#include <array>
#include <map>
#include <string>
#include <utility>

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
// What one message carries: every piece (and field) for one peer rank, every
// field of one piece, or one field of one piece.
enum class Messages { peer, aggregated, separate };
// How MPI moves the messages; shm (the direct method) copies the pieces from
// neighbours on the node out of their fields and sends the rest as p2p.
enum class MethodKind { p2p, persistent, neighbor, rma, shm };
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

// The name table of each enum: Names<E>::list.
template <class E>
struct Names;

template <>
struct Names<Backend> {
  static constexpr std::array<std::pair<const char*, Backend>, 3> list{
      {{"host", Backend::host}, {"cuda", Backend::cuda}, {"hip", Backend::hip}}};
};
template <>
struct Names<PackMode> {
  static constexpr std::array<std::pair<const char*, PackMode>, 2> list{
      {{"datatype", PackMode::datatype}, {"kernel", PackMode::kernel}}};
};
template <>
struct Names<SelfMode> {
  static constexpr std::array<std::pair<const char*, SelfMode>, 2> list{
      {{"copy", SelfMode::copy}, {"mpi", SelfMode::mpi}}};
};
template <>
struct Names<GpuAwareMode> {
  static constexpr std::array<std::pair<const char*, GpuAwareMode>, 3> list{
      {{"auto", GpuAwareMode::automatic}, {"on", GpuAwareMode::on}, {"off", GpuAwareMode::off}}};
};
template <>
struct Names<GridSource> {
  static constexpr std::array<std::pair<const char*, GridSource>, 3> list{
      {{"auto", GridSource::automatic},
       {"--grid", GridSource::flag},
       {env_var::kProcGrid, GridSource::environment}}};
};
template <>
struct Names<Format> {
  static constexpr std::array<std::pair<const char*, Format>, 3> list{
      {{"table", Format::table}, {"csv", Format::csv}, {"json", Format::json}}};
};
template <>
struct Names<Toggle> {
  static constexpr std::array<std::pair<const char*, Toggle>, 2> list{
      {{"off", Toggle::off}, {"on", Toggle::on}}};
};
template <>
struct Names<MethodKind> {
  static constexpr std::array<std::pair<const char*, MethodKind>, 5> list{
      {{"p2p", MethodKind::p2p},
       {"persistent", MethodKind::persistent},
       {"neighbor", MethodKind::neighbor},
       {"rma", MethodKind::rma},
       {"shm", MethodKind::shm}}};
};
template <>
struct Names<RmaSync> {
  static constexpr std::array<std::pair<const char*, RmaSync>, 2> list{
      {{"pscw", RmaSync::pscw}, {"fence", RmaSync::fence}}};
};
template <>
struct Names<Messages> {
  static constexpr std::array<std::pair<const char*, Messages>, 3> list{
      {{"peer", Messages::peer}, {"aggregated", Messages::aggregated}, {"separate", Messages::separate}}};
};
template <>
struct Names<StencilKind> {
  static constexpr std::array<std::pair<const char*, StencilKind>, 2> list{
      {{"star", StencilKind::star}, {"box", StencilKind::box}}};
};
template <>
struct Names<ProgressMode> {
  static constexpr std::array<std::pair<const char*, ProgressMode>, 2> list{
      {{"wait", ProgressMode::wait}, {"poll", ProgressMode::poll}}};
};
template <>
struct Names<RankPlacement> {
  static constexpr std::array<std::pair<const char*, RankPlacement>, 3> list{
      {{"linear", RankPlacement::linear}, {"nodes", RankPlacement::nodes}, {"cart", RankPlacement::cart}}};
};
template <>
struct Names<Schedule> {
  static constexpr std::array<std::pair<const char*, Schedule>, 2> list{
      {{"bulk", Schedule::bulk}, {"pipelined", Schedule::pipelined}}};
};
template <>
struct Names<Transport> {
  static constexpr std::array<std::pair<const char*, Transport>, 3> list{
      {{"datatype", Transport::datatype}, {"direct", Transport::direct}, {"staged", Transport::staged}}};
};

template <class E>
[[nodiscard]] std::string to_string(E value) {
  for (const auto& [name, v] : Names<E>::list) {
    if (v == value) return name;
  }
  return "?";
}

// name -> value, for the command line.
template <class E>
[[nodiscard]] std::map<std::string, E> name_map() {
  std::map<std::string, E> m;
  for (const auto& [name, v] : Names<E>::list) m.emplace(name, v);
  return m;
}

// "a|b|c", for --help.
template <class E>
[[nodiscard]] std::string name_choices() {
  std::string s;
  for (const auto& [name, v] : Names<E>::list) s += (s.empty() ? "" : "|") + std::string(name);
  return s;
}

}  // namespace halobw
