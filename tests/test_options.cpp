#include <gtest/gtest.h>

#include <map>

#include "halobw/cli/options.hpp"
#include "halobw/plan/layout.hpp"

using namespace halobw;

namespace {

const std::vector<Backend> kHostOnly{Backend::host};

Expected<Parsed> parse(std::vector<std::string> args, std::map<std::string, std::string> env = {},
                       const std::vector<Backend>& backends = kHostOnly) {
  auto lookup = [env](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  return parse_options(args, lookup, backends, "halo-bandwidth test");
}

void expect_error(std::vector<std::string> args, const std::string& fragment,
                  std::map<std::string, std::string> env = {}) {
  const Expected<Parsed> r = parse(args, env);
  ASSERT_FALSE(r.ok()) << ::testing::PrintToString(args);
  EXPECT_EQ(r.failure().code, ExitCode::bad_input);
  const std::string& text = r.failure().message;
  EXPECT_NE(text.find(fragment), std::string::npos) << text;
  EXPECT_EQ(text.find('\n'), std::string::npos) << "one line: " << text;
}

}  // namespace

TEST(Options, Defaults) {
  const auto r = parse({});
  ASSERT_TRUE(r.ok());
  const Options& o = r->options;
  EXPECT_EQ(o.sizes, (std::vector<Index3>{{64, 64, 64}, {128, 128, 128}, {256, 256, 256}}));
  EXPECT_EQ(o.directions(), "x");
  EXPECT_EQ(o.halos, std::vector<int>{1});
  EXPECT_EQ(o.iters, 50);
  EXPECT_EQ(o.warmup, 5);
  EXPECT_FALSE(o.grid.has_value());
  EXPECT_EQ(o.grid_source, GridSource::automatic);
  EXPECT_EQ(o.pack, PackMode::datatype);
  EXPECT_EQ(o.self, SelfMode::copy);
  EXPECT_EQ(o.backend, Backend::host);
  EXPECT_FALSE(o.check);
}

TEST(Options, EveryFlag) {
  const auto r = parse({"--sizes", "16,32", "--axis", "z", "--halo", "2", "--iters", "7", "--warmup", "0",
                        "--grid", "1,1,2", "--pack", "kernel", "--self", "mpi", "--check"});
  ASSERT_TRUE(r.ok()) << r.failure().message;
  const Options& o = r->options;
  EXPECT_EQ(o.sizes, (std::vector<Index3>{{16, 16, 16}, {32, 32, 32}}));
  EXPECT_EQ(o.axes, (AxisSet{false, false, true}));
  EXPECT_EQ(o.directions(), "z");
  EXPECT_EQ(o.halos, std::vector<int>{2});
  EXPECT_EQ(o.iters, 7);
  EXPECT_EQ(o.warmup, 0);
  EXPECT_EQ(*o.grid, (Dims3{1, 1, 2}));
  EXPECT_EQ(o.grid_source, GridSource::flag);
  EXPECT_EQ(o.pack, PackMode::kernel);
  EXPECT_EQ(o.self, SelfMode::mpi);
  EXPECT_TRUE(o.check);
  const auto all = parse({"--faces", "--sizes=8"});
  EXPECT_EQ(all->options.directions(), "all");
  EXPECT_EQ(all->options.axes, (AxisSet{true, true, true}));
  EXPECT_EQ(parse({"--axis", "y"})->options.directions(), "y");
}

TEST(Options, GridFromEnvironmentAndFlagWins) {
  const auto env = parse({}, {{"OPENPFC_FD_PROC_GRID", "2,1,1"}});
  ASSERT_TRUE(env.ok());
  EXPECT_EQ(*env->options.grid, (Dims3{2, 1, 1}));
  EXPECT_EQ(env->options.grid_source, GridSource::environment);
  const auto flag = parse({"--grid", "1,2,1"}, {{"OPENPFC_FD_PROC_GRID", "2,1,1"}});
  EXPECT_EQ(*flag->options.grid, (Dims3{1, 2, 1}));
  EXPECT_EQ(flag->options.grid_source, GridSource::flag);
  // The flag wins even over a malformed variable.
  EXPECT_TRUE(parse({"--grid", "1,1,1"}, {{"OPENPFC_FD_PROC_GRID", "junk"}}).ok());
}

TEST(Options, BadSizes) {
  expect_error({"--sizes", "0"}, "--sizes");
  expect_error({"--sizes", "-4"}, "--sizes");
  expect_error({"--sizes", "abc"}, "'abc'");
  expect_error({"--sizes", "1e3"}, "'1e3'");
  expect_error({"--sizes", "64,,128"}, "--sizes");
  expect_error({"--sizes", "12.5"}, "'12.5'");
  expect_error({"--sizes", "+8"}, "--sizes");
  expect_error({"--sizes", "99999999999999999999"}, "--sizes");
  expect_error({"--sizes", "4294967296"}, "--sizes");
}

TEST(Options, BadCountsAndFlags) {
  expect_error({"--iters", "0"}, "--iters");
  expect_error({"--iters", "-3"}, "--iters");
  expect_error({"--warmup", "-1"}, "--warmup");
  expect_error({"--halo", "0"}, "--halo");
  expect_error({"--halo", "x"}, "--halo");
  expect_error({"--axis", "w"}, "--axis");
  expect_error({"--axis", "z", "--faces"}, "excludes");
  expect_error({"--pack", "fast"}, "--pack");
  expect_error({"--self", "none"}, "--self");
  expect_error({"--frobnicate"}, "--frobnicate");
  expect_error({"--cuda", "--hip"}, "excludes");
  expect_error({"--timeout", "-1"}, "--timeout");
  expect_error({"--timeout", "soon"}, "--timeout");
  expect_error({"--timeout", "nan"}, "--timeout");
  expect_error({"--quiet"}, "--quiet needs --output");
  expect_error({"--timeout", "1e-9"}, "--timeout");
  expect_error({"--timeout", "0.5"}, "--timeout");
  expect_error({"--repeats", "2000000"}, "--repeats");
  expect_error({"--halo", "0x10"}, "--halo");               // plain decimals only: CLI11 alone would read hex
  EXPECT_EQ(parse({"--iters", "010"})->options.iters, 10);  // decimal, where CLI11 alone reads octal 8
  expect_error({"--pack", "1"}, "--pack");                  // names, not the enum's numbers
  expect_error({"", "--gpu-ao"}, "argument 1 is empty");    // CLI11 alone loops for ever on this
  expect_error({"--faces", ""}, "argument 2 is empty");
  EXPECT_EQ(parse({"--timeout", "0"})->options.timeout, 0.0);
  EXPECT_EQ(parse({"--timeout", "2.5"})->options.timeout, 2.5);
  EXPECT_EQ(parse({})->options.timeout, 300.0);
}

TEST(Options, BadGrid) {
  expect_error({"--grid", "2,1"}, "GX,GY,GZ");
  expect_error({"--grid", "2,0,1"}, "GX,GY,GZ");
  expect_error({"--grid", "a,b,c"}, "GX,GY,GZ");
  expect_error({"--grid", "2,1,1,1"}, "GX,GY,GZ");
  expect_error({}, "OPENPFC_FD_PROC_GRID", {{"OPENPFC_FD_PROC_GRID", "2x1x1"}});
  expect_error({}, "OPENPFC_FD_PROC_GRID", {{"OPENPFC_FD_PROC_GRID", "1,-1,2"}});
}

TEST(Options, BackendsOfThisBuild) {
  expect_error({"--backend", "cuda"}, "not in this build; it has: host");
  expect_error({"--cuda"}, "backend cuda");
  expect_error({"--hip"}, "backend hip");
  expect_error({"--backend", "sycl"}, "--backend");
  const auto cuda = parse({"--cuda"}, {}, {Backend::host, Backend::cuda});
  ASSERT_TRUE(cuda.ok());
  EXPECT_EQ(cuda->options.backend, Backend::cuda);
  EXPECT_EQ(cuda->options.pack, PackMode::kernel);  // device default
  EXPECT_EQ(parse({"--backend", "host"}, {}, {Backend::host, Backend::hip})->options.backend, Backend::host);
}

TEST(Options, GpuAwareFlagAndEnvironment) {
  EXPECT_EQ(parse({})->options.gpu_aware, GpuAwareMode::automatic);
  const auto env = parse({}, {{"OPENPFC_ASSUME_GPU_AWARE_MPI", "0"}});
  EXPECT_EQ(env->options.gpu_aware, GpuAwareMode::off);
  EXPECT_EQ(env->options.gpu_aware_source, "OPENPFC_ASSUME_GPU_AWARE_MPI");
  const auto flag = parse({"--gpu-aware", "on"}, {{"OPENPFC_ASSUME_GPU_AWARE_MPI", "0"}});
  EXPECT_EQ(flag->options.gpu_aware, GpuAwareMode::on);
  EXPECT_EQ(flag->options.gpu_aware_source, "--gpu-aware");
  expect_error({}, "OPENPFC_ASSUME_GPU_AWARE_MPI", {{"OPENPFC_ASSUME_GPU_AWARE_MPI", "yes"}});
  expect_error({"--gpu-aware", "off"}, "--pack kernel");
}

TEST(Options, HelpAndVersion) {
  const auto help = parse({"--help"});
  ASSERT_TRUE(help.ok() && help->exit_text);
  const std::string& text = *help->exit_text;
  for (const char* flag : {"--sizes", "--axis", "--faces", "--halo", "--iters", "--warmup", "--grid",
                           "--pack", "--self", "--check", "--backend", "--cuda", "--hip", "--gpu-aware",
                           "--version", "OPENPFC_FD_PROC_GRID", "Example", kRateDefinition}) {
    EXPECT_NE(text.find(flag), std::string::npos) << flag;
  }
  // The groups are sections of --help, in order.
  const auto deco = text.find("Decomposition");
  const auto exch = text.find("Exchange");
  const auto meas = text.find("Measurement");
  const auto out = text.find("Output");
  EXPECT_TRUE(deco < exch && exch < meas && meas < out && out != std::string::npos) << text;
  const auto version = parse({"--version"});
  ASSERT_TRUE(version.ok() && version->exit_text);
  EXPECT_EQ(*version->exit_text, "halo-bandwidth test\n");
}

TEST(Layout, GridMustMatchRanks) {
  Options o;
  o.grid = Dims3{2, 2, 1};
  o.grid_source = GridSource::flag;
  const auto e = validate_layout(o, 2);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, ExitCode::bad_input);
  EXPECT_NE(e->message.find("has 4 ranks, but the job has 2"), std::string::npos) << e->message;
  EXPECT_FALSE(validate_layout(o, 4));
}

