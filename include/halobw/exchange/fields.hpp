// The fields a row exchanges: K padded bricks, each its own allocation,
// owned here (or, where the method places the fields, by its home) and lent
// to the exchanger, the checker and the stencil.
#pragma once

#include <string>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/exchange/allocation.hpp"
#include "halobw/exchange/method.hpp"

namespace halobw {

template <class MemSpace>
class FieldSet {
 public:
  using View = FieldView<MemSpace>;

  FieldSet(const Index3& padded, int count, Placement placement = Placement::standard,
           const std::string& label = "halobw::field", FieldHome* home = nullptr) {
    const std::size_t values = static_cast<std::size_t>(padded[0]) * static_cast<std::size_t>(padded[1]) *
                               static_cast<std::size_t>(padded[2]);
    for (int k = 0; k < count; ++k) {
      const std::size_t bytes = values * sizeof(double);
      owners_.push_back(home ? home->allocate(bytes, label) : allocate<MemSpace>(bytes, placement, label));
      views_.emplace_back(static_cast<double*>(owners_.back().data()), padded[0], padded[1], padded[2]);
      Kokkos::deep_copy(views_.back(), 0.0);  // first touch where the memory lives
    }
  }

  [[nodiscard]] int size() const { return static_cast<int>(views_.size()); }
  [[nodiscard]] const View& operator[](int k) const { return views_[static_cast<std::size_t>(k)]; }
  [[nodiscard]] const std::vector<View>& views() const { return views_; }
  [[nodiscard]] const std::vector<Allocation>& allocations() const { return owners_; }

 private:
  std::vector<Allocation> owners_;
  std::vector<View> views_;
};

}  // namespace halobw
