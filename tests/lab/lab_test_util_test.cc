// The lab tests' own helpers (lab_test_util.h), which need no guest: a CSV
// value the lab run did not bring back must fail the test that reads it,
// never pass an assertion by default (issue 29).
#include "lab_test_util.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

namespace tierbench::labtest {
namespace {

const CsvRow kRow = {{"mode", "writeback"},
                     {"workload", "randwrite-4k"},
                     {"iops", "1234.5"},
                     {"read_hits", ""},
                     {"warnings", "fast"}};

TEST(LabTestUtil, NumReadsANumber) {
  EXPECT_EQ(Num(kRow, "iops"), 1234.5);
  EXPECT_TRUE(Has(kRow, "iops"));
  EXPECT_FALSE(Has(kRow, "read_hits"));          // empty: n/a
  EXPECT_FALSE(Has(kRow, "dirty_after_bytes"));  // no such column
}

// A row without the column (a runs.csv that lost it) and a row with the
// column empty (a counter the layer did not report) both fail, naming the
// column and the row; the NaN returned fails every comparison as well.
TEST(LabTestUtil, NumFailsOnAMissingOrEmptyColumn) {
  double value = 0;
  EXPECT_NONFATAL_FAILURE(value = Num(kRow, "dirty_after_bytes"),
                          "CSV row (mode writeback, workload randwrite-4k) "
                          "has no value for column 'dirty_after_bytes' (no "
                          "such column)");
  EXPECT_TRUE(std::isnan(value));
  EXPECT_FALSE(value < 1e300);
  EXPECT_FALSE(value > -1e300);
  EXPECT_FALSE(value == -1);
  value = 0;
  EXPECT_NONFATAL_FAILURE(value = Num(kRow, "read_hits"),
                          "has no value for column 'read_hits'");
  EXPECT_TRUE(std::isnan(value));
  EXPECT_NONFATAL_FAILURE(value = Num(kRow, "warnings"),
                          "holds 'fast' in column 'warnings', not a number");
  EXPECT_TRUE(std::isnan(value));
}

// The assertion shape that passed on missing data while Num() returned -1
// (EXPECT_LT(missing, bound)) now fails twice: Num() names the column, and
// the comparison on NaN fails too.
TEST(LabTestUtil, AnUpperBoundOnAMissingValueFails) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::
            INTERCEPT_ONLY_CURRENT_THREAD,
        &failures);
    EXPECT_LT(Num(kRow, "drain_after_s"), 5.0);
  }
  ASSERT_EQ(failures.size(), 2);
  EXPECT_NE(std::string(failures.GetTestPartResult(0).message())
                .find("no value for column 'drain_after_s'"),
            std::string::npos)
      << failures.GetTestPartResult(0).message();
  EXPECT_TRUE(failures.GetTestPartResult(1).nonfatally_failed());
}

// Shown once on a real lab run (the demo's, committed in
// results/sample-lab): its runs.csv with the `iops_sustained` column
// deleted makes the pgbench lab test's assertion on it fail, naming the
// column, where it once passed on a -1.
TEST(LabTestUtil, ALabRunsCsvWithoutAColumnFailsTheAssertionOnIt) {
  const std::string source = ReadText(kSource + "/results/sample-lab/runs.csv");
  ASSERT_FALSE(source.empty());
  // Drop the column from every line (no quoted commas before it).
  std::string header = source.substr(0, source.find('\n'));
  size_t col = 0, at = 0;
  for (size_t next; (next = header.find(',', at)) != std::string::npos;
       at = next + 1, ++col) {
    if (header.substr(at, next - at) == "iops_sustained") break;
  }
  std::string cut;
  for (size_t start = 0, end; start < source.size(); start = end + 1) {
    end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    std::string line = source.substr(start, end - start);
    size_t from = 0;
    for (size_t i = 0; i < col; ++i) from = line.find(',', from) + 1;
    const size_t to = line.find(',', from);
    cut += line.substr(0, from) + line.substr(to + 1) + "\n";
  }
  ScratchDir dir;
  const std::string path = dir.path() + "/runs.csv";
  {
    std::ofstream out(path);
    out << cut;
  }
  const std::vector<CsvRow> full =
      ReadCsv(kSource + "/results/sample-lab/runs.csv");
  const std::vector<CsvRow> rows = ReadCsv(path);
  ASSERT_EQ(rows.size(), full.size());
  const CsvRow* writeback =
      Find(rows, "writeback", "pgbench-tpcb-demo", "write");
  ASSERT_NE(writeback, nullptr);
  EXPECT_TRUE(Has(*Find(full, "writeback", "pgbench-tpcb-demo", "write"),
                  "iops_sustained"));
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::
            INTERCEPT_ONLY_CURRENT_THREAD,
        &failures);
    EXPECT_LT(Num(*writeback, "iops_sustained"), Num(*writeback, "iops"));
  }
  // Num() names the column; the comparison on its NaN fails as well.
  ASSERT_EQ(failures.size(), 2);
  EXPECT_NE(std::string(failures.GetTestPartResult(0).message())
                .find("has no value for column 'iops_sustained' (no such "
                      "column)"),
            std::string::npos)
      << failures.GetTestPartResult(0).message();
}

// The capture test's check of guest-tests.log: passes on its OK line only;
// a failed or skipped run, or none, fails.
const char* const kCaptureLogOk =
    "[ RUN      ] CaptureReplayTest.ReplayOfACaptureDoesWhatTheDeviceSaw\n"
    "capture: device counted reads 208 (1664 sectors)\n"
    "[       OK ] CaptureReplayTest.ReplayOfACaptureDoesWhatTheDeviceSaw "
    "(9 ms)\n";
const char* const kCaptureLogFailed =
    "[ RUN      ] CaptureReplayTest.ReplayOfACaptureDoesWhatTheDeviceSaw\n"
    "x.cc:1: Failure\n"
    "[  FAILED  ] CaptureReplayTest.ReplayOfACaptureDoesWhatTheDeviceSaw "
    "(9 ms)\n";
const char* const kCaptureLogSkipped =
    "[ RUN      ] CaptureReplayTest.ReplayOfACaptureDoesWhatTheDeviceSaw\n"
    "SKIPPED: debugfs not mounted\n"
    "[  SKIPPED ] CaptureReplayTest.ReplayOfACaptureDoesWhatTheDeviceSaw\n";
const char* const kCaptureLogAbsent = "[ RUN      ] UringLoopTest.X\n";

TEST(LabTestUtil, CaptureReplayPassesOnItsOkLineOnly) {
  ExpectCaptureReplayPassed(kCaptureLogOk);
  EXPECT_NONFATAL_FAILURE(ExpectCaptureReplayPassed(kCaptureLogFailed),
                          "x.cc:1: Failure");
  // Skipped: no OK line, and the SKIPPED line.
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::
            INTERCEPT_ONLY_CURRENT_THREAD,
        &failures);
    ExpectCaptureReplayPassed(kCaptureLogSkipped);
  }
  ASSERT_EQ(failures.size(), 2);
  EXPECT_TRUE(failures.GetTestPartResult(0).nonfatally_failed());
  EXPECT_NE(std::string(failures.GetTestPartResult(1).message())
                .find("find(\"SKIPPED\")"),
            std::string::npos)
      << failures.GetTestPartResult(1).message();
  EXPECT_FATAL_FAILURE(ExpectCaptureReplayPassed(kCaptureLogAbsent),
                       "the capture test did not run");
}

}  // namespace
}  // namespace tierbench::labtest
