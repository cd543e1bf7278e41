// The copies of one rank's exchange, fixed at set-up from its piece and
// message tables: every message's fields into (and out of) its place in the
// packed buffers, all at once and in batches, and the self pieces from owned
// into ghost cells. This is the one place that says which cells go where;
// a CopyList runs its boxes with the mapping of its execution space (one
// fused launch on a device, one pass over the lines on the host). The
// exchanger runs them; the kernel tests run the device mapping of the same
// lists on the host against the host's.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/exchange/kernels.hpp"
#include "halobw/exchange/line_pass.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"

namespace halobw {

// Where one rank's copies read and write: the first value of each field and
// of the packed buffers (null where there are none).
struct CopyTargets {
  std::vector<double*> fields;
  double* send = nullptr;
  double* recv = nullptr;
};

// Box b of a field of the padded extents, as strides.
[[nodiscard]] inline StridedBox field_box(double* field, const Index3& padded, const Box& b) {
  const std::int64_t px = padded[0];
  const std::int64_t py = padded[1];
  return {field + b.lo[0] + px * (b.lo[1] + py * b.lo[2]), px, px * py};
}

// Field f of a message's part in a packed buffer: the part's fields one after
// another, each box x fastest.
[[nodiscard]] inline StridedBox buffer_box(double* buffer, const Part& part, int f, const Box& b) {
  return {buffer + part.offset + static_cast<std::size_t>(f) * static_cast<std::size_t>(b.cells()),
          b.extent(0), b.extent(0) * b.extent(1)};
}

// A list of copies between boxes of fields of the padded extents and their
// other sides, fixed at set-up and run as one unit: on a device one fused
// launch (FusedCopy, a thread per cell of every box), on the host one pass
// over the lines the boxes share (LinePass).
template <class ExecSpace, class MemSpace>
class CopyList {
 public:
  CopyList() = default;
  CopyList(Flow flow, const Index3& padded) : flow_(flow), padded_(padded) {}

  // Throws if one box is too large for 32-bit indices.
  void add(const BoxCopy& c) {
    if (c.box.empty()) return;
    const std::int64_t cells = c.box.cells();
    if (cells >= (std::int64_t{1} << 32))
      throw std::length_error("a box of more than 2^32 cells in one copy");
    const StridedBox in_field = field_box(c.field, padded_, c.box);
    CopyJob j;
    switch (flow_) {
      case Flow::out_of_field:
        j.dst = c.other;
        j.src = in_field;
        break;
      case Flow::into_field:
        j.dst = in_field;
        j.src = c.other;
        break;
    }
    j.ex = static_cast<std::uint32_t>(c.box.extent(0));
    j.ey = static_cast<std::uint32_t>(c.box.extent(1));
    j.ez = static_cast<std::uint32_t>(c.box.extent(2));
    list_.add(j, cells);
    if constexpr (runs_on_host<ExecSpace>) boxes_.push_back(c);
  }

  // Makes the mapping: the job table where the device reads it, or the host's line pass.
  void commit() {
    if constexpr (runs_on_host<ExecSpace>) {
      rows_ = LinePass(flow_, padded_, boxes_);
    } else {
      list_.commit("halobw::copy_jobs");
    }
  }

  void run(const ExecSpace& exec, const char* label) const {
    if (list_.count() == 0) return;
    if constexpr (runs_on_host<ExecSpace>) {
      rows_.run(exec, label);
    } else {
      Kokkos::parallel_for(
          label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, list_.cells()),
          FusedCopy<typename JobList<CopyJob, ExecSpace, MemSpace>::Jobs>{list_.device(), list_.count()});
    }
  }

  // Each box as one job (the device mapping's table, kept on the host too).
  [[nodiscard]] const std::vector<CopyJob>& jobs() const { return list_.jobs(); }
  [[nodiscard]] std::int64_t cells() const { return list_.cells(); }

 private:
  Flow flow_ = Flow::out_of_field;
  Index3 padded_{0, 0, 0};
  JobList<CopyJob, ExecSpace, MemSpace> list_;
  std::vector<BoxCopy> boxes_;  // host: what the line pass is built from
  LinePass rows_;
};

