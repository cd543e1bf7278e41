// GoogleTest under MPI: MPI and Kokkos up once for the whole run, every rank
// runs every test, rank 0 prints the report, other ranks print only their
// failures, and all ranks exit with the same code.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

#include "halobw/platform/process.hpp"

namespace {

class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed()) {
      std::fprintf(stderr, "[rank %d] %s:%d: %s\n", rank_, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
    }
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  halobw::Process process(argc, argv);
  process.start_kokkos(-1);
  int code = 0;
  {
    ::testing::InitGoogleTest(&argc, argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    if (rank != 0) {
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new FailurePrinter(rank));
    }
    const int mine = RUN_ALL_TESTS();
    MPI_Allreduce(&mine, &code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  return code;
}
