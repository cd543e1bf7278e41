#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "halobw/cli/help.hpp"
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
  return parse_options(args, lookup, backends, "halo-bandwidth test", StructRule{});
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
  expect_error({"--frobnicate"}, "--frobnicate: unknown option; --help lists them");
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
  expect_error({"--grid", "2x1,1"}, "GXxGYxGZ or GX,GY,GZ");  // one separator or the other
  expect_error({"--grid", "2x1"}, "GXxGYxGZ");
  expect_error({"--grid", "0x1x2"}, "at least 1");
  expect_error({}, "OPENPFC_FD_PROC_GRID", {{"OPENPFC_FD_PROC_GRID", "2x1x1x1"}});
  expect_error({}, "OPENPFC_FD_PROC_GRID", {{"OPENPFC_FD_PROC_GRID", "1,-1,2"}});
}

TEST(Options, GridAsPrinted) {
  // The header prints grids as GXxGYxGZ: the flag and the variable take that form too.
  const auto flag = parse({"--grid", "1x1x3"});
  ASSERT_TRUE(flag.ok()) << flag.failure().message;
  EXPECT_EQ(*flag->options.grid, (Dims3{1, 1, 3}));
  const auto env = parse({}, {{"OPENPFC_FD_PROC_GRID", "2x1x1"}});
  ASSERT_TRUE(env.ok()) << env.failure().message;
  EXPECT_EQ(*env->options.grid, (Dims3{2, 1, 1}));
  EXPECT_EQ(*parse_grid("4,2,1"), (Dims3{4, 2, 1}));
  EXPECT_EQ(*parse_grid("4x2x1"), (Dims3{4, 2, 1}));
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

// --messages auto follows the rule parse_options is given (the MPI library's), and --help says which.
TEST(Options, MessagesRuleIsTheLibrarys) {
  const auto lookup = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
  const auto words = [](const std::string& text) {  // --help wraps its lines: compare the words
    std::istringstream in(text);
    std::string out;
    for (std::string w; in >> w;) out += w + " ";
    return out;
  };
  const auto intel = parse_options({}, lookup, kHostOnly, "t", kStructRuleIntelMpi);
  ASSERT_TRUE(intel.ok());
  EXPECT_EQ(intel->options.struct_rule.alone_above, kStructRuleIntelMpi.alone_above);
  EXPECT_EQ(intel->options.struct_rule.alone_up_to, kStructRuleIntelMpi.alone_up_to);
  const auto intel_help = parse_options({"--help"}, lookup, kHostOnly, "t", kStructRuleIntelMpi);
  ASSERT_TRUE(intel_help.ok() && intel_help->exit_text);
  EXPECT_NE(words(*intel_help->exit_text).find("aggregated for pieces over 128 KiB up to 1024 KiB, peer"),
            std::string::npos);
  const auto help = parse({"--help"});
  ASSERT_TRUE(help.ok() && help->exit_text);
  EXPECT_NE(words(*help->exit_text).find("aggregated for pieces over 64 KiB, peer"), std::string::npos);
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

namespace {

std::vector<Index3> cubes(std::vector<std::int64_t> sides) {
  std::vector<Index3> out;
  for (auto n : sides) out.push_back({n, n, n});
  return out;
}

std::vector<Index3> sizes_of(std::vector<std::string> args) {
  const auto r = parse(std::move(args));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.failure().message);
  return r.ok() ? r->options.sizes : std::vector<Index3>{};
}

}  // namespace

TEST(Options, SizeRanges) {
  // A:B doubles from A, as OSU's -m does; B itself when it is on the way.
  EXPECT_EQ(sizes_of({"--sizes", "64:512"}), cubes({64, 128, 256, 512}));
  EXPECT_EQ(sizes_of({"--sizes", "64:500"}), cubes({64, 128, 256}));
  EXPECT_EQ(sizes_of({"--sizes", "48:48"}), cubes({48}));
  EXPECT_EQ(sizes_of({"--sizes", "24:100"}), cubes({24, 48, 96}));
  // A:B:S steps; lists and ranges mix, in the order given (repeats kept).
  EXPECT_EQ(sizes_of({"--sizes", "16:32:8"}), cubes({16, 24, 32}));
  EXPECT_EQ(sizes_of({"--sizes", "16:30:8"}), cubes({16, 24}));
  EXPECT_EQ(sizes_of({"--sizes", "32,48,64:512"}), cubes({32, 48, 64, 128, 256, 512}));
  EXPECT_EQ(sizes_of({"--sizes", "8,8:16:4,8"}), cubes({8, 8, 12, 16, 8}));
  EXPECT_EQ(sizes_of({"--sizes", "8", "16:32"}), cubes({8, 16, 32}));  // CLI11's space-separated values too
  // A:B:xF: a geometric factor, rounded to whole cells, repeats from the rounding dropped.
  EXPECT_EQ(sizes_of({"--sizes", "16:20:x1.1"}), cubes({16, 18, 19}));  // 16, 17.6, 19.36
  EXPECT_EQ(sizes_of({"--sizes", "1:4:x1.2"}), cubes({1, 2, 3, 4}));    // 1, 1.2, 1.44, 1.73, 2.07, ...
  EXPECT_EQ(sizes_of({"--sizes", "100:1000:x10"}), cubes({100, 1000}));
  EXPECT_EQ(sizes_of({"--sizes", "64:216:x1.5"}), cubes({64, 96, 144, 216}));
  EXPECT_EQ(sizes_of({"--sizes", "10:12:x100"}), cubes({10}));
  // A factor just above 1 yields every whole number once, without a step per power of F.
  const auto fine = sizes_of({"--sizes", "1:900:x1.0000000001"});
  ASSERT_EQ(fine.size(), 900u);
  EXPECT_EQ(fine.back(), (Index3{900, 900, 900}));
  // --local takes the same forms.
  const auto local = parse({"--local", "8:32,4x4x2"});
  ASSERT_TRUE(local.ok()) << local.failure().message;
  EXPECT_TRUE(local->options.local);
  EXPECT_EQ(local->options.sizes, (std::vector<Index3>{{8, 8, 8}, {16, 16, 16}, {32, 32, 32}, {4, 4, 2}}));
}

TEST(Options, SizeExtents) {
  EXPECT_EQ(sizes_of({"--sizes", "128x512x512"}), (std::vector<Index3>{{128, 512, 512}}));
  EXPECT_EQ(sizes_of({"--sizes", "64,32x64x16"}), (std::vector<Index3>{{64, 64, 64}, {32, 64, 16}}));
  EXPECT_EQ(sizes_of({"--sizes=7x7x7"}), cubes({7}));
}

TEST(Options, BadSizeSyntax) {
  // Empty and reversed ranges yield no size: refused, saying which.
  expect_error({"--sizes", "512:64"}, "'512:64' gives no size: it ends below where it starts (write 64:512)");
  expect_error({"--sizes", "64:32:8"}, "gives no size");
  expect_error({"--sizes", "64:"}, "--sizes: '64:'");
  expect_error({"--sizes", ":64"}, "--sizes: ':64'");
  expect_error({"--sizes", "64::8"}, "--sizes: '64::8'");
  expect_error({"--sizes", ":"}, "--sizes");
  expect_error({"--sizes", "1:2:3:4"}, "is not N, NXxNYxNZ, or a range");
  expect_error({"--sizes", "0:64"}, "'0' is not a whole number from 1");
  expect_error({"--sizes", "16:64:0"}, "the step '0'");
  expect_error({"--sizes", "16:64:-8"}, "the step '-8'");
  for (const char* factor : {"16:64:x1", "16:64:x", "16:64:x0.5", "16:64:xinf", "16:64:xnan", "16:64:x1e3",
                             "16:64:x-2", "16:64:x.5", "16:64:x1.2.3", "16:64:x0x2"}) {
    expect_error({"--sizes", factor}, "is not x followed by a number above 1");
  }
  // Extents: three, each at least 1; never a range's end.
  expect_error({"--sizes", "0x64x64"}, "'0x64x64': the extent '0' is not a whole number from 1");
  expect_error({"--sizes", "64x0x64"}, "the extent '0'");
  expect_error({"--sizes", "64x64"}, "'64x64' is not N, NXxNYxNZ");
  expect_error({"--sizes", "64x64x64x64"}, "is not N, NXxNYxNZ");
  expect_error({"--sizes", "64x64xz"}, "the extent 'z'");
  expect_error({"--sizes", "64X64X64"}, "--sizes");
  expect_error({"--sizes", "64x64x64:128"}, "a range runs over cube sides, not extents NXxNYxNZ");
  expect_error({"--local", "8:16x16x16"}, "--local: '8:16x16x16': a range runs over cube sides");
  expect_error({"--sizes", "64,,128"}, "--sizes");
  expect_error({"--sizes", "64,"}, "--sizes");
  // More than 1000 rows: sizes alone, or sizes x halo widths x placements.
  expect_error({"--sizes", "1:5000:1"}, "'1:5000:1' makes more than 1000 sizes; a run has at most 1000 rows");
  expect_error({"--sizes", "1:2147483647:1"}, "more than 1000 sizes");
  expect_error({"--sizes", "1:600:1", "--sizes", "601:1200:1"}, "'601:1200:1' makes more than 1000 sizes");
  expect_error({"--sizes", "1:512:1", "--halo", "1,2"},
               "512 sizes x 2 halo widths x 1 placements make 1024 rows");
  expect_error({"--dry-run", "--placement", "linear,nodes,cart", "--local", "1:400:1"},
               "--local: 400 sizes x 1 halo widths x 3 placements make 1200 rows");
  EXPECT_EQ(sizes_of({"--sizes", "1:1000:1"}).size(), 1000u);
  EXPECT_EQ(sizes_of({"--sizes", "1:500:1", "--halo", "1,2"}).size(), 500u);
}

// OSU's and Comb's options get one line naming ours and the difference, exit 2,
// not "unknown option" or a suggestion whose meaning differs.
TEST(Options, HabitsOfOsuAndComb) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"-m", "8:1024"}, "-m: OSU's message-size range; here --sizes A:B gives cube sides"},
      {{"-i", "100"}, "-i: OSU's iteration count; here --iters K"},
      {{"-x", "10"}, "-x: OSU's warm-up count; here --warmup W"},
      {{"-c"}, "-c: OSU's validation; here --check"},
      {{"-d", "cuda"}, "-d: OSU's buffer location (-d cuda); here --backend cuda|hip"},
      {{"-f"}, "-f: OSU's full statistics (min, max, avg); here --repeats R"},
      {{"-W", "64"}, "-W: OSU's window of messages in flight; here"},
      {{"100_100_100"}, "'100_100_100': Comb's X_Y_Z; here three extents are written 100x100x100"},
      {{"--sizes", "100_100_100"}, "'100_100_100': Comb's X_Y_Z; here three extents are written 100x100x100"},
      {{"--sizes=64,100_100_100"}, "'100_100_100': Comb's X_Y_Z"},
      {{"-divide", "2_2_2"}, "-divide: Comb's process grid (2_2_2); here --grid 2x2x2"},
      {{"--divide", "2"}, "--divide: Comb's process grid"},
      {{"-periodic", "1_1_0"}, "-periodic: Comb's periodic flags (1_1_0); here --periodic x,y"},
      {{"-ghost", "1"}, "-ghost: Comb's ghost widths per axis (1_1_1); here --halo H"},
      {{"--ghost", "1"}, "--ghost: Comb's ghost widths"},
      {{"-vars", "3"}, "-vars: Comb's variables; here --fields K"},
      {{"--vars", "3"}, "--vars: Comb's variables"},
      {{"-cycles", "25"}, "-cycles: Comb's cycle count; here --iters K"},
      {{"--cycles", "25"}, "--cycles: Comb's cycle count"},
      // Suggestions whose meaning differs: a message size is not --messages, nor --min-time.
      {{"--message-size", "8"}, "--message-size: OSU's message-size range; here --sizes A:B"},
      {{"--min-size", "8"}, "--min-size: OSU's message-size range"},
      {{"--max-size", "8"}, "--max-size: OSU's message-size range"},
  };
  for (const auto& [args, fragment] : cases) {
    expect_error(args, fragment);
    const Expected<Parsed> r = parse(args, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.failure().message.find("did you mean"), std::string::npos) << r.failure().message;
    EXPECT_EQ(r.failure().message.find("unknown option"), std::string::npos) << r.failure().message;
  }
  // Our own options stay ours: --periodic takes x,y; a file name with underscores is no box.
  EXPECT_TRUE(parse({"--periodic", "x,y"}, {}).ok());
  EXPECT_TRUE(parse({"--output", "run_1.csv"}, {}).ok());
}

