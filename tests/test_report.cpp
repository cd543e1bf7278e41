#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "halobw/report.hpp"

using namespace halobw;

TEST(Report, SeedRowFormat) {
  // 001's row: 64 65536 31.1 2.104 4.209 2 0 0. The rates come from the
  // unrounded time (31.142 us), not the printed one.
  Row row;
  row.n = 64;
  row.send_max = row.send_min = 65536;
  row.seconds = 31.142e-6;
  row.remote_faces = 2;
  EXPECT_EQ(format_row(row, Columns{}), "64 65536 31.1 2.104 4.209 2 0 0\n");
  row.seconds = 31.15e-6;
  EXPECT_EQ(format_row(row, Columns{}), "64 65536 31.1 2.104 4.208 2 0 0\n");
}

TEST(Report, RatesFollowBytesAndTime) {
  EXPECT_DOUBLE_EQ(uni_gbps(1000000000, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(uni_gbps(67108864, 1173.9e-6), 67108864 / 1173.9e-6 / 1e9);
  EXPECT_EQ(uni_gbps(0, 1.0), 0.0);
  EXPECT_EQ(uni_gbps(100, 0.0), 0.0);
  Row row;
  row.n = 16;
  row.seconds = 2e-6;
  row.self_faces = 2;
  EXPECT_EQ(format_row(row, Columns{}), "16 0 2.0 0.000 0.000 0 2 0\n");
}

TEST(Report, SendMinColumn) {
  Row row;
  row.n = 17;
  row.send_max = 9792;
  row.send_min = 8704;
  row.seconds = 1e-5;
  row.remote_faces = 4;
  row.self_faces = 2;
  row.offnode_faces = 1;
  EXPECT_EQ(format_row(row, Columns{true}), "17 9792 10.0 0.979 1.958 4 2 1 8704\n");
  EXPECT_EQ(format_columns(Columns{}),
            "# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces\n");
  EXPECT_EQ(format_columns(Columns{true}),
            "# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces Send_min_B\n");
}

TEST(Report, HeaderLines) {
  HeaderInfo h;
  h.version = "9.9";
  h.ranks = 2;
  h.grid = "1x1x2";
  h.grid_source = "auto";
  h.directions = "z";
  h.pack = "datatype";
  h.self = "copy";
  h.gpu_aware = "n/a";
  h.transport = "datatype";
  h.schedule = "-";
  h.rank_device = {-1, -1};
  h.rank_host = {"a", "b"};
  h.nodes = 2;
  h.notes = {"a note"};
  const std::string s = format_header(h);
  std::istringstream in(s);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_EQ(lines[0], "# halo-bandwidth 9.9");
  EXPECT_EQ(lines[1], "# backend host device host");
  EXPECT_EQ(lines[2], "# ranks 2 nodes 2 grid 1x1x2 directions z halo 1 iters 50 warmup 5");
  EXPECT_EQ(lines[3], "# pack datatype self copy");
  EXPECT_EQ(lines[4], "# gpu_aware n/a contiguous 0");
  EXPECT_EQ(lines[5], "# rank_device 0:-1 1:-1");
  EXPECT_EQ(lines[6], "# rank_host 0:a 1:b");
  EXPECT_EQ(lines[7], "# grid_source auto transport datatype schedule -");
  EXPECT_EQ(lines[8], "# Uni_GBps = remote send bytes / time / 1e9; Duplex_GBps = 2 * Uni_GBps");
  EXPECT_EQ(lines[9], "# a note");
}

TEST(Report, OptionalColumnsFollowTheStandardOnes) {
  const Columns all{true, true, true, true};
  const auto names = column_names(all);
  const std::vector<std::string> want{"N",           "Send_B",    "Time_us",      "Uni_GBps",   "Duplex_GBps",
                                      "RemoteFaces", "SelfFaces", "OffNodeFaces", "Send_min_B", "Min_us",
                                      "Max_us",      "Pack_us",   "Xfer_us",      "Stage_us",   "Unpack_us",
                                      "Xfer_GBps",   "Eff",       "Copy_GBps",    "Peer_GBps"};
  EXPECT_EQ(names, want);
  Row row;
  row.n = 64;
  row.send_max = row.send_min = 65536;
  row.seconds = 20e-6;
  row.remote_faces = 2;
  row.min_seconds = 18e-6;
  row.max_seconds = 25e-6;
  row.phases = Phases{2e-6, 16e-6, 0.0, 3e-6};
  row.copy_gbps = 12.3456;
  // Uni 3.277, Xfer_GBps = 65536 / 16 us = 4.096, Eff = 16 / 20 = 0.80.
  EXPECT_EQ(format_row(row, all),
            "64 65536 20.0 3.277 6.554 2 0 0 65536 18.0 25.0 2.0 16.0 0.0 3.0 4.096 0.80 12.346 n/a\n");
  // The standard columns are the same with or without the optional ones.
  const auto fields = row_fields(row, all);
  const auto plain = row_fields(row, Columns{});
  EXPECT_TRUE(std::equal(plain.begin(), plain.end(), fields.begin()));
  Row none = row;
  none.send_max = 0;
  EXPECT_FALSE(efficiency(none).has_value());
  ASSERT_TRUE(efficiency(row).has_value());
  EXPECT_DOUBLE_EQ(*efficiency(row), 0.8);
}

TEST(Report, SpreadIsMedianMinMax) {
  const Spread odd = spread({3.0, 1.0, 2.0});
  EXPECT_EQ(odd.median, 2.0);
  EXPECT_EQ(odd.min, 1.0);
  EXPECT_EQ(odd.max, 3.0);
  EXPECT_EQ(spread({4.0, 1.0, 2.0, 3.0}).median, 2.5);
  EXPECT_EQ(spread({5.0}).median, 5.0);
}
