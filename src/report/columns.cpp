#include "halobw/report/columns.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace halobw {

namespace {

double us(double seconds) { return seconds * 1.0e6; }
Cell optional_number(const std::optional<double>& v) { return v ? Cell::of(*v) : Cell{}; }
template <class T>
Cell int_cell(T v) {
  return Cell::of(static_cast<std::int64_t>(v));
}
Cell phase(const Row& r, double Phases::*member) {
  return r.phases ? Cell::of(us((*r.phases).*member)) : Cell{};
}

const std::vector<Column> kColumns{
    {"N", "cells", kWhole, Group::cube, kInTable, "global cube side (--sizes); absent for a box of extents",
     [](const Row& r) { return r.n > 0 ? int_cell(r.n) : Cell{}; }},
    {"L", "cells", kWhole, Group::local, kInTable,
     "per-rank cube side (--local); absent for a brick of extents",
     [](const Row& r) { return r.n > 0 ? int_cell(r.n) : Cell{}; }},
    {"Local", "cells", kText, Group::local_extents, kInTable,
     "the brick of each rank, LXxLYxLZ cells (--local with extents)",
     [](const Row& r) { return Cell::of(dims_string(r.size)); }},
    {"Global", "cells", kText, Group::global_box, kInTable | kInEveryFileRow,
     "the global box, GXxGYxGZ cells", [](const Row& r) { return Cell::of(dims_string(r.global)); }},
    {"H", "cells", kWhole, Group::sweep, kInTable | kInEveryFileRow, "the row's halo width",
     [](const Row& r) { return int_cell(r.halo); }},
    {"Send_B", "bytes", kWhole, Group::standard, kInTable,
     "the most bytes any rank sends to other ranks in one exchange (self faces not counted)",
     [](const Row& r) { return int_cell(r.send_max); }},
    {"Time_us", "us", 1, Group::standard, kInTable,
     "the slowest rank's time per exchange; with repeats > 1, the median of the timed blocks",
     [](const Row& r) { return Cell::of(us(r.seconds)); }},
    {"Uni_GBps", "GB/s", 3, Group::standard, kInTable, "Send_B / time / 1e9; 0 when Send_B is 0",
     [](const Row& r) { return Cell::of(uni_gbps(r.send_max, r.seconds)); }},
    {"Duplex_GBps", "GB/s", 3, Group::standard, kInTable, "2 x Uni_GBps",
     [](const Row& r) { return Cell::of(2.0 * uni_gbps(r.send_max, r.seconds)); }},
    {"RemoteFaces", "count", kWhole, Group::standard, kInTable, "the most remote faces on any rank",
     [](const Row& r) { return int_cell(r.counts.remote_faces); }},
    {"SelfFaces", "count", kWhole, Group::standard, kInTable, "the most self faces on any rank",
     [](const Row& r) { return int_cell(r.counts.self_faces); }},
    {"OffNodeFaces", "count", kWhole, Group::standard, kInTable,
     "the most remote faces to another node on any rank",
     [](const Row& r) { return int_cell(r.counts.offnode_faces); }},
    {"BoundaryFaces", "count", kWhole, Group::walls, kInTable | kInEveryFileRow,
     "the most faces on any rank that lie on a wall (an open axis, --periodic): neither sent nor filled",
     [](const Row& r) { return int_cell(r.counts.boundary_faces); }},
    {"OffNode_B", "bytes", kWhole, Group::off_node, kInTable | kInEveryFileRow,
     "the most bytes any rank sends to ranks on other nodes in one exchange (faces, edges, corners, all "
     "fields)",
     [](const Row& r) { return int_cell(r.offnode_max); }},
    {"NodeOut_B", "bytes", kWhole, Group::off_node, kInEveryFileRow,
     "the most bytes the ranks of one node together send to other nodes in one exchange",
     [](const Row& r) { return int_cell(r.node_out_max); }},
    {"RemoteEdges", "count", kWhole, Group::box, kInTable,
     "the most remote edges on any rank (--stencil box)",
     [](const Row& r) { return int_cell(r.counts.remote_edges); }},
    {"RemoteCorners", "count", kWhole, Group::box, kInTable,
     "the most remote corners on any rank (--stencil box)",
     [](const Row& r) { return int_cell(r.counts.remote_corners); }},
    {"Send_min_B", "bytes", kWhole, Group::send_min, kInTable | kInEveryFileRow,
     "the least any rank sends; equals Send_B on an even split",
     [](const Row& r) { return int_cell(r.send_min); }},
    {"Iters", "count", kWhole, Group::iters, kInTable | kInEveryFileRow,
     "the timed exchanges K of each block: --iters, or with --iters auto chosen from the warm-up",
     [](const Row& r) { return int_cell(r.iters); }},
    {"Slowest", "rank", kWhole, Group::ranks, kInTable | kInEveryFileRow,
     "the rank whose time to the end of its own K exchanges, before the trailing barrier, is the longest",
     [](const Row& r) { return int_cell(r.slowest); }},
    {"Slowest_host", "host", kText, Group::ranks, kInEveryFileRow, "the host of the Slowest rank",
     [](const Row& r) { return Cell::of(r.slowest_host); }},
    {"Skew", "ratio", 2, Group::ranks, kMayBeNa | kInTable | kInEveryFileRow,
     "the Slowest rank's time over the median rank's, each before the trailing barrier; n/a where the "
     "median rank's is 0",
     [](const Row& r) { return r.skew ? Cell::of(*r.skew) : Cell::na(); }},
    {"Min_us", "us", 1, Group::spread, kInTable,
     "the fastest timed block (each block's time the slowest rank's)",
     [](const Row& r) { return Cell::of(us(r.min_seconds.value_or(r.seconds))); }},
    {"Max_us", "us", 1, Group::spread, kInTable, "the slowest timed block",
     [](const Row& r) { return Cell::of(us(r.max_seconds.value_or(r.seconds))); }},
    {"Pack_us", "us", 1, Group::breakdown, kInTable,
     "phase of the timed exchanges: packing (0 on the datatype transport)",
     [](const Row& r) { return phase(r, &Phases::pack); }},
    {"Mpi_us", "us", 1, Group::breakdown, kInTable,
     "phase of the timed exchanges: posting, waiting, and MPI's own copies (datatypes included)",
     [](const Row& r) { return phase(r, &Phases::mpi); }},
    {"Stage_us", "us", 1, Group::breakdown, kInTable,
     "phase of the timed exchanges: the device-host copies of the staged transport (0 on the others)",
     [](const Row& r) { return phase(r, &Phases::stage); }},
    {"Unpack_us", "us", 1, Group::breakdown, kInTable,
     "phase of the timed exchanges: unpacking, and the self copies",
     [](const Row& r) { return phase(r, &Phases::unpack); }},
    {"Xfer_us", "us", 1, Group::breakdown, kInTable,
     "reference, timed on its own: MPI alone on packed contiguous buffers (receives, sends, wait)",
     [](const Row& r) { return phase(r, &Phases::xfer); }},
    {"Xfer_GBps", "GB/s", 3, Group::breakdown, kInTable,
     "Send_B / Xfer_us / 1e3: the rate of the transfer alone",
     [](const Row& r) { return r.phases ? Cell::of(uni_gbps(r.send_max, r.phases->xfer)) : Cell{}; }},
    {"Eff", "ratio", 2, Group::breakdown, kMayBeNa | kInTable,
     "Uni_GBps / Xfer_GBps (= Xfer_us / Time_us); n/a when Send_B is 0",
     [](const Row& r) {
       const auto e = efficiency(r);
       return e ? Cell::of(*e) : Cell::na();
     }},
    {"Copy_GBps", "GB/s", 3, Group::limit, kInTable,
     "Send_B / time of a contiguous copy of Send_B bytes within each rank's memory",
     [](const Row& r) { return optional_number(r.copy_gbps); }},
    {"Peer_GBps", "GB/s", 3, Group::limit, kMayBeNa | kInTable,
     "Send_B / time of a direct copy of Send_B bytes between the GPUs of a neighbouring pair; n/a where not "
     "measured",
     [](const Row& r) { return r.peer_gbps ? Cell::of(*r.peer_gbps) : Cell::na(); }},
    {"Comp_us", "us", 1, Group::overlap, kInTable, "the stencil over the owned cells alone, no exchange",
     [](const Row& r) { return r.overlap ? Cell::of(us(r.overlap->comp)) : Cell{}; }},
    {"Blocking_us", "us", 1, Group::overlap, kInTable, "the exchange, then the stencil",
     [](const Row& r) { return r.overlap ? Cell::of(us(r.overlap->blocking)) : Cell{}; }},
    {"Overlap_us", "us", 1, Group::overlap, kInTable,
     "start the exchange, the interior, finish the exchange, the border",
     [](const Row& r) { return r.overlap ? Cell::of(us(r.overlap->overlapped)) : Cell{}; }},
    {"Exposed_us", "us", 1, Group::overlap, kInTable,
     "Overlap_us - Comp_us: the halo time the interior did not hide",
     [](const Row& r) { return r.overlap ? Cell::of(us(r.overlap->overlapped - r.overlap->comp)) : Cell{}; }},
    {"Noise_us", "us", 1, Group::overlap, kInTable,
     "the largest spread (max - min) of Comp_us, Blocking_us and Overlap_us over their interleaved rounds",
     [](const Row& r) { return r.overlap ? Cell::of(us(r.overlap->noise)) : Cell{}; }},
    {"Hidden", "ratio", 2, Group::overlap, kMayBeNa | kInTable,
     "(Blocking_us - Overlap_us) / (Blocking_us - Comp_us): the share of the exchange hidden, in [0, 1]; "
     "none where the difference lies within Noise_us or the steps leave that range",
     [](const Row& r) {
       if (!r.overlap) return Cell{};
       const HiddenVerdict h = hidden_share(*r.overlap);
       return h.share ? Cell::of(*h.share) : Cell::unresolved();
     }},
    {"Comp_GBps", "GB/s", 3, Group::overlap, kInTable,
     "the stencil's own rate: bytes read and written (16 per owned cell and field) / Comp_us / 1e3",
     [](const Row& r) {
       return r.overlap ? Cell::of(uni_gbps(r.overlap->stencil_bytes, r.overlap->comp)) : Cell{};
     }},
    {"Field_MiB", "MiB", 1, Group::hugepages, kInFilesOfItsGroup, "the fields of the largest rank",
     [](const Row& r) { return r.huge ? Cell::of(r.huge->field_max) : Cell{}; }},
    {"Huge_MiB", "MiB", 1, Group::hugepages, kInFilesOfItsGroup,
     "of the fields, the least any rank has in huge pages (AnonHugePages of /proc/self/smaps)",
     [](const Row& r) { return r.huge ? Cell::of(r.huge->huge_min) : Cell{}; }},
};

// A rate keeps at least 3 significant digits: more decimals below 0.1 GB/s, so
// a slow row (0.0000712) never prints as 0.000, which reads as nothing crossed.
int decimals_of(const Column& c, double v) {
  if (std::strcmp(c.unit, "GB/s") != 0 || v == 0 || !std::isfinite(v)) return c.decimals;
  // Decided on the value rounded to 3 significant digits, so that 0.0009996 prints 0.00100 (as
  // the printed value would decide), not 0.001000.
  const double rounded = std::stod(fmt::format("{:.2e}", v));
  const int significant = 2 - static_cast<int>(std::floor(std::log10(std::fabs(rounded))));
  return std::clamp(significant, c.decimals, 15);
}

std::string fixed(const Column& c, const Cell& v) {
  if (v.kind == Cell::Kind::text) return v.text;
  if (v.kind == Cell::Kind::integer) return std::to_string(v.integer);
  return fmt::format("{:.{}f}", v.number, decimals_of(c, v.number));
}

}  // namespace