TEST(Options, UnknownOptionNamesTheNearest) {
  expect_error({"--size", "64"}, "--size: unknown option; did you mean --sizes?");
  expect_error({"--iter", "5"}, "--iter: unknown option; did you mean --iters?");
  expect_error({"--warmpu", "5"}, "did you mean --warmup?");  // two letters swapped
  expect_error({"--axes", "z"}, "did you mean --axis?");
  expect_error({"--break"}, "--break: unknown option; did you mean --breakdown?");  // the start of one option
  expect_error({"--sizes=64", "--ouptut=r.csv"}, "--ouptut: unknown option; did you mean --output?");
  expect_error({"--frobnicate"}, "--frobnicate: unknown option; --help lists them");
  expect_error({"-q"}, "-q: unknown option");
  expect_error({"--per"}, "--per: unknown option");  // the start of two options: no guess
  expect_error({"--axis", "z", "64"}, "unexpected argument 64");
  // A negative number is a value, not an option.
  expect_error({"--sizes", "-4"}, "--sizes: '-4' is not a whole number");
}

TEST(Options, MissingValueIsNamed) {
  expect_error({"--sizes", "--format", "json"}, "--sizes needs a value");
  expect_error({"--format", "json", "--sizes"}, "--sizes needs a value");
  expect_error({"--output=", "--format", "csv"}, "--output needs a value");
  expect_error({"--grid", "-h"}, "--grid needs a value");
  expect_error({"--iters", "--check"}, "--iters needs a value");
  EXPECT_TRUE(parse({"--check", "--sizes", "8"}).ok());  // a flag takes none
  expect_error({"--iters", "3", "--iters=auto"}, "--iters is given twice: give it once");
  expect_error({"--axis", "z", "--axis", "y"}, "--axis is given twice");
  EXPECT_EQ(sizes_of({"--sizes", "8", "--sizes", "9"}), cubes({8, 9}));  // a list may be given again
  EXPECT_TRUE(parse({"--check", "--check"}).ok());
}

