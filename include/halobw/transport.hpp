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
    case Transport::direct:
      return "direct";
    case Transport::staged:
      return "staged";
    default:
      return "datatype";
  }
}

[[nodiscard]] inline bool packs(Transport t) { return t != Transport::datatype; }

// When packed faces are sent and unpacked (packing transports only).
enum class Schedule {
  bulk,       // pack every face, send all, wait for all, unpack every face
  pipelined,  // send each face as soon as it is packed, unpack each as it lands
};

[[nodiscard]] inline std::string to_string(Schedule s) { return s == Schedule::bulk ? "bulk" : "pipelined"; }

}  // namespace halobw
