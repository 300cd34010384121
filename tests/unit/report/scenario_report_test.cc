// Unit tests of a lab scenario's report (present/pages/scenario_report.h)
// on run folders the scenarios' reporters write (report/fault_reporter.h,
// report/fill_reporter.h): the verdict first, read from the rows; the
// tables; the fill chart inline; refusals.
#include "present/pages/scenario_report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/fault_reporter.h"
#include "report/fill_reporter.h"
#include "util/errors.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class ScenarioReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tb-scenario-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A cache-fail run: dm-cache returned errors, a made-up layer "x"
  // served 3 blocks of the older version without one.
  void WriteFault(bool with_silent) {
    FaultLayer l;
    l.layer = "dm-cache";
    l.fault = "cache-fail";
    l.device = "/dev/mapper/tb-f-dc";
    l.blocks = 256;
    l.block_bytes = 32768;
    l.dirty_bytes_at_fault = 256 * 32768;
    l.dirty_at_fault = "256 x 32 KiB";
    l.writer_blocks = 512;
    l.writer_errors = 300;
    l.stack.lost = 256;
    l.recovery = "uncache (the origin alone)";
    l.recovered.stale = 256;
    l.origin.stale = 256;
    FaultRun run;
    run.run_dir = dir_.string();
    run.layers = {l};
    if (with_silent) {
      l.layer = "x";
      l.stack.lost = 253;
      l.stack.stale = 3;
      run.layers.push_back(l);
    }
    std::ostringstream console;
    FaultReporter(dir_.string(), console).OnFault(run);
  }

  fs::path dir_;
};

TEST_F(ScenarioReportTest, TheFaultReportSaysNoLayerCorruptedSilently) {
  WriteFault(false);
  EXPECT_TRUE(IsScenarioFolder(dir_.string()));
  // The reporter wrote the report itself.
  const std::string html = Read(dir_ / "report.html");
  const size_t verdict = html.find(
      "No layer corrupted data silently after cache-fail: every block a "
      "stack could not serve came back as a read error (dm-cache).");
  ASSERT_NE(verdict, std::string::npos) << html;
  // The verdict comes before the table.
  EXPECT_LT(verdict, html.find("<table>"));
  EXPECT_NE(html.find("<td>uncache (the origin alone)</td>"),
            std::string::npos);
  const std::string md = Read(dir_ / "summary.md");
  EXPECT_NE(md.find("- dm-cache (256 x 32 KiB dirty): through the stack 0 "
                    "intact, 0 stale, 256 read errors, 0 corrupt of 256"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| layer | fault | dirty |"), std::string::npos) << md;
}

TEST_F(ScenarioReportTest, SilentCorruptionLeadsTheVerdict) {
  WriteFault(true);
  const std::vector<std::string> v = ScenarioVerdict(dir_.string());
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0],
            "After cache-fail, x returned blocks without an error that were "
            "not their last acknowledged version: silent corruption.");
}

TEST_F(ScenarioReportTest, TheFillReportHasTheCliffAndItsChart) {
  FillLayer l;
  l.layer = "dm-writecache";
  l.device = "/dev/mapper/tb-writecache";
  l.cache_bytes = 64ull << 20;
  l.limit = "the whole cache";
  l.limit_bytes = 64ull << 20;
  l.rate_iops = 2000;
  for (int i = 0; i < 12; ++i) {
    FillSecond s;
    s.t_s = i;
    s.write_iops = i < 8 ? 2000 : 150;
    s.p99_us = i < 8 ? 900 : 250000;
    s.dirty_bytes = std::min<uint64_t>((i + 1) * 8192000ull, 64ull << 20);
    l.seconds.push_back(s);
  }
  l.cliff = true;
  l.time_to_cliff_s = 8.0;
  l.predicted_time_to_cliff_s = 8.2;
  l.iops_before = 2000;
  l.iops_at_cliff = 150;
  l.iops_after = 150;
  l.p99_before_us = 900;
  l.p99_at_cliff_us = 250000;
  FillRun run;
  run.run_dir = dir_.string();
  run.layers = {l};
  std::ostringstream console;
  FillReporter(dir_.string(), console).OnFill(run);
  const std::string html = Read(dir_ / "report.html");
  EXPECT_NE(html.find("dm-writecache: the writes fell from 2000 to 150 IOPS "
                      "at 8.00 s (predicted 8.20 s by the limit"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<svg"), std::string::npos);  // charts/fill.svg inline
  EXPECT_NE(html.find("<figcaption>Per second (fill-series.csv)"),
            std::string::npos);
}

TEST_F(ScenarioReportTest, RefusesAnExistingReportAndAForeignSchema) {
  WriteFault(false);
  EXPECT_THROW(WriteScenarioReport(dir_.string(), "", false), SafetyError);
  std::string csv = Read(dir_ / "fault.csv");
  csv.replace(csv.find("\n1,") + 1, 1, "9");
  std::ofstream(dir_ / "fault.csv") << csv;
  try {
    WriteScenarioReport(dir_.string(), "", true);
    ADD_FAILURE() << "a schema_version 9 fault.csv was read";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("fault.csv: schema_version 9"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tierbench
