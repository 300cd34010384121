// `tierbench compare` end to end on this machine: the real binary, real loop
// devices as the raw HDD/SSD baselines, the real /sys and /proc (its --junit
// file also as python3-junitparser reads it). Real bcache only exists in the
// lab (tests/lab); here the bcache side is checked for its refusal where the
// kernel lacks bcache.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "junit_consumer.h"
#include "test_env.h"
#include "util/csv_reader.h"

namespace tierbench::testing {
namespace {

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos;
       p = text.find(what, p + 1)) {
    ++n;
  }
  return n;
}

std::string CompareReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes a mode file and a small random-read/-write job into `dir`.
void WriteInputs(const std::string& dir) {
  std::ofstream(dir + "/hdd.json")
      << R"({"schema_version": 1, "name": "hdd", "description": "raw",
             "layer": "raw", "target": "hdd"})";
  std::ofstream(dir + "/ssd.json")
      << R"({"schema_version": 1, "name": "ssd", "description": "raw",
             "layer": "raw", "target": "ssd"})";
  std::ofstream(dir + "/wb.json")
      << R"({"schema_version": 1, "name": "wb", "description": "x",
             "layer": "bcache", "cache_mode": "writeback"})";
  std::ofstream(dir + "/rw4k.fio") << "[rw4k]\nrw=randrw\nbs=4k\nsize=8M\n"
                                      "ioengine=libaio\niodepth=2\ndirect=1\n"
                                      "runtime=1s\ntime_based\n";
}

TEST(CompareCliTest, RawBaselinesOnLoopDevices) {
  TIERBENCH_REQUIRE_ROOT();
  TempDir tmp;
  WriteInputs(tmp.path());
  LoopDevice hdd(32ull << 20), ssd(32ull << 20);
  ASSERT_TRUE(hdd.ok()) << hdd.error();
  ASSERT_TRUE(ssd.ok()) << ssd.error();
  const std::string base =
      std::string(TIERBENCH_BINARY) + " compare --hdd " + hdd.device() +
      " --ssd " + ssd.device() + " --modes " + tmp.path() + "/hdd.json " +
      tmp.path() + "/ssd.json" + " --workloads " + tmp.path() + "/rw4k.fio" +
      " --results " + tmp.path() + "/results --quiet";
  std::string out;
  // Writes without --destructive: refused, exit 4, nothing created.
  EXPECT_EQ(RunShell(base + " --run-id a", &out), 4) << out;
  EXPECT_NE(out.find("--destructive"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(tmp.path() + "/results/a"));

  ASSERT_EQ(RunShell(base + " --run-id b --repeat 2 --destructive", &out), 0)
      << out;
  EXPECT_NE(out.find("comparison.csv"), std::string::npos) << out;
  const std::string runs = CompareReadAll(tmp.path() + "/results/b/runs.csv");
  // header + 2 modes x 2 repetitions x (read, write)
  EXPECT_EQ(std::count(runs.begin(), runs.end(), '\n'), 1 + 8) << runs;
  EXPECT_EQ(runs.rfind("schema_version,run_id,mode,layer", 0), 0u);
  const std::string cmp =
      CompareReadAll(tmp.path() + "/results/b/comparison.csv");
  EXPECT_EQ(std::count(cmp.begin(), cmp.end(), '\n'), 1 + 4) << cmp;
  // series.csv: per cell the complete seconds of the 1 s window (0 or 1);
  // raw cells have no layer columns (empty, never 0).
  const std::string series =
      CompareReadAll(tmp.path() + "/results/b/series.csv");
  EXPECT_EQ(series.rfind("schema_version,run_id,mode,layer,workload,"
                         "repetition,phase,t_s,read_iops,write_iops,"
                         "hit_ratio_pct,dirty_bytes\n",
                         0),
            0u)
      << series;
  EXPECT_LE(std::count(series.begin(), series.end(), '\n'), 1 + 4) << series;
  std::istringstream lines(series);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    EXPECT_EQ(line.rfind("1,b,", 0), 0u) << line;
    EXPECT_EQ(line.substr(line.size() - 2), ",,") << line;
  }
  const std::string manifest =
      CompareReadAll(tmp.path() + "/results/b/manifest.json");
  EXPECT_NE(manifest.find("\"status\": \"complete\""), std::string::npos);
  EXPECT_NE(manifest.find(hdd.device()), std::string::npos);

  // --expect: a bad expression is refused before any IO...
  EXPECT_EQ(RunShell(base + " --run-id e --destructive --expect 'ssd iops > 1'",
                     &out),
            2)
      << out;
  EXPECT_NE(out.find("--expect 'ssd iops > 1': the cell 'ssd' is not "
                     "MODE/WORKLOAD"),
            std::string::npos)
      << out;
  EXPECT_FALSE(std::filesystem::exists(tmp.path() + "/results/e"));
  // ...and after the run each one is judged: one that cannot hold fails the
  // run (exit 1). Whether the SSD's cell is valid depends on the machine
  // (two loop devices in RAM: no-discrimination on a quiet host, the HDD's
  // cell cpu-bound under load), so its expectation must pass when the
  // run's comparison.csv calls the cell valid and fail, naming why, when it
  // is marked invalid. (The fixture-based cases: check_cli_test.cc.)
  const std::string junit = tmp.path() + "/expect.xml";
  EXPECT_EQ(RunShell(base +
                         " --run-id f --destructive --expect "
                         "'ssd/rw4k/read iops > 1' --expect "
                         "'hdd/rw4k/read iops >= 1e12' --junit " +
                         junit,
                     &out),
            1)
      << out;
  const CsvDocument cmp_f = CsvDocument::Parse(
      CompareReadAll(tmp.path() + "/results/f/comparison.csv"),
      "comparison.csv");
  std::string ssd_valid;
  for (size_t r = 0; r < cmp_f.row_count(); ++r) {
    if (cmp_f.Get(r, "mode") == "ssd" && cmp_f.Get(r, "direction") == "read") {
      ssd_valid = cmp_f.Get(r, "valid");
    }
  }
  ASSERT_FALSE(ssd_valid.empty()) << "no ssd read row in comparison.csv";
  const bool ssd_invalid = ssd_valid == "no";
  EXPECT_NE(
      out.find(ssd_invalid ? "  expect FAILED: ssd/rw4k/read iops > 1: ssd on "
                             "rw4k read is marked invalid: "
                           : "  expect passed: ssd/rw4k/read iops > 1: ssd on "
                             "rw4k read: "),
      std::string::npos)
      << "valid=" << ssd_valid << "\n"
      << out;
  EXPECT_NE(out.find("  expect FAILED: hdd/rw4k/read iops >= 1e12: "),
            std::string::npos)
      << out;
  const std::string xml = CompareReadAll(junit);
  EXPECT_NE(xml.find(std::string("tests=\"2\" failures=\"") +
                     (ssd_invalid ? "2" : "1") + "\""),
            std::string::npos)
      << xml;
  // The same file as python3-junitparser reads it: the expectations that
  // compare printed, as cases, and as the suite's counts.
  JUnitCounts printed;
  printed.tests =
      Count(out, "\n  expect passed: ") + Count(out, "\n  expect FAILED: ");
  printed.failures = Count(out, "\n  expect FAILED: ");
  printed.errors = 0;
  printed.skipped = 0;
  EXPECT_EQ(printed.tests, 2) << out;
  TIERBENCH_REQUIRE_JUNITPARSER();
  const JUnitParsed read = ReadWithJunitparser(junit);
  ASSERT_EQ(read.error, "") << xml;
  EXPECT_EQ(read.suites, 1) << xml;
  EXPECT_EQ(read.counted, printed) << out << xml;
  EXPECT_EQ(read.declared, printed) << out << xml;
}

