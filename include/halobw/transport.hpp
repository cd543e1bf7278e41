// How faces travel, chosen once per run and printed in the header.
#pragma once

#include <string>

namespace halobw {

enum class Transport {
  datatype,  // MPI subarray datatypes straight from the field (contiguous 0)
  direct,    // packed contiguous buffers in the field's memory given to MPI (contiguous 1)
  staged,    // packed buffers copied to host memory for MPI and back (contiguous 1)
};

[[nodiscard]] inline std::string to_string(Transport t) {
  switch (t) {
    case Transport::direct: return "direct";
    case Transport::staged: return "staged";
    default: return "datatype";
  }
}

[[nodiscard]] inline bool packs(Transport t) { return t != Transport::datatype; }

}  // namespace halobw