TEST(Layout, LocalExtentAtLeastHalo) {
  Options o;
  o.sizes = {{64, 64, 64}, {3, 3, 3}};
  o.halos = {2};
  const auto e = validate_layout(o, 2);  // 1x1x2: 3 / 2 = 1 < 2 along z
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("N=3"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("along z"), std::string::npos) << e->message;
  o.sizes = {{1, 1, 1}};
  o.halos = {1};
  EXPECT_TRUE(validate_layout(o, 2));  // an extent of zero
  o.sizes = {{4, 4, 4}};
  EXPECT_FALSE(validate_layout(o, 2));
  EXPECT_EQ(choose_grid(o, 8).dims(), (Dims3{2, 2, 2}));
}

TEST(Layout, GridDimensionsCannotOverflow) {
  Options o;
  o.grid = Dims3{111620, 429509837, 384773};  // the product wraps to 4 in 64 bits
  const auto e = validate_layout(o, 4);
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("larger than the job's 4 ranks"), std::string::npos) << e->message;
}

TEST(Layout, CheckNeedsExactValues) {
  Options o;
  o.check = true;
  o.sizes = {{208064, 208064, 208064}};  // 208064^3 > 2^53
  const auto e = validate_layout(o, 1);
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("--check needs fewer than 2^53 values"), std::string::npos) << e->message;
  // 2^15 cubed is 2^45 cells: 255 fields stay exact, 256 do not (one message per field keeps
  // each below INT_MAX values).
  o.sizes = {{32768, 32768, 32768}};
  o.messages = Messages::separate;
  o.fields = 255;
  EXPECT_FALSE(validate_layout(o, 1));
  o.fields = 256;
  ASSERT_TRUE(validate_layout(o, 1));
  EXPECT_NE(validate_layout(o, 1)->message.find("--check needs fewer than 2^53"), std::string::npos);
  o.fields = 255;
  o.messages = Messages::aggregated;  // 255 faces of 2^30 values in one message
  ASSERT_TRUE(validate_layout(o, 1));
  EXPECT_NE(validate_layout(o, 1)->message.find("try --messages separate"), std::string::npos);
}

TEST(Layout, FaceMustFitOneMessage) {
  Options o;
  o.sizes = {{70000, 70000, 70000}};
  const auto e = validate_layout(o, 1);
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("beyond one MPI message"), std::string::npos) << e->message;
}
