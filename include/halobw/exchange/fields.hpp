// The fields a row exchanges: K padded bricks, each its own allocation (or,
// for the direct method, one after another in this rank's segment of the
// node's shared window), owned here and lent to the exchanger, the checker
// and the stencil.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/exchange/allocation.hpp"
#include "halobw/exchange/method.hpp"
#include "halobw/exchange/node_window.hpp"

namespace halobw {

template <class MemSpace>
class FieldSet {
 public:
  using View = FieldView<MemSpace>;

  FieldSet(const Index3& padded, int count, Placement placement = Placement::standard,
           const std::string& label = "halobw::field") {
    const std::size_t values = static_cast<std::size_t>(padded[0]) * static_cast<std::size_t>(padded[1]) *
                               static_cast<std::size_t>(padded[2]);
    for (int k = 0; k < count; ++k) {
      owners_.push_back(allocate<MemSpace>(values * sizeof(double), placement, label));
      views_.emplace_back(static_cast<double*>(owners_.back().data()), padded[0], padded[1], padded[2]);
      Kokkos::deep_copy(views_.back(), 0.0);  // first touch where the memory lives
    }
  }

  // In `window` (host memory, zeroed by it), which the fields keep alive.
  FieldSet(const Index3& padded, int count, std::shared_ptr<const NodeWindow> window)
      : window_(std::move(window)) {
    const std::size_t values = static_cast<std::size_t>(padded[0]) * static_cast<std::size_t>(padded[1]) *
                               static_cast<std::size_t>(padded[2]);
    for (int k = 0; k < count; ++k) {
      views_.emplace_back(window_->fields() + static_cast<std::size_t>(k) * values, padded[0], padded[1],
                          padded[2]);
    }
  }

  [[nodiscard]] int size() const { return static_cast<int>(views_.size()); }
  [[nodiscard]] const View& operator[](int k) const { return views_[static_cast<std::size_t>(k)]; }
  [[nodiscard]] const std::vector<View>& views() const { return views_; }
  // The memory the fields occupy: each allocation, or the fields' span of the window.
  [[nodiscard]] std::vector<Region> regions() const {
    std::vector<Region> out;
    for (const Allocation& a : owners_) out.push_back({a.data(), a.bytes()});
    if (window_ && !views_.empty())
      out.push_back({views_.front().data(), views_.size() * views_.front().span() * sizeof(double)});
    return out;
  }

 private:
  std::vector<Allocation> owners_;  // none in a window
  std::shared_ptr<const NodeWindow> window_;
  std::vector<View> views_;
};

}  // namespace halobw