// --precondition: before the cells, the raw SSD is written sequentially
// over the compare's region (the smaller device: 32 MiB), twice by default;
// the manifest has each pass, the SSD's cells say settled = 1, and the
// image that was all zeros holds the written data up to the region's end.
// Refused without --destructive (exit 4) and without an ssd mode (exit 2),
// each in one line, before anything is written.
TEST(CompareCliTest, PreconditionWritesTheSsdBeforeItsCells) {
  TIERBENCH_REQUIRE_ROOT();
  TempDir tmp;
  WriteInputs(tmp.path());
  std::ofstream(tmp.path() + "/rr4k.fio")
      << "[rr4k]\nrw=randread\nbs=4k\nsize=8M\nioengine=libaio\n"
         "iodepth=2\ndirect=1\nruntime=1s\ntime_based\n";
  LoopDevice hdd(32ull << 20), ssd(32ull << 20);
  ASSERT_TRUE(hdd.ok()) << hdd.error();
  ASSERT_TRUE(ssd.ok()) << ssd.error();
  const std::string base =
      std::string(TIERBENCH_BINARY) + " compare --hdd " + hdd.device() +
      " --ssd " + ssd.device() + " --workloads " + tmp.path() +
      "/rr4k.fio --results " + tmp.path() + "/results --quiet";
  const std::string both =
      " --modes " + tmp.path() + "/hdd.json " + tmp.path() + "/ssd.json";
  std::string out;
  EXPECT_EQ(RunShell(base + both + " --precondition --run-id a 2>&1", &out), 4)
      << out;
  EXPECT_NE(out.find("--precondition overwrites the raw SSD"),
            std::string::npos)
      << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_EQ(RunShell(base + " --modes " + tmp.path() +
                         "/hdd.json --precondition --destructive "
                         "--run-id b 2>&1",
                     &out),
            2)
      << out;
  EXPECT_NE(out.find("no ssd mode"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_FALSE(std::filesystem::exists(tmp.path() + "/results"));
  {
    // Nothing was written to the SSD by the refused runs.
    std::ifstream image(ssd.image(), std::ios::binary);
    image.seekg((32 << 20) - 4096);
    std::string tail(4096, '\1');
    image.read(tail.data(), 4096);
    ASSERT_EQ(image.gcount(), 4096);
    EXPECT_EQ(tail, std::string(4096, '\0'));
  }

  ASSERT_EQ(
      RunShell(base + both + " --precondition --destructive --run-id c 2>&1",
               &out),
      0)
      << out;
  const nlohmann::json m = nlohmann::json::parse(
      CompareReadAll(tmp.path() + "/results/c/manifest.json"));
  ASSERT_TRUE(m.contains("precondition")) << m.dump(2);
  const nlohmann::json& p = m["precondition"];
  EXPECT_EQ(p["device"], ssd.device());
  EXPECT_EQ(p["range_bytes"], 32ull << 20);
  EXPECT_EQ(p["passes"], 2);
  EXPECT_EQ(p["bytes"], 64ull << 20);
  ASSERT_EQ(p["pass_mib_s"].size(), 2u);
  for (const auto& mib_s : p["pass_mib_s"]) EXPECT_GT(mib_s.get<double>(), 0);
  EXPECT_EQ(m["options"]["precondition_passes"], 2);
  // The last block of the region was written (the image was all zeros).
  std::ifstream image(ssd.image(), std::ios::binary);
  image.seekg((32 << 20) - 4096);
  std::string tail(4096, '\0');
  image.read(tail.data(), 4096);
  ASSERT_EQ(image.gcount(), 4096);
  EXPECT_NE(tail, std::string(4096, '\0'));
  // settled: 1 on the SSD's rows, empty on the HDD's.
  // A CSV line's fields; quoted fields may hold commas and "" quotes.
  const auto fields = [](const std::string& line) {
    std::vector<std::string> f(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char ch = line[i];
      if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        f.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = !quoted;
      } else if (ch == ',' && !quoted) {
        f.emplace_back();
      } else {
        f.back() += ch;
      }
    }
    return f;
  };
  std::istringstream runs(CompareReadAll(tmp.path() + "/results/c/runs.csv"));
  std::string line;
  ASSERT_TRUE(std::getline(runs, line));
  const std::vector<std::string> cols = fields(line);
  const size_t mode_col =
      std::find(cols.begin(), cols.end(), "mode") - cols.begin();
  const size_t settled_col =
      std::find(cols.begin(), cols.end(), "settled") - cols.begin();
  ASSERT_LT(settled_col, cols.size());
  ASSERT_LT(mode_col, cols.size());
  int ssd_rows = 0, hdd_rows = 0;
  while (std::getline(runs, line)) {
    const std::vector<std::string> f = fields(line);
    ASSERT_EQ(f.size(), cols.size()) << line;
    if (f[mode_col] == "ssd") {
      ++ssd_rows;
      EXPECT_EQ(f[settled_col], "1") << line;
    } else {
      ++hdd_rows;
      EXPECT_EQ(f[settled_col], "") << line;
    }
  }
  EXPECT_EQ(ssd_rows, 1);
  EXPECT_EQ(hdd_rows, 1);
}

TEST(CompareCliTest, CacheModesNeedTheirLayerInTheKernel) {
  TIERBENCH_REQUIRE_ROOT();
  if (std::filesystem::exists("/sys/fs/bcache")) {
    GTEST_SKIP() << "SKIPPED: this kernel has bcache; the refusal is only "
                    "observable without it (real bcache runs in the lab "
                    "tests)";
  }
  TempDir tmp;
  WriteInputs(tmp.path());
  std::string out;
  const int rc = RunShell(
      std::string(TIERBENCH_BINARY) +
          " compare --bcache /dev/bcache0 --modes " + tmp.path() +
          "/wb.json --workloads " + tmp.path() +
          "/rw4k.fio --destructive --results " + tmp.path() + "/results",
      &out);
  EXPECT_EQ(rc, 3) << out;
  EXPECT_NE(out.find("no bcache and no device-mapper in this kernel"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("tierbench lab"), std::string::npos) << out;
}

// --verify[=SIZE]: a bad size is one line naming the option and the fix,
// exit 2, before anything is checked or touched (no root needed). A size
// bigger than the stack is refused by PrepareCompare (VerifyCompareTest).
TEST(CompareCliTest, BadVerifySizesAreOneLineErrors) {
  TempDir tmp;
  WriteInputs(tmp.path());
  for (const char* size : {"0", "4097", "6k", "lots", "-4M"}) {
    std::string out;
    const int rc =
        RunShell(std::string(TIERBENCH_BINARY) + " compare --verify=" + size +
                     " --workloads " + tmp.path() + "/rw4k.fio --results " +
                     tmp.path() + "/results 2>&1",
                 &out);
    EXPECT_EQ(rc, 2) << size << ": " << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1)
        << size << ": " << out;
    EXPECT_NE(out.find("--verify"), std::string::npos) << out;
    EXPECT_NE(out.find("Fix:"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(tmp.path() + "/results"));
  }
}

// --ssd-tbw TB: a rating that is not a number above 0 is one line naming
// the option and the fix, exit 2, with nothing written.
TEST(CompareCliTest, BadSsdTbwIsAOneLineError) {
  TempDir tmp;
  WriteInputs(tmp.path());
  for (const char* tbw :
       {"0", "-600", "lots", "600TB", "nan", "inf", "1e999"}) {
    std::string out;
    const int rc =
        RunShell(std::string(TIERBENCH_BINARY) + " compare --ssd-tbw=" + tbw +
                     " --workloads " + tmp.path() + "/rw4k.fio --results " +
                     tmp.path() + "/results 2>&1",
                 &out);
    EXPECT_EQ(rc, 2) << tbw << ": " << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1)
        << tbw << ": " << out;
    EXPECT_NE(out.find("--ssd-tbw"), std::string::npos) << out;
    EXPECT_NE(out.find("Fix:"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(tmp.path() + "/results"));
  }
}

// --workload-modes: a workload limited to some modes runs only there; a
// malformed value, an unknown workload or mode is one line naming the
// option and the fix, exit 2, with nothing written.
TEST(CompareCliTest, WorkloadModesLimitAWorkloadToSomeModes) {
  TIERBENCH_REQUIRE_ROOT();
  TempDir tmp;
  WriteInputs(tmp.path());
  std::ofstream(tmp.path() + "/r4k.fio")
      << "[r4k]\nrw=randread\nbs=4k\nsize=8M\nioengine=libaio\n"
         "iodepth=2\ndirect=1\nruntime=1s\ntime_based\n";
  LoopDevice hdd(32ull << 20), ssd(32ull << 20);
  ASSERT_TRUE(hdd.ok()) << hdd.error();
  ASSERT_TRUE(ssd.ok()) << ssd.error();
  const std::string base = std::string(TIERBENCH_BINARY) + " compare --hdd " +
                           hdd.device() + " --ssd " + ssd.device() +
                           " --modes " + tmp.path() + "/hdd.json " +
                           tmp.path() + "/ssd.json --workloads " + tmp.path() +
                           "/rw4k.fio " + tmp.path() + "/r4k.fio --results " +
                           tmp.path() + "/results --quiet --destructive";
  for (const char* bad : {"rw4k", "=hdd", "rw4k=", "nosuch=hdd", "rw4k=nosuch",
                          "r4k=hdd --workload-modes r4k=ssd"}) {
    std::string out;
    const int rc = RunShell(
        base + " --run-id bad --workload-modes " + std::string(bad) + " 2>&1",
        &out);
    EXPECT_EQ(rc, 2) << bad << ": " << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1)
        << bad << ": " << out;
    EXPECT_NE(out.find("--workload-modes"), std::string::npos) << out;
    EXPECT_NE(out.find("Fix:"), std::string::npos) << out;
    EXPECT_FALSE(std::filesystem::exists(tmp.path() + "/results/bad"));
  }
  std::string out;
  ASSERT_EQ(RunShell(base + " --run-id ok --workload-modes r4k=hdd", &out), 0)
      << out;
  std::ifstream in(tmp.path() + "/results/ok/runs.csv");
  std::stringstream text;
  text << in.rdbuf();
  const std::string runs = text.str();
  // rw4k in both modes, r4k on the HDD only: 3 cells (rw4k: 2 rows each).
  EXPECT_NE(runs.find(",hdd,raw,,r4k,"), std::string::npos) << runs;
  EXPECT_EQ(runs.find(",ssd,raw,,r4k,"), std::string::npos) << runs;
  EXPECT_NE(runs.find(",ssd,raw,,rw4k,"), std::string::npos) << runs;
}

}  // namespace
}  // namespace tierbench::testing