TEST(Options, NewOptionsParsed) {
  const Options d = parse({})->options;
  EXPECT_EQ(d.periodic, (AxisSet{true, true, true}));
  EXPECT_EQ(d.placements, std::vector<RankPlacement>{RankPlacement::linear});
  EXPECT_FALSE(d.iters_auto || d.per_rank || d.dry_run || d.ranks || d.ranks_per_node);
  EXPECT_EQ(d.min_time, 0.2);
  EXPECT_EQ(parse({"--periodic", "none"})->options.periodic, (AxisSet{false, false, false}));
  EXPECT_EQ(parse({"--periodic", "z,x"})->options.periodic, (AxisSet{true, false, true}));
  EXPECT_EQ(parse({"--periodic", "y"})->options.periodic, (AxisSet{false, true, false}));
  EXPECT_EQ(parse({"--placement", "cart"})->options.placements,
            std::vector<RankPlacement>{RankPlacement::cart});
  const auto several =
      parse({"--dry-run", "--placement", "nodes,linear", "--ranks", "64", "--ranks-per-node", "8"});
  ASSERT_TRUE(several.ok()) << several.failure().message;
  EXPECT_EQ(several->options.placements,
            (std::vector<RankPlacement>{RankPlacement::nodes, RankPlacement::linear}));
  EXPECT_TRUE(several->options.dry_run);
  EXPECT_EQ(several->options.ranks, 64);
  EXPECT_EQ(several->options.ranks_per_node, 8);
  const auto automatic = parse({"--iters", "auto", "--min-time", "0.05"});
  ASSERT_TRUE(automatic.ok()) << automatic.failure().message;
  EXPECT_TRUE(automatic->options.iters_auto);
  EXPECT_EQ(automatic->options.min_time, 0.05);
  EXPECT_EQ(parse({"--iters", "auto"})->options.min_time, 0.2);
  const auto fixed = parse({"--iters", "7"});
  EXPECT_FALSE(fixed->options.iters_auto);
  EXPECT_EQ(fixed->options.iters, 7);
  EXPECT_TRUE(parse({"--per-rank"})->options.per_rank);
}

