// Results a user can trust: documents that say how the run ended, files
// replaced whole or not at all, Hidden within its definition.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "halobw/plan/layout.hpp"
#include "halobw/platform/terminal.hpp"
#include "halobw/report/output.hpp"
#include "halobw/report/results.hpp"

namespace halobw {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A folder of its own under /tmp, removed at the end.
class TempDir {
 public:
  TempDir() {
    char name[] = "/tmp/halobw-results-XXXXXX";
    path_ = ::mkdtemp(name);
  }
  ~TempDir() { std::system(("rm -rf " + path_).c_str()); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] std::string file(const std::string& name) const { return path_ + "/" + name; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

Results two_rows() {
  Results r;
  r.header.run.version = "0.1.0";
  r.header.run.grid = {1, 1, 2};
  r.header.command_line = {"halo-bandwidth"};
  for (std::int64_t n : {16, 32}) {
    Row row;
    row.n = n;
    row.global = {n, n, n};
    row.send_max = row.send_min = static_cast<std::uint64_t>(8 * n * n);
    row.seconds = 1e-5;
    r.rows.push_back(row);
  }
  return r;
}

TEST(Results, JsonSaysHowTheRunEnded) {
  Results r = two_rows();
  r.status.state = RunStatus::State::failed;
  r.status.exit_code = 1;
  r.status.reason = "check N=32 failed: rank 1 face cell (0,1,1) expected 3 found 12345";
  r.status.warnings = {"nothing crossed ranks: on grid 1x1x2 ..."};
  const auto doc = nlohmann::json::parse(render_json(r));  // whole: it parses
  EXPECT_EQ(doc["schema_version"], 4);
  EXPECT_EQ(doc["status"]["state"], "failed");
  EXPECT_EQ(doc["status"]["exit_code"], 1);
  EXPECT_EQ(doc["status"]["reason"], r.status.reason);
  EXPECT_EQ(doc["status"]["rows"], 2);
  EXPECT_EQ(doc["status"]["warnings"].size(), 1u);
  EXPECT_EQ(doc["rows"].size(), 2u);
  EXPECT_EQ(doc["rows"][1]["N"], 32);
  // Still measuring: no exit code, no reason.
  r.status = RunStatus{};
  const auto running = nlohmann::json::parse(render_json(r));
  EXPECT_EQ(running["status"]["state"], "incomplete");
  EXPECT_TRUE(running["status"]["exit_code"].is_null());
  EXPECT_TRUE(running["status"]["reason"].is_null());
  // No rows: an empty array, still a whole document.
  r.rows.clear();
  EXPECT_EQ(nlohmann::json::parse(render_json(r))["rows"].size(), 0u);
}

TEST(Results, CsvRowsCarryTheStatus) {
  Results r = two_rows();
  r.status.state = RunStatus::State::failed;
  r.status.exit_code = 4;
  r.status.reason = "timeout on rank 1 after 2 s in MPI_Waitall: N=32, waiting";
  const std::string csv = render_csv(r);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_NE(csv.find(",status,exit_code,reason,warnings\n"), std::string::npos) << csv;
  // The reason holds a comma: quoted.
  EXPECT_NE(csv.find(",failed,4,\"timeout on rank 1 after 2 s in MPI_Waitall: N=32, waiting\",\n"),
            std::string::npos)
      << csv;
  r.status = RunStatus{RunStatus::State::complete, 0, "", {}};
  EXPECT_NE(render_csv(r).find(",complete,0,,\n"), std::string::npos);
}

// A CSV field of the first row, by the header's column name.
std::string csv_cell(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string head;
  std::string row;
  std::getline(in, head);
  std::getline(in, row);
  std::vector<std::string> names;
  std::stringstream hs(head);
  for (std::string n; std::getline(hs, n, ',');) names.push_back(n);
  // The row's fields (a quoted field may hold commas).
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (const char c : row) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  const auto at = std::find(names.begin(), names.end(), name);
  if (at == names.end() || names.size() != fields.size()) return "(no such column: " + name + ")";
  return fields[static_cast<std::size_t>(at - names.begin())];
}

TEST(Results, AMeasuredRunSaysItWasNotSimulated) {
  const Results r = two_rows();
  const std::string csv = render_csv(r);
  EXPECT_EQ(csv_cell(csv, "simulator"), "none");
  EXPECT_EQ(csv_cell(csv, "simulator_version"), "");
  EXPECT_EQ(csv_cell(csv, "platform"), "");
  EXPECT_EQ(csv_cell(csv, "platform_sha256"), "");
  // After the environment, before the status.
  EXPECT_NE(csv.find(",environment,simulator,simulator_version,platform,platform_sha256,status,"),
            std::string::npos);
  const auto doc = nlohmann::json::parse(render_json(r));
  const auto& sim = doc["run"]["simulator"];
  EXPECT_EQ(sim["engine"], "none");
  EXPECT_TRUE(sim["version"].is_null());
  EXPECT_TRUE(sim["platform"].is_null());
  EXPECT_TRUE(sim["platform_sha256"].is_null());
}

TEST(Results, ASimulatedRunNamesItsEngineAndPlatform) {
  Results r = two_rows();
  const std::string sha(64, 'a');
  r.header.simulation = {"SimGrid SMPI", "3.32", "platforms/fat-tree-1024.xml", sha};
  const std::string csv = render_csv(r);
  EXPECT_EQ(csv_cell(csv, "simulator"), "SimGrid SMPI");
  EXPECT_EQ(csv_cell(csv, "simulator_version"), "3.32");
  EXPECT_EQ(csv_cell(csv, "platform"), "platforms/fat-tree-1024.xml");
  EXPECT_EQ(csv_cell(csv, "platform_sha256"), sha);
  const auto doc = nlohmann::json::parse(render_json(r));
  const auto& sim = doc["run"]["simulator"];
  EXPECT_EQ(sim["engine"], "SimGrid SMPI");
  EXPECT_EQ(sim["version"], "3.32");
  EXPECT_EQ(sim["platform"], "platforms/fat-tree-1024.xml");
  EXPECT_EQ(sim["platform_sha256"], sha);
  // A run that failed before its first row records it too.
  r.rows.clear();
  EXPECT_EQ(csv_cell(render_csv(r), "simulator"), "SimGrid SMPI");
}

TEST(Results, TableSaysWhenTheRunFailed) {
  RunStatus s{RunStatus::State::failed, 3, "--output r.json: No space left on device", {}};
  EXPECT_EQ(status_note(s, 1), "# run failed (exit 3) after 1 row: --output r.json: No space left on device");
}

OverlapFigures overlap(double comp, double blocking, double overlapped, double noise) {
  OverlapFigures f;
  f.comp = comp * 1e-6;
  f.blocking = blocking * 1e-6;
  f.overlapped = overlapped * 1e-6;
  f.noise = noise * 1e-6;
  f.rounds = 3;
  return f;
}

TEST(Results, HiddenIsAShareOrNothing) {
  // The exchange adds 40 us to the stencil; overlapping saves 30 of them.
  EXPECT_DOUBLE_EQ(*hidden_share(overlap(100, 140, 110, 2)).share, 0.75);
  // Nothing told apart from noise: the exchange itself, or what was saved.
  EXPECT_FALSE(hidden_share(overlap(100, 103, 101, 5)).share);
  const HiddenVerdict same = hidden_share(overlap(100, 140, 138, 5));
  EXPECT_FALSE(same.share);
  EXPECT_NE(same.why_not.find("within the noise 5.0 us"), std::string::npos) << same.why_not;
  // Slower than blocking beyond the noise: not a share (it would be below 0).
  const HiddenVerdict slower = hidden_share(overlap(100, 140, 160, 5));
  EXPECT_FALSE(slower.share);
  EXPECT_NE(slower.why_not.find("slower than the blocking one by 20.0 us"), std::string::npos);
  // Faster than the stencil alone: within the noise, all of it hidden; beyond, not a share.
  EXPECT_DOUBLE_EQ(*hidden_share(overlap(100, 140, 98, 5)).share, 1.0);
  EXPECT_FALSE(hidden_share(overlap(100, 140, 80, 5)).share);
  // Never outside [0, 1], whatever the inputs.
  for (double o = 50; o <= 200; o += 7) {
    const HiddenVerdict h = hidden_share(overlap(100, 140, o, 3));
    if (h.share) {
      EXPECT_GE(*h.share, 0.0);
      EXPECT_LE(*h.share, 1.0);
    } else {
      EXPECT_FALSE(h.why_not.empty());
    }
  }
}

TEST(Output, ReplacesAFileWhole) {
  const TempDir dir;
  const std::string path = dir.file("r.json");
  ASSERT_FALSE(replace_file(path, "first\n", "--output r.json"));
  EXPECT_EQ(slurp(path), "first\n");
  ::chmod(path.c_str(), 0640);
  ASSERT_FALSE(replace_file(path, "second\n", "--output r.json"));
  EXPECT_EQ(slurp(path), "second\n");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);  // the file keeps its mode
  // Through a link: the link stays, the file it points at is replaced.
  const std::string link = dir.file("latest.json");
  ASSERT_EQ(::symlink(path.c_str(), link.c_str()), 0);
  ASSERT_FALSE(replace_file(link, "third\n", "--output latest.json"));
  struct stat lst {};
  ASSERT_EQ(::lstat(link.c_str(), &lst), 0);
  EXPECT_TRUE(S_ISLNK(lst.st_mode));
  EXPECT_EQ(slurp(path), "third\n");
  // No temporary file is left behind.
  const std::string listing = dir.file("listing");
  std::system(("ls -A " + dir.path() + " > " + listing).c_str());
  EXPECT_EQ(slurp(listing), "latest.json\nlisting\nr.json\n");
}

TEST(Output, AFailedWriteIsNamedAndLosesNothing) {
  // A device that is always full: the error names the file and the OS's reason.
  const Status full = replace_file("/dev/full", "rows\n", "--output /dev/full");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->code, ExitCode::runtime_error);
  EXPECT_EQ(full->message, "--output /dev/full: No space left on device");
  // A quota reached halfway (a file-size limit): the earlier file survives whole.
  const TempDir dir;
  const std::string path = dir.file("old.csv");
  ASSERT_FALSE(replace_file(path, "old result\n", "--output old.csv"));
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  const auto previous = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 4;
  ::setrlimit(RLIMIT_FSIZE, &small);
  const Status cut = replace_file(path, "a longer new result\n", "--output old.csv");
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->message, "--output old.csv: File too large");
  EXPECT_EQ(slurp(path), "old result\n");
}