const std::vector<Column>& columns() { return kColumns; }

std::vector<const Column*> table_columns(const Groups& groups) {
  std::vector<const Column*> out;
  for (const Column& c : kColumns) {
    if (groups.has(c.group) && c.in_table()) out.push_back(&c);
  }
  return out;
}

bool in_files(const Column& c, const Groups& groups) { return c.always_in_files() || groups.has(c.group); }

std::string table_text(const Column& c, const Cell& v) {
  switch (v.kind) {
    case Cell::Kind::absent:
    case Cell::Kind::na:
      return "n/a";
    case Cell::Kind::unresolved:
      return "-";
    case Cell::Kind::integer:
    case Cell::Kind::number:
    case Cell::Kind::text:
      return fixed(c, v);
  }
  return fixed(c, v);
}

std::string csv_text(const Column& c, const Cell& v) {
  switch (v.kind) {
    case Cell::Kind::absent:
    case Cell::Kind::unresolved:
      return "";
    case Cell::Kind::na:
      return "n/a";
    case Cell::Kind::integer:
    case Cell::Kind::number:
    case Cell::Kind::text:
      return fixed(c, v);
  }
  return fixed(c, v);
}

std::string format_columns(const Groups& groups) {
  std::string s = "#";
  for (const Column* c : table_columns(groups)) s += std::string(" ") + c->name;
  return s + "\n";
}

std::vector<std::string> row_fields(const Row& row, const Groups& groups) {
  std::vector<std::string> f;
  for (const Column* c : table_columns(groups)) f.push_back(table_text(*c, c->value(row)));
  return f;
}

std::string format_row(const Row& row, const Groups& groups) {
  std::string s;
  for (const auto& field : row_fields(row, groups)) s += (s.empty() ? "" : " ") + field;
  return s + "\n";
}

}  // namespace halobw
