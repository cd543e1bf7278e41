// --dry-run at scale, one process and no MPI: 8192 ranks, 16 per node, N = 4096,
// all six faces, against the formulas of the box (not the code's).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "halobw/app/dry_run.hpp"
#include "halobw/cli/options.hpp"

namespace halobw {
namespace {

// The rows of a dry run's table, each as its fields by column name.
std::vector<std::vector<std::pair<std::string, std::string>>> rows_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> cols;
  std::vector<std::vector<std::pair<std::string, std::string>>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# N ", 0) == 0 || line.rfind("# Global ", 0) == 0) {
      std::istringstream c(line.substr(2));
      for (std::string w; c >> w;) cols.push_back(w);
    } else if (!line.empty() && line[0] != '#') {
      std::istringstream f(line);
      std::vector<std::pair<std::string, std::string>> row;
      for (std::size_t i = 0; i < cols.size(); ++i) {
        std::string w;
        f >> w;
        row.emplace_back(cols[i], w);
      }
      rows.push_back(row);
    }
  }
  return rows;
}

std::string field(const std::vector<std::pair<std::string, std::string>>& row, const std::string& name) {
  for (const auto& [k, v] : row) {
    if (k == name) return v;
  }
  return "(none)";
}

// A box of extents heads its size column Global, as the real run's table does,
// and prints a cube among boxes as extents too.
TEST(DryRun, ExtentsUnderGlobal) {
  Options o;
  o.dry_run = true;
  o.ranks = 4;
  o.sizes = {{16, 32, 32}, {16, 16, 16}};
  o.axes = {false, false, true};
  ::testing::internal::CaptureStdout();
  const int code = dry_run_alone(o, process_environment());
  const std::string text = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(code, 0) << text;
  EXPECT_NE(text.find("\n# Global Send_B "), std::string::npos) << text;
  EXPECT_EQ(text.find("\n# N "), std::string::npos) << text;
  EXPECT_NE(text.find("\n16x32x32 "), std::string::npos) << text;
  EXPECT_NE(text.find("\n16x16x16 "), std::string::npos) << text;
}

TEST(DryRun, EightThousandRanksAgainstTheBoxsFormulas) {
  Options o;
  o.dry_run = true;
  o.ranks = 8192;
  o.ranks_per_node = 16;
  o.sizes = {{4096, 4096, 4096}};
  o.all_faces = true;
  o.axes = {true, true, true};
  o.placements = {RankPlacement::linear, RankPlacement::nodes};
  ::testing::internal::CaptureStdout();
  const int code = dry_run_alone(o, process_environment());
  const std::string text = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(code, 0) << text;
  // 8192 = 2^13 ranks: the least gx + gy + gz is 16 + 16 + 32, z cut most.
  EXPECT_NE(text.find("# ranks 8192 nodes 512 grid 16x16x32 "), std::string::npos) << text;
  const auto rows = rows_of(text);
  ASSERT_EQ(rows.size(), 2u) << text;
  // Bricks 256 x 256 x 128; a face normal to x or y is 8 B x 256 x 128, one normal to z 8 B x 256 x 256.
  const std::uint64_t fx = 8ull * 256 * 128;
  const std::uint64_t fz = 8ull * 256 * 256;
  for (const auto& row : rows) {
    EXPECT_EQ(field(row, "Send_B"), std::to_string(2 * (fx + fx + fz)));
    EXPECT_EQ(field(row, "Send_min_B"), field(row, "Send_B"));
    EXPECT_EQ(field(row, "RemoteFaces"), "6");
    EXPECT_EQ(field(row, "SelfFaces"), "0");
    EXPECT_EQ(field(row, "Brick_min"), "256x256x128");
    EXPECT_EQ(field(row, "Brick_max"), "256x256x128");
  }
  // Linear: a node's 16 ranks are one whole row of the grid along x (gx = 16):
  // its x faces stay, its y and z faces leave.
  EXPECT_EQ(field(rows[0], "Placement"), "linear");
  EXPECT_EQ(field(rows[0], "OffNodeFaces"), "4");
  EXPECT_EQ(field(rows[0], "OffNode_B"), std::to_string(2 * fx + 2 * fz));
  EXPECT_EQ(field(rows[0], "NodeOut_B"), std::to_string(16 * (2 * fx + 2 * fz)));
  // Nodes: a 2x2x4 block per node (of the blocks of 16 ranks that tile
  // 16x16x32, the fewest bytes off a node, and the least surface, 20): a rank
  // at a block's corner sends one face of each axis off the node; the block
  // sends 2 x 8 x faces, 2 x 8 y faces and 2 x 4 z faces.
  EXPECT_NE(text.find("each holding a 2x2x4 block of ranks"), std::string::npos) << text;
  EXPECT_EQ(field(rows[1], "Placement"), "nodes");
  EXPECT_EQ(field(rows[1], "OffNodeFaces"), "3");
  EXPECT_EQ(field(rows[1], "OffNode_B"), std::to_string(fx + fx + fz));
  EXPECT_EQ(field(rows[1], "NodeOut_B"), std::to_string(16 * fx + 16 * fx + 8 * fz));
  // Memory: the padded field of the largest rank, 258 x 258 x 130 doubles, at least.
  EXPECT_GE(std::stoull(field(rows[0], "Rank_B")), 8ull * 258 * 258 * 130);
  EXPECT_GE(std::stoull(field(rows[0], "Node_B")), 16 * std::stoull(field(rows[0], "Rank_B")) / 2);
}