TEST(Output, LooksAtTheTargetWithoutTouchingIt) {
  const TempDir dir;
  const std::string path = dir.file("kept.csv");
  ASSERT_FALSE(replace_file(path, "kept\n", "x"));
  EXPECT_FALSE(Output::check_target(path));
  EXPECT_EQ(slurp(path), "kept\n");
  EXPECT_FALSE(Output::check_target(dir.file("new.csv")));
  EXPECT_FALSE(Output::check_target("/dev/null"));
  const Status missing = Output::check_target(dir.file("results/host.csv"));
  ASSERT_TRUE(missing);
  EXPECT_NE(missing->message.find("the folder " + dir.file("results") + " does not exist"), std::string::npos)
      << missing->message;
  EXPECT_TRUE(Output::check_target(dir.path()));  // a folder
}

TEST(Layout, NothingCrossesNamesTheFlagThatWould) {
  Options o;  // the seed's default: the x faces
  EXPECT_EQ(*nothing_crosses(o, ProcGrid({1, 1, 2}), 2, false),
            "on grid 1x1x2 the \u00b1x faces wrap to the same rank; use --axis z or --grid 2,1,1");
  EXPECT_EQ(
      *nothing_crosses(o, ProcGrid({1, 2, 2}), 4, false),
      "on grid 1x2x2 the \u00b1x faces wrap to the same rank; use --axis y or --axis z or --grid 4,1,1");
  o.all_faces = true;
  o.axes = {true, true, true};
  EXPECT_EQ(*nothing_crosses(o, ProcGrid({1, 1, 1}), 1, false),
            "on grid 1x1x1 the six faces wrap to the one rank; run on more ranks");
  EXPECT_FALSE(nothing_crosses(o, ProcGrid({1, 1, 2}), 2, true));
  // Walls: the faces lie on them rather than wrap.
  o.periodic = {false, false, false};
  EXPECT_EQ(*nothing_crosses(o, ProcGrid({1, 1, 1}), 1, false),
            "on grid 1x1x1 the six faces lie on walls; run on more ranks");
  o.periodic = {true, false, false};
  EXPECT_EQ(*nothing_crosses(o, ProcGrid({1, 1, 1}), 1, false),
            "on grid 1x1x1 the six faces wrap to the same rank or lie on walls; run on more ranks");
}

}  // namespace
}  // namespace halobw

namespace halobw {
namespace {

TEST(Output, TheProgressLineIsClearedBeforeAnyOtherLine) {
  Progress progress(true);  // as on a terminal
  Output out(Format::table, std::nullopt, false, &progress);
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  ASSERT_FALSE(out.begin(HeaderInfo{}, Groups{}, {}));
  progress.show("size 1 of 1, N=16: 1 x 50 timed exchanges after 5 warm-up");
  out.note("# hugepages N=16: ordinary pages");
  const std::string err = ::testing::internal::GetCapturedStderr();
  const std::string text = ::testing::internal::GetCapturedStdout();
  // The line shown, then erased ("\r" and erase-to-end) before the note reaches the terminal.
  EXPECT_EQ(err, "\r\033[Ksize 1 of 1, N=16: 1 x 50 timed exchanges after 5 warm-up\r\033[K");
  EXPECT_NE(text.find("\n# hugepages N=16: ordinary pages\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace halobw
