#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "halobw/app/header.hpp"
#include "halobw/measure/clock.hpp"
#include "halobw/platform/reduce.hpp"
#include "halobw/report/columns.hpp"
#include "halobw/report/output.hpp"
#include "halobw/report/report.hpp"
#include "halobw/report/results.hpp"

using namespace halobw;

TEST(Report, SeedRowFormat) {
  // 001's row: 64 65536 31.1 2.104 4.209 2 0 0. The rates come from the
  // unrounded time (31.142 us), not the printed one.
  Row row;
  row.n = 64;
  row.send_max = row.send_min = 65536;
  row.seconds = 31.142e-6;
  row.counts.remote_faces = 2;
  EXPECT_EQ(format_row(row, Groups{}), "64 65536 31.1 2.104 4.209 2 0 0\n");
  row.seconds = 31.15e-6;
  EXPECT_EQ(format_row(row, Groups{}), "64 65536 31.1 2.104 4.208 2 0 0\n");
}

TEST(Report, RatesFollowBytesAndTime) {
  EXPECT_DOUBLE_EQ(uni_gbps(1000000000, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(uni_gbps(67108864, 1173.9e-6), 67108864 / 1173.9e-6 / 1e9);
  EXPECT_EQ(uni_gbps(0, 1.0), 0.0);
  EXPECT_EQ(uni_gbps(100, 0.0), 0.0);
  Row row;
  row.n = 16;
  row.seconds = 2e-6;
  row.counts.self_faces = 2;
  EXPECT_EQ(format_row(row, Groups{}), "16 0 2.0 0.000 0.000 0 2 0\n");
}

// A slow row keeps 3 significant digits of its rates, in the table and the CSV:
// 0.000 is kept for the rows where nothing crossed.
TEST(Report, SlowRatesKeepThreeSignificantDigits) {
  Row row;
  row.n = 8;
  row.send_max = row.send_min = 1024;
  row.seconds = 14484.0e-6;
  row.counts.remote_faces = 2;
  EXPECT_EQ(format_row(row, Groups{}), "8 1024 14484.0 0.0000707 0.000141 2 0 0\n");
  const auto& uni = *std::find_if(columns().begin(), columns().end(),
                                  [](const Column& c) { return std::string(c.name) == "Uni_GBps"; });
  EXPECT_EQ(csv_text(uni, Cell::of(7.0699e-5)), "0.0000707");
  EXPECT_EQ(csv_text(uni, Cell::of(0.0999)), "0.0999");
  EXPECT_EQ(csv_text(uni, Cell::of(0.1)), "0.100");
  EXPECT_EQ(csv_text(uni, Cell::of(0.00099996)), "0.00100");  // rounds up to the next decade: 3 digits
  EXPECT_EQ(csv_text(uni, Cell::of(0.0999996)), "0.100");
  EXPECT_EQ(csv_text(uni, Cell::of(0.0)), "0.000");
  EXPECT_EQ(table_text(uni, Cell::of(123.4567)), "123.457");
}

// 12 ranks under one launcher daemon with three host names: MPI makes one node
// of them. The note counts every host name (not those seen before the first
// rank that differs) and says "1 node".
TEST(Report, RankNodeNoteCountsEveryHost) {
  std::vector<std::string> hosts;
  for (const char* h : {"node0", "node1", "node2"}) hosts.insert(hosts.end(), 4, h);
  const std::string note = node_note(hosts, std::vector<int>(12, 0));
  EXPECT_NE(note.find("(MPI_COMM_TYPE_SHARED makes 1 node of the ranks, their host names 3;"),
            std::string::npos)
      << note;
  EXPECT_NE(node_note({"a", "a"}, {0, 1}).find("makes 2 nodes of the ranks, their host names 1;"),
            std::string::npos);
  EXPECT_EQ(node_note({"a", "a", "b"}, {0, 0, 1}), "");
}

TEST(Report, SendMinColumn) {
  Row row;
  row.n = 17;
  row.send_max = 9792;
  row.send_min = 8704;
  row.seconds = 1e-5;
  row.counts.remote_faces = 4;
  row.counts.self_faces = 2;
  row.counts.offnode_faces = 1;
  EXPECT_EQ(format_row(row, Groups().add(Group::send_min)), "17 9792 10.0 0.979 1.958 4 2 1 8704\n");
  EXPECT_EQ(format_columns(Groups{}),
            "# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces\n");
  EXPECT_EQ(format_columns(Groups().add(Group::send_min)),
            "# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces Send_min_B\n");
}

TEST(Report, HeaderLines) {
  HeaderInfo h;
  h.run.version = "9.9";
  h.run.ranks = 2;
  h.run.grid = {1, 1, 2};
  h.run.options.axes = {false, false, true};
  h.rank_device = {-1, -1};
  h.rank_host = {"a", "b"};
  h.run.nodes = 2;
  h.notes = {"a note"};
  const std::string s = format_header(h);
  std::istringstream in(s);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[0], "# halo-bandwidth 9.9");
  EXPECT_EQ(lines[1], "# backend host device host");
  EXPECT_EQ(lines[2], "# ranks 2 nodes 2 grid 1x1x2 directions z halo 1 iters 50 warmup 5");
  EXPECT_EQ(lines[3], "# pack datatype self copy");
  EXPECT_EQ(lines[4], "# stencil star fields 1 messages auto method p2p");
  EXPECT_EQ(lines[5], "# gpu_aware n/a contiguous 0");
  EXPECT_EQ(lines[6], "# rank_device 0:-1 1:-1");
  EXPECT_EQ(lines[7], "# rank_host 0:a 1:b");
  EXPECT_EQ(lines[8], "# grid_source auto transport datatype schedule -");
  EXPECT_EQ(lines[9], "# Uni_GBps = remote send bytes / time / 1e9; Duplex_GBps = 2 * Uni_GBps");
  EXPECT_EQ(lines[10], "# a note");
  // The settings table prints what the run decided: rma-sync only with --method rma, the
  // schedule only on a packing transport.
  h.run.options.method = MethodKind::rma;
  h.run.transport = Transport::direct;
  const std::string rma = format_header(h);
  EXPECT_NE(rma.find("# stencil star fields 1 messages auto method rma rma-sync pscw\n"), std::string::npos);
  EXPECT_NE(rma.find("# gpu_aware n/a contiguous 1\n"), std::string::npos);
  EXPECT_NE(rma.find("# grid_source auto transport direct schedule pipelined\n"), std::string::npos);
  // Above 64 ranks, one line per node: the header grows with the nodes, not the ranks.
  HeaderInfo big = h;
  big.rank_host.assign(130, "a");
  std::fill(big.rank_host.begin() + 128, big.rank_host.end(), "b");
  big.rank_device.assign(130, -1);
  const std::string at_scale = format_header(big);
  EXPECT_EQ(at_scale.find("# rank_host"), std::string::npos);
  EXPECT_NE(at_scale.find("# node a ranks 0-127 devices -1*128\n# node b ranks 128-129 devices -1*2\n"),
            std::string::npos)
      << at_scale;
}

TEST(Report, OptionalColumnsFollowTheStandardOnes) {
  const Groups all = Groups().add(Group::send_min).add(Group::spread).add(Group::breakdown).add(Group::limit);
  std::vector<std::string> names;
  for (const Column* c : table_columns(all)) names.emplace_back(c->name);
  const std::vector<std::string> want{"N",           "Send_B",    "Time_us",      "Uni_GBps",   "Duplex_GBps",
                                      "RemoteFaces", "SelfFaces", "OffNodeFaces", "Send_min_B", "Min_us",
                                      "Max_us",      "Pack_us",   "Mpi_us",       "Stage_us",   "Unpack_us",
                                      "Xfer_us",     "Xfer_GBps", "Eff",          "Copy_GBps",  "Peer_GBps"};
  EXPECT_EQ(names, want);
  Row row;
  row.n = 64;
  row.send_max = row.send_min = 65536;
  row.seconds = 20e-6;
  row.counts.remote_faces = 2;
  row.min_seconds = 18e-6;
  row.max_seconds = 25e-6;
  row.phases = Phases{2e-6, 15e-6, 0.0, 3e-6, 16e-6};  // pack, mpi, stage, unpack; xfer reference
  row.copy_gbps = 12.3456;
  // Uni 3.277, Xfer_GBps = 65536 / 16 us = 4.096, Eff = 16 / 20 = 0.80.
  EXPECT_EQ(format_row(row, all),
            "64 65536 20.0 3.277 6.554 2 0 0 65536 18.0 25.0 2.0 15.0 0.0 3.0 16.0 4.096 0.80 12.346 n/a\n");
  // The standard columns are the same with or without the optional ones.
  const auto fields = row_fields(row, all);
  const auto plain = row_fields(row, Groups{});
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

// The column table drives every format: the CSV header lists every column in
// file order after the settings, a CSV row leaves unmeasured groups empty, and
// a JSON row carries only the measured groups (Send_min_B always).
TEST(Columns, OneTableForEveryFormat) {
  // The CSV header: the settings, every column in the table's order, then the provenance.
  const std::string header = csv_header();
  EXPECT_EQ(header.rfind("program,version,commit,backend,", 0), 0u) << header;
  EXPECT_NE(header.find(",rma_sync,per_rank,N,L,Local,Global,H,Send_B,Time_us,"), std::string::npos)
      << header;
  EXPECT_NE(
      header.find(",Huge_MiB,command_line,start_utc,build,mpi_library,mpi_thread,hosts,environment,"
                  "simulator,simulator_version,platform,platform_sha256,status,exit_code,reason,warnings\n"),
      std::string::npos)
      << header;
  std::size_t names = 0;
  for (const Column& c : columns()) {
    EXPECT_NE(header.find(std::string(",") + c.name + ","), std::string::npos) << c.name;
    ++names;
  }
  std::size_t settings_csv = 0;
  settings_csv = run_settings().size();
  EXPECT_EQ(static_cast<std::size_t>(std::count(header.begin(), header.end(), ',')),
            names + settings_csv + provenance().size() + status_columns().size() - 1);
  Row row;
  row.n = 16;
  row.global = {16, 16, 16};
  row.halo = 1;
  row.send_max = row.send_min = 4096;
  row.seconds = 2e-6;
  row.counts.remote_faces = 2;
  Results r;
  r.header.run.grid = {1, 1, 2};
  r.header.command_line = {"halo-bandwidth", "--sizes", "16,32"};
  // Unmeasured groups stay empty; Send_min_B, Global and H are in every row; a comma is quoted.
  const std::string plain = csv_row(r, row);
  // N, L and Local; Global; H; Send_B Time_us Uni Duplex; Remote Self OffNode Boundary faces; OffNode_B,
  // NodeOut_B; the box counts empty; Send_min_B.
  EXPECT_NE(plain.find(",16,,,16x16x16,1,4096,2.0,2.048,4.096,2,0,0,0,0,0,,,4096,0,0,,n/a,,,"),
            std::string::npos)
      << plain;
  EXPECT_NE(plain.find(",\"halo-bandwidth --sizes 16,32\","), std::string::npos) << plain;
  EXPECT_EQ(std::count(plain.begin(), plain.end(), '\n'), 1);
  const std::string json = json_row(row, Groups{});
  EXPECT_NE(json.find("\"Send_min_B\":4096"), std::string::npos) << json;
  EXPECT_NE(json.find("\"Global\":\"16x16x16\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"H\":1"), std::string::npos) << json;
  EXPECT_EQ(json.find("\"L\""), std::string::npos) << json;
  EXPECT_EQ(json.find("Min_us"), std::string::npos) << json;
  EXPECT_EQ(json.find("Eff"), std::string::npos) << json;
  row.phases = Phases{1e-6, 0.5e-6, 0.0, 0.5e-6, 1e-6};
  const std::string with = json_row(row, Groups().add(Group::breakdown).add(Group::limit));
  EXPECT_NE(with.find("\"Eff\":0.5"), std::string::npos) << with;
  EXPECT_NE(with.find("\"Peer_GBps\":null"), std::string::npos) << with;
  EXPECT_EQ(with.find("Copy_GBps"), std::string::npos) << with;  // not measured: absent
  // --local: L and Global in the table, not N.
  const Groups local = Groups().set(Group::cube, false).add(Group::local).add(Group::global_box);
  EXPECT_EQ(format_columns(local).rfind("# L Global Send_B Time_us", 0), 0u) << format_columns(local);
  EXPECT_EQ(format_row(row, local).rfind("16 16x16x16 4096 2.0", 0), 0u) << format_row(row, local);
  // Every column has a unit, a meaning and decimals that fit its kind.
  for (const Column& c : columns()) {
    EXPECT_TRUE(c.unit && *c.unit) << c.name;
    EXPECT_TRUE(c.meaning && *c.meaning) << c.name;
    EXPECT_GE(c.decimals, kText) << c.name;
  }
}

TEST(Report, SlowestRankAndSkew) {
  const SlowestRank three = slowest_rank({2.0, 5.0, 3.0});
  EXPECT_EQ(three.rank, 1);
  ASSERT_TRUE(three.skew);
  EXPECT_DOUBLE_EQ(*three.skew, 5.0 / 3.0);
  // Equals: the lowest rank; the median rank of an even count is the lower middle one.
  const SlowestRank ties = slowest_rank({4.0, 1.0, 4.0, 2.0});
  EXPECT_EQ(ties.rank, 0);
  EXPECT_DOUBLE_EQ(*ties.skew, 2.0);
  EXPECT_DOUBLE_EQ(*slowest_rank({1.0, 3.0}).skew, 3.0);
  EXPECT_EQ(slowest_rank({1.0, 3.0}).rank, 1);
  EXPECT_DOUBLE_EQ(*slowest_rank({7.0}).skew, 1.0);
  EXPECT_FALSE(slowest_rank({0.0, 0.0, 1.0}).skew);  // the median rank's time is 0: no ratio
  EXPECT_EQ(slowest_rank({}).rank, 0);
}

TEST(Report, PerRankLinesAndPerNodeAtScale) {
  Row row;
  row.slowest = 1;
  row.ranks = {{0, "a", 20e-6, 4096}, {1, "a", 31.04e-6, 4096}, {2, "b", 25e-6, 2048}};
  EXPECT_EQ(per_rank_lines(row, "N=16"),
            (std::vector<std::string>{"# per-rank N=16: rank 0 host a Rank_us 20.0 Send_B 4096",
                                      "# per-rank N=16: rank 1 host a Rank_us 31.0 Send_B 4096 (slowest)",
                                      "# per-rank N=16: rank 2 host b Rank_us 25.0 Send_B 2048"}));
  // Above 64 ranks, one line per node: its ranks, the least, median and most Rank_us and the bytes.
  Row big;
  for (int r = 0; r < 70; ++r) {
    big.ranks.push_back({r, r < 64 ? "n1" : "n2", (10.0 + r % 7) * 1e-6, r == 65 ? 2048u : 4096u});
  }
  big.ranks[66].seconds = 90e-6;
  big.slowest = 66;
  EXPECT_EQ(per_rank_lines(big, "L=8 H=2"),
            (std::vector<std::string>{"# per-node L=8 H=2: node n1 ranks 0-63 Rank_us min 10.0 median 13.0 "
                                      "max 16.0 (rank 6) Send_B min 4096 "
                                      "max 4096",
                                      "# per-node L=8 H=2: node n2 ranks 64-69 Rank_us min 11.0 median 14.0 "
                                      "max 90.0 (rank 66) Send_B min "
                                      "2048 max 4096 (slowest)"}));
  EXPECT_TRUE(per_rank_lines(Row{}, "N=8").empty());
}

// Iters, Slowest, Slowest_host and Skew are in every file row; the table shows
// Iters with --iters auto, Slowest and Skew with --per-rank; the JSON row lists
// every rank with --per-rank.
TEST(Columns, ItersAndTheSlowestRankInEveryFile) {
  const auto names = [](const Groups& g) {
    std::string s;
    for (const Column* c : table_columns(g)) s += std::string(" ") + c->name;
    return s;
  };
  EXPECT_EQ(names(Groups{}).find("Iters"), std::string::npos);
  EXPECT_EQ(names(Groups{}).find("Slowest"), std::string::npos);
  EXPECT_NE(names(Groups().add(Group::iters)).find(" OffNodeFaces Iters"), std::string::npos);
  EXPECT_NE(names(Groups().add(Group::ranks).add(Group::send_min)).find(" Send_min_B Slowest Skew"),
            std::string::npos);
  EXPECT_EQ(names(Groups().add(Group::ranks)).find("Slowest_host"), std::string::npos);  // files only
  Row row;
  row.n = 16;
  row.global = {16, 16, 16};
  row.send_max = row.send_min = 4096;
  row.seconds = 40e-6;
  row.iters = 1200;
  row.slowest = 1;
  row.slowest_host = "b";
  row.skew = 1.5;
  EXPECT_EQ(format_row(row, Groups().add(Group::iters).add(Group::ranks)),
            "16 4096 40.0 0.102 0.205 0 0 0 1200 1 1.50\n");
  const std::string plain = json_row(row, Groups{});
  EXPECT_NE(plain.find("\"Iters\":1200,\"Slowest\":1,\"Slowest_host\":\"b\",\"Skew\":1.5"), std::string::npos)
      << plain;
  EXPECT_EQ(plain.find("\"ranks\""), std::string::npos) << plain;
  row.ranks = {{0, "a", 20e-6, 4096}, {1, "b", 30e-6, 4096}};
  const auto doc = nlohmann::json::parse(json_row(row, Groups().add(Group::ranks)));
  ASSERT_EQ(doc["ranks"].size(), 2u);
  EXPECT_EQ(doc["ranks"][1]["rank"], 1);
  EXPECT_EQ(doc["ranks"][1]["host"], "b");
  EXPECT_DOUBLE_EQ(doc["ranks"][1]["Rank_us"].get<double>(), 30.0);
  EXPECT_EQ(doc["ranks"][1]["Send_B"], 4096);
  row.skew.reset();  // the median rank's time 0: n/a, JSON null
  EXPECT_NE(json_row(row, Groups{}).find("\"Skew\":null"), std::string::npos);
  Results r;
  r.header.run.grid = {1, 1, 2};
  EXPECT_NE(csv_row(r, row).find(",4096,1200,1,b,n/a,"), std::string::npos) << csv_row(r, row);
}

TEST(Settings, ItersAutoMinTimeAndPerRank) {
  HeaderInfo h;
  h.run.grid = {1, 1, 2};
  h.run.options.axes = {false, false, true};
  h.run.options.iters_auto = true;
  h.run.options.min_time = 0.05;
  h.run.options.per_rank = true;
  EXPECT_NE(header_line(HeaderLine::run, h.run).find("iters auto warmup 5"), std::string::npos)
      << header_line(HeaderLine::run, h.run);
  Results r;
  r.header = h;
  const auto doc = nlohmann::json::parse(render_json(r));
  EXPECT_EQ(doc["run"]["iters"], "auto");
  EXPECT_DOUBLE_EQ(doc["run"]["min_time"].get<double>(), 0.05);
  EXPECT_EQ(doc["run"]["per_rank"], 1);
  Row row;
  row.n = 8;
  row.global = {8, 8, 8};
  r.rows.push_back(row);
  const std::string csv = render_csv(r);
  EXPECT_NE(csv.find(",auto,0.050,5,"), std::string::npos) << csv;  // iters, min_time, warmup
  r.header.run.options.iters_auto = false;
  r.header.run.options.iters = 7;
  EXPECT_EQ(nlohmann::json::parse(render_json(r))["run"]["iters"], 7);
  EXPECT_NE(render_csv(r).find(",7,0.050,5,"), std::string::npos);
}

// Under load the fastest warm-up call is the exception: K comes from the median.
TEST(Clock, AutoItersFromTheTypicalWarmUpCall) {
  EXPECT_DOUBLE_EQ(typical_call({0.1, 1e-5, 0.1, 0.1, 0.1}), 0.1);  // one fast call among slow ones
  EXPECT_DOUBLE_EQ(typical_call({3.0, 1.0, 2.0, 4.0}), 2.0);        // an even count: the lower middle one
  EXPECT_DOUBLE_EQ(typical_call({0.5}), 0.5);
  EXPECT_EQ(auto_iters(typical_call({0.1, 1e-5, 0.1, 0.1, 0.1}), 0.2), kAutoItersLeast);
}

TEST(Clock, AutoItersFromTheTimeOfACall) {
  EXPECT_EQ(auto_iters(1.0 / 1024, 0.25), 256);    // a block of K calls lasts min_time
  EXPECT_EQ(auto_iters(1.0 / 1000, 0.2005), 201);  // rounded up: at least min_time
  EXPECT_EQ(auto_iters(0.5, 0.2), kAutoItersLeast);
  EXPECT_EQ(auto_iters(1e-12, 0.2), kAutoItersMost);
  EXPECT_EQ(auto_iters(0.0, 0.2), kAutoItersMost);  // faster than the clock's tick
  EXPECT_EQ(kAutoItersLeast, 5);
  EXPECT_EQ(kAutoItersMost, 1000000);
}
