#include <gtest/gtest.h>

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
  EXPECT_EQ(format_row(row, false), "64 65536 31.1 2.104 4.209 2 0 0\n");
  row.seconds = 31.15e-6;
  EXPECT_EQ(format_row(row, false), "64 65536 31.1 2.104 4.208 2 0 0\n");
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
  EXPECT_EQ(format_row(row, false), "16 0 2.0 0.000 0.000 0 2 0\n");
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
  EXPECT_EQ(format_row(row, true), "17 9792 10.0 0.979 1.958 4 2 1 8704\n");
  EXPECT_EQ(format_columns(false),
            "# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces\n");
  EXPECT_EQ(format_columns(true),
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
  EXPECT_EQ(lines[7], "# grid_source auto transport datatype");
  EXPECT_EQ(lines[8], "# Uni_GBps = remote send bytes / time / 1e9; Duplex_GBps = 2 * Uni_GBps");
  EXPECT_EQ(lines[9], "# a note");
}
