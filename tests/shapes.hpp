// Shapes the tests exchange: a cube of side n over the faces of `axes`.
#pragma once

#include <cstdint>

#include "halobw/plan/pieces.hpp"

namespace halobw::testing {

inline Shape cube(std::int64_t n, int halo, const AxisSet& axes, int fields = 1) {
  Shape s;
  s.global = {n, n, n};
  s.halo = halo;
  s.dirs = star_directions(axes);
  s.fields = fields;
  return s;
}

}  // namespace halobw::testing