TEST(Options, BadNewOptions) {
  expect_error({"--periodic", "x,w"},
               "--periodic: 'w' is not an axis; give x,y,z, a subset such as x,z, or none");
  expect_error({"--periodic", "x,x"}, "--periodic: axis x is named twice");
  expect_error({"--periodic", "none,x"}, "'none' is not an axis");
  expect_error({"--periodic", "xy"}, "'xy' is not an axis");
  expect_error({"--periodic", "x,"}, "'' is not an axis");
  expect_error({"--placement", "random"}, "--placement: 'random' is not one of linear|nodes|cart");
  expect_error({"--placement", "linear,cart"}, "--placement linear,cart needs --dry-run");
  expect_error({"--dry-run", "--placement", "cart,cart"}, "--placement: cart is named twice");
  expect_error({"--iters", "auto", "--min-time", "0"},
               "--min-time: '0' is not a number of seconds from 0.001 to 3600");
  for (const char* t : {"-1", "nan", "inf", "1e-9", "4000", "0x1p-3", "soon", "0.1s"}) {
    expect_error({"--iters", "auto", "--min-time", t}, "--min-time: '");
  }
  expect_error({"--min-time", "0.5"}, "--min-time needs --iters auto");
  expect_error({"--iters", "10", "--min-time", "0.5"}, "--min-time needs --iters auto");
  expect_error({"--iters", "automatic"},
               "--iters: 'automatic' is not a whole number from 1 to 2147483647, or auto");
  expect_error({"--dry-run", "--ranks", "0"}, "--ranks: '0' is not a whole number from 1");
  expect_error({"--dry-run", "--ranks", "-8"}, "--ranks");
  expect_error({"--dry-run", "--ranks", "99999999"}, "--ranks");
  expect_error({"--ranks", "8"}, "--ranks needs --dry-run");
  expect_error({"--dry-run", "--ranks-per-node", "0"}, "--ranks-per-node: '0' is not a whole number from 1");
  expect_error({"--ranks-per-node", "4"}, "--ranks-per-node needs --dry-run");
}