// A batch: messages whose copies run as one list. On the pipelined schedule
// a pack batch's messages are sent when its list has run, and an unpack
// batch's list runs once all of its messages have landed. On a device each
// message is a batch; on the host a batch is the messages whose boxes share
// lines (line_groups), so that each line is visited once. (A "stage", elsewhere,
// is only the staged transport's copy between device and host.)
template <class ExecSpace, class MemSpace>
struct CopyBatch {
  std::vector<int> messages;  // in the table's order
  CopyList<ExecSpace, MemSpace> copy;
};

template <class ExecSpace, class MemSpace>
struct CopyPlan {
  CopyList<ExecSpace, MemSpace> pack_all;  // bulk schedule
  CopyList<ExecSpace, MemSpace> unpack_all;
  std::vector<CopyBatch<ExecSpace, MemSpace>> pack;  // pipelined schedule
  std::vector<CopyBatch<ExecSpace, MemSpace>> unpack;
  std::vector<int> unpack_batch;  // of each message
  CopyList<ExecSpace, MemSpace> self;
};

// The batches of one side: the host's line groups, or one message each.
template <class ExecSpace>
std::vector<std::vector<int>> copy_batches(const RankPlan& plan, const MessageTable& table, BoxSide side) {
  if constexpr (runs_on_host<ExecSpace>) {
    return line_groups(plan, table, side);
  } else {
    std::vector<std::vector<int>> one_each;
    for (std::size_t m = 0; m < table.messages.size(); ++m) one_each.push_back({static_cast<int>(m)});
    return one_each;
  }
}

// `packs`: whether messages travel packed (else only the self copies are made).
template <class ExecSpace, class MemSpace>
CopyPlan<ExecSpace, MemSpace> make_copy_plan(const RankPlan& plan, const MessageTable& table,
                                             const CopyTargets& to, bool packs) {
  using List = CopyList<ExecSpace, MemSpace>;
  CopyPlan<ExecSpace, MemSpace> c;
  c.pack_all = List(Flow::out_of_field, plan.padded);
  c.unpack_all = List(Flow::into_field, plan.padded);
  c.self = List(Flow::into_field, plan.padded);
  // Message m's fields: owned cells into (pack) or ghost cells from (unpack) the packed buffers.
  auto add_message = [&](List& list, BoxSide side, int m) {
    const Message& msg = table.messages[static_cast<std::size_t>(m)];
    const bool send = side == BoxSide::send;
    for (const Part& part : msg.parts) {
      const Piece& piece = plan.pieces[static_cast<std::size_t>(part.piece)];
      if (send ? !piece.sends() : !piece.receives()) continue;  // a wall on that side: no cells travel
      const Box& box = send ? piece.send_box : piece.recv_box;
      for (int f = 0; f < msg.fields; ++f) {
        double* field = to.fields[static_cast<std::size_t>(msg.first_field) + static_cast<std::size_t>(f)];
        list.add({field, box, buffer_box(send ? to.send : to.recv, part, f, box)});
      }
    }
  };
  auto batches = [&](BoxSide side, Flow flow) {
    std::vector<CopyBatch<ExecSpace, MemSpace>> out;
    for (std::vector<int>& messages : copy_batches<ExecSpace>(plan, table, side)) {
      CopyBatch<ExecSpace, MemSpace> s{std::move(messages), List(flow, plan.padded)};
      for (const int m : s.messages) add_message(s.copy, side, m);
      s.copy.commit();
      out.push_back(std::move(s));
    }
    return out;
  };
  if (packs) {
    for (std::size_t m = 0; m < table.messages.size(); ++m) {
      add_message(c.pack_all, BoxSide::send, static_cast<int>(m));
      add_message(c.unpack_all, BoxSide::recv, static_cast<int>(m));
    }
    c.pack_all.commit();
    c.unpack_all.commit();
    c.pack = batches(BoxSide::send, Flow::out_of_field);
    c.unpack = batches(BoxSide::recv, Flow::into_field);
    c.unpack_batch.assign(table.messages.size(), 0);
    for (std::size_t s = 0; s < c.unpack.size(); ++s) {
      for (const int m : c.unpack[s].messages)
        c.unpack_batch[static_cast<std::size_t>(m)] = static_cast<int>(s);
    }
  }
  for (const int p : table.copies) {
    const Piece& piece = plan.pieces[static_cast<std::size_t>(p)];
    for (int f = 0; f < plan.fields; ++f) {
      double* field = to.fields[static_cast<std::size_t>(f)];
      c.self.add({field, piece.recv_box, field_box(field, plan.padded, piece.send_box)});
    }
  }
  c.self.commit();
  return c;
}

}  // namespace halobw
