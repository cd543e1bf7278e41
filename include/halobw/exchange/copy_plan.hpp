// The copies of one rank's exchange, fixed at set-up from its piece and
// message tables: every message's fields into (and out of) its place in the
// packed buffers, all at once and one message at a time, and the self pieces
// from owned into ghost cells. The exchanger runs them; the kernel tests run
// the device mapping of the same lists on the host.
#pragma once

#include <cstdint>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/exchange/kernels.hpp"
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

// Field f of message `msg` in a packed buffer: the fields one after another,
// each box x fastest.
[[nodiscard]] inline StridedBox buffer_box(double* buffer, const Message& msg, int f, const Box& b) {
  return {buffer + msg.offset + static_cast<std::size_t>(f) * static_cast<std::size_t>(b.cells()),
          b.extent(0), b.extent(0) * b.extent(1)};
}

template <class ExecSpace, class MemSpace>
struct CopyPlan {
  CopyList<ExecSpace, MemSpace> pack_all;
  CopyList<ExecSpace, MemSpace> unpack_all;
  std::vector<CopyList<ExecSpace, MemSpace>> pack;  // per message
  std::vector<CopyList<ExecSpace, MemSpace>> unpack;
  CopyList<ExecSpace, MemSpace> self;
};

// `packs`: whether messages travel packed (else only the self copies are made).
template <class ExecSpace, class MemSpace>
CopyPlan<ExecSpace, MemSpace> make_copy_plan(const RankPlan& plan, const MessageTable& table,
                                             const CopyTargets& to, bool packs) {
  CopyPlan<ExecSpace, MemSpace> c;
  auto field = [&](int f, const Box& b) {
    return field_box(to.fields[static_cast<std::size_t>(f)], plan.padded, b);
  };
  if (packs) {
    for (const Message& msg : table.messages) {
      CopyList<ExecSpace, MemSpace> pack;
      CopyList<ExecSpace, MemSpace> unpack;
      const Piece& piece = plan.pieces[static_cast<std::size_t>(msg.piece)];
      for (int f = 0; f < msg.fields; ++f) {
        const StridedBox out = buffer_box(to.send, msg, f, piece.send_box);
        const StridedBox in = buffer_box(to.recv, msg, f, piece.recv_box);
        const StridedBox owned = field(msg.first_field + f, piece.send_box);
        const StridedBox ghost = field(msg.first_field + f, piece.recv_box);
        pack.add(out, owned, piece.send_box.extents());
        c.pack_all.add(out, owned, piece.send_box.extents());
        unpack.add(ghost, in, piece.recv_box.extents());
        c.unpack_all.add(ghost, in, piece.recv_box.extents());
      }
      pack.commit();
      unpack.commit();
      c.pack.push_back(std::move(pack));
      c.unpack.push_back(std::move(unpack));
    }
    c.pack_all.commit();
    c.unpack_all.commit();
  }
  for (const int p : table.copies) {
    const Piece& piece = plan.pieces[static_cast<std::size_t>(p)];
    for (int f = 0; f < plan.fields; ++f) {
      c.self.add(field(f, piece.recv_box), field(f, piece.send_box), piece.send_box.extents());
    }
  }
  c.self.commit();
  return c;
}

}  // namespace halobw