TEST(Options, HelpFitsAndListsEverything) {
  const auto help = parse({"--help"});
  ASSERT_TRUE(help.ok() && help->exit_text);
  const std::string& text = *help->exit_text;
  std::istringstream lines(text);
  std::vector<std::string> examples;
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(line.size(), kHelpWidth) << line;
    if (line.rfind("  mpirun ", 0) == 0) examples.push_back(line);
  }
  for (const char* flag :
       {"--sizes",    "--local",    "--axis",           "--faces",  "--stencil",  "--halo",
        "--grid",     "--periodic", "--placement",      "--pack",   "--self",     "--method",
        "--rma-sync", "--schedule", "--backend",        "--cuda",   "--hip",      "--gpu-aware",
        "--fields",   "--messages", "--hugepages",      "--iters",  "--min-time", "--warmup",
        "--repeats",  "--check",    "--breakdown",      "--limit",  "--timeout",  "--overlap",
        "--streams",  "--progress", "--format",         "--output", "--quiet",    "--per-rank",
        "--dry-run",  "--ranks",    "--ranks-per-node", "--help",   "--version"}) {
    EXPECT_NE(text.find(std::string(" ") + flag + " "), std::string::npos) << flag;
  }
  // Every option it lists is one the parser knows.
  std::istringstream words(text);
  for (std::string w; words >> w;) {
    while (!w.empty() && std::string(",.;:)").find(w.back()) != std::string::npos) w.pop_back();
    if (w.rfind("--", 0) != 0 || w.size() < 3) continue;
    const auto r = parse({w});
    EXPECT_TRUE(r.ok() || r.failure().message.find("unknown option") == std::string::npos) << w;
  }
  for (const char* part : {"Exit codes", "  0  every row measured", "  1  --check found", "  2  bad input",
                           "  3  a failure during the run", "  4  the watchdog", "docs/method.md",
                           "docs/output.md", "OPENPFC_FD_PROC_GRID", kRateDefinition}) {
    EXPECT_NE(text.find(part), std::string::npos) << part;
  }
  // No CLI11 artefacts.
  for (const char* artefact : {"Excludes", "Option Group", "N1,N2,... ...", "[OPTIONS]\n\nOptions:"}) {
    EXPECT_EQ(text.find(artefact), std::string::npos) << artefact;
  }
  // Three examples, each a real command line of the built program that parses.
  ASSERT_EQ(examples.size(), 3u) << text;
  for (const std::string& e : examples) {
    std::istringstream in(e);
    std::vector<std::string> args;
    for (std::string w; in >> w;) args.push_back(w);
    ASSERT_GE(args.size(), 4u);
    EXPECT_EQ(args[3], "build/halo-bandwidth") << e;
    const auto r = parse(std::vector<std::string>(args.begin() + 4, args.end()));
    EXPECT_TRUE(r.ok() && !r->exit_text) << e << ": " << (r.ok() ? "" : r.failure().message);
  }
}