// 4 ranks as 2 nodes of 2 on 2x2x1: at 256x512x256 (bricks 128x256x256) an x
// face is twice a y face. nodes chooses for the largest row a 2x1x1 block,
// whose nodes send y faces: as rank order does, not twice it (the block of
// least surface in ranks, 1x2x1, sent the x faces).
TEST(DryRun, NodesChoosesByTheBytesThatLeaveTheNodes) {
  Options o;
  o.dry_run = true;
  o.ranks = 4;
  o.ranks_per_node = 2;
  o.grid = Dims3{2, 2, 1};
  o.sizes = {{64, 128, 64}, {256, 512, 256}};
  o.all_faces = true;
  o.axes = {true, true, true};
  o.placements = {RankPlacement::linear, RankPlacement::nodes};
  ::testing::internal::CaptureStdout();
  const int code = dry_run_alone(o, process_environment());
  const std::string text = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(code, 0) << text;
  EXPECT_NE(
      text.find("# placement nodes: 2 nodes as a 1x2x1 grid, each holding a 2x1x1 block of ranks (of the "
                "blocks that tile the grid, the fewest bytes off a node at 256x512x256 halo 1: NodeOut_B "
                "1048576, OffNode_B 524288; rank order 1048576, 524288)"),
      std::string::npos)
      << text;
  const auto rows = rows_of(text);
  ASSERT_EQ(rows.size(), 4u) << text;
  for (std::size_t i = 0; i < rows.size(); i += 2) {
    EXPECT_EQ(field(rows[i], "Placement"), "linear");
    EXPECT_EQ(field(rows[i + 1], "Placement"), "nodes");
    EXPECT_LE(std::stoull(field(rows[i + 1], "OffNode_B")), std::stoull(field(rows[i], "OffNode_B")));
    EXPECT_LE(std::stoull(field(rows[i + 1], "NodeOut_B")), std::stoull(field(rows[i], "NodeOut_B")));
  }
  EXPECT_EQ(field(rows[3], "OffNode_B"), std::to_string(2ull * 8 * 128 * 256));  // two y faces a rank
}

TEST(DryRun, RefusesFilesAndBadLayouts) {
  Options o;
  o.dry_run = true;
  o.ranks = 4;
  o.format = Format::json;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(dry_run_alone(o, process_environment()), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("--dry-run prints its plan as a table"),
            std::string::npos);
  o.format = Format::table;
  o.grid = Dims3{3, 1, 1};  // 3 ranks, not 4
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(dry_run_alone(o, process_environment()), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("has 3 ranks, but the job has 4"),
            std::string::npos);
}

}  // namespace
}  // namespace halobw
